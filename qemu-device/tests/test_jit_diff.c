// SPDX-License-Identifier: MIT
/*
 * Differential test of the translating executor (VX_SIM_EXEC_JIT,
 * qemu-device/sim/vx_jit_*.c) against the reference interpreter
 * (VX_SIM_EXEC_REF): the expectation is the interpreter's behaviour,
 * instruction for instruction (vx_exec.c's vx_exec_ref() comment: "The
 * burst executors must match it instruction for instruction, counters
 * included").
 *
 * Each trial writes a random program into VRAM: blocks of random RV32I/M
 * lane arithmetic with random registers and immediates, and random loads
 * and stores of every size (through x30, lanes 64 bytes apart; through
 * x31, consecutive words, the coalesced access the translated code runs
 * inline; through a random register, mostly a fault; now and then
 * misaligned, which faults), each block ended by: a branch of every
 * kind over one word (uniform, or on lanes that mostly disagree: a
 * DIVERGENT_BRANCH stop), jal, jalr (through an auipc, or a random register:
 * mostly a misaligned or unmapped target), a counted loop back to its
 * body (the translated self-loop), a counted loop of uniform registers
 * and an affine pointer through which it loads and stores coalesced
 * (the translator's loop mode, scalars in host registers; now and then
 * walking out of the data window: a fault inside it), a store into the
 * code about to run
 * (one lane's, or every lane's coalesced: the translation must see the
 * new words), tmc with a random mask (the SIMT control op, changing the
 * thread mask between translated blocks), mulh/div/Zicond (arithmetic
 * the translator leaves to the interpreter), or nothing (blocks run into
 * each other).  The warp starts with random integer and FP registers and
 * a full or random non-empty thread mask, and both cards run it in
 * bursts of random length (a burst of 1 is the Debug Module's step; most
 * end inside a block: the countdown copy).  After every burst the result
 * and the slots used must agree; at the end every register of every
 * lane, PC, mask, counters, every byte of VRAM and the fault capture.
 * The same two cards serve every trial, so each new program overwrites
 * code the translator holds: its translations must be dropped
 * (invalidation).
 *
 * Half the trials run translated (satp: Sv32 tables mapping the two code
 * pages swapped in VRAM, and the data window; a random base then page
 * faults), half untranslated; every program starts at a random word of
 * its first page, so most cross into the second.
 *
 * breakpoint_in_loop and patch_and_restore_in_loop patch the code of a
 * loop the translator runs (a breakpoint; a word changed, then put
 * back) between bursts, through the BAR as the debugger does.
 * masked_loop_per_mask runs a loop on a warp with lanes masked off: the
 * code made for its mask, then the code for any mask, then code for
 * another.  The *_mask_code tests make code for a mask at every block's
 * first masked run (by default its second in a row with one mask, which
 * random programs' blocks seldom have), the *_any_mask ones never.
 * code_page_after_store_memo: a page gets its first translation while a
 * store's memo slot says it holds no code; misaligned_load_on_store_memo:
 * a misaligned load meets a store's memo slot of its page.
 *
 * Cards: 1x1x1 with 8, 16, 32, 64 and 128 threads (wider warps: the
 * mask's other words full with the first, else random; tmc's mask, a
 * register, reaches the first 32 lanes; a random mask word is half the
 * time of bytes each empty, full or random, as the code made for a mask
 * treats those chunks of 8 lanes apart).  VX_JIT_DIFF_TRIALS sets the
 * trial count (default 300 per card, some 4 * 10^4 translated blocks
 * run; 20000 run some 2.9 * 10^6), VX_JIT_DIFF_SEED another sequence of
 * programs.
 */
#include "kselftest_harness.h"
#include "uncore_util.h"
#include "vx_jit.h"
#include "vx_asm.h"

#define PROG_OFF    0x20000u    /* two code pages (untranslated) */
#define PROG_PA1    0x23000u    /* the second code page when translated */
#define DATA_WIN    0x40000u
#define PT_ROOT     0x200000u
#define PT_POOL     0x201000u
#define CODE_VA     0x10000000u /* translated: page 0 -> PROG_OFF, */
#define DATA_VA     0x20000000u /* page 1 -> PROG_PA1, 2 data pages -> DATA_WIN */
#define DATA_LEN    0x1000u
#define MAX_WORDS   1024

static uint64_t rng_state;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)rng_state;
}

static uint32_t rnd_reg(void)
{
    return rnd() % 32;
}

static uint32_t rnd_rd(void)
{
    return rnd() % 29;          /* x29 (mask), x30 and x31 (bases) stay */
}

/* A random instruction of what the translator takes. */
static uint32_t rnd_alu(void)
{
    static const uint8_t f7s[] = { 0, 0, 0, 0x20, 1 };
    uint32_t rd = rnd_rd(), rs1 = rnd_reg(), rs2 = rnd_reg();
    uint32_t f3 = rnd() % 8, imm = rnd() & 0xfff;

    switch (rnd() % 4) {
    case 0: {
        uint32_t f7 = f7s[rnd() % 5];

        if (f7 == 0x20 && f3 != 0 && f3 != 5) {
            f7 = 0;
        }
        if (f7 == 1) {
            f3 = 0;
        }
        return RV_R(f7, rs2, rs1, f3, rd, 0x33);
    }
    case 1:
    case 2:
        if (f3 == 1) {
            imm &= 31;
        } else if (f3 == 5) {
            imm = (imm & 31) | (rnd() & 1 ? 0x400 : 0);
        }
        return RV_I(imm, rs1, f3, rd, 0x13);
    default:
        return (rnd() & 0xfffff000u) | rd << 7 | (rnd() & 1 ? 0x37 : 0x17);
    }
}

/*
 * A random load or store through x30 or x31 (the data window: lanes 64
 * bytes apart, or consecutive words, the coalesced access): every size,
 * signed and unsigned, at offsets that are sometimes misaligned (a
 * misaligned access faults on the card: the interpreter's to report), or
 * through a random register (mostly an access fault); a store now and
 * then to the very code that runs (x26, set by an auipc before it).
 */
static uint32_t rnd_mem(void)
{
    /* below 2 KiB: a positive 12-bit offset, in the mapped data pages */
    uint32_t off = (rnd() % (0x7c0 / 4)) * 4 + (rnd() % 64 == 0 ? rnd() % 4 : 0);
    static const uint8_t lf3[] = { 0, 1, 2, 4, 5 };
    uint32_t b = 30 + rnd() % 2;        /* lanes 64 bytes apart, or 4 */

    if (rnd() % 160 == 0) {     /* random base: mostly an access fault */
        return rnd() & 1 ? SW(rnd_reg(), rnd_rd(), rnd() & 0x7ff)
                         : LW(rnd_rd(), rnd_rd(), rnd() & 0x7ff);
    }
    switch (rnd() % 6) {
    case 0: return SW(rnd_reg(), b, off);
    case 1: return RV_S(off, rnd_reg(), b, rnd() % 3, 0x23);
    case 2: return RV_I(off, b, lf3[rnd() % 5], rnd_rd(), 0x03);
    case 3: return RV_I(off & ~3u, b, 2, rnd() % 8 ? rnd_rd() : 0, 0x03);
    case 4: return RV_S(off & ~3u, rnd_reg(), b, 2, 0x27);      /* fsw */
    default: return RV_I(off & ~3u, b, 2, rnd_rd(), 0x07);      /* flw */
    }
}

