/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What DOCA's build-time configuration header says about the machine: a
 * softdoca program always runs on a host CPU, never on a BlueField (build
 * files test DOCA_ARCH_DPU to tell the two apart).
 */
#ifndef DOCA_BUILD_CONFIG_H_
#define DOCA_BUILD_CONFIG_H_

#define DOCA_ARCH_HOST 1
#if defined(__x86_64__) || defined(__i386__)
#define DOCA_ARCH_X86 1
#elif defined(__aarch64__)
#define DOCA_ARCH_ARM 1
#endif

#endif /* DOCA_BUILD_CONFIG_H_ */
