// SPDX-License-Identifier: MIT
/*
 * Simulator core speed against qemu-riscv32 on the same loops.
 *
 * The simulator runs the loops of bench/sim_bench_kernel.S on one host
 * thread, each thread of the grid taking a strided share of the vector;
 * qemu-riscv32 (TCG, Linux user mode) runs the same loops over the whole
 * vector on one thread, its start-up removed by timing two iteration
 * counts and taking the difference.  Every figure is the median of RUNS
 * timed runs, printed with the lowest and highest (the machine is shared
 * and noisy); times are CPU time, so other load counts less.
 *
 * Two ways to count the simulator's work:
 *   lane instructions  each active lane's instruction counts once: the
 *                      loop's 11 instructions per element processed.  32
 *                      of them are one warp instruction of a full warp,
 *                      so comparing them with qemu's instructions says
 *                      how much faster the card computes the loop than
 *                      one qemu thread would, not how fast it executes
 *                      instructions.
 *   warp instructions  what the simulator dispatches: the device clock,
 *                      one cycle per warp-instruction slot, entry code
 *                      included.  Against qemu's instructions, this is
 *                      the cost of an instruction, whatever its lanes do.
 * Loops: "int" (lw, slli, add, sw: c = 3a + b) on full warps, whose loads
 * and stores are consecutive words (the coalesced case); "fp" (flw, fmul,
 * fadd, fmadd, fsw) likewise; "divergent", the int loop with half of each
 * warp's lanes masked off by split/join, their accesses strided.  qemu
 * runs the int loop for int and divergent, the fp loop for fp.
 *
 * --map=ident|shift runs the simulator's loops in a translated launch
 * (docs/hardware.md, "Address translation"): the card's first 14 MiB
 * mapped with 4 KiB pages, at their own addresses (ident) or 0x70000000
 * lower (shift), every address the kernel is given a virtual one.  The
 * default, --map=none, is an untranslated launch.
 *
 * The translator's vector path is AVX-512 (masked moves) where the host
 * has avx512f and avx512vl, else AVX2; --avx2 makes it use AVX2 on an
 * AVX-512 host too (vx_jit_set_avx512()), to measure what an AVX2-only
 * host gets.  The line "sim_vector_path:" says which ran.
 *
 * mmu_sim_ratio, printed whatever --map says: lane instructions per
 * second of the int loop on 8-lane warps in a --map=shift launch over
 * the same in an untranslated one (issue 13 wants 0.9 or more).  It is
 * the median of RATIO_RUNS ratios of interleaved pairs, each pair run
 * back to back in alternating order, so that a change of load on the
 * machine hits both sides of a pair alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "sim_loader.h"
#include "vx_jit.h"
#include "vx_sv32.h"

#define VEC_N           65536u
#define INSN_PER_ELEM   11u
#define TARGET_S        0.3     /* CPU seconds per timed run */
#define RUNS            5
#define RATIO_RUNS      9       /* pairs behind mmu_sim_ratio */

enum loop { LOOP_INT, LOOP_FP, LOOP_DIV };

/* --map: how a launch sees VRAM */
enum map { MAP_NONE, MAP_IDENT, MAP_SHIFT };
static enum map map_mode;

#define MAP_LEN         0xe00000u       /* mapped: VRAM below the tables */
#define MAP_SHIFT_VA    0x10000000u     /* --map=shift: VA of VRAM byte 0 */

static const struct {
    const char *name;
    const char *entry;          /* simulator entry symbol */
    int qemu_fp;                /* qemu-riscv32 runs the fp loop */
    uint32_t lanes_div;         /* 1 / the share of lanes that work */
} loops[] = {
    [LOOP_INT] = { "int", "vec_sim_entry", 0, 1 },
    [LOOP_FP] = { "fp", "fp_sim_entry", 1, 1 },
    [LOOP_DIV] = { "divergent", "div_sim_entry", 0, 2 },
};

