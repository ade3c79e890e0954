/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: what the two halves of the executor share.
 *
 * vx_exec.c is the reference interpreter: it decodes one instruction from
 * its raw word and executes it for a warp's lanes (DM injection too), and
 * on its own it is the VX_SIM_EXEC_REF executor.  vx_exec_fast.c is the
 * fast path of the other two: a decoded-instruction cache and bursts with
 * vector lane loops, which hand every instruction they do not handle to
 * the interpreter through vx_exec_one().  Instruction fields, byte order
 * and mask helpers are below, used by both.
 */
#ifndef VX_EXEC_H
#define VX_EXEC_H

#include <string.h>
#include "vx_sim_internal.h"
#include "vortex_rv32.h"

/*
 * The executors' short names for hw/vortex_rv32.h's field decoders
 * (the same shifts as before: the objects compile to the same code).
 */
#define RD(insn)    RV32_RD(insn)
#define RS1(insn)   RV32_RS1(insn)
#define RS2(insn)   RV32_RS2(insn)
#define F3(insn)    RV32_FUNCT3(insn)
#define F7(insn)    RV32_FUNCT7(insn)
#define imm_i(insn) rv32_imm_i(insn)
#define imm_s(insn) rv32_imm_s(insn)
#define imm_b(insn) rv32_imm_b(insn)
#define imm_j(insn) rv32_imm_j(insn)

static inline uint32_t first_lane(const struct vx_tmask *m)
{
    return (uint32_t)vx_tmask_first(m);
}

/* Highest lane of @m (never empty): the one a jump or branch follows. */
static inline uint32_t last_lane(const struct vx_tmask *m)
{
    return (uint32_t)vx_tmask_last(m);
}

/* Lanes at or above the warp size are always clear, so this is enough. */
static inline bool tmask_is_full(const struct vx_tmask *m, uint32_t threads)
{
    if (threads <= 32) {
        return m->w[0] == (threads == 32 ? ~0u : (1u << threads) - 1);
    }
    uint32_t hi = threads > 64 ? m->w[2] & m->w[3] : ~0u;

    return (m->w[0] & m->w[1] & hi) == ~0u;
}

static inline uint32_t ld16(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8;
}

static inline uint32_t ld32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline void st16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void st32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* ---- vx_exec.c ---- */
/*
 * Execute @insn (not custom-0) at w->pc for the warp's lanes: moves the
 * PC, or reports the fault with vx_sim_fault().
 */
enum vx_exec_result vx_exec_one(struct vx_sim *sim, struct vx_warp *w,
                                uint32_t insn);
/* w->pc cannot be fetched: FETCH_FAULT. */
enum vx_exec_result vx_exec_fetch_fault(struct vx_sim *sim, struct vx_warp *w);
/*
 * Translated launch (w->satp): host address of the 4 KiB page holding
 * w->pc's code, or NULL with the fault reported (FETCH_FAULT for a
 * misaligned PC, else the translation's cause).  Only fetches fill the
 * ITLB, so a caller may keep the page for as long as the PC stays in it
 * within one burst: the next lookup would find the same entry.
 */
const uint8_t *vx_exec_code_page(struct vx_sim *sim, struct vx_warp *w);
/*
 * The reference executor keeps the translated code page's address and
 * compares (pc & ~0xffc) with it, so that a misaligned PC never matches;
 * with no page, it compares with this, which has a bit the mask clears
 * and so matches no PC at all (1, its old value, matched PC 1: a
 * debugger's DPC of 1 read the code at a NULL page).
 */
#define VX_CODE_PAGE_NONE       4u

/*
 * The reference executor: up to @max instructions of @w, each decoded
 * from its raw word.  It is also what runs every warp while a core holds
 * an LR reservation (vx_sim.resv_live): its stores check reservations, the
 * burst executors' do not, so that ordinary stores cost nothing for them.
 * A burst executor whose instruction took a reservation hands it the rest
 * of the burst.
 */
enum vx_exec_result vx_exec_ref(struct vx_sim *sim, struct vx_warp *w,
                                uint64_t max, uint64_t *used);

/* ---- vx_exec_fast.c ---- */
/* vx_exec_burst() for VX_SIM_EXEC_BURST and VX_SIM_EXEC_AVX2. */
enum vx_exec_result vx_exec_fast(struct vx_sim *sim, struct vx_warp *w,
                                 uint64_t max, uint64_t *used);
/*
 * A memo miss of a burst's load or store at virtual address @va0: the
 * DTLB's page for @acc, or a local memory page, into memo slot @x with
 * @key; false if neither (the interpreter walks, faults, or takes the
 * console).
 */
bool vx_exec_xlat_fill(struct vx_sim *sim, struct vx_warp *w,
                       struct vx_xlat *x, uint32_t key, uint32_t va0,
                       enum vx_acc acc);

#endif /* VX_EXEC_H */
