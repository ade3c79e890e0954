// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Crash dumps
 *
 * When recovery ends a job that hung (-ETIMEDOUT) or raised a device
 * exception (-EIO), it calls vortex_dump_capture() with the card frozen as
 * the failure left it, the interrupt masked and the DM lock held.  The
 * capture halts every warp through the Debug Module, reads the card's
 * registers, the ring, the job's buffers and, for every warp with a
 * context, its PC, halt cause, thread mask and every register of every
 * lane; then the card is reset and recovery goes on.  Every wait on the
 * card is bounded: what could not be read is named in the dump
 * (``not-captured:``), and the dump is published anyway.
 *
 * The dump is text in the layout of the MSM driver's crash dumps
 * (Documentation/gpu/msm-crash-dump.rst upstream): ``key: value`` lines,
 * sections indented two spaces, list entries starting ``- ``, buffer
 * contents in ascii85 with trailing zero words left out; its last section,
 * ``cuda-coredump:``, holds the same state as a CUDA-format ELF core
 * (vortex_dump_elf.c), ascii85 too, recoverable byte for byte.  It is rendered
 * once and handed to devcoredump (dev_coredumpv()), where users read it
 * from /sys/class/devcoredump/devcdN/data and discard it by writing to
 * that file.  devcoredump keeps one dump per device and drops a new one
 * while the last is unread; the driver notices, counts the drop (debugfs
 * ``dumps_dropped``) and says so in the kernel log, rate limited.  A dump
 * its user has just discarded is not unread: a failure right then waits
 * for devcoredump to finish removing it, and leaves its own dump.
 *
 * A debugger can also ask for a dump of the target's running or halted job
 * (DRM_VORTEX_DEBUG_IOCTL_COREDUMP); the card is not reset then, and warps
 * the capture halted run on.
 *
 * What a dump holds is each file's choice (DRM_IOCTL_VORTEX_DUMP_CONFIG,
 * starting from the module parameter ``dump_flags``): no buffer contents,
 * no stacks, no dumps of exceptions, or none at all; and whether the ELF
 * goes in zlib-compressed (vortex_dump_zlib.c).  A new dump is
 * announced by a uevent on the card (VORTEX_CRASH_DUMP=1) and, to an
 * attached debugger, by a DUMP event.
 *
 * Module parameters: ``dump`` (default on) turns capture on failures off;
 * ``dump_max_mb`` bounds the buffer bytes a dump holds (default 64), and
 * so does a thirty-second of RAM, since a dump takes about three times its
 * buffer bytes (the copy, the ELF's copy, the ascii85 text); a recovery
 * copies buffers for half the hang timeout at most, so the card is not
 * held much past a timeout for a dump;
 * ``dump_all_bos`` (default on) includes every buffer of the job, or only
 * those submitted with DRM_VORTEX_SUBMIT_BO_DUMP.
 */

#include <linux/ascii85.h>
#include <linux/devcoredump.h>
#include <linux/iopoll.h>
#include <linux/mm.h>
#include <linux/kernfs.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "vortex_accel.h"
#include "vortex_debug.h"
#include "vortex_device.h"
#include "vortex_dm.h"
#include "vortex_dump.h"
#include "vortex_dump_state.h"
#include "vortex_gem.h"
#include "vortex_job.h"
#include "vortex_vm.h"

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

static void vortex_dump_missing(struct vortex_dump *d, const char *what)
{
	size_t n = strlen(d->missing);

	scnprintf(d->missing + n, sizeof(d->missing) - n, "%s%s",
		  n ? ", " : "", what);
}

/*
 * Copies @size bytes of VRAM at @iova, trailing zero words dropped unless
 * @exact (a file's bytes, such as a kernel's ELF, must stay whole).
 */
static int vortex_dump_copy(struct vortex_device *vdev, struct vortex_dump_bo *b,
			    u64 iova, u64 size, u64 *budget, bool exact)
{
	u64 take = min(size, *budget), n;

	b->iova = iova;
	b->size = size;
	if (!take)
		return 0;
	b->data = kvmalloc(take, VORTEX_DUMP_GFP);
	if (!b->data)
		return -ENOMEM;
	memcpy_fromio(b->data, vdev->vram + (iova - vdev->devaddr), take);
	for (n = take / 4; !exact && n && !b->data[n - 1]; n--)
		;
	b->len = exact ? take : n * 4;
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
	u64 avail = 0;
	u32 i;

	out[0] = 0;
	obj = vortex_vm_get_bo(job->vfile->vm, addr, &avail);
	if (!obj)
		return;
	for (i = 0; i < VORTEX_DUMP_STR - 1 && i < avail; i++) {
		out[i] = readb(vdev->vram + (addr - vdev->devaddr) + i);
		if (!out[i])
			break;
	}
	out[i] = 0;
	drm_gem_object_put(obj);
}

/*
 * A warp's registers: stored by the warp itself at @regs_va, the dump
 * window in its space, when the card is reset next (the fast way,
 * vortex_warp_dump_regs()), else through DSCRATCH.
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
	vortex_dm_set_mask_all(vdev, true);
	if (vortex_dm_request(vdev, VX_DCTRL_HALTREQ, NULL))
		vortex_dump_missing(d, "warp halt");
	for (w = 0; w < VX_DM_NREGS; w++)
		d->dm[w] = vortex_dm_read(vdev, w);

	for (win = 0; win < vdev->dm.windows; win++)
		n += hweight32(vortex_dm_window(vdev, VX_DM_WACTIVE, win));
	d->warps = kcalloc(n, sizeof(*d->warps), VORTEX_DUMP_GFP);
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
		dw->st.cluster = w / (vdev->num_cores * vdev->num_warps);
		dw->st.core = w / vdev->num_warps % vdev->num_cores;
		dw->st.warp_in_core = w % vdev->num_warps;
		dw->st.state = DRM_VORTEX_DEBUG_WARP_ACTIVE;
		if (!(halted & BIT(w % 32))) {
			vortex_dump_missing(d, "a warp that would not halt");
			continue;
		}
		dw->st.state |= DRM_VORTEX_DEBUG_WARP_HALTED;
		if (vortex_warp_status(vdev, &dw->st)) {
			vortex_dump_missing(d, "warp state");
			continue;
		}
		dw->regs = kvmalloc_array(regs, sizeof(u32), VORTEX_DUMP_GFP);
		if (!dw->regs || vortex_dump_read_regs(vdev, w, dw->regs, !running, regs_va)) {
			kvfree(dw->regs);
			dw->regs = NULL;
			vortex_dump_missing(d, "registers");
		}
	}
}

/* ---------------------------------------------------------- render */

/* Text printed into @buf, or only counted while @buf is NULL. */
struct vortex_text {
	char *buf;
	size_t len;
	size_t cap;
};

static __printf(2, 3) void vortex_text(struct vortex_text *t, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vsnprintf(t->buf ? t->buf + t->len : NULL,
		      t->buf ? t->cap - t->len : 0, fmt, args);
	va_end(args);
	t->len += n;
}

/* @n bytes of @str: the fast path for what has no format. */
static void vortex_text_put(struct vortex_text *t, const char *str, size_t n)
{
	if (t->buf && !WARN_ON(t->len + n >= t->cap))
		memcpy(t->buf + t->len, str, n);
	t->len += n;
}

/*
 * An ascii85 block of @len bytes, 64 groups a line, @indent deep.  A
 * large dump is mostly this, so a line is built here and put at once.
 */
static void vortex_text_ascii85(struct vortex_text *t, const char *indent,
				const u32 *data, u64 len)
{
	char group[ASCII85_BUFSZ], line[64 * 5 + 1];
	long i, n = ascii85_encode_len(len);
	size_t used = 0;

	vortex_text(t, "%sdata: !!ascii85 |\n%s  ", indent, indent);
	for (i = 0; i < n; i++) {
		const char *g = ascii85_encode(data[i], group);
		size_t glen = g[1] ? 5 : 1;	/* "z" or five digits */

		memcpy(line + used, g, glen);
		used += glen;
		if (i % 64 == 63 && i + 1 < n) {
			line[used++] = '\n';
			vortex_text_put(t, line, used);
			used = 0;
			vortex_text(t, "%s  ", indent);
		}
	}
	line[used++] = '\n';
	vortex_text_put(t, line, used);
}

/*
 * "0x1f, 0x0, ..." of @n words @stride apart into @out, as "%s0x%x" would
 * print them; returns the characters written.
 */
static size_t vortex_text_hex_list(char *out, const u32 *v, u32 n, u32 stride)
{
	char *p = out;
	u32 i;
	int d;

	for (i = 0; i < n; i++, v += stride) {
		if (i) {
			*p++ = ',';
			*p++ = ' ';
		}
		*p++ = '0';
		*p++ = 'x';
		for (d = *v ? (fls(*v) - 1) / 4 : 0; d >= 0; d--)
			*p++ = hex_asc_lo(*v >> (4 * d));
	}
	return p - out;
}

static const char *const vortex_dm_names[VX_DM_NREGS] = {
	"platform", "dconfig", "dselect", "wmask", "wactive", "wstatus",
	"dctrl", "dpc", "inject", "dscratch0", "dscratch1", "dscratch2",
	"dscratch3",
};

static void vortex_dump_render(struct vortex_device *vdev,
			       const struct vortex_dump *d, struct vortex_text *t)
{
	u32 cause = d->regs[VX_REG_ERR_CAUSE / 4], i, l;
	char list[32 * 12];
	size_t n;

	vortex_text(t, "kernel: %s\nmodule: %s\ntime: %lld.%09ld\n",
		    init_utsname()->release, KBUILD_MODNAME,
		    (long long)d->time.tv_sec, d->time.tv_nsec);
	vortex_text(t, "comm: %s\ncmdline: %s\n", d->comm,
		    d->cmdline ?: "");
	vortex_text(t, "revision: 0x%08x (vortex.%u.%u.0)\n", vdev->version,
		    VX_VERSION_MAJOR(vdev->version), VX_VERSION_MINOR(vdev->version));
	vortex_text(t, "status: 0x%08x\n", d->regs[VX_REG_STATUS / 4]);
	vortex_text(t, "job: %llu\nerror: %s\n", d->job,
		    !d->error ? "requested" :
		    d->error == -ETIMEDOUT ? "timeout" : "exception");
	if (cause != VX_ERR_NONE) {
		vortex_text(t, "fault-info:\n  - cause: %u (%s)\n", cause,
			    vortex_err_name(cause));
		vortex_text(t, "    warp: %u\n    thread: %u\n    pc: 0x%08x\n    address: 0x%08x\n",
			    d->regs[VX_REG_ERR_WARP / 4], d->regs[VX_REG_ERR_THREAD / 4],
			    d->regs[VX_REG_ERR_PC / 4], d->regs[VX_REG_ERR_ADDR / 4]);
		if (cause == VX_ERR_ASSERT)
			vortex_text(t, "    assert: \"%s\"\n    file: \"%s\"\n    line: %u\n    function: \"%s\"\n",
				    d->assert[0], d->assert[1],
				    d->regs[VX_REG_ERR_INFO(2) / 4], d->assert[2]);
	}
	/* As msm's pgtable-fault-info: the space the address was looked up in. */
	if (cause >= VX_ERR_FETCH_PAGE_FAULT && cause <= VX_ERR_STORE_PAGE_FAULT) {
		u32 satp = d->launch[VX_LAUNCH_SATP];

		vortex_text(t, "pgtable-fault-info:\n  - satp: 0x%08x\n    asid: %u\n    root: 0x%08llx\n",
			    satp, VX_SATP_ASID(satp),
			    (u64)VX_SATP_PPN(satp) << VX_PAGE_SHIFT);
	}

	vortex_text(t, "ringbuffer:\n  - id: 0\n    iova: 0x%016llx\n", d->ring.iova);
	vortex_text(t, "    last-fence: %u\n    retired-fence: %u\n", d->last_fence,
		    d->regs[VX_REG_FENCE_SEQNO / 4]);
	vortex_text(t, "    rptr: %u\n    wptr: %u\n    size: %llu\n",
		    d->regs[VX_REG_RING_HEAD / 4], d->regs[VX_REG_RING_TAIL / 4],
		    d->ring.size);
	if (d->ring.len)
		vortex_text_ascii85(t, "    ", d->ring.data, d->ring.len);

	vortex_text(t, "bos:\n");
	for (i = 0; i < d->nbos; i++) {
		const struct vortex_dump_bo *b = &d->bos[i];

		vortex_text(t, "  - iova: 0x%016llx\n    size: %llu\n    flags: 0x%x\n    name: bo%u\n",
			    b->iova, b->size, b->flags, i);
		if (b->len)
			vortex_text_ascii85(t, "    ", b->data, b->len);
	}

	vortex_text(t, "registers:\n");
	for (i = 0; i < ARRAY_SIZE(d->regs); i++)
		vortex_text(t, "  - { offset: 0x%04x, value: 0x%08x }\n", i * 4, d->regs[i]);
	vortex_text(t, "debug-module:\n");
	for (i = 0; i < VX_DM_NREGS; i++)
		vortex_text(t, "  - { reg: 0x%x, name: %s, value: 0x%08x }\n", i,
			    vortex_dm_names[i], d->dm[i]);

	vortex_text(t, "warps:\n");
	for (i = 0; i < d->nwarps; i++) {
		const struct vortex_dump_warp *w = &d->warps[i];

		vortex_text(t, "  - id: %u\n    cluster: %u\n    core: %u\n    warp-in-core: %u\n",
			    w->st.warp, w->st.cluster, w->st.core, w->st.warp_in_core);
		vortex_text(t, "    halted: %s\n    halt-cause: %u\n    pc: 0x%08x\n    thread-mask: 0x%08x\n",
			    w->st.state & DRM_VORTEX_DEBUG_WARP_HALTED ? "yes" : "no",
			    w->st.cause, w->st.pc, w->st.thread_mask[0]);
		vortex_text(t, "    block: [%u, %u, %u]\n", w->st.block_idx[0],
			    w->st.block_idx[1], w->st.block_idx[2]);
		if (!w->regs)
			continue;
		vortex_text(t, "    threads:\n");
		for (l = 0; l < d->threads; l++) {
			if (l < 32 && !(w->st.thread_mask[0] & BIT(l)))
				continue;
			vortex_text(t, "      - lane: %u\n        x: [", l);
			n = vortex_text_hex_list(list, w->regs + l, 32, d->threads);
			vortex_text_put(t, list, n);
			vortex_text(t, "]\n        f: [");
			n = vortex_text_hex_list(list, w->regs + 32 * d->threads + l, 32,
						 d->threads);
			vortex_text_put(t, list, n);
			vortex_text(t, "]\n        fcsr: 0x%x\n",
				    w->regs[64 * d->threads + l]);
		}
	}
	if (d->elf) {
		vortex_text(t, "cuda-coredump:\n  size: %zu\n", d->elf_size ?: d->elf_len);
		if (d->elf_size)
			vortex_text(t, "  encoding: zlib\n  stored-size: %zu\n", d->elf_len);
		vortex_text_ascii85(t, "  ", d->elf, d->elf_len);
	}
	if (d->missing[0])
		vortex_text(t, "not-captured: %s\n", d->missing);
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

static void vortex_dump_free(struct vortex_dump *d)
{
	u32 i;

	if (!d)
		return;
	for (i = 0; i < d->nbos; i++)
		kvfree(d->bos[i].data);
	for (i = 0; i < d->nwarps; i++)
		kvfree(d->warps[i].regs);
	kvfree(d->ring.data);
	kvfree(d->code.data);
	put_pid(d->owner);
	vfree(d->elf);
	kfree(d->bos);
	kfree(d->warps);
	kfree(d->cmdline);
	kfree(d);
}

/*
 * Where the device's devcoredump slot stands.  devcoredump lets a new dump
 * in as soon as the last one has left its class, but removes the card's
 * "devcoredump" link to it only on its last put, later in its work item:
 * a dump published in between collides with that link (a duplicate-name
 * warning, and a dump without its link).  A dump the user discarded lost
 * its "subsystem" link first, with its class entry: that one is leaving.
 */
enum vortex_dump_slot {
	VORTEX_DUMP_SLOT_FREE,
	VORTEX_DUMP_SLOT_UNREAD,
	VORTEX_DUMP_SLOT_LEAVING,
};

static enum vortex_dump_slot vortex_dump_slot(struct vortex_device *vdev)
{
	struct kernfs_node *link, *subsys = NULL;

	link = kernfs_find_and_get(vdev->drm.dev->kobj.sd, "devcoredump");
	if (!link)
		return VORTEX_DUMP_SLOT_FREE;
	/* the link holds its target, and we hold the link */
	if (kernfs_type(link) == KERNFS_LINK)
		subsys = kernfs_find_and_get(link->symlink.target_kn, "subsystem");
	kernfs_put(subsys);
	kernfs_put(link);
	return subsys ? VORTEX_DUMP_SLOT_UNREAD : VORTEX_DUMP_SLOT_LEAVING;
}

/*
 * A uevent on the card (VORTEX_CRASH_DUMP=1, beside devcoredump's own for
 * devcdN) and, with a debugger attached to the dumped job's process, a
 * DUMP event: a session hears of its target's dumps only.  DM lock held,
 * so the session cannot go meanwhile.
 */
static void vortex_dump_announce(struct vortex_device *vdev,
				 const struct vortex_dump *d, size_t len)
{
	static char *envp[] = { "VORTEX_CRASH_DUMP=1", NULL };
	struct vortex_debug *dbg;
	unsigned long flags;
	u32 bytes = min_t(size_t, len, U32_MAX);
	u64 job = d->job;

	kobject_uevent_env(&vdev->drm.dev->kobj, KOBJ_CHANGE, envp);
	spin_lock_irqsave(&vdev->job_lock, flags);
	dbg = vdev->debug;
	if (dbg && d->owner && d->owner == dbg->target)
		vortex_debug_post(dbg, DRM_VORTEX_DEBUG_EVENT_DUMP, job, &bytes, 1);
	spin_unlock_irqrestore(&vdev->job_lock, flags);
}

static int vortex_dump_publish(struct vortex_device *vdev, struct vortex_dump *d)
{
	struct vortex_text t = {};
	enum vortex_dump_slot slot;

	/*
	 * A user who just discarded the last dump made room for this one:
	 * wait for that dump's link to go rather than drop this dump.  It
	 * goes at once unless devcoredump's work is starved (one CPU).
	 */
	read_poll_timeout(vortex_dump_slot, slot, slot != VORTEX_DUMP_SLOT_LEAVING,
			  1000, 200 * USEC_PER_MSEC, false, vdev);
	if (slot != VORTEX_DUMP_SLOT_FREE) {
		atomic_inc(&vdev->dumps_dropped);
		dev_warn_ratelimited(vdev->drm.dev,
				     "crash dump dropped: the last one is still there (write to /sys/class/devcoredump/devcd*/data to discard it)\n");
		return -EBUSY;
	}
	vortex_dump_render(vdev, d, &t);
	t.cap = t.len + 1;
	t.buf = vmalloc(t.cap);
	if (!t.buf) {
		dev_warn_ratelimited(vdev->drm.dev, "crash dump of %zu bytes: no memory\n", t.cap);
		return -ENOMEM;
	}
	t.len = 0;
	vortex_dump_render(vdev, d, &t);
	/* devcoredump owns the buffer from here, and vfree()s it. */
	dev_coredumpv(vdev->drm.dev, t.buf, t.len, GFP_NOWAIT);
	drm_info(&vdev->drm, "crash dump of job %llu: %zu bytes in /sys/class/devcoredump\n",
		 d->job, t.len);
	vdev->last_dump.bytes = t.len;
	vortex_dump_announce(vdev, d, t.len);
	return 0;
}

/**
 * vortex_dump_capture() - capture the card and publish a crash dump
 * @vdev: the device: DM lock held; in recovery, interrupt masked and the
 *	card not yet reset
 * @job: the job that failed or that a debugger asked about, or NULL
 * @error: -ETIMEDOUT or -EIO in recovery; 0 for a debugger's request, in
 *	which case the warps the capture halted run again afterwards
 *
 * Return: 0, -ENOMEM, or -EBUSY if an unread dump kept this one out.
 */
int vortex_dump_capture(struct vortex_device *vdev, struct vortex_job *job,
			int error)
{
	u64 budget = min_t(u64, (u64)vortex_dump_max_mb << 20,
			   ((u64)totalram_pages() << PAGE_SHIFT) / 32);
	u64 start = error ? vdev->recovery_start_ns : ktime_get_ns();
	u64 accesses = vdev->dm.accesses;
	u32 *running = NULL, regs_va = 0;
	struct vortex_dump *d;
	bool late = false;
	u64 window = 0;
	int ret;
	u32 i;

	u32 flags = job ? job->vfile->dump_flags : vortex_dump_default_flags;

	lockdep_assert_held(&vdev->dm.lock);
	if (error && (!vortex_dump_enable || flags & DRM_VORTEX_DUMP_NONE ||
		      (error == -EIO && flags & DRM_VORTEX_DUMP_NO_EXCEPTION)))
		return 0;
	d = kzalloc(sizeof(*d), VORTEX_DUMP_GFP);
	if (!d)
		return -ENOMEM;
	ktime_get_real_ts64(&d->time);
	d->error = error;
	d->flags = flags;
	d->last_fence = lower_32_bits(vdev->emit_seqno);
	for (i = 0; i < ARRAY_SIZE(d->regs); i++)
		d->regs[i] = vortex_read(vdev, i * 4);
	/* An assert's a0, a1, a3: expression, file, function (a2 the line). */
	if (job && d->regs[VX_REG_ERR_CAUSE / 4] == VX_ERR_ASSERT)
		for (i = 0; i < 3; i++)
			vortex_dump_string(vdev, job,
					   d->regs[VX_REG_ERR_INFO(i == 2 ? 3 : i) / 4],
					   d->assert[i]);

	if (vortex_dump_copy(vdev, &d->ring, vdev->devaddr + vdev->ring_node.start,
			     vdev->ring_size, &budget, false))
		vortex_dump_missing(d, "ring");
	if (job) {
		d->job = job->seqno;
		memcpy(d->launch, job->launch, sizeof(d->launch));
		d->code_id = job->code.id;
		if (job->code.id &&
		    vortex_dump_copy(vdev, &d->code, job->code.elf_addr,
				     job->code.elf_size, &budget, true))
			vortex_dump_missing(d, "kernel image");
		strscpy(d->comm, job->vfile->comm, sizeof(d->comm));
		d->owner = get_pid(job->vfile->pid);
		d->cmdline = kstrdup(job->vfile->cmdline, VORTEX_DUMP_GFP);
		d->bos = kcalloc(job->bo_count, sizeof(*d->bos), VORTEX_DUMP_GFP);
		for (i = 0; d->bos && i < job->bo_count; i++) {
			struct vortex_bo *bo = to_vortex_bo(job->bos[i]);

			if (!vortex_dump_all_bos &&
			    !(job->bo_flags[i] & DRM_VORTEX_SUBMIT_BO_DUMP))
				continue;
			d->bos[d->nbos].flags = job->bo_flags[i];
			d->bos[d->nbos].iova = vortex_bo_devaddr(bo);
			d->bos[d->nbos].size = bo->base.size;
			/* Recovery holds the card: half a timeout of copying at most. */
			if (error && ktime_get_ns() - start >
			    (u64)vortex_job_timeout_ms * NSEC_PER_MSEC / 2) {
				d->nbos++;
				late = true;
				continue;
			}
			if (!(flags & DRM_VORTEX_DUMP_SKIP_GLOBAL) &&
			    vortex_dump_copy(vdev, &d->bos[d->nbos], vortex_bo_devaddr(bo),
					     bo->base.size, &budget, false))
				vortex_dump_missing(d, "buffer contents");
			d->nbos++;
		}
		if (!budget)
			vortex_dump_missing(d, "buffer contents past dump_max_mb or a thirty-second of RAM");
		if (late)
			vortex_dump_missing(d, "buffer contents past half the hang timeout");
		if (flags & DRM_VORTEX_DUMP_SKIP_GLOBAL)
			vortex_dump_missing(d, "buffer contents (DRM_VORTEX_DUMP_SKIP_GLOBAL)");
	}
	if (!error) {
		/* On demand the card goes on: which warps to let run again. */
		running = kcalloc(vdev->dm.windows, sizeof(*running), VORTEX_DUMP_GFP);
		if (!running) {
			vortex_dump_free(d);
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
	d->elf = vortex_dump_elf(vdev, d, &d->elf_len);
	if (!d->elf)
		vortex_dump_missing(d, "cuda-coredump (no memory)");
	else if (flags & DRM_VORTEX_DUMP_COMPRESS_ELF)
		vortex_dump_compress_elf(d);	/* else it goes in as it is */
	if (running) {
		vortex_dm_set_mask(vdev, running);
		vortex_dm_request(vdev, VX_DCTRL_RESUMEREQ, NULL);
		kfree(running);
	}
	ret = vortex_dump_publish(vdev, d);
	if (!ret) {
		vdev->last_dump.publish_ns = ktime_get_ns() - start;
		vdev->last_dump.dm_accesses = vdev->dm.accesses - accesses;
		vdev->last_dump.lane_regs = (u64)d->nwarps * d->threads * VORTEX_WARP_REGS;
		vdev->last_dump.state_bytes = vortex_dump_state_bytes(d);
	}
	vortex_dump_free(d);
	return ret;
}

/**
 * vortex_dump_file_open() - a new file's dump flags: the module's default
 * @vfile: the file
 */
void vortex_dump_file_open(struct vortex_file *vfile)
{
	vfile->dump_flags = READ_ONCE(vortex_dump_default_flags);
}

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
	u64 size = PAGE_ALIGN(vortex_warp_dump_regs_size(vdev->num_threads));
	int ret;

	mutex_lock(&vdev->mm_lock);
	ret = drm_mm_insert_node_in_range(&vdev->mm, &vdev->dump_node, size, PAGE_SIZE,
					  0, 0, vdev->vram_size, DRM_MM_INSERT_HIGH);
	mutex_unlock(&vdev->mm_lock);
	if (ret)
		return ret;
	return drmm_add_action_or_reset(&vdev->drm, vortex_dump_release, vdev);
}

/**
 * vortex_dump_fini() - the card is going: discard its unread dump
 * @vdev: the device
 */
void vortex_dump_fini(struct vortex_device *vdev)
{
	dev_coredump_put(vdev->drm.dev);
}
