// SPDX-License-Identifier: MIT
/*
 * SIMT control as upstream Vortex defines it, one test per rule.  The
 * rules and the upstream lines they come from are in docs/hardware.md,
 * "SIMT control"; each test names its rule by the tag used there
 * (UPSTREAM_*) and its lines in github.com/vortexgpgpu/vortex at
 * fe8168b9 (docs/hardware.md, "Upstream Vortex: the one reference"):
 * EXE = sim/simx/execute.cpp, EMU = sim/simx/emulator.cpp, INTR =
 * kernel/include/vx_intrinsics.h, WCTL = hw/rtl/core/VX_wctl_unit.sv,
 * ALU = hw/rtl/core/VX_alu_int.sv.  The programs are
 * hand-assembled, with data at DATA.
 */
#include <string.h>
#include "kselftest_harness.h"
#include "sim_loader.h"
#include "vx_asm.h"

#define SLOTS   (1000 * 1000)
#define CODE    (VX_VRAM_DEVADDR + 0x1000)
#define DATA    (VX_VRAM_DEVADDR + 0x10000)
#define DATA_HI (DATA >> 12)                    /* LUI operand */

#define CUSTOM0(f7, f3, rd, rs1, rs2) \
    RV_R(f7, rs2, rs1, f3, rd, VX_OPCODE_CUSTOM0)
/* @neg is a register *field*, 0 or 1 (x1): upstream's vx_split_n, vx_pred_n */
#define SPLIT(rd, rs1, neg) CUSTOM0(0, VX_F3_SPLIT, rd, rs1, neg)
#define JOIN(rs1)           CUSTOM0(0, VX_F3_JOIN, 0, rs1, 0)
#define PRED(neg, rs1, rs2) CUSTOM0(0, VX_F3_PRED, neg, rs1, rs2)
#define WSPAWN(rs1, rs2)    CUSTOM0(0, VX_F3_WSPAWN, 0, rs1, rs2)
#define BAR(rs1, rs2)       CUSTOM0(0, VX_F3_BAR, 0, rs1, rs2)
#define VOTE(f3, rd, rs1)   CUSTOM0(1, f3, rd, rs1, 0)
#define SHFL(f3, rd, rs1, rs2) CUSTOM0(1, f3, rd, rs1, rs2)
#define SRL(rd, rs1, rs2)   RV_R(0, rs2, rs1, 5, rd, 0x33)
#define ORI(rd, rs1, imm)   RV_I(imm, rs1, 6, rd, 0x13)
#define JALR(rd, rs1, imm)  RV_I(imm, rs1, 0, rd, 0x67)
#define LANE_ADDR(rd, base) /* rd = base + 4 * lane (x5 = lane) */ \
    SLLI(rd, 5, 2), ADD(rd, rd, base)

/* A card with @prog at CODE; warp 0 is started on @mask, if not 0. */
static struct vx_card *prog_card(uint32_t cores, uint32_t warps,
                                 uint32_t threads, const uint32_t *prog,
                                 size_t n, uint32_t mask)
{
    struct vx_card *c = vx_card_new(cores, warps, threads);

    if (!c) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        vx_card_wr32(c, CODE + 4 * i, prog[i]);
    }
    if (mask) {
        vx_card_start(c, 0, CODE, mask);
    }
    return c;
}

#define PROG_CARD(cores, warps, threads, prog, mask) \
    prog_card(cores, warps, threads, prog, sizeof(prog) / sizeof(prog[0]), mask)

static uint32_t data(struct vx_card *c, uint32_t word)
{
    return vx_card_rd32(c, DATA + 4 * word);
}

