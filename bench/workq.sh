#!/bin/bash
# What DOCA 2.2's work queue and jobs cost over DOCA 3.x's progress engine and
# tasks, in one run on one machine: softdoca-perf --api 300 against
# softdoca-perf --api 202 (its twin softdoca-perf-v202, the same tests through
# doca_workq_submit / doca_workq_progress_retrieve), both sides of a pair on
# the same API, server pinned to cpu0 and client to cpu1, the two APIs
# alternating round by round:
#   latency (8 B): write, send, read (medians of t_typical)
#   bandwidth:     write and read 64 KiB and 1 MiB, send 64 KiB (MiB/s)
#   message rate:  write 8 B, 128 in flight (Mpps)
# over shared memory and TCP loopback. Prints a markdown table per transport:
# the medians and the median of the per-round ratios 2.2 / 3.x (for latency
# above 1 is slower, for bandwidth below 1 is).
#
#   bench/workq.sh [BUILD_DIR]        (default build/)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
PERF=$BUILD/tools/softdoca-perf
LAT_N=${LAT_N:-20000}
BW_N=${BW_N:-3000}
RATE_N=${RATE_N:-200000}
ROUNDS=${ROUNDS:-5}
PORT=$((19800 + RANDOM % 1000))
[ -x "$PERF" ] && [ -x "$PERF-v202" ] || { echo "build first: ./run.sh build" >&2; exit 1; }

# row TRANSPORT API ARGS... -> the result row of the client's table. A
# loaded machine can be slow to start a server or drop a client: up to three
# tries, a failed one's server ended.
row() {
	local transport=$1 api=$2 server try
	shift 2
	for try in 1 2 3; do
		PORT=$((PORT + 1))
		taskset -c 0 "$PERF" --api "$api" -p "$PORT" --transport "$transport" "$@" \
			>/tmp/sdoca-workq.srv 2>&1 &
		server=$!
		for _ in $(seq 1500); do
			grep -q "waiting for a client" /tmp/sdoca-workq.srv && break
			read -r -t 0.02 <> <(:) || true
		done
		if taskset -c 1 "$PERF" --api "$api" -p "$PORT" --transport "$transport" "$@" \
			127.0.0.1 >/tmp/sdoca-workq.out 2>/tmp/sdoca-workq.err; then
			wait "$server" || true
			awk '/#bytes/ { getline; print; exit }' /tmp/sdoca-workq.out
			return
		fi
		kill "$server" 2>/dev/null || true
		wait "$server" 2>/dev/null || true
		echo "try $try of $api $* failed: $(tail -1 /tmp/sdoca-workq.err)" >&2
	done
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }

# compare TRANSPORT FIELD ARGS... : ROUNDS rounds of 3.x then 2.2; sets A (3.x
# median), B (2.2 median), R (median of the per-round ratios B/A).
compare() {
	local transport=$1 field=$2 as=() bs=() rs=() a b
	shift 2
	for _ in $(seq "$ROUNDS"); do
		a=$(row "$transport" 300 "$@" | awk -v f="$field" '{ print $f }')
		b=$(row "$transport" 202 "$@" | awk -v f="$field" '{ print $f }')
		as+=("$a")
		bs+=("$b")
		rs+=("$(ratio "$b" "$a")")
	done
	A=$(median "${as[@]}")
	B=$(median "${bs[@]}")
	R=$(median "${rs[@]}")
}

echo "Run: \`bench/workq.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), softdoca $(git -C "$ROOT" rev-parse --short HEAD), $ROUNDS rounds."
for transport in shm tcp; do
	n=$LAT_N
	[ "$transport" = tcp ] && n=$((LAT_N / 4))
	echo
	echo "### $transport"
	echo
	echo "| test | 3.x tasks | 2.2 jobs | 2.2 / 3.x |"
	echo "|---|---|---|---|"
	for op in write send read; do
		compare "$transport" 5 -t "$op" --lat -s 8 -n "$n"
		echo "| $op 8 B latency, median us | $A | $B | $R |"
	done
	for spec in "write 65536" "read 65536" "send 65536" "write 1048576" "read 1048576"; do
		set -- $spec
		compare "$transport" 4 -t "$1" --bw -s "$2" -n "$BW_N"
		echo "| $1 $2 B bandwidth, MiB/s | $A | $B | $R |"
	done
	compare "$transport" 5 -t write --bw -s 8 -q 128 -n "$RATE_N"
	echo "| write 8 B message rate, Mpps | $A | $B | $R |"
done
