#!/bin/bash
# The drop-in check: installs softdoca into a temporary prefix, copies the
# DOCA-style samples of this directory out of the tree, builds them against
# that prefix alone (pkg-config) with meson + ninja and with CMake, and runs
# each build's pairs (write requester/responder, send/receive) over shared
# memory and over TCP, checking the bytes that arrived.
#
#   run_dropin.sh <softdoca build dir> <this directory>
#
# CC and SDOCA_PROGRAM_FLAGS (set by CMake) build the samples like the
# libraries: under a sanitizer build they must carry the same runtime.
set -eu

build=$1
src=$2
LIMIT=${SDOCA_TEST_LIMIT:-90} # seconds any one program may run
JOBS=2

if ! command -v meson >/dev/null 2>&1; then
	echo "FAIL: meson is not installed (./run.sh deps installs it: apt-get install meson)"
	exit 1
fi
if ! command -v ninja >/dev/null 2>&1; then
	echo "FAIL: ninja is not installed (./run.sh deps installs it: apt-get install ninja-build)"
	exit 1
fi

work=$(mktemp -d /tmp/sdoca-dropin.XXXXXX)
bg_pid=
# shellcheck disable=SC2317 # called from the trap
cleanup() {
	# A responder left running when a step failed: ours, by its pid (timeout
	# passes the TERM on to the program).
	if [ -n "$bg_pid" ]; then kill "$bg_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# --- install, and only the prefix is visible to the builds -----------------
cmake --install "$build" --prefix "$work/prefix" >/dev/null
libdir=$(find "$work/prefix" -name libdoca_rdma.so -printf '%h\n' | head -n1)
[ -n "$libdir" ] || { echo "FAIL: libdoca_rdma.so not installed"; exit 1; }
export PKG_CONFIG_PATH="$libdir/pkgconfig"
unset CPATH C_INCLUDE_PATH LIBRARY_PATH
case $(pkg-config --cflags doca-rdma doca-argp) in
*"$work/prefix"* | *"$libdir/pkgconfig/"*) ;;
*) echo "FAIL: pkg-config does not point into the prefix"; exit 1 ;;
esac

