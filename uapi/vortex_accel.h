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
 * Isolation (DRM_VORTEX_CAP_VM): every open file has its own GPU address
 * space.  A kernel can load from, store to and execute exactly the buffers
 * its file holds handles to; any other address (another file's buffers,
 * freed memory, the driver's ring and page tables) is a page fault that
 * ends the job with -EIO.  The node is still root-only by default;
 * docs/security.md says what the isolation covers and how to open the
 * node to a group.
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
#define DRM_VORTEX_VM_BIND		0x05
#define DRM_VORTEX_DCR			0x06
#define DRM_VORTEX_CONSOLE		0x07
#define DRM_VORTEX_BO_SET_LABEL		0x08
#define DRM_VORTEX_FAULT		0x09
/* 0x10..0x2f are reserved for the debugger interface. */
#define DRM_VORTEX_DEBUG_ATTACH		0x10
#define DRM_VORTEX_CODE_OBJECT		0x11
#define DRM_VORTEX_DUMP_CONFIG		0x12

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
#define DRM_IOCTL_VORTEX_VM_BIND \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_VM_BIND, struct drm_vortex_vm_bind)
#define DRM_IOCTL_VORTEX_DCR \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_DCR, struct drm_vortex_dcr)
#define DRM_IOCTL_VORTEX_CONSOLE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_CONSOLE, struct drm_vortex_console)
#define DRM_IOCTL_VORTEX_BO_SET_LABEL \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VORTEX_BO_SET_LABEL, struct drm_vortex_bo_set_label)
#define DRM_IOCTL_VORTEX_FAULT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_FAULT, struct drm_vortex_fault)
#define DRM_IOCTL_VORTEX_DEBUG_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_DEBUG_ATTACH, struct drm_vortex_debug_attach)
#define DRM_IOCTL_VORTEX_CODE_OBJECT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_CODE_OBJECT, struct drm_vortex_code_object)
#define DRM_IOCTL_VORTEX_DUMP_CONFIG \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VORTEX_DUMP_CONFIG, struct drm_vortex_dump_config)

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

/* Bits of DRM_VORTEX_PARAM_CAPABILITIES: what this kernel supports. */
#define DRM_VORTEX_CAP_SUBMIT		(1ull << 0)	/* SUBMIT and WAIT */
#define DRM_VORTEX_CAP_SYNCOBJ		(1ull << 1)	/* in/out syncobjs */
#define DRM_VORTEX_CAP_DEBUG		(1ull << 2)	/* DEBUG_ATTACH works */
#define DRM_VORTEX_CAP_DUMP		(1ull << 3)	/* crash dumps, DUMP_CONFIG */
/*
 * SUBMIT puts a job that waits for nothing on an idle card itself, and a
 * short one has ended when SUBMIT returns (the card's fast doorbell and
 * the module parameter fast_lane).  Nothing else changes for userspace:
 * WAIT, syncobjs, order, timeouts and errors are the same on both lanes.
 */
#define DRM_VORTEX_CAP_FAST_LANE	(1ull << 4)
/*
 * Every file has its own GPU address space: a kernel reaches the buffers
 * its file has handles to, at their dev_addr, and nothing else (see
 * "Address spaces" below).
 */
#define DRM_VORTEX_CAP_VM		(1ull << 5)
/* BO_CREATE takes DRM_VORTEX_BO_GPU_READ_ONLY and _NO_EXEC; BO_INFO reports them. */
#define DRM_VORTEX_CAP_BO_ACCESS	(1ull << 6)
/*
 * DRM_IOCTL_VORTEX_VM_BIND maps buffers at virtual addresses the client
 * chooses, and BO_CREATE takes DRM_VORTEX_BO_NO_MAP (see "User-chosen
 * virtual addresses" below).
 */
#define DRM_VORTEX_CAP_VM_BIND		(1ull << 7)
/* DRM_VORTEX_SUBMIT_CORES and DRM_IOCTL_VORTEX_DCR: Vortex's launch model */
#define DRM_VORTEX_CAP_CORES		(1ull << 8)
/* DRM_IOCTL_VORTEX_CONSOLE: what the file's kernels printed */
#define DRM_VORTEX_CAP_CONSOLE		(1ull << 9)
/* DRM_IOCTL_VORTEX_BO_SET_LABEL: buffer labels, shown in crash dumps */
#define DRM_VORTEX_CAP_BO_LABEL		(1ull << 10)
/* DRM_VORTEX_BO_NO_DUMP: buffers kept out of crash dumps */
#define DRM_VORTEX_CAP_BO_NO_DUMP	(1ull << 11)
/* DRM_IOCTL_VORTEX_FAULT: how the file's last failed job failed */
#define DRM_VORTEX_CAP_FAULT		(1ull << 12)

/**
 * DOC: Address spaces
 *
 * Each open file of the node has its own GPU address space (Sv32 on the
 * card, 4 GiB of virtual addresses).  A buffer is mapped into a file's
 * space when the file gets a handle to it -- DRM_IOCTL_VORTEX_BO_CREATE,
 * or DRM_IOCTL_PRIME_FD_TO_HANDLE of a buffer another file exported -- at
 * the virtual address the ``dev_addr`` fields report, which is the same
 * in every file that has the buffer.  Every address in this ABI (entry
 * point, argument and stack pointers, code object ranges, the debugger's
 * memory and breakpoint addresses, the addresses in crash dumps) is a
 * virtual address in the space of the file concerned.  The card reaches
 * only its VRAM: importing another device's dma-buf is -EINVAL.
 *
 * Closing a handle (DRM_IOCTL_GEM_CLOSE, or closing the file) unmaps the
 * buffer from that file's space, once the jobs the file submitted before
 * the close have ended and been retired (any of them may use the buffer);
 * jobs submitted after the close fault on it.  A buffer's memory is
 * cleared before it is freed and is never mapped by anyone else before
 * that.
 *
 * Opening the node fails with -ENOMEM when VRAM has no room for the new
 * file's page tables; the number of open files has no other bound.
 * Buffers together never take the last sixteenth of VRAM (at least 1 MiB,
 * at most 16 MiB), which is kept for page tables and the driver's own
 * structures: a client holding all the VRAM buffers can take does not
 * keep other users from opening the node.
 */

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

/*
 * What the card's kernels may do with a buffer, in every address space
 * that maps it (the CPU's mmap() is not affected, nor is the debugger):
 * a store to a DRM_VORTEX_BO_GPU_READ_ONLY buffer is a store page fault,
 * and a fetch from a DRM_VORTEX_BO_GPU_NO_EXEC buffer a fetch page fault,
 * each ending the job with -EIO like any device exception.  Without
 * flags a kernel may load, store and execute.  DRM_VORTEX_CAP_BO_ACCESS
 * says the driver knows these flags.
 */
#define DRM_VORTEX_BO_GPU_READ_ONLY	(1u << 0)
#define DRM_VORTEX_BO_GPU_NO_EXEC	(1u << 1)
/*
 * Mapped by no handle: only DRM_IOCTL_VORTEX_VM_BIND maps the buffer, in
 * any file (see "User-chosen virtual addresses"); @dev_addr reads 0.
 * Bit 2 is reserved (-EINVAL).
 */
#define DRM_VORTEX_BO_NO_MAP		(1u << 3)
/*
 * Kept out of crash dumps: the buffer's bytes are in no dump of any file
 * that uses it (the buffer is listed, with its address, size and flags,
 * and ``not-captured:`` says why its bytes are not), nor are the stack
 * tops, argument bytes or assert strings a dump would read from it.  Without the flag a
 * buffer's bytes are dumped (the module's dump_all_bos and the file's
 * DRM_IOCTL_VORTEX_DUMP_CONFIG decide further).  DRM_VORTEX_CAP_BO_NO_DUMP
 * says the driver knows it.
 */
#define DRM_VORTEX_BO_NO_DUMP		(1u << 4)
#define DRM_VORTEX_BO_FLAGS		(DRM_VORTEX_BO_GPU_READ_ONLY | \
					 DRM_VORTEX_BO_GPU_NO_EXEC | \
					 DRM_VORTEX_BO_NO_MAP | \
					 DRM_VORTEX_BO_NO_DUMP)

