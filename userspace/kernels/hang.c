// SPDX-License-Identifier: MIT
/* hang: never ends; lane 0 of the first warp keeps a counter moving. */
#include "vx_intrinsics.h"
#include "vortex_kernels.h"

void vx_kernel_main(const struct hang_args *arg)
{
	uint32_t first = (vx_global_id_x() == 0) & (arg->count != 0);

	for (;;) {
		VX_IF (first) {
			*arg->count += 1;
		} VX_ENDIF;
	}
}
