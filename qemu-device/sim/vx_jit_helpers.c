/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: the C helpers translated code calls
 * (vx_jit_translate.c's DOC block, "Loads and stores" and "Helpers"): a warp's load
 * or store the inline path does not take, a memo refill, and the
 * instructions the block hands to the interpreter or the host FPU.
 */
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "vx_coalesce.h"
#include "vx_fpu.h"
#include "vx_jit_internal.h"

/* Whether VRAM offsets @lo..@hi (inclusive) touch a page holding code. */
static bool codemap_range(const struct vx_jit_ctx *c, uint64_t lo,
                          uint64_t hi)
{
    for (uint64_t pg = lo >> 12; pg <= hi >> 12; pg++) {
        if (pg < c->codemap_pages && c->codemap[pg]) {
            return true;
        }
    }
    return false;
}

#define JIT_VLD(p)  _mm256_loadu_si256((const __m256i *)(const void *)(p))

/*
 * K_CALL: the interpreter runs m->insn at m->pc for the warp's lanes,
 * as the burst executor's slow path does; a fault it reported ends the
 * block (JIT_FAULT).
 */
uint32_t vx_jit_one(struct vx_jit_ctx *c, const struct jit_mem_op *m)
{
    struct vx_warp *w = c->w;
    uint64_t k = c->done + (m->pc - c->start) / 4;  /* retired before it */
    uint32_t pc = w->pc;

    /*
     * The warp as the burst executor's slow path leaves it for the
     * interpreter: PC and counters (the slot taken, not yet retired),
     * since a fault is reported in the call and the warp may be gone
     * after it; run_block() touches nothing after a JIT_FAULT.
     */
    w->pc = m->pc;
    w->cycle += k + 1;
    w->instret += k;
    c->r = vx_exec_one(c->sim, w, m->insn);
    if (c->r != VX_EXEC_OK) {
        return JIT_FAULT;
    }
    w->pc = pc;
    w->cycle -= k + 1;
    w->instret -= k;
    return JIT_END;
}

/*
 * Whether vx_jit_fp() may try @insn: fadd, fsub, fmul, fdiv and the fused
 * four, single precision, rounding to nearest even (static, or dynamic:
 * vx_jit_fp() looks at frm); the fused ones where the host has FMA.
 */
bool vx_jit_fp_fast(uint32_t insn)
{
    uint32_t opc = insn & 0x7f, rm = F3(insn);

    if (rm != 0 && rm != 7) {
        return false;
    }
    if (opc == 0x53) {
        return F7(insn) == 0x00 || F7(insn) == 0x04 || F7(insn) == 0x08 ||
               F7(insn) == 0x0c;
    }
#if defined(__x86_64__)
    return (opc == 0x43 || opc == 0x47 || opc == 0x4b || opc == 0x4f) &&
           ((insn >> 25) & 3) == 0 && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

#if defined(__x86_64__)
/*
 * MXCSR: all exceptions masked, round to nearest even, no FTZ/DAZ, flags
 * clear; the flags that send an operation back to the soft-float (IE,
 * DE, ZE, OE, UE: all but PE, inexact).
 */
#define JIT_MXCSR       0x1f80u
#define JIT_MXCSR_HARD  0x1fu

/*
 * One 8-lane step of the host FPU on a, b, c (the fused ones use all
 * three): the result, and the MXCSR flags it raised.  One asm statement
 * each, so that nothing the compiler schedules sits between setting the
 * control word, the operation and reading the flags.
 */
#define JIT_FP_STEP(insn_, r, a, b, c, fl)                              \
    do {                                                                \
        uint32_t in_ = JIT_MXCSR, out_;                                 \
        __m256 t_ = (c);                                                \
        __asm__ volatile("vldmxcsr %[in]\n\t" insn_ "\n\t"              \
                         "vstmxcsr %[out]"                              \
                         : [t] "+x"(t_), [out] "=m"(out_)               \
                         : [a] "x"(a), [b] "x"(b), [in] "m"(in_));       \
        (r) = t_;                                                       \
        (fl) |= out_;                                                   \
    } while (0)

/*
 * K_CALL for vx_jit_fp_fast() instructions: the host FPU on all lanes, 8 at a
 * time, where that gives what vx_fpu.c's soft-float gives.  With round
 * to nearest even and no flag but inexact raised, IEEE 754 arithmetic has
 * one result, the host's; any other flag (invalid, a denormal operand,
 * division by zero, overflow, underflow) or a NaN result (a NaN operand
 * raises nothing on x86 but RISC-V's result is the canonical NaN) hands
 * the instruction to the interpreter untouched (vx_jit_one()).  Inactive
 * lanes compute 1.0 op 1.0, which raises nothing.
 */
__attribute__((target("avx2,fma"))) uint32_t
vx_jit_fp(struct vx_jit_ctx *c, const struct jit_mem_op *m)
{
    struct vx_warp *w = c->w;
    const uint32_t insn = m->insn, T = c->sim->cfg.threads;
    const uint32_t opc = insn & 0x7f, f7 = F7(insn);
    const float *s1 = (const float *)(const void *)(w->f + RS1(insn) * T);
    const float *s2 = (const float *)(const void *)(w->f + RS2(insn) * T);
    const float *s3 = (const float *)(const void *)(w->f + (insn >> 27) * T);
    uint32_t *dst = w->f + RD(insn) * T;
    uint32_t res[VX_TMASK_WORDS * 32] __attribute__((aligned(32)));
    uint32_t fl = 0, saved = _mm_getcsr();
    const __m256 one = _mm256_set1_ps(1.0f);
    __m256i nan = _mm256_setzero_si256();

    if (F3(insn) == 7 && w->frm != 0) {
        return vx_jit_one(c, m);
    }
    for (uint32_t l = 0; l < T; l += 8) {
        __m256 mk = c->full ? _mm256_castsi256_ps(_mm256_set1_epi32(-1))
                            : _mm256_loadu_ps((const float *)
                                              (const void *)(c->mask + l));
        __m256 a = _mm256_blendv_ps(one, _mm256_loadu_ps(s1 + l), mk);
        __m256 b = _mm256_blendv_ps(one, _mm256_loadu_ps(s2 + l), mk);
        __m256 d = _mm256_blendv_ps(one, _mm256_loadu_ps(s3 + l), mk);
        __m256 r;

        switch (opc == 0x53 ? f7 : opc) {
        case 0x00: JIT_FP_STEP("vaddps %[b], %[a], %[t]", r, a, b, d, fl); break;
        case 0x04: JIT_FP_STEP("vsubps %[b], %[a], %[t]", r, a, b, d, fl); break;
        case 0x08: JIT_FP_STEP("vmulps %[b], %[a], %[t]", r, a, b, d, fl); break;
        case 0x0c: JIT_FP_STEP("vdivps %[b], %[a], %[t]", r, a, b, d, fl); break;
        /* t = c first: a * b + t, rounded once */
        case 0x43: JIT_FP_STEP("vfmadd231ps %[b], %[a], %[t]", r, a, b, d, fl); break;
        case 0x47: JIT_FP_STEP("vfmsub231ps %[b], %[a], %[t]", r, a, b, d, fl); break;
        case 0x4b: JIT_FP_STEP("vfnmadd231ps %[b], %[a], %[t]", r, a, b, d, fl); break;
        default: JIT_FP_STEP("vfnmsub231ps %[b], %[a], %[t]", r, a, b, d, fl); break;
        }
        nan = _mm256_or_si256(nan, _mm256_castps_si256(
                  _mm256_cmp_ps(r, r, _CMP_UNORD_Q)));
        _mm256_store_si256((__m256i *)(void *)(res + l),
                           _mm256_castps_si256(r));
    }
    _mm_setcsr(saved);
    if ((fl & JIT_MXCSR_HARD) || !_mm256_testz_si256(nan, nan)) {
        return vx_jit_one(c, m);
    }
    VX_FOR_EACH_LANE(&w->tmask, l) {
        dst[l] = res[l];
    }
    if (fl & 0x20) {
        w->fflags |= VX_FFLAG_NX;              /* PE: inexact */
    }
    return JIT_END;
}
#else
uint32_t vx_jit_fp(struct vx_jit_ctx *c, const struct jit_mem_op *m)
{
    return vx_jit_one(c, m);
}
#endif

/*
 * A memo miss of an inline access (translated launch) the inline DTLB
 * probe did not take: 0 once the memo slot of the instruction holds the
 * page of the warp's words (where lane 0's would be) from the DTLB or
 * local memory, for a store one without translated code, else 1 and
 * vx_jit_mem() is next.
 */
uint32_t vx_jit_memo(struct vx_jit_ctx *c, const struct jit_mem_op *m)
{
    struct vx_warp *w = c->w;
    uint32_t va0 = w->x[m->rs1 + c->lane0] - 4 * c->lane0 + m->imm;
    struct vx_xlat *xs = &w->xlat[(m->pc >> 2) % VX_XLAT_SLOTS];
    const uint32_t key = (va0 & ~0xfffu) | jit_xlat_flags(m->store);
    uint64_t off;

    if ((va0 & 3) ||
        !vx_exec_xlat_fill(c->sim, w, xs, key, va0,
                           m->store ? VX_ACC_STORE : VX_ACC_LOAD)) {
        return 1;
    }
    /* a store's slot says its page holds no code (JIT_XLAT_NOCODE) */
    off = (uint64_t)(xs->host - c->vram);
    if (m->store && xs->host >= c->vram && off < c->vram_size &&
        c->codemap[off >> 12]) {
        xs->key = 0;
        return 1;
    }
    return 0;
}

/*
 * A load or store of every active lane, called by translated code: the
 * burst executor's LOAD/STORE (vx_exec_fast.c) for one instruction.  It
 * checks every lane first and commits nothing unless all pass: else
 * JIT_BEFORE, and the interpreter runs the instruction (faults, a TLB
 * or memo miss, local memory, the console, accesses crossing a page).
 * A store into a page that holds translated code returns JIT_AFTER, so
 * that the block's remaining words are fetched and checked again.  The
 * checks take 8 lanes at a time with ctx.mask; word loads are gathers.
 */
#if defined(__x86_64__)
__attribute__((target("avx2"))) uint32_t
vx_jit_mem(struct vx_jit_ctx *c, const struct jit_mem_op *m)
{
    struct vx_sim *sim = c->sim;
    struct vx_warp *w = c->w;
    const uint32_t T = sim->cfg.threads, size = m->size;
    const uint32_t *bp = w->x + m->rs1;
    uint32_t bias, fb, va0 = 0, lo, hi;
    uint8_t *mem = sim->vram;
    const bool full = c->full;
    const __m256i ones = _mm256_set1_epi32(-1);
    __m256i acc = _mm256_setzero_si256(), dev = acc, vmax = acc, vmin = ones;
    __m256i iota, vbias;
    bool contig;

    if (!w->satp) {
        bias = vx_vram_off(m->imm);
        fb = vx_vram_fault_bits(sim->vram_flat, size);
    } else {
        va0 = bp[c->lane0] + m->imm;
        bias = m->imm - (va0 & ~0xfffu);
        fb = ~0xfffu | (size - 1);
    }
    vbias = _mm256_set1_epi32((int)bias);
    iota = _mm256_add_epi32(_mm256_set1_epi32((int)bp[0]),
                            _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28));
    for (uint32_t l = 0; l < T; l += 8) {
        __m256i mk = full ? ones : JIT_VLD(c->mask + l);
        __m256i b = JIT_VLD(bp + l), o = _mm256_add_epi32(b, vbias);

        acc = _mm256_or_si256(acc, _mm256_and_si256(o, mk));
        dev = _mm256_or_si256(dev, _mm256_xor_si256(b, iota));
        iota = _mm256_add_epi32(iota, _mm256_set1_epi32(32));
        vmin = _mm256_min_epu32(vmin, _mm256_or_si256(o,
                                _mm256_xor_si256(mk, ones)));
        vmax = _mm256_max_epu32(vmax, _mm256_and_si256(o, mk));
    }
    {
        uint32_t bits = 0, a[8], mn[8], mx[8];

        _mm256_storeu_si256((__m256i *)a, acc);
        _mm256_storeu_si256((__m256i *)mn, vmin);
        _mm256_storeu_si256((__m256i *)mx, vmax);
        lo = ~0u;
        hi = 0;
        for (int k = 0; k < 8; k++) {
            bits |= a[k];
            lo = mn[k] < lo ? mn[k] : lo;
            hi = mx[k] > hi ? mx[k] : hi;
        }
        if (bits & fb) {
            return JIT_BEFORE;
        }
        contig = full && size == 4 && _mm256_testz_si256(dev, dev);
    }
    if (w->satp) {
        struct vx_xlat *xs = &w->xlat[(m->pc >> 2) % VX_XLAT_SLOTS];
        const uint32_t key = (va0 & ~0xfffu) | VX_XLAT_VALID |
                             (m->store ? VX_XLAT_STORE : 0);

        if (xs->key != key &&
            !vx_exec_xlat_fill(sim, w, xs, key, va0,
                               m->store ? VX_ACC_STORE : VX_ACC_LOAD)) {
            return JIT_BEFORE;
        }
        mem = xs->host;
    }
#define JIT_LANES(body)                                                 \
    do {                                                                \
        if (full) {                                                     \
            for (uint32_t l = 0; l < T; l++) { body; }                  \
        } else {                                                        \
            VX_FOR_EACH_LANE(&w->tmask, l) { body; }                    \
        }                                                               \
    } while (0)
    if (!m->store) {
        uint32_t *dst = (m->fp ? w->f : w->x) + m->rd;
        /* the load's funct3: 0 lb, 1 lh, 2 lw, 4 lbu, 5 lhu */
        const uint32_t f3 = (size >> 1) | (!m->sign && size < 4 ? 4 : 0);

        if (m->rd0) {
            return JIT_END;                     /* x0: checked only */
        }
        if (contig) {
            memmove(dst, mem + lo, 4 * T);
            return JIT_END;
        }
        /* lanes of one address see one value (vx_coalesce.h) */
        if (lo == hi) {
            uint32_t v = vx_lane_load(mem + lo, f3);

            JIT_LANES(dst[l] = v);
            return JIT_END;
        }
        if (vx_lanes_shape(bp, &w->tmask, T, full) == VX_LANES_MIXED) {
            vx_load_mixed(dst, mem, bp, bias, &w->tmask, f3);
            return JIT_END;
        }
        if (size == 4 && full) {
            /*
             * Gathers (offsets are below 2 GiB: vram_flat); the lanes
             * a mask leaves out keep their rd.  Each chunk's bases are
             * read before its rd is written (rd may be rs1).
             */
            for (uint32_t l = 0; l < T; l += 8) {
                __m256i mk = full ? ones : JIT_VLD(c->mask + l);
                __m256i o = _mm256_add_epi32(JIT_VLD(bp + l), vbias);
                __m256i v = _mm256_mask_i32gather_epi32(JIT_VLD(dst + l),
                                                        (const int *)mem, o,
                                                        mk, 1);

                _mm256_storeu_si256((__m256i *)(void *)(dst + l), v);
            }
            return JIT_END;
        }
        /* each lane reads its base before writing its rd (rd may be rs1) */
        switch (size | (m->sign ? 8 : 0)) {
        case 4: JIT_LANES(dst[l] = ld32(mem + (uint32_t)(bp[l] + bias))); break;
        case 1: JIT_LANES(dst[l] = mem[(uint32_t)(bp[l] + bias)]); break;
        case 9:
            JIT_LANES(dst[l] = (uint32_t)(int8_t)mem[(uint32_t)(bp[l] + bias)]);
            break;
        case 2: JIT_LANES(dst[l] = ld16(mem + (uint32_t)(bp[l] + bias))); break;
        default:
            JIT_LANES(dst[l] = (uint32_t)(int16_t)ld16(mem +
                                                     (uint32_t)(bp[l] + bias)));
            break;
        }
        return JIT_END;
    }
    {
        const uint32_t *src = (m->fp ? w->f : w->x) + m->rs2;
        uint64_t base = (uint64_t)(mem - sim->vram);

        /* lanes in order: the highest lane wins where addresses overlap */
        if (contig) {
            memcpy(mem + lo, src, 4 * T);
        } else {
            switch (size) {
            case 1: JIT_LANES(mem[(uint32_t)(bp[l] + bias)] = (uint8_t)src[l]); break;
            case 2: JIT_LANES(st16(mem + (uint32_t)(bp[l] + bias), src[l])); break;
            default: JIT_LANES(st32(mem + (uint32_t)(bp[l] + bias), src[l])); break;
            }
        }
        /* local memory is never code: its base is outside VRAM */
        if (mem < sim->vram || mem >= sim->vram + sim->cfg.vram_size) {
            return JIT_END;
        }
        if (hi - lo < 16 * 4096) {
            return codemap_range(c, base + lo, base + hi + size - 1)
                   ? JIT_AFTER : JIT_END;
        }
        {
            bool code = false;

            JIT_LANES(code |= codemap_range(c,
                                            base + (uint32_t)(bp[l] + bias),
                                            base + (uint32_t)(bp[l] + bias) +
                                            size - 1));
            return code ? JIT_AFTER : JIT_END;
        }
    }
#undef JIT_LANES
}
#else
/* Never called: the executor is x86-64 only (vx_sim_exec_available()). */
uint32_t vx_jit_mem(struct vx_jit_ctx *c, const struct jit_mem_op *m)
{
    return JIT_BEFORE;
}
#endif

