// SPDX-License-Identifier: MIT
/*
 * Exceptions of the simulator core: each cause must report the right
 * warp, lowest lane, lane mask, PC and address through the ERR_*
 * registers, commit nothing for any lane, and freeze the card.  Also
 * ecall and ebreak, which end the core's warps without an error (or halt
 * under the Debug Module's ebreakh), and DM instruction injection.
 * The device side is isa/sim_exc.S (one scenario per exc_select value).
 */
#include <string.h>
#include "kselftest_harness.h"
#include "sim_loader.h"

#define SLOTS   (1000 * 1000)
#define GID     1               /* the faulting warp: core 0, warp 1 */
#define MASK    0xf0u           /* its lanes */

enum addr_kind { ADDR_ZERO, ADDR_ABS, ADDR_DATA, ADDR_INSN, ADDR_PC };

FIXTURE(exc) {
    struct vx_card *c;
};

FIXTURE_VARIANT(exc) {
    uint32_t select;
    const char *pc_sym;         /* NULL: ERR_PC is @addr */
    uint32_t cause;
    enum addr_kind akind;
    uint32_t addr;              /* absolute, or offset from exc_data */
    uint32_t tmask;
    uint32_t thread;
};

#define EXC(name, sel, cause_, akind_, addr_, mask_, thread_)              \
    FIXTURE_VARIANT_ADD(exc, name) {                                        \
        .select = sel, .pc_sym = "exc_pc_" #name, .cause = cause_,          \
        .akind = akind_, .addr = addr_, .tmask = mask_, .thread = thread_,  \
    }

EXC(illegal, 0, VX_ERR_ILLEGAL_INSTR, ADDR_ABS, 0xffffffff, MASK, 4);
EXC(misld, 1, VX_ERR_MISALIGNED_LOAD, ADDR_DATA, 1, 0x60, 5);
EXC(misst, 2, VX_ERR_MISALIGNED_STORE, ADDR_DATA, 2, 0x60, 5);
EXC(ldfault, 3, VX_ERR_LOAD_FAULT, ADDR_ABS, 0x10, 0x80, 7);
EXC(ldfault2, 4, VX_ERR_LOAD_FAULT, ADDR_ABS, 0x7ffffffc, 0x80, 7);
EXC(stfault, 5, VX_ERR_STORE_FAULT, ADDR_ABS, 0x81000000, MASK, 4);
FIXTURE_VARIANT_ADD(exc, fetch) {
    .select = 6, .pc_sym = NULL, .cause = VX_ERR_FETCH_FAULT,
    .akind = ADDR_ABS, .addr = 0x10, .tmask = MASK, .thread = 4,
};
/* 7 and 8, ebreak and ecall, end the core's warps: see ecall_ends_core */
EXC(assert, 9, VX_ERR_ASSERT, ADDR_ZERO, 0, MASK, 4);
EXC(join, 10, VX_ERR_DIVERGENCE, ADDR_ZERO, 0, MASK, 4);
/* the split ran its taken side first, a tie: the odd lanes */
EXC(join_token, 11, VX_ERR_DIVERGENCE, ADDR_ZERO, 0, 0xa0, 5);
EXC(bar, 12, VX_ERR_BARRIER, ADDR_ABS, 1, MASK, 4);
EXC(csr_ro, 13, VX_ERR_ILLEGAL_INSTR, ADDR_INSN, 0, MASK, 4);
EXC(csr_unknown, 14, VX_ERR_ILLEGAL_INSTR, ADDR_INSN, 0, MASK, 4);
/* frm is the warp's (upstream's fcsr): every lane has the invalid one */
EXC(frm, 15, VX_ERR_ILLEGAL_INSTR, ADDR_INSN, 0, MASK, 4);
EXC(split_overflow, 16, VX_ERR_DIVERGENCE, ADDR_ZERO, 0, MASK, 4);
/* Issue 14's rows: the fault is on the jump, ERR_ADDR the target pc + 6. */
EXC(jalr_misaligned, 17, VX_ERR_MISALIGNED_FETCH, ADDR_PC, 6, MASK, 4);
EXC(jal_misaligned, 18, VX_ERR_MISALIGNED_FETCH, ADDR_PC, 6, MASK, 4);
EXC(beq_misaligned, 19, VX_ERR_MISALIGNED_FETCH, ADDR_PC, 6, MASK, 4);

