// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Test gates
 *
 * Compiled only with CONFIG_DRM_ACCEL_VORTEX_DEBUG (Kconfig; out of tree
 * ``make -C KDIR M=... CONFIG_DRM_ACCEL_VORTEX_DEBUG=y``, which the
 * project's guest, test and bench builds pass and ``make install`` does
 * not), as xe keeps its test hooks behind CONFIG_DRM_XE_DEBUG: a gate
 * can hold the driver for %VORTEX_GATE_MAX_MS, which a production build
 * has no use for.  Without the symbol vortex_gate.h turns every gate
 * into nothing and none of these files exist; the selftests that need
 * one skip.
 *
 * /sys/kernel/debug/accel/<PCI device>/ then holds one file per gate
 * (struct vortex_gate).  Reading one gives ``off``, ``armed`` or
 * ``waiting`` (a thread is held there); writing ``arm`` arms it for the
 * next thread that passes, for %VORTEX_GATE_MAX_MS at the most, ``arm MS``
 * for MS milliseconds at the most (up to %VORTEX_GATE_LONGEST_MS: a test
 * whose window holds work of no fixed length, such as 128 SUBMITs of
 * 4096 buffers under KASAN, says how long it may take), ``open`` lets a
 * held thread go on and, for the gates whose work runs on a workqueue of
 * the driver's, returns once that work has finished (the workqueue is
 * flushed).
 *
 * recover_gate
 *	At the entry of recovery: both the scheduler's timeout handler and
 *	the reset work (ERROR interrupt, a closing file's job) pass it before
 *	they look at the card.  Race tests use it to make a job end, or
 *	another job start, between the moment recovery is decided and the
 *	moment it acts.
 *
 * run_gate
 *	At the entry of run_job, before the job goes on the card: a test
 *	holds a job there, taken by the scheduler but not yet started, while
 *	it closes the job's file.
 *
 * ran_gate
 *	At the end of run_job: the job is on the card and the scheduler has
 *	not yet taken its hardware fence, so its finished fence cannot signal
 *	before the gate opens.  A test makes the job end there (a debugger's
 *	FINISHED event, then WAIT).
 *
 * pop_gate
 *	Inside drm_sched_entity_pop_job() (the scheduler's prepare_job
 *	callback): the scheduler has chosen a file's entity and is taking its
 *	first job, and has not yet looked at the job behind it.  A test closes
 *	the file there, the window in which gpu_sched 6.12 puts a killed
 *	entity back into its run queue (vortex_job_file_close()).
 *
 * release_gate
 *	Where a fast-lane job that ended after its SUBMIT returned is freed
 *	(its release work): a test holds an ended job unfreed while the next
 *	job runs.  Opening it does not wait for the release.
 *
 * unplug_gate
 *	In PCI remove (hot-unplug), once the buffers' CPU mappings are cut and
 *	before drm_dev_unplug() removes the device node: a test reads its
 *	mapping while the node is still there and must get SIGBUS.  Opening it
 *	does not wait for the rest of the removal.
 *
 * unlink_gate
 *	In the release of a crash dump its user discarded, after
 *	devcoredump's free callback and before the dump slot ends its hold
 *	(the slot stays held until then): a test stretches the release as a
 *	slow kernel does, and the next failure must still leave its dump.
 *
 * hang_gate
 *	In both timeout paths (the scheduler's handler and a fast-lane job's),
 *	once the job has been found to have run for job_timeout_ms and before
 *	recovery stops it: the hang is decided and nothing is captured yet.  A
 *	test that lowered job_timeout_ms to hang a job quickly puts the old
 *	value back there, so the capture's copy budget (half the timeout) and
 *	the jobs behind the hang are measured against it, not against the
 *	lowered one.  Opening it returns once the recovery has finished.
 *
 * While run_gate, ran_gate or pop_gate is armed, jobs go through the
 * scheduler rather than the fast lane, so the test's job meets its gate.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <drm/drm_device.h>

#include "vortex_device.h"
#include "vortex_gate.h"

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
				    msecs_to_jiffies(READ_ONCE(gate->max_ms)));
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
	char line[16] = {}, *cmd, *arg;
	unsigned int ms = VORTEX_GATE_MAX_MS;

	if (len >= sizeof(line))
		return -EINVAL;
	if (copy_from_user(line, buf, len))
		return -EFAULT;
	cmd = strim(line);
	arg = cmd + strcspn(cmd, " ");
	if (*arg)
		*arg++ = '\0';

	if (!strcmp(cmd, "arm")) {
		if (*arg && (kstrtouint(skip_spaces(arg), 10, &ms) || !ms ||
			     ms > VORTEX_GATE_LONGEST_MS))
			return -EINVAL;
		reinit_completion(&gate->open);
		WRITE_ONCE(gate->max_ms, ms);
		/* Whoever takes the armed gate sees its max_ms. */
		atomic_set_release(&gate->state, VORTEX_GATE_ARMED);
	} else if (*arg) {
		return -EINVAL;
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

/**
 * vortex_gate_init() - a gate, off, and its file in the device's debugfs
 * @vdev: the device
 * @gate: the gate
 * @wq: the workqueue its gated work runs on, flushed when a test opens it,
 *	or NULL (not ours to flush, or no workqueue)
 * @name: its file's name
 *
 * DRM removes the file with the device's directory.
 */
void vortex_gate_init(struct vortex_device *vdev, struct vortex_gate *gate,
		      struct workqueue_struct *wq, const char *name)
{
	atomic_set(&gate->state, VORTEX_GATE_OFF);
	init_completion(&gate->open);
	gate->wq = wq;
	debugfs_create_file(name, 0600, vdev->drm.debugfs_root, gate,
			    &vortex_gate_fops);
}