/*
 * A random FP instruction the translated code hands to the interpreter:
 * fadd, fsub, fmul, fdiv, fsgnj*, fmin/fmax, feq/flt/fle, fmv.x.w,
 * fmv.w.x, or one of the fused four; the rounding mode mostly rne or
 * dynamic, now and then another or an invalid one (an illegal
 * instruction: the fault inside a block).
 */
static uint32_t rnd_fp(void)
{
    static const uint8_t f7s[] = { 0x00, 0x04, 0x08, 0x0c, 0x10, 0x14,
                                   0x50, 0x70, 0x78 };
    static const uint8_t fma[] = { 0x43, 0x47, 0x4b, 0x4f };
    uint32_t rm = rnd() % 128 == 0 ? 5 + rnd() % 2 :
                  rnd() % 4 ? (rnd() & 1 ? 0 : 7) : rnd() % 5;
    uint32_t rd = rnd() % 32, rs1 = rnd() % 32, rs2 = rnd() % 32;
    uint32_t f7 = f7s[rnd() % 9];

    if (rnd() % 4 == 0) {
        return (rnd() % 32) << 27 | rs2 << 20 | rs1 << 15 | rm << 12 |
               rd << 7 | fma[rnd() % 4];
    }
    if (f7 == 0x10 || f7 == 0x14 || f7 == 0x50) {
        rm = rnd() % 3;                 /* the op, in the rm field */
    }
    if (f7 == 0x70 || f7 == 0x78) {
        rm = 0;
        rs2 = 0;
        if (f7 == 0x70) {
            rd = rnd_rd();              /* an integer destination */
        }
    }
    if (f7 == 0x50) {
        rd = rnd_rd();
    }
    return RV_R(f7, rs2, rs1, rm, rd, 0x53);
}

/*
 * A random instruction of rnd_alu()'s on registers of @regs (@n of
 * them), its rd among the first @nd.
 */
static uint32_t rnd_alu_in(const uint8_t *regs, uint32_t n, uint32_t nd)
{
    uint32_t a = rnd_alu(), opc = a & 0x7f;

    a = (a & ~(31u << 7)) | (uint32_t)regs[rnd() % nd] << 7;
    if (opc == 0x13 || opc == 0x33) {
        a = (a & ~(31u << 15)) | (uint32_t)regs[rnd() % n] << 15;
    }
    if (opc == 0x33) {
        a = (a & ~(31u << 20)) | (uint32_t)regs[rnd() % n] << 20;
    }
    return a;
}

/*
 * A counted loop of the kind the translator runs in loop mode, scalars
 * in host registers (vx_jit_translate.c): x27 counts 1..6 turns, x20
 * and x21 uniform (random arithmetic among x0, x20, x21, x22, x27), x22
 * a uniform step, x23 an affine pointer (x31's, lanes 4 bytes apart)
 * that moves by x22 or 4 each turn; coalesced loads and stores through
 * x23 and vector arithmetic between them.  Now and then the step walks
 * x23 out of the data window or misaligns it (a fault inside the loop),
 * or an operation makes a scalar register a vector (a vector reads it:
 * the translator keeps it in memory).
 */
static uint32_t put_scalar_loop(uint32_t *p)
{
    static const uint8_t u[] = { 20, 21, 22, 27, 0 };
    uint32_t n = 0, top, k = 1 + rnd() % 7;
    uint32_t step = rnd() % 16 == 0 ? 2 : rnd() % 8 == 0 ?
                    0x400 + 4 * (rnd() % 64) : 4 * (rnd() % 9);

    p[n++] = ADDI(27, 0, 1 + rnd() % 6);
    p[n++] = ADDI(23, 31, (rnd() % 64) * 4);
    p[n++] = ADDI(22, 0, step);
    p[n++] = ADDI(20, 0, rnd() & 0x7ff);
    p[n++] = LUI(21, rnd() & 0xfffff);
    top = n;
    for (uint32_t i = 0; i < k; i++) {
        switch (rnd() % 6) {
        case 0: p[n++] = rnd_alu_in(u, 5, 2); break;
        case 1: p[n++] = LW(7 + rnd() % 4, 23, (rnd() % 16) * 4); break;
        case 2:
            p[n++] = SW(rnd() % 4 ? 7 + rnd() % 4 : rnd_reg(), 23,
                        0x100 + (rnd() % 16) * 4);
            break;
        case 3: {
            uint32_t a = rnd_alu();

            p[n++] = (a & ~(31u << 7)) | (7 + rnd() % 4) << 7;
            break;
        }
        default:
            p[n++] = rnd() % 3 ? ADD(23, 23, 22) :
                     rnd() % 2 ? ADDI(23, 23, 4) : SUB(23, 23, 22);
            break;
        }
    }
    p[n++] = ADDI(27, 27, -1);
    p[n] = RV_B(-4 * (int32_t)(n - top), 0, 27, 1);    /* bne x27, x0 */
    return n + 1;
}

