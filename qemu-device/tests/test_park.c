// SPDX-License-Identifier: MIT
/*
 * Parking (qemu-device/sim/vx_park.c, docs/hardware.md "Parking"): a card
 * whose every running warp spins without effect stops running them until
 * something can change that, and a loop that does work never parks.
 *
 * The card's run loop is the test itself; vx_sim_park_count() says whether
 * the card parked.  A host write that ends a spin is made once the card is
 * seen parked, so the window it tests is opened on purpose, not by time.
 * Runs once per executor (make's SIM_EXEC_TESTS): parking single-steps
 * warps on the interpreter, which every executor must then go on from.
 */
#include "kselftest_harness.h"
#include "uncore_util.h"

#define SEQNO           0x34
#define FLAG_OFF        DATA_OFF            /* the kernel's argument */
/* Enough slots for a few probe rounds at their longest backoff. */
#define LONG_RUN        (40u << 20)

FIXTURE(park) {
    struct card c;
};

FIXTURE_SETUP(park)
{
    ASSERT_EQ(0, card_open(&self->c, 1, 2, 4, 8));
    wr(&self->c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(&self->c, 0x1000);
}

FIXTURE_TEARDOWN(park)
{
    card_close(&self->c);
}

/* @blocks blocks of @threads at CODE_OFF, then FENCE(SEQNO): go. */
static void go(struct card *c, uint32_t blocks, uint32_t threads)
{
    ring_launch_simple(c, blocks, threads);
    ring_fence(c, SEQNO, VX_FENCE_FLAG_IRQ);
    ring_kick(c);
}

/*
 * Run as a QEMU run thread does, in slices, until the card is not
 * runnable (ended or parked) or @max slots went by.
 */
static uint64_t run(struct card *c, uint64_t max)
{
    uint64_t used = 0, n;

    while (used < max && vx_sim_runnable(c->sim)) {
        n = vx_sim_run(c->sim, 2048);
        used += n;
        if (!n) {
            break;
        }
    }
    return used;
}

static uint32_t seqno(struct card *c)
{
    return rd(c, VX_REG_FENCE_SEQNO);
}

/* Spin while the word at the argument is 0, then end. */
static void put_flag_spin(struct card *c)
{
    PUT_CODE(c, CSRR(10, VX_CSR_MSCRATCH),
             LW(5, 10, 0), BEQ(5, 0, -4),
             TMC(0));
}

TEST_F(park, jself_parks_until_reset)
{
    struct card *c = &self->c;
    uint64_t instret, clock;

    PUT_CODE(c, JSELF);
    go(c, 2, 8);
    run(c, LONG_RUN);
    ASSERT_TRUE(vx_sim_parked(c->sim));
    EXPECT_EQ(1, vx_sim_park_count(c->sim));
    EXPECT_FALSE(vx_sim_runnable(c->sim));
    /* parked, nothing runs and no counter moves */
    instret = c->sim->warps[0].instret;
    clock = rd(c, VX_REG_CLOCK_LO);
    EXPECT_EQ(0, vx_sim_run(c->sim, 100000));
    EXPECT_EQ(instret, c->sim->warps[0].instret);
    EXPECT_EQ(clock, rd(c, VX_REG_CLOCK_LO));
    EXPECT_NE(SEQNO, seqno(c));
    /* what a driver's timeout does: the reset ends the job */
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    EXPECT_FALSE(vx_sim_parked(c->sim));
    EXPECT_FALSE(vx_sim_runnable(c->sim));
    EXPECT_FALSE(c->sim->warps[0].active);
}

TEST_F(park, host_flag_wakes)
{
    struct card *c = &self->c;
    int kicks;

    put_flag_spin(c);
    go(c, 1, 8);
    run(c, LONG_RUN);
    ASSERT_TRUE(vx_sim_parked(c->sim));
    EXPECT_FALSE(vx_sim_park_poll(c->sim));
    /* a host write behind the simulator's back, as through the BAR */
    kicks = c->kicks;
    vram32_set(c, FLAG_OFF, 1);
    EXPECT_TRUE(vx_sim_park_poll(c->sim));
    EXPECT_FALSE(vx_sim_parked(c->sim));
    EXPECT_EQ(kicks + 1, c->kicks);
    run(c, LONG_RUN);
    EXPECT_EQ(SEQNO, seqno(c));
    EXPECT_EQ(1, vx_sim_park_count(c->sim));
}

/* vx_sim_run() looks at the words itself: an embedder need not poll. */
TEST_F(park, host_flag_seen_by_run)
{
    struct card *c = &self->c;

    put_flag_spin(c);
    go(c, 1, 8);
    run(c, LONG_RUN);
    ASSERT_TRUE(vx_sim_parked(c->sim));
    vram32_set(c, FLAG_OFF, 1);
    EXPECT_NE(0, vx_sim_run(c->sim, 2048));
    run(c, LONG_RUN);
    EXPECT_EQ(SEQNO, seqno(c));
}

/* Writing the flag's word with what it holds changes nothing. */
TEST_F(park, same_value_stays_parked)
{
    struct card *c = &self->c;

    put_flag_spin(c);
    go(c, 1, 8);
    run(c, LONG_RUN);
    ASSERT_TRUE(vx_sim_parked(c->sim));
    vram32_set(c, FLAG_OFF, 0);
    EXPECT_FALSE(vx_sim_park_poll(c->sim));
    EXPECT_EQ(0, vx_sim_run(c->sim, 2048));
}

/*
 * Warp 1 counts for a while (several probe rounds), then sets the flag
 * warp 0 spins on: the working warp keeps the card awake, both end.
 */
TEST_F(park, other_warp_sets_flag)
{
    struct card *c = &self->c;

    PUT_CODE(c, CSRR(10, VX_CSR_MSCRATCH),
             CSRR(6, VX_CSR_WARP_ID),
             BNE(6, 0, 16),
             LW(5, 10, 0), BEQ(5, 0, -4),              /* warp 0 */
             TMC(0),
             LUI(7, 0x400),                             /* warp 1: 4M turns */
             ADDI(7, 7, -1), BNE(7, 0, -4),
             ADDI(5, 0, 1), SW(5, 10, 0),
             TMC(0));
    go(c, 1, 16);
    run(c, 4 * LONG_RUN);
    EXPECT_EQ(SEQNO, seqno(c));
    EXPECT_EQ(0, vx_sim_park_count(c->sim));
    EXPECT_EQ(1, vram32(c, FLAG_OFF));
}

#define CUSTOM0(f3, rd, rs1, rs2) RV_R(0, rs2, rs1, f3, rd, VX_OPCODE_CUSTOM0)
#define SPLIT(rd, rs1)  CUSTOM0(VX_F3_SPLIT, rd, rs1, 0)
#define JOIN(rs1)       CUSTOM0(VX_F3_JOIN, 0, rs1, 0)

/*
 * hang.elf's loop: VX_IF on a predicate that is false, a uniform split
 * and its join every turn.  The IPDOM stack is part of what is compared.
 */
TEST_F(park, uniform_split_spin_parks)
{
    struct card *c = &self->c;

    PUT_CODE(c, SPLIT(10, 0), JOIN(10), JAL(0, -8));
    go(c, 1, 8);
    run(c, LONG_RUN);
    EXPECT_TRUE(vx_sim_parked(c->sim));
    EXPECT_EQ(0, c->sim->warps[0].ipdom_depth);
}

/* Odd and even lanes take turns every turn: one entry pushed and popped. */
TEST_F(park, divergent_split_spin_parks)
{
    struct card *c = &self->c;

    PUT_CODE(c, CSRR(7, VX_CSR_THREAD_ID), ANDI(7, 7, 1),
             SPLIT(10, 7), ADDI(8, 0, 5), JOIN(10), JAL(0, -12));
    go(c, 1, 8);
    run(c, LONG_RUN);
    EXPECT_TRUE(vx_sim_parked(c->sim));
    EXPECT_EQ(0xff, c->sim->warps[0].tmask.w[0]);
}

/* A counter in memory: the loop looks idle to a PC watcher, never parks. */
TEST_F(park, memory_counter_never_parks)
{
    struct card *c = &self->c;

    PUT_CODE(c, CSRR(10, VX_CSR_MSCRATCH),
             LW(5, 10, 0), ADDI(5, 5, 1), SW(5, 10, 0), JAL(0, -12));
    go(c, 1, 8);
    EXPECT_EQ(LONG_RUN, run(c, LONG_RUN));
    EXPECT_EQ(0, vx_sim_park_count(c->sim));
    EXPECT_LT(1000000, vram32(c, FLAG_OFF));
}

/* A register that changes: same PC every turn, never parks. */
TEST_F(park, register_counter_never_parks)
{
    struct card *c = &self->c;

    PUT_CODE(c, ADDI(5, 5, 1), JAL(0, -4));
    go(c, 1, 8);
    EXPECT_EQ(LONG_RUN, run(c, LONG_RUN));
    EXPECT_EQ(0, vx_sim_park_count(c->sim));
}

/* Reading the cycle counter is a register that changes. */
TEST_F(park, cycle_reader_never_parks)
{
    struct card *c = &self->c;

    PUT_CODE(c, CSRR(5, VX_CSR_MCYCLE), JAL(0, -4));
    go(c, 1, 8);
    EXPECT_EQ(LONG_RUN, run(c, LONG_RUN));
    EXPECT_EQ(0, vx_sim_park_count(c->sim));
}

/* A halted warp is no idle warp: its neighbours spin, the card runs. */
TEST_F(park, halted_warp_keeps_card_awake)
{
    struct card *c = &self->c;

    PUT_CODE(c, JSELF);
    go(c, 2, 8);                /* warps 0 and 4 */
    vx_sim_run(c->sim, 0);
    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE);
    dm_wr(c, VX_DM_WMASK, 1);
    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_HALTREQ);
    ASSERT_TRUE(c->sim->warps[0].halted);
    EXPECT_EQ(LONG_RUN, run(c, LONG_RUN));
    EXPECT_EQ(0, vx_sim_park_count(c->sim));
}

