/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: the fast path of the burst executors.
 *
 * A warp instruction's fixed cost (fetch, decode, dispatch) is paid by
 * every lane-poor warp, so the common instructions are decoded once into
 * the PC-indexed cache (struct vx_dinsn) and run by vx_exec_fast()'s
 * switch (the template vx_exec_burst.h) with the warp's state in locals.
 * Everything else, and every case the fast code does not handle (a
 * partial fault, a CSR, FP), goes to the reference interpreter with the
 * raw word (vx_exec_one()): the fast code commits nothing before it is
 * sure the instruction succeeds, so it can always defer.
 *
 * The template is compiled twice on x86-64: with 4-lane vectors
 * (VX_SIM_EXEC_BURST) and for AVX2 with 8-lane ones (VX_SIM_EXEC_AVX2);
 * and each of those twice, for untranslated and for translated launches
 * (VX_BURST_MMU), so that address translation costs an untranslated
 * launch nothing, not even a test.
 */
#include "vx_coalesce.h"

enum dop {
    D_SLOW,         /* the interpreter on the raw word: vx_exec_one() */
    D_SIMT,         /* custom-0: vx_simt_exec() */
    D_NOP,
    D_ADDI, D_SLTI, D_SLTIU, D_XORI, D_ORI, D_ANDI, D_SLLI, D_SRLI, D_SRAI,
    D_ADD, D_SUB, D_SLL, D_SLT, D_SLTU, D_XOR, D_SRL, D_SRA, D_OR, D_AND,
    D_MUL,
    D_LI,           /* lui, auipc: rd <- imm (the PC folded in) */
    D_JAL, D_JALR,  /* jal: imm = target */
    D_BEQ, D_BNE, D_BLT, D_BGE, D_BLTU, D_BGEU,     /* imm = target */
    D_LB, D_LH, D_LW, D_LBU, D_LHU, D_FLW,
    D_SB, D_SH, D_SW, D_FSW,
};

#define DCACHE_MASK ((1u << VX_DCACHE_BITS) - 1)

static __attribute__((noinline)) void decode(struct vx_sim *sim,
                                             struct vx_dinsn *d,
                                             uint32_t pc, uint32_t insn)
{
    static const uint8_t op_imm[8] = {
        D_ADDI, D_SLLI, D_SLTI, D_SLTIU, D_XORI, D_SRLI, D_ORI, D_ANDI,
    };
    static const uint8_t op_reg[8] = {
        D_ADD, D_SLL, D_SLT, D_SLTU, D_XOR, D_SRL, D_OR, D_AND,
    };
    static const uint8_t branch[8] = {
        D_BEQ, D_BNE, D_SLOW, D_SLOW, D_BLT, D_BGE, D_BLTU, D_BGEU,
    };
    static const uint8_t load[8] = {
        D_LB, D_LH, D_LW, D_SLOW, D_LBU, D_LHU, D_SLOW, D_SLOW,
    };
    uint32_t T = sim->cfg.threads, f3 = F3(insn), f7 = F7(insn);
    uint32_t rd = RD(insn), op = D_SLOW;
    bool alu = false;   /* writes only rd: x0 makes it a nop */

    d->pc = pc;
    d->insn = insn;
    d->rd = rd * T;
    d->rs1 = RS1(insn) * T;
    d->rs2 = RS2(insn) * T;
    d->imm = 0;
    switch (insn & 0x7f) {
    case 0x13:
        d->imm = imm_i(insn);
        alu = true;
        op = op_imm[f3];
        if (f3 == 1 || f3 == 5) {
            d->imm &= 31;
            if (f3 == 5 && f7 == 0x20) {
                op = D_SRAI;
            } else if (f7 != 0) {
                op = D_SLOW;
            }
        }
        break;
    case 0x33:
        alu = true;
        if (f7 == 0) {
            op = op_reg[f3];
        } else if (f7 == 0x20 && (f3 == 0 || f3 == 5)) {
            op = f3 ? D_SRA : D_SUB;
        } else if (f7 == 1 && f3 == 0) {
            op = D_MUL;
        }
        break;
    case 0x37:
        alu = true;
        op = D_LI;
        d->imm = insn & 0xfffff000u;
        break;
    case 0x17:
        alu = true;
        op = D_LI;
        d->imm = pc + (insn & 0xfffff000u);
        break;
    case 0x6f:
        /* a misaligned target faults on the jump: the interpreter's job */
        d->imm = pc + imm_j(insn);
        op = d->imm & 3 ? D_SLOW : D_JAL;
        break;
    case 0x67:
        op = f3 == 0 ? D_JALR : D_SLOW;
        d->imm = imm_i(insn);
        break;
    case 0x63:
        d->imm = pc + imm_b(insn);
        op = d->imm & 3 ? D_SLOW : branch[f3];
        break;
    case 0x03:
        /* a load into x0 still checks its addresses: left to exec_load */
        op = rd ? load[f3] : D_SLOW;
        d->imm = imm_i(insn);
        break;
    case 0x07:
        op = f3 == 2 ? D_FLW : D_SLOW;
        d->imm = imm_i(insn);
        break;
    case 0x23:
        op = f3 == 0 ? D_SB : f3 == 1 ? D_SH : f3 == 2 ? D_SW : D_SLOW;
        d->imm = imm_s(insn);
        break;
    case 0x27:
        op = f3 == 2 ? D_FSW : D_SLOW;
        d->imm = imm_s(insn);
        break;
    case 0x0f:
        op = F3(insn) <= 1 ? D_NOP : D_SLOW;
        break;
    case VX_OPCODE_CUSTOM0:
        op = D_SIMT;
        break;
    default:
        break;
    }
    if (alu && rd == 0 && op != D_SLOW) {
        op = D_NOP;
    }
    d->op = op;
}

