/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_DUMP_STATE_H__
#define __VORTEX_DUMP_STATE_H__

/*
 * The card's state as a crash dump captured it: a snapshot filled in
 * recovery by vortex_dump.c, published by vortex_dump_publish.c and
 * rendered outside recovery, as text by vortex_dump_text.c and as a
 * CUDA-format ELF by vortex_dump_elf.c.  Once captured, the snapshot
 * reads no card state: rendering needs only it and the device's
 * constants (topology, version).
 */

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/time64.h>
#include <linux/workqueue.h>
#include <linux/types.h>

#include "vortex_accel.h"
#include "vortex_regs.h"
#include "vortex_vm.h"
#include "vortex_warp.h"

struct kernfs_node;
struct vortex_device;
struct vortex_file;

/*
 * The text's format version (``dump-version:``): 1 had no such line; 2
 * added it, ``card-job:``, the walk's ``ptes:``, ``vm-log:`` and buffer
 * labels.  Readers ignore keys they do not know; the version goes up when
 * a key they know changes meaning.
 */
#define VORTEX_DUMP_VERSION	2

/* Bytes of an assert's strings read from device memory. */
#define VORTEX_DUMP_STR		128

/**
 * struct vortex_dump_bo - one buffer's contents
 */
struct vortex_dump_bo {
	/** @iova: device address */
	u64 iova;
	/** @size: bytes of the buffer */
	u64 size;
	/** @flags: DRM_VORTEX_SUBMIT_BO_* it was submitted with */
	u32 flags;
	/** @label: its DRM_IOCTL_VORTEX_BO_SET_LABEL label, "" for none */
	char label[DRM_VORTEX_BO_LABEL_MAX];
	/** @len: bytes in @data (trailing zero words dropped, capped) */
	u64 len;
	/** @captured: bytes copied into @data, its zero tail included */
	u64 captured;
	/** @data: the contents */
	u32 *data;
};

/**
 * struct vortex_dump_warp - one warp with a context
 */
struct vortex_dump_warp {
	/** @st: id, coordinates, state, cause, PC, thread mask */
	struct drm_vortex_debug_warp_state st;
	/** @regs: VORTEX_WARP_REGS x threads, or NULL if unreadable */
	u32 *regs;
	/**
	 * @stack: the top VORTEX_DUMP_STACK bytes of each lane's stack slice,
	 * lane after lane, where no captured buffer holds them; or NULL
	 */
	u8 *stack;
	/** @stored: the warp ran the register stub (vortex_dump_regs.c) */
	bool stored;
};

/**
 * vortex_dump_lane_listed() - whether a dump lists @lane of @dw
 * @dw: the warp
 * @lane: a lane of it
 *
 * Lanes 0-31 while on (the warp's thread mask).  Lanes 32 and up always:
 * the card's thread-mask CSR (VX_CSR_ACTIVE_THREADS) holds lanes 0-31,
 * and injection runs on the selected thread whether it is on or not
 * ("All subsequent step and instruction injection commands then use the
 * selected warp/thread pair", shared/specs/vxdebug-spec.md), so nothing
 * the Debug Module reads says which of them are on.
 *
 * Return: true if listed.
 */
static inline bool vortex_dump_lane_listed(const struct vortex_dump_warp *dw, u32 lane)
{
	return lane >= 32 || dw->st.thread_mask[0] & BIT(lane);
}

/* Stack bytes per lane the ELF carries, from the top of the lane's slice. */
#define VORTEX_DUMP_STACK	1024
/* Console records a dump carries, the oldest unread ones. */
#define VORTEX_DUMP_CONSOLE	4096
/* Argument bytes the ELF carries. */
#define VORTEX_DUMP_PARAM	256

/* Levels of an Sv32 walk (docs/hardware.md, "Page tables"). */
#define VORTEX_DUMP_PT_LEVELS	2

/**
 * struct vortex_dump_walk - the page-table walk of a page fault's address
 */
struct vortex_dump_walk {
	/** @satp: the job's SATP dword (0: untranslated, no walk) */
	u32 satp;
	/** @va: the faulting virtual address (ERR_ADDR) */
	u32 va;
	/** @ptes: each level's PTE, level 1 first, as read from the tables */
	u32 ptes[VORTEX_DUMP_PT_LEVELS];
	/** @levels: entries of @ptes read (the walk stops at a leaf or an invalid PTE) */
	u32 levels;
};

/**
 * struct vortex_dump - the card's state, as captured
 */
