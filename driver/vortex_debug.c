// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Debug sessions
 *
 * DRM_IOCTL_VORTEX_DEBUG_ATTACH (uapi/vortex_accel.h says who may) creates
 * a &struct vortex_debug and returns an anonymous-inode fd for it: read()
 * and poll() give its events, ioctls control the card's Debug Module
 * through vortex_dm.c.  One session per card.
 *
 * The session follows the target's jobs through hooks in the job paths:
 * run_job arms halt-at-start and queues LAUNCHED; the job's end queues
 * FINISHED; an ERROR interrupt for the target's job freezes the card for
 * the debugger instead of starting recovery (the session's work halts
 * every warp so their registers can be read, and queues EXCEPTION); the
 * timeout handler asks vortex_debug_job_paused() whether the job merely
 * stands halted.  A DEBUG interrupt queues HALTED.
 *
 * Lifetime: &vortex_device.debug is set and cleared under job_lock;
 * detaching clears it first, waits for the session's work, then cleans up
 * under the DM lock, so a thread that found the session under job_lock
 * and holds the DM lock may use it until it drops that lock.
 */

#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/file.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "vortex_accel.h"
#include "vortex_code_object.h"
#include "vortex_debug.h"
#include "vortex_device.h"
#include "vortex_dm.h"
#include "vortex_dump.h"
#include "vortex_job.h"
#include "vortex_vm.h"
#include "vortex_warp.h"

bool vortex_debug_enable = true;
module_param_named(debug, vortex_debug_enable, bool, 0444);
MODULE_PARM_DESC(debug, "Allow debuggers to attach (default true)");

/* Numbers sessions (&vortex_debug.id): a code object records whom it told. */
static atomic64_t vortex_debug_session_ids = ATOMIC64_INIT(0);

static unsigned int vortex_debug_hold_ms = 10000;
module_param_named(debug_hold_ms, vortex_debug_hold_ms, uint, 0644);
MODULE_PARM_DESC(debug_hold_ms,
		 "Once another client's job waits, a debugged job keeps the card at most this long more, halted or not, unless its debugger has CAP_SYS_ADMIN (default 10000)");

static unsigned int vortex_debug_timeout_max_ms = 600000;
module_param_named(debug_timeout_max_ms, vortex_debug_timeout_max_ms, uint, 0644);
MODULE_PARM_DESC(debug_timeout_max_ms,
		 "Longest run-time limit an unprivileged debugger may give its target's jobs (default 600000)");

/**
 * vortex_debug_owns() - whether @job is the debugger's target's
 * @dbg: the debugger session
 * @job: the job
 *
 * Return: true if @dbg debugs the process that made @job.
 */
bool vortex_debug_owns(struct vortex_debug *dbg, struct vortex_job *job)
{
	return dbg && job && job->vfile->pid == dbg->target;
}

/* ------------------------------------------------------------- events */

/**
 * vortex_debug_post() - queue an event
 * @dbg: the session
 * @type: DRM_VORTEX_DEBUG_EVENT_*
 * @job: the target file's job seqno, or 0
 * @data: payload words
 * @n: how many
 *
 * Any context.  The queue's rules (the last slot kept for an OVERFLOW
 * event) are vortex_dmseq_event_post()'s.
 */
void vortex_debug_post(struct vortex_debug *dbg, u16 type, u64 job,
		       const u32 *data, unsigned int n)
{
	unsigned long flags;

	spin_lock_irqsave(&dbg->ev_lock, flags);
	vortex_dmseq_event_post(&dbg->evq, type, job, data, n);
	spin_unlock_irqrestore(&dbg->ev_lock, flags);
	wake_up_interruptible(&dbg->ev_wait);
}

static ssize_t vortex_debug_read(struct file *f, char __user *buf, size_t len,
				 loff_t *pos)
{
	struct vortex_debug *dbg = f->private_data;
	struct drm_vortex_debug_event ev;
	size_t copied = 0, size = dbg->event_size;
	int ret;

	if (len < size)
		return -EINVAL;

	for (;;) {
		spin_lock_irq(&dbg->ev_lock);
		if (dbg->evq.count)
			break;
		spin_unlock_irq(&dbg->ev_lock);
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(dbg->ev_wait, READ_ONCE(dbg->evq.count));
		if (ret)
			return ret;
	}
	while (len - copied >= size && vortex_dmseq_event_pop(&dbg->evq, &ev)) {
		spin_unlock_irq(&dbg->ev_lock);
		vortex_dmseq_event_cut(&ev, size);
		if (copy_to_user(buf + copied, &ev, size))
			return copied ?: -EFAULT;
		copied += size;
		spin_lock_irq(&dbg->ev_lock);
	}
	spin_unlock_irq(&dbg->ev_lock);
	return copied;
}

static __poll_t vortex_debug_poll(struct file *f, poll_table *wait)
{
	struct vortex_debug *dbg = f->private_data;

	poll_wait(f, &dbg->ev_wait, wait);
	return READ_ONCE(dbg->evq.count) ? EPOLLIN | EPOLLRDNORM : 0;
}

/* A published crash dump: a session hears of its target's dumps only. */
static int vortex_debug_dump_published(struct notifier_block *nb,
				       unsigned long action, void *data)
{
	struct vortex_debug *dbg = container_of(nb, struct vortex_debug, dump_nb);
	const struct vortex_dump_note *note = data;

	if (action == VORTEX_DUMP_PUBLISHED && note->owner &&
	    note->owner == dbg->target)
		vortex_debug_post(dbg, DRM_VORTEX_DEBUG_EVENT_DUMP, note->job,
				  &note->bytes, 1);
	return NOTIFY_DONE;
}

