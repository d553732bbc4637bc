#!/bin/bash
# Runs one example of examples/dpa built by examples_build.sh and checks
# its exit status and the lines it must print (exact values).
#
#   examples_run.sh <work dir> kernel_launch|initiator_target|ping_pong
#   examples_run.sh <work dir> remote_ping_pong|all_to_all shm|tcp
#
# Exit 77 (ctest's skip) for all_to_all when mpirun or the MPI build of the
# example is missing. Every process runs under `timeout`.
set -u
work=$1
name=$2
export SOFTDOCA_TRANSPORT=${3:-shm}
LIMIT=${SDOCA_TEST_LIMIT:-120}
bin=$work/build
LD_LIBRARY_PATH=$(cat "$work/libdir")
export LD_LIBRARY_PATH
dir=$(mktemp -d /tmp/sdoca-dpa-example.XXXXXX)
trap 'rm -rf "$dir"' EXIT

# expect LOG COUNT REGEX - LOG has exactly COUNT lines matching REGEX.
failed=0
expect() {
	local n
	n=$(grep -c -E -e "$3" "$1")
	if [ "$n" -ne "$2" ]; then
		echo "FAIL: $n lines match '$3' in $(basename "$1"), expected $2"
		failed=1
	fi
}

# run LOG PROGRAM [ARGS...] - runs PROGRAM under timeout; its exit status.
run() {
	local log=$1
	shift
	timeout -s KILL "$LIMIT" "$@" >"$log" 2>&1
}

show() {
	for log in "$@"; do
		echo "--- $(basename "$log")"
		cat "$log"
	done
}

case $name in
kernel_launch)
	run "$dir/out" "$bin/dpa_kernel_launch/doca_dpa_kernel_launch"
	rc=$?
	for rank in 0 1 2 3; do
		expect "$dir/out" 1 "^Hello from kernel thread $rank of 4$"
	done
	expect "$dir/out" 1 "The kernel set the completion event to 1$"
	expect "$dir/out" 1 "Thread 3 wrote 0x5ca1ab1e00000300$"
	expect "$dir/out" 4 "Thread [0-3] wrote 0x5ca1ab1e00000[0-3]00$"
	expect "$dir/out" 1 "Sample finished successfully$"
	logs=("$dir/out")
	;;
initiator_target)
	run "$dir/out" "$bin/dpa_initiator_target/doca_dpa_initiator_target"
	rc=$?
	expect "$dir/out" 1 "^Target: 16 receives posted, notifying the initiator$"
	expect "$dir/out" 1 "^Initiator: the target is ready, sending 16 messages$"
	expect "$dir/out" 16 "^Target: connection [01], immediate 0xd00[01]000[0-7], receive [0-9]+$"
	expect "$dir/out" 1 "^Target: all 16 messages received$"
	expect "$dir/out" 1 "^Initiator: all 16 sends completed$"
	expect "$dir/out" 2 "Connection [01] \(target id [0-9]+\): 8 messages received in order$"
	expect "$dir/out" 1 "Sample finished successfully$"
	logs=("$dir/out")
	;;
ping_pong)
	run "$dir/out" "$bin/dpa_ping_pong/doca_dpa_ping_pong"
	rc=$?
	expect "$dir/out" 1 "^Ping thread: round 99, received 0x70630063$"
	expect "$dir/out" 1 "^Pong thread: round 99, received 0x70630063$"
	expect "$dir/out" 8 "^P[io]ng thread: round [0-9]+, received 0x70"
	expect "$dir/out" 1 "Ping thread: 100 rounds, every value as expected$"
	expect "$dir/out" 1 "Pong thread: 100 rounds, every value as expected$"
	expect "$dir/out" 1 "Sample finished successfully$"
	logs=("$dir/out")
	;;
remote_ping_pong)
	exe=$bin/dpa_remote_ping_pong/doca_dpa_remote_ping_pong
	run "$dir/server.log" "$exe" -s -f "$dir/server.blob" -r "$dir/client.blob" &
	server=$!
	run "$dir/client.log" "$exe" -f "$dir/client.blob" -r "$dir/server.blob"
	rc=$?
	wait "$server"
	rc_server=$?
	[ $rc_server -ne 0 ] && rc=$rc_server
	expect "$dir/client.log" 1 "Client: 100 round trips, every message as expected"
	expect "$dir/server.log" 1 "Server: 100 round trips, every message as expected"
	expect "$dir/client.log" 1 "^Client thread: 100 rounds done$"
	expect "$dir/server.log" 1 "^Server thread: 100 rounds done$"
	expect "$dir/client.log" 1 "Sample finished successfully$"
	expect "$dir/server.log" 1 "Sample finished successfully$"
	logs=("$dir/server.log" "$dir/client.log")
	;;
all_to_all)
	exe=$bin/dpa_all_to_all/doca_dpa_all_to_all
	if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$exe" ]; then
		echo "SKIP: Open MPI (mpirun, libopenmpi-dev) is not installed"
		exit 77
	fi
	ranks=${SDOCA_A2A_RANKS:-4}
	# root in containers and CI; 2 cores for 4 ranks.
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_rmaps_base_oversubscribe=1
	# Open MPI keeps what MPI_Init allocated (lsan_openmpi.supp); full stacks
	# let the suppressions see the MPI frames. Harmless without ASan.
	supp=$(dirname "$0")/lsan_openmpi.supp
	export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$supp"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
	# The ranks get this environment (the sanitizers' options too).
	pass=()
	for var in SOFTDOCA_TRANSPORT LD_LIBRARY_PATH ASAN_OPTIONS TSAN_OPTIONS UBSAN_OPTIONS \
		LSAN_OPTIONS UCX_MEM_MMAP_HOOK_MODE SOFTDOCA_TIMEOUT_MS; do
		[ -n "${!var+set}" ] && pass+=(-x "$var")
	done
	run "$dir/out" mpirun --allow-run-as-root --oversubscribe -np "$ranks" "${pass[@]}" "$exe"
	rc=$?
	for ((r = 0; r < ranks; r++)); do
		want="^Rank $r received:"
		for ((s = 0; s < ranks; s++)); do
			want+=$(printf ' 0x0003%04x%04x0000' "$s" "$r")
		done
		expect "$dir/out" 1 "$want\$"
	done
	expect "$dir/out" 1 "All-to-all of $ranks ranks: the ${ranks}x$ranks data matrix is exact after 3 rounds"
	expect "$dir/out" 1 "Sample finished successfully$"
	logs=("$dir/out")
	;;
*)
	echo "examples_run.sh: unknown example $name"
	exit 2
	;;
esac

if [ "$rc" -ne 0 ] || [ "$failed" -ne 0 ]; then
	echo "FAIL: $name over $SOFTDOCA_TRANSPORT (exit $rc)"
	show "${logs[@]}"
	exit 1
fi
show "${logs[@]}"
echo "ok: $name over $SOFTDOCA_TRANSPORT"
