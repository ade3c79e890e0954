/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: public interface.
 *
 * Plain C, no QEMU headers.  The QEMU PCI wrapper (vortex-pci.c), the host
 * unit tests and host tools all drive the card through this API: BAR0
 * register accesses, a run loop that executes a budget of warp
 * instructions, and three callbacks back into the embedder.  VRAM is a
 * flat byte array owned by the embedder; the simulator reads and writes it
 * directly (device address VX_VRAM_DEVADDR + offset).
 *
 * The simulator is not thread safe: the embedder serialises every call.
 */
#ifndef VX_SIM_H
#define VX_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vx_sim;

/** Topology and memory of one card. */
struct vx_sim_config {
    uint32_t clusters;      /* 1..127 */
    uint32_t cores;         /* per cluster, 1..511 */
    uint32_t warps;         /* per core, 1..511 */
    uint32_t threads;       /* per warp, power of two 1..128 */
    uint64_t vram_size;     /* power of two, VX_VRAM_MIN_SIZE..VX_VRAM_MAX_SIZE */
};

/** Callbacks into the embedder.  Any may be NULL. */
struct vx_sim_hooks {
    /* Level of (IRQ_STATUS & IRQ_ENABLE) != 0 changed. */
    void (*set_irq)(void *opaque, bool level);
    /* Work became runnable (doorbell, resume, ...): schedule vx_sim_run(). */
    void (*kick)(void *opaque);
    /* A guest mistake the embedder should log (QEMU: LOG_GUEST_ERROR). */
    void (*guest_error)(void *opaque, const char *msg);
};

/*
 * vx_sim_config_check - validate a topology.
 * Returns 0, or -1 with a sentence naming the offending field in @err.
 */
int vx_sim_config_check(const struct vx_sim_config *cfg, char *err, size_t errlen);

/*
 * vx_sim_new - create a card in its power-on state.
 * @vram must stay valid and be cfg->vram_size bytes until vx_sim_free().
 * Returns NULL if @cfg is invalid or memory is short.
 */
struct vx_sim *vx_sim_new(const struct vx_sim_config *cfg, uint8_t *vram,
                          const struct vx_sim_hooks *hooks, void *opaque);
void vx_sim_free(struct vx_sim *sim);

/* Power-on reset: everything, the Debug Module included; VRAM untouched. */
void vx_sim_reset(struct vx_sim *sim);

/* BAR0 accesses, 32-bit aligned; @offset < VX_MMIO_SIZE. */
uint32_t vx_sim_mmio_read(struct vx_sim *sim, uint32_t offset);
void vx_sim_mmio_write(struct vx_sim *sim, uint32_t offset, uint32_t value);

/*
 * vx_sim_run - advance the card by at most @budget warp-instruction slots.
 * Returns the number of slots used; 0 means nothing is runnable (idle,
 * everything halted, or stopped on an error) until the next register write.
 */
uint64_t vx_sim_run(struct vx_sim *sim, uint64_t budget);

/* True if vx_sim_run() would make progress. */
bool vx_sim_runnable(const struct vx_sim *sim);

#endif /* VX_SIM_H */
