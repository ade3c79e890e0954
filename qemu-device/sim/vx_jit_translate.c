/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: the translator of the translating executor
 * (VX_SIM_EXEC_JIT): a block of RISC-V instructions into x86-64 code, in
 * the arena vx_jit_dispatch.c keeps, through the encoder of
 * vx_jit_emit.h.  x86-64 hosts only.
 *
 * DOC: translation
 *
 * What is translated.  A block is the longest run, from a PC, within one
 * 4 KiB code page and at most VX_JIT_MAX_INSNS long, of: RV32I/M lane
 * arithmetic (op, op-imm, lui, auipc, mul); loads and stores (lb, lh,
 * lw, lbu, lhu, sb, sh, sw, flw, fsw); instructions that only compute on
 * registers, which the block hands to a helper (K_CALL: RV32F, mulh,
 * div, rem, Zicond); and, ending it, one branch, jal or jalr whose target
 * is aligned.  Everything else (atomics, CSRs, fences, ecall/ebreak, the
 * SIMT custom-0 operations, unknown opcodes) ends the block before it and
 * is executed by the burst executor (vx_exec_fast(), its AVX2 copy, which
 * matches the reference interpreter instruction for instruction) for as
 * many instructions as followed the block untranslated when it was
 * translated (its tail: only a budget, whatever the words are now), so
 * every fault, halt, barrier and warp switch happens there exactly as
 * without translation.
 *
 * Host code.  Each block becomes two x86-64 functions, one for a full
 * warp and one that blends every result with the thread mask
 * (vpblendvb, ctx.mask: ~0 per active lane), each in two copies (below).
 * A function runs the whole warp, instruction by instruction and, within
 * one, 8 lanes (one ymm) at a time, reading and writing the warp's
 * register file in memory (x[reg * threads + lane], base rbx); struct
 * vx_jit_ctx (rbp) holds what the code needs and where it says how it
 * ended.  Constants sit after the code, RIP-relative.  Because every
 * instruction completes for all lanes before the next starts, the code
 * can stop at any instruction boundary with the PC and the registers
 * exact.
 *
 * Loads and stores.  A word access at consecutive addresses (the
 * coalesced case) runs inline, as the burst executor's CONTIG_WORDS
 * path: lane l's address is lane 0's + 4 l (one vector compare; with
 * lanes masked off, for the active lanes, from the lowest one's, and
 * the whole span of T words checked, inactive lanes' words too), aligned,
 * and untranslated below vx_sim.vram_flat, translated inside the page the
 * warp's memo slot for this PC holds (vx_warp.xlat, the burst executor's,
 * kept in step with the TLBs the same way, its base in r12).  The slot's
 * key is compared with the address's page and low two bits XOR the
 * code's own flags (JIT_XLAT_OWN), so that a misaligned access misses
 * too (no slot holds the low bits it gives); a store's key carries
 * JIT_XLAT_NOCODE,
 * "the page held no translated code when filled", so the hit path skips
 * the codemap, and vx_jit_translate() makes every memo stale when a page gets
 * its first translation.  A miss probes the DTLB inline as
 * vx_tlb_probe() does and fills the slot as vx_exec_xlat_fill() does (a
 * store's, if the page holds no code), then goes on; a DTLB miss calls
 * vx_jit_memo() (local memory), which refills the slot or sends the
 * access to vx_jit_mem().  With lanes masked off, a store writes the
 * active lanes' words only, never the others' (not even with their old
 * value: a host vCPU may write VRAM through the BAR meanwhile, and a
 * read-modify-write would undo its store), and a load changes the active
 * lanes' rd only, merged into rd's old words and stored whole (a masked
 * store would not forward to the next read of rd): where the host has
 * AVX-512F/VL, vmovdqu32 with the mask in k1 (vx_jit_set_avx512() turns
 * that off: the differential test runs both); on AVX2, a load reads the
 * span whole (checked: its inactive words are in VRAM or the page, and
 * reading them has no effect) and blends, and a store writes a word per
 * active lane (code for one mask: "Masks", below; else a loop over the
 * mask's bits), as vpmaskmovd, which did both before, is microcode on
 * AMD Zen 1-3 (of a masked T = 32 loop turn, its loads and stores were
 * some 55% of the time on a Zen 3 host).  Anything else calls
 * vx_jit_mem(), the burst executor's LOAD/STORE in C for one instruction
 * (8-lane checks, gathers for word loads of full warps; lanes of one
 * address load it once, vx_coalesce.h: an inline access's addresses are
 * distinct, and a gather may read one address twice).  Both check
 * every lane before they touch anything; when a check fails (a fault, a
 * TLB miss, local memory, the console, an access crossing a page), the
 * block stops before the instruction (JIT_BEFORE), and the burst
 * executor runs it, faulting, walking or filling as the interpreter
 * does.  Branches and jumps follow the highest active lane, as
 * vx_exec.c's exec_branch() does, once a branch has checked, a vector
 * compare per 8 lanes, that its active lanes agree (emit_branch_check():
 * divergence is split/join's, which the interpreter runs; a branch whose
 * lanes disagree stops the block before it, and the interpreter stops
 * the card with DIVERGENT_BRANCH; with rtl_branch there is no check).
 *
 * Helpers.  A K_CALL instruction calls vx_jit_one(), which runs it with
 * vx_exec_one(), as the burst executor's slow path does, the warp's PC
 * and counters set as that path sets them; a fault it reports (an
 * illegal rounding mode, say) ends the block (JIT_FAULT) with the slot
 * taken and nothing retired, as there.  fadd, fsub, fmul, fdiv and the
 * fused four call vx_jit_fp() instead: the host FPU, 8 lanes at a time,
 * when the rounding is to nearest even and the host raised no flag but
 * inexact and produced no NaN (IEEE 754 then has one answer, and it is
 * the soft-float's); otherwise vx_jit_one() on the untouched registers.
 *
 * Registers in ymm.  With 8-lane warps, the registers an instruction
 * reads or writes stay in ymm8-15 for the instructions after it
 * (written through: memory always holds them, so an exit anywhere needs
 * no write-back), until a call clobbers them or code is entered by a
 * jump (the start of each copy).  With wider warps, a run of two or more
 * lane-arithmetic instructions (emit_run(), not in the countdown copy,
 * so nothing stops inside it) runs chunk-major: all of its instructions
 * on lanes 0-7, then on 8-15, ...; lanes never mix, so the result is
 * the instruction-major one.  Each chunk's registers live in ymm8-15,
 * read from memory once and written back once at the chunk's end (or
 * when evicted), blended with the mask there only (the chunk's mask
 * loaded once, into YM): inactive lanes compute garbage in between that
 * only their own discarded results see.
 *
 * Masks.  A block's second run in a row with lanes masked off, with
 * the same thread mask (AVX2 code only; not the first, so that a block
 * run once is not translated twice), gets it a third function, for that
 * mask alone (vx_jit_specialize(); the dispatch runs it while the warp's
 * mask is that one, the masked function for any mask otherwise; a flush
 * or a new translation drops it, and vx_jit_set_specialize() sets when,
 * or never, for tests).  Knowing each chunk's 8 mask bits, it emits
 * nothing for a chunk without an active lane, the full warp's code for
 * a chunk of them all, and for a mixed one blends with vpblendd's
 * immediate (no mask register, no vpblendvb) and stores the active
 * lanes' words with vmovd, vpextrd, vmovq, vpextrq or a 16-byte move,
 * no loop and no branch; the lowest and highest active lanes are
 * constants too.  A masked warp's loop (bench/sim_bench.c's divergent
 * row: the even lanes of 32) then costs about what the full warp's does
 * per turn.
 *
 * Loop mode.  A block that branches or jumps back to its own start,
 * calls no helper on its way (no K_CALL; only inline word accesses),
 * gets a third copy of its instructions for its full warp's function
 * and its code for a mask (with its own countdown copy) in which
 * registers live in host registers across loop turns (loop_plan()):
 *  - uniform registers (every active lane holds one value: a counter, a
 *    stride) and affine ones (active lane l holds lane 0's + 4 l: a
 *    coalesced access's base) are scalars in r8-r11, r13, r14.  Their
 *    classes come from the block's own writes: uniform from uniform
 *    operands (any lane arithmetic), affine from affine plus or minus
 *    uniform (addi, add, sub); a register read by a vector operation,
 *    loaded, stored, or compared by a branch whose lanes could then
 *    disagree, is a vector.  An access through an affine base needs no
 *    vector check of its addresses, only the scalar ones (aligned, in
 *    VRAM or the memo's page, no code there), and a branch on uniform
 *    registers (or beq/bne on two affine ones) no check that its lanes
 *    agree: by construction they do;
 *  - vectors stay in ymm across turns where the block's code leaves
 *    enough free (lm_residents(): T / 8 ymm each; up to 32 lanes), the
 *    rest in the register file as elsewhere.  A resident rd is loaded
 *    whole (its inactive lanes' garbage is never stored to VRAM, never
 *    mixes with an active lane, and is blended away at the write-back).
 * Loop mode is entered through a guard that checks, on the register
 * file, that the scalars are what their classes say, loads them and the
 * resident vectors (else the plain copy runs); it is left through
 * emit_mat(), which writes every scalar and resident vector the block
 * writes back to the register file, active lanes only, before any exit:
 * the loop's end, the budget's (into the countdown copy), a branch
 * whose lanes disagree, and any access the inline path does not take
 * (a fault, a TLB miss, code in the page...), which goes on in the
 * plain copy at that instruction.  So memory holds every register
 * wherever the code stops, as everywhere else.  A burst that starts
 * inside such a loop enters its function there (emit_mid(): the guard,
 * then the loop mode's countdown copy at that instruction), not a block
 * of its own (vx_jit_dispatch.c).
 *
 * Not done yet: a scalar path for 1-4 lanes, FP arithmetic in the
 * emitted code itself, keeping registers across calls, loop mode for
 * loops with helper calls or on warps wider than 32 lanes' vectors,
 * SIMT split/join in translated code (divergence runs in the burst
 * executor; the masked code runs both sides).
 */
#ifndef __x86_64__
#error "the translator emits x86-64 code: elsewhere build vx_jit_none.c"
#endif

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "vx_jit_emit.h"
#define POOL_MAX    (4 * VX_JIT_MAX_INSNS + 4)

struct xl {
    struct em e;
    uint32_t pool[POOL_MAX];    /* constants, written after the code */
    uint32_t npool;
    uint32_t nfix, maxfix;
    uint8_t **fix;              /* RIP-relative disp32s to patch ... */
    uint32_t *fixidx;           /* ... with these constants */
    uint32_t T;
    bool masked;
    /*
     * A masked function for one thread mask (vx_jit_specialize()): its
     * bits per chunk of 8 lanes, its lowest and highest lane.
     */
    bool spec;
    uint8_t smask[VX_TMASK_WORDS * 4];
    uint32_t lane0, lastl;
    bool avx512;                /* masked moves (k1) instead of blends */
    bool mmu;                   /* the block is of a translated launch */
    bool dvg;                   /* branches check their lanes agree */
    /*
     * 8-lane warps: the registers last read or written, in ymm8-15
     * (written through: memory always holds them too).  Valid along
     * straight-line code only: emptied where the code is entered from
     * elsewhere and wherever a call clobbers the ymm registers.
     */
    int8_t slot_of[32];         /* RISC-V register -> cache slot, -1 */
    int8_t reg_of[8];           /* cache slot -> register, -1 */
    uint32_t next_slot;
    /*
     * An ALU run of a wider warp (emit_run()): the cache holds chunk
     * run_c's registers, written back only when evicted or at the end of
     * the chunk (dirty), not through.
     */
    bool run;
    uint32_t run_c;
    bool dirty[8];
    const uint8_t *epi;         /* the function's return */
    const uint8_t *body;        /* its first instruction (self-loops) */
    const uint8_t *cbody;       /* the same in the countdown copy */
    uint8_t *cfix[4];           /* jumps to the countdown copy, to patch */
    uint32_t ncfix;
    const struct jit_mem_op *mops;
    uint32_t nmop;
    /*
     * Loop mode (loop_plan(), "Loop mode" in the DOC): the class of each
     * RISC-V register in it (LM_*), the general register holding a
     * scalar one, the registers the block writes (bits), whether the
     * block may have it (lm_ok), whether this function has it (lm) and
     * whether its code is being emitted (lmode).
     */
    bool lm_ok, lm, lmode;
    uint8_t cls[32];
    int8_t gpr[32];
    uint32_t lwritten, lused;
    bool cd;                    /* emitting a countdown copy */
    /*
     * Loop mode's resident vectors (lm_residents()): the ymm of each
     * chunk of each, -1 if in memory; res_on while emitting loop-mode
     * code, which then caches nothing else.
     */
    int8_t res_y[32][4];
    bool res_on;
    int dst;                    /* where emit_alu_c() put the result */
    /* each instruction's start in the plain copy and its countdown copy */
    const uint8_t *istart[VX_JIT_MAX_INSNS], *cistart[VX_JIT_MAX_INSNS];
    const uint8_t *lcistart[VX_JIT_MAX_INSNS];     /* loop mode's countdown */
    const uint8_t *mat;         /* the write-back subroutine */
    const uint8_t *lbody;       /* the loop-mode copy's first instruction */
    const uint8_t *lcbody;      /* the same in its countdown copy */
};

/*
 * Loop-mode classes: a vector (in the register file, as everywhere
 * else), uniform (every active lane holds the scalar), affine (active
 * lane l holds the scalar + 4 l: a coalesced access's base).
 */
enum { LM_V, LM_U, LM_A };

static uint32_t pool_add(struct xl *x, uint32_t v)
{
    for (uint32_t i = 0; i < x->npool; i++) {
        if (x->pool[i] == v) {
            return i;
        }
    }
    x->pool[x->npool] = v;
    return x->npool++;
}

/* vpbroadcastd ymm, [rip + constant v] */
static void bcast(struct xl *x, int y, uint32_t v)
{
    struct em *e = &x->e;

    vex(e, 2, 1, 0, 0x58);
    b1(e, (uint8_t)(0x05 | (y << 3)));
    if (x->nfix == x->maxfix) {
        abort();        /* vx_jit_translate() sized them wrong */
    }
    x->fix[x->nfix] = e->p;
    x->fixidx[x->nfix++] = pool_add(x, v);
    d32(e, 0);
}

static uint32_t xoff(const struct xl *x, uint32_t reg, uint32_t chunk)
{
    return reg * x->T * 4 + chunk * 32;
}

/*
 * The active lanes of chunk @c as bits, when the translator knows them:
 * 0xff in a full warp's function, the mask's byte in a specialized one
 * (0: nothing of the chunk is emitted); -1 in the masked function for
 * any mask (ctx.mask at run time).
 */
static int cmask(const struct xl *x, uint32_t c)
{
    return !x->masked ? 0xff : x->spec ? x->smask[c] : -1;
}

/*
 * vpblendd @dst, @src, [@base + @disp], ~@m: @src's dwords where @m has
 * their lane, the memory's (a register's old words) elsewhere.
 */
static void blend_old(struct em *e, int dst, int src, int base, uint32_t disp,
                      int m)
{
    vex(e, 3, 1, src, 0x02);
    modrm_mem(e, dst, base, disp);
    b1(e, (uint8_t)~m);
}

enum kind { K_NONE, K_ALU, K_MEM, K_CALL, K_END };

/* What the translator makes of @insn at @pc (see the DOC). */
static enum kind classify(uint32_t insn, uint32_t pc)
{
    uint32_t f3 = F3(insn), f7 = F7(insn);

    switch (insn & 0x7f) {
    case 0x37:
    case 0x17:
        return K_ALU;
    case 0x13:
        if (f3 == 1) {
            return f7 == 0 ? K_ALU : K_NONE;
        }
        if (f3 == 5) {
            return f7 == 0 || f7 == 0x20 ? K_ALU : K_NONE;
        }
        return K_ALU;
    case 0x33:
        if (f7 == 0) {
            return K_ALU;
        }
        if (f7 == 0x20) {
            return f3 == 0 || f3 == 5 ? K_ALU : K_NONE;
        }
        if (f7 == 1) {
            return f3 == 0 ? K_ALU : K_CALL;    /* mul; mulh..remu */
        }
        return f7 == 7 && (f3 == 5 || f3 == 7) ? K_CALL : K_NONE;  /* czero */
    case 0x53:                  /* OP-FP */
    case 0x43:                  /* fmadd, fmsub, fnmsub, fnmadd */
    case 0x47:
    case 0x4b:
    case 0x4f:
        return K_CALL;
    case 0x03:
        return f3 == 3 || f3 > 5 ? K_NONE : K_MEM;
    case 0x23:
        return f3 > 2 ? K_NONE : K_MEM;
    case 0x07:
    case 0x27:
        return f3 == 2 ? K_MEM : K_NONE;
    case 0x63:
        /* a misaligned target faults on the jump: the interpreter's */
        return f3 == 2 || f3 == 3 || ((pc + imm_b(insn)) & 3) ? K_NONE
                                                             : K_END;
    case 0x6f:
        return (pc + imm_j(insn)) & 3 ? K_NONE : K_END;
    case 0x67:
        return f3 == 0 ? K_END : K_NONE;
    }
    return K_NONE;
}

/*
 * Whether the burst after a block stops after @insn: a control transfer
 * (branch, jump, system, the SIMT custom-0 ops), so that the code it goes
 * to runs translated.
 */
static bool ends_tail(uint32_t insn)
{
    switch (insn & 0x7f) {
    case 0x63:
    case 0x6f:
    case 0x67:
    case 0x73:
    case VX_OPCODE_CUSTOM0:
        return true;
    }
    return false;
}

static void cache_clear(struct xl *x)
{
    memset(x->slot_of, -1, sizeof(x->slot_of));
    memset(x->reg_of, -1, sizeof(x->reg_of));
    memset(x->dirty, 0, sizeof(x->dirty));
}

static uint32_t xoff(const struct xl *x, uint32_t reg, uint32_t chunk);

/*
 * An ALU run's dirty slot @k to memory (chunk run_c), blended with the
 * mask where lanes are inactive (their words in the slot are garbage:
 * lanes never mix, so only their own results depend on them).  YT and
 * YM only: YA may hold a result, YI, YS and Y31 constants.
 */
static void cache_writeback(struct xl *x, int k)
{
    struct em *e = &x->e;
    uint32_t off = xoff(x, (uint32_t)x->reg_of[k], x->run_c);
    int m;

    if (!x->dirty[k]) {
        return;
    }
    x->dirty[k] = false;
    m = cmask(x, x->run_c);
    if (m == 0xff) {
        st(e, 8 + k, RBX, off);
        return;
    }
    if (m >= 0) {
        blend_old(e, YT, 8 + k, RBX, off, m);
        st(e, YT, RBX, off);
        return;
    }
    /* YM: the chunk's mask, loaded at its start (emit_run()) */
    ld(e, YT, RBX, off);
    vex(e, 3, 1, YT, 0x4c);                     /* vpblendvb YT, YT, slot */
    modrm_rr(e, YT, 8 + k);
    b1(e, YM << 4);
    st(e, YT, RBX, off);
}

/* A slot for @reg, not @keep (an operand in use), evicting another. */
static int cache_take(struct xl *x, uint32_t reg, int keep)
{
    int k = (int)(x->next_slot++ % 8);

    if (k == keep) {
        k = (int)(x->next_slot++ % 8);
    }
    if (x->reg_of[k] >= 0) {
        cache_writeback(x, k);
        x->slot_of[x->reg_of[k]] = -1;
    }
    x->reg_of[k] = (int8_t)reg;
    x->slot_of[reg] = (int8_t)k;
    return k;
}

/*
 * The ymm holding x[@reg] of chunk @c: a cache register, or @tmp loaded
 * from memory (warps wider than 8 lanes cache nothing).  @keep: a cache
 * register the instruction reads already, not to be evicted.
 */
static int get_reg(struct xl *x, uint32_t reg, uint32_t c, int tmp, int keep)
{
    int k;

    if (x->res_on && x->res_y[reg][0] >= 0) {
        return x->res_y[reg][c];
    }
    if ((x->T != 8 && !x->run) || x->res_on) {
        ld(&x->e, tmp, RBX, xoff(x, reg, c));
        return tmp;
    }
    if (x->slot_of[reg] >= 0) {
        return 8 + x->slot_of[reg];
    }
    k = cache_take(x, reg, keep >= 8 ? keep - 8 : -1);
    ld(&x->e, 8 + k, RBX, xoff(x, reg, c));
    return 8 + k;
}

/* YA -> rd of chunk @c, blended with the mask where lanes are inactive */
static void put_rd(struct xl *x, uint32_t rd, uint32_t c)
{
    struct em *e = &x->e;
    int m;

    if (x->run) {
        /* into rd's slot, to memory at the chunk's end */
        int k = x->slot_of[rd] >= 0 ? x->slot_of[rd] : cache_take(x, rd, -1);

        vex(e, 1, 1, 0, 0x6f);                  /* vmovdqa ymm8+k, YA */
        modrm_rr(e, 8 + k, YA);
        x->dirty[k] = true;
        return;
    }

    m = cmask(x, c);
    if (m == 0) {
        return;                                 /* no lane of the chunk */
    }
    if (x->res_on && x->res_y[rd][0] >= 0) {
        /* inactive lanes' garbage: the write-back blends (emit_mat()) */
        if (x->res_y[rd][c] != x->dst) {
            vex(e, 1, 1, 0, 0x6f);              /* vmovdqa ymm, YA */
            modrm_rr(e, x->res_y[rd][c], YA);
        }
        return;
    }
    if (m > 0 && m != 0xff) {
        blend_old(e, YA, YA, RBX, xoff(x, rd, c), m);
    } else if (m < 0) {
        ld(e, YM, RBP, CTX_MASK + 32 * c);
        ld(e, YT, RBX, xoff(x, rd, c));
        vex(e, 3, 1, YT, 0x4c);                 /* vpblendvb */
        modrm_rr(e, YA, YA);
        b1(e, YM << 4);
    }
    st(e, YA, RBX, xoff(x, rd, c));
    if (x->T == 8 && !x->res_on) {
        int k = x->slot_of[rd] >= 0 ? x->slot_of[rd] : cache_take(x, rd, -1);

        vex(e, 1, 1, 0, 0x6f);                  /* vmovdqa ymm8+k, YA */
        modrm_rr(e, 8 + k, YA);
    }
}

/* every active lane's rd <- v, chunks @c0 .. @c1 - 1 */
static void put_uniform_c(struct xl *x, uint32_t rd, uint32_t v, uint32_t c0,
                          uint32_t c1)
{
    if (rd == 0) {
        return;
    }
    for (uint32_t c = c0; c < c1; c++) {
        if (cmask(x, c) == 0) {
            continue;
        }
        if (c == c0 || x->masked) {
            bcast(x, YA, v);            /* a blend overwrites it */
        }
        x->dst = YA;
        put_rd(x, rd, c);
    }
}

static void put_uniform(struct xl *x, uint32_t rd, uint32_t v)
{
    put_uniform_c(x, rd, v, 0, x->T / 8);
}

/*
 * Host code for one lane-arithmetic @insn at @pc, for chunks @c0 .. @c1 - 1
 * (all of them, or one in an ALU run).
 */
static void emit_alu_c(struct xl *x, uint32_t insn, uint32_t pc, uint32_t c0,
                       uint32_t c1)
{
    struct em *e = &x->e;
    uint32_t rd = RD(insn), f3 = F3(insn), f7 = F7(insn);
    uint32_t opc = insn & 0x7f, rs1 = RS1(insn), rs2 = RS2(insn);
    uint32_t imm = imm_i(insn);

    if (rd == 0) {
        return;                                 /* nop, hint */
    }
    if (opc == 0x37 || opc == 0x17) {
        put_uniform_c(x, rd, (insn & 0xfffff000u) + (opc == 0x17 ? pc : 0),
                      c0, c1);
        return;
    }
    /* constants once per instruction */
    if (opc == 0x13) {
        if (f3 == 3) {
            bcast(x, YI, imm ^ 0x80000000u);
            bcast(x, YS, 0x80000000u);
        } else if (f3 != 1 && f3 != 5) {
            bcast(x, YI, imm);
        }
    } else if (f7 != 1) {
        if (f3 == 1 || f3 == 5) {
            bcast(x, Y31, 31);
        } else if (f3 == 3) {
            bcast(x, YS, 0x80000000u);
        }
    }
    for (uint32_t c = c0; c < c1; c++) {
        int a, b, d = YA;

        if (cmask(x, c) == 0) {
            continue;                           /* no lane of the chunk */
        }
        a = get_reg(x, rs1, c, YA, -1);
        if (x->res_on && x->res_y[rd][0] >= 0 && f3 != 2 && f3 != 3) {
            d = x->res_y[rd][c];    /* one operation: straight into rd */
        }
        x->dst = d;

        if (opc == 0x13) {
            switch (f3) {
            case 0: op3(e, 1, 0xfe, d, a, YI); break;       /* vpaddd */
            case 1: shift_imm(e, 6, d, a, imm & 31); break;
            case 2:
                op3(e, 1, 0x66, YA, YI, a);     /* vpcmpgtd: imm > a */
                shift_imm(e, 2, YA, YA, 31);
                break;
            case 3:
                op3(e, 1, 0xef, YA, a, YS);
                op3(e, 1, 0x66, YA, YI, YA);
                shift_imm(e, 2, YA, YA, 31);
                break;
            case 4: op3(e, 1, 0xef, d, a, YI); break;       /* vpxor */
            case 5: shift_imm(e, f7 ? 4 : 2, d, a, imm & 31); break;
            case 6: op3(e, 1, 0xeb, d, a, YI); break;       /* vpor */
            default: op3(e, 1, 0xdb, d, a, YI); break;      /* vpand */
            }
        } else {
            b = get_reg(x, rs2, c, YB, a);
            if (f7 == 1) {
                op3(e, 2, 0x40, d, a, b);                   /* vpmulld */
            } else {
                switch (f3) {
                case 0: op3(e, 1, f7 ? 0xfa : 0xfe, d, a, b); break;
                case 1:
                case 5:
                    op3(e, 1, 0xdb, YB, b, Y31);            /* count & 31 */
                    op3(e, 2, f3 == 1 ? 0x47 : f7 ? 0x46 : 0x45, d, a, YB);
                    break;
                case 2:
                    op3(e, 1, 0x66, YA, b, a);              /* b > a */
                    shift_imm(e, 2, YA, YA, 31);
                    break;
                case 3:
                    op3(e, 1, 0xef, YA, a, YS);
                    op3(e, 1, 0xef, YB, b, YS);
                    op3(e, 1, 0x66, YA, YB, YA);
                    shift_imm(e, 2, YA, YA, 31);
                    break;
                case 4: op3(e, 1, 0xef, d, a, b); break;
                case 6: op3(e, 1, 0xeb, d, a, b); break;
                default: op3(e, 1, 0xdb, d, a, b); break;
                }
            }
        }
        put_rd(x, rd, c);
    }
}

static void emit_alu(struct xl *x, uint32_t insn, uint32_t pc)
{
    emit_alu_c(x, insn, pc, 0, x->T / 8);
}

/*
 * @n >= 2 lane-arithmetic instructions from @pc of a warp wider than 8
 * lanes, chunk-major: chunk 0 of all of them, then chunk 1, ...  Lanes
 * never mix in lane arithmetic, so this computes what instruction-major
 * order does, and nothing can stop the run in between (only the
 * countdown copy stops between instructions, and it does not use runs).
 * Each chunk keeps its registers in ymm8-15, reads each from memory
 * once and writes each it changed once, blended there with the mask.
 */
static void emit_run(struct xl *x, const uint32_t *words, uint32_t n,
                     uint32_t pc)
{
    cache_clear(x);
    x->run = true;
    for (uint32_t c = 0; c < x->T / 8; c++) {
        if (cmask(x, c) == 0) {
            continue;                           /* no lane of the chunk */
        }
        x->run_c = c;
        if (cmask(x, c) < 0) {
            /* the chunk's mask, for every write-back (YM stays) */
            ld(&x->e, YM, RBP, CTX_MASK + 32 * c);
        }
        for (uint32_t i = 0; i < n; i++) {
            emit_alu_c(x, words[i], pc + 4 * i, c, c + 1);
        }
        for (int k = 0; k < 8; k++) {
            cache_writeback(x, k);
        }
        cache_clear(x);
    }
    x->run = false;
}

/* ------------------------------------------------------- loop mode */

/* The general registers loop mode keeps scalars in (r13, r14 pushed). */
static const int8_t lm_gprs[] = { 8, 9, 10, 11, 13, 14 };
#define LM_GPRS     ((int)sizeof(lm_gprs))
/* loop mode's guard and write-back, at most (emit_guard(), emit_mat()) */
#define LM_BYTES(T) (3 * LM_GPRS * (64 + 64 * (T) / 8) + \
                     8 * VX_JIT_MAX_INSNS + 128)

static bool lm_u(const struct xl *x, uint32_t r)
{
    return r == 0 || x->cls[r] == LM_U;
}

static bool lm_a(const struct xl *x, uint32_t r)
{
    return r != 0 && x->cls[r] == LM_A;
}

/* Whether @insn (lane arithmetic) runs on scalars in loop mode. */
static bool lm_scalar(const struct xl *x, uint32_t insn)
{
    return RD(insn) != 0 && x->cls[RD(insn)] != LM_V;
}

/* @r becomes a vector (the register file's, as outside loop mode). */
static bool lm_demote(struct xl *x, uint32_t r)
{
    if (r == 0 || x->cls[r] == LM_V) {
        return false;
    }
    x->cls[r] = LM_V;
    return true;
}

/*
 * Whether lane arithmetic @insn keeps rd in its class: a uniform rd
 * from uniform operands (any operation: each lane computes the same);
 * an affine rd from an affine operand plus or minus a uniform one (the
 * 4 l of every lane carries through; addi, add, sub only).
 */
static bool lm_alu_ok(const struct xl *x, uint32_t insn)
{
    uint32_t opc = insn & 0x7f, rs1 = RS1(insn), rs2 = RS2(insn);
    uint32_t rd = RD(insn);

    if (x->cls[rd] == LM_U) {
        if (opc == 0x37 || opc == 0x17) {
            return true;
        }
        return lm_u(x, rs1) && (opc == 0x13 || lm_u(x, rs2));
    }
    if (opc == 0x13) {
        return F3(insn) == 0 && lm_a(x, rs1);
    }
    if (opc != 0x33 || F3(insn) != 0) {
        return false;
    }
    if (F7(insn) == 0) {
        return (lm_a(x, rs1) && lm_u(x, rs2)) || (lm_u(x, rs1) && lm_a(x, rs2));
    }
    return F7(insn) == 0x20 && lm_a(x, rs1) && lm_u(x, rs2);
}

/* One pass of loop_plan()'s rules over the block: whether any changed. */
static bool lm_pass(struct xl *x, const uint32_t *words, uint32_t len,
                    uint32_t pc)
{
    bool ch = false;

    for (uint32_t i = 0; i < len; i++) {
        uint32_t insn = words[i], opc = insn & 0x7f;
        uint32_t rd = RD(insn), rs1 = RS1(insn), rs2 = RS2(insn);

        switch (classify(insn, pc + 4 * i)) {
        case K_MEM:
            /* a uniform base is never coalesced: the vector path */
            if (x->cls[rs1] == LM_U) {
                ch |= lm_demote(x, rs1);
            }
            if (opc == 0x03) {
                ch |= lm_demote(x, rd);         /* loaded: a vector */
            } else if (opc == 0x23) {
                ch |= lm_demote(x, rs2);        /* stored from memory */
            }
            break;
        case K_ALU:
            if (rd == 0) {
                break;                          /* nop */
            }
            if (x->cls[rd] != LM_V && !lm_alu_ok(x, insn)) {
                ch |= lm_demote(x, rd);
            }
            if (x->cls[rd] == LM_V && opc != 0x37 && opc != 0x17) {
                /* a vector operation reads its operands from memory */
                ch |= lm_demote(x, rs1);
                if (opc == 0x33) {
                    ch |= lm_demote(x, rs2);
                }
            }
            break;
        default:                                /* the branch or jal */
            if (opc == 0x6f) {
                ch |= lm_demote(x, rd);
            } else if (!(lm_u(x, rs1) && lm_u(x, rs2)) &&
                       !(lm_a(x, rs1) && lm_a(x, rs2) && F3(insn) < 2)) {
                /* lanes agree on it only so; else the vector check */
                ch |= lm_demote(x, rs1);
                ch |= lm_demote(x, rs2);
            }
            break;
        }
    }
    return ch;
}

static void lm_residents(struct xl *x, const uint32_t *words, uint32_t len,
                         uint32_t pc);

/*
 * Whether the block (@len words from @pc) may run in loop mode, and its
 * registers' classes (x->cls, x->gpr): it loops back to its first
 * instruction, calls no helper on its way (no K_CALL, only inline word
 * accesses), and some register is a scalar.  The classes start
 * optimistic (bases affine, the rest uniform) and the rules demote to
 * vectors until they hold; then registers past LM_GPRS are demoted too.
 */
static bool loop_plan(struct xl *x, const uint32_t *words, uint32_t len,
                      uint32_t pc, const struct jit_mem_op *mops)
{
    uint32_t last = words[len - 1], lpc = pc + 4 * (len - 1), m = 0;
    int n;

    x->lwritten = x->lused = 0;
    if (!((last & 0x7f) == 0x63 && lpc + imm_b(last) == pc) &&
        !((last & 0x7f) == 0x6f && lpc + imm_j(last) == pc)) {
        return false;
    }
    memset(x->cls, LM_U, sizeof(x->cls));
    for (uint32_t i = 0; i < len; i++) {
        uint32_t insn = words[i], opc = insn & 0x7f;
        enum kind k = classify(insn, pc + 4 * i);

        if (k == K_CALL) {
            return false;
        }
        if (k == K_MEM) {
            if (mops[m].size != 4 || mops[m].rd0) {
                return false;           /* vx_jit_mem(): a helper */
            }
            m++;
            x->cls[RS1(insn)] = LM_A;
            x->lused |= 1u << RS1(insn);
            if (opc == 0x03) {
                x->lused |= 1u << RD(insn);
                x->lwritten |= 1u << RD(insn);
            } else if (opc == 0x23) {
                x->lused |= 1u << RS2(insn);
            }
            continue;
        }
        if (opc != 0x37 && opc != 0x17 && opc != 0x6f) {
            x->lused |= 1u << RS1(insn);
        }
        if (opc == 0x33 || opc == 0x63) {
            x->lused |= 1u << RS2(insn);
        }
        if (opc != 0x63) {
            x->lused |= 1u << RD(insn);
            x->lwritten |= 1u << RD(insn);
        }
    }
    x->cls[0] = LM_U;
    if ((last & 0x7f) == 0x63 && F3(last) < 2) {
        /* bne a1, a5: an end pointer is as affine as the pointer */
        if (x->cls[RS1(last)] == LM_A && RS2(last)) {
            x->cls[RS2(last)] = LM_A;
        } else if (x->cls[RS2(last)] == LM_A && RS1(last)) {
            x->cls[RS1(last)] = LM_A;
        }
    }
    for (;;) {
        int hi = 0;

        while (lm_pass(x, words, len, pc)) {
        }
        n = 0;
        for (int r = 1; r < 32; r++) {
            if (x->lused >> r & 1 && x->cls[r] != LM_V) {
                n++;
                hi = r;
            }
        }
        if (n <= LM_GPRS) {
            break;
        }
        lm_demote(x, (uint32_t)hi);     /* too many: the rules again */
    }
    n = 0;
    for (uint32_t r = 0; r < 32; r++) {
        x->gpr[r] = -1;
        if (r && x->lused >> r & 1 && x->cls[r] != LM_V) {
            x->gpr[r] = lm_gprs[n++];
        }
    }
    lm_residents(x, words, len, pc);
    return n > 0;
}

/*
 * Loop mode's resident vectors: of the vector registers the block uses
 * (not a vector base, which the contiguity check reads from memory, nor
 * a vector branch's operand), the most used, in ymm for the whole loop
 * (loaded by the guard, written back by emit_mat()), as many as fit in
 * the ymm its code leaves free (YA and YB always; YT, Y31, YS, YI where
 * no instruction needs them): T / 8 each, so up to 14 at 8 lanes, 3 at
 * 32 (bench/sim_bench.c's loop: all of its vectors), none wider.
 */
static void lm_residents(struct xl *x, const uint32_t *words, uint32_t len,
                         uint32_t pc)
{
    uint32_t uses[32] = { 0 }, last = words[len - 1], per = x->T / 8;
    uint32_t busy = 1u << YA | 1u << YB, nfree = 0;
    int8_t free[16];

    memset(x->res_y, -1, sizeof(x->res_y));
    if (per > 4) {
        return;
    }
    for (uint32_t i = 0; i < len; i++) {
        uint32_t insn = words[i], opc = insn & 0x7f, f3 = F3(insn);

        switch (classify(insn, pc + 4 * i)) {
        case K_MEM:
            if (opc == 0x03) {
                uses[RD(insn)]++;
            } else if (opc == 0x23) {
                uses[RS2(insn)]++;
            }
            if (x->cls[RS1(insn)] != LM_A) {
                busy |= 1u << YT;               /* the contiguity check */
            }
            break;
        case K_ALU:
            uses[RD(insn)]++;
            if (opc == 0x13 || opc == 0x33) {
                uses[RS1(insn)]++;
            }
            if (opc == 0x33) {
                uses[RS2(insn)]++;
            }
            /* the constants emit_alu_c() broadcasts */
            if (opc == 0x13 && f3 != 1 && f3 != 5) {
                busy |= 1u << YI | (f3 == 3 ? 1u << YS : 0);
            } else if (opc == 0x33 && F7(insn) != 1) {
                busy |= f3 == 1 || f3 == 5 ? 1u << Y31 :
                        f3 == 3 ? 1u << YS : 0;
            }
            break;
        default:
            if ((insn & 0x7f) == 0x63 && f3 >= 6) {
                busy |= 1u << YS;               /* emit_branch_check() */
            }
            break;
        }
    }
    for (uint32_t i = 0; i < len; i++) {
        if (classify(words[i], pc + 4 * i) == K_MEM) {
            uses[RS1(words[i])] = 0;            /* a base */
        }
    }
    if ((last & 0x7f) == 0x63) {
        uses[RS1(last)] = uses[RS2(last)] = 0;
    }
    uses[0] = 0;
    for (int y = 0; y < 16; y++) {
        if (!(busy >> y & 1)) {
            free[nfree++] = (int8_t)y;
        }
    }
    while (nfree >= per) {
        uint32_t best = 0;

        for (uint32_t r = 1; r < 32; r++) {
            if (x->cls[r] == LM_V && x->res_y[r][0] < 0 &&
                uses[r] > uses[best]) {
                best = r;
            }
        }
        if (!best) {
            break;
        }
        for (uint32_t c = 0; c < per; c++) {
            x->res_y[best][c] = free[--nfree];
        }
    }
}

/* mov @dst, RISC-V register @r's scalar (x0: 0) */
static void lm_src(struct em *e, const struct xl *x, int dst, uint32_t r)
{
    if (r == 0) {
        gop(e, 0x31, dst, dst);                 /* xor dst, dst */
        return;
    }
    gop(e, 0x89, dst, x->gpr[r]);
}

/*
 * Lane arithmetic @insn at @pc on scalars (loop mode): eax = rs1 op
 * rs2 or imm, into rd's general register.  An affine register's scalar
 * is its lane 0's value, so addi, add and sub on it are the same.
 */
static void emit_scalar(struct xl *x, uint32_t insn, uint32_t pc)
{
    static const uint8_t rr[8] = { 0x01, 0, 0, 0, 0x31, 0, 0x09, 0x21 };
    static const uint8_t ri[8] = { 0, 0, 0, 0, 6, 0, 1, 4 };
    struct em *e = &x->e;
    uint32_t opc = insn & 0x7f, f3 = F3(insn), f7 = F7(insn);
    uint32_t imm = imm_i(insn);

    if (opc == 0x37 || opc == 0x17) {
        b1(e, 0xb8);                            /* mov eax, imm32 */
        d32(e, (insn & 0xfffff000u) + (opc == 0x17 ? pc : 0));
        gop(e, 0x89, x->gpr[RD(insn)], RAX);
        return;
    }
    if (RD(insn) == RS1(insn) && (f3 == 0 || f3 >= 4) && f3 != 5 &&
        !(opc == 0x33 && (f7 == 1 || RS2(insn) == 0))) {
        /* rd op= rs2 or imm, in place (add, sub, xor, or, and) */
        if (opc == 0x13) {
            gopi(e, ri[f3], x->gpr[RD(insn)], imm);
        } else {
            gop(e, f3 == 0 && f7 ? 0x29 : rr[f3], x->gpr[RD(insn)],
                x->gpr[RS2(insn)]);
        }
        return;
    }
    lm_src(e, x, RAX, RS1(insn));
    if (opc == 0x33) {
        lm_src(e, x, RCX, RS2(insn));
    }
    if (opc == 0x33 && f7 == 1) {
        bytes(e, "\x0f\xaf\xc1", 3);            /* imul eax, ecx */
    } else if (f3 == 1 || f3 == 5) {
        int ext = f3 == 1 ? 4 : f7 ? 7 : 5;     /* shl, sar, shr */

        gshift(e, ext, RAX, opc == 0x13 ? (int)(imm & 31) : -1);
    } else if (f3 == 2 || f3 == 3) {
        if (opc == 0x13) {
            gopi(e, 7, RAX, imm);               /* cmp eax, imm */
        } else {
            gop(e, 0x39, RAX, RCX);             /* cmp eax, ecx */
        }
        b1(e, 0x0f);                            /* setl / setb al */
        b1(e, f3 == 2 ? 0x9c : 0x92);
        b1(e, 0xc0);
        bytes(e, "\x0f\xb6\xc0", 3);            /* movzx eax, al */
    } else if (opc == 0x13) {
        gopi(e, ri[f3], RAX, imm);
    } else {
        gop(e, f3 == 0 && f7 ? 0x29 : rr[f3], RAX, RCX);
    }
    gop(e, 0x89, x->gpr[RD(insn)], RAX);
}

/*
 * The write-back subroutine (call; no stack use, rax kept; ymm lost, so
 * only where loop mode is left): every resident vector and scalar the
 * block writes to the register file, its active lanes only (a scalar
 * uniform: itself in every lane; affine: + 4 l), so that memory holds
 * the warp's registers wherever the code stops.
 */
static void emit_mat(struct xl *x)
{
    struct em *e = &x->e;

    x->mat = e->p;
    for (uint32_t r = 1; r < 32; r++) {
        if (x->res_y[r][0] < 0 || !(x->lwritten >> r & 1)) {
            continue;
        }
        for (uint32_t c = 0; c < x->T / 8; c++) {
            int cm = cmask(x, c), y = x->res_y[r][c];

            if (cm == 0) {
                continue;
            }
            if (cm != 0xff) {
                blend_old(e, YA, y, RBX, xoff(x, r, c), cm);
                y = YA;
            }
            st(e, y, RBX, xoff(x, r, c));
        }
    }
    for (uint32_t r = 1; r < 32; r++) {
        if (x->gpr[r] < 0 || !(x->lwritten >> r & 1)) {
            continue;
        }
        vex128(e, 1, 1, 0, 0x6e);               /* vmovd xmm0, r32 */
        modrm_rr(e, YA, x->gpr[r]);
        vex(e, 2, 1, 0, 0x58);                  /* vpbroadcastd YA, xmm0 */
        modrm_rr(e, YA, YA);
        for (uint32_t c = 0; c < x->T / 8; c++) {
            int cm = cmask(x, c), y = YA;

            if (cm == 0) {
                continue;
            }
            if (x->cls[r] == LM_A) {
                vex(e, 1, 1, YA, 0xfe);         /* vpaddd YB, YA, iota4 */
                modrm_mem(e, YB, RBP, CTX_IOTA + 32 * c);
                y = YB;
            }
            if (cm != 0xff) {
                blend_old(e, YT, y, RBX, xoff(x, r, c), cm);
                y = YT;
            }
            st(e, y, RBX, xoff(x, r, c));
        }
    }
    b1(e, 0xc3);                                /* ret */
}

/* call the write-back subroutine */
static void emit_call_mat(struct xl *x)
{
    b1(&x->e, 0xe8);
    rel32_to(&x->e, x->mat);
}

/*
 * Loop mode's entry: each scalar register's active lanes must hold one
 * value (uniform) or lane 0's + 4 l (affine); then the scalars go into
 * their general registers.  Else the plain copy runs (x->body).
 */
static void emit_guard(struct xl *x, const uint8_t *fail)
{
    struct em *e = &x->e;

    for (uint32_t r = 1; r < 32; r++) {
        bool a = x->cls[r] == LM_A;

        if (x->gpr[r] < 0) {
            continue;
        }
        /* eax = the scalar: lowest active lane's, less 4 * its lane */
        gld(e, RAX, RBX, xoff(x, r, 0) + 4 * x->lane0);
        if (a && x->lane0) {
            gopi(e, 5, RAX, 4 * x->lane0);
        }
        bytes(e, "\xc5\xf9\x6e\xc8", 4);        /* vmovd xmm1, eax */
        vex(e, 2, 1, 0, 0x58);                  /* vpbroadcastd YB, xmm1 */
        modrm_rr(e, YB, YB);
        for (uint32_t c = 0, first = 1; c < x->T / 8; c++) {
            int cm = cmask(x, c);

            if (cm == 0) {
                continue;
            }
            ld(e, YA, RBX, xoff(x, r, c));
            if (a) {
                vex(e, 1, 1, YA, 0xfa);         /* vpsubd YA, iota4 */
                modrm_mem(e, YA, RBP, CTX_IOTA + 32 * c);
            }
            op3(e, 1, 0xef, YA, YA, YB);
            if (cm != 0xff) {
                vex(e, 1, 1, YA, 0xdb);         /* vpand YA, mask */
                modrm_mem(e, YA, RBP, CTX_MASK + 32 * c);
            }
            op3(e, 1, 0xeb, YT, first ? YA : YT, YA);
            first = 0;
        }
        vex(e, 2, 1, 0, 0x17);                  /* vptest YT, YT */
        modrm_rr(e, YT, YT);
        bytes(e, "\x0f\x85", 2);                /* jnz: the plain copy */
        rel32_to(e, fail);
        gop(e, 0x89, x->gpr[r], RAX);
    }
    for (uint32_t r = 1; r < 32; r++) {
        for (uint32_t c = 0; c < x->T / 8 && x->res_y[r][0] >= 0; c++) {
            if (cmask(x, c)) {
                ld(e, x->res_y[r][c], RBX, xoff(x, r, c));
            }
        }
    }
}

static void jmp_epi(struct xl *x)
{
    b1(&x->e, 0xe9);
    rel32_to(&x->e, x->epi);
}

/* The block ends at instruction @idx, going on at @pc. */
static void emit_end(struct xl *x, uint32_t pc, uint32_t idx)
{
    if (x->lmode) {
        emit_call_mat(x);                       /* memory holds them all */
    }
    ctx_put(&x->e, CTX_PC, pc);
    ctx_put(&x->e, CTX_IDX, idx);
    bytes(&x->e, "\x31\xc0", 2);                /* xor eax, eax */
    jmp_epi(x);
}

/*
 * The block (@len instructions from @start) jumps to @target: to its own
 * first instruction while the budget lasts, else out.
 */

static void emit_goto(struct xl *x, uint32_t target, uint32_t start,
                      uint32_t len)
{
    struct em *e = &x->e;

    if (target == start) {
        bytes(e, "\x48\x8b\x45\x20", 4);        /* mov rax, [rbp+left] */
        bytes(e, "\x48\x2d", 2);                /* sub rax, len */
        d32(e, len);
        bytes(e, "\x48\x89\x45\x20", 4);        /* mov [rbp+left], rax */
        bytes(e, "\x48\x81\x45\x28", 4);        /* add [rbp+done], len */
        d32(e, len);
        bytes(e, "\x48\x3d", 2);                /* cmp rax, len */
        d32(e, len);
        bytes(e, "\x0f\x83", 2);                /* jae body */
        rel32_to(e, x->lmode ? x->lbody : x->body);
        bytes(e, "\x48\x85\xc0", 3);            /* test rax, rax */
        if (x->lmode ? x->lcbody != NULL : x->cbody != NULL) {
            bytes(e, "\x0f\x85", 2);            /* jnz countdown */
            rel32_to(e, x->lmode ? x->lcbody : x->cbody);
        } else {
            x->cfix[x->ncfix++] = jcc_fwd(e, 0x85);
        }
        emit_end(x, target, 0);
        return;
    }
    emit_end(x, target, len);
}

/* eax = @fn(ctx, @m): a helper of the block, ymm registers lost */
static void emit_helper(struct em *e, const struct jit_mem_op *m,
                        uint32_t (*fn)(struct vx_jit_ctx *,
                                       const struct jit_mem_op *))
{
    bytes(e, "\xc5\xf8\x77", 3);                /* vzeroupper */
    bytes(e, "\x48\x89\xef", 3);                /* mov rdi, rbp */
    bytes(e, "\x48\xbe", 2);                    /* mov rsi, imm64 */
    d64(e, (uint64_t)(uintptr_t)m);
    bytes(e, "\x48\xb8", 2);                    /* mov rax, imm64 */
    d64(e, (uint64_t)(uintptr_t)fn);
    bytes(e, "\xff\xd0", 2);                    /* call rax */
}

/* A load or store: vx_jit_mem() with the operation's descriptor. */
static void emit_mem(struct xl *x, uint32_t i, const struct jit_mem_op *m)
{
    struct em *e = &x->e;

    emit_helper(e, m, vx_jit_mem);
    bytes(e, "\x85\xc0\x74\x0f", 4);            /* test eax, eax; jz +15 */
    ctx_put(e, CTX_IDX, i - 1);                 /* idx = i - 1 + status */
    bytes(e, "\x01\x45\x34", 3);                /* add [rbp+idx], eax */
    jmp_epi(x);
}

/*
 * An instruction the interpreter runs from inside the block (FP, mulh,
 * div, rem, Zicond: registers only, no control transfer): vx_jit_one().
 */
static void emit_call(struct xl *x, uint32_t i, const struct jit_mem_op *m)
{
    struct em *e = &x->e;

    emit_helper(e, m, vx_jit_fp_fast(m->insn) ? vx_jit_fp : vx_jit_one);
    bytes(e, "\x85\xc0\x74\x0c", 4);            /* test eax, eax; jz +12 */
    ctx_put(e, CTX_IDX, i);                     /* JIT_FAULT at i */
    jmp_epi(x);
}

/*
 * vmovd, vpextrd, vmovq, vpextrq or vmovdqu of xmm @y's dwords that @m4
 * (4 bits) selects to [rcx + @disp + 4 * dword].
 */
static void store_quad(struct em *e, int y, uint32_t disp, unsigned m4)
{
    for (uint32_t l = 0; l < 4; l++) {
        bool pair = !(l & 1) && (m4 >> l & 3) == 3;

        if (!(m4 >> l & 1)) {
            continue;
        }
        if (m4 == 15) {
            vex128(e, 1, 2, 0, 0x7f);           /* vmovdqu m128, xmm */
        } else if (pair && l == 0) {
            vex128(e, 1, 1, 0, 0xd6);           /* vmovq m64, xmm */
        } else if (pair) {
            vex128(e, 3, 1, 1, 0x16);           /* vpextrq m64, xmm, 1 */
        } else if (l == 0) {
            vex128(e, 1, 1, 0, 0x7e);           /* vmovd m32, xmm */
        } else {
            vex128(e, 3, 1, 0, 0x16);           /* vpextrd m32, xmm, l */
        }
        modrm_mem(e, y, RCX, disp + 4 * l);
        if (m4 == 15) {
            return;
        }
        if (pair) {
            if (l) {
                b1(e, 1);
            }
            l++;
        } else if (l) {
            b1(e, (uint8_t)l);
        }
    }
}

/*
 * The dwords of YA that @m selects (a mixed chunk's mask, known) to
 * [rcx + @disp + 4 * lane]: the inactive lanes' words are not written
 * (no read-modify-write, which would undo another writer's store to
 * them, such as a host vCPU's through the BAR).  YB is clobbered.
 */
static void store_lanes(struct em *e, int y, uint32_t disp, unsigned m)
{
    store_quad(e, y, disp, m & 15);
    if ((m >> 4) == 15) {
        vex(e, 3, 1, 0, 0x39);                  /* vextracti128 m128, y, 1 */
        modrm_mem(e, y, RCX, disp + 16);
        b1(e, 1);
    } else if (m >> 4) {
        vex(e, 3, 1, 0, 0x39);                  /* vextracti128 xmm1, y, 1 */
        modrm_rr(e, y, YB);
        b1(e, 1);
        store_quad(e, YB, disp + 16, m >> 4);
    }
}

/*
 * A warp's word load or store at consecutive addresses (the coalesced
 * access) inline, as the burst executor's CONTIG_WORDS path: every
 * lane's x[rs1] is lane 0's + 4 * lane, the words are aligned and in
 * VRAM (untranslated: below ctx.lim) or in one page the warp's memo slot
 * holds (translated), and a store's page holds no translated code.  With
 * lanes masked off, the active lanes' addresses must be where they would
 * be in such a run (from the lowest active lane's), the whole run in
 * VRAM or the page, and only the active lanes' words are written (a
 * load may read the others': see the DOC).
 * Anything else goes to vx_jit_mem() (emit_mem()).
 */
static void emit_mem_fast(struct xl *x, uint32_t i, const struct jit_mem_op *m)
{
    struct em *e = &x->e;
    uint32_t T = x->T, off1 = m->rs1 * 4, n = T / 8;
    uint32_t offv = 4 * (m->store ? m->rs2 : m->rd);
    int vb = m->fp ? RDX : RBX;                 /* the value's registers */
    uint8_t *slow[8], *done, *miss = NULL, *tlbmiss;
    const uint8_t *retry, *hit = NULL;
    int ns = 0;
    /* loop mode, an affine base: its scalar is lane 0's address */
    bool sbase = x->lmode && lm_a(x, m->rs1 / T);
    /* loop mode, the value in resident ymm */
    const int8_t *ry = x->res_on && !m->fp &&
                       x->res_y[offv / 4 / T][0] >= 0 ?
                       x->res_y[offv / 4 / T] : NULL;

    retry = e->p;
    if (sbase) {
        gop(e, 0x89, RAX, x->gpr[m->rs1 / T]);  /* mov eax, base */
    } else if (x->spec) {
        /* eax = ref: the lowest active lane's x[rs1] - 4 * its lane */
        b1(e, 0x8b);                            /* mov eax, [rbx + d] */
        modrm_mem(e, 0, RBX, off1 + 4 * x->lane0);
        b1(e, 0x2d);                            /* sub eax, 4 * lane0 */
        d32(e, 4 * x->lane0);
        bytes(e, "\xc5\xf9\x6e\xc8", 4);        /* vmovd xmm1, eax */
        vex(e, 2, 1, 0, 0x58);                  /* vpbroadcastd YB, xmm1 */
        modrm_rr(e, YB, YB);
    } else if (x->masked) {
        /* eax = ref: the lowest active lane's x[rs1] - 4 * its lane */
        bytes(e, "\x8b\x45\x3c", 3);            /* mov eax, [lane0] */
        bytes(e, "\x8b\x94\x83", 3);            /* mov edx, [rbx+rax*4] */
        d32(e, off1);
        bytes(e, "\xc1\xe0\x02\x29\xc2\x89\xd0", 7);
        bytes(e, "\xc5\xf9\x6e\xc8", 4);        /* vmovd xmm1, eax */
        vex(e, 2, 1, 0, 0x58);                  /* vpbroadcastd YB, xmm1 */
        modrm_rr(e, YB, YB);
    } else {
        vex(e, 2, 1, 0, 0x58);                  /* vpbroadcastd YB, x0 */
        modrm_mem(e, YB, RBX, off1);
    }
    for (uint32_t c = 0, first = 1; c < n && !sbase; c++) {
        if (cmask(x, c) == 0) {
            continue;                           /* no lane of the chunk */
        }
        ld(e, YA, RBX, off1 + 32 * c);
        vex(e, 1, 1, YA, 0xfa);                 /* vpsubd YA, iota4 */
        modrm_mem(e, YA, RBP, CTX_IOTA + 32 * c);
        op3(e, 1, 0xef, YA, YA, YB);
        if (cmask(x, c) != 0xff) {
            vex(e, 1, 1, YA, 0xdb);             /* vpand YA, mask */
            modrm_mem(e, YA, RBP, CTX_MASK + 32 * c);
        }
        if (first) {
            first = 0;
            op3(e, 1, 0xeb, YT, YA, YA);        /* vpor: YT = YA */
        } else {
            op3(e, 1, 0xeb, YT, YT, YA);
        }
    }
    if (!sbase) {
        vex(e, 2, 1, 0, 0x17);                  /* vptest YT, YT */
        modrm_rr(e, YT, YT);
        slow[ns++] = jcc_fwd(e, 0x85);          /* jnz slow */
    }
    if (!x->masked && !sbase) {
        b1(e, 0x8b);                            /* mov eax, x0 */
        modrm_mem(e, 0, RBX, off1);
    }
    b1(e, 0x05);                                /* add eax, imm */
    d32(e, x->mmu ? m->imm : vx_vram_off(m->imm));
    if (!x->mmu) {
        bytes(e, "\xa8\x03", 2);               /* test al, 3 */
        slow[ns++] = jcc_fwd(e, 0x85);
        b1(e, 0x3b);                            /* cmp eax, [lim] */
        modrm_mem(e, 0, RBP, CTX_LIM);
        slow[ns++] = jcc_fwd(e, 0x87);          /* ja */
        if (m->store) {
            bytes(e, "\x48\x8b", 2);           /* mov rsi, codemap */
            modrm_mem(e, 6, RBP, CTX_CODEMAP);
            bytes(e, "\x89\xc2\xc1\xea\x0c", 5);   /* edx = eax >> 12 */
            bytes(e, "\x80\x3c\x16\x00", 4);   /* cmp byte [rsi+rdx], 0 */
            slow[ns++] = jcc_fwd(e, 0x85);      /* jne */
            bytes(e, "\x89\xc2\x81\xc2", 4);   /* edx = eax + 4T - 1 */
            d32(e, 4 * T - 1);
            bytes(e, "\xc1\xea\x0c\x80\x3c\x16\x00", 7);
            slow[ns++] = jcc_fwd(e, 0x85);
        }
        bytes(e, "\x48\x8b", 2);               /* mov rcx, vram */
        modrm_mem(e, 1, RBP, CTX_VRAM);
    } else {
        uint32_t slot = ((m->pc >> 2) % VX_XLAT_SLOTS) *
                        sizeof(struct vx_xlat);

        /*
         * edx = the key: page, flags, and the address's low two bits,
         * which make a misaligned access miss (the miss path sorts it
         * out).  A store's key says the page held no translated code
         * when the slot was filled (JIT_XLAT_NOCODE; vx_jit_translate() makes
         * every memo stale when a page starts to).  r12 = the memo.
         */
        bytes(e, "\x89\xc2\x81\xe2", 4);       /* edx = eax & ~0xffc */
        d32(e, ~0xffcu);
        bytes(e, "\x81\xf2", 2);               /* xor edx, flags */
        d32(e, jit_xlat_flags(m->store));
        bytes(e, "\x41\x3b\x94\x24", 4);       /* cmp edx, [r12 + key] */
        d32(e, slot + offsetof(struct vx_xlat, key));
        miss = jcc_fwd(e, 0x85);
        hit = e->p;
        b1(e, 0x25);                            /* and eax, 0xfff */
        d32(e, 0xfff);
        b1(e, 0x3d);                            /* cmp eax, 4096 - 4T */
        d32(e, 4096 - 4 * T);
        slow[ns++] = jcc_fwd(e, 0x87);          /* ja */
        bytes(e, "\x49\x8b\x8c\x24", 4);       /* mov rcx, [r12 + host] */
        d32(e, slot + offsetof(struct vx_xlat, host));
    }
    bytes(e, "\x48\x01\xc1", 3);               /* add rcx, rax */
    if (m->fp) {
        bytes(e, "\x48\x8b", 2);               /* mov rdx, f */
        modrm_mem(e, RDX, RBP, CTX_F);
    }
    for (uint32_t c = 0; c < n; c++) {
        int cm = cmask(x, c);

        if (cm == 0) {
            continue;                           /* no lane of the chunk */
        }
        if (ry) {
            /*
             * loop mode, a resident rd: the span is checked whole, so
             * a plain load (inactive lanes: the write-back blends); a
             * store writes the active lanes' words only
             */
            if (!m->store) {
                ld(e, ry[c], RCX, 32 * c);
            } else if (cm == 0xff) {
                st(e, ry[c], RCX, 32 * c);
            } else {
                store_lanes(e, ry[c], 32 * c, (unsigned)cm);
            }
            continue;
        }
        if (x->masked && x->avx512) {
            /* k1: the inactive lanes are neither read nor written */
            kmask(e, c);
            if (m->store) {
                ld(e, YA, vb, offv + 32 * c);
                evmov(e, 0x7f, YA, RCX, 32 * c);
            } else {
                /*
                 * merged into rd's old words, stored whole: a masked
                 * store would not forward to the next read of rd
                 */
                ld(e, YA, vb, offv + 32 * c);
                evmov(e, 0x6f, YA, RCX, 32 * c);
                st(e, YA, vb, offv + 32 * c);
            }
        } else if (cm != 0xff && cm > 0) {
            /* the mask known: the active lanes' words, no others */
            if (m->store) {
                ld(e, YA, vb, offv + 32 * c);
                store_lanes(e, YA, 32 * c, (unsigned)cm);
            } else {
                ld(e, YA, RCX, 32 * c);
                blend_old(e, YA, YA, vb, offv + 32 * c, cm);
                st(e, YA, vb, offv + 32 * c);
            }
        } else if (cm < 0 && m->store) {
            /* a word per active lane, after the loop */
        } else if (cm < 0) {
            /*
             * a plain load blended into rd: the whole span is checked,
             * so the inactive lanes' words are in VRAM or the page
             */
            ld(e, YM, RBP, CTX_MASK + 32 * c);
            ld(e, YT, vb, offv + 32 * c);
            vex(e, 3, 1, YT, 0x4c);             /* vpblendvb YA, YT, [rcx] */
            modrm_mem(e, YA, RCX, 32 * c);
            b1(e, YM << 4);
            st(e, YA, vb, offv + 32 * c);
        } else if (m->store) {
            ld(e, YA, vb, offv + 32 * c);
            st(e, YA, RCX, 32 * c);
        } else {
            ld(e, YA, RCX, 32 * c);
            st(e, YA, vb, offv + 32 * c);
        }
    }
    if (x->masked && !x->avx512 && !x->spec && m->store) {
        /*
         * AVX2, the mask unknown: a word per active lane, from the mask's
         * bits, 32 lanes at a time (edi the bits left, eax the lane, esi
         * its word; tzcnt is bsf where there is no BMI1: edi is not 0)
         */
        for (uint32_t k = 0; k < (T + 31) / 32; k++) {
            uint8_t *skip, *loop;

            bytes(e, "\x8b\xbd", 2);                /* mov edi, maskw[k] */
            d32(e, (uint32_t)(CTX_MASKW + 4 * k));
            bytes(e, "\x85\xff\x74", 3);           /* test edi, edi; jz */
            skip = e->p;
            b1(e, 0);
            loop = e->p;
            bytes(e, "\xf3\x0f\xbc\xc7", 4);       /* tzcnt eax, edi */
            bytes(e, "\x8b\xb4", 2);                /* mov esi, [vb+rax*4+d] */
            b1(e, vb == RDX ? 0x82 : 0x83);
            d32(e, offv + 128 * k);
            bytes(e, "\x89\xb4\x81", 3);            /* mov [rcx+rax*4+d], esi */
            d32(e, 128 * k);
            bytes(e, "\x8d\x77\xff\x21\xf7\x75", 6); /* edi &= edi - 1; jnz */
            b1(e, (uint8_t)(loop - (e->p + 1)));
            *skip = (uint8_t)(e->p - (skip + 1));
        }
    }
    b1(e, 0xe9);                                /* jmp done */
    done = e->p;
    d32(e, 0);
    if (miss) {
        uint32_t slot = ((m->pc >> 2) % VX_XLAT_SLOTS) *
                        sizeof(struct vx_xlat);

        /*
         * A memo miss (eax = lane 0's address, edx the key, rcx the
         * memo): the DTLB probed inline as vx_tlb_probe() does, and on a
         * hit the slot filled as vx_exec_xlat_fill() fills it; on a DTLB
         * miss, vx_jit_memo() (local memory, or vx_jit_mem()).
         */
        patch_here(e, miss);
        bytes(e, "\xa8\x03", 2);               /* test al, 3 */
        slow[ns++] = jcc_fwd(e, 0x85);          /* misaligned */
        bytes(e, "\x89\xc6\xc1\xee\x0c", 5);  /* esi = eax >> 12: vpn */
        bytes(e, "\x89\xf7\xc1\xef\x0a", 5);  /* edi = vpn >> 10 */
        bytes(e, "\x31\xf7\x33\xbd", 4);        /* ^= vpn, ^= hash */
        d32(e, (uint32_t)CTX_HASH);
        bytes(e, "\x81\xe7", 2);                 /* and edi, sets - 1 */
        d32(e, (1u << VX_DTLB_BITS) - 1);
        bytes(e, "\xc1\xe7\x04", 3);             /* shl edi, 4 */
        bytes(e, "\x48\x03\xbd", 3);             /* add rdi, dtlb */
        d32(e, (uint32_t)CTX_DTLB);
        bytes(e, "\x0b\xb5", 2);                 /* or esi, khi: key */
        d32(e, (uint32_t)CTX_KHI);
        bytes(e, "\x3b\x77", 2);                 /* cmp esi, e->ok[st] */
        b1(e, (uint8_t)(4 + 4 * (m->store != 0)));
        tlbmiss = jcc_fwd(e, 0x85);
        bytes(e, "\x8b\x77\x0c", 3);             /* esi = e->poff */
        if (m->store) {
            /* a page holding translated code: vx_jit_mem() stores */
            bytes(e, "\x89\xf7\xc1\xef\x0c", 5); /* edi = poff >> 12 */
            bytes(e, "\x48\x03\xbd", 3);         /* add rdi, codemap */
            d32(e, (uint32_t)CTX_CODEMAP);
            bytes(e, "\x80\x3f\x00", 3);         /* cmp byte [rdi], 0 */
            slow[ns++] = jcc_fwd(e, 0x85);
        }
        bytes(e, "\x48\x03\xb5", 3);             /* add rsi, vram */
        d32(e, (uint32_t)CTX_VRAM);
        bytes(e, "\x41\x89\x94\x24", 4);       /* [r12 + key] = edx */
        d32(e, slot + offsetof(struct vx_xlat, key));
        bytes(e, "\x49\x89\xb4\x24", 4);       /* [r12 + host] = rsi */
        d32(e, slot + offsetof(struct vx_xlat, host));
        b1(e, 0xe9);                            /* jmp hit */
        rel32_to(e, hit);
        if (x->lmode) {
            slow[ns++] = tlbmiss;               /* the plain copy's */
        } else {
            patch_here(e, tlbmiss);
            emit_helper(e, m, vx_jit_memo);
            bytes(e, "\x85\xc0\x0f\x84", 4);    /* test eax, eax; jz */
            rel32_to(e, retry);
        }
    }
    for (int k = 0; k < ns; k++) {
        patch_here(e, slow[k]);
    }
    if (x->lmode) {
        /* registers to memory; the plain copy does the access */
        emit_call_mat(x);
        b1(e, 0xe9);
        rel32_to(e, x->cd ? x->cistart[i] : x->istart[i]);
    } else {
        emit_mem(x, i, m);
    }
    patch_here(e, done);
}

/*
 * Before branch @insn, instruction @i: whether every active lane agrees
 * on it, 8 lanes at a time (the condition as a vector compare, its sign
 * bits in eax, the chunk's mask byte in edx, an immediate where it is
 * known; esi collects the lanes that take it, edi those that do not).
 * If both are there the block stops
 * before the branch (JIT_BEFORE) and the burst executor hands it to the
 * interpreter, which stops the card with DIVERGENT_BRANCH.
 */
static void emit_branch_check(struct xl *x, uint32_t insn, uint32_t i)
{
    struct em *e = &x->e;
    uint32_t f3 = F3(insn);
    uint8_t *uniform[2];

    if (f3 >= 6) {
        bcast(x, YS, 0x80000000u);              /* unsigned: flip signs */
    }
    bytes(e, "\x31\xf6\x31\xff", 4);          /* xor esi, esi; xor edi, edi */
    for (uint32_t c = 0; c < x->T / 8; c++) {
        int cm = cmask(x, c);

        if (cm == 0) {
            continue;                           /* no lane of the chunk */
        }
        ld(e, YA, RBX, xoff(x, RS1(insn), c));
        ld(e, YB, RBX, xoff(x, RS2(insn), c));
        if (f3 >= 6) {
            op3(e, 1, 0xef, YA, YA, YS);        /* vpxor */
            op3(e, 1, 0xef, YB, YB, YS);
        }
        if (f3 < 2) {
            op3(e, 1, 0x76, YA, YA, YB);        /* vpcmpeqd: a == b */
        } else {
            op3(e, 1, 0x66, YA, YB, YA);        /* vpcmpgtd: b > a */
        }
        vex(e, 1, 0, 0, 0x50);                  /* vmovmskps eax, YA */
        modrm_rr(e, 0, YA);
        if (cm < 0) {
            bytes(e, "\x0f\xb6\x95", 3);       /* movzx edx, byte maskw[c] */
            d32(e, (uint32_t)(CTX_MASKW + c));
        } else {
            b1(e, 0xba);                        /* mov edx, mask */
            d32(e, (uint32_t)cm);
        }
        /* mov ecx, eax; and eax, edx; or esi, eax; not ecx; and ecx, edx;
         * or edi, ecx */
        bytes(e, "\x89\xc1\x21\xd0\x09\xc6\xf7\xd1\x21\xd1\x09\xcf", 12);
    }
    bytes(e, "\x85\xf6", 2);                   /* test esi, esi */
    uniform[0] = jcc_fwd(e, 0x84);
    bytes(e, "\x85\xff", 2);                   /* test edi, edi */
    uniform[1] = jcc_fwd(e, 0x84);
    if (x->lmode) {
        emit_call_mat(x);
    }
    ctx_put(e, CTX_IDX, i);                     /* both sides: the */
    bytes(e, "\xb8\x01\x00\x00\x00", 5);       /* interpreter's */
    jmp_epi(x);
    patch_here(e, uniform[0]);
    patch_here(e, uniform[1]);
}

/*
 * rcx = the highest active lane's x[0] (ctx.xl): a constant in code for
 * one mask.
 */
static void emit_xl(struct xl *x)
{
    if (!x->spec) {
        bytes(&x->e, "\x48\x8b\x4d\x08", 4);   /* mov rcx, [rbp+xl] */
        return;
    }
    bytes(&x->e, "\x48\x8d\x8b", 3);            /* lea rcx, [rbx + d] */
    d32(&x->e, 4 * x->lastl);
}

/*
 * A branch or jump ending the block at instruction @i: it follows the
 * highest active lane (ctx.xl), as the interpreter does, once a branch's
 * lanes are known to agree (or with rtl_branch, without asking).
 */
static void emit_term(struct xl *x, uint32_t insn, uint32_t pc,
                      uint32_t start, uint32_t i)
{
    struct em *e = &x->e;
    uint32_t len = i + 1;

    switch (insn & 0x7f) {
    case 0x63: {
        static const uint8_t jcc[8] = { 0x84, 0x85, 0, 0, 0x8c, 0x8d,
                                        0x82, 0x83 };
        uint8_t *fix;

        if (x->lmode && x->cls[RS1(insn)] == x->cls[RS2(insn)] &&
            x->cls[RS1(insn)] != LM_V) {
            /*
             * scalars: the lanes agree (uniform; or affine, beq/bne:
             * lane l compares a + 4 l with b + 4 l)
             */
            lm_src(e, x, RAX, RS1(insn));
            if (RS2(insn)) {
                gop(e, 0x39, RAX, x->gpr[RS2(insn)]);   /* cmp eax, r */
            } else {
                bytes(e, "\x85\xc0", 2);              /* test eax, eax */
            }
        } else {
            if (x->dvg) {
                emit_branch_check(x, insn, i);
            }
            emit_xl(x);
            b1(e, 0x8b);                        /* mov eax, [rcx+rs1] */
            modrm_mem(e, 0, RCX, RS1(insn) * x->T * 4);
            b1(e, 0x3b);                        /* cmp eax, [rcx+rs2] */
            modrm_mem(e, 0, RCX, RS2(insn) * x->T * 4);
        }
        b1(e, 0x0f);
        b1(e, jcc[F3(insn)]);
        fix = e->p;
        d32(e, 0);
        emit_goto(x, pc + 4, start, len);
        d32(&(struct em){ .p = fix }, (uint32_t)(e->p - (fix + 4)));
        emit_goto(x, pc + imm_b(insn), start, len);
        return;
    }
    case 0x6f:
        put_uniform(x, RD(insn), pc + 4);
        emit_goto(x, pc + imm_j(insn), start, len);
        return;
    default: {                                  /* jalr */
        emit_xl(x);
        b1(e, 0x8b);                            /* mov eax, [rcx+rs1] */
        modrm_mem(e, 0, RCX, RS1(insn) * x->T * 4);
        b1(e, 0x05);                            /* add eax, imm */
        d32(e, imm_i(insn));
        b1(e, 0x25);                            /* and eax, ~1 */
        d32(e, ~1u);
        bytes(e, "\xa8\x03\x74\x11", 4);        /* test al, 3; jz +17 */
        ctx_put(e, CTX_IDX, i);                 /* misaligned: the */
        bytes(e, "\xb8\x01\x00\x00\x00", 5);    /* interpreter faults */
        jmp_epi(x);
        bytes(e, "\x89\x45\x30", 3);            /* mov [rbp+pc], eax */
        put_uniform(x, RD(insn), pc + 4);
        ctx_put(e, CTX_IDX, len);
        bytes(e, "\x31\xc0", 2);
        jmp_epi(x);
        return;
    }
    }
}

/*
 * One copy of the block's instructions.  The countdown copy runs when
 * the budget ends inside the block: before each instruction it looks at
 * ctx.left, and stops there when the budget is spent.
 */
static void emit_body(struct xl *x, const uint32_t *words, uint32_t len,
                      uint32_t pc, bool term, bool countdown)
{
    struct em *e = &x->e;
    uint32_t m = 0;

    cache_clear(x);                             /* entered by jumps */
    x->cd = countdown;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t ipc = pc + 4 * i;

        if (countdown && x->lm) {
            /* an entry (emit_mid()): nothing cached from before */
            cache_clear(x);
        }
        if (x->lmode && countdown) {
            x->lcistart[i] = e->p;
        } else if (!x->lmode) {
            /* loop mode's way back, budget checked again */
            (countdown ? x->cistart : x->istart)[i] = e->p;
        }
        if (countdown && i) {
            uint8_t *go;

            bytes(e, "\x48\x83\x7d\x20", 4);   /* cmp qword [left], i */
            b1(e, (uint8_t)i);
            go = jcc_fwd(e, 0x87);              /* ja on */
            emit_end(x, ipc, i);
            patch_here(e, go);
        }
        switch (classify(words[i], ipc)) {
        case K_ALU: {
            uint32_t n = 1;

            if (x->lmode && lm_scalar(x, words[i])) {
                emit_scalar(x, words[i], ipc);
                break;
            }
            while (!countdown && x->T > 8 && !x->res_on && i + n < len &&
                   classify(words[i + n], ipc + 4 * n) == K_ALU &&
                   !(x->lmode && lm_scalar(x, words[i + n]))) {
                n++;
            }
            if (n >= 2) {
                emit_run(x, words + i, n, ipc);
                i += n - 1;
            } else {
                emit_alu(x, words[i], ipc);
            }
            break;
        }
        case K_CALL:
            emit_call(x, i, &x->mops[m++]);
            cache_clear(x);                     /* the call clobbers ymm */
            break;
        case K_MEM:
            if (x->mops[m].size == 4 && !x->mops[m].rd0) {
                emit_mem_fast(x, i, &x->mops[m]);
            } else {
                emit_mem(x, i, &x->mops[m]);
            }
            m++;
            cache_clear(x);             /* a call, and rd in memory */
            break;
        default:
            emit_term(x, words[i], ipc, pc, i);
            break;
        }
    }
    if (!term) {
        emit_end(x, pc + 4 * len, len);
    }
}

/* push rbx, rbp, r12 (and r13, r14 for loop mode); rbp, rbx, r12 set */
static void emit_prologue(struct xl *x)
{
    struct em *e = &x->e;

    bytes(e, "\x53\x55\x41\x54", 4);
    if (x->lm) {
        bytes(e, "\x41\x55\x41\x56", 4);       /* push r13; push r14 */
    }
    /* mov rbp, rdi; mov rbx, [rbp] */
    bytes(e, "\x48\x89\xfd\x48\x8b\x5d\x00", 7);
    if (x->mmu) {
        bytes(e, "\x4c\x8b\xa5", 3);         /* mov r12, [rbp + xlat] */
        d32(e, (uint32_t)CTX_XLAT);
    }
}

/*
 * jmp to @tab[ctx.entry]: a table of rel32 (from the table) after the
 * jump, @n long, filled by the caller.  Returns the table.
 */
static uint8_t *emit_entry_jump(struct xl *x, uint32_t n)
{
    struct em *e = &x->e;
    uint8_t *tab;

    b1(e, 0x8b);                                /* mov eax, [rbp + entry] */
    modrm_mem(e, RAX, RBP, CTX_ENTRY);
    bytes(e, "\x48\x8d\x0d\x0c\x00\x00\x00", 7); /* lea rcx, [rip + 12] */
    bytes(e, "\x48\x63\x04\x81", 4);           /* movsxd rax, [rcx+rax*4] */
    bytes(e, "\x48\x01\xc8", 3);               /* add rax, rcx */
    bytes(e, "\xff\xe0", 2);                   /* jmp rax */
    bytes(e, "\x0f\x0b\xcc", 3);               /* ud2, int3: pad to 12 */
    tab = e->p;
    e->p += 4 * n;
    return tab;
}

/*
 * The block's body, then its countdown copy at *@copy (emit_body()): the
 * body's jumps into the copy (x->cfix) are patched once it starts there,
 * and the copy's own jump straight to it.
 */
static void emit_body_and_copy(struct xl *x, const uint32_t *words, uint32_t len,
                               uint32_t pc, bool term, const uint8_t **copy)
{
    struct em *e = &x->e;

    emit_body(x, words, len, pc, term, false);
    for (uint32_t k = 0; k < x->ncfix; k++) {
        patch_here(e, x->cfix[k]);
    }
    x->ncfix = 0;
    *copy = e->p;
    emit_body(x, words, len, pc, term, true);
}

/*
 * The self-loop's function entered at instruction ctx.entry (a burst
 * starting inside the loop: the dispatch's vx_jit_block.fn_mid), with
 * ctx.left and ctx.done as if it had run from the block's start: the
 * guard, then the loop-mode countdown copy at that instruction (every
 * instruction start of a countdown copy is one: nothing runs chunk-major
 * there, and in a function with loop mode they cache nothing from before
 * them); the plain countdown copy if the guard fails.  Its back-edge
 * goes on at full speed.  Must follow the function emit_fn() made.
 */
static uint8_t *emit_mid(struct xl *x, uint32_t len)
{
    struct em *e = &x->e;
    uint8_t *start = e->p, *plain, *tl, *tp;
    const uint8_t *stub;

    emit_prologue(x);
    b1(e, 0xe9);                                /* jmp guard */
    plain = e->p;
    d32(e, 0);
    stub = e->p;
    tp = emit_entry_jump(x, len);
    for (uint32_t i = 0; i < len; i++) {
        d32(&(struct em){ .p = tp + 4 * i },
            (uint32_t)(x->cistart[i] - tp));
    }
    patch_here(e, plain);
    emit_guard(x, stub);
    tl = emit_entry_jump(x, len);
    for (uint32_t i = 0; i < len; i++) {
        d32(&(struct em){ .p = tl + 4 * i },
            (uint32_t)(x->lcistart[i] - tl));
    }
    return start;
}

static uint8_t *emit_fn(struct xl *x, const uint32_t *words, uint32_t len,
                        uint32_t pc, bool masked, bool term)
{
    struct em *e = &x->e;
    uint8_t *start = e->p, *to_guard = NULL;

    x->masked = masked;
    x->ncfix = 0;
    x->cbody = NULL;
    x->lmode = false;
    /* loop mode: the full warp's function, or one for a mask */
    x->lm = x->lm_ok && (!masked || x->spec);
    emit_prologue(x);
    /* cmp qword [rbp+left], len; jb countdown */
    bytes(e, "\x48\x81\x7d\x20", 4);
    d32(e, len);
    x->cfix[x->ncfix++] = jcc_fwd(e, 0x82);
    if (x->lm) {
        b1(e, 0xe9);                            /* jmp guard */
        to_guard = e->p;
        d32(e, 0);
    } else {
        bytes(e, "\xeb\x08", 2);               /* jmp over the return */
    }
    x->epi = e->p;
    bytes(e, "\xc5\xf8\x77", 3);               /* vzeroupper */
    if (x->lm) {
        bytes(e, "\x41\x5e\x41\x5d", 4);       /* pop r14; pop r13 */
    }
    /* pop r12; pop rbp; pop rbx; ret */
    bytes(e, "\x41\x5c\x5d\x5b\xc3", 5);
    x->body = e->p;
    emit_body_and_copy(x, words, len, pc, term, &x->cbody);
    if (x->lm) {
        /* the write-back, the guard, and the loop-mode copy */
        emit_mat(x);
        patch_here(e, to_guard);
        emit_guard(x, x->body);
        x->lbody = e->p;
        x->lcbody = NULL;
        x->lmode = true;
        x->res_on = true;
        emit_body_and_copy(x, words, len, pc, term, &x->lcbody);
        x->lmode = false;
        x->res_on = false;
    }
    return start;
}

/* ------------------------------------------------------- the block */

static int64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The translator's scratch for a block of @len instructions, or NULL. */
static struct xl *xl_new(uint32_t len, uint32_t T)
{
    struct xl *x = calloc(1, sizeof(*x));

    if (!x) {
        return NULL;
    }
    /*
     * a bcast is at most 2 per instruction and copy and 1 per chunk, or
     * in an ALU run (emit_run()), 2 per chunk
     */
    x->maxfix = 8 * len * (2 + 2 * T / 8) + 8;
    x->fix = malloc(x->maxfix * sizeof(*x->fix));
    x->fixidx = malloc(x->maxfix * sizeof(*x->fixidx));
    if (!x->fix || !x->fixidx) {
        free(x->fix);
        free(x->fixidx);
        free(x);
        return NULL;
    }
    return x;
}

static void xl_free(struct xl *x)
{
    if (x) {
        free(x->fix);
        free(x->fixidx);
        free(x);
    }
}

/*
 * Make the arena's pages for @need bytes from j->used writable (only
 * those: the rest stays executable), [*@wlo, *@whi); false if they
 * cannot be.
 */
static bool arena_open(struct vx_jit *j, size_t need, size_t *wlo,
                       size_t *whi)
{
    *wlo = j->used & ~(size_t)4095;
    *whi = (j->used + need + 4095) & ~(size_t)4095;
    if (*whi > VX_JIT_ARENA) {
        *whi = VX_JIT_ARENA;
    }
    return j->dual || !mprotect(j->arena + *wlo, *whi - *wlo,
                                PROT_READ | PROT_WRITE);
}

/*
 * After @x's code: its constants, the RIP-relative operands that read
 * them, j->used moved past them, and the pages executable again.
 */
static void arena_close(struct vx_jit *j, struct xl *x, size_t need,
                        size_t wlo, size_t whi)
{
    x->e.p = (uint8_t *)(((uintptr_t)x->e.p + 3) & ~(uintptr_t)3);
    if (x->e.p + x->npool * 4 > j->arena + j->used + need) {
        abort();        /* the bound above is wrong: memory is overwritten */
    }
    memcpy(x->e.p, x->pool, x->npool * 4);
    for (uint32_t i = 0; i < x->nfix; i++) {
        uint8_t *target = x->e.p + 4 * x->fixidx[i];

        d32(&(struct em){ .p = x->fix[i] },
            (uint32_t)(int32_t)(target - (x->fix[i] + 4)));
    }
    x->e.p += x->npool * 4;
    j->used = (size_t)(x->e.p - j->arena);
    if (!j->dual) {
        mprotect(j->arena + wlo, whi - wlo, PROT_READ | PROT_EXEC);
    }
}

void vx_jit_translate(struct vx_sim *sim, struct vx_jit *j,
                      struct vx_jit_block *b, uint32_t pc, uint32_t satp,
                      const uint8_t *code, uint32_t room, uint32_t cap)
{
    int64_t t0 = now_ns();
    uint32_t len = 0, nmem = 0, T = j->threads;
    struct vx_jit_spec *sp = &j->spec[b - j->table];
    struct jit_mem_op mops[VX_JIT_MAX_INSNS], *md;
    bool term = false;
    size_t need, wlo, whi;
    struct xl *x;
    uint64_t pg;

    b->pc = pc;
    b->satp = satp;
    b->code = code;
    b->cap = cap;
    b->fn_masked = b->fn_full = b->fn_mid = NULL;
    sp->fn = sp->fn_mid = NULL;
    sp->done = false;
    sp->runs = 0;
    while (len < cap && len < room && !term) {
        uint32_t insn = ld32(code + 4 * len), ipc = pc + 4 * len;

        switch (classify(insn, ipc)) {
        case K_NONE:
            goto scanned;
        case K_MEM: {
            uint32_t opc = insn & 0x7f;
            bool store = opc == 0x23 || opc == 0x27;

            mops[nmem++] = (struct jit_mem_op){
                .rd = RD(insn) * T, .rs1 = RS1(insn) * T,
                .rs2 = RS2(insn) * T,
                .imm = store ? imm_s(insn) : imm_i(insn), .pc = ipc,
                .store = store, .size = (uint8_t)(1u << (F3(insn) & 3)),
                .sign = opc == 0x03 && F3(insn) < 2,
                .fp = opc == 0x07 || opc == 0x27,
                .rd0 = opc == 0x03 && RD(insn) == 0,
            };
            break;
        }
        case K_CALL:
            mops[nmem++] = (struct jit_mem_op){ .pc = ipc, .insn = insn };
            break;
        case K_END:
            term = true;
            break;
        default:
            break;
        }
        b->words[len++] = insn;
    }
scanned:
    b->len = len;
    b->tail = 0;
    while (!term && len < cap && len + b->tail < room &&
           b->tail < VX_JIT_MAX_TAIL) {
        uint32_t insn = ld32(code + 4 * (len + b->tail));

        if (classify(insn, pc + 4 * (len + b->tail)) != K_NONE) {
            break;
        }
        b->tail++;
        if (ends_tail(insn)) {
            break;
        }
    }
    if (len == 0) {
        b->words[0] = ld32(code);
        j->stats.untranslatable++;
        return;
    }
    x = xl_new(len, T);
    /*
     * two functions (masked, full) of two copies (emit_fn()), the full
     * one's loop mode a third and its guard and write-back
     */
    need = 6 * (len * (VX_JIT_INSN_BYTES + VX_JIT_CHUNK_BYTES * T / 8) + 64) +
           LM_BYTES(T) + sizeof(x->pool) + sizeof(mops) + 64;
    if (!x || need > VX_JIT_ARENA) {
        goto untranslated;
    }
    if (j->used + need > VX_JIT_ARENA) {
        vx_jit_flush(j);
    }
    if (!arena_open(j, need, &wlo, &whi)) {
        goto untranslated;
    }
    /* the descriptors first: the code has their addresses */
    md = (struct jit_mem_op *)(((uintptr_t)(j->arena + j->used) + 7) & ~7ul);
    memcpy(md, mops, nmem * sizeof(*md));
    x->e.p = (uint8_t *)(((uintptr_t)(md + nmem) + 15) & ~15ul);
    x->npool = 0;
    x->nfix = 0;
    x->T = T;
    x->mmu = satp != 0;
    x->avx512 = j->avx512;
    x->dvg = !sim->cfg.rtl_branch;
    x->mops = md;
    x->nmop = nmem;
    x->lm_ok = term && loop_plan(x, b->words, len, pc, md);
    sp->mops = md;
    sp->term = term;
    b->fn_masked = (vx_jit_fn)(void *)emit_fn(x, b->words, len, pc, true,
                                              term);
    b->fn_full = (vx_jit_fn)(void *)emit_fn(x, b->words, len, pc, false,
                                            term);
    if (x->lm) {
        b->fn_mid = (vx_jit_fn)(void *)(emit_mid(x, len) + j->xdelta);
        j->stats.loops++;
    }
    arena_close(j, x, need, wlo, whi);
    b->fn_masked = (vx_jit_fn)(void *)((uint8_t *)(void *)b->fn_masked +
                                       j->xdelta);
    b->fn_full = (vx_jit_fn)(void *)((uint8_t *)(void *)b->fn_full +
                                     j->xdelta);
    xl_free(x);
    /* stores into this page must look at the code again */
    pg = (uint64_t)(code - sim->vram) >> 12;
    if (pg < j->codemap_pages && !j->codemap[pg]) {
        j->codemap[pg] = 1;
        /* memo slots that let stores skip the codemap (JIT_XLAT_NOCODE) */
        vx_mmu_memo_flush(sim);
    }
    b->gen = j->gen;
    j->stats.blocks++;
    j->stats.insns += len;
    j->stats.ns += (uint64_t)(now_ns() - t0);
    return;

untranslated:
    /* no room or no memory: the burst executor runs the PC */
    xl_free(x);
    b->len = 0;
    b->words[0] = ld32(code);
}

void vx_jit_specialize(struct vx_sim *sim, struct vx_jit *j,
                       struct vx_jit_block *b, const struct vx_tmask *mask)
{
    int64_t t0 = now_ns();
    uint32_t T = j->threads;
    struct vx_jit_spec *sp = &j->spec[b - j->table];
    size_t need, wlo, whi;
    struct xl *x = NULL;
    uint8_t *fn;

    sp->done = true;
    if (j->avx512 || !b->len) {
        return;
    }
    x = xl_new(b->len, T);
    /* one function of two copies and loop mode's (emit_fn()) */
    need = 4 * (b->len * (VX_JIT_INSN_BYTES + VX_JIT_CHUNK_BYTES * T / 8) +
                64) + LM_BYTES(T) + sizeof(x->pool) + 64;
    /*
     * No flush for it: that would drop the block's other functions,
     * which its caller is about to run.  Without room the masked
     * function for any mask does.
     */
    if (!x || j->used + need > VX_JIT_ARENA ||
        !arena_open(j, need, &wlo, &whi)) {
        xl_free(x);
        return;
    }
    x->e.p = (uint8_t *)(((uintptr_t)(j->arena + j->used) + 15) & ~15ul);
    x->T = T;
    x->mmu = b->satp != 0;
    x->dvg = !sim->cfg.rtl_branch;
    x->mops = sp->mops;
    x->lm_ok = sp->term && loop_plan(x, b->words, b->len, b->pc, sp->mops);
    x->spec = true;
    for (uint32_t c = 0; c < T / 8; c++) {
        x->smask[c] = (uint8_t)(mask->w[c / 4] >> (8 * (c % 4)));
    }
    x->lane0 = first_lane(mask);
    x->lastl = last_lane(mask);
    fn = emit_fn(x, b->words, b->len, b->pc, true, sp->term);
    if (x->lm) {
        sp->fn_mid = (vx_jit_fn)(void *)(emit_mid(x, b->len) + j->xdelta);
        j->stats.loops++;
    }
    arena_close(j, x, need, wlo, whi);
    xl_free(x);
    sp->mask = *mask;
    sp->fn = (vx_jit_fn)(void *)(fn + j->xdelta);
    j->stats.specialized++;
    j->stats.ns += (uint64_t)(now_ns() - t0);
}
