// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: debugfs
 *
 * /sys/kernel/debug/accel/<PCI device>/ holds, besides DRM's own files:
 *
 * recover_gate, run_gate, ran_gate, pop_gate, release_gate, unplug_gate,
 * unlink_gate, hang_gate
 *	The test gates (vortex_gate.c), in a module built with
 *	CONFIG_DRM_ACCEL_VORTEX_DEBUG only.
 *
 * fast_jobs
 *	Jobs that took the fast lane (vortex_job_run_inline()).
 *
 * jobs
 *	What the fast lane looks at: the hardware fence seqno of the job on
 *	the card (active_job, -1 for none), the jobs the scheduler holds
 *	(sched_jobs), a pending ERROR (reset_error), the seqno of a job
 *	a closed file asked to stop (cancel_pending, -1 for none) and
 *	whether scheduled jobs wait for a fast-lane job's handover
 *	(vortex_handover.c; handover, 0 or 1).
 *
 * dumps_dropped
 *	Crash dumps dropped because the last one was still unread.
 *
 * last_dump
 *	What the last crash dump cost: ns from the failure's handling to the
 *	published dump, DM accesses and lane registers read, its text bytes
 *	and the bytes of state it holds; how long the card stayed frozen for
 *	the capture (frozen_ns), how long rendering took (render_ns), and
 *	when the failure's handling began (start_ns, CLOCK_MONOTONIC).
 *
 * dm_accesses
 *	Debug Module register accesses the driver made so far (benchmarks
 *	divide it by the registers they read).
 *
 * debugfs is root-only and not an ABI: these files exist for the tests and
 * the benchmarks.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <drm/drm_device.h>

#include "vortex_debugfs.h"
#include "vortex_device.h"

/**
 * vortex_debugfs_init() - the driver's files in the device's debugfs directory
 * @vdev: the device
 *
 * DRM removes the directory, and these files with it, when the device goes.
 */
void vortex_debugfs_init(struct vortex_device *vdev)
{
	vortex_gate_init(vdev, &vdev->recover_gate, vdev->jobs.reset_wq, "recover_gate");
	vortex_gate_init(vdev, &vdev->run_gate, vdev->jobs.submit_wq, "run_gate");
	vortex_gate_init(vdev, &vdev->ran_gate, vdev->jobs.submit_wq, "ran_gate");
	vortex_gate_init(vdev, &vdev->pop_gate, vdev->jobs.submit_wq, "pop_gate");
	/* On system_wq, which is not ours to flush. */
	vortex_gate_init(vdev, &vdev->release_gate, NULL, "release_gate");
	/* Passed by PCI remove, on no workqueue of ours. */
	vortex_gate_init(vdev, &vdev->unplug_gate, NULL, "unplug_gate");
	/* On system_wq too. */
	vortex_gate_init(vdev, &vdev->unlink_gate, NULL, "unlink_gate");
	vortex_gate_init(vdev, &vdev->hang_gate, vdev->jobs.reset_wq, "hang_gate");
	debugfs_create_u64("dm_accesses", 0400, vdev->drm.debugfs_root,
			   &vdev->dm.accesses);
}
