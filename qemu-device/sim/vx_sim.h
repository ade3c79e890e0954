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

/*
 * Executors: how vx_sim_run() executes warp instructions.  They give the
 * same results, which the host tests check by running every suite on
 * each; they differ in speed and in how much code stands between an
 * instruction and its effect.  A card starts with the one its config's
 * exec names (the QEMU device's exec property; the host tests and tools
 * parse VX_SIM_EXEC into it with vx_sim_exec_parse()); one this host
 * cannot run makes vx_sim_config_check() and vx_sim_new() fail.
 */
enum vx_sim_exec {
    VX_SIM_EXEC_BEST,   /* the fastest available: jit, else avx2, else burst */
    VX_SIM_EXEC_REF,    /* reference interpreter: one instruction at a time */
    VX_SIM_EXEC_BURST,  /* decoded-instruction cache, bursts, 4-lane vectors */
    VX_SIM_EXEC_AVX2,   /* the burst executor compiled for AVX2 (x86-64) */
    VX_SIM_EXEC_JIT,    /* blocks translated to x86-64 AVX2 code (vx_jit_*.c) */
};


/** Topology and memory of one card. */
struct vx_sim_config {
    uint32_t clusters;      /* 1..127 */
    uint32_t cores;         /* per cluster, 1..511 */
    uint32_t warps;         /* per core, 1..511 */
    uint32_t threads;       /* per warp, power of two 1..128 */
    uint64_t vram_size;     /* power of two, VX_VRAM_MIN_SIZE..VX_VRAM_MAX_SIZE */
    /*
     * CAPS.FAST_DOORBELL: DOORBELL carries the new TAIL, and a DOORBELL
     * that finds the card idle runs it for doorbell_budget warp
     * instructions (0..VX_SIM_DOORBELL_BUDGET_MAX, 0 = none) before the
     * write returns; a FENCE executed then raises no interrupt.  Off (a
     * zeroed config) is the original model: DOORBELL only samples TAIL.
     */
    bool fast_doorbell;
    uint32_t doorbell_budget;
    /* The executor (a zeroed config: VX_SIM_EXEC_BEST, the default). */
    enum vx_sim_exec exec;
    /*
     * A conditional branch whose active lanes disagree (outside
     * split/join): off (a zeroed config, the default) it stops the card
     * with DIVERGENT_BRANCH, as upstream's simulator aborts; on, it
     * follows the highest active lane without a word, as upstream's RTL
     * does (docs/hardware.md, "Cores"), for runs that must match the RTL.
     */
    bool rtl_branch;
    /*
     * The translator keeps to AVX2 although the host has AVX-512F/VL
     * (off, a zeroed config, it uses them when the host has them): the
     * card of an AVX2-only host, measured on any x86-64 one (make bench
     * with VX_DEVICE_PROPS=avx512=off).
     */
    bool no_avx512;
};

/* Some 5 us of host time with 8-lane warps; the QEMU device's default. */
#define VX_SIM_DOORBELL_BUDGET_DEFAULT  2048
/* A register write must stay short: it holds up a vCPU. */
#define VX_SIM_DOORBELL_BUDGET_MAX      65536

/** Callbacks into the embedder.  Any may be NULL. */
struct vx_sim_hooks {
    /* Level of (IRQ_STATUS & IRQ_ENABLE) != 0 changed. */
    void (*set_irq)(void *opaque, bool level);
    /*
     * Work became runnable (doorbell, resume, ...): schedule vx_sim_run().
     * A fast DOORBELL that finished everything inline does not kick.
     */
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
 * The card starts with the executor cfg->exec names.
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

/*
 * Parking (docs/hardware.md, "Parking"): a card whose every running warp
 * spins without effect stops running them; vx_sim_run() returns 0 and
 * vx_sim_runnable() is false until a register write, a reset, or a change
 * to a word the spinning warps read.  The simulator does not see VRAM
 * written behind its back (a BAR, a host tool): an embedder that sleeps
 * while parked calls vx_sim_park_poll() every vx_sim_park_poll_ms(),
 * which looks at those words (vx_sim_run() does the same on its own).
 */
bool vx_sim_parked(const struct vx_sim *sim);
/*
 * How long to sleep before the next vx_sim_park_poll(): 1 ms for the
 * first 64 polls of a parked spell, then 2, then 4 from the 192nd, so a
 * spell of seconds wakes the host 250 times a second.
 */
unsigned vx_sim_park_poll_ms(const struct vx_sim *sim);
/* Unpark if a word the spinning warps read changed; false while parked. */
bool vx_sim_park_poll(struct vx_sim *sim);
/* How many times the card parked since it was created. */
uint64_t vx_sim_park_count(const struct vx_sim *sim);

/* Whether this build, on this host, can run @exec. */
bool vx_sim_exec_available(enum vx_sim_exec exec);
/* What VX_SIM_EXEC_BEST is on this host: jit, else avx2, else burst. */
enum vx_sim_exec vx_sim_exec_best(void);
/* "ref", "burst", "avx2", "jit" ("best" for VX_SIM_EXEC_BEST). */
const char *vx_sim_exec_name(enum vx_sim_exec exec);
/*
 * The executor @name names ("best", "ref", "burst", "avx2", "jit"; NULL
 * or "" is "best"): 0, or -1 with a sentence in @err if it names none or
 * one this host cannot run.  The embedders' parser: the QEMU device's
 * exec property, VX_SIM_EXEC in the host tests and tools.
 */
int vx_sim_exec_parse(const char *name, enum vx_sim_exec *exec, char *err,
                      size_t errlen);
/* Switch executors between vx_sim_run() calls: 0, or -1 if unavailable. */
int vx_sim_set_exec(struct vx_sim *sim, enum vx_sim_exec exec);
/* The executor in use (never VX_SIM_EXEC_BEST). */
enum vx_sim_exec vx_sim_get_exec(const struct vx_sim *sim);

#endif /* VX_SIM_H */
