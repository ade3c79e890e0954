// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Crash dumps
 *
 * When recovery ends a job that hung (-ETIMEDOUT) or raised a device
 * exception (-EIO), it calls vortex_dump_capture() with the card frozen as
 * the failure left it, the interrupt masked and the DM lock held.  The
 * capture halts every warp through the Debug Module and takes a snapshot
 * (struct vortex_dump, vortex_dump_state.h): the card's registers, the
 * ring, the job's buffers, its argument bytes and, for every warp with a
 * context, its PC, halt cause, thread mask, every register of every lane
 * and the top of each lane's stack where no captured buffer holds it.
 * Then the card is reset and recovery goes on.  Every wait on the card is
 * bounded, and so is the copying of buffers (half the hang timeout): what
 * could not be read is named in the dump (``not-captured:``), and the dump
 * is published anyway.  Nothing is rendered in recovery: publishing and
 * rendering (the CUDA ELF, the text) happen in a worker afterwards
 * (vortex_dump_publish.c, vortex_dump_text.c, vortex_dump_elf.c), and
 * users read the dump from /sys/class/devcoredump/devcdN/data.
 *
 * A debugger can also ask for a dump of the target's running or halted job
 * (DRM_VORTEX_DEBUG_IOCTL_COREDUMP); the card is not reset then, and warps
 * the capture halted run on.
 *
 * What a dump holds is each file's choice (DRM_IOCTL_VORTEX_DUMP_CONFIG,
 * starting from the module parameter ``dump_flags``): no buffer contents,
 * no stacks, no dumps of exceptions, or none at all; and whether the ELF
 * goes in zlib-compressed (vortex_dump_zlib.c).
 *
 * Module parameters: ``dump`` (default on) turns capture on failures off;
 * ``dump_max_mb`` bounds the buffer bytes a dump holds (default 64), and
 * so does a thirty-second of RAM, since a dump takes about three times its
 * buffer bytes (the copy, the ELF's copy, the ascii85 text); a recovery
 * copies buffers for half the hang timeout at most, so the card is not
 * held past a timeout for a dump;
 * ``dump_all_bos`` (default on) includes every buffer of the job, or only
 * those submitted with DRM_VORTEX_SUBMIT_BO_DUMP.  A buffer created with
 * DRM_VORTEX_BO_NO_DUMP is listed without its bytes in every dump, and
 * the argument bytes, stack tops and assert strings read through the
 * job's space skip it (default: buffers are dumped).
 */

#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "vortex_accel.h"
#include "vortex_device.h"
#include "vortex_dm.h"
#include "vortex_dump.h"
#include "vortex_dump_state.h"
#include "vortex_fault.h"
#include "vortex_gem.h"
#include "vortex_job.h"
#include "vortex_vm.h"
#include "vortex_warp.h"

static bool vortex_dump_enable = true;
module_param_named(dump, vortex_dump_enable, bool, 0644);
MODULE_PARM_DESC(dump, "Capture a crash dump when a job hangs or faults (default true)");

static unsigned int vortex_dump_max_mb = 64;
module_param_named(dump_max_mb, vortex_dump_max_mb, uint, 0644);
MODULE_PARM_DESC(dump_max_mb, "Buffer contents a crash dump may hold, in MiB (default 64; never more than a thirty-second of RAM)");

static int vortex_dump_flags_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret || v & ~DRM_VORTEX_DUMP_FLAGS)
		return -EINVAL;
	*(unsigned int *)kp->arg = v;
	return 0;
}

static const struct kernel_param_ops vortex_dump_flags_ops = {
	.set = vortex_dump_flags_set,
	.get = param_get_uint,
};

static unsigned int vortex_dump_default_flags;
module_param_cb(dump_flags, &vortex_dump_flags_ops, &vortex_dump_default_flags, 0644);
MODULE_PARM_DESC(dump_flags, "DRM_VORTEX_DUMP_* flags new files start with (default 0)");

static bool vortex_dump_all_bos = true;
module_param_named(dump_all_bos, vortex_dump_all_bos, bool, 0644);
MODULE_PARM_DESC(dump_all_bos,
		 "Dump every buffer of the job, not only those submitted with DRM_VORTEX_SUBMIT_BO_DUMP (default true)");

