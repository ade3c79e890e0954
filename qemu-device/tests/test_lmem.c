// SPDX-License-Identifier: MIT
/*
 * Upstream Vortex's memory map on the simulated card (docs/hardware.md,
 * "Local memory", "Console", "Upstream's memory map"): per-core local
 * memory at VX_CSR_LOCAL_MEM_BASE, the console behind IO_COUT, and a
 * stack and I/O page at upstream's addresses in a translated launch.
 * Run once per executor like every simulator suite.
 *
 * The values asserted are upstream's, vortexgpgpu/vortex at commit
 * fe8168b9 (docs/hardware.md, "Upstream Vortex: the one reference"):
 *   LMEM_BASE_ADDR = STACK_BASE_ADDR = 0xFFFF0000   hw/rtl/VX_config.vh:196,227
 *   LMEM_LOG_SIZE = 14 (16 KiB per core)            VX_config.vh:223,
 *                                                   sim/simx/core.cpp:74-75
 *   VX_CSR_LOCAL_MEM_BASE = 0xFC3                   VX_types.vh:216,
 *                                                   sim/simx/emulator.cpp:512
 *   local memory decided by address, before the MMU sim/simx/types.h:712-722,
 *                                                   emulator.cpp:379-388,416-430
 *   IO_COUT_ADDR = IO_BASE_ADDR = 0x40, 64 bytes    VX_config.vh:208,231,233
 *   vx_putchar: sb to IO_COUT_ADDR + (mhartid & 63) kernel/src/vx_print.S:20-26
 *   bytes only; each hart's bytes in order         emulator.cpp:447-458
 *   IO_MPM_ADDR = 0x80                              VX_config.vh:236
 *
 * Card: 1 cluster x 2 cores x 2 warps x 8 threads (full warps take the
 * executors' vector paths).  Programs are hand-assembled words.
 */
#include "kselftest_harness.h"
#include "uncore_util.h"

#define THREADS     8
#define SLOTS       400000

/* VRAM offsets */
#define CONS_OFF    0x60000u    /* console ring */
#define PT_ROOT     0x200000u
#define PT_POOL     0x201000u
#define PA_B        0x301000u   /* translated results */
#define PA_C        0x302000u   /* the I/O page */
#define PA_D        0x303000u   /* the stack page, or what VA LMEM maps to */

/* virtual addresses */
#define VA_CODE     0x10000000u
#define VA_OK       0x30000000u     /* -> PA_B */

#define LMEM        0xffff0000u     /* upstream's LMEM_BASE_ADDR */
#define LMEM_SZ     0x4000u         /* 1 << LMEM_LOG_SIZE */
#define COUT        0x40u           /* upstream's IO_COUT_ADDR */

/* registers */
#define T0 5
#define T1 6
#define T2 7
#define S0 8
#define S1 9
#define A0 10
#define T3 28
#define T4 29
#define T5 30
#define T6 31

#define END             TMC(0)
#define SH(rs2, rs1, imm)   RV_S(imm, rs2, rs1, 1, 0x23)
#define LBU(rd, rs1, imm)   RV_I(imm, rs1, 4, rd, 0x03)
#define SRLI(rd, rs1, sh)   RV_I(sh, rs1, 5, rd, 0x13)
#define SLTIU(rd, rs1, imm) RV_I(imm, rs1, 3, rd, 0x13)
/* rd <- any 32-bit value, two words */
#define LI_HI(rd, va)   LUI(rd, (va) >> 12)
#define LI(rd, v)   LUI(rd, ((uint32_t)(v) + 0x800) >> 12), ADDI(rd, rd, (v) & 0xfff)

FIXTURE(up) {
    struct card c;
    struct vx_sv32 pt;
};

