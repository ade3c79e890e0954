// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Per-client usage in fdinfo
 *
 * /proc/PID/fdinfo/FD of an open accel node shows the standard DRM client
 * usage keys (Documentation/gpu/drm-usage-stats.rst), so generic tools
 * (gputop, nvtop) can show the card: drm-engine-compute is the wall time
 * the client's jobs held the card, drm-cycles-compute the device cycles of
 * the same, and drm-*-memory come from drm_show_memory_stats() over the
 * client's buffer handles (all VRAM, always resident).  The job on the card
 * is counted up to now, so a long kernel shows up while it runs.
 */

#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "vortex_device.h"
#include "vortex_fdinfo.h"
#include "vortex_job.h"

/**
 * vortex_fdinfo_show() - the file's lines in /proc/PID/fdinfo
 * @p: the printer
 * @file: the caller's DRM file
 */
void vortex_fdinfo_show(struct drm_printer *p, struct drm_file *file)
{
	struct vortex_file *vfile = file->driver_priv;
	struct vortex_device *vdev = vfile->vdev;
	u64 ns = atomic64_read(&vfile->engine_ns);
	struct vortex_job *job;
	unsigned long flags;

	spin_lock_irqsave(&vdev->job_lock, flags);
	job = vortex_job_active_locked(vdev);
	if (job && job->vfile == vfile)
		ns += ktime_get_ns() - job->start_ns;
	spin_unlock_irqrestore(&vdev->job_lock, flags);

	drm_printf(p, "drm-engine-compute:\t%llu ns\n", ns);
	drm_printf(p, "drm-cycles-compute:\t%llu\n",
		   (u64)atomic64_read(&vfile->engine_cycles));
	drm_show_memory_stats(p, file);
}