/**
 * vortex_dump_missing() - name what the dump could not hold (``not-captured:``)
 * @d: the dump
 * @what: words for it
 */
void vortex_dump_missing(struct vortex_dump *d, const char *what)
{
	size_t n = strlen(d->missing);

	scnprintf(d->missing + n, sizeof(d->missing) - n, "%s%s",
		  n ? ", " : "", what);
}

/*
 * Copies @size bytes of VRAM at offset @vram, which the job sees at @iova,
 * trailing zero words dropped unless @exact (a file's bytes, such as a
 * kernel's ELF, must stay whole).
 */
static int vortex_dump_copy(struct vortex_device *vdev, struct vortex_dump_bo *b,
			    u64 iova, u64 vram, u64 size, u64 *budget, bool exact)
{
	u64 take = min(size, *budget), n;

	b->iova = iova;
	b->size = size;
	if (!take)
		return 0;
	b->data = kvmalloc(take, VORTEX_RECOVERY_GFP);
	if (!b->data)
		return -ENOMEM;
	memcpy_fromio(b->data, vdev->vram + vram, take);
	for (n = take / 4; !exact && n && !b->data[n - 1]; n--)
		;
	b->len = exact ? take : n * 4;
	b->captured = take;
	*budget -= take;
	return 0;
}

/*
 * A NUL-terminated string at @addr in the job's space, as far as it is
 * mapped there: a kernel names no other client's memory.
 */
static void vortex_dump_string(struct vortex_device *vdev, struct vortex_job *job,
			       u32 addr, char *out)
{
	struct drm_gem_object *obj;
	u64 avail = 0, vram;
	u32 i;

	out[0] = 0;
	obj = vortex_vm_get_bo(job->vfile->vm, addr, &avail, &vram);
	if (!obj)
		return;
	if (to_vortex_bo(obj)->flags & DRM_VORTEX_BO_NO_DUMP)
		avail = 0;
	for (i = 0; i < VORTEX_DUMP_STR - 1 && i < avail; i++) {
		out[i] = readb(vdev->vram + vram + i);
		if (!out[i])
			break;
	}
	out[i] = 0;
	drm_gem_object_put(obj);
}

/**
 * vortex_dump_walk() - walk the page tables for a page fault's address
 * @vdev: the device, card frozen
 * @d: the dump: @d->launch and @d->regs read
 *
 * Reads each level's PTE of ERR_ADDR in the job's tables as the card
 * walked them (Sv32, RISC-V privileged spec 4.3.2; docs/hardware.md "Page
 * tables"): level 1 at the root SATP names, level 0 at the table a
 * pointer PTE (V = 1, R = X = 0) names; a leaf, an invalid PTE or a table
 * outside VRAM ends the walk.  The tables are read as they are now: the
 * card never writes them, and a mapping changed since the fault shows as
 * changed.
 */
static void vortex_dump_walk(struct vortex_device *vdev, struct vortex_dump *d)
{
	struct vortex_dump_walk *wk = &d->walk;
	u32 cause = d->regs[VX_REG_ERR_CAUSE / 4], pte = 0, level;
	u64 table;

	wk->satp = d->launch[VX_LAUNCH_SATP];
	wk->va = d->regs[VX_REG_ERR_ADDR / 4];
	if (!(wk->satp & VX_SATP_MODE) || cause < VX_ERR_FETCH_PAGE_FAULT ||
	    cause > VX_ERR_STORE_PAGE_FAULT)
		return;
	table = (u64)VX_SATP_PPN(wk->satp) << VX_PAGE_SHIFT;
	for (level = 0; level < VORTEX_DUMP_PT_LEVELS; level++) {
		u32 vpn = level ? wk->va >> VX_PAGE_SHIFT & 0x3ff : wk->va >> 22;

		if (table < vdev->devaddr ||
		    table - vdev->devaddr + SZ_4K > vdev->vram_size)
			break;
		pte = readl(vdev->vram + (table - vdev->devaddr) + vpn * 4);
		wk->ptes[wk->levels++] = pte;
		if (!(pte & VX_PTE_V) || pte & (VX_PTE_R | VX_PTE_X))
			break;
		table = (u64)VX_PTE_PPN(pte) << VX_PAGE_SHIFT;
	}
}

