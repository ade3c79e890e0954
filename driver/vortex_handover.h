/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_HANDOVER_H__
#define __VORTEX_HANDOVER_H__

#include <linux/types.h>

struct dma_fence;
struct vortex_handover;
struct workqueue_struct;

struct vortex_handover *vortex_handover_alloc(void);
void vortex_handover_init(struct vortex_handover *h, u64 context, u64 seqno);
bool vortex_handover_waits(struct vortex_handover *h);
bool vortex_handover_follows_card(struct vortex_handover *h);
struct dma_fence *vortex_handover_fence(struct vortex_handover *h);
void vortex_handover_open(struct vortex_handover *h, struct workqueue_struct *wq);
void vortex_handover_put(struct vortex_handover *h);

#endif
