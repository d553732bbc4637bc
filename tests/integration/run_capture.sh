#!/bin/bash
# Traffic capture read by tshark: the `capture` scenario with
# SOFTDOCA_CAPTURE on both peers, its files checked by check_capture.py;
# then sync_ops, whose sync-event requests must be custom blocks; then a
# target killed (SIGKILL) while 1 MiB writes stream in (kill_target),
# whose capture must still open. Skipped (77) only when
# tshark is not installed.
#
#   run_capture.sh PEER TRANSPORT
set -u
peer=$1 transport=$2
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v tshark >/dev/null || ! command -v capinfos >/dev/null; then
	echo "SKIP: tshark is not installed (./run.sh deps installs it)"
	exit 77
fi
dir=$(mktemp -d /tmp/sdoca-capture.XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/ops" "$dir/killed"

SOFTDOCA_CAPTURE="$dir/ops/cap-%p.pcapng" "$here/run_pair.sh" "$peer" capture "$transport" \
	>"$dir/pair.log" 2>&1
code=$?
cat "$dir/pair.log"
[ "$code" = 0 ] || { echo "FAIL: the capture scenario failed"; exit 1; }
python3 "$here/check_capture.py" "$dir/pair.log" "$dir"/ops/*.pcapng || exit 1

# Sync-event requests have no RoCE packet: custom blocks of text.
mkdir "$dir/events"
SOFTDOCA_CAPTURE="$dir/events/cap-%p.pcapng" "$here/run_pair.sh" "$peer" sync_ops "$transport" \
	>"$dir/events.log" 2>&1 || { cat "$dir/events.log"; echo "FAIL: sync_ops failed"; exit 1; }
python3 "$here/check_capture.py" --events "$dir"/events/*.pcapng || exit 1

SOFTDOCA_CAPTURE="$dir/killed/cap-%p.pcapng" "$here/run_pair.sh" "$peer" kill_target \
	"$transport" --server-exit 137 >"$dir/kill.log" 2>&1 ||
	{ cat "$dir/kill.log"; echo "FAIL: kill_target failed"; exit 1; }
files=("$dir"/killed/*.pcapng)
[ "${#files[@]}" = 2 ] || { echo "FAIL: ${#files[@]} capture files of 2 peers"; exit 1; }
python3 "$here/check_capture.py" --killed "${files[@]}" || exit 1
echo "PASS: captures over $transport read by $(tshark -v 2>/dev/null | head -1)"