struct vortex_dump {
	/** @ref: held by the slot while pending, by devcoredump, by a renderer */
	struct kref ref;
	/** @vdev: the device; a published dump holds a reference on it */
	struct vortex_device *vdev;
	/** @start_ns: when the failure's handling began (ktime_get_ns()) */
	u64 start_ns;
	/** @time: when the failure was handled */
	struct timespec64 time;
	/** @error: how the job ended */
	int error;
	/** @flags: DRM_VORTEX_DUMP_* in force */
	u32 flags;
	/** @comm: the submitting process's name */
	char comm[TASK_COMM_LEN];
	/** @cmdline: its command line, or NULL */
	char *cmdline;
	/**
	 * @vfile: the failed job's file (a reference) until the worker has
	 * named the dump in its fault record, or NULL
	 */
	struct vortex_file *vfile;
	/** @owner: the process that opened the job's file (a reference), or NULL */
	struct pid *owner;
	/** @job: the file's job seqno */
	u64 job;
	/** @card_job: the job's fence seqno on the card's ring, card-wide */
	u64 card_job;
	/** @regs: BAR0 0x0000 .. VX_REG_ERR_PKT */
	u32 regs[VX_REG_ERR_PKT / 4 + 1];
	/** @dm: Debug Module registers, or all zero if not read */
	u32 dm[VX_DM_NREGS];
	/** @vm_log: the job's space's last maps and unmaps, oldest first */
	struct vortex_vm_log_entry vm_log[VORTEX_VM_LOG];
	/** @vm_log_len: entries in @vm_log */
	u32 vm_log_len;
	/** @walk: the page-table walk of a page fault's address */
	struct vortex_dump_walk walk;
	/** @assert: the assert's expression, file and function strings */
	char assert[3][VORTEX_DUMP_STR];
	/** @ring: the ring's contents */
	struct vortex_dump_bo ring;
	/** @last_fence: last fence seqno written to the ring */
	u32 last_fence;
	/** @bos: the job's buffers, @nbos of them */
	struct vortex_dump_bo *bos;
	/** @nbos: entries in @bos */
	u32 nbos;
	/** @warps: warps with a context, @nwarps of them */
	struct vortex_dump_warp *warps;
	/** @nwarps: entries in @warps */
	u32 nwarps;
	/** @threads: lanes per warp */
	u32 threads;
	/** @missing: what could not be captured, "" if nothing */
	char missing[128];
	/** @launch: the job's LAUNCH payload (grid, block, entry, stack) */
	u32 launch[VX_LAUNCH_NDW];
	/** @code: the job's code object: id, ELF bytes copied, load range */
	struct vortex_dump_bo code;
	/** @code_id: its id, 0 for none */
	u32 code_id;
	/** @param: the job's argument bytes, as the ELF's .cudbg.param */
	struct vortex_dump_bo param;
	/** @stack_take: bytes of each lane's stack in vortex_dump_warp.stack */
	u32 stack_take;
	/** @console: the job's file's unread console records, or NULL */
	u32 *console;
	/** @console_len: records in @console */
	u32 console_len;
	/** @console_dropped: records its file lost */
	u64 console_dropped;

	/* Filled when published and rendered, outside recovery: */
	/** @gone: devcoredump has let it go (or refused it) */
	bool gone;
	/**
	 * @devcd: the ``subsystem`` link in the sysfs directory of
	 * devcoredump's device for the dump (a reference), from its
	 * publication until devcoredump lets it go, or NULL; under
	 * &vortex_dump_slot.lock.  A discard removes it first.
	 */
	struct kernfs_node *devcd;
	/** @devcd_known: the worker has looked for @devcd; under the slot's lock */
	bool devcd_known;
	/** @rendered: completed once @text (or its absence) is final */
	struct completion rendered;
	/** @text: the dump's text, @text_len bytes, or NULL without memory */
	char *text;
	/** @text_len: bytes of @text */
	size_t text_len;
	/** @elf: the CUDA-format ELF, or NULL */
	void *elf;
	/** @elf_len: its bytes */
	size_t elf_len;
	/** @elf_size: the ELF's bytes if @elf holds it zlib-compressed, else 0 */
	size_t elf_size;
};

void *vortex_dump_elf(struct vortex_device *vdev, const struct vortex_dump *d,
		      size_t *len);
int vortex_dump_compress_elf(struct vortex_dump *d);
bool vortex_dump_read_captured(const struct vortex_dump *d, u64 addr,
			       size_t size, void *out);
void vortex_dump_render(struct vortex_dump *d);
void vortex_dump_missing(struct vortex_dump *d, const char *what);
int vortex_dump_offer(struct vortex_dump *d);
bool vortex_dump_refused(struct vortex_device *vdev);
void vortex_dump_dropped(struct vortex_device *vdev);
void vortex_dump_put(struct vortex_dump *d);
u64 vortex_dump_stub_size(u32 threads, u32 warps, u64 max);
void vortex_dump_stub_warps(struct vortex_device *vdev, struct vortex_dump *d,
			    u32 area_va);

#endif /* __VORTEX_DUMP_STATE_H__ */
