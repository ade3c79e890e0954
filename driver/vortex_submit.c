// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: SUBMIT and WAIT
 *
 * SUBMIT turns a launch request into a &struct vortex_job: everything the
 * user passed is checked before anything is allocated or looked up
 * (flags, padding, dimensions and their products, buffer list shape), then
 * the buffers are looked up with references and every device address the
 * card will use (entry, argument block, the whole stack area) must fall
 * inside one of them.  Only then is the job armed and queued, so a failed
 * SUBMIT changes nothing.
 *
 * A file may have at most %VORTEX_MAX_JOBS_IN_FLIGHT jobs submitted and
 * not yet freed; SUBMIT beyond that is -EBUSY (the caller WAITs for one of
 * its jobs and tries again).  What SUBMIT allocates is charged to the
 * caller's memory cgroup, so a client that queues much pays for it itself.
 *
 * WAIT finds a job by the file's seqno in a ring of the file's last
 * %VORTEX_WAIT_HISTORY finished fences and reports how it ended.  The
 * bound on jobs in flight is below that history, so a job that has not
 * ended is always found.
 */

#include <linux/dma-fence.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>
#include <drm/drm_utils.h>

#include "vortex_accel.h"
#include "vortex_compat.h"
#include "vortex_device.h"
#include "vortex_gem.h"
#include "vortex_job.h"
#include "vortex_vm.h"

#define VORTEX_SUBMIT_MAX_BOS	4096

/* WAIT must remember every job that has not ended yet. */
static_assert(VORTEX_MAX_JOBS_IN_FLIGHT < VORTEX_WAIT_HISTORY);

/* @a * @b * @c, or U64_MAX if that does not fit. */
static u64 vortex_mul3(u32 a, u32 b, u32 c)
{
	u64 r;

	if (check_mul_overflow((u64)a * b, (u64)c, &r))
		return U64_MAX;
	return r;
}

