// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Peak resident memory and page faults of one run of a command, for the
 * benchmarks:
 *   rss COMMAND [ARG...]   prints the child's ru_maxrss in KiB, then its
 *                          minor page faults (ru_minflt: exact, where wall
 *                          time is noisy; 11 us each on this project's VMs)
 * The command's output goes to /dev/null; its exit status is not judged.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status, fd;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: rss COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return 1;
	printf("%ld %ld\n", ru.ru_maxrss, ru.ru_minflt);
	return 0;
}
