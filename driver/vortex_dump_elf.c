// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: The CUDA-format coredump ELF
 *
 * Next to its text, a crash dump carries the same state as an ELF core in
 * the layout of CUDA coredumps (NVIDIA's cudacoredump.h, the r550 row
 * sizes), so CUDA's readers can open it: ELF64 ET_CORE, e_machine EM_CUDA
 * (0xbe), EI_OSABI ELFOSABI_CUDA (0x33), EI_ABIVERSION 7, and the section
 * names, types, link and info fields that header gives, with the string
 * table as ``.strtab``.  How Vortex maps onto it:
 *
 * - one device (``.cudbg.devtbl``): devName "Vortex", devType "vortex",
 *   smType "sm_75" (what CUDA readers can parse: struct cudbg_dev; the
 *   real ISA, rv32imf, is in ``.note.vortex.isa``); an SM is a core and a
 *   warp a warp, split into CUDA-sized ones where the card is wider than
 *   CUDA readers accept (at most 32 lanes per warp and 64 warps per SM:
 *   struct elf_split, and the ``.note.vortex.split`` note),
 *   numRegsPerLane 255 as on NVIDIA's SMs, of which each lane's
 *   ``.cudbg.regs`` holds the first 64 (x0-x31 then f0-f31; fcsr is in
 *   the text; readers read the rest as zero), instructionSize 4;
 * - one context, and one module with the job's kernel ELF as its
 *   ``.cudbg.relfimg`` when the runtime registered it as a code object,
 *   else a RISC-V ELF header alone (elf_blank_image; a code object that
 *   is no ELF is ``.vortex.code``);
 * - one grid, the job: its argument block as ``.cudbg.param`` and as
 *   constant bank 0 in ``.cudbg.cbankstbl``;
 * - per core, its blocks (CTAs); per block, its warps; per warp, its lanes
 *   with their registers, the current frame as ``.cudbg.bt`` and the
 *   lane's stack slice as ``.cudbg.local`` when the job has a stack;
 * - the job's buffers as ``.cudbg.global.N`` at their device addresses
 *   (as captured: trailing zero words left out).
 *
 * A device exception marks the faulting lane with the warp-level
 * CUDBGException_t code CUDA readers handle, and its warp with errorPC.
 */

#include <linux/elf.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "vortex_causes.h"
#include "vortex_device.h"
#include "vortex_dump.h"
#include "vortex_dump_state.h"

#define EM_CUDA_		0xbe
#define EI_ABIVERSION_		8	/* e_ident[] index; <linux/elf.h> lacks it */
#define SHN_XINDEX_		0xffff	/* <linux/elf.h> lacks it too */
#define ELFOSABI_CUDA		0x33
#define CUDA_ABIVERSION		7

#define CUDBG_SHT(n)		(0x80000000u + (n))
#define CUDBG_SHT_GLOBAL_MEM	CUDBG_SHT(2)
#define CUDBG_SHT_LOCAL_MEM	CUDBG_SHT(3)
#define CUDBG_SHT_DEV_REGS	CUDBG_SHT(5)
#define CUDBG_SHT_RELF_IMG	CUDBG_SHT(7)
#define CUDBG_SHT_BT		CUDBG_SHT(8)
#define CUDBG_SHT_DEV_TABLE	CUDBG_SHT(9)
#define CUDBG_SHT_CTX_TABLE	CUDBG_SHT(10)
#define CUDBG_SHT_SM_TABLE	CUDBG_SHT(11)
#define CUDBG_SHT_GRID_TABLE	CUDBG_SHT(12)
#define CUDBG_SHT_CTA_TABLE	CUDBG_SHT(13)
#define CUDBG_SHT_WP_TABLE	CUDBG_SHT(14)
#define CUDBG_SHT_LN_TABLE	CUDBG_SHT(15)
#define CUDBG_SHT_MOD_TABLE	CUDBG_SHT(16)
#define CUDBG_SHT_PARAM_MEM	CUDBG_SHT(18)
#define CUDBG_SHT_CB_TABLE	CUDBG_SHT(21)

#define CUDBG_GRID_STATUS_ACTIVE	2
#define CUDBG_KNL_TYPE_APPLICATION	2
#define CUDBG_KNL_ORIGIN_CPU		0

#define VORTEX_ELF_REGS		64	/* x0-x31, f0-f31 */

