/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_COMPAT_H__
#define __VORTEX_COMPAT_H__

/**
 * DOC: Kernel versions
 *
 * The only place that knows kernel versions (docs/kernels.md).  The driver
 * is written against the newest kernel's API, Debian's 7.3 today; each
 * guard below gives an older kernel, down to Debian's 6.12, what one
 * upstream change took away or renamed, and names that change.  Debian's
 * 6.12.y took two drm_sched changes from later kernels, at 6.12.103 (the
 * client id of drm_sched_job_init()) and 6.12.114 (struct
 * drm_sched_init_args).  `make check` builds and boots 6.12 and the
 * newest; the versions of the guards in between are those of the merge
 * window each change went in, not tested.
 */

#include <linux/version.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/dma-fence.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gpuvm.h>
#include <drm/gpu_scheduler.h>

/*
 * DRM core bugs the driver works around, each fixed by a patch in
 * patches/ (patches/README), none merged yet.  A guard is 1 on every
 * kernel up to the newest the driver is known on (Debian's 7.3, whose
 * sources have both bugs) and 0 past it.  When a release takes a fix, its
 * guard becomes "< KERNEL_VERSION(that release)" (with the stable
 * releases that took it, if any), the patch leaves patches/, and the
 * work-around goes once the oldest kernel the driver builds on has it.
 * Until then, a kernel newer than 7.3 that still has the bug needs its
 * guard moved up to it.
 */

/*
 * drm_getmagic() and drm_getunique() dereference file->master, which an
 * accel file never has (drm_open_helper() opens one for primary clients
 * only): DRM_IOCTL_GET_MAGIC and DRM_IOCTL_GET_UNIQUE on the accel node
 * oops the kernel.  The driver's filter refuses both with -EOPNOTSUPP
 * (vortex_core_ioctl.c); a fixed kernel answers the same itself.
 * patches/drm-core-0001-drm-Refuse-GET_MAGIC-and-GET_UNIQUE-on-files-without.patch
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 4, 0)
#define VORTEX_DRM_ACCEL_MASTER_OOPS	1
#else
#define VORTEX_DRM_ACCEL_MASTER_OOPS	0
#endif

/*
 * The syncobj array ioctls pass their count_handles, unbounded, to
 * kmalloc_array() (drm_syncobj_array_find()): a count near 2^32 trips the
 * page allocator's WARN.  The driver bounds the count before DRM and
 * serves WAIT, RESET and SIGNAL itself from one copy of their argument
 * (vortex_syncobj.c), so that no second thread can raise it in between.
 * On a fixed kernel the bound stays (the uapi's), the three go to DRM.
 * patches/drm-core-0002-drm-syncobj-Do-not-warn-on-arrays-sized-by-userspace.patch
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 4, 0)
#define VORTEX_DRM_SYNCOBJ_COUNT_WARNS	1
#else
#define VORTEX_DRM_SYNCOBJ_COUNT_WARNS	0
#endif

static inline int vortex_sched_init(struct drm_gpu_scheduler *sched,
				    const struct drm_sched_backend_ops *ops,
				    struct workqueue_struct *submit_wq,
				    long timeout,
				    struct workqueue_struct *timeout_wq,
				    const char *name, struct device *dev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 114)
	const struct drm_sched_init_args args = {
		.ops = ops,
		.submit_wq = submit_wq,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = 1,
		.timeout = timeout,
		.timeout_wq = timeout_wq,
		.name = name,
		.dev = dev,
	};

	return drm_sched_init(sched, &args);
#else
	return drm_sched_init(sched, ops, submit_wq, DRM_SCHED_PRIORITY_COUNT,
			      1, 0, timeout, timeout_wq, NULL, name, dev);
#endif
}

static inline int vortex_sched_job_init(struct drm_sched_job *job,
					struct drm_sched_entity *entity,
					struct drm_file *file)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 103)
	return drm_sched_job_init(job, entity, 1, NULL, file->client_id);
#else
	return drm_sched_job_init(job, entity, 1, NULL);
#endif
}

/*
 * 6.13, b2ef808786d9 ("drm/sched: add optional errno to drm_sched_start()").
 * Before it, drm_sched_start() took no error.  Here and below, the old
 * kernel's function gets the new signature through a wrapper defined
 * before the name is redirected to it, so the wrapper calls the original.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline void __vortex_drm_sched_start(struct drm_gpu_scheduler *sched, int errno)
{
	drm_sched_start(sched);
}

#define drm_sched_start __vortex_drm_sched_start
#endif

/*
 * 6.14, cb2e1c2136f7 ("drm: remove driver date from struct drm_driver and
 * all drivers").  Before it, DRM_IOCTL_VERSION copies the date with
 * strlen(): a driver without one oopses there.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 14, 0)
#define VORTEX_DRIVER_DATE .date = "20261122",
#else
#define VORTEX_DRIVER_DATE
#endif

/*
 * 6.17, 0a5dc1b67ef5 ("drm/sched: Rename DRM_GPU_SCHED_STAT_NOMINAL to
 * DRM_GPU_SCHED_STAT_RESET").
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
#define DRM_GPU_SCHED_STAT_RESET DRM_GPU_SCHED_STAT_NOMINAL
#endif

/**
 * vortex_sched_no_hang() - a timed-out job turned out not to be hung
 * @job: the job the timeout handler was called for
 *
 * The scheduler takes @job off its pending list before it calls the
 * timeout handler.  Since 6.17, 0b1217bfdfdd ("drm/sched: Allow drivers to
 * skip the reset and keep on running"), the handler returns
 * %DRM_GPU_SCHED_STAT_NO_HANG and the scheduler puts the job back.  Before
 * it, the job came back only through drm_sched_stop(), which a handler
 * that resets nothing must not call: the driver puts it back itself, under
 * the list's lock, as etnaviv and v3d did.
 *
 * Return: what the timeout handler returns.
 */