/*
 * The lane loops of the burst template work on GCC vectors of VL lanes:
 * four (an SSE register on x86-64, NEON on arm64, plain scalar code
 * elsewhere) and, in the copy compiled for AVX2 hosts, eight.  The loops take eight
 * lanes at a time, as one or two vectors.  Loads and stores go through
 * memcpy (nothing is assumed about alignment); macros rather than
 * functions keep vector types out of any call ABI.  VL, VEC, VECS,
 * VIOTA4 and VZERO are defined around each instantiation of
 * vx_exec_burst.h.
 */
typedef uint32_t vx_u32x4 __attribute__((vector_size(16)));
typedef int32_t vx_s32x4 __attribute__((vector_size(16)));
typedef uint32_t vx_u32x8 __attribute__((vector_size(32)));
typedef int32_t vx_s32x8 __attribute__((vector_size(32)));
typedef long long vx_s64x4 __attribute__((vector_size(32)));

#define VLD(p)      ({ VEC vl_; memcpy(&vl_, (p), sizeof(vl_)); vl_; })
#define VST(p, v)                                                       \
    do { VEC vs_ = (v); memcpy((p), &vs_, sizeof(vs_)); } while (0)
/* OR of the elements (VZERO(v): all are 0, defined with VL) */
#define VOR(v)      ({ uint64_t q_[VL / 2]; VEC vo_ = (v);              \
                       memcpy(q_, &vo_, sizeof(q_));                    \
                       for (int i_ = 1; i_ < VL / 2; i_++)              \
                           q_[0] |= q_[i_];                             \
                       (uint32_t)(q_[0] | q_[0] >> 32); })

/* full-warp loops: unrolled, a 32-lane warp is then one straight run */
#if defined(__clang__) || __GNUC__ >= 8
#define VX_UNROLL _Pragma("GCC unroll 4")
#else
#define VX_UNROLL
#endif
/* The executor's building blocks; they use its locals. */
/*
 * rd <- (a OP b) for every active lane: a = x[rs1], b = x[rs2] (RR) or the
 * immediate (RI); VE is the vector form, SE the scalar one.
 */
#define RR_STEP(k, VE)                                                  \
    do {                                                                \
        VEC a = VLD(p1 + l + (k)), b = VLD(p2 + l + (k));               \
        VST(dd + l + (k), (VE));                                        \
    } while (0)
#define ALU_RR(VE, SE)                                                  \
    do {                                                                \
        uint32_t *dd = X + d->rd;                                       \
        const uint32_t *p1 = X + d->rs1, *p2 = X + d->rs2;              \
        if (VT) {                                                       \
            VX_UNROLL for (uint32_t l = 0; l < VT; l += 8) {            \
                RR_STEP(0, VE);                                         \
                if (VL == 4) RR_STEP(4, VE);                            \
            }                                                           \
        } else {                                                        \
            VX_FOR_EACH_LANE(&w->tmask, l) {                            \
                uint32_t a = p1[l], b = p2[l];                          \
                dd[l] = (SE);                                           \
            }                                                           \
        }                                                               \
        pc += 4;                                                        \
    } while (0)
