// SPDX-License-Identifier: MIT
/*
 * Simulator core speed against qemu-riscv32 on the same loop.
 *
 * The simulator runs bench/sim_bench_kernel.S over full warps on one host
 * thread and reports lane-instructions per second; qemu-riscv32 (TCG, Linux
 * user mode) runs the same inner loop on one thread.  Both counts are the
 * loop's static 11 instructions per element times the elements processed.
 * qemu's start-up cost is removed by timing two iteration counts and
 * taking the difference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "sim_loader.h"

#define VEC_N           65536u
#define INSN_PER_ELEM   11u
#define TARGET_S        0.5     /* CPU seconds per timed run */
#define REPEATS         3       /* the best of: the machine may be busy */

/* CPU time of this process: other load on the machine does not count. */
static double cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU seconds the simulator needs for @iters passes over the vector. */
static double time_sim(uint32_t cores, uint32_t warps, uint32_t threads,
                       uint32_t iters)
{
    struct vx_card *c = vx_card_new(cores, warps, threads);
    uint32_t args = VX_VRAM_DEVADDR + 0x200000, arr = args + 0x1000;
    uint32_t grid[3] = { cores, 1, 1 }, block[3] = { warps * threads, 1, 1 };
    double t0, dt;

    if (!c || vx_card_load(c, vx_test_path("bench_vec", ".sim.elf")) < 0) {
        fprintf(stderr, "sim_bench: cannot load the kernel\n");
        exit(1);
    }
    vx_card_wr32(c, args + 0, VEC_N);
    vx_card_wr32(c, args + 4, iters);
    for (int i = 0; i < 3; i++) {
        vx_card_wr32(c, args + 8 + 4 * i, arr + i * 4 * VEC_N);
    }
    vx_card_launch(c, vx_card_sym(c, "vec_sim_entry"), args, grid, block,
                   VX_VRAM_DEVADDR + 0x800000, 1024);
    t0 = cpu_now();
    vx_card_run(c, ~0ull);
    dt = cpu_now() - t0;
    if (vx_card_reg(c, VX_REG_ERR_CAUSE) || vx_sim_runnable(c->sim)) {
        fprintf(stderr, "sim_bench: the kernel did not finish (cause %u)\n",
                vx_card_reg(c, VX_REG_ERR_CAUSE));
        exit(1);
    }
    vx_card_free(c);
    return dt;
}

/* Lane-instructions per second on a cores x warps x threads card. */
static double bench_sim(uint32_t cores, uint32_t warps, uint32_t threads)
{
    double t = time_sim(cores, warps, threads, 20), best = 1e30;
    uint32_t iters = (uint32_t)(20 * TARGET_S / (t > 1e-6 ? t : 1e-6)) + 1;

    for (int i = 0; i < REPEATS; i++) {
        t = time_sim(cores, warps, threads, iters);
        best = t < best ? t : best;
    }
    return (double)VEC_N * INSN_PER_ELEM * iters / best;
}

/* CPU seconds (user + system) of one qemu-riscv32 run of @iters passes. */
static double time_qemu(uint32_t iters)
{
    char arg[16];
    struct rusage ru;
    int status;
    pid_t pid;

    snprintf(arg, sizeof(arg), "%u", iters);
    pid = fork();
    if (pid == 0) {
        execlp("qemu-riscv32", "qemu-riscv32",
               vx_test_path("bench_vec", ".linux.elf"), arg, (char *)NULL);
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

static double best_qemu(uint32_t iters)
{
    double best = 1e30;

    for (int i = 0; i < REPEATS; i++) {
        double t = time_qemu(iters);

        best = t < best ? t : best;
    }
    return best;
}

/*
 * Instructions per second of qemu-riscv32.  Start-up and translation
 * are removed by timing a long and a short run and taking the difference.
 */
static double bench_qemu(void)
{
    double t = time_qemu(200);
    uint32_t iters = (uint32_t)(200 * 2 * TARGET_S / (t > 1e-3 ? t : 1e-3));
    double d;

    iters = iters < 400 ? 400 : iters;
    d = best_qemu(iters) - best_qemu(iters / 4);
    return (double)VEC_N * INSN_PER_ELEM * (iters - iters / 4) / d;
}

int main(void)
{
    double q = bench_qemu();
    double s8 = bench_sim(2, 4, 8);
    double s32 = bench_sim(2, 4, 32);
    double s128 = bench_sim(2, 4, 128);

    printf("qemu_user_insn_per_s: %.0f\n", q);
    printf("sim_lane_insn_per_s_2x4x8: %.0f\n", s8);
    printf("sim_lane_insn_per_s_2x4x32: %.0f\n", s32);
    printf("sim_lane_insn_per_s_2x4x128: %.0f\n", s128);
    printf("sim_vs_qemu_user_ratio_8_threads: %.2f\n", s8 / q);
    printf("sim_vs_qemu_user_ratio_128_threads: %.2f\n", s128 / q);
    /* the headline: 32-lane warps, the usual GPU warp width */
    printf("sim_vs_qemu_user_ratio: %.2f\n", s32 / q);
    return 0;
}