static int vortex_job_check_args(struct vortex_device *vdev,
				 const struct drm_vortex_submit *args)
{
	struct drm_device *drm = &vdev->drm;
	u64 block, grid, threads;

	if (args->flags & ~DRM_VORTEX_SUBMIT_FLAGS) {
		drm_dbg(drm, "SUBMIT: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (args->pad) {
		drm_dbg(drm, "SUBMIT: pad not zero\n");
		return -EINVAL;
	}
	if (!args->bo_count || args->bo_count > VORTEX_SUBMIT_MAX_BOS) {
		drm_dbg(drm, "SUBMIT: bo_count %u\n", args->bo_count);
		return -EINVAL;
	}
	if (args->bo_stride < sizeof(struct drm_vortex_submit_bo) ||
	    args->bo_stride > SZ_4K) {
		drm_dbg(drm, "SUBMIT: bo_stride %u\n", args->bo_stride);
		return -EINVAL;
	}

	if (args->flags & DRM_VORTEX_SUBMIT_CORES) {
		if (args->entry_pc || args->arg_addr || args->stack_addr ||
		    args->stack_size || memchr_inv(args->grid, 0, sizeof(args->grid)) ||
		    memchr_inv(args->block, 0, sizeof(args->block))) {
			drm_dbg(drm, "SUBMIT: CORES with an entry, argument, grid, block or stack\n");
			return -EINVAL;
		}
		return 0;
	}
	block = vortex_mul3(args->block[0], args->block[1], args->block[2]);
	grid = vortex_mul3(args->grid[0], args->grid[1], args->grid[2]);
	if (!block || !grid) {
		drm_dbg(drm, "SUBMIT: zero grid or block dimension\n");
		return -EINVAL;
	}
	if (block > (u64)vdev->num_warps * vdev->num_threads) {
		drm_dbg(drm, "SUBMIT: block of %llu threads does not fit a core\n",
			block);
		return -EINVAL;
	}
	if (check_mul_overflow(grid, block, &threads) || threads > U32_MAX) {
		drm_dbg(drm, "SUBMIT: grid too large\n");
		return -EINVAL;
	}

	if (args->entry_pc & 3) {
		drm_dbg(drm, "SUBMIT: entry_pc 0x%llx not aligned\n", args->entry_pc);
		return -EINVAL;
	}
	if (args->stack_size % 16 || !args->stack_size != !args->stack_addr) {
		drm_dbg(drm, "SUBMIT: bad stack %llu bytes at 0x%llx\n",
			args->stack_size, args->stack_addr);
		return -EINVAL;
	}
	return 0;
}

/* Copies the BO list and takes a reference on each buffer. */
static int vortex_job_lookup_bos(struct vortex_job *job, struct drm_file *file,
				 const struct drm_vortex_submit *args)
{
	struct drm_device *drm = &job->vdev->drm;
	void __user *ubos = u64_to_user_ptr(args->bos);
	struct drm_vortex_submit_bo sbo, chunk[16];
	u32 i;
	int ret;

	if (args->bo_count <= VORTEX_JOB_FEW_BOS) {
		job->bos = job->few_bos;
		job->bo_flags = job->few_bo_flags;
	} else {
		job->bos = kvcalloc(args->bo_count, sizeof(*job->bos),
				    GFP_KERNEL_ACCOUNT);
		job->bo_flags = kvcalloc(args->bo_count, sizeof(*job->bo_flags),
					 GFP_KERNEL_ACCOUNT);
		if (!job->bos || !job->bo_flags)
			return -ENOMEM;
	}
	job->bo_count = args->bo_count;

	for (i = 0; i < args->bo_count; i++) {
		/*
		 * Entries of today's size come in chunks, one copy each; longer
		 * ones from newer userspace one by one, ending in zeroes.
		 */
		if (args->bo_stride == sizeof(sbo)) {
			if (i % ARRAY_SIZE(chunk) == 0 &&
			    copy_from_user(chunk, ubos + (u64)i * sizeof(sbo),
					   min_t(u32, args->bo_count - i,
						 ARRAY_SIZE(chunk)) * sizeof(sbo))) {
				drm_dbg(drm, "SUBMIT: bos[%u] unreadable\n", i);
				return -EFAULT;
			}
			sbo = chunk[i % ARRAY_SIZE(chunk)];
		} else {
			ret = copy_struct_from_user(&sbo, sizeof(sbo),
						    ubos + (u64)i * args->bo_stride,
						    args->bo_stride);
			if (ret) {
				drm_dbg(drm, "SUBMIT: bos[%u] unreadable (%d)\n", i, ret);
				return ret == -E2BIG ? -EINVAL : ret;
			}
		}
		if (sbo.flags & ~DRM_VORTEX_SUBMIT_BO_FLAGS) {
			drm_dbg(drm, "SUBMIT: bos[%u] flags 0x%x\n", i, sbo.flags);
			return -EINVAL;
		}
		job->bos[i] = drm_gem_object_lookup(file, sbo.handle);
		if (!job->bos[i]) {
			drm_dbg(drm, "SUBMIT: bos[%u] no handle %u\n", i, sbo.handle);
			return -ENOENT;
		}
		job->bo_flags[i] = sbo.flags;
	}
	return 0;
}

/*
 * Whether [@addr, @addr + @len) lies in one buffer the job lists: at the
 * buffer's own address, or inside one mapping of it that VM_BIND made.
 */
static bool vortex_job_has_range(struct vortex_job *job, u64 addr, u64 len)
{
	struct drm_gem_object *obj;
	u64 avail = 0, vram;
	bool found = false;
	u32 i;

	for (i = 0; i < job->bo_count; i++) {
		struct vortex_bo *bo = to_vortex_bo(job->bos[i]);
		u64 start;

		if (vortex_bo_no_map(bo))
			continue;
		start = vortex_bo_devaddr(bo);
		if (addr >= start && len <= bo->base.size &&
		    addr - start <= bo->base.size - len)
			return true;
	}
	obj = vortex_vm_get_bo(job->vfile->vm, addr, &avail, &vram);
	if (!obj)
		return false;
	for (i = 0; i < job->bo_count && !found; i++)
		found = job->bos[i] == obj && avail >= len;
	drm_gem_object_put(obj);
	return found;
}

static int vortex_job_check_addrs(struct vortex_job *job,
				  const struct drm_vortex_submit *args)
{
	struct vortex_device *vdev = job->vdev;
	struct drm_device *drm = &vdev->drm;
	u64 hw_threads, stack_bytes;

	if (!vortex_job_has_range(job, args->entry_pc, 4)) {
		drm_dbg(drm, "SUBMIT: entry_pc 0x%llx outside the job's BOs\n",
			args->entry_pc);
		return -EINVAL;
	}
	if (args->arg_addr && !vortex_job_has_range(job, args->arg_addr, 1)) {
		drm_dbg(drm, "SUBMIT: arg_addr 0x%llx outside the job's BOs\n",
			args->arg_addr);
		return -EINVAL;
	}
	if (!args->stack_size)
		return 0;

	/* One slice per hardware thread of the whole card. */
	hw_threads = (u64)vortex_device_total_warps(vdev) * vdev->num_threads;
	if (args->stack_size > U32_MAX ||
	    check_mul_overflow(hw_threads, args->stack_size, &stack_bytes) ||
	    !vortex_job_has_range(job, args->stack_addr, stack_bytes)) {
		drm_dbg(drm, "SUBMIT: stack of %llu x %llu bytes at 0x%llx outside the job's BOs\n",
			hw_threads, args->stack_size, args->stack_addr);
		return -EINVAL;
	}
	return 0;
}

static void vortex_job_build_launch(struct vortex_job *job,
				    const struct drm_vortex_submit *args)
{
	u32 *l = job->launch;

	l[VX_LAUNCH_ENTRY] = args->entry_pc;
	l[VX_LAUNCH_ARG] = args->arg_addr;
	l[VX_LAUNCH_GRID_X] = args->grid[0];
	l[VX_LAUNCH_GRID_Y] = args->grid[1];
	l[VX_LAUNCH_GRID_Z] = args->grid[2];
	l[VX_LAUNCH_BLOCK_X] = args->block[0];
	l[VX_LAUNCH_BLOCK_Y] = args->block[1];
	l[VX_LAUNCH_BLOCK_Z] = args->block[2];
	l[VX_LAUNCH_STACK_BASE] = args->stack_addr;
	l[VX_LAUNCH_STACK_SIZE] = args->stack_size;
	l[VX_LAUNCH_FLAGS] = args->flags & DRM_VORTEX_SUBMIT_CORES ?
			     VX_LAUNCH_FLAG_CORES : 0;
	l[VX_LAUNCH_SATP] = vortex_vm_satp(job->vfile->vm);
}

/*
 * A new job, counted against the file's bound; -EBUSY when the file has
 * %VORTEX_MAX_JOBS_IN_FLIGHT jobs that are not freed yet.  Its memory is
 * charged to the caller's memory cgroup, like everything SUBMIT allocates
 * for it.
 */
static struct vortex_job *vortex_job_alloc(struct vortex_file *vfile, u32 bo_count)
{
	struct vortex_device *vdev = vfile->vdev;
	struct vortex_job *job;
	int ret;

	if (atomic_inc_return(&vfile->jobs_in_flight) > VORTEX_MAX_JOBS_IN_FLIGHT) {
		atomic_dec(&vfile->jobs_in_flight);
		drm_dbg(&vdev->drm, "SUBMIT: %u jobs in flight already\n",
			VORTEX_MAX_JOBS_IN_FLIGHT);
		return ERR_PTR(-EBUSY);
	}
	/* And against its user's, over all files (vortex_user.c). */
	ret = vortex_user_job_add(vfile->user, bo_count);
	if (ret) {
		atomic_dec(&vfile->jobs_in_flight);
		return ERR_PTR(ret);
	}

	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job)
		goto err_uncount;
	job->hw_fence = kzalloc(sizeof(*job->hw_fence), GFP_KERNEL_ACCOUNT);
	if (!job->hw_fence)
		goto err_free_job;
	job->user_bo_refs = bo_count;
	job->vdev = vdev;
	kref_get(&vfile->ref);
	job->vfile = vfile;
	/* Before any handle is looked up: see vortex_vm_gem_close(). */
	vortex_vm_job_get(vfile->vm, &job->vm_ticket);
	vortex_job_account(vdev);
	return job;

err_free_job:
	kfree(job);
err_uncount:
	vortex_user_job_del(vfile->user, bo_count);
	atomic_dec(&vfile->jobs_in_flight);
	return ERR_PTR(-ENOMEM);
}

