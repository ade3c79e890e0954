// SPDX-License-Identifier: MIT
/*
 * libvortexrt: the device, its configuration registers and its runs.
 *
 * vx_dev_open() opens the driver's node (VORTEX_DEVICE, else the first
 * Vortex accel node) and lays its GPU space out as Vortex's (docs/
 * runtime.md): every hart's stack below STACK_BASE_ADDR, STACK_LOG2_SIZE
 * bytes each, and the I/O page the performance counters land in.
 * vx_start() is upstream's: STARTUP_ADDR and STARTUP_ARG name the kernel
 * and its argument buffer, and the card starts warp 0 lane 0 of every core
 * there (DRM_VORTEX_SUBMIT_CORES).  vx_ready_wait() prints what the job
 * printed once it has ended (vxrt_console.c), and for a job that failed
 * what the driver recorded of it (vx_fault.c), as upstream's simulator
 * prints its abort.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex/vortex.h"
#include "vxrt_internal.h"
#include "vx_fault.h"

/* VORTEX_DEVICE, else the first Vortex accel node, through libvortex. */
static int vxrt_open_node(struct vx_device **vx)
{
	const char *path = getenv("VORTEX_DEVICE");
	int i;

	if (path)
		return vx_device_open_path(path, vx);
	for (i = 0; i < 16; i++)
		if (!vx_device_open_index(i, vx))
			return 0;
	return -ENODEV;
}

/* The card, as Vortex's runtime needs it: VM_BIND and its launch model. */
static int vxrt_query(struct vxrt_device *dev)
{
	const uint64_t need = DRM_VORTEX_CAP_VM_BIND | DRM_VORTEX_CAP_CORES;
	const struct vx_topology *t = vx_device_topology(dev->vx);

	dev->clusters = t->clusters;
	dev->cores = t->cores;
	dev->warps = t->warps;
	dev->threads = t->threads;
	dev->vram = t->vram_size;
	dev->version = t->device_version;
	return (t->caps & need) == need ? 0 : -EOPNOTSUPP;
}

int vx_dev_open(vx_device_h *hdevice)
{
	uint64_t harts, stack;
	struct vxrt_device *dev;
	struct vxrt_buffer *b;
	int ret;

	if (!hdevice)
		return vxrt_fail(-EINVAL);
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return vxrt_fail(-ENOMEM);
	ret = vxrt_open_node(&dev->vx);
	if (ret)
		goto err_free;
	ret = vxrt_query(dev);
	if (ret)
		goto err_close;
	harts = dev->clusters * dev->cores * dev->warps * dev->threads;
	stack = harts << VXRT_STACK_LOG2;
	ret = vxrt_buffer_new(dev, VXRT_STACK_BASE - stack, stack, VX_MEM_READ_WRITE,
			      true, &b) ?:
	      vxrt_buffer_new(dev, VXRT_IO_BASE, VXRT_IO_SIZE, VX_MEM_READ_WRITE,
			      true, &dev->io);
	if (ret)
		goto err_bufs;
	*hdevice = dev;
	return 0;

err_bufs:
	while (dev->bufs)
		vx_mem_free(dev->bufs);
err_close:
	vx_device_close(dev->vx);
err_free:
	free(dev);
	return vxrt_fail(ret);
}

int vx_dev_close(vx_device_h hdevice)
{
	struct vxrt_device *dev = hdevice;

	if (!dev)
		return vxrt_fail(-EINVAL);
	/* As upstream's runtime/stub/vortex.cpp vx_dev_close() does. */
	vx_dump_perf(dev, stdout);
	while (dev->views)
		vx_mem_free(dev->views);
	while (dev->bufs)
		vx_mem_free(dev->bufs);
	vx_device_close(dev->vx);
	free(dev);
	return 0;
}

