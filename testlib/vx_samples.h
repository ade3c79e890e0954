/* SPDX-License-Identifier: MIT */
/*
 * The sample kernels of userspace/kernels/ as a test or a tool runs them:
 * the buffers each needs, inputs from a seed, the argument block
 * (userspace/include/vortex_kernels.h) and the result it must produce.
 * Written once for vortex-run (guest CLI), vortex_run_test (guest, through
 * libvortex) and test_kernels_sim (host, on the simulator core).
 *
 * The caller owns the memory: a libvortex buffer and its host copy, or
 * the simulator's VRAM itself.  The order of calls is
 *
 *	vx_sample_layout()	how many buffers, their sizes and use
 *	(allocate; fill in device addresses and host views)
 *	vx_sample_fill()	inputs, into the host views (then upload)
 *	vx_sample_expect()	the right result, from the inputs alone;
 *				before the run, which may overwrite them
 *	vx_sample_args()	the argument block
 *	(run; download)
 *	vx_sample_check()	the result against the expectation
 *
 * Plain C with no dependencies: linked into static guest programs and
 * host tests alike.
 */
#ifndef VX_SAMPLES_H
#define VX_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vortex_kernels.h"

#define VX_SAMPLE_MAX_BUFS	3

/*
 * The element counts the tests run each sample at: one, less than a warp,
 * whole warps, ragged tails, and more elements than the card has threads.
 */
#define VX_SAMPLE_SIZES		{ 1, 7, 64, 100, 1000, 4099, 65536 }

/* What the kernel does with a buffer. */
#define VX_SAMPLE_IN		1u	/* reads it: upload after filling */
#define VX_SAMPLE_OUT		2u	/* writes it */

/* One run of a sample kernel. */
struct vx_sample_job {
	/* chosen by the caller */
	uint32_t n;		/* elements */
	uint32_t grid;		/* blocks (x only) */
	uint32_t block;		/* threads per block (x only) */
	/* set by vx_sample_layout() */
	unsigned int nbufs;
	uint32_t words[VX_SAMPLE_MAX_BUFS];	/* size of each buffer, in words */
	uint32_t use[VX_SAMPLE_MAX_BUFS];	/* VX_SAMPLE_IN | VX_SAMPLE_OUT */
	unsigned int out;			/* the buffer vx_sample_check() reads */
};

/* How a result differs from the expectation. */
struct vx_sample_diff {
	uint32_t bad;		/* wrong elements */
	uint32_t first;		/* index of the first wrong one */
	double max_err;		/* largest absolute difference */
};

struct vx_sample;

/* The sample called @name (vecadd saxpy reduce diverge reloc), or NULL. */
const struct vx_sample *vx_sample_find(const char *name);

/* The sample a kernel file is, by its base name up to the first '.'. */
const struct vx_sample *vx_sample_find_path(const char *path);

const char *vx_sample_name(const struct vx_sample *s);

/* Its loop covers any n with any grid (no need for a thread per element). */
bool vx_sample_strided(const struct vx_sample *s);

/* Its result is float (for messages: vx_sample_word_str()). */
bool vx_sample_floats(const struct vx_sample *s);

/*
 * The launch the tools make for @n elements, where *@grid or *@block is 0:
 * a block fills one core (@core_threads = warps x threads), the grid has
 * enough blocks for @n, at most two per core (of @cores) for a strided
 * sample.  @s may be NULL (a kernel that is not a sample).
 */
void vx_sample_dims(const struct vx_sample *s, uint32_t n, uint32_t cores,
		    uint32_t core_threads, uint32_t *grid, uint32_t *block);

void vx_sample_layout(const struct vx_sample *s, struct vx_sample_job *j);

/* Inputs from @seed into the host views @buf[0 .. nbufs). */
void vx_sample_fill(const struct vx_sample *s, const struct vx_sample_job *j,
		    uint32_t *const buf[], uint32_t seed);

/* The right content of buffer j->out into @want (j->words[j->out] words). */
void vx_sample_expect(const struct vx_sample *s, const struct vx_sample_job *j,
		      uint32_t *const buf[], uint32_t *want);

/* The argument block for buffers at device addresses @addr; its size. */
size_t vx_sample_args(const struct vx_sample *s, const struct vx_sample_job *j,
		      const uint32_t addr[], void *args, size_t max);

/* Compares buffer j->out (@got) with @want; returns the wrong elements. */
uint32_t vx_sample_check(const struct vx_sample *s, const struct vx_sample_job *j,
			 const uint32_t *want, const uint32_t *got,
			 struct vx_sample_diff *d);

/* An element as the sample's type prints it, e.g. for a log line. */
const char *vx_sample_word_str(const struct vx_sample *s, uint32_t w,
			       char *buf, size_t len);

/* xorshift32: reproducible inputs, the same on every side. */
uint32_t vx_rnd(uint32_t *seed);

/* The functions diverge and reloc compute, element by element. */
int32_t diverge_ref(int32_t x);
int32_t reloc_ref(uint32_t i);

#endif /* VX_SAMPLES_H */
