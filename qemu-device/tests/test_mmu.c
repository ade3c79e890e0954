// SPDX-License-Identifier: MIT
/*
 * Sv32 address translation of the simulated card (docs/hardware.md,
 * "Address translation"): LAUNCH's SATP dword, the PTE checks for each
 * kind of access, megapages, faults with the virtual address, the TLB
 * and its invalidation (registers and packet), ASIDs, the Debug Module's
 * injected accesses.  Run once per executor like every simulator suite.
 *
 * Card: 1 cluster x 1 core x 2 warps x 4 threads.  Programs are a few
 * hand-assembled words in a physical page mapped at VA_CODE; every test
 * reads back what the kernel loaded or stored, or the ERR_* registers.
 */
#include "kselftest_harness.h"
#include "uncore_util.h"
#include "vx_sv32.h"

#define THREADS     4
#define SLOTS       100000

/* VRAM offsets (physical pages) */
#define PT_ROOT     0x200000u
#define PT_POOL     0x201000u
#define PT2_ROOT    0x280000u   /* a second address space */
#define PT2_POOL    0x281000u
#define PA_A        0x300000u
#define PA_B        0x301000u   /* results */
#define PA_C        0x302000u
#define PA_D        0x303000u
#define PA_MEGA     0x400000u   /* 4 MiB aligned device address */

/* virtual addresses */
#define VA_CODE     0x10000000u
#define VA_DATA     0x20000000u
#define VA_OK       0x30000000u     /* -> PA_B, where kernels leave results */
#define VA_MEGA     0x40000000u

#define T1 6
#define T2 7
#define T3 28
#define A0 10
#define JALR(rd, rs1, imm)  RV_I(imm, rs1, 0, rd, 0x67)
#define END         TMC(0)
#define LI_HI(rd, va)   LUI(rd, (va) >> 12)

#define URX         VX_PTE_URX

FIXTURE(mmu) {
    struct card c;
    struct vx_sv32 pt;
    uint32_t seqno;
};

/* The standard address space: code at VA_CODE, results at VA_OK. */
static void pt_setup(struct card *c, struct vx_sv32 *pt, uint32_t root,
                     uint32_t pool)
{
    card_pt_init(c, pt, root, pool);
    vx_sv32_map(pt, VA_CODE, DEV(CODE_OFF), URX);
    vx_sv32_map(pt, VA_OK, DEV(PA_B), VX_PTE_URWX);
}

FIXTURE_SETUP(mmu)
{
    ASSERT_EQ(0, card_open(&self->c, 1, 1, 2, THREADS));
    wr(&self->c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(&self->c, 0x1000);
    pt_setup(&self->c, &self->pt, PT_ROOT, PT_POOL);
    self->seqno = 0;
}

FIXTURE_TEARDOWN(mmu)
{
    card_close(&self->c);
}

/* Queue a one-block LAUNCH of the code at VA_CODE (no kick). */
static void queue_launch(struct card *c, uint32_t satp, uint32_t arg)
{
    struct launch l = {
        .entry = satp ? VA_CODE : DEV(CODE_OFF), .arg = arg, .grid = { 1, 1, 1 },
        .block = { THREADS, 1, 1 }, .rsvd = satp,
    };

    ring_launch(c, &l);
}

/* Launch in address space @satp, run to the end; returns ERR_CAUSE. */
static uint32_t run_in(struct card *c, uint32_t satp, uint32_t arg)
{
    queue_launch(c, satp, arg);
    ring_fence(c, 1, 0);
    ring_kick(c);
    run_idle(c, SLOTS);
    return rd(c, VX_REG_ERR_CAUSE);
}

static uint32_t run_mmu(FIXTURE_DATA(mmu) *self, uint32_t arg)
{
    return run_in(&self->c, vx_sv32_satp(&self->pt, 1), arg);
}

/* After a fault: RESET (which also empties the TLBs) and a fresh ring. */
static void recover(struct card *c)
{
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(c, 0x1000);
}

/* ------------------------------------------------------ SATP, basics */

TEST_F(mmu, untranslated_launch_unchanged)
{
    struct card *c = &self->c;

    /* device addresses, as without translation */
    PUT_CODE(c, LI_HI(T1, DEV(PA_A)), LW(T2, T1, 8), SW(T2, T1, 12), END);
    vram32_set(c, PA_A + 8, 0x600d);
    EXPECT_EQ(0, run_in(c, 0, 0));
    EXPECT_EQ(0x600d, vram32(c, PA_A + 12));
    /* the same program translated: nothing maps DEV(PA_A) */
    EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, run_mmu(self, 0));
    EXPECT_EQ(DEV(PA_A) + 8, rd(c, VX_REG_ERR_ADDR));
}

