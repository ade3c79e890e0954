// SPDX-License-Identifier: MIT
/* fault_misaligned: a word load at an odd address, expected MISALIGNED_LOAD. */
#include "vx_intrinsics.h"
#include "vortex_kernels.h"

void vx_kernel_main(const struct fault_args *arg)
{
	volatile uint32_t *odd = (volatile uint32_t *)((uintptr_t)arg + 1);
	uint32_t v = *odd;

	if (arg->out)
		*arg->out = v;
}
