#!/bin/sh
# DOCA programs' meson build files, which name DOCA's tree, against softdoca
# installed into a temporary prefix. Each build file is in the form DOCA
# ships (tests/integration/install/):
# - doca25_sample: a DOCA 2.x sample, the prefix written into it, its version
#   from applications/VERSION (DOCA 2.5's, the API it gets), applications/
#   common/src an include directory, dependency('doca'), which gives DOCA
#   2.5's API;
# - doca25_modules: a DOCA 2.5 program asking for doca-common and doca-rdma:
#   it does not compile through lib/<multiarch>/pkgconfig (3.x modules), it
#   does through lib/<multiarch>/pkgconfig/doca-2.5;
# - doca3_sample: a DOCA 3.x sample placed at samples/doca_rdma/<sample>/,
#   its version from ../../../VERSION, the DOCA root, '..', '../..' and
#   ../../../applications/common as include directories.
# Runs each program built.
#
#   install_meson.sh <softdoca build dir> <source dir>
#
# CC and SDOCA_PROGRAM_FLAGS (set by CMake) build the programs like the
# libraries: under a sanitizer build they must carry the same runtime.
set -eu

build=$1
src=$2
LIMIT=${SDOCA_TEST_LIMIT:-60} # seconds any one program may run
here=$src/tests/integration/install

for tool in meson ninja; do
	command -v "$tool" >/dev/null 2>&1 ||
		{ echo "FAIL: $tool is not installed (./run.sh deps installs it)"; exit 1; }
done

work=$(mktemp -d /tmp/sdoca-meson.XXXXXX)
trap 'rm -rf "$work"' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

cmake --install "$build" --prefix "$work/prefix" >/dev/null
prefix=$work/prefix
libdir=$(find "$prefix" -name libdoca_common.so -printf '%h\n' | head -n1)
[ -n "$libdir" ] || fail "libdoca_common.so not installed"
doca_version=$(cat "$prefix/VERSION")                # what 3.x samples read
doca2_version=$(cat "$prefix/applications/VERSION")  # what 2.x programs read
unset CPATH C_INCLUDE_PATH LIBRARY_PATH

export CC="${CC:-cc}"
export CFLAGS="${SDOCA_PROGRAM_FLAGS:-}"
export LDFLAGS="${SDOCA_PROGRAM_FLAGS:-}"

# project SOURCE DESTINATION [FILE...] - copies the project SOURCE and the
# FILEs to DESTINATION, its build file with the prefix for @DOCA_PREFIX@.
project() {
	dest=$2
	mkdir -p "$dest"
	cp "$here/$1"/* "$dest/"
	sed "s|@DOCA_PREFIX@|$prefix|g" "$here/$1/meson.build" >"$dest/meson.build"
	shift 2
	for file in "$@"; do
		cp "$file" "$dest/"
	done
}

# build NAME SOURCEDIR PKGCONFIGDIR - meson setup + ninja into $work/NAME with
# PKG_CONFIG_PATH=PKGCONFIGDIR; the output in $work/NAME.log.
build() {
	PKG_CONFIG_PATH=$3 meson setup "$work/$1" "$2" >"$work/$1.log" 2>&1 &&
		ninja -C "$work/$1" >>"$work/$1.log" 2>&1
}

# check_built NAME PROGRAM VERSION - PROGRAM of build NAME was built with the
# flags given (the sanitizers) and with the project version VERSION (what the
# VERSION file its build file reads holds).
check_built() {
	if [ -n "$CFLAGS" ]; then
		ninja -C "$work/$1" -t commands "$2" | grep -qF -- "$CFLAGS" ||
			fail "$1: $2 built without $CFLAGS"
	fi
	meson introspect --projectinfo "$work/$1" | grep -qF "\"version\": \"$3\"" ||
		fail "$1: the project's version is not $3"
}

# run NAME PROGRAM PATTERN - runs PROGRAM of build NAME; its output matches PATTERN.
run() {
	if ! LD_LIBRARY_PATH="$libdir" timeout -s KILL "$LIMIT" "$work/$1/$2" \
		>"$work/$1.run.log" 2>&1 || ! grep "$3" "$work/$1.run.log"; then
		cat "$work/$1.run.log"
		fail "$1: $2 did not run as it should"
	fi
}

echo "== a DOCA 2.x sample: dependency('doca'), applications/VERSION, applications/common/src"
project doca25_sample "$work/src/doca25_sample" "$here/program_v25.c"
build doca25_sample "$work/src/doca25_sample" "$libdir/pkgconfig" ||
	{ cat "$work/doca25_sample.log"; fail "doca25_sample did not build"; }
check_built doca25_sample doca_rdma_v25 "$doca2_version"
# The program prints the DOCA_VERSION_STRING it was compiled with: the same.
run doca25_sample doca_rdma_v25 "^DOCA $doca2_version program: OK"

echo "== a DOCA 2.5 program asking for doca-common and doca-rdma"
project doca25_modules "$work/src/doca25_modules" "$here/program_v25.c"
if build doca25_modules_3x "$work/src/doca25_modules" "$libdir/pkgconfig"; then
	fail "the 2.5 program built with the 3.x modules of lib/<multiarch>/pkgconfig"
fi
grep -q "too few arguments" "$work/doca25_modules_3x.log" ||
	{ cat "$work/doca25_modules_3x.log"; fail "doca25_modules_3x failed, not for the 2.5 forms"; }
echo "ok: it does not compile with the 3.x modules"
build doca25_modules "$work/src/doca25_modules" "$libdir/pkgconfig/doca-2.5" ||
	{ cat "$work/doca25_modules.log"; fail "doca25_modules did not build with doca-2.5/"; }
check_built doca25_modules doca_rdma_v25 "$doca2_version"
run doca25_modules doca_rdma_v25 "^DOCA 2\.5\..* program: OK"

echo "== a DOCA 3.x sample in samples/doca_rdma/, ../../../VERSION"
# The user's copy of DOCA's samples/common.h, which the sample includes as
# <samples/common.h> through the DOCA root.
printf '/* Stands for DOCA'"'"'s samples/common.h. */\n#define SDOCA_SAMPLES_COMMON_STAND_IN 1\n' \
	>"$prefix/samples/common.h"
sample=$prefix/samples/doca_rdma/rdma_install_check
project doca3_sample "$sample"
build doca3_sample "$sample" "$libdir/pkgconfig" ||
	{ cat "$work/doca3_sample.log"; fail "doca3_sample did not build"; }
check_built doca3_sample doca_rdma_install_check "$doca_version"
run doca3_sample doca_rdma_install_check "^DOCA $doca_version sample: OK"

echo "meson: DOCA 2.x and 3.x samples against the installed tree: OK"