FIXTURE_SETUP(up)
{
    ASSERT_EQ(0, card_open(&self->c, 1, 2, 2, THREADS));
    wr(&self->c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(&self->c, 0x1000);
    card_pt_init(&self->c, &self->pt, PT_ROOT, PT_POOL);
    vx_sv32_map(&self->pt, VA_CODE, DEV(CODE_OFF), VX_PTE_URX);
    vx_sv32_map(&self->pt, VA_OK, DEV(PA_B), VX_PTE_URWX);
}

FIXTURE_TEARDOWN(up)
{
    card_close(&self->c);
}

/*
 * One LAUNCH of @blocks blocks of @threads threads at the program, in
 * address space @satp (0: untranslated, a0 = DEV(DATA_OFF)); runs it to
 * the end and returns ERR_CAUSE.
 */
static uint32_t run(struct card *c, uint32_t satp, uint32_t blocks,
                    uint32_t threads)
{
    struct launch l = {
        .entry = satp ? VA_CODE : DEV(CODE_OFF), .arg = DEV(DATA_OFF),
        .grid = { blocks, 1, 1 }, .block = { threads, 1, 1 }, .rsvd = satp,
    };

    ring_launch(c, &l);
    ring_fence(c, 1, 0);
    ring_kick(c);
    run_idle(c, SLOTS);
    return rd(c, VX_REG_ERR_CAUSE);
}

static uint32_t satp_of(FIXTURE_DATA(up) *self)
{
    return vx_sv32_satp(&self->pt, 1);
}

static void recover(struct card *c)
{
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(c, 0x1000);
}

/* A console ring of @size bytes at CONS_OFF, enabled. */
static void cons_setup(struct card *c, uint32_t size)
{
    wr(c, VX_REG_CONS_CTRL, 0);
    wr(c, VX_REG_CONS_BASE, DEV(CONS_OFF));
    wr(c, VX_REG_CONS_SIZE, size);
    wr(c, VX_REG_CONS_CTRL, VX_CONS_CTRL_ENABLE);
}

/* Record @i of the console ring (of @size bytes) after HEAD @head. */
static uint32_t cons_rec(struct card *c, uint32_t head, uint32_t size, uint32_t i)
{
    return vram32(c, CONS_OFF + ((head + 4 * i) & (size - 1)));
}

/* ------------------------------------------------------ local memory */

/* VX_CSR_LOCAL_MEM_BASE (0xFC3) reads upstream's LMEM_BASE_ADDR. */
TEST_F(up, lmem_csr_reads_upstream_base)
{
    struct card *c = &self->c;

    PUT_CODE(c, CSRR(T1, VX_CSR_LOCAL_MEM_BASE), SW(T1, A0, 0), END);
    EXPECT_EQ(0, run(c, 0, 1, 1));
    EXPECT_EQ(0xffff0000u, vram32(c, DATA_OFF));
    EXPECT_EQ(0xffff0000u, VX_LMEM_BASE_ADDR);
    EXPECT_EQ(16384, VX_LMEM_SIZE);
}

/*
 * Each core has its own: both cores store to the same local address,
 * wait for each other through VRAM flags, then read it back.  One
 * memory for both would give one core the other's value.
 */
TEST_F(up, lmem_private_to_each_core)
{
    struct card *c = &self->c;

    PUT_CODE(c,
        /* 0 */ CSRR(T1, VX_CSR_CORE_ID),
        /* 1 */ CSRR(T2, VX_CSR_THREAD_ID),
        /* 2 */ SLLI(T3, T2, 2),
        /* 3 */ LI(S0, LMEM),
        /* 5 */ ADD(S1, S0, T3),
        /* 6 */ SLLI(T0, T1, 8),
        /* 7 */ ADD(T0, T0, T2),
        /* 8 */ ADDI(T0, T0, 0x100),
        /* 9 */ SW(T0, S1, 0),             /* lmem[lane] = 0x100 * (core + 1) + lane */
        /* 10 */ SLLI(T3, T1, 2),
        /* 11 */ ADD(T3, T3, A0),
        /* 12 */ ADDI(T4, 0, 1),
        /* 13 */ SW(T4, T3, 0x100),        /* flag[core] = 1 */
        /* 14 */ SUB(T5, A0, T3),
        /* 15 */ ADD(T5, T5, A0),          /* a0 - 4 * core */
        /* 16 */ LW(T6, T5, 0x104),        /* flag[1 - core] */
        /* 17 */ BEQ(T6, 0, -4),
        /* 18 */ LW(T0, S1, 0),
        /* 19 */ SLLI(T3, T1, 5),
        /* 20 */ ADD(T3, T3, A0),
        /* 21 */ SLLI(T4, T2, 2),
        /* 22 */ ADD(T3, T3, T4),
        /* 23 */ SW(T0, T3, 0),            /* out[core][lane] */
        /* 24 */ END);
    ASSERT_EQ(0, run(c, 0, 2, THREADS));
    for (uint32_t core = 0; core < 2; core++) {
        for (uint32_t lane = 0; lane < THREADS; lane++) {
            EXPECT_EQ(0x100 * (core + 1) + lane,
                      vram32(c, DATA_OFF + 32 * core + 4 * lane));
        }
    }
}

/*
 * A block of two warps on one core: warp 0 stores to local memory and
 * raises a flag there; warp 1 waits for the flag and reads what warp 0
 * stored.
 */
TEST_F(up, lmem_shared_by_a_cores_warps)
{
    struct card *c = &self->c;

    PUT_CODE(c,
        /* 0 */ CSRR(T1, VX_CSR_WARP_IN_BLOCK),
        /* 1 */ CSRR(T2, VX_CSR_THREAD_ID),
        /* 2 */ LI(S0, LMEM),
        /* 4 */ SLLI(T3, T2, 2),
        /* 5 */ ADD(S1, S0, T3),
        /* 6 */ BNE(T1, 0, 24),            /* warp 1: to 12 */
        /* 7 */ ADDI(T0, T2, 0x77),
        /* 8 */ SW(T0, S1, 0x40),
        /* 9 */ ADDI(T4, 0, 1),
        /* 10 */ SW(T4, S0, 0x20),         /* the flag, in local memory */
        /* 11 */ END,
        /* 12 */ LW(T6, S0, 0x20),
        /* 13 */ BEQ(T6, 0, -4),
        /* 14 */ LW(T0, S1, 0x40),
        /* 15 */ SLLI(T4, T2, 2),
        /* 16 */ ADD(T4, T4, A0),
        /* 17 */ SW(T0, T4, 0),
        /* 18 */ END);
    ASSERT_EQ(0, run(c, 0, 1, 2 * THREADS));
    for (uint32_t lane = 0; lane < THREADS; lane++) {
        EXPECT_EQ(0x77 + lane, vram32(c, DATA_OFF + 4 * lane));
    }
}

/*
 * Its last word works; the first address past it and the last below it
 * are not local memory: there is nothing there, so they fault as any
 * address outside device memory (translated: nothing maps them).
 */
TEST_F(up, lmem_bounds_fault)
{
    struct card *c = &self->c;

    PUT_CODE(c, LI(S0, LMEM + LMEM_SZ), ADDI(T1, 0, 7), SW(T1, S0, -4),
             LW(T2, S0, -4), SW(T2, A0, 0), LW(T2, S0, 0), END);
    EXPECT_EQ(VX_ERR_LOAD_FAULT, run(c, 0, 1, THREADS));
    EXPECT_EQ(LMEM + LMEM_SZ, rd(c, VX_REG_ERR_ADDR));
    EXPECT_EQ(7, vram32(c, DATA_OFF));
    recover(c);
    PUT_CODE(c, LI(S0, LMEM), SW(0, S0, -4), END);
    EXPECT_EQ(VX_ERR_STORE_FAULT, run(c, 0, 1, THREADS));
    EXPECT_EQ(LMEM - 4, rd(c, VX_REG_ERR_ADDR));
    recover(c);
    PUT_CODE(c, LI(S0, LMEM + LMEM_SZ), LW(T2, S0, -4), LW(T2, S0, 0), END);
    EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, run(c, satp_of(self), 1, THREADS));
    EXPECT_EQ(LMEM + LMEM_SZ, rd(c, VX_REG_ERR_ADDR));
}