/*
 * A warp's registers, where the register stub (vortex_dump_regs.c) did
 * not store them: by injected stores at @regs_va, the dump window in its
 * space, when the card is reset next (vortex_warp_dump_regs()), else
 * through DSCRATCH.
 */
static int vortex_dump_read_regs(struct vortex_device *vdev, u32 warp, u32 *out,
				 bool reset_next, u32 regs_va)
{
	if (reset_next && regs_va)
		return vortex_warp_dump_regs(vdev, warp, regs_va,
					     vdev->dump_node.start, out);
	return vortex_warp_read_regs(vdev, warp, out, reset_next);
}

/*
 * Halts every warp, then reads each one that has a context.  @running, if
 * not NULL, receives the windows of warps that were running before, so an
 * on-demand dump can let them go on.
 */
static void vortex_dump_warps(struct vortex_device *vdev, struct vortex_dump *d,
			      u32 *running, u32 regs_va)
{
	u32 total = vortex_device_total_warps(vdev), w, win, active, halted, n = 0;
	u32 regs = VORTEX_WARP_REGS * vdev->num_threads;

	d->threads = vdev->num_threads;
	if (vortex_dm_activate(vdev)) {
		vortex_dump_missing(d, "debug module");
		return;
	}
	for (win = 0; running && win < vdev->dm.windows; win++)
		running[win] = vortex_dm_window(vdev, VX_DM_WACTIVE, win) &
			       ~vortex_dm_window(vdev, VX_DM_WSTATUS, win);
	if (vortex_dm_halt_running(vdev))
		vortex_dump_missing(d, "warp halt");
	for (w = 0; w < VX_DM_NREGS; w++)
		d->dm[w] = vortex_dm_read(vdev, w);

	for (win = 0; win < vdev->dm.windows; win++)
		n += hweight32(vortex_dm_window(vdev, VX_DM_WACTIVE, win));
	d->warps = kvcalloc(n, sizeof(*d->warps), VORTEX_RECOVERY_GFP);
	if (!d->warps) {
		vortex_dump_missing(d, "warps (no memory)");
		return;
	}
	for (w = 0, active = 0; w < total && d->nwarps < n; w++) {
		struct vortex_dump_warp *dw;

		if (w % 32 == 0) {
			active = vortex_dm_window(vdev, VX_DM_WACTIVE, w / 32);
			halted = vortex_dm_window(vdev, VX_DM_WSTATUS, w / 32);
		}
		if (!(active & BIT(w % 32)))
			continue;
		dw = &d->warps[d->nwarps++];
		dw->st.warp = w;
		vortex_device_warp_place(vdev, w, &dw->st.cluster, &dw->st.core,
					 &dw->st.warp_in_core);
		dw->st.state = DRM_VORTEX_DEBUG_WARP_ACTIVE;
		if (!(halted & BIT(w % 32))) {
			vortex_dump_missing(d, "a warp that would not halt");
			continue;
		}
		dw->st.state |= DRM_VORTEX_DEBUG_WARP_HALTED;
	}
	/* The card is reset next: the warps may store their own registers. */
	if (!running)
		vortex_dump_stub_warps(vdev, d, regs_va);
	for (w = 0; w < d->nwarps; w++) {
		struct vortex_dump_warp *dw = &d->warps[w];

		if (dw->stored || !(dw->st.state & DRM_VORTEX_DEBUG_WARP_HALTED))
			continue;
		if (vortex_warp_status(vdev, &dw->st)) {
			vortex_dump_missing(d, "warp state");
			continue;
		}
		dw->regs = kvmalloc_array(regs, sizeof(u32), VORTEX_RECOVERY_GFP);
		if (!dw->regs ||
		    vortex_dump_read_regs(vdev, dw->st.warp, dw->regs, !running, regs_va)) {
			kvfree(dw->regs);
			dw->regs = NULL;
			vortex_dump_missing(d, "registers");
		}
	}
}