TEST_F(mmu, satp_checked_by_the_cp)
{
    struct card *c = &self->c;

    PUT_CODE(c, END);
    /* ASID or PPN without MODE: the old reserved dword's rule */
    EXPECT_EQ(VX_ERR_BAD_PACKET, run_in(c, VX_PUT(5, 30, 22), 0));
    recover(c);
    EXPECT_EQ(VX_ERR_BAD_PACKET, run_in(c, 0x80200, 0));
    recover(c);
    /* a root outside VRAM, below or above it */
    EXPECT_EQ(VX_ERR_BAD_PACKET, run_in(c, VX_SATP_MAKE(1, 0x1000), 0));
    recover(c);
    EXPECT_EQ(VX_ERR_BAD_PACKET, run_in(c, VX_SATP_MAKE(1, 0x3fffff), 0));
    recover(c);
    /* a virtual entry outside VRAM is fine; a misaligned one is not */
    EXPECT_EQ(0, run_mmu(self, 0));
    EXPECT_EQ(1, rd(c, VX_REG_FENCE_SEQNO));
    struct launch l = {
        .entry = VA_CODE + 2, .grid = { 1, 1, 1 }, .block = { 1, 1, 1 },
        .rsvd = vx_sv32_satp(&self->pt, 1),
    };
    ring_launch(c, &l);
    ring_kick(c);
    run_idle(c, SLOTS);
    EXPECT_EQ(VX_ERR_BAD_PACKET, rd(c, VX_REG_ERR_CAUSE));
}

TEST_F(mmu, load_store_4k_pages)
{
    struct card *c = &self->c;

    vx_sv32_map(&self->pt, VA_DATA, DEV(PA_A), VX_PTE_URWX);
    PUT_CODE(c, LI_HI(T1, VA_DATA), LW(T2, T1, 8), ADDI(T2, T2, 1),
             SW(T2, T1, 0x10), LI_HI(T3, VA_OK), SW(T2, T3, 0), END);
    vram32_set(c, PA_A + 8, 41);
    EXPECT_EQ(0, run_mmu(self, 0));
    EXPECT_EQ(42, vram32(c, PA_A + 0x10));
    EXPECT_EQ(42, vram32(c, PA_B));
    EXPECT_EQ(0, vram32(c, 0x10));      /* nothing went to VRAM byte 0 */
}

TEST_F(mmu, megapage)
{
    struct card *c = &self->c;
    uint32_t off = 0x123450;

    vx_sv32_map_mega(&self->pt, VA_MEGA, DEV(PA_MEGA), VX_PTE_URWX);
    PUT_CODE(c, LI_HI(T1, VA_MEGA + off), LW(T2, T1, off & 0xfff),
             ADDI(T2, T2, 1), SW(T2, T1, (off & 0xfff) + 4),
             LI_HI(T3, VA_MEGA + 0x3ff000), SW(T2, T3, 0x7fc), END);
    vram32_set(c, PA_MEGA + off, 99);
    EXPECT_EQ(0, run_mmu(self, 0));
    EXPECT_EQ(100, vram32(c, PA_MEGA + off + 4));
    EXPECT_EQ(100, vram32(c, PA_MEGA + 0x3ff7fc));   /* its last page */
}

TEST_F(mmu, misaligned_megapage_faults)
{
    struct card *c = &self->c;

    vx_sv32_map_mega(&self->pt, VA_MEGA, DEV(PA_MEGA + 0x1000),
                     VX_PTE_URWX);
    PUT_CODE(c, LI_HI(T1, VA_MEGA + 0x5000), LW(T2, T1, 0x24), END);
    EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, run_mmu(self, 0));
    EXPECT_EQ(VA_MEGA + 0x5024, rd(c, VX_REG_ERR_ADDR));
    EXPECT_EQ(VA_CODE + 4, rd(c, VX_REG_ERR_PC));
}

/* ------------------------------------------------- permission matrix */

FIXTURE(perm) {
    struct card c;
    struct vx_sv32 pt;
};

