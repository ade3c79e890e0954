// SPDX-License-Identifier: MIT
/*
 * Debug Module of the simulated card, driven against the real core with
 * no QEMU: every DM register and request of vxdebug-spec.md as
 * docs/hardware.md implements it, including the choices it documents for
 * undefined uses (out-of-range selections, dmactive = 0, ndmreset timing).
 *
 * Card: 1 cluster x 2 cores x 4 warps x 8 threads = 8 warps.  A LAUNCH of
 * two 8-thread blocks puts them on warp 0 (core 0) and warp 4 (core 1).
 */
#include "kselftest_harness.h"
#include "uncore_util.h"

#define NWARPS      8
#define ENTRY       DEV(CODE_OFF)
#define WSPAWN(rs1, rs2) RV_R(0, rs2, rs1, VX_F3_WSPAWN, 0, VX_OPCODE_CUSTOM0)
#define STATES      (VX_MASK(5, 4) | VX_MASK(8, 7))     /* step/inject state */
#define SUMMARY     VX_MASK(29, 24)     /* all/any halted, running, unavail */
/* The summary of a card with no warp halted and none with a context. */
#define IDLE        (VX_DCTRL_ANYRUNNING | VX_DCTRL_ALLRUNNING | \
                     VX_DCTRL_ANYUNAVAIL | VX_DCTRL_ALLUNAVAIL)

static void dm_ctrl(struct card *c, uint32_t bits)
{
    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | bits);
}

static void dm_select(struct card *c, uint32_t warp, uint32_t thread)
{
    dm_wr(c, VX_DM_DSELECT, VX_DSELECT_MAKE(0, warp, thread));
}

static uint32_t hacause(struct card *c)
{
    return VX_DCTRL_HACAUSE(dm_rd(c, VX_DM_DCTRL));
}

/* Inject @insn into the selected thread; returns DCTRL.injecterr. */
static bool inject(struct card *c, uint32_t insn)
{
    dm_wr(c, VX_DM_INJECT, insn);
    dm_ctrl(c, VX_DCTRL_INJECTREQ);
    return dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_INJECTERR;
}

/* GPR access the way a debugger does it: through dscratch0. */
static uint32_t read_gpr(struct card *c, uint32_t r)
{
    if (inject(c, CSRW(VX_CSR_DSCRATCH(0), r))) {
        return 0xbadbad;
    }
    return dm_rd(c, VX_DM_DSCRATCH(0));
}

static void write_gpr(struct card *c, uint32_t r, uint32_t v)
{
    dm_wr(c, VX_DM_DSCRATCH(0), v);
    inject(c, CSRR(r, VX_CSR_DSCRATCH(0)));
}

/* Start two 8-thread blocks (warps 0 and 4) without running them. */
static void launch2(struct card *c)
{
    ring_launch_simple(c, 2, 8);
    ring_fence(c, 1, VX_FENCE_FLAG_IRQ);
    ring_kick(c);
    vx_sim_run(c->sim, 0);      /* the CP dispatches; nothing executes */
}

/* Halt the warps in @mask (window 0). */
static void halt(struct card *c, uint32_t mask)
{
    dm_wr(c, VX_DM_WMASK, mask);
    dm_ctrl(c, VX_DCTRL_HALTREQ);
}

/* Warps 0 and 4 spin at ENTRY; those in @mask are halted there. */
static void spin_halted(struct card *c, uint32_t mask)
{
    PUT_CODE(c, JSELF);
    launch2(c);
    halt(c, mask);
}

FIXTURE(dm) {
    struct card c;
};

FIXTURE_SETUP(dm)
{
    ASSERT_EQ(0, card_open(&self->c, 1, 2, 4, 8));
    wr(&self->c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    dm_ctrl(&self->c, 0);
    ring_setup(&self->c, 0x1000);
}

FIXTURE_TEARDOWN(dm)
{
    card_close(&self->c);
}

/* ------------------------------------------------ registers, dmactive */

TEST(platform_always_readable)
{
    struct card c;

    ASSERT_EQ(0, card_open(&c, 3, 5, 7, 16));
    EXPECT_EQ(VX_PLATFORM_MAKE(4, 7, 5, 3), dm_rd(&c, VX_DM_PLATFORM));
    EXPECT_EQ(1, VX_PLATFORM_ID(dm_rd(&c, VX_DM_PLATFORM)));
    dm_ctrl(&c, 0);
    EXPECT_EQ(VX_PLATFORM_MAKE(4, 7, 5, 3), dm_rd(&c, VX_DM_PLATFORM));
    dm_wr(&c, VX_DM_PLATFORM, 0);
    EXPECT_EQ(VX_PLATFORM_MAKE(4, 7, 5, 3), dm_rd(&c, VX_DM_PLATFORM));
    card_close(&c);
}

TEST(inactive_dm_reads_zero_and_ignores_writes)
{
    struct card c;

    ASSERT_EQ(0, card_open(&c, 1, 2, 4, 8));
    for (uint32_t r = VX_DM_DCONFIG; r < VX_DM_NREGS; r++) {
        if (r != VX_DM_DCTRL) {
            dm_wr(&c, r, 0xffffffff);
        }
    }
    EXPECT_EQ(VX_DM_NREGS - 2, c.guest_errors);
    for (uint32_t r = VX_DM_DCONFIG; r < VX_DM_NREGS; r++) {
        EXPECT_EQ(0, dm_rd(&c, r));
    }
    dm_ctrl(&c, 0);
    EXPECT_EQ(VX_DCTRL_DMACTIVE | IDLE, dm_rd(&c, VX_DM_DCTRL));
    for (uint32_t r = VX_DM_DCONFIG; r < VX_DM_NREGS; r++) {
        if (r != VX_DM_DCTRL) {
            EXPECT_EQ(0, dm_rd(&c, r));
        }
    }
    card_close(&c);
}

/* As in RISC-V debug, the write that sets dmactive does nothing else. */
TEST(activating_write_does_nothing_else)
{
    struct card c;

    ASSERT_EQ(0, card_open(&c, 1, 2, 4, 8));
    PUT_CODE(&c, JSELF);
    ring_setup(&c, 0x1000);
    launch2(&c);
    dm_wr(&c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_NDMRESET |
          VX_DCTRL_HALTREQ);
    EXPECT_EQ(VX_STATUS_CP_BUSY | VX_STATUS_WARPS_ACTIVE,
              rd(&c, VX_REG_STATUS));
    EXPECT_EQ(VX_DCTRL_DMACTIVE | VX_DCTRL_ANYRUNNING | VX_DCTRL_ALLRUNNING |
              VX_DCTRL_ANYUNAVAIL, dm_rd(&c, VX_DM_DCTRL));
    card_close(&c);
}

TEST_F(dm, dconfig_and_dselect)
{
    struct card *c = &self->c;

    dm_wr(c, VX_DM_DCONFIG, 0xffffffff);
    EXPECT_EQ(VX_DCONFIG_WRITABLE, dm_rd(c, VX_DM_DCONFIG));
    EXPECT_EQ(7, VX_DCONFIG_NRC(dm_rd(c, VX_DM_DCONFIG)));
    EXPECT_EQ(7, VX_DCONFIG_RHC(dm_rd(c, VX_DM_DCONFIG)));
    dm_wr(c, VX_DM_DSELECT, 0xffffffff);        /* stored as written */
    EXPECT_EQ(0xffffffff, dm_rd(c, VX_DM_DSELECT));
    dm_wr(c, VX_DM_INJECT, 0x12345678);
    EXPECT_EQ(0x12345678, dm_rd(c, VX_DM_INJECT));
    wr(c, VX_DM_REG(VX_DM_WACTIVE), 1);
    wr(c, VX_DM_REG(VX_DM_WSTATUS), 1);
    EXPECT_EQ(2, c->guest_errors);
}

TEST_F(dm, wmask_windows)
{
    struct card *c = &self->c;

    dm_wr(c, VX_DM_WMASK, 0xffffffff);
    EXPECT_EQ(0xff, dm_rd(c, VX_DM_WMASK));     /* only 8 warps exist */
    dm_wr(c, VX_DM_DSELECT, VX_DSELECT_MAKE(1, 0, 0));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WMASK));
    dm_wr(c, VX_DM_WMASK, 0xffffffff);
    EXPECT_EQ(1, c->guest_errors);
    EXPECT_EQ(0, dm_rd(c, VX_DM_WMASK));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WACTIVE));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WSTATUS));
    dm_wr(c, VX_DM_DSELECT, VX_DSELECT_MAKE(1023, 0, 0));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WMASK));
    dm_wr(c, VX_DM_DSELECT, 0);
    EXPECT_EQ(0xff, dm_rd(c, VX_DM_WMASK));
}

