// SPDX-License-Identifier: MIT
/*
 * The driver's side of libvortexrt, on the simulator core (vxrt_simdrv.h):
 * just enough of vortex.ko for the library's calls, done as the driver
 * does them (docs/hardware.md, "What the driver does"): buffers in VRAM,
 * the file's Sv32 tables written by VM_BIND, a SUBMIT with
 * DRM_VORTEX_SUBMIT_CORES as LAUNCH (CORES, the file's SATP, the
 * STARTUP DCRs) + FENCE on a ring, run to the fence or an error, and the
 * card reset after an error.  The job runs inside SUBMIT, which says so
 * (DRM_VORTEX_SUBMIT_OUT_ENDED), as the driver's fast lane does.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "vortex_accel.h"
#include "vortex_regs.h"
#include "vx_sim.h"
#include "vx_sv32.h"
#include "vxrt_simdrv.h"

#define SD_VRAM		(32u << 20)
#define SD_RING		0x1000u		/* at VRAM offset 0: aligned to its size */
#define SD_TABLES	64u		/* the root and the level-0 tables */
#define SD_BOS		512u
#define SD_BUDGET	(400ull << 20)	/* slots before a job counts as hung */
#define SD_MMAP_SHIFT	20		/* a buffer's mmap offset: its handle << this */
#define SD_ASID		1u

struct sd_bo {
	uint32_t off, size;		/* VRAM offset, whole pages */
	bool live;
};

struct sd_card {
	struct vx_sim *sim;
	uint8_t *vram;
	struct vx_sim_config cfg;
	struct vx_sv32 pt;
	uint32_t pool_end;		/* VRAM offset past the tables' pool */
	uint32_t brk, tail, fence;
	struct sd_bo bo[SD_BOS];
	uint32_t nbo;
	uint32_t dcr[DRM_VORTEX_DCR_MPM_CLASS + 1];
	uint64_t job;
	int32_t status;
	int fd;				/* the node as the library opened it */
	struct vxrt_simdrv_fault fault;
	struct drm_vortex_fault_info rec;	/* DRM_IOCTL_VORTEX_FAULT's */
	bool rec_valid;
};

static struct sd_card *sd;

int __real_ioctl(int fd, unsigned long req, ...);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __real_munmap(void *addr, size_t len);

static uint32_t pt_rd(void *opaque, uint32_t off)
{
	uint32_t v;

	memcpy(&v, sd->vram + off, 4);
	return v;
}

static void pt_wr(void *opaque, uint32_t off, uint32_t v)
{
	memcpy(sd->vram + off, &v, 4);
}

static void sd_ring_program(void)
{
	vx_sim_mmio_write(sd->sim, VX_REG_RING_BASE, VX_VRAM_DEVADDR);
	vx_sim_mmio_write(sd->sim, VX_REG_RING_SIZE, SD_RING);
	vx_sim_mmio_write(sd->sim, VX_REG_RING_CTRL, VX_RING_CTRL_ENABLE);
	sd->tail = 0;
}

int vxrt_simdrv_new(const uint32_t topo[4])
{
	struct sd_card *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->cfg = (struct vx_sim_config){ .clusters = topo[0], .cores = topo[1],
					 .warps = topo[2], .threads = topo[3],
					 .vram_size = SD_VRAM };
	c->vram = calloc(1, SD_VRAM);
	/* the host harness runs this suite once per executor VX_SIM_EXEC names */
	if (!c->vram || vx_sim_exec_parse(getenv("VX_SIM_EXEC"), &c->cfg.exec, NULL, 0) ||
	    !(c->sim = vx_sim_new(&c->cfg, c->vram, NULL, NULL))) {
		free(c->vram);
		free(c);
		return -EINVAL;
	}
	c->fd = -1;
	c->pt = (struct vx_sv32){ .rd = pt_rd, .wr = pt_wr };
	c->pool_end = SD_RING + SD_TABLES * 4096;
	c->brk = c->pool_end;
	sd = c;
	vx_sv32_init(&c->pt, SD_RING, SD_RING + 4096);
	sd_ring_program();
	return 0;
}

void vxrt_simdrv_free(void)
{
	if (!sd)
		return;
	vx_sim_free(sd->sim);
	free(sd->vram);
	free(sd);
	sd = NULL;
}

const struct vxrt_simdrv_fault *vxrt_simdrv_fault(void)
{
	static const struct vxrt_simdrv_fault none;

	return sd ? &sd->fault : &none;
}

