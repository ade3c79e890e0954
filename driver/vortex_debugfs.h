/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_DEBUGFS_H__
#define __VORTEX_DEBUGFS_H__

#include <linux/atomic.h>
#include <linux/completion.h>

struct vortex_device;

/**
 * struct vortex_gate - a point in the driver that a test can hold closed
 *
 * Race tests need the driver to stop at a known point while they change
 * the world around it (end a job, close a file), then go on: a window
 * opened on purpose rather than hoped for with a sleep.  A gate is armed
 * from debugfs; the next thread to pass it waits there until the test
 * opens it, or %VORTEX_GATE_MAX_MS at the most, so a test that dies never
 * leaves the driver stuck.  Opening the gate returns once the work that
 * waited there has finished, so the test then sees what it did.  Passing
 * a gate that is not armed costs one atomic read.
 */
struct vortex_gate {
	/** @state: VORTEX_GATE_OFF, _ARMED or _WAITING */
	atomic_t state;
	/** @open: completed when the test opens the gate */
	struct completion open;
	/** @wq: where the gated work runs; flushed after opening (if not NULL) */
	struct workqueue_struct *wq;
};

#define VORTEX_GATE_MAX_MS	10000

void vortex_gate_pass(struct vortex_gate *gate);
bool vortex_gate_armed(struct vortex_gate *gate);
void vortex_debugfs_init(struct vortex_device *vdev);

#endif /* __VORTEX_DEBUGFS_H__ */
