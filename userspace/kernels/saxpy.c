// SPDX-License-Identifier: MIT
/* saxpy: grid-stride loop with a uniform trip count, y = alpha * x + y. */
#include "vx_intrinsics.h"
#include "vortex_kernels.h"

void vx_kernel_main(const struct saxpy_args *arg)
{
	uint32_t total = vx_grid_dim_x() * vx_block_dim_x();
	uint32_t i = vx_global_id_x();
	uint32_t rounds = (arg->n + total - 1) / total;

	/* same number of rounds in every lane; the tail is masked */
	for (uint32_t k = 0; k < rounds; k++, i += total) {
		VX_IF (i < arg->n) {
			float p = arg->alpha * arg->x[i];

			arg->y[i] = p + arg->y[i];
		} VX_ENDIF;
	}
}
