/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_DEBUG_H__
#define __VORTEX_DEBUG_H__

#include <linux/notifier.h>
#include <linux/pid.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <drm/drm_print.h>

#include "vortex_accel.h"
#include "vortex_dmseq.h"

struct drm_device;
struct drm_file;
struct vortex_device;
struct pid;
struct vortex_job;

/* What happened to a code object (vortex_debug_code_object()) */
#define VORTEX_DEBUG_CODE_LOADED	0	/* registered */
#define VORTEX_DEBUG_CODE_REPLAYED	1	/* registered before the attach */
#define VORTEX_DEBUG_CODE_UNLOADED	2	/* unregistered, or its file closed */

/* What the session's work item has to do (&vortex_debug.pending). */
#define VORTEX_DEBUG_WORK_HALTED	BIT(0)	/* DEBUG interrupt */
#define VORTEX_DEBUG_WORK_EXCEPTION	BIT(1)	/* ERROR taken for the debugger */

/**
 * struct vortex_debug - one debug session (see uapi/vortex_accel.h)
 *
 * Reached from the device through &vortex_device.debug under
 * &vortex_device.job_lock (the interrupt handler posts events); its
 * warps, breakpoints and halt-at-start state (@seq's launch_halt) are
 * changed under &vortex_dm.lock.
 */
struct vortex_debug {
	/** @vdev: the card; the session holds a reference on its DRM device */
	struct vortex_device *vdev;
	/** @target: thread group whose jobs the session covers */
	struct pid *target;
	/** @id: the session's number, unique for the module's life, from 1 */
	u64 id;

	/** @ev_lock: protects the event queue; taken from hard IRQ context */
	spinlock_t ev_lock;
	/** @ev_wait: read() and poll() wait here */
	wait_queue_head_t ev_wait;
	/** @evq: the event queue (dbgcore/vortex_dmseq_session.c), under @ev_lock */
	struct vortex_dmseq_events evq;

	/** @work: reads the card after a DEBUG or ERROR interrupt */
	struct work_struct work;
	/** @pending: VORTEX_DEBUG_WORK_*, under job_lock */
	u32 pending;
	/**
	 * @frozen: the card stopped on an exception of the target's job and
	 * waits for the debugger (under job_lock)
	 */
	bool frozen;

	/**
	 * @armed_leftover: a halt-at-start may have left warps armed that
	 * its job did not launch (DM lock)
	 */
	bool armed_leftover;
	/** @last_run_ns: when the target's job last started or resumed */
	u64 last_run_ns;
	/**
	 * @timeout_ms: how long the target's job may run (0: the module's
	 * job_timeout_ms; DRM_VORTEX_DEBUG_TIMEOUT_NONE: no limit)
	 */
	u32 timeout_ms;
	/** @privileged: attached with CAP_SYS_ADMIN: may hold the card */
	bool privileged;
	/**
	 * @event_size: bytes of each event read() gives: the whole struct,
	 * or %DRM_VORTEX_DEBUG_EVENT_SIZE_V2 for a debugger of version 2
	 */
	u32 event_size;
	/**
	 * @contended_ns: since when another client's job waits for the card
	 * without any having had it, or 0 (under job_lock)
	 */
	u64 contended_ns;
	/**
	 * @bps: breakpoints (dbgcore/vortex_dmseq_bp.c), under the DM lock;
	 * each at a VRAM offset, holding a reference on its buffer
	 */
	struct vortex_dmseq_bps bps;
	/** @dump_nb: on &vortex_dump_slot.listeners while attached */
	struct notifier_block dump_nb;
	/** @seq: the session for the shared DM sequences (dbgcore/vortex_dmseq.c) */
	struct vortex_dmseq_session seq;
	/*
	 * The target's console (vortex_debug_console.c), under the DM lock:
	 * @console_file: the file whose job of the target went on last (a
	 * reference), or NULL; @console_next: the first of its records the
	 * session has not had; @console_gen: counts changes of @console_file
	 */
	/** @console_file: see above */
	struct vortex_file *console_file;
	/** @console_next: see above */
	u64 console_next;
	/** @console_gen: see above */
	u64 console_gen;
};

