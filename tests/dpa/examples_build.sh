#!/bin/sh
# Builds examples/dpa as a DOCA user would build DOCA's DPA samples, against
# softdoca installed into a prefix: meson setup runs each example's
# build_dpacc_samples.sh (PREFIX/tools/dpa-app-attributes2blob, then
# PREFIX/tools/dpacc), ninja links the host parts. The ctest fixture the
# dpa_example_* tests (examples_run.sh) run from.
#
#   examples_build.sh <softdoca build dir> <source dir> <work dir>
#
# CC and SDOCA_PROGRAM_FLAGS (set by CMake) build host and device code like
# the libraries: under a sanitizer build they must carry the same runtime.
set -eu
build=$1
src=$2
work=$3

fail() {
	echo "FAIL: $*"
	exit 1
}
for tool in meson ninja; do
	command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (./run.sh deps installs it)"
done

rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
libdir=$(find "$work/prefix" -name libdoca_dpa.so -printf '%h\n' | head -n1)
[ -n "$libdir" ] || fail "libdoca_dpa.so not installed"
unset CPATH C_INCLUDE_PATH LIBRARY_PATH
export CC="${CC:-cc}"
export CFLAGS="${SDOCA_PROGRAM_FLAGS:-}"
export LDFLAGS="${SDOCA_PROGRAM_FLAGS:-}"

if ! PKG_CONFIG_PATH=$libdir/pkgconfig meson setup "$work/build" "$src/examples/dpa" \
	>"$work/setup.log" 2>&1; then
	cat "$work/setup.log"
	fail "meson setup (which runs dpacc) failed"
fi
ninja -C "$work/build" >"$work/ninja.log" 2>&1 || { cat "$work/ninja.log"; fail "ninja failed"; }
# Each DPA program came from dpacc through the sample script, and found by
# find_library.
for ex in dpa_kernel_launch dpa_initiator_target dpa_ping_pong dpa_remote_ping_pong; do
	test -f "$work/build/$ex/device/build_dpacc/${ex}_program.a" || fail "no ${ex}_program.a"
	test -x "$work/build/$ex/doca_$ex" || fail "doca_$ex not built"
	grep -q "Library ${ex}_program found: YES" "$work/setup.log" || fail "find_library($ex)"
done
if [ -n "$CFLAGS" ]; then
	ninja -C "$work/build" -t commands dpa_ping_pong/doca_dpa_ping_pong | grep -qF -- "$CFLAGS" ||
		fail "the examples were built without $CFLAGS"
	# dpacc built the kernels with them too (the sample script passes c_args).
	nm "$work/build/dpa_ping_pong/device/build_dpacc/dpa_ping_pong_program.a" |
		grep -qE "__(asan|tsan|ubsan)_" || fail "the device code was built without $CFLAGS"
fi
grep -E "libflexio|MPI for c" "$work/setup.log" || true
echo "$libdir" >"$work/libdir"
echo "examples_build: built $(find "$work/build" -name 'doca_dpa_*' -type f -perm -u+x | wc -l) examples"
