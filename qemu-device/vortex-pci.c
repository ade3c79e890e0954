/*
 * Vortex GPGPU PCI device
 *
 * A thin QEMU wrapper around the plain-C card simulator in sim/: BAR0 is
 * the simulator's register file, BAR2 is guest RAM whose host pointer is
 * the simulator's VRAM, and one MSI vector (INTx when MSI is off) carries
 * IRQ_STATUS & IRQ_ENABLE.  docs/hardware.md is the programming model.
 *
 * Kernels run on a dedicated thread, in slices, so that neither a vCPU
 * nor the main loop ever executes device code for long (a vCPU at most
 * the fast doorbell's small budget, below): register accesses and the run
 * thread serialise on the simulator mutex, which the thread drops between
 * slices.
 *
 * Launch latency is dominated by thread hand-offs, not by the simulator
 * (an empty kernel runs in well under a microsecond), so the fast doorbell
 * (docs/hardware.md, "fast-doorbell" and "doorbell-budget") avoids them
 * altogether for short jobs: a DOORBELL write that finds the card idle
 * runs it on the vCPU thread for a budget of warp instructions, within
 * the simulator (vx_sim_config.doorbell_budget), so the job's FENCE is in
 * FENCE_SEQNO when the write returns and needs no interrupt.  Nothing
 * runs on the run thread meanwhile, as the write holds the simulator
 * mutex throughout; only work left over kicks the thread, so a doorbell
 * handled whole leaves the thread asleep and its polling statistics
 * untouched.
 *
 * For what is left to it, the run thread polls for the next doorbell for
 * a short while when a job ends before it goes to sleep, as a driver that
 * submits back to back rings again soon.  Like QEMU's adaptive AioContext
 * polling, the window grows while doorbells come within "poll-us" of the
 * card going idle, and shrinks (down to not polling at all) when they do
 * not, so an idle card or a busy host does not pay for it.
 *
 * Locking.  Two locks, always taken in this order: the BQL, then @lock
 * (the simulator mutex).
 *  - The BQL: register accesses (vCPU threads), config-space writes,
 *    reset, realize and unrealize (hot-unplug included) and the interrupt
 *    bottom half (main loop).  Everything QEMU's core owns is touched
 *    under it only: MSI (msi_notify), INTx (pci_set_irq), the memory
 *    regions, and the bottom half's scheduling state.
 *  - @lock: the simulator (every vx_sim_* call) and the fields marked
 *    "under @lock" below.
 *  - The run thread never takes the BQL, as QEMU's edu device's worker
 *    does not: it holds @lock only, and touches nothing of QEMU's but
 *    the VRAM's host pointer (the simulator's, as the guest's stores
 *    through BAR2 are unsynchronised, as on a real card), qemu_log and
 *    trace events, and the bottom half, which it schedules (thread-safe,
 *    and it needs no lock).
 * Interrupts.  The simulator reports its level through set_irq with
 * @lock held.  A register access (a fast DOORBELL's inline run included)
 * holds the BQL too and applies the level at once.  On the run thread a
 * rising level counts an edge and schedules @irq_bh, which the main loop
 * runs under the BQL: it sends one MSI per edge counted (or raises the
 * INTx line).  The thread never lowers the level: only an IRQ_STATUS or
 * IRQ_ENABLE write and reset do (sim/vx_sim.c), under the BQL.  The
 * bottom half reads the latest level, so a raise then a clear before it
 * runs sends the MSI for the edge and leaves INTx low.  Short jobs need
 * no interrupt at all (the fast doorbell).
 *
 * Unrealize (also the hot-unplug path) runs under the BQL: it sets
 * @stopping under @lock, kicks the thread and joins it, which cannot
 * deadlock as the thread waits for nothing unrealize holds (the BQL is
 * never its to take, and @lock is dropped before the join); then it
 * deletes the bottom half, which is safe since the BQL keeps the main
 * loop out of it and nobody can schedule it any more.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/thread.h"
#include "qemu/timer.h"
#include "qemu/main-loop.h"
#include "qemu/atomic.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/pci/pci_device.h"
#include "hw/pci/msi.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "hw/resettable.h"
#include "migration/vmstate.h"
#include "qom/object.h"

#include "vortex_regs.h"
#include "vx_sim.h"

#include "trace.h"

#define TYPE_VORTEX_PCI "vortex"
OBJECT_DECLARE_SIMPLE_TYPE(VortexPCIState, VORTEX_PCI)

/* Registers the wrapper itself looks at, for tracing. */
REG32(RESET, VX_REG_RESET)
REG32(DOORBELL, VX_REG_DOORBELL)