/* No error and every warp gone. */
static void expect_done(struct __test_metadata *_metadata, struct vx_card *c)
{
    EXPECT_EQ(VX_ERR_NONE, vx_card_reg(c, VX_REG_ERR_CAUSE)) {
        TH_LOG("fault %u at 0x%08x", vx_card_reg(c, VX_REG_ERR_CAUSE),
               vx_card_reg(c, VX_REG_ERR_PC));
    }
    for (uint32_t g = 0; g < c->sim->nwarps; g++) {
        EXPECT_FALSE(c->sim->warps[g].active) TH_LOG("warp %u", g);
    }
}

static uint32_t popcount(uint32_t v)
{
    return __builtin_popcount(v);
}

/*
 * split over 4 lanes for every predicate pattern P (lane l's bit), as
 * split and as split.n: the predicate is 2 | P's bit, never 0, so only bit
 * 0 decides (UPSTREAM_SPLIT_BIT0, EXE:1335), and x1 holds 0, so only the
 * rs2 field negates (UPSTREAM_SPLIT_NEG, INTR:141-145).  Recorded: each side's mask in the order
 * they ran, how many ran, the mask after the last join and the token.
 * Upstream runs the larger side first, the taken one on a tie
 * (UPSTREAM_SPLIT_ORDER, EXE:1346-1351, WCTL:116-118), and a uniform split
 * pushes nothing: one pass, token 0 (UPSTREAM_SPLIT_UNIFORM,
 * EXE:1340-1359); the second join restores the mask (EXE:1370-1372).  The old code took any non-zero
 * predicate as true and x1's value as the negation: every pattern was
 * uniform (one pass) where upstream diverges, e.g. P=1: 1 pass, not 2.
 */
/* @prog (@n words) run to its end by 4 lanes with P = @p at DATA. */
static struct vx_card *run_pattern(struct __test_metadata *_metadata,
                                   const uint32_t *prog, size_t n, uint32_t p)
{
    struct vx_card *c = prog_card(1, 1, 4, prog, n, 0);

    if (c) {
        vx_card_wr32(c, DATA, p);
        vx_card_start(c, 0, CODE, 0xf);
        vx_card_run(c, SLOTS);
        expect_done(_metadata, c);
    }
    return c;
}

/* x7 = 2 | bit lane of the word at DATA (P), x5 = lane, x8 = DATA, x1 = 0 */
#define PREDICATE                                                           \
    CSRR(5, VX_CSR_THREAD_ID),                                              \
    LUI(8, DATA_HI),                                                        \
    LW(9, 8, 0),                /* P */                                     \
    SRL(7, 9, 5),                                                           \
    ANDI(7, 7, 1),                                                          \
    ORI(7, 7, 2),               /* 2 | bit */                               \
    ADDI(1, 0, 0)               /* x1 = 0: the field negates, not this */

static const uint32_t split_prog[2][20] = {
#define SPLIT_PROG(neg) {                                                   \
    PREDICATE,                                                              \
    SPLIT(10, 7, neg),                                                      \
    CSRR(11, VX_CSR_ACTIVE_THREADS),    /* each side runs from here */      \
    LW(13, 8, 8),                                                           \
    SLLI(14, 13, 2),                                                        \
    ADD(14, 14, 8),                                                         \
    SW(11, 14, 16),             /* side[n] = mask */                        \
    ADDI(13, 13, 1),                                                        \
    SW(13, 8, 8),               /* n++ */                                   \
    JOIN(10),                                                               \
    CSRR(11, VX_CSR_ACTIVE_THREADS),                                        \
    SW(11, 8, 12),                                                          \
    SW(10, 8, 4),                                                           \
    TMC(0),                                                                 \
}
    SPLIT_PROG(0), SPLIT_PROG(1),
#undef SPLIT_PROG
};

