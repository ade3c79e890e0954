/* SPDX-License-Identifier: MIT */
/*
 * libvortexrt on the host simulator: the part of the driver it uses
 * (GET_PARAM, BO_CREATE/INFO, GEM_CLOSE, VM_BIND, DCR, SUBMIT with
 * DRM_VORTEX_SUBMIT_CORES, WAIT, CONSOLE, CODE_OBJECT, FAULT, mmap) over one
 * simulated card, so a host test runs the library itself, unchanged.
 * The test links with -Wl,--wrap=ioctl,--wrap=mmap,--wrap=munmap: every
 * DRM ioctl of the process and every mmap of the node's fd come here.
 */
#ifndef VXRT_SIMDRV_H
#define VXRT_SIMDRV_H

#include <stdint.h>

/* What the card's error registers said of the last job that failed. */
struct vxrt_simdrv_fault {
	uint32_t cause, warp, thread, pc, addr;
};

/*
 * A card of @topo (clusters, cores, warps, threads) for the next
 * vx_dev_open(), which must name a node that opens (VORTEX_DEVICE, e.g.
 * /dev/null).  Returns 0, or -errno.
 */
int vxrt_simdrv_new(const uint32_t topo[4]);
void vxrt_simdrv_free(void);

/* The last failed job's fault (cause 0 if none failed). */
const struct vxrt_simdrv_fault *vxrt_simdrv_fault(void);

#endif /* VXRT_SIMDRV_H */