/*
 * Lane-instructions per run slice, which bounds how long a register
 * access can wait for the run thread (about a millisecond).  The slice in
 * warp instructions is this divided by the lanes of a warp.
 */
#define VORTEX_SLICE_LANES 16384

/* Polling longer than this only burns host CPU a guest might need. */
#define VORTEX_POLL_US_MAX 1000
/* A poll window that shrinks below this is switched off. */
#define VORTEX_POLL_NS_MIN (4 * SCALE_US)

struct VortexPCIState {
    PCIDevice parent_obj;

    /* properties */
    uint32_t clusters;
    uint32_t cores;
    uint32_t warps;
    uint32_t threads;
    uint64_t vram_size;
    uint32_t poll_us;           /* run thread polls this long before sleeping */
    bool fast_doorbell;         /* CAPS.FAST_DOORBELL: TAIL in DOORBELL ... */
    uint32_t doorbell_budget;   /* ... and this many warp instructions inline */
    char *exec;                 /* executor: best (unset), ref, burst, avx2, jit */
    bool rtl_branch;            /* a divergent branch follows the last lane */
    bool avx512;                /* the translator may use AVX-512F/VL */

    /* guest-visible regions */
    MemoryRegion mmio;
    MemoryRegion vram;

    /* the simulator and its run thread */
    struct vx_sim *sim;         /* every call under @lock */
    QemuMutex lock;             /* serialises the simulator */
    QemuCond work;              /* kick, stop: the thread re-checks */
    QemuThread thread;          /* joinable: unrealize joins it */
    uint64_t slice;             /* warp instructions per vx_sim_run() */
    bool stopping;              /* written under @lock, polled atomically */
    int mmio_waiters;           /* atomic: accesses waiting for @lock */
    unsigned kicks;             /* atomic: doorbells so far, for polling */
    int64_t poll_ns;            /* run thread only: current poll window */
    int64_t kick_ns;            /* under @lock: when the last doorbell came */

    /* interrupt hand-off from the run thread to the BQL */
    QEMUBH *irq_bh;             /* vortex_irq_bh(): under the BQL */
    bool irq_level;             /* atomic: latest level from the simulator */
    unsigned irq_edges;         /* atomic: 0->1 changes not yet signalled */
};

/* ------------------------------------------------------ simulator hooks */

static void vortex_irq_update(VortexPCIState *s);

/*
 * Runs with @lock held.  A register access, a fast DOORBELL's inline run
 * included, holds the BQL too (taken before @lock), so the level is
 * applied at once; the run thread has no BQL and hands a rising level to
 * the main loop (@irq_bh), see the top of this file.
 */
static void vortex_hook_set_irq(void *opaque, bool level)
{
    VortexPCIState *s = opaque;
    bool rise = level && !qatomic_read(&s->irq_level);

    if (rise) {
        qatomic_inc(&s->irq_edges);
    }
    qatomic_set(&s->irq_level, level);
    if (!qemu_thread_is_self(&s->thread)) {
        assert(bql_locked());
        vortex_irq_update(s);
    } else if (rise) {
        qemu_bh_schedule(s->irq_bh);
    }
}

