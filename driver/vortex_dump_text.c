// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Crash dump text
 *
 * A captured dump (struct vortex_dump) is rendered outside recovery, once,
 * by vortex_dump_render(): the CUDA-format ELF first (vortex_dump_elf.c,
 * zlib-compressed if the file asked), then the text, printed through a
 * drm_printer onto drm_coredump_printer()'s iterator twice: once without
 * a buffer to size it, once into a buffer of that size.  Reads of the
 * devcoredump then copy slices of that buffer, so reading a dump of any
 * size costs time linear in its size (msm instead prints the whole text
 * again for every read() of a chunk, quadratic in the dump's size).
 *
 * The layout is the MSM driver's (Documentation/gpu/msm-crash-dump.rst):
 * ``key: value`` lines, sections indented two spaces, list entries
 * starting ``- ``, buffer contents in ascii85 with trailing zero words left
 * out; the last section, ``cuda-coredump:``, holds the ELF, ascii85 too.
 */

#include <linux/ascii85.h>
#include <linux/bitmap.h>
#include <linux/hex.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include <drm/drm_print.h>

#include "vortex_accel.h"
#include "vortex_causes.h"
#include "vortex_device.h"
#include "vortex_dump.h"
#include "vortex_dump_state.h"

/*
 * An ascii85 block of @len (> 0) bytes, 64 groups a line, @indent deep.
 * A large dump is mostly this, so a line is built here and put at once.
 */
static void vortex_dump_print_ascii85(struct drm_printer *p, const char *indent,
				      const u32 *data, u64 len)
{
	char group[ASCII85_BUFSZ], line[64 * 5 + 2];
	long i, n = ascii85_encode_len(len);
	size_t used = 0;

	drm_printf(p, "%sdata: !!ascii85 |\n", indent);
	for (i = 0; i < n; i++) {
		const char *g = ascii85_encode(data[i], group);
		size_t glen = g[1] ? 5 : 1;	/* "z" or five digits */

		memcpy(line + used, g, glen);
		used += glen;
		if (i % 64 == 63 || i + 1 == n) {
			line[used++] = '\n';
			line[used] = 0;
			drm_puts(p, indent);
			drm_puts(p, "  ");
			drm_puts(p, line);
			used = 0;
			/* Megabytes of buffers: the worker yields between lines. */
			cond_resched();
		}
	}
}

/*
 * "0x1f, 0x0, ..." of @n words @stride apart into @out, as "%s0x%x" would
 * print them, NUL-terminated.
 */
static void vortex_dump_hex_list(char *out, const u32 *v, u32 n, u32 stride)
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
	*p = 0;
}

static const char *const vortex_dm_names[VX_DM_NREGS] = {
	"platform", "dconfig", "dselect", "wmask", "wactive", "wstatus",
	"dctrl", "dpc", "inject", "dscratch0", "dscratch1", "dscratch2",
	"dscratch3",
};

/*
 * A divergent branch's two sides as lane lists ("0-2,5"): ERR_INFO0-3
 * holds the lanes that take it, the rest of ERR_TMASK0-3 do not.
 */
static void vortex_dump_print_sides(struct drm_printer *p,
				    const struct vortex_dump *d)
{
	DECLARE_BITMAP(rest, 128);
	DECLARE_BITMAP(taken, 128);

	bitmap_from_arr32(rest, &d->regs[VX_REG_ERR_TMASK(0) / 4], 128);
	bitmap_from_arr32(taken, &d->regs[VX_REG_ERR_INFO(0) / 4], 128);
	bitmap_andnot(rest, rest, taken, 128);
	drm_printf(p, "    lanes-taken: %*pbl\n    lanes-not-taken: %*pbl\n",
		   128, taken, 128, rest);
}

