// SPDX-License-Identifier: MIT
/*
 * A conditional branch whose active lanes disagree, outside split/join:
 * upstream's simulator aborts there ("divergent branch!",
 * sim/simx/execute.cpp:442-448 at fe8168b9), and so does the card, with
 * DIVERGENT_BRANCH at the branch: ERR_PC the branch, ERR_ADDR its target,
 * ERR_TMASK the active lanes, ERR_INFO those that would take it, and no
 * lane's store after it done.  The same branch with every lane on one
 * side goes on, and so does the same code bracketed by split/join.  The
 * rtl_branch card follows the highest active lane instead, as upstream's
 * RTL (hw/rtl/core/VX_alu_int.sv:224-262).
 *
 * Every executor runs each case in the test itself (so the suite runs
 * once, like test_jit_diff): ref, burst, avx2, and the translator with
 * its AVX-512 moves on and off; on warps of 4 to 128 lanes, full and
 * partial, so the translated code's full and masked functions, and every
 * word of the masks, are both seen.
 */
#include "kselftest_harness.h"
#include "exec_matrix.h"
#include "vx_asm.h"

#define SLOTS       (1000 * 1000)
#define POISON      0xdeadbeefu
#define CUSTOM0(f3, rd, rs1, rs2) RV_R(0, rs2, rs1, f3, rd, VX_OPCODE_CUSTOM0)
#define SPLIT(rd, rs1)  CUSTOM0(VX_F3_SPLIT, rd, rs1, 0)
#define JOIN(rs1)       CUSTOM0(VX_F3_JOIN, 0, rs1, 0)
#define SLTI(rd, rs1, imm) RV_I(imm, rs1, 2, rd, 0x13)

/* x6 = lane < @k; lanes that take the branch store 2, the others 1 */
#define PROLOGUE(k)                                                     \
    CSRR(5, VX_CSR_THREAD_ID),                                          \
    SLTI(6, 5, k),                                                      \
    ADDI(7, 0, 0)
#define STORE_END                                                       \
    SLLI(8, 5, 2),                                                      \
    ADD(8, 8, 10),              /* a0: the argument, DATA */            \
    SW(7, 8, 0),                                                        \
    TMC(0)

#define BRANCH_AT   12          /* the branch's offset in both programs */

/* the per-lane branch as stock clang emits it: no split, no join */
#define PLAIN(k) {                                                      \
    PROLOGUE(k),                                                        \
    BNE(6, 0, 12),              /* BRANCH_AT: lanes < k go to +24 */    \
    ADDI(7, 0, 1),                                                      \
    JAL(0, 8),                                                          \
    ADDI(7, 0, 2),                                                      \
    STORE_END,                                                          \
}

/* the same with upstream's LLVM pass's brackets (VX_IF in vx_intrinsics.h) */
#define BRACKETED(k) {                                                  \
    PROLOGUE(k),                                                        \
    SPLIT(11, 6),                                                       \
    BEQ(6, 0, 12),              /* uniform on each side of the split */ \
    ADDI(7, 0, 2),                                                      \
    JAL(0, 8),                                                          \
    ADDI(7, 0, 1),                                                      \
    JOIN(11),                                                           \
    STORE_END,                                                          \
}

FIXTURE(branch) {
    struct card c;
};

FIXTURE_VARIANT(branch) {
    uint32_t threads;           /* per warp */
    uint32_t lanes;             /* the block's threads: the active lanes */
};

FIXTURE_VARIANT_ADD(branch, t4) { .threads = 4, .lanes = 4 };
FIXTURE_VARIANT_ADD(branch, t8) { .threads = 8, .lanes = 8 };
FIXTURE_VARIANT_ADD(branch, t8_partial) { .threads = 8, .lanes = 7 };
FIXTURE_VARIANT_ADD(branch, t16_partial) { .threads = 16, .lanes = 13 };
FIXTURE_VARIANT_ADD(branch, t32) { .threads = 32, .lanes = 32 };
FIXTURE_VARIANT_ADD(branch, t64_partial) { .threads = 64, .lanes = 50 };
FIXTURE_VARIANT_ADD(branch, t128) { .threads = 128, .lanes = 128 };
FIXTURE_VARIANT_ADD(branch, t128_partial) { .threads = 128, .lanes = 100 };

FIXTURE_SETUP(branch)
{
}

FIXTURE_TEARDOWN(branch)
{
}

/*
 * A 1 x 1 x @threads card on executor @x (rtl_branch @rtl), @prog at
 * CODE, DATA poisoned; false (logged) if this host cannot run @x.
 */
static bool open_card(struct __test_metadata *_metadata, struct card *c,
                      const struct exec *x, uint32_t threads, bool rtl,
                      const uint32_t *prog, size_t n)
{
    struct vx_sim_config cfg = {
        .clusters = 1, .cores = 1, .warps = 1, .threads = threads,
        .vram_size = TEST_VRAM_SIZE, .rtl_branch = rtl,
    };
    int r = exec_card_open(c, x, &cfg);

    if (r) {
        TH_LOG("%s: %s", x->name, r > 0 ? "not on this host" : c->last_error);
        EXPECT_LT(0, r);
        return false;
    }
    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(c, 0x1000);
    put_code(c, CODE_OFF, prog, n);
    for (uint32_t l = 0; l < threads; l++) {
        vram32_set(c, DATA_OFF + 4 * l, POISON);
    }
    return true;
}

/* One block of @lanes threads at CODE; ERR_CAUSE once nothing runs. */
static uint32_t run(struct card *c, uint32_t lanes)
{
    struct launch l = {
        .entry = DEV(CODE_OFF), .arg = DEV(DATA_OFF),
        .grid = { 1, 1, 1 }, .block = { lanes, 1, 1 },
    };

    ring_launch(c, &l);
    ring_fence(c, 1, 0);
    ring_kick(c);
    run_idle(c, SLOTS);
    return rd(c, VX_REG_ERR_CAUSE);
}

