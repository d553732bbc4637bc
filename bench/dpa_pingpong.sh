#!/bin/bash
# DPA-thread ping-pong against the same ping-pong done by host tasks, side by
# side in one run (issue 27's goal: the DPA one within 1.2x):
#   dpa:  two processes, a DPA thread each, 16 B sends answered from the
#         thread's completion (tests/dpa/pingpong_main.c, PP_ROUNDS round
#         trips; its mean round trip, activation included)
#   host: softdoca-perf -t send --lat -s 16 -n PP_ROUNDS (host tasks polled by
#         the application thread; its mean half round trip, doubled)
# over shared memory and TCP loopback, alternating the two in every round.
# Server pinned to cpu0, client to cpu1, for both. Every process has 300 s, so
# a run that cannot finish ends the bench; a server that is not ready in 60 s
# ends it too (bench/lib.sh).
#
#   bench/dpa_pingpong.sh [BUILD_DIR]   (default build/; ROUNDS=5, PP_ROUNDS=1000)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
pp_prepare "${1:-}"
ROUNDS=${ROUNDS:-5}
export PP_ROUNDS=${PP_ROUNDS:-1000}
PORT=19700

# dpa_rtt TRANSPORT -> the mean round trip in us
dpa_rtt() {
	pp_server "$1"
	pp_client "$1"
	awk '/dpa pingpong:/ { print $(NF - 2) }' "$DIR/client.log"
}

# host_rtt TRANSPORT -> the mean round trip in us
host_rtt() {
	PORT=$((PORT + 1))
	perf_server "$PORT" "$1" "$PP_ROUNDS"
	perf_client "$PORT" "$1" "$PP_ROUNDS"
	awk '/#bytes/ { getline; printf "%.2f", 2 * $6; exit }' "$DIR/perf-client.log"
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| transport | round | DPA threads, us per round trip | host tasks, us per round trip | ratio |"
echo "|---|---|---|---|---|"
for transport in shm tcp; do
	ratios=()
	for round in $(seq "$ROUNDS"); do
		d=$(dpa_rtt "$transport")
		h=$(host_rtt "$transport")
		r=$(awk -v a="$d" -v b="$h" 'BEGIN { printf "%.2f", a / b }')
		ratios+=("$r")
		echo "| $transport | $round | $d | $h | $r |"
	done
	echo "| $transport | median | | | $(median "${ratios[@]}") |"
done
