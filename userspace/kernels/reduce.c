// SPDX-License-Identifier: MIT
/*
 * reduce: each thread sums a strided slice of in[] into its scratch slot,
 * then the block folds its slots in a tree, one barrier per level, and
 * thread 0 writes the block's total to partial[block].
 */
#include "vx_intrinsics.h"
#include "vortex_kernels.h"

void vx_kernel_main(const struct reduce_args *arg)
{
	uint32_t bt = vx_block_dim_x();
	uint32_t t = vx_thread_idx_x();
	uint32_t b = vx_block_idx_x();
	uint32_t total = vx_grid_dim_x() * bt;
	uint32_t rounds = (arg->n + total - 1) / total;
	volatile int32_t *slot = arg->scratch + b * bt;
	uint32_t i = b * bt + t;
	uint32_t sum = 0;
	uint32_t s;

	for (uint32_t k = 0; k < rounds; k++, i += total) {
		VX_IF (i < arg->n) {
			sum += (uint32_t)arg->in[i];
		} VX_ENDIF;
	}
	slot[t] = (int32_t)sum;

	/* s: largest power of two below bt, so any block size works */
	for (s = 1; s * 2 < bt; s *= 2)
		;
	for (; s > 0; s /= 2) {
		vx_barrier_block(0);	/* every warp, never under a split */
		VX_IF ((t < s) & (t + s < bt)) {
			slot[t] = (int32_t)((uint32_t)slot[t] + (uint32_t)slot[t + s]);
		} VX_ENDIF;
	}
	VX_IF (t == 0) {
		arg->partial[b] = slot[0];
	} VX_ENDIF;
}
