// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Device configuration registers
 *
 * A Vortex host program configures the processor through DCRs before it
 * starts it (upstream vortexgpgpu/vortex, hw/rtl/VX_types.vh: STARTUP_ADDR0
 * 0x001, STARTUP_ADDR1 0x002, STARTUP_ARG0 0x003, STARTUP_ARG1 0x004,
 * MPM_CLASS 0x005; runtime/include/vortex.h: vx_dcr_write(),
 * vx_dcr_read()).  Here they are per file, since files share the card: a
 * file's SUBMIT with DRM_VORTEX_SUBMIT_CORES starts at its STARTUP_ADDR
 * with its STARTUP_ARG, and nobody else's DCRs change that.  The card is
 * RV32, so the high halves hold 0 only.
 */

#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "vortex_accel.h"
#include "vortex_dcr.h"
#include "vortex_device.h"

static int vortex_dcr_check(struct drm_device *drm, const struct drm_vortex_dcr *args)
{
	if (args->flags & ~DRM_VORTEX_DCR_FLAGS || args->pad) {
		drm_dbg(drm, "DCR: flags 0x%x, pad 0x%x\n", args->flags, args->pad);
		return -EINVAL;
	}
	if (args->addr < DRM_VORTEX_DCR_STARTUP_ADDR0 ||
	    args->addr > DRM_VORTEX_DCR_MPM_CLASS) {
		drm_dbg(drm, "DCR: no register 0x%x\n", args->addr);
		return -EINVAL;
	}
	if (!(args->flags & DRM_VORTEX_DCR_WRITE))
		return 0;
	if ((args->addr == DRM_VORTEX_DCR_STARTUP_ADDR1 ||
	     args->addr == DRM_VORTEX_DCR_STARTUP_ARG1) && args->value) {
		drm_dbg(drm, "DCR: 0x%x is the high half of a 64-bit address on an RV32 card\n",
			args->addr);
		return -ERANGE;
	}
	if (args->addr == DRM_VORTEX_DCR_MPM_CLASS &&
	    args->value > DRM_VORTEX_DCR_MPM_CLASS_MAX) {
		drm_dbg(drm, "DCR: no MPM class %u\n", args->value);
		return -ERANGE;
	}
	return 0;
}

/**
 * vortex_dcr_ioctl() - DRM_IOCTL_VORTEX_DCR
 * @drm: the DRM device
 * @data: the ioctl's arguments (copied in and out by DRM)
 * @file: the caller's DRM file
 *
 * Sets one of the device configuration registers the file's next
 * jobs start with.
 *
 * Return: 0, or a negative errno.
 */
int vortex_dcr_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vortex_file *vfile = file->driver_priv;
	struct drm_vortex_dcr *args = data;
	u32 *reg;
	int ret;

	ret = vortex_dcr_check(drm, args);
	if (ret)
		return ret;
	reg = &vfile->dcr[args->addr - DRM_VORTEX_DCR_STARTUP_ADDR0];
	if (args->flags & DRM_VORTEX_DCR_WRITE)
		WRITE_ONCE(*reg, args->value);
	else
		args->value = READ_ONCE(*reg);
	return 0;
}

/**
 * vortex_dcr_startup() - where the file's next CORES launch starts
 * @vfile: the file
 * @pc: receives STARTUP_ADDR
 * @arg: receives STARTUP_ARG
 */
void vortex_dcr_startup(struct vortex_file *vfile, u64 *pc, u64 *arg)
{
	*pc = READ_ONCE(vfile->dcr[DRM_VORTEX_DCR_STARTUP_ADDR0 - 1]);
	*arg = READ_ONCE(vfile->dcr[DRM_VORTEX_DCR_STARTUP_ARG0 - 1]);
}
