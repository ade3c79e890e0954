// SPDX-License-Identifier: MIT
/* vecadd: one element per thread, c = a + b. */
#include "vx_intrinsics.h"
#include "vortex_kernels.h"

void vx_kernel_main(const struct vecadd_args *arg)
{
	uint32_t i = vx_global_id_x();

	VX_IF (i < arg->n) {
		arg->c[i] = (int32_t)((uint32_t)arg->a[i] + (uint32_t)arg->b[i]);
	} VX_ENDIF;
}
