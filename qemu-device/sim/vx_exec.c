/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: the reference interpreter, RV32IMA + Zicsr + Zicond
 * decode and execute, and the executors' entry points.
 *
 * An instruction is decoded once per warp and then applied to every active
 * lane in a tight loop over the register-major register file
 * (x[reg * threads + lane]), which is what makes SIMT simulation cheap: the
 * per-lane work of an ALU instruction is one load, one operation and one
 * store, with no per-lane dispatch.  When the whole warp is active the lane
 * loop is a plain counted loop the compiler can vectorise.
 *
 * Nothing is committed for any lane unless every lane succeeds: loads and
 * stores check (and, in a translated launch, translate) all lanes'
 * addresses before touching a register or VRAM,
 * the FPU checks every lane's dynamic rounding mode before computing, and
 * every other way to fault is the same for all lanes.
 *
 * exec_insn() decodes the raw word and handles everything (DM injection,
 * CSRs, FP, faults).  Run one instruction after another, it is the
 * reference executor (vx_exec_ref()); the fast path in vx_exec_fast.c runs
 * bursts from a decoded-instruction cache and hands it anything unusual.
 * vx_exec_burst() picks between them as the card's executor says.
 */
#include "vx_coalesce.h"
#include "vx_fpu.h"
#include "vx_jit.h"

struct vx_exec_ctx {
    struct vx_sim *sim;
    struct vx_warp *w;
    const struct vx_tmask *lanes;
    uint32_t T;             /* threads per warp */
    bool full;              /* lanes is every lane of the warp */
    bool inject;            /* DM injection: one lane, no control flow */
    uint32_t pc;
    uint32_t next_pc;
    uint8_t *mem;           /* mem_check()'s MEM_LOCAL: where offsets count from */
    struct vx_fault fault;
};

/* Run @body for each lane @l of ctx->lanes, fast when all are active. */
#define LANES(ctx, l, body)                                     \
    do {                                                        \
        if ((ctx)->full) {                                      \
            const uint32_t T_ = (ctx)->T;                       \
            for (uint32_t l = 0; l < T_; l++) {                 \
                body                                            \
            }                                                   \
        } else {                                                \
            VX_FOR_EACH_LANE((ctx)->lanes, l) {                 \
                body                                            \
            }                                                   \
        }                                                       \
    } while (0)

static inline uint32_t *xreg(struct vx_exec_ctx *c, uint32_t r)
{
    return &c->w->x[r * c->T];
}

static enum vx_exec_result exec_fault(struct vx_exec_ctx *c, uint32_t cause,
                                      uint32_t addr,
                                      const struct vx_tmask *lanes)
{
    if (cause != VX_ERR_ASSERT) {
        memset(c->fault.info, 0, sizeof(c->fault.info));
    }
    c->fault.cause = cause;
    c->fault.pc = c->pc;
    c->fault.addr = addr;
    c->fault.lanes = *lanes;
    return VX_EXEC_FAULT;
}

static enum vx_exec_result illegal(struct vx_exec_ctx *c, uint32_t insn)
{
    return exec_fault(c, VX_ERR_ILLEGAL_INSTR, insn, c->lanes);
}

/* ------------------------------------------------------------ memory */

enum mem_res {
    MEM_OK,         /* every lane's VRAM offset is x[rs1] + bias */
    MEM_FAULT,      /* c->fault filled */
    MEM_SPLIT,      /* fine, but lanes go to different pages or places */
    MEM_LOCAL,      /* local memory: lane l's bytes at c->mem + x[rs1] + bias */
    MEM_COUT,       /* byte stores to IO_COUT: the console takes them */
};

/*
 * Every lane's access is in the core's local memory (aligned, so it ends
 * there too): then c->mem and *@bias say where, as for MEM_LOCAL.  One
 * OR over the lanes, as mem_check() does for VRAM.
 */
static bool mem_all_local(struct vx_exec_ctx *c, const uint32_t *base,
                          uint32_t imm, uint32_t size, uint32_t *bias)
{
    uint32_t k = imm - VX_LMEM_BASE_ADDR, bits = 0;

    LANES(c, l, { bits |= base[l] + k; });
    if (bits & (~(VX_LMEM_SIZE - 1) | (size - 1))) {
        return false;
    }
    c->mem = vx_lmem_host(c->sim, c->w->core, VX_LMEM_BASE_ADDR);
    *bias = k;
    return true;
}

/* Where one lane's access goes, for mem_fault(). */
enum mem_where { WHERE_VRAM, WHERE_LOCAL, WHERE_COUT };

/*
 * Slow path of mem_check(): every access that is not a plain VRAM (or,
 * translated, TLB-hit) access of one page comes here, so what upstream
 * decides by address before translation is decided here: local memory
 * (vx_lmem_hit()) and, for byte stores, the console (vx_cons_hit()).
 * Misalignment wins over everything, and ERR_ADDR is the lowest faulting
 * lane's (virtual) address.  Then every lane is placed, in lane order:
 * local memory, the console (a wider store there is a STORE_FAULT), or
 * memory, which untranslated must be VRAM and translated is what the
 * page tables say; the fault is the lowest failing lane's cause, with
 * the lanes that fail the same way.  Lanes that all go one way are done
 * by the caller in one go; a mix runs lane by lane (MEM_SPLIT).
 */