/**
 * struct drm_vortex_bo_create - allocate a zero-filled buffer in VRAM
 *
 * The buffer is contiguous in VRAM and page aligned (4 MiB aligned from
 * 4 MiB up); its size is rounded up to whole pages.  It is mapped in the
 * file's address space at @dev_addr.  No VRAM left (for the buffer or
 * its page tables) is -ENOMEM and creates nothing.
 */
struct drm_vortex_bo_create {
	/** @size: bytes, non-zero, at most the VRAM size */
	__u64 size;
	/** @flags: DRM_VORTEX_BO_GPU_*; other bits are -EINVAL */
	__u32 flags;
	/** @handle: out: GEM handle, released with DRM_IOCTL_GEM_CLOSE */
	__u32 handle;
	/**
	 * @dev_addr: out: virtual address of the first byte in the file's
	 * space (see "Address spaces"; it is also the buffer's VRAM address);
	 * 0 for a DRM_VORTEX_BO_NO_MAP buffer
	 */
	__u64 dev_addr;
};

/* Bytes of a buffer's label, its terminating NUL included. */
#define DRM_VORTEX_BO_LABEL_MAX		64

/**
 * struct drm_vortex_bo_set_label - name a buffer, for crash dumps
 *
 * As panthor's BO_SET_LABEL: the label names the buffer in the crash
 * dumps of every file that uses it (``bos:``, and the CUDA ELF's
 * ``.note.vortex.bo``), until it is labelled again.  A label is printable
 * ASCII (0x20..0x7e), at most DRM_VORTEX_BO_LABEL_MAX bytes with its NUL.
 * Errors: -ENOENT for a handle the file does not have; -EFAULT if @label
 * cannot be read; -EINVAL for non-zero @flags or @pad, a label too long
 * or with other bytes.
 */
struct drm_vortex_bo_set_label {
	/** @handle: GEM handle of the buffer */
	__u32 handle;
	/** @flags: must be zero */
	__u32 flags;
	/** @label: user pointer to a NUL-terminated string; 0 removes the label */
	__u64 label;
	/** @pad: must be zero */
	__u64 pad;
};

/**
 * struct drm_vortex_bo_info - where a buffer lives
 */
struct drm_vortex_bo_info {
	/** @handle: GEM handle of the buffer */
	__u32 handle;
	/**
	 * @flags: must be zero; out: the buffer's DRM_VORTEX_BO_GPU_* flags
	 * (as its creator gave them, also for an imported buffer)
	 */
	__u32 flags;
	/** @mmap_offset: out: offset to pass to mmap() on the device fd */
	__u64 mmap_offset;
	/**
	 * @dev_addr: out: virtual address of the first byte, as at creation
	 * (0 for a DRM_VORTEX_BO_NO_MAP buffer)
	 */
	__u64 dev_addr;
	/** @size: out: size in bytes (whole pages) */
	__u64 size;
};

/* Per-buffer flags of struct drm_vortex_submit_bo */
#define DRM_VORTEX_SUBMIT_BO_READ	(1u << 0)	/* the kernel reads it */
#define DRM_VORTEX_SUBMIT_BO_WRITE	(1u << 1)	/* the kernel writes it */
/*
 * Include in crash dumps.  By default dumps hold every buffer of the job;
 * with the module parameter dump_all_bos=0, only those with this flag.
 */
#define DRM_VORTEX_SUBMIT_BO_DUMP	(1u << 2)
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

/*
 * SUBMIT flags.  CORES: Vortex's own launch model (docs/hardware.md,
 * "Launch ABI"): warp 0 lane 0 of every core starts at the file's
 * STARTUP_ADDR with mscratch = its STARTUP_ARG (DRM_IOCTL_VORTEX_DCR),
 * every other register 0; @entry_pc, @arg_addr, @grid, @block,
 * @stack_addr and @stack_size must then be 0.  The startup address must
 * lie in a listed buffer, as @entry_pc must otherwise.
 */
#define DRM_VORTEX_SUBMIT_CORES		(1u << 0)
#define DRM_VORTEX_SUBMIT_FLAGS		DRM_VORTEX_SUBMIT_CORES

/**
 * struct drm_vortex_submit - launch a kernel on the card
 *
 * Every thread of every block starts at @entry_pc with the argument
 * pointer in mscratch and a0 and its stack pointer at the top of its own
 * slice of the stack area (docs/hardware.md, "Launch ABI").  All addresses
 * are virtual, in the file's space.  @entry_pc, @arg_addr (unless zero)
 * and the whole stack area must lie inside buffers listed in @bos; the job
 * holds references on those buffers until it ends.  The kernel may use
 * every buffer the file has a handle to, listed or not; nothing else.
 *
 * With DRM_VORTEX_SUBMIT_CORES the job is started as Vortex starts its
 * processor instead: one thread per core, from the file's DCRs (above).
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
	/** @entry_pc: virtual address of the first instruction */
	__u64 entry_pc;
	/** @arg_addr: virtual address of the argument block, or 0 */
	__u64 arg_addr;
	/** @stack_addr: virtual address of the stack area, or 0 for none */
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
	/** @flags: DRM_VORTEX_SUBMIT_* */
	__u32 flags;
	/** @pad: must be zero */
	__u32 pad;
	/** @seqno: out: this file's job number, for DRM_IOCTL_VORTEX_WAIT */
	__u64 seqno;
	/**
	 * @out_flags: out: DRM_VORTEX_SUBMIT_OUT_*.  Ignored on input.  A
	 * kernel older than this field copies out only up to @seqno and
	 * leaves it as userspace passed it: pass 0.
	 */
	__u32 out_flags;
	/**
	 * @status: out, with DRM_VORTEX_SUBMIT_OUT_ENDED: what
	 * DRM_IOCTL_VORTEX_WAIT would report in its @status.  Ignored on
	 * input.
	 */
	__s32 status;
};

/*
 * SUBMIT out_flags.  ENDED: the job ran and ended within SUBMIT (a job
 * that waits for nothing, on an idle card, takes the fast lane:
 * docs/driver.md), so @status is its outcome and no WAIT is needed (WAIT
 * on its seqno still works).  CONSOLE, only with ENDED: the file has
 * console records to read with DRM_IOCTL_VORTEX_CONSOLE, or lost some,
 * as of the job's end; without it a CONSOLE read would find nothing.
 */
#define DRM_VORTEX_SUBMIT_OUT_ENDED	(1u << 0)
#define DRM_VORTEX_SUBMIT_OUT_CONSOLE	(1u << 1)

/*
 * Device configuration registers, as Vortex numbers them (upstream
 * hw/rtl/VX_types.vh): what a Vortex host program writes before it starts
 * the card.  Each file has its own, all 0 when it is opened; a SUBMIT with
 * DRM_VORTEX_SUBMIT_CORES starts from them.  The card is RV32: the high
 * halves must be 0.  MPM_CLASS selects the performance counters a Vortex
 * runtime reports (0 none, 1 core, 2 memory).
 */
#define DRM_VORTEX_DCR_STARTUP_ADDR0	0x001
#define DRM_VORTEX_DCR_STARTUP_ADDR1	0x002
#define DRM_VORTEX_DCR_STARTUP_ARG0	0x003
#define DRM_VORTEX_DCR_STARTUP_ARG1	0x004
#define DRM_VORTEX_DCR_MPM_CLASS	0x005

#define DRM_VORTEX_DCR_MPM_CLASS_MAX	2

/* Flags of struct drm_vortex_dcr. */
#define DRM_VORTEX_DCR_WRITE		(1u << 0)	/* else a read */
#define DRM_VORTEX_DCR_FLAGS		DRM_VORTEX_DCR_WRITE

/**
 * struct drm_vortex_dcr - read or write one of this file's DCRs
 *
 * Errors: -EINVAL for unknown flags, a non-zero @pad or an address
 * Vortex does not define; -EOPNOTSUPP for a DCR Vortex defines that means
 * nothing on this card (none today: the address space is 12 bits, and
 * everything past DRM_VORTEX_DCR_MPM_CLASS is undefined); -ERANGE for a
 * value the register cannot hold on this card (a high half not 0, an MPM
 * class past DRM_VORTEX_DCR_MPM_CLASS_MAX).  Nothing changes on an error.
 */
