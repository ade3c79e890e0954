// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Debug Module access
 *
 * The only code that touches the Debug Module's registers (BAR0 + 0x1000,
 * docs/hardware.md).  Everything runs under &vortex_dm.lock.  Requests
 * (DCTRL writes) wait for the card to report them done, polling a bounded
 * number of times: a card that stops answering gives -EIO, never a stuck
 * thread, and a card that is gone (reads all ones) gives -ENODEV.
 *
 * The mask array is written a 32-warp window at a time; the driver keeps
 * what it last wrote to each window and to DSELECT and DCONFIG, and skips
 * writes that would change nothing.
 *
 * A raw client (DRM_VORTEX_DEBUG_IOCTL_DM, e.g. vortex-dmserver's) owns its
 * selection: "All subsequent step and instruction injection commands then
 * use the selected warp/thread pair" (shared/specs/vxdebug-spec.md).  The
 * driver's own sequences borrow DSELECT and the mask array between its
 * batches (the HALTED work selects the first halted warp, halt-at-start
 * selects every warp), so the driver also keeps what the client's batches
 * left there, and each batch first gets it back (vortex_dm_raw_begin()).
 */

#include <linux/delay.h>
#include <linux/slab.h>
#include <drm/drm_managed.h>

#include "vortex_device.h"
#include "vortex_dm.h"

/* A request not done after this many polls (a microsecond apart) failed. */
#define VORTEX_DM_POLLS		10000

/**
 * vortex_dm_read() - read a Debug Module register
 * @vdev: the device
 * @reg: the DM register
 *
 * vdev->dm.lock is held.
 *
 * Return: the register's value.
 */
u32 vortex_dm_read(struct vortex_device *vdev, u32 reg)
{
	lockdep_assert_held(&vdev->dm.lock);
	vdev->dm.accesses++;
	return vortex_read(vdev, VX_DM_REG(reg));
}

/**
 * vortex_dm_write() - write a Debug Module register
 * @vdev: the device
 * @reg: the DM register
 * @val: the value
 *
 * vdev->dm.lock is held.
 */
void vortex_dm_write(struct vortex_device *vdev, u32 reg, u32 val)
{
	lockdep_assert_held(&vdev->dm.lock);
	vdev->dm.accesses++;
	vortex_write(vdev, VX_DM_REG(reg), val);
}

/**
 * vortex_dm_activate() - set DCTRL.dmactive if it is not
 * @vdev: the device
 *
 * The activating write does nothing else (as in RISC-V debug); the
 * shadows restart from the DM's reset values.
 *
 * Return: 0, or -ENODEV when the card does not answer.
 */
int vortex_dm_activate(struct vortex_device *vdev)
{
	struct vortex_dm *dm = &vdev->dm;

	if (dm->active)
		return 0;
	vortex_dm_write(vdev, VX_DM_DCTRL, VX_DCTRL_DMACTIVE);
	if (!(vortex_dm_read(vdev, VX_DM_DCTRL) & VX_DCTRL_DMACTIVE))
		return -ENODEV;
	dm->active = true;
	dm->dselect = 0;
	dm->dconfig = 0;
	memset(dm->wmask, 0, dm->windows * sizeof(*dm->wmask));
	dm->wmask_known = true;
	/* A raw client starts from the reset values too. */
	dm->raw_dselect = 0;
	memset(dm->raw_wmask, 0, dm->windows * sizeof(*dm->raw_wmask));
	return 0;
}

/**
 * vortex_dm_deactivate() - clear DCTRL.dmactive
 * @vdev: the device
 *
 * The DM resets its registers and resumes every warp it had halted.
 */
void vortex_dm_deactivate(struct vortex_device *vdev)
{
	vortex_dm_write(vdev, VX_DM_DCTRL, 0);
	vdev->dm.active = false;
}

/**
 * vortex_dm_request() - write DCTRL requests and wait until they are done
 * @vdev: the device, DM active
 * @bits: VX_DCTRL_*REQ bits (and VX_DCTRL_INJECTWARP)
 * @dctrl: if not NULL, receives DCTRL as last read (with injecterr)
 *
 * Return: 0; -EIO if a step or inject is still pending after the bounded
 * wait; -ENODEV if the card reads all ones.
 */
int vortex_dm_request(struct vortex_device *vdev, u32 bits, u32 *dctrl)
{
	unsigned int polls;
	u32 v;

	vortex_dm_write(vdev, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | bits);
	for (polls = 0; polls < VORTEX_DM_POLLS; polls++) {
		v = vortex_dm_read(vdev, VX_DM_DCTRL);
		if (v == ~0u)
			return -ENODEV;
		if (VX_DCTRL_STEPSTATE(v) == VX_REQSTATE_NONE &&
		    VX_DCTRL_INJECTSTATE(v) == VX_REQSTATE_NONE) {
			if (dctrl)
				*dctrl = v;
			return 0;
		}
		udelay(1);
	}
	return -EIO;
}

/**
 * vortex_dm_select() - select a warp and a thread, keeping the window
 * @vdev: the device
 * @warp: the warp
 * @thread: the thread in it
 */
void vortex_dm_select(struct vortex_device *vdev, u32 warp, u32 thread)
{
	struct vortex_dm *dm = &vdev->dm;
	u32 v = VX_DSELECT_MAKE(VX_DSELECT_WINSEL(dm->dselect), warp, thread);

	if (v != dm->dselect) {
		vortex_dm_write(vdev, VX_DM_DSELECT, v);
		dm->dselect = v;
	}
}

static void vortex_dm_select_window(struct vortex_device *vdev, u32 win)
{
	struct vortex_dm *dm = &vdev->dm;
	u32 v = VX_DSELECT_MAKE(win, VX_DSELECT_WARPSEL(dm->dselect),
				VX_DSELECT_THREADSEL(dm->dselect));

	if (v != dm->dselect) {
		vortex_dm_write(vdev, VX_DM_DSELECT, v);
		dm->dselect = v;
	}
}

/**
 * vortex_dm_set_dconfig() - write DCONFIG if it changes
 * @vdev: the device
 * @dconfig: the VX_DCONFIG_* bits
 */
void vortex_dm_set_dconfig(struct vortex_device *vdev, u32 dconfig)
{
	if (dconfig != vdev->dm.dconfig) {
		vortex_dm_write(vdev, VX_DM_DCONFIG, dconfig);
		vdev->dm.dconfig = dconfig;
	}
}

/**
 * vortex_dm_set_mask() - select a set of warps for halt, resume, reset-halt
 * @vdev: the device
 * @mask: one bit per warp, &vortex_dm.windows words
 */
void vortex_dm_set_mask(struct vortex_device *vdev, const u32 *mask)
{
	struct vortex_dm *dm = &vdev->dm;
	u32 win;

	for (win = 0; win < dm->windows; win++) {
		if (dm->wmask_known && mask[win] == dm->wmask[win])
			continue;
		vortex_dm_select_window(vdev, win);
		vortex_dm_write(vdev, VX_DM_WMASK, mask[win]);
		dm->wmask[win] = mask[win];
	}
	dm->wmask_known = true;
}

/**
 * vortex_dm_set_mask_all() - select every warp of the card, or none
 * @vdev: the device
 * @all: true for every warp, false for none
 */
void vortex_dm_set_mask_all(struct vortex_device *vdev, bool all)
{
	struct vortex_dm *dm = &vdev->dm;
	u32 total = vortex_device_total_warps(vdev);
	u32 win, bits;

	for (win = 0; win < dm->windows; win++) {
		bits = 0;
		if (all)
			bits = total - win * 32 >= 32 ? ~0u :
			       (1u << (total - win * 32)) - 1;
		if (dm->wmask_known && bits == dm->wmask[win])
			continue;
		vortex_dm_select_window(vdev, win);
		vortex_dm_write(vdev, VX_DM_WMASK, bits);
		dm->wmask[win] = bits;
	}
	dm->wmask_known = true;
}

/**
 * vortex_dm_raw_begin() - give a raw client back its selection
 * @vdev: the device
 *
 * Before a raw batch: DSELECT and the mask array as the client's last
 * batch left them, wherever the driver's sequences moved them since.
 * Nothing is written when nothing moved.
 */
void vortex_dm_raw_begin(struct vortex_device *vdev)
{
	struct vortex_dm *dm = &vdev->dm;

	if (!dm->active)
		return;		/* the registers read 0 and ignore writes */
	vortex_dm_set_mask(vdev, dm->raw_wmask);
	if (dm->dselect != dm->raw_dselect) {
		vortex_dm_write(vdev, VX_DM_DSELECT, dm->raw_dselect);
		dm->dselect = dm->raw_dselect;
	}
}

/**
 * vortex_dm_raw_write() - one write of a raw batch, remembered for the client
 * @vdev: the device
 * @reg: DM register index
 * @val: the value
 *
 * A DCTRL write with ndmreset goes to the card without that bit: the card's
 * reset would also reset the ring and interrupt registers under the driver.
 * The caller resets the card the driver's way (vortex_job_ndmreset()).
 *
 * Return: true if @val asked for ndmreset.
 */
bool vortex_dm_raw_write(struct vortex_device *vdev, u32 reg, u32 val)
{
	struct vortex_dm *dm = &vdev->dm;
	/* (The write that activates the DM does nothing else.) */
	bool ndmreset = reg == VX_DM_DCTRL && dm->active &&
			val & VX_DCTRL_DMACTIVE && val & VX_DCTRL_NDMRESET;
	u32 win;

	vortex_dm_write(vdev, reg, ndmreset ? val & ~VX_DCTRL_NDMRESET : val);
	switch (reg) {
	case VX_DM_DCTRL:
		if (!(val & VX_DCTRL_DMACTIVE)) {
			/* A DM reset: the registers go back to 0. */
			dm->raw_dselect = 0;
			memset(dm->raw_wmask, 0, dm->windows * sizeof(*dm->raw_wmask));
		}
		dm->active = val & VX_DCTRL_DMACTIVE;
		break;
	case VX_DM_DSELECT:
		if (dm->active)
			dm->raw_dselect = val;
		break;
	case VX_DM_WMASK:
		/* Windows past the last warp ignore writes. */
		win = VX_DSELECT_WINSEL(dm->raw_dselect);
		if (dm->active && win < dm->windows)
			dm->raw_wmask[win] = val;
		break;
	}
	return ndmreset;
}

/**
 * vortex_dm_raw_end() - after a raw batch: the shadows are the client's view
 * @vdev: the device
 *
 * Rereads DCTRL.dmactive, DSELECT and DCONFIG; the mask array holds what
 * the batch wrote to it, which vortex_dm_raw_write() kept.
 */
void vortex_dm_raw_end(struct vortex_device *vdev)
{
	struct vortex_dm *dm = &vdev->dm;

	dm->active = vortex_dm_read(vdev, VX_DM_DCTRL) & VX_DCTRL_DMACTIVE;
	dm->dselect = vortex_dm_read(vdev, VX_DM_DSELECT);
	dm->dconfig = vortex_dm_read(vdev, VX_DM_DCONFIG);
	if (!dm->active)
		memset(dm->raw_wmask, 0, dm->windows * sizeof(*dm->raw_wmask));
	dm->raw_dselect = dm->dselect;
	memcpy(dm->wmask, dm->raw_wmask, dm->windows * sizeof(*dm->wmask));
	dm->wmask_known = true;
}

/**
 * vortex_dm_window() - one window of WACTIVE or WSTATUS
 * @vdev: the device
 * @reg: VX_DM_WACTIVE or VX_DM_WSTATUS
 * @win: the window
 *
 * Return: the window's 32 warp bits.
 */
u32 vortex_dm_window(struct vortex_device *vdev, u32 reg, u32 win)
{
	vortex_dm_select_window(vdev, win);
	return vortex_dm_read(vdev, reg);
}

/**
 * vortex_dm_inject() - run one instruction in the selected warp
 * @vdev: the device
 * @insn: the instruction
 * @warp_wide: in every thread of the warp (DCTRL.injectwarp), else in the
 *	selected thread only
 *
 * Return: 0; -EIO if the card refused or faulted on it (DCTRL.injecterr)
 * or did not answer; -ENODEV if it is gone.
 */
int vortex_dm_inject(struct vortex_device *vdev, u32 insn, bool warp_wide)
{
	u32 bits = VX_DCTRL_INJECTREQ | (warp_wide ? VX_DCTRL_INJECTWARP : 0);
	u32 dctrl;
	int ret;

	vortex_dm_write(vdev, VX_DM_INJECT, insn);
	ret = vortex_dm_request(vdev, bits, &dctrl);
	if (ret)
		return ret;
	return dctrl & VX_DCTRL_INJECTERR ? -EIO : 0;
}

/**
 * vortex_dm_init() - the DM lock and shadows
 * @vdev: the device, topology known
 *
 * Return: 0 or -ENOMEM.
 */
int vortex_dm_init(struct vortex_device *vdev)
{
	struct vortex_dm *dm = &vdev->dm;
	int ret;

	ret = drmm_mutex_init(&vdev->drm, &dm->lock);
	if (ret)
		return ret;
	dm->windows = DIV_ROUND_UP(vortex_device_total_warps(vdev), 32);
	dm->wmask = drmm_kcalloc(&vdev->drm, dm->windows, sizeof(*dm->wmask),
				 GFP_KERNEL);
	dm->raw_wmask = drmm_kcalloc(&vdev->drm, dm->windows,
				     sizeof(*dm->raw_wmask), GFP_KERNEL);
	return dm->wmask && dm->raw_wmask ? 0 : -ENOMEM;
}
