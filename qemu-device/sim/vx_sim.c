/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: lifecycle, BAR0 register file, interrupts, reset
 * and fault capture.
 *
 * This file owns the "glue" registers of the card (identification, reset,
 * status, interrupt and error capture) and routes the ring registers to the
 * command processor (vx_cp.c) and the 0x1000+ window to the Debug Module
 * (vx_dm.c), the TLB registers to vx_mmu.c, the console's to vx_cons.c.  Per-lane register files are carved out of one allocation per
 * kind so that a large topology costs address space, not memory: calloc()
 * hands back lazily zeroed pages and only warps that run touch theirs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vx_jit.h"
#include "vx_sim_internal.h"

#define VX_MAX_CLUSTERS     127
#define VX_MAX_CORES        511
#define VX_MAX_WARPS        511
#define VX_MAX_THREADS      128

static bool is_pow2_u64(uint64_t v)
{
    return v && !(v & (v - 1));
}

static int __attribute__((format(printf, 3, 4)))
config_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err && errlen) {
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ------------------------------------------------------------ executors */

static const char *const exec_names[] = {
    [VX_SIM_EXEC_BEST] = "best",
    [VX_SIM_EXEC_REF] = "ref",
    [VX_SIM_EXEC_BURST] = "burst",
    [VX_SIM_EXEC_AVX2] = "avx2",
    [VX_SIM_EXEC_JIT] = "jit",
};

bool vx_sim_exec_available(enum vx_sim_exec exec)
{
    switch (exec) {
    case VX_SIM_EXEC_BEST:
    case VX_SIM_EXEC_REF:
    case VX_SIM_EXEC_BURST:
        return true;
    case VX_SIM_EXEC_AVX2:
        return vx_exec_has_avx2();
    case VX_SIM_EXEC_JIT:
        return vx_jit_available();
    }
    return false;
}

/*
 * The fastest this host runs: jit (sim_bench: every figure above avx2's,
 * docs/hardware.md), else avx2, else burst.
 */
enum vx_sim_exec vx_sim_exec_best(void)
{
    if (vx_sim_exec_available(VX_SIM_EXEC_JIT)) {
        return VX_SIM_EXEC_JIT;
    }
    return vx_exec_has_avx2() ? VX_SIM_EXEC_AVX2 : VX_SIM_EXEC_BURST;
}

const char *vx_sim_exec_name(enum vx_sim_exec exec)
{
    return exec <= VX_SIM_EXEC_JIT ? exec_names[exec] : "?";
}

int vx_sim_set_exec(struct vx_sim *sim, enum vx_sim_exec exec)
{
    if (!vx_sim_exec_available(exec)) {
        return -1;
    }
    if (exec == VX_SIM_EXEC_BEST) {
        exec = vx_sim_exec_best();
    }
    sim->exec = exec;
    return 0;
}

enum vx_sim_exec vx_sim_get_exec(const struct vx_sim *sim)
{
    return sim->exec;
}

int vx_sim_exec_parse(const char *name, enum vx_sim_exec *exec, char *err,
                      size_t errlen)
{
    *exec = VX_SIM_EXEC_BEST;
    if (!name || !*name) {
        return 0;
    }
    for (enum vx_sim_exec e = 0; e <= VX_SIM_EXEC_JIT; e++) {
        if (strcmp(name, exec_names[e]) != 0) {
            continue;
        }
        if (!vx_sim_exec_available(e)) {
            return config_fail(err, errlen, "executor %s: this host cannot "
                               "run it", name);
        }
        *exec = e;
        return 0;
    }
    return config_fail(err, errlen, "executor %s is not one of best, ref, "
                       "burst, avx2, jit", name);
}

int vx_sim_config_check(const struct vx_sim_config *cfg, char *err,
                        size_t errlen)
{
    uint64_t total;

    if (cfg->clusters < 1 || cfg->clusters > VX_MAX_CLUSTERS) {
        return config_fail(err, errlen, "clusters must be 1..%d, not %u",
                           VX_MAX_CLUSTERS, cfg->clusters);
    }
    if (cfg->cores < 1 || cfg->cores > VX_MAX_CORES) {
        return config_fail(err, errlen, "cores must be 1..%d, not %u",
                           VX_MAX_CORES, cfg->cores);
    }
    if (cfg->warps < 1 || cfg->warps > VX_MAX_WARPS) {
        return config_fail(err, errlen, "warps must be 1..%d, not %u",
                           VX_MAX_WARPS, cfg->warps);
    }
    if (cfg->threads > VX_MAX_THREADS || !is_pow2_u64(cfg->threads)) {
        return config_fail(err, errlen,
                           "threads must be a power of two 1..%d, not %u",
                           VX_MAX_THREADS, cfg->threads);
    }
    if (cfg->doorbell_budget > VX_SIM_DOORBELL_BUDGET_MAX) {
        return config_fail(err, errlen, "doorbell budget must be at most %d "
                           "warp instructions, not %u",
                           VX_SIM_DOORBELL_BUDGET_MAX, cfg->doorbell_budget);
    }
    total = (uint64_t)cfg->clusters * cfg->cores * cfg->warps;
    if (total > VX_DM_MAX_WARPS) {
        return config_fail(err, errlen,
                           "clusters * cores * warps must be at most %d, "
                           "not %llu", VX_DM_MAX_WARPS,
                           (unsigned long long)total);
    }
    if (!is_pow2_u64(cfg->vram_size) || cfg->vram_size < VX_VRAM_MIN_SIZE ||
        cfg->vram_size > VX_VRAM_MAX_SIZE) {
        return config_fail(err, errlen,
                           "vram must be a power of two between %u MiB and "
                           "%u MiB, not %llu bytes", VX_VRAM_MIN_SIZE >> 20,
                           VX_VRAM_MAX_SIZE >> 20,
                           (unsigned long long)cfg->vram_size);
    }
    if ((unsigned)cfg->exec > VX_SIM_EXEC_JIT ||
        !vx_sim_exec_available(cfg->exec)) {
        return config_fail(err, errlen, "executor %s: this host cannot "
                           "run it", vx_sim_exec_name(cfg->exec));
    }
    return 0;
}

/* ------------------------------------------------------------ lifecycle */

/*
 * The per-lane arrays of every warp, one allocation each; warp i owns the
 * slice [i * per_warp, (i + 1) * per_warp).
 */
static void free_lane_state(struct vx_sim *sim)
{
    if (!sim->warps) {
        return;
    }
    free(sim->warps[0].x);
    free(sim->warps[0].f);
    free(sim->warps[0].dscratch);
}

static int alloc_lane_state(struct vx_sim *sim)
{
    size_t t = sim->cfg.threads, n = sim->nwarps;
    uint32_t *x = calloc(n * 32 * t, sizeof(uint32_t));
    uint32_t *f = calloc(n * 32 * t, sizeof(uint32_t));
    uint32_t *dscratch = calloc(n * 4 * t, sizeof(uint32_t));

    if (!x || !f || !dscratch) {
        free(x);
        free(f);
        free(dscratch);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        struct vx_warp *w = &sim->warps[i];

        w->x = x + i * 32 * t;
        w->f = f + i * 32 * t;
        w->dscratch = dscratch + i * 4 * t;
    }
    return 0;
}

/* Zeroed and as aligned as struct vx_warp says, which calloc() is not. */
static struct vx_warp *alloc_warps(size_t n)
{
    void *p;

    if (posix_memalign(&p, VX_CACHE_LINE, n * sizeof(struct vx_warp))) {
        return NULL;
    }
    return memset(p, 0, n * sizeof(struct vx_warp));
}

static void init_topology(struct vx_sim *sim)
{
    for (uint32_t c = 0; c < sim->ncores; c++) {
        sim->cores[c].id = c;
    }
    for (uint32_t g = 0; g < sim->nwarps; g++) {
        struct vx_warp *w = &sim->warps[g];

        w->gid = g;
        w->core = g / sim->cfg.warps;
        w->lwid = g % sim->cfg.warps;
        w->block_slot = -1;
    }
}

struct vx_sim *vx_sim_new(const struct vx_sim_config *cfg, uint8_t *vram,
                          const struct vx_sim_hooks *hooks, void *opaque)
{
    struct vx_sim *sim;
    size_t mask_words;

    if (!cfg || !vram || vx_sim_config_check(cfg, NULL, 0) < 0) {
        return NULL;
    }
    sim = calloc(1, sizeof(*sim));
    if (!sim) {
        return NULL;
    }
    sim->cfg = *cfg;
    sim->ncores = cfg->clusters * cfg->cores;
    sim->nwarps = sim->ncores * cfg->warps;
    sim->tlog2 = __builtin_ctz(cfg->threads);
    sim->vram = vram;
    sim->hooks = hooks;
    sim->opaque = opaque;

    mask_words = (sim->nwarps + 31) / 32;
    sim->cores = calloc(sim->ncores, sizeof(*sim->cores));
    sim->warps = alloc_warps(sim->nwarps);
    sim->cp.blocks = calloc(sim->nwarps, sizeof(*sim->cp.blocks));
    sim->dm.wmask = calloc(mask_words, sizeof(uint32_t));
    sim->dm.resethalt = calloc(mask_words, sizeof(uint32_t));
    sim->lmem = calloc(sim->ncores, VX_LMEM_SIZE);
    /* VRAM below local memory: a 2 GiB one reaches it (vx_sim.vram_flat) */
    sim->vram_flat = cfg->vram_size < VX_VRAM_MAX_SIZE ? cfg->vram_size
                                                       : VX_VRAM_MAX_SIZE / 2;
    if (!sim->cores || !sim->warps || !sim->cp.blocks || !sim->dm.wmask ||
        !sim->dm.resethalt || !sim->lmem || alloc_lane_state(sim) < 0) {
        free(sim->warps);
        sim->warps = NULL;
        vx_sim_free(sim);
        return NULL;
    }
    init_topology(sim);
    vx_sim_set_exec(sim, cfg->exec);    /* vx_sim_config_check() passed */
    vx_sim_reset(sim);
    return sim;
}

void vx_sim_free(struct vx_sim *sim)
{
    if (!sim) {
        return;
    }
    vx_jit_free(sim);
    vx_park_fini(sim);
    free_lane_state(sim);
    free(sim->warps);
    free(sim->cores);
    free(sim->cp.blocks);
    free(sim->dm.wmask);
    free(sim->dm.resethalt);
    free(sim->lmem);
    free(sim);
}

void vx_sim_reset(struct vx_sim *sim)
{
    /* The DM first, so no reset-halt latch survives into the core reset. */
    vx_dm_reset(sim);
    vx_sim_core_reset(sim);
    sim->clock = 0;
    sim->clock_hi_latch = 0;
    vx_park_wake(sim);
}

/* ------------------------------------------------------------ interrupts */

static void irq_update(struct vx_sim *sim)
{
    bool level = (sim->irq_status & sim->irq_enable) != 0;

    if (level == sim->irq_level) {
        return;
    }
    sim->irq_level = level;
    if (sim->hooks && sim->hooks->set_irq) {
        sim->hooks->set_irq(sim->opaque, level);
    }
}

void vx_sim_irq_raise(struct vx_sim *sim, uint32_t cause)
{
    sim->irq_status |= cause & VX_IRQ_ALL;
    irq_update(sim);
}

/* ---------------------------------------------------------- errors, reset */

void vx_sim_fault(struct vx_sim *sim, struct vx_warp *w,
                  const struct vx_fault *f)
{
    int lane = vx_tmask_first(&f->lanes);

    /* The capture is written once: the first error is the one to debug. */
    if (sim->error) {
        return;
    }
    sim->error = true;
    sim->err_cause = f->cause;
    sim->err_warp = w ? w->gid : 0;
    sim->err_thread = lane < 0 ? 0 : (uint32_t)lane;
    sim->err_pc = f->pc;
    sim->err_addr = f->addr;
    memcpy(sim->err_tmask, f->lanes.w, sizeof(sim->err_tmask));
    memcpy(sim->err_info, f->info, sizeof(sim->err_info));
    sim->err_pkt = sim->cp.pkt_offset;
    vx_sim_irq_raise(sim, VX_IRQ_ERROR);
}

void vx_sim_cp_error(struct vx_sim *sim, uint32_t cause, uint32_t pkt_offset)
{
    if (sim->error) {
        return;
    }
    sim->error = true;
    sim->err_cause = cause;
    sim->err_pkt = pkt_offset;
    vx_sim_irq_raise(sim, VX_IRQ_ERROR);
}

/* vx_warp_stop() drops the context; a reset also forgets the launch. */
static void reset_warp(struct vx_sim *sim, struct vx_warp *w)
{
    vx_warp_stop(sim, w);
    w->resethalt_armed = false;
    w->pc = 0;
    vx_warp_forget_launch(sim, w);
}

/*
 * RESET register and DCTRL.ndmreset.  The clock keeps counting (it is the
 * time base ndmreset itself is measured in) and the DM keeps its registers
 * and every thread's dscratch, so an attached debugger survives.
 */
void vx_sim_core_reset(struct vx_sim *sim)
{
    for (uint32_t g = 0; g < sim->nwarps; g++) {
        reset_warp(sim, &sim->warps[g]);
    }
    vx_simt_reset(sim);
    sim->run_cursor = 0;

    vx_cp_reset(sim);
    sim->ring_base = 0;
    sim->ring_size = 0;
    sim->ring_head = 0;
    sim->ring_tail = 0;
    sim->ring_ctrl = 0;
    sim->fence_seqno = 0;
    sim->fence_wb = 0;

    sim->error = false;
    sim->err_cause = 0;
    sim->err_warp = 0;
    sim->err_thread = 0;
    sim->err_pc = 0;
    sim->err_addr = 0;
    sim->err_pkt = 0;
    memset(sim->err_tmask, 0, sizeof(sim->err_tmask));
    memset(sim->err_info, 0, sizeof(sim->err_info));

    sim->irq_status = 0;
    sim->irq_enable = 0;
    irq_update(sim);

    vx_mmu_reset(sim);
    vx_exec_reset(sim);
    vx_lmem_launch(sim);
    vx_cons_reset(sim);
    vx_dm_on_reset(sim);
}

void vx_sim_guest_error(struct vx_sim *sim, const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    if (!sim->hooks || !sim->hooks->guest_error) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    sim->hooks->guest_error(sim->opaque, msg);
}

/* ----------------------------------------------------------------- BAR0 */

static uint32_t status_read(struct vx_sim *sim)
{
    uint32_t v = 0;

    if (vx_cp_pending(sim)) {
        v |= VX_STATUS_CP_BUSY;
    }
    if (sim->error) {
        v |= VX_STATUS_ERROR;
    }
    for (uint32_t g = 0; g < sim->nwarps; g++) {
        if (sim->warps[g].active) {
            v |= VX_STATUS_WARPS_ACTIVE;
        }
        if (sim->warps[g].halted) {
            v |= VX_STATUS_HALTED;
        }
    }
    return v;
}

static bool is_ring_reg(uint32_t offset)
{
    return offset >= VX_REG_RING_BASE && offset <= VX_REG_FENCE_WB;
}

/* ERR_CAUSE..ERR_PKT; returns false if @offset is not one of them. */
static bool err_read(struct vx_sim *sim, uint32_t offset, uint32_t *v)
{
    switch (offset) {
    case VX_REG_ERR_CAUSE:
        *v = sim->err_cause;
        return true;
    case VX_REG_ERR_WARP:
        *v = sim->err_warp;
        return true;
    case VX_REG_ERR_THREAD:
        *v = sim->err_thread;
        return true;
    case VX_REG_ERR_PC:
        *v = sim->err_pc;
        return true;
    case VX_REG_ERR_ADDR:
        *v = sim->err_addr;
        return true;
    case VX_REG_ERR_PKT:
        *v = sim->err_pkt;
        return true;
    }
    if (offset >= VX_REG_ERR_TMASK(0) && offset <= VX_REG_ERR_TMASK(3)) {
        *v = sim->err_tmask[(offset - VX_REG_ERR_TMASK(0)) / 4];
        return true;
    }
    if (offset >= VX_REG_ERR_INFO(0) && offset <= VX_REG_ERR_INFO(3)) {
        *v = sim->err_info[(offset - VX_REG_ERR_INFO(0)) / 4];
        return true;
    }
    return false;
}

static bool is_dm_reg(uint32_t offset)
{
    return offset >= VX_DM_BASE && offset < VX_DM_REG(VX_DM_NREGS);
}

uint32_t vx_sim_mmio_read(struct vx_sim *sim, uint32_t offset)
{
    uint32_t v = 0;

    if ((offset & 3) || offset >= VX_MMIO_SIZE) {
        vx_sim_guest_error(sim, "vortex: bad BAR0 read offset 0x%x", offset);
        return 0;
    }
    if (is_ring_reg(offset)) {
        return vx_cp_read(sim, offset);
    }
    if (is_dm_reg(offset)) {
        return vx_dm_read(sim, (offset - VX_DM_BASE) / 4);
    }
    if (err_read(sim, offset, &v) || vx_mmu_reg_read(sim, offset, &v) ||
        vx_cons_reg_read(sim, offset, &v)) {
        return v;
    }
    switch (offset) {
    case VX_REG_ID:
        return VX_ID_MAGIC;
    case VX_REG_VERSION:
        return VX_VERSION_CURRENT;
    case VX_REG_CAPS:
        return VX_CAPS_DM | VX_CAPS_RING | VX_CAPS_FPU | VX_CAPS_MMU |
               VX_CAPS_CONSOLE | VX_CAPS_LMEM | VX_CAPS_FENCE_WB |
               (sim->cfg.fast_doorbell ? VX_CAPS_FAST_DOORBELL : 0);
    case VX_REG_VRAM_SIZE_LO:
        return (uint32_t)sim->cfg.vram_size;
    case VX_REG_VRAM_SIZE_HI:
        return (uint32_t)(sim->cfg.vram_size >> 32);
    case VX_REG_VRAM_DEVADDR:
        return VX_VRAM_DEVADDR;
    case VX_REG_LMEM_SIZE:
        return VX_LMEM_SIZE;
    case VX_REG_RESET:
        return 0;   /* write-only */
    case VX_REG_STATUS:
        return status_read(sim);
    case VX_REG_IRQ_STATUS:
        return sim->irq_status;
    case VX_REG_IRQ_ENABLE:
        return sim->irq_enable;
    case VX_REG_CLOCK_LO:
        /* Latch HI so a LO-then-HI pair reads one consistent 64-bit value. */
        sim->clock_hi_latch = (uint32_t)(sim->clock >> 32);
        return (uint32_t)sim->clock;
    case VX_REG_CLOCK_HI:
        return sim->clock_hi_latch;
    }
    vx_sim_guest_error(sim, "vortex: read of unknown register 0x%x", offset);
    return 0;
}

static void reset_write(struct vx_sim *sim, uint32_t value)
{
    if (value != VX_RESET_KEY) {
        vx_sim_guest_error(sim, "vortex: RESET written with 0x%x, not the key",
                           value);
        return;
    }
    vx_sim_core_reset(sim);
}

void vx_sim_mmio_write(struct vx_sim *sim, uint32_t offset, uint32_t value)
{
    if ((offset & 3) || offset >= VX_MMIO_SIZE) {
        vx_sim_guest_error(sim, "vortex: bad BAR0 write offset 0x%x", offset);
        return;
    }
    /* whatever it is, it may be what the spinning warps wait for */
    vx_park_wake(sim);
    if (is_ring_reg(offset)) {
        vx_cp_write(sim, offset, value);
        return;
    }
    if (is_dm_reg(offset)) {
        vx_dm_write(sim, (offset - VX_DM_BASE) / 4, value);
        return;
    }
    if (vx_mmu_reg_write(sim, offset, value) ||
        vx_cons_reg_write(sim, offset, value)) {
        return;
    }
    switch (offset) {
    case VX_REG_RESET:
        reset_write(sim, value);
        return;
    case VX_REG_IRQ_STATUS:
        sim->irq_status &= ~value;
        irq_update(sim);
        return;
    case VX_REG_IRQ_ENABLE:
        if (value & ~VX_IRQ_ALL) {
            vx_sim_guest_error(sim, "vortex: IRQ_ENABLE reserved bits 0x%x",
                               value & ~VX_IRQ_ALL);
        }
        sim->irq_enable = value & VX_IRQ_ALL;
        irq_update(sim);
        return;
    }
    vx_sim_guest_error(sim, "vortex: write 0x%x to read-only or unknown "
                       "register 0x%x ignored", value, offset);
}
