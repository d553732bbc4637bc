#!/bin/bash
# softdoca-info --pid P --watch against a live target: a softdoca-perf send
# bandwidth server whose client sends for DURATION seconds over one
# transport, the server's receive queue looking empty for 2 ms every 50th
# send (SOFTDOCA_FAULTS rnr: the client waits, RNR, and goes on). Checks, on
# the target (it serves the sends):
#  1. --watch 0.2 --count 3 --json: three JSON lines, one per interval, each
#     with the connection's served sends growing and rates > 0 that are the
#     counters' deltas over the interval's seconds; RNR waits counted; the
#     receive queue's depth a count;
#  2. --watch --json without --count ends on SIGTERM, with exit 0;
#  3. --watch 0.2 in text: the header, the table's columns and the
#     connection's row and write line, until the target exits: exit 0 and a
#     message saying so;
#  4. bad --watch/--count arguments: exit 2 with a message; -d of a device
#     the target has not: exit 1.
#
#   run_info_watch.sh SOFTDOCA_PERF SOFTDOCA_INFO shm|tcp
set -u

perf=$1 info=$2 transport=$3
LIMIT=${SDOCA_TEST_LIMIT:-60}
DURATION=15
dir=$(mktemp -d /tmp/sdoca-watch.XXXXXX)
trap 'kill -9 $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
failed=0

fail() {
	echo "FAIL: $*"
	failed=1
}

# wait_for FILE PATTERN PID: until FILE has a line matching PATTERN (0), or
# PID exits or LIMIT seconds pass (1): polling the file the process writes.
wait_for() {
	local end=$((SECONDS + LIMIT))
	while [ $SECONDS -lt $end ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || { grep -q -- "$2" "$1" 2>/dev/null; return; }
		read -r -t 0.05 <> <(:) || true
	done
	return 1
}

# The target and its client: started without a wrapper, so that $! is each
# one's pid (ctest's timeout and the EXIT trap bound them).
SOFTDOCA_FAULTS='rnr:every=50,ms=2' "$perf" -t send --bw -p 0 --transport "$transport" \
	>"$dir/server.log" 2>&1 &
server=$!
wait_for "$dir/server.log" "waiting for a client on port" "$server" ||
	{ cat "$dir/server.log"; echo "FAIL: the server did not listen"; exit 1; }
port=$(sed -n 's/.*waiting for a client on port \([0-9]*\).*/\1/p' "$dir/server.log")
"$perf" -t send --bw -p "$port" --transport "$transport" \
	-D "$DURATION" 127.0.0.1 >"$dir/client.log" 2>&1 &
client=$!
wait_for "$dir/server.log" "softdoca-perf server: running send bandwidth" "$server" ||
	{ cat "$dir/server.log" "$dir/client.log"; echo "FAIL: no traffic"; exit 1; }

# 1. Three intervals as JSON lines.
timeout -s KILL "$LIMIT" "$info" --pid "$server" --watch 0.2 --count 3 --json \
	>"$dir/watch.json" 2>"$dir/watch.err"
rc=$?
[ $rc = 0 ] || fail "--json --count 3: exit $rc: $(cat "$dir/watch.err")"
python3 - "$dir/watch.json" "$server" <<'EOF' || fail "--json lines: see above"
import json, sys

lines = open(sys.argv[1]).read().splitlines()
pid = int(sys.argv[2])
assert len(lines) == 3, f"{len(lines)} lines, expected 3"
rows = [json.loads(l) for l in lines]
prev = None
rnr = 0
for n, r in enumerate(rows, 1):
    assert r["pid"] == pid and r["interval"] == n, (r["pid"], r["interval"])
    # at least half the interval each (a slow reading delays the next)
    assert r["seconds"] >= 0.1, f"interval {n}: {r['seconds']} s"
    assert len(r["connections"]) == 1, f"{len(r['connections'])} connections"
    c = r["connections"][0]
    assert c["state"] == "RTS", c["state"]
    # the server's receive queue: receives it posted that no send took yet
    assert isinstance(c["receive_queue_depth"], int) and c["receive_queue_depth"] >= 0
    k, rate = c["counters"], c["rates"]
    assert rate["served"]["send"] > 0 and rate["served_bytes"]["send"] > 0, rate["served"]
    assert rate["requests_served"] > 0 and rate["bytes_placed"] > 0
    assert rate["requests_failed"] == 0 and rate["timeouts"] == 0
    assert rate["naks_sent_by_syndrome"]["remote_access"] == 0
    assert rate["posted"]["send"] == 0, "the server posts nothing"
    rnr += rate["rnr_waits"] * r["seconds"]
    if prev is not None:
        pk = prev["connections"][0]["counters"]
        grew = k["served"]["send"] - pk["served"]["send"]
        assert grew > 0, f"interval {n}: served sends did not grow"
        # the rate is the delta over the seconds between the snapshots
        want = grew / r["seconds"]
        assert abs(rate["served"]["send"] - want) <= 0.01 * want + 0.01, (rate, want)
        waited = k["rnr_waits"] - pk["rnr_waits"]
        assert abs(rate["rnr_waits"] - waited / r["seconds"]) <= 0.01 * waited / r["seconds"] + 0.01
        assert c["new"] is False
    d = r["devices"][0]
    assert d["rates"]["served"]["send"] >= rate["served"]["send"] > 0
    prev = r
assert rnr > 0.5, "no RNR wait in 3 intervals"
print(f"ok: 3 JSON intervals, {rows[-1]['connections'][0]['rates']['served']['send']:.0f} "
      f"sends/s served, {rnr:.0f} RNR waits")
EOF

# 2. SIGTERM ends a watch without --count, with exit 0.
"$info" --pid "$server" --watch 0.2 --json >"$dir/term.json" 2>"$dir/term.err" &
watcher=$!
if wait_for "$dir/term.json" '"interval":1' "$watcher"; then
	kill -TERM "$watcher"
	wait "$watcher"
	rc=$?
	[ $rc = 0 ] || fail "SIGTERM: exit $rc: $(cat "$dir/term.err")"
	python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' \
		"$dir/term.json" || fail "SIGTERM: a line that is not JSON"
else
	fail "SIGTERM: no interval printed: $(cat "$dir/term.err")"
fi

# -d: a device the target has not is refused; its own device is shown.
out=$("$info" --pid "$server" --watch 0.2 --count 1 -d no_such_dev 2>&1)
rc=$?
if [ $rc != 1 ] || ! echo "$out" | grep -q "has no device 'no_such_dev'"; then
	fail "-d no_such_dev: exit $rc: $out"
fi
dev=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["devices"][0]["ibdev_name"])' \
	"$dir/watch.json")
