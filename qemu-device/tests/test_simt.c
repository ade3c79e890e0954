// SPDX-License-Identifier: MIT
/*
 * SIMT behaviour of the simulator core: per-thread CSRs, tmc/pred masks,
 * wspawn, per-core and device-wide barriers, nested divergent split/join
 * and the launch coordinate CSRs (through a LAUNCH packet).  The device
 * side is isa/sim_simt.c and isa/sim_split.S.
 */
#include <stdlib.h>
#include <string.h>
#include "kselftest_harness.h"
#include "sim_loader.h"
#include "vx_asm.h"

#define SLOTS   (10ull * 1000 * 1000)

/* A card running sim_simt scenario @sel (or another program). */
static struct vx_card *setup(struct __test_metadata *_metadata,
                             const char *prog, uint32_t sel, uint32_t cores,
                             uint32_t warps, uint32_t threads)
{
    struct vx_card *c = vx_card_new(cores, warps, threads);

    if (!c || vx_card_load(c, vx_test_path(prog, ".sim.elf")) < 0) {
        vx_card_free(c);
        return NULL;
    }
    if (vx_card_sym(c, "test_select")) {
        vx_card_wr32(c, vx_card_sym(c, "test_select"), sel);
    }
    return c;
}

static uint32_t out(struct vx_card *c, uint32_t i)
{
    return vx_card_rd32(c, vx_card_sym(c, "result_buf") + 4 * i);
}

/* Everything ended cleanly: no error, no warp left. */
static void expect_done(struct __test_metadata *_metadata, struct vx_card *c)
{
    EXPECT_EQ(0, vx_card_reg(c, VX_REG_ERR_CAUSE)) {
        TH_LOG("fault %u at 0x%08x", vx_card_reg(c, VX_REG_ERR_CAUSE),
               vx_card_reg(c, VX_REG_ERR_PC));
    }
    for (uint32_t g = 0; g < c->sim->nwarps; g++) {
        EXPECT_FALSE(c->sim->warps[g].active) TH_LOG("warp %u still active", g);
    }
    EXPECT_FALSE(vx_sim_runnable(c->sim));
}

TEST(per_thread_csrs)
{
    struct vx_card *c = setup(_metadata, "sim_simt", 0, 2, 2, 8);

    ASSERT_NE(NULL, c);
    vx_card_start(c, 3, c->entry, 0xff);    /* core 1, warp 1 */
    vx_card_start(c, 0, c->entry, 0x0f);    /* core 0, warp 0, half */
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    for (uint32_t gid = 0; gid < 4; gid++) {
        for (uint32_t lane = 0; lane < 8; lane++) {
            uint32_t h = gid * 8 + lane, r = 16 * h;
            bool ran = (gid == 3) || (gid == 0 && lane < 4);

            if (!ran) {
                EXPECT_EQ(0, out(c, r + 13));
                continue;
            }
            EXPECT_EQ(0x600d, out(c, r + 13));
            EXPECT_EQ(lane, out(c, r + 0));
            EXPECT_EQ(gid % 2, out(c, r + 1));
            EXPECT_EQ(gid / 2, out(c, r + 2));
            EXPECT_EQ(1u << (gid % 2), out(c, r + 3));
            EXPECT_EQ(gid == 3 ? 0xffu : 0x0fu, out(c, r + 4));
            EXPECT_EQ(8, out(c, r + 5));
            EXPECT_EQ(2, out(c, r + 6));
            EXPECT_EQ(2, out(c, r + 7));
            EXPECT_EQ(h, out(c, r + 8));
            EXPECT_EQ(VX_MISA, out(c, r + 9));     /* RV32IMAF */
            EXPECT_EQ(0, out(c, r + 10));
            EXPECT_LT(0, out(c, r + 11));
            EXPECT_EQ(lane + 0x100, out(c, r + 12));
        }
    }
    vx_card_free(c);
}

TEST(tmc_and_pred)
{
    struct vx_card *c = setup(_metadata, "sim_simt", 1, 1, 1, 8);

    ASSERT_NE(NULL, c);
    vx_card_start(c, 0, c->entry, 0xff);
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    for (uint32_t l = 0; l < 8; l++) {
        EXPECT_EQ(1, out(c, l));
        EXPECT_EQ(l == 0 || l == 2, out(c, 8 + l));
        EXPECT_EQ(0xff, out(c, 16 + l));
        EXPECT_EQ(l < 3 ? 0x7u : 0, out(c, 24 + l));
        EXPECT_EQ(l == 4 ? 0x10u : 0, out(c, 32 + l));
        EXPECT_EQ(1, out(c, 40 + l));
    }
    vx_card_free(c);
}

