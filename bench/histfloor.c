// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for monitor's kernel paths in make bench-monitor: a minimal
 * program that reads what such a path must read at the least — the hist
 * files it names (the four workqueue events' counts, and for the default
 * columns also the two wait and run time hists) — once per interval, and
 * prints the CPU time it used: in ticks (user + system as getrusage counts
 * them: the kernel's printing of the hists is system time) and in ns (the
 * scheduler's run time from /proc/self/schedstat, not cut to ticks).
 *   histfloor SECONDS INTERVAL HISTFILE...
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	unsigned long long bytes = 0, ns = 0;
	struct rusage ru;
	double secs, step;
	long reads = 0;
	FILE *f;

	if (argc < 4)
		return 2;
	secs = atof(argv[1]);
	step = atof(argv[2]);
	for (double t = 0; t < secs; t += step) {
		struct timespec ts = {(time_t)step, (long)((step - (double)(time_t)step) * 1e9)};

		nanosleep(&ts, NULL);
		for (int i = 3; i < argc; i++) {
			ssize_t n;
			int fd = open(argv[i], O_RDONLY);

			if (fd < 0) {
				perror(argv[i]);
				return 1;
			}
			while ((n = read(fd, buf, sizeof(buf))) > 0)
				bytes += (unsigned long long)n;
			close(fd);
		}
		reads++;
	}
	getrusage(RUSAGE_SELF, &ru);
	f = fopen("/proc/self/schedstat", "r");
	if (!f || fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	if (f)
		fclose(f);
	printf("ticks=%ld ns=%llu reads=%ld bytes=%llu\n",
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 100 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 10000,
	       ns, reads, bytes);
	return 0;
}
