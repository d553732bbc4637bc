#!/bin/bash
# softdoca-perf end to end: every operation, bandwidth and latency, a few
# hundred iterations with --check (every byte verified), over one transport;
# then its answers to bad input.
#
#   run_perf.sh SOFTDOCA_PERF shm|tcp
set -u

perf=$1 transport=$2
LIMIT=${SDOCA_TEST_LIMIT:-120}
dir=$(mktemp -d /tmp/sdoca-perf.XXXXXX)
trap 'kill -9 $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
failed=0

fail() {
	echo "FAIL: $*"
	failed=1
}

# server_port LOG PID: the port a server started with -p 0 listens on, once it
# says so (empty if it exits first). The kernel picks a free port: no clash
# with the ports of tests running alongside.
server_port() {
	local p
	for _ in $(seq 200); do
		p=$(sed -n 's/.*waiting for a client on port \([0-9]*\).*/\1/p' "$1" 2>/dev/null)
		[ -n "$p" ] && { echo "$p"; return; }
		kill -0 "$2" 2>/dev/null || return
		read -r -t 0.05 <> <(:) || true
	done
}

# run_case TEST MODE [client args...]   (SERVER_ARGS: the server's own options;
# UNCHECKED=1: without --check, the way the benchmarks run; HOST: the address
# the client is given, 127.0.0.1 by default)
run_case() {
	local test=$1 mode=$2 p check=--check host=${HOST:-127.0.0.1}
	shift 2
	[ -n "${UNCHECKED:-}" ] && check=""
	# Emptied first, here: else server_port may read the last case's port
	# before the new server's redirection truncates the file.
	: >"$dir/server.log"
	# shellcheck disable=SC2086 # options, split on purpose
	timeout -s KILL "$LIMIT" "$perf" -t "$test" "$mode" -p 0 --transport "$transport" \
		${SERVER_ARGS:-} >"$dir/server.log" 2>&1 &
	local server=$!
	local rc=1
	: >"$dir/client.log"
	p=$(server_port "$dir/server.log" "$server")
	if [ -n "$p" ]; then
		timeout -s KILL "$LIMIT" "$perf" -t "$test" "$mode" -p "$p" --transport "$transport" \
			${check:+"$check"} --json "$dir/out.json" "$@" "$host" >"$dir/client.log" 2>&1
		rc=$?
	else
		kill -9 "$server" 2>/dev/null # never said where it listens
	fi
	wait "$server"
	local src=$?
	if [ $rc -ne 0 ] || [ $src -ne 0 ]; then
		fail "$test $mode: client exit $rc, server exit $src"
		sed 's/^/  client| /' "$dir/client.log"
		sed 's/^/  server| /' "$dir/server.log"
		return
	fi
	local header
	[ "$mode" = --bw ] && header='#bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]' ||
		header='#bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]'
	grep -qF -- "$header" "$dir/client.log" || fail "$test $mode: no perftest header"
	[ -z "$check" ] || grep -q "Data check: [1-9][0-9]* verified, 0 wrong" "$dir/client.log" ||
		fail "$test $mode: data not verified"
	grep -q '"results"' "$dir/out.json" || fail "$test $mode: no JSON written"
	case " $* " in
	*" --cm "*)
		# Set up through the listener, N connections, and its time said.
		local conns
		conns=$(echo "$*" | sed -n 's/.*--conns \([0-9]*\).*/\1/p')
		grep -q "Data ex. method: rdma_cm" "$dir/client.log" || fail "$test $mode: not rdma_cm"
		grep -Eq "Set-up time    : [0-9]+\.[0-9]{3} ms, ${conns:-1} connections? through the listener on port [1-9]" \
			"$dir/client.log" || fail "$test $mode: no set-up time"
		grep -q "listening for ${conns:-1} connections\? (RDMA-CM) on port" "$dir/server.log" ||
			fail "$test $mode: the server did not listen"
		grep -q '"setup": "rdma_cm"' "$dir/out.json" || fail "$test $mode: JSON without rdma_cm"
		;;
	*)
		grep -q "Set-up time    : .* by blobs over the TCP socket" "$dir/client.log" ||
			fail "$test $mode: no set-up time"
		;;
	esac
	[ $failed = 0 ] && echo "ok: $test $mode $* ${SERVER_ARGS:-} ${HOST:-}"
}

for test in write write_imm read send send_imm atomic_fa atomic_cs; do
	run_case "$test" --bw -n 300
	run_case "$test" --lat -n 300
done
run_case write --bw -n 50 -s 1M -q 4
# Several large read responses leaving at once (the responder lets up to four go).
run_case read --bw -n 50 -s 1M -q 8
# A 64 KiB TCP send buffer makes UCX queue messages, and it then hands some
# read responses over before earlier ones (before answers were matched by
# sequence number, 3 to 8 of 10 such runs aborted; other sizes, none).
if [ "$transport" = tcp ]; then
	for _ in 1 2 3 4; do
		UCX_TCP_SNDBUF=64k run_case read --bw -n 50 -s 1M -q 8
	done
fi
# A target that makes no progress calls while it is read, written and
# updated (blocked in poll(), as a DOCA target in getchar()): the service
# thread serves it.
for c in "read --lat" "read --bw" "write --bw" "atomic_fa --lat" "atomic_cs --bw"; do
	# shellcheck disable=SC2086
	SERVER_ARGS=--passive run_case $c -n 300
