// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The benchmarks' timer: runs commands in turn, round after round, and
 * writes each run's wall time, from before posix_spawn() to after wait4(),
 * in nanoseconds, a line each:
 *   spawn ROUNDS ARGV OUT [ARGV OUT]...
 * ARGV is a file of the command's words, each ended by a NUL; OUT gets its
 * times. A command starts as the shell would start it, but without the
 * shell's fork of itself (2.6 ms a run on this project's VMs, on every
 * command alike, which pulled every ratio to a floor towards 1). Output
 * goes to /dev/null; exit statuses are not judged, a failed spawn is.
 * BENCH_CPU=N runs every command on CPU N (bench_setup sets it): the floor
 * and the commands on the same CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

struct cmd {
	char *words; /* the file's bytes */
	char **argv; /* into words */
	FILE *out;
};

static int load(struct cmd *c, const char *argv_file, const char *out_file)
{
	FILE *f = fopen(argv_file, "r");
	size_t len = 0, cap = 4096, n = 0;
	int ch;

	if (!f || !(c->words = malloc(cap))) {
		fprintf(stderr, "spawn: %s: %s\n", argv_file, strerror(errno));
		return -1;
	}
	while ((ch = getc(f)) != EOF) {
		if (len == cap) {
			char *w = realloc(c->words, cap *= 2);

			if (!w) {
				fprintf(stderr, "spawn: %s: out of memory\n", argv_file);
				return -1;
			}
			c->words = w;
		}
		c->words[len++] = (char)ch;
		n += ch == '\0';
	}
	fclose(f);
	if (!n || c->words[len - 1] != '\0') {
		fprintf(stderr, "spawn: %s: not a list of NUL-ended words\n", argv_file);
		return -1;
	}
	if (!(c->argv = calloc(n + 1, sizeof(*c->argv))))
		return -1;
	n = 0;
	for (size_t i = 0; i < len; i += strlen(c->words + i) + 1)
		c->argv[n++] = c->words + i;
	if (!(c->out = fopen(out_file, "w"))) {
		fprintf(stderr, "spawn: %s: %s\n", out_file, strerror(errno));
		return -1;
	}
	return 0;
}

static long long ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

/*
 * On this project's VMs the two vCPUs have run at speeds 30% apart for
 * minutes at a time (the host's load), and a run landed on either: the
 * rounds were bimodal, and in a run where the floor's runs fell on the slow
 * one more often than a command's, that command read 0.86x its floor.
 * Children inherit the CPU through posix_spawn().
 */
static int pin(void)
{
	const char *want = getenv("BENCH_CPU");
	char *end;
	long cpu;
	cpu_set_t set;

	if (!want || !*want)
		return 0;
	errno = 0;
	cpu = strtol(want, &end, 10);
	if (errno || *end || cpu < 0 || cpu >= CPU_SETSIZE) {
		fprintf(stderr, "spawn: BENCH_CPU=%s: not a CPU number\n", want);
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		fprintf(stderr, "spawn: cannot run on CPU %ld: %s\n", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	posix_spawn_file_actions_t fa;
	struct cmd *cmds;
	int rounds, m;

	if (argc < 4 || argc % 2 || (rounds = atoi(argv[1])) < 0) {
		fprintf(stderr, "usage: spawn ROUNDS ARGV OUT [ARGV OUT]...\n");
		return 2;
	}
	m = (argc - 2) / 2;
	if (!(cmds = calloc((size_t)m, sizeof(*cmds))))
		return 1;
	for (int i = 0; i < m; i++)
		if (load(&cmds[i], argv[2 + 2 * i], argv[3 + 2 * i]) < 0)
			return 1;
	if (pin() < 0)
		return 1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < m; i++) {
			struct timespec a, b;
			int status, e;
			pid_t pid;

			clock_gettime(CLOCK_MONOTONIC, &a);
			e = posix_spawnp(&pid, cmds[i].argv[0], &fa, NULL, cmds[i].argv, environ);
			if (e) {
				fprintf(stderr, "spawn: %s: %s\n", cmds[i].argv[0], strerror(e));
				return 1;
			}
			while (waitpid(pid, &status, 0) < 0) {
				if (errno != EINTR) {
					perror("spawn: waitpid");
					return 1;
				}
			}
			clock_gettime(CLOCK_MONOTONIC, &b);
			fprintf(cmds[i].out, "%lld\n", ns(&b) - ns(&a));
		}
	}
	for (int i = 0; i < m; i++) {
		if (fclose(cmds[i].out)) {
			perror("spawn: writing the times");
			return 1;
		}
		free(cmds[i].argv);
		free(cmds[i].words);
	}
	free(cmds);
	posix_spawn_file_actions_destroy(&fa);
	return 0;
}
