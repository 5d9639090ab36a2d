/*
 * spawn_time OUT ERR CMD [ARG...]: run CMD once with its stdout to OUT and
 * stderr to ERR, print the wall microseconds from just before the spawn to
 * the child's exit, and exit with the child's exit code.  The shell's own
 * $(date) forks cost about 2 ms each, which swamped a one-site command of a
 * few milliseconds; this measures the process start as Argo CD or a shell
 * pays it (fork, exec, dynamic loading) and nothing of the harness.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int
main(int argc, char **argv)
{
	posix_spawn_file_actions_t fa;
	struct timespec t0, t1;
	pid_t pid;
	int status;

	if (argc < 4) {
		fprintf(stderr, "usage: spawn_time OUT ERR CMD [ARG...]\n");
		return 2;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (posix_spawnp(&pid, argv[3], &fa, NULL, argv + 3, environ) != 0) {
		perror(argv[3]);
		return 127;
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return 127;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%lld\n", (long long)(t1.tv_sec - t0.tv_sec) * 1000000 +
				 (t1.tv_nsec - t0.tv_nsec) / 1000);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
