/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_DM_H__
#define __VORTEX_DM_H__

#include <linux/mutex.h>
#include <linux/types.h>

struct vortex_device;

/**
 * struct vortex_dm - the driver's side of the card's Debug Module
 *
 * Shadows of what the driver last wrote, so sequences skip writes that
 * would change nothing (the mask array is up to 1024 windows).
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
	/** @active: DCTRL.dmactive is set */
	bool active;
	/** @dselect: last DSELECT written */
	u32 dselect;
	/** @dconfig: last DCONFIG written */
	u32 dconfig;
	/** @windows: 32-warp windows that name warps on this card */
	u32 windows;
	/** @wmask: last WMASK written, per window */
	u32 *wmask;
	/** @wmask_known: @wmask is what the card holds */
	bool wmask_known;
	/** @accesses: DM register accesses so far (debugfs, for benchmarks) */
	u64 accesses;
	/**
	 * @raw_dselect: DSELECT as the last raw batch (DRM_VORTEX_DEBUG_IOCTL_DM)
	 * left it; the reset value until the first
	 */
	u32 raw_dselect;
	/** @raw_wmask: the mask array as the raw client's batches left it */
	u32 *raw_wmask;
};

int vortex_dm_init(struct vortex_device *vdev);

/* The rest need vdev->dm.lock held and the device entered. */
u32 vortex_dm_read(struct vortex_device *vdev, u32 reg);
void vortex_dm_write(struct vortex_device *vdev, u32 reg, u32 val);
int vortex_dm_activate(struct vortex_device *vdev);
void vortex_dm_deactivate(struct vortex_device *vdev);
int vortex_dm_request(struct vortex_device *vdev, u32 bits, u32 *dctrl);
void vortex_dm_select(struct vortex_device *vdev, u32 warp, u32 thread);
void vortex_dm_set_dconfig(struct vortex_device *vdev, u32 dconfig);
void vortex_dm_set_mask(struct vortex_device *vdev, const u32 *mask);
void vortex_dm_set_mask_all(struct vortex_device *vdev, bool all);
u32 vortex_dm_window(struct vortex_device *vdev, u32 reg, u32 win);
int vortex_dm_inject(struct vortex_device *vdev, u32 insn, bool warp_wide);
void vortex_dm_raw_begin(struct vortex_device *vdev);
bool vortex_dm_raw_write(struct vortex_device *vdev, u32 reg, u32 val);
void vortex_dm_raw_end(struct vortex_device *vdev);

#endif /* __VORTEX_DM_H__ */