/* Called with @lock held: the waiter re-checks under the same lock. */
static void vortex_hook_kick(void *opaque)
{
    VortexPCIState *s = opaque;

    s->kick_ns = get_clock();
    qatomic_inc(&s->kicks);
    qemu_cond_signal(&s->work);
}

static void vortex_hook_guest_error(void *opaque, const char *msg)
{
    trace_vortex_guest_error(msg);
    qemu_log_mask(LOG_GUEST_ERROR, "%s\n", msg);
}

static const struct vx_sim_hooks vortex_hooks = {
    .set_irq = vortex_hook_set_irq,
    .kick = vortex_hook_kick,
    .guest_error = vortex_hook_guest_error,
};

/*
 * Under the BQL.  Every rising edge since the last update becomes one MSI,
 * so a clear-then-raise on the run thread before it gets the BQL is not
 * lost.
 */
static void vortex_irq_update(VortexPCIState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    bool level = qatomic_read(&s->irq_level);
    unsigned edges = qatomic_xchg(&s->irq_edges, 0);
    bool msi = msi_enabled(pdev);

    trace_vortex_irq(level, msi, edges);
    if (msi) {
        pci_set_irq(pdev, 0);
        if (edges) {
            msi_notify(pdev, 0);
        }
    } else {
        pci_set_irq(pdev, level);
    }
}

/* The main loop's half of the run thread's interrupts, under the BQL. */
static void vortex_irq_bh(void *opaque)
{
    vortex_irq_update(opaque);
}

/*
 * The guest can switch between INTx and MSI while the level is high: move
 * it to the new mechanism, and send one MSI for it rather than risk a
 * driver waiting forever for an edge that already happened.
 */
static void vortex_config_write(PCIDevice *pdev, uint32_t addr, uint32_t val,
                                int len)
{
    VortexPCIState *s = VORTEX_PCI(pdev);
    bool msi_before = msi_enabled(pdev);

    pci_default_write_config(pdev, addr, val, len);
    if (!s->sim || msi_enabled(pdev) == msi_before) {
        return;
    }
    if (msi_enabled(pdev) && qatomic_read(&s->irq_level)) {
        qatomic_inc(&s->irq_edges);
    }
    vortex_irq_update(s);
}

/* ----------------------------------------------------------- run thread */

/*
 * Called with @lock held, and drops it meanwhile: wait up to poll_ns for a
 * doorbell without sleeping, as waking a sleeping thread costs tens of
 * microseconds on a busy host.  Returns whether a doorbell came.
 *
 * Yielding lets a vCPU that shares the host CPU run; but if it does run,
 * this thread only sees the doorbell when the vCPU's time slice ends,
 * milliseconds later, whereas a sleeping thread would be woken at once.
 * So polling stops (and the window goes back to zero) as soon as a yield
 * turns out to have given the CPU away.
 */
static bool vortex_run_poll(VortexPCIState *s)
{
    unsigned kicks = qatomic_read(&s->kicks);
    int64_t now, end, before;

    if (!s->poll_ns) {
        return false;
    }
    qemu_mutex_unlock(&s->lock);
    now = get_clock();
    end = now + s->poll_ns;
    while (qatomic_read(&s->kicks) == kicks && !qatomic_read(&s->stopping) &&
           now < end) {
        before = now;
        g_thread_yield();
        now = get_clock();
        if (now - before > VORTEX_POLL_NS_MIN) {
            s->poll_ns = 0;
            break;
        }
    }
    qemu_mutex_lock(&s->lock);
    return qatomic_read(&s->kicks) != kicks;
}

/*
 * The next doorbell came @idle_ns after the card ran out of work: grow the
 * poll window if polling long enough would have caught it, else shrink it.
 */
