// SPDX-License-Identifier: MIT
/*
 * The core's CSRs and ISA extensions as upstream Vortex has them
 * (github vortexgpgpu/vortex at fe8168b9, the one reference:
 * sim/simx/emulator.cpp, sim/simx/execute.cpp, sim/common/mem.cpp,
 * hw/rtl/VX_types.vh; docs/hardware.md "CSRs and ISA extensions" has the
 * whole list):
 * mscratch one per core, fcsr one per warp, the machine counters and the
 * CSRs that read 0, the A
 * extension (AMOs under contention, lane order, faults, LR/SC and its
 * reservation) and Zicond.  Hand-assembled programs (testlib/vx_asm.h):
 * the RV toolchain here (clang 14) has no Zicond, and an encoder keeps
 * each program exactly what the test says.  Run once per executor.
 */
#include <stdlib.h>
#include <string.h>
#include "kselftest_harness.h"
#include "sim_loader.h"
#include "vx_asm.h"

#define SLOTS       (10ull * 1000 * 1000)
#define CODE        (VX_VRAM_DEVADDR + 0x1000)
#define CODE2       (VX_VRAM_DEVADDR + 0x3000)
#define DATA        (VX_VRAM_DEVADDR + 0x10000)     /* LUI-able */
#define OUT         (VX_VRAM_DEVADDR + 0x20000)     /* LUI-able */
#define TID         0xcc0
#define HARTID      0xf14

/* An instruction stream being written at a device address. */
struct prog {
    struct vx_card *c;
    uint32_t at;
};

static void emit(struct prog *p, uint32_t insn)
{
    vx_card_wr32(p->c, p->at, insn);
    p->at += 4;
}

/* x@rd <- @v (LUI + ADDI) */
static void li(struct prog *p, uint32_t rd, uint32_t v)
{
    uint32_t lo = v & 0xfff, hi = (v >> 12) + (lo >> 11);

    emit(p, LUI(rd, hi & 0xfffff));
    emit(p, ADDI(rd, rd, lo));
}

/* Store x@rs to OUT + hartid * 64 + 4 * @slot (x31 holds that base). */
static void out_base(struct prog *p)
{
    emit(p, CSRR(31, HARTID));
    emit(p, SLLI(31, 31, 6));
    emit(p, LUI(30, OUT >> 12));
    emit(p, ADD(31, 31, 30));
}

static void out_put(struct prog *p, uint32_t slot, uint32_t rs)
{
    emit(p, SW(rs, 31, 4 * slot));
}

static uint32_t out_get(struct vx_card *c, uint32_t hart, uint32_t slot)
{
    return vx_card_rd32(c, OUT + hart * 64 + 4 * slot);
}

static void expect_clean(struct __test_metadata *_metadata, struct vx_card *c)
{
    EXPECT_EQ(0, vx_card_reg(c, VX_REG_ERR_CAUSE)) {
        TH_LOG("fault cause %u at pc 0x%08x addr 0x%08x",
               vx_card_reg(c, VX_REG_ERR_CAUSE), vx_card_reg(c, VX_REG_ERR_PC),
               vx_card_reg(c, VX_REG_ERR_ADDR));
    }
    EXPECT_FALSE(vx_sim_runnable(c->sim));
}

/*
 * mscratch is one per core: upstream's Emulator (one per core) holds a
 * single csr_mscratch_ that get_csr/set_csr read and write whatever the
 * warp and thread (emulator.cpp:513, :630-631; reset: :122), and
 * vx_spawn_threads passes its work description through it.  Warp 0 of
 * core 0 has each lane write its hartid + 0x100 in lane order, so lane 3
 * writes last; then every lane of both warps of both cores reads it.
 * Old code: mscratch per lane and zeroed by every warp start: all read 0.
 */
