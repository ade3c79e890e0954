// SPDX-License-Identifier: MIT
/*
 * fault_branch: a per-lane if as stock clang emits it, a plain branch
 * with no split/join around it: odd lanes jump over v = 2.  The lanes of
 * each warp disagree on the branch, so the card stops there with
 * DIVERGENT_BRANCH (docs/hardware.md, "Cores"): ERR_PC the branch,
 * ERR_ADDR its target, ERR_TMASK the warp's lanes, ERR_INFO the odd ones.
 * Bracketed by VX_IF, as upstream's LLVM pass would, it would run.
 */
#include <stdint.h>

#include "vx_intrinsics.h"
#include "vortex_kernels.h"

void vx_kernel_main(const struct fault_args *arg)
{
	uint32_t v = 1;

	/* asm goto: a branch the compiler cannot turn into a select */
	__asm__ goto ("bnez %0, %l[odd]" : : "r"(vx_thread_id() & 1) : : odd);
	v = 2;
odd:
	if (arg->out)
		*arg->out = v;
}