done
# Remote sync events: a waiter blocked in wait_gt woken by notify-sets (back
# to back, and with gaps that let it and the service thread sleep), beside
# writes and fetch-adds to the blocked server; notify-set and notify-add
# rates beside fetch-adds. --check: every wake-up came, the sums are exact.
run_case sync_set --lat -n 300
run_case sync_set --lat -n 50 --gap-us 200
run_case sync_add --bw -n 300 -q 16
run_case sync_set --bw -n 300
# Several connections: operations spread over them in turn.
run_case write --bw -n 300 --conns 4
run_case read --bw -n 300 --conns 3
run_case send --bw -n 300 --conns 2
run_case send --bw -n 20 -a -q 4
# Through DOCA 2.2's work queue and jobs (--api 202 runs softdoca-perf-v202):
# both sides, a 3.x server with a 2.2 client and the other way, a passive
# 2.2 target.
for test in write write_imm read send send_imm atomic_fa atomic_cs; do
	SERVER_ARGS="--api 202" run_case "$test" --bw -n 300 --api 202
	SERVER_ARGS="--api 202" run_case "$test" --lat -n 300 --api 202
done
run_case send_imm --bw -n 300 --api 202
SERVER_ARGS="--api 202" run_case write --lat -n 300
SERVER_ARGS="--api 202 --passive" run_case read --bw -n 300 --api 202
# Connections through the server's listener (RDMA-CM), not blobs over the
# TCP socket: every operation, its data checked, one and several connections.
for test in write write_imm read send send_imm atomic_fa atomic_cs; do
	run_case "$test" --bw -n 300 --cm
done
run_case write --lat -n 300 --cm
run_case write --bw -n 300 --cm --conns 4
run_case send --bw -n 300 --cm --conns 4
# The client connects to the address it was given: IPv6 too, where the host has it.
if grep -q '^0\{31\}1 ' /proc/net/if_inet6 2>/dev/null; then
	HOST=::1 run_case send --bw -n 300 --cm --conns 2
fi
# As the benchmarks run: no --check, one buffer shared by the writes in
# flight (the server once checked its pattern anyway and failed the run).
UNCHECKED=1 run_case write --bw -n 300 -s 8

# Bad input: a clear message and a non-zero exit, never a hang.
expect_exit() {
	local want=$1 what=$2
	shift 2
	timeout -s KILL 30 "$@" >"$dir/bad.log" 2>&1
	local rc=$?
	if [ $rc -ne "$want" ] || ! [ -s "$dir/bad.log" ]; then
		fail "$what: exit $rc (expected $want)"
		sed 's/^/  | /' "$dir/bad.log"
	else
		echo "ok: $what -> $(head -1 "$dir/bad.log")"
	fi
}
expect_exit 2 "unknown option" "$perf" --bogus
expect_exit 2 "size over 2 GiB" "$perf" -s 3G 127.0.0.1
expect_exit 2 "atomics not 8 bytes" "$perf" -t atomic_fa -s 16 127.0.0.1
expect_exit 2 "unknown test" "$perf" -t scatter 127.0.0.1
expect_exit 2 "sync_add latency" "$perf" -t sync_add --lat 127.0.0.1
expect_exit 2 "zero connections" "$perf" --conns 0 127.0.0.1
expect_exit 2 "connections beyond the depth" "$perf" -q 2 --conns 4 127.0.0.1
expect_exit 2 "an unknown API" "$perf" --api 205 127.0.0.1
expect_exit 2 "connections of a DOCA 2.2 context" "$perf" --api 202 --conns 2 127.0.0.1
expect_exit 1 "no server" "$perf" -p 1 127.0.0.1
expect_exit 0 "help" "$perf" --help
expect_exit 2 "client without a port" "$perf" -p 0 127.0.0.1
expect_exit 2 "passive client" "$perf" --passive -p 1 127.0.0.1
expect_exit 2 "cm-port on a client" "$perf" --cm --cm-port 9 -p 1 127.0.0.1
expect_exit 2 "cm-port 0" "$perf" --cm-port 0
# A port in use.
timeout -s KILL 60 "$perf" -p 0 >"$dir/holder.log" 2>&1 &
holder=$!
p=$(server_port "$dir/holder.log" "$holder")
expect_exit 1 "port in use" "$perf" -p "${p:-1}"
# A listener port in use (--cm-port, the holder's): the server says so and
# exits, the client fails too, both at once.
timeout -s KILL 60 "$perf" -p 0 --cm-port "${p:-1}" --transport "$transport" >"$dir/cmport.log" 2>&1 &
cmport=$!
q=$(server_port "$dir/cmport.log" "$cmport")
expect_exit 1 "client of a server whose listener port is in use" "$perf" --cm -p "${q:-1}" \
	--transport "$transport" 127.0.0.1
wait "$cmport"
rc=$?
if [ $rc -ne 1 ] || ! grep -q "cannot listen for connections (--cm) on port" "$dir/cmport.log"; then
	fail "server with its listener port in use: exit $rc"
	sed 's/^/  | /' "$dir/cmport.log"
fi
pkill -9 -P "$holder"; kill -9 "$holder" 2>/dev/null
# A server that goes away mid-run: the client fails in bounded time.
timeout -s KILL 60 "$perf" -p 0 -t write --transport "$transport" >"$dir/gone.log" 2>&1 &
gone=$!
p=$(server_port "$dir/gone.log" "$gone")
( for _ in $(seq 400); do grep -q running "$dir/gone.log" && break; read -r -t 0.05 <> <(:) || true; done
  pkill -9 -P $gone; kill -9 $gone ) &
start=$SECONDS
expect_exit 1 "server killed mid-run" "$perf" -p "${p:-1}" -t write --transport "$transport" -D 30 127.0.0.1
[ $((SECONDS - start)) -lt 20 ] || fail "the client took $((SECONDS - start)) s to notice"
wait 2>/dev/null
exit $failed