/*
 * Whether the job's in-syncobj, if any, has signalled without error:
 * nothing to wait for.  (A failed in-fence fails the job: the scheduler
 * does that.)
 */
static bool vortex_job_deps_done(struct drm_file *file, u32 in_sync)
{
	struct dma_fence *fence;
	bool done;

	if (!in_sync)
		return true;
	if (drm_syncobj_find_fence(file, in_sync, 0, 0, &fence))
		return false;
	done = dma_fence_get_status(fence) == 1;
	dma_fence_put(fence);
	return done;
}

/*
 * Makes @job its file's next job: its seqno and its code object.  Both
 * lanes do this and publish under the file's lock, which keeps seqnos in
 * the order the jobs reach the card.
 */
static void vortex_job_name_locked(struct vortex_job *job, struct drm_vortex_submit *args)
{
	struct vortex_file *vfile = job->vfile;

	lockdep_assert_held(&vfile->lock);
	job->seqno = vfile->seqno + 1;
	vortex_code_object_find(vfile, args->entry_pc, &job->code);
}

/* Makes @done the fence WAIT finds for the job's seqno, and returns it in @args. */
static void vortex_job_publish_locked(struct vortex_job *job, struct drm_vortex_submit *args,
				      struct dma_fence *done)
{
	struct vortex_file *vfile = job->vfile;
	struct dma_fence **slot;

