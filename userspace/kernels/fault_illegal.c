// SPDX-License-Identifier: MIT
/* fault_illegal: executes the all-zero word, expected ILLEGAL_INSTR. */
#include "vx_intrinsics.h"
#include "vortex_kernels.h"

void vx_kernel_main(const struct fault_args *arg)
{
	if (arg->out)
		*arg->out = 1;
	__asm__ volatile (".word 0x00000000" ::: "memory");
}