/* Bytes of raw state the dump holds: what its text encodes. */
static u64 vortex_dump_state_bytes(const struct vortex_dump *d)
{
	u64 n = sizeof(d->regs) + sizeof(d->dm) + d->ring.len + d->code.len;
	u32 i;

	for (i = 0; i < d->nbos; i++)
		n += d->bos[i].len;
	for (i = 0; i < d->nwarps; i++)
		n += sizeof(d->warps[i].st) +
		     (d->warps[i].regs ? VORTEX_WARP_REGS * d->threads * 4 : 0);
	return n;
}

static void vortex_dump_release_snapshot(struct kref *ref)
{
	struct vortex_dump *d = container_of(ref, struct vortex_dump, ref);
	u32 i;

	for (i = 0; i < d->nbos; i++)
		kvfree(d->bos[i].data);
	for (i = 0; i < d->nwarps; i++) {
		kvfree(d->warps[i].regs);
		kvfree(d->warps[i].stack);
	}
	kvfree(d->ring.data);
	kvfree(d->code.data);
	kvfree(d->param.data);
	kvfree(d->console);
	put_pid(d->owner);
	if (d->vfile) {		/* dropped: its record names no dump */
		vortex_fault_dump_published(d->vfile, d->job, -1);
		vortex_file_put(d->vfile);
	}
	vfree(d->elf);
	kvfree(d->text);
	kfree(d->bos);
	kvfree(d->warps);
	kfree(d->cmdline);
	kfree(d);
}

/**
 * vortex_dump_put() - drop a reference to a captured dump
 * @d: the dump, or NULL
 */
void vortex_dump_put(struct vortex_dump *d)
{
	if (d)
		kref_put(&d->ref, vortex_dump_release_snapshot);
}

/**
 * vortex_dump_read_captured() - device memory as the snapshot holds it
 * @d: the dump
 * @addr: device address
 * @size: bytes
 * @out: receives them, or NULL to ask only whether they are there
 *
 * Return: whether one captured buffer holds all of [@addr, @addr + @size)
 * (words past what was captured of it are its trailing zeros).
 */
bool vortex_dump_read_captured(const struct vortex_dump *d, u64 addr,
			       size_t size, void *out)
{
	u32 i;

	for (i = 0; i < d->nbos; i++) {
		const struct vortex_dump_bo *b = &d->bos[i];
		u64 off = addr - b->iova, have;

		if (!b->data || addr < b->iova || off + size > b->size)
			continue;
		if (out) {
			have = off < b->len ? min_t(u64, size, b->len - off) : 0;
			memcpy(out, (u8 *)b->data + off, have);
			memset(out + have, 0, size - have);
		}
		return true;
	}
	return false;
}

/*
 * The job's argument bytes, and the top of each lane's stack slice that
 * no captured buffer holds: what the ELF shows of them, read now, since
 * rendering comes after the reset.
 */
static void vortex_dump_locals(struct vortex_device *vdev, struct vortex_vm *vm,
			       struct vortex_dump *d)
{
	u64 arg = d->launch[VX_LAUNCH_ARG], slice = d->launch[VX_LAUNCH_STACK_SIZE];
	u32 i, lane, lanes = d->threads, take;
	u64 budget = VORTEX_DUMP_PARAM, top, avail, vram;
	struct drm_gem_object *obj;
	bool no_dump;

