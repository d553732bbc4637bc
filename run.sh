#!/bin/bash
# softdoca: the whole set-up on a fresh Debian 12 machine.
#
#   ./run.sh demo    install what is missing, build, run the demonstration
#   ./run.sh test    install what is missing, build and run the whole test suite
#                    (release, then the fast suite on every compiler and build
#                    type, ASan+UBSan, ThreadSanitizer on the threaded tests,
#                    then every libFuzzer target for a bounded time)
#
#   ./run.sh soak [MINUTES]
#                    the soak (docs/soak.md): 8 connections, every operation,
#                    1 B - 64 MiB, injected faults, every byte checked; MINUTES
#                    (default 10) over shared memory, then as long over TCP
#
#   ./run.sh builds  gcc and clang x Debug, Release, RelWithDebInfo, warnings
#                    as errors, each with the fast suite (part of test)
#
#   ./run.sh stress-tests [N]
#                    the release build's timing-sensitive tests (ctest label
#                    `stress`: peers killed, stopped, resumed, timed out or
#                    faulted, and softdoca-perf) N times (default 50), two at
#                    a time as in the suite; failures counted per test, logs
#                    of failing rounds kept in build/stress/; exit 1 on any
#                    failure
#
#   ./run.sh package the release build's .deb packages (softdoca, softdoca-dev,
#                    softdoca-tools; prefix /opt/softdoca) in build/packages/
#
# Also: build, install [PREFIX], fuzz [SECONDS], format, deps.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")" && pwd)
cd "$ROOT"

# Debian packages the build, the tests and the benchmarks need.
PACKAGES=(build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev clang-format
	libucx-dev ucx-utils libcmocka-dev zlib1g-dev libjson-c-dev iproute2 procps python3 meson
	librdmacm-dev openmpi-bin libopenmpi-dev tshark)

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
JOBS=$(nproc)

log() { printf '\n==> %s\n' "$*"; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
		echo "run.sh: need root (or sudo) to install: $*" >&2
		exit 1
	fi
}

deps() {
	local missing=()
	for pkg in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
			missing+=("$pkg")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# tshark (the capture tests read softdoca's pcapng files with it) pulls
	# in wireshark-common, which asks whether non-root users may capture:
	# no, answered before it asks.
	echo "wireshark-common wireshark-common/install-setuid boolean false" |
		as_root debconf-set-selections
	as_root apt-get install -y --no-install-recommends "${missing[@]}" ||
		{ as_root apt-get update && as_root apt-get install -y --no-install-recommends "${missing[@]}"; }
}

# configure_build <dir> [cmake args...]
configure_build() {
	local dir=$1
	shift
	# The project's own builds: every warning is an error (a plain cmake
	# build leaves SOFTDOCA_WERROR off).
	cmake -S "$ROOT" -B "$dir" -G Ninja -DSOFTDOCA_WERROR=ON "$@" >/dev/null
	cmake --build "$dir" -j "$JOBS"
}

build_release() {
	log "building (release) in build/"
	configure_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo
}

# The build users run (optimised, link-time optimised): the code the
# sanitized builds do not compile.
test_release() {
	build_release
	log "the whole test suite on the release build (build/)"
	(cd build && ctest --output-on-failure -j "$JOBS" --timeout 600)
}

test_sanitized() {
	log "ASan+UBSan build and the whole test suite (build-asan/)"
	configure_build build-asan -DCMAKE_BUILD_TYPE=Debug -DSOFTDOCA_SANITIZE=address,undefined
	(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --output-on-failure -j "$JOBS" --timeout 600)

	log "ThreadSanitizer build and the threaded tests (build-tsan/)"
	configure_build build-tsan -DCMAKE_BUILD_TYPE=Debug -DSOFTDOCA_SANITIZE=thread
	# UCX's madvise hook (libucm) crashes inside TSan's interceptors: off for this run.
	# TSan slows every access ~10x (a 64 MiB write copies under its interceptors):
	# requests get 10 s instead of 2 s before a silent peer counts as gone.
	(cd build-tsan &&
		TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$ROOT/tests/tsan.supp \
		UCX_MEM_MMAP_HOOK_MODE=none SOFTDOCA_TIMEOUT_MS=10000 \
		ctest --output-on-failure -j "$JOBS" -L threads --timeout 600)
}

# Every build a user makes: gcc and clang, Debug, Release and RelWithDebInfo,
# warnings as errors, and the fast suite (unit and header tests) on each.
# The slow suites run once, on build/ (gcc RelWithDebInfo) and the sanitizers.
BUILD_MATRIX_COMPILERS=(gcc clang)
BUILD_MATRIX_TYPES=(Debug Release RelWithDebInfo)
test_builds() {
	local cc type dir
	for cc in "${BUILD_MATRIX_COMPILERS[@]}"; do
		for type in "${BUILD_MATRIX_TYPES[@]}"; do
			[ "$cc/$type" = gcc/RelWithDebInfo ] && continue # build/ is that one
			dir=build-matrix/$cc-$type
			log "$cc $type build, warnings as errors, and the fast suite ($dir/)"
			configure_build "$dir" -DCMAKE_BUILD_TYPE="$type" -DCMAKE_C_COMPILER="$cc" \
				-DCMAKE_CXX_COMPILER="$([ "$cc" = gcc ] && echo g++ || echo clang++)"
			(cd "$dir" && ctest --output-on-failure -j "$JOBS" -L 'unit|headers' --timeout 300)
		done
	done
}

