/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: private interface between vx_exec.c and vx_fpu.c.
 */
#ifndef VX_FPU_H
#define VX_FPU_H

#include "vx_sim_internal.h"

/* fflags bits */
#define VX_FFLAG_NX 0x01
#define VX_FFLAG_UF 0x02
#define VX_FFLAG_OF 0x04
#define VX_FFLAG_DZ 0x08
#define VX_FFLAG_NV 0x10

/*
 * Execute an OP-FP (0x53) or fused multiply-add (0x43..0x4f) instruction
 * for the lanes in @lanes of @w.  Returns 0, or VX_ERR_ILLEGAL_INSTR with
 * the offending lanes in @bad (nothing is written for any lane then).
 */
uint32_t vx_fpu_exec(struct vx_warp *w, uint32_t threads,
                     const struct vx_tmask *lanes, uint32_t insn,
                     struct vx_tmask *bad);

#endif /* VX_FPU_H */
