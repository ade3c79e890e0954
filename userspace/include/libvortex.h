/* SPDX-License-Identifier: MIT */
/*
 * libvortex: userspace runtime for the Vortex GPGPU (/dev/accel/accelN).
 *
 * Conventions: every function that can fail returns 0 or a negative errno
 * and never prints; objects are opaque and freed by their _free/_close
 * function (NULL is accepted).  A device handle is not thread safe: use one
 * per thread, or serialise calls.
 *
 * Typical use:
 *
 *	vx_device_open_index(0, &dev);
 *	vx_bo_alloc(dev, bytes, &buf);  vx_bo_upload(buf, 0, data, bytes);
 *	vx_kernel_load_file(dev, "/vortex/kernels/vecadd.elf", &k);
 *	struct vecadd_args a = { ... vx_bo_dev_addr(buf) ... };
 *	struct vx_launch l = VX_LAUNCH_INIT;  l.args = &a; ...
 *	vx_launch(k, &l, &seqno);
 *	vx_wait(dev, seqno, vx_deadline_ms(2000), &status);
 */
#ifndef LIBVORTEX_H
#define LIBVORTEX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vx_device;
struct vx_bo;
struct vx_kernel;

/**
 * struct vx_topology - what GET_PARAM reports about the card
 * @clusters: clusters in the device
 * @cores: cores per cluster
 * @warps: warps per core
 * @threads: threads (lanes) per warp
 * @vram_size: bytes of VRAM
 * @vram_devaddr: device address of VRAM byte 0
 * @caps: DRM_VORTEX_CAP_* bits of the driver
 * @job_timeout_ms: hang timeout the driver enforces
 * @device_version: VERSION register of the card (major << 16 | minor)
 */
struct vx_topology {
	uint32_t clusters;
	uint32_t cores;
	uint32_t warps;
	uint32_t threads;
	uint64_t vram_size;
	uint64_t vram_devaddr;
	uint64_t caps;
	uint32_t job_timeout_ms;
	uint32_t device_version;
};

/**
 * vx_topology_hw_threads() - hardware thread slots on the whole card
 * @t: topology
 *
 * Return: clusters x cores x warps x threads; the stack area of a launch
 * holds one stack per slot.
 */
static inline uint64_t vx_topology_hw_threads(const struct vx_topology *t)
{
	return (uint64_t)t->clusters * t->cores * t->warps * t->threads;
}

/**
 * vx_device_open_path() - open a card by device node
 * @path: e.g. "/dev/accel/accel0"
 * @out: receives the handle
 *
 * Opens the node, checks that the driver is vortex and reads the topology.
 * Return: 0, -ENODEV if the node is not a Vortex card, or -errno of open().
 */
int vx_device_open_path(const char *path, struct vx_device **out);

/**
 * vx_device_open_index() - open /dev/accel/accel@index
 * @index: minor number of the accel node
 * @out: receives the handle
 *
 * Return: as vx_device_open_path().
 */
int vx_device_open_index(int index, struct vx_device **out);

/**
 * vx_device_close() - wait for nothing, free everything, close the fd
 * @dev: handle, or NULL
 *
 * Buffers and kernels of @dev must have been freed before.  Jobs still
 * running are the driver's to cancel or finish.
 */
void vx_device_close(struct vx_device *dev);

/** vx_device_fd() - the DRM file descriptor, for raw ioctls and poll. */
int vx_device_fd(const struct vx_device *dev);

/** vx_device_topology() - topology read at open time. */
const struct vx_topology *vx_device_topology(const struct vx_device *dev);

/**
 * vx_get_param() - one DRM_VORTEX_PARAM_* value
 * @dev: device
 * @param: DRM_VORTEX_PARAM_*
 * @value: receives the value
 *
 * Return: 0 or -errno of the ioctl (-EINVAL for an unknown parameter).
 */
int vx_get_param(struct vx_device *dev, uint32_t param, uint64_t *value);

