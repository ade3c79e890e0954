/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_DEVICE_H__
#define __VORTEX_DEVICE_H__

#include <linux/idr.h>
#include <linux/io.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <drm/drm_device.h>
#include <drm/drm_mm.h>
#include <drm/gpu_scheduler.h>

#include "vortex_code_object.h"
#include "vortex_debugfs.h"
#include "vortex_console.h"
#include "vortex_fence_wb.h"
#include "vortex_dcr.h"
#include "vortex_dm.h"
#include "vortex_dump.h"
#include "vortex_fault.h"
#include "vortex_job.h"
#include "vortex_regs.h"
#include "vortex_user.h"

struct pci_dev;
struct pid;
struct vortex_debug;
struct vortex_vm;

/* Module parameters (vortex_drv.c). */
extern unsigned int vortex_job_timeout_ms;

/**
 * DOC: Lock order
 *
 * The one place that says which of the driver's locks nest in which; the
 * declarations say what each protects.  Outermost first:
 *
 * 1. &vortex_file.lock -- SUBMIT names and publishes a job under it, and
 *    the fast lane puts the job on the card from inside it;
 * 2. &vortex_dm.lock -- every Debug Module sequence (dbgcore/vortex_dmseq*.c,
 *    whose accessors in vortex_dm.c assert it) and every change of
 *    what runs on the card (run_job, recovery).  Taken after the
 *    scheduler's queue stops (recovery's drm_sched_wqueue_stop(),
 *    vortex_job_quiesce()), never before: run_job takes it, so stopping
 *    the queue with it held would wait for itself;
 * 3. &drm_device.filelist_mutex -- the debugger walks its target's files
 *    under the DM lock (vortex_debug_target_bo());
 * 4. &vortex_vm.lock -- a file's mappings and page tables, looked up from
 *    inside either of the above;
 *    &vortex_code_objects.lock -- a file's code objects, at this level
 *    too (neither is taken under the other): SUBMIT looks its job's up
 *    under the file's lock, a new session is told of its target's under
 *    filelist_mutex, and a session hears of each change under it
 *    (vortex_debug_code_object() takes job_lock);
 * 5. &vortex_device.job_lock -- a spinlock taken from hard IRQ context
 *    (irqsave elsewhere), innermost of these: nothing above is taken
 *    under it, and what is taken inside it is a leaf spinlock (a
 *    session's event queue, &vortex_debug.ev_lock).
 *
 * Recovery and run_job are fence-signalling paths
 * (dma_fence_begin_signalling()): the dump's publication, which allocates
 * and waits for devcoredump, runs in the dump slot's worker, outside them
 * (vortex_dump_publish.c).
 *
 * A path may skip levels but never go back up one.  The other locks
 * (&vortex_device.mm_lock, users_lock, tlb_lock, a space's jobs_lock and
 * log_lock, the dump slot's, a handover fence's) are leaves: nothing
 * listed here is taken under them.
 */

/**
 * struct vortex_device - one Vortex card
 *
 * Lives as long as the DRM device: after a hot-unplug the card is gone but
 * open files keep this alive, so everything that touches @mmio or @vram is
 * wrapped in drm_dev_enter()/drm_dev_exit().
 */
struct vortex_device {
	/** @drm: the DRM device; this struct lives as long as it */
	struct drm_device drm;
	/** @pdev: the PCI function */
	struct pci_dev *pdev;

	/* ---- hardware, fixed after probe */
	/** @mmio: BAR0 registers */
	void __iomem *mmio;
	/** @vram: BAR2, write-combined */
	void __iomem *vram;
	/** @vram_bus: CPU physical address of BAR2 */
	resource_size_t vram_bus;
	/** @vram_size: VRAM bytes */
	u64 vram_size;
	/** @devaddr: device address of VRAM byte 0 */
	u32 devaddr;
	/** @version: VX_REG_VERSION of the card */
	u32 version;
	/** @caps: VX_REG_CAPS of the card */
	u32 caps;
	/** @platform: raw DM PLATFORM */
	u32 platform;
	/** @num_clusters: clusters on the card */
	u32 num_clusters;
	/** @num_cores: cores per cluster */
	u32 num_cores;
	/** @num_warps: warps per core */
	u32 num_warps;
	/** @num_threads: threads per warp */
	u32 num_threads;
	/** @irq: Linux IRQ of the card's one vector (MSI, else INTx) */
	int irq;
	/**
	 * @irq_mask: the causes the driver enables: FENCE and ERROR, and
	 * DEBUG while a debugger is attached (under @job_lock)
	 */
	u32 irq_mask;