static struct sd_bo *sd_bo(uint64_t handle)
{
	return handle && handle <= sd->nbo && sd->bo[handle - 1].live ? &sd->bo[handle - 1] : NULL;
}

static int sd_bo_create(struct drm_vortex_bo_create *c)
{
	uint64_t size = (c->size + 4095) & ~4095ull;

	if (!c->size || size > SD_VRAM - sd->brk || sd->nbo == SD_BOS)
		return -ENOMEM;
	memset(sd->vram + sd->brk, 0, size);
	sd->bo[sd->nbo] = (struct sd_bo){ sd->brk, size, true };
	sd->brk += size;
	c->handle = ++sd->nbo;
	c->dev_addr = 0;		/* DRM_VORTEX_BO_NO_MAP: VM_BIND places it */
	return 0;
}

static int sd_bo_info(struct drm_vortex_bo_info *i)
{
	struct sd_bo *b = sd_bo(i->handle);

	if (!b)
		return -ENOENT;
	i->mmap_offset = (uint64_t)i->handle << SD_MMAP_SHIFT;
	i->size = b->size;
	i->dev_addr = 0;
	return 0;
}

/* The file's page tables, as the driver writes them: A on every leaf, D on writable ones. */
static int sd_vm_bind(const struct drm_vortex_vm_bind *m)
{
	uint32_t pte = VX_PTE_V | VX_PTE_U | VX_PTE_A;
	struct sd_bo *b = NULL;

	if ((m->va | m->range | m->bo_offset) & 4095 || !m->range ||
	    m->va + m->range > (1ull << 32))
		return -EINVAL;
	if (m->op == DRM_VORTEX_VM_BIND_OP_MAP) {
		b = sd_bo(m->handle);
		if (!b || m->bo_offset > b->size || m->range > b->size - m->bo_offset)
			return -EINVAL;
		pte |= (m->flags & DRM_VORTEX_VM_BIND_READ ? VX_PTE_R : 0) |
		       (m->flags & DRM_VORTEX_VM_BIND_WRITE ? VX_PTE_W | VX_PTE_D : 0) |
		       (m->flags & DRM_VORTEX_VM_BIND_EXEC ? VX_PTE_X : 0);
	} else if (m->op != DRM_VORTEX_VM_BIND_OP_UNMAP) {
		return -EINVAL;
	}
	for (uint64_t o = 0; o < m->range; o += 4096)
		vx_sv32_map(&sd->pt, m->va + o,
			    b ? VX_VRAM_DEVADDR + b->off + m->bo_offset + o : 0, b ? pte : 0);
	if (sd->pt.pool > sd->pool_end) {
		fprintf(stderr, "vxrt_simdrv: more than %u page tables\n", SD_TABLES);
		abort();
	}
	return 0;
}

/* The STARTUP DCRs and MPM_CLASS, with the driver's errnos. */
static int sd_dcr(struct drm_vortex_dcr *d)
{
	if (d->addr < DRM_VORTEX_DCR_STARTUP_ADDR0 || d->addr > DRM_VORTEX_DCR_MPM_CLASS ||
	    d->flags & ~DRM_VORTEX_DCR_FLAGS)
		return -EINVAL;
	if (!(d->flags & DRM_VORTEX_DCR_WRITE)) {
		d->value = sd->dcr[d->addr];
		return 0;
	}
	if (((d->addr == DRM_VORTEX_DCR_STARTUP_ADDR1 || d->addr == DRM_VORTEX_DCR_STARTUP_ARG1) &&
	     d->value) ||
	    (d->addr == DRM_VORTEX_DCR_MPM_CLASS && d->value > DRM_VORTEX_DCR_MPM_CLASS_MAX))
		return -ERANGE;
	sd->dcr[d->addr] = d->value;
	return 0;
}

static void ring_put(uint32_t dw)
{
	memcpy(sd->vram + sd->tail, &dw, 4);
	sd->tail = (sd->tail + 4) % SD_RING;
}

