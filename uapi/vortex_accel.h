/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR MIT */
/*
 * Vortex GPGPU accelerator: userspace ABI of /dev/accel/accelN.
 *
 * Rules this header keeps (Documentation/process/botching-up-ioctls.rst):
 * ioctl numbers are #defines that never change; structs hold only fixed-size
 * types, are multiples of 8 bytes and carry explicit padding that must be
 * zero; pointers travel as __u64; every flags field has a mask of the bits
 * the kernel knows and anything else is -EINVAL.  Later additions append
 * members (the DRM core zero-extends short structs from old userspace) and
 * announce themselves through a DRM_VORTEX_PARAM_CAPABILITIES bit.
 *
 * Of the DRM core ioctls, the node accepts only those that mean something
 * on an accel device: DRM_IOCTL_VERSION, DRM_IOCTL_GET_CAP,
 * DRM_IOCTL_GEM_CLOSE, DRM_IOCTL_PRIME_HANDLE_TO_FD/FD_TO_HANDLE and the
 * DRM_IOCTL_SYNCOBJ_* family.  Every other core ioctl (authentication,
 * master, GEM flink/open, modesetting, ...) is -EOPNOTSUPP.  The syncobj
 * ioctls that take an array of handles (WAIT, TIMELINE_WAIT, RESET,
 * SIGNAL, TIMELINE_SIGNAL, QUERY) accept at most 1024 handles per call;
 * more is -EINVAL.
 *
 * Isolation: until the card has per-context address spaces, a kernel
 * running on the card can read and write all of VRAM, including other
 * clients' buffers.  The device node is therefore root-only by default;
 * see docs/security.md before opening it to others.
 */
#ifndef _UAPI_VORTEX_ACCEL_H_
#define _UAPI_VORTEX_ACCEL_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

#define DRM_VORTEX_GET_PARAM		0x00
#define DRM_VORTEX_BO_CREATE		0x01
#define DRM_VORTEX_BO_INFO		0x02
#define DRM_VORTEX_SUBMIT		0x03
#define DRM_VORTEX_WAIT			0x04
/* 0x10..0x2f are reserved for the debugger interface. */

#define DRM_IOCTL_VORTEX_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_GET_PARAM, struct drm_vortex_get_param)
#define DRM_IOCTL_VORTEX_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_BO_CREATE, struct drm_vortex_bo_create)
#define DRM_IOCTL_VORTEX_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_BO_INFO, struct drm_vortex_bo_info)
#define DRM_IOCTL_VORTEX_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_SUBMIT, struct drm_vortex_submit)
#define DRM_IOCTL_VORTEX_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_WAIT, struct drm_vortex_wait)

/* Parameters of DRM_IOCTL_VORTEX_GET_PARAM */
#define DRM_VORTEX_PARAM_DEVICE_VERSION	0	/* VX_REG_VERSION of the card */
#define DRM_VORTEX_PARAM_PLATFORM	1	/* raw DM PLATFORM register */
#define DRM_VORTEX_PARAM_NUM_CLUSTERS	2
#define DRM_VORTEX_PARAM_NUM_CORES	3	/* cores per cluster */
#define DRM_VORTEX_PARAM_NUM_WARPS	4	/* warps per core */
#define DRM_VORTEX_PARAM_NUM_THREADS	5	/* threads per warp */
#define DRM_VORTEX_PARAM_VRAM_SIZE	6	/* bytes */
#define DRM_VORTEX_PARAM_VRAM_DEVADDR	7	/* device address of VRAM */
#define DRM_VORTEX_PARAM_CAPABILITIES	8	/* DRM_VORTEX_CAP_* */
#define DRM_VORTEX_PARAM_JOB_TIMEOUT_MS	9	/* hang timeout in force */
#define DRM_VORTEX_PARAM_MAX_JOBS_IN_FLIGHT 10	/* per file, see SUBMIT */
#define DRM_VORTEX_PARAM_MAX		10

/* Bits of DRM_VORTEX_PARAM_CAPABILITIES: what this kernel supports. */
#define DRM_VORTEX_CAP_SUBMIT		(1ull << 0)	/* SUBMIT and WAIT */
#define DRM_VORTEX_CAP_SYNCOBJ		(1ull << 1)	/* in/out syncobjs */

/**
 * struct drm_vortex_get_param - query one device or driver parameter
 */
struct drm_vortex_get_param {
	/** @param: DRM_VORTEX_PARAM_*; unknown values are -EINVAL */
	__u32 param;
	/** @pad: must be zero */
	__u32 pad;
	/** @value: out: the parameter's value */
	__u64 value;
};

#define DRM_VORTEX_BO_FLAGS		0	/* no flags defined yet */

/**
 * struct drm_vortex_bo_create - allocate a zero-filled buffer in VRAM
 *
 * The buffer is contiguous in VRAM and page aligned; its size is rounded
 * up to whole pages.  No VRAM left is -ENOMEM and creates nothing.
 */
struct drm_vortex_bo_create {
	/** @size: bytes, non-zero, at most the VRAM size */
	__u64 size;
	/** @flags: must be zero (DRM_VORTEX_BO_FLAGS) */
	__u32 flags;
	/** @handle: out: GEM handle, released with DRM_IOCTL_GEM_CLOSE */
	__u32 handle;
	/** @dev_addr: out: device address of the first byte */
	__u64 dev_addr;
};

/**
 * struct drm_vortex_bo_info - where a buffer lives
 */
struct drm_vortex_bo_info {
	/** @handle: GEM handle of the buffer */
	__u32 handle;
	/** @pad: must be zero */
	__u32 pad;
	/** @mmap_offset: out: offset to pass to mmap() on the device fd */
	__u64 mmap_offset;
	/** @dev_addr: out: device address of the first byte */
	__u64 dev_addr;
	/** @size: out: size in bytes (whole pages) */
	__u64 size;
};