	/* ---- VRAM (vortex_gem.c) */
	/** @mm: allocator of VRAM byte offsets */
	struct drm_mm mm;
	/** @mm_lock: protects @mm and @bo_bytes: BO create and free race */
	struct mutex mm_lock;
	/** @users: &struct vortex_user by uid (vortex_user.c) */
	struct xarray users;
	/** @users_lock: serialises finding, making and freeing those */
	struct mutex users_lock;
	/** @bo_bytes: VRAM that buffers hold (under @mm_lock) */
	u64 bo_bytes;
	/**
	 * @bo_limit: the most VRAM buffers may hold together; the rest is
	 * kept for page tables, the ring and the dump window, so opening the
	 * node never fails because buffers took all VRAM
	 */
	u64 bo_limit;
	/**
	 * @maps_cut: hot-unplug has begun: no fault maps a buffer any more
	 * (vortex_gem_unplug())
	 */
	bool maps_cut;

	/* ---- address spaces (vortex_vm.c) */
	/** @asids: ASIDs of the files' address spaces */
	struct ida asids;
	/** @tlb_lock: serialises the TLB_ASID/TLB_VA/TLB_INVAL sequences */
	spinlock_t tlb_lock;
	/** @vm_ids: the last &vortex_vm id given out */
	atomic64_t vm_ids;
	/**
	 * @shared_asid_owner: id of the space whose translations the TLB may
	 * hold under the shared ASID (DM lock); 0 for none
	 */
	u64 shared_asid_owner;

	/* ---- jobs (vortex_job.c) */
	/** @fence_wb: the fence record the card writes (vortex_fence_wb.c) */
	struct vortex_fence_wb fence_wb;
	/**
	 * @dump_node: VRAM where a crash dump has warps store their
	 * registers (vortex_warp_dump_regs()); reachable by no context
	 */
	struct drm_mm_node dump_node;
	/** @jobs: the ring, the scheduler, the job on the card (vortex_job.c) */
	struct vortex_jobs jobs;
	/**
	 * @job_lock: protects the job layer's state (&vortex_jobs: the job on
	 * the card, a pending reset or cancel, the fast lane's counts), each
	 * file's &vortex_file.closed, @debug and @irq_mask, and is the lock
	 * of every hardware fence, so the IRQ handler can end a job and signal
	 * its fence in one step.  Taken from hard IRQ context: always with
	 * irqsave outside the handler.
	 *
	 * The invariant it keeps: a job is ended exactly once, by whoever
	 * takes this lock and finds it still the active job -- the FENCE
	 * interrupt, recovery after a timeout, an ERROR interrupt or a closing
	 * file, or hot-unplug -- and ending it (vortex_job_end_locked()) clears
	 * the active job and signals the hardware fence in the same critical
	 * section.  Every other path decides by the job's fence seqno, under
	 * this lock, whether the job it was asked about is still the one on
	 * the card, and does nothing when it is not.  A job is freed only after
	 * its hardware fence signalled, so vortex_job_active_locked() always
	 * returns a live job.  Recovery stops and restarts the scheduler (which
	 * cancels every job whose hardware fence is outstanding) only after it
	 * has ended the job on the card and reset the card, so no innocent job
	 * is touched.  Innermost of the driver's locks ("Lock order" above).
	 */
	spinlock_t job_lock;
	/** @recover_gate: test hook at the entry of recovery (debugfs) */
	struct vortex_gate recover_gate;
	/** @run_gate: test hook at the entry of run_job (debugfs) */
	struct vortex_gate run_gate;
	/**
	 * @ran_gate: test hook at the end of run_job, the job on the card and
	 * the scheduler not yet told of its fence (debugfs)
	 */
	struct vortex_gate ran_gate;
	/**
	 * @pop_gate: test hook where the scheduler takes a job off its
	 * entity, before it looks at the entity's next job (debugfs)
	 */
	struct vortex_gate pop_gate;
	/** @release_gate: test hook where an ended fast-lane job is freed */
	struct vortex_gate release_gate;
	/**
	 * @unplug_gate: test hook in hot-unplug, the buffers' mappings cut
	 * and the device node still there
	 */
	struct vortex_gate unplug_gate;
	/**
	 * @unlink_gate: test hook in a discarded dump's release, before the
	 * slot ends its hold (vortex_dump_publish.c)
	 */
	struct vortex_gate unlink_gate;
	/**
	 * @hang_gate: test hook where a job's timeout has been found due,
	 * before recovery stops the card (debugfs)
	 */
	struct vortex_gate hang_gate;

	/* ---- debugger (vortex_dm.c, vortex_debug.c) */
	/** @dm: the Debug Module, its lock and shadows */
	struct vortex_dm dm;
	/** @debug: the attached debug session, or NULL; under @job_lock */
	struct vortex_debug *debug;
	/** @dump: the crash dump slot (vortex_dump_publish.c) */
	struct vortex_dump_slot dump;
	/** @console: the kernels' console ring (vortex_console.c), DM lock */
	struct vortex_console_state console;
};

