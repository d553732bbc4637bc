#!/bin/sh
# Installs softdoca into a temporary prefix, checks that the tree is laid out
# as DOCA's (/opt/mellanox/doca), moves it, and builds DOCA programs against
# the moved tree with pkg-config only: a DOCA Core program, shared and
# static; a DOCA 2.5 and a DOCA 2.2 program whose API generation comes from
# the module they name (no -D on the command line). Runs what it builds.
# usage: install_pkgconfig.sh <build dir> <source dir>
#
# CC and SDOCA_PROGRAM_FLAGS (set by CMake) build the programs like the
# libraries: under a sanitizer build they must carry the same runtime.
set -eu
build=$1
src=$2
LIMIT=${SDOCA_TEST_LIMIT:-60} # seconds any one program may run
work=$(mktemp -d /tmp/sdoca-prefix.XXXXXX)
trap 'rm -rf "$work"' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

cc=${CC:-cc}
flags=${SDOCA_PROGRAM_FLAGS:-}
unset CPATH C_INCLUDE_PATH LIBRARY_PATH

# Installed in one place, used from another: the .pc files find the tree
# relative to themselves.
cmake --install "$build" --prefix "$work/installed" >/dev/null
mv "$work/installed" "$work/prefix"
prefix=$work/prefix

# --- the layout ---------------------------------------------------------------
# Libraries and pkg-config modules in lib/<multiarch> (x86_64-linux-gnu,
# aarch64-linux-gnu), as DOCA installs them; lib/ for a toolchain without one.
multiarch=$($cc -print-multiarch 2>/dev/null || true)
libdir=$prefix/lib${multiarch:+/$multiarch}
for lib in doca_common doca_rdma doca_dpa doca_argp flexio; do
	{ test -f "$libdir/lib$lib.so" && test -f "$libdir/lib$lib.a"; } ||
		fail "lib$lib.so/.a not installed in $libdir"
done
for module in doca-common doca-rdma doca-dpa doca-argp doca libflexio; do
	test -f "$libdir/pkgconfig/$module.pc" || fail "$module.pc not in $libdir/pkgconfig"
done