/* Every LAUNCH (and RESET) starts with local memory reading 0. */
TEST_F(up, lmem_zero_at_each_launch)
{
    struct card *c = &self->c;

    /* read word 0, store it out, then leave 0x55 there for the next */
    PUT_CODE(c, LI(S0, LMEM), LW(T1, S0, 0x10), CSRR(T2, VX_CSR_CORE_ID),
             SLLI(T2, T2, 2), ADD(T2, T2, A0), SW(T1, T2, 0),
             ADDI(T1, 0, 0x55), SW(T1, S0, 0x10), END);
    /* translated, a0 is the same address, mapped to itself */
    vx_sv32_map(&self->pt, DEV(DATA_OFF), DEV(DATA_OFF), VX_PTE_URWX);
    for (int i = 0; i < 6; i++) {
        vram32_set(c, DATA_OFF, 0xdead);
        vram32_set(c, DATA_OFF + 4, 0xdead);
        ASSERT_EQ(0, run(c, i & 1 ? satp_of(self) : 0, 2, THREADS));
        EXPECT_EQ(0, vram32(c, DATA_OFF));
        EXPECT_EQ(0, vram32(c, DATA_OFF + 4));
        if (i == 3) {
            recover(c);
        }
    }
}

/*
 * Translated, local memory is still decided by the address the lanes
 * compute: a page table mapping LMEM_BASE_ADDR elsewhere is not used.
 * A loop keeps a warp on one local memory page (the burst executors'
 * memo), whole warps move consecutive words, and the next launch in the
 * same address space reads 0 again.
 */
