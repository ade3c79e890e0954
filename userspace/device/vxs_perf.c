// SPDX-License-Identifier: MIT
/*
 * vxs_perf_dump(): the core's performance counters, stored where a Vortex
 * host program reads them (vx_mpm_query(), vx_dump_perf()) when the
 * kernel ends, as upstream's kernel library does from its exit path
 * (kernel/src/vx_perf.c vx_perf_dump(), called by vx_start.S): at
 * IO_MPM_ADDR + core * 256, the 32 low halves of CSRs 0xb00..0xb1f, then
 * the 32 high halves 0xb80..0xb9f.  Runs on warp 0 lane 0 of each core.
 */
#include <stdint.h>

#include "vx_intrinsics.h"
#include "vortex_regs.h"

#define VXS_MPM1(m, i, base)	((m)[i] = vx_csr_read((base) + (i)))
#define VXS_MPM4(m, i, base)	(VXS_MPM1(m, i, base), VXS_MPM1(m, (i) + 1, base), \
				 VXS_MPM1(m, (i) + 2, base), VXS_MPM1(m, (i) + 3, base))
#define VXS_MPM16(m, i, base)	(VXS_MPM4(m, i, base), VXS_MPM4(m, (i) + 4, base), \
				 VXS_MPM4(m, (i) + 8, base), VXS_MPM4(m, (i) + 12, base))
#define VXS_MPM32(m, base)	(VXS_MPM16(m, 0, base), VXS_MPM16(m, 16, base))

void vxs_perf_dump(void)
{
	volatile uint32_t *m = (volatile uint32_t *)(uintptr_t)
		(VX_IO_MPM_ADDR + vx_core_id() * 64 * sizeof(uint32_t));

	VXS_MPM32(m, VX_CSR_MPM_BASE);
	VXS_MPM32(m + 32, VX_CSR_MPM_BASE_H);
}