/* Median, lowest and highest of RUNS measurements. */
struct stat3 {
    double med, lo, hi;
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static struct stat3 stat3(double *v, int n)
{
    qsort(v, n, sizeof(*v), cmp_double);
    return (struct stat3){ v[n / 2], v[0], v[n - 1] };
}

static void print_rate(const char *name, struct stat3 s)
{
    printf("%s: %.0f (%d runs, %.3g .. %.3g)\n", name, s.med, RUNS, s.lo,
           s.hi);
}

/* @a against @b: ratio of the medians, and the widest range of the runs. */
static void print_ratio(const char *name, struct stat3 a, struct stat3 b)
{
    printf("%s: %.3g (%.3g .. %.3g)\n", name, a.med / b.med, a.lo / b.hi,
           a.hi / b.lo);
}

/* CPU time of this process: other load on the machine does not count. */
static double cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ simulator */

struct sim_cfg {
    enum loop loop;
    uint32_t cores, warps, threads;
    enum vx_sim_exec exec;
};

/* The translator's work in the timed runs of one configuration. */
static struct vx_jit_stats jit_acc;
static bool avx2_only;     /* --avx2: no AVX-512 moves in translated code */
static double jit_cpu_s;

struct sim_run {
    double cpu_s;
    uint64_t clock;             /* warp-instruction slots */
    uint64_t lane_insns;        /* the loop's, counted per active lane */
};

static uint64_t card_clock(struct vx_card *c)
{
    uint32_t lo = vx_card_reg(c, VX_REG_CLOCK_LO);

    return (uint64_t)vx_card_reg(c, VX_REG_CLOCK_HI) << 32 | lo;
}

/* The arrays as the Linux entry of sim_bench_kernel.S fills them. */
static void fill(struct vx_card *c, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i < VEC_N; i++) {
        vx_card_wr32(c, a + 4 * i, 0x3f800000u + (i << 8));
        vx_card_wr32(c, b + 4 * i, 0x3fc00000u + (i << 4));
    }
}

static uint32_t pt_rd(void *opaque, uint32_t off)
{
    return vx_card_rd32(opaque, VX_VRAM_DEVADDR + off);
}

static void pt_wr(void *opaque, uint32_t off, uint32_t v)
{
    vx_card_wr32(opaque, VX_VRAM_DEVADDR + off, v);
}

/* @map: page tables above MAP_LEN, and c->satp; returns the VA - PA. */
static uint32_t map_card(struct vx_card *c, enum map map)
{
    struct vx_sv32 pt = { .rd = pt_rd, .wr = pt_wr, .opaque = c };
    uint32_t va = map == MAP_SHIFT ? MAP_SHIFT_VA : VX_VRAM_DEVADDR;

    if (map == MAP_NONE) {
        return 0;
    }
    vx_sv32_init(&pt, MAP_LEN, MAP_LEN + 0x1000);
    vx_sv32_map_range(&pt, va, VX_VRAM_DEVADDR, MAP_LEN, VX_PTE_URWX);
    c->satp = vx_sv32_satp(&pt, 1);
    return va - VX_VRAM_DEVADDR;
}