extern bool vortex_debug_enable;

/* vortex_debug.c: hooks from the job and interrupt paths */
bool vortex_debug_owns(struct vortex_debug *dbg, struct vortex_job *job);
void vortex_debug_job_start(struct vortex_device *vdev, struct vortex_job *job);
void vortex_debug_job_end_locked(struct vortex_device *vdev,
				 struct vortex_job *job, int error);
bool vortex_debug_irq_error(struct vortex_device *vdev);
struct vortex_code_ref;
struct vortex_file;
void vortex_debug_code_object(struct vortex_file *vfile,
			      const struct vortex_code_ref *ref, u64 *told, int what);
void vortex_debug_irq_debug(struct vortex_device *vdev);
bool vortex_debug_job_paused(struct vortex_device *vdev, struct vortex_job *job);
void vortex_debug_job_queued_locked(struct vortex_device *vdev,
				    struct vortex_job *job);
int vortex_debug_attach_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *file);

/* vortex_debug_console.c */
void vortex_debug_console_follow(struct vortex_debug *dbg, struct vortex_file *vfile);
void vortex_debug_console_release(struct vortex_debug *dbg);
int vortex_debug_console_ioctl(struct vortex_debug *dbg, void *data);

/* vortex_debug_perm.c */
int vortex_debug_may_access(struct pid *target);

/* vortex_debug.c: for the session's other files */

/*
 * A refused session call: drm_dbg says why (it is userspace's mistake,
 * so not drm_err), and the errno goes back.
 */
#define vortex_debug_reject(dbg, err, fmt, ...) ({			\
	int __err = (err);						\
	drm_dbg(&(dbg)->vdev->drm, "debug session: " fmt " (%d)\n",	\
		##__VA_ARGS__, __err);					\
	__err;								\
})

/**
 * struct vortex_debug_batch - the header REGS, MEM and BREAKPOINT share
 */
struct vortex_debug_batch {
	/** @ops: user pointer to the entries */
	u64 ops;
	/** @count: entries */
	u32 count;
	/** @flags: must be zero */
	u32 flags;
	/** @stride: bytes from one entry to the next */
	u32 stride;
	/** @done: out: entries done */
	u32 done;
};

/*
 * @args, a REGS, MEM or BREAKPOINT header of uapi struct @type, seen as
 * the layout the three share (checked here, at build time).
 */
#define VORTEX_DEBUG_BATCH(type, args) ({				\
	static_assert(sizeof(type) == sizeof(struct vortex_debug_batch)); \
	static_assert(offsetof(type, count) ==				\
		      offsetof(struct vortex_debug_batch, count));	\
	static_assert(offsetof(type, flags) ==				\
		      offsetof(struct vortex_debug_batch, flags));	\
	static_assert(offsetof(type, stride) ==				\
		      offsetof(struct vortex_debug_batch, stride));	\
	(const struct vortex_debug_batch *)(type *){ args };		\
})

void *vortex_debug_batch_in(struct vortex_debug *dbg, const char *name,
			    const struct vortex_debug_batch *b, u32 max,
			    size_t size);
void vortex_debug_post(struct vortex_debug *dbg, u16 type, u64 job,
		       const u32 *data, unsigned int n);
bool vortex_debug_on_card(struct vortex_debug *dbg);

/* vortex_debug_mem.c */
extern const struct vortex_dmseq_bp_ops vortex_debug_bp_ops;
int vortex_debug_mem_ioctl(struct vortex_debug *dbg, void *data);
int vortex_debug_breakpoint_ioctl(struct vortex_debug *dbg, void *data);

/* vortex_debug_regs.c */
int vortex_debug_regs(struct vortex_debug *dbg, void *data);
int vortex_debug_status(struct vortex_debug *dbg, void *data);

#endif /* __VORTEX_DEBUG_H__ */
