/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: per-core local memory.
 *
 * Upstream Vortex gives every core a local memory ("shared memory" in
 * CUDA's words) of 1 << LMEM_LOG_SIZE bytes at LMEM_BASE_ADDR, which
 * kernels find in CSR VX_CSR_LOCAL_MEM_BASE.  Whether an access goes
 * there is decided on the address a lane computes, before any
 * translation, as upstream's LSU does: docs/hardware.md ("Local
 * memory") cites the lines.  The executors ask vx_lmem_hit() only where
 * an ordinary access has already missed (an untranslated address outside
 * VRAM, a TLB miss), so global loads and stores pay nothing for it.
 *
 * Every core's bytes live in one calloc() block, so a core that never
 * touches its local memory costs no memory.  Local memory reads 0 at the
 * start of every LAUNCH, so nothing of one job is visible to the next:
 * a LAUNCH only moves an epoch on, and a core zeroes its own memory at
 * its first access of the new epoch.  The translated burst executors keep
 * local memory pages in their per-warp memo (vx_xlat) like translated
 * pages; those entries are dropped at the next LAUNCH with the rest of
 * the memo, so every first access of a launch comes through here.
 */
#include <string.h>

#include "vx_sim_internal.h"

uint8_t *vx_lmem_host(struct vx_sim *sim, uint32_t core, uint32_t addr)
{
    struct vx_core *k = &sim->cores[core];
    uint8_t *mem = sim->lmem + (size_t)core * VX_LMEM_SIZE;

    if (k->lmem_epoch != sim->lmem_epoch) {
        if (k->lmem_touched) {
            memset(mem, 0, VX_LMEM_SIZE);
        }
        k->lmem_epoch = sim->lmem_epoch;
    }
    k->lmem_touched = true;
    sim->lmem_used = true;
    return mem + (addr - VX_LMEM_BASE_ADDR);
}
