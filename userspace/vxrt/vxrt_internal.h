/* SPDX-License-Identifier: MIT */
/*
 * libvortexrt's state: a device is an open node of the driver with its
 * own GPU address space laid out as Vortex's (docs/runtime.md); a buffer
 * is a GEM object the driver mapped nowhere (DRM_VORTEX_BO_NO_MAP), bound
 * with VM_BIND at the virtual address the runtime chose.
 *
 * It is built on libvortex (<libvortex.h>): the node is a libvortex
 * device, and its ioctls go through libvortex's one ioctl layer
 * (vx_ioctl(), vx_submit(), vx_vm_bind(), vx_wait()).
 */
#ifndef VXRT_INTERNAL_H
#define VXRT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "libvortex.h"
#include "vortex_regs.h"

/* Vortex's RV32 memory map (hw/rtl/VX_config.vh; docs/runtime.md). */
#define VXRT_IO_BASE		0x00000000u	/* the page IO_BASE_ADDR is in */
#define VXRT_IO_SIZE		0x00010000u	/* up to USER_BASE_ADDR */
#define VXRT_HEAP_BASE		0x00010000u	/* USER_BASE_ADDR */
#define VXRT_HEAP_END		0x40000000u	/* the driver's reserved range */
#define VXRT_STARTUP_ADDR	0x80000000u	/* STARTUP_ADDR */
#define VXRT_STACK_BASE		0xffff0000u	/* STACK_BASE_ADDR */
#define VXRT_STACK_LOG2		13		/* STACK_LOG2_SIZE */
#define VXRT_PAGE		4096u

struct vxrt_device;

/* One vx_buffer_h. */
struct vxrt_buffer {
	struct vxrt_device *dev;
	struct vxrt_buffer *next;	/* the device's list, by address */
	uint32_t handle;
	uint64_t va, size;		/* size: whole pages */
	uint8_t *map;			/* CPU mapping, or NULL until needed */
	uint8_t *access;		/* per page: VX_MEM_* as vx_mem_access() set */
	bool internal;			/* the stacks, I/O page, ELF copies */
	struct vxrt_buffer *elf;	/* a kernel's ELF bytes for debuggers */
	uint32_t code_object;		/* their code object's id, or 0 */
	/*
	 * A reservation inside the runtime's own I/O range is a window onto
	 * the I/O buffer: @of is that buffer, @at the window's offset in it;
	 * a window has no pages of its own and is on &vxrt_device.views.
	 */
	struct vxrt_buffer *of;
	uint64_t at;
};

/* vxrt_buffer_new()'s @va for "the heap's first fit". */
#define VXRT_VA_ANY		UINT64_MAX

/* One vx_device_h. */
struct vxrt_device {
	struct vx_device *vx;		/* the node, through libvortex */
	uint64_t clusters, cores, warps, threads, vram, version;
	struct vxrt_buffer *bufs;	/* sorted by va */
	struct vxrt_buffer *views;	/* windows onto the I/O buffer */
	struct vxrt_buffer *io;		/* the I/O page, MPM counters in it */
	uint64_t seqno;			/* the last vx_start()'s job, 0 none */
	uint32_t out_flags;		/* its SUBMIT's out_flags */
	int32_t status;			/* its SUBMIT's status, if ENDED */
	uint64_t used;			/* bytes of this device's buffers */
	/*
	 * STARTUP_ADDR0 and STARTUP_ARG0 as last written: the driver keeps a
	 * file's DCRs, so vx_start() writes only what changed.
	 */
	uint32_t startup_addr, startup_arg;
	bool startup_known;
};

/* The node's file, for the ioctls libvortex has no call of its own for. */
static inline int vxrt_fd(const struct vxrt_device *dev)
{
	return vx_device_fd(dev->vx);
}

int vxrt_fail(int err);
int vxrt_buffer_new(struct vxrt_device *dev, uint64_t va, uint64_t size,
		    int flags, bool internal, struct vxrt_buffer **out);
int vxrt_map(struct vxrt_buffer *b);
int vxrt_console_print(struct vxrt_device *dev, FILE *out);

#endif /* VXRT_INTERNAL_H */