#define RI_STEP(k, VE)                                                  \
    do {                                                                \
        VEC a = VLD(p1 + l + (k));                                      \
        VST(dd + l + (k), (VE));                                        \
    } while (0)
#define ALU_RI(VE, SE)                                                  \
    do {                                                                \
        uint32_t *dd = X + d->rd;                                       \
        const uint32_t *p1 = X + d->rs1;                                \
        const uint32_t b = d->imm;                                      \
        if (VT) {                                                       \
            VX_UNROLL for (uint32_t l = 0; l < VT; l += 8) {            \
                RI_STEP(0, VE);                                         \
                if (VL == 4) RI_STEP(4, VE);                            \
            }                                                           \
        } else {                                                        \
            VX_FOR_EACH_LANE(&w->tmask, l) {                            \
                uint32_t a = p1[l];                                     \
                dd[l] = (SE);                                           \
            }                                                           \
        }                                                               \
        pc += 4;                                                        \
    } while (0)
#define SLT_V       ((VEC)((VECS)a < (VECS)b) & 1)
#define SLTI_V      ((VEC)((VECS)a < (int32_t)b) & 1)
#define SLT_S       ((int32_t)a < (int32_t)b)
#define SLTU_V      ((VEC)(a < b) & 1)
#define SLTU_S      (a < b)
/* every active lane's rd <- v */
#define UNIFORM(rd_, v_)    UNIFORM_TO(X + (rd_), v_)
/* the same into the register at @dd_ (an x or an f one) */
#define UNIFORM_TO(dd_, v_)                                             \
    do {                                                                \
        uint32_t *dd = (dd_);                                           \
        uint32_t v = (v_);                                              \
        if (VT) {                                                       \
            VEC vv = (VEC){ 0 } + v;                                    \
            VX_UNROLL for (uint32_t l = 0; l < VT; l += 8) {            \
                VST(dd + l, vv);                                        \
                if (VL == 4) VST(dd + l + 4, vv);                       \
            }                                                           \
        } else {                                                        \
            VX_FOR_EACH_LANE(&w->tmask, l) {                            \
                dd[l] = v;                                              \
            }                                                           \
        }                                                               \
    } while (0)
/* lane @l_'s branch outcome into any_ and all_ (BRANCH) */
#define BRANCH_LANE(l_, cond)                                           \
    do {                                                                \
        a = X[d->rs1 + (l_)];                                           \
        b = X[d->rs2 + (l_)];                                           \
        any_ |= (cond);                                                 \
        all_ &= (cond);                                                 \
    } while (0)
/*
 * The highest active lane's outcome, once every active lane agrees with
 * it (a full warp's lanes in a plain loop the compiler vectorises); a
 * branch whose lanes disagree is the interpreter's (it stops the card
 * with DIVERGENT_BRANCH, or follows that lane with rtl_branch).
 */
#define BRANCH(cond)                                                    \
    do {                                                                \
        uint32_t a = X[d->rs1 + laneN], b = X[d->rs2 + laneN];          \
        const bool taken_ = (cond);                                     \
        if (dvg_check && lane0 != laneN) {                              \
            bool any_ = false, all_ = true;                             \
            if (VT) {                                                   \
                for (uint32_t l_ = 0; l_ < VT; l_++) {                  \
                    BRANCH_LANE(l_, cond);                              \
                }                                                       \
            } else {                                                    \
                VX_FOR_EACH_LANE(&w->tmask, l_) {                       \
                    BRANCH_LANE(l_, cond);                              \
                }                                                       \
            }                                                           \
            if (any_ != all_) {                                         \
                goto slow;                                              \
            }                                                           \
        }                                                               \
        pc = taken_ ? d->imm : pc + 4;                                  \
    } while (0)
