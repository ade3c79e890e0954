// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: A failed job's fault, for its program
 *
 * A job that ends with -EIO tells its program only that; the card's error
 * registers say more (cause, PC, address, warp, lanes), and until now only
 * the kernel log and the crash dump carried them, the log root's alone
 * and the dump the user's to find.  Upstream's simulator prints them where
 * the program runs when it aborts (fe8168b9, ``sim/simx/execute.cpp:446``
 * "divergent branch! PC=...", ``sim/simx/processor.cpp:230`` "Error:
 * exception: ..."), so a runtime should be able to as well.
 *
 * Recovery, with the card frozen and before the job's fence signals,
 * reads the error registers once (vortex_fault_read(): its kernel log
 * line comes from the same read), keeps them as the failing file's record
 * (vortex_fault_record()) and, once the dump's worker has published the
 * dump, the number of its devcoredump device
 * (vortex_fault_dump_published()); DRM_IOCTL_VORTEX_FAULT waits for that.
 * DRM_IOCTL_VORTEX_FAULT copies the record out.  The file keeps its last
 * failed job's record only: a runtime asks right after WAIT reported the
 * failure, and a record per job would cost every job.
 */

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <linux/uaccess.h>

#include "vortex_device.h"
#include "vortex_fault.h"

/* The longest FAULT waits for the dump's worker to name the dump. */
#define VORTEX_FAULT_DUMP_WAIT_MS	20000

/* The first version of struct drm_vortex_fault_info: shorter is -EINVAL. */
#define VORTEX_FAULT_INFO_V1	80
static_assert(sizeof(struct drm_vortex_fault_info) >= VORTEX_FAULT_INFO_V1);

/**
 * vortex_fault_file_open() - a new file has no failed job
 * @vfile: the file
 */
void vortex_fault_file_open(struct vortex_file *vfile)
{
	spin_lock_init(&vfile->fault.lock);
	init_waitqueue_head(&vfile->fault.dump_settled);
}

/**
 * vortex_fault_read() - read how the job on the card failed
 * @vdev: the device, frozen on the failure, DM lock held
 * @f: the record, its @job, @status and @dump already set; the rest is
 *     the card's error registers (zero after a hang)
 */
void vortex_fault_read(struct vortex_device *vdev, struct drm_vortex_fault_info *f)
{
	u32 i;

	f->cause = vortex_read(vdev, VX_REG_ERR_CAUSE);
	if (f->cause == VX_ERR_NONE)
		return;
	f->pc = vortex_read(vdev, VX_REG_ERR_PC);
	f->addr = vortex_read(vdev, VX_REG_ERR_ADDR);
	f->warp = vortex_read(vdev, VX_REG_ERR_WARP);
	f->lane = vortex_read(vdev, VX_REG_ERR_THREAD);
	for (i = 0; i < 4; i++) {
		f->lanes[i] = vortex_read(vdev, VX_REG_ERR_TMASK(i));
		f->info[i] = vortex_read(vdev, VX_REG_ERR_INFO(i));
	}
	vortex_device_warp_place(vdev, f->warp, &f->cluster, &f->core, &f->warp_in_core);
}

/**
 * vortex_fault_record() - keep @f as @vfile's last failed job
 * @vfile: the failed job's file
 * @f: what vortex_fault_read() read; the dump is not published yet (-1)
 */
void vortex_fault_record(struct vortex_file *vfile, const struct drm_vortex_fault_info *f)
{
	spin_lock(&vfile->fault.lock);
	vfile->fault.info = *f;
	vfile->fault.valid = true;
	vfile->fault.dump_pending = false;
	spin_unlock(&vfile->fault.lock);
}

/**
 * vortex_fault_dump_captured() - the failed job's dump awaits publication
 * @vfile: the job's file
 * @job: the file's job number
 *
 * DRM_IOCTL_VORTEX_FAULT then waits for vortex_fault_dump_published(), so
 * the record names the dump as it did when recovery published it itself.
 */
void vortex_fault_dump_captured(struct vortex_file *vfile, u64 job)
{
	spin_lock(&vfile->fault.lock);
	if (vfile->fault.valid && vfile->fault.info.job == job)
		vfile->fault.dump_pending = true;
	spin_unlock(&vfile->fault.lock);
}

/**
 * vortex_fault_dump_published() - the failed job's dump is devcd@devcd
 * @vfile: the job's file
 * @job: the file's job number
 * @devcd: N of /sys/class/devcoredump/devcdN, or -1 (dropped)
 *
 * Called by the dump's worker, or when the dump is dropped.
 */
void vortex_fault_dump_published(struct vortex_file *vfile, u64 job, int devcd)
{
	spin_lock(&vfile->fault.lock);
	if (vfile->fault.valid && vfile->fault.info.job == job) {
		vfile->fault.info.dump = devcd;
		vfile->fault.dump_pending = false;
	}
	spin_unlock(&vfile->fault.lock);
	wake_up_all(&vfile->fault.dump_settled);
}

static bool vortex_fault_dump_settled(struct vortex_file *vfile)
{
	bool settled;

	spin_lock(&vfile->fault.lock);
	settled = !vfile->fault.dump_pending;
	spin_unlock(&vfile->fault.lock);
	return settled;
}

/**
 * vortex_fault_ioctl() - DRM_IOCTL_VORTEX_FAULT
 * @drm: the device
 * @data: struct drm_vortex_fault
 * @file: the caller's file
 *
 * Return: 0, or the errors the uapi header lists.
 */
int vortex_fault_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vortex_file *vfile = file->driver_priv;
	struct drm_vortex_fault *args = data;
	struct drm_vortex_fault_info f;
	u32 n = args->info_size;
	bool valid;

	if (args->flags & ~DRM_VORTEX_FAULT_FLAGS || args->pad) {
		drm_dbg(drm, "FAULT: unknown flags 0x%x or padding\n", args->flags);
		return -EINVAL;
	}
	if (n < VORTEX_FAULT_INFO_V1 || n > DRM_VORTEX_FAULT_INFO_MAX || n % 8) {
		drm_dbg(drm, "FAULT: info_size %u\n", n);
		return -EINVAL;
	}
	/*
	 * The dump's worker publishes after the job's fence: wait for it to
	 * name the dump (it waits 10 s at most for room, then publishes).
	 */
	if (!wait_event_interruptible_timeout(vfile->fault.dump_settled,
					      vortex_fault_dump_settled(vfile),
					      msecs_to_jiffies(VORTEX_FAULT_DUMP_WAIT_MS)))
		drm_dbg(drm, "FAULT: the dump is still not published\n");
	spin_lock(&vfile->fault.lock);
	valid = vfile->fault.valid;
	f = vfile->fault.info;
	spin_unlock(&vfile->fault.lock);
	if (!valid || (args->job && args->job != f.job))
		return -ENOENT;

	if (copy_to_user(u64_to_user_ptr(args->info), &f, min_t(u32, n, sizeof(f))))
		return -EFAULT;
	if (n > sizeof(f) &&
	    clear_user(u64_to_user_ptr(args->info + sizeof(f)), n - sizeof(f)))
		return -EFAULT;
	args->job = f.job;
	args->info_size = min_t(u32, n, sizeof(f));
	return 0;
}