FIXTURE_VARIANT(perm) {
    uint32_t flags;             /* the PTE of VA_DATA -> PA_A */
    bool fetch, load, store;    /* which accesses it allows */
};

#define PERM(name, f, x, r, w) \
    FIXTURE_VARIANT_ADD(perm, name) { \
        .flags = (f), .fetch = x, .load = r, .store = w, \
    }
#define UAD (VX_PTE_V | VX_PTE_U | VX_PTE_A | VX_PTE_D)

PERM(r, UAD | VX_PTE_R, false, true, false);
PERM(x, UAD | VX_PTE_X, true, false, false);
PERM(rw, UAD | VX_PTE_R | VX_PTE_W, false, true, true);
PERM(rx, UAD | VX_PTE_R | VX_PTE_X, true, true, false);
PERM(rwx, VX_PTE_URWX, true, true, true);
/* W without R is reserved, at any level */
PERM(w_only_reserved, UAD | VX_PTE_W, false, false, false);
PERM(wx_reserved, UAD | VX_PTE_W | VX_PTE_X, false, false, false);
/* kernels run as user */
PERM(u_clear, VX_PTE_URWX & ~VX_PTE_U, false, false, false);
PERM(v_clear, VX_PTE_URWX & ~VX_PTE_V, false, false, false);
/* A/D: the card never sets them; A clear faults, D clear faults a store */
PERM(a_clear, VX_PTE_URWX & ~VX_PTE_A, false, false, false);
PERM(d_clear, VX_PTE_URWX & ~VX_PTE_D, true, true, false);

FIXTURE_SETUP(perm)
{
    ASSERT_EQ(0, card_open(&self->c, 1, 1, 2, THREADS));
    ring_setup(&self->c, 0x1000);
    pt_setup(&self->c, &self->pt, PT_ROOT, PT_POOL);
    vx_sv32_map(&self->pt, VA_DATA, DEV(PA_A), variant->flags);
}

FIXTURE_TEARDOWN(perm)
{
    card_close(&self->c);
}

/* The fault the variant predicts, or none, with ERR_ADDR = the VA. */
static void expect_access(struct __test_metadata *_metadata,
                          struct card *c, bool allowed, uint32_t cause,
                          uint32_t pc)
{
    uint32_t satp = VX_SATP_MAKE(1, (DEV(PT_ROOT)) >> 12);

    EXPECT_EQ(allowed ? 0 : cause, run_in(c, satp, 0));
    if (!allowed) {
        EXPECT_EQ(VA_DATA, rd(c, VX_REG_ERR_ADDR));
        EXPECT_EQ(pc, rd(c, VX_REG_ERR_PC));
        EXPECT_EQ(0xf, rd(c, VX_REG_ERR_TMASK(0)));
        EXPECT_EQ(VX_STATUS_ERROR | VX_STATUS_WARPS_ACTIVE,
                  rd(c, VX_REG_STATUS));
    }
}

TEST_F(perm, fetch)
{
    struct card *c = &self->c;
    const uint32_t there[] = { ADDI(T2, 0, 0x55), LI_HI(T3, VA_OK),
                               SW(T2, T3, 0), END };

    put_code(c, PA_A, there, 4);
    PUT_CODE(c, LI_HI(T1, VA_DATA), JALR(0, T1, 0));
    expect_access(_metadata, c, variant->fetch, VX_ERR_FETCH_PAGE_FAULT,
                  VA_DATA);
    EXPECT_EQ(variant->fetch ? 0x55 : 0, vram32(c, PA_B));
}

TEST_F(perm, load)
{
    struct card *c = &self->c;

    vram32_set(c, PA_A, 0xabcd1234);
    PUT_CODE(c, LI_HI(T1, VA_DATA), LW(T2, T1, 0), LI_HI(T3, VA_OK),
             SW(T2, T3, 0), END);
    expect_access(_metadata, c, variant->load, VX_ERR_LOAD_PAGE_FAULT,
                  VA_CODE + 4);
    EXPECT_EQ(variant->load ? 0xabcd1234 : 0, vram32(c, PA_B));
}

TEST_F(perm, store)
{
    struct card *c = &self->c;

    vram32_set(c, PA_A, 0x11);
    PUT_CODE(c, LI_HI(T1, VA_DATA), ADDI(T2, 0, 0x77), SW(T2, T1, 0), END);
    expect_access(_metadata, c, variant->store, VX_ERR_STORE_PAGE_FAULT,
                  VA_CODE + 8);
    EXPECT_EQ(variant->store ? 0x77 : 0x11, vram32(c, PA_A));
}

