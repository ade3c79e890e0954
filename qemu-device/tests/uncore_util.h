/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the uncore host tests (test_regs, test_cp, test_dm): a card
 * with recording hooks and the ring writer of testlib/vx_card_io.h over
 * the simulator's MMIO, so device programs are a few hand-assembled words
 * (testlib/vx_asm.h) in VRAM.  The guest's vortex_bar_test drives the real
 * card through the same ring and Debug Module code.
 */
#ifndef UNCORE_UTIL_H
#define UNCORE_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "vx_card_io.h"
#include "vx_sim_internal.h"
#include "vx_sv32.h"

#define TEST_VRAM_SIZE  VX_VRAM_MIN_SIZE
#define DEV(off)        VX_DEV(off)

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
    struct vx_card_io io;
    union {                     /* test_cp.c moves the tail by hand */
        struct vx_ring ring;
        struct {
            uint32_t ring_off, ring_size;
            uint32_t tail;      /* where the next ring dword goes */
        };
    };
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

static uint32_t card_io_rd(void *opaque, uint32_t off)
{
    return vx_sim_mmio_read(((struct card *)opaque)->sim, off);
}

static void card_io_wr(void *opaque, uint32_t off, uint32_t v)
{
    vx_sim_mmio_write(((struct card *)opaque)->sim, off, v);
}

static void card_io_vram_wr(void *opaque, uint32_t off, uint32_t v)
{
    memcpy(((struct card *)opaque)->vram + off, &v, 4);
}

/* A card of @cfg (VRAM of cfg->vram_size bytes, calloc'd: pages it never touches cost nothing). */
static inline int card_open_cfg(struct card *c, const struct vx_sim_config *cfg)
{
    struct vx_sim_config k = *cfg;

    memset(c, 0, sizeof(*c));
    /* the harness runs each suite once per executor VX_SIM_EXEC names */
    if (!k.exec && vx_sim_exec_parse(getenv("VX_SIM_EXEC"), &k.exec,
                                     c->last_error, sizeof(c->last_error))) {
        return -1;
    }
    c->io = (struct vx_card_io){
        .rd = card_io_rd, .wr = card_io_wr, .vram_wr = card_io_vram_wr,
        .opaque = c,
    };
    c->vram = calloc(1, k.vram_size);
    if (!c->vram) {
        return -1;
    }
    c->sim = vx_sim_new(&k, c->vram, &card_hooks, c);
    return c->sim ? 0 : -1;
}

static inline int card_open(struct card *c, uint32_t clusters, uint32_t cores,
                            uint32_t warps, uint32_t threads)
{
    struct vx_sim_config cfg = {
        .clusters = clusters, .cores = cores, .warps = warps,
        .threads = threads, .vram_size = TEST_VRAM_SIZE,
    };

    return card_open_cfg(c, &cfg);
}

static inline void card_close(struct card *c)
{
    vx_sim_free(c->sim);
    free(c->vram);
}

static inline uint32_t rd(struct card *c, uint32_t off)
{
    return vx_rd(&c->io, off);
}

static inline void wr(struct card *c, uint32_t off, uint32_t v)
{
    vx_wr(&c->io, off, v);
}

static inline uint32_t dm_rd(struct card *c, uint32_t reg)
{
    return vx_dm_rd(&c->io, reg);
}

static inline void dm_wr(struct card *c, uint32_t reg, uint32_t v)
{
    vx_dm_wr(&c->io, reg, v);
}

static inline uint32_t vram32(struct card *c, uint32_t off)
{
    uint32_t v;

    memcpy(&v, c->vram + off, 4);
    return v;
}

static inline void vram32_set(struct card *c, uint32_t off, uint32_t v)
{
    card_io_vram_wr(c, off, v);
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
    vx_ring_setup(&c->io, &c->ring, RING_OFF, size);
}

static inline void ring_put(struct card *c, uint32_t dw)
{
    vx_ring_put(&c->io, &c->ring, dw);
}

static inline void ring_kick(struct card *c)
{
    vx_ring_kick(&c->io, &c->ring);
}

static inline void ring_fence(struct card *c, uint32_t seqno, uint32_t flags)
{
    vx_ring_fence(&c->io, &c->ring, seqno, flags);
}

/* A LAUNCH packet's payload by field name. */
struct launch {
    uint32_t entry, arg;
    uint32_t grid[3], block[3];
    uint32_t stack_base, stack_size, flags, rsvd;
};

static inline void ring_launch(struct card *c, const struct launch *l)
{
    const uint32_t p[VX_LAUNCH_NDW] = {
        [VX_LAUNCH_ENTRY] = l->entry, [VX_LAUNCH_ARG] = l->arg,
        [VX_LAUNCH_GRID_X] = l->grid[0], [VX_LAUNCH_GRID_Y] = l->grid[1],
        [VX_LAUNCH_GRID_Z] = l->grid[2],
        [VX_LAUNCH_BLOCK_X] = l->block[0], [VX_LAUNCH_BLOCK_Y] = l->block[1],
        [VX_LAUNCH_BLOCK_Z] = l->block[2],
        [VX_LAUNCH_STACK_BASE] = l->stack_base,
        [VX_LAUNCH_STACK_SIZE] = l->stack_size,
        [VX_LAUNCH_FLAGS] = l->flags, [VX_LAUNCH_RSVD] = l->rsvd,
    };

    vx_ring_launch(&c->io, &c->ring, p);
}

/* The common case: @blocks blocks of @threads threads at CODE_OFF. */
static inline void ring_launch_simple(struct card *c, uint32_t blocks,
                                      uint32_t threads)
{
    vx_ring_launch_1d(&c->io, &c->ring, DEV(CODE_OFF), DEV(DATA_OFF), blocks,
                      threads);
}

/* ------------------------------------------------- Sv32 page tables */

static inline uint32_t card_pt_rd(void *opaque, uint32_t off)
{
    return vram32(opaque, off);
}

static inline void card_pt_wr(void *opaque, uint32_t off, uint32_t v)
{
    vram32_set(opaque, off, v);
}

/* Tables in @c's VRAM: an empty root at @root, level-0 ones from @pool. */
static inline void card_pt_init(struct card *c, struct vx_sv32 *pt,
                                uint32_t root, uint32_t pool)
{
    *pt = (struct vx_sv32){ .rd = card_pt_rd, .wr = card_pt_wr, .opaque = c };
    vx_sv32_init(pt, root, pool);
}

/* ------------------------------------------------------- RV32 encoder */

#define CSR_DSCRATCH0       VX_CSR_DSCRATCH(0)

/* Copy @n words to VRAM at @off; returns the device address. */
static inline uint32_t put_code(struct card *c, uint32_t off,
                                const uint32_t *insns, size_t n)
{
    return vx_put_code(&c->io, off, insns, n);
}

#define PUT_CODE(c, ...) do { \
        const uint32_t prog_[] = { __VA_ARGS__ }; \
        put_code(c, CODE_OFF, prog_, sizeof(prog_) / sizeof(prog_[0])); \
    } while (0)

#endif /* UNCORE_UTIL_H */