static void vortex_dump_print_header(struct drm_printer *p,
				     const struct vortex_dump *d)
{
	const struct vortex_device *vdev = d->vdev;
	u32 cause = d->regs[VX_REG_ERR_CAUSE / 4], i;

	drm_printf(p, "kernel: %s\nmodule: %s\ndump-version: %u\ntime: %lld.%09ld\n",
		   init_utsname()->release, KBUILD_MODNAME, VORTEX_DUMP_VERSION,
		   (long long)d->time.tv_sec, d->time.tv_nsec);
	drm_printf(p, "comm: %s\ncmdline: %s\n", d->comm, d->cmdline ?: "");
	if (d->owner)
		drm_printf(p, "pid: %d\n", pid_nr(d->owner));
	drm_printf(p, "revision: 0x%08x (vortex.%u.%u.0)\n", vdev->version,
		   VX_VERSION_MAJOR(vdev->version), VX_VERSION_MINOR(vdev->version));
	drm_printf(p, "status: 0x%08x\n", d->regs[VX_REG_STATUS / 4]);
	drm_printf(p, "job: %llu\ncard-job: %llu\nerror: %s\n", d->job, d->card_job,
		   !d->error ? "requested" :
		   d->error == -ETIMEDOUT ? "timeout" : "exception");
	if (cause != VX_ERR_NONE) {
		drm_printf(p, "fault-info:\n  - cause: %u (%s)\n", cause,
			   vx_cause_text(cause));
		drm_printf(p, "    warp: %u\n    thread: %u\n    pc: 0x%08x\n    address: 0x%08x\n",
			   d->regs[VX_REG_ERR_WARP / 4], d->regs[VX_REG_ERR_THREAD / 4],
			   d->regs[VX_REG_ERR_PC / 4], d->regs[VX_REG_ERR_ADDR / 4]);
		if (cause == VX_ERR_ASSERT)
			drm_printf(p, "    assert: \"%s\"\n"
				   "    file: \"%s\"\n"
				   "    line: %u\n"
				   "    function: \"%s\"\n",
				   d->assert[0], d->assert[1],
				   d->regs[VX_REG_ERR_INFO(2) / 4], d->assert[2]);
		if (cause == VX_ERR_DIVERGENT_BRANCH)
			vortex_dump_print_sides(p, d);
	}
	/*
	 * As msm's pgtable-fault-info: the space the address was looked up
	 * in, and each level's PTE of its walk, level 1 first (msm prints
	 * "ptes: %.16llx ..." the same way, one per level of its tables).
	 */
	if (cause >= VX_ERR_FETCH_PAGE_FAULT && cause <= VX_ERR_STORE_PAGE_FAULT) {
		u32 satp = d->launch[VX_LAUNCH_SATP];

		drm_printf(p, "pgtable-fault-info:\n"
			   "  - satp: 0x%08x\n"
			   "    asid: %u\n"
			   "    root: 0x%08llx\n",
			   satp, VX_SATP_ASID(satp),
			   (u64)VX_SATP_PPN(satp) << VX_PAGE_SHIFT);
		drm_printf(p, "    va: 0x%08x\n    ptes:", d->walk.va);
		for (i = 0; i < d->walk.levels; i++)
			drm_printf(p, " %08x", d->walk.ptes[i]);
		drm_puts(p, "\n");
	}
	/* As msm's vm-log: "op:job: first-end", oldest first. */
	if (d->vm_log_len)
		drm_puts(p, "vm-log:\n");
	for (i = 0; i < d->vm_log_len; i++) {
		const struct vortex_vm_log_entry *e = &d->vm_log[i];

		drm_printf(p, "  - %s:%llu: 0x%016llx-0x%016llx\n",
			   e->op == VORTEX_VM_LOG_MAP ? "map" : "unmap", e->job,
			   e->va, e->va + e->range);
	}
}

/* "    label: \"...\"": printable ASCII, '"' and '\\' escaped. */
static void vortex_dump_print_label(struct drm_printer *p, const char *label)
{
	char buf[2 * DRM_VORTEX_BO_LABEL_MAX + 1], *o = buf;

	for (; *label; label++) {
		if (*label == '"' || *label == '\\')
			*o++ = '\\';
		*o++ = *label;
	}
	*o = 0;
	drm_printf(p, "    label: \"%s\"\n", buf);
}

static void vortex_dump_print_memory(struct drm_printer *p,
				     const struct vortex_dump *d)
{
	u32 i;

	drm_printf(p, "ringbuffer:\n  - id: 0\n    iova: 0x%016llx\n", d->ring.iova);
	drm_printf(p, "    last-fence: %u\n    retired-fence: %u\n", d->last_fence,
		   d->regs[VX_REG_FENCE_SEQNO / 4]);
	drm_printf(p, "    rptr: %u\n    wptr: %u\n    size: %llu\n",
		   d->regs[VX_REG_RING_HEAD / 4], d->regs[VX_REG_RING_TAIL / 4],
		   d->ring.size);
	if (d->ring.len)
		vortex_dump_print_ascii85(p, "    ", d->ring.data, d->ring.len);

	drm_printf(p, "bos:\n");
	for (i = 0; i < d->nbos; i++) {
		const struct vortex_dump_bo *b = &d->bos[i];

		drm_printf(p, "  - iova: 0x%016llx\n"
			   "    size: %llu\n"
			   "    flags: 0x%x\n"
			   "    name: bo%u\n",
			   b->iova, b->size, b->flags, i);
		if (b->label[0])
			vortex_dump_print_label(p, b->label);
		if (b->len)
			vortex_dump_print_ascii85(p, "    ", b->data, b->len);
	}

	drm_printf(p, "registers:\n");
	for (i = 0; i < ARRAY_SIZE(d->regs); i++)
		drm_printf(p, "  - { offset: 0x%04x, value: 0x%08x }\n", i * 4, d->regs[i]);
	drm_printf(p, "debug-module:\n");
	for (i = 0; i < VX_DM_NREGS; i++)
		drm_printf(p, "  - { reg: 0x%x, name: %s, value: 0x%08x }\n", i,
			   vortex_dm_names[i], d->dm[i]);
}

