// SPDX-License-Identifier: MIT
/*
 * libvortexrt: the utility calls of Vortex's runtime API.
 *
 * A kernel comes as Vortex builds it, a .vxbin: two little-endian 64-bit
 * words, the image's lowest and highest virtual address (min_vma,
 * max_vma), then the image's bytes from min_vma; the rest up to max_vma
 * is its bss.  As upstream's runtime does (runtime/stub/utils.cpp,
 * vx_upload_kernel_bytes()), it is reserved at min_vma, the bytes read
 * only, the bss read-write.  An ELF (this project's kernels are static
 * PIEs) is accepted too and placed at STARTUP_ADDR, relocated there.
 * Either way the same buffer goes on past max_vma, read-write and zeroed,
 * for every hart's thread-local block, which Vortex's start code puts
 * there and upstream's flat memory never had to map (vx_tls_span(): the
 * ELF's PT_TLS, a .vxbin's VX_TLS_VXBIN_BOUND).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vortex/vortex.h"
#include "vx_elf.h"
#include "vortex_accel.h"
#include "vxrt_internal.h"

static const unsigned char vxrt_elfmag[4] = { 0x7f, 'E', 'L', 'F' };

/*
 * For debuggers: the ELF file's bytes in a read-only buffer of their own,
 * registered as the image's code object (DRM_IOCTL_VORTEX_CODE_OBJECT), so
 * vxdbg and gdb name the kernel's symbols; unregistered and freed with
 * the kernel (vx_mem_free()).  Only
 * debug information: a failure leaves the kernel without it.
 */
static void vxrt_code_object(struct vxrt_buffer *k, const void *elf, uint64_t size,
			     uint64_t load_size)
{
	struct drm_vortex_code_object co = { .size = size, .load_addr = k->va,
					     .load_size = load_size };
	struct vxrt_buffer *b;

	if (vxrt_buffer_new(k->dev, VXRT_VA_ANY, size, VX_MEM_READ, true, &b))
		return;
	co.handle = b->handle;
	if (vx_copy_to_dev(b, elf, 0, size) ||
	    vx_ioctl(vxrt_fd(k->dev), DRM_IOCTL_VORTEX_CODE_OBJECT, &co)) {
		vx_mem_free(b);
		return;
	}
	k->elf = b;
	k->code_object = co.id;
}

/* Bytes past the image for the thread-local blocks of every hart of @dev. */
static uint64_t vxrt_tls_bytes(const struct vxrt_device *dev, uint32_t per_hart)
{
	return vx_tls_span(per_hart, dev->clusters * dev->cores * dev->warps * dev->threads);
}

static int vxrt_upload_elf(vx_device_h hdevice, const void *elf, uint64_t size,
			   vx_buffer_h *hbuffer)
{
	struct vx_elf_layout l;
	uint64_t tls;
	uint32_t base;
	void *img;
	int ret;

	ret = vx_elf_parse(elf, size, &l);
	if (ret)
		return vxrt_fail(ret);
	/* The entry must be STARTUP_ADDR, where vx_start() starts. */
	if (l.entry)
		return vxrt_fail(-ENOEXEC);
	base = l.pie ? VXRT_STARTUP_ADDR : l.vaddr_lo;
	img = malloc(l.size);
	if (!img)
		return vxrt_fail(-ENOMEM);
	ret = vx_elf_build(elf, size, &l, base, img);
	if (ret) {
		free(img);
		return vxrt_fail(ret);
	}
	tls = vxrt_tls_bytes(hdevice, l.tls_size);
	if (vx_mem_reserve(hdevice, base, l.size + tls, VX_MEM_READ_WRITE, hbuffer)) {
		free(img);
		return -1;
	}
	ret = vx_copy_to_dev(*hbuffer, img, 0, l.size);
	free(img);
	if (ret)
		vx_mem_free(*hbuffer);
	else
		vxrt_code_object(*hbuffer, elf, size, l.size);
	return ret;
}

int vx_upload_kernel_bytes(vx_device_h hdevice, const void *content, uint64_t size,
			   vx_buffer_h *hbuffer)
{
	uint64_t min_vma, max_vma, bin, all;
	vx_buffer_h b;

	if (!hdevice || !content || !hbuffer || size <= 16)
		return vxrt_fail(-EINVAL);
	if (!memcmp(content, vxrt_elfmag, sizeof(vxrt_elfmag)))
		return vxrt_upload_elf(hdevice, content, size, hbuffer);
	memcpy(&min_vma, content, 8);
	memcpy(&max_vma, (const char *)content + 8, 8);
	bin = size - 16;
	if (max_vma < min_vma || max_vma - min_vma > UINT32_MAX || bin > max_vma - min_vma)
		return vxrt_fail(-ENOEXEC);
	/* no TLS size in a .vxbin: the documented bound (vx_elf.h) */
	all = max_vma - min_vma + vxrt_tls_bytes(hdevice, VX_TLS_VXBIN_BOUND);
	if (vx_mem_reserve(hdevice, min_vma, all, 0, &b))
		return -1;
	if (vx_mem_access(b, 0, bin, VX_MEM_READ) ||
	    vx_mem_access(b, bin, all - bin, VX_MEM_READ_WRITE) ||
	    vx_copy_to_dev(b, (const char *)content + 16, 0, bin)) {
		vx_mem_free(b);
		return -1;
	}
	*hbuffer = b;
	return 0;
}

