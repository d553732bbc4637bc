#!/bin/bash
# Instructions per message of an 8-byte ping-pong, counted by callgrind:
# deterministic, unlike time on a shared 2-vCPU VM, so a change to the data
# path shows what it costs before it is timed (bench/run.sh).
#
# softdoca: the server of `softdoca-perf --lat` runs under callgrind with
# collection only inside its ping-pong loop (pingpong_send, pingpong_wait):
# one iteration = one request received and executed, one sent, one
# completion delivered, plus the polls in between. Split by library.
# For UCX's own share, both softdoca and ucx_perftest ucp_am_lat are also
# given as the inclusive cost per call of UCX's send (ucp_am_send_nbx) and
# of its receive dispatch (ucp_am_handler, which includes softdoca's
# handler for softdoca), and softdoca's doca_task_submit per call (down to
# UCX's send). The per-call numbers do not depend on how often the target
# polled while it waited (which the iteration totals include, and which grows
# when the machine is busy). "outside polling" is the iteration's total less
# the self cost of the polling functions (doca_pe_progress down to UCX's
# worker progress and uct's poll, which Debian's UCX 1.13.1 leaves unnamed:
# 0x18430 in libuct, 0x45e20 in libucp; and the transport's progress
# operation in ucx.c and its wrapper of UCX's, ucp_progress, whether the
# compiler inlined it or not): the message work alone, whatever the number
# of empty polls.
#
#   bench/instructions.sh [BUILD_DIR] [OP ...]   (default build/, write send: the
#   ping-pong operations; a read target serves outside the ping-pong loop)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
BUILD=${1:-$ROOT/build}
shift || true
OPS=${*:-write send}
PERF=$BUILD/tools/softdoca-perf
N=${N:-20000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
command -v valgrind >/dev/null || apt-get install -y valgrind >/dev/null
[ -x "$PERF" ] || { echo "build first: ./run.sh build" >&2; exit 1; }
PORT=$((21000 + RANDOM % 5000))

# by_object FILE -> "softdoca=N ucx=N ..." per iteration (self cost per object / N)
by_object() {
	callgrind_annotate --threshold=100 "$1" 2>/dev/null |
		awk -v n="$N" '/^ *[0-9,]+ .*\[.*\]$/ {
			c = $1; gsub(",", "", c); o = $NF; gsub(/[\[\]]/, "", o);
			sub(".*/", "", o); sub(/\.so.*/, "", o);
			if (o ~ /^libdoca_/) o = "softdoca"; else if (o ~ /^libuc[pts]/) o = "ucx";
			else if (o ~ /^libc$|^ld-linux/) o = "libc"; else o = "app";
			sum[o] += c; all += c }
			END { printf "total=%d", all / n; for (o in sum) printf " %s=%d", o, sum[o] / n }'
}

# per_call FILE FUNCTION -> inclusive instructions per call of FUNCTION
per_call() {
	callgrind_annotate --inclusive=yes --tree=caller "$1" 2>/dev/null |
		awk -v f="$2" '
			/^ *[0-9,]+ .* < .*\([0-9,]+x\)/ {
				c = $1; gsub(",", "", c); k = $0; sub(/.*\(/, "", k); sub(/x\).*/, "", k);
				gsub(",", "", k); cost += c; calls += k; next }
			$0 ~ "\\* +[^ ]*:" f "( |$)" { if (calls) printf "%d", cost / calls; found = 1; exit }
			/^$/ { cost = 0; calls = 0 }
			END { if (!found) printf "-" }'
}

# outside_polls FILE -> instructions per iteration outside the polling functions
outside_polls() {
	callgrind_annotate --threshold=100 "$1" 2>/dev/null |
		awk -v n="$N" '/^ *[0-9,]+ .*\[.*\]$/ { c = $1; gsub(",", "", c); all += c
			if ($0 ~ /ucp_worker_progress|0x0000000000018430.*libuct|0x0000000000045e20.*libucp|doca_pe_progress|rdma_progress|pingpong_wait|nic_worker_progress|ucx\.c:worker_progress|ucx\.c:ucp_progress/) poll += c }
			END { printf "%d", (all - poll) / n }'
}

# calls FILE FUNCTION -> calls of FUNCTION per iteration (one decimal)
calls() {
	callgrind_annotate --inclusive=yes --tree=caller "$1" 2>/dev/null |
		awk -v f="$2" -v n="$N" '
			/^ *[0-9,]+ .* < .*\([0-9,]+x\)/ {
				k = $0; sub(/.*\(/, "", k); sub(/x\).*/, "", k); gsub(",", "", k);
				calls += k; next }
			$0 ~ "\\* +[^ ]*:" f "( |$)" { printf "%.1f", calls / n; found = 1; exit }
			/^$/ { calls = 0 }
			END { if (!found) printf "-" }'
}

echo "instructions per 8-byte ping-pong iteration on the target (callgrind, N=$N)"
PORT=$((PORT + 1))
UCX_TLS=sm,self UCX_NET_DEVICES=lo taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$TMP/ucx" \
	ucx_perftest -p $PORT >/dev/null 2>&1 &
srv=$!
for _ in $(seq 600); do
	UCX_TLS=sm,self UCX_NET_DEVICES=lo taskset -c 1 ucx_perftest 127.0.0.1 -p $PORT -t ucp_am_lat -s 8 \
		-n "$N" -w 0 >/dev/null 2>&1 && break
	read -r -t 0.05 <> <(:) || true
done
wait $srv
printf "%-22s send %s  receive %s\n" "ucx_perftest ucp_am_lat" \
	"$(per_call "$TMP/ucx" ucp_am_send_nbx)" "$(per_call "$TMP/ucx" ucp_am_handler)"
for op in $OPS; do
	PORT=$((PORT + 1))
	taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$TMP/$op" --collect-atstart=no \
		--toggle-collect=pingpong_send --toggle-collect=pingpong_wait \
		"$PERF" -p $PORT --transport shm --lat -t "$op" -n "$N" >"$TMP/srv.log" 2>&1 &
	srv=$!
	wait_for "$TMP/srv.log" "waiting for a client"
	taskset -c 1 "$PERF" -p $PORT --transport shm --lat -t "$op" -n "$N" 127.0.0.1 >/dev/null 2>&1
	wait $srv
	printf "%-22s send %s  receive %s  doca_task_submit %s  iteration: %s (%s transport polls; outside polling %s)\n" \
		"softdoca $op" "$(per_call "$TMP/$op" ucp_am_send_nbx)" \
		"$(per_call "$TMP/$op" ucp_am_handler)" "$(per_call "$TMP/$op" doca_task_submit)" \
		"$(by_object "$TMP/$op")" "$(calls "$TMP/$op" ucp_worker_progress)" \
		"$(outside_polls "$TMP/$op")"
done
