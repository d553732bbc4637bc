/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libflexio's version macros (docs/dpa.md 1.9): a program defines
 * FLEXIO_VER_USED with FLEXIO_VER(major, minor, sub-minor) before it
 * includes <libflexio/flexio.h>.
 */
#ifndef SOFTDOCA_LIBFLEXIO_FLEXIO_VER_H_
#define SOFTDOCA_LIBFLEXIO_FLEXIO_VER_H_

#define FLEXIO_VER_MAJOR_OFFS 24
#define FLEXIO_VER_MINOR_OFFS 16

/* Unsigned, so a major of 128 or more (FLEXIO_VER_LATEST's 0xFF) does not
 * overflow an int. */
#define FLEXIO_VER(major, minor, sub_minor)                 \
	(((unsigned int)(major) << FLEXIO_VER_MAJOR_OFFS) | \
	 ((unsigned int)(minor) << FLEXIO_VER_MINOR_OFFS) | (unsigned int)(sub_minor))

#define FLEXIO_VER_LATEST FLEXIO_VER(0xFF, 0xFF, 0xFFFF)

#endif /* SOFTDOCA_LIBFLEXIO_FLEXIO_VER_H_ */