/*
 * The device row as cuda-gdb 11.8 and 12.4 both read it.  12.4 parses
 * smType as "sm_<version>" and stops on anything else ("unknown sm_type
 * rv32imf", then an abort); it takes 8-byte instructions below sm_70 and
 * 16-byte ones from it, and neither is RV32's 4, so no SM disassembles
 * these words, and cuda-gdb names the registers R0..R254 whatever the SM.
 * sm_75 (Turing) is the oldest SM CUDA 13 still builds for, so readers
 * after 12.4 keep it, and 11.8 knows it.  cuda-gdb 12.4 also expects
 * R0-R254 (its register numbers are fixed; with fewer, `info registers`
 * and `info frame` stop on gdb's "gdbarch_register_name" assertion):
 * NVIDIA's devices give 255 and their dumps' register sections hold only
 * the registers a kernel uses, as ours hold 64 (libcudacore reads the
 * rest as zero).  docs/driver.md, "The CUDA ELF's device row".
 */
#define VORTEX_ELF_SM_TYPE	"sm_75"
#define VORTEX_ELF_SM_MAJOR	7
#define VORTEX_ELF_SM_MINOR	5
#define VORTEX_ELF_DEV_REGS	255
#define VORTEX_ELF_ISA		"rv32imf"

/* The table rows, at the r550 sizes. */
struct cudbg_dev {
	u64 dev_name, dev_type, sm_type;
	u32 dev_id, pci_bus_id, pci_dev_id, num_sms, num_warps_per_sm,
	    num_lanes_per_warp, num_regs_per_lane, num_predicates_per_lane,
	    sm_major, sm_minor, instruction_size, status,
	    num_uniform_regs_per_warp, num_uniform_predicates_per_warp;
};

struct cudbg_ctx {
	u64 context_id, shared_window_base, local_window_base, global_window_base;
	u32 device_idx, tid;
};

struct cudbg_mod {
	u64 module_handle;
};

struct cudbg_grid {
	u64 grid_id, context_id, function, function_entry, module_handle,
	    parent_grid_id, params_offset;
	u32 kernel_type, origin, grid_status, num_regs, grid_dim[3],
	    block_dim[3], attr_launch_blocking, attr_host_tid, cluster_dim[3],
	    pad;
};

struct cudbg_cbank {
	u64 addr;
	u32 size, bank_id;
};

struct cudbg_sm {
	u32 sm_id, pad;
};

struct cudbg_cta {
	u64 grid_id;
	u32 block_idx[3], pad0, cluster_idx[3], pad1;
};

struct cudbg_warp {
	u64 error_pc;
	u32 warp_id, valid_lanes, active_lanes, is_broken, error_pc_valid,
	    pad0, num_regs, pad1;
};

struct cudbg_lane {
	u64 virtual_pc, phys_pc;
	u32 ln, thread_idx[3], exception, call_depth, syscall_call_depth,
	    cc_register;
};

struct cudbg_bt {
	u64 return_address, virtual_return_address;
	u32 level, pad;
};

static_assert(sizeof(struct cudbg_dev) == 80);
static_assert(sizeof(struct cudbg_ctx) == 40);
static_assert(sizeof(struct cudbg_grid) == 120);
static_assert(sizeof(struct cudbg_cta) == 40);
static_assert(sizeof(struct cudbg_warp) == 40);
static_assert(sizeof(struct cudbg_lane) == 48);
static_assert(sizeof(struct cudbg_bt) == 24);

/*
 * The writer: run once with @buf NULL to size the file, then again to
 * fill it.  Section data follows the ELF header, 8-byte aligned; the
 * section headers come last.
 */
struct elfw {
	u8 *buf;
	size_t off;		/* next data byte */
	Elf64_Shdr *sh;		/* section headers, when filling */
	u32 nsh;		/* sections so far (0 is the null one) */
	char *str;		/* .strtab contents, when filling */
	u32 strlen;		/* its bytes so far */
};

static u32 elfw_string(struct elfw *w, const char *s)
{
	u32 at = w->strlen, n = strlen(s) + 1;

	if (w->str)
		memcpy(w->str + at, s, n);
	w->strlen += n;
	return at;
}

static __printf(9, 10) u32 elfw_section(struct elfw *w, u32 type, u64 addr,
					const void *data, size_t size,
					u32 entsize, u32 link, u32 info,
					const char *fmt, ...)
{
	char name[96];
	va_list args;
	u32 idx = ++w->nsh;

	va_start(args, fmt);
	vsnprintf(name, sizeof(name), fmt, args);
	va_end(args);

	w->off = ALIGN(w->off, 8);
	if (w->sh) {
		Elf64_Shdr *sh = &w->sh[idx];

		sh->sh_name = elfw_string(w, name);
		sh->sh_type = type;
		sh->sh_addr = addr;
		sh->sh_offset = w->off;
		sh->sh_size = size;
		sh->sh_link = link;
		sh->sh_info = info;
		sh->sh_addralign = 8;
		sh->sh_entsize = entsize;
		if (data)
			memcpy(w->buf + w->off, data, size);
	} else {
		elfw_string(w, name);
	}
	w->off += size;
	return idx;
}

