/*
 * The soft NIC's accesses to registered memory for a remote peer.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The soft NIC's accesses to registered memory on behalf of a remote peer,
 * the way a NIC's DMA touches host memory: the target program orders them
 * against its own accesses only through what the peers tell each other
 * (completions, out-of-band messages), never through a lock it shares with
 * the NIC. ThreadSanitizer cannot see that order, so these accesses are
 * hidden from it; the program's own races stay visible.
 */
#ifndef SDOCA_NIC_DMA_H_
#define SDOCA_NIC_DMA_H_

#if defined(__SANITIZE_THREAD__)
#define SDOCA_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SDOCA_TSAN 1
#endif
#endif

#ifdef SDOCA_TSAN
/* ThreadSanitizer's runtime annotations (dynamic_annotations). */
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);

static inline void nic_dma_begin(void)
{
	AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
	AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
}

static inline void nic_dma_end(void)
{
	AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
}
#else
static inline void nic_dma_begin(void)
{
}

static inline void nic_dma_end(void)
{
}
#endif

#endif /* SDOCA_NIC_DMA_H_ */