	/* Addresses are the job's: translated through its space, never VRAM's. */
	obj = arg ? vortex_vm_get_bo(vm, arg, &avail, &vram) : NULL;
	if (obj && to_vortex_bo(obj)->flags & DRM_VORTEX_BO_NO_DUMP) {
		drm_gem_object_put(obj);
		obj = NULL;
	}
	if (obj) {
		if (vortex_dump_copy(vdev, &d->param, arg, vram,
				     min_t(u64, VORTEX_DUMP_PARAM, avail), &budget, true))
			vortex_dump_missing(d, "argument bytes");
		drm_gem_object_put(obj);
	}
	if (!slice || d->flags & DRM_VORTEX_DUMP_SKIP_LOCAL)
		return;
	take = min_t(u64, slice, VORTEX_DUMP_STACK);
	d->stack_take = take;
	for (i = 0; i < d->nwarps; i++) {
		struct vortex_dump_warp *dw = &d->warps[i];

		for (lane = 0; lane < lanes; lane++) {
			if (!vortex_dump_lane_listed(dw, lane))
				continue;
			top = d->launch[VX_LAUNCH_STACK_BASE] +
			      ((u64)dw->st.warp * d->threads + lane + 1) * slice;
			if (vortex_dump_read_captured(d, top - take, take, NULL))
				continue;
			obj = vortex_vm_get_bo(vm, top - take, &avail, &vram);
			if (!obj)
				continue;
			no_dump = to_vortex_bo(obj)->flags & DRM_VORTEX_BO_NO_DUMP;
			drm_gem_object_put(obj);
			if (avail < take || no_dump)
				continue;
			if (!dw->stack)
				dw->stack = kvzalloc(lanes * take, VORTEX_RECOVERY_GFP);
			if (!dw->stack) {
				vortex_dump_missing(d, "stacks (no memory)");
				return;
			}
			memcpy_fromio(dw->stack + lane * take, vdev->vram + vram, take);
		}
	}
}

/* What the job's file has printed and not read yet, the card's records too. */
static void vortex_dump_console(struct vortex_device *vdev, struct vortex_file *vfile,
				struct vortex_dump *d)
{
	vortex_console_drain(vdev);
	d->console = kvmalloc_array(VORTEX_DUMP_CONSOLE, sizeof(u32), VORTEX_RECOVERY_GFP);
	if (!d->console) {
		vortex_dump_missing(d, "console (no memory)");
		return;
	}
	d->console_len = vortex_console_peek(vfile, d->console, VORTEX_DUMP_CONSOLE,
					     &d->console_dropped);
}

/**
 * vortex_dump_capture() - capture the card's state for a crash dump
 * @vdev: the device: DM lock held; in recovery, interrupt masked and the
 *	card not yet reset
 * @ctx: the job and what the job layer knows of the failure
 *	(vortex_job_dump_ctx()); with @ctx->error 0 (a debugger's request)
 *	the warps the capture halted run again afterwards
 *
 * Takes a snapshot and offers it to the slot's worker, which publishes
 * and renders it (vortex_dump_publish.c): the card is held only for the
 * copies, and recovery waits for nothing of devcoredump's.  The copies
 * are bounded, the buffers' by half the hang timeout, so the card is
 * not held past a timeout for a dump.
 *
 * Return: 0, -ENOMEM, or -EBUSY if the last capture is still unpublished.
 */