#define to_vortex_device(dev) container_of(dev, struct vortex_device, drm)

/**
 * struct vortex_file - per-open-file state
 *
 * Reference counted because jobs outlive the file that submitted them
 * (they keep counting engine time into it until they are freed).
 */
struct vortex_file {
	/** @vdev: the card */
	struct vortex_device *vdev;
	/** @ref: held by the file and by each of its jobs */
	struct kref ref;
	/** @pid: thread group that opened the file (a debugger's target) */
	struct pid *pid;
	/** @comm: name of the process that opened the file (crash dumps) */
	char comm[TASK_COMM_LEN];
	/** @cmdline: its command line, quoted, or NULL (crash dumps) */
	char *cmdline;
	/** @vm: the file's GPU address space (vortex_vm.c) */
	struct vortex_vm *vm;
	/** @dump_flags: DRM_VORTEX_DUMP_* for this file's jobs */
	u32 dump_flags;
	/** @dcr: its DCRs, STARTUP_ADDR0 first (vortex_dcr.c) */
	u32 dcr[VORTEX_DCR_COUNT];
	/** @console: what its jobs printed, until read (vortex_console.c) */
	struct vortex_console_buf console;
	/** @fault: its last failed job (vortex_fault.c) */
	struct vortex_fault_record fault;
	/** @entity: the file's queue into the scheduler */
	struct drm_sched_entity entity;
	/**
	 * @lock: serialises SUBMIT (so seqnos are handed out in queue
	 * order) and protects @seqno and @fences against WAIT, and the code
	 * objects.  Outermost of the driver's locks ("Lock order" above).
	 */
	struct mutex lock;
	/**
	 * @seqno: last seqno handed out, 0 = none; WAIT's check for a job
	 * that ended reads it without @lock
	 */
	u64 seqno;
	/** @fences: finished fences, by seqno % history */
	struct dma_fence **fences;
	/**
	 * @ended: by seqno % history, the jobs that left the card: the job's
	 * seqno << 8 | -error, set under &vortex_device.job_lock as its
	 * hardware fence signals (vortex_job_ended()).  WAIT finds a job done
	 * from then on, before the scheduler's finished fence in @fences
	 * follows; a debugger's FINISHED event is posted in between.
	 */
	atomic64_t *ended;
	/** @code: registered kernel images (vortex_code_object.c) */
	struct vortex_code_objects code;
	/** @engine_ns: time this file's jobs held the card */
	atomic64_t engine_ns;
	/** @engine_cycles: device cycles of the same */
	atomic64_t engine_cycles;
	/**
	 * @jobs_in_flight: jobs submitted and not yet freed, at most
	 * %VORTEX_MAX_JOBS_IN_FLIGHT
	 */
	atomic_t jobs_in_flight;
	/** @user: its opener's counts (vortex_user.c), a reference */
	struct vortex_user *user;
	/** @syncobjs: syncobjs made through this file, counted in @user */
	atomic_t syncobjs;
	/**
	 * @closed: the file is closing; run_job puts none of its jobs on the
	 * card any more.  Under &vortex_device.job_lock.
	 */
	bool closed;
};

/* Outcomes of this many jobs per file are kept for WAIT. */
#define VORTEX_WAIT_HISTORY	1024

/*
 * Jobs one file may have submitted and not yet freed; SUBMIT beyond it is
 * -EBUSY.  Below %VORTEX_WAIT_HISTORY, so a job still queued is always
 * among the outcomes WAIT remembers.
 */
#define VORTEX_MAX_JOBS_IN_FLIGHT	256

static inline u32 vortex_read(struct vortex_device *vdev, u32 reg)
{
	return readl(vdev->mmio + reg);
}

static inline void vortex_write(struct vortex_device *vdev, u32 reg, u32 val)
{
	writel(val, vdev->mmio + reg);
}

/* vortex_device.c */
int vortex_device_init(struct vortex_device *vdev);
void vortex_device_fini(struct vortex_device *vdev);
void vortex_device_reset(struct vortex_device *vdev);
void vortex_device_irq_enable(struct vortex_device *vdev);
void vortex_device_irq_disable(struct vortex_device *vdev);
u64 vortex_device_clock(struct vortex_device *vdev);
u32 vortex_device_total_warps(struct vortex_device *vdev);
void vortex_device_warp_place(struct vortex_device *vdev, u32 w, u32 *cluster,
			      u32 *core, u32 *warp_in_core);

/* vortex_file */
void vortex_file_put(struct vortex_file *vfile);

#endif /* __VORTEX_DEVICE_H__ */