/* ------------------------------------------------------ card helpers */

/**
 * vortex_debug_on_card() - whether the target's job is on the card
 * @dbg: the debugger session
 *
 * The DM lock is held.
 *
 * Return: true if a job of the target runs now.
 */
bool vortex_debug_on_card(struct vortex_debug *dbg)
{
	struct vortex_device *vdev = dbg->vdev;
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&vdev->job_lock, flags);
	ret = vortex_debug_owns(dbg, vortex_job_active_locked(vdev));
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	return ret;
}

/* The card stopped on an error (a step or a resumed warp faulted). */
static bool vortex_debug_card_failed(struct vortex_device *vdev)
{
	return vortex_read(vdev, VX_REG_STATUS) & VX_STATUS_ERROR;
}

/* --------------------------------------- hooks of the DM sequences */

static bool vortex_debug_seq_card_failed(void *priv)
{
	struct vortex_debug *dbg = priv;

	return vortex_debug_card_failed(dbg->vdev);
}

static void vortex_debug_seq_card_reset(void *priv)
{
	struct vortex_debug *dbg = priv;

	vortex_device_reset(dbg->vdev);
}

static const struct vortex_dmseq_session_ops vortex_debug_seq_ops = {
	.card_failed = vortex_debug_seq_card_failed,
	.card_reset = vortex_debug_seq_card_reset,
};

/*
 * Ends the target's job that the card froze for the debugger: -EIO, the
 * card reset, the next job runs (recovery does it).
 */
static void vortex_debug_unfreeze(struct vortex_debug *dbg)
{
	struct vortex_device *vdev = dbg->vdev;
	unsigned long flags;
	bool frozen;

	spin_lock_irqsave(&vdev->job_lock, flags);
	frozen = dbg->frozen;
	if (frozen) {
		dbg->frozen = false;
		vortex_job_fail_active_locked(vdev, -EIO);
	}
	spin_unlock_irqrestore(&vdev->job_lock, flags);
}

/* --------------------------------------------------- session ioctls */

/**
 * vortex_debug_batch_in() - a batch's header checked and its entries copied in
 * @dbg: the session
 * @name: the ioctl, for the log
 * @b: the header's fields: user pointer, count, flags and stride
 * @max: the ioctl's most entries
 * @size: the entry's size in this kernel
 *
 * The header's checks are the debugger core's (vortex_dmseq_batch_check()).
 * Every entry is read before any runs, so one that cannot be read fails
 * the batch with nothing done.  An entry longer than @size (newer
 * userspace) must be zero past it.
 *
 * Return: @b->count entries of @size bytes (kvfree() them), or an
 * ERR_PTR: -EINVAL flags, no entries or a bad stride, -E2BIG more than
 * @max entries or non-zero bytes past @size, -EFAULT, -ENOMEM.
 */
void *vortex_debug_batch_in(struct vortex_debug *dbg, const char *name,
			    const struct vortex_debug_batch *b, u32 max,
			    size_t size)
{
	const u8 __user *src = u64_to_user_ptr(b->ops);
	u32 count = b->count, stride = b->stride, i;
	u8 *ents;
	int ret;

	ret = vortex_dmseq_batch_check(b->flags, count, stride, max, size);
	if (ret)
		return ERR_PTR(vortex_debug_reject(dbg, ret,
						   "%s: flags 0x%x, %u entries, stride %u (entries are %zu bytes)",
						   name, b->flags, count, stride, size));
	ents = kvmalloc_array(count, size, GFP_KERNEL_ACCOUNT);
	if (!ents)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < count; i++) {
		ret = copy_struct_from_user(ents + i * size, size,
					    src + (size_t)i * stride, stride);
		if (ret) {
			kvfree(ents);
			return ERR_PTR(vortex_debug_reject(dbg, ret,
							   "%s: entry %u unreadable or too long",
							   name, i));
		}
	}
	return ents;
}

static int vortex_debug_dm_ioctl(struct vortex_debug *dbg, void *data)
{
	struct vortex_device *vdev = dbg->vdev;
	struct drm_vortex_debug_dm *args = data;
	struct drm_vortex_debug_dm_op __user *uops;
	struct drm_vortex_debug_dm_op *ops, *op;
	int ret = 0;
	u32 i, n;

	ret = vortex_dmseq_dm_check(args);
	if (ret)
		return vortex_debug_reject(dbg, ret, "DM: flags 0x%x, %u entries",
					   args->flags, args->count);
	if (!capable(CAP_SYS_ADMIN))
		return vortex_debug_reject(dbg, -EPERM, "DM: needs CAP_SYS_ADMIN");
	uops = u64_to_user_ptr(args->ops);
	/* In and out of user memory outside the DM lock: it may stall. */
	ops = memdup_array_user(uops, args->count, sizeof(*ops));
	if (IS_ERR(ops))
		return PTR_ERR(ops);

	mutex_lock(&vdev->dm.lock);
	vortex_dmseq_raw_begin(&vdev->dm.seq);
	for (i = 0; i < args->count; i++) {
		op = &ops[i];
		ret = vortex_dmseq_dm_op_check(op);
		if (ret)
			break;
		if (op->flags & DRM_VORTEX_DEBUG_DM_WRITE) {
			if (vortex_dmseq_raw_write(&vdev->dm.seq, op->reg, op->value))
				vortex_job_ndmreset(vdev);
		} else {
			op->value = vortex_dm_read(vdev, op->reg);
		}
	}
	/* The shadows become what the batch left (vortex_dm.c). */
	vortex_dmseq_raw_end(&vdev->dm.seq);
	mutex_unlock(&vdev->dm.lock);

	/* The reads that ran go back. */
	for (n = i, i = 0; i < n; i++)
		if (!(ops[i].flags & DRM_VORTEX_DEBUG_DM_WRITE) &&
		    put_user(ops[i].value, &uops[i].value)) {
			ret = -EFAULT;
			break;
		}
	kfree(ops);
	return ret;
}

