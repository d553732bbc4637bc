#!/bin/sh
# thread_fault.sh PROGRAM: PROGRAM fault makes a DPA-thread kernel write
# through a wild pointer; the process must die of SIGSEGV after naming the
# kernel and its DPA thread on stderr.
set -u
err=$(timeout 50 "$1" fault 2>&1 >/dev/null)
rc=$?
printf '%s\n' "$err"
if [ $rc -eq 124 ] || [ $rc -lt 128 ]; then
	echo "thread_fault: exit status $rc, expected death by a signal" >&2
	exit 1
fi
if ! printf '%s\n' "$err" | grep -q -E "DPA kernel 'fault_kernel' \(DPA thread [0-9]+\): invalid memory access"; then
	echo "thread_fault: stderr does not name the kernel and its DPA thread" >&2
	exit 1
fi
