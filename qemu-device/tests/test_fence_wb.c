// SPDX-License-Identifier: MIT
/*
 * Fence write-back of the simulated card, no QEMU (docs/hardware.md,
 * "Fence write-back"): FENCE_WB's checks, the record written at once and
 * by every FENCE (SEQNO, CLOCK and CONS_TAIL as the registers read them),
 * none after 0 or RESET, and, with the fast doorbell, the record of a
 * short job in VRAM when the DOORBELL write returns, of a long one only
 * once the run loop has executed its FENCE.
 */
#include "kselftest_harness.h"
#include "uncore_util.h"

#define WB_OFF      0x30000u    /* the record */
#define CONS_OFF    0x50000u    /* console ring, 4 KiB */
#define COUT        VX_IO_COUT_ADDR

struct wb_rec {
    uint32_t seqno, clock_lo, clock_hi, cons_tail;
};

static struct wb_rec wb_read(struct card *c, uint32_t off)
{
    return (struct wb_rec){
        vram32(c, off + VX_FENCE_WB_SEQNO),
        vram32(c, off + VX_FENCE_WB_CLOCK_LO),
        vram32(c, off + VX_FENCE_WB_CLOCK_HI),
        vram32(c, off + VX_FENCE_WB_CONS_TAIL),
    };
}

/* The record holds what the registers read now. */
#define EXPECT_REC_IS_REGS(c, off) do { \
        struct wb_rec r_ = wb_read(c, off); \
        EXPECT_EQ(rd(c, VX_REG_FENCE_SEQNO), r_.seqno); \
        EXPECT_EQ(rd(c, VX_REG_CLOCK_LO), r_.clock_lo); \
        EXPECT_EQ(rd(c, VX_REG_CLOCK_HI), r_.clock_hi); \
        EXPECT_EQ(rd(c, VX_REG_CONS_TAIL), r_.cons_tail); \
    } while (0)

/* Fill the record's bytes with a pattern no FENCE writes. */
static void wb_poison(struct card *c, uint32_t off)
{
    for (uint32_t i = 0; i < VX_FENCE_WB_SIZE; i += 4) {
        vram32_set(c, off + i, 0xdeadbeef);
    }
}

/* Each lane prints one byte, then the warp ends: 8 console records. */
static void put_print_kernel(struct card *c)
{
    PUT_CODE(c, ADDI(5, 0, 'x'), SB(5, 0, COUT), TMC(0));
}

/* A one-block job of 8 threads, FENCE(@seqno, IRQ) after it. */
static void ring_job(struct card *c, uint32_t seqno)
{
    ring_launch_simple(c, 1, 8);
    ring_fence(c, seqno, VX_FENCE_FLAG_IRQ);
}

static void cons_setup(struct card *c)
{
    wr(c, VX_REG_CONS_BASE, DEV(CONS_OFF));
    wr(c, VX_REG_CONS_SIZE, 0x1000);
    wr(c, VX_REG_CONS_CTRL, VX_CONS_CTRL_ENABLE);
}

/* ------------------------------------------- the run loop's FENCEs */

FIXTURE(wb) {
    struct card c;
};

FIXTURE_SETUP(wb)
{
    ASSERT_EQ(0, card_open(&self->c, 1, 2, 4, 8));
    wr(&self->c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(&self->c, 0x1000);
    cons_setup(&self->c);
    wb_poison(&self->c, WB_OFF);
}

FIXTURE_TEARDOWN(wb)
{
    card_close(&self->c);
}

TEST_F(wb, caps_bit_and_reset_value)
{
    EXPECT_NE(0, rd(&self->c, VX_REG_CAPS) & VX_CAPS_FENCE_WB);
    EXPECT_EQ(0, rd(&self->c, VX_REG_FENCE_WB));
}

/* Pointing FENCE_WB somewhere writes the record there before any FENCE. */
TEST_F(wb, written_at_once)
{
    struct card *c = &self->c;

    ring_fence(c, 5, 0);
    ring_kick(c);
    run_idle(c, 1000);
    ASSERT_EQ(0xdeadbeef, vram32(c, WB_OFF));   /* nothing before */
    wr(c, VX_REG_FENCE_WB, DEV(WB_OFF));
    EXPECT_EQ(DEV(WB_OFF), rd(c, VX_REG_FENCE_WB));
    EXPECT_EQ(5, wb_read(c, WB_OFF).seqno);
    EXPECT_REC_IS_REGS(c, WB_OFF);
    EXPECT_EQ(0, c->guest_errors);
}

/* A job that printed: its FENCE's record has its clock and console tail. */
TEST_F(wb, every_fence_writes_it)
{
    struct card *c = &self->c;

    wr(c, VX_REG_FENCE_WB, DEV(WB_OFF));
    put_print_kernel(c);
    for (uint32_t job = 1; job <= 3; job++) {
        ring_job(c, 100 + job);
        ring_kick(c);
        run_idle(c, 100000);
        EXPECT_EQ(100 + job, rd(c, VX_REG_FENCE_SEQNO));
        EXPECT_EQ(job * 8 * VX_CONS_REC_SIZE, wb_read(c, WB_OFF).cons_tail);
        EXPECT_NE(0, wb_read(c, WB_OFF).clock_lo);
        EXPECT_REC_IS_REGS(c, WB_OFF);
    }
    EXPECT_EQ(0, c->guest_errors);
}

/* 0 turns it off: later FENCEs leave the old record alone. */
TEST_F(wb, zero_turns_it_off)
{
    struct card *c = &self->c;

    wr(c, VX_REG_FENCE_WB, DEV(WB_OFF));
    wb_poison(c, WB_OFF);
    wr(c, VX_REG_FENCE_WB, 0);
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_WB));
    ring_fence(c, 9, 0);
    ring_kick(c);
    run_idle(c, 1000);
    EXPECT_EQ(9, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(0xdeadbeef, vram32(c, WB_OFF));
    EXPECT_EQ(0, c->guest_errors);
}