static int vxrt_read_file(const char *filename, void **data, uint64_t *size)
{
	FILE *f = fopen(filename, "rb");
	long n;

	if (!f) {
		fprintf(stderr, "Error: %s not found\n", filename);
		return -ENOENT;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -EIO;
	}
	*data = malloc(n ? n : 1);
	if (!*data || fread(*data, 1, n, f) != (size_t)n) {
		free(*data);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*size = n;
	return 0;
}

/* Reads @filename and hands its bytes to @upload. */
static int vxrt_upload_path(vx_device_h hdevice, const char *filename,
			    vx_buffer_h *hbuffer,
			    int (*upload)(vx_device_h, const void *, uint64_t, vx_buffer_h *))
{
	uint64_t size;
	void *data;
	int ret;

	if (!hdevice || !filename || !hbuffer)
		return vxrt_fail(-EINVAL);
	ret = vxrt_read_file(filename, &data, &size);
	if (ret)
		return vxrt_fail(ret);
	ret = upload(hdevice, data, size, hbuffer);
	free(data);
	return ret;
}

int vx_upload_kernel_file(vx_device_h hdevice, const char *filename, vx_buffer_h *hbuffer)
{
	return vxrt_upload_path(hdevice, filename, hbuffer, vx_upload_kernel_bytes);
}

int vx_upload_bytes(vx_device_h hdevice, const void *content, uint64_t size,
		    vx_buffer_h *hbuffer)
{
	vx_buffer_h b;

	if (!hdevice || !content || !hbuffer || !size)
		return vxrt_fail(-EINVAL);
	if (vx_mem_alloc(hdevice, size, VX_MEM_READ, &b))
		return -1;
	if (vx_copy_to_dev(b, content, 0, size)) {
		vx_mem_free(b);
		return -1;
	}
	*hbuffer = b;
	return 0;
}

int vx_upload_file(vx_device_h hdevice, const char *filename, vx_buffer_h *hbuffer)
{
	return vxrt_upload_path(hdevice, filename, hbuffer, vx_upload_bytes);
}

/*
 * How much local memory a group of @group_size threads may use, with as
 * many groups on a core as its warps hold (upstream runtime/stub/utils.cpp
 * at fe8168b9, :703-728: a group takes whole warps).
 */
int vx_check_occupancy(vx_device_h hdevice, uint32_t group_size, uint32_t *max_localmem)
{
	uint64_t threads, warps, lmem;
	uint32_t warps_per_group;

	if (!hdevice || !group_size ||
	    vx_dev_caps(hdevice, VX_CAPS_NUM_THREADS, &threads) ||
	    vx_dev_caps(hdevice, VX_CAPS_NUM_WARPS, &warps) ||
	    vx_dev_caps(hdevice, VX_CAPS_LOCAL_MEM_SIZE, &lmem))
		return vxrt_fail(-EINVAL);
	if (group_size > threads * warps) {
		printf("Error: cannot schedule kernel with group_size > threads_per_core (%u,%llu)\n",
		       group_size, (unsigned long long)(threads * warps));
		return vxrt_fail(-EINVAL);
	}
	warps_per_group = (group_size + threads - 1) / threads;
	if (max_localmem)
		*max_localmem = lmem / (warps / warps_per_group);
	return 0;
}

int vx_dump_perf(vx_device_h hdevice, FILE *stream)
{
	uint64_t cores, c, cycles, instrs, max_cycles = 0, total_instrs = 0;

	if (!hdevice || !stream || vx_dev_caps(hdevice, VX_CAPS_NUM_CORES, &cores))
		return vxrt_fail(-EINVAL);
	/* upstream runtime/stub/utils.cpp, vx_dump_perf(), MPM class 0 */
	for (c = 0; c < cores; c++) {
		if (vx_mpm_query(hdevice, VX_CSR_MCYCLE, c, &cycles) ||
		    vx_mpm_query(hdevice, VX_CSR_MINSTRET, c, &instrs))
			return -1;
		if (cores > 1)
			fprintf(stream, "PERF: core%llu: instrs=%llu, cycles=%llu, IPC=%f\n",
				(unsigned long long)c, (unsigned long long)instrs,
				(unsigned long long)cycles,
				cycles ? (double)instrs / cycles : 0.0);
		total_instrs += instrs;
		max_cycles = cycles > max_cycles ? cycles : max_cycles;
	}
	fprintf(stream, "PERF: instrs=%llu, cycles=%llu, IPC=%f\n",
		(unsigned long long)total_instrs, (unsigned long long)max_cycles,
		max_cycles ? (double)total_instrs / max_cycles : 0.0);
	fflush(stream);
	return 0;
}
