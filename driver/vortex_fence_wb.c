// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: The fence record
 *
 * A card with CAPS.FENCE_WB writes what every FENCE leaves in FENCE_SEQNO,
 * CLOCK and CONS_TAIL to a 16-byte record in VRAM as well
 * (docs/hardware.md, "Fence write-back"), as amdgpu's rings write their
 * fence values to a writeback slot and Intel's engines their breadcrumbs
 * to the hardware status page.  The fast lane reads it right after the
 * doorbell: whether the job ended, its cycles and whether it printed, from
 * the driver's mapping of VRAM, instead of three register reads (each a
 * call into QEMU's device model: together some 0.4 µs of a 9 µs launch
 * and wait on the simulated card).
 *
 * The record's VRAM is the driver's, next to the ring: no address space
 * maps it.  RESET forgets where it is, so vortex_device_reset() points the
 * card at it again, and the card rewrites it at once.
 */

#include <drm/drm_managed.h>

#include "vortex_device.h"
#include "vortex_fence_wb.h"

static void vortex_fence_wb_release(struct drm_device *drm, void *arg)
{
	struct vortex_device *vdev = arg;

	mutex_lock(&vdev->mm_lock);
	drm_mm_remove_node(&vdev->fence_wb.node);
	mutex_unlock(&vdev->mm_lock);
}

/**
 * vortex_fence_wb_init() - VRAM for the fence record
 * @vdev: the device, VRAM allocator ready
 *
 * A card without VX_CAPS_FENCE_WB gets none.
 *
 * Return: 0 or a negative errno.
 */
int vortex_fence_wb_init(struct vortex_device *vdev)
{
	int ret;

	if (!(vdev->caps & VX_CAPS_FENCE_WB))
		return 0;
	mutex_lock(&vdev->mm_lock);
	ret = drm_mm_insert_node_in_range(&vdev->mm, &vdev->fence_wb.node,
					  VX_FENCE_WB_SIZE, VX_FENCE_WB_SIZE,
					  0, 0, vdev->vram_size, DRM_MM_INSERT_HIGH);
	mutex_unlock(&vdev->mm_lock);
	if (ret)
		return ret;
	return drmm_add_action_or_reset(&vdev->drm, vortex_fence_wb_release, vdev);
}

/**
 * vortex_fence_wb_start() - point the card at the record
 * @vdev: the device, just reset (RESET sets FENCE_WB to 0)
 *
 * The card writes the record at once: from here it holds FENCE_SEQNO,
 * whatever VRAM held there before.
 */
void vortex_fence_wb_start(struct vortex_device *vdev)
{
	if (!drm_mm_node_allocated(&vdev->fence_wb.node))
		return;
	vortex_write(vdev, VX_REG_FENCE_WB, vdev->devaddr + vdev->fence_wb.node.start);
}

/**
 * vortex_fence_wb_read() - what the last FENCE wrote
 * @vdev: the device
 * @rec: receives the record
 *
 * SEQNO is read first: the card writes it last, so the rest is that
 * FENCE's even if the card writes the record meanwhile.
 *
 * Return: false if the card has no record (then @rec is untouched).
 */
bool vortex_fence_wb_read(struct vortex_device *vdev, struct vortex_fence_rec *rec)
{
	void __iomem *p = vdev->vram + vdev->fence_wb.node.start;

	if (!drm_mm_node_allocated(&vdev->fence_wb.node))
		return false;
	rec->seqno = readl(p + VX_FENCE_WB_SEQNO);
	rec->clock = readl(p + VX_FENCE_WB_CLOCK_LO) |
		     (u64)readl(p + VX_FENCE_WB_CLOCK_HI) << 32;
	rec->cons_tail = readl(p + VX_FENCE_WB_CONS_TAIL);
	return true;
}
