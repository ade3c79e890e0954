/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_GATE_H__
#define __VORTEX_GATE_H__

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/kconfig.h>
#include <linux/types.h>

struct vortex_device;
struct workqueue_struct;

#if IS_ENABLED(CONFIG_DRM_ACCEL_VORTEX_DEBUG)

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
 *
 * Only a module built with CONFIG_DRM_ACCEL_VORTEX_DEBUG has gates
 * (vortex_gate.c); without it the struct is empty and the calls below
 * are no-ops the compiler removes.
 */
struct vortex_gate {
	/** @state: VORTEX_GATE_OFF, _ARMED or _WAITING */
	atomic_t state;
	/** @open: completed when the test opens the gate */
	struct completion open;
	/** @wq: where the gated work runs; flushed after opening (if not NULL) */
	struct workqueue_struct *wq;
	/** @max_ms: how long a held thread waits at most, set when armed */
	unsigned int max_ms;
};

#define VORTEX_GATE_MAX_MS	10000
#define VORTEX_GATE_LONGEST_MS	600000

void vortex_gate_init(struct vortex_device *vdev, struct vortex_gate *gate,
		      struct workqueue_struct *wq, const char *name);
void vortex_gate_pass(struct vortex_gate *gate);
bool vortex_gate_armed(struct vortex_gate *gate);

#else /* !CONFIG_DRM_ACCEL_VORTEX_DEBUG */

/* No test hooks in this build: nothing to hold, nothing in debugfs. */
struct vortex_gate {
};

static inline void vortex_gate_init(struct vortex_device *vdev,
				    struct vortex_gate *gate,
				    struct workqueue_struct *wq,
				    const char *name)
{
}

static inline void vortex_gate_pass(struct vortex_gate *gate)
{
}

static inline bool vortex_gate_armed(struct vortex_gate *gate)
{
	return false;
}

#endif /* CONFIG_DRM_ACCEL_VORTEX_DEBUG */

#endif /* __VORTEX_GATE_H__ */
