#!/bin/bash
# Connection set-up (issue 19): how long a new connection takes until it has
# carried a message each way, softdoca's RDMA-CM style calls
# (bench/doca_cm_setup) against UCX's own listener (bench/ucx_cm_setup), over
# shared memory and TCP loopback. Server pinned to cpu0, client to cpu1; both
# sides sleep on their event fd between events. Prints a Markdown section.
#
#   bench/cm_setup.sh [BUILD_DIR]     (default build/; bench/run.sh calls it)
#
# CM_N timed connections (1000) after CM_W warm-up ones (10), CM_ROUNDS
# rounds (3) with UCX and softdoca alternating: medians over the rounds, and
# the median of the per-round ratios. CM_VARIANTS (shm tcp) names the rows:
# a transport, and "+mutex" runs softdoca with UCX_USE_MT_MUTEX=y in its
# environment (softdoca's default since it measured this). When
# softdoca's RDMA-CM calls report DOCA_ERROR_NOT_SUPPORTED (doca_cm_setup
# exits with 3), only UCX runs.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
UCX_BIN=$BUILD/bench/ucx_cm_setup
DOCA_BIN=$BUILD/bench/doca_cm_setup
CM_N=${CM_N:-1000}
CM_W=${CM_W:-10}
CM_ROUNDS=${CM_ROUNDS:-3}
CM_PORT=${CM_PORT:-19800}
CM_VARIANTS=${CM_VARIANTS:-shm tcp}
TMP=$(mktemp -d /tmp/sdoca-cm.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
if [ ! -x "$UCX_BIN" ] || [ ! -x "$DOCA_BIN" ]; then
	echo "build first: ./run.sh build" >&2
	exit 1
fi

# The UCX_TLS of each transport. UCX 1.13's listener needs a transport on the
# listening device (lo): sm,self alone fails ("device lo is not enabled");
# with tcp added, the messages still go over shared memory (sysv; -v shows it).
ucx_tls() { [ "$1" = shm ] && echo sm,self,tcp || echo tcp,self; }

SOFTDOCA_CM=yes # "no" once doca_cm_setup reported NOT_SUPPORTED

# run_pair NAME CMD... : a pinned server on $CM_PORT, then, once the server
# says it waits, the pinned client against it. Prints the client's result row
# (n median p99 mean min max); the server's and client's output stay in
# $TMP/NAME.srv, $TMP/NAME.cli. Returns the first failing exit status (3: not
# supported). Runs in a subshell: the caller moves CM_PORT on.
run_pair() {
	local name=$1 rc=0 src=0 server fd line ready=no
	shift
	rm -f "$TMP/fifo"
	mkfifo "$TMP/fifo"
	taskset -c 0 "$@" -s -p "$CM_PORT" >"$TMP/fifo" 2>&1 &
	server=$!
	exec {fd}<"$TMP/fifo"
	: >"$TMP/$name.srv"
	# its "waiting for a client" line; EOF if it left, nothing for 10 s if stuck
	while IFS= read -r -t 10 -u "$fd" line; do
		echo "$line" >>"$TMP/$name.srv"
		case $line in *"waiting for a client"*)
			ready=yes
			break
			;;
		esac
	done
	if [ $ready = yes ]; then
		taskset -c 1 "$@" -n "$CM_N" -w "$CM_W" -p "$CM_PORT" 127.0.0.1 >"$TMP/$name.cli" 2>&1 ||
			rc=$?
	fi
	if [ $ready = no ] || [ $rc -ne 0 ]; then
		kill $server 2>/dev/null || true
	fi
	cat <&"$fd" >>"$TMP/$name.srv" # the rest, until the server exits
	exec {fd}<&-
	wait $server || src=$?
	[ $rc -ne 0 ] || rc=$src
	[ $ready = yes ] || [ $rc -ne 0 ] || rc=1
	[ $rc -eq 0 ] || return $rc
	awk '/^#n/ { getline; print; exit }' "$TMP/$name.cli"
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

ROWS=()
NOTES=()
for variant in $CM_VARIANTS; do
	transport=${variant%%+*}
	tls=$(ucx_tls "$transport")
	sd_env=()
	label="$transport (UCX_TLS=$tls)"
	if [ "$variant" != "$transport" ]; then
		sd_env=(UCX_USE_MT_MUTEX=y)
		label="$transport, softdoca with UCX_USE_MT_MUTEX=y"
	fi
	us=() up=() ss=() sp=() rs=()
	for round in $(seq "$CM_ROUNDS"); do
		echo "cm_setup: $variant round $round: UCX" >&2
		CM_PORT=$((CM_PORT + 1))
		row=$(UCX_TLS=$tls UCX_NET_DEVICES=lo run_pair "ucx-$variant" "$UCX_BIN") || {
			echo "ucx_cm_setup failed ($variant):" >&2
			cat "$TMP/ucx-$variant.srv" "$TMP/ucx-$variant.cli" >&2 2>/dev/null || true
			exit 1
		}
		us+=("$(echo "$row" | awk '{ print $2 }')")
		up+=("$(echo "$row" | awk '{ print $3 }')")
		[ $SOFTDOCA_CM = yes ] || continue
		echo "cm_setup: $variant round $round: softdoca" >&2
		CM_PORT=$((CM_PORT + 1))
		rc=0
		row=$(run_pair "doca-$variant" env "${sd_env[@]}" "$DOCA_BIN" -x "$transport") || rc=$?
		if [ $rc -eq 3 ]; then
			SOFTDOCA_CM=no
			continue
		elif [ $rc -ne 0 ]; then
			echo "doca_cm_setup failed ($variant, exit $rc):" >&2
			cat "$TMP/doca-$variant.srv" "$TMP/doca-$variant.cli" >&2 2>/dev/null || true
			exit 1
		fi
		ss+=("$(echo "$row" | awk '{ print $2 }')")
		sp+=("$(echo "$row" | awk '{ print $3 }')")
		rs+=("$(ratio "${ss[-1]}" "${us[-1]}")")
	done
	U=$(median "${us[@]}") UP=$(median "${up[@]}")
	if [ $SOFTDOCA_CM = yes ]; then
		S=$(median "${ss[@]}") SP=$(median "${sp[@]}") R=$(median "${rs[@]}")
	else
		S="n/a" SP="n/a" R="-"
	fi
	ROWS+=("| $label | $S | $U | $R | $SP / $UP |")
	for side in ucx doca; do
		if [ $side = doca ] && [ $SOFTDOCA_CM = no ]; then
			continue
		fi
		NOTES+=("$side $variant: $(sed -n 's/^resources: \(.*\) over the timed rounds/\1/p' \
			"$TMP/$side-$variant.cli" "$TMP/$side-$variant.srv" | paste -sd ';' - |
			sed 's/;/; /g')")
	done
done

echo "## Connection set-up"
echo
echo "Time from the client's connect call until a message has gone each way on the new"
echo "connection (softdoca: \`doca_rdma_connect_to_addr\` until the receive completion of"
echo "the server's answer to a send; UCX: \`ucp_ep_create\` to the listener's address until"
echo "the server's active-message answer arrives), then an untimed disconnect."
echo "\`bench/cm_setup.sh\`: $CM_N connections after $CM_W warm-up, $CM_ROUNDS rounds, UCX and"
echo "softdoca alternating; medians over the rounds and the median of the per-round"
echo "ratios. Server on cpu0, client on cpu1, both sleeping on their event fd between"
echo "events. Both run UCX with UCX_USE_MT_MUTEX=y (softdoca sets it unless the user"
echo "did): UCX's async thread (it handles the sockets) shares the pinned CPU, and with"
echo "the default spinlock the waiting thread spins out its time slice (over TCP,"
echo "UCX's median 7.9 ms instead of 0.7, softdoca's 6.0 ms instead of 0.9)."
echo
echo "| transport | softdoca median us | UCX listener median us | ratio | p99 us softdoca / UCX |"
echo "|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
echo
if [ $SOFTDOCA_CM = no ]; then
	echo "softdoca: RDMA-CM style connections not supported by this build"
	echo "(\`doca_cm_setup\` got DOCA_ERROR_NOT_SUPPORTED); UCX only."
	echo
fi
echo "Open file descriptors and resident memory across the timed rounds (last round):"
echo
for n in "${NOTES[@]}"; do
	echo "* $n"
done