static void vortex_run_poll_adapt(VortexPCIState *s, int64_t idle_ns)
{
    int64_t max = s->poll_us * SCALE_US;

    if (idle_ns <= max) {
        s->poll_ns = MIN(MAX(s->poll_ns * 2, VORTEX_POLL_NS_MIN), max);
    } else {
        s->poll_ns /= 2;
        if (s->poll_ns < VORTEX_POLL_NS_MIN) {
            s->poll_ns = 0;
        }
    }
}

/*
 * Called with @lock held, the card parked (docs/hardware.md, "Parking"):
 * its warps spin on words in VRAM, which the guest writes through BAR2
 * without the device seeing it, so sleep a poll period at a time and look
 * at those words (vx_sim_park_poll_ms() says how often).  A register write wakes the card and kicks @work at once.
 */
static void vortex_run_parked(VortexPCIState *s)
{
    trace_vortex_park(vx_sim_park_count(s->sim));
    while (!s->stopping && !vx_sim_park_poll(s->sim)) {
        qemu_cond_timedwait(&s->work, &s->lock,
                            vx_sim_park_poll_ms(s->sim));
    }
    trace_vortex_unpark();
}

static void *vortex_run_thread(void *opaque)
{
    VortexPCIState *s = opaque;
    int64_t idle_since = 0;     /* when the card ran out of work, or 0 */

    qemu_mutex_lock(&s->lock);
    while (!s->stopping) {
        if (vx_sim_parked(s->sim)) {
            vortex_run_parked(s);
            continue;
        }
        if (!vx_sim_runnable(s->sim)) {
            /* Poll once when work runs out, then sleep until kicked. */
            if (!idle_since) {
                idle_since = get_clock();
                vortex_run_poll(s);
            } else {
                qemu_cond_wait(&s->work, &s->lock);
            }
            continue;
        }
        if (idle_since) {
            /* From the end of work to the doorbell, not to the wakeup. */
            vortex_run_poll_adapt(s, s->kick_ns - idle_since);
            idle_since = 0;
        }
        vx_sim_run(s->sim, s->slice);
        /*
         * Mutexes are not fair: let a waiting register access in before
         * the next slice, so a looping kernel cannot starve the guest.
         */
        qemu_mutex_unlock(&s->lock);
        while (qatomic_read(&s->mmio_waiters) > 0) {
            g_thread_yield();
        }
        qemu_mutex_lock(&s->lock);
    }
    qemu_mutex_unlock(&s->lock);
    return NULL;
}

static void vortex_lock(VortexPCIState *s)
{
    qatomic_inc(&s->mmio_waiters);
    qemu_mutex_lock(&s->lock);
    qatomic_dec(&s->mmio_waiters);
}

/* ------------------------------------------------------------------ BAR0 */

/* The programming model allows only aligned 32-bit accesses. */
static bool vortex_access_ok(hwaddr addr, unsigned size)
{
    if (size == 4 && !(addr & 3)) {
        return true;
    }
    trace_vortex_mmio_bad(addr, size);
    qemu_log_mask(LOG_GUEST_ERROR,
                  "vortex: %u-byte access at BAR0 0x%" HWADDR_PRIx
                  " (only aligned 32-bit accesses)\n", size, addr);
    return false;
}

static uint64_t vortex_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    VortexPCIState *s = opaque;
    uint32_t val;

    if (!vortex_access_ok(addr, size)) {
        return 0;
    }
    vortex_lock(s);
    val = vx_sim_mmio_read(s->sim, addr);
    qemu_mutex_unlock(&s->lock);
    trace_vortex_mmio_read(addr, val);
    return val;
}

static void vortex_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    VortexPCIState *s = opaque;

    if (!vortex_access_ok(addr, size)) {
        return;
    }
    trace_vortex_mmio_write(addr, val);
    if (addr == A_DOORBELL) {
        trace_vortex_doorbell();
    } else if (addr == A_RESET && val == VX_RESET_KEY) {
        trace_vortex_reset();
    }
    vortex_lock(s);
    vx_sim_mmio_write(s->sim, addr, val);
    qemu_mutex_unlock(&s->lock);
}