static int vortex_debug_warps_ioctl(struct vortex_debug *dbg, void *data)
{
	struct vortex_device *vdev = dbg->vdev;
	struct drm_vortex_debug_warps args = *(struct drm_vortex_debug_warps *)data;
	u32 windows = vdev->dm.windows, *mask;
	bool resumed;
	int ret;

	ret = vortex_dmseq_warps_check(&vdev->dm.seq, &args);
	if (ret)
		return vortex_debug_reject(dbg, ret,
					   "WARPS: op %u, flags 0x%x, pad 0x%x, %u mask words",
					   args.op, args.flags, args.pad, args.mask_words);

	mask = kcalloc(windows, sizeof(*mask), GFP_KERNEL_ACCOUNT);
	if (!mask)
		return -ENOMEM;
	if (args.flags & DRM_VORTEX_DEBUG_WARPS_ALL) {
		vortex_dmseq_mask_all(&vdev->dm.seq, mask, true);
	} else {
		if (copy_from_user(mask, u64_to_user_ptr(args.mask),
				   args.mask_words * sizeof(u32))) {
			ret = -EFAULT;
			goto out_free;
		}
		ret = vortex_dmseq_mask_check(&vdev->dm.seq, mask, args.mask_words);
		if (ret)
			goto out_free;
	}

	mutex_lock(&vdev->dm.lock);
	if (args.op == DRM_VORTEX_DEBUG_WARPS_HALT_AT_START) {
		vortex_dmseq_set_launch_halt(&dbg->seq, args.flags);
		ret = 0;
		goto out_unlock;
	}
	ret = -ESRCH;
	if (!vortex_debug_on_card(dbg))
		goto out_unlock;

	if (args.op == DRM_VORTEX_DEBUG_WARPS_HALT) {
		ret = vortex_dmseq_halt(&dbg->seq, mask);
		goto out_unlock;
	}

	/* RESUME: a frozen card ends the job instead. */
	if (READ_ONCE(dbg->frozen)) {
		vortex_debug_unfreeze(dbg);
		ret = 0;
		goto out_unlock;
	}
	/* If stepping off a breakpoint faulted, the exception is queued. */
	ret = vortex_dmseq_resume(&dbg->seq, mask, &resumed);
	if (resumed)
		dbg->last_run_ns = ktime_get_ns();
out_unlock:
	mutex_unlock(&vdev->dm.lock);
out_free:
	kfree(mask);
	return ret;
}

static int vortex_debug_step_ioctl(struct vortex_debug *dbg, void *data)
{
	struct drm_vortex_debug_step *out = data, args = *out;
	struct vortex_device *vdev = dbg->vdev;
	int ret;

	ret = vortex_dmseq_step_check(&args);
	if (ret && args.flags)
		return vortex_debug_reject(dbg, ret, "STEP: flags 0x%x", args.flags);
	if (ret)
		return vortex_debug_reject(dbg, ret, "STEP: %u steps", args.count);

	mutex_lock(&vdev->dm.lock);
	ret = -ESRCH;
	if (!vortex_debug_on_card(dbg))
		goto out_unlock;
	ret = vortex_dmseq_step(&dbg->seq, &args);
out_unlock:
	mutex_unlock(&vdev->dm.lock);
	if (!ret)
		*out = args;
	return ret;
}

/**
 * struct vortex_debug_dump_work - a debugger's dump request, on the reset queue
 */
struct vortex_debug_dump_work {
	/** @work: runs on the ordered reset workqueue, never beside recovery */
	struct work_struct work;
	/** @dbg: the session asking */
	struct vortex_debug *dbg;
	/** @ret: the outcome */
	int ret;
};

/*
 * Like recovery: with the scheduler's queue stopped no job is freed (nor
 * started) under the capture, even one that ends meanwhile.
 */
static void vortex_debug_dump_work(struct work_struct *work)
{
	struct vortex_debug_dump_work *w =
		container_of(work, struct vortex_debug_dump_work, work);
	struct vortex_device *vdev = w->dbg->vdev;
	struct vortex_dump_ctx ctx = {};
	struct vortex_job *job;
	unsigned long flags;

	vortex_job_quiesce(vdev);
	mutex_lock(&vdev->dm.lock);
	/* The queue stopped and the DM lock held, the job stays on the card. */
	spin_lock_irqsave(&vdev->job_lock, flags);
	job = vortex_job_active_locked(vdev);
	if (!vortex_debug_owns(w->dbg, job))
		job = NULL;
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	if (job) {
		vortex_job_dump_ctx(vdev, job, 0, &ctx);
		w->ret = vortex_dump_capture(vdev, &ctx);
	} else {
		w->ret = -ESRCH;
	}
	mutex_unlock(&vdev->dm.lock);
	vortex_job_resume(vdev);
	/* Published and rendered before the ioctl returns: its DUMP event is posted. */
	if (!w->ret)
		w->ret = vortex_dump_wait_published(vdev);
}

