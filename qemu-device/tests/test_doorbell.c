// SPDX-License-Identifier: MIT
/*
 * The fast doorbell of the simulated card, no QEMU (docs/hardware.md,
 * "Fast doorbell"): the DOORBELL value as the new TAIL, a short job run to
 * its FENCE inside the write with no interrupt for it, the rest left to
 * the run loop with interrupts as always, errors inside the write, and
 * the original model when the feature is off.
 *
 * The card's run loop is the test itself (vx_sim_run() via run_idle());
 * the kick hook counts what a DOORBELL left over for it.
 */
#include "kselftest_harness.h"
#include "uncore_util.h"

#define SEQNO               0x51

/* Count loop of @n (< 2048) turns, 2 warp instructions each, then the end. */
static void put_spin_kernel(struct card *c, uint32_t n)
{
    PUT_CODE(c, ADDI(5, 0, n), ADDI(5, 5, -1), BNE(5, 0, -4), TMC(0));
}

static int open_card(struct card *c, bool fast, uint32_t budget)
{
    struct vx_sim_config cfg = {
        .clusters = 1, .cores = 2, .warps = 4, .threads = 8,
        .vram_size = TEST_VRAM_SIZE,
        .fast_doorbell = fast, .doorbell_budget = budget,
    };

    if (card_open_cfg(c, &cfg) < 0) {
        return -1;
    }
    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(c, 0x1000);
    return 0;
}

/* The one write a driver makes with the fast doorbell: TAIL in DOORBELL. */
static void ring_doorbell(struct card *c)
{
    wr(c, VX_REG_DOORBELL, c->tail);
}

/* A one-block LAUNCH of the program at CODE_OFF, then FENCE(SEQNO, IRQ). */
static void ring_job(struct card *c)
{
    ring_launch_simple(c, 1, 8);
    ring_fence(c, SEQNO, VX_FENCE_FLAG_IRQ);
}

FIXTURE(fast) {
    struct card c;
};

FIXTURE_SETUP(fast)
{
    ASSERT_EQ(0, open_card(&self->c, true, VX_SIM_DOORBELL_BUDGET_DEFAULT));
}

FIXTURE_TEARDOWN(fast)
{
    card_close(&self->c);
}

TEST_F(fast, caps_bit_set)
{
    EXPECT_EQ(VX_CAPS_DM | VX_CAPS_RING | VX_CAPS_FPU | VX_CAPS_MMU |
              VX_CAPS_CONSOLE | VX_CAPS_LMEM | VX_CAPS_FENCE_WB |
              VX_CAPS_FAST_DOORBELL,
              rd(&self->c, VX_REG_CAPS));
}