fuzz() {
	local seconds=${1:-$FUZZ_SECONDS}
	log "libFuzzer targets, ${seconds}s each (build-fuzz/)"
	configure_build build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang \
		-DCMAKE_CXX_COMPILER=clang++ -DSOFTDOCA_FUZZ=ON -DSOFTDOCA_TESTS=OFF
	for target in build-fuzz/tests/fuzz/fuzz_*; do
		[ -x "$target" ] || continue
		local name corpus
		name=$(basename "$target")
		corpus="build-fuzz/corpus/$name"
		mkdir -p "$corpus"
		log "fuzzing $name"
		"$target" -max_total_time="$seconds" -print_final_stats=1 \
			"$corpus" "$ROOT/tests/fuzz/seeds/$name" 2>&1 | tail -n 12
	done
}

# stress_tests N: every test labelled `stress` (tests/integration/CMakeLists.txt)
# N times, STRESS_JOBS (default 2) at a time: the load under which the suite
# once failed them now and then. A round's output is kept only if it failed.
stress_tests() {
	local rounds=$1 jobs=${STRESS_JOBS:-2} logs=build/stress round start took total=0
	local -A failures=()
	[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "run.sh stress-tests: N must be a positive count" >&2; exit 2; }
	build_release
	rm -rf "$logs"
	mkdir -p "$logs"
	log "$(cd build && ctest -N -L stress | tail -n 1 | sed 's/Total Tests: //') stress tests, $rounds rounds, $jobs at a time"
	for ((round = 1; round <= rounds; round++)); do
		start=$SECONDS
		# Its exit status is this loop's to judge, from the per-test lines.
		(cd build && ctest -L stress -j "$jobs" --timeout 600 --output-on-failure) \
			>"$logs/round-$round.log" 2>&1 || true
		took=$((SECONDS - start))
		total=$((total + took))
		local failed=()
		mapfile -t failed < <(sed -n 's/^.*Test *#[0-9]*: \([^ ]*\) .*\*\*\*\(Failed\|Timeout\|Exception\).*$/\1/p' \
			"$logs/round-$round.log")
		for name in "${failed[@]}"; do failures[$name]=$((${failures[$name]:-0} + 1)); done
		if [ ${#failed[@]} -eq 0 ] && grep -q "tests passed" "$logs/round-$round.log"; then
			rm "$logs/round-$round.log"
			echo "round $round/$rounds: passed (${took} s)"
		else
			echo "round $round/$rounds: FAILED ${failed[*]:-(see $logs/round-$round.log)} (${took} s)"
			[ ${#failed[@]} -gt 0 ] || failures["(ctest)"]=$((${failures["(ctest)"]:-0} + 1))
		fi
	done
	log "stress tests: $rounds rounds in ${total} s ($((total / rounds)) s a round)"
	if [ ${#failures[@]} -eq 0 ]; then
		echo "no failures"
		return 0
	fi
	for name in "${!failures[@]}"; do
		printf '%-40s failed %d of %d\n' "$name" "${failures[$name]}" "$rounds"
	done | sort
	echo "logs of the failed rounds: $logs/"
	return 1
}

format_check() {
	log "clang-format check"
	git ls-files '*.c' '*.h' | xargs clang-format --dry-run --Werror
}

demo() {
	build_release
	log "demo: two processes over shared memory"
	SOFTDOCA_TRANSPORT=shm build/examples/rdma_demo
	log "demo: two processes over TCP (loopback)"
	SOFTDOCA_TRANSPORT=tcp build/examples/rdma_demo
}

case "${1:-}" in
deps) deps ;;
build) deps; build_release ;;
install) deps; build_release; cmake --install build --prefix "${2:-/opt/softdoca}" ;;
package)
	deps
	build_release
	log "Debian packages (build/packages/)"
	rm -rf build/packages
	(cd build && cpack -G DEB >/dev/null)
	ls -1 build/packages/*.deb
	;;
demo) deps; demo ;;
test)
	# One after the other, not in an && list: set -e is off inside such a list.
	deps
	format_check
	test_release
	test_builds
	test_sanitized
	fuzz
	;;
builds) deps; test_builds ;;
fuzz) deps; fuzz "${2:-$FUZZ_SECONDS}" ;;
soak)
	deps
	build_release
	for transport in shm tcp; do
		log "soak over $transport, ${2:-10} minute(s)"
		tests/soak/run_soak.sh build/tests/soak/soak "$transport" $((${2:-10} * 60)) --report 30
	done
	;;
stress-tests)
	deps
	stress_tests "${2:-50}"
	;;
format) git ls-files '*.c' '*.h' | xargs clang-format -i ;;
*)
	sed -n '2,/^set /{/^set /!p}' "$0"
	exit 2
	;;
esac
