// SPDX-License-Identifier: MIT
/*
 * RV32IMF conformance, differentially: each isa/diff_* program is built
 * for the simulator and for Linux user mode; the simulator's result
 * buffer must equal, byte for byte, what the program prints under
 * qemu-riscv32.  The simulator runs it on an 8-lane warp: most programs
 * compute the same thing in every lane, diff_lanes gives each lane its own
 * data (and the Linux build plays the lanes one after the other).  A
 * program that defines test_sim_lanes runs on that many lanes instead
 * (diff_fp_misc: read-modify-write forms of the warp's one fcsr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kselftest_harness.h"
#include "sim_loader.h"

#define MAX_WORDS   (256 * 1024)
#define MAX_SLOTS   (200ull * 1000 * 1000)

/* Run @name.linux.elf under qemu-riscv32; returns bytes read or -1. */
static long run_qemu(const char *name, uint8_t *buf, size_t cap)
{
    char cmd[4200];
    FILE *p;
    size_t n = 0, r;

    snprintf(cmd, sizeof(cmd), "qemu-riscv32 '%s'",
             vx_test_path(name, ".linux.elf"));
    p = popen(cmd, "r");
    if (!p) {
        return -1;
    }
    while (n < cap && (r = fread(buf + n, 1, cap - n, p)) > 0) {
        n += r;
    }
    return pclose(p) == 0 ? (long)n : -1;
}

/* Run @name.sim.elf on 1 warp of 8 lanes; returns bytes of results or -1. */
static long run_sim(struct __test_metadata *_metadata, const char *name,
                    uint8_t *buf, size_t cap)
{
    struct vx_card *c = vx_card_new(1, 1, 8);
    uint32_t count, res, lanes;
    long n = -1;

    ASSERT_NE(NULL, c);
    ASSERT_EQ(0, vx_card_load(c, vx_test_path(name, ".sim.elf")));
    lanes = vx_card_sym(c, "test_sim_lanes");
    lanes = lanes ? vx_card_rd32(c, lanes) : 8;
    vx_card_start(c, 0, c->entry, (1u << lanes) - 1);
    vx_card_run(c, MAX_SLOTS);
    EXPECT_EQ(0, vx_card_reg(c, VX_REG_ERR_CAUSE)) {
        TH_LOG("fault cause %u at pc 0x%08x addr 0x%08x",
               vx_card_reg(c, VX_REG_ERR_CAUSE), vx_card_reg(c, VX_REG_ERR_PC),
               vx_card_reg(c, VX_REG_ERR_ADDR));
    }
    EXPECT_FALSE(c->sim->warps[0].active);
    count = vx_card_rd32(c, vx_card_sym(c, "result_count"));
    res = vx_card_sym(c, "result_buf");
    if (res && (size_t)count * 4 <= cap) {
        for (uint32_t i = 0; i < count; i++) {
            uint32_t v = vx_card_rd32(c, res + 4 * i);

            memcpy(buf + 4 * i, &v, 4);
        }
        n = (long)count * 4;
    }
    vx_card_free(c);
    return n;
}

static void run_diff(struct __test_metadata *_metadata, const char *name)
{
    uint8_t *want = calloc(MAX_WORDS, 4), *got = calloc(MAX_WORDS, 4);
    long nw, ng;
    int shown = 0;

    ASSERT_NE(NULL, want);
    ASSERT_NE(NULL, got);
    nw = run_qemu(name, want, MAX_WORDS * 4);
    ASSERT_LT(0, nw) TH_LOG("qemu-riscv32 failed on %s", name);
    ng = run_sim(_metadata, name, got, MAX_WORDS * 4);
    ASSERT_EQ(nw, ng);
    for (long i = 0; i < nw / 4 && shown < 10; i++) {
        uint32_t w, g;

        memcpy(&w, want + 4 * i, 4);
        memcpy(&g, got + 4 * i, 4);
        if (w != g) {
            TH_LOG("%s: word %ld: qemu 0x%08x sim 0x%08x", name, i, w, g);
            shown++;
        }
    }
    EXPECT_EQ(0, shown);
    TH_LOG("%s: %ld words compared", name, nw / 4);
    free(want);
    free(got);
}

TEST(diff_int) { run_diff(_metadata, "diff_int"); }
TEST(diff_mem) { run_diff(_metadata, "diff_mem"); }
TEST(diff_fp_arith) { run_diff(_metadata, "diff_fp_arith"); }
TEST(diff_fp_fma) { run_diff(_metadata, "diff_fp_fma"); }
TEST(diff_fp_misc) { run_diff(_metadata, "diff_fp_misc"); }
TEST(diff_lanes) { run_diff(_metadata, "diff_lanes"); }

TEST_HARNESS_MAIN
