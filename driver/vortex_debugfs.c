// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: debugfs
 *
 * /sys/kernel/debug/accel/<PCI device>/ holds, besides DRM's own files:
 *
 * recover_gate
 *	The test gate at the entry of recovery (struct vortex_gate): both the
 *	scheduler's timeout handler and the reset work (ERROR interrupt, a
 *	closing file's job) pass it before they look at the card.  Reading
 *	gives ``off``, ``armed`` or ``waiting`` (a recovery is held there);
 *	writing ``arm`` arms it for the next recovery, ``open`` lets a held
 *	recovery go on and returns once it has finished (the reset
 *	workqueue is flushed).  Race tests use it to make a job end, or another job
 *	start, between the moment recovery is decided and the moment it acts.
 *
 * run_gate
 *	The same at the entry of run_job, before the job goes on the card:
 *	a test holds a job there, taken by the scheduler but not yet
 *	started, while it closes the job's file.
 *
 * ran_gate
 *	The same at the end of run_job: the job is on the card and the
 *	scheduler has not yet taken its hardware fence, so its finished
 *	fence cannot signal before the gate opens.  A test makes the job end
 *	there (a debugger's FINISHED event, then WAIT).
 *
 * pop_gate
 *	The same inside drm_sched_entity_pop_job() (the scheduler's
 *	prepare_job callback): the scheduler has chosen a file's entity and is
 *	taking its first job, and has not yet looked at the job behind it.  A
 *	test closes the file there, the window in which gpu_sched 6.12 puts a
 *	killed entity back into its run queue (vortex_job_file_close()).
 *
 * release_gate
 *	The same where a fast-lane job that ended after its SUBMIT returned
 *	is freed (its release work): a test holds an ended job unfreed while
 *	the next job runs.  Opening it does not wait for the release.
 *
 * unplug_gate
 *	The same in PCI remove (hot-unplug), once the buffers' CPU mappings
 *	are cut and before drm_dev_unplug() removes the device node: a test
 *	reads its mapping while the node is still there and must get SIGBUS.
 *	Opening it does not wait for the rest of the removal.
 *
 * unlink_gate
 *	The same in the release of a crash dump its user discarded, after
 *	devcoredump's free callback and before the dump slot ends its hold
 *	(the slot stays held until then): a test stretches the release as
 *	a slow kernel does, and the next failure must still leave its dump.
 *
 * hang_gate
 *	The same in both timeout paths (the scheduler's handler and a
 *	fast-lane job's), once the job has been found to have run for
 *	job_timeout_ms and before recovery stops it: the hang is decided and
 *	nothing is captured yet.  A test that lowered job_timeout_ms to hang
 *	a job quickly puts the old value back there, so the capture's copy
 *	budget (half the timeout) and the jobs behind the hang are measured
 *	against it, not against the lowered one.  Opening it returns once the
 *	recovery has finished.
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
 * debugfs is root-only and not an ABI: these files exist for the tests.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <drm/drm_device.h>

#include "vortex_debugfs.h"
#include "vortex_device.h"

enum {
	VORTEX_GATE_OFF,
	VORTEX_GATE_ARMED,
	VORTEX_GATE_WAITING,
};

static const char *const vortex_gate_states[] = {
	[VORTEX_GATE_OFF] = "off",
	[VORTEX_GATE_ARMED] = "armed",
	[VORTEX_GATE_WAITING] = "waiting",
};

/**
 * vortex_gate_pass() - go through a gate, waiting if a test armed it
 * @gate: the gate
 *
 * Only the first thread to reach an armed gate waits; the gate is off
 * again once it goes on.  May sleep.
 */
void vortex_gate_pass(struct vortex_gate *gate)
{
	if (atomic_cmpxchg(&gate->state, VORTEX_GATE_ARMED,
			   VORTEX_GATE_WAITING) != VORTEX_GATE_ARMED)
		return;
	wait_for_completion_timeout(&gate->open,
				    msecs_to_jiffies(VORTEX_GATE_MAX_MS));
	atomic_set(&gate->state, VORTEX_GATE_OFF);
}

/**
 * vortex_gate_armed() - whether a test armed @gate
 * @gate: the gate
 *
 * Return: true if @gate is armed or something waits there.
 */
bool vortex_gate_armed(struct vortex_gate *gate)
{
	return atomic_read(&gate->state) != VORTEX_GATE_OFF;
}

static ssize_t vortex_gate_read(struct file *f, char __user *buf, size_t len,
				loff_t *pos)
{
	struct vortex_gate *gate = f->private_data;
	const char *state = vortex_gate_states[atomic_read(&gate->state)];
	char line[16];
	int n;

	n = scnprintf(line, sizeof(line), "%s\n", state);
	return simple_read_from_buffer(buf, len, pos, line, n);
}

static ssize_t vortex_gate_write(struct file *f, const char __user *buf,
				 size_t len, loff_t *pos)
{
	struct vortex_gate *gate = f->private_data;
	char cmd[8] = {};

	if (len >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, buf, len))
		return -EFAULT;
	strim(cmd);

	if (!strcmp(cmd, "arm")) {
		reinit_completion(&gate->open);
		atomic_set(&gate->state, VORTEX_GATE_ARMED);
	} else if (!strcmp(cmd, "open")) {
		complete(&gate->open);
		if (gate->wq)
			flush_workqueue(gate->wq);
	} else {
		return -EINVAL;
	}
	return len;
}

static const struct file_operations vortex_gate_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = vortex_gate_read,
	.write = vortex_gate_write,
};

static void vortex_gate_init(struct vortex_device *vdev, struct vortex_gate *gate,
			     struct workqueue_struct *wq, const char *name)
{
	atomic_set(&gate->state, VORTEX_GATE_OFF);
	init_completion(&gate->open);
	gate->wq = wq;
	debugfs_create_file(name, 0600, vdev->drm.debugfs_root, gate,
			    &vortex_gate_fops);
}

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
