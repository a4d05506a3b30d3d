// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for monitor --backend kernel in make bench-monitor: a minimal
 * program that reads what that backend must read at the least — the hist
 * files of the four workqueue events in one trace instance — once per
 * interval, and prints the CPU time it used (user + system, as getrusage
 * counts it: the kernel's printing of the hists is system time).
 *   histfloor INSTANCE_DIR SECONDS INTERVAL
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static const char *const events[] = {"workqueue_queue_work", "workqueue_activate_work", "workqueue_execute_start",
				     "workqueue_execute_end"};

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	unsigned long long bytes = 0;
	struct rusage ru;
	double secs, step;
	long reads = 0;

	if (argc != 4)
		return 2;
	secs = atof(argv[2]);
	step = atof(argv[3]);
	for (double t = 0; t < secs; t += step) {
		struct timespec ts = {(time_t)step, (long)((step - (double)(time_t)step) * 1e9)};

		nanosleep(&ts, NULL);
		for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
			char path[512];
			ssize_t n;
			int fd;

			snprintf(path, sizeof(path), "%s/events/workqueue/%s/hist", argv[1], events[i]);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				return 1;
			while ((n = read(fd, buf, sizeof(buf))) > 0)
				bytes += (unsigned long long)n;
			close(fd);
		}
		reads++;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("ticks=%ld reads=%ld bytes=%llu\n",
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 100 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 10000,
	       reads, bytes);
	return 0;
}
