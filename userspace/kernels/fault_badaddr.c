// SPDX-License-Identifier: MIT
/* fault_badaddr: a load below VRAM, expected LOAD_FAULT at FAULT_BADADDR_ADDR. */
#include "vx_intrinsics.h"
#include "vortex_kernels.h"

void vx_kernel_main(const struct fault_args *arg)
{
	volatile uint32_t *bad = (volatile uint32_t *)FAULT_BADADDR_ADDR;
	uint32_t v = *bad;

	if (arg->out)
		*arg->out = v;
}
