#!/bin/sh
# thread_fault.sh PROGRAM [PATTERN]: PROGRAM fault makes a kernel write
# through a wild pointer; the process must die of SIGSEGV after naming the
# kernel and where it ran on stderr (PATTERN, an extended regex; default:
# the DPA thread kernel of the thread program).
set -u
pattern=${2:-"DPA kernel 'fault_kernel' \\(DPA thread [0-9]+\\): invalid memory access"}
err=$(timeout 50 "$1" fault 2>&1 >/dev/null)
rc=$?
printf '%s\n' "$err"
if [ $rc -eq 124 ] || [ $rc -lt 128 ]; then
	echo "thread_fault: exit status $rc, expected death by a signal" >&2
	exit 1
fi
if ! printf '%s\n' "$err" | grep -q -E "$pattern"; then
	echo "thread_fault: stderr does not match: $pattern" >&2
	exit 1
fi