/*
 * Where a memory instruction's lanes go.  x[rs1] + bias is each lane's
 * offset: untranslated, its VRAM offset (bias folds the imm into
 * vx_vram_off()), which must have no vx_vram_fault_bits() of
 * vx_sim.vram_flat; translated (VX_BURST_MMU), its offset in the page of
 * the lowest lane's virtual address va0, which must stay below 4 KiB, so
 * that one TLB probe (MEM_PAGE, after the check, as the interpreter
 * does) serves the warp.  mem is then the host address offsets count
 * from; lim the highest offset of a whole warp's consecutive words.
 * Local memory and the console are never VRAM the check lets through:
 * untranslated, they are outside vram_flat; translated, the DTLB never
 * holds them (vx_mmu_untlb()), and only a miss looks further: a local
 * memory page goes into the memo like a translated one.
 */
#define MEM_SETUP(size)                                                 \
    uint32_t va0 = 0;                                                   \
    uint32_t bias = VX_BURST_MMU ? 0 : vx_vram_off(d->imm);             \
    const uint32_t fb = VX_BURST_MMU ? ~0xfffu | ((size) - 1)           \
                                     : vx_vram_fault_bits(vram_flat, size); \
    const uint32_t lim = VX_BURST_MMU ? lim4k : lim4;                   \
    uint8_t *mem = vram
/*
 * Translated: va0 and bias from @a, the lowest lane's x[rs1].  Only the
 * path that checks lane by lane calls this; the coalesced one
 * (CONTIG_WORDS) takes va0 from x[rs1] of lane 0, which it has loaded
 * anyway, and needs no bias: computing both up front, through lane0,
 * cost a translated 8-lane warp several percent of its speed.
 */
#define MEM_BASE(a)                                                     \
    do {                                                                \
        if (VX_BURST_MMU) {                                             \
            va0 = (a) + d->imm;                                         \
            bias = d->imm - (va0 & ~0xfffu);                            \
        }                                                               \
    } while (0)
#define MEM_PAGE(acc)                                                   \
    do {                                                                \
        if (VX_BURST_MMU) {                                             \
            struct vx_xlat *x_ = &w->xlat[(pc >> 2) % VX_XLAT_SLOTS];   \
            const uint32_t key_ = (va0 & ~0xfffu) | VX_XLAT_VALID |     \
                                  ((acc) == VX_ACC_STORE ? VX_XLAT_STORE : 0); \
            if (__builtin_expect(x_->key != key_, 0) &&                 \
                !vx_exec_xlat_fill(sim, w, x_, key_, va0, acc)) {       \
                goto slow;                                              \
            }                                                           \
            mem = x_->host;                                             \
        }                                                               \
    } while (0)
/*
 * A memo miss of MEM_PAGE: the DTLB's page, or a local memory page (the
 * DTLB never holds one), into memo slot @x; false if neither, for the
 * interpreter to sort out.  Out of line, as misses are rare: inlined in
 * every load and store of the template, it cost the translated
 * executor's loop a few percent.  vx_jit_translate.c's loads and stores use it too.
 */
__attribute__((noinline)) bool
vx_exec_xlat_fill(struct vx_sim *sim, struct vx_warp *w, struct vx_xlat *x,
                  uint32_t key, uint32_t va0, enum vx_acc acc)
{
    const struct vx_tlb_entry *e = vx_tlb_probe(sim, vx_mmu_asp(w->satp),
                                                va0, acc);
    uint8_t *h;

    if (e) {
        h = sim->vram + e->poff;
    } else if (vx_lmem_hit(va0)) {
        h = vx_lmem_host(sim, w->core, va0 & ~0xfffu);
    } else {
        return false;
    }
    *x = (struct vx_xlat){ key, h };
    return true;
}

/*
 * Every active lane's offset has no fault bits fb: one OR over the
 * lanes; else the slow path diagnoses the fault.
 */
#define ADDR_CHECK(size)                                                \
    do {                                                                \
        uint32_t bits = 0;                                              \
        if (VT) {                                                       \
            VEC acc0 = { 0 }, acc1 = { 0 };                             \
            VX_UNROLL for (uint32_t l = 0; l < VT; l += 8) {            \
                acc0 |= VLD(bp + l) + bias;                             \
                if (VL == 4) acc1 |= VLD(bp + l + 4) + bias;            \
            }                                                           \
            if (!VZERO((acc0 | acc1) & fb)) {                           \
                goto slow;                                              \
            }                                                           \
        } else {                                                        \
            VX_FOR_EACH_LANE(&w->tmask, l) {                            \
                bits |= bp[l] + bias;                                   \
            }                                                           \
        }                                                               \
        if (bits & fb) {                                                \
            goto slow;                                                  \
        }                                                               \
    } while (0)