TEST_F(up, lmem_translated_ignores_page_tables)
{
    struct card *c = &self->c;
    uint32_t satp = satp_of(self);

    vx_sv32_map(&self->pt, LMEM, DEV(PA_D), VX_PTE_URWX);
    PUT_CODE(c,
        LI(S0, LMEM),
        CSRR(T2, VX_CSR_THREAD_ID),
        SLLI(T3, T2, 2),
        ADD(S1, S0, T3),
        LW(T0, S1, 0x100),                 /* what the last launch left: 0 */
        LI_HI(T5, VA_OK),
        ADD(T6, T5, T3),
        SW(T0, T6, 0x40),
        ADDI(T1, 0, 50),
        LW(T0, S1, 0x100),                 /* loop: lmem[lane] += lane + 1 */
        ADD(T0, T0, T2),
        ADDI(T0, T0, 1),
        SW(T0, S1, 0x100),
        ADDI(T1, T1, -1),
        BNE(T1, 0, -20),
        LW(T0, S1, 0x100),
        SW(T0, T6, 0),
        END);
    for (int i = 0; i < 2; i++) {
        vram32_set(c, PA_B + 0x40, 0xdead);
        ASSERT_EQ(0, run(c, satp, 1, THREADS));
        for (uint32_t lane = 0; lane < THREADS; lane++) {
            EXPECT_EQ(50 * (lane + 1), vram32(c, PA_B + 4 * lane));
            EXPECT_EQ(0, vram32(c, PA_B + 0x40 + 4 * lane));
        }
        EXPECT_EQ(0, vram32(c, PA_D + 0x100));
    }
}

/*
 * One store whose lanes go to local memory (lanes 0-3) and to VRAM
 * (lanes 4-7), then one load of the same addresses: each lane's bytes
 * go where its address says, untranslated and translated.
 */
TEST_F(up, lmem_and_memory_in_one_instruction)
{
    struct card *c = &self->c;

    for (int tr = 0; tr < 2; tr++) {
        uint32_t mem = tr ? VA_OK + 0x200 : DEV(DATA_OFF + 0x200);

        PUT_CODE(c,
            CSRR(T2, VX_CSR_THREAD_ID),
            SLTIU(T3, T2, 4),              /* 1 for lanes 0-3 */
            LI(T4, LMEM - mem),
            MUL(T3, T3, T4),
            LI(T5, mem),
            ADD(S1, T5, T3),               /* LMEM or mem */
            SLLI(T4, T2, 2),
            ADD(S1, S1, T4),
            ADDI(T0, T2, 0x30),
            SW(T0, S1, 0),
            LW(T1, S1, 0),
            LI(T5, tr ? VA_OK : DEV(DATA_OFF)),
            ADD(T5, T5, T4),
            SW(T1, T5, 0),
            END);
        ASSERT_EQ(0, run(c, tr ? satp_of(self) : 0, 1, THREADS));
        for (uint32_t lane = 0; lane < THREADS; lane++) {
            uint32_t out = tr ? PA_B : DATA_OFF;
            uint32_t in_mem = (tr ? PA_B : DATA_OFF) + 0x200 + 4 * lane;

            EXPECT_EQ(0x30 + lane, vram32(c, out + 4 * lane));
            EXPECT_EQ(lane < 4 ? 0 : 0x30 + lane, vram32(c, in_mem));
        }
    }
}

/*
 * With 2 GiB of VRAM, VRAM covers 0x80000000-0xffffffff and so local
 * memory's addresses: they are still local memory.  VRAM right below
 * them and in the upper half (which the executors test apart, see
 * vx_sim.vram_flat) works as ever, whole warps included.
 */
