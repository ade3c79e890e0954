// SPDX-License-Identifier: MIT
/*
 * A loop of known length on the one thread each core starts with, for
 * the performance counters: the start code's vxs_perf_dump() stores them
 * in upstream's layout when main returns, and the host compares what
 * vx_mpm_query() reads with the loop's length and with the counters this
 * thread read itself (vortex_kernels.h, struct vxs_count_args).
 */
#include "vortex_kernels.h"
#include "vx_intrinsics.h"

int main(void *p)
{
	const struct vxs_count_args *arg = p;
	uint32_t core = vx_core_id(), n = arg->n + core * arg->per_core;

	/* exactly 2 instructions an iteration; n >= 1 */
	__asm__ volatile ("1:\taddi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
	arg->seen[2 * core] = vx_csr_read(VX_CSR_MINSTRET);
	arg->seen[2 * core + 1] = vx_csr_read(VX_CSR_MCYCLE);
	return arg->exit_code;
}
