/*
 * Stub device libraries for dpacc's -device-libs to find.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa_dev, libdoca_dpa_dev_comm, libdoca_dpa_dev_verbs: names for
 * dpacc's -device-libs to find. The device calls themselves are in
 * libdoca_dpa (docs/dpa.md 2.1), so each archive holds only this marker.
 */
#define SDOCA_STR_(x) #x
#define SDOCA_STR(x) SDOCA_STR_(x)

/* Hidden and unreferenced: nothing is ever linked from these archives. */
__attribute__((visibility("hidden"))) const char sdoca_dpa_device_lib_marker[] =
        "softdoca " SDOCA_STR(SDOCA_DPA_DEVICE_LIB) " (device calls are in libdoca_dpa)";