TEST(lmem_wins_over_a_2gib_vram)
{
    struct vx_sim_config cfg = {
        .clusters = 1, .cores = 1, .warps = 1, .threads = THREADS,
        .vram_size = VX_VRAM_MAX_SIZE,
    };
    struct card card, *c = &card;

    ASSERT_EQ(0, card_open_cfg(c, &cfg));
    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(c, 0x1000);
    PUT_CODE(c,
        CSRR(T2, VX_CSR_THREAD_ID),
        SLLI(T3, T2, 2),
        ADDI(T0, T2, 0x40),
        LI(S0, LMEM),
        ADD(S1, S0, T3),
        SW(T0, S1, 0x10),                  /* local memory */
        LI(T4, 0xc0000000u),
        ADD(T4, T4, T3),
        SW(T0, T4, 0),                     /* VRAM 0x40000000 + 4 lane */
        LW(T1, T4, 0),
        LI(T5, LMEM - 0x20),
        ADD(T5, T5, T3),
        SW(T1, T5, 0),                     /* VRAM 0x7ffeffe0 + 4 lane */
        LW(T1, S1, 0x10),
        ADD(T6, A0, T3),
        SW(T1, T6, 0),                     /* out[lane] */
        END);
    EXPECT_EQ(0, run(c, 0, 1, THREADS));
    for (uint32_t lane = 0; lane < THREADS; lane++) {
        EXPECT_EQ(0x40 + lane, vram32(c, DATA_OFF + 4 * lane));
        EXPECT_EQ(0x40 + lane, vram32(c, 0x40000000u + 4 * lane));
        EXPECT_EQ(0x40 + lane, vram32(c, 0x7ffeffe0u + 4 * lane));
        EXPECT_EQ(0, vram32(c, 0x7fff0010u + 4 * lane));
    }
    card_close(c);
}

/* ----------------------------------------------------------- console */

/*
 * vx_putchar() as upstream writes it (kernel/src/vx_print.S:20-26) from
 * 32 hardware threads on two cores: each hart's three bytes reach the
 * ring in order, a warp's store as 8 records in lane order.
 */
TEST_F(up, console_order_across_harts)
{
    struct card *c = &self->c;
    uint32_t next[32] = { 0 }, tail;

    cons_setup(c, 0x1000);
    PUT_CODE(c,
        CSRR(T1, VX_CSR_MHARTID),
        ANDI(T2, T1, 63),
        ADDI(T2, T2, COUT),                /* IO_COUT_ADDR + (mhartid & 63) */
        ANDI(T3, T1, 15),
        ADDI(T3, T3, 'a'),
        SB(T3, T2, 0),
        SRLI(T3, T1, 4),
        ADDI(T3, T3, '0'),
        SB(T3, T2, 0),
        ADDI(T3, 0, '\n'),
        SB(T3, T2, 0),
        END);
    ASSERT_EQ(0, run(c, 0, 2, 2 * THREADS));
    tail = rd(c, VX_REG_CONS_TAIL);
    ASSERT_EQ(96 * 4, tail);
    EXPECT_EQ(0, rd(c, VX_REG_CONS_DROPPED));
    for (uint32_t i = 0; i < 96; i++) {
        uint32_t r = cons_rec(c, 0, 0x1000, i);
        uint32_t h = VX_CONS_REC_HART(r);
        const char want[3] = { 'a' + (h & 15), '0' + (h >> 4), '\n' };

        ASSERT_LT(h, 32);
        ASSERT_LT(next[h], 3);
        EXPECT_EQ(want[next[h]], VX_CONS_REC_CHAR(r));
        next[h]++;
        /* one warp's store: 8 records, lanes ascending */
        EXPECT_EQ(i % THREADS, h % THREADS);
        if (i % THREADS) {
            EXPECT_EQ(VX_CONS_REC_HART(cons_rec(c, 0, 0x1000, i - 1)) + 1, h);
        }
    }
    for (uint32_t h = 0; h < 32; h++) {
        EXPECT_EQ(3, next[h]);
    }
}

/* One lane prints @n bytes (i & 63) + 32, i = 0.. */
static void put_printer(struct card *c, uint32_t n)
{
    PUT_CODE(c, ADDI(T1, 0, 0), LI(T2, n),
             ANDI(T3, T1, 63), ADDI(T3, T3, 32), SB(T3, 0, COUT),
             ADDI(T1, T1, 1), BNE(T1, T2, -16), END);
}

