/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_FDINFO_H__
#define __VORTEX_FDINFO_H__

struct drm_file;
struct drm_printer;

void vortex_fdinfo_show(struct drm_printer *p, struct drm_file *file);

#endif /* __VORTEX_FDINFO_H__ */