static inline enum drm_gpu_sched_stat vortex_sched_no_hang(struct drm_sched_job *job)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
	return DRM_GPU_SCHED_STAT_NO_HANG;
#else
	struct drm_gpu_scheduler *sched = job->sched;

	spin_lock(&sched->job_list_lock);
	list_add(&job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	return DRM_GPU_SCHED_STAT_RESET;
#endif
}

/*
 * 6.18, 000a45dce7ad ("drm/gpuvm: Pass map arguments through a struct").
 * (3309323241fb, "drm/gpuvm: Kill drm_gpuva_init()", the same release:
 * the driver fills a struct drm_gpuva_op_map and calls
 * drm_gpuva_init_from_op(), which every version has.)
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 18, 0)
struct drm_gpuvm_map_req {
	struct drm_gpuva_op_map map;
};

static inline int __vortex_drm_gpuvm_sm_map(struct drm_gpuvm *gpuvm, void *priv,
					    const struct drm_gpuvm_map_req *req)
{
	return drm_gpuvm_sm_map(gpuvm, priv, req->map.va.addr, req->map.va.range,
				req->map.gem.obj, req->map.gem.offset);
}

#define drm_gpuvm_sm_map __vortex_drm_gpuvm_sm_map
#endif

/*
 * 7.0, 9bf4ca1e699c ("drm/gpuvm: drm_gpuvm_bo_obtain() requires lock and
 * staged mode"): renamed, same contract for a staged-mode VM whose
 * buffer's reservation is held, as the driver's is.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 0, 0)
#define drm_gpuvm_bo_obtain_locked drm_gpuvm_bo_obtain
#endif

/*
 * 7.1, 541c8f2468b9 ("dma-buf: detach fence ops on signal v3"): a
 * signalled fence without release and wait ops (the driver's) loses its
 * ops, which so no longer tell an initialised fence from a zeroed one;
 * 2bcbc706dfa0 ("dma-buf: add dma_fence_was_initialized function v2")
 * does.  Before them, ops did.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 1, 0)
static inline bool dma_fence_was_initialized(struct dma_fence *fence)
{
	return fence && fence->ops;
}
#endif

/*
 * 7.3, 21fcb222f0d1 ("drm: Remove DRIVER_GEM_GPUVA feature flag"): every
 * GEM object has its GPUVA list now.  Before it the driver asks for one.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 3, 0)
#define VORTEX_DRIVER_GEM_GPUVA DRIVER_GEM_GPUVA
#else
#define VORTEX_DRIVER_GEM_GPUVA 0
#endif

/*
 * 7.3, 1050f28d3e6a ("mm: provide vma_[flags_]is_cow_mapping() and remove
 * is_cow_mapping()").
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 3, 0)
static inline bool vma_is_cow_mapping(const struct vm_area_struct *vma)
{
	return is_cow_mapping(vma->vm_flags);
}
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0)
#include <linux/sched/exec_state.h>
#else
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#endif

/**
 * vortex_task_dump_allowed() - the dumpability half of ptrace's check
 * @task: the target
 *
 * Whether @task is dumpable by its owner, or the caller has
 * CAP_SYS_PTRACE in the user namespace @task's exec ran in: what
 * __ptrace_may_access() asks after the credentials.  Since 7.2,
 * 6b1c66c9cca9 ("exec_state: relocate dumpable information"), both live
 * in the task's exec state, RCU-protected, whose accessors are not
 * exported; before it, in the task's mm (none for a task without one).
 *
 * Return: true if that half lets the caller in.
 */
static inline bool vortex_task_dump_allowed(struct task_struct *task)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0)
	struct task_exec_state *es;
	struct user_namespace *ns;
	bool ok;

	rcu_read_lock();
	es = rcu_dereference(task->exec_state);
	ok = READ_ONCE(es->dumpable) == TASK_DUMPABLE_OWNER;
	ns = get_user_ns(es->user_ns);
	rcu_read_unlock();
	ok = ok || ns_capable(ns, CAP_SYS_PTRACE);
	put_user_ns(ns);
	return ok;
#else
	struct mm_struct *mm = get_task_mm(task);
	bool ok = true;

	if (mm) {
		ok = get_dumpable(mm) == SUID_DUMP_USER ||
		     ns_capable(mm->user_ns, CAP_SYS_PTRACE);
		mmput(mm);
	}
	return ok;
#endif
}

/*
 * devcoredump's release (devcd_dev_release(), drivers/base/devcoredump.c)
 * calls the driver's ->free before it removes the failing device's
 * ``devcoredump`` link, so a dump published from ->free collides with
 * that link; vortex_dump_publish.c then ends its hold one work item
 * later, or once the link is gone.  patches/devcoredump-0001-* removes the link first; no released
 * kernel has it yet: once one does, put its version here.
 */
#define VORTEX_DEVCD_UNLINKS_FIRST	KERNEL_VERSION(255, 0, 0)
#define VORTEX_DEVCD_FREES_BEFORE_UNLINK \
	(LINUX_VERSION_CODE < VORTEX_DEVCD_UNLINKS_FIRST)

#endif /* __VORTEX_COMPAT_H__ */