/**
 * vx_ioctl() - ioctl() that restarts on EINTR and EAGAIN
 * @fd: file descriptor
 * @request: ioctl number
 * @arg: argument
 *
 * Return: 0 or -errno.
 */
int vx_ioctl(int fd, unsigned long request, void *arg);

/**
 * vx_code_object_unregister() - forget a code object this file registered
 *	(DRM_IOCTL_VORTEX_CODE_OBJECT with DRM_VORTEX_CODE_OBJECT_UNREGISTER):
 *	a debugger of the process hears of its end
 * @fd: the file that registered it
 * @id: its id, as registration returned it; 0 does nothing
 *
 * Return: 0 or -errno of the ioctl (-ENOENT no such object on @fd).
 */
int vx_code_object_unregister(int fd, uint32_t id);

struct drm_vortex_submit;
struct drm_vortex_submit_bo;

/**
 * vx_submit() - SUBMIT one job on @dev, the one place libvortex and the
 *	runtimes built on it (libvortexrt) queue work
 * @dev: device
 * @req: the job as uapi/vortex_accel.h has it (flags, grid, block,
 *	entry_pc, arg_addr, stack_addr, stack_size); vx_submit() sets its
 *	bos, bo_count and bo_stride, the driver its seqno, out_flags and
 *	status
 * @bos: the buffers the job uses, handle and DRM_VORTEX_SUBMIT_BO_* flags
 * @n: how many
 *
 * vx_launch() is this with the project's launch model around it.
 *
 * Return: 0 or -errno of the ioctl.
 */
int vx_submit(struct vx_device *dev, struct drm_vortex_submit *req,
	      const struct drm_vortex_submit_bo *bos, uint32_t n);

/**
 * vx_vm_bind() - map a buffer's pages at an address of @dev's GPU
 *	address space chosen by the caller, or unmap a range (VM_BIND)
 * @dev: device
 * @op: DRM_VORTEX_VM_BIND_OP_MAP or DRM_VORTEX_VM_BIND_OP_UNMAP
 * @flags: DRM_VORTEX_VM_BIND_READ, _WRITE, _EXEC for a map; 0 to unmap
 * @handle: the buffer to map (0 to unmap)
 * @offset: where in the buffer the range starts (0 to unmap)
 * @va: the range's GPU address
 * @range: its length in bytes
 *
 * Return: 0 or -errno of the ioctl (-ENOTTY on a driver without
 * DRM_VORTEX_CAP_VM_BIND).
 */
int vx_vm_bind(struct vx_device *dev, uint32_t op, uint32_t flags, uint32_t handle,
	       uint64_t offset, uint64_t va, uint64_t range);

/**
 * vx_bo_alloc() - allocate a zero-filled buffer in VRAM
 * @dev: device
 * @size: bytes (rounded up to pages by the driver)
 * @out: receives the buffer
 *
 * Return: 0, -ENOMEM when VRAM is exhausted, -EINVAL for a size of 0.
 */
int vx_bo_alloc(struct vx_device *dev, uint64_t size, struct vx_bo **out);

/**
 * vx_bo_alloc_flags() - vx_bo_alloc() that also says what kernels may do
 * @dev: device
 * @size: bytes (rounded up to pages by the driver)
 * @flags: 0, or DRM_VORTEX_BO_GPU_READ_ONLY (a kernel's store to the
 *	buffer is a page fault) and DRM_VORTEX_BO_GPU_NO_EXEC (so is a jump
 *	into it); the CPU's mapping writes the buffer whatever they say
 * @out: receives the buffer
 *
 * Return: as vx_bo_alloc(); -EINVAL for flags the driver does not know,
 * any flag if it lacks DRM_VORTEX_CAP_BO_ACCESS.
 */
int vx_bo_alloc_flags(struct vx_device *dev, uint64_t size, uint32_t flags,
		      struct vx_bo **out);

/** vx_bo_free() - unmap and release a buffer; NULL is a no-op. */
void vx_bo_free(struct vx_bo *bo);

/** vx_bo_dev_addr() - device address of the buffer's first byte. */
uint64_t vx_bo_dev_addr(const struct vx_bo *bo);

