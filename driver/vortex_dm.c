// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Debug Module access
 *
 * The only code that touches the Debug Module's registers (BAR0 + 0x1000,
 * docs/hardware.md).  The sequences themselves are dbgcore/vortex_dmseq.c's,
 * written once for the driver and libvortex-debug's simulator backend:
 * this file gives them the BAR (one readl/writel per access, counted for
 * debugfs), a microsecond between two polls of a request, and asserts the
 * DM lock on every access.  Everything runs under &vortex_dm.lock.  A card
 * that stops answering gives -EIO, never a stuck thread, and a card that
 * is gone (reads all ones) gives -ENODEV.
 *
 * The vortex_dm_*() calls below are the driver's names for the shared
 * sequences, for the debugger and the crash dump.
 */

#include <linux/delay.h>
#include <linux/slab.h>
#include <drm/drm_managed.h>

#include "vortex_device.h"
#include "vortex_dm.h"

/* A request not done after this many polls (a microsecond apart) failed. */
#define VORTEX_DM_POLLS		10000

static u32 vortex_dm_mmio_read(void *priv, u32 reg)
{
	struct vortex_device *vdev = priv;

	lockdep_assert_held(&vdev->dm.lock);
	vdev->dm.accesses++;
	return vortex_read(vdev, VX_DM_REG(reg));
}

static void vortex_dm_mmio_write(void *priv, u32 reg, u32 val)
{
	struct vortex_device *vdev = priv;

	lockdep_assert_held(&vdev->dm.lock);
	vdev->dm.accesses++;
	vortex_write(vdev, VX_DM_REG(reg), val);
}

static void vortex_dm_delay(void *priv)
{
	udelay(1);
}

static const struct vortex_dmseq_ops vortex_dm_mmio_ops = {
	.read = vortex_dm_mmio_read,
	.write = vortex_dm_mmio_write,
	.delay = vortex_dm_delay,
};

/**
 * vortex_dm_read() - read a Debug Module register
 * @vdev: the device
 * @reg: the DM register
 *
 * Return: the register's value.
 */
u32 vortex_dm_read(struct vortex_device *vdev, u32 reg)
{
	return vortex_dmseq_read(&vdev->dm.seq, reg);
}

/**
 * vortex_dm_write() - write a Debug Module register
 * @vdev: the device
 * @reg: the DM register
 * @val: the value
 */
void vortex_dm_write(struct vortex_device *vdev, u32 reg, u32 val)
{
	vortex_dmseq_write(&vdev->dm.seq, reg, val);
}

/**
 * vortex_dm_select() - select a warp and a thread, keeping the window
 * @vdev: the device
 * @warp: the warp
 * @thread: the thread in it
 */
void vortex_dm_select(struct vortex_device *vdev, u32 warp, u32 thread)
{
	vortex_dmseq_select(&vdev->dm.seq, warp, thread);
}

/**
 * vortex_dm_set_dconfig() - write DCONFIG if it changes
 * @vdev: the device
 * @dconfig: the VX_DCONFIG_* bits
 */
void vortex_dm_set_dconfig(struct vortex_device *vdev, u32 dconfig)
{
	vortex_dmseq_set_dconfig(&vdev->dm.seq, dconfig);
}

/**
 * vortex_dm_activate() - set DCTRL.dmactive if it is not
 * @vdev: the device
 *
 * Return: 0, or -ENODEV when the card does not answer
 * (vortex_dmseq_activate()).
 */
int vortex_dm_activate(struct vortex_device *vdev)
{
	return vortex_dmseq_activate(&vdev->dm.seq);
}

/**
 * vortex_dm_request() - write DCTRL requests and wait until they are done
 * @vdev: the device, DM active
 * @bits: VX_DCTRL_*REQ bits (and VX_DCTRL_INJECTWARP)
 * @dctrl: if not NULL, receives DCTRL as last read (with injecterr)
 *
 * Return: 0, -EIO or -ENODEV (vortex_dmseq_request()).
 */
int vortex_dm_request(struct vortex_device *vdev, u32 bits, u32 *dctrl)
{
	return vortex_dmseq_request(&vdev->dm.seq, bits, dctrl);
}

/**
 * vortex_dm_set_mask() - select a set of warps for halt, resume, reset-halt
 * @vdev: the device
 * @mask: one bit per warp, &vortex_dm.windows words
 */
void vortex_dm_set_mask(struct vortex_device *vdev, const u32 *mask)
{
	vortex_dmseq_set_mask(&vdev->dm.seq, mask);
}

/**
 * vortex_dm_halt_running() - halt every warp that is not halted
 * @vdev: the device, DM active
 *
 * Warps already halted keep their causes (vortex_dmseq_halt_running()).
 *
 * Return: 0, -EIO or -ENODEV (vortex_dmseq_request()).
 */
int vortex_dm_halt_running(struct vortex_device *vdev)
{
	return vortex_dmseq_halt_running(&vdev->dm.seq, NULL);
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
	return vortex_dmseq_window(&vdev->dm.seq, reg, win);
}

/**
 * vortex_dm_init() - the DM lock, shadows and accessors
 * @vdev: the device, topology known
 *
 * Return: 0 or -ENOMEM.
 */
int vortex_dm_init(struct vortex_device *vdev)
{
	struct vortex_dm *dm = &vdev->dm;
	struct vortex_dmseq *seq = &dm->seq;
	int ret;

	ret = drmm_mutex_init(&vdev->drm, &dm->lock);
	if (ret)
		return ret;
	seq->ops = &vortex_dm_mmio_ops;
	seq->priv = vdev;
	seq->polls = VORTEX_DM_POLLS;
	seq->clusters = vdev->num_clusters;
	seq->cores = vdev->num_cores;
	seq->warps = vdev->num_warps;
	seq->threads = vdev->num_threads;
	dm->windows = vortex_dmseq_windows(seq);
	seq->wmask = drmm_kcalloc(&vdev->drm, dm->windows, sizeof(*seq->wmask),
				  GFP_KERNEL);
	seq->raw_wmask = drmm_kcalloc(&vdev->drm, dm->windows,
				      sizeof(*seq->raw_wmask), GFP_KERNEL);
	if (!seq->wmask || !seq->raw_wmask)
		return -ENOMEM;
	vortex_dmseq_init(seq);
	return 0;
}