/* RESET forgets the address: a driver points it again, as it does the ring. */
TEST_F(wb, reset_clears_it)
{
    struct card *c = &self->c;

    wr(c, VX_REG_FENCE_WB, DEV(WB_OFF));
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_WB));
    wb_poison(c, WB_OFF);
    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(c, 0x1000);
    ring_fence(c, 3, 0);
    ring_kick(c);
    run_idle(c, 1000);
    EXPECT_EQ(3, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(0xdeadbeef, vram32(c, WB_OFF));
}

/* Addresses FENCE_WB refuses: a guest error, the old address kept. */
FIXTURE(badwb) {
    struct card c;
};

FIXTURE_VARIANT(badwb) {
    uint32_t addr;
};

FIXTURE_VARIANT_ADD(badwb, unaligned) { DEV(WB_OFF + 8) };
FIXTURE_VARIANT_ADD(badwb, below_vram) { 0x1000 };
FIXTURE_VARIANT_ADD(badwb, past_vram) { DEV(TEST_VRAM_SIZE) };
FIXTURE_VARIANT_ADD(badwb, straddles_vram_end) { DEV(TEST_VRAM_SIZE - 8) };

FIXTURE_SETUP(badwb)
{
    ASSERT_EQ(0, card_open(&self->c, 1, 2, 4, 8));
}

FIXTURE_TEARDOWN(badwb)
{
    card_close(&self->c);
}

TEST_F(badwb, ignored)
{
    struct card *c = &self->c;

    wr(c, VX_REG_FENCE_WB, DEV(WB_OFF));
    ASSERT_EQ(0, c->guest_errors);
    wr(c, VX_REG_FENCE_WB, variant->addr);
    EXPECT_EQ(1, c->guest_errors);
    EXPECT_EQ(DEV(WB_OFF), rd(c, VX_REG_FENCE_WB));
}

/* ------------------------------------------------ the fast doorbell */

FIXTURE(fast) {
    struct card c;
};

FIXTURE_SETUP(fast)
{
    struct vx_sim_config cfg = {
        .clusters = 1, .cores = 2, .warps = 4, .threads = 8,
        .vram_size = TEST_VRAM_SIZE, .fast_doorbell = true,
        .doorbell_budget = VX_SIM_DOORBELL_BUDGET_DEFAULT,
    };

    ASSERT_EQ(0, card_open_cfg(&self->c, &cfg));
    wr(&self->c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(&self->c, 0x1000);
    cons_setup(&self->c);
    wr(&self->c, VX_REG_FENCE_WB, DEV(WB_OFF));
}

FIXTURE_TEARDOWN(fast)
{
    card_close(&self->c);
}

/* The one write a driver makes with the fast doorbell: TAIL in DOORBELL. */
static void ring_doorbell(struct card *c)
{
    wr(c, VX_REG_DOORBELL, c->tail);
}

/* A short job's record is in VRAM when the write returns: no register read. */
TEST_F(fast, short_job_record_within_the_write)
{
    struct card *c = &self->c;
    struct wb_rec r;

    put_print_kernel(c);
    for (uint32_t job = 1; job <= 3; job++) {
        ring_job(c, job);
        ring_doorbell(c);
        r = wb_read(c, WB_OFF);     /* before any register read */
        EXPECT_EQ(job, r.seqno);
        EXPECT_EQ(job * 8 * VX_CONS_REC_SIZE, r.cons_tail);
        EXPECT_REC_IS_REGS(c, WB_OFF);
    }
    EXPECT_EQ(0, c->irq_rises);
    EXPECT_EQ(0, c->kicks);
}

/*
 * A job longer than the budget: the write returns with the previous
 * job's record, and the run loop's FENCE writes this one's as it
 * interrupts.
 */
TEST_F(fast, long_job_record_after_the_run_loop)
{
    struct card *c = &self->c;

    PUT_CODE(c, ADDI(5, 0, 2000), ADDI(5, 5, -1), BNE(5, 0, -4), TMC(0));
    ring_job(c, 7);
    ring_doorbell(c);
    EXPECT_EQ(0, wb_read(c, WB_OFF).seqno);
    EXPECT_EQ(1, c->kicks);
    run_idle(c, 100000);
    EXPECT_EQ(7, wb_read(c, WB_OFF).seqno);
    EXPECT_REC_IS_REGS(c, WB_OFF);
    EXPECT_EQ(VX_IRQ_FENCE, rd(c, VX_REG_IRQ_STATUS));
}

TEST_HARNESS_MAIN
