// SPDX-License-Identifier: MIT
/*
 * Command processor of the simulated card, no QEMU: ring registers,
 * doorbell, NOP/LAUNCH/FENCE, block dispatch and the launch ABI, every
 * BAD_PACKET case of docs/hardware.md, ring wraparound and RESET.
 */
#include "kselftest_harness.h"
#include "uncore_util.h"

#define A0                  10

/*
 * Each thread adds 1 to arg[global linear thread id], where the id is
 * computed from the block/grid CSRs: checks dispatch, coordinates and
 * that every thread ran exactly once.
 */
static void put_count_kernel(struct card *c)
{
    PUT_CODE(c,
        CSRR(5, VX_CSR_BLOCK_IDX(0)), CSRR(6, VX_CSR_BLOCK_IDX(1)),
        CSRR(7, VX_CSR_BLOCK_IDX(2)), CSRR(28, VX_CSR_GRID_DIM(0)),
        CSRR(29, VX_CSR_GRID_DIM(1)),
        MUL(7, 7, 29), ADD(7, 7, 6), MUL(7, 7, 28), ADD(5, 5, 7),
        CSRR(6, VX_CSR_THREAD_IDX(0)), CSRR(7, VX_CSR_THREAD_IDX(1)),
        CSRR(8, VX_CSR_THREAD_IDX(2)), CSRR(28, VX_CSR_BLOCK_DIM(0)),
        CSRR(29, VX_CSR_BLOCK_DIM(1)),
        MUL(8, 8, 29), ADD(8, 8, 7), MUL(8, 8, 28), ADD(6, 6, 8),
        CSRR(7, VX_CSR_BLOCK_DIM(0)), CSRR(8, VX_CSR_BLOCK_DIM(1)),
        CSRR(9, VX_CSR_BLOCK_DIM(2)), MUL(7, 7, 8), MUL(7, 7, 9),
        MUL(5, 5, 7), ADD(5, 5, 6), SLLI(5, 5, 2), ADD(5, 5, A0),
        LW(6, 5, 0), ADDI(6, 6, 1), SW(6, 5, 0),
        TMC(0));
}

/* Count loop: spins @n (< 2048) times, then ends the warp. */
static void put_spin_kernel(struct card *c, uint32_t n)
{
    PUT_CODE(c, ADDI(5, 0, n), ADDI(5, 5, -1), BNE(5, 0, -4), TMC(0));
}

FIXTURE(cp) {
    struct card c;
};

FIXTURE_SETUP(cp)
{
    ASSERT_EQ(0, card_open(&self->c, 1, 2, 4, 8));
    wr(&self->c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(&self->c, 0x1000);
}

FIXTURE_TEARDOWN(cp)
{
    card_close(&self->c);
}

/* ------------------------------------------------------- ring registers */

TEST_F(cp, enable_resets_head_and_tail)
{
    struct card *c = &self->c;

    EXPECT_EQ(VX_RING_CTRL_ENABLE, rd(c, VX_REG_RING_CTRL));
    EXPECT_EQ(DEV(RING_OFF), rd(c, VX_REG_RING_BASE));
    EXPECT_EQ(0x1000, rd(c, VX_REG_RING_SIZE));
    ring_fence(c, 1, 0);
    ring_kick(c);
    run_idle(c, 1000);
    EXPECT_EQ(12, rd(c, VX_REG_RING_HEAD));

    wr(c, VX_REG_RING_CTRL, VX_RING_CTRL_ENABLE);   /* already on: no-op */
    EXPECT_EQ(12, rd(c, VX_REG_RING_HEAD));
    wr(c, VX_REG_RING_CTRL, 0);
    wr(c, VX_REG_RING_CTRL, VX_RING_CTRL_ENABLE);
    EXPECT_EQ(0, rd(c, VX_REG_RING_HEAD));
    EXPECT_EQ(0, rd(c, VX_REG_RING_TAIL));
    EXPECT_EQ(0, c->guest_errors);
}

TEST_F(cp, base_and_size_locked_while_enabled)
{
    struct card *c = &self->c;

    wr(c, VX_REG_RING_BASE, DEV(0x200000));
    wr(c, VX_REG_RING_SIZE, 0x2000);
    EXPECT_EQ(DEV(RING_OFF), rd(c, VX_REG_RING_BASE));
    EXPECT_EQ(0x1000, rd(c, VX_REG_RING_SIZE));
    EXPECT_EQ(2, c->guest_errors);
    wr(c, VX_REG_RING_HEAD, 8);
    EXPECT_EQ(0, rd(c, VX_REG_RING_HEAD));
    wr(c, VX_REG_FENCE_SEQNO, 8);
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_SEQNO));
}

