/*
 * libdoca_dpa: naming a kernel's wild pointer (SIGSEGV, SIGBUS).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa: a wild pointer in a kernel (SIGSEGV or SIGBUS on a thread
 * running a DPA thread, launch or RPC) is named on stderr - kernel and DPA
 * thread - then the signal takes its default action, so the process ends as
 * it would without softdoca but says where. Faults elsewhere go to the
 * handler that was installed before ours.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dpa/dpa.h"

static struct sigaction previous[2];
static const int fault_signals[2] = { SIGSEGV, SIGBUS };

/* Async-signal-safe decimal formatting. */
static size_t put_u64(char *p, uint64_t v)
{
	char tmp[24];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	for (size_t i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

static size_t put_str(char *p, const char *s, size_t room)
{
	size_t n = strlen(s);
	if (n > room)
		n = room;
	memcpy(p, s, n);
	return n;
}

static void put_hex(char *p, uintptr_t v)
{
	static const char digits[] = "0123456789abcdef";
	p[0] = '0';
	p[1] = 'x';
	for (int i = 0; i < 16; i++)
		p[2 + i] = digits[(v >> (60 - 4 * i)) & 0xf];
}

static void on_fault(int sig, siginfo_t *info, void *uctx)
{
	struct sdoca_dpa_exec *exec = sdoca_dpa_exec;
	int i = sig == SIGSEGV ? 0 : 1;
	if (exec != NULL) {
		char line[512];
		size_t n = 0;
		n += put_str(line + n, "softdoca: DPA kernel '", 64);
		n += put_str(line + n, exec->kernel ? exec->kernel->name : "?", 200);
		if (exec->thread_id != 0) {
			n += put_str(line + n, "' (DPA thread ", 64);
			n += put_u64(line + n, exec->thread_id);
			n += put_str(line + n, ")", 4);
		} else if (exec->launch_id != 0) {
			n += put_str(line + n, "' (launch ", 64);
			n += put_u64(line + n, exec->launch_id);
			n += put_str(line + n, ", rank ", 16);
			n += put_u64(line + n, exec->rank);
			n += put_str(line + n, ")", 4);
		} else {
			n += put_str(line + n, "' (RPC)", 64);
		}
		n += put_str(line + n,
		             sig == SIGSEGV ? ": invalid memory access (SIGSEGV) at "
		                            : ": bus error (SIGBUS) at ",
		             64);
		put_hex(line + n, (uintptr_t)info->si_addr);
		n += 18;
		line[n++] = '\n';
		ssize_t w = write(STDERR_FILENO, line, n);
		(void)w;
		/* The default action: returning re-runs the access, which kills. */
		signal(sig, SIG_DFL);
		if (info->si_code <= 0)
			raise(sig); /* sent, not a fault: it would not recur */
		return;
	}
	const struct sigaction *prev = &previous[i];
	if (prev->sa_flags & SA_SIGINFO) {
		prev->sa_sigaction(sig, info, uctx);
	} else if (prev->sa_handler == SIG_IGN) {
		return;
	} else if (prev->sa_handler == SIG_DFL) {
		signal(sig, SIG_DFL);
	} else {
		prev->sa_handler(sig);
	}
}

static void install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 2; i++)
		sigaction(fault_signals[i], &sa, &previous[i]);
}

void sdoca_dpa_fault_install(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, install);
}
