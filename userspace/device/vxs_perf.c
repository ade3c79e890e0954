// SPDX-License-Identifier: MIT
/*
 * vxs_perf_dump(): the core's performance counters, stored where a Vortex
 * host program reads them (vx_mpm_query(), vx_dump_perf()) when the
 * kernel ends, in upstream's layout (vortexgpgpu/vortex kernel/src/
 * vx_perf.c at fe8168b9, lines 28-37, called by vx_start.S's _Exit,
 * lines 64-69 there): CSR
 * 0xb00 + i as a 64-bit pair, low half then high half, at IO_MPM_ADDR +
 * core * 256 + 8 * i.  i = 1 is skipped: core 0's slot there is
 * IO_MPM_EXITCODE, where the start code leaves main's return value.
 * Upstream's runtime reads the same pairs (runtime/simx/vortex.cpp at
 * fe8168b9, mpm_query(), lines 381-393).  Runs on warp 0 lane 0 of each
 * core.
 */
#include <stdint.h>

#include "vx_intrinsics.h"
#include "vx_spawn_abi.h"
#include "vortex_regs.h"

_Static_assert(VXS_IO_MPM_EXITCODE == VX_IO_MPM_ADDR + 8, "IO_MPM_EXITCODE is counter 1's slot");

#define VXS_MPM1(m, i)		((m)[2 * (i)] = vx_csr_read(VX_CSR_MPM_BASE + (i)), \
				 (m)[2 * (i) + 1] = vx_csr_read(VX_CSR_MPM_BASE_H + (i)))
#define VXS_MPM2(m, i)		(VXS_MPM1(m, i), VXS_MPM1(m, (i) + 1))
#define VXS_MPM4(m, i)		(VXS_MPM2(m, i), VXS_MPM2(m, (i) + 2))
#define VXS_MPM8(m, i)		(VXS_MPM4(m, i), VXS_MPM4(m, (i) + 4))
#define VXS_MPM16(m, i)		(VXS_MPM8(m, i), VXS_MPM8(m, (i) + 8))

void vxs_perf_dump(void)
{
	volatile uint32_t *m = (volatile uint32_t *)(uintptr_t)
		(VX_IO_MPM_ADDR + vx_core_id() * 32 * sizeof(uint64_t));

	VXS_MPM1(m, 0);
	VXS_MPM2(m, 2);
	VXS_MPM4(m, 4);
	VXS_MPM8(m, 8);
	VXS_MPM16(m, 16);
}