/* The translated code ran, where there is a translator. */
static void expect_translated(struct __test_metadata *_metadata,
                              struct card *c, const struct exec *x)
{
    EXPECT_TRUE(exec_translated(c, x)) TH_LOG("%s: nothing ran translated",
                                              x->name);
}

/* Lanes [0, n) of a @threads-lane mask, word @w. */
static uint32_t lanes_word(uint32_t n, uint32_t w)
{
    if (n <= 32 * w) {
        return 0;
    }
    return n >= 32 * (w + 1) ? ~0u : (1u << (n - 32 * w)) - 1;
}

/* Every active lane stored @v(lane), the others nothing. */
static void expect_stores(struct __test_metadata *_metadata, struct card *c,
                          const char *who, uint32_t threads, uint32_t lanes,
                          uint32_t k)
{
    for (uint32_t l = 0; l < threads; l++) {
        uint32_t want = l >= lanes ? POISON : l < k ? 2 : 1;

        EXPECT_EQ(want, vram32(c, DATA_OFF + 4 * l)) {
            TH_LOG("%s lane %u", who, l);
        }
    }
}

/*
 * The plain branch with lanes [0, k) taking it: the card stops at the
 * branch, DIVERGENT_BRANCH, with both sides reported and nothing stored.
 */
TEST_F(branch, divergent_branch_stops_there)
{
    uint32_t T = variant->threads, n = variant->lanes, k = n / 2 + 1;
    const uint32_t prog[] = PLAIN(k);
    uint32_t pc = DEV(CODE_OFF) + BRANCH_AT;

    for (size_t i = 0; i < NEXECS; i++) {
        const struct exec *x = &execs[i];
        struct card *c = &self->c;

        if (!open_card(_metadata, c, x, T, false, prog, sizeof(prog) / 4)) {
            continue;
        }
        EXPECT_EQ(VX_ERR_DIVERGENT_BRANCH, run(c, n)) TH_LOG("%s", x->name);
        EXPECT_EQ(pc, rd(c, VX_REG_ERR_PC)) TH_LOG("%s", x->name);
        EXPECT_EQ(pc + 12, rd(c, VX_REG_ERR_ADDR)) TH_LOG("%s", x->name);
        EXPECT_EQ(0, rd(c, VX_REG_ERR_WARP)) TH_LOG("%s", x->name);
        EXPECT_EQ(0, rd(c, VX_REG_ERR_THREAD)) TH_LOG("%s", x->name);
        for (uint32_t w = 0; w < 4; w++) {
            /* both sides: every active lane, and those that take it */
            EXPECT_EQ(lanes_word(n, w), rd(c, VX_REG_ERR_TMASK(w))) {
                TH_LOG("%s TMASK%u", x->name, w);
            }
            EXPECT_EQ(lanes_word(k, w), rd(c, VX_REG_ERR_INFO(w))) {
                TH_LOG("%s INFO%u", x->name, w);
            }
        }
        /* frozen on the branch, the store after it never done */
        EXPECT_EQ(pc, c->sim->warps[0].pc) TH_LOG("%s", x->name);
        expect_stores(_metadata, c, x->name, T, 0, 0);
        expect_translated(_metadata, c, x);
        card_close(c);
    }
}

/*
 * @prog (@words words) runs to its end on every executor, card
 * rtl_branch @rtl: lanes [0, @k) stored 2, the others 1.
 */
static void expect_ends(struct __test_metadata *_metadata, struct card *c,
                        const FIXTURE_VARIANT(branch) *variant,
                        const uint32_t *prog, size_t words, bool rtl,
                        uint32_t k)
{
    uint32_t T = variant->threads, n = variant->lanes;

    for (size_t i = 0; i < NEXECS; i++) {
        const struct exec *x = &execs[i];

        if (!open_card(_metadata, c, x, T, rtl, prog, words)) {
            continue;
        }
        EXPECT_EQ(VX_ERR_NONE, run(c, n)) {
            TH_LOG("%s: cause %u at 0x%08x", x->name,
                   rd(c, VX_REG_ERR_CAUSE), rd(c, VX_REG_ERR_PC));
        }
        expect_stores(_metadata, c, x->name, T, n, k);
        expect_translated(_metadata, c, x);
        card_close(c);
    }
}

/* The same branch with every lane on one side, either side: no stop. */
TEST_F(branch, uniform_branch_goes_on)
{
    const uint32_t none[] = PLAIN(0);
    const uint32_t all[] = PLAIN(2047);

    expect_ends(_metadata, &self->c, variant, none, sizeof(none) / 4, false, 0);
    expect_ends(_metadata, &self->c, variant, all, sizeof(all) / 4, false,
                2047);
}

/* Bracketed by split/join, the same branch gives every lane its side. */
TEST_F(branch, bracketed_branch_passes)
{
    uint32_t k = variant->lanes / 2 + 1;
    const uint32_t prog[] = BRACKETED(k);

    expect_ends(_metadata, &self->c, variant, prog, sizeof(prog) / 4, false, k);
}

/*
 * rtl_branch: the plain branch follows the highest active lane, n - 1,
 * which does not take it, so every lane stores 1 and nothing stops.
 */
TEST_F(branch, rtl_branch_follows_the_highest_lane)
{
    const uint32_t prog[] = PLAIN(variant->lanes / 2 + 1);

    expect_ends(_metadata, &self->c, variant, prog, sizeof(prog) / 4, true, 0);
}

TEST_HARNESS_MAIN
