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
 * dumps_dropped
 *	Crash dumps dropped because the last one was still unread.
 *
 * last_dump
 *	What the last crash dump cost: ns from the failure's handling to the
 *	published dump, DM accesses and lane registers read, its text bytes
 *	and the bytes of state it holds; how long the card stayed frozen for
 *	the capture (frozen_ns) and how long rendering took (render_ns).
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
#include <linux/seq_file.h>
#include <drm/drm_device.h>

#include "vortex_debugfs.h"
#include "vortex_device.h"

/* debugfs last_dump: what the last published crash dump cost. */
static int vortex_last_dump_show(struct seq_file *m, void *unused)
{
	struct vortex_device *vdev = m->private;

	seq_printf(m, "publish_ns: %llu\ndm_accesses: %llu\nlane_regs: %llu\nbytes: %llu\nstate_bytes: %llu\nfrozen_ns: %llu\nrender_ns: %llu\n",
		   vdev->last_dump.publish_ns, vdev->last_dump.dm_accesses,
		   vdev->last_dump.lane_regs, vdev->last_dump.bytes,
		   vdev->last_dump.state_bytes, vdev->last_dump.frozen_ns,
		   vdev->last_dump.render_ns);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vortex_last_dump);

/**
 * vortex_debugfs_init() - the driver's files in the device's debugfs directory
 * @vdev: the device
 *
 * DRM removes the directory, and these files with it, when the device goes.
 */
void vortex_debugfs_init(struct vortex_device *vdev)
{
	vortex_gate_init(vdev, &vdev->recover_gate, vdev->reset_wq, "recover_gate");
	vortex_gate_init(vdev, &vdev->run_gate, vdev->submit_wq, "run_gate");
	vortex_gate_init(vdev, &vdev->ran_gate, vdev->submit_wq, "ran_gate");
	vortex_gate_init(vdev, &vdev->pop_gate, vdev->submit_wq, "pop_gate");
	/* On system_wq, which is not ours to flush. */
	vortex_gate_init(vdev, &vdev->release_gate, NULL, "release_gate");
	/* Passed by PCI remove, on no workqueue of ours. */
	vortex_gate_init(vdev, &vdev->unplug_gate, NULL, "unplug_gate");
	/* On system_wq too. */
	vortex_gate_init(vdev, &vdev->unlink_gate, NULL, "unlink_gate");
	vortex_gate_init(vdev, &vdev->hang_gate, vdev->reset_wq, "hang_gate");
	debugfs_create_u64("dm_accesses", 0400, vdev->drm.debugfs_root,
			   &vdev->dm.accesses);
	debugfs_create_u64("fast_jobs", 0400, vdev->drm.debugfs_root, &vdev->fast_jobs);
	debugfs_create_atomic_t("dumps_dropped", 0400, vdev->drm.debugfs_root,
				&vdev->dumps_dropped);
	debugfs_create_file("last_dump", 0400, vdev->drm.debugfs_root, vdev,
			    &vortex_last_dump_fops);
}