struct drm_vortex_dcr {
	/** @addr: DRM_VORTEX_DCR_* */
	__u32 addr;
	/** @flags: DRM_VORTEX_DCR_WRITE to write @value, else read into it */
	__u32 flags;
	/** @value: in for a write, out for a read */
	__u32 value;
	/** @pad: must be zero */
	__u32 pad;
};

/* A console record: the byte, and the mhartid of the lane that printed it. */
#define DRM_VORTEX_CONSOLE_CHAR(rec)	((rec) & 0xff)
#define DRM_VORTEX_CONSOLE_HART(rec)	((rec) >> 8)

/**
 * struct drm_vortex_console - read what this file's kernels printed
 *
 * Kernels print by storing bytes to Vortex's IO_COUT (vx_putchar(),
 * vx_printf()); each byte is a record, DRM_VORTEX_CONSOLE_CHAR() and the
 * mhartid of the printing lane, DRM_VORTEX_CONSOLE_HART().  Each hardware
 * thread's records are in the order it printed them.  CONSOLE moves up to
 * @count records, the oldest first, to @data, and reports in @dropped how
 * many were lost since the last read (the card's ring or the file's
 * console was full: docs/driver.md gives the bounds).  Nothing is consumed
 * on an error.  Errors: -EINVAL for non-zero @flags or @pad, -EFAULT for a
 * bad @data, -ENOMEM.
 */
struct drm_vortex_console {
	/** @data: user pointer to @count __u32 records */
	__u64 data;
	/** @count: in: room in @data; out: records copied */
	__u32 count;
	/** @flags: must be zero */
	__u32 flags;
	/** @dropped: out: records lost since the last read */
	__u64 dropped;
	/** @pad: must be zero */
	__u64 pad;
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

/* ====================================================== a failed job's fault */

/**
 * struct drm_vortex_fault_info - how a job failed, as the card reported it
 *
 * The card's error registers (docs/hardware.md, "Errors") as recovery
 * read them with the card frozen, the same values the crash dump's
 * ``fault-info:`` holds, and where that dump is.  A hang (@status
 * -ETIMEDOUT) has cause 0 (VX_ERR_NONE) and no fault fields.
 */
struct drm_vortex_fault_info {
	/** @job: the file's job number (SUBMIT's seqno) */
	__u64 job;
	/** @status: what WAIT reports for it: -EIO or -ETIMEDOUT */
	__s32 status;
	/** @cause: VX_ERR_* (hw/vortex_regs.h), named in hw/vortex_causes.h */
	__u32 cause;
	/** @pc: PC of the faulting instruction (ERR_PC) */
	__u32 pc;
	/** @addr: the bad address, instruction word or branch target (ERR_ADDR) */
	__u32 addr;
	/** @warp: global warp id, (cluster x cores + core) x warps + warp */
	__u32 warp;
	/** @lane: lowest faulting lane (ERR_THREAD) */
	__u32 lane;
	/** @cluster: the warp's cluster */
	__u32 cluster;
	/** @core: its core within the cluster */
	__u32 core;
	/** @warp_in_core: its warp index within the core */
	__u32 warp_in_core;
	/**
	 * @dump: N of /sys/class/devcoredump/devcdN, the crash dump the
	 * driver published for this job; -1 if it published none (dumps off
	 * for the file, or the last dump still unread).  The dump is gone
	 * once read and discarded, or after ``dump_keep_s``.
	 */
	__s32 dump;
	/** @lanes: every faulting lane (ERR_TMASK0-3), bit l of word l / 32 */
	__u32 lanes[4];
	/**
	 * @info: ERR_INFO0-3: a0..a3 of a device-side assert; for cause 17
	 * (DIVERGENT_BRANCH) the lanes that take the branch, @lanes being
	 * the active ones; zero for other causes
	 */
	__u32 info[4];
};

#define DRM_VORTEX_FAULT_FLAGS		0	/* no flags defined yet */
/* What @info_size may be at most. */
#define DRM_VORTEX_FAULT_INFO_MAX	4096

/**
 * struct drm_vortex_fault - how the file's last failed job failed
 *
 * The file keeps the record of its last job that ended with -EIO or
 * -ETIMEDOUT (a later one replaces it; a cancelled job leaves none) and
 * copies it to @info, @info_size bytes: at least the size of the first
 * version of struct drm_vortex_fault_info (80 bytes), at most
 * %DRM_VORTEX_FAULT_INFO_MAX, a multiple of 8.  The record grows at its
 * end: bytes past the struct this kernel knows are zeroed, and @info_size
 * comes back as the bytes it filled.  Once the job's WAIT (or SUBMIT's
 * DRM_VORTEX_SUBMIT_OUT_ENDED) reported its failure, its record is there.
 *
 * Errors: -EINVAL non-zero @flags or @pad, or an @info_size that breaks
 * the rules above; -ENOENT no job of the file failed, or @job names
 * another than the last that did; -EFAULT an unwritable @info.
 */
struct drm_vortex_fault {
	/** @job: in: the job (0: the last failed one); out: the record's job */
	__u64 job;
	/** @info: user pointer to a struct drm_vortex_fault_info */
	__u64 info;
	/** @info_size: in: bytes at @info; out: bytes filled */
	__u32 info_size;
	/** @flags: must be zero (DRM_VORTEX_FAULT_FLAGS) */
	__u32 flags;
	/** @pad: must be zero */
	__u64 pad;
};

/* ============================================ user-chosen virtual addresses */

/**
 * DOC: User-chosen virtual addresses
 *
 * With DRM_VORTEX_CAP_VM_BIND a client places buffers in its file's space
 * itself, as Vortex's runtime does (its stack at 0xFFFF0000 down, its I/O
 * page at 0x40): DRM_IOCTL_VORTEX_VM_BIND maps pages of a buffer at a
 * virtual address and unmaps virtual ranges.  SUBMIT's entry point,
 * argument, stack area and STARTUP_ADDR must each lie in a buffer it
 * lists, at the buffer's ``dev_addr`` or inside one VM_BIND mapping of
 * it.  The two kinds of mappings live side by side in one space: a buffer without
 * DRM_VORTEX_BO_NO_MAP is still mapped at its ``dev_addr`` by every handle
 * to it ("Address spaces"), and may also be mapped elsewhere with VM_BIND.
 * A client that creates its buffers with DRM_VORTEX_BO_NO_MAP never
 * learns where they sit in VRAM, and its space holds only what it bound.
 * Getting a handle to a buffer without NO_MAP whose ``dev_addr`` range
 * overlaps a VM_BIND mapping of the file fails with -EEXIST (BO_CREATE
 * then creates nothing), -EBUSY if that mapping is being unmapped.
 *
 * VM_BIND is synchronous: a job submitted after it returns sees the new
 * mapping, and does not see an unmapped range.  Jobs the file submitted
 * before an unmap keep the unmapped pages until they have all ended (any
 * of them may use them, as for a closed handle): the range is then
 * unmapped and the card's TLB invalidated before the buffer's memory can
 * go to anyone else.  Mapping over a range whose unmapping still waits
 * for such jobs is -EBUSY: WAIT for the jobs submitted before the unmap.
 *
 * A VM_BIND mapping holds its buffer: closing the handle unmaps nothing,
 * and the memory is freed once the last handle and mapping are gone.
 * Addresses in crash dumps and the debugger's are virtual ones, as
 * everywhere; where a file's spaces disagree (two files of one process
 * binding different buffers at one address) the debugger uses the first
 * file of the process that maps the address.
 */

#define DRM_VORTEX_VM_BIND_OP_MAP	0	/* map a buffer's pages */
#define DRM_VORTEX_VM_BIND_OP_UNMAP	1	/* unmap a virtual range */

/* What the card's kernels may do with a mapping (DRM_VORTEX_VM_BIND_OP_MAP) */
#define DRM_VORTEX_VM_BIND_READ		(1u << 0)	/* load */
#define DRM_VORTEX_VM_BIND_WRITE	(1u << 1)	/* store; needs READ */
#define DRM_VORTEX_VM_BIND_EXEC		(1u << 2)	/* fetch */
#define DRM_VORTEX_VM_BIND_FLAGS	(DRM_VORTEX_VM_BIND_READ | \
					 DRM_VORTEX_VM_BIND_WRITE | \
					 DRM_VORTEX_VM_BIND_EXEC)

