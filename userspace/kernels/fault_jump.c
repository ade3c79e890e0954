// SPDX-License-Identifier: MIT
/*
 * fault_jump: calls through a pointer 2 bytes into a function.  The call
 * (a jalr) faults on itself with MISALIGNED_FETCH: ERR_PC is the jalr,
 * ERR_ADDR the misaligned target, and ra is not written.
 */
#include <stdint.h>

#include "vx_intrinsics.h"
#include "vortex_kernels.h"

static void __attribute__((noinline)) fault_jump_target(void)
{
	__asm__ volatile ("" ::: "memory");
}

void vx_kernel_main(const struct fault_args *arg)
{
	uintptr_t target = (uintptr_t)fault_jump_target;

	if (arg->out)
		*arg->out = 1;
	/* the compiler must not see through the pointer */
	__asm__ volatile ("" : "+r"(target));
	((void (*)(void))(target + 2))();
}