TEST(wspawn)
{
    struct vx_card *c = setup(_metadata, "sim_simt", 2, 1, 4, 4);

    ASSERT_NE(NULL, c);
    vx_card_start(c, 0, c->entry, 0x1);
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    EXPECT_EQ(100, out(c, 0));
    EXPECT_EQ(0x1, out(c, 8));
    for (uint32_t w = 1; w < 4; w++) {
        EXPECT_EQ(100 + w, out(c, w));
        EXPECT_EQ(0x1, out(c, 8 + w));
    }
    vx_card_free(c);
}

static void check_barrier(struct __test_metadata *_metadata, struct vx_card *c,
                          uint32_t nwarps)
{
    for (uint32_t round = 0; round < 3; round++) {
        for (uint32_t w = 0; w < nwarps; w++) {
            EXPECT_EQ(nwarps * (round + 1), out(c, 64 + round * 16 + w))
                TH_LOG("round %u warp %u", round, w);
        }
    }
}

TEST(barrier_core)
{
    struct vx_card *c = setup(_metadata, "sim_simt", 3, 1, 4, 4);

    ASSERT_NE(NULL, c);
    vx_card_start(c, 0, c->entry, 0x1);
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    check_barrier(_metadata, c, 4);
    vx_card_free(c);
}

TEST(barrier_device)
{
    struct vx_card *c = setup(_metadata, "sim_simt", 4, 2, 4, 4);

    ASSERT_NE(NULL, c);
    vx_card_start(c, 0, c->entry, 0x1);
    vx_card_start(c, 4, c->entry, 0x1);
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    check_barrier(_metadata, c, 8);
    vx_card_free(c);
}

TEST(split_join_nested)
{
    struct vx_card *c = setup(_metadata, "sim_split", 0, 1, 1, 8);

    ASSERT_NE(NULL, c);
    vx_card_start(c, 0, c->entry, 0xff);
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    for (uint32_t l = 0; l < 8; l++) {
        uint32_t path = ((l & 1) << 2) | (((l >> 1) & 1) << 1) | ((l >> 2) & 1);

        EXPECT_EQ(0x100 + path, out(c, l)) TH_LOG("lane %u", l);
        EXPECT_EQ(0xff, out(c, 8 + l));
        EXPECT_EQ(1, out(c, 16 + l));
        /*
         * A token is the IPDOM depth before the split, written to every
         * lane active at it, and only a divergent split pushes: levels
         * 0, 1, 2 and the uniform 3 for every lane (upstream's
         * sim/simx/execute.cpp:1340-1359 at fe8168b9, docs/hardware.md
         * "SIMT control").  It
         * was 1, 2, 4, 6 and the like before the card followed upstream.
         */
        EXPECT_EQ(1 << 8 | 2 << 16 | 3 << 24, out(c, 24 + l));
    }
    vx_card_free(c);
}

TEST(launch_coordinates)
{
    struct vx_card *c = setup(_metadata, "sim_simt", 5, 2, 4, 4);
    const uint32_t grid[3] = { 2, 2, 2 }, block[3] = { 3, 1, 2 };
    uint32_t t = 0;

    ASSERT_NE(NULL, c);
    vx_card_launch(c, c->entry, 0x80abc000, grid, block, 0, 0);
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    EXPECT_EQ(0, vx_card_reg(c, VX_REG_STATUS) & VX_STATUS_CP_BUSY);
    for (uint32_t bz = 0; bz < 2; bz++)
    for (uint32_t by = 0; by < 2; by++)
    for (uint32_t bx = 0; bx < 2; bx++)
    for (uint32_t tz = 0; tz < 2; tz++)
    for (uint32_t tx = 0; tx < 3; tx++, t++) {
        uint32_t r = 12 * t, tib = tx + 3 * tz;

        ASSERT_EQ(0x600d, out(c, r + 11)) TH_LOG("thread %u", t);
        EXPECT_EQ(bx, out(c, r + 0));
        EXPECT_EQ(by, out(c, r + 1));
        EXPECT_EQ(bz, out(c, r + 2));
        EXPECT_EQ(tx, out(c, r + 3));
        EXPECT_EQ(0, out(c, r + 4));
        EXPECT_EQ(tz, out(c, r + 5));
        EXPECT_EQ(tib / 4, out(c, r + 6));
        EXPECT_EQ(3 | 1 << 8 | 2 << 16, out(c, r + 7));
        EXPECT_EQ(2 | 2 << 8 | 2 << 16, out(c, r + 8));
        EXPECT_EQ(0x80abc000, out(c, r + 9));
        EXPECT_EQ(tib / 4 ? 0x3u : 0xfu, out(c, r + 10));
    }
    vx_card_free(c);
}