int vortex_dump_capture(struct vortex_device *vdev,
			const struct vortex_dump_ctx *ctx)
{
	u64 budget = min_t(u64, (u64)vortex_dump_max_mb << 20,
			   ((u64)totalram_pages() << PAGE_SHIFT) / 32);
	struct vortex_job *job = ctx->job;
	int error = ctx->error;
	u64 start = ctx->start_ns;
	u64 accesses = vdev->dm.accesses;
	struct vortex_dump_cost *cost = &vdev->dump.last;
	u32 *running = NULL, regs_va = 0;
	bool late = false, no_dump = false;
	struct vortex_dump *d;
	u64 window = 0;
	u32 i;

	u32 flags = job ? job->vfile->dump_flags : vortex_dump_default_flags;

	lockdep_assert_held(&vdev->dm.lock);
	if (error && (!vortex_dump_enable || flags & DRM_VORTEX_DUMP_NONE ||
		      (error == -EIO && flags & DRM_VORTEX_DUMP_NO_EXCEPTION)))
		return 0;
	if (vortex_dump_refused(vdev)) {
		vortex_dump_dropped(vdev);
		return -EBUSY;
	}
	d = kzalloc(sizeof(*d), VORTEX_RECOVERY_GFP);
	if (!d)
		return -ENOMEM;
	kref_init(&d->ref);
	init_completion(&d->rendered);
	d->vdev = vdev;
	d->start_ns = start;
	ktime_get_real_ts64(&d->time);
	d->error = error;
	d->flags = flags;
	d->last_fence = ctx->last_fence;
	for (i = 0; i < ARRAY_SIZE(d->regs); i++)
		d->regs[i] = vortex_read(vdev, i * 4);
	/* An assert's a0, a1, a3: expression, file, function (a2 the line). */
	if (job && d->regs[VX_REG_ERR_CAUSE / 4] == VX_ERR_ASSERT)
		for (i = 0; i < 3; i++)
			vortex_dump_string(vdev, job,
					   d->regs[VX_REG_ERR_INFO(i == 2 ? 3 : i) / 4],
					   d->assert[i]);

	if (vortex_dump_copy(vdev, &d->ring, vdev->devaddr + ctx->ring_offset,
			     ctx->ring_offset, ctx->ring_size, &budget, false))
		vortex_dump_missing(d, "ring");
	if (job) {
		d->job = job->seqno;
		memcpy(d->launch, job->launch, sizeof(d->launch));
		if (job->hw_fence)
			d->card_job = job->hw_fence->seqno;
		vortex_dump_walk(vdev, d);
		d->vm_log_len = vortex_vm_log_copy(job->vfile->vm, d->vm_log);
		d->code_id = job->code.id;
		if (job->code.id &&
		    vortex_dump_copy(vdev, &d->code, job->code.elf_addr,
				     job->code.elf_addr - vdev->devaddr,
				     job->code.elf_size, &budget, true))
			vortex_dump_missing(d, "kernel image");
		strscpy(d->comm, job->vfile->comm, sizeof(d->comm));
		d->owner = get_pid(job->vfile->pid);
		/* The worker names the dump in the failed job's fault record. */
		if (error) {
			kref_get(&job->vfile->ref);
			d->vfile = job->vfile;
			vortex_fault_dump_captured(d->vfile, d->job);
		}
		d->cmdline = kstrdup(job->vfile->cmdline, VORTEX_RECOVERY_GFP);
		d->bos = kcalloc(job->bo_count, sizeof(*d->bos), VORTEX_RECOVERY_GFP);
		for (i = 0; d->bos && i < job->bo_count; i++) {
			struct vortex_bo *bo = to_vortex_bo(job->bos[i]);
			struct vortex_dump_bo *b = &d->bos[d->nbos];
			u64 iova, size, off = 0;

			if (!vortex_dump_all_bos &&
			    !(job->bo_flags[i] & DRM_VORTEX_SUBMIT_BO_DUMP))
				continue;
			/*
			 * Where the job sees it: at its own address, else at
			 * its lowest VM_BIND mapping (0 if it has none).
			 */
			iova = vortex_bo_devaddr(bo);
			size = bo->base.size;
			if (vortex_bo_no_map(bo) &&
			    !vortex_vm_bo_va(job->vfile->vm, &bo->base, &iova, &size, &off))
				iova = 0;
			b->flags = job->bo_flags[i];
			vortex_bo_label(bo, b->label);
			b->iova = iova;
			b->size = size;
			d->nbos++;
			/* Recovery holds the card: half a timeout of copying at most. */
			if (error && ktime_get_ns() - start >
			    (u64)vortex_job_timeout_ms * NSEC_PER_MSEC / 2) {
				late = true;
				continue;
			}
			if (bo->flags & DRM_VORTEX_BO_NO_DUMP) {
				no_dump = true;
				continue;
			}
			if (!(flags & DRM_VORTEX_DUMP_SKIP_GLOBAL) &&
			    vortex_dump_copy(vdev, b, iova, bo->node.start + off, size,
					     &budget, false))
				vortex_dump_missing(d, "buffer contents");
		}
		if (no_dump)
			vortex_dump_missing(d, "buffer contents (DRM_VORTEX_BO_NO_DUMP)");
		if (!budget)
			vortex_dump_missing(d, "buffer contents past dump_max_mb or a thirty-second of RAM");
		if (late)
			vortex_dump_missing(d, "buffer contents past half the hang timeout");
		if (flags & DRM_VORTEX_DUMP_SKIP_GLOBAL)
			vortex_dump_missing(d, "buffer contents (DRM_VORTEX_DUMP_SKIP_GLOBAL)");
	}
	if (!error) {
		/* On demand the card goes on: which warps to let run again. */
		running = kcalloc(vdev->dm.windows, sizeof(*running), VORTEX_RECOVERY_GFP);
		if (!running) {
			vortex_dump_put(d);
			return -ENOMEM;
		}
	}
	/*
	 * Without @running (recovery), the card is reset after the capture,
	 * and the warps may store their registers themselves: through the
	 * dump window, mapped in the job's space only while the card is
	 * frozen.
	 */
	if (!running && job && drm_mm_node_allocated(&vdev->dump_node) &&
	    vdev->dump_node.size <= SZ_4M)
		window = vdev->dump_node.size;
	if (window)
		regs_va = vortex_vm_window_map(job->vfile->vm, vdev->dump_node.start,
					       window);
	vortex_dump_warps(vdev, d, running, regs_va);
	if (window)
		vortex_vm_window_unmap(job->vfile->vm, window);
	if (job) {
		vortex_dump_locals(vdev, job->vfile->vm, d);
		vortex_dump_console(vdev, job->vfile, d);
	}
	if (running) {
		vortex_dm_set_mask(vdev, running);
		vortex_dm_request(vdev, VX_DCTRL_RESUMEREQ, NULL);
		kfree(running);
	}
	cost->frozen_ns = ktime_get_ns() - start;
	cost->dm_accesses = vdev->dm.accesses - accesses;
	cost->lane_regs = (u64)d->nwarps * d->threads * VORTEX_WARP_REGS;
	cost->state_bytes = vortex_dump_state_bytes(d);
	return vortex_dump_offer(d);
}