static struct sim_run time_sim(const struct sim_cfg *k, enum map map,
                               uint32_t iters)
{
    struct vx_card *c = vx_card_new(k->cores, k->warps, k->threads);
    uint32_t args = VX_VRAM_DEVADDR + 0x200000, arr = args + 0x1000;
    uint32_t threads = k->cores * k->warps * k->threads;
    uint32_t grid[3] = { k->cores, 1, 1 };
    uint32_t block[3] = { k->warps * k->threads, 1, 1 };
    struct sim_run r;
    uint64_t clock0;
    uint32_t v;         /* virtual - device address */
    double t0;

    if (!c || vx_sim_set_exec(c->sim, k->exec) < 0 ||
        vx_card_load(c, vx_test_path("bench_vec", ".sim.elf")) < 0) {
        fprintf(stderr, "sim_bench: cannot set up the card\n");
        exit(1);
    }
    if (avx2_only) {
        vx_jit_set_avx512(c->sim, false);   /* -1: no translator, nothing to do */
    }
    v = map_card(c, map);
    vx_card_wr32(c, args + 0, VEC_N);
    vx_card_wr32(c, args + 4, iters);
    for (int i = 0; i < 3; i++) {
        vx_card_wr32(c, args + 8 + 4 * i, v + arr + i * 4 * VEC_N);
    }
    fill(c, arr, arr + 4 * VEC_N);
    vx_card_launch(c, v + vx_card_sym(c, loops[k->loop].entry), v + args,
                   grid, block, v + VX_VRAM_DEVADDR + 0x800000, 1024);
    clock0 = card_clock(c);
    t0 = cpu_now();
    vx_card_run(c, ~0ull);
    r.cpu_s = cpu_now() - t0;
    r.clock = card_clock(c) - clock0;
    r.lane_insns = (uint64_t)INSN_PER_ELEM * iters *
                   (VEC_N / threads) * (threads / loops[k->loop].lanes_div);
    if (vx_card_reg(c, VX_REG_ERR_CAUSE) || vx_sim_runnable(c->sim)) {
        fprintf(stderr, "sim_bench: the kernel did not finish (cause %u)\n",
                vx_card_reg(c, VX_REG_ERR_CAUSE));
        exit(1);
    }
    if (k->exec == VX_SIM_EXEC_JIT) {
        struct vx_jit_stats st;

        vx_jit_stats_get(c->sim, &st);
        jit_acc.blocks += st.blocks;
        jit_acc.ns += st.ns;
        jit_acc.runs += st.runs;
        jit_acc.interp += st.interp;
        jit_cpu_s += r.cpu_s;
    }
    vx_card_free(c);
    return r;
}

/* Iterations of @k's loop that take about TARGET_S in launches of @map. */
static uint32_t sim_iters(const struct sim_cfg *k, enum map map)
{
    struct sim_run r = time_sim(k, map, 4);

    return (uint32_t)(4 * TARGET_S / (r.cpu_s > 1e-6 ? r.cpu_s : 1e-6)) + 1;
}

/* Lane- and warp-instructions per second of RUNS runs of TARGET_S. */
static void bench_sim(const struct sim_cfg *k, struct stat3 *lane,
                      struct stat3 *warp)
{
    double l[RUNS], w[RUNS];
    uint32_t iters = sim_iters(k, map_mode);
    struct sim_run r;

    for (int i = 0; i < RUNS; i++) {
        r = time_sim(k, map_mode, iters);
        l[i] = r.lane_insns / r.cpu_s;
        w[i] = r.clock / r.cpu_s;
    }
    *lane = stat3(l, RUNS);
    *warp = stat3(w, RUNS);
}

/*
 * Translated over untranslated speed of @k, in RATIO_RUNS pairs of runs
 * of the same iterations: each pair's lane instructions are the same, so
 * its ratio is the untranslated run's CPU time over the translated one's.
 */
static struct stat3 bench_mmu_ratio(const struct sim_cfg *k)
{
    uint32_t iters = sim_iters(k, MAP_NONE);
    double v[RATIO_RUNS];

    for (int i = 0; i < RATIO_RUNS; i++) {
        struct sim_run plain, mmu;

        if (i & 1) {
            mmu = time_sim(k, MAP_SHIFT, iters);
            plain = time_sim(k, MAP_NONE, iters);
        } else {
            plain = time_sim(k, MAP_NONE, iters);
            mmu = time_sim(k, MAP_SHIFT, iters);
        }
        v[i] = plain.cpu_s / (mmu.cpu_s > 1e-9 ? mmu.cpu_s : 1e-9);
    }
    return stat3(v, RATIO_RUNS);
}

/* ---------------------------------------------------------- qemu-riscv32 */