TEST(mscratch_shared_by_a_cores_lanes_and_warps)
{
    struct vx_card *c = vx_card_new(2, 2, 4);
    struct prog p;

    ASSERT_NE(NULL, c);
    p = (struct prog){ c, CODE };
    emit(&p, CSRR(5, HARTID));
    emit(&p, ADDI(5, 5, 0x100));
    emit(&p, CSRW(VX_CSR_MSCRATCH, 5));
    emit(&p, TMC(0));
    p.at = CODE2;
    out_base(&p);
    emit(&p, CSRR(5, VX_CSR_MSCRATCH));
    out_put(&p, 0, 5);
    emit(&p, TMC(0));

    vx_card_start(c, 0, CODE, 0xf);
    vx_card_run(c, SLOTS);
    for (uint32_t gid = 0; gid < 4; gid++) {
        vx_card_start(c, gid, CODE2, 0xf);
    }
    vx_card_run(c, SLOTS);
    expect_clean(_metadata, c);
    for (uint32_t h = 0; h < 16; h++) {
        /* core 0's harts are 0..7; core 1's mscratch is still 0 */
        EXPECT_EQ(h < 8 ? 0x103u : 0u, out_get(c, h, 0)) {
            TH_LOG("hart %u", h);
        }
    }
    vx_card_free(c);
}

/*
 * fcsr is one per warp: upstream's warp_t has one fcsr, get_csr/set_csr
 * take it by warp (emulator.cpp:46, :499-501, :621-629), and update_fcrs
 * ORs each lane's flags into it (emulator.cpp:665-670, called per thread,
 * e.g. execute.cpp:925); the CSR loop runs per thread
 * (execute.cpp:1269-1312).  Lanes write fflags = lane + 1 and frm = lane
 * in lane order (lane 3 last), and only lane 2 divides by zero: every
 * lane then reads fflags 4, frm 3, DZ, fcsr 0x68.  Warp 1 keeps its own
 * fcsr, 0.  Old code: every lane read its own values.
 */
TEST(fcsr_shared_by_a_warps_lanes)
{
    struct vx_card *c = vx_card_new(1, 2, 4);
    struct prog p;

    ASSERT_NE(NULL, c);
    p = (struct prog){ c, CODE };
    out_base(&p);
    emit(&p, CSRR(5, TID));
    emit(&p, ADDI(6, 5, 1));
    emit(&p, CSRW(0x001, 6));           /* fflags = lane + 1 */
    emit(&p, CSRR(7, 0x001));
    out_put(&p, 0, 7);
    emit(&p, CSRW(0x002, 5));           /* frm = lane */
    emit(&p, CSRR(8, 0x002));
    out_put(&p, 1, 8);
    emit(&p, CSRW(0x001, 0));
    emit(&p, LUI(9, 0x3f800));          /* 1.0f */
    emit(&p, ADDI(11, 5, -2));
    emit(&p, SLTU(12, 0, 11));          /* lane != 2 */
    emit(&p, MUL(10, 9, 12));           /* divisor: 0 in lane 2 only */
    emit(&p, FMV_W_X(1, 9));
    emit(&p, FMV_W_X(2, 10));
    emit(&p, FDIV_S(3, 1, 2));
    emit(&p, CSRR(13, 0x001));
    out_put(&p, 2, 13);
    emit(&p, CSRR(14, 0x003));
    out_put(&p, 3, 14);
    emit(&p, TMC(0));
    p.at = CODE2;
    out_base(&p);
    emit(&p, CSRR(5, 0x003));
    out_put(&p, 4, 5);
    emit(&p, TMC(0));

    vx_card_start(c, 0, CODE, 0xf);
    vx_card_run(c, SLOTS);
    vx_card_start(c, 1, CODE2, 0xf);
    vx_card_run(c, SLOTS);
    expect_clean(_metadata, c);
    for (uint32_t lane = 0; lane < 4; lane++) {
        EXPECT_EQ(4, out_get(c, lane, 0)) TH_LOG("lane %u", lane);
        EXPECT_EQ(3, out_get(c, lane, 1)) TH_LOG("lane %u", lane);
        EXPECT_EQ(0x08, out_get(c, lane, 2)) TH_LOG("lane %u", lane);
        EXPECT_EQ(3 << 5 | 0x08, out_get(c, lane, 3)) TH_LOG("lane %u", lane);
        EXPECT_EQ(0, out_get(c, 4 + lane, 4)) TH_LOG("warp 1 lane %u", lane);
    }
    vx_card_free(c);
}

/*
 * Upstream's CSRs that read 0 and ignore writes (emulator.cpp:481-497,
 * set_csr's list :633-648) and the MPM counters other than
 * mcycle/minstret, which read 0 in the default MPM class, NONE
 * (emulator.cpp:523-529, :615; VX_types.vh:27, :35).
 */