/* One register write instead of RING_TAIL + DOORBELL. */
TEST_F(fast, doorbell_value_is_tail)
{
    struct card *c = &self->c;

    ring_fence(c, 7, 0);
    ring_doorbell(c);
    EXPECT_EQ(12, rd(c, VX_REG_RING_TAIL));
    EXPECT_EQ(12, rd(c, VX_REG_RING_HEAD));
    EXPECT_EQ(7, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(0, c->kicks);
    EXPECT_EQ(0, c->guest_errors);
}

/* The old way still works: RING_TAIL, then DOORBELL with the same value. */
TEST_F(fast, ring_tail_then_doorbell)
{
    struct card *c = &self->c;

    ring_fence(c, 7, 0);
    ring_kick(c);
    EXPECT_EQ(7, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(0, c->guest_errors);
}

/* An empty kernel and its FENCE(IRQ) are over when the write returns. */
TEST_F(fast, empty_kernel_fence_inside_the_write)
{
    struct card *c = &self->c;

    PUT_CODE(c, TMC(0));
    for (uint32_t job = 0; job < 3; job++) {
        ring_launch_simple(c, 1, 8);
        ring_fence(c, SEQNO + job, VX_FENCE_FLAG_IRQ);
        ring_doorbell(c);
        /* nothing else ran the card: the write did it all */
        EXPECT_EQ(SEQNO + job, rd(c, VX_REG_FENCE_SEQNO));
        EXPECT_EQ(c->tail, rd(c, VX_REG_RING_HEAD));
        EXPECT_EQ(0, rd(c, VX_REG_STATUS));
        EXPECT_EQ(0, rd(c, VX_REG_IRQ_STATUS));
    }
    EXPECT_EQ(0, c->irq_rises);
    EXPECT_FALSE(c->irq_level);
    EXPECT_EQ(0, c->kicks);
    EXPECT_FALSE(vx_sim_runnable(c->sim));
}

/*
 * A kernel longer than the budget: the write runs exactly the budget and
 * leaves the rest to the run loop, whose FENCE interrupts.
 */
TEST_F(fast, long_kernel_fence_interrupts_later)
{
    struct card *c = &self->c;

    put_spin_kernel(c, 2000);
    ring_job(c);
    ring_doorbell(c);
    EXPECT_EQ(VX_SIM_DOORBELL_BUDGET_DEFAULT, rd(c, VX_REG_CLOCK_LO));
    EXPECT_EQ(13 * 4, rd(c, VX_REG_RING_HEAD));     /* LAUNCH consumed */
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(VX_STATUS_CP_BUSY | VX_STATUS_WARPS_ACTIVE,
              rd(c, VX_REG_STATUS));
    EXPECT_EQ(1, c->kicks);
    EXPECT_TRUE(vx_sim_runnable(c->sim));

    run_idle(c, 100000);
    EXPECT_EQ(SEQNO, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(VX_IRQ_FENCE, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_EQ(1, c->irq_rises);
    EXPECT_TRUE(c->irq_level);
}

/* A busy card is the run loop's: a DOORBELL then runs nothing itself. */
TEST_F(fast, busy_card_not_run_inside_the_write)
{
    struct card *c = &self->c;
    uint32_t clock;

    put_spin_kernel(c, 2000);
    ring_launch_simple(c, 1, 8);
    ring_doorbell(c);
    clock = rd(c, VX_REG_CLOCK_LO);
    ring_fence(c, SEQNO, VX_FENCE_FLAG_IRQ);
    ring_doorbell(c);
    EXPECT_EQ(clock, rd(c, VX_REG_CLOCK_LO));
    EXPECT_EQ(2, c->kicks);
    run_idle(c, 100000);
    EXPECT_EQ(SEQNO, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(VX_IRQ_FENCE, rd(c, VX_REG_IRQ_STATUS));
}

TEST_F(fast, exception_inside_the_write_interrupts)
{
    struct card *c = &self->c;

    PUT_CODE(c, LW(5, 0, 0x10));        /* NULL page load */
    ring_job(c);
    ring_doorbell(c);
    EXPECT_EQ(VX_ERR_LOAD_FAULT, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(0, rd(c, VX_REG_ERR_PKT));
    EXPECT_EQ(VX_STATUS_ERROR | VX_STATUS_WARPS_ACTIVE, rd(c, VX_REG_STATUS));
    EXPECT_EQ(VX_IRQ_ERROR, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_EQ(1, c->irq_rises);
    EXPECT_TRUE(c->irq_level);
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(0, c->kicks);
}

TEST_F(fast, bad_packet_inside_the_write_interrupts)
{
    struct card *c = &self->c;

    ring_put(c, VX_PKT_HDR(0x07, 0));
    ring_fence(c, SEQNO, VX_FENCE_FLAG_IRQ);
    ring_doorbell(c);
    EXPECT_EQ(VX_ERR_BAD_PACKET, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(VX_IRQ_ERROR, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_TRUE(c->irq_level);
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(1, c->guest_errors);
    EXPECT_EQ(0, c->kicks);
}

/* A TAIL that RING_TAIL would refuse: a guest error, and nothing runs. */
FIXTURE(badtail) {
    struct card c;
};

FIXTURE_VARIANT(badtail) {
    uint32_t value;
};

FIXTURE_VARIANT_ADD(badtail, old_driver_one) { 1 };
FIXTURE_VARIANT_ADD(badtail, unaligned) { 6 };
FIXTURE_VARIANT_ADD(badtail, ring_size) { 0x1000 };
FIXTURE_VARIANT_ADD(badtail, past_ring) { 0x2000 };

FIXTURE_SETUP(badtail)
{
    ASSERT_EQ(0, open_card(&self->c, true, VX_SIM_DOORBELL_BUDGET_DEFAULT));
}

FIXTURE_TEARDOWN(badtail)
{
    card_close(&self->c);
}

TEST_F(badtail, doorbell_ignored)
{
    struct card *c = &self->c;

    PUT_CODE(c, TMC(0));
    ring_job(c);
    wr(c, VX_REG_DOORBELL, variant->value);
    EXPECT_EQ(1, c->guest_errors);
    EXPECT_EQ(0, rd(c, VX_REG_RING_TAIL));
    EXPECT_EQ(0, rd(c, VX_REG_RING_HEAD));
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(0, rd(c, VX_REG_CLOCK_LO));
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
    EXPECT_EQ(0, c->kicks);
    EXPECT_FALSE(vx_sim_runnable(c->sim));
}

/* Budget 0: TAIL in DOORBELL, but everything runs on the run loop. */
TEST(budget_zero_runs_nothing_inline)
{
    struct card c;

    ASSERT_EQ(0, open_card(&c, true, 0));
    EXPECT_TRUE(rd(&c, VX_REG_CAPS) & VX_CAPS_FAST_DOORBELL);
    PUT_CODE(&c, TMC(0));
    ring_job(&c);
    ring_doorbell(&c);
    EXPECT_EQ(c.tail, rd(&c, VX_REG_RING_TAIL));
    EXPECT_EQ(0, rd(&c, VX_REG_RING_HEAD));
    EXPECT_EQ(1, c.kicks);
    run_idle(&c, 1000);
    EXPECT_EQ(SEQNO, rd(&c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(VX_IRQ_FENCE, rd(&c, VX_REG_IRQ_STATUS));
    card_close(&c);
}

/* Off, whatever the budget: the original model, caps bit clear. */
TEST(off_is_the_original_model)
{
    struct card c;

    ASSERT_EQ(0, open_card(&c, false, VX_SIM_DOORBELL_BUDGET_DEFAULT));
    EXPECT_FALSE(rd(&c, VX_REG_CAPS) & VX_CAPS_FAST_DOORBELL);
    PUT_CODE(&c, TMC(0));
    ring_job(&c);
    ring_doorbell(&c);                  /* the value is not TAIL here */
    EXPECT_EQ(0, rd(&c, VX_REG_RING_TAIL));
    EXPECT_EQ(1, c.kicks);
    run_idle(&c, 1000);
    EXPECT_EQ(0, rd(&c, VX_REG_FENCE_SEQNO));

    wr(&c, VX_REG_RING_TAIL, c.tail);
    wr(&c, VX_REG_DOORBELL, 1);
    EXPECT_EQ(0, rd(&c, VX_REG_RING_HEAD));     /* nothing ran in the write */
    EXPECT_EQ(2, c.kicks);
    run_idle(&c, 1000);
    EXPECT_EQ(SEQNO, rd(&c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(VX_IRQ_FENCE, rd(&c, VX_REG_IRQ_STATUS));
    EXPECT_EQ(0, c.guest_errors);
    card_close(&c);
}

TEST(budget_above_max_rejected)
{
    struct vx_sim_config cfg = {
        .clusters = 1, .cores = 1, .warps = 1, .threads = 8,
        .vram_size = TEST_VRAM_SIZE, .fast_doorbell = true,
        .doorbell_budget = VX_SIM_DOORBELL_BUDGET_MAX,
    };
    char err[160];

    EXPECT_EQ(0, vx_sim_config_check(&cfg, err, sizeof(err)));
    cfg.doorbell_budget++;
    EXPECT_EQ(-1, vx_sim_config_check(&cfg, err, sizeof(err)));
    EXPECT_NE(NULL, strstr(err, "doorbell budget"));
}

TEST_HARNESS_MAIN