/** vx_bo_size() - size in bytes (whole pages). */
uint64_t vx_bo_size(const struct vx_bo *bo);

/** vx_bo_handle() - GEM handle, for raw ioctls. */
uint32_t vx_bo_handle(const struct vx_bo *bo);

/**
 * vx_bo_map() - CPU mapping of the buffer (write-combined BAR)
 * @bo: buffer
 * @ptr: receives the address, valid until vx_bo_free()
 *
 * The first call mmaps; later calls return the same mapping.
 * Return: 0 or -errno of BO_INFO/mmap.
 */
int vx_bo_map(struct vx_bo *bo, void **ptr);

/**
 * vx_bo_upload() - copy host memory into the buffer
 * @bo: buffer
 * @offset: byte offset in the buffer
 * @src: source
 * @len: bytes
 *
 * Return: 0, -ERANGE if the range does not fit, or an error of vx_bo_map().
 */
int vx_bo_upload(struct vx_bo *bo, uint64_t offset, const void *src, size_t len);

/** vx_bo_download() - copy from the buffer to host memory; as upload. */
int vx_bo_download(struct vx_bo *bo, uint64_t offset, void *dst, size_t len);

/**
 * vx_kernel_load() - load a kernel ELF into VRAM
 * @dev: device
 * @elf: the ELF file's bytes; copied, the caller may free them
 * @len: its size
 * @out: receives the kernel
 *
 * The ELF must be a kernel binary as described in docs/hardware.md
 * ("Kernel binaries"): ELF32 RISC-V, its PT_LOAD segments are copied into
 * one new buffer and its R_RISCV_RELATIVE relocations applied for that
 * buffer's address.  The ELF stays in memory (vx_kernel_elf()) for tools
 * that map device PCs back to symbols, and is registered with the driver
 * as a code object (a copy of its bytes in a buffer of @dev's file and the
 * image's device range), so debuggers attached to this process learn of
 * it from their events; that copy stays in VRAM until the file is closed.
 * Return: 0, -ENOEXEC for a malformed or unsupported ELF, or -errno.
 */
int vx_kernel_load(struct vx_device *dev, const void *elf, size_t len,
		   struct vx_kernel **out);

/** vx_kernel_load_file() - vx_kernel_load() of a file's contents. */
int vx_kernel_load_file(struct vx_device *dev, const char *path,
			struct vx_kernel **out);

/** vx_kernel_free() - release the kernel's buffer and ELF copy; NULL ok. */
void vx_kernel_free(struct vx_kernel *k);

/** vx_kernel_entry() - device address of the entry point. */
uint64_t vx_kernel_entry(const struct vx_kernel *k);

/**
 * vx_kernel_base() - device address the image was loaded at
 *
 * An ELF virtual address v is at device address base + v - (lowest
 * PT_LOAD address, 0 for kernel binaries).
 */
uint64_t vx_kernel_base(const struct vx_kernel *k);

/** vx_kernel_bo() - the buffer holding the image. */
struct vx_bo *vx_kernel_bo(const struct vx_kernel *k);

/**
 * vx_kernel_elf_bo() - the buffer holding the ELF's bytes for debuggers
 * (the code object's); NULL if the driver took no code object.  Kernels
 * can neither store to it nor jump into it where the driver has
 * DRM_VORTEX_CAP_BO_ACCESS.
 */
struct vx_bo *vx_kernel_elf_bo(const struct vx_kernel *k);

/** vx_kernel_code_object() - the driver's code object id, 0 if not registered. */
uint32_t vx_kernel_code_object(const struct vx_kernel *k);

/** vx_kernel_elf() - the ELF as loaded; @len receives its size. */
const void *vx_kernel_elf(const struct vx_kernel *k, size_t *len);

/* Per-buffer flags of struct vx_launch_bo (same bits as the uapi's). */
#define VX_BO_READ	(1u << 0)
#define VX_BO_WRITE	(1u << 1)
#define VX_BO_DUMP	(1u << 2)

