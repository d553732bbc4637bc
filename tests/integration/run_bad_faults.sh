#!/bin/sh
# A SOFTDOCA_FAULTS that does not parse stops a DOCA program at its first
# call, with the reason on stderr even when SOFTDOCA_LOG=crit hides errors:
# a run without the faults asked for must not pass for one that survived.
#
#   run_bad_faults.sh PROGRAM [ARGS...]
set -u
err=$(mktemp)
trap 'rm -f "$err"' EXIT
fail=0
for spec in 'delay:' 'drop:nth=3,' 'delay:ms=010' 'drop:nth=2,count=3' 'explode'; do
	SOFTDOCA_FAULTS="$spec" SOFTDOCA_LOG=crit timeout 30 "$@" >/dev/null 2>"$err"
	rc=$?
	if [ "$rc" -eq 0 ] || [ "$rc" -ge 124 ]; then
		echo "FAIL: '$spec': $1 exited with $rc, expected an error"
		fail=1
	elif ! grep -q "SOFTDOCA_FAULTS does not parse: .*'" "$err"; then
		echo "FAIL: '$spec': no reason on stderr:"
		cat "$err"
		fail=1
	else
		echo "'$spec': exit $rc, $(grep -m1 'SOFTDOCA_FAULTS' "$err")"
	fi
done
# A good specification changes nothing.
if ! SOFTDOCA_FAULTS='drop:nth=3' SOFTDOCA_LOG=crit timeout 30 "$@" >/dev/null 2>"$err"; then
	echo "FAIL: a good specification failed the program:"
	cat "$err"
	fail=1
fi
exit $fail