/*
 * A full warp of words at consecutive addresses in VRAM: the coalesced
 * access, one block copy.  Sets o0 to lane 0's offset.
 */
#define CONTIG_WORDS()                                                  \
    ({                                                                  \
        uint32_t a0_ = bp[0];                                           \
        VEC e0_ = (VEC)VIOTA4 + a0_;                                    \
        VEC e1_ = e0_ + 16;                                             \
        VEC acc_ = { 0 };                                               \
        if (VX_BURST_MMU) {                                             \
            va0 = a0_ + d->imm;                                         \
            o0 = va0 & 0xfffu;                                          \
        } else {                                                        \
            o0 = a0_ + bias;                                            \
        }                                                               \
        VX_UNROLL for (uint32_t l = 0; l < VT; l += 8) {                \
            acc_ |= VLD(bp + l) ^ e0_;                                  \
            if (VL == 4) acc_ |= VLD(bp + l + 4) ^ e1_;                 \
            e0_ += 32;                                                  \
            e1_ += 32;                                                  \
        }                                                               \
        VZERO(acc_) && !(o0 & 3) && o0 <= lim;                          \
    })
/*
 * Each lane reads its base before writing its rd (rd may be rs1); lanes
 * of one address see one value (vx_coalesce.h): loaded once for all, or
 * once per distinct address where addresses may repeat; @f3 is the
 * load's funct3 (vx_lane_load()).
 */
#define LOAD(size, dst_, LD, f3)                                        \
    do {                                                                \
        const uint32_t *bp = X + d->rs1;                                \
        uint32_t *dst = (dst_) + d->rd;                                 \
        uint32_t o0;                                                    \
        MEM_SETUP(size);                                                \
        if ((size) == 4 && VT && CONTIG_WORDS()) {                      \
            const uint8_t *src;                                         \
            MEM_PAGE(VX_ACC_LOAD);                                      \
            src = mem + o0;                                             \
            VX_UNROLL for (uint32_t l = 0; l < VT; l += 8) {            \
                VST(dst + l, VLD(src + 4 * l));                         \
                if (VL == 4) VST(dst + l + 4, VLD(src + 4 * l + 16));   \
            }                                                           \
            pc += 4;                                                    \
            break;                                                      \
        }                                                               \
        MEM_BASE(bp[lane0]);                                            \
        ADDR_CHECK(size);                                               \
        MEM_PAGE(VX_ACC_LOAD);                                          \
        switch (vx_lanes_shape(bp, &w->tmask, T, VT != 0)) {            \
        case VX_LANES_UNIFORM:                                          \
            UNIFORM_TO(dst, vx_lane_load(mem + (uint32_t)(bp[lane0] + bias), \
                                         f3));                          \
            break;                                                      \
        case VX_LANES_MIXED:                                            \
            vx_load_mixed(dst, mem, bp, bias, &w->tmask, f3);           \
            break;                                                      \
        case VX_LANES_DISTINCT:                                         \
            if (VT) {                                                   \
                for (uint32_t l = 0; l < VT; l++) {                     \
                    dst[l] = LD(mem + (uint32_t)(bp[l] + bias));        \
                }                                                       \
            } else {                                                    \
                VX_FOR_EACH_LANE(&w->tmask, l) {                        \
                    dst[l] = LD(mem + (uint32_t)(bp[l] + bias));        \
                }                                                       \
            }                                                           \
            break;                                                      \
        }                                                               \
        pc += 4;                                                        \
    } while (0)