/* A random block ender; may take several words. */
static uint32_t put_ender(uint32_t *p)
{
    static const uint8_t bf3[] = { 0, 1, 4, 5, 6, 7 };

    switch (rnd() % 15) {
    case 0: return p[0] = rnd_mem(), 1;
    case 1: return p[0] = SB(rnd_reg(), 30, (rnd() % 0x7c0)), 1;
    case 2: {
        /*
         * forward, over one: on a register and itself, uniform (taken or
         * not by kind); on two random ones, lanes mostly disagree, and
         * the card stops with DIVERGENT_BRANCH (the translated check)
         */
        uint32_t rs1 = rnd_reg();

        p[0] = RV_B(8, rnd() % 2 ? rs1 : rnd_reg(), rs1, bf3[rnd() % 6]);
        p[1] = rnd_alu();
        return 2;
    }
    case 3: return p[0] = TMC(29), 1;
    case 4: return p[0] = RV_R(1, rnd_reg(), rnd_reg(), 1 + rnd() % 7,
                               rnd_rd(), 0x33), 1;
    case 5: return p[0] = CZERO_EQZ(rnd_rd(), rnd_reg(), rnd_reg()), 1;
    case 6:
        /* jal over one, linking */
        p[0] = JAL(rnd_rd(), 8);
        p[1] = rnd_alu();
        return 2;
    case 7:
        /* jalr over one through an auipc; or through a random register */
        if (rnd() % 4 == 0) {
            return p[0] = RV_I(rnd() & 0xfff, rnd_reg(), 0, rnd_rd(), 0x67), 1;
        }
        p[0] = (28u << 7) | 0x17;               /* auipc x28, 0 */
        p[1] = RV_I(12 + (rnd() % 8 == 0), 28, 0, rnd_rd(), 0x67);
        p[2] = rnd_alu();
        return 3;
    case 8: {
        /* a counted loop back to its body: x27 = 1..4 turns */
        uint32_t n = 1, k = rnd() % 4;

        p[0] = ADDI(27, 0, 1 + rnd() % 4);
        for (uint32_t i = 0; i < k; i++) {
            uint32_t a = rnd_alu();

            p[n++] = ((a >> 7) & 31) == 27 ? rnd_mem() : a;
        }
        p[n++] = ADDI(27, 27, -1);
        p[n] = RV_B(-4 * (int32_t)n + 4, 0, 27, 1);     /* bne x27, x0 */
        return n + 1;
    }
    case 9:
        /*
         * A store into the code about to run (x26 = this PC): the word
         * of p[4] copied over p[5] or p[6], or now and then a random
         * register's bytes (mostly an illegal instruction then).
         */
        p[0] = (26u << 7) | 0x17;               /* auipc x26, 0 */
        p[1] = LW(25, 26, 16);
        p[2] = rnd() % 8 ? SW(25, 26, 20 + 4 * (rnd() % 2))
                         : RV_S(20 + rnd() % 8, rnd_reg(), 26, rnd() % 3,
                                0x23);
        for (uint32_t i = 3; i < 7; i++) {
            p[i] = rnd_alu();
        }
        return 7;
    case 10: {
        /*
         * A coalesced store into the code about to run: lane l copies
         * word 7 + l over word 8 + l (all lanes load first).
         */
        uint32_t n = 7;

        p[0] = (26u << 7) | 0x17;               /* auipc x26, 0 */
        p[1] = CSRR(24, 0xcc0);                 /* the lane */
        p[2] = SLLI(24, 24, 2);
        p[3] = ADD(24, 24, 26);
        p[4] = LW(25, 24, 28);
        p[5] = SW(25, 24, 32);
        p[6] = rnd_alu();
        while (n < 7 + 34) {
            p[n++] = rnd_alu();
        }
        return n;
    }
    case 11:
    case 12:
        return put_scalar_loop(p);
    default: return 0;
    }
}

static uint32_t make_prog(uint32_t *p)
{
    uint32_t n = 0;

    while (n < MAX_WORDS - 80) {
        uint32_t k = rnd() % 13;

        for (uint32_t i = 0; i < k; i++) {
            uint32_t r = rnd() % 10;

            p[n++] = r < 7 ? rnd_alu() : r < 9 ? rnd_mem() : rnd_fp();
        }
        n += put_ender(p + n);
        if (rnd() % 40 == 0) {
            break;
        }
    }
    p[n++] = TMC(0);
    return n;
}

struct pair {
    struct card ref, jit;
    uint32_t T;
    uint32_t satp;              /* of map_card()'s tables */
};

/* Sv32 tables for translated trials: code pages swapped in PA. */
static uint32_t map_card(struct card *c)
{
    struct vx_sv32 pt;

    card_pt_init(c, &pt, PT_ROOT, PT_POOL);
    vx_sv32_map(&pt, CODE_VA, DEV(PROG_OFF), VX_PTE_URWX);
    vx_sv32_map(&pt, CODE_VA + 0x1000, DEV(PROG_PA1), VX_PTE_URWX);
    vx_sv32_map_range(&pt, DATA_VA, DEV(DATA_WIN), 0x2000, VX_PTE_URWX);
    return vx_sv32_satp(&pt, 1);
}

/* The jit card's vx_sim_config.no_avx512 (the device's avx512=off). */
static bool pair_no_avx512;
/* run_pairs_on()'s vx_jit_set_specialize(), -1: the card's default */
static int pair_spec_after = -1;

static int pair_open(struct pair *p, uint32_t T)
{
    struct vx_sim_config jit = {
        .clusters = 1, .cores = 1, .warps = 1, .threads = T,
        .vram_size = TEST_VRAM_SIZE, .no_avx512 = pair_no_avx512,
    };

    p->T = T;
    if (card_open(&p->ref, 1, 1, 1, T) || card_open_cfg(&p->jit, &jit)) {
        return -1;
    }
    p->satp = map_card(&p->ref);
    map_card(&p->jit);
    if (vx_sim_set_exec(p->ref.sim, VX_SIM_EXEC_REF) ||
        vx_sim_set_exec(p->jit.sim, VX_SIM_EXEC_JIT)) {
        return -1;
    }
    return 0;
}

static void warp_init(struct card *c, uint32_t T, const struct vx_tmask *m,
                      const uint32_t *regs, const uint32_t *fregs,
                      uint32_t pc, uint32_t satp)
{
    struct vx_warp *w = &c->sim->warps[0];

    vx_sim_reset(c->sim);
    vx_warp_start(c->sim, w, pc, m);
    w->satp = satp;
    memcpy(w->x, regs, 32 * T * sizeof(uint32_t));
    memcpy(w->f, fregs, 32 * T * sizeof(uint32_t));
}

/* VRAM offset of program byte @o (from the start of the code pages). */
static uint32_t code_off(bool mmu, uint32_t o)
{
    if (mmu && o >= 0x1000) {
        return PROG_PA1 + o - 0x1000;
    }
    return PROG_OFF + o;
}

/* VX_JIT_DIFF_SEED: another sequence of programs (default 0). */
static uint64_t seed(void)
{
    const char *s = getenv("VX_JIT_DIFF_SEED");

    return s && *s ? strtoull(s, NULL, 0) : 0;
}

static uint64_t trials(void)
{
    const char *s = getenv("VX_JIT_DIFF_TRIALS");

    return s && *s ? strtoull(s, NULL, 0) : 300;
}

/*
 * Random lanes for a mask word: half the time each byte (8 lanes, a
 * chunk of the translated code) empty, full or random, as code
 * specialized for a mask treats those three apart.
 */
static uint32_t rnd_lanes(void)
{
    uint32_t v = 0;

    if (rnd() & 1) {
        return rnd();
    }
    for (int b = 0; b < 4; b++) {
        uint32_t r = rnd() % 3;

        v |= (r == 0 ? 0 : r == 1 ? 0xffu : rnd() & 0xff) << (8 * b);
    }
    return v;
}