TEST_F(cp, bad_tail_ignored)
{
    struct card *c = &self->c;

    wr(c, VX_REG_RING_TAIL, 6);
    wr(c, VX_REG_RING_TAIL, 0x1000);
    EXPECT_EQ(0, rd(c, VX_REG_RING_TAIL));
    EXPECT_EQ(2, c->guest_errors);
    wr(c, VX_REG_RING_TAIL, 0xffc);
    EXPECT_EQ(0xffc, rd(c, VX_REG_RING_TAIL));
}

TEST_F(cp, doorbell_only_samples_tail)
{
    struct card *c = &self->c;

    ring_fence(c, 7, 0);
    wr(c, VX_REG_RING_TAIL, c->tail);
    EXPECT_FALSE(vx_sim_runnable(c->sim));      /* no doorbell yet */
    EXPECT_EQ(0, c->kicks);

    wr(c, VX_REG_DOORBELL, 0);
    EXPECT_EQ(1, c->kicks);
    /* nothing ran inside the register write */
    EXPECT_EQ(0, rd(c, VX_REG_RING_HEAD));
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(VX_STATUS_CP_BUSY, rd(c, VX_REG_STATUS));
    EXPECT_TRUE(vx_sim_runnable(c->sim));

    /* TAIL moving without a doorbell is not seen */
    ring_fence(c, 8, 0);
    wr(c, VX_REG_RING_TAIL, c->tail);
    run_idle(c, 1000);
    EXPECT_EQ(7, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(12, rd(c, VX_REG_RING_HEAD));
    wr(c, VX_REG_DOORBELL, 0);
    run_idle(c, 1000);
    EXPECT_EQ(8, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
}

TEST_F(cp, doorbell_while_disabled)
{
    struct card *c = &self->c;

    wr(c, VX_REG_RING_CTRL, 0);
    wr(c, VX_REG_DOORBELL, 0);
    EXPECT_EQ(0, c->kicks);
    EXPECT_EQ(1, c->guest_errors);
    EXPECT_FALSE(vx_sim_runnable(c->sim));
}

/* ----------------------------------------------------------- packets */

TEST_F(cp, nop_and_fence)
{
    struct card *c = &self->c;

    ring_put(c, VX_PKT_HDR(VX_PKT_NOP, 0));
    ring_put(c, VX_PKT_HDR(VX_PKT_NOP, 3));
    ring_put(c, 0xdeadbeef);
    ring_put(c, VX_PKT_HDR(VX_PKT_LAUNCH, 0));  /* payload: not parsed */
    ring_put(c, 0xffffffff);
    ring_fence(c, 0x1234, 0);
    ring_kick(c);
    run_idle(c, 1000);
    EXPECT_EQ(0x1234, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(c->tail, rd(c, VX_REG_RING_HEAD));
    EXPECT_EQ(0, rd(c, VX_REG_IRQ_STATUS));     /* no IRQ flag */
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
}

TEST_F(cp, fence_irq)
{
    struct card *c = &self->c;

    ring_fence(c, 1, VX_FENCE_FLAG_IRQ);
    ring_kick(c);
    run_idle(c, 1000);
    EXPECT_EQ(VX_IRQ_FENCE, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_TRUE(c->irq_level);
    wr(c, VX_REG_IRQ_STATUS, VX_IRQ_FENCE);
    EXPECT_FALSE(c->irq_level);

    ring_fence(c, 2, VX_FENCE_FLAG_IRQ);
    ring_fence(c, 3, 0);
    ring_kick(c);
    run_idle(c, 1000);
    EXPECT_EQ(3, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(2, c->irq_rises);
}

TEST_F(cp, wraparound)
{
    struct card *c = &self->c;
    uint32_t seq = 0;

    /* 3-dword fences in a 1024-dword ring: headers and payloads wrap */
    for (int batch = 0; batch < 20; batch++) {
        for (int i = 0; i < 100; i++) {
            ring_fence(c, ++seq, 0);
        }
        ring_kick(c);
        run_idle(c, 100000);
        ASSERT_EQ(seq, rd(c, VX_REG_FENCE_SEQNO));
        ASSERT_EQ(c->tail, rd(c, VX_REG_RING_HEAD));
    }
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
    EXPECT_EQ(0, c->guest_errors);
}

TEST_F(cp, launch_straddles_ring_end)
{
    struct card *c = &self->c;

    put_count_kernel(c);
    /* a NOP that leaves 6 dwords before the end: the LAUNCH wraps */
    ring_put(c, VX_PKT_HDR(VX_PKT_NOP, 1024 - 6 - 1));
    c->tail = (1024 - 6) * 4;
    ring_kick(c);
    run_idle(c, 1000);
    ASSERT_EQ(c->tail, rd(c, VX_REG_RING_HEAD));

    ring_launch_simple(c, 3, 8);
    ring_fence(c, 9, VX_FENCE_FLAG_IRQ);
    ring_kick(c);
    run_idle(c, 100000);
    EXPECT_EQ(9, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ((13 + 3 - 6) * 4, rd(c, VX_REG_RING_HEAD));
    for (int i = 0; i < 24; i++) {
        EXPECT_EQ(1, vram32(c, DATA_OFF + 4 * i));
    }
    EXPECT_EQ(0, rd(c, VX_REG_ERR_CAUSE));
}

/* ------------------------------------------------------------ launches */

TEST_F(cp, launch_head_moves_at_once_and_fence_waits)
{
    struct card *c = &self->c;

    put_spin_kernel(c, 1000);
    ring_launch_simple(c, 1, 8);
    ring_fence(c, 5, VX_FENCE_FLAG_IRQ);
    ring_kick(c);
    vx_sim_run(c->sim, 100);
    EXPECT_EQ(13 * 4, rd(c, VX_REG_RING_HEAD));     /* LAUNCH consumed */
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_SEQNO));        /* FENCE waits */
    EXPECT_EQ(VX_STATUS_CP_BUSY | VX_STATUS_WARPS_ACTIVE,
              rd(c, VX_REG_STATUS));
    run_idle(c, 100000);
    EXPECT_EQ(5, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(VX_IRQ_FENCE, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
}

TEST_F(cp, many_blocks_partial_warps)
{
    struct card *c = &self->c;
    const uint32_t blocks = 50, threads = 12;   /* 2 warps: 8 + 4 lanes */

    put_count_kernel(c);
    ring_launch_simple(c, blocks, threads);
    ring_fence(c, 1, 0);
    ring_kick(c);
    run_idle(c, 1000000);
    ASSERT_EQ(1, rd(c, VX_REG_FENCE_SEQNO));
    for (uint32_t i = 0; i < blocks * threads; i++) {
        ASSERT_EQ(1, vram32(c, DATA_OFF + 4 * i)) {
            TH_LOG("thread %u", i);
        }
    }
    EXPECT_EQ(0, vram32(c, DATA_OFF + 4 * blocks * threads));
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
}

TEST_F(cp, grid_and_block_3d)
{
    struct card *c = &self->c;
    struct launch l = {
        .entry = DEV(CODE_OFF), .arg = DEV(DATA_OFF),
        .grid = { 3, 2, 2 }, .block = { 2, 3, 2 },
    };

    put_count_kernel(c);
    ring_launch(c, &l);
    ring_fence(c, 1, 0);
    ring_kick(c);
    run_idle(c, 1000000);
    ASSERT_EQ(1, rd(c, VX_REG_FENCE_SEQNO));
    for (uint32_t i = 0; i < 12 * 12; i++) {
        ASSERT_EQ(1, vram32(c, DATA_OFF + 4 * i)) {
            TH_LOG("thread %u", i);
        }
    }
    EXPECT_EQ(0, vram32(c, DATA_OFF + 4 * 144));
}

TEST_F(cp, two_launches_in_a_row)
{
    struct card *c = &self->c;

    put_count_kernel(c);
    ring_launch_simple(c, 5, 32);
    ring_launch_simple(c, 5, 32);
    ring_fence(c, 2, 0);
    ring_kick(c);
    run_idle(c, 1000000);
    ASSERT_EQ(2, rd(c, VX_REG_FENCE_SEQNO));
    for (uint32_t i = 0; i < 160; i++) {
        ASSERT_EQ(2, vram32(c, DATA_OFF + 4 * i));
    }
}

/*
 * The first warp of a block ends long before the second: the next block
 * lands on that warp while the older block is still resident.  Both must
 * be accounted for separately.
 */
TEST(block_outlives_its_first_warp)
{
    struct card c;

    ASSERT_EQ(0, card_open(&c, 1, 1, 3, 8));
    /* arg[bidx * 2 + wib] += 1; warp 0 of the block ends, warp 1 spins */
    PUT_CODE(&c, CSRR(5, VX_CSR_BLOCK_IDX(0)), SLLI(5, 5, 1),
             CSRR(6, VX_CSR_WARP_IN_BLOCK), ADD(5, 5, 6), SLLI(5, 5, 2),
             ADD(5, 5, A0), LW(7, 5, 0), ADDI(7, 7, 1), SW(7, 5, 0),
             BEQ(6, 0, 16), ADDI(8, 0, 300), ADDI(8, 8, -1), BNE(8, 0, -4),
             TMC(0));
    ring_setup(&c, 0x1000);
    ring_launch_simple(&c, 6, 16);
    ring_fence(&c, 1, 0);
    ring_kick(&c);
    run_idle(&c, 1000000);
    EXPECT_EQ(1, rd(&c, VX_REG_FENCE_SEQNO));
    for (uint32_t i = 0; i < 12; i++) {
        EXPECT_EQ(1, vram32(&c, DATA_OFF + 4 * i)) {
            TH_LOG("block %u warp %u", i / 2, i % 2);
        }
    }
    EXPECT_EQ(0, rd(&c, VX_REG_STATUS));
    card_close(&c);
}

/* a0, mscratch, sp, mhartid of every lane: the launch ABI */
TEST_F(cp, launch_abi)
{
    struct card *c = &self->c;
    const uint32_t ssize = 256;
    struct launch l = {
        .entry = DEV(CODE_OFF), .arg = DEV(DATA_OFF),
        .grid = { 2, 1, 1 }, .block = { 8, 1, 1 },
        .stack_base = DEV(STACK_OFF), .stack_size = ssize,
    };
    int seen = 0;

    PUT_CODE(c, CSRR(5, VX_CSR_MHARTID), SLLI(6, 5, 4), ADD(6, 6, A0),
             SW(A0, 6, 0), CSRR(7, VX_CSR_MSCRATCH), SW(7, 6, 4),
             SW(2, 6, 8), ADDI(7, 5, 1), SW(7, 6, 12), TMC(0));
    ring_launch(c, &l);
    ring_fence(c, 1, 0);
    ring_kick(c);
    run_idle(c, 100000);
    ASSERT_EQ(1, rd(c, VX_REG_FENCE_SEQNO));
    /* 2 cores x 4 warps x 8 threads = 64 hardware threads */
    for (uint32_t h = 0; h < 64; h++) {
        uint32_t r = DATA_OFF + 16 * h;

        if (!vram32(c, r + 12)) {
            continue;
        }
        seen++;
        EXPECT_EQ(h + 1, vram32(c, r + 12));
        EXPECT_EQ(DEV(DATA_OFF), vram32(c, r));
        EXPECT_EQ(DEV(DATA_OFF), vram32(c, r + 4));
        EXPECT_EQ(DEV(STACK_OFF) + (h + 1) * ssize, vram32(c, r + 8));
    }
    EXPECT_EQ(16, seen);
    /* blocks spread over the cores: warp 0 of core 0 and of core 1 */
    EXPECT_NE(0, vram32(c, DATA_OFF + 16 * 0 + 12));
    EXPECT_NE(0, vram32(c, DATA_OFF + 16 * 32 + 12));
}

/*
 * LAUNCH CORES, Vortex's own start (issue 23/24): upstream's processor
 * starts warp 0 with thread mask 1 on every core at STARTUP_ADDR, every
 * register cleared in its debug build (sim/simx/emulator.cpp at fe8168b9,
 * warp_t::reset() and Emulator::reset(): "warps_[0].tmask.set(0)"), and the kernel finds
 * its argument in mscratch (kernel/src/vx_start.S, vx_spawn.c).  Each
 * core's warp 0 lane 0 writes what it sees to arg[core * 8 ..].
 */
TEST_F(cp, cores_launch_starts_warp0_lane0_of_every_core)
{
    struct card *c = &self->c;
    struct launch l = {
        .entry = DEV(CODE_OFF), .arg = DEV(DATA_OFF),
        .flags = VX_LAUNCH_FLAG_CORES,
    };

    PUT_CODE(c, CSRR(6, VX_CSR_MSCRATCH), CSRR(5, VX_CSR_CORE_ID),
             SLLI(7, 5, 5), ADD(7, 7, 6),
             CSRR(8, VX_CSR_MHARTID), SW(8, 7, 0),
             CSRR(8, VX_CSR_WARP_ID), SW(8, 7, 4),
             CSRR(8, VX_CSR_THREAD_ID), SW(8, 7, 8),
             CSRR(8, VX_CSR_ACTIVE_THREADS), SW(8, 7, 12),
             SW(A0, 7, 16), SW(2, 7, 20), SW(6, 7, 24),
             ADDI(8, 0, 1), SW(8, 7, 28), TMC(0));
    for (uint32_t i = 0; i < 16; i++) {
        vram32_set(c, DATA_OFF + 4 * i, 0xdeadbeef);
    }
    ring_launch(c, &l);
    ring_fence(c, 1, 0);
    ring_kick(c);
    run_idle(c, 100000);
    ASSERT_EQ(1, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(0, rd(c, VX_REG_ERR_CAUSE));
    for (uint32_t core = 0; core < 2; core++) {
        uint32_t r = DATA_OFF + 32 * core;

        EXPECT_EQ(core * 4 * 8, vram32(c, r)) TH_LOG("core %u hart", core);
        EXPECT_EQ(0, vram32(c, r + 4)) TH_LOG("core %u warp", core);
        EXPECT_EQ(0, vram32(c, r + 8)) TH_LOG("core %u lane", core);
        EXPECT_EQ(1, vram32(c, r + 12)) TH_LOG("core %u mask", core);
        EXPECT_EQ(0, vram32(c, r + 16)) TH_LOG("core %u a0", core);
        EXPECT_EQ(0, vram32(c, r + 20)) TH_LOG("core %u sp", core);
        EXPECT_EQ(DEV(DATA_OFF), vram32(c, r + 24)) TH_LOG("core %u mscratch", core);
        EXPECT_EQ(1, vram32(c, r + 28)) TH_LOG("core %u ran", core);
    }
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
}

TEST_F(cp, no_stack_means_sp_zero)
{
    struct card *c = &self->c;

    vram32_set(c, DATA_OFF, 0xffffffff);
    PUT_CODE(c, SW(2, A0, 0), TMC(0));
    ring_launch_simple(c, 1, 1);
    ring_kick(c);
    run_idle(c, 1000);
    EXPECT_EQ(0, vram32(c, DATA_OFF));
}

TEST_F(cp, fault_reports_launch_packet)
{
    struct card *c = &self->c;

    PUT_CODE(c, LW(5, 0, 0x10));    /* NULL page load */
    ring_fence(c, 1, 0);
    ring_launch_simple(c, 1, 4);
    ring_fence(c, 2, 0);
    ring_kick(c);
    run_idle(c, 1000);
    EXPECT_EQ(VX_ERR_LOAD_FAULT, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(12, rd(c, VX_REG_ERR_PKT));
    EXPECT_EQ(0x10, rd(c, VX_REG_ERR_ADDR));
    EXPECT_EQ(0xf, rd(c, VX_REG_ERR_TMASK(0)));
    EXPECT_EQ(0, rd(c, VX_REG_ERR_THREAD));
    EXPECT_EQ(1, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(VX_IRQ_ERROR, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_FALSE(vx_sim_runnable(c->sim));
}

TEST_F(cp, reset_stops_a_looping_kernel)
{
    struct card *c = &self->c;

    PUT_CODE(c, JSELF);
    ring_launch_simple(c, 8, 32);
    ring_fence(c, 1, 0);
    ring_kick(c);
    vx_sim_run(c->sim, 10000);
    ASSERT_TRUE(vx_sim_runnable(c->sim));
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    EXPECT_FALSE(vx_sim_runnable(c->sim));
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_SEQNO));

    /* the driver reprograms the ring and the next job runs */
    put_count_kernel(c);
    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(c, 0x1000);
    ring_launch_simple(c, 2, 8);
    ring_fence(c, 2, VX_FENCE_FLAG_IRQ);
    ring_kick(c);
    run_idle(c, 100000);
    EXPECT_EQ(2, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(1, vram32(c, DATA_OFF + 4 * 15));
}

/* ------------------------------------------------------ bad packets */

/* Each variant writes one bad packet at ring offset 8, after a NOP. */
FIXTURE(bad) {
    struct card c;
};

FIXTURE_VARIANT(bad) {
    void (*emit)(struct card *c);
};

FIXTURE_SETUP(bad)
{
    ASSERT_EQ(0, card_open(&self->c, 1, 2, 4, 8));
    wr(&self->c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(&self->c, 0x1000);
}

FIXTURE_TEARDOWN(bad)
{
    card_close(&self->c);
}

static struct launch good_launch(void)
{
    struct launch l = {
        .entry = DEV(CODE_OFF), .arg = DEV(DATA_OFF),
        .grid = { 1, 1, 1 }, .block = { 8, 1, 1 },
    };

    return l;
}

static void emit_opcode(struct card *c)
{
    ring_put(c, VX_PKT_HDR(0x07, 0));
}

static void emit_reserved(struct card *c)
{
    ring_put(c, VX_PKT_HDR(VX_PKT_NOP, 0) | VX_PUT(1, 15, 8));
}

static void emit_past_tail(struct card *c)
{
    ring_put(c, VX_PKT_HDR(VX_PKT_NOP, 5));
    ring_put(c, 0);
    ring_put(c, 0);
}

static void emit_launch_ndw(struct card *c)
{
    ring_put(c, VX_PKT_HDR(VX_PKT_LAUNCH, 11));
    for (int i = 0; i < 11; i++) {
        ring_put(c, 1);
    }
}

#define EMIT_LAUNCH(name, field, value) \
    static void emit_##name(struct card *c) \
    { \
        struct launch l = good_launch(); \
        l.field = (value); \
        ring_launch(c, &l); \
    }

EMIT_LAUNCH(launch_flags, flags, 2)
EMIT_LAUNCH(cores_with_grid, flags, VX_LAUNCH_FLAG_CORES)
EMIT_LAUNCH(launch_rsvd, rsvd, 0x100)
EMIT_LAUNCH(grid_zero_x, grid[0], 0)
EMIT_LAUNCH(grid_zero_z, grid[2], 0)
EMIT_LAUNCH(block_zero_y, block[1], 0)
EMIT_LAUNCH(block_larger_than_core, block[0], 4 * 8 + 1)
EMIT_LAUNCH(entry_misaligned, entry, DEV(CODE_OFF + 2))
EMIT_LAUNCH(entry_null, entry, 0x1000)
EMIT_LAUNCH(entry_past_vram, entry, DEV(TEST_VRAM_SIZE))

static void emit_grid_too_big(struct card *c)
{
    struct launch l = good_launch();

    l.grid[0] = 65536;
    l.grid[1] = 65536;
    l.block[0] = 1;
    ring_launch(c, &l);
}

static void emit_grid_overflow64(struct card *c)
{
    struct launch l = good_launch();

    l.grid[0] = l.grid[1] = l.grid[2] = 0xffffffff;
    l.block[0] = l.block[1] = 0xffffffff;
    ring_launch(c, &l);
}

static void emit_stack_past_vram(struct card *c)
{
    struct launch l = good_launch();

    /* 64 hardware threads x 64 bytes end 16 bytes past VRAM */
    l.stack_base = DEV(TEST_VRAM_SIZE - 64 * 64 + 16);
    l.stack_size = 64;
    ring_launch(c, &l);
}

static void emit_stack_below_vram(struct card *c)
{
    struct launch l = good_launch();

    l.stack_base = 0x1000;
    l.stack_size = 16;
    ring_launch(c, &l);
}

static void emit_stack_huge(struct card *c)
{
    struct launch l = good_launch();

    l.stack_base = DEV(0);
    l.stack_size = 0x80000000u;
    ring_launch(c, &l);
}

static void emit_fence_ndw(struct card *c)
{
    ring_put(c, VX_PKT_HDR(VX_PKT_FENCE, 1));
    ring_put(c, 5);
}

static void emit_fence_flags(struct card *c)
{
    ring_fence(c, 5, 2);
}

#define BAD(name) \
    FIXTURE_VARIANT_ADD(bad, name) { .emit = emit_##name }

BAD(opcode);
BAD(reserved);
BAD(past_tail);
BAD(launch_ndw);
BAD(launch_flags);
BAD(cores_with_grid);
BAD(launch_rsvd);
BAD(grid_zero_x);
BAD(grid_zero_z);
BAD(block_zero_y);
BAD(block_larger_than_core);
BAD(grid_too_big);
BAD(grid_overflow64);
BAD(entry_misaligned);
BAD(entry_null);
BAD(entry_past_vram);
BAD(stack_past_vram);
BAD(stack_below_vram);
BAD(stack_huge);
BAD(fence_ndw);
BAD(fence_flags);

TEST_F(bad, stops_cp_then_reset_recovers)
{
    struct card *c = &self->c;

    PUT_CODE(c, TMC(0));
    ring_put(c, VX_PKT_HDR(VX_PKT_NOP, 1));
    ring_put(c, 0);
    variant->emit(c);
    if (variant->emit != emit_past_tail) {
        ring_fence(c, 1, 0);
    }
    ring_kick(c);
    run_idle(c, 10000);

    EXPECT_EQ(VX_ERR_BAD_PACKET, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(8, rd(c, VX_REG_ERR_PKT));
    EXPECT_EQ(8, rd(c, VX_REG_RING_HEAD));
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(VX_STATUS_ERROR, rd(c, VX_REG_STATUS));
    EXPECT_EQ(VX_IRQ_ERROR, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_TRUE(c->irq_level);
    EXPECT_EQ(1, c->guest_errors);
    EXPECT_FALSE(vx_sim_runnable(c->sim));

    /* a doorbell does not restart a stopped CP */
    wr(c, VX_REG_DOORBELL, 0);
    run_idle(c, 10000);
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_SEQNO));

    wr(c, VX_REG_RESET, VX_RESET_KEY);
    EXPECT_EQ(0, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
    EXPECT_FALSE(c->irq_level);
    ring_setup(c, 0x1000);
    ring_launch_simple(c, 1, 8);
    ring_fence(c, 3, 0);
    ring_kick(c);
    run_idle(c, 10000);
    EXPECT_EQ(3, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
}

/* ------------------------------------------------- bad ring at enable */

FIXTURE(badring) {
    struct card c;
};

FIXTURE_VARIANT(badring) {
    uint32_t base, size;
};

FIXTURE_VARIANT_ADD(badring, size_not_pow2) { DEV(RING_OFF), 0x1800 };
FIXTURE_VARIANT_ADD(badring, size_too_small) { DEV(RING_OFF), 0x800 };
FIXTURE_VARIANT_ADD(badring, size_too_big) { DEV(0), 0x2000000 };
FIXTURE_VARIANT_ADD(badring, size_zero) { DEV(RING_OFF), 0 };
FIXTURE_VARIANT_ADD(badring, base_misaligned) { DEV(0x11000), 0x2000 };
FIXTURE_VARIANT_ADD(badring, base_null) { 0x0, 0x1000 };
FIXTURE_VARIANT_ADD(badring, past_vram) { DEV(TEST_VRAM_SIZE), 0x1000 };

FIXTURE_SETUP(badring)
{
    ASSERT_EQ(0, card_open(&self->c, 1, 2, 4, 8));
    wr(&self->c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
}

FIXTURE_TEARDOWN(badring)
{
    card_close(&self->c);
}

TEST_F(badring, enable_fails_with_error)
{
    struct card *c = &self->c;

    wr(c, VX_REG_RING_BASE, variant->base);
    wr(c, VX_REG_RING_SIZE, variant->size);
    wr(c, VX_REG_RING_CTRL, VX_RING_CTRL_ENABLE);
    EXPECT_EQ(0, rd(c, VX_REG_RING_CTRL));
    EXPECT_EQ(VX_ERR_BAD_PACKET, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(VX_STATUS_ERROR, rd(c, VX_REG_STATUS));
    EXPECT_EQ(VX_IRQ_ERROR, rd(c, VX_REG_IRQ_STATUS));
    wr(c, VX_REG_DOORBELL, 0);
    EXPECT_EQ(0, c->kicks);
}

TEST_HARNESS_MAIN