/*
 * The A extension translates as its access kind (docs/hardware.md "CSRs
 * and ISA extensions"; RISC-V: AMOs and SC raise store/AMO page faults):
 * an AMO and an SC need store permission, even an SC that would fail for
 * want of a reservation; an LR needs load permission.  All four lanes
 * add 0x77 in lane order.  Old code: opcode 0x2f was ILLEGAL_INSTR.
 */
TEST_F(perm, amo)
{
    struct card *c = &self->c;

    vram32_set(c, PA_A, 0x11);
    PUT_CODE(c, LI_HI(T1, VA_DATA), ADDI(T2, 0, 0x77), AMOADD_W(A0, T1, T2),
             END);
    expect_access(_metadata, c, variant->store, VX_ERR_STORE_PAGE_FAULT,
                  VA_CODE + 8);
    EXPECT_EQ(variant->store ? 0x11 + 4 * 0x77 : 0x11, vram32(c, PA_A));
}

TEST_F(perm, sc)
{
    struct card *c = &self->c;

    vram32_set(c, PA_A, 0x11);
    PUT_CODE(c, LI_HI(T1, VA_DATA), ADDI(T2, 0, 0x77), SC_W(T2, T1, T2),
             LI_HI(T3, VA_OK), SW(T2, T3, 0), END);
    expect_access(_metadata, c, variant->store, VX_ERR_STORE_PAGE_FAULT,
                  VA_CODE + 8);
    EXPECT_EQ(0x11, vram32(c, PA_A));                   /* no reservation */
    EXPECT_EQ(variant->store ? 1 : 0, vram32(c, PA_B));
}

TEST_F(perm, lr)
{
    struct card *c = &self->c;

    vram32_set(c, PA_A, 0xabcd1234);
    PUT_CODE(c, LI_HI(T1, VA_DATA), LR_W(T2, T1), LI_HI(T3, VA_OK),
             SW(T2, T3, 0), END);
    expect_access(_metadata, c, variant->load, VX_ERR_LOAD_PAGE_FAULT,
                  VA_CODE + 4);
    EXPECT_EQ(variant->load ? 0xabcd1234 : 0, vram32(c, PA_B));
}

/* ------------------------------------------------------ table walks */

/* Each broken walk of a load of VA_DATA + 4; @fix edits the tables. */
TEST_F(mmu, invalid_ptes_both_levels)
{
    struct card *c = &self->c;
    uint32_t p1, p0;

    PUT_CODE(c, LI_HI(T1, VA_DATA), LW(T2, T1, 4), END);
    /* no root PTE */
    EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, run_mmu(self, 0));
    EXPECT_EQ(VA_DATA + 4, rd(c, VX_REG_ERR_ADDR));
    recover(c);
    /* a pointer, but no leaf */
    vx_sv32_map(&self->pt, VA_DATA, DEV(PA_A), VX_PTE_URWX);
    p0 = vx_sv32_pte0(&self->pt, VA_DATA);
    vram32_set(c, p0, vram32(c, p0) & ~VX_PTE_V);
    EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, run_mmu(self, 0));
    recover(c);
    /* a pointer at level 0: no third level in Sv32 */
    vram32_set(c, p0, VX_PTE_MAKE(DEV(PA_A) >> 12, VX_PTE_V));
    EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, run_mmu(self, 0));
    recover(c);
    /* W without R at level 1 */
    p1 = vx_sv32_pte1(&self->pt, VA_DATA);
    vram32_set(c, p1, vram32(c, p1) | VX_PTE_W);
    EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, run_mmu(self, 0));
    recover(c);
    /* a pointer to a table outside VRAM: an access fault, at the VA */
    vram32_set(c, p1, VX_PTE_MAKE(0x1000, VX_PTE_V));
    EXPECT_EQ(VX_ERR_LOAD_FAULT, run_mmu(self, 0));
    EXPECT_EQ(VA_DATA + 4, rd(c, VX_REG_ERR_ADDR));
    recover(c);
    /* a leaf outside VRAM: an access fault too */
    vram32_set(c, p1, VX_PTE_MAKE(0x3ffc00, VX_PTE_URWX));
    EXPECT_EQ(VX_ERR_LOAD_FAULT, run_mmu(self, 0));
    EXPECT_EQ(VA_DATA + 4, rd(c, VX_REG_ERR_ADDR));
}

