#!/bin/bash
# Instructions per round trip of the DPA ping-pong's client and of softdoca-perf's host-task
# send ping-pong's client, for a machine whose perf has no instruction counter (a VM without
# a PMU): the client runs under callgrind (cpu1), its server natively (cpu0), over shared
# memory; per round trip = (Ir at N2 - Ir at N1) / (N2 - N1), so setup cancels. Polling is
# counted too, and a polling client's count grows with how long it waits: compare per
# function (the script prints the data path's), not the DPA and host totals.
#
#   bench/dpa_pingpong_ir.sh [BUILD_DIR]   (default build/; N1=2000 N2=6000)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
pp_prepare "${1:-}"
N1=${N1:-2000}
N2=${N2:-6000}
PORT=19800
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }

# dpa N -> callgrind output of the client of N round trips in $DIR/dpa.N
dpa() {
	export PP_ROUNDS=$1
	pp_server shm
	pp_client shm valgrind --tool=callgrind --callgrind-out-file="$DIR/dpa.$1"
}

# host N -> callgrind output of softdoca-perf's client of N round trips in $DIR/host.N
host() {
	PORT=$((PORT + 1))
	perf_server "$PORT" shm "$1"
	perf_client "$PORT" shm "$1" valgrind --tool=callgrind --callgrind-out-file="$DIR/host.$1"
}

# per_rtt KIND PATTERN -> inclusive Ir per round trip of the functions matching PATTERN
per_rtt() {
	local a b
	a=$(callgrind_annotate --inclusive=yes "$DIR/$1.$N1" 2>/dev/null | grep -m1 -E "$2" |
		awk '{ gsub(",", "", $1); print $1 }')
	b=$(callgrind_annotate --inclusive=yes "$DIR/$1.$N2" 2>/dev/null | grep -m1 -E "$2" |
		awk '{ gsub(",", "", $1); print $1 }')
	awk -v a="${a:-0}" -v b="${b:-0}" -v n=$((N2 - N1)) 'BEGIN { printf "%.0f", (b - a) / n }'
}

for n in "$N1" "$N2"; do
	dpa "$n"
	host "$n"
done
echo "| client process, per round trip (callgrind, shm) | DPA | host tasks |"
echo "|---|---|---|"
echo "| all instructions (polling included) | $(per_rtt dpa 'PROGRAM TOTALS') | $(per_rtt host 'PROGRAM TOTALS') |"
echo "| pthread_mutex_lock (instructions) | $(per_rtt dpa 'pthread_mutex_lock@@') | $(per_rtt host 'pthread_mutex_lock@@') |"
echo "| send post | $(per_rtt dpa 'sdoca_rdma_dpa_post ') | $(per_rtt host 'submit_request') |"
echo "| receive post | $(per_rtt dpa 'sdoca_rdma_dpa_receive ') | $(per_rtt host 'submit_receive') |"
echo "| get_completion, its poll included | $(per_rtt dpa 'doca_dpa_dev_get_completion') | |"
echo "| on_message | $(per_rtt dpa 'worker.c:on_message') | $(per_rtt host 'worker.c:on_message') |"