/**
 * struct vx_launch_bo - a buffer the kernel uses
 * @bo: the buffer
 * @flags: VX_BO_*; 0 means READ | WRITE | DUMP
 */
struct vx_launch_bo {
	struct vx_bo *bo;
	uint32_t flags;
};

/** Largest argument block vx_launch() copies. */
#define VX_LAUNCH_MAX_ARGS	256

/** Default per-thread stack when struct vx_launch.stack_size is 0. */
#define VX_DEFAULT_STACK_SIZE	1024

/**
 * struct vx_launch - one kernel launch
 * @grid: blocks in x, y, z (0 counts as 1 for y and z)
 * @block: threads per block in x, y, z (0 counts as 1 for y and z)
 * @args: argument block, copied into VRAM; its device address is the
 *	kernel's a0.  NULL for none (a0 = 0).
 * @args_size: bytes of @args, at most VX_LAUNCH_MAX_ARGS
 * @bos: buffers the kernel touches besides its image, arguments and stack
 * @nbos: entries in @bos
 * @stack_size: bytes per hardware thread, multiple of 16; 0 for the default
 */
struct vx_launch {
	uint32_t grid[3];
	uint32_t block[3];
	const void *args;
	size_t args_size;
	const struct vx_launch_bo *bos;
	unsigned int nbos;
	uint32_t stack_size;
};

/**
 * vx_launch() - queue a launch of @k
 * @k: loaded kernel
 * @l: launch description
 * @seqno: receives the job number for vx_wait()
 *
 * The runtime owns a stack buffer sized for the topology and a ring of
 * argument slots; a slot is reused only after the job that used it ended
 * (vx_launch() waits for that job if needed).
 * Return: 0, -EINVAL for a bad description, -E2BIG for oversized
 * arguments, or -errno of the submit ioctl.
 */
int vx_launch(struct vx_kernel *k, const struct vx_launch *l, uint64_t *seqno);

/**
 * vx_wait() - wait for a job to end
 * @dev: device
 * @seqno: from vx_launch()
 * @deadline_ns: absolute CLOCK_MONOTONIC time; 0 polls
 * @status: receives the job's outcome: 0 it completed, -ETIMEDOUT it hung
 *	and was stopped, -EIO it raised a device exception, -ECANCELED it was
 *	dropped (device gone, file closed)
 *
 * Return: 0 when the job ended (see @status), -ETIME if the deadline
 * passed first, or -errno of the ioctl.
 */
int vx_wait(struct vx_device *dev, uint64_t seqno, int64_t deadline_ns,
	    int *status);

/**
 * vx_run() - vx_launch() then vx_wait() until @timeout_ms from now
 *
 * A negative @timeout_ms waits until the job ends: the driver's job
 * timeout ends a hung job, and a job a debugger holds waits for the person
 * at the debugger, however slow.
 *
 * Return: the launch or wait error, else the job's status.
 */
int vx_run(struct vx_kernel *k, const struct vx_launch *l, int timeout_ms);

/** vx_deadline_ms() - CLOCK_MONOTONIC now plus @ms, in ns, for vx_wait(). */
int64_t vx_deadline_ms(int64_t ms);

/** vx_status_name() - "ok", "timed out", "device exception", ... */
const char *vx_status_name(int status);

struct drm_vortex_fault_info;

/**
 * vx_device_fault() - how the device's last failed job failed
 * @dev: device
 * @seqno: that job, from vx_launch(), or 0 for whichever failed last
 * @f: receives the driver's record (struct drm_vortex_fault_info,
 *	<drm/vortex_accel.h>): cause, PC, address, warp, lanes, the dump
 *
 * Return: 0, -ENOENT if no job of @dev failed (or @seqno is not the last
 * that did), -ENOTTY on a driver without DRM_VORTEX_CAP_FAULT.
 */
int vx_device_fault(struct vx_device *dev, uint64_t seqno,
		    struct drm_vortex_fault_info *f);

#ifdef __cplusplus
}
#endif

#endif /* LIBVORTEX_H */