/* Lanes on different pages: each translated; the unmapped ones fault. */
TEST_F(mmu, lanes_over_pages)
{
    struct card *c = &self->c;

    vx_sv32_map(&self->pt, VA_DATA, DEV(PA_A), VX_PTE_URWX);
    vx_sv32_map(&self->pt, VA_DATA + 0x1000, DEV(PA_C), VX_PTE_URWX);
    /* lane l loads VA_DATA + l * 0x1000 + 4 * l, stores it to VA_OK + 4l */
    PUT_CODE(c, CSRR(T1, VX_CSR_THREAD_ID), SLLI(T2, T1, 12),
             SLLI(T3, T1, 2), ADD(T2, T2, T3), LI_HI(T1, VA_DATA),
             ADD(T1, T1, T2), LW(T2, T1, 0), LI_HI(T1, VA_OK),
             ADD(T1, T1, T3), SW(T2, T1, 0), END);
    vram32_set(c, PA_A, 10);
    vram32_set(c, PA_C + 4, 11);
    vx_sv32_map(&self->pt, VA_DATA + 0x2000, DEV(PA_D), VX_PTE_URWX);
    vx_sv32_map(&self->pt, VA_DATA + 0x3000, DEV(PA_D), VX_PTE_URWX);
    vram32_set(c, PA_D + 8, 12);
    vram32_set(c, PA_D + 12, 13);
    EXPECT_EQ(0, run_mmu(self, 0));
    for (uint32_t l = 0; l < 4; l++) {
        EXPECT_EQ(10 + l, vram32(c, PA_B + 4 * l));
    }
    /* now lanes 2 and 3 have no page: they fault, the lowest's VA */
    recover(c);
    vram32_set(c, vx_sv32_pte0(&self->pt, VA_DATA + 0x2000), 0);
    vram32_set(c, vx_sv32_pte0(&self->pt, VA_DATA + 0x3000), 0);
    vram32_set(c, PA_B, 0);
    EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, run_mmu(self, 0));
    EXPECT_EQ(VA_DATA + 0x2008, rd(c, VX_REG_ERR_ADDR));
    EXPECT_EQ(2, rd(c, VX_REG_ERR_THREAD));
    EXPECT_EQ(0xc, rd(c, VX_REG_ERR_TMASK(0)));
    EXPECT_EQ(0, vram32(c, PA_B));      /* no lane committed */
}

/* Code running off one page into the next, mapped somewhere else. */
TEST_F(mmu, code_crosses_pages)
{
    struct card *c = &self->c;
    const uint32_t tail[] = { LI_HI(T3, VA_OK), SW(T2, T3, 0), END };

    vx_sv32_map(&self->pt, VA_CODE + 0x1000, DEV(PA_D), URX);
    vram32_set(c, CODE_OFF, JAL(0, 0xff8));
    vram32_set(c, CODE_OFF + 0xff8, ADDI(T2, 0, 0x31));
    vram32_set(c, CODE_OFF + 0xffc, ADDI(T2, T2, 1));
    put_code(c, PA_D, tail, 3);
    EXPECT_EQ(0, run_mmu(self, 0));
    EXPECT_EQ(0x32, vram32(c, PA_B));
    /* and a fetch fault when the next page is gone */
    recover(c);
    vram32_set(c, vx_sv32_pte0(&self->pt, VA_CODE + 0x1000), 0);
    EXPECT_EQ(VX_ERR_FETCH_PAGE_FAULT, run_mmu(self, 0));
    EXPECT_EQ(VA_CODE + 0x1000, rd(c, VX_REG_ERR_ADDR));
    EXPECT_EQ(VA_CODE + 0x1000, rd(c, VX_REG_ERR_PC));
}

/* ---------------------------------------------------- TLB, ASIDs */

/* The load-and-report kernel: VA_OK[arg] <- *VA_DATA. */
static void put_reporter(struct card *c)
{
    PUT_CODE(c, LI_HI(T1, VA_DATA), LW(T2, T1, 0), LI_HI(T3, VA_OK),
             ADD(T3, T3, A0), SW(T2, T3, 0), END);
    vram32_set(c, PA_A, 111);
    vram32_set(c, PA_C, 222);
}