static enum mem_res mem_fault(struct vx_exec_ctx *c, uint32_t rs1,
                              uint32_t imm, uint32_t size, bool store,
                              uint32_t *bias)
{
    const uint32_t *base = xreg(c, rs1);
    struct vx_tmask mis = { { 0 } }, acc = { { 0 } };
    uint32_t satp = c->w->satp, cause = 0, page = 0, poff0 = 0;
    bool one_page = true, first = true;
    unsigned int seen = 0;      /* bit per enum mem_where */

    VX_FOR_EACH_LANE(c->lanes, l) {
        if ((base[l] + imm) & (size - 1)) {
            vx_tmask_set(&mis, l);
        }
    }
    if (!vx_tmask_empty(&mis)) {
        exec_fault(c, store ? VX_ERR_MISALIGNED_STORE
                            : VX_ERR_MISALIGNED_LOAD,
                   base[first_lane(&mis)] + imm, &mis);
        return MEM_FAULT;
    }
    if (mem_all_local(c, base, imm, size, bias)) {
        return MEM_LOCAL;
    }
    VX_FOR_EACH_LANE(c->lanes, l) {
        uint32_t addr = base[l] + imm, poff = 0, why = 0;
        enum mem_where where = WHERE_VRAM;

        if (vx_lmem_hit(addr)) {
            where = WHERE_LOCAL;
        } else if (store && vx_cons_hit(addr)) {
            /* upstream's simx takes bytes only (docs/hardware.md) */
            where = WHERE_COUT;
            why = size == 1 ? 0 : VX_ERR_STORE_FAULT;
        } else if (!satp) {
            why = vx_vram_range_ok(c->sim, addr, size) ? 0 :
                  store ? VX_ERR_STORE_FAULT : VX_ERR_LOAD_FAULT;
        } else {
            why = vx_mmu_translate(c->sim, satp, addr,
                                   store ? VX_ACC_STORE : VX_ACC_LOAD, &poff);
            if (first) {
                page = addr >> VX_PAGE_SHIFT;
                poff0 = poff;
            }
            one_page &= addr >> VX_PAGE_SHIFT == page;
            first = false;
        }
        seen |= 1u << where;
        cause = cause ? cause : why;
        if (why && why == cause) {
            vx_tmask_set(&acc, l);
        }
    }
    if (!vx_tmask_empty(&acc)) {
        exec_fault(c, cause, base[first_lane(&acc)] + imm, &acc);
        return MEM_FAULT;
    }
    if (seen == 1u << WHERE_COUT) {
        return MEM_COUT;
    }
    if (seen != 1u << WHERE_VRAM) {
        return MEM_SPLIT;
    }
    if (!satp) {
        /* only a 2 GiB VRAM's upper half: see vx_sim.vram_flat */
        *bias = vx_vram_off(imm);
        return MEM_OK;
    }
    if (one_page) {
        /* the IO_COUT page, which the DTLB does not keep */
        *bias = imm - (page << VX_PAGE_SHIFT) + poff0;
        return MEM_OK;
    }
    return MEM_SPLIT;
}

/*
 * Check every lane's access of @size bytes at x[rs1] + imm: one OR of the
 * lanes' offsets checks alignment and bounds together.  Untranslated,
 * the offsets are VRAM offsets, checked against vx_vram_fault_bits() of
 * vx_sim.vram_flat.  Translated, they are offsets in the page of the
 * lowest lane's address, which must stay below 4 KiB: then one
 * translation serves every lane.  Anything else (a fault, local memory,
 * the console) goes to mem_fault(), and a TLB miss asks vx_mmu_untlb()
 * first: ordinary accesses pay nothing for those.  *@contig tells that a
 * full warp accesses consecutive elements, which the callers turn into
 * one block copy, like a GPU's coalesced access.
 * On MEM_OK, lane l's VRAM offset is x[rs1][l] + *@bias.
 */
static enum mem_res mem_check(struct vx_exec_ctx *c, uint32_t rs1,
                              uint32_t imm, uint32_t size, bool store,
                              bool *contig, uint32_t *bias)
{
    const uint32_t *base = xreg(c, rs1);
    uint32_t satp = c->w->satp, va0 = 0, k, bad, poff;
    uint32_t bits = 0, stray = 1;

    if (satp) {
        va0 = base[first_lane(c->lanes)] + imm;
        k = imm - (va0 & ~0xfffu);
        bad = ~0xfffu | (size - 1);
    } else {
        k = vx_vram_off(imm);
        bad = vx_vram_fault_bits(c->sim->vram_flat, size);
    }
    if (c->full && (c->T & 7) == 0) {
        /* chunks of 8 with a fixed trip count vectorise */
        uint32_t a0 = base[0], shift = size >> 1;     /* log2: 1, 2, 4 */

        stray = 0;
        for (uint32_t l0 = 0; l0 < c->T; l0 += 8) {
            for (uint32_t k8 = 0; k8 < 8; k8++) {
                uint32_t a = base[l0 + k8];

                bits |= a + k;
                stray |= a ^ (a0 + ((l0 + k8) << shift));
            }
        }
    } else {
        LANES(c, l, { bits |= base[l] + k; });
    }
    *contig = stray == 0;
    if (!(bits & bad)) {
        if (!satp) {
            *bias = k;
            return MEM_OK;
        }
        enum vx_acc acc = store ? VX_ACC_STORE : VX_ACC_LOAD;
        /* a DTLB hit inline, as vx_mmu_translate() would find it */
        const struct vx_tlb_entry *e = vx_tlb_probe(c->sim,
                                                    vx_mmu_asp(satp), va0, acc);

        if (e) {
            *bias = k + e->poff;
            return MEM_OK;
        }
        if (!vx_mmu_untlb(va0) &&
            !vx_mmu_translate(c->sim, satp, va0, acc, &poff)) {
            *bias = k + poff;
            return MEM_OK;
        }
    }
    return mem_fault(c, rs1, imm, size, store, bias);
}

static enum vx_exec_result exec_load(struct vx_exec_ctx *c, uint32_t insn,
                                     bool fp);
static enum vx_exec_result exec_store(struct vx_exec_ctx *c, uint32_t insn,
                                      bool fp);
static enum vx_exec_result exec_amo(struct vx_exec_ctx *c, uint32_t insn);

enum mem_kind { MEM_KIND_LOAD, MEM_KIND_STORE, MEM_KIND_AMO };

/*
 * mem_split()'s load: if a lane of @done had lane @l's address @addr[l],
 * its value into *@out (from @dst) and true.
 */
static bool split_same(const uint32_t *addr, const struct vx_tmask *done,
                       uint32_t l, uint32_t *out, const uint32_t *dst)
{
    VX_FOR_EACH_LANE(done, j) {
        if (addr[j] == addr[l]) {
            *out = dst[j];
            return true;
        }
    }
    return false;
}

/*
 * An access whose lanes go to different places (pages, or VRAM, local
 * memory and the console): one lane at a time, in lane order (so the
 * highest lane still wins on overlapping stores).  Every lane was
 * checked already, so none faults.
 */
static enum vx_exec_result mem_split(struct vx_exec_ctx *c, uint32_t insn,
                                     enum mem_kind kind)
{
    const struct vx_tmask *lanes = c->lanes;
    bool full = c->full, fp = (insn & 0x7f) == 0x07 || (insn & 0x7f) == 0x27;
    enum vx_exec_result r = VX_EXEC_OK;
    uint32_t addr[VX_TMASK_WORDS * 32], *dst = NULL;
    struct vx_tmask done = { { 0 } };

    if (kind == MEM_KIND_LOAD && (fp || RD(insn))) {
        /* a lane of an address loaded already takes its value (vx_coalesce.h) */
        dst = fp ? &c->w->f[RD(insn) * c->T] : xreg(c, RD(insn));
        memcpy(addr, xreg(c, RS1(insn)), 4 * c->T);
    }
    c->full = false;
    VX_FOR_EACH_LANE(lanes, l) {
        struct vx_tmask one = { { 0 } };

        if (dst && split_same(addr, &done, l, &dst[l], dst)) {
            continue;
        }
        vx_tmask_set(&done, l);
        vx_tmask_set(&one, l);
        c->lanes = &one;
        switch (kind) {
        case MEM_KIND_LOAD: r = exec_load(c, insn, fp); break;
        case MEM_KIND_STORE: r = exec_store(c, insn, fp); break;
        default: r = exec_amo(c, insn); break;
        }
        if (r != VX_EXEC_OK) {
            break;
        }
    }
    c->lanes = lanes;
    c->full = full;
    return r;
}