/*
 * A 4 KiB ring keeps 1023 records; the 77 bytes after them are dropped
 * and counted.  Once the driver moves HEAD, records wrap around.
 */
TEST_F(up, console_dropped_past_the_bound)
{
    struct card *c = &self->c;
    uint32_t hart;

    cons_setup(c, 0x1000);
    put_printer(c, 1100);
    ASSERT_EQ(0, run(c, 0, 1, 1));
    EXPECT_EQ(1023 * 4, rd(c, VX_REG_CONS_TAIL));
    EXPECT_EQ(77, rd(c, VX_REG_CONS_DROPPED));
    hart = VX_CONS_REC_HART(cons_rec(c, 0, 0x1000, 0));
    EXPECT_EQ(0, hart % THREADS);
    for (uint32_t i = 0; i < 1023; i++) {
        EXPECT_EQ(VX_CONS_REC_MAKE(hart, (i & 63) + 32),
                  cons_rec(c, 0, 0x1000, i));
    }
    /* the driver drains: HEAD = TAIL; ten more wrap past the end */
    wr(c, VX_REG_CONS_HEAD, rd(c, VX_REG_CONS_TAIL));
    put_printer(c, 10);
    ASSERT_EQ(0, run(c, 0, 1, 1));
    EXPECT_EQ((1033 * 4) & 0xfff, rd(c, VX_REG_CONS_TAIL));
    EXPECT_EQ(77, rd(c, VX_REG_CONS_DROPPED));
    for (uint32_t i = 0; i < 10; i++) {
        EXPECT_EQ((i & 63) + 32,
                  VX_CONS_REC_CHAR(cons_rec(c, 1023 * 4, 0x1000, i)));
    }
    EXPECT_EQ(0, c->guest_errors);
}

/* No ring: the bytes are counted, and the kernel runs on. */
TEST_F(up, console_disabled_counts)
{
    struct card *c = &self->c;

    put_printer(c, 5);
    EXPECT_EQ(0, run(c, 0, 1, 1));
    EXPECT_EQ(5, rd(c, VX_REG_CONS_DROPPED));
    EXPECT_EQ(0, rd(c, VX_REG_CONS_TAIL));
}

/*
 * Upstream's simulator takes bytes only (emulator.cpp:448-449 aborts on
 * any other size): a wider store to IO_COUT is a STORE_FAULT here.
 * Loads are not the console's: nothing is at 0x40 untranslated.
 */
TEST_F(up, console_wide_store_and_load_fault)
{
    struct card *c = &self->c;

    cons_setup(c, 0x1000);
    PUT_CODE(c, ADDI(T1, 0, 'x'), SW(T1, 0, COUT), END);
    EXPECT_EQ(VX_ERR_STORE_FAULT, run(c, 0, 1, 1));
    EXPECT_EQ(COUT, rd(c, VX_REG_ERR_ADDR));
    recover(c);
    cons_setup(c, 0x1000);
    PUT_CODE(c, ADDI(T1, 0, 'x'), SH(T1, 0, COUT + 2), END);
    EXPECT_EQ(VX_ERR_STORE_FAULT, run(c, 0, 1, 1));
    EXPECT_EQ(COUT + 2, rd(c, VX_REG_ERR_ADDR));
    recover(c);
    cons_setup(c, 0x1000);
    PUT_CODE(c, LBU(T1, 0, COUT), END);
    EXPECT_EQ(VX_ERR_LOAD_FAULT, run(c, 0, 1, 1));
    EXPECT_EQ(0, rd(c, VX_REG_CONS_TAIL));
}