/* Virtual addresses VM_BIND never maps: the driver's dump window. */
#define DRM_VORTEX_VM_RESERVED_START	0x40000000ull
#define DRM_VORTEX_VM_RESERVED_END	0x40400000ull

/**
 * struct drm_vortex_vm_bind - map or unmap a range of the file's space
 *
 * MAP maps @range bytes of buffer @handle from @bo_offset at virtual
 * address @va, with the access @flags give (RISC-V Sv32 cannot express
 * write without read).  UNMAP unmaps every VM_BIND mapping, or the part
 * of it, inside [@va, @va + @range): a mapping partly inside is split and
 * keeps its pages outside; a range that maps nothing is not an error.
 * Addresses, offset and range are in 4 KiB pages.  A failed call changes
 * nothing.  Errors:
 *
 * - -EINVAL: unknown @op or @flags bits, non-zero @pad; for MAP no access
 *   flag or WRITE without READ, for UNMAP non-zero @handle, @flags or
 *   @bo_offset; @va, @range or @bo_offset not 4 KiB aligned, @range 0;
 *   [@bo_offset, @bo_offset + @range) not inside the buffer;
 * - -ERANGE: [@va, @va + @range) wraps or ends past 4 GiB (Sv32's space);
 * - -EPERM: the range touches the driver's reserved range
 *   [DRM_VORTEX_VM_RESERVED_START, DRM_VORTEX_VM_RESERVED_END), or (UNMAP)
 *   a buffer's handle mapping at its ``dev_addr``: only closing the
 *   handle removes that;
 * - -ENOENT: (MAP) no such handle in this file;
 * - -EACCES: (MAP) WRITE on a DRM_VORTEX_BO_GPU_READ_ONLY buffer, EXEC on
 *   a DRM_VORTEX_BO_GPU_NO_EXEC one;
 * - -EEXIST: (MAP) the range overlaps a mapping (UNMAP it first);
 * - -EBUSY: (MAP) the range overlaps one whose unmapping waits for jobs
 *   submitted before it (see the DOC above);
 * - -ENOMEM: no memory, or no VRAM for page tables;
 * - -ENODEV: the card is gone.
 */
struct drm_vortex_vm_bind {
	/** @op: DRM_VORTEX_VM_BIND_OP_* */
	__u32 op;
	/** @flags: MAP: DRM_VORTEX_VM_BIND_* access; UNMAP: must be zero */
	__u32 flags;
	/** @handle: MAP: the buffer's GEM handle; UNMAP: must be zero */
	__u32 handle;
	/** @pad: must be zero */
	__u32 pad;
	/** @bo_offset: MAP: first byte of the buffer mapped; UNMAP: zero */
	__u64 bo_offset;
	/** @va: first virtual address of the range */
	__u64 va;
	/** @range: bytes */
	__u64 range;
};

/* ============================================================= crash dumps */

/*
 * What a crash dump of this file's jobs holds, in the spirit of CUDA's
 * CUcoredumpGenerationFlags.  Dumps go to devcoredump
 * (/sys/class/devcoredump/devcdN/data; README, "Crash dumps").
 */
#define DRM_VORTEX_DUMP_SKIP_GLOBAL	(1u << 0)	/* no buffer contents */
/* Bit 1 is never to be used: it was a SKIP_SHARED that did nothing. */
#define DRM_VORTEX_DUMP_SKIP_LOCAL	(1u << 2)	/* no stack slices */
/* Bits 3 and 4 likewise: SKIP_ELF_IMAGE and FAULTED_ONLY did nothing. */
#define DRM_VORTEX_DUMP_LIGHTWEIGHT	(DRM_VORTEX_DUMP_SKIP_GLOBAL | \
					 DRM_VORTEX_DUMP_SKIP_LOCAL)
#define DRM_VORTEX_DUMP_NO_EXCEPTION	(1u << 5)	/* no dump when a job faults */
#define DRM_VORTEX_DUMP_NONE		(1u << 6)	/* no dumps of this file's jobs */
#define DRM_VORTEX_DUMP_COMPRESS_ELF	(1u << 7)	/* the CUDA ELF zlib-compressed */
/* Every flag this kernel knows; any other bit is -EINVAL. */
#define DRM_VORTEX_DUMP_FLAGS		(DRM_VORTEX_DUMP_SKIP_GLOBAL | \
					 DRM_VORTEX_DUMP_SKIP_LOCAL | \
					 DRM_VORTEX_DUMP_NO_EXCEPTION | \
					 DRM_VORTEX_DUMP_NONE | \
					 DRM_VORTEX_DUMP_COMPRESS_ELF)

/**
 * struct drm_vortex_dump_config - choose what dumps of this file's jobs hold
 *
 * New files start from the module parameter ``dump_flags`` (default 0:
 * everything).  @flags replaces the file's flags; the old ones are
 * returned in @old_flags (its input value is ignored).  Unknown flags are
 * -EINVAL.  A dump a debugger asks for (DRM_VORTEX_DEBUG_IOCTL_COREDUMP)
 * honours the SKIP flags and COMPRESS_ELF but not NONE or NO_EXCEPTION.
 * With COMPRESS_ELF the ``cuda-coredump:`` section says ``encoding: zlib``
 * and ``stored-size:`` (the stream's bytes); ``size:`` stays the ELF's.
 */
struct drm_vortex_dump_config {
	/** @flags: DRM_VORTEX_DUMP_* */
	__u32 flags;
	/** @old_flags: out: the flags before this call */
	__u32 old_flags;
};

/* ================================================================ debugger */

/**
 * DOC: The debugger interface
 *
 * A debugger attaches to the work of one process (the *target*) and gets a
 * debug session file descriptor, through which it controls the card's
 * Debug Module (docs/hardware.md) while the target's kernels run: halt,
 * resume and step warps, read and write registers and device memory, set
 * breakpoints, and read() events.
 *
 * Permission is ptrace's.  DRM_IOCTL_VORTEX_DEBUG_ATTACH is issued on an
 * accel file that the *target* opened; the debugger gets that file with
 * pidfd_getfd(2), which succeeds only if the debugger may ptrace-attach
 * the target (PTRACE_MODE_ATTACH_REALCREDS: the same uid rules,
 * CAP_SYS_PTRACE and Yama/LSM policy as for gdb).  Holding such a file
 * by other means (inherited across fork(), passed over a socket) is not
 * enough: ATTACH itself checks the uid rules and CAP_SYS_PTRACE against
 * the process that opened the file (-EPERM).  The session then
 * covers every job the target process submits, on any of its files.  A
 * process attaching through its own file debugs itself.
 *
 * One session per card at a time: a second ATTACH is -EBUSY.  Closing the
 * session fd (or the debugger dying) detaches: breakpoints are removed
 * (their original words restored), halted warps resume, and a card
 * frozen on an exception is recovered; the card stays usable.  The module
 * parameter ``debug=0`` disables the interface (ATTACH is -EOPNOTSUPP, and
 * DRM_VORTEX_CAP_DEBUG is clear).
 *
 * A session changes nothing for the card's other clients, and tells its
 * debugger nothing of their jobs.  While the target's job is on the card,
 * its ``ebreak`` halts its warp (hacause EBREAK) instead of failing the
 * job; another client's ``ebreak`` fails that client's job at once, as
 * without a session.  While the target's job is on the card:
 *
 * - the job does not time out while any of its warps is halted: the hang
 *   timeout counts only the time the job ran, and the debugger may change
 *   that timeout (DRM_VORTEX_DEBUG_IOCTL_TIMEOUT); but once another
 *   client's job waits for the card, the target's job keeps it at most
 *   ``debug_hold_ms`` longer, halted or not;
 * - a device exception does not end the job at once: the card stays
 *   frozen, every warp is halted for inspection and a
 *   %DRM_VORTEX_DEBUG_EVENT_EXCEPTION event is queued; a RESUME (of any
 *   warps), or detaching, then ends the job with -EIO, resets the card
 *   and lets the next job run.
 *
 * Warps are named by their global id, (cluster x cores + core) x warps +
 * warp, as the Debug Module numbers them; lanes by their index in the
 * warp.  Operations on warps, registers and memory need the target's job
 * on the card (-ESRCH otherwise).
 *
 * Errors shared by the session ioctls: -ENOTTY an unknown command;
 * -EINVAL malformed (unknown flags or op, non-zero padding, a struct or
 * a stride shorter than this header's); -E2BIG a count above its
 * documented maximum, or non-zero bytes past the struct this kernel
 * knows (see "Session ioctl sizes"); -ERANGE a warp, lane or register
 * that does not exist on this card; -EFAULT an unreadable or unwritable
 * user pointer; -ESRCH no job of the target on the card; -EBUSY the warp
 * is running where it must be halted; -ENXIO an address range the
 * target's spaces do not map (or wrapping); -EIO the card did not answer
 * in time or an injected instruction faulted; -ENODEV the card is gone.
 * A failed call changes nothing on the card unless it says otherwise (a
 * batch stops at the first failing entry; entries before it took
 * effect, and the count of those is reported in its @done).  The driver
 * logs why it refused a call with drm_dbg (``drm.debug=0x2``).
 */

