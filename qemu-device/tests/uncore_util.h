/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the uncore host tests (test_regs, test_cp, test_dm): a card
 * with recording hooks, BAR0/DM accessors, a ring writer and the RV32
 * encoder of testlib/vx_asm.h, so device programs are a few hand-assembled words
 * in VRAM.
 */
#ifndef UNCORE_UTIL_H
#define UNCORE_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "vx_asm.h"
#include "vx_sim_internal.h"

#define TEST_VRAM_SIZE  VX_VRAM_MIN_SIZE
#define DEV(off)        (VX_VRAM_DEVADDR + (uint32_t)(off))

/* VRAM layout used by the tests. */
#define RING_OFF        0x10000u    /* ring, 4 KiB unless a test says */
#define CODE_OFF        0x20000u    /* device program */
#define DATA_OFF        0x40000u    /* kernel argument area */
#define STACK_OFF       0x100000u   /* stacks */

struct card {
    struct vx_sim *sim;
    uint8_t *vram;
    bool irq_level;
    int irq_rises;
    int kicks;
    int guest_errors;
    char last_error[256];
    uint32_t ring_size;
    uint32_t tail;      /* where the next ring dword goes */
};

static void card_set_irq(void *opaque, bool level)
{
    struct card *c = opaque;

    c->irq_rises += level && !c->irq_level;
    c->irq_level = level;
}

static void card_kick(void *opaque)
{
    ((struct card *)opaque)->kicks++;
}

static void card_guest_error(void *opaque, const char *msg)
{
    struct card *c = opaque;

    c->guest_errors++;
    snprintf(c->last_error, sizeof(c->last_error), "%s", msg);
}

static const struct vx_sim_hooks card_hooks = {
    .set_irq = card_set_irq,
    .kick = card_kick,
    .guest_error = card_guest_error,
};

static inline int card_open(struct card *c, uint32_t clusters, uint32_t cores,
                            uint32_t warps, uint32_t threads)
{
    struct vx_sim_config cfg = {
        .clusters = clusters, .cores = cores, .warps = warps,
        .threads = threads, .vram_size = TEST_VRAM_SIZE,
    };

    memset(c, 0, sizeof(*c));
    c->vram = calloc(1, TEST_VRAM_SIZE);
    if (!c->vram) {
        return -1;
    }
    c->sim = vx_sim_new(&cfg, c->vram, &card_hooks, c);
    return c->sim ? 0 : -1;
}

static inline void card_close(struct card *c)
{
    vx_sim_free(c->sim);
    free(c->vram);
}

static inline uint32_t rd(struct card *c, uint32_t off)
{
    return vx_sim_mmio_read(c->sim, off);
}

static inline void wr(struct card *c, uint32_t off, uint32_t v)
{
    vx_sim_mmio_write(c->sim, off, v);
}

static inline uint32_t dm_rd(struct card *c, uint32_t reg)
{
    return rd(c, VX_DM_REG(reg));
}

static inline void dm_wr(struct card *c, uint32_t reg, uint32_t v)
{
    wr(c, VX_DM_REG(reg), v);
}

static inline uint32_t vram32(struct card *c, uint32_t off)
{
    uint32_t v;

    memcpy(&v, c->vram + off, 4);
    return v;
}

static inline void vram32_set(struct card *c, uint32_t off, uint32_t v)
{
    memcpy(c->vram + off, &v, 4);
}

/* Run until nothing is runnable or @max slots went by; returns slots. */
static inline uint64_t run_idle(struct card *c, uint64_t max)
{
    uint64_t used = 0;

    while (used < max && vx_sim_runnable(c->sim)) {
        used += vx_sim_run(c->sim, 1000);
        if (!vx_sim_runnable(c->sim)) {
            break;
        }
    }
    return used;
}

/* --------------------------------------------------------------- ring */

static inline void ring_setup(struct card *c, uint32_t size)
{
    wr(c, VX_REG_RING_BASE, DEV(RING_OFF));
    wr(c, VX_REG_RING_SIZE, size);
    wr(c, VX_REG_RING_CTRL, VX_RING_CTRL_ENABLE);
    c->ring_size = size;
    c->tail = 0;
}

static inline void ring_put(struct card *c, uint32_t dw)
{
    vram32_set(c, RING_OFF + c->tail, dw);
    c->tail = (c->tail + 4) & (c->ring_size - 1);
}

static inline void ring_kick(struct card *c)
{
    wr(c, VX_REG_RING_TAIL, c->tail);
    wr(c, VX_REG_DOORBELL, 1);
}

static inline void ring_fence(struct card *c, uint32_t seqno, uint32_t flags)
{
    ring_put(c, VX_PKT_HDR(VX_PKT_FENCE, VX_FENCE_NDW));
    ring_put(c, seqno);
    ring_put(c, flags);
}

struct launch {
    uint32_t entry, arg;
    uint32_t grid[3], block[3];
    uint32_t stack_base, stack_size, flags, rsvd;
};

static inline void ring_launch(struct card *c, const struct launch *l)
{
    ring_put(c, VX_PKT_HDR(VX_PKT_LAUNCH, VX_LAUNCH_NDW));
    ring_put(c, l->entry);
    ring_put(c, l->arg);
    for (int i = 0; i < 3; i++) {
        ring_put(c, l->grid[i]);
    }
    for (int i = 0; i < 3; i++) {
        ring_put(c, l->block[i]);
    }
    ring_put(c, l->stack_base);
    ring_put(c, l->stack_size);
    ring_put(c, l->flags);
    ring_put(c, l->rsvd);
}

/* The common case: @blocks blocks of @threads threads at CODE_OFF. */
static inline void ring_launch_simple(struct card *c, uint32_t blocks,
                                      uint32_t threads)
{
    struct launch l = {
        .entry = DEV(CODE_OFF), .arg = DEV(DATA_OFF),
        .grid = { blocks, 1, 1 }, .block = { threads, 1, 1 },
    };

    ring_launch(c, &l);
}

/* ------------------------------------------------------- RV32 encoder */

#define CSR_DSCRATCH0       VX_CSR_DSCRATCH(0)

/* Copy @n words to VRAM at @off; returns the device address. */
static inline uint32_t put_code(struct card *c, uint32_t off,
                                const uint32_t *insns, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        vram32_set(c, off + 4 * i, insns[i]);
    }
    return DEV(off);
}

#define PUT_CODE(c, ...) do { \
        const uint32_t prog_[] = { __VA_ARGS__ }; \
        put_code(c, CODE_OFF, prog_, sizeof(prog_) / sizeof(prog_[0])); \
    } while (0)

#endif /* UNCORE_UTIL_H */