/* One trial on @p: both cards must agree everywhere. */
static void trial(struct __test_metadata *_metadata, struct pair *p)
{
    uint32_t prog[MAX_WORDS], n = make_prog(prog), T = p->T;
    uint32_t regs[32 * 128], fregs[32 * 128];
    uint8_t data[DATA_LEN];
    struct vx_tmask m = { { 0 } };
    uint32_t mask_all = T >= 32 ? ~0u : (1u << T) - 1;
    uint32_t tmc_mask = 0;
    struct vx_warp *wr = &p->ref.sim->warps[0], *wj = &p->jit.sim->warps[0];
    struct vx_sim *sr = p->ref.sim, *sj = p->jit.sim;
    bool mmu = rnd() & 1;
    uint32_t start = (rnd() % 1024) * 4;    /* so code crosses a page */
    uint32_t dbase = mmu ? DATA_VA : DEV(DATA_WIN);

    /* full warps half of the time: they run other code */
    while (!(m.w[0] = rnd() & 1 ? mask_all : rnd_lanes() & mask_all)) {
    }
    for (uint32_t k = 1; k < T / 32; k++) {
        m.w[k] = m.w[0] == mask_all ? ~0u : rnd_lanes();   /* wider warps */
    }
    while (!(tmc_mask = rnd() & 1 ? mask_all : rnd_lanes() & mask_all)) {
    }
    for (uint32_t i = 0; i < 32 * T; i++) {
        regs[i] = rnd() % 3 ? rnd() : rnd() % 64;
    }
    for (uint32_t i = 0; i < 32 * T; i++) {
        fregs[i] = rnd();
    }
    for (uint32_t l = 0; l < T; l++) {
        regs[l] = 0;
        regs[29 * T + l] = tmc_mask;
        regs[30 * T + l] = dbase + l * 64;
        regs[31 * T + l] = dbase + l * 4;
    }
    for (uint32_t i = 0; i < DATA_LEN; i++) {
        data[i] = (uint8_t)rnd();
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t off = code_off(mmu, start + 4 * i);

        memcpy(p->ref.vram + off, &prog[i], 4);
        memcpy(p->jit.vram + off, &prog[i], 4);
    }
    memcpy(p->ref.vram + DATA_WIN, data, DATA_LEN);
    memcpy(p->jit.vram + DATA_WIN, data, DATA_LEN);
    warp_init(&p->ref, T, &m, regs, fregs,
              (mmu ? CODE_VA : DEV(PROG_OFF)) + start,
              mmu ? p->satp : 0);
    warp_init(&p->jit, T, &m, regs, fregs,
              (mmu ? CODE_VA : DEV(PROG_OFF)) + start,
              mmu ? p->satp : 0);

    for (int step = 0; step < 4000; step++) {
        uint64_t max = rnd() % 4 == 0 ? 1 : 1 + rnd() % 64, ur, uj;
        enum vx_exec_result rr, rj;

        if (!wr->active || sr->error) {
            break;
        }
        rr = vx_exec_burst(sr, wr, max, &ur);
        rj = vx_exec_burst(sj, wj, max, &uj);
        ASSERT_EQ(rr, rj) TH_LOG("burst %d result", step);
        ASSERT_EQ(ur, uj) TH_LOG("burst %d slots", step);
        ASSERT_EQ(wr->pc, wj->pc) TH_LOG("burst %d pc", step);
        if (rr != VX_EXEC_OK) {
            break;
        }
    }
    ASSERT_EQ(wr->pc, wj->pc);
    ASSERT_EQ(0, memcmp(&wr->tmask, &wj->tmask, sizeof(wr->tmask)));
    ASSERT_EQ(wr->active, wj->active);
    ASSERT_EQ(wr->cycle, wj->cycle);
    ASSERT_EQ(wr->instret, wj->instret);
    for (uint32_t i = 0; i < 32 * T; i++) {
        ASSERT_EQ(wr->x[i], wj->x[i]) TH_LOG("x%u lane %u", i / T, i % T);
        ASSERT_EQ(wr->f[i], wj->f[i]) TH_LOG("f%u lane %u", i / T, i % T);
    }
    ASSERT_EQ(wr->fflags, wj->fflags);
    ASSERT_EQ(wr->frm, wj->frm);
    ASSERT_EQ(sr->error, sj->error);
    ASSERT_EQ(sr->err_cause, sj->err_cause);
    ASSERT_EQ(sr->err_pc, sj->err_pc);
    ASSERT_EQ(sr->err_addr, sj->err_addr);
    ASSERT_EQ(sr->err_thread, sj->err_thread);
    ASSERT_EQ(0, memcmp(p->ref.vram, p->jit.vram, TEST_VRAM_SIZE));
}

static void run_pairs_on(struct __test_metadata *_metadata, uint32_t T,
                         bool avx512)
{
    struct pair p;
    struct vx_jit_stats st;
    uint64_t n = trials();

    if (!vx_sim_exec_available(VX_SIM_EXEC_JIT)) {
        SKIP(return, "no AVX2 on this host: the translator is unavailable");
    }
    rng_state = 0x9e3779b97f4a7c15ull ^ T ^ seed() << 8;
    ASSERT_EQ(0, pair_open(&p, T));
    ASSERT_EQ(0, vx_jit_set_avx512(p.jit.sim, avx512));
    if (pair_spec_after >= 0) {
        ASSERT_EQ(0, vx_jit_set_specialize(p.jit.sim, pair_spec_after));
    }
    for (uint64_t i = 0; i < n; i++) {
        trial(_metadata, &p);
        if (_metadata->exit_code != KSFT_PASS) {
            TH_LOG("trial %llu differs", (unsigned long long)i);
            break;
        }
    }
    vx_jit_stats_get(p.jit.sim, &st);
    printf("# T=%u seed=%llu trials=%llu translated=%llu blocks_run=%llu interp=%llu "
           "untranslatable=%llu flushes=%llu specialized=%llu loops=%llu "
           "us_per_block=%.2f\n", T,
           (unsigned long long)seed(), (unsigned long long)n,
           (unsigned long long)st.blocks, (unsigned long long)st.runs,
           (unsigned long long)st.interp,
           (unsigned long long)st.untranslatable,
           (unsigned long long)st.flushes,
           (unsigned long long)st.specialized,
           (unsigned long long)st.loops,
           st.blocks ? st.ns / 1e3 / st.blocks : 0.0);
    /* the translator did run: a test of nothing would pass too */
    EXPECT_LT(n, st.runs);
    /* and ran loops in loop mode (put_scalar_loop()) */
    EXPECT_LT(0, st.loops);
    /* and made code for masks (AVX2 only) where it was to */
    if (pair_spec_after == 0 || st.avx512) {
        EXPECT_EQ(0, st.specialized);
    } else if (pair_spec_after == 1) {
        EXPECT_LT(0, st.specialized);
    }
    card_close(&p.ref);
    card_close(&p.jit);
}

/*
 * Code patched while a translated block loops: the debugger's software
 * breakpoints and memory writes reach VRAM through the BAR
 * (vram32_set(), the host's path), between bursts.  The loop (a counted
 * loop with a coalesced load: one self-looping block) spins translated
 * for 10 bursts; then word @at of its body becomes @patch on both cards;
 * after @keep more bursts (0: never) the original word is put back.
 * Both cards must agree after every burst (the interpreter's "The burst
 * executors must match it instruction for instruction"), and the jit
 * card must have run the loop translated.
 */