/**
 * DOC: Session ioctl sizes
 *
 * Each session ioctl's command number carries the size of its struct
 * (_IOWR), and the driver reads and writes exactly that many bytes, as
 * DRM's own ioctls do, so structs can grow at their end:
 *
 * - a struct larger than this kernel's (newer userspace) is accepted if
 *   every byte past the kernel's struct is zero, else -E2BIG; those bytes
 *   are left as they were;
 * - a smaller one (older userspace) is zero-extended, down to the size
 *   of the struct's first version, which for every struct here is its
 *   size today: anything shorter is -EINVAL;
 * - the struct is written back before the call does anything, so a
 *   struct userspace cannot write is -EFAULT and changes nothing.
 *
 * Arrays of entries (STATUS, REGS, MEM, BREAKPOINT) carry a @stride, the
 * entry size userspace was built with, by the same rule: at least this
 * header's entry size, at most 4096, a multiple of 8 (else -EINVAL); an
 * entry's bytes past the struct this kernel knows must be zero (-E2BIG),
 * and in records the kernel writes (STATUS) they are zeroed.  A batch's
 * @done is output only: its value on entry is ignored.
 */

/*
 * Version 2: the 0xBA ioctl type, strides and flags on every batch.
 * Version 3: events of %DRM_VORTEX_DEBUG_EVENT_SIZE bytes, EXCEPTION with
 * the lanes on each side of a divergent branch; a session attached with
 * version 2 reads events of %DRM_VORTEX_DEBUG_EVENT_SIZE_V2 bytes, as
 * before.
 */
#define DRM_VORTEX_DEBUG_VERSION	3

/**
 * struct drm_vortex_debug_attach - start a debug session on the target
 *
 * Issued on an accel file of the target (see the DOC above).  Errors:
 * -EOPNOTSUPP debugging disabled; -EBUSY another session is attached;
 * -EINVAL unknown flags, padding or @version (2 and 3 are known); -ESRCH the file's opener
 * has exited; -EPERM the caller may not ptrace the file's opener.  Every
 * session ioctl checks that again, for whoever calls it (-EPERM).
 */
struct drm_vortex_debug_attach {
	/** @version: DRM_VORTEX_DEBUG_VERSION (or 2), the ABI the debugger speaks */
	__u32 version;
	/** @flags: must be zero */
	__u32 flags;
	/** @fd: out: the session fd (close-on-exec) */
	__s32 fd;
	/** @pad: must be zero */
	__u32 pad;
};

/**
 * struct drm_vortex_code_object - tell debuggers where a kernel image is
 *
 * The runtime registers each kernel ELF it loads: the ELF file's bytes in
 * a buffer of this file (kept referenced while the object exists) and the
 * device range the image was loaded into.  Debug events name the code
 * object of a job (the one whose range holds the job's entry point), so a
 * debugger maps PCs to symbols.  An object lives until the runtime
 * unregisters it (@flags DRM_VORTEX_CODE_OBJECT_UNREGISTER with its @id,
 * every other field zero) or the file is closed; a debugger of the
 * file's process hears of each registration (CODE_LOADED), of each
 * object registered before it attached (CODE_LOADED, replayed), and of
 * each object it heard of going (CODE_UNLOADED).  A file holds at most
 * DRM_VORTEX_MAX_CODE_OBJECTS objects: some 80 bytes of kernel memory
 * each, charged to the caller's memory cgroup, besides the buffers they
 * keep, which are the file's own.
 * Errors: -EINVAL unknown flags, padding, empty or overflowing ranges, an
 * UNREGISTER with another field set or no @id; -ENOENT no such buffer, or
 * (UNREGISTER) no object @id on this file; -ERANGE the ELF range is not
 * inside the buffer; -ENXIO a DRM_VORTEX_BO_NO_MAP buffer whose ELF range
 * is not inside one of its VM_BIND mappings (debuggers read it there:
 * keep it mapped); -E2BIG DRM_VORTEX_MAX_CODE_OBJECTS objects on the file.
 */
struct drm_vortex_code_object {
	/** @handle: buffer holding the ELF file's bytes */
	__u32 handle;
	/** @flags: 0 to register, or DRM_VORTEX_CODE_OBJECT_UNREGISTER */
	__u32 flags;
	/** @offset: where in the buffer the ELF file starts */
	__u64 offset;
	/** @size: bytes of the ELF file */
	__u64 size;
	/** @load_addr: virtual address the image's lowest segment was loaded at */
	__u64 load_addr;
	/** @load_size: bytes of device memory the loaded image spans */
	__u64 load_size;
	/** @id: out: the object's id, non-zero, unique per device (UNREGISTER: in) */
	__u32 id;
	/** @pad: must be zero */
	__u32 pad;
};

/* struct drm_vortex_code_object.flags: forget object @id */
#define DRM_VORTEX_CODE_OBJECT_UNREGISTER	(1u << 0)
/* Code objects a file may hold at once */
#define DRM_VORTEX_MAX_CODE_OBJECTS		4096

/*
 * Address spaces of debug addresses.  DEVICE is the target's: the spaces
 * of the target's files, which agree on every address they map (see
 * "Address spaces").  Other values are reserved for spaces the debugger
 * names explicitly and are -EINVAL today.
 */
#define DRM_VORTEX_DEBUG_SPACE_DEVICE	0

/*
 * Session ioctls: on the session fd, not on the accel node.  Their type,
 * 0xBA, is free in the kernel's registry
 * (Documentation/userspace-api/ioctl/ioctl-number.rst, 6.12: no entry
 * between 0xB8 and 0xC0) and in its uapi headers, so strace and a
 * mistaken ioctl on another device's fd cannot confuse them with
 * another driver's.  'V' (V4L2, linux/vt.h) was taken.
 */
#define DRM_VORTEX_DEBUG_IOCTL_BASE	0xBA
#define DRM_VORTEX_DEBUG_IOCTL_DM \
	_IOWR(DRM_VORTEX_DEBUG_IOCTL_BASE, 0x00, struct drm_vortex_debug_dm)
#define DRM_VORTEX_DEBUG_IOCTL_WARPS \
	_IOWR(DRM_VORTEX_DEBUG_IOCTL_BASE, 0x01, struct drm_vortex_debug_warps)
#define DRM_VORTEX_DEBUG_IOCTL_STEP \
	_IOWR(DRM_VORTEX_DEBUG_IOCTL_BASE, 0x02, struct drm_vortex_debug_step)
#define DRM_VORTEX_DEBUG_IOCTL_STATUS \
	_IOWR(DRM_VORTEX_DEBUG_IOCTL_BASE, 0x03, struct drm_vortex_debug_status)
