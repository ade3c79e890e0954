/* SPDX-License-Identifier: MIT */
/*
 * SIMT behaviour on the simulator (no qemu-user equivalent).  The host
 * picks a scenario through test_select before starting the warps; each
 * scenario leaves records in out[] that test_simt.c checks.
 */
#include "vx_test.h"

volatile unsigned test_select;
extern void vx_warp_entry(void);

#define LANE()  vx_csr_read(0xcc0)
#define WARP()  vx_csr_read(0xcc1)

/* Per-thread CSRs: 16 words per hardware thread, indexed by mhartid. */
static void csrs(unsigned *out)
{
    unsigned *r = out + 16 * vx_csr_read(0xf14);

    r[0] = vx_csr_read(0xcc0);
    r[1] = vx_csr_read(0xcc1);
    r[2] = vx_csr_read(0xcc2);
    r[3] = vx_csr_read(0xcc3);
    r[4] = vx_csr_read(0xcc4);
    r[5] = vx_csr_read(0xfc0);
    r[6] = vx_csr_read(0xfc1);
    r[7] = vx_csr_read(0xfc2);
    r[8] = vx_csr_read(0xf14);
    r[9] = vx_csr_read(0x301);
    r[10] = vx_csr_read(0x340);
    r[11] = vx_csr_read(0xc02);     /* instret: > 0 by now */
    __asm__ volatile("csrw 0x7b2, %0" :: "r"(r[0] + 0x100));
    r[12] = vx_csr_read(0x7b2);
    r[13] = 0x600d;
}

/* Launch coordinates, 12 words per thread, indexed by global thread id. */
static void coords(unsigned *out)
{
    unsigned bx = vx_csr_read(0xcd3), by = vx_csr_read(0xcd4);
    unsigned gx = vx_csr_read(0xcd6), gy = vx_csr_read(0xcd7);
    unsigned block = vx_csr_read(0xcd0) + gx * (vx_csr_read(0xcd1) +
                                               gy * vx_csr_read(0xcd2));
    unsigned tib = vx_csr_read(0xcd9) + bx * (vx_csr_read(0xcda) +
                                              by * vx_csr_read(0xcdb));
    unsigned bsize = bx * by * vx_csr_read(0xcd5);
    unsigned *r = out + 12 * (block * bsize + tib);

    r[0] = vx_csr_read(0xcd0);
    r[1] = vx_csr_read(0xcd1);
    r[2] = vx_csr_read(0xcd2);
    r[3] = vx_csr_read(0xcd9);
    r[4] = vx_csr_read(0xcda);
    r[5] = vx_csr_read(0xcdb);
    r[6] = vx_csr_read(0xcdc);
    r[7] = bx | by << 8 | vx_csr_read(0xcd5) << 16;
    r[8] = gx | gy << 8 | vx_csr_read(0xcd8) << 16;
    r[9] = vx_csr_read(0x340);      /* the argument pointer */
    r[10] = vx_csr_read(0xcc4);
    r[11] = 0x600d;
}

/* tmc and pred: which lanes run between mask changes. */
static void masks(unsigned *out)
{
    unsigned l = LANE();

    out[l] = 1;
    vx_tmc(0x5);
    out[8 + l] = 1;
    vx_tmc_imm(0xff);
    out[16 + l] = vx_csr_read(0xcc4);
    vx_pred(l < 3, 0x1);
    out[24 + l] = vx_csr_read(0xcc4);
    vx_tmc_imm(0xff);
    vx_pred(0, 0x10);           /* nobody: the mask operand of lane 0 */
    out[32 + l] = vx_csr_read(0xcc4);
    vx_tmc_imm(0xff);
    out[40 + l] = 1;
}

/* wspawn: warps 1..3 start at vx_warp_entry with one lane each. */
static void spawn(unsigned *out)
{
    out[0] = 100;
    out[8] = vx_csr_read(0xcc3);
    vx_wspawn(4, vx_warp_entry);
}

/*
 * Barriers: everybody's write must be visible after bar.  @count is what
 * bar counts: warps for a core's barrier, cores for a global one.
 */
static void barrier(unsigned *out, unsigned nwarps, unsigned id,
                    unsigned count)
{
    unsigned me = vx_csr_read(0xcc2) * vx_csr_read(0xfc1) + WARP();
    volatile unsigned *v = out;

    for (unsigned round = 0; round < 3; round++) {
        unsigned sum = 0;

        v[me] = round + 1;
        vx_bar(id, count);
        for (unsigned i = 0; i < nwarps; i++) {
            sum += v[i];
        }
        v[64 + round * 16 + me] = sum;
        vx_bar(id, count);
    }
}

void warp_main(unsigned *out)
{
    switch (test_select) {
    case 2:
        out[WARP()] = 100 + WARP();
        out[8 + WARP()] = vx_csr_read(0xcc4);
        break;
    case 3:
        barrier(out, 4, 3, 4);
        break;
    case 4:
        /* global: counts 2 cores (upstream emulator.cpp:311-315) */
        barrier(out, 8, 0x80000001, 2);
        break;
    }
}

unsigned test_main(unsigned *out)
{
    switch (test_select) {
    case 0:
        csrs(out);
        break;
    case 1:
        masks(out);
        break;
    case 2:
        spawn(out);
        break;
    case 3:
    case 4:
        vx_wspawn(4, vx_warp_entry);
        warp_main(out);
        break;
    case 5:
        coords(out);
        break;
    }
    return 0;
}
