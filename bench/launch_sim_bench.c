// SPDX-License-Identifier: MIT
/*
 * What address translation adds to a tiny job's launch in the simulator
 * itself, no QEMU and no driver: the fast doorbell (docs/hardware.md,
 * "Fast doorbell") runs a LAUNCH of a one-thread kernel shaped like
 * userspace/kernels/empty.c behind crt0 (csrr, lw of the argument block,
 * call and return, tmc 0), then its FENCE(IRQ), inside the DOORBELL
 * write, as the guest's launch_bench sees it.  One card launches with
 * SATP = 0, the other in an identity-mapped Sv32 space, the same ASID
 * every time like one client.
 *
 * Prints, as the median of RUNS interleaved runs with their range:
 *   launch_sim_ns_untranslated  ns of host time per launch, SATP = 0
 *   launch_sim_ns_translated    the same with SATP set
 *   launch_sim_mmu_ratio        translated over untranslated, per pair
 * and the same three as launch_sim_cold_*: each launch timed alone after
 * EVICT_BYTES of other memory went through the caches, as the guest's
 * kernel and KVM do between two of its launches.  Warm, translation
 * costs a few ns; what it costs beyond that is lines the launch misses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "uncore_util.h"
#include "vx_sv32.h"

#define RUNS            9
#define LAUNCHES_HOT    2000    /* per timed run, caches warm */
#define LAUNCHES_COLD   200     /* per timed run, caches evicted */
#define EVICT_BYTES     (4u << 20)      /* past L2, as a guest round trip */
#define PT_ROOT         0x200000u       /* tables above everything mapped */
#define MAP_LEN         0x200000u

#define AUIPC(rd, imm20)        ((uint32_t)(imm20) << 12 | (rd) << 7 | 0x17)
#define JALR(rd, rs1, imm)      RV_I(imm, rs1, 0, rd, 0x67)
#define RET_OFF                 0xb4u   /* empty.elf's vx_kernel_main */

/* One card and how it launches. */
struct side {
    struct card c;
    uint32_t satp;      /* LAUNCH's SATP dword */
    uint32_t seqno;     /* the last FENCE's */
};

static uint32_t pt_rd(void *opaque, uint32_t off)
{
    return vram32(opaque, off);
}

static void pt_wr(void *opaque, uint32_t off, uint32_t v)
{
    vram32_set(opaque, off, v);
}

/* The QEMU device's default topology; SATP for @translated launches. */
static uint32_t open_bench_card(struct card *c, bool translated)
{
    struct vx_sim_config cfg = {
        .clusters = 1, .cores = 2, .warps = 4, .threads = 8,
        .vram_size = TEST_VRAM_SIZE, .fast_doorbell = true,
        .doorbell_budget = VX_SIM_DOORBELL_BUDGET_DEFAULT,
    };
    struct vx_sv32 pt = { .rd = pt_rd, .wr = pt_wr, .opaque = c };

    if (card_open_cfg(c, &cfg) < 0) {
        fprintf(stderr, "launch_sim_bench: cannot open a card\n");
        exit(1);
    }
    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(c, 0x1000);
    PUT_CODE(c, CSRR(5, VX_CSR_THREAD_ID), LW(6, 10, 0), AUIPC(1, 0),
             JALR(1, 1, RET_OFF - 8), TMC(0));
    vram32_set(c, CODE_OFF + RET_OFF, JALR(0, 1, 0));
    if (!translated) {
        return 0;
    }
    vx_sv32_init(&pt, PT_ROOT, PT_ROOT + 0x1000);
    vx_sv32_map_range(&pt, DEV(0), DEV(0), MAP_LEN, VX_PTE_URWX);
    return vx_sv32_satp(&pt, 1);
}

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, n, sizeof(*v), cmp_double);
    return v[n / 2];
}

/* What the guest's kernel and KVM do to the caches between two launches. */
static void evict_caches(void)
{
    static uint8_t junk[EVICT_BYTES];

    for (size_t i = 0; i < sizeof(junk); i += 64) {
        ((volatile uint8_t *)junk)[i]++;
    }
}

/* A launch+FENCE, over in its doorbell write. */
static void launch(struct card *c, const struct launch *l, uint32_t seqno)
{
    ring_launch(c, l);
    ring_fence(c, seqno, VX_FENCE_FLAG_IRQ);
    wr(c, VX_REG_DOORBELL, c->tail);
}

/*
 * ns of one launch: warm, the mean of LAUNCHES_HOT back to back; @cold,
 * the median of LAUNCHES_COLD timed one by one, the caches evicted
 * before each.
 */
static double time_launches(struct side *s, bool cold)
{
    const struct launch l = {
        .entry = DEV(CODE_OFF), .arg = DEV(DATA_OFF),
        .grid = { 1, 1, 1 }, .block = { 1, 1, 1 }, .rsvd = s->satp,
    };
    struct card *c = &s->c;
    double t[LAUNCHES_COLD], t0 = now_ns();

    for (int i = 0; i < (cold ? LAUNCHES_COLD : LAUNCHES_HOT); i++) {
        if (cold) {
            evict_caches();
            t[i] = now_ns();
        }
        launch(c, &l, ++s->seqno);
        if (cold) {
            t[i] = now_ns() - t[i];
        }
    }
    t0 = (now_ns() - t0) / LAUNCHES_HOT;
    if (rd(c, VX_REG_FENCE_SEQNO) != s->seqno || rd(c, VX_REG_STATUS) ||
        c->kicks || c->guest_errors) {
        fprintf(stderr, "launch_sim_bench: a job did not end in its "
                "doorbell (status 0x%x, cause %u)\n",
                rd(c, VX_REG_STATUS), rd(c, VX_REG_ERR_CAUSE));
        exit(1);
    }
    return cold ? median(t, LAUNCHES_COLD) : t0;
}

static void print_stat(const char *name, const char *fmt, double *v)
{
    char line[128];

    qsort(v, RUNS, sizeof(*v), cmp_double);
    snprintf(line, sizeof(line), "%%s: %s (median of %%d, range %s .. %s)\n",
             fmt, fmt, fmt);
    printf(line, name, v[RUNS / 2], RUNS, v[0], v[RUNS - 1]);
}

/* RUNS interleaved pairs of runs, untranslated and translated. */
static void bench(struct side sides[2], bool cold)
{
    const char *sfx = cold ? "_cold" : "";
    double v[2][RUNS], ratio[RUNS];
    char name[64];

    for (int i = 0; i < RUNS; i++) {
        for (int k = 0; k < 2; k++) {
            int j = k ^ (i & 1);        /* alternate which goes first */

            v[j][i] = time_launches(&sides[j], cold);
        }
        ratio[i] = v[1][i] / v[0][i];
    }
    snprintf(name, sizeof(name), "launch_sim%s_ns_untranslated", sfx);
    print_stat(name, "%.0f", v[0]);
    snprintf(name, sizeof(name), "launch_sim%s_ns_translated", sfx);
    print_stat(name, "%.0f", v[1]);
    snprintf(name, sizeof(name), "launch_sim%s_mmu_ratio", sfx);
    print_stat(name, "%.3f", ratio);
}

int main(void)
{
    static struct side sides[2];

    sides[0].satp = open_bench_card(&sides[0].c, false);
    sides[1].satp = open_bench_card(&sides[1].c, true);
    for (int k = 0; k < 2; k++) {
        time_launches(&sides[k], false);        /* TLBs and memos warm */
    }
    bench(sides, false);
    bench(sides, true);
    for (int k = 0; k < 2; k++) {
        card_close(&sides[k].c);
    }
    return 0;
}