int vx_dev_caps(vx_device_h hdevice, uint32_t caps_id, uint64_t *value)
{
	struct vxrt_device *dev = hdevice;

	if (!dev || !value)
		return vxrt_fail(-EINVAL);
	switch (caps_id) {
	case VX_CAPS_VERSION:
		*value = dev->version;
		break;
	case VX_CAPS_NUM_THREADS:
		*value = dev->threads;
		break;
	case VX_CAPS_NUM_WARPS:
		*value = dev->warps;
		break;
	case VX_CAPS_NUM_CORES:
		*value = dev->clusters * dev->cores;
		break;
	case VX_CAPS_CACHE_LINE_SIZE:
		*value = 64;
		break;
	case VX_CAPS_GLOBAL_MEM_SIZE:
		*value = dev->vram;
		break;
	case VX_CAPS_LOCAL_MEM_SIZE:
		*value = VX_LMEM_SIZE;
		break;
	case VX_CAPS_ISA_FLAGS:
		/* RV32IMAF (XLEN 32 is 1 in bits 31:30), local memory, Zicond */
		*value = VX_ISA_STD_I | VX_ISA_STD_A | VX_ISA_STD_F |
			 (1ull << ('M' - 'A')) | (1ull << 30) | VX_ISA_EXT_LMEM |
			 VX_ISA_EXT_ZICOND;
		break;
	case VX_CAPS_NUM_MEM_BANKS:
		*value = 1;		/* one VRAM */
		break;
	case VX_CAPS_MEM_BANK_SIZE:
		*value = dev->vram;
		break;
	case 0xA:
	case 0xB:
		/* f6795901's VX_CAPS_TC_SIZE, _TC_NUM, gone since: no tensor cores */
		*value = 0;
		break;
	default:
		return vxrt_fail(-EINVAL);
	}
	return 0;
}

static int vxrt_dcr(struct vxrt_device *dev, uint32_t addr, uint32_t flags,
		    uint32_t *value)
{
	struct drm_vortex_dcr d = { .addr = addr, .flags = flags, .value = *value };
	int ret = vx_ioctl(vxrt_fd(dev), DRM_IOCTL_VORTEX_DCR, &d);

	*value = d.value;
	return ret;
}

int vx_dcr_read(vx_device_h hdevice, uint32_t addr, uint32_t *value)
{
	int ret;

	if (!hdevice || !value)
		return vxrt_fail(-EINVAL);
	ret = vxrt_dcr(hdevice, addr, 0, value);
	return ret ? vxrt_fail(ret) : 0;
}

/* Keep vx_start()'s view of the startup DCRs in step with every write. */
static void vxrt_startup_written(struct vxrt_device *dev, uint32_t addr, uint32_t value)
{
	if (addr == DRM_VORTEX_DCR_STARTUP_ADDR0)
		dev->startup_addr = value;
	else if (addr == DRM_VORTEX_DCR_STARTUP_ARG0)
		dev->startup_arg = value;
}

int vx_dcr_write(vx_device_h hdevice, uint32_t addr, uint32_t value)
{
	int ret;

	if (!hdevice)
		return vxrt_fail(-EINVAL);
	ret = vxrt_dcr(hdevice, addr, DRM_VORTEX_DCR_WRITE, &value);
	if (ret)
		return vxrt_fail(ret);
	vxrt_startup_written(hdevice, addr, value);
	return 0;
}

int vx_start(vx_device_h hdevice, vx_buffer_h hkernel, vx_buffer_h harguments)
{
	struct vxrt_device *dev = hdevice;
	struct vxrt_buffer *k = hkernel, *a = harguments, *b;
	struct drm_vortex_submit s = { .flags = DRM_VORTEX_SUBMIT_CORES };
	struct drm_vortex_submit_bo *bos;
	uint32_t n = 0;
	int ret;

	if (!dev || !k)
		return vxrt_fail(-EINVAL);
	/* Upstream's vx_start() writes both DCRs each time; they persist here. */
	if (!dev->startup_known || dev->startup_addr != (uint32_t)k->va) {
		dev->startup_known = false;
		ret = vx_dcr_write(dev, DRM_VORTEX_DCR_STARTUP_ADDR0, (uint32_t)k->va);
		if (ret)
			return ret;
	}
	if (!dev->startup_known || dev->startup_arg != (a ? (uint32_t)a->va : 0)) {
		dev->startup_known = false;
		ret = vx_dcr_write(dev, DRM_VORTEX_DCR_STARTUP_ARG0, a ? (uint32_t)a->va : 0);
		if (ret)
			return ret;
	}
	dev->startup_known = true;
	for (b = dev->bufs; b; b = b->next)
		n++;
	bos = calloc(n, sizeof(*bos));
	if (!bos)
		return vxrt_fail(-ENOMEM);
	n = 0;
	for (b = dev->bufs; b; b = b->next)
		bos[n++] = (struct drm_vortex_submit_bo){ b->handle,
			DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_WRITE };
	ret = vx_submit(dev->vx, &s, bos, n);
	free(bos);
	if (ret)
		return vxrt_fail(ret);
	dev->seqno = s.seqno;
	dev->out_flags = s.out_flags;
	dev->status = s.status;
	return 0;
}

