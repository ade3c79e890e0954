/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: a warp's load as the card's LSU coalesces it.
 *
 * The executors load a warp's lanes one after another on the host, and
 * the host may write VRAM in between (a BO mapping the guest writes, the
 * Debug Module, the CP): lanes that load the same word would then see
 * two values, and a branch on it that is uniform on the card would
 * diverge (and stop it with DIVERGENT_BRANCH).  On the card a warp's
 * load is one memory request per distinct line: upstream's coalescer
 * (hw/rtl/libs/VX_mem_coalescer.sv at fe8168b9, 126-157) seeds a request
 * with the lowest pending lane's line and lets every lane of that line
 * ride on it, and cuts each lane's word from that one response
 * (309-314); the LSU sends every warp's request through it
 * (hw/rtl/libs/VX_mem_scheduler.sv:224, from VX_lsu_slice.sv:313).  So
 * lanes that load one address always see one value.
 *
 * Every executor keeps that rule: lanes whose addresses are equal take
 * the value the lowest of them loaded.  vx_lanes_shape() sorts a warp's
 * addresses in one pass: all equal (a flag, an argument: load once and
 * broadcast), strictly rising or falling in lane order (a strided
 * access: no two can be equal, the plain lane loop), or anything else,
 * which vx_load_mixed() loads once per distinct address.  A warp's
 * consecutive words (the executors' block copies) are distinct already.
 */
#ifndef VX_COALESCE_H
#define VX_COALESCE_H

#include "vx_exec.h"

enum vx_lanes_shape {
    VX_LANES_UNIFORM,       /* every active lane has the same address */
    VX_LANES_DISTINCT,      /* strictly monotonic in lane order */
    VX_LANES_MIXED,         /* some may repeat: vx_load_mixed() */
};

/*
 * The shape of the active lanes' addresses x[rs1] (@base; the immediate
 * and any bias move them all alike, so equality is the same).  @full:
 * every lane of @m's @T is active, and the loop is a plain one the
 * compiler vectorises.
 */
static inline enum vx_lanes_shape
vx_lanes_shape(const uint32_t *base, const struct vx_tmask *m, uint32_t T,
               bool full)
{
    uint32_t diff = 0, up = 1, down = 1;

    if (full) {
        const uint32_t a0 = base[0];

        for (uint32_t l = 1; l < T; l++) {
            diff |= base[l] ^ a0;
            up &= base[l] > base[l - 1];
            down &= base[l] < base[l - 1];
        }
    } else {
        /*
         * Branch-free: the lowest lane compares with a0 - 1 and a0 + 1,
         * which it passes (but at the ends of the range, where MIXED is
         * only slower, never wrong).
         */
        const uint32_t a0 = base[first_lane(m)];
        uint32_t below = a0 - 1, above = a0 + 1;

        VX_FOR_EACH_LANE(m, l) {
            const uint32_t a = base[l];

            diff |= a ^ a0;
            up &= a > below;
            down &= a < above;
            below = above = a;
        }
    }
    if (!diff) {
        return VX_LANES_UNIFORM;
    }
    return up | down ? VX_LANES_DISTINCT : VX_LANES_MIXED;
}

/*
 * One lane's load of kind @f3 (the RISC-V load funct3: 0 lb, 1 lh, 2 lw,
 * 4 lbu, 5 lhu) at host address @p, aligned: one host access, as the
 * card's is one request (a plain ld32() may become two reads, or four
 * of a byte, and a host write between them would tear the word or
 * change it under the lanes that share it).
 */
static inline uint32_t vx_lane_load(const uint8_t *p, uint32_t f3)
{
    const void *q = p;
    uint32_t v;

    switch (f3) {
    case 0:
    case 4:
        v = __atomic_load_n((const uint8_t *)q, __ATOMIC_RELAXED);
        return f3 ? v : (uint32_t)(int8_t)v;
    case 1:
    case 5:
        v = __atomic_load_n((const uint16_t *)q, __ATOMIC_RELAXED);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap16((uint16_t)v);
#endif
        return f3 == 5 ? v : (uint32_t)(int16_t)v;
    default:
        v = __atomic_load_n((const uint32_t *)q, __ATOMIC_RELAXED);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap32(v);
#endif
        return v;
    }
}

/*
 * The active lanes of @m load kind @f3 at mem + (uint32_t)(base[l] +
 * @bias) into dst[l], each distinct address once, in lane order: a lane
 * whose address an earlier lane had takes that lane's value.  @dst may
 * be @base (rd = rs1).  Every address was checked.
 */
void vx_load_mixed(uint32_t *dst, const uint8_t *mem, const uint32_t *base,
                   uint32_t bias, const struct vx_tmask *m, uint32_t f3);

#endif /* VX_COALESCE_H */
