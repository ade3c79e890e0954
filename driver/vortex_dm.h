/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_DM_H__
#define __VORTEX_DM_H__

#include <linux/mutex.h>
#include <linux/types.h>

#include "vortex_dmseq.h"

struct vortex_device;

/**
 * struct vortex_dm - the driver's side of the card's Debug Module
 *
 * The sequences and their shadows are dbgcore/vortex_dmseq.c's, shared with
 * libvortex-debug's simulator backend; the driver adds the lock, the
 * register access over the BAR and the access count.
 */
struct vortex_dm {
	/**
	 * @lock: serialises every Debug Module sequence, and every change of
	 * what runs on the card: a job goes on the card (run_job) and the
	 * card is reset (recovery) only under it.  So a debugger's sequence
	 * never interleaves with another, never sees the card reset half
	 * way, and never finds the next job's warps where it expected its
	 * target's.  Where it nests: vortex_device.h, "Lock order".
	 */
	struct mutex lock;
	/** @seq: the shared sequences' state: shadows, topology, accessors */
	struct vortex_dmseq seq;
	/** @windows: 32-warp windows that name warps on this card */
	u32 windows;
	/** @accesses: DM register accesses so far (debugfs, for benchmarks) */
	u64 accesses;
};

int vortex_dm_init(struct vortex_device *vdev);

/*
 * The rest need vdev->dm.lock held and the device entered: the driver's
 * names for the shared sequences the debugger and the dump use
 * (vortex_dmseq_*() on &vortex_dm.seq for the others; the shadows, e.g.
 * the DCONFIG last written, are &vortex_dm.seq's too).
 */
u32 vortex_dm_read(struct vortex_device *vdev, u32 reg);
void vortex_dm_write(struct vortex_device *vdev, u32 reg, u32 val);
void vortex_dm_select(struct vortex_device *vdev, u32 warp, u32 thread);
void vortex_dm_set_dconfig(struct vortex_device *vdev, u32 dconfig);
int vortex_dm_activate(struct vortex_device *vdev);
int vortex_dm_request(struct vortex_device *vdev, u32 bits, u32 *dctrl);
void vortex_dm_set_mask(struct vortex_device *vdev, const u32 *mask);
int vortex_dm_halt_running(struct vortex_device *vdev);
u32 vortex_dm_window(struct vortex_device *vdev, u32 reg, u32 win);

#endif /* __VORTEX_DM_H__ */
