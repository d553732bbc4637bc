#!/bin/bash
# dpa_info.sh PROGRAM INFO: PROGRAM (info_main.c) leaves DPA threads in
# every state (one kernel still running) and prints "ready PID"; softdoca-info --pid PID, in text and
# JSON, must show its DPA and each thread's kernel, state, rank, EU,
# activations and completion contexts while it runs, and so must --watch. PROGRAM waits for
# "done" on stdin, then tears down and must succeed. Every wait is bounded.
set -u
prog=$1
info=$2
dir=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
fail() {
	echo "dpa_info: $*" >&2
	exit 1
}

mkfifo "$dir/in" "$dir/out" || fail "no fifos"
timeout 60 "$prog" <"$dir/in" >"$dir/out" &
pid=$!
exec 3>"$dir/in" 4<"$dir/out"
target=
while read -r -t 50 line <&4; do
	printf '%s\n' "$line"
	case $line in
	"ready "*)
		target=${line#ready }
		break
		;;
	esac
done
[ -n "$target" ] || fail "the program never said it was ready"

text=$("$info" --pid "$target" 2>&1) || fail "softdoca-info --pid failed: $text"
printf '%s\n' "$text"
expect() {
	local n
	n=$(printf '%s\n' "$text" | grep -c -E -e "$1")
	[ "$n" -eq 1 ] || fail "$n lines match '$1' in the text, expected 1"
}
tab=$'\t'
expect "^DPA 0:${tab}thread_test_app \(hca_id [^,]+, started\)$"
expect "^${tab}last_error:${tab}${tab}DOCA_SUCCESS$"
expect "^${tab}threads:${tab}${tab}7$"
expect "^${tab}memory_in_use:${tab}${tab}448 bytes in 7 blocks$"
expect "^${tab}polled_cqs:${tab}${tab}0 \(populated 0, unread 0, held 0\)$"
expect "^thread +dpa +kernel +state +trigger +rank +eu +activations +last_activation +cqs +populated +unread +held$"
ago='[0-9]+\.[0-9]{3} s ago'
expect "^[0-9]+ +0 +count_kernel +finished +- +0/1 +7 +5 +$ago +0 +0 +0 +0$"
expect "^[0-9]+ +0 +ping_kernel +runnable +- +0/2 +- +3 +$ago +0 +0 +0 +0$"
expect "^[0-9]+ +0 +pong_kernel +finished +- +1/2 +- +3 +$ago +0 +0 +0 +0$"
expect "^[0-9]+ +0 +return_kernel +runnable +- +0/1 +- +2 +$ago +0 +0 +0 +0$"
expect "^[0-9]+ +0 +count_kernel +started +pending +0/1 +- +0 +never +1 +0 +0 +0$"
expect "^[0-9]+ +0 +return_kernel +created +- +- +- +0 +never +0 +0 +0 +0$"
expect "^[0-9]+ +0 +spin_kernel +running +- +0/1 +- +1 +$ago +0 +0 +0 +0$"

json=$("$info" --pid "$target" --json 2>&1) || fail "softdoca-info --pid --json failed: $json"
printf '%s\n' "$json" | python3 -c '
import json, sys
root = json.load(sys.stdin)
(dpa,) = root["dpas"]
assert dpa["app_name"] == "thread_test_app" and dpa["started"] and dpa["threads"] == 7, dpa
assert dpa["last_error"] == "DOCA_SUCCESS" and dpa["memory_in_use_bytes"] == 448, dpa
got = sorted((t["kernel"], t["state"], t["activations"], t["rank"], t["num_ranks"], t["eu"],
              t["trigger_pending"], t["completion_contexts"]) for t in root["dpa_threads"])
want = sorted([("count_kernel", "finished", 5, 0, 1, 7, False, 0),
               ("ping_kernel", "runnable", 3, 0, 2, None, False, 0),
               ("pong_kernel", "finished", 3, 1, 2, None, False, 0),
               ("return_kernel", "runnable", 2, 0, 1, None, False, 0),
               ("count_kernel", "started", 0, 0, 1, None, True, 1),
               ("return_kernel", "created", 0, None, None, None, False, 0),
               ("spin_kernel", "running", 1, 0, 1, None, False, 0)],
              key=lambda t: str(t))
assert sorted(got, key=lambda t: str(t)) == want, got
for t in root["dpa_threads"]:
    assert (t["ns_since_activation"] is None) == (t["activations"] == 0), t
' || fail "the JSON does not describe the DPA threads"

# --watch: the threads as a table and as JSON lines, their completion
# contexts' depth as now and their activations per second (none: each
# thread is where it stays until "done")
watch=$("$info" --pid "$target" --watch 0.1 --count 2 2>&1) || fail "--watch failed: $watch"
n=$(printf '%s\n' "$watch" | grep -c -E \
	"^[0-9]+ +0 +count_kernel +started +0 +1 +0 +0 +0$")
[ "$n" -eq 2 ] || fail "$n intervals show the pending count_kernel, expected 2: $watch"
printf '%s\n' "$watch" | grep -q -E "^dpa_thread +dpa +kernel +state +activ/s +cqs +populated" ||
	fail "--watch: no DPA thread table: $watch"
printf '%s\n' "$watch" | tail -8
json=$("$info" --pid "$target" --watch 0.1 --count 2 --json 2>&1) ||
	fail "--watch --json failed: $json"
printf '%s\n' "$json" | python3 -c '
import json, sys
lines = sys.stdin.read().splitlines()
assert len(lines) == 2, lines
for n, line in enumerate(lines, 1):
    r = json.loads(line)
    assert r["interval"] == n and len(r["dpa_threads"]) == 7, r
    (dpa,) = r["dpas"]
    assert dpa["app_name"] == "thread_test_app", dpa
    for t in r["dpa_threads"]:
        assert t["activations_per_s"] == 0, t
    spin = [t for t in r["dpa_threads"] if t["kernel"] == "spin_kernel"]
    assert spin[0]["state"] == "running" and spin[0]["activations"] == 1, spin
' || fail "--watch --json does not describe the DPA threads"

# -d picks the DPA's device; another name is refused
ibdev=$(printf '%s\n' "$text" | sed -n "s/^DPA 0:${tab}thread_test_app (hca_id \([^,]*\),.*/\1/p")
"$info" --pid "$target" -d "$ibdev" | grep -q "^DPA 0:" || fail "-d $ibdev hides the DPA"
"$info" --pid "$target" -d no_such_dev >/dev/null 2>&1 && fail "-d no_such_dev accepted"

echo done >&3
exec 3>&-
cat <&4
wait "$pid"
rc=$?
pid=
[ $rc -eq 0 ] || fail "the program exited with $rc"
echo "dpa_info: ok"
