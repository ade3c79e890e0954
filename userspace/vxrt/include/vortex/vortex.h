/* SPDX-License-Identifier: MIT */
/*
 * Vortex's host runtime API, over this project's driver (libvortexrt).
 *
 * The names, types and constants are those of upstream Vortex's
 * runtime/include/vortex.h (github vortexgpgpu/vortex) at commit fe8168b9
 * (2026-06-02, the project's one upstream reference: docs/hardware.md),
 * the vx_spawn_threads() kernel library and regression programs this API
 * serves, so that a Vortex host program compiles and links against this
 * library unchanged (docs/runtime.md says what one written for the
 * previous reference, f6795901, needs); the
 * implementation is this project's own (userspace/vxrt/), built on
 * libvortex's ioctl layer (<libvortex.h>).  It is installed as
 * <vortex/vortex.h>; a Vortex program includes <vortex.h> with
 * `pkg-config --cflags vortexrt`.
 *
 * Every call returns 0 on success and non-zero on failure, as upstream's
 * do, with errno set to what the driver said.
 */
#ifndef __VX_VORTEX_H__
#define __VX_VORTEX_H__

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void *vx_device_h;
typedef void *vx_buffer_h;

/* vx_dev_caps() ids */
#define VX_CAPS_VERSION			0x0
#define VX_CAPS_NUM_THREADS		0x1
#define VX_CAPS_NUM_WARPS		0x2
#define VX_CAPS_NUM_CORES		0x3
#define VX_CAPS_CACHE_LINE_SIZE		0x4
#define VX_CAPS_GLOBAL_MEM_SIZE		0x5
#define VX_CAPS_LOCAL_MEM_SIZE		0x6
#define VX_CAPS_ISA_FLAGS		0x7
#define VX_CAPS_NUM_MEM_BANKS		0x8
#define VX_CAPS_MEM_BANK_SIZE		0x9

/* VX_CAPS_ISA_FLAGS bits */
#define VX_ISA_STD_A			(1ull << 0)
#define VX_ISA_STD_C			(1ull << 2)
#define VX_ISA_STD_D			(1ull << 3)
#define VX_ISA_STD_E			(1ull << 4)
#define VX_ISA_STD_F			(1ull << 5)
#define VX_ISA_STD_H			(1ull << 7)
#define VX_ISA_STD_I			(1ull << 8)
#define VX_ISA_STD_N			(1ull << 13)
#define VX_ISA_STD_Q			(1ull << 16)
#define VX_ISA_STD_S			(1ull << 18)
#define VX_ISA_STD_V			(1ull << 21)
#define VX_ISA_ARCH(flags)		(1 << ((((flags) >> 30) & 0x3) + 4))
#define VX_ISA_EXT_ICACHE		(1ull << 32)
#define VX_ISA_EXT_DCACHE		(1ull << 33)
#define VX_ISA_EXT_L2CACHE		(1ull << 34)
#define VX_ISA_EXT_L3CACHE		(1ull << 35)
#define VX_ISA_EXT_LMEM			(1ull << 36)
#define VX_ISA_EXT_ZICOND		(1ull << 37)
/*
 * ISA_EXT_TCU is 6 (hw/rtl/VX_config.vh:923).  Upstream's header also
 * names VX_ISA_EXT_TEX, _RASTER and _OM, through ISA_EXT_* numbers no file
 * of its tree defines, so no program can use them: not here either.
 */
#define VX_ISA_EXT_TCU			(1ull << 38)

/* vx_ready_wait() timeout that means "a day" */
#define VX_MAX_TIMEOUT			(24 * 60 * 60 * 1000)

/* device memory access */
#define VX_MEM_READ			0x1
#define VX_MEM_WRITE			0x2
#define VX_MEM_READ_WRITE		0x3
#define VX_MEM_PIN_MEMORY		0x4	/* accepted; device memory is never paged out */

int vx_dev_open(vx_device_h *hdevice);
int vx_dev_close(vx_device_h hdevice);
int vx_dev_caps(vx_device_h hdevice, uint32_t caps_id, uint64_t *value);

int vx_mem_alloc(vx_device_h hdevice, uint64_t size, int flags, vx_buffer_h *hbuffer);
int vx_mem_reserve(vx_device_h hdevice, uint64_t address, uint64_t size, int flags,
		   vx_buffer_h *hbuffer);
int vx_mem_free(vx_buffer_h hbuffer);
int vx_mem_access(vx_buffer_h hbuffer, uint64_t offset, uint64_t size, int flags);
int vx_mem_address(vx_buffer_h hbuffer, uint64_t *address);
int vx_mem_info(vx_device_h hdevice, uint64_t *mem_free, uint64_t *mem_used);

int vx_copy_to_dev(vx_buffer_h hbuffer, const void *host_ptr, uint64_t dst_offset,
		   uint64_t size);
int vx_copy_from_dev(void *host_ptr, vx_buffer_h hbuffer, uint64_t src_offset,
		     uint64_t size);
int vx_copy_dev_to_dev(vx_buffer_h hdest_buffer, uint64_t dest_offset,
		       vx_buffer_h hsrc_buffer, uint64_t src_offset, uint64_t size);

int vx_start(vx_device_h hdevice, vx_buffer_h hkernel, vx_buffer_h harguments);
int vx_ready_wait(vx_device_h hdevice, uint64_t timeout);

int vx_dcr_read(vx_device_h hdevice, uint32_t addr, uint32_t *value);
int vx_dcr_write(vx_device_h hdevice, uint32_t addr, uint32_t value);
int vx_mpm_query(vx_device_h hdevice, uint32_t addr, uint32_t core_id, uint64_t *value);

int vx_upload_kernel_bytes(vx_device_h hdevice, const void *content, uint64_t size,
			   vx_buffer_h *hbuffer);
int vx_upload_kernel_file(vx_device_h hdevice, const char *filename, vx_buffer_h *hbuffer);
int vx_upload_bytes(vx_device_h hdevice, const void *content, uint64_t size,
		    vx_buffer_h *hbuffer);
int vx_upload_file(vx_device_h hdevice, const char *filename, vx_buffer_h *hbuffer);
int vx_check_occupancy(vx_device_h hdevice, uint32_t group_size, uint32_t *max_localmem);
int vx_dump_perf(vx_device_h hdevice, FILE *stream);

/*
 * This library's own, not upstream's: how the device's last failed job
 * failed, the driver's record (struct drm_vortex_fault_info in
 * <drm/vortex_accel.h>: cause, PC, address, warp, lanes, the crash dump's
 * devcdN).  vx_ready_wait() prints it when a job fails.  Fails with errno
 * ENOENT if no job of the device failed, ENOTTY on a driver without it.
 */
struct drm_vortex_fault_info;
int vx_dev_last_fault(vx_device_h hdevice, struct drm_vortex_fault_info *fault);

#ifdef __cplusplus
}
#endif

#endif /* __VX_VORTEX_H__ */