static const uint32_t zero_csrs[] = {
    VX_CSR_SATP, VX_CSR_MSTATUS, VX_CSR_MEDELEG, VX_CSR_MIDELEG, VX_CSR_MIE,
    VX_CSR_MTVEC, VX_CSR_MEPC, VX_CSR_MCAUSE, VX_CSR_PMPCFG0,
    VX_CSR_PMPADDR0, VX_CSR_MNSTATUS,
};

/*
 * mcycle/minstret (0xb00/0xb02, high halves 0xb80/0xb82) are the core's
 * (upstream: core_perf.cycles and .instrs, emulator.cpp:515-516, high
 * halves :470-476; numbers VX_types.vh:70-75).  Here
 * a cycle is a warp instruction slot of the core, so on a fresh card with
 * one warp the values are exact: the first instruction reads mcycle 1,
 * the third minstret 2.  Every MPM counter and every zero_csrs[] entry
 * reads 0, writes to zero_csrs[] are ignored.  A second warp of the same
 * core then reads on from where the first left: the counters belong to
 * the core and never go back.  Old code: 0xb00 was an illegal instruction.
 */
TEST(machine_counters_count_up_and_the_others_read_0)
{
    struct vx_card *c = vx_card_new(1, 2, 4);
    struct prog p;
    uint32_t n, used;

    ASSERT_NE(NULL, c);
    p = (struct prog){ c, CODE };
    emit(&p, CSRR(5, VX_CSR_MCYCLE));           /* slot 1 */
    emit(&p, CSRR(6, VX_CSR_MCYCLE_H));
    emit(&p, CSRR(7, VX_CSR_MINSTRET));         /* 2 retired before */
    emit(&p, CSRR(8, VX_CSR_MINSTRET_H));
    emit(&p, ADDI(12, 0, 0));
    for (uint32_t i = 1; i < 32; i++) {
        if (i == 2) {
            continue;
        }
        emit(&p, CSRR(11, VX_CSR_MPM_BASE + i));
        emit(&p, OR(12, 12, 11));
        emit(&p, CSRR(11, VX_CSR_MPM_BASE_H + i));
        emit(&p, OR(12, 12, 11));
    }
    emit(&p, ADDI(13, 0, -1));
    for (size_t i = 0; i < sizeof(zero_csrs) / sizeof(zero_csrs[0]); i++) {
        emit(&p, CSRW(zero_csrs[i], 13));
        emit(&p, CSRR(11, zero_csrs[i]));
        emit(&p, OR(12, 12, 11));
    }
    n = (p.at - CODE) / 4;
    emit(&p, CSRR(9, VX_CSR_MCYCLE));           /* slot n + 1 */
    emit(&p, CSRR(10, VX_CSR_MINSTRET));        /* n + 1 retired */
    out_base(&p);
    out_put(&p, 0, 5);
    out_put(&p, 1, 6);
    out_put(&p, 2, 7);
    out_put(&p, 3, 8);
    out_put(&p, 4, 9);
    out_put(&p, 5, 10);
    out_put(&p, 6, 12);
    emit(&p, TMC(0));

    vx_card_start(c, 0, CODE, 0xf);
    used = (uint32_t)vx_card_run(c, SLOTS);
    vx_card_start(c, 1, CODE, 0xf);
    vx_card_run(c, SLOTS);
    expect_clean(_metadata, c);
    for (uint32_t lane = 0; lane < 4; lane++) {
        EXPECT_EQ(1, out_get(c, lane, 0));
        EXPECT_EQ(0, out_get(c, lane, 1));
        EXPECT_EQ(2, out_get(c, lane, 2));
        EXPECT_EQ(0, out_get(c, lane, 3));
        EXPECT_EQ(n + 1, out_get(c, lane, 4));
        EXPECT_EQ(n + 1, out_get(c, lane, 5));
        EXPECT_EQ(0, out_get(c, lane, 6));
        /* warp 1: on top of warp 0's slots (all retired but tmc 0) */
        EXPECT_EQ(used + 1, out_get(c, 4 + lane, 0));
        EXPECT_EQ(used - 1 + 2, out_get(c, 4 + lane, 2));
        EXPECT_EQ(used + n + 1, out_get(c, 4 + lane, 4));
        EXPECT_EQ(0, out_get(c, 4 + lane, 6));
    }
    vx_card_free(c);
}

