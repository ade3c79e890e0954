// SPDX-License-Identifier: MIT
/* fault_assert: lanes with global id >= n fail a device assert (ASSERT). */
#include "vx_intrinsics.h"
#include "vx_assert.h"
#include "vortex_kernels.h"

void vx_kernel_main(const struct fault_args *arg)
{
	uint32_t i = vx_global_id_x();

	vx_assert(i < arg->n);
	if (arg->out)
		*arg->out = 1;
}