	lockdep_assert_held(&vfile->lock);
	args->seqno = vfile->seqno + 1;
	WRITE_ONCE(vfile->seqno, args->seqno);	/* WAIT peeks without the lock */
	slot = &vfile->fences[args->seqno % VORTEX_WAIT_HISTORY];
	dma_fence_put(*slot);
	*slot = dma_fence_get(done);
}

/* What WAIT reports for a job whose fence status (dma_fence_get_status()) is @error. */
static int vortex_job_status_of(int error)
{
	switch (error) {
	case 1:
		return 0;
	case -ETIMEDOUT:
	case -EIO:
		return error;
	default:
		/* -ESRCH (killed with its entity), -ECANCELED, ... */
		return -ECANCELED;
	}
}

/* What WAIT reports for a finished fence. */
static int vortex_job_status(struct dma_fence *finished)
{
	return vortex_job_status_of(dma_fence_get_status(finished));
}

/*
 * The fast lane: runs a job that waits for nothing at once if the card is
 * idle (vortex_job_run_inline()).  Returns its hardware fence (a
 * reference), which WAIT and the out-syncobj see; NULL if the card was
 * not idle, and then nothing was done.
 */
static struct dma_fence *vortex_job_push_inline(struct vortex_job *job,
						struct drm_vortex_submit *args)
{
	struct vortex_file *vfile = job->vfile;
	struct dma_fence *done;

