#!/bin/sh
# dpacc_cli.sh DPACC CC DEVLIBDIR: dpacc's command line. Each spelling of
# the options DOCA's scripts use builds; an unknown option, a bad -x or
# -mcpu, a missing output or device library are refused with a clear
# message; kernels with a wrong return type or a duplicate name are errors
# naming the kernel; --keep-dir keeps the generated files; the depfile
# names the sources.
set -u
dpacc=$1
cc=$2
libdir=$3
src=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# expect RC PATTERN -- ARGS: dpacc exits with RC and stderr matches PATTERN.
expect() {
	want_rc=$1
	pattern=$2
	shift 3
	timeout 60 "$dpacc" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	if [ $rc -ne "$want_rc" ]; then
		fail "dpacc $*: exit $rc, expected $want_rc"
		cat "$work/err" >&2
	elif [ -n "$pattern" ] && ! grep -q -E -e "$pattern" "$work/err"; then
		fail "dpacc $*: stderr lacks '$pattern'"
		cat "$work/err" >&2
	fi
}

cat >"$work/k.c" <<'K'
#include <doca_dpa_dev.h>
__dpa_rpc__ uint64_t k_one(int a) { return (uint64_t)a + 1; }
K
cat >"$work/bad_ret.c" <<'K'
#include <doca_dpa_dev.h>
__dpa_rpc__ int bad_ret(int a) { return a; }
K
cat >"$work/bad_global.c" <<'K'
#include <doca_dpa_dev.h>
__dpa_global__ uint64_t bad_global(void) { return 0; }
K
cat >"$work/dup.c" <<'K'
#include <doca_dpa_dev.h>
__dpa_rpc__ uint64_t k_one(int a) { return (uint64_t)a; }
K
mkdir -p "$work/inc"
echo '#define MY_T uint64_t' >"$work/inc/my.h"
cat >"$work/m.c" <<'K'
#include <doca_dpa_dev.h>
__dpa_rpc__ MY_T k_my(MY_T v) { return v; }
K
echo 'Feature_list:' >"$work/attrs.yaml"
blob=$work/attrs.blob
"$(dirname "$dpacc")/dpa-app-attributes2blob" "$work/attrs.yaml" "$blob" || fail "attributes2blob"
echo 'something: 1' >"$work/bad.yaml"
"$(dirname "$dpacc")/dpa-app-attributes2blob" "$work/bad.yaml" "$work/bad.blob" 2>/dev/null &&
	fail "attributes2blob accepted a file without Feature_list"

libs="-L$libdir -ldoca_dpa_dev -ldoca_dpa_dev_comm"
ok_common="-hostcc=$cc"

# Spellings: -opt=V, -opt V, --opt=V, --opt V; -x c and --x=c.
expect 0 "" -- "$work/k.c" -o "$work/a1.a" --app-name=app1 -device-libs="$libs" -x c \
	-mcpu=nv-dpa-bf3 --dpa-proc-attr="$blob" -disable-asm-checks -g -O2 $ok_common
expect 0 "" -- "$work/k.c" --output-file "$work/a2.a" -app-name app2 --device-libs "$libs" --x=c \
	--mcpu nv-dpa-cx7 -dpa-proc-attr "$blob" -hostcc "$cc"
expect 0 "dropped" -- "$work/k.c" --output-file="$work/a3.a" --app-name app3 -flto \
	--devicecc-options="-mcmodel=medany,-ffreestanding -march=rv64imac" --keep-dir "$work/keep"
# Preprocessor options inside -hostcc-options, values attached or not,
# reach the prototype pass too.
expect 0 "" -- "$work/m.c" -o "$work/a4.a" --app-name=app4 \
	-hostcc-options="-I $work/inc -include my.h -DUNUSED=1 -Wall -Werror"
for a in a1 a2 a3 a4; do
	[ -s "$work/$a.a" ] || fail "$a.a not built"
done
nm "$work/a1.a" | grep -q ' [TtDdRr] app1$' || fail "a1.a does not define app1"
nm "$work/a1.a" | grep -q ' T k_one$' || fail "a1.a: k_one is not a global function"
grep -q "k.c" "$work/a1.a.d" || fail "the depfile does not name k.c"
ls "$work/keep"/*.c >/dev/null 2>&1 || fail "--keep-dir kept no generated source"

# Refusals: exit 2, a clear message.
expect 2 "unknown option '--frobnicate'" -- "$work/k.c" -o "$work/x.a" --app-name=x --frobnicate
expect 2 "unknown option '-Wl,-z'" -- "$work/k.c" -o "$work/x.a" --app-name=x -Wl,-z
expect 2 "only C" -- "$work/k.c" -o "$work/x.a" --app-name=x -x c++
expect 2 "not a DPA" -- "$work/k.c" -o "$work/x.a" --app-name=x -mcpu=rv64
expect 2 "no output" -- "$work/k.c" --app-name=x
expect 2 "needs a value" -- "$work/k.c" --app-name=x -o
expect 2 "does not exist" -- "$work/k.c" -o "$work/x.a" --app-name=x --dpa-proc-attr=/nonexistent
expect 2 "not a C identifier" -- "$work/k.c" -o "$work/x.a" --app-name=1x
[ -e "$work/x.a" ] && fail "a refused command left an archive"

# Errors: exit 1, naming what is wrong.
expect 1 "libdoca_dpa_dev_nope" -- "$work/k.c" -o "$work/x.a" --app-name=x \
	-device-libs="-L$libdir -ldoca_dpa_dev_nope"
expect 1 "bad_ret.c:2: __dpa_rpc__ 'bad_ret' returns 'int'" -- "$work/bad_ret.c" \
	-o "$work/x.a" --app-name=x
expect 1 "'bad_global' returns 'uint64_t', not void" -- "$work/bad_global.c" -o "$work/x.a" \
	--app-name=x
expect 1 "'k_one' is defined in both" -- "$work/k.c" "$work/dup.c" -o "$work/x.a" --app-name=x
expect 1 "no such file" -- "$work/none.c" -o "$work/x.a" --app-name=x

if [ $failures -ne 0 ]; then
	echo "$failures failures" >&2
	exit 1
fi
echo "dpacc_cli: all checks passed"