TEST(wmask_windows_large_card)
{
    struct card c;

    /* 2 x 20 x 1 = 40 warps: window 1 holds warps 32..39 */
    ASSERT_EQ(0, card_open(&c, 2, 20, 1, 1));
    dm_ctrl(&c, 0);
    dm_wr(&c, VX_DM_DSELECT, VX_DSELECT_MAKE(1, 0, 0));
    dm_wr(&c, VX_DM_WMASK, 0xffffffff);
    EXPECT_EQ(0xff, dm_rd(&c, VX_DM_WMASK));
    dm_wr(&c, VX_DM_DSELECT, VX_DSELECT_MAKE(0, 0, 0));
    EXPECT_EQ(0, dm_rd(&c, VX_DM_WMASK));
    /*
     * 40 warps, none with a context: none halted, so all running (the
     * RTL's all_running = &(~warp_status_arr), docs/hardware.md "Summary
     * bits"), whichever window is selected.
     */
    EXPECT_EQ(IDLE, dm_rd(&c, VX_DM_DCTRL) & SUMMARY);
    dm_wr(&c, VX_DM_DSELECT, VX_DSELECT_MAKE(1, 0, 0));
    EXPECT_EQ(IDLE, dm_rd(&c, VX_DM_DCTRL) & SUMMARY);
    card_close(&c);
}

/* --------------------------------------------------------- halt, resume */