out=$("$info" --pid "$server" --watch 0.2 --count 1 --json -d "$dev" 2>&1)
rc=$?
if [ $rc != 0 ] || ! echo "$out" | grep -q "\"ibdev_name\":\"$dev\""; then
	fail "-d $dev: exit $rc: $out"
fi

# 3. Text until the target exits (its client stops after DURATION s).
timeout -s KILL "$LIMIT" "$info" --pid "$server" --watch 0.2 >"$dir/watch.txt" \
	2>"$dir/watch.err"
rc=$?
[ $rc = 0 ] || fail "text until the end: exit $rc: $(cat "$dir/watch.err")"
grep -q "^softdoca-info --watch: pid $server, interval 1 " "$dir/watch.txt" ||
	fail "text: no header"
grep -Eq '^conn_id +hca_id +qpn +peer_pid +state +inflght +rq +posted/s +served/s' "$dir/watch.txt" ||
	fail "text: no column names"
grep -Eq "^0x[0-9a-f]{8} +sdoca_[a-z0-9_]+ +[0-9]+ +$client +RTS " "$dir/watch.txt" ||
	fail "text: no row of the connection to pid $client"
grep -Eq '^  0x[0-9a-f]{8} +send +posted +0/s +0.00 MiB/s +served +[1-9][0-9]*/s' \
	"$dir/watch.txt" || fail "text: no line of served sends"
grep -Eq "process $server (exited|closed its counters channel)" "$dir/watch.err" ||
	fail "text: no message at the target's end: $(cat "$dir/watch.err")"
# that message alone, not the library's lines for the same failed read
grep -q "\[DOCA\]" "$dir/watch.err" && fail "text: library log lines: $(cat "$dir/watch.err")"
wait "$client" || fail "the client failed: $(cat "$dir/client.log")"

# 4. Bad arguments.
for args in "--watch 0 --pid 1" "--watch=abc --pid 1" "--watch=0.001 --pid 1" \
	"--watch --count 0 --pid 1" "--count 3 --pid 1" "--watch" "--count=-1 --watch --pid 1"; do
	# shellcheck disable=SC2086 # options, split on purpose
	out=$("$info" $args 2>&1)
	rc=$?
	[ $rc = 2 ] || fail "'$args': exit $rc, expected 2: $out"
	echo "$out" | grep -q "^softdoca-info: " || fail "'$args': no message: $out"
done

if [ $failed != 0 ]; then
	sed 's/^/  watch.txt| /' "$dir/watch.txt" | head -40
	sed 's/^/  server| /' "$dir/server.log"
	exit 1
fi
head -12 "$dir/watch.txt"
cat "$dir/watch.err"
echo "ok: softdoca-info --watch over $transport"