#define DRM_VORTEX_DEBUG_IOCTL_REGS \
	_IOWR(DRM_VORTEX_DEBUG_IOCTL_BASE, 0x04, struct drm_vortex_debug_regs)
#define DRM_VORTEX_DEBUG_IOCTL_MEM \
	_IOWR(DRM_VORTEX_DEBUG_IOCTL_BASE, 0x05, struct drm_vortex_debug_mem)
#define DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT \
	_IOWR(DRM_VORTEX_DEBUG_IOCTL_BASE, 0x06, struct drm_vortex_debug_breakpoint)
#define DRM_VORTEX_DEBUG_IOCTL_COREDUMP \
	_IOWR(DRM_VORTEX_DEBUG_IOCTL_BASE, 0x07, struct drm_vortex_debug_coredump)
#define DRM_VORTEX_DEBUG_IOCTL_TIMEOUT \
	_IOWR(DRM_VORTEX_DEBUG_IOCTL_BASE, 0x08, struct drm_vortex_debug_timeout)
#define DRM_VORTEX_DEBUG_IOCTL_CONSOLE \
	_IOWR(DRM_VORTEX_DEBUG_IOCTL_BASE, 0x09, struct drm_vortex_debug_console)

/**
 * struct drm_vortex_debug_dm_op - one raw Debug Module register access
 */
struct drm_vortex_debug_dm_op {
	/** @reg: DM register index, 0x0 (PLATFORM) to 0xc (DSCRATCH3) */
	__u32 reg;
	/** @flags: DRM_VORTEX_DEBUG_DM_WRITE, else a read */
	__u32 flags;
	/** @value: the value to write, or out: the value read */
	__u32 value;
	/** @pad: must be zero */
	__u32 pad;
};

#define DRM_VORTEX_DEBUG_DM_WRITE	(1u << 0)
#define DRM_VORTEX_DEBUG_DM_MAX_OPS	256

/**
 * struct drm_vortex_debug_dm - raw Debug Module accesses, in order
 *
 * For tools that speak the DM protocol themselves.  The batch runs under
 * the driver's DM lock, so no driver-issued sequence interleaves with it.
 * Needs CAP_SYS_ADMIN (a raw DCTRL write can reset or halt anything on
 * the card, whoever's job it is): -EPERM otherwise.  Does not need the
 * target's job on the card.  -E2BIG above DRM_VORTEX_DEBUG_DM_MAX_OPS.
 * DSELECT and the mask array are the caller's: each batch starts with
 * them as its last batch left them, whatever the driver selected since.
 * A DCTRL write with ndmreset (and dmactive) resets the card the driver's
 * way: the job on the card, whoever's, ends with -ECANCELED through
 * recovery (no crash dump), or with none there the card is reset at once;
 * warps latched by resethaltreq are armed by that reset.
 */
struct drm_vortex_debug_dm {
	/** @ops: user pointer to @count struct drm_vortex_debug_dm_op */
	__u64 ops;
	/** @count: entries in @ops, 1..DRM_VORTEX_DEBUG_DM_MAX_OPS */
	__u32 count;
	/** @flags: must be zero */
	__u32 flags;
};

/* Operations of struct drm_vortex_debug_warps */
#define DRM_VORTEX_DEBUG_WARPS_HALT		0
#define DRM_VORTEX_DEBUG_WARPS_RESUME		1
#define DRM_VORTEX_DEBUG_WARPS_HALT_AT_START	2

/* Flags of struct drm_vortex_debug_warps */
#define DRM_VORTEX_DEBUG_WARPS_ALL	(1u << 0)	/* every warp; @mask unused */
/* HALT_AT_START with ALL: every launch of the target, not the next one only */
#define DRM_VORTEX_DEBUG_WARPS_PERSIST	(1u << 1)

/**
 * struct drm_vortex_debug_warps - halt or resume a set of warps
 *
 * @mask is a bitmap of global warp ids, bit w of 32-bit word w / 32.
 * HALT stops every selected warp that has a context before its next
 * instruction (others are unaffected); RESUME lets every selected halted
 * warp run again (a warp standing on a breakpoint first executes the
 * original instruction once).  HALT_AT_START with ALL makes every warp of
 * the target's next job halt before its first instruction; with ALL and
 * PERSIST, every job of the target does, each until the debugger resumes
 * it, so a debugger inserts its breakpoints into each launch's code before
 * any of it runs, however fast the target launches (a program that
 * uploads its kernel anew for every launch overwrites them).  A halted job
 * does not time out (see the DOC above).  Each HALT_AT_START call replaces
 * the last one's setting; one without ALL and with an empty mask halts no
 * launch.  HALT_AT_START does not need the job on the card.  PERSIST with
 * another op or without ALL is -EINVAL.  Resuming any warp of a card
 * frozen on an exception ends the job instead (see the DOC above).
 * -ERANGE for a bit past the last warp.
 */
struct drm_vortex_debug_warps {
	/** @op: DRM_VORTEX_DEBUG_WARPS_* */
	__u32 op;
	/** @flags: DRM_VORTEX_DEBUG_WARPS_ALL, DRM_VORTEX_DEBUG_WARPS_PERSIST */
	__u32 flags;
	/** @mask: user pointer to @mask_words __u32 */
	__u64 mask;
	/** @mask_words: words in @mask, at most ceil(warps on the card / 32) */
	__u32 mask_words;
	/** @pad: must be zero */
	__u32 pad;
};

#define DRM_VORTEX_DEBUG_MAX_STEPS	65536

/**
 * struct drm_vortex_debug_step - single-step one halted warp
 *
 * The warp executes @count instructions, halting after each; a warp on a
 * breakpoint executes the original instruction.  Stepping stops early when
 * the warp ends (its last thread exits), hits a breakpoint or faults;
 * @done says how many instructions ran.  -EBUSY the warp is not halted.
 */
struct drm_vortex_debug_step {
	/** @warp: global warp id */
	__u32 warp;
	/** @count: instructions, 1..DRM_VORTEX_DEBUG_MAX_STEPS */
	__u32 count;
	/** @done: out: instructions executed */
	__u32 done;
	/** @pc: out: the warp's PC afterwards */
	__u32 pc;
	/** @flags: must be zero */
	__u32 flags;
	/** @state: out: DRM_VORTEX_DEBUG_WARP_* of the warp afterwards */
	__u32 state;
};

/* struct drm_vortex_debug_warp_state.state bits */
#define DRM_VORTEX_DEBUG_WARP_ACTIVE	(1u << 0)	/* has a context */
#define DRM_VORTEX_DEBUG_WARP_HALTED	(1u << 1)	/* debug-halted */
#define DRM_VORTEX_DEBUG_WARP_ON_BREAKPOINT (1u << 2)	/* PC on a breakpoint */

/**
 * struct drm_vortex_debug_warp_state - one warp, as STATUS reports it
 *
 * @pc, @cause, @thread_mask and @block_idx are valid only for a halted
 * warp (they are read by injection), zero otherwise.
 */
struct drm_vortex_debug_warp_state {
	/** @warp: global warp id */
	__u32 warp;
	/** @state: DRM_VORTEX_DEBUG_WARP_* */
	__u32 state;
	/** @cause: halt cause, VX_HACAUSE_* (docs/hardware.md) */
	__u32 cause;
	/** @pc: the warp's PC */
	__u32 pc;
	/** @thread_mask: active lanes, bit l of word l / 32 */
	__u32 thread_mask[4];
	/** @cluster: the warp's cluster */
	__u32 cluster;
	/** @core: its core within the cluster */
	__u32 core;
	/** @warp_in_core: its warp index within the core */
	__u32 warp_in_core;
	/** @pad: zero */
	__u32 pad;
	/** @block_idx: the block (x, y, z) it runs */
	__u32 block_idx[3];
	/** @warp_in_block: its warp index within the block */
	__u32 warp_in_block;
};

#define DRM_VORTEX_DEBUG_STATUS_MAX	32768

/**
 * struct drm_vortex_debug_status - the state of every warp in one call
 *
 * Fills one record per warp for warps @first .. @first + @count - 1,
 * @stride bytes apart (see "Session ioctl sizes").  -ERANGE if @first is
 * past the last warp; @count is clipped to the card.
 */
