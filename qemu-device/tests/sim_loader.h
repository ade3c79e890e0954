/* SPDX-License-Identifier: MIT */
/*
 * Host-side helpers for simulator tests: a card with its own VRAM, ELF
 * loading, symbol lookup, starting warps and running to completion.
 */
#ifndef SIM_LOADER_H
#define SIM_LOADER_H

#include <stdint.h>
#include "vx_sim_internal.h"

struct vx_card {
    struct vx_sim *sim;
    uint8_t *vram;
    struct vx_sim_config cfg;
    char *elf;          /* file contents of the loaded program */
    size_t elf_size;
    uint32_t entry;
    uint32_t satp;      /* vx_card_launch()'s VX_LAUNCH_SATP, 0 by default */
};

/* A card of @cores x @warps x @threads, one cluster, 16 MiB of VRAM. */
struct vx_card *vx_card_new(uint32_t cores, uint32_t warps, uint32_t threads);
void vx_card_free(struct vx_card *c);

/* Copy the PT_LOAD segments of @path into VRAM.  0 or -1. */
int vx_card_load(struct vx_card *c, const char *path);
/* Device address of symbol @name of the loaded program, 0 if absent. */
uint32_t vx_card_sym(const struct vx_card *c, const char *name);

/* "$VX_TEST_RV_DIR/name.sim.elf" etc. into a static buffer. */
const char *vx_test_path(const char *name, const char *suffix);

/* Start global warp @gid at @pc with lanes @mask (bits 0..31). */
void vx_card_start(struct vx_card *c, uint32_t gid, uint32_t pc, uint32_t mask);
/* Run until nothing is runnable or @max slots are used; returns slots. */
uint64_t vx_card_run(struct vx_card *c, uint64_t max);

/*
 * Enable a ring at the top of VRAM, then queue LAUNCH (in the address
 * space c->satp names) and ring the bell.
 */
void vx_card_launch(struct vx_card *c, uint32_t entry, uint32_t arg,
                    const uint32_t grid[3], const uint32_t block[3],
                    uint32_t stack_base, uint32_t stack_size);

uint32_t vx_card_rd32(const struct vx_card *c, uint32_t devaddr);
void vx_card_wr32(struct vx_card *c, uint32_t devaddr, uint32_t v);
uint32_t vx_card_reg(struct vx_card *c, uint32_t offset);

#endif /* SIM_LOADER_H */