/* CPU seconds (user + system) of one qemu-riscv32 run of @iters passes. */
static double time_qemu(uint32_t iters, int fp)
{
    char arg[16];
    struct rusage ru;
    int status;
    pid_t pid;

    snprintf(arg, sizeof(arg), "%u", iters);
    pid = fork();
    if (pid == 0) {
        execlp("qemu-riscv32", "qemu-riscv32",
               vx_test_path("bench_vec", ".linux.elf"), arg,
               fp ? "fp" : (char *)NULL, (char *)NULL);
        _exit(127);
    }
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid ||
        !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "sim_bench: qemu-riscv32 failed\n");
        exit(1);
    }
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
           ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

/*
 * Instructions per second of qemu-riscv32 on one loop.  Start-up,
 * translation and filling the arrays are removed by timing a long and a
 * short run and taking the difference.
 */
static struct stat3 bench_qemu(int fp)
{
    double t = time_qemu(100, fp), v[RUNS];
    uint32_t iters = (uint32_t)(100 * 2 * TARGET_S / (t > 1e-3 ? t : 1e-3));

    iters = iters < 400 ? 400 : iters;
    for (int i = 0; i < RUNS; i++) {
        double d = time_qemu(iters, fp) - time_qemu(iters / 4, fp);

        v[i] = (double)VEC_N * INSN_PER_ELEM * (iters - iters / 4) /
               (d > 1e-6 ? d : 1e-6);
    }
    return stat3(v, RUNS);
}

/* ------------------------------------------------------------------ main */

static void name(char *buf, size_t len, const char *what,
                 const struct sim_cfg *k, const char *suffix)
{
    snprintf(buf, len, "%s_%s_%ux%ux%u%s", what, loops[k->loop].name,
             k->cores, k->warps, k->threads, suffix);
}