/* A 1 core x 2 warps x 8 threads card with sim_exc set to scenario @sel. */
static struct vx_card *exc_card(uint32_t sel)
{
    struct vx_card *c = vx_card_new(1, 2, 8);

    if (!c || vx_card_load(c, vx_test_path("sim_exc", ".sim.elf")) < 0) {
        vx_card_free(c);
        return NULL;
    }
    vx_card_wr32(c, vx_card_sym(c, "exc_select"), sel);
    return c;
}

FIXTURE_SETUP(exc)
{
    self->c = exc_card(variant->select);
    ASSERT_NE(NULL, self->c);
}

FIXTURE_TEARDOWN(exc)
{
    vx_card_free(self->c);
}

static uint32_t lane_x(struct vx_card *c, uint32_t gid, uint32_t reg,
                       uint32_t lane)
{
    return c->sim->warps[gid].x[reg * c->cfg.threads + lane];
}

TEST_F(exc, reports)
{
    struct vx_card *c = self->c;
    uint32_t pc = variant->pc_sym ? vx_card_sym(c, variant->pc_sym)
                                  : variant->addr;
    uint32_t data = vx_card_sym(c, "exc_data"), addr;

    ASSERT_NE(0, pc);
    switch (variant->akind) {
    case ADDR_DATA: addr = data + variant->addr; break;
    case ADDR_INSN: addr = vx_card_rd32(c, pc); break;
    case ADDR_ABS:  addr = variant->addr; break;
    case ADDR_PC:   addr = pc + variant->addr; break;
    default:        addr = 0; break;
    }
    vx_card_start(c, GID, c->entry, MASK);
    vx_card_run(c, SLOTS);

    EXPECT_EQ(variant->cause, vx_card_reg(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(GID, vx_card_reg(c, VX_REG_ERR_WARP));
    EXPECT_EQ(variant->thread, vx_card_reg(c, VX_REG_ERR_THREAD));
    EXPECT_EQ(pc, vx_card_reg(c, VX_REG_ERR_PC));
    EXPECT_EQ(variant->tmask, vx_card_reg(c, VX_REG_ERR_TMASK(0)));
    EXPECT_EQ(0, vx_card_reg(c, VX_REG_ERR_TMASK(1)));
    EXPECT_EQ(addr, vx_card_reg(c, VX_REG_ERR_ADDR));
    EXPECT_TRUE(vx_card_reg(c, VX_REG_STATUS) & VX_STATUS_ERROR);
    EXPECT_TRUE(vx_card_reg(c, VX_REG_IRQ_STATUS) & VX_IRQ_ERROR);
    if (variant->cause == VX_ERR_ASSERT) {
        EXPECT_EQ(0x11, vx_card_reg(c, VX_REG_ERR_INFO(0)));
        EXPECT_EQ(0x22, vx_card_reg(c, VX_REG_ERR_INFO(1)));
        EXPECT_EQ(0x33, vx_card_reg(c, VX_REG_ERR_INFO(2)));
        EXPECT_EQ(4, vx_card_reg(c, VX_REG_ERR_INFO(3)));
    }
    /* frozen where it faulted, nothing committed for the good lanes */
    EXPECT_TRUE(c->sim->warps[GID].active);
    EXPECT_EQ(pc, c->sim->warps[GID].pc);
    EXPECT_EQ(0x1234, lane_x(c, GID, 31, 4));
    EXPECT_EQ(0, vx_card_rd32(c, data));
    EXPECT_FALSE(vx_sim_runnable(c->sim));
    EXPECT_EQ(0, vx_sim_run(c->sim, 100));
}

/* jalr clearing bit 0 of an odd target, and a branch not taken: no fault. */
TEST(jumps_that_do_not_fault)
{
    for (uint32_t sel = 20; sel <= 21; sel++) {
        struct vx_card *c = exc_card(sel);

        ASSERT_NE(NULL, c);
        vx_card_start(c, GID, c->entry, MASK);
        vx_card_run(c, SLOTS);
        EXPECT_EQ(VX_ERR_NONE, vx_card_reg(c, VX_REG_ERR_CAUSE)) {
            TH_LOG("scenario %u", sel);
        }
        EXPECT_FALSE(c->sim->warps[GID].active);
        vx_card_free(c);
    }
}

/*
 * ecall and ebreak end every warp of their core, with no error: upstream
 * Vortex's execute.cpp:474-480 (sim/simx, at fe8168b9) calls
 * trigger_ecall()/trigger_ebreak(), which clear the core's active_warps_
 * (sim/simx/emulator.cpp:677-682; UPSTREAM_EMU_ECALL in
 * docs/hardware.md).  Core 0's other warp, spinning, ends with it; core 1's
 * spinning warp runs on.  On the old code both raised a card error
 * (ERR_CAUSE 9 and 7) with every warp left active.
 */
static void ends_core(struct __test_metadata *_metadata, uint32_t sel)
{
    struct vx_card *c = vx_card_new(2, 2, 8);
    uint32_t spin;

    ASSERT_NE(NULL, c);
    ASSERT_EQ(0, vx_card_load(c, vx_test_path("sim_exc", ".sim.elf")));
    vx_card_wr32(c, vx_card_sym(c, "exc_select"), sel);
    spin = vx_card_sym(c, "exc_data") + 32;
    vx_card_wr32(c, spin, 0x0000006f);          /* j . */
    vx_card_start(c, 0, spin, 0x1);
    vx_card_start(c, 2, spin, 0x1);             /* core 1 */
    vx_card_start(c, GID, c->entry, MASK);
    vx_card_run(c, SLOTS);
    EXPECT_EQ(VX_ERR_NONE, vx_card_reg(c, VX_REG_ERR_CAUSE));
    EXPECT_FALSE(vx_card_reg(c, VX_REG_STATUS) & VX_STATUS_ERROR);
    EXPECT_FALSE(c->sim->warps[0].active);
    EXPECT_FALSE(c->sim->warps[GID].active);
    EXPECT_TRUE(c->sim->warps[2].active);
    /* alone, its `j .` parks the card (docs/hardware.md, "Parking") */
    EXPECT_TRUE(vx_sim_runnable(c->sim) || vx_sim_parked(c->sim));
    vx_card_free(c);
}

TEST(ecall_ends_core)
{
    ends_core(_metadata, 8);
}

TEST(ebreak_ends_core)
{
    ends_core(_metadata, 7);
}

/* With DCONFIG.ebreakh the warp halts at the ebreak instead. */
TEST(ebreak_halts)
{
    struct vx_card *c = exc_card(7);
    uint32_t pc;

    ASSERT_NE(NULL, c);
    pc = vx_card_sym(c, "exc_pc_ebreak");
    vx_sim_mmio_write(c->sim, VX_DM_REG(VX_DM_DCTRL), VX_DCTRL_DMACTIVE);
    vx_sim_mmio_write(c->sim, VX_DM_REG(VX_DM_DCONFIG), VX_DCONFIG_EBREAKH);
    vx_card_start(c, GID, c->entry, MASK);
    vx_card_run(c, SLOTS);
    EXPECT_EQ(0, vx_card_reg(c, VX_REG_ERR_CAUSE));
    EXPECT_TRUE(c->sim->warps[GID].halted);
    EXPECT_EQ(VX_HACAUSE_EBREAK, c->sim->warps[GID].hacause);
    EXPECT_EQ(pc, c->sim->warps[GID].pc);
    EXPECT_TRUE(vx_card_reg(c, VX_REG_STATUS) & VX_STATUS_HALTED);
    EXPECT_FALSE(vx_sim_runnable(c->sim));
    vx_card_free(c);
}

/* A fault freezes every other warp too. */
TEST(fault_freezes_card)
{
    struct vx_card *c = exc_card(0);
    uint64_t before;

    ASSERT_NE(NULL, c);
    /* warp 0 spins on "j ." placed in exc_data */
    vx_card_wr32(c, vx_card_sym(c, "exc_data") + 32, 0x0000006f);
    vx_card_start(c, 0, vx_card_sym(c, "exc_data") + 32, 0x1);
    vx_card_start(c, GID, c->entry, MASK);
    vx_card_run(c, SLOTS);
    EXPECT_EQ(VX_ERR_ILLEGAL_INSTR, vx_card_reg(c, VX_REG_ERR_CAUSE));
    before = c->sim->warps[0].instret;
    EXPECT_LT(0, before);
    EXPECT_EQ(0, vx_sim_run(c->sim, 1000));
    EXPECT_EQ(before, c->sim->warps[0].instret);
    vx_card_free(c);
}

/* DM injection: one lane, PC and mask untouched, never stops the card. */
TEST(inject)
{
    struct vx_card *c = vx_card_new(1, 1, 8);
    struct vx_warp *w;
    uint32_t base = VX_VRAM_DEVADDR + 0x1000;

    ASSERT_NE(NULL, c);
    w = &c->sim->warps[0];
    vx_card_start(c, 0, base, 0x3);
    w->halted = true;
    /* addi a0, zero, 42 on lane 5 (inactive in the mask) */
    EXPECT_EQ(0, vx_exec_inject(c->sim, w, 5, 0x02a00513));
    EXPECT_EQ(42, lane_x(c, 0, 10, 5));
    EXPECT_EQ(0, lane_x(c, 0, 10, 4));
    /* lui a1, 0x80001; sw a0, 0x10(a1): a store reaches memory */
    EXPECT_EQ(0, vx_exec_inject(c->sim, w, 5, 0x800015b7));
    EXPECT_EQ(0, vx_exec_inject(c->sim, w, 5, 0x00a5a823));
    EXPECT_EQ(42, vx_card_rd32(c, base + 0x10));
    /* jal ra, 0x100: only the link register */
    EXPECT_EQ(0, vx_exec_inject(c->sim, w, 5, 0x100000ef));
    EXPECT_EQ(base + 4, lane_x(c, 0, 1, 5));
    /* refused: ecall, ebreak, tmc, a load fault, an illegal instruction */
    EXPECT_EQ(-1, vx_exec_inject(c->sim, w, 5, 0x00000073));
    EXPECT_EQ(-1, vx_exec_inject(c->sim, w, 5, 0x00100073));
    EXPECT_EQ(-1, vx_exec_inject(c->sim, w, 5, 0x0000000b));
    EXPECT_EQ(-1, vx_exec_inject(c->sim, w, 5, 0x00002503)); /* lw a0,0(x0) */
    EXPECT_EQ(-1, vx_exec_inject(c->sim, w, 5, 0xffffffff));
    EXPECT_EQ(-1, vx_exec_inject(c->sim, w, 8, 0x02a00513));  /* no lane 8 */
    EXPECT_EQ(42, lane_x(c, 0, 10, 5));
    EXPECT_EQ(base, w->pc);
    EXPECT_EQ(0x3, w->tmask.w[0]);
    EXPECT_EQ(0, vx_card_reg(c, VX_REG_ERR_CAUSE));
    EXPECT_FALSE(c->sim->error);
    vx_card_free(c);
}

TEST_HARNESS_MAIN
