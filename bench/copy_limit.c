/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The single-copy limit of this machine, for bench/run.sh: how fast one CPU
 * copies SIZE bytes with memcpy inside a process, and with
 * process_vm_writev into another process (what a same-host transport with
 * one copy can reach). Buffers are reused, as the benchmarks reuse theirs.
 *
 *   copy_limit SIZE ITERS    prints "memcpy MiB/s" and "process_vm_writev MiB/s"
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double mib_per_s(size_t size, long iters, double seconds)
{
	return (double)size * (double)iters / seconds / (1024.0 * 1024.0);
}

static double memcpy_rate(char *dst, const char *src, size_t size, long iters)
{
	double t0 = now_s();

	for (long i = 0; i < iters; i++) {
		memcpy(dst, src, size);
		__asm__ volatile("" : : "r"(dst) : "memory"); /* keep every copy */
	}
	return mib_per_s(size, iters, now_s() - t0);
}

/* A child writes into this process's dst; the parent waits on a pipe. */
static double pvm_rate(char *dst, size_t size, long iters)
{
	pid_t parent = getpid(), child;
	int fds[2];
	double rate = -1;

	if (pipe(fds) != 0)
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (child == 0) {
		char *src = malloc(size);
		struct iovec local = { src, size }, remote = { dst, size };
		double t0, r = -1;

		if (src) {
			memset(src, 0x5a, size);
			t0 = now_s();
			for (long i = 0; i < iters; i++)
				if (process_vm_writev(parent, &local, 1, &remote, 1, 0) !=
				    (ssize_t)size)
					break;
			r = mib_per_s(size, iters, now_s() - t0);
		}
		if (write(fds[1], &r, sizeof(r)) != (ssize_t)sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &rate, sizeof(rate)) != (ssize_t)sizeof(rate))
		rate = -1;
	close(fds[0]);
	waitpid(child, NULL, 0);
	if (rate > 0 && (unsigned char)dst[size - 1] != 0x5a)
		rate = -1; /* the bytes did not arrive */
	return rate;
}

int main(int argc, char **argv)
{
	size_t size;
	long iters;
	char *src, *dst;
	double m, p;

	if (argc != 3 || (size = strtoull(argv[1], NULL, 0)) == 0 ||
	    (iters = strtol(argv[2], NULL, 0)) <= 0) {
		fprintf(stderr, "usage: %s SIZE ITERS\n", argv[0]);
		return 2;
	}
	src = malloc(size);
	dst = malloc(size);
	if (!src || !dst)
		return 1;
	memset(src, 1, size);
	memset(dst, 0, size);
	m = memcpy_rate(dst, src, size, iters);
	p = pvm_rate(dst, size, iters);
	if (p < 0) {
		fprintf(stderr, "process_vm_writev failed: %s\n", strerror(errno));
		return 1;
	}
	printf("memcpy %.2f\nprocess_vm_writev %.2f\n", m, p);
	free(src);
	free(dst);
	return 0;
}