/* VA_DATA -> PA_A, used once (cached); then the PTE says PA_C. */
static void remap_behind_tlb(FIXTURE_DATA(mmu) *self,
                             struct __test_metadata *_metadata)
{
    struct card *c = &self->c;

    put_reporter(c);
    vx_sv32_map(&self->pt, VA_DATA, DEV(PA_A), VX_PTE_URWX);
    ASSERT_EQ(0, run_mmu(self, 0));
    ASSERT_EQ(111, vram32(c, PA_B));
    vx_sv32_map(&self->pt, VA_DATA, DEV(PA_C), VX_PTE_URWX);
    ASSERT_EQ(0, run_mmu(self, 4));
    ASSERT_EQ(111, vram32(c, PA_B + 4));     /* stale, as documented */
}

static void tlb_inval(struct card *c, uint32_t cmd, uint32_t asid,
                      uint32_t va)
{
    wr(c, VX_REG_TLB_ASID, asid);
    wr(c, VX_REG_TLB_VA, va);
    wr(c, VX_REG_TLB_INVAL, cmd);
}

TEST_F(mmu, tlb_inval_page)
{
    struct card *c = &self->c;

    remap_behind_tlb(self, _metadata);
    tlb_inval(c, VX_TLB_INVAL_PAGE, 1, VA_DATA + 0x1000);  /* another page */
    tlb_inval(c, VX_TLB_INVAL_PAGE, 2, VA_DATA);           /* another ASID */
    EXPECT_EQ(0, run_mmu(self, 8));
    EXPECT_EQ(111, vram32(c, PA_B + 8));
    tlb_inval(c, VX_TLB_INVAL_PAGE, 1, VA_DATA + 0xabc);   /* any byte of it */
    EXPECT_EQ(0, run_mmu(self, 12));
    EXPECT_EQ(222, vram32(c, PA_B + 12));
}

TEST_F(mmu, tlb_inval_asid)
{
    struct card *c = &self->c;

    remap_behind_tlb(self, _metadata);
    tlb_inval(c, VX_TLB_INVAL_ASID, 2, 0);
    EXPECT_EQ(0, run_mmu(self, 8));
    EXPECT_EQ(111, vram32(c, PA_B + 8));
    tlb_inval(c, VX_TLB_INVAL_ASID, 1, 0);
    EXPECT_EQ(0, run_mmu(self, 12));
    EXPECT_EQ(222, vram32(c, PA_B + 12));
}

TEST_F(mmu, tlb_inval_all)
{
    struct card *c = &self->c;

    remap_behind_tlb(self, _metadata);
    tlb_inval(c, VX_TLB_INVAL_ALL, 0, 0);
    EXPECT_EQ(0, run_mmu(self, 8));
    EXPECT_EQ(222, vram32(c, PA_B + 8));
}

/* A megapage is cached 4 KiB at a time; invalidating any page drops it. */
TEST_F(mmu, tlb_inval_page_of_megapage)
{
    struct card *c = &self->c;

    put_reporter(c);
    vx_sv32_map_mega(&self->pt, VA_DATA, DEV(PA_MEGA), VX_PTE_URWX);
    vram32_set(c, PA_MEGA, 333);
    ASSERT_EQ(0, run_mmu(self, 0));
    ASSERT_EQ(333, vram32(c, PA_B));
    vram32_set(c, vx_sv32_pte1(&self->pt, VA_DATA), 0);
    vx_sv32_map(&self->pt, VA_DATA, DEV(PA_C), VX_PTE_URWX);
    tlb_inval(c, VX_TLB_INVAL_PAGE, 1, VA_DATA + 0x3ff000);
    EXPECT_EQ(0, run_mmu(self, 4));
    EXPECT_EQ(222, vram32(c, PA_B + 4));
}

