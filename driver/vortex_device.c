// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Vortex card bring-up, reset and interrupts
 *
 * This file owns the card's registers outside the command stream: it checks
 * the identification, reads the topology from the Debug Module's PLATFORM
 * register once at probe (it never changes), puts the card into a known
 * state with the RESET register and (re)programs the ring, and handles the
 * single interrupt.  The interrupt handler runs in hard IRQ context and does
 * no more than acknowledge the causes and hand them to vortex_job.c: a FENCE
 * ends the job on the card, an ERROR schedules recovery on the ordered reset
 * workqueue.  DEBUG is enabled while a debugger is attached and goes to
 * vortex_debug.c.
 */

#include <linux/string_choices.h>
#include <linux/interrupt.h>
#include <linux/pci.h>
#include <drm/drm_print.h>

#include "vortex_debug.h"
#include "vortex_device.h"
#include "vortex_job.h"

/* The causes the driver always handles; DEBUG only with a debugger. */
#define VORTEX_IRQ_MASK		(VX_IRQ_FENCE | VX_IRQ_ERROR)

/**
 * vortex_device_clock() - the card's cycle counter
 * @vdev: the device
 *
 * Return: the 64-bit clock; reading its low half latches the high one.
 */
u64 vortex_device_clock(struct vortex_device *vdev)
{
	u32 lo = vortex_read(vdev, VX_REG_CLOCK_LO);	/* latches HI */

	return ((u64)vortex_read(vdev, VX_REG_CLOCK_HI) << 32) | lo;
}

/**
 * vortex_device_total_warps() - warps on the card
 * @vdev: the device
 *
 * Return: clusters * cores * warps per core.
 */
u32 vortex_device_total_warps(struct vortex_device *vdev)
{
	return vdev->num_clusters * vdev->num_cores * vdev->num_warps;
}

/**
 * vortex_device_warp_place() - where global warp @w sits on the card
 * @vdev: the device
 * @w: global warp number (cluster-major, then core, then warp)
 * @cluster: its cluster
 * @core: its core in the cluster
 * @warp_in_core: its warp in the core
 */
void vortex_device_warp_place(struct vortex_device *vdev, u32 w, u32 *cluster,
			      u32 *core, u32 *warp_in_core)
{
	*cluster = w / (vdev->num_cores * vdev->num_warps);
	*core = w / vdev->num_warps % vdev->num_cores;
	*warp_in_core = w % vdev->num_warps;
}

/**
 * vortex_device_irq_enable() - unmask the interrupts the driver handles
 * @vdev: the device
 *
 * Pending causes stay pending: a masked FENCE must not be lost.
 */
void vortex_device_irq_enable(struct vortex_device *vdev)
{
	vortex_write(vdev, VX_REG_IRQ_ENABLE, READ_ONCE(vdev->irq_mask));
}

/**
 * vortex_device_irq_disable() - mask every interrupt of the card
 * @vdev: the device
 */
void vortex_device_irq_disable(struct vortex_device *vdev)
{
	vortex_write(vdev, VX_REG_IRQ_ENABLE, 0);
}

/**
 * vortex_device_reset() - stop everything on the card and restart the ring
 * @vdev: the device
 *
 * RESET stops every warp and the command processor and clears the error
 * capture and interrupt state; VRAM survives.  The ring is then empty
 * (HEAD = TAIL = 0).  The caller holds drm_dev_enter() and makes sure
 * nothing writes the ring meanwhile (probe, or recovery with the scheduler
 * stopped), and holds the DM lock unless nothing else runs (probe): no
 * warp stays halted, which the DM sequences hear.
 */
void vortex_device_reset(struct vortex_device *vdev)
{
	/* RESET clears the console: its records go to their file first. */
	if (vdev->console.owner)
		vortex_console_drain(vdev);
	vortex_write(vdev, VX_REG_RESET, VX_RESET_KEY);
	vortex_dmseq_card_reset(&vdev->dm.seq);
	vortex_job_ring_reset(vdev);
	vortex_console_start(vdev);
	vortex_fence_wb_start(vdev);
	vortex_device_irq_enable(vdev);
}

static irqreturn_t vortex_device_irq(int irq, void *data)
{
	struct vortex_device *vdev = data;
	irqreturn_t ret = IRQ_NONE;
	unsigned int loops;
	u32 status;

	/*
	 * MSI fires only when IRQ_STATUS & IRQ_ENABLE goes from zero to
	 * non-zero: a cause raised while another is pending sends nothing,
	 * so go on until the status reads zero.
	 */
	for (loops = 0; loops < 16; loops++) {
		status = vortex_read(vdev, VX_REG_IRQ_STATUS);
		/* A card that is gone reads all ones; INTx may be shared. */
		if (status == ~0u)
			break;
		status &= READ_ONCE(vdev->irq_mask);
		if (!status)
			break;

		vortex_write(vdev, VX_REG_IRQ_STATUS, status);
		if (status & VX_IRQ_FENCE)
			vortex_job_irq_fence(vdev);
		if (status & VX_IRQ_ERROR)
			vortex_job_irq_error(vdev);
		if (status & VX_IRQ_DEBUG)
			vortex_debug_irq_debug(vdev);
		ret = IRQ_HANDLED;
	}
	return ret;
}