TEST(split_every_pattern)
{
    for (uint32_t neg = 0; neg < 2; neg++)
    for (uint32_t p = 0; p < 16; p++) {
        struct vx_card *c = run_pattern(_metadata, split_prog[neg], 20, p);
        uint32_t then = (neg ? ~p : p) & 0xf, other = 0xf & ~then;
        bool dvg = then && other;
        uint32_t first = popcount(then) >= popcount(other) ? then : other;

        ASSERT_NE(NULL, c);
        EXPECT_EQ(dvg ? 2u : 1u, data(c, 2)) TH_LOG("P=%x neg=%u", p, neg);
        EXPECT_EQ(dvg ? first : 0xfu, data(c, 4)) TH_LOG("P=%x neg=%u", p, neg);
        EXPECT_EQ(dvg ? 0xf & ~first : 0u, data(c, 5)) {
            TH_LOG("P=%x neg=%u", p, neg);
        }
        EXPECT_EQ(0xf, data(c, 3));
        EXPECT_EQ(0, data(c, 1));
        vx_card_free(c);
    }
}

/*
 * The second side is the one the split left, whatever the first did to
 * its mask (UPSTREAM_JOIN: the split pushes it, EXE:1352-1354, and the
 * first join takes it, EXE:1374-1376).  Lanes 0 and 1 take the split, a
 * tie, so they run first (in either order rule), and narrow themselves
 * to lane 0 with tmc; lanes 2 and 3 run second, and the second join
 * brings all four back.  The card used to run "the entry's mask but the
 * current one": 0xe, lane 1 a second time, now on the other side.
 */
static const uint32_t join_other_prog[] = {
    CSRR(5, VX_CSR_THREAD_ID),
    LUI(8, DATA_HI),
    RV_I(2, 5, 2, 7, 0x13),             /* slti x7, x5, 2 */
    ADDI(12, 0, 1),
    ADDI(15, 0, 3),
    SPLIT(10, 7, 0),
    CSRR(11, VX_CSR_ACTIVE_THREADS),    /* each side runs from here */
    LW(13, 8, 8),
    SLLI(14, 13, 2),
    ADD(14, 14, 8),
    SW(11, 14, 16),                     /* side[n] = mask */
    ADDI(13, 13, 1),
    SW(13, 8, 8),                       /* n++ */
    BNE(11, 15, 8),                     /* the first side (0x3) only: */
    TMC(12),                            /* lane 0 goes on alone */
    JOIN(10),
    CSRR(11, VX_CSR_ACTIVE_THREADS),
    SW(11, 8, 12),
    TMC(0),
};

TEST(join_runs_the_side_the_split_left)
{
    struct vx_card *c = run_pattern(_metadata, join_other_prog,
                                    sizeof(join_other_prog) / 4, 0);

    ASSERT_NE(NULL, c);
    EXPECT_EQ(2, data(c, 2));
    EXPECT_EQ(0x3, data(c, 4));
    EXPECT_EQ(0xc, data(c, 5));
    EXPECT_EQ(0xf, data(c, 3));
    vx_card_free(c);
}

/*
 * pred over 4 lanes for every P, as pred and pred.n (rd field 1), with the
 * same predicates and x1 = 0: the mask becomes the active lanes whose bit
 * 0 (xor the rd field, INTR:123-125) is set (UPSTREAM_PRED, EXE:1384-1396),
 * or, if there are none, the rs2 of the highest active lane
 * (UPSTREAM_LAST_LANE, EXE:1395): here 2 * lane + 1,
 * so 0x7 from lane 3.  The old code kept every lane (any non-zero value),
 * and its fallback would have been lane 0's 0x1.
 */
static const uint32_t pred_prog[2][13] = {
#define PRED_PROG(neg) {                                                    \
    PREDICATE,                                                              \
    SLLI(15, 5, 1), ADDI(15, 15, 1),    /* fallback: 2 * lane + 1 */        \
    PRED(neg, 7, 15),                                                       \
    CSRR(11, VX_CSR_ACTIVE_THREADS),                                        \
    SW(11, 8, 4),                                                           \
    TMC(0),                                                                 \
}
    PRED_PROG(0), PRED_PROG(1),
#undef PRED_PROG
};