/* lanes in order: the highest lane wins where addresses overlap */
#define STORE(size, src_, ST)                                           \
    do {                                                                \
        const uint32_t *bp = X + d->rs1;                                \
        const uint32_t *src = (src_) + d->rs2;                          \
        uint32_t o0;                                                    \
        MEM_SETUP(size);                                                \
        if ((size) == 4 && VT && CONTIG_WORDS()) {                      \
            uint8_t *dst;                                               \
            MEM_PAGE(VX_ACC_STORE);                                     \
            dst = mem + o0;                                             \
            VX_UNROLL for (uint32_t l = 0; l < VT; l += 8) {            \
                VST(dst + 4 * l, VLD(src + l));                         \
                if (VL == 4) VST(dst + 4 * l + 16, VLD(src + l + 4));   \
            }                                                           \
            pc += 4;                                                    \
            break;                                                      \
        }                                                               \
        MEM_BASE(bp[lane0]);                                            \
        ADDR_CHECK(size);                                               \
        MEM_PAGE(VX_ACC_STORE);                                         \
        if (VT) {                                                       \
            for (uint32_t l = 0; l < VT; l++) {                         \
                ST(mem + (uint32_t)(bp[l] + bias), src[l]);             \
            }                                                           \
        } else {                                                        \
            VX_FOR_EACH_LANE(&w->tmask, l) {                            \
                ST(mem + (uint32_t)(bp[l] + bias), src[l]);             \
            }                                                           \
        }                                                               \
        pc += 4;                                                        \
    } while (0)
#define LD_B(p)     ((uint32_t)(int8_t)*(p))
#define LD_BU(p)    ((uint32_t)*(p))
#define LD_H(p)     ((uint32_t)(int16_t)ld16(p))
#define LD_HU(p)    ld16(p)
#define ST_B(p, v)  (*(p) = (uint8_t)(v))

/*
 * x86-64 hosts get a second copy of the executor for AVX2, chosen at run
 * time (VX_SIM_EXEC_AVX2, the best where the CPU has it): the lane loops
 * are most of a full warp's cost, and AVX2 halves their instructions.
 * The baseline copy (VX_SIM_EXEC_BURST) has 4-lane vectors whatever the
 * compiler flags, so that it is the same executor on every host and the
 * tests run it on AVX2 hosts too.  -DVX_EXEC_NO_AVX2 leaves the AVX2
 * copy out.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(VX_EXEC_NO_AVX2)
#define VX_EXEC_AVX2_COPY 1
#endif

/* One copy per vector width: untranslated, and translated launches. */
#define VL 4
#define VEC vx_u32x4
#define VECS vx_s32x4
#define VIOTA4 { 0, 4, 8, 12 }
#define VZERO(v) (!VOR(v))
#define VX_BURST_ATTR
#define VX_BURST_MMU    0
#define VX_BURST_FN     exec_burst_base
#include "vx_exec_burst.h"
#undef VX_BURST_MMU
#undef VX_BURST_FN
#define VX_BURST_MMU    1
#define VX_BURST_FN     exec_burst_base_mmu
#include "vx_exec_burst.h"
#undef VX_BURST_MMU
#undef VX_BURST_FN
#undef VL
#undef VEC
#undef VECS
#undef VIOTA4
#undef VZERO
#undef VX_BURST_ATTR

#ifdef VX_EXEC_AVX2_COPY
#define VL 8
#define VEC vx_u32x8
#define VECS vx_s32x8
#define VIOTA4 { 0, 4, 8, 12, 16, 20, 24, 28 }
#define VZERO(v) __builtin_ia32_ptestz256((vx_s64x4)(v), (vx_s64x4)(v))
#define VX_BURST_ATTR   __attribute__((target("avx2")))
#define VX_BURST_MMU    0
#define VX_BURST_FN     exec_burst_avx2
#include "vx_exec_burst.h"
#undef VX_BURST_MMU
#undef VX_BURST_FN
#define VX_BURST_MMU    1
#define VX_BURST_FN     exec_burst_avx2_mmu
#include "vx_exec_burst.h"
#undef VX_BURST_MMU
#undef VX_BURST_FN
#undef VL
#undef VEC
#undef VECS
#undef VIOTA4
#undef VZERO
#undef VX_BURST_ATTR
#endif

bool vx_exec_has_avx2(void)
{
#ifdef VX_EXEC_AVX2_COPY
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

enum vx_exec_result vx_exec_fast(struct vx_sim *sim, struct vx_warp *w,
                                 uint64_t max, uint64_t *used)
{
#ifdef VX_EXEC_AVX2_COPY
    /* the jit hands what it does not translate to the AVX2 copy */
    if (sim->exec == VX_SIM_EXEC_AVX2 || sim->exec == VX_SIM_EXEC_JIT) {
        return w->satp ? exec_burst_avx2_mmu(sim, w, max, used)
                       : exec_burst_avx2(sim, w, max, used);
    }
#endif
    return w->satp ? exec_burst_base_mmu(sim, w, max, used)
                   : exec_burst_base(sim, w, max, used);
}
