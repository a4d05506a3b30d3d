// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for monitor's kernel paths in make bench-monitor: a minimal
 * program that reads what such a path must read at the least — the hist
 * files it names (the four workqueue events' counts, and for the default
 * columns also the two wait and run time hists) — once per interval, and
 * prints the CPU time it used: in ticks (user + system as getrusage counts
 * them: the kernel's printing of the hists is system time) and in ns (the
 * scheduler's run time from /proc/self/schedstat, not cut to ticks, from
 * the first interval on: start-up is not counted, as it is not for wqctl).
 * With -w N it also does N thousand steps of user work an interval, each
 * reading a byte of a 1 MiB buffer at a stride across its pages (the
 * reading's floor plus user work of about wqctl's size: whether a flood
 * makes user work itself dear in the guest).
 *   histfloor SECONDS INTERVAL [-w N] HISTFILE...
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static unsigned char big[1 << 20];

/* n thousand reads of big, stride 4099 bytes (about one page each), summed so none is optimised out. */
static unsigned long work(long n)
{
	unsigned long sum = 0, at = 0;

	for (long i = 0; i < n * 1000; i++) {
		sum += big[at];
		at = (at + 4099) % sizeof(big);
	}
	return sum;
}

/* The scheduler's run time of this process so far in ns (0 if unknown). */
static unsigned long long run_ns(void)
{
	unsigned long long ns = 0;
	FILE *f = fopen("/proc/self/schedstat", "r");

	if (f) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
	}
	return ns;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	volatile unsigned long sink = 0;
	long steps = 0;
	int first = 3;
	unsigned long long bytes = 0, ns, ns0;
	struct rusage ru;
	double secs, step;
	long reads = 0;

	if (argc < 4)
		return 2;
	secs = atof(argv[1]);
	step = atof(argv[2]);
	if (argc > 5 && argv[3][0] == '-' && argv[3][1] == 'w') {
		steps = atol(argv[4]);
		first = 5;
		memset(big, argc, sizeof(big)); /* written, so the reads are not folded away */
	}
	ns0 = run_ns();
	for (double t = 0; t < secs; t += step) {
		struct timespec ts = {(time_t)step, (long)((step - (double)(time_t)step) * 1e9)};

		nanosleep(&ts, NULL);
		for (int i = first; i < argc; i++) {
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
		sink += work(steps);
		reads++;
	}
	getrusage(RUSAGE_SELF, &ru);
	ns = run_ns() - ns0;
	printf("ticks=%ld ns=%llu reads=%ld bytes=%llu\n",
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 100 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 10000,
	       ns, reads, bytes);
	return 0;
}