int main(int argc, char **argv)
{
    static const struct sim_cfg cfgs[] = {
        { LOOP_INT, 2, 4, 8, VX_SIM_EXEC_BEST },
        { LOOP_INT, 2, 4, 32, VX_SIM_EXEC_BEST },
        { LOOP_INT, 2, 4, 128, VX_SIM_EXEC_BEST },
        { LOOP_FP, 2, 4, 32, VX_SIM_EXEC_BEST },
        { LOOP_DIV, 2, 4, 32, VX_SIM_EXEC_BEST },
        { LOOP_INT, 2, 4, 32, VX_SIM_EXEC_REF },
        { LOOP_INT, 2, 4, 32, VX_SIM_EXEC_BURST },
        { LOOP_INT, 2, 4, 8, VX_SIM_EXEC_JIT },
        { LOOP_INT, 2, 4, 32, VX_SIM_EXEC_JIT },
    };
    struct stat3 q[2], r;
    char n[96];
    bool int_only = false;  /* --int-only: the int loop at 8 and 32 lanes */
    /* --only=NAME: the rows whose name (e.g. int_2x4x32_jit) is NAME */
    const char *only = NULL;
    /* --exec=NAME: the executor of the rows that take the best one */
    enum vx_sim_exec best = VX_SIM_EXEC_BEST;
    char err[128];

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--map=none")) {
            map_mode = MAP_NONE;
        } else if (!strcmp(argv[i], "--map=ident")) {
            map_mode = MAP_IDENT;
        } else if (!strcmp(argv[i], "--map=shift")) {
            map_mode = MAP_SHIFT;
        } else if (!strcmp(argv[i], "--int-only")) {
            int_only = true;
        } else if (!strncmp(argv[i], "--only=", 7)) {
            only = argv[i] + 7;
        } else if (!strcmp(argv[i], "--avx2")) {
            avx2_only = true;
        } else if (!strncmp(argv[i], "--exec=", 7)) {
            if (vx_sim_exec_parse(argv[i] + 7, &best, err, sizeof(err))) {
                fprintf(stderr, "sim_bench: %s\n", err);
                return 1;
            }
        } else {
            fprintf(stderr, "usage: sim_bench [--map=none|ident|shift] "
                    "[--int-only] [--only=ROW] "
                    "[--exec=ref|burst|avx2|jit] [--avx2]\n");
            return 1;
        }
    }
    if (only && !strcmp(only, "mmu")) {
        q[0] = q[1] = (struct stat3){ 1, 1, 1 };    /* not printed */
    } else {
        q[0] = bench_qemu(0);
        q[1] = bench_qemu(1);
    }

    if (!only || strcmp(only, "mmu")) {
        print_rate("qemu_insn_per_s_int", q[0]);
        print_rate("qemu_insn_per_s_fp", q[1]);
    }
    printf("sim_vector_path: %s\n",
           !__builtin_cpu_supports("avx2") ? "none (no AVX2: ref and burst only)" :
           avx2_only ? "AVX2 (AVX-512 turned off: --avx2)" :
           __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") ?
           "AVX-512 (avx512f, avx512vl)" : "AVX2 (the host has no AVX-512)");
    printf("sim_executor: %s\n", vx_sim_exec_name(
           best != VX_SIM_EXEC_BEST ? best : vx_sim_exec_best()));
    for (size_t i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
        struct sim_cfg kk = cfgs[i];
        const struct sim_cfg *k = &kk;
        const char *suffix = k->exec == VX_SIM_EXEC_BEST ? "" :
                             k->exec == VX_SIM_EXEC_REF ? "_ref" :
                             k->exec == VX_SIM_EXEC_JIT ? "_jit" : "_burst";
        struct stat3 lane, warp, qk = q[loops[k->loop].qemu_fp];

        if (kk.exec == VX_SIM_EXEC_BEST) {
            /* the rows without a suffix: jit's print its cost too */
            kk.exec = best != VX_SIM_EXEC_BEST ? best : vx_sim_exec_best();
        }

        if (int_only && (k->loop != LOOP_INT || k->threads > 32)) {
            continue;
        }
        name(n, sizeof(n), "", k, suffix);
        if (only && strcmp(n + 1, only)) {
            continue;
        }
        if (!vx_sim_exec_available(k->exec)) {
            printf("# %s: not available on this host (no AVX2)\n",
                   vx_sim_exec_name(k->exec));
            continue;
        }
        memset(&jit_acc, 0, sizeof(jit_acc));
        jit_cpu_s = 0;
        bench_sim(k, &lane, &warp);
        if (k->exec == VX_SIM_EXEC_JIT) {
            /* translation cost: per block, and share of the timed runs */
            name(n, sizeof(n), "jit_us_per_block", k, "");
            printf("%s: %.2f (%llu blocks, %llu runs, %llu interpreted)\n", n,
                   jit_acc.blocks ? jit_acc.ns / 1e3 / jit_acc.blocks : 0.0,
                   (unsigned long long)jit_acc.blocks,
                   (unsigned long long)jit_acc.runs,
                   (unsigned long long)jit_acc.interp);
            name(n, sizeof(n), "jit_translate_share", k, "");
            printf("%s: %.6f\n", n,
                   jit_cpu_s > 0 ? jit_acc.ns / 1e9 / jit_cpu_s : 0.0);
        }
        name(n, sizeof(n), "sim_lane_insn_per_s", k, suffix);
        print_rate(n, lane);
        name(n, sizeof(n), "sim_warp_insn_per_s", k, suffix);
        print_rate(n, warp);
        name(n, sizeof(n), "lane_insn_vs_qemu_ratio", k, suffix);
        print_ratio(n, lane, qk);
        name(n, sizeof(n), "warp_insn_vs_qemu_ratio", k, suffix);
        print_ratio(n, warp, qk);
    }
    if (int_only || (only && strcmp(only, "mmu"))) {
        return 0;
    }
    {
        struct sim_cfg k0 = cfgs[0];    /* int, 8-lane warps */

        k0.exec = best;
        r = bench_mmu_ratio(&k0);
    }
    printf("mmu_sim_ratio: %.3f (median of %d, range %.3f .. %.3f)\n", r.med,
           RATIO_RUNS, r.lo, r.hi);
    return 0;
}