/*
 * LR/SC reservations, one per core as upstream's (sim/common/mem.cpp: the
 * core's MemoryUnit holds one; amo_reserve() sets it, any write through
 * that unit clears it).  A reservation is the VRAM offset of an aligned
 * word.  It is lost by any store, AMO or successful SC of its own core
 * (upstream's rule) and, so that LR/SC is atomic across cores too, by a
 * store, AMO or SC of any other core that touches its word.
 */
static void resv_drop(struct vx_sim *sim, struct vx_core *core)
{
    if (core->resv_valid) {
        core->resv_valid = false;
        sim->resv_live--;
    }
}

/* Core @who writes @size bytes at VRAM offset @off. */
static void resv_break(struct vx_sim *sim, uint32_t who, uint32_t off,
                       uint32_t size)
{
    for (uint32_t i = 0; i < sim->ncores && sim->resv_live; i++) {
        struct vx_core *core = &sim->cores[i];

        if (i == who || (core->resv_valid && off < core->resv_off + 4 &&
                         core->resv_off < off + size)) {
            resv_drop(sim, core);
        }
    }
}

static void resv_take(struct vx_sim *sim, struct vx_core *core, uint32_t off)
{
    if (!core->resv_valid) {
        core->resv_valid = true;
        sim->resv_live++;
    }
    core->resv_off = off;
}

/* VRAM offset of lane @l's access, once mem_check() passed. */
#define OFF(l)  (base[l] + bias)

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_LE 1
#else
#define HOST_LE 0
#endif

/* Loads (opcode 0x03) and flw (0x07, @fp). */
static enum vx_exec_result exec_load(struct vx_exec_ctx *c, uint32_t insn,
                                     bool fp)
{
    uint32_t f3 = F3(insn), rd = RD(insn), imm = imm_i(insn);
    const uint32_t *base = xreg(c, RS1(insn));
    const uint8_t *vram = c->sim->vram;
    uint32_t *dst, bias;
    bool contig;

    if (fp ? f3 != 2 : (f3 == 3 || f3 > 5)) {
        return illegal(c, insn);
    }
    switch (mem_check(c, RS1(insn), imm, 1u << (f3 & 3), false, &contig,
                      &bias)) {
    case MEM_OK:
        break;
    case MEM_FAULT:
        return VX_EXEC_FAULT;
    case MEM_SPLIT:
        return mem_split(c, insn, MEM_KIND_LOAD);
    case MEM_LOCAL:
        vram = c->mem;
        break;
    case MEM_COUT:      /* stores only */
        return illegal(c, insn);
    }
    if (!fp && rd == 0) {
        return VX_EXEC_OK;
    }
    dst = fp ? &c->w->f[rd * c->T] : xreg(c, rd);
    if (f3 == 2 && contig && HOST_LE) {
        memmove(dst, &vram[OFF(0)], 4 * c->T);
        return VX_EXEC_OK;
    }
    /* lanes of one address see one value (vx_coalesce.h) */
    switch (vx_lanes_shape(base, c->lanes, c->T, c->full)) {
    case VX_LANES_UNIFORM: {
        uint32_t v = vx_lane_load(&vram[OFF(first_lane(c->lanes))], f3);

        LANES(c, l, { dst[l] = v; });
        return VX_EXEC_OK;
    }
    case VX_LANES_MIXED:
        vx_load_mixed(dst, vram, base, bias, c->lanes, f3);
        return VX_EXEC_OK;
    case VX_LANES_DISTINCT:
        break;
    }
    /* each lane reads its base before writing its rd (rd may be rs1) */
    switch (f3) {
    case 0:
        LANES(c, l, { dst[l] = (uint32_t)(int8_t)vram[OFF(l)]; });
        break;
    case 1:
        LANES(c, l, { dst[l] = (uint32_t)(int16_t)ld16(&vram[OFF(l)]); });
        break;
    case 2:
        LANES(c, l, { dst[l] = ld32(&vram[OFF(l)]); });
        break;
    case 4:
        LANES(c, l, { dst[l] = vram[OFF(l)]; });
        break;
    default:
        LANES(c, l, { dst[l] = ld16(&vram[OFF(l)]); });
        break;
    }
    return VX_EXEC_OK;
}

/* Stores (opcode 0x23) and fsw (0x27, @fp).  Higher lanes win on overlap. */
static enum vx_exec_result exec_store(struct vx_exec_ctx *c, uint32_t insn,
                                      bool fp)
{
    uint32_t f3 = F3(insn), imm = imm_s(insn);
    const uint32_t *base = xreg(c, RS1(insn));
    const uint32_t *src = fp ? &c->w->f[RS2(insn) * c->T] : xreg(c, RS2(insn));
    uint8_t *vram = c->sim->vram;
    uint32_t bias;
    bool contig;

    if (fp ? f3 != 2 : f3 > 2) {
        return illegal(c, insn);
    }
    switch (mem_check(c, RS1(insn), imm, 1u << f3, true, &contig, &bias)) {
    case MEM_OK:
        break;
    case MEM_FAULT:
        return VX_EXEC_FAULT;
    case MEM_SPLIT:
        return mem_split(c, insn, MEM_KIND_STORE);
    case MEM_LOCAL:
        vram = c->mem;
        break;
    case MEM_COUT:
        /* the console, in lane order; hart = mhartid of the lane */
        VX_FOR_EACH_LANE(c->lanes, l) {
            vx_cons_putc(c->sim, c->w->gid * c->T + l, src[l] & 0xff);
        }
        return VX_EXEC_OK;
    }
    if (__builtin_expect(c->sim->resv_live != 0, 0) && vram != c->mem) {
        LANES(c, l, { resv_break(c->sim, c->w->core, OFF(l), 1u << f3); });
    }
    if (f3 == 2 && contig && HOST_LE) {
        memcpy(&vram[OFF(0)], src, 4 * c->T);
        return VX_EXEC_OK;
    }
    switch (f3) {
    case 0:
        LANES(c, l, { vram[OFF(l)] = (uint8_t)src[l]; });
        break;
    case 1:
        LANES(c, l, {
            uint8_t *p = &vram[OFF(l)];
            p[0] = (uint8_t)src[l];
            p[1] = (uint8_t)(src[l] >> 8);
        });
        break;
    default:
        LANES(c, l, {
            uint8_t *p = &vram[OFF(l)];
            p[0] = (uint8_t)src[l];
            p[1] = (uint8_t)(src[l] >> 8);
            p[2] = (uint8_t)(src[l] >> 16);
            p[3] = (uint8_t)(src[l] >> 24);
        });
        break;
    }
    return VX_EXEC_OK;
}