/* The packet: LAUNCH, TLB_INVAL, LAUNCH in one kick, run in ring order. */
TEST_F(mmu, tlb_inval_packet_ordered_with_launches)
{
    struct card *c = &self->c;
    uint32_t satp = vx_sv32_satp(&self->pt, 1);

    remap_behind_tlb(self, _metadata);
    queue_launch(c, satp, 8);
    ring_put(c, VX_PKT_HDR(VX_PKT_TLB_INVAL, VX_TLBI_NDW));
    ring_put(c, VX_TLB_INVAL_PAGE);
    ring_put(c, 1);
    ring_put(c, VA_DATA);
    queue_launch(c, satp, 12);
    ring_fence(c, 7, 0);
    ring_kick(c);
    run_idle(c, SLOTS);
    EXPECT_EQ(0, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(7, rd(c, VX_REG_FENCE_SEQNO));
    EXPECT_EQ(111, vram32(c, PA_B + 8));
    EXPECT_EQ(222, vram32(c, PA_B + 12));
    /* a bad command is a bad packet */
    ring_put(c, VX_PKT_HDR(VX_PKT_TLB_INVAL, VX_TLBI_NDW));
    ring_put(c, 9);
    ring_put(c, 1);
    ring_put(c, 0);
    ring_kick(c);
    run_idle(c, SLOTS);
    EXPECT_EQ(VX_ERR_BAD_PACKET, rd(c, VX_REG_ERR_CAUSE));
}

/*
 * Invalidation reaches a warp that is running, not only the next launch:
 * the executors' memos of the code page and of a load's page are
 * dropped with the TLB entry, between two bursts of the same warp.
 */
TEST_F(mmu, tlb_inval_code_page_under_a_running_warp)
{
    struct card *c = &self->c;
    const uint32_t other[] = {
        LI_HI(T3, VA_OK), ADDI(T2, 0, 0x55), SW(T2, T3, 0), END,
    };

    PUT_CODE(c, JSELF);
    put_code(c, PA_D, other, 4);
    queue_launch(c, vx_sv32_satp(&self->pt, 1), 0);
    ring_kick(c);
    vx_sim_run(c->sim, 1000);       /* many bursts at VA_CODE */
    ASSERT_TRUE(vx_sim_runnable(c->sim));
    vx_sv32_map(&self->pt, VA_CODE, DEV(PA_D), URX);
    tlb_inval(c, VX_TLB_INVAL_PAGE, 1, VA_CODE);
    run_idle(c, SLOTS);
    EXPECT_FALSE(vx_sim_runnable(c->sim));
    EXPECT_EQ(0, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(0x55, vram32(c, PA_B));
}

TEST_F(mmu, tlb_inval_data_page_under_a_running_warp)
{
    struct card *c = &self->c;

    /* load VA_DATA until it is not 0, store what it was to VA_OK */
    PUT_CODE(c, LI_HI(T1, VA_DATA), LW(T2, T1, 0), BEQ(T2, 0, -4),
             LI_HI(T3, VA_OK), SW(T2, T3, 0), END);
    vx_sv32_map(&self->pt, VA_DATA, DEV(PA_A), VX_PTE_URWX);
    vram32_set(c, PA_A, 0);
    vram32_set(c, PA_C, 222);
    queue_launch(c, vx_sv32_satp(&self->pt, 1), 0);
    ring_kick(c);
    vx_sim_run(c->sim, 1000);
    ASSERT_TRUE(vx_sim_runnable(c->sim));
    vx_sv32_map(&self->pt, VA_DATA, DEV(PA_C), VX_PTE_URWX);
    vx_sim_run(c->sim, 1000);       /* stale until invalidated */
    ASSERT_TRUE(vx_sim_runnable(c->sim));
    tlb_inval(c, VX_TLB_INVAL_ALL, 0, 0);
    run_idle(c, SLOTS);
    EXPECT_EQ(0, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(222, vram32(c, PA_B));
}

TEST_F(mmu, two_asids_same_va)
{
    struct card *c = &self->c;
    struct vx_sv32 pt2;

    put_reporter(c);
    vx_sv32_map(&self->pt, VA_DATA, DEV(PA_A), VX_PTE_URWX);
    pt_setup(c, &pt2, PT2_ROOT, PT2_POOL);
    vx_sv32_map(&pt2, VA_DATA, DEV(PA_C), VX_PTE_URWX);
    for (uint32_t i = 0; i < 2; i++) {      /* the second time from TLBs */
        EXPECT_EQ(0, run_in(c, vx_sv32_satp(&self->pt, 1), 16 * i));
        EXPECT_EQ(0, run_in(c, vx_sv32_satp(&pt2, 2), 16 * i + 4));
        EXPECT_EQ(111, vram32(c, PA_B + 16 * i));
        EXPECT_EQ(222, vram32(c, PA_B + 16 * i + 4));
    }
}

TEST_F(mmu, tlb_registers)
{
    struct card *c = &self->c;

    wr(c, VX_REG_TLB_ASID, 0x3ff);
    EXPECT_EQ(0x1ff, rd(c, VX_REG_TLB_ASID));
    EXPECT_EQ(1, c->guest_errors);
    wr(c, VX_REG_TLB_VA, 0x12345678);
    EXPECT_EQ(0x12345678, rd(c, VX_REG_TLB_VA));
    wr(c, VX_REG_TLB_INVAL, 0);
    wr(c, VX_REG_TLB_INVAL, 4);
    EXPECT_EQ(3, c->guest_errors);
    EXPECT_EQ(0, rd(c, VX_REG_TLB_INVAL));
    wr(c, VX_REG_RESET, VX_RESET_KEY);
    EXPECT_EQ(0, rd(c, VX_REG_TLB_ASID));
    EXPECT_EQ(0, rd(c, VX_REG_TLB_VA));
}

/* --------------------------------------------------- Debug Module */

static bool dm_inject(struct card *c, uint32_t insn)
{
    dm_wr(c, VX_DM_INJECT, insn);
    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_INJECTREQ);
    return dm_rd(c, VX_DM_DCTRL) & VX_DCTRL_INJECTERR;
}

static uint32_t dm_gpr(struct card *c, uint32_t r)
{
    dm_inject(c, CSRW(VX_CSR_DSCRATCH(0), r));
    return dm_rd(c, VX_DM_DSCRATCH(0));
}

/* Launch the code translated, run it a little, halt warp 0, select @lane. */
static void launch_halted(FIXTURE_DATA(mmu) *self, uint32_t lane)
{
    struct card *c = &self->c;

    queue_launch(c, vx_sv32_satp(&self->pt, 1), 0);
    ring_kick(c);
    vx_sim_run(c->sim, 10);
    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE);
    dm_wr(c, VX_DM_WMASK, 1);
    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_HALTREQ);
    dm_wr(c, VX_DM_DSELECT, VX_DSELECT_MAKE(0, 0, lane));
}