TEST_F(dm, halt_and_resume_selected_warps)
{
    struct card *c = &self->c;
    uint64_t pc;

    PUT_CODE(c, ADDI(5, 5, 1), JAL(0, -4));
    launch2(c);
    vx_sim_run(c->sim, 100);
    EXPECT_EQ(0x11, dm_rd(c, VX_DM_WACTIVE));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WSTATUS));

    halt(c, 0x01);
    EXPECT_EQ(0x01, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_EQ(VX_IRQ_DEBUG, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_TRUE(c->irq_level);
    dm_select(c, 0, 0);
    EXPECT_EQ(VX_HACAUSE_HALTREQ, hacause(c));
    /* warp 4 runs, 1-3 and 5-7 have no context: every warp counts */
    EXPECT_EQ(VX_DCTRL_DMACTIVE | VX_DCTRL_ANYHALTED | VX_DCTRL_ANYRUNNING |
              VX_DCTRL_ANYUNAVAIL | VX_PUT(VX_HACAUSE_HALTREQ, 11, 9),
              dm_rd(c, VX_DM_DCTRL));

    pc = dm_rd(c, VX_DM_DPC);
    vx_sim_run(c->sim, 1000);   /* warp 4 runs, warp 0 does not */
    EXPECT_EQ(pc, dm_rd(c, VX_DM_DPC));
    dm_select(c, 4, 0);
    EXPECT_EQ(VX_HACAUSE_NONE, hacause(c));

    /* the selection does not change the summary */
    dm_wr(c, VX_DM_WMASK, 0x11);
    EXPECT_EQ(VX_DCTRL_ANYHALTED | VX_DCTRL_ANYRUNNING | VX_DCTRL_ANYUNAVAIL,
              dm_rd(c, VX_DM_DCTRL) & SUMMARY);
    dm_wr(c, VX_DM_WMASK, 0);
    EXPECT_EQ(VX_DCTRL_ANYHALTED | VX_DCTRL_ANYRUNNING | VX_DCTRL_ANYUNAVAIL,
              dm_rd(c, VX_DM_DCTRL) & SUMMARY);

    dm_wr(c, VX_DM_WMASK, 0x01);
    c->kicks = 0;
    dm_ctrl(c, VX_DCTRL_RESUMEREQ);
    EXPECT_EQ(1, c->kicks);
    EXPECT_EQ(0, dm_rd(c, VX_DM_WSTATUS));
    dm_select(c, 0, 0);
    EXPECT_EQ(VX_HACAUSE_NONE, hacause(c));
    EXPECT_EQ(VX_DCTRL_ANYRUNNING | VX_DCTRL_ALLRUNNING | VX_DCTRL_ANYUNAVAIL,
              dm_rd(c, VX_DM_DCTRL) & SUMMARY);
    pc = c->sim->warps[0].instret;
    vx_sim_run(c->sim, 1000);
    EXPECT_LT(pc, c->sim->warps[0].instret);
}

/*
 * "Halt all" sets the halted bit of the six warps without a context too,
 * as the RTL's haltreq does (VX_schedule.sv: halted_warps | warp_mask), so
 * allhalted reads 1 and anyrunning 0 (docs/hardware.md, "Summary bits");
 * WSTATUS and STATUS name only the halted warps that have a context.
 */
TEST_F(dm, halt_all_halts_warps_without_context)
{
    struct card *c = &self->c;

    spin_halted(c, 0xff);
    EXPECT_EQ(0x11, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_EQ(VX_DCTRL_ANYHALTED | VX_DCTRL_ALLHALTED | VX_DCTRL_ANYUNAVAIL,
              dm_rd(c, VX_DM_DCTRL) & SUMMARY);
    dm_select(c, 1, 0);
    EXPECT_EQ(VX_HACAUSE_HALTREQ, hacause(c));
    EXPECT_EQ(VX_STATUS_HALTED, rd(c, VX_REG_STATUS) & VX_STATUS_HALTED);
    EXPECT_FALSE(vx_sim_runnable(c->sim));

    /* Resuming warps 0 and 4 leaves the others' halted bits. */
    dm_wr(c, VX_DM_WMASK, 0x11);
    dm_ctrl(c, VX_DCTRL_RESUMEREQ);
    EXPECT_TRUE(vx_sim_runnable(c->sim));
    EXPECT_EQ(VX_DCTRL_ANYHALTED | VX_DCTRL_ANYRUNNING | VX_DCTRL_ANYUNAVAIL,
              dm_rd(c, VX_DM_DCTRL) & SUMMARY);
    EXPECT_EQ(0, rd(c, VX_REG_STATUS) & VX_STATUS_HALTED);

    /* "Continue all" reads allrunning: no warp's halted bit is set. */
    dm_wr(c, VX_DM_WMASK, 0xff);
    dm_ctrl(c, VX_DCTRL_RESUMEREQ);
    EXPECT_EQ(VX_DCTRL_ANYRUNNING | VX_DCTRL_ALLRUNNING | VX_DCTRL_ANYUNAVAIL,
              dm_rd(c, VX_DM_DCTRL) & SUMMARY);
    EXPECT_EQ(VX_HACAUSE_NONE, hacause(c));
}

/*
 * Where the card leaves the RTL: a warp halted while it had no context
 * starts running when it is started (the RTL would start it halted);
 * halting at the first instruction is resethaltreq's.  Its halted bit is
 * gone with the start.
 */
TEST_F(dm, warp_halted_without_context_starts_running)
{
    struct card *c = &self->c;

    PUT_CODE(c, ADDI(5, 5, 1), JAL(0, -4));
    halt(c, 0xff);
    EXPECT_EQ(VX_DCTRL_ANYHALTED | VX_DCTRL_ALLHALTED | VX_DCTRL_ANYUNAVAIL |
              VX_DCTRL_ALLUNAVAIL, dm_rd(c, VX_DM_DCTRL) & SUMMARY);
    EXPECT_EQ(0, rd(c, VX_REG_IRQ_STATUS));     /* nothing halted anew */
    launch2(c);
    vx_sim_run(c->sim, 1000);
    EXPECT_EQ(0x11, dm_rd(c, VX_DM_WACTIVE));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_LT(0, c->sim->warps[0].instret);
    EXPECT_LT(0, c->sim->warps[4].instret);
    EXPECT_EQ(VX_DCTRL_ANYHALTED | VX_DCTRL_ANYRUNNING | VX_DCTRL_ANYUNAVAIL,
              dm_rd(c, VX_DM_DCTRL) & SUMMARY);
    dm_select(c, 4, 0);
    EXPECT_EQ(VX_HACAUSE_NONE, hacause(c));

    /* A reset clears every halted bit, as the RTL's reset does. */
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    EXPECT_EQ(IDLE, dm_rd(c, VX_DM_DCTRL) & SUMMARY);
}

/* The RTL's haltreq gives every selected warp the cause HALTREQ. */
TEST_F(dm, haltreq_on_a_halted_warp_makes_its_cause_haltreq)
{
    struct card *c = &self->c;

    PUT_CODE(c, ADDI(5, 5, 1), JAL(0, -4));
    launch2(c);
    halt(c, 0x01);
    dm_select(c, 0, 0);
    dm_ctrl(c, VX_DCTRL_STEPREQ);
    EXPECT_EQ(VX_HACAUSE_STEP, hacause(c));
    wr(c, VX_REG_IRQ_STATUS, VX_IRQ_ALL);
    halt(c, 0x01);
    EXPECT_EQ(VX_HACAUSE_HALTREQ, hacause(c));
    EXPECT_EQ(0x01, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_EQ(0, rd(c, VX_REG_IRQ_STATUS));     /* no warp halted anew */
}

/* The summary is the card's, not the selection's (the RTL's). */
TEST_F(dm, summary_ignores_the_selection)
{
    struct card *c = &self->c;

    PUT_CODE(c, JSELF);
    launch2(c);
    dm_wr(c, VX_DM_WMASK, 0);
    EXPECT_EQ(VX_DCTRL_ANYRUNNING | VX_DCTRL_ALLRUNNING | VX_DCTRL_ANYUNAVAIL,
              dm_rd(c, VX_DM_DCTRL) & SUMMARY);
    dm_ctrl(c, VX_DCTRL_HALTREQ);
    EXPECT_EQ(0, dm_rd(c, VX_DM_WSTATUS));
    halt(c, 0xff);
    dm_wr(c, VX_DM_WMASK, 0);
    EXPECT_EQ(VX_DCTRL_ANYHALTED | VX_DCTRL_ALLHALTED | VX_DCTRL_ANYUNAVAIL,
              dm_rd(c, VX_DM_DCTRL) & SUMMARY);
}

TEST_F(dm, requests_in_one_write_run_in_order)
{
    struct card *c = &self->c;

    PUT_CODE(c, ADDI(5, 5, 1), ADDI(5, 5, 1), JSELF);
    launch2(c);
    dm_wr(c, VX_DM_WMASK, 0x01);
    dm_select(c, 0, 0);
    /* halt then resume: running again */
    dm_ctrl(c, VX_DCTRL_HALTREQ | VX_DCTRL_RESUMEREQ);
    EXPECT_EQ(0, dm_rd(c, VX_DM_WSTATUS));
    /* halt, step, inject: one instruction retired, then x5 read */
    dm_wr(c, VX_DM_INJECT, CSRW(VX_CSR_DSCRATCH(0), 5));
    dm_ctrl(c, VX_DCTRL_HALTREQ | VX_DCTRL_STEPREQ | VX_DCTRL_INJECTREQ);
    EXPECT_EQ(0x01, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_EQ(VX_HACAUSE_STEP, hacause(c));
    EXPECT_EQ(ENTRY + 4, dm_rd(c, VX_DM_DPC));
    EXPECT_EQ(1, dm_rd(c, VX_DM_DSCRATCH(0)));
    EXPECT_EQ(0, dm_rd(c, VX_DM_DCTRL) & (STATES | VX_DCTRL_INJECTERR));
}

/* ---------------------------------------------------------------- step */

TEST_F(dm, step_executes_exactly_one_instruction)
{
    struct card *c = &self->c;

    PUT_CODE(c, ADDI(5, 5, 1), ADDI(5, 5, 2), ADDI(5, 5, 4), ADDI(5, 5, 8),
             JSELF);
    launch2(c);
    halt(c, 0x01);
    dm_select(c, 0, 3);
    EXPECT_EQ(ENTRY, dm_rd(c, VX_DM_DPC));
    EXPECT_EQ(0, read_gpr(c, 5));
    wr(c, VX_REG_IRQ_STATUS, VX_IRQ_ALL);

    dm_ctrl(c, VX_DCTRL_STEPREQ);
    EXPECT_EQ(ENTRY + 4, dm_rd(c, VX_DM_DPC));
    EXPECT_EQ(1, read_gpr(c, 5));
    EXPECT_EQ(VX_HACAUSE_STEP, hacause(c));
    EXPECT_EQ(0x01, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_EQ(VX_IRQ_DEBUG, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_EQ(0, dm_rd(c, VX_DM_DCTRL) & STATES);

    dm_ctrl(c, VX_DCTRL_STEPREQ);
    dm_ctrl(c, VX_DCTRL_STEPREQ);
    EXPECT_EQ(ENTRY + 12, dm_rd(c, VX_DM_DPC));
    EXPECT_EQ(7, read_gpr(c, 5));
    dm_select(c, 0, 7);                 /* every lane ran it */
    EXPECT_EQ(7, read_gpr(c, 5));

    /* the halted warp does not move by itself meanwhile */
    vx_sim_run(c->sim, 1000);
    EXPECT_EQ(ENTRY + 12, dm_rd(c, VX_DM_DPC));
}

TEST_F(dm, step_ignored_unless_halted)
{
    struct card *c = &self->c;

    PUT_CODE(c, JSELF);
    launch2(c);
    dm_select(c, 0, 0);
    dm_ctrl(c, VX_DCTRL_STEPREQ);
    EXPECT_EQ(1, c->guest_errors);
    EXPECT_EQ(VX_HACAUSE_NONE, hacause(c));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WSTATUS));
    dm_select(c, 1, 0);                 /* no context */
    dm_ctrl(c, VX_DCTRL_STEPREQ);
    dm_select(c, NWARPS, 0);            /* out of range */
    dm_ctrl(c, VX_DCTRL_STEPREQ);
    EXPECT_EQ(3, c->guest_errors);
    EXPECT_EQ(0, rd(c, VX_REG_IRQ_STATUS));
}

TEST_F(dm, step_into_a_fault_stops_the_card)
{
    struct card *c = &self->c;

    PUT_CODE(c, ILLEGAL);
    launch2(c);
    halt(c, 0x01);
    dm_select(c, 0, 0);
    dm_ctrl(c, VX_DCTRL_STEPREQ);
    EXPECT_EQ(VX_ERR_ILLEGAL_INSTR, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(0, rd(c, VX_REG_ERR_WARP));
    EXPECT_TRUE(rd(c, VX_REG_STATUS) & VX_STATUS_ERROR);
    EXPECT_EQ(VX_IRQ_DEBUG | VX_IRQ_ERROR, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_FALSE(vx_sim_runnable(c->sim));
}

TEST_F(dm, step_over_tmc_zero_ends_the_warp)
{
    struct card *c = &self->c;

    PUT_CODE(c, TMC(0));
    launch2(c);
    halt(c, 0x11);
    dm_select(c, 0, 0);
    dm_ctrl(c, VX_DCTRL_STEPREQ);
    EXPECT_EQ(0x10, dm_rd(c, VX_DM_WACTIVE));
    EXPECT_EQ(0x10, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_EQ(VX_HACAUSE_NONE, hacause(c));
    dm_select(c, 4, 0);
    dm_ctrl(c, VX_DCTRL_STEPREQ);
    EXPECT_EQ(0, dm_rd(c, VX_DM_WACTIVE));
    /* the launch is complete: the FENCE behind it runs */
    run_idle(c, 1000);
    EXPECT_EQ(1, rd(c, VX_REG_FENCE_SEQNO));
}

/* A block ended by stepping frees its core for the next one at once. */
TEST_F(dm, step_ending_a_block_dispatches_the_next)
{
    struct card *c = &self->c;

    PUT_CODE(c, TMC(0));
    ring_launch_simple(c, 3, 32);           /* a block fills a core */
    ring_kick(c);
    vx_sim_run(c->sim, 0);
    halt(c, 0xff);
    ASSERT_EQ(0xff, dm_rd(c, VX_DM_WSTATUS));
    for (uint32_t w = 0; w < 4; w++) {
        dm_select(c, w, 0);
        dm_ctrl(c, VX_DCTRL_STEPREQ);
    }
    EXPECT_EQ(0xff, dm_rd(c, VX_DM_WACTIVE));   /* block 2 on core 0 */
    EXPECT_EQ(0xf0, dm_rd(c, VX_DM_WSTATUS));
    dm_ctrl(c, VX_DCTRL_RESUMEREQ);
    run_idle(c, 1000);
    EXPECT_EQ(0, dm_rd(c, VX_DM_WACTIVE));
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
}

TEST_F(dm, step_over_ebreak_with_ebreakh)
{
    struct card *c = &self->c;

    dm_wr(c, VX_DM_DCONFIG, VX_DCONFIG_EBREAKH);
    PUT_CODE(c, EBREAK, JSELF);
    launch2(c);
    halt(c, 0x01);
    dm_select(c, 0, 0);
    dm_ctrl(c, VX_DCTRL_STEPREQ);
    EXPECT_EQ(VX_HACAUSE_EBREAK, hacause(c));
    EXPECT_EQ(ENTRY, dm_rd(c, VX_DM_DPC));
    EXPECT_EQ(0x01, dm_rd(c, VX_DM_WSTATUS));
}

/* ----------------------------------------------------------- ebreak */

TEST_F(dm, ebreak_halts_with_ebreakh)
{
    struct card *c = &self->c;

    dm_wr(c, VX_DM_DCONFIG, VX_DCONFIG_EBREAKH);
    PUT_CODE(c, ADDI(5, 5, 1), EBREAK, ADDI(5, 5, 1), TMC(0));
    launch2(c);
    run_idle(c, 1000);
    EXPECT_EQ(0x11, dm_rd(c, VX_DM_WSTATUS));
    dm_select(c, 4, 2);
    EXPECT_EQ(VX_HACAUSE_EBREAK, hacause(c));
    EXPECT_EQ(ENTRY + 4, dm_rd(c, VX_DM_DPC));
    EXPECT_EQ(1, read_gpr(c, 5));
    EXPECT_EQ(VX_IRQ_DEBUG, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_EQ(0, rd(c, VX_REG_ERR_CAUSE));

    /* a debugger moves past the ebreak, then resumes */
    dm_select(c, 0, 0);
    dm_wr(c, VX_DM_DPC, ENTRY + 8);
    dm_select(c, 4, 0);
    dm_wr(c, VX_DM_DPC, ENTRY + 8);
    dm_wr(c, VX_DM_WMASK, 0x11);
    dm_ctrl(c, VX_DCTRL_RESUMEREQ);
    run_idle(c, 1000);
    EXPECT_EQ(1, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WACTIVE));
}

/*
 * A software breakpoint set and cleared while a loop runs hot: the
 * debugger halts the warps, writes an ebreak over an instruction of the
 * loop through an injected store (one access, as a debugger's memory
 * write), resumes, and the warps must stop at it (spec: "ebreak ... with
 * ebreakh set, the warp halts with hacause ebreak and DPC at the
 * ebreak"); then it writes the instruction back and the loop runs on.
 * The jit executor (issue 27: "Breakpoint insertion and removal while a
 * translated block loops") has translated the loop by then, so this
 * fails if a translation outlives a write to its code.
 */
TEST_F(dm, breakpoint_set_and_cleared_in_a_hot_loop)
{
    struct card *c = &self->c;
    uint32_t x5, x6;

    dm_wr(c, VX_DM_DCONFIG, VX_DCONFIG_EBREAKH);
    PUT_CODE(c, ADDI(5, 5, 1), ADDI(6, 6, 2), ADD(7, 5, 6), JAL(0, -12));
    launch2(c);
    vx_sim_run(c->sim, 20000);          /* hot: translated by the jit */
    halt(c, 0x11);
    ASSERT_EQ(0x11, dm_rd(c, VX_DM_WSTATUS));
    /*
     * Step each warp to ENTRY + 8: resumed there, it reaches the
     * breakpoint only through the block translated at ENTRY, never by
     * translating afresh from a PC inside it.
     */
    for (uint32_t g = 0; g <= 4; g += 4) {
        dm_wr(c, VX_DM_WMASK, 1u << g);
        dm_select(c, g, 0);
        for (int i = 0; i < 4 && dm_rd(c, VX_DM_DPC) != ENTRY + 8; i++) {
            dm_ctrl(c, VX_DCTRL_STEPREQ);
        }
        ASSERT_EQ(ENTRY + 8, dm_rd(c, VX_DM_DPC));
    }
    dm_wr(c, VX_DM_WMASK, 0x11);
    dm_select(c, 4, 3);
    x5 = read_gpr(c, 5);

    /* set: sw ebreak over ENTRY + 4 (x28/x29 are the loop's spare regs) */
    dm_select(c, 0, 0);
    write_gpr(c, 28, ENTRY);
    write_gpr(c, 29, EBREAK);
    EXPECT_FALSE(inject(c, SW(29, 28, 4)));
    EXPECT_EQ(EBREAK, vram32(c, CODE_OFF + 4));
    dm_ctrl(c, VX_DCTRL_RESUMEREQ);
    run_idle(c, 20000);
    EXPECT_EQ(0x11, dm_rd(c, VX_DM_WSTATUS));
    dm_select(c, 4, 3);
    EXPECT_EQ(VX_HACAUSE_EBREAK, hacause(c));
    EXPECT_EQ(ENTRY + 4, dm_rd(c, VX_DM_DPC));
    /* at the first time it got there: add, jal, addi, ebreak */
    EXPECT_EQ(x5 + 1, read_gpr(c, 5));
    x5 = read_gpr(c, 5);
    x6 = read_gpr(c, 6);
    EXPECT_EQ(2 * (x5 - 1), x6);        /* stopped between the addis */
    EXPECT_LT(1000, x5);

    /* clear: the addi back, and the loop runs on from the breakpoint */
    dm_select(c, 0, 0);
    write_gpr(c, 29, ADDI(6, 6, 2));
    EXPECT_FALSE(inject(c, SW(29, 28, 4)));
    dm_ctrl(c, VX_DCTRL_RESUMEREQ);
    vx_sim_run(c->sim, 20000);
    EXPECT_EQ(0, dm_rd(c, VX_DM_WSTATUS));
    halt(c, 0x11);
    dm_select(c, 4, 3);
    EXPECT_LT(x5 + 1000, read_gpr(c, 5));
    EXPECT_EQ(VX_HACAUSE_HALTREQ, hacause(c));
}

/*
 * Without ebreakh an ebreak ends its core's warps, no error, no halt, as
 * upstream Vortex's sim/simx/execute.cpp:478-480 (trigger_ebreak(), at
 * fe8168b9; docs/hardware.md "SIMT control").
 * It was a card error (ERR_CAUSE 7) before the card followed upstream.
 */
TEST_F(dm, ebreak_without_ebreakh_ends_the_core)
{
    struct card *c = &self->c;

    PUT_CODE(c, EBREAK);
    launch2(c);
    run_idle(c, 1000);
    EXPECT_EQ(VX_ERR_NONE, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WACTIVE));
    EXPECT_EQ(1, rd(c, VX_REG_FENCE_SEQNO));
}

TEST(ebreakh_needs_dmactive)
{
    struct card c;

    ASSERT_EQ(0, card_open(&c, 1, 2, 4, 8));
    dm_ctrl(&c, 0);
    dm_wr(&c, VX_DM_DCONFIG, VX_DCONFIG_EBREAKH);
    dm_wr(&c, VX_DM_DCTRL, 0);
    PUT_CODE(&c, EBREAK);
    ring_setup(&c, 0x1000);
    launch2(&c);
    run_idle(&c, 1000);
    /* not halted: the ebreak ended the core, as without a debugger */
    EXPECT_EQ(VX_ERR_NONE, rd(&c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(0, dm_rd(&c, VX_DM_WSTATUS));
    card_close(&c);
}

/* ------------------------------------------------------------ inject */

TEST_F(dm, inject_reads_and_writes_gprs_of_one_thread)
{
    struct card *c = &self->c;

    spin_halted(c, 0x11);
    dm_select(c, 4, 2);
    write_gpr(c, 6, 0x12345678);
    EXPECT_EQ(0x12345678, read_gpr(c, 6));
    EXPECT_EQ(DEV(DATA_OFF), read_gpr(c, 10));      /* a0 = argument */
    dm_select(c, 4, 3);
    EXPECT_EQ(0, read_gpr(c, 6));                   /* other lane */
    dm_select(c, 0, 2);
    EXPECT_EQ(0, read_gpr(c, 6));                   /* other warp */
    write_gpr(c, 0, 5);                             /* x0 stays 0 */
    EXPECT_EQ(0, read_gpr(c, 0));
    dm_select(c, 4, 2);
    EXPECT_EQ(ENTRY, dm_rd(c, VX_DM_DPC));          /* PC untouched */
    EXPECT_EQ(0, dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_INJECTERR);
}

TEST_F(dm, inject_reads_and_writes_csrs)
{
    struct card *c = &self->c;

    spin_halted(c, 0x11);
    dm_select(c, 4, 5);
    EXPECT_FALSE(inject(c, CSRR(7, VX_CSR_MHARTID)));
    EXPECT_EQ(4 * 8 + 5, read_gpr(c, 7));
    EXPECT_FALSE(inject(c, CSRR(7, VX_CSR_MSCRATCH)));
    EXPECT_EQ(DEV(DATA_OFF), read_gpr(c, 7));
    write_gpr(c, 8, 0xabcd);
    EXPECT_FALSE(inject(c, CSRW(VX_CSR_MSCRATCH, 8)));
    EXPECT_FALSE(inject(c, CSRR(9, VX_CSR_MSCRATCH)));
    EXPECT_EQ(0xabcd, read_gpr(c, 9));
    /* thread mask, as a debugger reads it: 8 lanes */
    EXPECT_FALSE(inject(c, CSRR(9, VX_CSR_ACTIVE_THREADS)));
    EXPECT_EQ(0xff, read_gpr(c, 9));
    /* read-only CSR write is refused, not a card error */
    EXPECT_TRUE(inject(c, CSRW(VX_CSR_MHARTID, 8)));
    EXPECT_EQ(0, rd(c, VX_REG_STATUS) & VX_STATUS_ERROR);
}

/*
 * A debugger reads and writes mscratch and fcsr per thread, but they are
 * shared as upstream Vortex has them (mscratch one per core, fcsr one per
 * warp: sim/simx/emulator.cpp at fe8168b9, :513, :499-501): a write through
 * thread 2 is what thread 6 reads, the other core keeps its mscratch, the
 * other warp its fcsr.
 * Old code: thread 6 still read the argument and fcsr 0 (per lane).
 */
TEST_F(dm, inject_sees_the_shared_mscratch_and_fcsr)
{
    struct card *c = &self->c;

    spin_halted(c, 0x11);           /* warp 0 on core 0, warp 4 on core 1 */
    dm_select(c, 0, 2);
    write_gpr(c, 8, 0xabcd);
    EXPECT_FALSE(inject(c, CSRW(VX_CSR_MSCRATCH, 8)));
    write_gpr(c, 8, 0x65);
    EXPECT_FALSE(inject(c, CSRW(0x003, 8)));
    dm_select(c, 0, 6);
    EXPECT_FALSE(inject(c, CSRR(9, VX_CSR_MSCRATCH)));
    EXPECT_EQ(0xabcd, read_gpr(c, 9));
    EXPECT_FALSE(inject(c, CSRR(9, 0x003)));
    EXPECT_EQ(0x65, read_gpr(c, 9));
    dm_select(c, 4, 6);
    EXPECT_FALSE(inject(c, CSRR(9, VX_CSR_MSCRATCH)));
    EXPECT_EQ(DEV(DATA_OFF), read_gpr(c, 9));
    EXPECT_FALSE(inject(c, CSRR(9, 0x003)));
    EXPECT_EQ(0, read_gpr(c, 9));
}

TEST_F(dm, inject_reads_and_writes_fprs)
{
    struct card *c = &self->c;

    spin_halted(c, 0x01);
    dm_select(c, 0, 1);
    write_gpr(c, 6, 0x3fc00000);                    /* 1.5f */
    EXPECT_FALSE(inject(c, FMV_W_X(3, 6)));
    EXPECT_FALSE(inject(c, FMV_X_W(7, 3)));
    EXPECT_EQ(0x3fc00000, read_gpr(c, 7));
    dm_select(c, 0, 0);
    EXPECT_FALSE(inject(c, FMV_X_W(7, 3)));
    EXPECT_EQ(0, read_gpr(c, 7));
}

TEST_F(dm, inject_reads_and_writes_memory)
{
    struct card *c = &self->c;

    spin_halted(c, 0x01);
    dm_select(c, 0, 0);
    write_gpr(c, 6, DEV(DATA_OFF));
    write_gpr(c, 7, 0xcafef00d);
    EXPECT_FALSE(inject(c, SW(7, 6, 8)));
    EXPECT_EQ(0xcafef00d, vram32(c, DATA_OFF + 8));
    vram32_set(c, DATA_OFF + 12, 0x55aa55aa);
    EXPECT_FALSE(inject(c, LW(8, 6, 12)));
    EXPECT_EQ(0x55aa55aa, read_gpr(c, 8));
}

TEST_F(dm, inject_control_transfer_only_writes_rd)
{
    struct card *c = &self->c;

    spin_halted(c, 0x01);
    dm_select(c, 0, 0);
    EXPECT_FALSE(inject(c, JAL(1, 0x100)));
    EXPECT_EQ(ENTRY + 4, read_gpr(c, 1));
    EXPECT_EQ(ENTRY, dm_rd(c, VX_DM_DPC));
    EXPECT_FALSE(inject(c, BEQ(0, 0, 0x40)));
    EXPECT_EQ(ENTRY, dm_rd(c, VX_DM_DPC));
}

/* injectwarp: one request runs INJECT in every lane of the selected warp. */
TEST_F(dm, injectwarp_runs_in_every_thread)
{
    struct card *c = &self->c;
    uint32_t lane;

    spin_halted(c, 0x11);
    dm_select(c, 4, 3);
    /* t1 = mhartid in every lane, then into each lane's dscratch0 */
    dm_wr(c, VX_DM_INJECT, CSRR(6, VX_CSR_MHARTID));
    dm_ctrl(c, VX_DCTRL_INJECTREQ | VX_DCTRL_INJECTWARP);
    EXPECT_EQ(0, dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_INJECTERR);
    dm_wr(c, VX_DM_INJECT, CSRW(VX_CSR_DSCRATCH(0), 6));
    dm_ctrl(c, VX_DCTRL_INJECTREQ | VX_DCTRL_INJECTWARP);
    for (lane = 0; lane < 8; lane++) {
        dm_select(c, 4, lane);
        EXPECT_EQ(4 * 8 + lane, dm_rd(c, VX_DM_DSCRATCH(0))) {
            TH_LOG("lane %u", lane);
        }
    }
    /* Other warps untouched; the PC did not move. */
    dm_select(c, 0, 0);
    EXPECT_EQ(0, read_gpr(c, 6));
    dm_select(c, 4, 0);
    EXPECT_EQ(ENTRY, dm_rd(c, VX_DM_DPC));
}

TEST_F(dm, injectwarp_fault_stops_at_the_faulting_lane)
{
    struct card *c = &self->c;

    spin_halted(c, 0x01);
    dm_select(c, 0, 0);
    EXPECT_FALSE(inject(c, NOP));
    dm_wr(c, VX_DM_INJECT, EBREAK);
    dm_ctrl(c, VX_DCTRL_INJECTREQ | VX_DCTRL_INJECTWARP);
    EXPECT_NE(0, dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_INJECTERR);
    EXPECT_EQ(0, rd(c, VX_REG_STATUS) & VX_STATUS_ERROR);
    /* A running warp refuses it as a one-thread inject would. */
    dm_select(c, 4, 0);
    dm_wr(c, VX_DM_INJECT, NOP);
    dm_ctrl(c, VX_DCTRL_INJECTREQ | VX_DCTRL_INJECTWARP);
    EXPECT_NE(0, dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_INJECTERR);
}

TEST_F(dm, inject_errors_do_not_stop_the_card)
{
    struct card *c = &self->c;
    const uint32_t bad[] = {
        EBREAK, ECALL, TMC(0), WSPAWN(0, 0),
        RV_R(0, 0, 0, VX_F3_TRAP_ASSERT, 0, VX_OPCODE_CUSTOM1),
        LW(5, 0, 0x10), SW(5, 0, 0x10), LW(5, 0, 2) | 0, ILLEGAL,
    };

    dm_wr(c, VX_DM_DCONFIG, VX_DCONFIG_EBREAKH);
    spin_halted(c, 0x01);
    dm_select(c, 0, 0);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        EXPECT_TRUE(inject(c, bad[i])) {
            TH_LOG("insn %zu = 0x%08x", i, bad[i]);
        }
        EXPECT_FALSE(inject(c, NOP));   /* the next request clears it */
    }
    EXPECT_EQ(0, rd(c, VX_REG_STATUS) & VX_STATUS_ERROR);
    EXPECT_EQ(0, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(0x01, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_EQ(0x11, dm_rd(c, VX_DM_WACTIVE));
    EXPECT_EQ(VX_HACAUSE_HALTREQ, hacause(c));
    EXPECT_EQ(ENTRY, dm_rd(c, VX_DM_DPC));
}

TEST_F(dm, inject_needs_a_halted_selected_thread)
{
    struct card *c = &self->c;

    spin_halted(c, 0x01);
    dm_select(c, 4, 0);                 /* running */
    EXPECT_TRUE(inject(c, NOP));
    dm_select(c, 1, 0);                 /* no context */
    EXPECT_TRUE(inject(c, NOP));
    dm_select(c, NWARPS, 0);            /* out of range */
    EXPECT_TRUE(inject(c, NOP));
    dm_select(c, 0, 8);                 /* thread out of range */
    EXPECT_TRUE(inject(c, NOP));
    dm_select(c, 0, 7);
    EXPECT_FALSE(inject(c, NOP));
}

/* ------------------------------------------------ DPC and DSCRATCH */

TEST_F(dm, dpc_write_only_while_halted)
{
    struct card *c = &self->c;

    /* entry: spin; entry + 8: store a marker and end */
    PUT_CODE(c, JSELF, JSELF, ADDI(5, 0, 0x77), SW(5, 10, 0), TMC(0));
    launch2(c);
    dm_select(c, 0, 0);
    dm_wr(c, VX_DM_DPC, ENTRY + 8);     /* running: ignored */
    EXPECT_EQ(1, c->guest_errors);
    EXPECT_EQ(ENTRY, dm_rd(c, VX_DM_DPC));

    halt(c, 0x11);
    dm_wr(c, VX_DM_DPC, ENTRY + 8);
    EXPECT_EQ(ENTRY + 8, dm_rd(c, VX_DM_DPC));
    dm_wr(c, VX_DM_WMASK, 0x01);
    dm_ctrl(c, VX_DCTRL_RESUMEREQ);
    run_idle(c, 1000);
    EXPECT_EQ(0x77, vram32(c, DATA_OFF));
    EXPECT_EQ(0x10, dm_rd(c, VX_DM_WACTIVE));
}

TEST_F(dm, dscratch_is_per_thread)
{
    struct card *c = &self->c;

    spin_halted(c, 0x01);
    dm_select(c, 0, 1);
    for (uint32_t n = 0; n < 4; n++) {
        dm_wr(c, VX_DM_DSCRATCH(n), 0xa0 + n);
    }
    for (uint32_t n = 0; n < 4; n++) {
        EXPECT_EQ(0xa0 + n, dm_rd(c, VX_DM_DSCRATCH(n)));
    }
    EXPECT_FALSE(inject(c, CSRR(5, VX_CSR_DSCRATCH(3))));
    EXPECT_FALSE(inject(c, CSRW(VX_CSR_DSCRATCH(2), 5)));
    EXPECT_EQ(0xa3, dm_rd(c, VX_DM_DSCRATCH(2)));
    dm_select(c, 0, 2);
    EXPECT_EQ(0, dm_rd(c, VX_DM_DSCRATCH(0)));
    dm_select(c, 4, 1);
    EXPECT_EQ(0, dm_rd(c, VX_DM_DSCRATCH(0)));

    /* the DM's state survives a RESET of the card */
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    dm_select(c, 0, 1);
    EXPECT_EQ(0xa0, dm_rd(c, VX_DM_DSCRATCH(0)));
}

TEST_F(dm, out_of_range_selection_selects_nothing)
{
    struct card *c = &self->c;

    spin_halted(c, 0x11);
    dm_wr(c, VX_DM_DSELECT, VX_DSELECT_MAKE(0, 0x7fff, 0x7f));
    EXPECT_EQ(VX_DSELECT_MAKE(0, 0x7fff, 0x7f), dm_rd(c, VX_DM_DSELECT));
    EXPECT_EQ(0, dm_rd(c, VX_DM_DPC));
    EXPECT_EQ(0, dm_rd(c, VX_DM_DSCRATCH(0)));
    EXPECT_EQ(0, hacause(c));
    dm_wr(c, VX_DM_DSCRATCH(0), 1);
    dm_wr(c, VX_DM_DPC, ENTRY);
    EXPECT_EQ(2, c->guest_errors);

    dm_select(c, 0, 8);                 /* warp fine, thread not */
    EXPECT_EQ(0, dm_rd(c, VX_DM_DSCRATCH(0)));
    EXPECT_EQ(ENTRY, dm_rd(c, VX_DM_DPC));
    EXPECT_EQ(VX_HACAUSE_HALTREQ, hacause(c));
    dm_wr(c, VX_DM_DSCRATCH(0), 1);
    EXPECT_EQ(3, c->guest_errors);
    for (uint32_t t = 0; t < 8; t++) {
        dm_select(c, 0, t);
        EXPECT_EQ(0, dm_rd(c, VX_DM_DSCRATCH(0)));
    }
}

/* -------------------------------------------------- reset and dmactive */

TEST_F(dm, resethaltreq_then_ndmreset_halts_at_entry)
{
    struct card *c = &self->c;

    PUT_CODE(c, ADDI(5, 5, 1), TMC(0));
    dm_wr(c, VX_DM_WMASK, 0x01);
    dm_ctrl(c, VX_DCTRL_RESETHALTREQ | VX_DCTRL_NDMRESET);
    EXPECT_EQ(0, rd(c, VX_REG_RING_CTRL));      /* the card was reset */
    EXPECT_EQ(0x01, dm_rd(c, VX_DM_WMASK));     /* the DM was not */

    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(c, 0x1000);
    launch2(c);
    run_idle(c, 1000);
    EXPECT_EQ(0x01, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_EQ(0x01, dm_rd(c, VX_DM_WACTIVE));  /* warp 4 finished */
    dm_select(c, 0, 0);
    EXPECT_EQ(VX_HACAUSE_RESETHALTREQ, hacause(c));
    EXPECT_EQ(ENTRY, dm_rd(c, VX_DM_DPC));
    EXPECT_EQ(0, read_gpr(c, 5));               /* nothing ran */
    EXPECT_EQ(VX_IRQ_DEBUG, rd(c, VX_REG_IRQ_STATUS));

    dm_ctrl(c, VX_DCTRL_RESUMEREQ);
    run_idle(c, 1000);
    EXPECT_EQ(1, rd(c, VX_REG_FENCE_SEQNO));

    /* armed only once per reset: the next launch runs through */
    launch2(c);
    run_idle(c, 1000);
    EXPECT_EQ(0, dm_rd(c, VX_DM_WACTIVE));

    /* the latch stays: a RESET re-arms it */
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    ring_setup(c, 0x1000);
    launch2(c);
    run_idle(c, 1000);
    EXPECT_EQ(0x01, dm_rd(c, VX_DM_WSTATUS));
}

TEST_F(dm, resethalt_applies_to_wspawned_warps)
{
    struct card *c = &self->c;
    const uint32_t spawn_pc = ENTRY + 0x100;

    /* warp 0 spawns warps 1..3 at spawn_pc, then ends */
    PUT_CODE(c, ADDI(5, 0, 4), LUI(6, spawn_pc >> 12),
             ADDI(6, 6, spawn_pc & 0xfff), WSPAWN(5, 6), TMC(0));
    vram32_set(c, CODE_OFF + 0x100, TMC(0));
    dm_wr(c, VX_DM_WMASK, 0x02);
    dm_ctrl(c, VX_DCTRL_RESETHALTREQ);
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    ring_setup(c, 0x1000);
    ring_launch_simple(c, 1, 1);
    ring_fence(c, 1, 0);
    ring_kick(c);
    run_idle(c, 1000);
    EXPECT_EQ(0x02, dm_rd(c, VX_DM_WSTATUS));
    EXPECT_EQ(0x02, dm_rd(c, VX_DM_WACTIVE));
    dm_select(c, 1, 0);
    EXPECT_EQ(VX_HACAUSE_RESETHALTREQ, hacause(c));
    EXPECT_EQ(spawn_pc, dm_rd(c, VX_DM_DPC));
    EXPECT_EQ(0, rd(c, VX_REG_FENCE_SEQNO));    /* the block lives on */
    dm_ctrl(c, VX_DCTRL_RESUMEREQ);
    run_idle(c, 1000);
    EXPECT_EQ(1, rd(c, VX_REG_FENCE_SEQNO));
}

/*
 * ndmreset reads 1 for 2^NRC cycles; a DM read counts as a cycle, so an
 * idle card (whose clock stands still) still lets it drop.
 */
TEST_F(dm, ndmreset_deasserts_after_2_pow_nrc_reads)
{
    struct card *c = &self->c;

    dm_wr(c, VX_DM_DCONFIG, VX_DCONFIG_NRC_PUT(2));
    dm_ctrl(c, VX_DCTRL_NDMRESET);
    for (int i = 0; i < 4; i++) {
        EXPECT_TRUE(dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_NDMRESET);
    }
    EXPECT_FALSE(dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_NDMRESET);

    dm_wr(c, VX_DM_DCONFIG, VX_DCONFIG_NRC_PUT(0));
    dm_ctrl(c, VX_DCTRL_NDMRESET);
    EXPECT_TRUE(dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_NDMRESET);
    EXPECT_FALSE(dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_NDMRESET);
}

TEST_F(dm, ndmreset_deasserts_with_device_cycles)
{
    struct card *c = &self->c;

    dm_wr(c, VX_DM_DCONFIG, VX_DCONFIG_NRC_PUT(7));
    dm_ctrl(c, VX_DCTRL_NDMRESET);
    EXPECT_TRUE(dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_NDMRESET);
    PUT_CODE(c, JSELF);
    ring_setup(c, 0x1000);
    launch2(c);
    vx_sim_run(c->sim, 200);
    EXPECT_FALSE(dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_NDMRESET);
}

TEST_F(dm, ndmreset_resets_cores_not_the_dm)
{
    struct card *c = &self->c;

    PUT_CODE(c, JSELF);
    launch2(c);
    vx_sim_run(c->sim, 100);
    halt(c, 0x01);
    dm_wr(c, VX_DM_DCONFIG, VX_DCONFIG_EBREAKH);
    dm_select(c, 0, 3);
    dm_wr(c, VX_DM_DSCRATCH(1), 0x99);
    dm_ctrl(c, VX_DCTRL_NDMRESET);
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
    EXPECT_EQ(0, rd(c, VX_REG_IRQ_ENABLE));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WACTIVE));
    EXPECT_EQ(0, hacause(c));
    EXPECT_FALSE(vx_sim_runnable(c->sim));
    EXPECT_EQ(VX_DCONFIG_EBREAKH, dm_rd(c, VX_DM_DCONFIG));
    EXPECT_EQ(VX_DSELECT_MAKE(0, 0, 3), dm_rd(c, VX_DM_DSELECT));
    EXPECT_EQ(0x01, dm_rd(c, VX_DM_WMASK));
    EXPECT_EQ(0x99, dm_rd(c, VX_DM_DSCRATCH(1)));
}

TEST_F(dm, dmactive_zero_resets_the_dm_and_resumes)
{
    struct card *c = &self->c;
    uint64_t pc;

    PUT_CODE(c, ADDI(5, 5, 1), JAL(0, -4));
    launch2(c);
    vx_sim_run(c->sim, 100);
    halt(c, 0x11);
    dm_select(c, 0, 0);
    dm_wr(c, VX_DM_DCONFIG, VX_DCONFIG_EBREAKH | VX_DCONFIG_NRC_PUT(3));
    dm_wr(c, VX_DM_INJECT, 0x1234);
    dm_wr(c, VX_DM_DSCRATCH(0), 0x55);
    dm_ctrl(c, VX_DCTRL_RESETHALTREQ);
    EXPECT_TRUE(inject(c, ECALL));

    c->kicks = 0;
    dm_wr(c, VX_DM_DCTRL, 0);
    EXPECT_EQ(1, c->kicks);
    EXPECT_EQ(0, dm_rd(c, VX_DM_DCTRL));
    EXPECT_EQ(0, rd(c, VX_REG_STATUS) & VX_STATUS_HALTED);
    pc = c->sim->warps[0].instret;
    /* enough for a turn of every warp: the scheduler's bursts are 128 */
    vx_sim_run(c->sim, 4096);
    EXPECT_LT(pc, c->sim->warps[0].instret);    /* it ran again */
    dm_ctrl(c, 0);
    dm_select(c, 0, 0);
    EXPECT_EQ(0, hacause(c));
    EXPECT_EQ(0, dm_rd(c, VX_DM_DCONFIG));
    EXPECT_EQ(0, dm_rd(c, VX_DM_INJECT));
    EXPECT_EQ(0, dm_rd(c, VX_DM_WMASK));
    EXPECT_EQ(0, dm_rd(c, VX_DM_DSCRATCH(0)));
    /* no injecterr; warps 0 and 4 run, the rest have no context */
    EXPECT_EQ(VX_DCTRL_DMACTIVE | VX_DCTRL_ANYRUNNING | VX_DCTRL_ALLRUNNING |
              VX_DCTRL_ANYUNAVAIL, dm_rd(c, VX_DM_DCTRL));

    /* the reset-halt latch went too */
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    ring_setup(c, 0x1000);
    launch2(c);
    vx_sim_run(c->sim, 100);
    EXPECT_EQ(0, dm_rd(c, VX_DM_WSTATUS));
}

TEST_HARNESS_MAIN