/* ------------------------------------------------------ A extension */

/* funct5 of the AMO opcode (0x2f) */
enum {
    AMO_ADD = 0x00, AMO_SWAP = 0x01, AMO_LR = 0x02, AMO_SC = 0x03,
    AMO_XOR = 0x04, AMO_OR = 0x08, AMO_AND = 0x0c, AMO_MIN = 0x10,
    AMO_MAX = 0x14, AMO_MINU = 0x18, AMO_MAXU = 0x1c,
};

/* What an AMO stores, from the word @m in memory and @v = x[rs2]. */
static uint32_t amo_value(uint32_t f5, uint32_t m, uint32_t v)
{
    switch (f5) {
    case AMO_ADD: return m + v;
    case AMO_XOR: return m ^ v;
    case AMO_OR: return m | v;
    case AMO_AND: return m & v;
    case AMO_MIN: return (int32_t)m < (int32_t)v ? m : v;
    case AMO_MAX: return (int32_t)m > (int32_t)v ? m : v;
    case AMO_MINU: return m < v ? m : v;
    case AMO_MAXU: return m > v ? m : v;
    default: return v;      /* AMO_SWAP */
    }
}

static bool amo_valid(uint32_t insn)
{
    uint32_t f5 = insn >> 27;

    if (F3(insn) != 2) {
        return false;       /* RV32: .W only */
    }
    switch (f5) {
    case AMO_LR:
        return RS2(insn) == 0;
    case AMO_ADD: case AMO_SWAP: case AMO_SC: case AMO_XOR: case AMO_OR:
    case AMO_AND: case AMO_MIN: case AMO_MAX: case AMO_MINU: case AMO_MAXU:
        return true;
    default:
        return false;
    }
}

/*
 * LR.W, SC.W and AMO*.W (opcode 0x2f).  The lanes go one after another in
 * lane order, each a whole read-modify-write, as upstream's execute.cpp
 * loops over threads: lanes on one word see each other's results, and
 * nothing of another warp or core runs in between.  Addresses are checked
 * for every lane first, like any access: LR as a load, SC and AMOs as
 * stores (misaligned: MISALIGNED_STORE; translation: store permission).
 * aq/rl need nothing: the card's memory is sequentially consistent.
 */
static enum vx_exec_result exec_amo(struct vx_exec_ctx *c, uint32_t insn)
{
    uint32_t f5 = insn >> 27, rd = RD(insn), bias;
    const uint32_t *base = xreg(c, RS1(insn)), *src = xreg(c, RS2(insn));
    uint32_t *d = xreg(c, rd);
    struct vx_sim *sim = c->sim;
    struct vx_core *core = &sim->cores[c->w->core];
    uint8_t *mem = sim->vram;
    bool contig, local = false;

    if (!amo_valid(insn)) {
        return illegal(c, insn);
    }
    switch (mem_check(c, RS1(insn), 0, 4, f5 != AMO_LR, &contig, &bias)) {
    case MEM_OK:
        break;
    case MEM_FAULT:
        return VX_EXEC_FAULT;
    case MEM_SPLIT:
        return mem_split(c, insn, MEM_KIND_AMO);
    case MEM_LOCAL:
        /*
         * Upstream reserves global memory only (emulator.cpp
         * dcache_amo_check()): LR of local memory takes no reservation
         * and SC there always fails; AMOs work.
         */
        mem = c->mem;
        local = true;
        break;
    case MEM_COUT:      /* the console takes plain stores only */
        return illegal(c, insn);
    }
    VX_FOR_EACH_LANE(c->lanes, l) {
        uint32_t off = OFF(l), m = ld32(&mem[off]), r = m;

        if (f5 == AMO_LR) {
            if (!local) {
                resv_take(sim, core, off);
            }
        } else if (f5 == AMO_SC) {
            r = local || !(core->resv_valid && core->resv_off == off);
            if (!r) {
                resv_break(sim, c->w->core, off, 4);
                st32(&mem[off], src[l]);
            }
        } else {
            if (sim->resv_live && !local) {
                resv_break(sim, c->w->core, off, 4);
            }
            st32(&mem[off], amo_value(f5, m, src[l]));
        }
        if (rd != 0) {
            d[l] = r;
        }
    }
    return VX_EXEC_OK;
}

/* --------------------------------------------------------- integer ALU */

/*
 * d[l] = expr(a, b) for every lane, a = x[rs1], b = x[rs2] or @imm.  A
 * full warp goes 8 lanes at a time through a local buffer: a fixed trip
 * count and no aliasing between d and the sources (rd may be rs1) let the
 * compiler turn each chunk into a few vector instructions.
 */
#define ALU(c, d, s1, b_expr, expr)                                     \
    do {                                                                \
        if ((c)->full && ((c)->T & 7) == 0) {                           \
            const uint32_t T_ = (c)->T;                                 \
            for (uint32_t l0 = 0; l0 < T_; l0 += 8) {                   \
                uint32_t r_[8];                                         \
                for (uint32_t k_ = 0; k_ < 8; k_++) {                   \
                    uint32_t l = l0 + k_;                               \
                    uint32_t a = (s1)[l];                               \
                    uint32_t b = (b_expr);                              \
                    (void)b;                                            \
                    r_[k_] = (expr);                                    \
                }                                                       \
                memcpy(&(d)[l0], r_, sizeof(r_));                       \
            }                                                           \
        } else {                                                        \
            LANES(c, l, { uint32_t a = (s1)[l]; uint32_t b = (b_expr);  \
                          (void)b; (d)[l] = (expr); });                 \
        }                                                               \
    } while (0)

static enum vx_exec_result exec_op_imm(struct vx_exec_ctx *c, uint32_t insn)
{
    uint32_t f3 = F3(insn), f7 = F7(insn), imm = imm_i(insn);
    uint32_t *d = xreg(c, RD(insn));
    const uint32_t *s = xreg(c, RS1(insn));
    uint32_t sh = imm & 31;

    if ((f3 == 1 && f7 != 0) || (f3 == 5 && f7 != 0 && f7 != 0x20)) {
        return illegal(c, insn);
    }
    if (RD(insn) == 0) {
        return VX_EXEC_OK;      /* nop, hint */
    }
    switch (f3) {
    case 0: ALU(c, d, s, imm, a + b); break;
    case 1: ALU(c, d, s, sh, a << b); break;
    case 2: ALU(c, d, s, imm, (int32_t)a < (int32_t)b); break;
    case 3: ALU(c, d, s, imm, a < b); break;
    case 4: ALU(c, d, s, imm, a ^ b); break;
    case 5:
        if (f7) {
            ALU(c, d, s, sh, (uint32_t)((int32_t)a >> b));
        } else {
            ALU(c, d, s, sh, a >> b);
        }
        break;
    case 6: ALU(c, d, s, imm, a | b); break;
    default: ALU(c, d, s, imm, a & b); break;
    }
    return VX_EXEC_OK;
}

