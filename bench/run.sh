#!/bin/bash
# softdoca against raw UCX, side by side in one run, on one machine:
#   latency (8 B): softdoca-perf --lat write/read/send   vs  ucx_perftest -t ucp_am_lat
#   bandwidth:     softdoca-perf --bw write/read 64K, 1M vs  ucx_perftest -t ucp_am_bw
#   message rate:  softdoca-perf --bw write 8 B (-q 128) vs  ucx_perftest -t ucp_am_bw -s 8
#   idle:          CPU a connected, idle softdoca process uses over 10 s
#   copy limit:    memcpy and process_vm_writev of the same sizes (bench/copy_limit.c):
#                  what one copy between two processes of this host can reach
#   plot:          write bandwidth vs message size, softdoca and ucp_am_bw, shm and
#                  TCP -> bench/bw_vs_size.png (gnuplot, installed when missing)
#   set-up:        connection set-up, RDMA-CM style calls vs UCX's listener
#                  (bench/cm_setup.sh; UCX only while softdoca lacks RDMA-CM)
#   connections:   softdoca 8 B send and write message rate with 1, 2, 4, 8
#                  connections on one context (--conns, -q 128 spread over them)
# over shared memory (UCX_TLS=sm,self, as softdoca's shm mode) and TCP loopback
# (tcp,self). Server pinned to cpu0, client to cpu1, for both tools.
#
#   bench/run.sh [BUILD_DIR]          (default build/; writes bench/RESULTS.md)
#   bench/run.sh --conns [BUILD_DIR]  only the connections section, printed as
#                                     Markdown (RESULTS.md untouched)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
CONNS_ONLY=
if [ "${1:-}" = --conns ]; then
	CONNS_ONLY=1
	shift
fi
BUILD=${1:-$ROOT/build}
PERF=$BUILD/tools/softdoca-perf
COPY=$BUILD/bench/copy_limit
OUT=$ROOT/bench/RESULTS.md
PLOT_DATA=$ROOT/bench/bw_vs_size.dat
PLOT=$ROOT/bench/bw_vs_size.png
LAT_N=${LAT_N:-20000}
BW_N_64K=${BW_N_64K:-5000}
BW_N_1M=${BW_N_1M:-3000}
RATE_N=${RATE_N:-200000}
ROUNDS=${ROUNDS:-5}
PORT=19500
[ -x "$PERF" ] || { echo "build first: ./run.sh build" >&2; exit 1; }
[ -n "$CONNS_ONLY" ] || command -v ucx_perftest >/dev/null ||
	{ echo "ucx_perftest missing (apt-get install ucx-utils)" >&2; exit 1; }

next_port() { PORT=$((PORT + 1)); }

# start_perf_server TRANSPORT ARGS... : a pinned softdoca-perf server, once listening.
start_perf_server() {
	local transport=$1
	shift
	next_port
	taskset -c 0 "$PERF" -p "$PORT" --transport "$transport" "$@" >/tmp/sdoca-bench.srv 2>&1 &
	server=$!
	wait_for /tmp/sdoca-bench.srv "waiting for a client"
}

# softdoca_row TRANSPORT ARGS... -> prints the result row of the client's table
softdoca_row() {
	local transport=$1
	shift
	start_perf_server "$transport" "$@"
	taskset -c 1 "$PERF" -p "$PORT" --transport "$transport" "$@" 127.0.0.1 \
		>/tmp/sdoca-bench.out 2>/dev/null || true
	wait $server || true
	awk '/#bytes/ { getline; print; exit }' /tmp/sdoca-bench.out
}