struct drm_vortex_debug_status {
	/** @states: user pointer to @count struct drm_vortex_debug_warp_state */
	__u64 states;
	/** @first: first global warp id */
	__u32 first;
	/** @count: records wanted, 1..DRM_VORTEX_DEBUG_STATUS_MAX; out: filled */
	__u32 count;
	/** @flags: must be zero */
	__u32 flags;
	/**
	 * @stride: bytes from one record to the next, at least
	 * sizeof(struct drm_vortex_debug_warp_state)
	 */
	__u32 stride;
};

/* Register numbers of struct drm_vortex_debug_reg_op */
#define DRM_VORTEX_DEBUG_REG_X(n)	(n)		/* x0..x31 */
#define DRM_VORTEX_DEBUG_REG_F(n)	(0x20 + (n))	/* f0..f31 */
#define DRM_VORTEX_DEBUG_REG_CSR(n)	(0x1000 + (n))	/* CSR n, 0..0xfff */
#define DRM_VORTEX_DEBUG_REG_FCSR	DRM_VORTEX_DEBUG_REG_CSR(0x003)
#define DRM_VORTEX_DEBUG_REG_PC		0x2000		/* the warp's PC */

#define DRM_VORTEX_DEBUG_REG_WRITE	(1u << 0)
#define DRM_VORTEX_DEBUG_MAX_REG_OPS	1024

/**
 * struct drm_vortex_debug_reg_op - one register of some lanes of one warp
 *
 * Reads or writes register @reg in every lane set in @lanes, lowest lane
 * first; @values holds one __u32 per lane set.  The warp must be halted.
 * The driver reads and writes registers by injecting instructions and
 * moving values through the lanes' DSCRATCH CSRs; every register it
 * borrows for that (DSCRATCH0-3, and x5 for CSRs and FPRs) is saved and
 * restored, so a debugger never sees a borrowed value.  Writing x0 has no
 * effect; a CSR the card does not have, or does not let a program write,
 * is -EIO (the injected instruction faults), with everything restored.
 * DRM_VORTEX_DEBUG_REG_PC is the warp's PC: every lane reads it; a write
 * sets it from the first lane's value.
 */
struct drm_vortex_debug_reg_op {
	/** @warp: global warp id, halted */
	__u32 warp;
	/** @reg: DRM_VORTEX_DEBUG_REG_* */
	__u32 reg;
	/** @lanes: lane mask, bit l of word l / 32; lanes past the warp are -ERANGE */
	__u32 lanes[4];
	/** @values: user pointer to one __u32 per lane in @lanes */
	__u64 values;
	/** @flags: DRM_VORTEX_DEBUG_REG_WRITE, else a read */
	__u32 flags;
	/** @pad: must be zero */
	__u32 pad;
};

/**
 * struct drm_vortex_debug_regs - a batch of register accesses, in order
 *
 * The entries are @stride bytes apart (see "Session ioctl sizes").
 * @done counts the entries that took effect (all of them on success).
 */
struct drm_vortex_debug_regs {
	/** @ops: user pointer to @count struct drm_vortex_debug_reg_op */
	__u64 ops;
	/** @count: entries, 1..DRM_VORTEX_DEBUG_MAX_REG_OPS */
	__u32 count;
	/** @flags: must be zero */
	__u32 flags;
	/** @stride: bytes from one entry to the next, at least sizeof(struct drm_vortex_debug_reg_op) */
	__u32 stride;
	/** @done: out: entries done (ignored on entry) */
	__u32 done;
};

#define DRM_VORTEX_DEBUG_MEM_WRITE	(1u << 0)
#define DRM_VORTEX_DEBUG_MAX_MEM_OPS	256
#define DRM_VORTEX_DEBUG_MAX_MEM_LEN	(64u << 20)

/**
 * struct drm_vortex_debug_mem_op - one range of device memory
 *
 * Any length and alignment.  The range is translated in the target's
 * space: every byte must be mapped there (it may span adjacent buffers),
 * else -ENXIO.  The driver copies through the VRAM BAR, by way of a
 * kernel buffer; a write into code is seen by the next instruction fetch.
 * Breakpoints are invisible: a read returns the original instruction where
 * one is set, and a write there replaces the instruction the breakpoint
 * will execute.
 */
struct drm_vortex_debug_mem_op {
	/** @addr: virtual address in the target's space */
	__u64 addr;
	/** @buf: user pointer to @len bytes */
	__u64 buf;
	/** @len: bytes, 1..DRM_VORTEX_DEBUG_MAX_MEM_LEN */
	__u32 len;
	/** @flags: DRM_VORTEX_DEBUG_MEM_WRITE, else a read */
	__u32 flags;
	/** @space: DRM_VORTEX_DEBUG_SPACE_DEVICE */
	__u32 space;
	/** @pad: must be zero */
	__u32 pad;
};

/**
 * struct drm_vortex_debug_mem - a batch of memory accesses, in order
 *
 * Memory access does not need a job on the card.  The entries are
 * @stride bytes apart (see "Session ioctl sizes").  Device memory moves
 * through a kernel buffer, 64 KiB at a time; an entry whose @buf faults
 * part way through a write has written the chunks before the fault.
 */
struct drm_vortex_debug_mem {
	/** @ops: user pointer to @count struct drm_vortex_debug_mem_op */
	__u64 ops;
	/** @count: entries, 1..DRM_VORTEX_DEBUG_MAX_MEM_OPS */
	__u32 count;
	/** @flags: must be zero */
	__u32 flags;
	/** @stride: bytes from one entry to the next, at least sizeof(struct drm_vortex_debug_mem_op) */
	__u32 stride;
	/** @done: out: entries done (ignored on entry) */
	__u32 done;
};

#define DRM_VORTEX_DEBUG_BP_SET		0
#define DRM_VORTEX_DEBUG_BP_CLEAR	1
#define DRM_VORTEX_DEBUG_MAX_BREAKPOINTS 256

/**
 * struct drm_vortex_debug_bp_op - set or clear one software breakpoint
 *
 * SET keeps the word at @addr and writes ``ebreak`` there; while any is
 * set, ebreak halts the warp (hacause EBREAK) instead of faulting.  A warp
 * resumed or stepped from a breakpoint executes the original instruction
 * exactly once, and the breakpoint stays.  CLEAR restores the word.  A set
 * breakpoint keeps its buffer's memory (not its mapping) alive, so the
 * word goes back even if the target freed the buffer meanwhile.
 * -EINVAL unknown @op, @flags or @space, non-zero @pad, @addr not 4-byte
 * aligned; -ENXIO SET where the target's spaces map nothing; -EEXIST
 * already set; -ENOENT not set; -ENOSPC DRM_VORTEX_DEBUG_MAX_BREAKPOINTS
 * set.  Breakpoints do not need a job on the card.
 */
struct drm_vortex_debug_bp_op {
	/** @addr: virtual address of the instruction, in the target's space */
	__u64 addr;
	/** @op: DRM_VORTEX_DEBUG_BP_SET or _CLEAR */
	__u32 op;
	/** @space: DRM_VORTEX_DEBUG_SPACE_DEVICE */
	__u32 space;
	/** @flags: must be zero */
	__u32 flags;
	/** @pad: must be zero */
	__u32 pad;
};

/**
 * struct drm_vortex_debug_breakpoint - a batch of breakpoint changes, in order
 *
 * The entries are @stride bytes apart (see "Session ioctl sizes"); at
 * most DRM_VORTEX_DEBUG_MAX_BREAKPOINTS per call.  @done counts the
 * entries that took effect (all of them on success).
 */
struct drm_vortex_debug_breakpoint {
	/** @ops: user pointer to @count struct drm_vortex_debug_bp_op */
	__u64 ops;
	/** @count: entries, 1..DRM_VORTEX_DEBUG_MAX_BREAKPOINTS */
	__u32 count;
	/** @flags: must be zero */
	__u32 flags;
	/** @stride: bytes from one entry to the next, at least sizeof(struct drm_vortex_debug_bp_op) */
	__u32 stride;
	/** @done: out: entries done (ignored on entry) */
	__u32 done;
};