static inline uint32_t rv_div(uint32_t a, uint32_t b)
{
    if (b == 0) {
        return ~0u;
    }
    if (a == 0x80000000u && b == ~0u) {
        return a;
    }
    return (uint32_t)((int32_t)a / (int32_t)b);
}

static inline uint32_t rv_rem(uint32_t a, uint32_t b)
{
    if (b == 0) {
        return a;
    }
    if (a == 0x80000000u && b == ~0u) {
        return 0;
    }
    return (uint32_t)((int32_t)a % (int32_t)b);
}

/* RV32M */
static void exec_muldiv(struct vx_exec_ctx *c, uint32_t f3, uint32_t *d,
                        const uint32_t *s1, const uint32_t *s2)
{
    switch (f3) {
    case 0: ALU(c, d, s1, s2[l], a * b); break;
    case 1: ALU(c, d, s1, s2[l],
                (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32)); break;
    case 2: ALU(c, d, s1, s2[l],
                (uint32_t)(((int64_t)(int32_t)a * (uint64_t)b) >> 32)); break;
    case 3: ALU(c, d, s1, s2[l], (uint32_t)(((uint64_t)a * b) >> 32)); break;
    case 4: ALU(c, d, s1, s2[l], rv_div(a, b)); break;
    case 5: ALU(c, d, s1, s2[l], b ? a / b : ~0u); break;
    case 6: ALU(c, d, s1, s2[l], rv_rem(a, b)); break;
    default: ALU(c, d, s1, s2[l], b ? a % b : a); break;
    }
}

static enum vx_exec_result exec_op(struct vx_exec_ctx *c, uint32_t insn)
{
    uint32_t f3 = F3(insn), f7 = F7(insn);
    uint32_t *d = xreg(c, RD(insn));
    const uint32_t *s1 = xreg(c, RS1(insn)), *s2 = xreg(c, RS2(insn));

    if (!(f7 == 0 || f7 == 1 || (f7 == 0x20 && (f3 == 0 || f3 == 5)) ||
          (f7 == 7 && (f3 == 5 || f3 == 7)))) {
        return illegal(c, insn);
    }
    if (RD(insn) == 0) {
        return VX_EXEC_OK;
    }
    if (f7 == 1) {
        exec_muldiv(c, f3, d, s1, s2);
        return VX_EXEC_OK;
    }
    if (f7 == 7) {
        /* Zicond: czero.eqz (funct3 5), czero.nez (funct3 7) */
        if (f3 == 5) {
            ALU(c, d, s1, s2[l], b ? a : 0);
        } else {
            ALU(c, d, s1, s2[l], b ? 0 : a);
        }
        return VX_EXEC_OK;
    }
    switch (f3) {
    case 0:
        if (f7) {
            ALU(c, d, s1, s2[l], a - b);
        } else {
            ALU(c, d, s1, s2[l], a + b);
        }
        break;
    case 1: ALU(c, d, s1, s2[l] & 31, a << b); break;
    case 2: ALU(c, d, s1, s2[l], (int32_t)a < (int32_t)b); break;
    case 3: ALU(c, d, s1, s2[l], a < b); break;
    case 4: ALU(c, d, s1, s2[l], a ^ b); break;
    case 5:
        if (f7) {
            ALU(c, d, s1, s2[l] & 31, (uint32_t)((int32_t)a >> b));
        } else {
            ALU(c, d, s1, s2[l] & 31, a >> b);
        }
        break;
    case 6: ALU(c, d, s1, s2[l], a | b); break;
    default: ALU(c, d, s1, s2[l], a & b); break;
    }
    return VX_EXEC_OK;
}

/* rd of every lane <- @v (lui, auipc, link registers). */
static void write_uniform(struct vx_exec_ctx *c, uint32_t rd, uint32_t v)
{
    uint32_t *d = xreg(c, rd);

    if (rd != 0) {
        LANES(c, l, { d[l] = v; });
    }
}

/* ------------------------------------------------------ control flow */

/* jump()'s rd for a branch: none. */
#define VX_NO_RD    ~0u

/*
 * A jump or taken branch to a target that is not 4-byte aligned faults on
 * the jump itself (RISC-V without C: instruction-address-misaligned):
 * ERR_PC is the jump's, ERR_ADDR the target, and neither rd nor the PC
 * changes.  The target is the highest active lane's, as for every control
 * transfer (upstream's thread_last), so other lanes' values do not matter.
 */
static enum vx_exec_result jump(struct vx_exec_ctx *c, uint32_t rd,
                                uint32_t target)
{
    if (target & 3) {
        return exec_fault(c, VX_ERR_MISALIGNED_FETCH, target, c->lanes);
    }
    if (rd != VX_NO_RD) {
        write_uniform(c, rd, c->pc + 4);
    }
    c->next_pc = target;
    return VX_EXEC_OK;
}

/* Whether a branch of funct3 @f3 (not 2 or 3: none) is taken on @a, @b. */
static bool branch_taken(uint32_t f3, uint32_t a, uint32_t b)
{
    switch (f3) {
    case 0:  return a == b;
    case 1:  return a != b;
    case 4:  return (int32_t)a < (int32_t)b;
    case 5:  return (int32_t)a >= (int32_t)b;
    case 6:  return a < b;
    default: return a >= b;
    }
}

/*
 * A conditional branch.  Its active lanes must agree, as upstream's
 * simulator requires (sim/simx/execute.cpp:442-448 aborts, "divergent
 * branch!"): where they do not, the warp stops at the branch with
 * DIVERGENT_BRANCH, ERR_ADDR its target, ERR_TMASK the active lanes and
 * ERR_INFO0-3 those that would take it.  A card with rtl_branch follows
 * the highest active lane instead, as upstream's RTL does
 * (hw/rtl/core/VX_alu_int.sv:224-262, last_tid).  Every executor leaves
 * a branch whose lanes disagree to this function.
 */
static enum vx_exec_result exec_branch(struct vx_exec_ctx *c, uint32_t insn)
{
    uint32_t f3 = F3(insn), lane = last_lane(c->lanes);
    const uint32_t *a = xreg(c, RS1(insn)), *b = xreg(c, RS2(insn));
    uint32_t target = c->pc + imm_b(insn);
    struct vx_tmask t = { { 0 } };
    bool taken;

