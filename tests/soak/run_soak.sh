#!/bin/bash
# Runs the soak (docs/soak.md) as two processes on this host.
#
#   run_soak.sh SOAK TRANSPORT SECONDS [--expect-data-error] [client options...]
#
# SOAK is the soak program, TRANSPORT shm or tcp; client options pass through
# (--seed N replays a run's faults). The server writes its out-of-band port
# into a FIFO (no polling); both run under `timeout`, so a hang fails.
# --expect-data-error: the client must fail with a data error (exit 3), as
# when a fault makes the soft NIC lose bytes: the checks catch it.
set -u

soak=$1 transport=$2 seconds=$3
shift 3
expect_data=0
if [ "${1:-}" = --expect-data-error ]; then
	expect_data=1
	shift
	# The client exits at the wrong byte, with everything still allocated.
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
fi

limit=$((seconds + 300))
dir=$(mktemp -d /tmp/sdoca-soak.XXXXXX)
cleanup() {
	for pid in ${server_pid:-} ${client_pid:-}; do
		pkill -9 -P "$pid" 2>/dev/null
		kill -9 "$pid" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT

export SOFTDOCA_TRANSPORT=$transport
mkfifo "$dir/port"
timeout -s KILL "$limit" "$soak" server --port-file "$dir/port" >"$dir/server.log" 2>&1 &
server_pid=$!
if ! read -r -t 60 port <"$dir/port"; then
	echo "FAIL: the server never listened"
	cat "$dir/server.log"
	exit 1
fi
# The client's report goes to the terminal as it comes (long runs).
timeout -s KILL "$limit" "$soak" client --port "$port" --seconds "$seconds" "$@" 2>&1 |
	tee "$dir/client.log"
client_code=${PIPESTATUS[0]}
client_pid=

status=0
if [ "$expect_data" = 1 ]; then
	if [ "$client_code" != 3 ] || ! grep -q "FAIL (data)" "$dir/client.log"; then
		echo "FAIL: the client exited with $client_code, expected a data error (3)"
		status=1
	fi
	kill -9 "$server_pid" 2>/dev/null
	wait "$server_pid" 2>/dev/null
else
	wait "$server_pid"
	server_code=$?
	if [ "$client_code" != 0 ]; then
		echo "FAIL: the client exited with $client_code"
		status=1
	fi
	if [ "$server_code" != 0 ]; then
		echo "FAIL: the server exited with $server_code"
		status=1
	fi
fi
server_pid=
echo "----- server.log -----"
cat "$dir/server.log"
[ "$status" = 0 ] && echo "PASS: soak over $transport, $seconds s$([ "$expect_data" = 1 ] && echo ', the data error caught')"
exit "$status"
