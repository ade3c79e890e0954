/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_CONSOLE_H__
#define __VORTEX_CONSOLE_H__

#include <linux/spinlock.h>
#include <linux/types.h>
#include <drm/drm_mm.h>

struct drm_device;
struct drm_file;
struct vortex_device;
struct vortex_file;

/* Bytes of the card's console ring in VRAM (a power of two, 4 KiB..16 MiB). */
#define VORTEX_CONSOLE_RING	SZ_64K
/* Records a file's console holds until read. */
#define VORTEX_CONSOLE_FILE	16384

/**
 * struct vortex_console_state - the card's console ring (vortex_console.c)
 */
struct vortex_console_state {
	/** @node: its VRAM */
	struct drm_mm_node node;
	/** @owner: the file whose job went on the card last (a reference), or NULL */
	struct vortex_file *owner;
	/** @dropped: CONS_DROPPED at the last drain */
	u32 dropped;
	/** @head: CONS_HEAD as the driver last wrote it (it alone moves it) */
	u32 head;
	/**
	 * @empty: drained after the last job ended (vortex_console_job_end()),
	 * and no job went on since: nothing can be on the ring
	 */
	bool empty;
};

/**
 * struct vortex_console_buf - a file's console records, until read
 */
struct vortex_console_buf {
	/** @lock: guards the rest */
	spinlock_t lock;
	/** @rec: VORTEX_CONSOLE_FILE records, VX_CONS_REC_* */
	u32 *rec;
	/** @head: number of the oldest unread record (free running) */
	u64 head;
	/** @tail: number one past the newest */
	u64 tail;
	/** @dropped: records lost since the last read */
	u64 dropped;
};

int vortex_console_init(struct vortex_device *vdev);
void vortex_console_start(struct vortex_device *vdev);
void vortex_console_drain(struct vortex_device *vdev);
void vortex_console_job_start(struct vortex_device *vdev, struct vortex_file *vfile);
bool vortex_console_job_end(struct vortex_device *vdev, const u32 *tail);
u64 vortex_console_first_unread(struct vortex_file *vfile);
u32 vortex_console_read_from(struct vortex_file *vfile, u64 *from, u32 *out,
			     u32 max, u64 *skipped);
int vortex_console_file_open(struct vortex_file *vfile);
void vortex_console_file_close(struct vortex_file *vfile);
void vortex_console_file_release(struct vortex_file *vfile);
u32 vortex_console_peek(struct vortex_file *vfile, u32 *out, u32 max, u64 *dropped);
int vortex_console_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* __VORTEX_CONSOLE_H__ */
