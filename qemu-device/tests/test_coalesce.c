// SPDX-License-Identifier: MIT
/*
 * A warp's lanes that load one address see one value, even while the
 * host writes that word: the card's LSU sends one request per distinct
 * line and gives every lane of it that one response (upstream's
 * hw/rtl/libs/VX_mem_coalescer.sv:126-157 and 309-314 at fe8168b9;
 * qemu-device/sim/vx_coalesce.h).  A kernel that spins on a flag the
 * host sets through a BO mapping, and branches on it, must never see its
 * lanes disagree: a card whose lanes loaded one by one stopped such
 * kernels with a false DIVERGENT_BRANCH (vortex_debug_events_test's
 * attach_mid_job_reports_the_launch, vortex_dump_debugger_test's
 * requested_dump_of_a_running_job_lets_it_run).
 *
 * The race is opened on purpose, at every read, not hoped for: the host
 * page of VRAM holding the flag is PROT_NONE while the card runs, so
 * every host instruction that reads it faults; the SIGSEGV handler
 * counts the read, flips the flag (1, 0, 1, ...) as a host store landing
 * just before it would, opens the page and single-steps that instruction
 * (x86's EFLAGS.TF), and the SIGTRAP after it closes the page again.  So
 * the host writes the flag between any two reads of it.  Lanes loaded
 * one at a time saw 1, 0, 1, ...; coalesced, they see the one value of
 * the one read of each address.
 *
 * Every executor runs each case (ref, burst, avx2, the translator with
 * its AVX-512 moves on and off), on warps of 4 to 128 lanes, full and
 * partial, for word, byte, halfword and float loads, and with rd = rs1;
 * untranslated, and in a translated launch, where the other word of the
 * repeating case is on another virtual page (of the same physical one),
 * so that the lanes go one by one (vx_exec.c's mem_split()).
 */
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "exec_matrix.h"
#include "vx_asm.h"

#define SLOTS       (1000 * 1000)
#define POISON      0xdeadbeefu
/* mid-page and far from code, data, ring and stacks (uncore_util.h) */
#define FLAG_OFF    0x80400u
#define OTHER_VAL   0x77u       /* the word after the flag: never written */
#define X86_TF      0x100u      /* EFLAGS' trap flag: single-step */
/* a translated launch: tables, and where code, data and the flag are */
#define PT_ROOT     0x200000u
#define PT_POOL     0x201000u
#define VA_CODE     0x10000000u
#define VA_FLAG     (0x20000000u | (FLAG_OFF & 0xfff))
#define VA_DATA     0x30000000u

#define LBU(rd, rs1, imm)   RV_I(imm, rs1, 4, rd, 0x03)
#define LH(rd, rs1, imm)    RV_I(imm, rs1, 1, rd, 0x03)
#define FLW(fd, rs1, imm)   RV_I(imm, rs1, 2, fd, 0x07)

/* The load under test: x7 <- [x12], in two instructions. */
static const struct kind {
    const char *name;
    uint32_t load, then;
} kinds[] = {
    { "lw", LW(7, 12, 0), NOP },
    { "lw rd=rs1", LW(12, 12, 0), ADDI(7, 12, 0) },
    { "lbu", LBU(7, 12, 0), NOP },
    { "lh", LH(7, 12, 0), NOP },
    { "flw", FLW(7, 12, 0), FMV_X_W(7, 7) },
};
#define NKINDS  (sizeof(kinds) / sizeof(kinds[0]))

/* x12 = @va, the flag's address as the kernel sees it */
#define FLAG_ADDR(va)                                                   \
    LUI(12, (va) >> 12),                                                \
    ADDI(12, 12, (va) & 0xfff)
/* lane l stores x7 at DATA + 4 l */
#define STORE_SEEN                                                      \
    SLLI(8, 5, 2),                                                      \
    ADD(8, 8, 10),              /* a0: the argument, DATA */            \
    SW(7, 8, 0)

/* ------------------------------------------------ the gate on the flag */

#if defined(__x86_64__)
static struct {
    uint8_t *page;              /* the host page holding the flag */
    size_t size;
    volatile uint32_t *flag;
    volatile unsigned int reads;    /* host instructions that read it */
} gate;

static void gate_segv(int sig, siginfo_t *si, void *uc_)
{
    ucontext_t *uc = uc_;
    uint8_t *a = si->si_addr;

    if (a < gate.page || a >= gate.page + gate.size) {
        signal(SIGSEGV, SIG_DFL);       /* a real crash: let it happen */
        return;
    }
    mprotect(gate.page, gate.size, PROT_READ | PROT_WRITE);
    gate.reads++;
    *gate.flag = gate.reads & 1;
    uc->uc_mcontext.gregs[REG_EFL] |= X86_TF;
}