#define LOOP_WORDS  8
static void patch_loop(struct __test_metadata *_metadata, uint32_t at,
                       uint32_t patch, int keep, enum vx_exec_result want)
{
    static const uint32_t prog[LOOP_WORDS] = {
        ADDI(5, 0, 200),                        /* turns */
        ADDI(6, 0, 0),
        LW(7, 31, 0),                           /* loop: */
        ADD(6, 6, 7),
        ADDI(6, 6, 3),
        ADDI(5, 5, -1),
        BNE(5, 0, -16),
        TMC(0),
    };
    struct pair p;
    struct vx_tmask m = { { 0xff } };
    uint32_t regs[32 * 8] = { 0 }, fregs[32 * 8] = { 0 };
    struct vx_warp *wr, *wj;
    struct vx_jit_stats st;
    enum vx_exec_result rr = VX_EXEC_OK, rj;

    if (!vx_sim_exec_available(VX_SIM_EXEC_JIT)) {
        SKIP(return, "no AVX2 on this host: the translator is unavailable");
    }
    ASSERT_EQ(0, pair_open(&p, 8));
    for (uint32_t l = 0; l < 8; l++) {
        regs[31 * 8 + l] = DEV(DATA_WIN) + 4 * l;
    }
    for (uint32_t i = 0; i < LOOP_WORDS; i++) {
        vram32_set(&p.ref, PROG_OFF + 4 * i, prog[i]);
        vram32_set(&p.jit, PROG_OFF + 4 * i, prog[i]);
    }
    for (uint32_t i = 0; i < 64; i++) {
        vram32_set(&p.ref, DATA_WIN + 4 * i, i * 7);
        vram32_set(&p.jit, DATA_WIN + 4 * i, i * 7);
    }
    warp_init(&p.ref, 8, &m, regs, fregs, DEV(PROG_OFF), 0);
    warp_init(&p.jit, 8, &m, regs, fregs, DEV(PROG_OFF), 0);
    /*
     * As a debugger does, one access at a time: dmactive (its own
     * write), then ebreakh ("Enable ebreak halt"): an ebreak halts its
     * warp (vx_exec.c exec_ebreak()).
     */
    dm_wr(&p.ref, VX_DM_DCTRL, VX_DCTRL_DMACTIVE);
    dm_wr(&p.jit, VX_DM_DCTRL, VX_DCTRL_DMACTIVE);
    dm_wr(&p.ref, VX_DM_DCONFIG, VX_DCONFIG_EBREAKH);
    dm_wr(&p.jit, VX_DM_DCONFIG, VX_DCONFIG_EBREAKH);
    wr = &p.ref.sim->warps[0];
    wj = &p.jit.sim->warps[0];
    for (int b = 0; b < 400 && rr == VX_EXEC_OK && wr->active; b++) {
        uint64_t ur, uj;

        if (b == 10 || (keep && b == 10 + keep)) {
            uint32_t v = b == 10 ? patch : prog[at];

            vram32_set(&p.ref, PROG_OFF + 4 * at, v);
            vram32_set(&p.jit, PROG_OFF + 4 * at, v);
        }
        rr = vx_exec_burst(p.ref.sim, wr, 32, &ur);
        rj = vx_exec_burst(p.jit.sim, wj, 32, &uj);
        ASSERT_EQ(rr, rj) TH_LOG("burst %d", b);
        ASSERT_EQ(ur, uj) TH_LOG("burst %d", b);
        ASSERT_EQ(wr->pc, wj->pc) TH_LOG("burst %d", b);
        ASSERT_EQ(wr->instret, wj->instret) TH_LOG("burst %d", b);
        for (uint32_t i = 0; i < 32 * 8; i++) {
            ASSERT_EQ(wr->x[i], wj->x[i]) TH_LOG("burst %d x%u", b, i / 8);
        }
    }
    ASSERT_EQ(want, rr);
    ASSERT_EQ(0, p.jit.sim->error);
    if (want == VX_EXEC_HALTED) {
        /* stopped on the breakpoint, the loop's turns before it complete */
        ASSERT_TRUE(wj->halted);
        ASSERT_EQ(DEV(PROG_OFF) + 4 * at, wj->pc);
    } else {
        ASSERT_FALSE(wj->active);
        ASSERT_EQ(wr->x[6 * 8], wj->x[6 * 8]);
    }
    vx_jit_stats_get(p.jit.sim, &st);
    EXPECT_LT(10, st.runs);
    card_close(&p.ref);
    card_close(&p.jit);
}

/*
 * A software breakpoint over the loop's addi, with the Debug Module's
 * DCONFIG.ebreakh set: the translated loop halts there
 * (vxdebug-spec.md, DCONFIG: "ebreakh (EH) | 1 | RW | Enable ebreak
 * halt").
 */
TEST(breakpoint_in_loop)
{
    patch_loop(_metadata, 4, EBREAK, 0, VX_EXEC_HALTED);
}

/* another add for 5 bursts, then the old word again: both take effect */
TEST(patch_and_restore_in_loop)
{
    patch_loop(_metadata, 4, ADDI(6, 6, 1000), 5, VX_EXEC_ENDED);
}

/* @n words at VRAM offset @off of both cards, as the host writes them. */
static void pair_put(struct pair *p, uint32_t off, const uint32_t *w,
                     uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        vram32_set(&p->ref, off + 4 * i, w[i]);
        vram32_set(&p->jit, off + 4 * i, w[i]);
    }
}

/* @len bytes at VRAM offset @off of both cards, word i i * 0x9e3779b9. */
static void pair_fill(struct pair *p, uint32_t off, uint32_t len)
{
    for (uint32_t i = 0; i < len / 4; i++) {
        vram32_set(&p->ref, off + 4 * i, i * 0x9e3779b9u);
        vram32_set(&p->jit, off + 4 * i, i * 0x9e3779b9u);
    }
}

/*
 * A page that starts to hold translated code while a store's memo slot
 * says it holds none (translated launch).  The inline store skips the
 * codemap on such a slot (vx_jit_translate.c, "Loads and stores"), so a page's
 * first translation must make those slots stale even where no TLB
 * changes: here the ITLB has the page already, as the avx2 executor
 * fetched from it before the card switched to the jit
 * (vx_sim_set_exec(), "switches a running card"); the second data page,
 * as its ITLB set is not CODE_VA's.  Loop: a coalesced sw into that page
 * from CODE_VA (memo slot 0), then a jump into that page, where a coalesced sw (slot 0 too) writes a new addi two words
 * after it (its immediate one more each pass): the interpreter runs
 * each new addi, so must the jit.
 */