static int vortex_device_identify(struct vortex_device *vdev)
{
	struct drm_device *drm = &vdev->drm;
	u32 id = vortex_read(vdev, VX_REG_ID);

	if (id != VX_ID_MAGIC) {
		drm_err(drm, "not a Vortex card: ID 0x%08x\n", id);
		return -ENODEV;
	}

	vdev->version = vortex_read(vdev, VX_REG_VERSION);
	if (VX_VERSION_MAJOR(vdev->version) !=
	    VX_VERSION_MAJOR(VX_VERSION_CURRENT)) {
		drm_err(drm, "unsupported programming model %u.%u\n",
			VX_VERSION_MAJOR(vdev->version),
			VX_VERSION_MINOR(vdev->version));
		return -ENODEV;
	}

	vdev->caps = vortex_read(vdev, VX_REG_CAPS);
	if (!(vdev->caps & VX_CAPS_RING)) {
		drm_err(drm, "card has no command ring (caps 0x%x)\n", vdev->caps);
		return -ENODEV;
	}

	vdev->platform = vortex_read(vdev, VX_DM_REG(VX_DM_PLATFORM));
	vdev->num_threads = 1u << VX_PLATFORM_NUMTHREADS_LOG2(vdev->platform);
	vdev->num_warps = VX_PLATFORM_NUMWARPS(vdev->platform);
	vdev->num_cores = VX_PLATFORM_NUMCORES(vdev->platform);
	vdev->num_clusters = VX_PLATFORM_NUMCLUSTERS(vdev->platform);
	if (!vdev->num_warps || !vdev->num_cores || !vdev->num_clusters) {
		drm_err(drm, "bad PLATFORM 0x%08x\n", vdev->platform);
		return -ENODEV;
	}

	vdev->devaddr = vortex_read(vdev, VX_REG_VRAM_DEVADDR);
	vdev->vram_size = vortex_read(vdev, VX_REG_VRAM_SIZE_LO) |
			  (u64)vortex_read(vdev, VX_REG_VRAM_SIZE_HI) << 32;
	if (vdev->vram_size < VX_VRAM_MIN_SIZE ||
	    vdev->vram_size > VX_VRAM_MAX_SIZE ||
	    vdev->vram_size > pci_resource_len(vdev->pdev, VX_BAR_VRAM) ||
	    (u64)vdev->devaddr + vdev->vram_size > SZ_4G) {
		drm_err(drm, "bad VRAM: %llu bytes at 0x%x, BAR2 %llu bytes\n",
			vdev->vram_size, vdev->devaddr,
			(u64)pci_resource_len(vdev->pdev, VX_BAR_VRAM));
		return -ENODEV;
	}

	drm_info(drm, "Vortex %u.%u: %u cluster%s x %u core%s x %u warp%s x %u thread%s, %llu MiB VRAM\n",
		 VX_VERSION_MAJOR(vdev->version), VX_VERSION_MINOR(vdev->version),
		 vdev->num_clusters, str_plural(vdev->num_clusters),
		 vdev->num_cores, str_plural(vdev->num_cores),
		 vdev->num_warps, str_plural(vdev->num_warps),
		 vdev->num_threads, str_plural(vdev->num_threads),
		 vdev->vram_size >> 20);
	return 0;
}

/**
 * vortex_device_init() - identify the card and hook up its interrupt
 * @vdev: the device, with @mmio mapped
 *
 * The interrupt stays masked on the card until vortex_device_reset().
 *
 * Return: 0 or a negative errno.
 */
int vortex_device_init(struct vortex_device *vdev)
{
	struct pci_dev *pdev = vdev->pdev;
	int ret;

	ret = vortex_device_identify(vdev);
	if (ret)
		return ret;
	vdev->irq_mask = VORTEX_IRQ_MASK;
	ret = vortex_dm_init(vdev);
	if (ret)
		return ret;

	/* Quiet card before the handler can run. */
	vortex_device_irq_disable(vdev);
	vortex_write(vdev, VX_REG_IRQ_STATUS, VX_IRQ_ALL);

	/* pcim-enabled device: the vectors are released with the device. */
	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI | PCI_IRQ_INTX);
	if (ret < 0)
		return ret;
	vdev->irq = pci_irq_vector(pdev, 0);

	return devm_request_irq(&pdev->dev, vdev->irq, vortex_device_irq,
				IRQF_SHARED, KBUILD_MODNAME, vdev);
}

/**
 * vortex_device_fini() - leave the card quiet: nothing runs, nothing fires
 * @vdev: the device
 *
 * Called from remove while the BARs are still mapped; on a surprise
 * removal the writes go nowhere, which is fine.
 */
void vortex_device_fini(struct vortex_device *vdev)
{
	vortex_device_irq_disable(vdev);
	vortex_write(vdev, VX_REG_RESET, VX_RESET_KEY);
	synchronize_irq(vdev->irq);
}