TEST(pred_every_pattern)
{
    for (uint32_t neg = 0; neg < 2; neg++)
    for (uint32_t p = 0; p < 16; p++) {
        struct vx_card *c = run_pattern(_metadata, pred_prog[neg], 13, p);
        uint32_t then = (neg ? ~p : p) & 0xf;

        ASSERT_NE(NULL, c);
        EXPECT_EQ(then ? then : 0x7u, data(c, 1)) TH_LOG("P=%x neg=%u", p, neg);
        vx_card_free(c);
    }
}

/*
 * 40 nested uniform splits push nothing (UPSTREAM_SPLIT_UNIFORM, only a
 * divergent split pushes, EXE:1340-1355; rd = the depth, EXE:1357-1359):
 * every token is 0, and a join with the depth as token does nothing
 * (EXE:1365), so the 40 joins are no-ops.  The old code
 * pushed an entry for each and faulted (ERR_CAUSE DIVERGENCE) at the 33rd.
 */
TEST(nested_uniform_splits)
{
    static const uint32_t prog[] = {
        LUI(8, DATA_HI),
        ADDI(7, 0, 3),                  /* bit 0 set in every lane */
        ADDI(12, 0, 40),
        SPLIT(10, 7, 0),                /* 40 times */
        ADDI(12, 12, -1),
        BNE(12, 0, -8),
        ADDI(12, 0, 40),
        JOIN(10),                       /* 40 times */
        ADDI(12, 12, -1),
        BNE(12, 0, -8),
        SW(10, 8, 0),
        CSRR(11, VX_CSR_ACTIVE_THREADS),
        SW(11, 8, 4),
        TMC(0),
    };
    struct vx_card *c = PROG_CARD(1, 1, 8, prog, 0);

    ASSERT_NE(NULL, c);
    vx_card_wr32(c, DATA, 0xdead);
    vx_card_start(c, 0, CODE, 0xff);
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    EXPECT_EQ(0, data(c, 0));
    EXPECT_EQ(0xff, data(c, 1));
    vx_card_free(c);
}

/*
 * Warp 0 spawns warps 1-3 at A, where each sets sp to w << 12 | 0x123,
 * spins 200 iterations, sets flag[w] and ends; then warp 0 spawns them
 * again at B, where each stores its sp.  Upstream's second wspawn waits
 * until warp 0 is the core's only active warp (UPSTREAM_WSPAWN_WAIT,
 * EMU:289-297 and EMU:165-175), so warp 0 then sees all 3 flags, and the
 * second start sets only PC and mask (UPSTREAM_WSPAWN_REGS, EMU:170-171),
 * so B sees A's sp.
 */
#define A_AT    20
#define B_AT    32
static const uint32_t spawn_prog[] = {
    LUI(8, DATA_HI),
    ADDI(5, 0, 4),
    LUI(6, CODE >> 12), ADDI(6, 6, 4 * A_AT),
    WSPAWN(5, 6),                       /* warp 0 is alone: now */
    LUI(6, CODE >> 12), ADDI(6, 6, 4 * B_AT),
    WSPAWN(5, 6),                       /* waits for warps 1-3 to end */
    LW(9, 8, 68), LW(10, 8, 72), LW(11, 8, 76),
    ADD(9, 9, 10), ADD(9, 9, 11),
    SW(9, 8, 0),                        /* flags seen after the wspawn */
    TMC(0),
    NOP, NOP, NOP, NOP, NOP,
    /* A_AT: */
    LUI(8, DATA_HI),
    CSRR(12, VX_CSR_WARP_ID),
    SLLI(2, 12, 12), ADDI(2, 2, 0x123),
    ADDI(13, 0, 200),
    ADDI(13, 13, -1), BNE(13, 0, -4),
    SLLI(14, 12, 2), ADD(14, 14, 8),
    ADDI(15, 0, 1), SW(15, 14, 64),     /* flag[w] */
    TMC(0),
    /* B_AT: */
    LUI(8, DATA_HI),
    CSRR(12, VX_CSR_WARP_ID),
    SLLI(14, 12, 2), ADD(14, 14, 8),
    SW(2, 14, 32),                      /* sp[w] */
    TMC(0),
};