TEST(code_page_after_store_memo)
{
    static const uint32_t prog[] = {
        SW(7, 31, 0),                           /* CODE_VA: slot 0 */
        ADDI(6, 6, -1),
        BNE(6, 0, -8),
        ADDI(6, 0, 3),
        ADD(8, 8, 9),                           /* the next addi */
        RV_I(0, 30, 0, 0, 0x67),                /* jalr x0, 0(x30) */
    };
    static const uint32_t dcode[11] = {
        SW(8, 28, 0),                           /* DATA_VA + 0x1100: slot 0 */
        ADDI(0, 0, 0),
        ADDI(5, 5, 1),                          /* rewritten by the sw */
        ADDI(0, 0, 0), ADDI(0, 0, 0), ADDI(0, 0, 0), ADDI(0, 0, 0),
        ADDI(0, 0, 0), ADDI(0, 0, 0), ADDI(0, 0, 0),
        RV_I(0, 27, 0, 0, 0x67),                /* jalr x0, 0(x27) */
    };
    struct pair p;
    struct vx_tmask m = { { 0xff } };
    uint32_t regs[32 * 8] = { 0 }, fregs[32 * 8] = { 0 };
    struct vx_warp *wr, *wj;
    struct vx_jit_stats st;

    if (!vx_sim_exec_available(VX_SIM_EXEC_JIT)) {
        SKIP(return, "no AVX2 on this host: the translator is unavailable");
    }
    ASSERT_EQ(0, pair_open(&p, 8));
    for (uint32_t l = 0; l < 8; l++) {
        regs[6 * 8 + l] = 3;
        regs[7 * 8 + l] = 0x1000 + l;
        regs[8 * 8 + l] = l ? ADDI(0, 0, 0) : ADDI(5, 5, 50);
        regs[9 * 8 + l] = l ? 0 : 1u << 20;     /* imm + 1 */
        regs[27 * 8 + l] = CODE_VA;
        regs[28 * 8 + l] = DATA_VA + 0x1108 + 4 * l;
        regs[30 * 8 + l] = DATA_VA + 0x1100;
        regs[31 * 8 + l] = DATA_VA + 0x1000 + 4 * l;
    }
    pair_put(&p, PROG_OFF, prog, sizeof(prog) / 4);
    pair_put(&p, DATA_WIN + 0x1100, dcode, 11);
    ASSERT_EQ(0, vx_sim_set_exec(p.jit.sim, VX_SIM_EXEC_AVX2));
    warp_init(&p.ref, 8, &m, regs, fregs, CODE_VA, p.satp);
    warp_init(&p.jit, 8, &m, regs, fregs, CODE_VA, p.satp);
    wr = &p.ref.sim->warps[0];
    wj = &p.jit.sim->warps[0];
    for (int b = 0; b < 40; b++) {
        uint64_t ur, uj;
        enum vx_exec_result rr, rj;

        if (b == 2) {
            /* at CODE_VA, both pages fetched: the ITLB holds them */
            ASSERT_EQ(CODE_VA, wj->pc);
            ASSERT_EQ(0, vx_sim_set_exec(p.jit.sim, VX_SIM_EXEC_JIT));
        }
        /* the first two bursts: one pass each (12 + 11 instructions) */
        rr = vx_exec_burst(p.ref.sim, wr, b < 2 ? 23 : 32, &ur);
        rj = vx_exec_burst(p.jit.sim, wj, b < 2 ? 23 : 32, &uj);
        ASSERT_EQ(VX_EXEC_OK, rr) TH_LOG("burst %d", b);
        ASSERT_EQ(rr, rj) TH_LOG("burst %d", b);
        ASSERT_EQ(ur, uj) TH_LOG("burst %d", b);
        ASSERT_EQ(wr->pc, wj->pc) TH_LOG("burst %d", b);
        ASSERT_EQ(wr->x[5 * 8], wj->x[5 * 8]) TH_LOG("burst %d", b);
    }
    ASSERT_EQ(0, p.jit.sim->error);
    ASSERT_LT(50u * 20, wr->x[5 * 8]);          /* the new addis ran */
    for (uint32_t i = 0; i < 32 * 8; i++) {
        ASSERT_EQ(wr->x[i], wj->x[i]) TH_LOG("x%u lane %u", i / 8, i % 8);
    }
    vx_jit_stats_get(p.jit.sim, &st);
    EXPECT_LT(20, st.runs);
    card_close(&p.ref);
    card_close(&p.jit);
}

/*
 * A misaligned word load whose memo slot holds another executor's store
 * key for the same page (translated launch).  The inline access folds
 * the address's low two bits into the key it compares (vx_jit_translate.c, "Loads
 * and stores"); lw at page + 2 must not match a slot keyed page | VALID |
 * STORE (3, the avx2 executor's): the load faults (the interpreter's
 * misaligned load), as on the reference.  CODE_VA: a jal the jit runs (the
 * page's first translation, which makes memos stale, is over), then under
 * avx2 a coalesced sw twice (memo slot 4, filled from the DTLB the second
 * time) and nops, then under the jit the lw at slot 4 again.
 */
TEST(misaligned_load_on_store_memo)
{
    static const uint32_t prog[] = {
        JAL(0, 16),                             /* CODE_VA: to the sw */
        ADDI(0, 0, 0), ADDI(0, 0, 0), ADDI(0, 0, 0),
        SW(7, 31, 0),                           /* slot 4 */
        ADDI(6, 6, -1),
        BNE(6, 0, -8),
        ADDI(0, 0, 0), ADDI(0, 0, 0), ADDI(0, 0, 0), ADDI(0, 0, 0),
        ADDI(0, 0, 0),
        LW(5, 31, 2),                           /* slot 4, misaligned */
        TMC(0),
    };
    static const struct {
        enum vx_sim_exec exec;
        uint64_t max;
    } bursts[] = {
        { VX_SIM_EXEC_JIT, 1 },                 /* the jal */
        { VX_SIM_EXEC_AVX2, 11 },               /* up to the lw */
        { VX_SIM_EXEC_JIT, 32 },                /* the lw */
    };
    struct pair p;
    struct vx_tmask m = { { 0xff } };
    uint32_t regs[32 * 8] = { 0 }, fregs[32 * 8] = { 0 };
    struct vx_warp *wr, *wj;
    enum vx_exec_result rr = VX_EXEC_OK, rj;

    if (!vx_sim_exec_available(VX_SIM_EXEC_JIT)) {
        SKIP(return, "no AVX2 on this host: the translator is unavailable");
    }
    ASSERT_EQ(0, pair_open(&p, 8));
    for (uint32_t l = 0; l < 8; l++) {
        regs[6 * 8 + l] = 2;
        regs[7 * 8 + l] = 0x1000 + l;
        regs[31 * 8 + l] = DATA_VA + 4 * l;
    }
    pair_put(&p, PROG_OFF, prog, sizeof(prog) / 4);
    warp_init(&p.ref, 8, &m, regs, fregs, CODE_VA, p.satp);
    warp_init(&p.jit, 8, &m, regs, fregs, CODE_VA, p.satp);
    wr = &p.ref.sim->warps[0];
    wj = &p.jit.sim->warps[0];
    for (uint32_t b = 0; b < 3 && rr == VX_EXEC_OK; b++) {
        uint64_t ur, uj;

        ASSERT_EQ(0, vx_sim_set_exec(p.jit.sim, bursts[b].exec));
        rr = vx_exec_burst(p.ref.sim, wr, bursts[b].max, &ur);
        rj = vx_exec_burst(p.jit.sim, wj, bursts[b].max, &uj);
        ASSERT_EQ(rr, rj) TH_LOG("burst %u", b);
        ASSERT_EQ(ur, uj) TH_LOG("burst %u", b);
        ASSERT_EQ(wr->pc, wj->pc) TH_LOG("burst %u", b);
    }
    ASSERT_EQ(VX_EXEC_FAULT, rr);
    ASSERT_EQ(CODE_VA + 4 * 12, p.ref.sim->err_pc);
    ASSERT_EQ(p.ref.sim->err_cause, p.jit.sim->err_cause);
    ASSERT_EQ(p.ref.sim->err_pc, p.jit.sim->err_pc);
    ASSERT_EQ(p.ref.sim->err_addr, p.jit.sim->err_addr);
    card_close(&p.ref);
    card_close(&p.jit);
}