# ucx_row TLS TEST SIZE ITERS -> prints ucx_perftest's CSV result line
ucx_row() {
	local tls=$1 test=$2 size=$3 iters=$4
	next_port
	UCX_TLS=$tls UCX_NET_DEVICES=lo taskset -c 0 ucx_perftest -p "$PORT" >/dev/null 2>&1 &
	local server=$!
	for _ in $(seq 200); do
		UCX_TLS=$tls UCX_NET_DEVICES=lo taskset -c 1 ucx_perftest 127.0.0.1 -p "$PORT" \
			-t "$test" -s "$size" -n "$iters" -w $((iters / 10)) -f -v \
			>/tmp/sdoca-bench.ucx 2>/dev/null && break
		kill -0 $server 2>/dev/null || break
	done
	wait $server || true
	tail -1 /tmp/sdoca-bench.ucx
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

# median of the arguments ("-" without any)
median() {
	[ $# -gt 0 ] || { echo -; return; }
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Message rate by number of connections on one context: 8 B sends and writes,
# 128 in flight spread over 1, 2, 4, 8 connections (--conns), ROUNDS rounds
# with every case once per round (the machine's noise falls on all of them),
# medians. Markdown on stdout.
conns_section() {
	local -A rate=()
	local transport op n iters v
	local load_before load_after
	load_before=$(uptime | sed 's/.*load average: //')
	for _ in $(seq "$ROUNDS"); do
		for transport in shm tcp; do
			iters=$RATE_N
			[ $transport = tcp ] && iters=$((RATE_N / 10))
			for n in 1 2 4 8; do
				for op in send write; do
					v=$(softdoca_row $transport -t $op --bw -s 8 -q 128 --conns $n -n "$iters" |
						awk 'NF >= 5 { printf "%.0f", $5 * 1e6 }')
					if [ -n "$v" ]; then
						rate[$transport,$op,$n]+=" $v"
					fi
				done
			done
		done
	done
	load_after=$(uptime | sed 's/.*load average: //')
	echo "## Message rate by number of connections"
	echo
	echo "\`softdoca-perf -t send|write --bw -s 8 -q 128 --conns N\` (blobs over the TCP"
	echo "socket), server on cpu0, client on cpu1; shm $RATE_N, TCP $((RATE_N / 10)) messages a"
	echo "run; medians of $ROUNDS rounds. The 128 operations in flight go to the connections in"
	echo "turn, all on one context, one PE, one soft-NIC worker per side. Load average (1, 5,"
	echo "15 min) before: $load_before; after: $load_after."
	echo
	echo "### msg/s by connections"
	echo
	echo "| connections | shm send | shm write | TCP send | TCP write |"
	echo "|---|---|---|---|---|"
	for n in 1 2 4 8; do
		local row="| $n |"
		for transport in shm tcp; do
			for op in send write; do
				# shellcheck disable=SC2086 # the samples, split on purpose
				row="$row $(median ${rate[$transport,$op,$n]:-}) |"
			done
		done
		echo "$row"
	done
	echo
}

if [ -n "$CONNS_ONLY" ]; then
	echo "Run: \`bench/run.sh --conns\` on $(date -u '+%Y-%m-%d %H:%M UTC'), softdoca $(git -C "$ROOT" rev-parse --short HEAD)."
	echo "Machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(uname -r)."
	echo
	conns_section
	rm -f /tmp/sdoca-bench.out /tmp/sdoca-bench.srv
	exit 0
fi

{
	echo "# softdoca vs raw UCX: measured side by side"
	echo
	echo "Run: \`bench/run.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), softdoca $(git -C "$ROOT" rev-parse --short HEAD)."
	echo "Machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(uname -r)."
	echo "UCX: $(ucx_info -v | sed -n "s/.*[Vv]ersion[: ]*//p" | head -1)."
	echo "Placement: every server (target) on cpu0, every client (initiator) on cpu1"
	echo "(\`taskset\`), for softdoca-perf and ucx_perftest alike; softdoca's service threads"
	echo "float (they sleep while the application progresses). The softdoca target is in a"
	echo "\`doca_pe_progress\` loop, as DOCA programs are."
	echo
	echo "Latency: softdoca write and send are half a ping-pong round trip (perftest's"
	echo "ib_write_lat / ib_send_lat; two tasks in turn, as perftest posts and then reaps"
	echo "the completion), read is the whole operation; ucp_am_lat is half a ping-pong round"
	echo "trip. Medians (t_typical; UCX's 50th percentile). $LAT_N iterations."
	echo "Bandwidth: average over the run, 128 operations in flight for softdoca, UCX's"
	echo "default window for ucp_am_bw; MiB/s. 64 KiB: $BW_N_64K, 1 MiB: $BW_N_1M iterations."
	echo "Both tools reuse one buffer for every message in flight (perftest's way)."
	echo "Every row is measured $ROUNDS times, UCX and softdoca alternating: the table"
	echo "gives the medians, and the median of the per-round ratios (the machine is"
	echo "shared and noisy; a ratio within one round compares like with like)."
	echo
} >"$OUT"

# pair TLS TRANSPORT UCX_TEST UCX_FIELD SD_FIELD SIZE ITERS SOFTDOCA_ARGS...
# Runs UCX then softdoca ROUNDS times, alternating; sets U (UCX median),
# S (softdoca median), R (median of the per-round ratios S/U) and ROW (the
# softdoca row of the last round).
pair() {
	local tls=$1 transport=$2 test=$3 ufield=$4 sfield=$5 size=$6 iters=$7
	shift 7
	local us=() ss=() rs=() u s
	for _ in $(seq "$ROUNDS"); do
		u=$(ucx_row "$tls" "$test" "$size" "$iters" | cut -d, -f"$ufield")
		ROW=$(softdoca_row "$transport" "$@" -s "$size" -n "$iters")
		s=$(echo "$ROW" | awk -v f="$sfield" '{ print $f }')
		us+=("$u")
		ss+=("$s")
		rs+=("$(ratio "$s" "$u")")
	done
	U=$(median "${us[@]}")
	S=$(median "${ss[@]}")
	R=$(median "${rs[@]}")
}

for transport in shm tcp; do
	tls=sm,self
	[ $transport = tcp ] && tls=tcp,self
	n=$LAT_N
	[ $transport = tcp ] && n=$((LAT_N / 4))
	{
		echo "## $transport"
		echo
		echo "| 8 B latency | softdoca median us | ucp_am_lat median us | ratio | softdoca avg / p99 us (last round) |"
		echo "|---|---|---|---|---|"
	} >>"$OUT"
	for op in write send read; do
		pair $tls $transport ucp_am_lat 2 5 8 "$n" -t $op --lat
		if [ $op = read ]; then
			# A read is a whole round trip: against two ucp_am_lat half trips too.
			R="$R ($(ratio "$S" "$(awk -v u="$U" 'BEGIN { print 2 * u }')") of a round trip)"
		fi
		echo "| $op | $S | $U | $R | $(echo "$ROW" | awk '{ print $6 " / " $8 }') |" >>"$OUT"
	done
	# The target blocked in poll(), making no progress calls (a DOCA target in
	# getchar()): the soft NIC's service thread serves it. No UCX counterpart.
	start_perf_server $transport --passive
	taskset -c 1 "$PERF" -p "$PORT" --transport $transport -t read --lat -n "$n" 127.0.0.1 \
		>/tmp/sdoca-bench.out 2>/dev/null || true
	wait $server || true
	ROW=$(awk '/#bytes/ { getline; print; exit }' /tmp/sdoca-bench.out)
	echo "| read, target blocked (\`--passive\`, one round) | $(echo "$ROW" | awk '{ print $5 }') | - | - | $(echo "$ROW" | awk '{ print $6 " / " $8 }') |" >>"$OUT"
	{
		echo
		echo "| bandwidth | size | softdoca MiB/s | ucp_am_bw MiB/s | ratio |"
		echo "|---|---|---|---|---|"
	} >>"$OUT"
	for size in 65536 1048576; do
		iters=$BW_N_64K
		[ $size = 1048576 ] && iters=$BW_N_1M
		for op in write read; do
			pair $tls $transport ucp_am_bw 6 4 $size "$iters" -t $op --bw
			echo "| $op | $size | $S | $U | $R |" >>"$OUT"
			eval "BW_${transport}_${op}_${size}=$S"
		done
	done
	if [ $transport = shm ]; then
		{
			echo
			echo "Single-copy limit of this host (\`bench/copy_limit\` on cpu1: memcpy in one process,"
			echo "process_vm_writev from a child into its parent), and softdoca's shm bandwidth as a"
			echo "fraction of process_vm_writev:"
			echo
			echo "| size | memcpy MiB/s | process_vm_writev MiB/s | softdoca write / pvm | softdoca read / pvm |"
			echo "|---|---|---|---|---|"
		} >>"$OUT"
		for size in 65536 1048576; do
			limits=$(taskset -c 1 "$COPY" $size $((4 * BW_N_64K)))
			mc=$(echo "$limits" | awk '/^memcpy/ { print $2 }')
			pvm=$(echo "$limits" | awk '/^process_vm_writev/ { print $2 }')
			w=BW_shm_write_$size r=BW_shm_read_$size
			echo "| $size | $mc | $pvm | $(ratio "${!w}" "$pvm") | $(ratio "${!r}" "$pvm") |" >>"$OUT"
		done
	fi
	{
		echo
		echo "| 8 B message rate | softdoca Mpps (128 in flight) | ucp_am_bw -s 8 Mpps | ratio |"
		echo "|---|---|---|---|"
	} >>"$OUT"
	mr_n=$((RATE_N))
	[ $transport = tcp ] && mr_n=$((RATE_N / 10))
	pair $tls $transport ucp_am_bw 8 5 8 "$mr_n" -t write --bw
	# ucx_perftest reports messages per second; softdoca-perf Mpps
	U=$(awk -v u="$U" 'BEGIN { printf "%.3f", u / 1e6 }')
	echo "| write | $S | $U | $(ratio "$S" "$U") |" >>"$OUT"
	start_perf_server $transport
	"$PERF" -p "$PORT" --transport $transport --idle 10 -n 10 127.0.0.1 \
		>/tmp/sdoca-bench.idle 2>/dev/null || true
	wait $server || true
	{
		echo
		echo "Idle: $(sed -n 's/^ *Idle/idle/p' /tmp/sdoca-bench.idle) (the whole client process: application blocked in nanosleep, service thread serving)."
		echo
	} >>"$OUT"
done

conns_section >>"$OUT"

# Write bandwidth against message size, one run per point, for the plot.
echo "# size shm_softdoca shm_ucp_am_bw tcp_softdoca tcp_ucp_am_bw (MiB/s)" >"$PLOT_DATA"
for size in 4096 16384 65536 262144 1048576 4194304; do
	line="$size"
	for transport in shm tcp; do
		tls=sm,self bytes=$((1 << 30))
		[ $transport = tcp ] && tls=tcp,self bytes=$((1 << 28))
		iters=$((bytes / size))
		s=$(softdoca_row $transport -t write --bw -s $size -n $iters | awk '{ print $4 }')
		u=$(ucx_row $tls ucp_am_bw $size $iters | cut -d, -f6)
		line="$line $s $u"
	done
	echo "$line" >>"$PLOT_DATA"
done
if ! command -v gnuplot >/dev/null && [ "$(id -u)" -eq 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gnuplot-nox \
		>/dev/null 2>&1 || true
fi
{
	echo
	echo "## Write bandwidth against message size"
	echo
}  >>"$OUT"
if command -v gnuplot >/dev/null; then
	gnuplot <<PLOTEOF
set terminal pngcairo size 900,560 noenhanced
set output "$PLOT"
set title "RDMA write bandwidth vs message size: softdoca vs raw UCX active messages"
set xlabel "message size"
set ylabel "MiB/s"
set logscale x 2
set xrange [3000:5600000]
set xtics ("4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304)
set key top left
set grid
plot "$PLOT_DATA" using 1:2 with linespoints title "softdoca shm", \
     "$PLOT_DATA" using 1:3 with linespoints title "ucp_am_bw shm", \
     "$PLOT_DATA" using 1:4 with linespoints title "softdoca tcp", \
     "$PLOT_DATA" using 1:5 with linespoints title "ucp_am_bw tcp"
PLOTEOF
	echo "![write bandwidth vs message size](bw_vs_size.png)" >>"$OUT"
else
	echo "(gnuplot missing: bw_vs_size.png not drawn)" >>"$OUT"
fi
{
	echo
	echo "Data: \`bench/bw_vs_size.dat\`, one run per point, 128 writes in flight for softdoca."
} >>"$OUT"
echo >>"$OUT"
"$ROOT/bench/cm_setup.sh" "$BUILD" >>"$OUT"
rm -f /tmp/sdoca-bench.out /tmp/sdoca-bench.ucx /tmp/sdoca-bench.idle /tmp/sdoca-bench.srv
cat "$OUT"