TEST_F(mmu, dm_inject_through_translation)
{
    struct card *c = &self->c;

    vx_sv32_map(&self->pt, VA_DATA, DEV(PA_A), VX_PTE_URWX);
    vram32_set(c, PA_A + 4, 0xfeed);
    PUT_CODE(c, LI_HI(T1, VA_DATA), JSELF);
    launch_halted(self, 2);
    ASSERT_EQ(VA_DATA, dm_gpr(c, T1));
    /* a load and a store at the warp's virtual addresses */
    EXPECT_FALSE(dm_inject(c, LW(T2, T1, 4)));
    EXPECT_EQ(0xfeed, dm_gpr(c, T2));
    EXPECT_FALSE(dm_inject(c, SW(T2, T1, 8)));
    EXPECT_EQ(0xfeed, vram32(c, PA_A + 8));
    /* an unmapped VA sets injecterr and stops nothing */
    EXPECT_TRUE(dm_inject(c, LW(T2, 0, 0x100)));
    EXPECT_EQ(0, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_FALSE(rd(c, VX_REG_STATUS) & VX_STATUS_ERROR);
    /* a device address is not one either, for this warp */
    dm_wr(c, VX_DM_DSCRATCH(0), DEV(PA_A));
    dm_inject(c, CSRR(T1, VX_CSR_DSCRATCH(0)));
    EXPECT_TRUE(dm_inject(c, LW(T2, T1, 4)));
}

/* A debugger's misaligned DPC faults on the fetch, as untranslated. */
TEST_F(mmu, dm_misaligned_dpc_faults)
{
    static const uint32_t dpcs[] = { 1, 2, VA_CODE + 2 };
    struct card *c = &self->c;

    for (uint32_t i = 0; i < sizeof(dpcs) / sizeof(dpcs[0]); i++) {
        PUT_CODE(c, JSELF);
        launch_halted(self, 0);
        dm_wr(c, VX_DM_DPC, dpcs[i]);
        dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_RESUMEREQ);
        run_idle(c, SLOTS);
        EXPECT_EQ(VX_ERR_FETCH_FAULT, rd(c, VX_REG_ERR_CAUSE));
        EXPECT_EQ(dpcs[i], rd(c, VX_REG_ERR_PC));
        dm_wr(c, VX_DM_DCTRL, 0);
        recover(c);
    }
}

TEST_HARNESS_MAIN