# Headers flat in include/ (libflexio's in include/libflexio/, where DOCA
# programs include them from): each one compiles with -I<prefix>/include alone.
test ! -e "$prefix/include/softdoca" || fail "include/softdoca/ is still installed"
for path in "$src"/include/*.h "$src"/include/libflexio/*.h; do
	header=${path#"$src"/include/}
	test -f "$prefix/include/$header" || fail "header $header not in $prefix/include"
	printf '#include <%s>\nint sdoca_header_check;\n' "$header" >"$work/header.c"
	# shellcheck disable=SC2086
	$cc $flags -Wall -Wextra -Werror -DDOCA_ALLOW_EXPERIMENTAL_API -fsyntax-only \
		-I"$prefix/include" "$work/header.c" || fail "$header does not compile from include/"
done

# VERSION at the root (3.x samples read ../../../VERSION): the DOCA release
# the headers follow by default; applications/VERSION (2.x programs read it):
# DOCA_VERSION_STRING as a program built with the "doca" module (2.x's)
# sees it.
for file in VERSION applications/VERSION; do
	if [ "$file" = VERSION ]; then
		cflags=""
	else
		cflags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags doca)
	fi
	# shellcheck disable=SC2086
	doca_version=$(printf '#include <doca_version.h>\nDOCA_VERSION_STRING\n' |
		$cc -E -P $cflags -I"$prefix/include" -x c - | tail -n 1 | tr -d '"')
	case $doca_version in
	[0-9]*.[0-9]*.[0-9]*) ;;
	*) fail "DOCA_VERSION_STRING is '$doca_version'" ;;
	esac
	test "$(cat "$prefix/$file")" = "$doca_version" ||
		fail "$file holds '$(cat "$prefix/$file")', not DOCA_VERSION_STRING '$doca_version'"
done
case $(cat "$prefix/applications/VERSION") in
2.*) ;;
*) fail "applications/VERSION holds '$(cat "$prefix/applications/VERSION")', not a DOCA 2.x release" ;;
esac

# The directories of NVIDIA's helper sources, each saying how to fill it.
for dir in applications/common/src applications/common samples; do
	test -s "$prefix/$dir/README" || fail "$dir/README not installed"
done

# --- a DOCA program through pkg-config ----------------------------------------
export PKG_CONFIG_PATH="$libdir/pkgconfig"
for module in doca-common doca-rdma doca-dpa doca-argp doca; do
	pkg-config --exists "$module" || fail "pkg-config module $module missing"
done
program=$src/tests/integration/pkgconfig_program.c

# shellcheck disable=SC2046,SC2086
$cc $flags -Wall -Wextra -Werror -DDOCA_ALLOW_EXPERIMENTAL_API "$program" -o "$work/prog" \
	$(pkg-config --cflags --libs doca-common)
LD_LIBRARY_PATH="$libdir" timeout -s KILL "$LIMIT" "$work/prog"

# Users build with gcc or clang, whichever built the libraries: the installed
# headers compile with -Werror -pedantic under both, each API generation, C
# and C++. (A sanitizer build's program must use the libraries' compiler.)
if [ -z "$flags" ]; then
	for path in "$prefix"/include/*.h "$prefix"/include/libflexio/*.h; do
		printf '#include <%s>\n' "${path#"$prefix"/include/}"
	done >"$work/all_headers.h"
	for other in gcc clang g++ clang++; do
		command -v "$other" >/dev/null || fail "$other is not installed"
		case $other in
		*++) lang=c++ std=c++11 ;;
		*) lang=c std=c11 ;;
		esac
		for api in "" 205 202; do
			# shellcheck disable=SC2046
			"$other" -x "$lang" -std="$std" -Wall -Wextra -Werror -pedantic \
				-DDOCA_ALLOW_EXPERIMENTAL_API ${api:+-DSOFTDOCA_API_VERSION=$api} \
				-fsyntax-only $(pkg-config --cflags doca-common doca-rdma doca-dpa doca-argp) \
				"$work/all_headers.h" ||
				fail "the installed headers warn under $other (API ${api:-3.x})"
		done
	done
	for other in gcc clang; do
		# shellcheck disable=SC2046
		"$other" -std=c11 -Wall -Wextra -Werror -DDOCA_ALLOW_EXPERIMENTAL_API "$program" \
			-o "$work/prog_$other" $(pkg-config --cflags --libs doca-common) ||
			fail "pkgconfig_program.c does not build with $other -Werror"
		LD_LIBRARY_PATH="$libdir" timeout -s KILL "$LIMIT" "$work/prog_$other" >/dev/null ||
			fail "pkgconfig_program.c built by $other did not run"
	done
fi

# shellcheck disable=SC2046,SC2086
$cc $flags -Wall -Wextra -Werror -DDOCA_ALLOW_EXPERIMENTAL_API "$program" -o "$work/prog_static" \
	$(pkg-config --cflags doca-common) "$libdir/libdoca_common.a" \
	$(pkg-config --static --libs-only-l doca-common | sed 's/-ldoca_common//')
timeout -s KILL "$LIMIT" "$work/prog_static"

# --- libflexio, as DOCA DPA programs use it -----------------------------------
# dependency('libflexio'): the DPA resources file read from a buffer with no
# NUL (as DOCA's dpa_common.c passes it), through the shared library.
# shellcheck disable=SC2046,SC2086
$cc $flags -Wall -Wextra -Werror "$src/tests/integration/flexio_program.c" -o "$work/flexio_prog" \
	$(pkg-config --cflags --libs libflexio) || fail "flexio_program.c does not build via libflexio.pc"
LD_LIBRARY_PATH="$libdir" timeout -s KILL "$LIMIT" "$work/flexio_prog" >"$work/flexio.log" 2>&1 ||
	{ cat "$work/flexio.log"; fail "flexio_program did not run"; }
grep -q "^EUs: 3 5 6 7$" "$work/flexio.log" || { cat "$work/flexio.log"; fail "flexio_program's EUs"; }

# --- the API generation comes from the module ---------------------------------
# lib/<multiarch>/pkgconfig: "doca" (DOCA 2.x's single module) gives DOCA 2.5's
# API, the per-library modules 3.x's. lib/<multiarch>/pkgconfig/doca-2.5:
# every module gives 2.5's.
gen25=$libdir/pkgconfig/doca-2.5
for module in doca-common doca-rdma doca-dpa doca-argp doca; do
	test -f "$gen25/$module.pc" || fail "$module.pc not in $gen25"
	case " $(PKG_CONFIG_PATH=$gen25 pkg-config --cflags "$module") " in
	*" -DSOFTDOCA_API_VERSION=205 "*) ;;
	*) fail "doca-2.5/$module.pc: its Cflags do not select API 205" ;;
	esac
done
cflags=" $(pkg-config --cflags doca) "
case $cflags in
*" -DSOFTDOCA_API_VERSION=205 "*) ;;
*) fail "doca.pc: its Cflags do not select API 205:$cflags" ;;
esac
# DOCA 2.5's doca.pc brought DPDK's macro too (through doca-libs.pc).
case $cflags in
*" -DALLOW_EXPERIMENTAL_API "*) ;;
*) fail "doca.pc: its Cflags lack -DALLOW_EXPERIMENTAL_API:$cflags" ;;
esac
case " $(pkg-config --cflags doca-common doca-rdma doca-dpa doca-argp) " in
*SOFTDOCA_API_VERSION*) fail "a 3.x module selects an API generation" ;;
esac

# build_v25 OUTPUT PKGCONFIGDIR MODULE... - the DOCA 2.5 program against the
# MODULEs of PKGCONFIGDIR, the compiler's messages in OUTPUT.log.
build_v25() {
	out=$1
	dir=$2
	shift 2
	# shellcheck disable=SC2046,SC2086
	$cc $flags -Wall -Wextra -Werror "$src/tests/integration/install/program_v25.c" \
		-o "$out" $(PKG_CONFIG_PATH=$dir pkg-config --cflags --libs "$@") >"$out.log" 2>&1
}
# run_v25 PROGRAM - it ran with DOCA 2.5's API (its version and behaviour).
run_v25() {
	if ! LD_LIBRARY_PATH="$libdir" timeout -s KILL "$LIMIT" "$1" >"$1.run.log" 2>&1 ||
		! grep "^DOCA 2\.5\..* program: OK" "$1.run.log"; then
		cat "$1.run.log"
		fail "${1##*/} did not behave as a DOCA 2.5 program"
	fi
}

