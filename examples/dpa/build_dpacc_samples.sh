#!/bin/bash
# softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
#
# Builds one example's device code into a "DPA program" (a static archive
# the host executable links) with dpacc, as DOCA's DPA samples do at meson
# configure time: dpa-app-attributes2blob turns the attributes YAML into a
# blob, then dpacc compiles the device source for the DPA targets.
#
#   build_dpacc_samples.sh BUILD_ROOT DEVICE_SOURCES NAME PROGRAM MCPU LIBDIR ATTRIBUTES
#                          [DOCA_DIR [HOST_CC [EXTRA_FLAGS]]]
#
# DEVICE_SOURCES is one argument (sources separated by spaces). The archive
# is BUILD_ROOT/NAME/device/build_dpacc/PROGRAM.a. DOCA_DIR defaults to
# /opt/mellanox/doca; with softdoca installed elsewhere meson passes its
# prefix. HOST_CC (default gcc) and EXTRA_FLAGS (e.g. -fsanitize=thread,
# meson's c_args) build the device code like the host code: under softdoca
# kernels run on host threads, so sanitizers see them too.
set -euo pipefail

PROJECT_BUILD_DIR=$1
DEVICE_SOURCES=$2
SAMPLE_NAME=$3
PROGRAM_NAME=$4
MCPU=$5
DOCA_LIB_DIR=$6
ATTRIBUTES=$7
DOCA_DIR=${8:-/opt/mellanox/doca}
HOST_CC=${9:-gcc}
EXTRA_FLAGS=${10:-}

DPACC="$DOCA_DIR/tools/dpacc"
ATTRIBUTES2BLOB="$DOCA_DIR/tools/dpa-app-attributes2blob"
# The name the host passes to doca_dpa_set_app (extern struct doca_dpa_app *).
APP_NAME=dpa_sample_app

HOST_FLAGS="-Wno-deprecated-declarations -Werror -Wall -Wextra -DFLEXIO_ALLOW_EXPERIMENTAL_API $EXTRA_FLAGS"
DEVICE_FLAGS="-Wno-deprecated-declarations -Werror -Wall -Wextra -DFLEXIO_DEV_ALLOW_EXPERIMENTAL_API -O2 $EXTRA_FLAGS"

OUT_DIR="$PROJECT_BUILD_DIR/$SAMPLE_NAME/device/build_dpacc"
BLOB="$OUT_DIR/${SAMPLE_NAME}_attributes.blob"

rm -rf "$OUT_DIR"
mkdir -p "$OUT_DIR"

"$ATTRIBUTES2BLOB" "$ATTRIBUTES" "$BLOB"

# shellcheck disable=SC2086 # DEVICE_SOURCES is a list
"$DPACC" $DEVICE_SOURCES \
	-o "$OUT_DIR/$PROGRAM_NAME.a" \
	-mcpu="$MCPU" \
	-hostcc="$HOST_CC" \
	-hostcc-options="$HOST_FLAGS" \
	--devicecc-options="$DEVICE_FLAGS" \
	--app-name="$APP_NAME" \
	-device-libs="-L$DOCA_LIB_DIR -ldoca_dpa_dev -ldoca_dpa_dev_comm -ldoca_dpa_dev_verbs" \
	-flto \
	-I"$DOCA_DIR/include" \
	--dpa-proc-attr="$BLOB"