static int vortex_debug_coredump_ioctl(struct vortex_debug *dbg, void *data)
{
	struct vortex_debug_dump_work w = { .dbg = dbg };
	struct drm_vortex_debug_coredump *args = data;

	if (args->flags || args->pad)
		return vortex_debug_reject(dbg, -EINVAL, "COREDUMP: flags 0x%x, pad 0x%x",
					   args->flags, args->pad);

	INIT_WORK_ONSTACK(&w.work, vortex_debug_dump_work);
	vortex_job_serialized(dbg->vdev, &w.work);
	destroy_work_on_stack(&w.work);
	return w.ret;
}

/* DRM_VORTEX_DEBUG_IOCTL_TIMEOUT: see the uapi. */
static int vortex_debug_timeout_ioctl(struct vortex_debug *dbg, void *data)
{
	struct drm_vortex_debug_timeout *args = data;

	if (args->flags || args->pad)
		return vortex_debug_reject(dbg, -EINVAL, "TIMEOUT: flags 0x%x, pad 0x%x",
					   args->flags, args->pad);
	if (args->timeout_ms > READ_ONCE(vortex_debug_timeout_max_ms) &&
	    !capable(CAP_SYS_ADMIN))
		return vortex_debug_reject(dbg, -EPERM,
					   "TIMEOUT: %u ms is over debug_timeout_max_ms",
					   args->timeout_ms);
	/* The dispatcher wrote @args back already: copying out cannot fail. */
	args->old_timeout_ms = xchg(&dbg->timeout_ms, args->timeout_ms);
	return 0;
}

/**
 * struct vortex_debug_ioctl_desc - one session ioctl
 */
struct vortex_debug_ioctl_desc {
	/** @cmd: its command number, which holds this kernel's struct size */
	unsigned int cmd;
	/**
	 * @min_size: the size of the struct's first version: shorter ones
	 * are refused, longer ones up to _IOC_SIZE(@cmd) zero-extended
	 */
	u32 min_size;
	/** @fn: runs it on the copied-in struct */
	int (*fn)(struct vortex_debug *dbg, void *data);
	/** @name: for the log */
	const char *name;
};

/* Room for the largest session ioctl struct. */
#define VORTEX_DEBUG_IOCTL_MAX_SIZE	64