static void gate_trap(int sig, siginfo_t *si, void *uc_)
{
    ucontext_t *uc = uc_;

    uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)X86_TF;
    mprotect(gate.page, gate.size, PROT_NONE);
}

/* Close the gate on @c's flag: from now on every read of it flips it. */
static void gate_arm(struct card *c)
{
    struct sigaction sa = { .sa_flags = SA_SIGINFO };
    uintptr_t flag = (uintptr_t)(c->vram + FLAG_OFF);

    gate.size = (size_t)sysconf(_SC_PAGESIZE);
    gate.page = (uint8_t *)(flag & ~(uintptr_t)(gate.size - 1));
    gate.flag = (volatile uint32_t *)(c->vram + FLAG_OFF);
    gate.reads = 0;
    sa.sa_sigaction = gate_segv;
    sigaction(SIGSEGV, &sa, NULL);
    sa.sa_sigaction = gate_trap;
    sigaction(SIGTRAP, &sa, NULL);
    mprotect(gate.page, gate.size, PROT_NONE);
}

static void gate_open(void)
{
    mprotect(gate.page, gate.size, PROT_READ | PROT_WRITE);
    signal(SIGSEGV, SIG_DFL);
    signal(SIGTRAP, SIG_DFL);
}
#endif

/* --------------------------------------------------------------- cases */

FIXTURE(coalesce) {
    struct card c;
};

FIXTURE_VARIANT(coalesce) {
    uint32_t threads;           /* per warp */
    uint32_t lanes;             /* the block's threads: the active lanes */
    bool mmu;                   /* a translated launch */
};

FIXTURE_VARIANT_ADD(coalesce, t4) { .threads = 4, .lanes = 4 };
FIXTURE_VARIANT_ADD(coalesce, t8) { .threads = 8, .lanes = 8 };
FIXTURE_VARIANT_ADD(coalesce, t8_partial) { .threads = 8, .lanes = 7 };
FIXTURE_VARIANT_ADD(coalesce, t32) { .threads = 32, .lanes = 32 };
FIXTURE_VARIANT_ADD(coalesce, t64_partial) { .threads = 64, .lanes = 50 };
FIXTURE_VARIANT_ADD(coalesce, t128) { .threads = 128, .lanes = 128 };
FIXTURE_VARIANT_ADD(coalesce, t8_mmu) { .threads = 8, .lanes = 8, .mmu = true };
FIXTURE_VARIANT_ADD(coalesce, t32_partial_mmu) {
    .threads = 32, .lanes = 29, .mmu = true,
};

FIXTURE_SETUP(coalesce)
{
#if !defined(__x86_64__)
    SKIP(return, "the gate single-steps with x86's trap flag");
#endif
}

FIXTURE_TEARDOWN(coalesce)
{
}

/* Where the kernel finds the flag: VA_FLAG translated, else its device address. */
static uint32_t flag_va(bool mmu)
{
    return mmu ? VA_FLAG : DEV(FLAG_OFF);
}

/*
 * A translated launch's address space: code, data, the flag's page at
 * VA_FLAG and again on the virtual page after it.  Its satp.
 */
static uint32_t map_card(struct card *c)
{
    struct vx_sv32 pt;

    card_pt_init(c, &pt, PT_ROOT, PT_POOL);
    vx_sv32_map(&pt, VA_CODE, DEV(CODE_OFF), VX_PTE_URX);
    vx_sv32_map(&pt, VA_DATA, DEV(DATA_OFF), VX_PTE_URWX);
    vx_sv32_map(&pt, VA_FLAG, DEV(FLAG_OFF), VX_PTE_URWX);
    vx_sv32_map(&pt, VA_FLAG + 0x1000, DEV(FLAG_OFF), VX_PTE_URWX);
    return vx_sv32_satp(&pt, 1);
}

/*
 * Run @prog (@n words) on a 1 x 1 x @threads card of executor @x as one
 * block of @lanes threads (translated if @mmu), with the gate on the flag
 * (0, and OTHER_VAL after it) and DATA poisoned.  ERR_CAUSE once nothing
 * runs, *@reads the host's reads of the flag's page; -1 if this host
 * cannot run @x.
 */