    if (f3 == 2 || f3 == 3) {
        return illegal(c, insn);
    }
    taken = branch_taken(f3, a[lane], b[lane]);
    if (!c->sim->cfg.rtl_branch) {
        LANES(c, l, {
            if (branch_taken(f3, a[l], b[l])) {
                vx_tmask_set(&t, l);
            }
        });
        if (!vx_tmask_empty(&t) && memcmp(&t, c->lanes, sizeof(t))) {
            exec_fault(c, VX_ERR_DIVERGENT_BRANCH, target, c->lanes);
            memcpy(c->fault.info, t.w, sizeof(c->fault.info));
            return VX_EXEC_FAULT;
        }
    }
    return taken ? jump(c, VX_NO_RD, target) : VX_EXEC_OK;
}

static enum vx_exec_result exec_jalr(struct vx_exec_ctx *c, uint32_t insn)
{
    uint32_t lane = last_lane(c->lanes);
    /* read the target before rd is written: rd may be rs1 */
    uint32_t target = (xreg(c, RS1(insn))[lane] + imm_i(insn)) & ~1u;

    if (F3(insn) != 0) {
        return illegal(c, insn);
    }
    return jump(c, RD(insn), target);
}

/* -------------------------------------------------------------- CSRs */

/*
 * CSR_ZERO: reads 0 and ignores writes, as upstream's emulator.cpp does
 * for the machine-mode CSRs a kernel may touch but the card does not
 * implement (set_csr() lists them as writes that do nothing).
 */
enum csr_access { CSR_NONE, CSR_RO, CSR_RW, CSR_ZERO };

static enum csr_access csr_access(uint32_t csr)
{
    switch (csr) {
    case 0x001 ... 0x003:
    case VX_CSR_MSCRATCH:
    case VX_CSR_DSCRATCH(0) ... VX_CSR_DSCRATCH(3):
        return CSR_RW;
    case VX_CSR_SATP:
    case VX_CSR_MSTATUS:
    case VX_CSR_MEDELEG ... VX_CSR_MTVEC:
    case VX_CSR_MEPC:
    case VX_CSR_MCAUSE:
    case VX_CSR_PMPCFG0:
    case VX_CSR_PMPADDR0:
    case VX_CSR_MNSTATUS:
        return CSR_ZERO;
    case VX_CSR_MISA:
    case VX_CSR_THREAD_ID ... VX_CSR_ACTIVE_THREADS:
    case VX_CSR_NUM_THREADS ... VX_CSR_NUM_CORES:
    case VX_CSR_LOCAL_MEM_BASE:
    case VX_CSR_MHARTID:
    case VX_CSR_BLOCK_IDX(0) ... VX_CSR_WARP_IN_BLOCK:
    case 0xc00 ... 0xc02:
    case 0xc80 ... 0xc82:
    case VX_CSR_MPM_BASE ... VX_CSR_MPM_BASE + 31:
    case VX_CSR_MPM_BASE_H ... VX_CSR_MPM_BASE_H + 31:
        return CSR_RO;
    default:
        return CSR_NONE;
    }
}

/*
 * mcycle (@instret false) or minstret of @w's core: what its warps counted
 * in earlier contexts plus what they count now.  A warp in a burst has
 * its counts up to date when it reaches a CSR (the burst executors sync
 * them before anything runs out of line), so every read sees its own
 * earlier instructions and the counters never go back.
 */
static uint64_t core_counter(const struct vx_sim *sim,
                             const struct vx_warp *w, bool instret)
{
    const struct vx_core *core = &sim->cores[w->core];
    const struct vx_warp *first = w - w->lwid;
    uint64_t v = instret ? core->instret_base : core->cycle_base;

    for (uint32_t i = 0; i < sim->cfg.warps; i++) {
        v += instret ? first[i].instret : first[i].cycle;
    }
    return v;
}

/* Mask of the active warps 0..31 of @w's core. */
static uint32_t core_active_warps(const struct vx_sim *sim,
                                  const struct vx_warp *w)
{
    const struct vx_warp *first = w - w->lwid;
    uint32_t n = sim->cfg.warps < 32 ? sim->cfg.warps : 32, mask = 0;

    for (uint32_t i = 0; i < n; i++) {
        if (first[i].active) {
            mask |= 1u << i;
        }
    }
    return mask;
}

/* Coordinate @dim of the thread in lane @lane within its block. */
static uint32_t thread_idx(const struct vx_exec_ctx *c, uint32_t lane,
                           uint32_t dim)
{
    const uint32_t *bd = c->sim->cp.block;
    uint32_t bx = bd[0] ? bd[0] : 1, by = bd[1] ? bd[1] : 1;
    uint32_t t = c->w->warp_in_block * c->T + lane;

    switch (dim) {
    case 0: return t % bx;
    case 1: return (t / bx) % by;
    default: return t / bx / by;
    }
}

static uint32_t csr_read(const struct vx_exec_ctx *c, uint32_t csr,
                         uint32_t lane)
{
    const struct vx_sim *sim = c->sim;
    const struct vx_warp *w = c->w;

    switch (csr) {
    case 0x001: return w->fflags;
    case 0x002: return w->frm;
    case 0x003: return (uint32_t)w->frm << 5 | w->fflags;
    case VX_CSR_MSCRATCH: return sim->cores[w->core].mscratch;
    case VX_CSR_DSCRATCH(0) ... VX_CSR_DSCRATCH(3):
        return w->dscratch[(csr - VX_CSR_DSCRATCH(0)) * c->T + lane];
    case VX_CSR_MISA: return VX_MISA;
    case VX_CSR_THREAD_ID: return lane;
    case VX_CSR_WARP_ID: return w->lwid;
    case VX_CSR_CORE_ID: return w->core;
    case VX_CSR_ACTIVE_WARPS: return core_active_warps(sim, w);
    case VX_CSR_ACTIVE_THREADS: return w->tmask.w[0];
    case VX_CSR_NUM_THREADS: return sim->cfg.threads;
    case VX_CSR_NUM_WARPS: return sim->cfg.warps;
    case VX_CSR_NUM_CORES: return sim->ncores;
    case VX_CSR_LOCAL_MEM_BASE: return VX_LMEM_BASE_ADDR;
    case VX_CSR_MHARTID: return w->gid * c->T + lane;
    case VX_CSR_BLOCK_IDX(0) ... VX_CSR_BLOCK_IDX(2):
        return w->block_idx[csr - VX_CSR_BLOCK_IDX(0)];
    case VX_CSR_BLOCK_DIM(0) ... VX_CSR_BLOCK_DIM(2):
        return sim->cp.block[csr - VX_CSR_BLOCK_DIM(0)];
    case VX_CSR_GRID_DIM(0) ... VX_CSR_GRID_DIM(2):
        return sim->cp.grid[csr - VX_CSR_GRID_DIM(0)];
    case VX_CSR_THREAD_IDX(0) ... VX_CSR_THREAD_IDX(2):
        return thread_idx(c, lane, csr - VX_CSR_THREAD_IDX(0));
    case VX_CSR_WARP_IN_BLOCK: return w->warp_in_block;
    case 0xc00: case 0xc01: return (uint32_t)w->cycle;
    case 0xc80: case 0xc81: return (uint32_t)(w->cycle >> 32);
    case 0xc02: return (uint32_t)w->instret;
    case 0xc82: return (uint32_t)(w->instret >> 32);
    case VX_CSR_MCYCLE: return (uint32_t)core_counter(sim, w, false);
    case VX_CSR_MCYCLE_H: return (uint32_t)(core_counter(sim, w, false) >> 32);
    case VX_CSR_MINSTRET: return (uint32_t)core_counter(sim, w, true);
    case VX_CSR_MINSTRET_H: return (uint32_t)(core_counter(sim, w, true) >> 32);
    default: return 0;      /* CSR_ZERO, the other MPM counters */
    }
}

