/*
 * A check of a peer's UCX worker address before UCX sees it.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A check of a peer's UCX worker address before UCX sees it. UCX parses
 * the address it is given without a length and trusts every byte: a crafted
 * connection blob could make it read past the address, assert (abort) or
 * crash. softdoca configures UCX so that both peers pack the same format
 * (address version 1, not unified, no debug information) and checks the
 * peer's address against that format and against this worker's own address,
 * which shows the lengths each transport uses here.
 */
#ifndef SDOCA_TRANSPORT_UCX_ADDRESS_H_
#define SDOCA_TRANSPORT_UCX_ADDRESS_H_

#include <stddef.h>

#include <doca_error.h>

/*
 * DOCA_SUCCESS when `peer` (peer_len bytes) is an address UCX can be given
 * safely: it has the layout `ours` has, ends where its length says, and every
 * transport this worker also has carries addresses of the lengths and forms
 * that transport uses. Otherwise DOCA_ERROR_INVALID_VALUE and one log line
 * saying what was wrong. `ours` is this worker's own address; if it cannot
 * be read (a UCX whose format this code does not know), only the format
 * version byte is compared, and a warning says so once.
 */
doca_error_t xport_address_check(const void *ours, size_t ours_len, const void *peer,
                                 size_t peer_len);

#endif /* SDOCA_TRANSPORT_UCX_ADDRESS_H_ */