/* A DM request wakes a parked card, and halts the warp where it spun. */
TEST_F(park, dm_halt_wakes)
{
    struct card *c = &self->c;
    uint32_t pc;
    int kicks;

    PUT_CODE(c, CSRR(10, VX_CSR_MSCRATCH), JSELF);
    go(c, 1, 8);
    run(c, LONG_RUN);
    ASSERT_TRUE(vx_sim_parked(c->sim));
    pc = c->sim->warps[0].pc;
    EXPECT_EQ(DEV(CODE_OFF) + 4, pc);
    kicks = c->kicks;
    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE);
    EXPECT_FALSE(vx_sim_parked(c->sim));
    EXPECT_EQ(kicks + 1, c->kicks);
    dm_wr(c, VX_DM_WMASK, 1);
    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_HALTREQ);
    EXPECT_TRUE(c->sim->warps[0].halted);
    EXPECT_EQ(pc, c->sim->warps[0].pc);
    /* resumed, it spins and parks again */
    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_RESUMEREQ);
    run(c, LONG_RUN);
    EXPECT_TRUE(vx_sim_parked(c->sim));
    EXPECT_EQ(2, vx_sim_park_count(c->sim));
}

/*
 * A run too short for one warp's probe never parks: a debugger's single
 * steps and small budgets see the card as they always did.
 */
TEST_F(park, small_budgets_never_park)
{
    struct card *c = &self->c;
    uint64_t used = 0;

    PUT_CODE(c, JSELF);
    go(c, 1, 8);
    while (used < LONG_RUN / 8) {
        uint64_t n = vx_sim_run(c->sim, 32);

        ASSERT_EQ(32, n);
        used += n;
    }
    EXPECT_EQ(0, vx_sim_park_count(c->sim));
}

TEST_HARNESS_MAIN