/*
 * The module of a job whose code no runtime registered as a code object (a
 * client of the bare ioctls, as the selftests are), or whose code object
 * is no ELF: a RISC-V ELF header and nothing else.  CUDA readers look a
 * grid's module up by its handle and stop without one (cuda-gdb 11.8 and
 * 12.4: "kernels_start_kernel: Assertion `module' failed"), and load its
 * image as an ELF object, refusing the whole dump otherwise ("can't read
 * symbols: file format not recognized"; issue 38).  Code object bytes that
 * are no ELF go to ".vortex.code", which CUDA readers skip.
 */
static const struct elf32_hdr elf_blank_image = {
	.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS32, ELFDATA2LSB,
		     EV_CURRENT },
	.e_type = ET_EXEC,
	.e_machine = EM_RISCV,
	.e_version = EV_CURRENT,
	.e_ehsize = sizeof(struct elf32_hdr),
};

static bool elf_code_is_elf(const struct vortex_dump *d)
{
	return d->code.len >= SELFMAG && !memcmp(d->code.data, ELFMAG, SELFMAG);
}

/*
 * CUDA-sized SMs and warps.  cuda-gdb reads at most 32 lanes per warp and
 * 64 warps per SM (CUDBG_MAX_LANES, CUDBG_MAX_WARPS: past them it stops
 * with "internal-error: ... m_num_lanes <= CUDBG_MAX_LANES").  A card past
 * either is written as a CUDA-sized one:
 *
 * - a warp of T > 32 lanes as T / 32 virtual warps ("parts") of 32 lanes,
 *   part h holding lanes 32h to 32h + 31 as its lanes 0 to 31;
 * - a core's virtual warps as SMs of at most 64: part h of warp w of core
 *   c is warp v % 64 of SM c * S + v / 64, v = w * parts + h, S the SMs per
 *   core.
 *
 * A card within both limits is written as it is (parts 1, one SM per
 * core).  The ".note.vortex.split" note gives parts, lanes per virtual
 * warp, virtual warps per SM and SMs per core (docs/driver.md).
 */
#define CUDBG_MAX_LANES		32
#define CUDBG_MAX_WARPS		64

struct elf_split {
	u32 parts;	/* virtual warps per warp */
	u32 lanes;	/* lanes per virtual warp */
	u32 per_sm;	/* virtual warps per SM */
	u32 spc;	/* SMs per core */
	u32 cores;	/* of the card */
	u32 warps;	/* per core, the card's */
	u32 threads;	/* per warp, the card's */
};

static void elf_split_init(struct elf_split *s, const struct vortex_device *vdev)
{
	u32 vwarps;

	s->lanes = min_t(u32, vdev->num_threads, CUDBG_MAX_LANES);
	s->parts = DIV_ROUND_UP(vdev->num_threads, CUDBG_MAX_LANES);
	vwarps = vdev->num_warps * s->parts;
	s->per_sm = min_t(u32, vwarps, CUDBG_MAX_WARPS);
	s->spc = DIV_ROUND_UP(vwarps, CUDBG_MAX_WARPS);
	s->cores = vdev->num_clusters * vdev->num_cores;
	s->warps = vdev->num_warps;
	s->threads = vdev->num_threads;
}

/* Part @h of warp @dw: its index among its core's virtual warps. */
static u32 vwarp_index(const struct elf_split *s,
		       const struct vortex_dump_warp *dw, u32 h)
{
	return dw->st.warp_in_core * s->parts + h;
}

/* The SM part @h of warp @dw is on. */
static u32 vwarp_sm(const struct elf_split *s, const struct vortex_device *vdev,
		    const struct vortex_dump_warp *dw, u32 h)
{
	u32 core = dw->st.cluster * vdev->num_cores + dw->st.core;

	return core * s->spc + vwarp_index(s, dw, h) / s->per_sm;
}

/* Whether part @h of @a and part @i of @b run one block on one SM. */
static bool same_cta(const struct elf_split *s, const struct vortex_device *vdev,
		     const struct vortex_dump_warp *a, u32 h,
		     const struct vortex_dump_warp *b, u32 i)
{
	return vwarp_sm(s, vdev, a, h) == vwarp_sm(s, vdev, b, i) &&
	       !memcmp(a->st.block_idx, b->st.block_idx, sizeof(a->st.block_idx));
}

/* Lanes of part @h of a warp in the dump (vortex_dump_lane_listed()). */
static u32 dump_lanes(const struct elf_split *s, const struct vortex_dump_warp *dw,
		      u32 h)
{
	u32 mask = 0, l;

	for (l = 0; l < s->lanes; l++)
		if (vortex_dump_lane_listed(dw, h * CUDBG_MAX_LANES + l))
			mask |= BIT(l);
	return mask;
}

