#!/bin/sh
# Builds the .deb packages (cpack), checks their contents and Depends,
# checks softdoca-dev refuses to overwrite a DOCA dpkg does not know of,
# installs them as a user would (apt-get install ./*.deb), builds and runs a
# DOCA program against the installed tree through pkg-config alone, runs the
# installed tools (softdoca-perf: checked writes between two processes), then
# purges the packages and checks nothing is left.
# usage: package_deb.sh <build dir> <source dir>
#
# It changes the machine (dpkg's database, PREFIX): it needs root and runs
# only where no softdoca package is installed and PREFIX does not exist
# (otherwise it skips, exit 77, touching nothing). Whatever happens after the
# install, the exit trap purges the packages; every step has a timeout, their
# sum below ctest's, so ctest never has to kill it (SIGKILL would leave them:
# `dpkg -P softdoca-tools softdoca-dev softdoca` then cleans up).
# CC (set by CMake) builds the program; SDOCA_PACKAGE_PREFIX is the packages'
# prefix (SOFTDOCA_PACKAGE_PREFIX, /opt/softdoca by default).
set -eu
build=$1
src=$2
prefix=${SDOCA_PACKAGE_PREFIX:-/opt/softdoca}
cc=${CC:-cc}
LIMIT=${SDOCA_TEST_LIMIT:-60} # seconds any one step may run
# Word-split where used: dependants first, as dpkg removes them.
PACKAGES="softdoca-tools softdoca-dev softdoca"

fail() {
	echo "FAIL: $*"
	exit 1
}
skip() {
	echo "SKIP: $*"
	exit 77
}

[ "$(id -u)" -eq 0 ] || skip "needs root (it installs packages)"
if ! command -v dpkg-deb >/dev/null || ! command -v cpack >/dev/null; then
	skip "needs dpkg and cpack"
fi

# One run at a time on a machine (other build directories run this test too).
exec 9>/tmp/softdoca-package-test.lock
flock -w 600 9 || fail "another package test holds /tmp/softdoca-package-test.lock"

for pkg in $PACKAGES; do
	if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "installed"; then
		skip "$pkg is installed on this machine: not touching it"
	fi
done
[ ! -e "$prefix" ] || skip "$prefix exists: not touching it"

