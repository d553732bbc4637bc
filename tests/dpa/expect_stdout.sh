#!/bin/sh
# expect_stdout.sh WANTED UNWANTED PROGRAM [ARGS...]: runs PROGRAM, which must
# succeed and print exactly one line matching the regex WANTED on stdout and
# none containing UNWANTED.
set -u
wanted=$1
unwanted=$2
shift 2
out=$(timeout 50 "$@")
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ]; then
	echo "expect_stdout: $1 exited with $rc" >&2
	exit 1
fi
n=$(printf '%s\n' "$out" | grep -c -E -e "$wanted")
if [ "$n" -ne 1 ]; then
	echo "expect_stdout: $n lines match '$wanted' on stdout, expected 1" >&2
	exit 1
fi
if printf '%s\n' "$out" | grep -q -F -e "$unwanted"; then
	echo "expect_stdout: stdout has '$unwanted'" >&2
	exit 1
fi