static struct vx_card *spawn_card(struct __test_metadata *_metadata)
{
    struct vx_card *c = PROG_CARD(1, 4, 4, spawn_prog, 0x1);

    if (c) {
        vx_card_run(c, SLOTS);
        expect_done(_metadata, c);
    }
    return c;
}

/* The old code started B at once, skipping warps 1-3 (still active): 0. */
TEST(wspawn_waits_until_the_caller_is_alone)
{
    struct vx_card *c = spawn_card(_metadata);

    ASSERT_NE(NULL, c);
    ASSERT_EQ(LUI(8, DATA_HI), spawn_prog[A_AT]);
    ASSERT_EQ(LUI(8, DATA_HI), spawn_prog[B_AT]);
    EXPECT_EQ(3, data(c, 0));
    vx_card_free(c);
}

/* The old code cleared x on wspawn (and never ran B): sp 0. */
TEST(wspawn_keeps_sp)
{
    struct vx_card *c = spawn_card(_metadata);

    ASSERT_NE(NULL, c);
    for (uint32_t w = 1; w < 4; w++) {
        EXPECT_EQ(w << 12 | 0x123, data(c, 8 + w)) TH_LOG("warp %u", w);
    }
    vx_card_free(c);
}

/*
 * 2 cores x 2 warps: each core's warp 0 spawns warp 1, every warp sets
 * flag[gid], meets the others at global barrier 0 with a count of 2 -
 * cores, not warps (UPSTREAM_GBAR: EMU:311-315, then sim/simx/cluster.cpp
 * Cluster::barrier(), :121-146, counts cores) - and then sums the 4 flags.  A core
 * arrives when both its warps have, so every warp sees 4.  The old code
 * counted warps device-wide: the first 2 warps went on and saw 2.
 */
TEST(global_barrier_counts_cores)
{
    static const uint32_t prog[] = {
        LUI(8, DATA_HI),
        CSRR(12, VX_CSR_WARP_ID),
        BNE(12, 0, 16),                 /* warp 1: skip the spawn */
        ADDI(5, 0, 2),
        LUI(6, CODE >> 12),
        WSPAWN(5, 6),                   /* warp 1 at CODE too */
        CSRR(13, 0xcc2),                /* core */
        SLLI(13, 13, 1), ADD(13, 13, 12), /* gid */
        SLLI(14, 13, 2), ADD(14, 14, 8),
        ADDI(15, 0, 1), SW(15, 14, 0),  /* flag[gid] */
        LUI(16, 0x80000), ADDI(17, 0, 2),
        BAR(16, 17),                    /* global 0, 2 cores */
        LW(9, 8, 0), LW(10, 8, 4), ADD(9, 9, 10),
        LW(10, 8, 8), ADD(9, 9, 10), LW(10, 8, 12), ADD(9, 9, 10),
        SW(9, 14, 32),                  /* seen[gid] */
        TMC(0),
    };
    struct vx_card *c = PROG_CARD(2, 2, 1, prog, 0x1);

    ASSERT_NE(NULL, c);
    vx_card_start(c, 2, CODE, 0x1);     /* core 1, warp 0 */
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    for (uint32_t g = 0; g < 4; g++) {
        EXPECT_EQ(4, data(c, 8 + g)) TH_LOG("warp %u", g);
    }
    vx_card_free(c);
}

/*
 * A jump follows the highest active lane (UPSTREAM_LAST_LANE: jalr
 * EXE:469): lane l would jump to T + 8 * l, which loads l into x20, and
 * every lane goes to lane 3's; then x7 = (x20 == 3) holds in every lane
 * and bne x7, x0 is taken (a branch whose lanes disagree stops the card:
 * test_branch.c).  The old code followed lane 0: x20 = 0 and the branch
 * not taken (x21 = 1).
 */