work=$(mktemp -d /tmp/sdoca-package.XXXXXX)
installed=0
server=
created=
cleanup() {
	status=$?
	[ -z "$server" ] || kill -9 "$server" 2>/dev/null || true
	if [ "$installed" -eq 1 ]; then
		echo "cleaning up: dpkg -P $PACKAGES"
		# shellcheck disable=SC2086
		dpkg -P $PACKAGES >/dev/null 2>&1 || true
	fi
	[ -z "$created" ] || rm -rf "$created"
	rm -rf "$work"
	exit $status
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# --- the packages ---------------------------------------------------------------
timeout -s KILL 180 cpack -G DEB -B "$work/cpack" --config "$build/CPackConfig.cmake" \
	>"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
mkdir "$work/debs"
mv "$work/cpack"/*.deb "$work/debs/"
for pkg in $PACKAGES; do
	deb=$(echo "$work/debs/${pkg}_"*.deb)
	[ -f "$deb" ] || fail "no $pkg package: $(ls "$work/debs")"
	echo "$pkg: $(dpkg-deb -f "$deb" Version); Depends: $(dpkg-deb -f "$deb" Depends)"
done
deb_runtime=$(echo "$work"/debs/softdoca_*.deb)
deb_dev=$(echo "$work"/debs/softdoca-dev_*.deb)
deb_tools=$(echo "$work"/debs/softdoca-tools_*.deb)

# Every file under PREFIX, and together exactly what `cmake --install` puts
# there (nothing forgotten in a component).
DESTDIR=$work/ref cmake --install "$build" --prefix "$prefix" >/dev/null
(cd "$work/ref" && find . ! -type d | sort) >"$work/ref.list"
for deb in "$work"/debs/*.deb; do
	dpkg-deb -c "$deb" | awk '{print $6}' >"$work/contents"
	# Under PREFIX, or a directory above it.
	if awk -v p="$prefix/" '{ f = substr($0, 2) } !(index(f, p) == 1 || index(p, f) == 1)' \
		"$work/contents" | grep .; then
		fail "$(basename "$deb") has files outside $prefix (above)"
	fi
	dpkg-deb -c "$deb" | grep -v '^d' | awk '{print $6}'
done | sort >"$work/debs.list"
diff "$work/ref.list" "$work/debs.list" || fail "the packages' files differ from cmake --install's (above)"

# Depends: every Debian package a binary links directly (NEEDED, found by
# ldd, owned per dpkg -S) is a Depends of its package or of softdoca, which
# the others depend on at the same version.
mkdir "$work/x"
for deb in "$deb_runtime" "$deb_tools"; do
	rm -rf "$work/x"/*
	dpkg-deb -x "$deb" "$work/x"
	depends="$(dpkg-deb -f "$deb" Depends), $(dpkg-deb -f "$deb_runtime" Depends)"
	find "$work/x" -type f \( -name '*.so.*' -o -perm -u+x \) | while read -r elf; do
		# The build tree's libraries stand for the runtime package's.
		LD_LIBRARY_PATH=$build/src ldd "$elf" >"$work/ldd"
		objdump -p "$elf" | awk '$1 == "NEEDED" {print $2}' | while read -r needed; do
			case $needed in libdoca_* | libflexio*) continue ;; esac
			# "lib.so => /path (addr)", or "/path/ld-linux.so (addr)" for the loader.
			path=$(awk -v n="$needed" '$1 == n {print $3} $1 ~ "/" n "$" {print $1}' "$work/ldd")
			[ -n "$path" ] || fail "${elf##*/}: $needed not found"
			owner=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(realpath "$path")" 2>/dev/null) ||
				fail "${elf##*/}: $path belongs to no package"
			owner=${owner%%:*}
			case ", $depends" in
			*", $owner "* | *", $owner,"* | *", $owner" | *"| $owner "*) ;;
			*) fail "${elf##*/} links $needed ($owner) but $(basename "$deb") does not depend on $owner: $depends" ;;
			esac
		done
	done
done
dpkg-deb -f "$deb_dev" Depends | grep -q "softdoca (= " || fail "softdoca-dev does not depend on softdoca"
dpkg-deb -f "$deb_tools" Depends | grep -q "softdoca (= " || fail "softdoca-tools does not depend on softdoca"

# --- not over a DOCA that dpkg does not know of ----------------------------------------
# Files of a DOCA unpacked into PREFIX without dpkg, a header and a library:
# the preinsts of softdoca-dev and softdoca refuse to overwrite them. (top:
# the first directory this creates, removed after: none of it existed.)
top=$prefix
while [ ! -e "$(dirname "$top")" ]; do top=$(dirname "$top"); done
installed=1
created=$top
lib=$(dpkg-deb -c "$deb_runtime" | awk '{print substr($6, 2)}' | grep '/libdoca_common\.so\.[0-9]*$')
mkdir -p "$prefix/include" "$(dirname "$lib")"
echo "/* DOCA's */" >"$prefix/include/doca_rdma.h"
echo "DOCA's" >"$lib"
if timeout -s KILL 180 dpkg -i "$deb_runtime" "$deb_dev" >"$work/refused.log" 2>&1; then
	fail "softdoca and softdoca-dev installed over files no package owns"
fi
for pkg in softdoca-dev softdoca; do
	grep -q "^$pkg: .* no package owns it" "$work/refused.log" ||
		{ cat "$work/refused.log"; fail "$pkg's preinst did not refuse"; }
done
[ "$(cat "$prefix/include/doca_rdma.h")" = "/* DOCA's */" ] || fail "the unowned header was overwritten"
[ "$(cat "$lib")" = "DOCA's" ] || fail "the unowned $lib was overwritten"
# shellcheck disable=SC2086
dpkg -P $PACKAGES >/dev/null 2>&1 || fail "dpkg -P after the refusal"
rm -rf "$created"
created=