build_v25 "$work/v25_doca" "$libdir/pkgconfig" doca || { cat "$work/v25_doca.log"; fail "2.5 program via doca"; }
run_v25 "$work/v25_doca"
if build_v25 "$work/v25_3x" "$libdir/pkgconfig" doca-common doca-rdma; then
	fail "the 2.5 program compiled via the 3.x modules doca-common doca-rdma"
fi
grep -q "too few arguments" "$work/v25_3x.log" ||
	{ cat "$work/v25_3x.log"; fail "the 2.5 program failed via 3.x modules, not for the 2.5 forms"; }
build_v25 "$work/v25_modules" "$gen25" doca-common doca-rdma ||
	{ cat "$work/v25_modules.log"; fail "2.5 program via doca-2.5/doca-common doca-rdma"; }
run_v25 "$work/v25_modules"

# lib/<multiarch>/pkgconfig/doca-2.2: every module gives DOCA 2.2's API (work
# queues and jobs); a 2.2 program does not compile with another generation's.
gen22=$libdir/pkgconfig/doca-2.2
for module in doca-common doca-rdma doca-dpa doca-argp doca; do
	test -f "$gen22/$module.pc" || fail "$module.pc not in $gen22"
	case " $(PKG_CONFIG_PATH=$gen22 pkg-config --cflags "$module") " in
	*" -DSOFTDOCA_API_VERSION=202 "*) ;;
	*) fail "doca-2.2/$module.pc: its Cflags do not select API 202" ;;
	esac
done
test "$(PKG_CONFIG_PATH=$gen22 pkg-config --modversion doca)" = 2.2.0080 ||
	fail "doca-2.2/doca.pc is not version 2.2.0080"
# build_v22 OUTPUT PKGCONFIGDIR MODULE... - as build_v25, for the 2.2 program.
build_v22() {
	out=$1
	dir=$2
	shift 2
	# shellcheck disable=SC2046,SC2086
	$cc $flags -Wall -Wextra -Werror "$src/tests/integration/install/program_v22.c" \
		-o "$out" $(PKG_CONFIG_PATH=$dir pkg-config --cflags --libs "$@") >"$out.log" 2>&1
}
build_v22 "$work/v22_doca" "$gen22" doca || { cat "$work/v22_doca.log"; fail "2.2 program via doca-2.2/doca"; }
if ! LD_LIBRARY_PATH="$libdir" timeout -s KILL "$LIMIT" "$work/v22_doca" >"$work/v22.run.log" 2>&1 ||
	! grep -q "^DOCA 2\.2\..* program: OK" "$work/v22.run.log"; then
	cat "$work/v22.run.log"
	fail "the 2.2 program did not behave as a DOCA 2.2 program"
fi
if build_v22 "$work/v22_25" "$libdir/pkgconfig" doca; then
	fail "the 2.2 program compiled via doca (2.5)"
fi
if build_v22 "$work/v22_3x" "$libdir/pkgconfig" doca-common doca-rdma; then
	fail "the 2.2 program compiled via the 3.x modules"
fi
echo "install layout + pkg-config (2.5 via doca, via doca-2.5/; 2.2 via doca-2.2/; 3.x refuses both): OK"