static void run_pairs(struct __test_metadata *_metadata, uint32_t T)
{
    run_pairs_on(_metadata, T, true);
}

TEST(diff_8) { run_pairs(_metadata, 8); }
TEST(diff_16) { run_pairs(_metadata, 16); }
TEST(diff_32) { run_pairs(_metadata, 32); }
TEST(diff_64) { run_pairs(_metadata, 64); }
TEST(diff_128) { run_pairs(_metadata, 128); }
/* the AVX2 moves of a host without AVX-512 (vpmaskmovd), on this one */
TEST(diff_16_avx2) { run_pairs_on(_metadata, 16, false); }

/*
 * The device's avx512=off (vx_sim_config.no_avx512): the card of an
 * AVX2-only host on any x86-64 one, for make bench (issue 37).  Its
 * translated code agrees with the interpreter and uses no AVX-512, also
 * after a reset (the translator is made again from the config); on an
 * AVX-512 host a card without it does use AVX-512, so the flag is seen.
 */
TEST(config_no_avx512_keeps_to_avx2)
{
    struct vx_jit_stats st;
    struct pair p;

    pair_no_avx512 = true;
    run_pairs_on(_metadata, 32, true);   /* asks for AVX-512: refused */
    ASSERT_EQ(0, pair_open(&p, 32));
    pair_no_avx512 = false;
    trial(_metadata, &p);
    vx_sim_reset(p.jit.sim);
    trial(_metadata, &p);
    ASSERT_TRUE(vx_jit_stats_get(p.jit.sim, &st));
    EXPECT_FALSE(st.avx512);
    card_close(&p.ref);
    card_close(&p.jit);
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512vl")) {
        return;
    }
    ASSERT_EQ(0, pair_open(&p, 32));
    trial(_metadata, &p);
    ASSERT_TRUE(vx_jit_stats_get(p.jit.sim, &st));
    EXPECT_TRUE(st.avx512);
    card_close(&p.ref);
    card_close(&p.jit);
}
TEST(diff_32_avx2) { run_pairs_on(_metadata, 32, false); }

/*
 * AVX2 code for masks: made at a block's first masked run (by default at
 * its second in a row with one mask, which random programs' blocks
 * seldom have), or never (the masked code for any mask alone).
 */
static void run_pairs_spec(struct __test_metadata *_metadata, uint32_t T,
                           int after)
{
    pair_spec_after = after;
    run_pairs_on(_metadata, T, false);
    pair_spec_after = -1;
}

TEST(diff_8_avx2_mask_code) { run_pairs_spec(_metadata, 8, 1); }
TEST(diff_16_avx2_mask_code) { run_pairs_spec(_metadata, 16, 1); }
TEST(diff_32_avx2_mask_code) { run_pairs_spec(_metadata, 32, 1); }
TEST(diff_128_avx2_mask_code) { run_pairs_spec(_metadata, 128, 1); }
TEST(diff_8_avx2_any_mask) { run_pairs_spec(_metadata, 8, 0); }
TEST(diff_32_avx2_any_mask) { run_pairs_spec(_metadata, 32, 0); }
TEST(diff_128_avx2_any_mask) { run_pairs_spec(_metadata, 128, 0); }

/*
 * A loop of coalesced loads and a store with ALU runs between them, on
 * a 32-lane warp whose mask has an empty chunk of 8 lanes, a full one and
 * mixed ones (words, pairs, halves: every store form of code made for a
 * mask): first the code made for that mask, then the warp's mask changes
 * (as split or join change it) and the same block runs the code for any
 * mask, then translated again, its code made for the new mask.  Both
 * cards must agree after every burst, VRAM included: the inactive lanes'
 * words are neither read into registers nor written.
 */