# --- installed as a user installs them ----------------------------------------------
export DEBIAN_FRONTEND=noninteractive
if command -v apt-get >/dev/null; then
	timeout -s KILL 180 apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=120 \
		"$work"/debs/*.deb >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get install"; }
	echo "installed with apt-get install ./*.deb"
else
	echo "no apt-get: installing with dpkg -i"
	timeout -s KILL 180 dpkg -i "$work"/debs/*.deb >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "dpkg -i"; }
fi

# A DOCA program through the pkg-config path users point at; the library
# directory from the module itself (as an rpath: no LD_LIBRARY_PATH).
multiarch=$($cc -print-multiarch 2>/dev/null || true)
export PKG_CONFIG_PATH="$prefix/lib${multiarch:+/$multiarch}/pkgconfig"
unset CPATH C_INCLUDE_PATH LIBRARY_PATH LD_LIBRARY_PATH
libdir=$(pkg-config --variable=libdir doca-common) || fail "pkg-config doca-common via $PKG_CONFIG_PATH"
# shellcheck disable=SC2046,SC2086
timeout -s KILL "$LIMIT" $cc -Wall -Wextra -Werror -DDOCA_ALLOW_EXPERIMENTAL_API "$src/tests/integration/pkgconfig_program.c" \
	-o "$work/prog" $(pkg-config --cflags --libs doca-common doca-rdma) -Wl,-rpath,"$libdir" ||
	fail "pkgconfig_program.c does not build against $prefix"
timeout -s KILL "$LIMIT" "$work/prog" >"$work/prog.log" 2>&1 || { cat "$work/prog.log"; fail "the program"; }
ldd "$work/prog" | grep -q "libdoca_common.so.* => $libdir/" || fail "the program did not load $libdir's libraries"

# The tools run from the tree, finding its libraries without help.
timeout -s KILL "$LIMIT" "$prefix/bin/softdoca-info" >"$work/info.log" 2>&1 ||
	{ cat "$work/info.log"; fail "softdoca-info"; }
grep -q . "$work/info.log" || fail "softdoca-info printed nothing"
# RDMA between two processes through the installed libraries: a checked
# write test of softdoca-perf over shared memory (the server says its port).
timeout -s KILL "$LIMIT" "$prefix/bin/softdoca-perf" -p 0 --transport shm >"$work/server.log" 2>&1 &
server=$!
port=
for _ in $(seq 400); do
	port=$(sed -n 's/.*waiting for a client on port \([0-9]*\).*/\1/p' "$work/server.log")
	[ -n "$port" ] || ! kill -0 "$server" 2>/dev/null && break
	sleep 0.05
done
[ -n "$port" ] || { cat "$work/server.log"; fail "the installed softdoca-perf server did not start"; }
timeout -s KILL "$LIMIT" "$prefix/bin/softdoca-perf" -p "$port" --transport shm -n 200 --check \
	127.0.0.1 >"$work/perf.log" 2>&1 || { cat "$work/perf.log" "$work/server.log"; fail "softdoca-perf client"; }
wait "$server" || { cat "$work/server.log"; fail "softdoca-perf server"; }
server=
grep -q "Data check: [1-9][0-9]* verified, 0 wrong" "$work/perf.log" ||
	{ cat "$work/perf.log"; fail "softdoca-perf: data not verified"; }
test -x "$prefix/bin/dpacc" || fail "dpacc is not on $prefix/bin"

# --- removed, nothing left -----------------------------------------------------------
# shellcheck disable=SC2086
dpkg -r $PACKAGES >"$work/remove.log" 2>&1 || { cat "$work/remove.log"; fail "dpkg -r"; }
[ ! -e "$prefix" ] || { find "$prefix" | head; fail "dpkg -r left $prefix behind"; }
# shellcheck disable=SC2086
dpkg -P $PACKAGES >/dev/null 2>&1 || fail "dpkg -P"
for pkg in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "installed" && fail "$pkg still installed"
done
installed=0
echo "packages $PACKAGES: built, installed, a DOCA program built and run via pkg-config, removed: OK"
