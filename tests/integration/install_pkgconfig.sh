#!/bin/sh
# Installs softdoca into a temporary prefix and builds a DOCA program against
# it with pkg-config only, shared and static, then runs both.
# usage: install_pkgconfig.sh <build dir> <program.c>
set -eu
build=$1
program=$2
prefix=$(mktemp -d /tmp/sdoca-prefix.XXXXXX)
trap 'rm -rf "$prefix"' EXIT

cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(find "$prefix" -name libdoca_common.so -printf '%h\n' | head -n1)
export PKG_CONFIG_PATH="$libdir/pkgconfig"
for module in doca-common doca-rdma doca-dpa doca-argp doca; do
	pkg-config --exists "$module" || { echo "pkg-config module $module missing"; exit 1; }
done
for header in doca_error.h doca_types.h doca_compat.h doca_version.h doca_dev.h doca_mmap.h \
	doca_buf.h doca_buf_inventory.h doca_buf_array.h doca_buf_pool.h doca_ctx.h doca_pe.h \
	doca_log.h softdoca.h; do
	test -f "$prefix/include/softdoca/$header" || { echo "header $header not installed"; exit 1; }
done
for lib in doca_common doca_rdma doca_dpa doca_argp; do
	test -f "$libdir/lib$lib.so" && test -f "$libdir/lib$lib.a" ||
		{ echo "lib$lib.so/.a not installed"; exit 1; }
done

cc=${CC:-cc}
flags=${SDOCA_PROGRAM_FLAGS:-}
# shellcheck disable=SC2046,SC2086
$cc $flags -Wall -Wextra -Werror -DDOCA_ALLOW_EXPERIMENTAL_API "$program" -o "$prefix/prog" \
	$(pkg-config --cflags --libs doca-common)
LD_LIBRARY_PATH="$libdir" "$prefix/prog"

# shellcheck disable=SC2046,SC2086
$cc $flags -Wall -Wextra -Werror -DDOCA_ALLOW_EXPERIMENTAL_API "$program" -o "$prefix/prog_static" \
	$(pkg-config --cflags doca-common) "$libdir/libdoca_common.a" \
	$(pkg-config --static --libs-only-l doca-common | sed 's/-ldoca_common//')
"$prefix/prog_static"
echo "install + pkg-config: OK"