/**
 * struct drm_vortex_debug_coredump - capture a crash dump now
 *
 * Asks for a devcoredump of the card's current state (the target's job,
 * its warps as they are, halted or not), published like the dumps of a
 * hang (error: requested).  The card and the job go on as they were: warps
 * halted for the capture run again.  -ESRCH without the target's job on
 * the card; -EBUSY while the last dump of the card is unread (it is
 * counted as dropped); -ENOMEM.
 */
struct drm_vortex_debug_coredump {
	/** @flags: must be zero */
	__u32 flags;
	/** @pad: must be zero */
	__u32 pad;
};

/* No run-time limit: a privileged session's (CAP_SYS_ADMIN) only. */
#define DRM_VORTEX_DEBUG_TIMEOUT_NONE	0xffffffffu

/**
 * struct drm_vortex_debug_timeout - how long the target's job may run
 *
 * A job of the target times out once it has *run* for this long since it
 * last started or resumed; time its warps stand halted (or the card frozen
 * for the debugger) does not count.  The default, and what 0 sets, is the
 * module's ``job_timeout_ms``.  A debugger raises it to let a person
 * ``continue`` into a hang and interrupt it later.  An unprivileged session
 * may set up to the module parameter ``debug_timeout_max_ms`` (default
 * 600000, 10 minutes; more is -EPERM); %DRM_VORTEX_DEBUG_TIMEOUT_NONE
 * needs CAP_SYS_ADMIN (-EPERM otherwise).  The setting lasts as long as
 * the session and applies from the next check of the job on the card.
 *
 * Whatever is set here, another client's job never waits for the
 * target's job longer than the module parameter ``debug_hold_ms`` (default
 * 10000): past it the target's job ends with -ETIMEDOUT (and the session
 * gets %DRM_VORTEX_DEBUG_EVENT_TIMEOUT), unless the session was attached
 * with CAP_SYS_ADMIN.  docs/security.md says who may hold the card.
 *
 * -EINVAL unknown flags or non-zero padding.
 */
struct drm_vortex_debug_timeout {
	/** @flags: must be zero */
	__u32 flags;
	/** @timeout_ms: run-time limit in ms, 0 (default) or _NONE */
	__u32 timeout_ms;
	/** @old_timeout_ms: out: the limit before this call (0: default) */
	__u32 old_timeout_ms;
	/** @pad: must be zero */
	__u32 pad;
};

/**
 * struct drm_vortex_debug_console - what the target's kernels printed
 *
 * The console records of the file whose job of the target went on the
 * card last (struct drm_vortex_console gives their format), as the
 * target's own CONSOLE reads will get them, but without consuming them:
 * a debugger shows a kernel's output while the job stands halted, before
 * the target's runtime prints it at the job's end.  Each call returns the
 * records this session has not been given yet, the oldest first, up to
 * @count; what the job printed so far is taken off the card first.
 * Records the target read before the session saw them are gone, and
 * counted in @skipped.  When a job of another of the target's files goes
 * on the card, the session follows that file's console from its oldest
 * unread record.  Before any job of the target ran, there is nothing.
 *
 * -EINVAL unknown flags or non-zero padding; -EFAULT a bad @data (the
 * records stay unread by the session).
 */
struct drm_vortex_debug_console {
	/** @data: user pointer to @count __u32 records */
	__u64 data;
	/** @count: in: room in @data; out: records copied */
	__u32 count;
	/** @flags: must be zero */
	__u32 flags;
	/** @skipped: out: records the target read before the session saw them */
	__u64 skipped;
	/** @pad: must be zero */
	__u64 pad;
};

/* ---------------------------------------------------------- events */

#define DRM_VORTEX_DEBUG_EVENT_OVERFLOW		1	/* events were lost */
#define DRM_VORTEX_DEBUG_EVENT_HALTED		2	/* warps halted */
#define DRM_VORTEX_DEBUG_EVENT_LAUNCHED		3	/* target job on the card */
#define DRM_VORTEX_DEBUG_EVENT_FINISHED		4	/* target job ended */
#define DRM_VORTEX_DEBUG_EVENT_EXCEPTION	5	/* card frozen on a fault */
#define DRM_VORTEX_DEBUG_EVENT_TIMEOUT		6	/* target job timed out */
#define DRM_VORTEX_DEBUG_EVENT_DUMP		7	/* a crash dump was published */
#define DRM_VORTEX_DEBUG_EVENT_CODE_LOADED	8	/* a code object of the target */
#define DRM_VORTEX_DEBUG_EVENT_CODE_UNLOADED	9	/* ... and its end */

/**
 * struct drm_vortex_debug_event - what read() on the session fd returns
 *
 * read() returns whole events, as many as fit, oldest first; it blocks
 * until one is queued unless the fd is non-blocking (-EAGAIN), and poll()
 * says POLLIN when one is.  A buffer smaller than the next event is
 * -EINVAL.  The queue holds 256 events: when it is full the newest are
 * dropped and counted, and an OVERFLOW event (never itself dropped) says
 * how many.  New event types and fields are appended (@size grows);
 * readers skip what they do not know by @size.  A session attached with
 * version 2 gets every event cut to %DRM_VORTEX_DEBUG_EVENT_SIZE_V2 bytes
 * (@data[0..11], @size saying so, EXCEPTION's @version 1), so a reader
 * built with that header's struct reads whole events as before.
 */
struct drm_vortex_debug_event {
	/** @type: DRM_VORTEX_DEBUG_EVENT_* */
	__u16 type;
	/** @version: layout version of this type, 1 */
	__u16 version;
	/** @size: bytes of this event, header included */
	__u32 size;
	/** @seqno: per-session event number, from 1, without gaps */
	__u64 seqno;
	/** @job: the target file's job seqno (SUBMIT's), 0 if none */
	__u64 job;
	/**
	 * @data: per type:
	 *
	 * - OVERFLOW: [0] events dropped;
	 * - HALTED: [0] hacause, [1] warps halted now (count), [2] first such
	 *   warp, [3] its PC;
	 * - LAUNCHED: [0..2] grid, [3..5] block, [6] entry PC, [7] code
	 *   object id (0 if none registered), [8] its ELF's virtual address,
	 *   [9] its ELF's size, [10] its load address, [11] its load size;
	 *   grid and block are all 0 for a DRM_VORTEX_SUBMIT_CORES job (warp 0
	 *   lane 0 of every core starts at the entry);
	 * - FINISHED: [0] status as WAIT reports it (0, -ETIMEDOUT, -EIO,
	 *   -ECANCELED);
	 * - EXCEPTION: [0] cause (VX_ERR_*), [1] warp, [2] lowest faulting
	 *   lane, [3] PC, [4] address, [5..8] every faulting lane (lane l is
	 *   bit l % 32 of [5 + l / 32]); from @version 2 (sessions of
	 *   version 3), for cause 17 (DIVERGENT_BRANCH, whose [5..8] are the
	 *   warp's active lanes and [4] the branch's target) the lanes on
	 *   each side: [9..12] those that take the branch, [13..16] those
	 *   that do not; both zero for other causes;
	 * - TIMEOUT: [0] ms the job ran;
	 * - DUMP: [0] bytes of the dump now in /sys/class/devcoredump;
	 * - CODE_LOADED: [0] code object id, [1] its ELF's virtual address,
	 *   [2] its ELF's size, [3] its load address, [4] its load size (as
	 *   LAUNCHED's [7..11]), [5] 1 if it was registered before the
	 *   session attached (a replay), else 0; @job is 0.  At attach these
	 *   come first, then a LAUNCHED for the target's job on the card;
	 * - CODE_UNLOADED: [0] the id of an object CODE_LOADED named,
	 *   unregistered or gone with its file; @job is 0.
	 */
	__u32 data[20];
};

/* An event's size for a session attached with version 2: @data[0..11]. */
#define DRM_VORTEX_DEBUG_EVENT_SIZE_V2	72
#define DRM_VORTEX_DEBUG_EVENT_SIZE	sizeof(struct drm_vortex_debug_event)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_VORTEX_ACCEL_H_ */