/*
 * Each lane's registers, current frame and stack top, for the lanes @mask
 * holds of part @h of the warp.  The stack bytes come from the snapshot:
 * a captured buffer that holds them (@scratch receives them then, when
 * filling), else the warp's own copy of the lanes' stacks no captured
 * buffer holds.
 */
static void elfw_lanes(struct elfw *w, const struct vortex_dump *d,
		       const struct elf_split *s, const struct vortex_dump_warp *dw,
		       u32 h, u32 mask, u8 *scratch, u32 lntbl, u32 sm, u32 cta, u32 wp)
{
	u64 slice = d->launch[VX_LAUNCH_STACK_SIZE], top;
	u32 vl, lane, r, n = 0, take = d->stack_take;
	u32 regs[VORTEX_ELF_REGS];
	const u8 *stack;

	for (vl = 0; vl < s->lanes; vl++) {
		struct cudbg_bt bt = { .level = 0 };

		if (!(mask & BIT(vl)))
			continue;
		lane = h * CUDBG_MAX_LANES + vl;
		for (r = 0; r < VORTEX_ELF_REGS; r++)
			regs[r] = dw->regs ? dw->regs[r * d->threads + lane] : 0;
		elfw_section(w, CUDBG_SHT_DEV_REGS, 0, regs, sizeof(regs), 4,
			     lntbl, n, ".cudbg.regs.dev0.sm%u.cta%u.wp%u.ln%u",
			     sm, cta, wp, n);
		bt.virtual_return_address = regs[1];	/* ra */
		elfw_section(w, CUDBG_SHT_BT, 0, &bt, sizeof(bt), sizeof(bt),
			     lntbl, n, ".cudbg.bt.dev0.sm%u.cta%u.wp%u.ln%u",
			     sm, cta, wp, n);
		/* The top of the lane's stack slice (hardware thread id x size). */
		top = d->launch[VX_LAUNCH_STACK_BASE] +
		      ((u64)dw->st.warp * d->threads + lane + 1) * slice;
		if (take && vortex_dump_read_captured(d, top - take, take,
						      w->buf ? scratch : NULL))
			stack = scratch;
		else if (dw->stack)
			stack = dw->stack + lane * take;
		else
			stack = NULL;
		if (stack)
			elfw_section(w, CUDBG_SHT_LOCAL_MEM, top - take, stack, take, 0,
				     lntbl, n, ".cudbg.local.dev0.sm%u.cta%u.wp%u.ln%u",
				     sm, cta, wp, n);
		n++;
	}
}

/*
 * The zero tails of the buffers: a CUDBG_SHT_GLOBAL_MEM section
 * ".cudbg.global.N.tail" after each ".cudbg.global.N" whose captured bytes
 * end in zero words, so a CUDA reader finds every captured byte (cuda-gdb
 * says "Global memory is not available in this corefile" for an address
 * no section holds).  The tails share one run of zeros in the file, as
 * long as the longest, so they cost that once.
 */
static void elfw_zero_tails(struct elfw *w, const struct vortex_dump *d)
{
	u64 longest = 0, tail;
	size_t zeros;
	u32 i;

	for (i = 0; i < d->nbos; i++)
		longest = max(longest, d->bos[i].captured - d->bos[i].len);
	if (!longest)
		return;
	zeros = ALIGN(w->off, 8);
	for (i = 0; i < d->nbos; i++) {
		tail = d->bos[i].captured - d->bos[i].len;
		if (!tail)
			continue;
		w->off = zeros;		/* the buffer is zeroed: no data to copy */
		elfw_section(w, CUDBG_SHT_GLOBAL_MEM, d->bos[i].iova + d->bos[i].len,
			     NULL, tail, 0, 0, 0, ".cudbg.global.%u.tail", i);
	}
	w->off = zeros + longest;
}

/* The note of a buffer's label: "Vortex", then iova, size and the label. */
#define VORTEX_NOTE_NAME	"Vortex"
#define VORTEX_NOTE_BO_LABEL	1

static size_t elfw_label_note(u8 *at, const struct vortex_dump_bo *b)
{
	size_t name = ALIGN(sizeof(VORTEX_NOTE_NAME), 4);
	size_t desc = 16 + ALIGN(strlen(b->label) + 1, 4);
	struct elf64_note nh = {
		.n_namesz = sizeof(VORTEX_NOTE_NAME),
		.n_descsz = desc,
		.n_type = VORTEX_NOTE_BO_LABEL,
	};

	if (at) {
		memcpy(at, &nh, sizeof(nh));
		memcpy(at + sizeof(nh), VORTEX_NOTE_NAME, sizeof(VORTEX_NOTE_NAME));
		memcpy(at + sizeof(nh) + name, &b->iova, 8);
		memcpy(at + sizeof(nh) + name + 8, &b->size, 8);
		strscpy(at + sizeof(nh) + name + 16, b->label, desc - 16);
	}
	return sizeof(nh) + name + desc;
}