static void vortex_dump_print_warps(struct drm_printer *p,
				    const struct vortex_dump *d)
{
	char list[32 * 12 + 1];
	u32 i, l;

	drm_printf(p, "warps:\n");
	for (i = 0; i < d->nwarps; i++) {
		const struct vortex_dump_warp *w = &d->warps[i];

		cond_resched();

		drm_printf(p, "  - id: %u\n    cluster: %u\n    core: %u\n    warp-in-core: %u\n",
			   w->st.warp, w->st.cluster, w->st.core, w->st.warp_in_core);
		drm_printf(p, "    halted: %s\n"
			   "    halt-cause: %u\n"
			   "    pc: 0x%08x\n"
			   "    thread-mask: 0x%08x\n",
			   w->st.state & DRM_VORTEX_DEBUG_WARP_HALTED ? "yes" : "no",
			   w->st.cause, w->st.pc, w->st.thread_mask[0]);
		drm_printf(p, "    block: [%u, %u, %u]\n", w->st.block_idx[0],
			   w->st.block_idx[1], w->st.block_idx[2]);
		if (!w->regs)
			continue;
		drm_printf(p, "    threads:\n");
		for (l = 0; l < d->threads; l++) {
			if (!vortex_dump_lane_listed(w, l))
				continue;
			drm_printf(p, "      - lane: %u\n", l);
			vortex_dump_hex_list(list, w->regs + l, 32, d->threads);
			drm_printf(p, "        x: [%s]\n", list);
			vortex_dump_hex_list(list, w->regs + 32 * d->threads + l, 32,
					     d->threads);
			drm_printf(p, "        f: [%s]\n", list);
			drm_printf(p, "        fcsr: 0x%x\n", w->regs[64 * d->threads + l]);
		}
	}
}

/*
 * The console: each hardware thread's text as a quoted string, threads in
 * the order they first printed, bytes escaped as C escapes them.
 */
static void vortex_dump_print_console(struct drm_printer *p, const struct vortex_dump *d)
{
	char buf[8];
	u32 i, j, hart;

	if (!d->console_len && !d->console_dropped)
		return;
	drm_printf(p, "console:\n  dropped: %llu\n  threads:\n", d->console_dropped);
	for (i = 0; i < d->console_len; i++) {
		hart = DRM_VORTEX_CONSOLE_HART(d->console[i]);
		for (j = 0; j < i && DRM_VORTEX_CONSOLE_HART(d->console[j]) != hart; j++)
			;
		if (j < i)
			continue;	/* printed with its first record */
		drm_printf(p, "    - hart: %u\n      text: \"", hart);
		for (j = i; j < d->console_len; j++) {
			u8 ch = DRM_VORTEX_CONSOLE_CHAR(d->console[j]);

			if (DRM_VORTEX_CONSOLE_HART(d->console[j]) != hart)
				continue;
			if (ch == '\n')
				strscpy(buf, "\\n", sizeof(buf));
			else if (ch == '"' || ch == '\\')
				snprintf(buf, sizeof(buf), "\\%c", ch);
			else if (ch < 0x20 || ch > 0x7e)
				snprintf(buf, sizeof(buf), "\\x%02x", ch);
			else
				snprintf(buf, sizeof(buf), "%c", ch);
			drm_puts(p, buf);
		}
		drm_puts(p, "\"\n");
	}
}

/* The whole text of @d, its ELF already built. */
static void vortex_dump_print(struct drm_printer *p, const struct vortex_dump *d)
{
	vortex_dump_print_header(p, d);
	vortex_dump_print_memory(p, d);
	vortex_dump_print_warps(p, d);
	vortex_dump_print_console(p, d);
	if (d->elf) {
		drm_printf(p, "cuda-coredump:\n  size: %zu\n", d->elf_size ?: d->elf_len);
		if (d->elf_size)
			drm_printf(p, "  encoding: zlib\n  stored-size: %zu\n", d->elf_len);
		vortex_dump_print_ascii85(p, "  ", d->elf, d->elf_len);
	}
	if (d->missing[0])
		drm_printf(p, "not-captured: %s\n", d->missing);
}

/* Prints @d into @buf (NULL: only counts); the bytes printed. */
static size_t vortex_dump_print_into(const struct vortex_dump *d, char *buf,
				     size_t cap)
{
	struct drm_print_iterator iter = {
		.data = buf,
		.start = 0,
		.remain = buf ? cap : SSIZE_MAX,
	};
	struct drm_printer p = drm_coredump_printer(&iter);

	vortex_dump_print(&p, d);
	return iter.offset;
}

/**
 * vortex_dump_render() - render a captured dump: its ELF, then its text
 * @d: the dump, captured; not in recovery
 *
 * Fills @d->elf and @d->text; either may stay NULL without memory, which
 * the text or vortex_dump_publish.c's reader then says.
 */
void vortex_dump_render(struct vortex_dump *d)
{
	size_t len;

	d->elf = vortex_dump_elf(d->vdev, d, &d->elf_len);
	if (!d->elf)
		vortex_dump_missing(d, "cuda-coredump (no memory)");
	else if (d->flags & DRM_VORTEX_DUMP_COMPRESS_ELF)
		vortex_dump_compress_elf(d);	/* else it goes in as it is */

	len = vortex_dump_print_into(d, NULL, 0);
	d->text = kvmalloc(len + 1, VORTEX_RECOVERY_GFP);
	if (d->text)
		d->text_len = vortex_dump_print_into(d, d->text, len + 1);
}