static void csr_write(struct vx_exec_ctx *c, uint32_t csr, uint32_t lane,
                      uint32_t v)
{
    struct vx_warp *w = c->w;

    switch (csr) {
    case 0x001:
        w->fflags = v & 0x1f;
        break;
    case 0x002:
        w->frm = v & 7;
        break;
    case 0x003:
        w->fflags = v & 0x1f;
        w->frm = (v >> 5) & 7;
        break;
    case VX_CSR_MSCRATCH:
        c->sim->cores[w->core].mscratch = v;
        break;
    case VX_CSR_DSCRATCH(0) ... VX_CSR_DSCRATCH(3):
        w->dscratch[(csr - VX_CSR_DSCRATCH(0)) * c->T + lane] = v;
        break;
    default:    /* CSR_ZERO */
        break;
    }
}

static enum vx_exec_result exec_csr(struct vx_exec_ctx *c, uint32_t insn)
{
    uint32_t f3 = F3(insn), csr = insn >> 20, rs1 = RS1(insn), rd = RD(insn);
    enum csr_access acc = csr_access(csr);
    /* csrrs/csrrc with x0 or uimm 0 only read, so RO CSRs allow them */
    bool writes = (f3 & 3) == 1 || rs1 != 0;
    const uint32_t *src = xreg(c, rs1);
    uint32_t *d = xreg(c, rd);

    if ((f3 & 3) == 0 || acc == CSR_NONE || (writes && acc == CSR_RO)) {
        return illegal(c, insn);
    }
    VX_FOR_EACH_LANE(c->lanes, l) {
        uint32_t old = csr_read(c, csr, l);
        uint32_t v = (f3 & 4) ? rs1 : src[l];

        if (writes) {
            switch (f3 & 3) {
            case 1: csr_write(c, csr, l, v); break;
            case 2: csr_write(c, csr, l, old | v); break;
            default: csr_write(c, csr, l, old & ~v); break;
            }
        }
        if (rd != 0) {
            d[l] = old;
        }
    }
    return VX_EXEC_OK;
}

/* --------------------------------------------------- system, custom */

/*
 * ecall and ebreak end every warp of the core, without an error, as
 * upstream's trigger_ecall()/trigger_ebreak() do; an ebreak the Debug
 * Module asked to halt (DCONFIG.ebreakh) halts its warp instead.  Injected
 * they fault, which makes vx_exec_inject() refuse them.
 */
static enum vx_exec_result exec_ebreak(struct vx_exec_ctx *c)
{
    if (c->inject) {
        return exec_fault(c, VX_ERR_EBREAK, 0, c->lanes);
    }
    if (vx_dm_ebreak_halts(c->sim)) {
        /* the PC stays at the ebreak: resuming re-executes it */
        vx_dm_halt_warp(c->sim, c->w, VX_HACAUSE_EBREAK);
        return VX_EXEC_HALTED;
    }
    return vx_simt_core_end(c->sim, c->w);
}

static enum vx_exec_result exec_system(struct vx_exec_ctx *c, uint32_t insn)
{
    if (F3(insn) != 0) {
        return exec_csr(c, insn);
    }
    switch (insn) {
    case 0x00000073:
        return c->inject ? exec_fault(c, VX_ERR_ECALL, 0, c->lanes)
                         : vx_simt_core_end(c->sim, c->w);
    case 0x00100073:
        return exec_ebreak(c);
    case 0x10500073:    /* wfi: nothing to wait for */
        return VX_EXEC_OK;
    default:
        return illegal(c, insn);
    }
}

/* custom-1: vx_trap_assert reports a0..a3 of the lowest lane. */
static enum vx_exec_result exec_custom1(struct vx_exec_ctx *c, uint32_t insn)
{
    uint32_t lane = first_lane(c->lanes);

    if (F7(insn) != 0 || F3(insn) != VX_F3_TRAP_ASSERT) {
        return illegal(c, insn);
    }
    for (int i = 0; i < 4; i++) {
        c->fault.info[i] = xreg(c, 10 + i)[lane];
    }
    return exec_fault(c, VX_ERR_ASSERT, 0, c->lanes);
}

static enum vx_exec_result exec_fp(struct vx_exec_ctx *c, uint32_t insn)
{
    struct vx_tmask bad;
    uint32_t cause = vx_fpu_exec(c->w, c->T, c->lanes, insn, &bad);

    if (cause) {
        return exec_fault(c, cause, insn, &bad);
    }
    return VX_EXEC_OK;
}

/*
 * Everything but custom-0.  Sets c->next_pc for control transfers.
 * Inlined into the per-instruction path: a call and its register saves
 * are a noticeable part of a warp instruction's fixed cost.
 */
static inline __attribute__((always_inline)) enum vx_exec_result
exec_insn(struct vx_exec_ctx *c, uint32_t insn)
{
    switch (insn & 0x7f) {
    case 0x33: return exec_op(c, insn);
    case 0x13: return exec_op_imm(c, insn);
    case 0x03: return exec_load(c, insn, false);
    case 0x23: return exec_store(c, insn, false);
    case 0x2f: return exec_amo(c, insn);
    case 0x63: return exec_branch(c, insn);
    case 0x37:
        write_uniform(c, RD(insn), insn & 0xfffff000u);
        return VX_EXEC_OK;
    case 0x17:
        write_uniform(c, RD(insn), c->pc + (insn & 0xfffff000u));
        return VX_EXEC_OK;
    case 0x6f:
        return jump(c, RD(insn), c->pc + imm_j(insn));
    case 0x67: return exec_jalr(c, insn);
    case 0x0f:          /* fence, fence.i: memory is always coherent */
        return F3(insn) <= 1 ? VX_EXEC_OK : illegal(c, insn);
    case 0x73: return exec_system(c, insn);
    case 0x07: return exec_load(c, insn, true);
    case 0x27: return exec_store(c, insn, true);
    case 0x43: case 0x47: case 0x4b: case 0x4f: case 0x53:
        return exec_fp(c, insn);
    case VX_OPCODE_CUSTOM1: return exec_custom1(c, insn);
    default: return illegal(c, insn);
    }
}