/*
 * ".note.vortex.bo": an ELF note (SHT_NOTE, readelf -n shows it) for each
 * labelled buffer (DRM_IOCTL_VORTEX_BO_SET_LABEL): name "Vortex", type
 * VORTEX_NOTE_BO_LABEL, desc its device address and size (two u64) and
 * the label, NUL-padded to a multiple of 4.  CUDA readers skip it.
 */
static void elfw_labels(struct elfw *w, const struct vortex_dump *d)
{
	size_t size = 0;
	u8 *at = NULL;
	u32 i;

	for (i = 0; i < d->nbos; i++)
		if (d->bos[i].label[0])
			size += elfw_label_note(NULL, &d->bos[i]);
	if (!size)
		return;
	if (w->buf)
		at = w->buf + ALIGN(w->off, 8);
	for (i = 0; at && i < d->nbos; i++)
		if (d->bos[i].label[0])
			at += elfw_label_note(at, &d->bos[i]);
	elfw_section(w, SHT_NOTE, 0, NULL, size, 0, 0, 0, ".note.vortex.bo");
}

/*
 * Whether part @h of warp @i is on SM @sm and the first of its block
 * there: no part before it (in warp, then part order) runs that block on
 * that SM.
 */
static bool cta_first(const struct elf_split *s, const struct vortex_device *vdev,
		      const struct vortex_dump *d, u32 sm, u32 i, u32 h)
{
	const struct vortex_dump_warp *a = &d->warps[i];
	u32 j, k;

	if (vwarp_sm(s, vdev, a, h) != sm)
		return false;
	for (j = 0; j <= i; j++)
		for (k = 0; k < (j < i ? s->parts : h); k++)
			if (same_cta(s, vdev, &d->warps[j], k, a, h))
				return false;
	return true;
}

/*
 * Block @cta of SM @sm, whose first virtual warp is part @h of warp @i:
 * its row in @ctas (when filling), its warp table, and each of its warps'
 * lane table and lanes.
 */
static void elfw_cta(struct elfw *w, const struct vortex_device *vdev,
		     const struct vortex_dump *d, const struct elf_split *s,
		     u8 *scratch, u32 ctatbl, struct cudbg_cta *ctas,
		     u32 sm, u32 cta, u32 i, u32 h)
{
	const struct vortex_dump_warp *first = &d->warps[i];
	u32 cause = d->regs[VX_REG_ERR_CAUSE / 4];
	u32 err_warp = d->regs[VX_REG_ERR_WARP / 4];
	u32 err_lane = d->regs[VX_REG_ERR_THREAD / 4];
	u32 bx = max(d->launch[VX_LAUNCH_BLOCK_X], 1u);
	u32 by = max(d->launch[VX_LAUNCH_BLOCK_Y], 1u);
	u32 k, p, n, wp, wptbl, lntbl, vl, l;
	struct cudbg_warp *wps = NULL;

	if (ctas)
		ctas[cta] = (struct cudbg_cta){
			.grid_id = d->job,
			.block_idx = { first->st.block_idx[0], first->st.block_idx[1],
				       first->st.block_idx[2] },
		};
	for (k = i, n = 0; k < d->nwarps; k++)
		for (p = 0; p < s->parts; p++)
			n += same_cta(s, vdev, &d->warps[k], p, first, h);
	if (w->buf)
		wps = (struct cudbg_warp *)(w->buf + ALIGN(w->off, 8));
	wptbl = elfw_section(w, CUDBG_SHT_WP_TABLE, 0, NULL, n * sizeof(*wps),
			     sizeof(*wps), ctatbl, cta,
			     ".cudbg.wptbl.dev0.sm%u.cta%u", sm, cta);

	for (k = i, wp = 0; k < d->nwarps; k++) {
		const struct vortex_dump_warp *dw = &d->warps[k];

		for (p = 0; p < s->parts; p++) {
			u32 mask = dump_lanes(s, dw, p);
			struct cudbg_lane *lns = NULL;
			/* the part holding the faulting lane (all, without one) */
			bool faulted = cause != VX_ERR_NONE && dw->st.warp == err_warp &&
				       (err_lane >= d->threads ||
					err_lane / CUDBG_MAX_LANES == p);

			if (!same_cta(s, vdev, dw, p, first, h))
				continue;
			if (wps)
				wps[wp] = (struct cudbg_warp){
					.error_pc = faulted ? d->regs[VX_REG_ERR_PC / 4] : 0,
					.error_pc_valid = faulted,
					.warp_id = vwarp_index(s, dw, p) % s->per_sm,
					.valid_lanes = mask,
					.active_lanes = mask,
					.is_broken = dw->st.cause == VX_HACAUSE_EBREAK,
					.num_regs = VORTEX_ELF_REGS,
				};
			if (w->buf)
				lns = (struct cudbg_lane *)(w->buf + ALIGN(w->off, 8));
			lntbl = elfw_section(w, CUDBG_SHT_LN_TABLE, 0, NULL,
					     hweight32(mask) * sizeof(*lns), sizeof(*lns),
					     wptbl, wp, ".cudbg.lntbl.dev0.sm%u.cta%u.wp%u",
					     sm, cta, wp);
			for (vl = 0, l = 0; lns && vl < s->lanes; vl++) {
				u32 lane = p * CUDBG_MAX_LANES + vl;
				u32 lin = dw->st.warp_in_block * d->threads + lane;

				if (!(mask & BIT(vl)))
					continue;
				lns[l++] = (struct cudbg_lane){
					.virtual_pc = dw->st.pc,
					.phys_pc = dw->st.pc - d->launch[VX_LAUNCH_ENTRY],
					.ln = vl,
					.thread_idx = { lin % bx, lin / bx % by, lin / bx / by },
					.exception = faulted && lane == err_lane ?
						     vx_cause_cuda_exception(cause) : 0,
				};
			}
			elfw_lanes(w, d, s, dw, p, mask, scratch, lntbl, sm, cta, wp);
			wp++;
		}
	}
}

