# Shared by the bench scripts (sourced, not run).
# shellcheck shell=bash

# wait_for FILE PATTERN [SECONDS] -> once FILE has a line matching PATTERN
# (default 60 s). On a timeout it says so and ends the script: a client
# started against a server that does not listen yet is refused, and that
# server then waits for ever (seen under load with a 5 s wait).
wait_for() {
	local limit=${3:-60}
	local deadline=$((SECONDS + limit))
	until grep -q "$2" "$1" 2>/dev/null; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			echo "bench: $1 did not show '$2' within $limit s" >&2
			exit 1
		fi
		read -r -t 0.01 <> <(:) || true
	done
}

# --- the DPA ping-pong benches (dpa_pingpong.sh, dpa_pingpong_ir.sh) ---
# Each process has 300 s; the server runs on cpu0, the client on cpu1.

# pp_prepare [BUILD_DIR] -> PERF (softdoca-perf) and PP (the DPA ping-pong
# peer) of BUILD_DIR (default build/), and DIR, a scratch folder removed at
# exit; ends the script if they are not built.
pp_prepare() {
	local build=${1:-$ROOT/build}
	PERF=$build/tools/softdoca-perf
	PP=$build/tests/dpa/dpa_pingpong_peer
	DIR=$(mktemp -d)
	trap 'rm -rf "$DIR"' EXIT
	[ -x "$PERF" ] && [ -x "$PP" ] || { echo "build first: ./run.sh build" >&2; exit 1; }
}

# pp_server TRANSPORT -> the DPA ping-pong server, listening (its rounds:
# PP_ROUNDS from the environment); its pid in SERVER.
pp_server() {
	rm -f "$DIR/port"
	SOFTDOCA_TRANSPORT=$1 timeout 300 taskset -c 0 "$PP" pingpong server --port-file "$DIR/port" \
		--iface lo >"$DIR/server.log" 2>&1 &
	SERVER=$!
	wait_for "$DIR/port" .
}

# pp_client TRANSPORT [WRAPPER...] -> runs the client (under WRAPPER, e.g.
# valgrind) into $DIR/client.log, then waits for the server.
pp_client() {
	local transport=$1
	shift
	SOFTDOCA_TRANSPORT=$transport timeout 300 taskset -c 1 "$@" "$PP" pingpong client \
		--host 127.0.0.1 --port "$(cat "$DIR/port")" --iface lo >"$DIR/client.log" 2>&1
	wait "$SERVER"
}

# perf_server PORT TRANSPORT ROUNDS -> softdoca-perf's 16 B send latency
# server, waiting for a client; its pid in SERVER.
perf_server() {
	timeout 300 taskset -c 0 "$PERF" -p "$1" --transport "$2" -t send --lat -s 16 -n "$3" \
		>"$DIR/perf-server.log" 2>&1 &
	SERVER=$!
	wait_for "$DIR/perf-server.log" "waiting for a client"
}

# perf_client PORT TRANSPORT ROUNDS [WRAPPER...] -> its client into
# $DIR/perf-client.log, then waits for the server.
perf_client() {
	local port=$1 transport=$2 rounds=$3
	shift 3
	timeout 300 taskset -c 1 "$@" "$PERF" -p "$port" --transport "$transport" -t send --lat \
		-s 16 -n "$rounds" 127.0.0.1 >"$DIR/perf-client.log" 2>&1
	wait "$SERVER"
}