static void vxrt_fault_print(struct vxrt_device *dev, FILE *out);

int vx_ready_wait(vx_device_h hdevice, uint64_t timeout)
{
	struct vxrt_device *dev = hdevice;
	int64_t ms = timeout > VX_MAX_TIMEOUT ? VX_MAX_TIMEOUT : timeout;
	int ret, status;

	if (!dev)
		return vxrt_fail(-EINVAL);
	if (!dev->seqno)
		return 0;
	if (dev->out_flags & DRM_VORTEX_SUBMIT_OUT_ENDED) {
		/* It ran within vx_start(): SUBMIT said how it ended. */
		status = dev->status;
		if (dev->out_flags & DRM_VORTEX_SUBMIT_OUT_CONSOLE)
			vxrt_console_print(dev, stdout);
	} else {
		ret = vx_wait(dev->vx, dev->seqno, vx_deadline_ms(ms), &status);
		if (ret)
			return vxrt_fail(ret);
		/* What the job printed, as Vortex's runtime shows it. */
		vxrt_console_print(dev, stdout);
	}
	if (status) {
		fprintf(stderr, "vortex: the kernel %s (%s)\n",
			status == -ETIMEDOUT ? "hung and was stopped" :
			status == -EIO ? "raised a device exception" : "was cancelled",
			strerror(-status));
		vxrt_fault_print(dev, stderr);
		return vxrt_fail(status);
	}
	return 0;
}

/* The last job's fault, if the driver recorded one for it. */
static void vxrt_fault_print(struct vxrt_device *dev, FILE *out)
{
	struct drm_vortex_fault_info f;

	if (!vx_device_fault(dev->vx, dev->seqno, &f))
		vx_fault_print(out, "vortex", &f);
}

int vx_dev_last_fault(vx_device_h hdevice, struct drm_vortex_fault_info *fault)
{
	struct vxrt_device *dev = hdevice;
	int ret;

	if (!dev || !fault)
		return vxrt_fail(-EINVAL);
	ret = vx_device_fault(dev->vx, 0, fault);
	return ret ? vxrt_fail(ret) : 0;
}

/*
 * Upstream's kernels store their counters (mcycle, minstret, the MPM
 * class's) at IO_MPM_ADDR when they end, CSR 0xb00 + i of core c as a
 * 64-bit little-endian pair at IO_MPM_ADDR + c * 256 + 8 * i
 * (kernel/src/vx_perf.c at fe8168b9, lines 28-37), and upstream's runtime
 * reads them so (runtime/simx/vortex.cpp at fe8168b9, mpm_query(), lines
 * 381-393).  Core 0's i = 1 is the exit code the start code stores.
 */
int vx_mpm_query(vx_device_h hdevice, uint32_t addr, uint32_t core_id, uint64_t *value)
{
	struct vxrt_device *dev = hdevice;
	uint64_t at;
	uint32_t w[2];
	int ret;

	if (!dev || !value || addr < VX_CSR_MPM_BASE || addr >= VX_CSR_MPM_BASE + 32 ||
	    core_id >= dev->clusters * dev->cores)
		return vxrt_fail(-EINVAL);
	at = VX_IO_MPM_ADDR - VXRT_IO_BASE + (uint64_t)core_id * 32 * 8 +
	     (addr - VX_CSR_MPM_BASE) * 8;
	if (at + sizeof(w) > VXRT_IO_SIZE)
		return vxrt_fail(-ERANGE);
	ret = vx_copy_from_dev(w, dev->io, at, sizeof(w));
	if (ret)
		return ret;
	*value = (uint64_t)w[1] << 32 | w[0];
	return 0;
}