/*
 * ".note.vortex.split": how the card's cores, warps and lanes map onto the
 * ELF's SMs, warps and lanes (see struct elf_split): name "Vortex", type
 * VORTEX_NOTE_SPLIT, desc six u32: virtual warps per warp, lanes per
 * virtual warp, virtual warps per SM, SMs per core, and the card's warps
 * per core and lanes per warp.  CUDA readers skip it.
 */
#define VORTEX_NOTE_SPLIT	2

static void elfw_split_note(struct elfw *w, const struct elf_split *s)
{
	struct {
		struct elf64_note nh;
		char name[ALIGN(sizeof(VORTEX_NOTE_NAME), 4)];
		u32 desc[6];
	} note = {
		.nh = {
			.n_namesz = sizeof(VORTEX_NOTE_NAME),
			.n_descsz = sizeof(note.desc),
			.n_type = VORTEX_NOTE_SPLIT,
		},
		.name = VORTEX_NOTE_NAME,
		.desc = { s->parts, s->lanes, s->per_sm, s->spc, s->warps, s->threads },
	};

	elfw_section(w, SHT_NOTE, 0, &note, sizeof(note), 0, 0, 0,
		     ".note.vortex.split");
}

/*
 * ".note.vortex.isa": what the device row cannot say (its smType is one
 * CUDA readers parse): name "Vortex", type VORTEX_NOTE_ISA, desc the
 * card's revision (u32, the text's "revision:") and its ISA, a
 * NUL-terminated string padded to 4 bytes.  CUDA readers skip it;
 * vortex-coredump's summary names it.
 */
#define VORTEX_NOTE_ISA		3

static void elfw_isa_note(struct elfw *w, const struct vortex_device *vdev)
{
	struct {
		struct elf64_note nh;
		char name[ALIGN(sizeof(VORTEX_NOTE_NAME), 4)];
		u32 revision;
		char isa[ALIGN(sizeof(VORTEX_ELF_ISA), 4)];
	} note = {
		.nh = {
			.n_namesz = sizeof(VORTEX_NOTE_NAME),
			.n_descsz = sizeof(note.revision) + sizeof(note.isa),
			.n_type = VORTEX_NOTE_ISA,
		},
		.name = VORTEX_NOTE_NAME,
		.revision = vdev->version,
		.isa = VORTEX_ELF_ISA,
	};

	elfw_section(w, SHT_NOTE, 0, &note, sizeof(note), 0, 0, 0,
		     ".note.vortex.isa");
}