TEST(jumps_follow_the_highest_lane)
{
    static const uint32_t prog[] = {
        CSRR(5, VX_CSR_THREAD_ID),
        LUI(8, DATA_HI),
        SLLI(6, 5, 3),
        LUI(7, CODE >> 12), ADD(6, 6, 7),
        JALR(0, 6, 4 * 8),              /* CODE + 32 + 8 * lane */
        NOP, NOP,
        ADDI(20, 0, 0), JAL(0, 32),     /* 8: lane 0 */
        ADDI(20, 0, 1), JAL(0, 24),
        ADDI(20, 0, 2), JAL(0, 16),
        ADDI(20, 0, 3), JAL(0, 8),
        NOP,
        ADDI(21, 0, 0),                 /* 17 */
        ADDI(7, 20, -3), RV_I(1, 7, 3, 7, 0x13), /* x7 = x20 == 3 */
        BNE(7, 0, 8),
        ADDI(21, 0, 1),                 /* not taken */
        LANE_ADDR(9, 8),
        SW(20, 9, 0),
        SW(21, 9, 16),
        TMC(0),
    };
    struct vx_card *c = PROG_CARD(1, 1, 4, prog, 0xf);

    ASSERT_NE(NULL, c);
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    for (uint32_t l = 0; l < 4; l++) {
        EXPECT_EQ(3, data(c, l)) TH_LOG("lane %u", l);
        EXPECT_EQ(0, data(c, 4 + l)) TH_LOG("lane %u", l);
    }
    vx_card_free(c);
}

/*
 * vote and shuffle over 8 lanes with lanes 0, 4 and 7 inactive (mask
 * 0x6e), as upstream's execute.cpp computes them (UPSTREAM_VOTE,
 * EXE:308-343; UPSTREAM_SHFL, EXE:344-384) from the operands
 * vx_intrinsics.h encodes (INTR:225-282): funct7 1, funct3 0-3 vote
 * all/any/uni/ballot, 4-7 shuffle up/down/bfly/idx with rs2 = mask << 12
 * | c << 6 | b.  An inactive lane neither votes nor serves as a source
 * (it reads 0: fetch_registers reads active lanes only, EXE:50-109).  The old code faulted ILLEGAL_INSTR.
 */
#define ROW(r)  (0x20 * (r))            /* byte offset of result row r */
static const uint32_t vote_prog[] = {
    CSRR(5, VX_CSR_THREAD_ID),
    LUI(8, DATA_HI),
    LANE_ADDR(6, 8),
    LW(7, 6, 0x400),                    /* mixed predicate */
    VOTE(0, 10, 7), SW(10, 6, ROW(0)),
    VOTE(1, 10, 7), SW(10, 6, ROW(1)),
    VOTE(2, 10, 7), SW(10, 6, ROW(2)),
    VOTE(3, 10, 7), SW(10, 6, ROW(3)),
    LW(7, 6, 0x460),                    /* true in every active lane */
    VOTE(0, 10, 7), SW(10, 6, ROW(4)),
    VOTE(1, 10, 7), SW(10, 6, ROW(5)),
    VOTE(2, 10, 7), SW(10, 6, ROW(6)),
    VOTE(3, 10, 7), SW(10, 6, ROW(7)),
    LW(11, 6, 0x420),                   /* values */
    LW(12, 8, 0x440),                   /* b 1, c 7, whole warp */
    SHFL(4, 10, 11, 12), SW(10, 6, ROW(8)),
    SHFL(5, 10, 11, 12), SW(10, 6, ROW(9)),
    SHFL(6, 10, 11, 12), SW(10, 6, ROW(10)),
    SHFL(7, 10, 11, 12), SW(10, 6, ROW(11)),
    LW(12, 8, 0x444),                   /* b 2, c 3, segments of 4 */
    SHFL(4, 10, 11, 12), SW(10, 6, ROW(12)),
    SHFL(5, 10, 11, 12), SW(10, 6, ROW(13)),
    SHFL(6, 10, 11, 12), SW(10, 6, ROW(14)),
    SHFL(7, 10, 11, 12), SW(10, 6, ROW(15)),
    SHFL(4, 11, 11, 12), SW(11, 6, ROW(16)),    /* rd = rs1 */
    TMC(0),
};