static int64_t run_gated(struct __test_metadata *_metadata, struct card *c,
                         const struct exec *x, uint32_t threads,
                         uint32_t lanes, bool mmu, const uint32_t *prog,
                         size_t n, unsigned int *reads)
{
#if defined(__x86_64__)
    struct vx_sim_config cfg = {
        .clusters = 1, .cores = 1, .warps = 1, .threads = threads,
        .vram_size = TEST_VRAM_SIZE,
    };
    struct launch l = {
        .entry = DEV(CODE_OFF), .arg = DEV(DATA_OFF),
        .grid = { 1, 1, 1 }, .block = { lanes, 1, 1 },
    };
    int r = exec_card_open(c, x, &cfg);

    if (r) {
        EXPECT_LT(0, r) TH_LOG("%s: %s", x->name, c->last_error);
        return -1;
    }
    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(c, 0x1000);
    put_code(c, CODE_OFF, prog, n);
    for (uint32_t i = 0; i < threads; i++) {
        vram32_set(c, DATA_OFF + 4 * i, POISON);
    }
    vram32_set(c, FLAG_OFF, 0);
    vram32_set(c, FLAG_OFF + 4, OTHER_VAL);
    if (mmu) {
        l.rsvd = map_card(c);       /* LAUNCH's SATP */
        l.entry = VA_CODE;
        l.arg = VA_DATA;
    }
    ring_launch(c, &l);
    ring_fence(c, 1, 0);
    ring_kick(c);
    gate_arm(c);
    run_idle(c, SLOTS);
    gate_open();
    *reads = gate.reads;
    return rd(c, VX_REG_ERR_CAUSE);
#else
    return -1;
#endif
}

/*
 * Every lane loads the flag and branches on it: every executor loads it
 * once (one read of its page), every lane sees 1, and the branch, which
 * has nothing to disagree about, goes on.
 */
TEST_F(coalesce, lanes_of_one_address_see_one_value)
{
    const uint32_t T = variant->threads, n = variant->lanes;

    for (size_t k = 0; k < NKINDS; k++) {
        const uint32_t prog[] = {
            CSRR(5, VX_CSR_THREAD_ID),
            FLAG_ADDR(flag_va(variant->mmu)),
            kinds[k].load,
            kinds[k].then,
            STORE_SEEN,
            BNE(7, 0, 8),       /* every lane alike: no stop */
            NOP,
            TMC(0),
        };

        for (size_t i = 0; i < NEXECS; i++) {
            const struct exec *x = &execs[i];
            struct card *c = &self->c;
            unsigned int reads = 0;
            int64_t cause = run_gated(_metadata, c, x, T, n, variant->mmu,
                                      prog, sizeof(prog) / 4, &reads);

            if (cause < 0) {
                continue;
            }
            EXPECT_EQ(VX_ERR_NONE, cause) {
                TH_LOG("%s %s: cause %u at 0x%08x", x->name, kinds[k].name,
                       (unsigned int)cause, rd(c, VX_REG_ERR_PC));
            }
            EXPECT_EQ(1, reads) TH_LOG("%s %s", x->name, kinds[k].name);
            for (uint32_t l = 0; l < T; l++) {
                EXPECT_EQ(l < n ? 1 : POISON, vram32(c, DATA_OFF + 4 * l)) {
                    TH_LOG("%s %s lane %u", x->name, kinds[k].name, l);
                }
            }
            EXPECT_TRUE(exec_translated(c, x)) TH_LOG("%s", x->name);
            card_close(c);
        }
    }
}

/*
 * Even lanes load the flag, odd lanes the word after it (translated, on
 * the next virtual page): one read per distinct address, the even lanes
 * all see the flag's one value (1: the lowest lane's read comes first),
 * the odd ones OTHER_VAL.
 */
TEST_F(coalesce, repeating_addresses_see_one_value_each)
{
    const uint32_t T = variant->threads, n = variant->lanes;

    for (size_t k = 0; k < NKINDS; k++) {
        const uint32_t prog[] = {
            CSRR(5, VX_CSR_THREAD_ID),
            FLAG_ADDR(flag_va(variant->mmu)),
            ANDI(6, 5, 1),
            SLLI(6, 6, 2),
            ADD(12, 12, 6),     /* odd lanes: the word after the flag */
            SLLI(6, 6, 10),
            variant->mmu ? ADD(12, 12, 6) : NOP,    /* ... a page on */
            kinds[k].load,
            kinds[k].then,
            STORE_SEEN,
            TMC(0),
        };

        for (size_t i = 0; i < NEXECS; i++) {
            const struct exec *x = &execs[i];
            struct card *c = &self->c;
            unsigned int reads = 0;
            int64_t cause = run_gated(_metadata, c, x, T, n, variant->mmu,
                                      prog, sizeof(prog) / 4, &reads);

            if (cause < 0) {
                continue;
            }
            EXPECT_EQ(VX_ERR_NONE, cause) TH_LOG("%s %s", x->name,
                                                 kinds[k].name);
            EXPECT_EQ(2, reads) TH_LOG("%s %s", x->name, kinds[k].name);
            for (uint32_t l = 0; l < T; l++) {
                uint32_t want = l >= n ? POISON : l & 1 ? OTHER_VAL : 1;

                EXPECT_EQ(want, vram32(c, DATA_OFF + 4 * l)) {
                    TH_LOG("%s %s lane %u", x->name, kinds[k].name, l);
                }
            }
            card_close(c);
        }
    }
}

TEST_HARNESS_MAIN