/* One pass of the writer over the whole dump. */
static void elfw_dump(struct elfw *w, struct vortex_device *vdev,
		      const struct vortex_dump *d, u8 *scratch)
{
	u32 devtbl, ctxtbl, modtbl, gridtbl, smtbl, ctatbl;
	u32 i, h, sm, cta, n, nsms;
	struct elf_split split;
	struct cudbg_dev dev = {
		.dev_id = 0,
		.pci_bus_id = vdev->pdev->bus->number,
		.pci_dev_id = PCI_SLOT(vdev->pdev->devfn),
		.num_regs_per_lane = VORTEX_ELF_DEV_REGS,
		.sm_major = VORTEX_ELF_SM_MAJOR,
		.sm_minor = VORTEX_ELF_SM_MINOR,
		.instruction_size = 4,
	};
	struct cudbg_ctx ctx = { .context_id = 1, .global_window_base = vdev->devaddr };
	struct cudbg_mod mod = { .module_handle = d->code_id };
	struct cudbg_grid grid = {
		.grid_id = d->job,
		.context_id = 1,
		.function = d->launch[VX_LAUNCH_ENTRY],
		.function_entry = d->launch[VX_LAUNCH_ENTRY],
		.module_handle = d->code_id,
		.kernel_type = CUDBG_KNL_TYPE_APPLICATION,
		.origin = CUDBG_KNL_ORIGIN_CPU,
		.grid_status = CUDBG_GRID_STATUS_ACTIVE,
		.num_regs = VORTEX_ELF_REGS,
		.grid_dim = { d->launch[VX_LAUNCH_GRID_X], d->launch[VX_LAUNCH_GRID_Y],
			      d->launch[VX_LAUNCH_GRID_Z] },
		.block_dim = { d->launch[VX_LAUNCH_BLOCK_X], d->launch[VX_LAUNCH_BLOCK_Y],
			       d->launch[VX_LAUNCH_BLOCK_Z] },
		.cluster_dim = { 1, 1, 1 },
	};
	u64 arg = d->launch[VX_LAUNCH_ARG];

	elf_split_init(&split, vdev);
	nsms = split.cores * split.spc;
	dev.num_sms = nsms;
	dev.num_warps_per_sm = split.per_sm;
	dev.num_lanes_per_warp = split.lanes;
	dev.dev_name = elfw_string(w, "Vortex");
	dev.dev_type = elfw_string(w, "vortex");
	dev.sm_type = elfw_string(w, VORTEX_ELF_SM_TYPE);
	devtbl = elfw_section(w, CUDBG_SHT_DEV_TABLE, 0, &dev, sizeof(dev),
			      sizeof(dev), 0, 0, ".cudbg.devtbl");
	ctxtbl = elfw_section(w, CUDBG_SHT_CTX_TABLE, 0, &ctx, sizeof(ctx),
			      sizeof(ctx), devtbl, 0, ".cudbg.ctxtbl.dev0");
	modtbl = elfw_section(w, CUDBG_SHT_MOD_TABLE, 0, &mod, sizeof(mod),
			      sizeof(mod), ctxtbl, 0, ".cudbg.modtbl.dev0.ctx0");
	if (elf_code_is_elf(d)) {
		elfw_section(w, CUDBG_SHT_RELF_IMG, 0, d->code.data, d->code.len,
			     0, modtbl, 0, ".cudbg.relfimg.dev0.ctx0");
	} else {
		elfw_section(w, CUDBG_SHT_RELF_IMG, 0, &elf_blank_image,
			     sizeof(elf_blank_image), 0, modtbl, 0,
			     ".cudbg.relfimg.dev0.ctx0");
		if (d->code.len)
			elfw_section(w, SHT_PROGBITS, 0, d->code.data, d->code.len,
				     0, 0, 0, ".vortex.code");
	}

	gridtbl = elfw_section(w, CUDBG_SHT_GRID_TABLE, 0, &grid, sizeof(grid),
			       sizeof(grid), devtbl, 0, ".cudbg.gridtbl.dev0");
	if (d->param.len) {
		struct cudbg_cbank cb = { .addr = arg, .size = d->param.len };

		elfw_section(w, CUDBG_SHT_PARAM_MEM, arg, d->param.data,
			     d->param.len, 0, gridtbl, 0, ".cudbg.param.dev0.grid0");
		elfw_section(w, CUDBG_SHT_CB_TABLE, 0, &cb, sizeof(cb), sizeof(cb),
			     gridtbl, 0, ".cudbg.cbankstbl.dev0.grid0");
	}

	/* SMs: every core of the card, as split.spc SMs each. */
	{
		struct cudbg_sm *sms = NULL;

		if (w->buf)
			sms = (struct cudbg_sm *)(w->buf + ALIGN(w->off, 8));
		smtbl = elfw_section(w, CUDBG_SHT_SM_TABLE, 0, NULL,
				     nsms * sizeof(*sms), sizeof(*sms), devtbl, 0,
				     ".cudbg.smtbl.dev0");
		for (sm = 0; sms && sm < nsms; sm++)
			sms[sm] = (struct cudbg_sm){ .sm_id = sm };
	}

	/* Per SM, its blocks; per block, its warps; per warp, its lanes. */
	for (sm = 0; sm < nsms; sm++) {
		struct cudbg_cta *ctas = NULL;

		for (i = 0, n = 0; i < d->nwarps; i++)
			for (h = 0; h < split.parts; h++)
				n += cta_first(&split, vdev, d, sm, i, h);
		if (w->buf)
			ctas = (struct cudbg_cta *)(w->buf + ALIGN(w->off, 8));
		ctatbl = elfw_section(w, CUDBG_SHT_CTA_TABLE, 0, NULL,
				      n * sizeof(*ctas), sizeof(*ctas), smtbl, sm,
				      ".cudbg.ctatbl.dev0.sm%u", sm);

		for (i = 0, cta = 0; i < d->nwarps; i++) {
			for (h = 0; h < split.parts; h++) {
				if (!cta_first(&split, vdev, d, sm, i, h))
					continue;
				elfw_cta(w, vdev, d, &split, scratch, ctatbl, ctas,
					 sm, cta, i, h);
				cta++;
			}
		}
	}

	/* The job's buffers (as captured: none with SKIP_GLOBAL). */
	for (i = 0; i < d->nbos; i++) {
		if (d->bos[i].len)
			elfw_section(w, CUDBG_SHT_GLOBAL_MEM, d->bos[i].iova,
				     d->bos[i].data, d->bos[i].len, 0, 0, 0,
				     ".cudbg.global.%u", i);
	}
	elfw_zero_tails(w, d);
	elfw_labels(w, d);
	elfw_split_note(w, &split);
	elfw_isa_note(w, vdev);
}