/* CONS_* registers: checks at enable, and what RESET does. */
TEST_F(up, console_registers)
{
    struct card *c = &self->c;
    int errs;

    EXPECT_EQ(0, rd(c, VX_REG_CONS_CTRL));
    const uint32_t bad[][2] = {
        { DEV(CONS_OFF), 0 }, { DEV(CONS_OFF), 0x1800 },
        { DEV(CONS_OFF), 0x2000000 }, { DEV(CONS_OFF + 0x800), 0x1000 },
        { 0x1000, 0x1000 }, { DEV(TEST_VRAM_SIZE - 0x1000), 0x2000 },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        errs = c->guest_errors;
        wr(c, VX_REG_CONS_BASE, bad[i][0]);
        wr(c, VX_REG_CONS_SIZE, bad[i][1]);
        wr(c, VX_REG_CONS_CTRL, VX_CONS_CTRL_ENABLE);
        EXPECT_EQ(0, rd(c, VX_REG_CONS_CTRL));
        EXPECT_EQ(errs + 1, c->guest_errors);
    }
    cons_setup(c, 0x2000);
    EXPECT_EQ(VX_CONS_CTRL_ENABLE, rd(c, VX_REG_CONS_CTRL));
    EXPECT_EQ(DEV(CONS_OFF), rd(c, VX_REG_CONS_BASE));
    EXPECT_EQ(0x2000, rd(c, VX_REG_CONS_SIZE));
    errs = c->guest_errors;
    wr(c, VX_REG_CONS_BASE, DEV(0));            /* enabled: ignored */
    wr(c, VX_REG_CONS_HEAD, 2);                 /* not a record offset */
    wr(c, VX_REG_CONS_HEAD, 0x2000);            /* past the end */
    wr(c, VX_REG_CONS_TAIL, 8);                 /* read-only */
    EXPECT_EQ(errs + 4, c->guest_errors);
    EXPECT_EQ(DEV(CONS_OFF), rd(c, VX_REG_CONS_BASE));
    EXPECT_EQ(0, rd(c, VX_REG_CONS_HEAD));
    EXPECT_EQ(0, rd(c, VX_REG_CONS_TAIL));
    wr(c, VX_REG_CONS_HEAD, 0x1ffc);
    EXPECT_EQ(0x1ffc, rd(c, VX_REG_CONS_HEAD));
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    EXPECT_EQ(0, rd(c, VX_REG_CONS_CTRL));
    EXPECT_EQ(0, rd(c, VX_REG_CONS_BASE));
    EXPECT_EQ(0, rd(c, VX_REG_CONS_SIZE));
    EXPECT_EQ(0, rd(c, VX_REG_CONS_HEAD));
}

/* ------------------------------------------- upstream's memory map */

/*
 * A translated launch with the stack page just below STACK_BASE_ADDR
 * (vx_start.S:82-85: sp = STACK_BASE_ADDR - (mhartid << 13)) and the I/O
 * page mapped: stores and loads there reach the pages; IO_MPM_ADDR is
 * plain memory; a byte store to IO_COUT goes to the console, not to the
 * page, whose byte a load still reads.
 */
TEST_F(up, stack_and_io_pages_at_upstream_addresses)
{
    struct card *c = &self->c;

    vx_sv32_map(&self->pt, 0xfffef000u, DEV(PA_D), VX_PTE_URWX);
    vx_sv32_map(&self->pt, 0x0u, DEV(PA_C), VX_PTE_URWX);
    vram32_set(c, PA_C + COUT, 0x11111111);
    cons_setup(c, 0x1000);
    PUT_CODE(c,
        LUI(S0, 0xffff0),                  /* sp = STACK_BASE_ADDR */
        ADDI(T1, 0, 0x123),
        SW(T1, S0, -4),
        LW(T2, S0, -4),
        LI_HI(T3, VA_OK),
        SW(T2, T3, 0),
        ADDI(T1, 0, 0x456),
        SW(T1, 0, 0x80),                   /* IO_MPM_ADDR */
        LW(T2, 0, 0x80),
        SW(T2, T3, 4),
        ADDI(T1, 0, 'Z'),
        SB(T1, 0, COUT),
        LBU(T2, 0, COUT),
        SW(T2, T3, 8),
        END);
    ASSERT_EQ(0, run(c, satp_of(self), 1, 1));
    EXPECT_EQ(0x123, vram32(c, PA_D + 0xffc));
    EXPECT_EQ(0x456, vram32(c, PA_C + 0x80));
    EXPECT_EQ(0x123, vram32(c, PA_B));
    EXPECT_EQ(0x456, vram32(c, PA_B + 4));
    EXPECT_EQ(0x11, vram32(c, PA_B + 8));
    EXPECT_EQ(0x11111111, vram32(c, PA_C + COUT));
    EXPECT_EQ(4, rd(c, VX_REG_CONS_TAIL));
    EXPECT_EQ('Z', VX_CONS_REC_CHAR(cons_rec(c, 0, 0x1000, 0)));
}

TEST_HARNESS_MAIN
