/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: a warp's load of repeating addresses, each
 * distinct address loaded once (vx_coalesce.h says why).
 */
#include "vx_coalesce.h"

/*
 * Open addressing over the lanes' addresses: at most 128 lanes in 256
 * slots, so a probe ends within a few.  slot[] holds lane + 1 (0: free)
 * and is all that is cleared per call; key[] the address, saved before
 * that lane's rd is written (it may be rs1).
 */
#define MIXED_SLOTS     256

void vx_load_mixed(uint32_t *dst, const uint8_t *mem, const uint32_t *base,
                   uint32_t bias, const struct vx_tmask *m, uint32_t f3)
{
    uint8_t slot[MIXED_SLOTS];
    uint32_t key[MIXED_SLOTS];

    memset(slot, 0, sizeof(slot));
    VX_FOR_EACH_LANE(m, l) {
        uint32_t a = base[l], h = (a * 0x9e3779b1u) >> 24;

        while (slot[h] && key[h] != a) {
            h = (h + 1) % MIXED_SLOTS;
        }
        if (slot[h]) {
            dst[l] = dst[slot[h] - 1];
            continue;
        }
        slot[h] = (uint8_t)(l + 1);
        key[h] = a;
        dst[l] = vx_lane_load(mem + (uint32_t)(a + bias), f3);
    }
}
