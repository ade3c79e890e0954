/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_DEBUGFS_H__
#define __VORTEX_DEBUGFS_H__

#include "vortex_gate.h"

struct vortex_device;

void vortex_debugfs_init(struct vortex_device *vdev);

#endif /* __VORTEX_DEBUGFS_H__ */