	mutex_lock(&vfile->lock);
	vortex_job_name_locked(job, args);
	if (!vortex_job_run_inline(job)) {
		mutex_unlock(&vfile->lock);
		return NULL;
	}
	done = dma_fence_get(job->hw_fence);
	vortex_job_publish_locked(job, args, done);
	mutex_unlock(&vfile->lock);
	if (job->inline_ended) {
		args->out_flags = DRM_VORTEX_SUBMIT_OUT_ENDED |
			(job->console_unread ? DRM_VORTEX_SUBMIT_OUT_CONSOLE : 0);
		/* signalled, seen under job_lock: its error is final, no lock */
		args->status = vortex_job_status_of(job->hw_fence->error ?: 1);
	}

	vortex_job_inline_done(job);	/* @job may be gone from here */
	return done;
}

/*
 * Queues the job on the scheduler, behind its in-syncobj.  Returns its
 * finished fence (a reference), which WAIT and the out-syncobj see, or an
 * ERR_PTR with the scheduler's part of the job undone.
 */
static struct dma_fence *vortex_job_queue(struct vortex_job *job, struct drm_file *file,
					  struct drm_vortex_submit *args)
{
	struct vortex_file *vfile = job->vfile;
	struct dma_fence *done;
	int ret;

	ret = vortex_sched_job_init(&job->base, &vfile->entity, file);
	if (ret)
		return ERR_PTR(ret);
	if (args->in_sync) {
		ret = drm_sched_job_add_syncobj_dependency(&job->base, file,
							   args->in_sync, 0);
		if (ret) {
			drm_dbg(&job->vdev->drm, "SUBMIT: in_sync %u: %d\n", args->in_sync, ret);
			goto err_cleanup;
		}
	}

	mutex_lock(&vfile->lock);
	ret = vortex_job_sched_prepare(job);
	if (ret) {
		mutex_unlock(&vfile->lock);
		goto err_cleanup;
	}
	vortex_job_name_locked(job, args);
	drm_sched_job_arm(&job->base);
	done = dma_fence_get(&job->base.s_fence->finished);
	vortex_job_publish_locked(job, args, done);
	drm_sched_entity_push_job(&job->base);	/* the scheduler's from here */
	mutex_unlock(&vfile->lock);
	return done;

err_cleanup:
	drm_sched_job_cleanup(&job->base);
	return ERR_PTR(ret);
}

/**
 * vortex_job_submit_ioctl() - DRM_IOCTL_VORTEX_SUBMIT
 * @drm: the DRM device
 * @data: the ioctl's arguments (copied in and out by DRM)
 * @file: the caller's DRM file
 *
 * Return: 0, or a negative errno.
 */
int vortex_job_submit_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct vortex_device *vdev = to_vortex_device(drm);
	struct vortex_file *vfile = file->driver_priv;
	struct drm_vortex_submit *uargs = data, a = *uargs, *args = &a;
	struct drm_syncobj *out_sync = NULL;
	struct dma_fence *done;
	struct vortex_job *job;
	int ret, idx;

	a.out_flags = 0;
	a.status = 0;

	ret = vortex_job_check_args(vdev, args);
	if (ret)
		return ret;
	/* Vortex's model: the file's DCRs say where; checked as @entry_pc is. */
	if (args->flags & DRM_VORTEX_SUBMIT_CORES) {
		vortex_dcr_startup(vfile, &a.entry_pc, &a.arg_addr);
		if (a.entry_pc & 3) {
			drm_dbg(drm, "SUBMIT: STARTUP_ADDR 0x%llx not aligned\n", a.entry_pc);
			return -EINVAL;
		}
	}

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	job = vortex_job_alloc(vfile, args->bo_count);
	if (IS_ERR(job)) {
		ret = PTR_ERR(job);
		goto out_exit;
	}

	ret = vortex_job_lookup_bos(job, file, args);
	if (ret)
		goto out_release;
	ret = vortex_job_check_addrs(job, args);
	if (ret)
		goto out_release;
	vortex_job_build_launch(job, args);

	if (args->out_sync) {
		out_sync = drm_syncobj_find(file, args->out_sync);
		if (!out_sync) {
			drm_dbg(drm, "SUBMIT: no out_sync %u\n", args->out_sync);
			ret = -ENOENT;
			goto out_release;
		}
	}

	/* Nothing to wait for: on an idle card it runs now (the fast lane). */
	done = NULL;
	if (vortex_job_deps_done(file, args->in_sync))
		done = vortex_job_push_inline(job, args);
	if (!done)
		done = vortex_job_queue(job, file, args);
	if (IS_ERR(done)) {
		ret = PTR_ERR(done);
		goto out_put_sync;
	}

	if (out_sync) {
		drm_syncobj_replace_fence(out_sync, done);
		drm_syncobj_put(out_sync);
	}
	dma_fence_put(done);
	drm_dev_exit(idx);
	uargs->seqno = a.seqno;
	uargs->out_flags = a.out_flags;
	uargs->status = a.status;
	return 0;