/*
 * Upstream's set_csr aborts on a counter ("invalid CSR write",
 * emulator.cpp:654): here an illegal instruction, as before.
 */
TEST(machine_counter_write_is_illegal)
{
    struct vx_card *c = vx_card_new(1, 1, 4);
    struct prog p;

    ASSERT_NE(NULL, c);
    p = (struct prog){ c, CODE };
    emit(&p, ADDI(5, 0, 1));
    emit(&p, CSRW(VX_CSR_MCYCLE, 5));
    emit(&p, TMC(0));
    vx_card_start(c, 0, CODE, 0xf);
    vx_card_run(c, SLOTS);
    EXPECT_EQ(VX_ERR_ILLEGAL_INSTR, vx_card_reg(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(CODE + 4, vx_card_reg(c, VX_REG_ERR_PC));
    vx_card_free(c);
}

#define AMO_ITERS   20
#define NHARTS      64      /* 2 cores x 4 warps x 8 threads */

/*
 * AMOs from every lane of every warp of both cores on the same words, 20
 * times each, the warps' bursts interleaving mid-loop: the sums and the
 * tickets are exact.  Each lane takes a ticket (amoadd 1) and marks
 * seen[ticket] with its hartid + 1: every ticket 0..1279 is taken exactly
 * once, 20 by each hart.  Upstream runs each lane's read-modify-write
 * whole (execute.cpp:733-910: mem_read, op, mem_write per thread).
 * Old code: opcode 0x2f was an illegal instruction.
 */
TEST(amo_sums_under_contention_from_every_lane_warp_and_core)
{
    struct vx_card *c = vx_card_new(2, 4, 8);
    struct prog p;
    uint32_t back, per_hart[NHARTS] = { 0 };
    uint64_t sum = 0;

    ASSERT_NE(NULL, c);
    vx_card_wr32(c, DATA + 12, ~0u);        /* amominu */
    vx_card_wr32(c, DATA + 20, ~0u);        /* amoand */
    p = (struct prog){ c, CODE };
    emit(&p, CSRR(5, HARTID));
    emit(&p, ADDI(6, 5, 1));
    emit(&p, ADDI(7, 0, AMO_ITERS));
    emit(&p, LUI(8, DATA >> 12));
    emit(&p, ADDI(9, 0, 1));
    emit(&p, ADDI(20, 8, 0x100));           /* seen[] */
    emit(&p, ADDI(21, 8, 4));
    emit(&p, ADDI(22, 8, 8));
    emit(&p, ADDI(23, 8, 12));
    emit(&p, ADDI(24, 8, 16));
    emit(&p, ADDI(25, 8, 20));
    emit(&p, ADDI(26, 0, 1));
    emit(&p, RV_R(0, 5, 26, 1, 26, 0x33));  /* sll: 1 << (hartid & 31) */
    emit(&p, ADDI(27, 0, -1));
    emit(&p, RV_R(0, 26, 27, 4, 27, 0x33)); /* xor: ~that bit */
    back = p.at;
    emit(&p, AMOADD_W(10, 8, 9));           /* ticket */
    emit(&p, SLLI(11, 10, 2));
    emit(&p, ADD(11, 11, 20));
    emit(&p, SW(6, 11, 0));
    emit(&p, AMOADD_W(0, 21, 6));
    emit(&p, AMOMAX_W(0, 22, 5));
    emit(&p, AMOMINU_W(0, 23, 5));
    emit(&p, AMOOR_W(0, 24, 26));
    emit(&p, AMOAND_W(0, 25, 27));
    emit(&p, ADDI(7, 7, -1));
    emit(&p, BNE(7, 0, (int32_t)(back - p.at)));
    emit(&p, TMC(0));

    for (uint32_t gid = 0; gid < 8; gid++) {
        vx_card_start(c, gid, CODE, 0xff);
    }
    vx_card_run(c, SLOTS);
    expect_clean(_metadata, c);
    for (uint32_t h = 0; h < NHARTS; h++) {
        sum += h + 1;
    }
    EXPECT_EQ(NHARTS * AMO_ITERS, vx_card_rd32(c, DATA));
    EXPECT_EQ(AMO_ITERS * sum, vx_card_rd32(c, DATA + 4));
    EXPECT_EQ(NHARTS - 1, vx_card_rd32(c, DATA + 8));
    EXPECT_EQ(0, vx_card_rd32(c, DATA + 12));
    EXPECT_EQ(~0u, vx_card_rd32(c, DATA + 16));
    EXPECT_EQ(0, vx_card_rd32(c, DATA + 20));
    for (uint32_t t = 0; t < NHARTS * AMO_ITERS; t++) {
        uint32_t h = vx_card_rd32(c, DATA + 0x100 + 4 * t);

        ASSERT_TRUE(h >= 1 && h <= NHARTS) TH_LOG("ticket %u: %u", t, h);
        per_hart[h - 1]++;
    }
    for (uint32_t h = 0; h < NHARTS; h++) {
        EXPECT_EQ(AMO_ITERS, per_hart[h]) TH_LOG("hart %u", h);
    }
    vx_card_free(c);
}

/* What AMO @f5 stores, for the expectations. */
static uint32_t amo_ref(uint32_t f5, uint32_t m, uint32_t v)
{
    switch (f5) {
    case 0x00: return m + v;
    case 0x01: return v;
    case 0x04: return m ^ v;
    case 0x08: return m | v;
    case 0x0c: return m & v;
    case 0x10: return (int32_t)m < (int32_t)v ? m : v;
    case 0x14: return (int32_t)m > (int32_t)v ? m : v;
    case 0x18: return m < v ? m : v;
    default: return m > v ? m : v;
    }
}

/*
 * Each AMO's value, rd = the old word, and lane order: eight lanes add
 * lane + 1 to one word, and lane l reads 1000 + the sum of the lanes
 * below it (upstream loops over threads in order, execute.cpp:766-780).
 * Then every AMO op, each lane on its own word, with signed and unsigned
 * extremes.
 */
TEST(amo_values_in_lane_order)
{
    static const uint32_t ops[] = {
        0x00, 0x01, 0x04, 0x08, 0x0c, 0x10, 0x14, 0x18, 0x1c,
    };
    static const uint32_t mem0[8] = {
        0, 1, 0x80000000, 0x7fffffff, 0xffffffff, 5, 0x12345678, 0xfffffffe,
    };
    static const uint32_t val[8] = {
        0xffffffff, 0x80000000, 1, 0x80000001, 0, 5, 0x0f0f0f0f, 2,
    };
    struct vx_card *c = vx_card_new(1, 1, 8);
    const uint32_t nops = sizeof(ops) / sizeof(ops[0]);
    struct prog p;

    ASSERT_NE(NULL, c);
    vx_card_wr32(c, DATA, 1000);
    for (uint32_t k = 0; k < nops; k++) {
        for (uint32_t l = 0; l < 8; l++) {
            vx_card_wr32(c, DATA + 0x100 * (k + 1) + 4 * l, mem0[l]);
        }
    }
    for (uint32_t l = 0; l < 8; l++) {
        vx_card_wr32(c, DATA + 0x2000 + 4 * l, val[l]);
    }
    p = (struct prog){ c, CODE };
    out_base(&p);
    emit(&p, CSRR(5, TID));
    emit(&p, ADDI(6, 5, 1));
    emit(&p, LUI(8, DATA >> 12));
    emit(&p, AMOADD_W(10, 8, 6));
    out_put(&p, 0, 10);
    emit(&p, SLLI(7, 5, 2));
    emit(&p, ADD(9, 8, 7));                 /* DATA + 4 * lane */
    li(&p, 13, 0x2000);
    emit(&p, ADD(13, 13, 9));
    emit(&p, LW(12, 13, 0));                /* val[lane] */
    for (uint32_t k = 0; k < nops; k++) {
        emit(&p, ADDI(9, 9, 0x100));
        emit(&p, AMO_W(ops[k], 10, 9, 12));
        out_put(&p, 1 + k, 10);
    }
    emit(&p, TMC(0));

    vx_card_start(c, 0, CODE, 0xff);
    vx_card_run(c, SLOTS);
    expect_clean(_metadata, c);
    for (uint32_t l = 0, below = 0; l < 8; l++) {
        EXPECT_EQ(1000 + below, out_get(c, l, 0)) TH_LOG("lane %u", l);
        below += l + 1;
        for (uint32_t k = 0; k < nops; k++) {
            EXPECT_EQ(mem0[l], out_get(c, l, 1 + k))
                TH_LOG("op 0x%x lane %u: old", ops[k], l);
            EXPECT_EQ(amo_ref(ops[k], mem0[l], val[l]),
                      vx_card_rd32(c, DATA + 0x100 * (k + 1) + 4 * l))
                TH_LOG("op 0x%x lane %u: stored", ops[k], l);
        }
    }
    EXPECT_EQ(1000 + 36, vx_card_rd32(c, DATA));
    vx_card_free(c);
}

/*
 * Faults: a misaligned AMO or SC is MISALIGNED_STORE, an LR
 * MISALIGNED_LOAD (hw/vortex_causes.h); outside VRAM an AMO is a
 * STORE_FAULT, an LR a LOAD_FAULT.  ERR_ADDR is the lowest faulting
 * lane's address; nothing is written.
 */
FIXTURE(amo_fault) {
    struct vx_card *c;
};

FIXTURE_VARIANT(amo_fault) {
    uint32_t insn;          /* with rs1 = x8, rs2 = x9, rd = x10 */
    uint32_t addr;
    uint32_t cause;
};

FIXTURE_VARIANT_ADD(amo_fault, amoadd_misaligned) {
    .insn = AMOADD_W(10, 8, 9), .addr = DATA + 2,
    .cause = VX_ERR_MISALIGNED_STORE,
};
FIXTURE_VARIANT_ADD(amo_fault, sc_misaligned) {
    .insn = SC_W(10, 8, 9), .addr = DATA + 1,
    .cause = VX_ERR_MISALIGNED_STORE,
};
FIXTURE_VARIANT_ADD(amo_fault, lr_misaligned) {
    .insn = LR_W(10, 8), .addr = DATA + 2, .cause = VX_ERR_MISALIGNED_LOAD,
};
FIXTURE_VARIANT_ADD(amo_fault, amoswap_outside_vram) {
    .insn = AMOSWAP_W(10, 8, 9), .addr = 0x10, .cause = VX_ERR_STORE_FAULT,
};
FIXTURE_VARIANT_ADD(amo_fault, lr_outside_vram) {
    .insn = LR_W(10, 8), .addr = 0x10, .cause = VX_ERR_LOAD_FAULT,
};

FIXTURE_SETUP(amo_fault)
{
    self->c = vx_card_new(1, 1, 4);
    ASSERT_NE(NULL, self->c);
}

FIXTURE_TEARDOWN(amo_fault)
{
    vx_card_free(self->c);
}

TEST_F(amo_fault, faults_as_its_access_kind)
{
    struct prog p = { self->c, CODE };

    vx_card_wr32(self->c, DATA, 0x5a5a5a5a);
    li(&p, 8, variant->addr);
    emit(&p, ADDI(9, 0, 7));
    emit(&p, variant->insn);
    emit(&p, TMC(0));
    vx_card_start(self->c, 0, CODE, 0xf);
    vx_card_run(self->c, SLOTS);
    EXPECT_EQ(variant->cause, vx_card_reg(self->c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(CODE + 12, vx_card_reg(self->c, VX_REG_ERR_PC));
    EXPECT_EQ(variant->addr, vx_card_reg(self->c, VX_REG_ERR_ADDR));
    EXPECT_EQ(0xf, vx_card_reg(self->c, VX_REG_ERR_TMASK(0)));
    EXPECT_EQ(0x5a5a5a5a, vx_card_rd32(self->c, DATA));
}

/*
 * LR/SC: the reservation is one per core, set by each lane's LR in lane
 * order (upstream: the core's MemoryUnit holds one amo_reservation_,
 * amo_reserve() sets it, amo_check() compares the address, and every
 * write through the unit clears it: mem.cpp:288-292, :302-305, :273-277;
 * LR/SC in execute.cpp:740-765).  Four lanes LR
 * the same word, then SC: lane 0 succeeds (rd 0), its write ends the
 * reservation, lanes 1-3 fail (rd 1).
 */
TEST(lr_sc_first_lane_wins)
{
    struct vx_card *c = vx_card_new(1, 1, 4);
    struct prog p;

    ASSERT_NE(NULL, c);
    vx_card_wr32(c, DATA, 77);
    p = (struct prog){ c, CODE };
    out_base(&p);
    emit(&p, CSRR(12, TID));
    emit(&p, ADDI(12, 12, 0x100));
    emit(&p, LUI(8, DATA >> 12));
    emit(&p, LR_W(10, 8));
    emit(&p, SC_W(11, 8, 12));
    out_put(&p, 0, 10);
    out_put(&p, 1, 11);
    emit(&p, SC_W(13, 8, 12));              /* no reservation left */
    out_put(&p, 2, 13);
    emit(&p, TMC(0));
    vx_card_start(c, 0, CODE, 0xf);
    vx_card_run(c, SLOTS);
    expect_clean(_metadata, c);
    for (uint32_t l = 0; l < 4; l++) {
        EXPECT_EQ(77, out_get(c, l, 0));
        EXPECT_EQ(l != 0, out_get(c, l, 1)) TH_LOG("lane %u", l);
        EXPECT_EQ(1, out_get(c, l, 2)) TH_LOG("lane %u", l);
    }
    EXPECT_EQ(0x100, vx_card_rd32(c, DATA));
    vx_card_free(c);
}

/*
 * A reservation between LR and SC, and what another warp does meanwhile.
 * Warp 0 of core 0 runs up to its LR and is held there; warp @gid runs
 * @insn (rs1 = x8 = DATA + @off, rs2 = x9 = 0x99), then warp 0 does its SC.
 */
FIXTURE(lr_sc) {
    struct vx_card *c;
};

FIXTURE_VARIANT(lr_sc) {
    uint32_t gid;           /* 1: same core, 2: the other core */
    uint32_t insn;
    uint32_t off;
    bool sc_ok;
};

/* another core stores to the reserved word: lost (atomic across cores) */
FIXTURE_VARIANT_ADD(lr_sc, other_core_store_same_word) {
    .gid = 2, .insn = SW(9, 8, 0), .off = 0, .sc_ok = false,
};
/* ... a byte of it */
FIXTURE_VARIANT_ADD(lr_sc, other_core_byte_store_in_the_word) {
    .gid = 2, .insn = RV_S(0, 9, 8, 0, 0x23), .off = 3, .sc_ok = false,
};
/* ... an AMO on it */
FIXTURE_VARIANT_ADD(lr_sc, other_core_amo_same_word) {
    .gid = 2, .insn = AMOADD_W(0, 8, 9), .off = 0, .sc_ok = false,
};
/* ... another word: kept */
FIXTURE_VARIANT_ADD(lr_sc, other_core_store_next_word) {
    .gid = 2, .insn = SW(9, 8, 0), .off = 4, .sc_ok = true,
};
/* ... a load: kept */
FIXTURE_VARIANT_ADD(lr_sc, other_core_load_same_word) {
    .gid = 2, .insn = LW(10, 8, 0), .off = 0, .sc_ok = true,
};
/* the same core stores anywhere: lost (upstream: any write clears it) */
FIXTURE_VARIANT_ADD(lr_sc, same_core_store_elsewhere) {
    .gid = 1, .insn = SW(9, 8, 0), .off = 0x40, .sc_ok = false,
};
/* the same core's LR elsewhere moves the one reservation: lost */
FIXTURE_VARIANT_ADD(lr_sc, same_core_lr_elsewhere) {
    .gid = 1, .insn = LR_W(10, 8), .off = 0x40, .sc_ok = false,
};
/* another core's LR: its own reservation, ours kept */
FIXTURE_VARIANT_ADD(lr_sc, other_core_lr_same_word) {
    .gid = 2, .insn = LR_W(10, 8), .off = 0, .sc_ok = true,
};

FIXTURE_SETUP(lr_sc)
{
    self->c = vx_card_new(2, 2, 4);
    ASSERT_NE(NULL, self->c);
}

FIXTURE_TEARDOWN(lr_sc)
{
    vx_card_free(self->c);
}

TEST_F(lr_sc, reservation)
{
    struct vx_card *c = self->c;
    struct vx_warp *w0 = &c->sim->warps[0];
    struct prog p = { c, CODE };
    uint32_t upto;

    vx_card_wr32(c, DATA, 11);
    emit(&p, LUI(8, DATA >> 12));
    emit(&p, ADDI(12, 0, 0x55));
    emit(&p, LR_W(10, 8));
    upto = (p.at - CODE) / 4;
    emit(&p, SC_W(11, 8, 12));
    out_base(&p);
    out_put(&p, 0, 10);
    out_put(&p, 1, 11);
    emit(&p, TMC(0));
    p.at = CODE2;
    li(&p, 8, DATA + variant->off);
    emit(&p, ADDI(9, 0, 0x99));
    emit(&p, variant->insn);
    emit(&p, TMC(0));

    vx_card_start(c, 0, CODE, 0x1);
    ASSERT_EQ(upto, vx_sim_run(c->sim, upto));
    ASSERT_EQ(CODE + 4 * upto, w0->pc);
    w0->halted = true;
    vx_card_start(c, variant->gid, CODE2, 0x1);
    vx_card_run(c, SLOTS);
    w0->halted = false;
    vx_card_run(c, SLOTS);
    expect_clean(_metadata, c);
    EXPECT_EQ(11, out_get(c, 0, 0));
    EXPECT_EQ(!variant->sc_ok, out_get(c, 0, 1));
    if (variant->sc_ok) {
        EXPECT_EQ(0x55, vx_card_rd32(c, DATA));
    } else {
        EXPECT_NE(0x55, vx_card_rd32(c, DATA));
    }
}

/*
 * Zicond: czero.eqz rd = rs2 == 0 ? 0 : rs1, czero.nez rd = rs2 != 0 ? 0 :
 * rs1 (upstream execute.cpp:295-302: cond = (rs2 == 0) ^ imm, imm 1 for
 * nez), per lane, rd may be rs2.  Old code: an illegal instruction.
 */
TEST(zicond_per_lane)
{
    struct vx_card *c = vx_card_new(1, 1, 8);
    struct prog p;

    ASSERT_NE(NULL, c);
    p = (struct prog){ c, CODE };
    out_base(&p);
    emit(&p, CSRR(5, TID));
    emit(&p, ADDI(5, 5, -2));               /* 0 in lane 2 */
    li(&p, 6, 0x12345678);
    emit(&p, ADD(6, 6, 5));
    emit(&p, CZERO_EQZ(7, 6, 5));
    emit(&p, CZERO_NEZ(8, 6, 5));
    emit(&p, ADDI(9, 5, 0));
    emit(&p, CZERO_EQZ(9, 6, 9));           /* rd = rs2 */
    emit(&p, CZERO_NEZ(0, 6, 5));           /* rd = x0: nothing */
    out_put(&p, 0, 7);
    out_put(&p, 1, 8);
    out_put(&p, 2, 9);
    emit(&p, TMC(0));
    vx_card_start(c, 0, CODE, 0xff);
    vx_card_run(c, SLOTS);
    expect_clean(_metadata, c);
    for (uint32_t l = 0; l < 8; l++) {
        uint32_t v = 0x12345678 + l - 2;

        EXPECT_EQ(l == 2 ? 0 : v, out_get(c, l, 0)) TH_LOG("lane %u", l);
        EXPECT_EQ(l == 2 ? v : 0, out_get(c, l, 1)) TH_LOG("lane %u", l);
        EXPECT_EQ(l == 2 ? 0 : v, out_get(c, l, 2)) TH_LOG("lane %u", l);
    }
    vx_card_free(c);
}

/*
 * misa reports RV32 with A, F, I, M: the RTL's MISA_STD (VX_csr_data.sv);
 * upstream simx reads 0 (emulator.cpp:489).  Old code: 0x40001120, no A.
 */
TEST(misa_reports_a)
{
    struct vx_card *c = vx_card_new(1, 1, 4);
    struct prog p;

    ASSERT_NE(NULL, c);
    p = (struct prog){ c, CODE };
    out_base(&p);
    emit(&p, CSRR(5, VX_CSR_MISA));
    out_put(&p, 0, 5);
    emit(&p, TMC(0));
    vx_card_start(c, 0, CODE, 0x1);
    vx_card_run(c, SLOTS);
    expect_clean(_metadata, c);
    EXPECT_EQ(0x40001121, out_get(c, 0, 0));
    vx_card_free(c);
}

TEST_HARNESS_MAIN