TEST(vote_and_shuffle_partial_mask)
{
    static const uint32_t pred[8] = { 3, 2, 5, 4, 7, 1, 6, 9 };
    static const uint32_t all_true[8] = { 0, 3, 1, 5, 0, 7, 9, 0 };
    /* per active lane 1, 2, 3, 5, 6; 0 = from an inactive lane */
    static const uint32_t want[][8] = {
        { 0, 0, 0, 0, 0, 0, 0, 0 },                 /* all */
        { 0, 1, 1, 1, 0, 1, 1, 0 },                 /* any */
        { 0, 0, 0, 0, 0, 0, 0, 0 },                 /* uni */
        { 0, 0x24, 0x24, 0x24, 0, 0x24, 0x24, 0 },  /* ballot: 2, 5 */
        { 0, 1, 1, 1, 0, 1, 1, 0 },
        { 0, 1, 1, 1, 0, 1, 1, 0 },
        { 0, 1, 1, 1, 0, 1, 1, 0 },
        { 0, 0x6e, 0x6e, 0x6e, 0, 0x6e, 0x6e, 0 },
        { 0, 0, 0x111, 0x122, 0, 0, 0x155, 0 },     /* up 1 */
        { 0, 0x122, 0x133, 0, 0, 0x166, 0, 0 },     /* down 1 */
        { 0, 0, 0x133, 0x122, 0, 0, 0, 0 },         /* bfly 1 */
        { 0, 0x111, 0x111, 0x111, 0, 0x111, 0x111, 0 }, /* idx 1 */
        { 0, 0x111, 0, 0x111, 0, 0x155, 0, 0 },     /* up 2 in 4 */
        { 0, 0x133, 0x122, 0x133, 0, 0, 0x166, 0 }, /* down 2 in 4 */
        { 0, 0x133, 0, 0x111, 0, 0, 0, 0 },         /* bfly 2 in 4 */
        { 0, 0x122, 0x122, 0x122, 0, 0x166, 0x166, 0 }, /* idx 2 in 4 */
        { 0, 0x111, 0, 0x111, 0, 0x155, 0, 0 },     /* up 2, rd = rs1 */
    };
    struct vx_card *c = PROG_CARD(1, 1, 8, vote_prog, 0);

    ASSERT_NE(NULL, c);
    for (uint32_t l = 0; l < 8; l++) {
        vx_card_wr32(c, DATA + 0x400 + 4 * l, pred[l]);
        vx_card_wr32(c, DATA + 0x420 + 4 * l, 0x100 + 0x11 * l);
        vx_card_wr32(c, DATA + 0x460 + 4 * l, all_true[l]);
    }
    vx_card_wr32(c, DATA + 0x440, 0 << 12 | 7 << 6 | 1);
    vx_card_wr32(c, DATA + 0x444, 0x3c << 12 | 3 << 6 | 2);
    vx_card_start(c, 0, CODE, 0x6e);
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    for (uint32_t r = 0; r < sizeof(want) / sizeof(want[0]); r++) {
        for (uint32_t l = 0; l < 8; l++) {
            EXPECT_EQ(want[r][l], data(c, 8 * r + l)) {
                TH_LOG("row %u lane %u", r, l);
            }
        }
    }
    vx_card_free(c);
}

TEST_HARNESS_MAIN