# The samples as a user has them: a directory of their own.
mkdir "$work/src"
cp "$src"/*.c "$src"/*.h "$src/meson.build" "$src/CMakeLists.txt" "$work/src/"

export CC="${CC:-cc}"
export CFLAGS="${SDOCA_PROGRAM_FLAGS:-}"
export LDFLAGS="${SDOCA_PROGRAM_FLAGS:-}"

echo "== meson + ninja"
meson setup "$work/meson" "$work/src" >"$work/meson-setup.log" 2>&1 ||
	{ cat "$work/meson-setup.log"; echo "FAIL: meson setup"; exit 1; }
ninja -C "$work/meson" -j "$JOBS" >"$work/meson-build.log" 2>&1 ||
	{ cat "$work/meson-build.log"; echo "FAIL: ninja"; exit 1; }

echo "== cmake"
cmake -S "$work/src" -B "$work/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
	>"$work/cmake-setup.log" 2>&1 ||
	{ cat "$work/cmake-setup.log"; echo "FAIL: cmake configure"; exit 1; }
cmake --build "$work/cmake" -j "$JOBS" >"$work/cmake-build.log" 2>&1 ||
	{ cat "$work/cmake-build.log"; echo "FAIL: cmake --build"; exit 1; }

# Both builds compiled and linked with the flags given (the sanitizers).
if [ -n "$CFLAGS" ]; then
	for dir in "$work/meson" "$work/cmake"; do
		for sample in rdma_send rdma_receive rdma_write_requester rdma_write_responder; do
			ninja -C "$dir" -t commands "$sample" | grep -qF -- "$CFLAGS" ||
				{ echo "FAIL: $dir/$sample built without $CFLAGS"; exit 1; }
		done
	done
fi

# The installed libraries, whatever run path a build system recorded.
export LD_LIBRARY_PATH="$libdir"
failed=0

# fail WHAT LOG... - reports a failed step with the logs that explain it.
fail() {
	echo "FAIL: $1"
	shift
	for log in "$@"; do
		echo "  --- $log"
		sed 's/^/  | /' "$log"
	done
	failed=1
}

# expect LOG TEXT - LOG holds TEXT (fixed string).
expect() {
	grep -qF -- "$2" "$1"
}

# run_pair NAME RESPONDER_LOG REQUESTER_LOG - runs resp_cmd in the background
# and req_cmd in the foreground, each killed after LIMIT seconds.
run_pair() {
	local req_rc=0 resp_rc=0
	timeout -s KILL "$LIMIT" "${resp_cmd[@]}" >"$2" 2>&1 &
	bg_pid=$!
	timeout -s KILL "$LIMIT" "${req_cmd[@]}" >"$3" 2>&1 || req_rc=$?
	wait "$bg_pid" || resp_rc=$?
	bg_pid=
	if [ "$req_rc" -ne 0 ] || [ "$resp_rc" -ne 0 ]; then
		fail "$1: requester exit $req_rc, responder exit $resp_rc" "$2" "$3"
		return 1
	fi
}

for tool in meson cmake; do
	bin="$work/$tool"

	# The command line is doca_argp's: help, and a refused flag.
	out="$work/$tool-help.log"
	bad="$work/$tool-bad-flags.log"
	if ! "$bin/rdma_write_requester" -h >"$out" 2>&1 ||
		! expect "$out" "-ld, --local-descriptor-path" ||
		! expect "$out" "-re, --remote-descriptor-path" ||
		! expect "$out" "-m, --mmap-descriptor-path" ||
		! expect "$out" "-s, --write-string" || ! expect "$out" "--sdk-log-level"; then
		fail "$tool: rdma_write_requester -h" "$out"
	fi
	if "$bin/rdma_send" --no-such-flag >"$bad" 2>&1 ||
		"$bin/rdma_receive" -d sdoca_lo >>"$bad" 2>&1; then
		fail "$tool: an unknown flag or a missing mandatory one was accepted" "$bad"
	fi

	for transport in shm tcp; do
		export SOFTDOCA_TRANSPORT=$transport
		d="$work/run-$tool-$transport"
		mkdir "$d"

		# Write: the responder blocks in its state callback until the
		# requester's ".done" file appears, then prints its memory.
		text="written by the $tool build over $transport, pid $$"
		resp_cmd=("$bin/rdma_write_responder" -d sdoca_lo -ld "$d/resp.desc"
			-re "$d/req.desc" -m "$d/mmap.desc" -g 0 -l 50)
		req_cmd=("$bin/rdma_write_requester" --device sdoca_lo
			--local-descriptor-path "$d/req.desc" --remote-descriptor-path "$d/resp.desc"
			--mmap-descriptor-path "$d/mmap.desc" --write-string "$text"
			--sdk-log-level 40)
		if run_pair "$tool/$transport write" "$d/write-resp.log" "$d/write-req.log"; then
			if expect "$d/write-resp.log" "Requester has written: \"$text\"" &&
				expect "$d/write-req.log" "RDMA write task was done successfully"; then
				echo "ok: $tool/$transport write"
			else
				fail "$tool/$transport write: the responder's memory is not the text" \
					"$d/write-resp.log" "$d/write-req.log"
			fi
		fi

		# Send/receive; the receiver takes its flags from a JSON file (-j).
		text="sent by the $tool build over $transport"
		printf '{ "doca_general_flags": { "log-level": 50 },\n  "doca_program_flags": { "device": "sdoca_lo", "local-descriptor-path": "%s", "remote-descriptor-path": "%s" } }\n' \
			"$d/recv.desc" "$d/send.desc" >"$d/receive.json"
		resp_cmd=("$bin/rdma_receive" -j "$d/receive.json")
		req_cmd=("$bin/rdma_send" -d sdoca_lo -ld "$d/send.desc" -re "$d/recv.desc" -s "$text")
		if run_pair "$tool/$transport send" "$d/recv.log" "$d/send.log"; then
			if expect "$d/recv.log" "Message received (${#text} bytes): \"$text\"" &&
				expect "$d/send.log" "RDMA send task was done successfully"; then
				echo "ok: $tool/$transport send"
			else
				fail "$tool/$transport send: the receiver did not get the text" \
					"$d/recv.log" "$d/send.log"
			fi
		fi
	done
done

[ "$failed" -eq 0 ] && echo "drop-in (meson and cmake, shm and tcp): OK"
exit "$failed"