/* Per-buffer flags of struct drm_vortex_submit_bo */
#define DRM_VORTEX_SUBMIT_BO_READ	(1u << 0)	/* the kernel reads it */
#define DRM_VORTEX_SUBMIT_BO_WRITE	(1u << 1)	/* the kernel writes it */
#define DRM_VORTEX_SUBMIT_BO_DUMP	(1u << 2)	/* include in crash dumps */
#define DRM_VORTEX_SUBMIT_BO_FLAGS	(DRM_VORTEX_SUBMIT_BO_READ | \
					 DRM_VORTEX_SUBMIT_BO_WRITE | \
					 DRM_VORTEX_SUBMIT_BO_DUMP)

/**
 * struct drm_vortex_submit_bo - one buffer a job uses
 */
struct drm_vortex_submit_bo {
	/** @handle: GEM handle */
	__u32 handle;
	/** @flags: DRM_VORTEX_SUBMIT_BO_* */
	__u32 flags;
};

#define DRM_VORTEX_SUBMIT_FLAGS		0	/* no flags defined yet */

/**
 * struct drm_vortex_submit - launch a kernel on the card
 *
 * Every thread of every block starts at @entry_pc with the argument
 * pointer in mscratch and a0 and its stack pointer at the top of its own
 * slice of the stack area (docs/hardware.md, "Launch ABI").  @entry_pc,
 * @arg_addr (unless zero) and the whole stack area must lie inside buffers
 * listed in @bos; the job holds references on those buffers until it ends.
 *
 * Grid and block dimensions must each be at least 1; a block must fit on
 * one core (at most warps-per-core x threads-per-warp threads) and the
 * grid may hold at most 2^32 - 1 threads.  The stack area holds one slice
 * per hardware thread of the whole card: clusters x cores x warps x
 * threads x @stack_size bytes.
 *
 * A file may have at most DRM_VORTEX_PARAM_MAX_JOBS_IN_FLIGHT jobs that
 * were submitted and have not ended (and been retired) yet; one more is
 * -EBUSY: WAIT for an earlier job and submit again.  Kernel memory a
 * SUBMIT allocates is charged to the caller's memory cgroup.
 *
 * Errors, all before anything is queued or a seqno is used: -EINVAL for
 * anything malformed (flags, pad, counts, stride, dimensions, addresses);
 * -EFAULT if @bos cannot be read; -ENOENT for a BO or syncobj handle this
 * file does not have (an @in_sync without a fence is -EINVAL); -EBUSY with
 * too many jobs in flight; -ENOMEM when the memory cgroup or the kernel
 * is out of memory; -ENODEV once the card is gone.
 */
struct drm_vortex_submit {
	/** @entry_pc: device address of the first instruction */
	__u64 entry_pc;
	/** @arg_addr: device address of the argument block, or 0 */
	__u64 arg_addr;
	/** @stack_addr: device address of the stack area, or 0 for none */
	__u64 stack_addr;
	/** @stack_size: bytes per hardware thread, multiple of 16, 0 for none */
	__u64 stack_size;
	/** @grid: blocks in x, y, z */
	__u32 grid[3];
	/** @block: threads per block in x, y, z */
	__u32 block[3];
	/** @bos: user pointer to an array of struct drm_vortex_submit_bo */
	__u64 bos;
	/** @bo_count: entries in @bos, 1 to 4096 */
	__u32 bo_count;
	/**
	 * @bo_stride: sizeof(struct drm_vortex_submit_bo) as userspace knows
	 * it, 8 to 4096; bytes past the fields this kernel knows must be zero
	 */
	__u32 bo_stride;
	/** @in_sync: syncobj handle to wait for before running, or 0 */
	__u32 in_sync;
	/** @out_sync: syncobj handle that receives the job's fence, or 0 */
	__u32 out_sync;
	/** @flags: must be zero (DRM_VORTEX_SUBMIT_FLAGS) */
	__u32 flags;
	/** @pad: must be zero */
	__u32 pad;
	/** @seqno: out: this file's job number, for DRM_IOCTL_VORTEX_WAIT */
	__u64 seqno;
};

#define DRM_VORTEX_WAIT_FLAGS		0	/* no flags defined yet */

/**
 * struct drm_vortex_wait - wait for a job of this file to end
 *
 * Returns 0 once the job has ended, with its outcome in @status; -ETIME
 * if @timeout_ns passed first; -EINVAL for a seqno this file never got
 * from DRM_IOCTL_VORTEX_SUBMIT.  The kernel remembers the outcome of at
 * least the file's last 1024 jobs; a job that ended before those is
 * -ENOENT.  (A job that has not ended is always among them: the bound on
 * jobs in flight is smaller.)  Waiting again for a job already reported is allowed.
 * Interrupted by a signal it fails with -EINTR and may simply be repeated
 * (the deadline is absolute).  Once the card is gone every ioctl is -ENODEV;
 * a WAIT already sleeping then returns with @status -ECANCELED.
 */
struct drm_vortex_wait {
	/** @seqno: what DRM_IOCTL_VORTEX_SUBMIT returned */
	__u64 seqno;
	/** @timeout_ns: absolute CLOCK_MONOTONIC deadline; 0 polls */
	__s64 timeout_ns;
	/** @flags: must be zero (DRM_VORTEX_WAIT_FLAGS) */
	__u32 flags;
	/**
	 * @status: out: 0 the job completed; -ETIMEDOUT it hung and was
	 * stopped; -EIO it raised a device exception; -ECANCELED it was
	 * dropped because the device went away or its file was closed
	 */
	__s32 status;
};

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_VORTEX_ACCEL_H_ */