static enum vx_exec_result fetch_fault(struct vx_sim *sim, struct vx_warp *w,
                                       uint32_t cause)
{
    struct vx_fault f;

    memset(&f, 0, sizeof(f));
    f.cause = cause;
    f.pc = w->pc;
    f.addr = w->pc;
    f.lanes = w->tmask;
    vx_sim_fault(sim, w, &f);
    return VX_EXEC_FAULT;
}

enum vx_exec_result vx_exec_fetch_fault(struct vx_sim *sim, struct vx_warp *w)
{
    return fetch_fault(sim, w, VX_ERR_FETCH_FAULT);
}

const uint8_t *vx_exec_code_page(struct vx_sim *sim, struct vx_warp *w)
{
    uint32_t poff, cause;

    if (w->pc & 3) {
        vx_exec_fetch_fault(sim, w);
        return NULL;
    }
    cause = vx_mmu_translate(sim, w->satp, w->pc, VX_ACC_FETCH, &poff);
    if (cause) {
        fetch_fault(sim, w, cause);
        return NULL;
    }
    return sim->vram + poff;
}

/* ------------------------------------------------------ the executors */

/* exec_insn() for a warp: moves the PC or reports the fault. */
__attribute__((noinline)) enum vx_exec_result
vx_exec_one(struct vx_sim *sim, struct vx_warp *w, uint32_t insn)
{
    struct vx_exec_ctx c;
    enum vx_exec_result r;

    c.sim = sim;
    c.w = w;
    c.lanes = &w->tmask;
    c.T = sim->cfg.threads;
    c.full = tmask_is_full(&w->tmask, c.T);
    c.inject = false;
    c.mem = NULL;           /* only MEM_LOCAL sets it: exec_store() compares */
    c.pc = w->pc;
    c.next_pc = w->pc + 4;
    r = exec_insn(&c, insn);
    if (r == VX_EXEC_OK) {
        w->pc = c.next_pc;
    } else if (r == VX_EXEC_FAULT) {
        vx_sim_fault(sim, w, &c.fault);
    }
    return r;
}

/*
 * The reference interpreter (VX_SIM_EXEC_REF): every instruction is
 * fetched and decoded from its raw word by exec_insn() or vx_simt_exec(),
 * with nothing cached and no vector code in between.  The burst executors
 * must match it instruction for instruction, counters included: an
 * instruction costs a cycle even if it faults, and retires unless it
 * faults, halts or ends the warp (a parked bar retires).
 */
__attribute__((noinline)) enum vx_exec_result
vx_exec_ref(struct vx_sim *sim, struct vx_warp *w, uint64_t max, uint64_t *used)
{
    enum vx_exec_result r = VX_EXEC_OK;
    const uint8_t *page = NULL;
    uint32_t vpage = VX_CODE_PAGE_NONE;     /* the code page translated */
    uint64_t n = 0;

    while (n < max && r == VX_EXEC_OK) {
        uint32_t insn;

        n++;
        w->cycle++;
        if (w->satp) {
            /* a misaligned PC never matches: vx_exec_code_page() faults */
            if ((w->pc & ~0xffcu) != vpage) {
                page = vx_exec_code_page(sim, w);
                if (!page) {
                    r = VX_EXEC_FAULT;
                    break;
                }
                vpage = w->pc & ~0xfffu;
            }
            insn = ld32(page + (w->pc & 0xfff));
        } else if (!vx_vram_pc_ok(sim->cfg.vram_size, w->pc)) {
            r = vx_exec_fetch_fault(sim, w);
            break;
        } else {
            insn = ld32(sim->vram + vx_vram_off(w->pc));
        }
        if ((insn & 0x7f) == VX_OPCODE_CUSTOM0) {
            r = vx_simt_exec(sim, w, insn);
        } else {
            r = vx_exec_one(sim, w, insn);
        }
        if (r == VX_EXEC_OK || r == VX_EXEC_WAIT) {
            w->instret++;
        }
    }
    *used = n;
    return r;
}

enum vx_exec_result vx_exec_burst(struct vx_sim *sim, struct vx_warp *w,
                                  uint64_t max, uint64_t *used)
{
    if (max == 0) {
        *used = 0;
        return VX_EXEC_OK;
    }
    if (vx_tmask_empty(&w->tmask)) {
        /* no lane to run (only a debugger can get here): as tmc 0 */
        *used = 1;
        return vx_simt_warp_end(sim, w);
    }
    /* the burst executors' stores do not break reservations: see vx_exec.h */
    if (sim->exec == VX_SIM_EXEC_REF || sim->resv_live) {
        return vx_exec_ref(sim, w, max, used);
    }
    if (sim->exec == VX_SIM_EXEC_JIT) {
        return vx_jit_exec(sim, w, max, used);
    }
    return vx_exec_fast(sim, w, max, used);
}

/* One instruction (the DM's step): a burst of one. */
enum vx_exec_result vx_exec_warp(struct vx_sim *sim, struct vx_warp *w)
{
    uint64_t used;

    return vx_exec_burst(sim, w, 1, &used);
}

int vx_exec_inject(struct vx_sim *sim, struct vx_warp *w, uint32_t lane,
                   uint32_t insn)
{
    struct vx_exec_ctx c;
    struct vx_tmask one = { { 0 } };
    uint32_t opcode = insn & 0x7f;

    if (lane >= sim->cfg.threads || opcode == VX_OPCODE_CUSTOM0 ||
        opcode == VX_OPCODE_CUSTOM1) {
        return -1;
    }
    vx_tmask_set(&one, lane);
    c.sim = sim;
    c.w = w;
    c.lanes = &one;
    c.T = sim->cfg.threads;
    c.full = false;
    c.inject = true;
    c.mem = NULL;
    c.pc = w->pc;
    c.next_pc = w->pc + 4;
    memset(&c.fault, 0, sizeof(c.fault));
    /* ecall/ebreak fault here, which is what injection must refuse */
    return exec_insn(&c, insn) == VX_EXEC_OK ? 0 : -1;
}

void vx_exec_core_start(struct vx_sim *sim, uint32_t core, uint32_t arg)
{
    struct vx_core *cr = &sim->cores[core];

    cr->mscratch = arg;
    resv_drop(sim, cr);
}

void vx_exec_reset(struct vx_sim *sim)
{
    for (uint32_t i = 0; i < sim->ncores; i++) {
        struct vx_core *core = &sim->cores[i];

        core->mscratch = 0;
        core->resv_valid = false;
        core->cycle_base = 0;
        core->instret_base = 0;
    }
    sim->resv_live = 0;
}