/**
 * vortex_dump_file_open() - a new file's dump flags: the module's default
 * @vfile: the file
 */
void vortex_dump_file_open(struct vortex_file *vfile)
{
	vfile->dump_flags = READ_ONCE(vortex_dump_default_flags);
}

/**
 * vortex_dump_config_ioctl() - DRM_IOCTL_VORTEX_DUMP_CONFIG
 * @drm: the DRM device
 * @data: the ioctl's arguments (copied in and out by DRM)
 * @file: the caller's DRM file
 *
 * Sets what the file's crash dumps hold, returning the old flags.
 *
 * Return: 0, or a negative errno.
 */
int vortex_dump_config_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct vortex_file *vfile = file->driver_priv;
	struct drm_vortex_dump_config *args = data;

	if (args->flags & ~DRM_VORTEX_DUMP_FLAGS) {
		drm_dbg(drm, "DUMP_CONFIG: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	args->old_flags = xchg(&vfile->dump_flags, args->flags);
	return 0;
}

static void vortex_dump_release(struct drm_device *drm, void *arg)
{
	struct vortex_device *vdev = arg;

	mutex_lock(&vdev->mm_lock);
	drm_mm_remove_node(&vdev->dump_node);
	mutex_unlock(&vdev->mm_lock);
}

/**
 * vortex_dump_init() - keep the VRAM where dumped warps store their registers
 * @vdev: the device, VRAM allocator ready
 *
 * Return: 0 or a negative errno.
 */
int vortex_dump_init(struct vortex_device *vdev)
{
	u64 size = vortex_warp_dump_regs_size(vdev->num_threads), stub;
	int ret;

	/* Room for the register stub and up to a MiB of warps (vortex_dump_regs.c). */
	stub = vortex_dump_stub_size(vdev->num_threads, vortex_device_total_warps(vdev),
				     SZ_1M);
	size = PAGE_ALIGN(max(size, stub));

	mutex_lock(&vdev->mm_lock);
	ret = drm_mm_insert_node_in_range(&vdev->mm, &vdev->dump_node, size, PAGE_SIZE,
					  0, 0, vdev->vram_size, DRM_MM_INSERT_HIGH);
	mutex_unlock(&vdev->mm_lock);
	if (ret)
		return ret;
	ret = drmm_add_action_or_reset(&vdev->drm, vortex_dump_release, vdev);
	if (ret)
		return ret;
	return vortex_dump_slot_init(vdev);
}

/**
 * vortex_dump_fini() - the card is going: discard its unread dump
 * @vdev: the device
 */
void vortex_dump_fini(struct vortex_device *vdev)
{
	vortex_dump_slot_fini(vdev);
}