/* The scheduler: budgets, the clock, reset-halt, a warp without lanes. */
TEST(scheduler)
{
    struct vx_card *c = setup(_metadata, "sim_simt", 1, 1, 2, 8);
    struct vx_warp *w0, *w1;
    uint64_t clock0;

    ASSERT_NE(NULL, c);
    w0 = &c->sim->warps[0];
    w1 = &c->sim->warps[1];
    EXPECT_FALSE(vx_sim_runnable(c->sim));
    EXPECT_EQ(0, vx_sim_run(c->sim, 100));

    /* armed: halts before its first instruction, and uses no slot */
    w1->resethalt_armed = true;
    vx_card_start(c, 1, c->entry, 0xff);
    EXPECT_EQ(0, vx_sim_run(c->sim, 100));
    EXPECT_TRUE(w1->halted);
    EXPECT_EQ(VX_HACAUSE_RESETHALTREQ, w1->hacause);
    EXPECT_EQ(c->entry, w1->pc);
    EXPECT_EQ(0, w1->instret);
    EXPECT_FALSE(w1->resethalt_armed);

    /* the budget is honoured and counted on the device clock */
    vx_card_start(c, 0, c->entry, 0xff);
    clock0 = c->sim->clock;
    EXPECT_EQ(5, vx_sim_run(c->sim, 5));
    EXPECT_EQ(clock0 + 5, c->sim->clock);
    EXPECT_EQ(5, w0->instret);
    vx_card_run(c, SLOTS);
    EXPECT_FALSE(w0->active);
    EXPECT_TRUE(w1->active);        /* still halted */

    /* a warp whose mask is empty just ends */
    w1->halted = false;
    memset(&w1->tmask, 0, sizeof(w1->tmask));
    vx_card_run(c, SLOTS);
    expect_done(_metadata, c);
    vx_card_free(c);
}

/*
 * The per-warp cycle and instret CSRs count the same on every executor,
 * however the scheduler cuts the bursts: an instruction is a cycle when
 * it runs (csrr cycle counts itself, csrr instret does not), a bar that
 * parks the warp retires, and waiting at the barrier costs nothing.
 */
TEST(counters)
{
    static const uint32_t prog[] = {
        ADDI(1, 0, 1),
        ADDI(2, 0, 0),              /* barrier 0 */
        ADDI(3, 0, 2),              /* of 2 warps */
        CSRR(10, 0xc02),            /* instret: 3 */
        CSRR(11, 0xc00),            /* cycle: 5 */
        RV_R(0, 3, 2, VX_F3_BAR, 0, VX_OPCODE_CUSTOM0),
        CSRR(12, 0xc02),            /* 6 */
        CSRR(13, 0xc00),            /* 8 */
        TMC(0),
    };
    static const uint32_t want[] = { 3, 5, 6, 8 };
    struct vx_card *c = vx_card_new(1, 2, 8);
    uint32_t code = VX_VRAM_DEVADDR + 0x1000;

    ASSERT_NE(NULL, c);
    for (size_t i = 0; i < sizeof(prog) / sizeof(prog[0]); i++) {
        vx_card_wr32(c, code + 4 * i, prog[i]);
    }
    for (uint32_t budget = 1; budget <= 4; budget++) {
        vx_card_start(c, 0, code, 0xff);
        vx_card_start(c, 1, code, 0x0f);
        while (vx_sim_runnable(c->sim)) {
            vx_sim_run(c->sim, budget);
        }
        expect_done(_metadata, c);
        for (uint32_t g = 0; g < 2; g++) {
            const uint32_t *x = c->sim->warps[g].x;

            for (uint32_t i = 0; i < 4; i++) {
                EXPECT_EQ(want[i], x[(10 + i) * 8 + 3]) {
                    TH_LOG("budget %u, warp %u, x%u", budget, g, 10 + i);
                }
            }
        }
    }
    vx_card_free(c);
}

TEST_HARNESS_MAIN