out_put_sync:
	if (out_sync)
		drm_syncobj_put(out_sync);
out_release:
	vortex_job_release(job);
out_exit:
	drm_dev_exit(idx);
	return ret;
}

/* -------------------------------------------------------------- WAIT */

/**
 * vortex_job_wait_ioctl() - DRM_IOCTL_VORTEX_WAIT
 * @drm: the DRM device
 * @data: the ioctl's arguments (copied in and out by DRM)
 * @file: the caller's DRM file
 *
 * Return: 0, or a negative errno.
 */
int vortex_job_wait_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct vortex_file *vfile = file->driver_priv;
	struct drm_vortex_wait *args = data;
	struct dma_fence *fence = NULL;
	int error;
	long ret;

	if (args->flags & ~DRM_VORTEX_WAIT_FLAGS) {
		drm_dbg(drm, "WAIT: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}

	/*
	 * A job that has left the card (a fast-lane job ends within SUBMIT)
	 * needs neither the file's lock nor its fence: its outcome is in
	 * vfile->ended, under its own seqno, which only that job writes
	 * there.  Only for seqnos SUBMIT has returned, as below.
	 */
	if (args->seqno && args->seqno <= READ_ONCE(vfile->seqno) &&
	    vortex_job_ended(vfile, args->seqno, &error)) {
		args->status = vortex_job_status_of(error ?: 1);
		return 0;
	}

	mutex_lock(&vfile->lock);
	if (!args->seqno || args->seqno > vfile->seqno)
		ret = -EINVAL;
	else if (vfile->seqno - args->seqno >= VORTEX_WAIT_HISTORY)
		ret = -ENOENT;
	else
		fence = dma_fence_get(vfile->fences[args->seqno % VORTEX_WAIT_HISTORY]);
	mutex_unlock(&vfile->lock);
	if (!fence) {
		drm_dbg(drm, "WAIT: seqno %llu unknown (%ld)\n", args->seqno, ret);
		return ret;
	}

	/*
	 * A deadline in the past polls.  A fence that has signalled (a
	 * fast-lane job ends within SUBMIT) needs no clock, no wait; nor does
	 * a job that has left the card while its finished fence has yet to
	 * follow (vortex_job_ended()).
	 */
	if (dma_fence_is_signaled(fence)) {
		args->status = vortex_job_status(fence);
		ret = 0;
	} else if (vortex_job_ended(vfile, args->seqno, &error)) {
		args->status = vortex_job_status_of(error ?: 1);
		ret = 0;
	} else {
		ret = dma_fence_wait_timeout(fence, true,
					     drm_timeout_abs_to_jiffies(args->timeout_ns));
		if (ret > 0) {
			args->status = vortex_job_status(fence);
			ret = 0;
		} else if (ret == 0) {
			ret = -ETIME;
		}
	}

	dma_fence_put(fence);
	return ret;
}