TEST(masked_loop_per_mask)
{
    static const uint32_t prog[] = {
        ADDI(5, 0, 300),                        /* turns */
        LW(7, 31, 0),                           /* loop: */
        LW(8, 31, 128),
        SLLI(9, 7, 1),
        ADD(9, 9, 8),
        ADDI(9, 9, 5),
        SW(9, 31, 256),
        ADDI(31, 31, 4),
        ADDI(5, 5, -1),
        BNE(5, 0, -32),
        TMC(0),
    };
    static const uint32_t masks[3] = { 0xf35aff00u, 0x00ff00ffu, 0xc50f003cu };
    enum { T = 32, N = sizeof(prog) / sizeof(prog[0]) };
    struct pair p;
    struct vx_tmask m = { { masks[0] } };
    uint32_t regs[32 * T] = { 0 }, fregs[32 * T] = { 0 };
    struct vx_warp *wr, *wj;
    struct vx_jit_stats st;
    enum vx_exec_result rr = VX_EXEC_OK, rj;

    if (!vx_sim_exec_available(VX_SIM_EXEC_JIT)) {
        SKIP(return, "no AVX2 on this host: the translator is unavailable");
    }
    ASSERT_EQ(0, pair_open(&p, T));
    ASSERT_EQ(0, vx_jit_set_avx512(p.jit.sim, false));
    for (uint32_t l = 0; l < T; l++) {
        regs[31 * T + l] = DEV(DATA_WIN) + 4 * l;
    }
    pair_put(&p, PROG_OFF, prog, N);
    pair_fill(&p, DATA_WIN, DATA_LEN);
    warp_init(&p.ref, T, &m, regs, fregs, DEV(PROG_OFF), 0);
    warp_init(&p.jit, T, &m, regs, fregs, DEV(PROG_OFF), 0);
    wr = &p.ref.sim->warps[0];
    wj = &p.jit.sim->warps[0];
    for (int b = 0; b < 120 && rr == VX_EXEC_OK; b++) {
        uint64_t ur, uj;

        if (b == 40 || b == 80) {
            /* another mask, every lane's loop afresh */
            m.w[0] = masks[b / 40];
            for (uint32_t l = 0; l < T; l++) {
                wr->x[5 * T + l] = wj->x[5 * T + l] = 300;
                wr->x[31 * T + l] = wj->x[31 * T + l] =
                    DEV(DATA_WIN) + 4 * l + 8 * b;
            }
            wr->tmask = wj->tmask = m;
            if (b == 80) {
                /* translated again: code for this mask */
                ASSERT_EQ(0, vx_jit_set_specialize(p.jit.sim, 2));
            }
        }
        rr = vx_exec_burst(p.ref.sim, wr, 1 + b % 50, &ur);
        rj = vx_exec_burst(p.jit.sim, wj, 1 + b % 50, &uj);
        ASSERT_EQ(rr, rj) TH_LOG("burst %d", b);
        ASSERT_EQ(ur, uj) TH_LOG("burst %d", b);
        ASSERT_EQ(wr->pc, wj->pc) TH_LOG("burst %d", b);
        ASSERT_EQ(wr->instret, wj->instret) TH_LOG("burst %d", b);
        for (uint32_t i = 0; i < 32 * T; i++) {
            ASSERT_EQ(wr->x[i], wj->x[i]) TH_LOG("burst %d x%u lane %u", b,
                                                 i / T, i % T);
        }
        ASSERT_EQ(0, memcmp(p.ref.vram, p.jit.vram, TEST_VRAM_SIZE))
            TH_LOG("burst %d VRAM", b);
    }
    ASSERT_EQ(VX_EXEC_OK, rr);
    ASSERT_EQ(0, p.jit.sim->error);
    ASSERT_TRUE(vx_jit_stats_get(p.jit.sim, &st));
    EXPECT_LT(60, st.runs);
    EXPECT_LT(1, st.specialized);       /* for two masks at least */
    card_close(&p.ref);
    card_close(&p.jit);
}

/*
 * bench/sim_bench.c's loop (two coalesced loads, arithmetic, a coalesced
 * store, pointers stepped by a uniform register) in loop mode, on a full
 * 32-lane warp and on one with lanes masked off (its code for the mask),
 * in bursts of every length, most starting inside the loop (the mid-loop
 * entry) or ending there (the countdown copy), until its pointers walk
 * past the end of VRAM: an access faults inside the loop.  Both cards must
 * agree after every burst, registers (written back from host registers
 * at every exit), VRAM and the fault.
 */
static void loop_mode_run(struct __test_metadata *_metadata, uint32_t mask)
{
    static const uint32_t prog[] = {
        ADDI(5, 0, 2000),                       /* turns */
        ADDI(12, 0, 128),                       /* the step: uniform */
        ADDI(11, 31, 0),                        /* affine */
        ADDI(13, 31, 0x400),
        LW(7, 11, 0),                           /* loop: */
        LW(8, 13, 0),
        SLLI(9, 7, 1),
        ADD(7, 7, 9),
        ADD(7, 7, 8),
        SW(7, 11, 0x800),
        ADD(11, 11, 12),
        ADD(13, 13, 12),
        ADDI(5, 5, -1),
        BNE(5, 0, -36),
        TMC(0),
    };
    enum { T = 32, N = sizeof(prog) / sizeof(prog[0]) };
    uint32_t regs[32 * T] = { 0 }, fregs[32 * T] = { 0 };
    uint32_t base = TEST_VRAM_SIZE - 0x2000;    /* 64 turns to the end */
    struct vx_tmask m = { { mask } };
    enum vx_exec_result rr = VX_EXEC_OK, rj = VX_EXEC_OK;
    struct vx_jit_stats st;
    struct vx_warp *wr, *wj;
    struct pair p;

    if (!vx_sim_exec_available(VX_SIM_EXEC_JIT)) {
        SKIP(return, "no AVX2 on this host: the translator is unavailable");
    }
    ASSERT_EQ(0, pair_open(&p, T));
    ASSERT_EQ(0, vx_jit_set_avx512(p.jit.sim, false));
    for (uint32_t l = 0; l < T; l++) {
        regs[31 * T + l] = DEV(base) + 4 * l;
        regs[9 * T + l] = l * 7;                /* inactive lanes keep it */
    }
    pair_put(&p, PROG_OFF, prog, N);
    pair_fill(&p, base, 0x2000);
    warp_init(&p.ref, T, &m, regs, fregs, DEV(PROG_OFF), 0);
    warp_init(&p.jit, T, &m, regs, fregs, DEV(PROG_OFF), 0);
    wr = &p.ref.sim->warps[0];
    wj = &p.jit.sim->warps[0];
    rng_state = 0x51ed270b27c1f2a5ull ^ mask;
    for (int b = 0; b < 4000 && rr == VX_EXEC_OK; b++) {
        uint64_t max = rnd() % 8 == 0 ? 1 : 1 + rnd() % 60, ur, uj;

        rr = vx_exec_burst(p.ref.sim, wr, max, &ur);
        rj = vx_exec_burst(p.jit.sim, wj, max, &uj);
        ASSERT_EQ(rr, rj) TH_LOG("burst %d", b);
        ASSERT_EQ(ur, uj) TH_LOG("burst %d", b);
        ASSERT_EQ(wr->pc, wj->pc) TH_LOG("burst %d", b);
        ASSERT_EQ(wr->instret, wj->instret) TH_LOG("burst %d", b);
        ASSERT_EQ(wr->cycle, wj->cycle) TH_LOG("burst %d", b);
        for (uint32_t i = 0; i < 32 * T; i++) {
            ASSERT_EQ(wr->x[i], wj->x[i]) TH_LOG("burst %d x%u lane %u", b,
                                                 i / T, i % T);
        }
        ASSERT_EQ(0, memcmp(p.ref.vram, p.jit.vram, TEST_VRAM_SIZE))
            TH_LOG("burst %d VRAM", b);
    }
    /* the pointers walked out of VRAM: an access fault inside the loop */
    ASSERT_EQ(VX_EXEC_FAULT, rr);
    ASSERT_EQ(p.ref.sim->error, p.jit.sim->error);
    ASSERT_EQ(p.ref.sim->err_cause, p.jit.sim->err_cause);
    ASSERT_EQ(p.ref.sim->err_pc, p.jit.sim->err_pc);
    ASSERT_EQ(p.ref.sim->err_addr, p.jit.sim->err_addr);
    ASSERT_TRUE(vx_jit_stats_get(p.jit.sim, &st));
    EXPECT_LT(0, st.loops);
    card_close(&p.ref);
    card_close(&p.jit);
}

TEST(loop_mode_full) { loop_mode_run(_metadata, ~0u); }
TEST(loop_mode_masked) { loop_mode_run(_metadata, 0xf35aff00u); }

TEST_HARNESS_MAIN