static const MemoryRegionOps vortex_mmio_ops = {
    .read = vortex_mmio_read,
    .write = vortex_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* Accept every size so that bad ones are logged, not bus errors. */
    .valid = {
        .min_access_size = 1,
        .max_access_size = 8,
    },
    .impl = {
        .min_access_size = 1,
        .max_access_size = 8,
    },
};

/* ------------------------------------------------------------ lifecycle */

static bool vortex_check_config(VortexPCIState *s, struct vx_sim_config *cfg,
                                Error **errp)
{
    char msg[160];

    cfg->clusters = s->clusters;
    cfg->cores = s->cores;
    cfg->warps = s->warps;
    cfg->threads = s->threads;
    cfg->vram_size = s->vram_size;
    cfg->fast_doorbell = s->fast_doorbell;
    cfg->doorbell_budget = s->doorbell_budget;
    cfg->rtl_branch = s->rtl_branch;
    cfg->no_avx512 = !s->avx512;
    if (vx_sim_exec_parse(s->exec, &cfg->exec, msg, sizeof(msg)) < 0 ||
        vx_sim_config_check(cfg, msg, sizeof(msg)) < 0) {
        error_setg(errp, "vortex: %s", msg);
        return false;
    }
    if (s->poll_us > VORTEX_POLL_US_MAX) {
        error_setg(errp, "vortex: poll-us %u is above %u", s->poll_us,
                   VORTEX_POLL_US_MAX);
        return false;
    }
    return true;
}