/* The failed job's record, as the driver's recovery takes it (vortex_fault.c). */
static void sd_record(struct vx_sim *s)
{
	struct drm_vortex_fault_info *f = &sd->rec;
	uint32_t per_cluster = sd->cfg.cores * sd->cfg.warps;

	*f = (struct drm_vortex_fault_info){ .status = sd->fault.cause ? -EIO : -ETIMEDOUT,
					     .cause = sd->fault.cause, .dump = -1 };
	if (f->cause) {
		f->pc = sd->fault.pc;
		f->addr = sd->fault.addr;
		f->warp = sd->fault.warp;
		f->lane = sd->fault.thread;
		f->cluster = f->warp / per_cluster;
		f->core = f->warp % per_cluster / sd->cfg.warps;
		f->warp_in_core = f->warp % sd->cfg.warps;
		for (int i = 0; i < 4; i++) {
			f->lanes[i] = vx_sim_mmio_read(s, VX_REG_ERR_TMASK(i));
			f->info[i] = vx_sim_mmio_read(s, VX_REG_ERR_INFO(i));
		}
	}
	sd->rec_valid = true;
}

/* The driver's checks (vortex_fault_ioctl()); no devcoredump here. */
static int sd_fault(struct drm_vortex_fault *q)
{
	uint32_t n = q->info_size;

	if (q->flags || q->pad || n < 80 || n > DRM_VORTEX_FAULT_INFO_MAX || n % 8)
		return -EINVAL;
	if (!sd->rec_valid || (q->job && q->job != sd->rec.job))
		return -ENOENT;
	memset((void *)(uintptr_t)q->info, 0, n);
	memcpy((void *)(uintptr_t)q->info, &sd->rec, n < sizeof(sd->rec) ? n : sizeof(sd->rec));
	q->job = sd->rec.job;
	q->info_size = n < sizeof(sd->rec) ? n : sizeof(sd->rec);
	return 0;
}

/* LAUNCH + FENCE, run to the fence; on an error the fault is kept and the card reset. */
static int32_t sd_run(const uint32_t p[VX_LAUNCH_NDW])
{
	uint32_t seq = ++sd->fence;
	struct vx_sim *s = sd->sim;
	uint64_t used = 0, n;

	ring_put(VX_PKT_HDR(VX_PKT_LAUNCH, VX_LAUNCH_NDW));
	for (int i = 0; i < VX_LAUNCH_NDW; i++)
		ring_put(p[i]);
	ring_put(VX_PKT_HDR(VX_PKT_FENCE, VX_FENCE_NDW));
	ring_put(seq);
	ring_put(0);
	vx_sim_mmio_write(s, VX_REG_RING_TAIL, sd->tail);
	vx_sim_mmio_write(s, VX_REG_DOORBELL, 1);
	while (used < SD_BUDGET && vx_sim_mmio_read(s, VX_REG_FENCE_SEQNO) != seq &&
	       !(vx_sim_mmio_read(s, VX_REG_STATUS) & VX_STATUS_ERROR)) {
		n = vx_sim_run(s, 1 << 16);
		if (!n)
			break;
		used += n;
	}
	if (vx_sim_mmio_read(s, VX_REG_FENCE_SEQNO) == seq)
		return 0;
	sd->fault = (struct vxrt_simdrv_fault){
		vx_sim_mmio_read(s, VX_REG_ERR_CAUSE), vx_sim_mmio_read(s, VX_REG_ERR_WARP),
		vx_sim_mmio_read(s, VX_REG_ERR_THREAD), vx_sim_mmio_read(s, VX_REG_ERR_PC),
		vx_sim_mmio_read(s, VX_REG_ERR_ADDR) };
	sd_record(s);
	vx_sim_mmio_write(s, VX_REG_RESET, VX_RESET_KEY);
	sd->fence = 0;
	sd_ring_program();
	return sd->fault.cause ? -EIO : -ETIMEDOUT;
}

/* Only Vortex's launch: the library never submits a grid. */
static int sd_submit(struct drm_vortex_submit *s)
{
	const uint32_t p[VX_LAUNCH_NDW] = {
		[VX_LAUNCH_ENTRY] = sd->dcr[DRM_VORTEX_DCR_STARTUP_ADDR0],
		[VX_LAUNCH_ARG] = sd->dcr[DRM_VORTEX_DCR_STARTUP_ARG0],
		[VX_LAUNCH_FLAGS] = VX_LAUNCH_FLAG_CORES,
		[VX_LAUNCH_SATP] = vx_sv32_satp(&sd->pt, SD_ASID),
	};

	if (s->flags != DRM_VORTEX_SUBMIT_CORES || !s->bo_count)
		return -EINVAL;
	/* the tables changed since the last job, maybe: the driver's invalidation */
	vx_sim_mmio_write(sd->sim, VX_REG_TLB_INVAL, VX_TLB_INVAL_ALL);
	sd->status = sd_run(p);
	s->seqno = ++sd->job;
	if (sd->status)
		sd->rec.job = s->seqno;
	s->out_flags = DRM_VORTEX_SUBMIT_OUT_ENDED;
	s->status = sd->status;
	return 0;
}

