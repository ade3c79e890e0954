/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_FENCE_WB_H__
#define __VORTEX_FENCE_WB_H__

#include <linux/types.h>
#include <drm/drm_mm.h>

struct vortex_device;

/**
 * struct vortex_fence_wb - where the card writes its fence record
 * (vortex_fence_wb.c)
 */
struct vortex_fence_wb {
	/** @node: the record's VRAM; not allocated on a card without it */
	struct drm_mm_node node;
};

/**
 * struct vortex_fence_rec - the fence record as read
 */
struct vortex_fence_rec {
	/** @seqno: FENCE_SEQNO */
	u32 seqno;
	/** @cons_tail: CONS_TAIL when that FENCE executed */
	u32 cons_tail;
	/** @clock: the card's clock then */
	u64 clock;
};

int vortex_fence_wb_init(struct vortex_device *vdev);
void vortex_fence_wb_start(struct vortex_device *vdev);
bool vortex_fence_wb_read(struct vortex_device *vdev, struct vortex_fence_rec *rec);

#endif /* __VORTEX_FENCE_WB_H__ */