/**
 * vortex_dump_elf() - the dump as a CUDA-format coredump ELF
 * @vdev: the device
 * @d: the captured state
 * @len: receives the file's size
 *
 * Return: a vmalloc()ed file (a multiple of 4 bytes long, zero padded), or
 * NULL without memory.
 */
void *vortex_dump_elf(struct vortex_device *vdev, const struct vortex_dump *d,
		      size_t *len)
{
	struct elfw w = { .off = sizeof(Elf64_Ehdr) };
	size_t shoff, strtab_off, total;
	Elf64_Ehdr *eh;
	u8 *scratch;
	u32 strtab;

	scratch = kmalloc(VORTEX_DUMP_STACK, VORTEX_RECOVERY_GFP);
	if (!scratch)
		return NULL;
	/* Size it: the data, .strtab, then the section headers. */
	elfw_dump(&w, vdev, d, scratch);
	elfw_string(&w, ".strtab");
	strtab_off = ALIGN(w.off, 8);
	shoff = ALIGN(strtab_off + w.strlen, 8);
	total = ALIGN(shoff + (w.nsh + 2) * sizeof(Elf64_Shdr), 4);

	w.buf = __vmalloc(total, VORTEX_RECOVERY_GFP | __GFP_ZERO);
	if (!w.buf) {
		kfree(scratch);
		return NULL;
	}
	w.sh = (Elf64_Shdr *)(w.buf + shoff);
	w.str = (char *)w.buf + strtab_off;
	w.off = sizeof(Elf64_Ehdr);
	w.nsh = 0;
	w.strlen = 0;
	elfw_string(&w, "");
	elfw_dump(&w, vdev, d, scratch);
	kfree(scratch);
	strtab = ++w.nsh;
	w.sh[strtab] = (Elf64_Shdr){
		.sh_name = elfw_string(&w, ".strtab"),
		.sh_type = SHT_STRTAB,
		.sh_offset = strtab_off,
		.sh_size = w.strlen,
		.sh_addralign = 1,
	};

	eh = (Elf64_Ehdr *)w.buf;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_ident[EI_OSABI] = ELFOSABI_CUDA;
	eh->e_ident[EI_ABIVERSION_] = CUDA_ABIVERSION;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_CUDA_;
	eh->e_version = EV_CURRENT;
	eh->e_ehsize = sizeof(*eh);
	eh->e_shoff = shoff;
	eh->e_shentsize = sizeof(Elf64_Shdr);
	/*
	 * A card of 32768 lanes has 66640 sections: past SHN_LORESERVE, ELF's
	 * extended numbering puts the count and the string table's index in
	 * section 0 (its sh_size and sh_link), and e_shnum 0, e_shstrndx
	 * SHN_XINDEX_ say so.
	 */
	if (w.nsh + 1 >= SHN_LORESERVE)
		w.sh[0].sh_size = w.nsh + 1;
	else
		eh->e_shnum = w.nsh + 1;
	if (strtab >= SHN_LORESERVE) {
		w.sh[0].sh_link = strtab;
		eh->e_shstrndx = SHN_XINDEX_;
	} else {
		eh->e_shstrndx = strtab;
	}
	*len = total;
	return w.buf;
}