#define VORTEX_DEBUG_IOCTL(_name, _type, _fn)				\
	[_IOC_NR(DRM_VORTEX_DEBUG_IOCTL_##_name)] = {			\
		.cmd = DRM_VORTEX_DEBUG_IOCTL_##_name,			\
		.min_size = sizeof(_type) + BUILD_BUG_ON_ZERO(		\
			sizeof(_type) > VORTEX_DEBUG_IOCTL_MAX_SIZE),	\
		.fn = _fn,						\
		.name = #_name,						\
	}

static const struct vortex_debug_ioctl_desc vortex_debug_ioctls[] = {
	VORTEX_DEBUG_IOCTL(DM, struct drm_vortex_debug_dm, vortex_debug_dm_ioctl),
	VORTEX_DEBUG_IOCTL(WARPS, struct drm_vortex_debug_warps, vortex_debug_warps_ioctl),
	VORTEX_DEBUG_IOCTL(STEP, struct drm_vortex_debug_step, vortex_debug_step_ioctl),
	VORTEX_DEBUG_IOCTL(STATUS, struct drm_vortex_debug_status, vortex_debug_status),
	VORTEX_DEBUG_IOCTL(REGS, struct drm_vortex_debug_regs, vortex_debug_regs),
	VORTEX_DEBUG_IOCTL(MEM, struct drm_vortex_debug_mem, vortex_debug_mem_ioctl),
	VORTEX_DEBUG_IOCTL(BREAKPOINT, struct drm_vortex_debug_breakpoint,
			   vortex_debug_breakpoint_ioctl),
	VORTEX_DEBUG_IOCTL(COREDUMP, struct drm_vortex_debug_coredump,
			   vortex_debug_coredump_ioctl),
	VORTEX_DEBUG_IOCTL(TIMEOUT, struct drm_vortex_debug_timeout,
			   vortex_debug_timeout_ioctl),
	VORTEX_DEBUG_IOCTL(CONSOLE, struct drm_vortex_debug_console,
			   vortex_debug_console_ioctl),
};

/* The table entry for @cmd, or NULL: type, number and direction must match. */
static const struct vortex_debug_ioctl_desc *vortex_debug_ioctl_find(unsigned int cmd)
{
	const struct vortex_debug_ioctl_desc *desc;
	unsigned int nr = _IOC_NR(cmd);

	if (_IOC_TYPE(cmd) != DRM_VORTEX_DEBUG_IOCTL_BASE ||
	    nr >= ARRAY_SIZE(vortex_debug_ioctls))
		return NULL;
	desc = &vortex_debug_ioctls[nr];
	if (!desc->fn || _IOC_DIR(cmd) != _IOC_DIR(desc->cmd))
		return NULL;
	return desc;
}

/*
 * The one shape of every session ioctl (uapi, "Session ioctl sizes"), as
 * drm_ioctl() gives the node's: the caller's struct in, zero-extended or
 * checked for a zero tail, and written back unchanged before anything
 * happens (so an unwritable struct changes nothing); the handler; the
 * struct out, also after a failure (a batch reports what it did).
 */
static long vortex_debug_ioctl(struct file *f, unsigned int cmd,
			       unsigned long arg)
{
	u64 kdata[VORTEX_DEBUG_IOCTL_MAX_SIZE / sizeof(u64)] = {};
	const struct vortex_debug_ioctl_desc *desc;
	struct vortex_debug *dbg = f->private_data;
	void __user *uarg = (void __user *)arg;
	size_t usize = _IOC_SIZE(cmd), ksize, n;
	long ret;
	int idx;

	desc = vortex_debug_ioctl_find(cmd);
	if (!desc)
		return vortex_debug_reject(dbg, -ENOTTY, "unknown session ioctl 0x%x", cmd);
	ksize = _IOC_SIZE(desc->cmd);
	if (usize < desc->min_size)
		return vortex_debug_reject(dbg, -EINVAL, "%s: %zu-byte struct, at least %u needed",
					   desc->name, usize, desc->min_size);
	/* Whoever uses the session must still be allowed to (vortex_debug_perm.c). */
	ret = vortex_debug_may_access(dbg->target);
	if (ret)
		return vortex_debug_reject(dbg, ret, "%s: no ptrace access to the target",
					   desc->name);
	ret = copy_struct_from_user(kdata, ksize, uarg, usize);
	if (ret)
		return vortex_debug_reject(dbg, ret, "%s: struct unreadable or too long",
					   desc->name);
	n = min(usize, ksize);
	if (copy_to_user(uarg, kdata, n))
		return vortex_debug_reject(dbg, -EFAULT, "%s: struct not writable", desc->name);
	if (!drm_dev_enter(&dbg->vdev->drm, &idx))
		return -ENODEV;
	ret = desc->fn(dbg, kdata);
	drm_dev_exit(idx);
	if (copy_to_user(uarg, kdata, n) && !ret)
		ret = -EFAULT;
	if (ret)
		drm_dbg(&dbg->vdev->drm, "debug session: %s: %ld\n", desc->name, ret);
	return ret;
}

/* ------------------------------------------- interrupts and the job */

static void vortex_debug_work(struct work_struct *work)
{
	struct vortex_debug *dbg = container_of(work, struct vortex_debug, work);
	struct vortex_device *vdev = dbg->vdev;
	u32 pending, data[17] = {}, info[4], win;
	struct vortex_job *active;
	unsigned long flags;
	bool ours = false;
	u64 job = 0;
	int idx;

	spin_lock_irqsave(&vdev->job_lock, flags);
	pending = dbg->pending;
	dbg->pending = 0;
	active = vortex_job_active_locked(vdev);
	if (vortex_debug_owns(dbg, active)) {
		job = active->seqno;
		ours = true;
	}
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	/* A session hears of its target's jobs only. */
	if (!ours)
		pending &= ~VORTEX_DEBUG_WORK_HALTED;

	if (!drm_dev_enter(&vdev->drm, &idx))
		return;
	mutex_lock(&vdev->dm.lock);
	if (pending & VORTEX_DEBUG_WORK_EXCEPTION) {
		data[0] = vortex_read(vdev, VX_REG_ERR_CAUSE);
		data[1] = vortex_read(vdev, VX_REG_ERR_WARP);
		data[2] = vortex_read(vdev, VX_REG_ERR_THREAD);
		data[3] = vortex_read(vdev, VX_REG_ERR_PC);
		data[4] = vortex_read(vdev, VX_REG_ERR_ADDR);
		for (win = 0; win < 4; win++) {
			data[5 + win] = vortex_read(vdev, VX_REG_ERR_TMASK(win));
			info[win] = vortex_read(vdev, VX_REG_ERR_INFO(win));
		}
		vortex_dmseq_exception_sides(data, info);
		/* Halted warps can be inspected by injection. */
		vortex_dm_halt_running(vdev);
		vortex_debug_post(dbg, DRM_VORTEX_DEBUG_EVENT_EXCEPTION, job, data,
				  ARRAY_SIZE(data));
	}
	if (pending & VORTEX_DEBUG_WORK_HALTED &&
	    vortex_dmseq_halted_news(&dbg->seq, data))
		vortex_debug_post(dbg, DRM_VORTEX_DEBUG_EVENT_HALTED, job, data, 4);
	mutex_unlock(&vdev->dm.lock);
	drm_dev_exit(idx);
}

/**
 * vortex_debug_irq_debug() - a warp entered debug halt
 * @vdev: the device
 *
 * Hard IRQ; job_lock is not held.
 */
void vortex_debug_irq_debug(struct vortex_device *vdev)
{
	struct vortex_debug *dbg;

	spin_lock(&vdev->job_lock);
	dbg = vdev->debug;
	if (dbg) {
		dbg->pending |= VORTEX_DEBUG_WORK_HALTED;
		queue_work(system_wq, &dbg->work);
	}
	spin_unlock(&vdev->job_lock);
}

/**
 * vortex_debug_irq_error() - an exception: the debugger's, or recovery's?
 * @vdev: the device; job_lock held (hard IRQ)
 *
 * Return: true if a session covers the job on the card: the card stays
 * frozen for the debugger, and recovery is not started.
 */
bool vortex_debug_irq_error(struct vortex_device *vdev)
{
	struct vortex_debug *dbg = vdev->debug;

	lockdep_assert_held(&vdev->job_lock);
	if (!vortex_debug_owns(dbg, vortex_job_active_locked(vdev)))
		return false;
	dbg->frozen = true;
	dbg->pending |= VORTEX_DEBUG_WORK_EXCEPTION;
	queue_work(system_wq, &dbg->work);
	return true;
}

/**
 * vortex_debug_code_object() - tell the debugger of a code object
 * @vfile: the file it is registered on; its list's lock held
 *	(&vortex_code_objects.lock)
 * @ref: the object
 * @told: the object's record of the session told of its load
 * @what: VORTEX_DEBUG_CODE_*
 *
 * A session whose target opened @vfile gets CODE_LOADED once per object
 * (a replay at attach says so in data[5]), and CODE_UNLOADED only for an
 * object it got CODE_LOADED for.
 */
void vortex_debug_code_object(struct vortex_file *vfile,
			      const struct vortex_code_ref *ref, u64 *told, int what)
{
	struct vortex_device *vdev = vfile->vdev;
	struct vortex_debug *dbg;
	unsigned long flags;
	u32 data[6] = {
		ref->id, ref->elf_addr, ref->elf_size, ref->load_addr,
		ref->load_size, what == VORTEX_DEBUG_CODE_REPLAYED,
	};

	lockdep_assert_held(&vfile->code.lock);
	spin_lock_irqsave(&vdev->job_lock, flags);
	dbg = vdev->debug;
	if (!dbg || dbg->target != vfile->pid)
		goto out;
	if (what != VORTEX_DEBUG_CODE_UNLOADED && *told != dbg->id) {
		*told = dbg->id;
		vortex_debug_post(dbg, DRM_VORTEX_DEBUG_EVENT_CODE_LOADED, 0, data,
				  ARRAY_SIZE(data));
	} else if (what == VORTEX_DEBUG_CODE_UNLOADED && *told == dbg->id) {
		vortex_debug_post(dbg, DRM_VORTEX_DEBUG_EVENT_CODE_UNLOADED, 0, data, 1);
	}
out:
	spin_unlock_irqrestore(&vdev->job_lock, flags);
}

/* Every code object of the target's files, to a new session (DM lock held). */
static void vortex_debug_replay_code_objects(struct vortex_debug *dbg)
{
	struct drm_device *drm = &dbg->vdev->drm;
	struct drm_file *file;

	mutex_lock(&drm->filelist_mutex);
	list_for_each_entry(file, &drm->filelist, lhead) {
		struct vortex_file *vfile = file->driver_priv;

		if (vfile->pid == dbg->target)
			vortex_code_object_replay(vfile);
	}
	mutex_unlock(&drm->filelist_mutex);
}

/* LAUNCHED for @job: its grid, block, entry point and code object. */
static void vortex_debug_post_launch(struct vortex_debug *dbg,
				     struct vortex_job *job)
{
	u32 data[12] = {
		job->launch[VX_LAUNCH_GRID_X], job->launch[VX_LAUNCH_GRID_Y],
		job->launch[VX_LAUNCH_GRID_Z], job->launch[VX_LAUNCH_BLOCK_X],
		job->launch[VX_LAUNCH_BLOCK_Y], job->launch[VX_LAUNCH_BLOCK_Z],
		job->launch[VX_LAUNCH_ENTRY], job->code.id, job->code.elf_addr,
		job->code.elf_size, job->code.load_addr, job->code.load_size,
	};

	vortex_debug_post(dbg, DRM_VORTEX_DEBUG_EVENT_LAUNCHED, job->seqno,
			  data, ARRAY_SIZE(data));
}

/*
 * A halt-at-start arms every warp of the card (the reset applies the
 * resethaltreq latch to all of them), and a warp stays armed until it is
 * launched: those the halted job did not use would halt the next job that
 * uses them, of this client or another, at its first instruction.  The
 * latch is empty again by now, so one more reset disarms them all.  DM
 * lock held, card idle.
 */
static void vortex_debug_disarm_leftover(struct vortex_debug *dbg)
{
	if (!dbg->armed_leftover)
		return;
	vortex_device_reset(dbg->vdev);
	dbg->armed_leftover = false;
}

/**
 * vortex_debug_job_start() - a job is going on the card
 * @vdev: the device; DM lock held, card idle
 * @job: the job
 *
 * For the target's job: arms halt-at-start if asked, for this launch or
 * every one (the warps halt before their first instruction), makes ebreak
 * halt its warp, and queues LAUNCHED.  For any other job, undoes both: a
 * session changes nothing for the card's other clients.
 */
void vortex_debug_job_start(struct vortex_device *vdev, struct vortex_job *job)
{
	struct vortex_debug *dbg;
	unsigned long flags;

	lockdep_assert_held(&vdev->dm.lock);
	spin_lock_irqsave(&vdev->job_lock, flags);
	dbg = vdev->debug;
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	if (!dbg)
		return;
	/*
	 * Another client's job runs as if no session existed: its ebreak
	 * fails it, and no warp of it is left armed to halt at its start.
	 */
	vortex_debug_disarm_leftover(dbg);
	if (!vortex_debug_owns(dbg, job)) {
		vortex_dmseq_set_dconfig(&vdev->dm.seq, 0);
		/* Another client has the card: nobody waits on the target now. */
		spin_lock_irqsave(&vdev->job_lock, flags);
		dbg->contended_ns = 0;
		spin_unlock_irqrestore(&vdev->job_lock, flags);
		return;
	}
	/* An ebreak halts the warp instead of failing the job. */
	vortex_dmseq_set_dconfig(&vdev->dm.seq, VX_DCONFIG_EBREAKH);
	vortex_debug_console_follow(dbg, job->vfile);

	/* The warps this job does not launch stay armed: see above. */
	if (vortex_dmseq_launch(&dbg->seq))
		dbg->armed_leftover = true;
	dbg->last_run_ns = ktime_get_ns();
	vortex_debug_post_launch(dbg, job);
}

/**
 * vortex_debug_job_end_locked() - a job left the card
 * @vdev: the device
 * @job: the job
 * @error: how it ended: 0 or a negative errno
 *
 * job_lock is held.
 */
void vortex_debug_job_end_locked(struct vortex_device *vdev,
				 struct vortex_job *job, int error)
{
	struct vortex_debug *dbg = vdev->debug;
	u32 status = error;

	lockdep_assert_held(&vdev->job_lock);
	if (!vortex_debug_owns(dbg, job))
		return;
	dbg->frozen = false;
	if (error == -ETIMEDOUT) {
		u32 ms = div_u64(ktime_get_ns() - job->start_ns, NSEC_PER_MSEC);

		vortex_debug_post(dbg, DRM_VORTEX_DEBUG_EVENT_TIMEOUT, job->seqno,
				  &ms, 1);
	}
	vortex_debug_post(dbg, DRM_VORTEX_DEBUG_EVENT_FINISHED, job->seqno,
			  &status, 1);
}

/**
 * vortex_debug_job_queued_locked() - a job goes to the scheduler
 * @vdev: the device; job_lock held
 * @job: the job
 *
 * Another client's job now waits for the card (the target's job is on it,
 * or will be before this one): the target's hold on the card is bounded
 * from here (vortex_debug_job_paused()).
 */
void vortex_debug_job_queued_locked(struct vortex_device *vdev,
				    struct vortex_job *job)
{
	struct vortex_debug *dbg = vdev->debug;

	lockdep_assert_held(&vdev->job_lock);
	if (dbg && !vortex_debug_owns(dbg, job) && !dbg->contended_ns)
		dbg->contended_ns = ktime_get_ns();
}

/* The target's run-time limit in ns; U64_MAX for none. */
static u64 vortex_debug_timeout_ns(struct vortex_debug *dbg)
{
	u32 ms = READ_ONCE(dbg->timeout_ms);

	if (ms == DRM_VORTEX_DEBUG_TIMEOUT_NONE)
		return U64_MAX;
	return (u64)(ms ?: vortex_job_timeout_ms) * NSEC_PER_MSEC;
}

/**
 * vortex_debug_job_paused() - whether the timeout must spare the job now
 * @vdev: the device
 * @job: the job the scheduler timed out
 *
 * From the timeout handler only (it takes the DM lock).
 *
 * Return: true while a session covers the job and the card is frozen for
 * it, any of its warps is halted, or it has run for less than the
 * session's timeout since it was last resumed; but false once another
 * client's job has waited ``debug_hold_ms`` for the card, unless the
 * session is privileged.
 */
bool vortex_debug_job_paused(struct vortex_device *vdev, struct vortex_job *job)
{
	u64 ran, now = ktime_get_ns();
	struct vortex_debug *dbg;
	bool paused = false;
	unsigned long flags;
	u32 win;
	int idx;

	if (!drm_dev_enter(&vdev->drm, &idx))
		return false;
	mutex_lock(&vdev->dm.lock);
	spin_lock_irqsave(&vdev->job_lock, flags);
	dbg = vdev->debug;
	/* @job may be gone unless it is the active job: check that first. */
	if (vortex_job_active_locked(vdev) != job || !vortex_debug_owns(dbg, job)) {
		dbg = NULL;
	} else if (!dbg->privileged && dbg->contended_ns &&
		   now - dbg->contended_ns >=
		   (u64)READ_ONCE(vortex_debug_hold_ms) * NSEC_PER_MSEC) {
		drm_dbg(&vdev->drm, "debugged job held the card %u ms past another's arrival\n",
			(u32)div_u64(now - dbg->contended_ns, NSEC_PER_MSEC));
		dbg = NULL;
	} else {
		paused = dbg->frozen;
	}
	spin_unlock_irqrestore(&vdev->job_lock, flags);

	if (dbg && !paused) {
		for (win = 0; win < vdev->dm.windows && !paused; win++)
			paused = vortex_dm_window(vdev, VX_DM_WSTATUS, win);
		ran = now - dbg->last_run_ns;
		paused |= ran < vortex_debug_timeout_ns(dbg);
	}
	mutex_unlock(&vdev->dm.lock);
	drm_dev_exit(idx);
	return paused;
}

/* --------------------------------------------------- attach, detach */

/* Undoes what the session did to the card.  DM lock held, device entered. */
static void vortex_debug_cleanup_card(struct vortex_debug *dbg)
{
	struct vortex_device *vdev = dbg->vdev;

	vortex_dmseq_bp_clear_all(&dbg->bps, true);
	/* Resets the DM's registers and resumes every warp it had halted. */
	vortex_dmseq_deactivate(&vdev->dm.seq);
}

/*
 * Unpublishes the session and undoes what it did to the card: breakpoints
 * restored, halted warps resumed, a frozen job ended.
 */
static void vortex_debug_detach(struct vortex_debug *dbg)
{
	struct vortex_device *vdev = dbg->vdev;
	unsigned long flags;
	int idx;

	atomic_notifier_chain_unregister(&vdev->dump.listeners, &dbg->dump_nb);
	spin_lock_irqsave(&vdev->job_lock, flags);
	vdev->debug = NULL;
	vdev->irq_mask &= ~VX_IRQ_DEBUG;
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	cancel_work_sync(&dbg->work);

	if (drm_dev_enter(&vdev->drm, &idx)) {
		mutex_lock(&vdev->dm.lock);
		vortex_device_irq_enable(vdev);
		vortex_debug_unfreeze(dbg);
		vortex_debug_cleanup_card(dbg);
		mutex_unlock(&vdev->dm.lock);
		drm_dev_exit(idx);
	}
}

static void vortex_debug_free(struct vortex_debug *dbg)
{
	/* Left by a detach that found the card gone. */
	vortex_dmseq_bp_clear_all(&dbg->bps, false);
	vortex_debug_console_release(dbg);
	put_pid(dbg->target);
	kvfree(dbg);
}

static int vortex_debug_release(struct inode *inode, struct file *f)
{
	struct vortex_debug *dbg = f->private_data;
	struct drm_device *drm = &dbg->vdev->drm;

	vortex_debug_detach(dbg);
	vortex_debug_free(dbg);
	drm_dev_put(drm);
	return 0;
}

static const struct file_operations vortex_debug_fops = {
	.owner = THIS_MODULE,
	.release = vortex_debug_release,
	.read = vortex_debug_read,
	.poll = vortex_debug_poll,
	.unlocked_ioctl = vortex_debug_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/* Publishes @dbg as the device's session: -EBUSY if there is one. */
static int vortex_debug_publish(struct vortex_debug *dbg)
{
	struct vortex_device *vdev = dbg->vdev;
	struct vortex_job *job;
	unsigned long flags;
	int ret;

	mutex_lock(&vdev->dm.lock);
	ret = vortex_dm_activate(vdev);
	if (ret)
		goto out_unlock;
	spin_lock_irqsave(&vdev->job_lock, flags);
	if (vdev->debug) {
		ret = -EBUSY;
	} else {
		vdev->debug = dbg;
		vdev->irq_mask |= VX_IRQ_DEBUG;
	}
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	if (ret)
		goto out_unlock;
	atomic_notifier_chain_register(&vdev->dump.listeners, &dbg->dump_nb);
	vortex_device_irq_enable(vdev);
	/* What the target registered before, then its job on the card. */
	vortex_debug_replay_code_objects(dbg);
	/*
	 * Attached mid-job: the debugger learns of it as if it just started
	 * (under job_lock, where the job on the card cannot be freed), and
	 * from now on its ebreak halts its warp.  Other jobs' ebreaks fail
	 * them as before (vortex_debug_job_start()).
	 */
	spin_lock_irqsave(&vdev->job_lock, flags);
	job = vortex_job_active_locked(vdev);
	if (vortex_debug_owns(dbg, job)) {
		vortex_dmseq_set_dconfig(&vdev->dm.seq, VX_DCONFIG_EBREAKH);
		dbg->last_run_ns = ktime_get_ns();
		vortex_debug_post_launch(dbg, job);
	}
	spin_unlock_irqrestore(&vdev->job_lock, flags);
out_unlock:
	mutex_unlock(&vdev->dm.lock);
	return ret;
}

/**
 * vortex_debug_attach_ioctl() - DRM_IOCTL_VORTEX_DEBUG_ATTACH
 * @drm: the DRM device
 * @data: the ioctl's arguments (copied in and out by DRM)
 * @file: the caller's DRM file
 *
 * Opens a debugger session on a process's jobs; the session is the
 * file descriptor returned in the arguments.
 *
 * Return: 0, or a negative errno.
 */
int vortex_debug_attach_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct vortex_device *vdev = to_vortex_device(drm);
	struct vortex_file *vfile = file->driver_priv;
	struct drm_vortex_debug_attach *args = data;
	struct vortex_debug *dbg;
	struct file *f;
	int fd, ret;

	if (!vortex_debug_enable)
		return -EOPNOTSUPP;
	if (args->flags || args->pad ||
	    (args->version != DRM_VORTEX_DEBUG_VERSION && args->version != 2))
		return -EINVAL;
	ret = vortex_debug_may_access(vfile->pid);
	if (ret) {
		drm_dbg(drm, "DEBUG_ATTACH: no ptrace access to the file's owner (%d)\n",
			ret);
		return ret;
	}

	dbg = kvzalloc(sizeof(*dbg), GFP_KERNEL_ACCOUNT);
	if (!dbg)
		return -ENOMEM;
	dbg->vdev = vdev;
	dbg->id = atomic64_inc_return(&vortex_debug_session_ids);
	dbg->target = get_pid(vfile->pid);
	dbg->privileged = capable(CAP_SYS_ADMIN);
	dbg->event_size = args->version == 2 ? DRM_VORTEX_DEBUG_EVENT_SIZE_V2 :
					       sizeof(struct drm_vortex_debug_event);
	spin_lock_init(&dbg->ev_lock);
	init_waitqueue_head(&dbg->ev_wait);
	INIT_WORK(&dbg->work, vortex_debug_work);
	dbg->dump_nb.notifier_call = vortex_debug_dump_published;
	dbg->seq.dm = &vdev->dm.seq;
	dbg->seq.ops = &vortex_debug_seq_ops;
	dbg->seq.priv = dbg;
	dbg->seq.bps = &dbg->bps;
	dbg->bps.ops = &vortex_debug_bp_ops;
	dbg->bps.priv = dbg;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		ret = fd;
		goto err_free;
	}
	ret = vortex_debug_publish(dbg);
	if (ret)
		goto err_put_fd;
	f = anon_inode_getfile("[vortex-debug]", &vortex_debug_fops, dbg, O_RDWR);
	if (IS_ERR(f)) {
		ret = PTR_ERR(f);
		goto err_detach;
	}

	/* The file's release drops it. */
	drm_dev_get(drm);
	args->fd = fd;
	fd_install(fd, f);
	return 0;

err_detach:
	vortex_debug_detach(dbg);
err_put_fd:
	put_unused_fd(fd);
err_free:
	vortex_debug_free(dbg);
	return ret;
}