static int sd_param(struct drm_vortex_get_param *p)
{
	const uint64_t v[] = {
		[DRM_VORTEX_PARAM_DEVICE_VERSION] = vx_sim_mmio_read(sd->sim, VX_REG_VERSION),
		[DRM_VORTEX_PARAM_NUM_CLUSTERS] = sd->cfg.clusters,
		[DRM_VORTEX_PARAM_NUM_CORES] = sd->cfg.cores,
		[DRM_VORTEX_PARAM_NUM_WARPS] = sd->cfg.warps,
		[DRM_VORTEX_PARAM_NUM_THREADS] = sd->cfg.threads,
		[DRM_VORTEX_PARAM_VRAM_SIZE] = SD_VRAM,
		[DRM_VORTEX_PARAM_VRAM_DEVADDR] = VX_VRAM_DEVADDR,
		[DRM_VORTEX_PARAM_CAPABILITIES] = DRM_VORTEX_CAP_SUBMIT | DRM_VORTEX_CAP_VM |
			DRM_VORTEX_CAP_VM_BIND | DRM_VORTEX_CAP_CORES,
		/* the driver's default; no job here ever waits for it */
		[DRM_VORTEX_PARAM_JOB_TIMEOUT_MS] = 2000,
	};

	if (p->param >= sizeof(v) / sizeof(v[0]) || p->param == DRM_VORTEX_PARAM_PLATFORM)
		return -EINVAL;
	p->value = v[p->param];
	return 0;
}

/* The node's DRM name: libvortex opens only a "vortex" node. */
static int sd_version(struct drm_version *v)
{
	static const char name[] = "vortex";

	if (v->name && v->name_len)
		memcpy(v->name, name, v->name_len < sizeof(name) ? v->name_len : sizeof(name));
	v->name_len = sizeof(name) - 1;
	return 0;
}

static int sd_ioctl(unsigned long req, void *arg)
{
	switch (req) {
	case DRM_IOCTL_VERSION:
		return sd_version(arg);
	case DRM_IOCTL_VORTEX_GET_PARAM:
		return sd_param(arg);
	case DRM_IOCTL_VORTEX_BO_CREATE:
		return sd_bo_create(arg);
	case DRM_IOCTL_VORTEX_BO_INFO:
		return sd_bo_info(arg);
	case DRM_IOCTL_GEM_CLOSE: {
		struct sd_bo *b = sd_bo(((struct drm_gem_close *)arg)->handle);

		if (!b)
			return -EINVAL;
		b->live = false;
		return 0;
	}
	case DRM_IOCTL_VORTEX_VM_BIND:
		return sd_vm_bind(arg);
	case DRM_IOCTL_VORTEX_DCR:
		return sd_dcr(arg);
	case DRM_IOCTL_VORTEX_SUBMIT:
		return sd_submit(arg);
	case DRM_IOCTL_VORTEX_WAIT: {
		struct drm_vortex_wait *w = arg;

		if (!w->seqno || w->seqno > sd->job)
			return -EINVAL;
		w->status = sd->status;
		return 0;
	}
	case DRM_IOCTL_VORTEX_CONSOLE:
		((struct drm_vortex_console *)arg)->count = 0;	/* no console ring */
		((struct drm_vortex_console *)arg)->dropped = 0;
		return 0;
	case DRM_IOCTL_VORTEX_CODE_OBJECT:
		return 0;			/* for debuggers only */
	case DRM_IOCTL_VORTEX_FAULT:
		return sd_fault(arg);
	default:
		return -ENOTTY;
	}
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!sd || _IOC_TYPE(req) != DRM_IOCTL_BASE)
		return __real_ioctl(fd, req, arg);
	sd->fd = fd;
	ret = sd_ioctl(req, arg);
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct sd_bo *b;

	if (!sd || fd < 0 || fd != sd->fd)
		return __real_mmap(addr, len, prot, flags, fd, off);
	b = sd_bo((uint64_t)off >> SD_MMAP_SHIFT);
	if (!b || off & ((1 << SD_MMAP_SHIFT) - 1) || len > b->size) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	return sd->vram + b->off;
}

int __wrap_munmap(void *addr, size_t len)
{
	if (sd && (uint8_t *)addr >= sd->vram && (uint8_t *)addr < sd->vram + SD_VRAM)
		return 0;
	return __real_munmap(addr, len);
}