static void vortex_realize(PCIDevice *pdev, Error **errp)
{
    VortexPCIState *s = VORTEX_PCI(pdev);
    struct vx_sim_config cfg;
    int ret;

    if (!vortex_check_config(s, &cfg, errp)) {
        return;
    }
    if (!memory_region_init_ram(&s->vram, OBJECT(s), "vortex.vram",
                                s->vram_size, errp)) {
        return;
    }
    memory_region_init_io(&s->mmio, OBJECT(s), &vortex_mmio_ops, s,
                          "vortex.mmio", VX_MMIO_SIZE);

    pci_config_set_interrupt_pin(pdev->config, 1);
    /* Without working MSI on this machine the card falls back to INTx. */
    ret = msi_init(pdev, 0, 1, true, false, NULL);
    if (ret && ret != -ENOTSUP) {
        error_setg(errp, "vortex: MSI setup failed (%d)", ret);
        return;
    }

    s->sim = vx_sim_new(&cfg, memory_region_get_ram_ptr(&s->vram),
                        &vortex_hooks, s);
    if (!s->sim) {
        error_setg(errp, "vortex: out of memory for %u warps of %u threads",
                   cfg.clusters * cfg.cores * cfg.warps, cfg.threads);
        msi_uninit(pdev);
        return;
    }

    s->slice = MAX(VORTEX_SLICE_LANES / cfg.threads, 16);
    qemu_mutex_init(&s->lock);
    qemu_cond_init(&s->work);
    s->irq_bh = qemu_bh_new_guarded(vortex_irq_bh, s,
                                    &DEVICE(s)->mem_reentrancy_guard);
    s->stopping = false;
    qemu_thread_create(&s->thread, "vortex-sim", vortex_run_thread, s,
                       QEMU_THREAD_JOINABLE);

    pci_register_bar(pdev, VX_BAR_MMIO, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
    pci_register_bar(pdev, VX_BAR_VRAM,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->vram);
}

/*
 * Also the hot-unplug path, under the BQL throughout.  The thread leaves
 * at its next slice boundary and is joined (it never waits for the BQL);
 * then nothing can schedule the bottom half, which is deleted, pending
 * or not: the device is going, and its interrupt with it.
 */
static void vortex_exit(PCIDevice *pdev)
{
    VortexPCIState *s = VORTEX_PCI(pdev);

    qemu_mutex_lock(&s->lock);
    qatomic_set(&s->stopping, true);
    qemu_cond_signal(&s->work);
    qemu_mutex_unlock(&s->lock);
    qemu_thread_join(&s->thread);
    trace_vortex_exit();

    qemu_bh_delete(s->irq_bh);
    s->irq_bh = NULL;
    vx_sim_free(s->sim);
    s->sim = NULL;
    qemu_cond_destroy(&s->work);
    qemu_mutex_destroy(&s->lock);
    msi_uninit(pdev);
}

/*
 * Under the BQL.  The PCI core resets config space, MSI and INTx itself;
 * the edges counted before the reset are dropped.
 */
static void vortex_reset_hold(Object *obj, ResetType type)
{
    VortexPCIState *s = VORTEX_PCI(obj);

    if (!s->sim) {
        return;
    }
    vortex_lock(s);
    vx_sim_reset(s->sim);
    qemu_mutex_unlock(&s->lock);
    qatomic_set(&s->irq_edges, 0);
}

static const Property vortex_properties[] = {
    DEFINE_PROP_UINT32("clusters", VortexPCIState, clusters, 1),
    DEFINE_PROP_UINT32("cores", VortexPCIState, cores, 2),
    DEFINE_PROP_UINT32("warps", VortexPCIState, warps, 4),
    DEFINE_PROP_UINT32("threads", VortexPCIState, threads, 8),
    DEFINE_PROP_SIZE("vram", VortexPCIState, vram_size, 256 * MiB),
    DEFINE_PROP_UINT32("poll-us", VortexPCIState, poll_us, 50),
    DEFINE_PROP_BOOL("fast-doorbell", VortexPCIState, fast_doorbell, true),
    DEFINE_PROP_UINT32("doorbell-budget", VortexPCIState, doorbell_budget,
                       VX_SIM_DOORBELL_BUDGET_DEFAULT),
    /*
     * vx_sim.h's enum vx_sim_exec; unset is "best" (jit, else avx2, else
     * burst)
     */
    DEFINE_PROP_STRING("exec", VortexPCIState, exec),
    /*
     * Off: a branch whose active lanes disagree outside split/join stops
     * the card (DIVERGENT_BRANCH), as upstream's simulator aborts; on: it
     * follows the highest active lane, as upstream's RTL (docs/hardware.md,
     * "Cores")
     */
    DEFINE_PROP_BOOL("rtl-branch", VortexPCIState, rtl_branch, false),
    /*
     * Off: the translator keeps to AVX2 on an AVX-512 host, so one machine
     * measures what an AVX2-only host's card does (vx_sim.h, no_avx512).
     */
    DEFINE_PROP_BOOL("avx512", VortexPCIState, avx512, true),
};

/*
 * Migrating the card would mean a vmstate for every warp, the CP and the
 * Debug Module of the simulator: out of scope, so migration is refused.
 */
static const VMStateDescription vmstate_vortex = {
    .name = TYPE_VORTEX_PCI,
    .unmigratable = 1,
};

static void vortex_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = vortex_realize;
    k->exit = vortex_exit;
    k->config_write = vortex_config_write;
    k->vendor_id = VX_PCI_VENDOR_ID;
    k->device_id = VX_PCI_DEVICE_ID;
    k->revision = VX_PCI_REVISION;
    k->class_id = VX_PCI_CLASS;
    rc->phases.hold = vortex_reset_hold;
    dc->desc = "Vortex RISC-V SIMT GPGPU (simulated)";
    dc->vmsd = &vmstate_vortex;
    device_class_set_props(dc, vortex_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo vortex_pci_info = {
    .name = TYPE_VORTEX_PCI,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(VortexPCIState),
    .class_init = vortex_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void vortex_pci_register_types(void)
{
    type_register_static(&vortex_pci_info);
}

type_init(vortex_pci_register_types)
