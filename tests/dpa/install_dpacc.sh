#!/bin/sh
# Installs softdoca into a temporary prefix and builds the RPC test program
# as DOCA 2.9-3.2's build_dpacc_samples.sh does: dpa-app-attributes2blob and
# dpacc from PREFIX/tools, the device libraries from the doca-dpa libdir,
# then the host part with pkg-config; runs it. Also checks PREFIX/bin/dpacc.
# usage: install_dpacc.sh <build dir> <source dir>
# CC and SDOCA_PROGRAM_FLAGS (set by CMake) build the host part like the
# libraries (sanitizer runtimes must match).
set -eu
build=$1
src=$2
work=$(mktemp -d /tmp/sdoca-dpacc.XXXXXX)
trap 'rm -rf "$work"' EXIT
cc=${CC:-cc}
flags=${SDOCA_PROGRAM_FLAGS:-}

fail() {
	echo "FAIL: $*"
	exit 1
}

cmake --install "$build" --prefix "$work/prefix" >/dev/null
prefix=$work/prefix
export PKG_CONFIG_PATH=
multiarch=$($cc -print-multiarch 2>/dev/null || true)
libdir=$prefix/lib${multiarch:+/$multiarch}
PKG_CONFIG_PATH=$libdir/pkgconfig
test -x "$prefix/tools/dpacc" || fail "PREFIX/tools/dpacc not installed"
test -x "$prefix/tools/dpa-app-attributes2blob" || fail "dpa-app-attributes2blob not installed"
for tool in dpacc dpa-app-attributes2blob; do
	test -x "$prefix/bin/$tool" || fail "PREFIX/bin/$tool missing"
done
for lib in doca_dpa_dev doca_dpa_dev_comm doca_dpa_dev_verbs; do
	test -f "$libdir/lib$lib.a" || fail "lib$lib.a not in $libdir"
done
[ "$(pkg-config --variable=libdir doca-dpa)" -ef "$libdir" ] || fail "doca-dpa's libdir"

# The sample script's steps (its dpacc line, with this test's sources).
out=$work/build_dpacc
mkdir -p "$out"
printf 'Feature_list:\n' >"$work/attrs.yaml"
"$prefix/tools/dpa-app-attributes2blob" "$work/attrs.yaml" "$out/attrs.blob"
"$prefix/tools/dpacc" "$src/tests/dpa/rpc_kernels_a.c" "$src/tests/dpa/rpc_kernels_b.c" \
	-o "$out/rpc_program.a" -mcpu=nv-dpa-bf3,nv-dpa-cx7,nv-dpa-cx8,nv-dpa-cx9 -hostcc=gcc \
	-hostcc-options="-Wno-deprecated-declarations -Werror -Wall -Wextra -DFLEXIO_ALLOW_EXPERIMENTAL_API" \
	--devicecc-options="-Wno-deprecated-declarations -Werror -Wall -Wextra -DFLEXIO_DEV_ALLOW_EXPERIMENTAL_API -O2" \
	--app-name="rpc_test_app" \
	-device-libs="-L$libdir -ldoca_dpa_dev -ldoca_dpa_dev_comm -ldoca_dpa_dev_verbs" \
	-flto -I"$prefix/include" -I"$src/tests/dpa" --dpa-proc-attr="$out/attrs.blob" ||
	fail "dpacc"
# From PATH too (the bin/ link finds the installed tree through itself).
PATH=$prefix/bin:$PATH dpacc "$src/tests/dpa/rpc_kernels_b.c" -o "$work/b.a" \
	--app-name=b_app -I"$src/tests/dpa" || fail "dpacc from PREFIX/bin"

# shellcheck disable=SC2046,SC2086
$cc $flags -DDOCA_ALLOW_EXPERIMENTAL_API -I"$src/tests" -I"$src/tests/dpa" \
	$(pkg-config --cflags doca-dpa cmocka) "$src/tests/dpa/rpc_main.c" "$out/rpc_program.a" \
	$(pkg-config --libs doca-dpa cmocka) -Wl,-rpath,"$libdir" -o "$work/rpc_main" ||
	fail "building the host part"
"$src/tests/dpa/expect_stdout.sh" "^rpc_add: -5 1099511627776 200 -3$" "never printed" \
	"$work/rpc_main" || fail "the installed program"
echo "install_dpacc: passed"
