#!/bin/bash
# Runs one integration scenario as real processes: a server (the target) and
# one or more clients, on this host (shared memory or TCP) or in two network
# namespaces joined by a veth pair (TCP, standing for two hosts).
#
#   run_pair.sh PEER SCENARIO TRANSPORT [--clients N] [--netns]
#               [--server-exit CODE] [--client-exit CODE] [--stopped-server]
#               [--one-client-exit CODE]   (one client exits with CODE, the rest 0)
#               [--rounds N] [--stranger]
#
# The server writes its out-of-band port into a FIFO that this script reads
# (a server that dies first is seen within a second). Every process runs
# under `timeout`, so a hang fails the test.
# --stranger also runs a third process, `peer SCENARIO stranger`, beside the
# clients (from the clients' namespace), which must exit 0 too.
set -u

peer=$1 scenario=$2 transport=$3
shift 3
clients=1 netns=0 server_exit=0 client_exit=0 stopped_server=0 one_exit= rounds=() stranger=0
while [ $# -gt 0 ]; do
	case $1 in
	--clients) clients=$2; shift 2 ;;
	--netns) netns=1; shift ;;
	--server-exit) server_exit=$2; shift 2 ;;
	--client-exit) client_exit=$2; shift 2 ;;
	--stopped-server) stopped_server=1; server_exit=137; shift ;;
	--one-client-exit) one_exit=$2; shift 2 ;;
	--rounds) rounds=(--rounds "$2"); shift 2 ;;
	--stranger) stranger=1; shift ;;
	*) echo "unknown option $1"; exit 2 ;;
	esac
done

LIMIT=${SDOCA_TEST_LIMIT:-150}
dir=$(mktemp -d /tmp/sdoca-pair.XXXXXX)
server_ns=() client_ns=() server_iface=lo client_iface=lo host=127.0.0.1
ns_a= ns_b=

# `timeout` runs each peer as its child: end the peer first, then timeout.
kill_tree() {
	pkill -9 -P "$1" 2>/dev/null
	kill -9 "$1" 2>/dev/null
}

cleanup() {
	[ -n "${server_pid:-}" ] && kill_tree "$server_pid"
	[ -n "${stranger_pid:-}" ] && kill_tree "$stranger_pid"
	for pid in "${client_pids[@]:-}"; do [ -n "$pid" ] && kill_tree "$pid"; done
	wait 2>/dev/null
	[ -n "$ns_a" ] && ip netns del "$ns_a" 2>/dev/null
	[ -n "$ns_b" ] && ip netns del "$ns_b" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT

if [ "$netns" = 1 ]; then
	if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null; then
		echo "SKIP: two-host test needs root and iproute2"
		exit 77
	fi
	tag=$((RANDOM % 200 + 20))
	ns_a=sdoca_a_$$ ns_b=sdoca_b_$$
	server_iface=sdva$tag client_iface=sdvb$tag host=10.77.$tag.1
	ip netns add "$ns_a" && ip netns add "$ns_b" &&
		ip link add "$server_iface" type veth peer name "$client_iface" &&
		ip link set "$server_iface" netns "$ns_a" && ip link set "$client_iface" netns "$ns_b" &&
		ip -n "$ns_a" addr add "$host/24" dev "$server_iface" &&
		ip -n "$ns_b" addr add "10.77.$tag.2/24" dev "$client_iface" &&
		ip -n "$ns_a" link set "$server_iface" up && ip -n "$ns_b" link set "$client_iface" up &&
		ip -n "$ns_a" link set lo up && ip -n "$ns_b" link set lo up ||
		{ echo "FAIL: cannot set up the network namespaces"; exit 1; }
	# The kernel marks a veth running (operstate UP) a little after both ends
	# are up, later on a loaded host; UCX leaves out an interface that is not
	# running yet, and each side then found no way to the other
	# ("Destination is unreachable").
	for end in "$ns_a $server_iface" "$ns_b $client_iface"; do
		read -r ns iface <<<"$end"
		for _ in $(seq 200); do
			ip -n "$ns" -o link show dev "$iface" | grep -q 'state UP' && break
			read -r -t 0.05 <> <(:) || true
		done
		ip -n "$ns" -o link show dev "$iface" | grep -q 'state UP' ||
			{ echo "FAIL: $iface never came up"; exit 1; }
	done
	server_ns=(ip netns exec "$ns_a")
	client_ns=(ip netns exec "$ns_b")
fi

export SOFTDOCA_TRANSPORT=$transport
mkfifo "$dir/port"
"${server_ns[@]}" timeout -s KILL "$LIMIT" "$peer" "$scenario" server --port-file "$dir/port" \
	--iface "$server_iface" "${rounds[@]}" >"$dir/server.log" 2>&1 &
server_pid=$!
# Opened read-write, the FIFO does not block until the server opens it: a
# server that dies first fails the test at once instead of at ctest's limit.
exec 3<>"$dir/port"
port=
for _ in $(seq 60); do
	read -r -t 1 -u 3 port && break
	kill -0 "$server_pid" 2>/dev/null || break
done
exec 3<&-
if [ -z "$port" ]; then
	echo "FAIL: the server never listened"; cat "$dir/server.log"; exit 1
fi

client_pids=()
for i in $(seq 1 "$clients"); do
	"${client_ns[@]}" timeout -s KILL "$LIMIT" "$peer" "$scenario" client --host "$host" \
		--port "$port" --iface "$client_iface" "${rounds[@]}" >"$dir/client$i.log" 2>&1 &
	client_pids+=($!)
done

if [ "$stranger" = 1 ]; then
	"${client_ns[@]}" timeout -s KILL "$LIMIT" "$peer" "$scenario" stranger --host "$host" \
		--port "$port" --iface "$client_iface" >"$dir/stranger.log" 2>&1 &
	stranger_pid=$!
fi

status=0 odd=0
for i in $(seq 1 "$clients"); do
	wait "${client_pids[$((i - 1))]}"
	code=$?
	client_pids[$((i - 1))]=
	if [ -n "$one_exit" ] && [ "$code" = "$one_exit" ]; then
		odd=$((odd + 1))
	elif [ "$code" != "$client_exit" ]; then
		echo "FAIL: client $i exited with $code, expected $client_exit"
		status=1
	fi
done
if [ -n "$one_exit" ] && [ "$odd" != 1 ]; then
	echo "FAIL: $odd clients exited with $one_exit, expected one"
	status=1
fi
if [ "$stranger" = 1 ]; then
	wait "$stranger_pid"
	code=$?
	stranger_pid=
	if [ "$code" != 0 ]; then
		echo "FAIL: the stranger exited with $code"
		status=1
	fi
fi
# A client that failed may have left the server stopped (SIGSTOP, as
# resume_target does): continued, it sees the client gone and fails now,
# not at its time limit.
if [ "$status" != 0 ]; then
	pkill -CONT -P "$server_pid" 2>/dev/null
fi
if [ "$stopped_server" = 1 ]; then
	# The server stopped itself (SIGSTOP) and stays so: end it.
	pkill -9 -P "$server_pid" 2>/dev/null
fi
wait "$server_pid"
code=$?
server_pid=
if [ "$code" != "$server_exit" ]; then
	echo "FAIL: server exited with $code, expected $server_exit"
	status=1
fi

for f in "$dir"/server.log "$dir"/client*.log "$dir"/stranger.log; do
	[ -f "$f" ] || continue
	echo "----- $(basename "$f") -----"
	cat "$f"
done
[ "$status" = 0 ] && echo "PASS: $scenario over $transport$([ "$netns" = 1 ] && echo ' across two namespaces')"
exit "$status"
