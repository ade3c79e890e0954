// SPDX-License-Identifier: GPL-2.0
/*
 * The summary a person reads first: who ran what and how it ended, the
 * fault with its function, an assert's message and place, then the warps
 * grouped by where they are (a hang is usually every warp at one PC), and
 * what the capture missed.  PCs are named from the job's kernel image in
 * the CUDA ELF (.cudbg.relfimg), relative to the grid's entry.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vortex_causes.h"
#include "vxcd.h"

struct sum {
	void (*emit)(void *ctx, const char *line);
	void *ctx;
	const uint8_t *img;	/* the kernel ELF, or NULL */
	size_t img_len;
	uint64_t base;		/* its load address */
	/*
	 * How the card's warps map onto the ELF's SMs and warps: its
	 * .note.vortex.split (driver/vortex_dump_elf.c), or one SM per core of
	 * the device table's warps per SM for an ELF without the note; parts
	 * 0 without an ELF.
	 */
	uint32_t parts, per_sm, spc, warps;
};

static __attribute__((format(printf, 2, 3))) void say(struct sum *s, const char *fmt, ...)
{
	char line[512];
	va_list args;

	va_start(args, fmt);
	vsnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	s->emit(s->ctx, line);
}

static const char *val(const struct vxcd_node *n, const char *key)
{
	const struct vxcd_node *f = vxcd_get(n, key);

	return f ? f->value : "?";
}

static uint64_t num(const struct vxcd_node *n, const char *key)
{
	struct vxcd_err err;
	uint64_t v = 0;

	vxcd_u64(n, key, "", &v, &err);
	return v;
}

/* "0x800000f4 <vx_kernel_main+0x20>" */
static const char *where(struct sum *s, uint64_t pc, char *buf, size_t len)
{
	const char *fn = NULL;
	uint64_t off = 0;

	if (s->img && pc >= s->base)
		fn = vxcd_elf_symbol(s->img, s->img_len, pc - s->base, &off);
	if (fn)
		snprintf(buf, len, "0x%08llx <%s+0x%llx>", (unsigned long long)pc, fn,
			 (unsigned long long)off);
	else
		snprintf(buf, len, "0x%08llx", (unsigned long long)pc);
	return buf;
}

/**
 * vxcd_fault_buffer() - the buffer a faulting address belongs to
 * @root: the dump's root
 * @addr: the address
 * @inside: receives whether the buffer holds @addr
 *
 * As Mesa's crashdec marks it: the buffer that holds @addr, else the one
 * that ends nearest below it (an overrun: the kernel ran off its end).
 *
 * Return: the buffer's index in ``bos:``, or -1 if none lies below @addr.
 */
int vxcd_fault_buffer(const struct vxcd_node *root, uint64_t addr, bool *inside)
{
	const struct vxcd_node *bos = vxcd_get(root, "bos"), *b;
	uint64_t iova, size, best_end = 0;
	int i, best = -1;

	*inside = false;
	for (i = 0; (b = vxcd_item(bos, i)); i++) {
		iova = num(b, "iova");
		size = num(b, "size");
		if (!size || iova > addr)
			continue;
		if (addr - iova < size) {
			*inside = true;
			return i;
		}
		if (best < 0 || iova + size > best_end) {
			best = i;
			best_end = iova + size;
		}
	}
	return best;
}

static void sum_fault_buffer(struct sum *s, const struct vxcd_node *root,
			     uint64_t addr)
{
	const struct vxcd_node *b;
	uint64_t iova, size;
	bool inside;
	int at;

	at = vxcd_fault_buffer(root, addr, &inside);
	b = at < 0 ? NULL : vxcd_item(vxcd_get(root, "bos"), at);
	if (!b)
		return;
	iova = num(b, "iova");
	size = num(b, "size");
	say(s, "buffer:  0x%08llx %s bo%d at +0x%llx (0x%llx bytes at 0x%08llx%s%s)",
	    (unsigned long long)addr, inside ? "is in" : "overruns", at,
	    (unsigned long long)(addr - iova), (unsigned long long)size,
	    (unsigned long long)iova, vxcd_get(b, "label") ? ", label " : "",
	    vxcd_get(b, "label") ? val(b, "label") : "");
}

static void sum_fault(struct sum *s, const struct vxcd_node *root)
{
	const struct vxcd_node *f = vxcd_item(vxcd_get(root, "fault-info"), 0);
	unsigned int exc;
	char pc[160];

	if (!f)
		return;
	say(s, "fault:   cause %s in warp %s lane %s at %s, address 0x%08llx",
	    val(f, "cause"), val(f, "warp"), val(f, "thread"),
	    where(s, num(f, "pc"), pc, sizeof(pc)), (unsigned long long)num(f, "address"));
	/* What cuda-gdb names it: the ELF's lane exception, from one table. */
	exc = vx_cause_cuda_exception(num(f, "cause"));
	if (exc != VX_CUDA_EXCEPTION_UNKNOWN)
		say(s, "cuda:    CUDA_EXCEPTION_%u, %s", exc, vx_cuda_exception_name(exc));
	if (vxcd_get(f, "assert"))
		say(s, "assert:  %s failed at %s:%s in %s", val(f, "assert"),
		    val(f, "file"), val(f, "line"), val(f, "function"));
	/* a divergent branch: the lanes on each side (docs/hardware.md) */
	if (vxcd_get(f, "lanes-taken"))
		say(s, "branch:  lanes %s take it to 0x%08llx, lanes %s do not",
		    val(f, "lanes-taken"), (unsigned long long)num(f, "address"),
		    val(f, "lanes-not-taken"));
	sum_fault_buffer(s, root, num(f, "address"));
	f = vxcd_item(vxcd_get(root, "pgtable-fault-info"), 0);
	if (f)
		say(s, "space:   asid %s, page tables at 0x%08llx",
		    val(f, "asid"), (unsigned long long)num(f, "root"));
}

/* A list that stops short of @b's size and counts what it left out. */
struct list {
	char b[200];
	size_t at;
	int dropped;
};

static __attribute__((format(printf, 2, 3))) void list_add(struct list *l, const char *fmt, ...)
{
	char item[64];
	va_list args;
	int n;

	va_start(args, fmt);
	n = vsnprintf(item, sizeof(item), fmt, args);
	va_end(args);
	if (l->dropped || l->at + n + 1 >= sizeof(l->b)) {
		l->dropped++;
		return;
	}
	memcpy(l->b + l->at, item, n + 1);
	l->at += n;
}

/* " ... and N more" if @l left some out, else "". */
static const char *list_more(const struct list *l, char *buf, size_t len)
{
	buf[0] = 0;
	if (l->dropped)
		snprintf(buf, len, " ... and %d more", l->dropped);
	return buf;
}

/*
 * cuda-gdb's name of a warp: "sm C warp W", C the ELF's SM (a core:
 * cluster * cores + core, split into several where the card has more
 * than 64 warps per core), W the warp in it; "sm C warps W-W2" for a warp
 * split into CUDA-sized ones (more than 32 lanes).  The SM follows from
 * the warp's id and its place in its core (struct sum @parts); without
 * the ELF, the core on a one-cluster card.
 */
static void cuda_name(const struct sum *s, const struct vxcd_node *w, char *buf, size_t len)
{
	uint64_t id = num(w, "id"), wic = num(w, "warp-in-core");

	if (s->parts && s->warps && s->per_sm && s->spc) {
		uint64_t v = wic * s->parts;
		uint64_t sm = (id - wic) / s->warps * s->spc + v / s->per_sm;

		if (s->parts == 1)
			snprintf(buf, len, "sm %llu warp %llu", (unsigned long long)sm,
				 (unsigned long long)(v % s->per_sm));
		else
			snprintf(buf, len, "sm %llu warps %llu-%llu", (unsigned long long)sm,
				 (unsigned long long)(v % s->per_sm),
				 (unsigned long long)(v % s->per_sm + s->parts - 1));
	} else if (!num(w, "cluster"))
		snprintf(buf, len, "sm %llu warp %llu", (unsigned long long)num(w, "core"),
			 (unsigned long long)wic);
	else
		snprintf(buf, len, "sm ? warp %llu", (unsigned long long)wic);
}

/*
 * Warps grouped by PC, in order of first appearance: their ids, as
 * cuda-gdb names them too, and every thread mask among them (with how
 * many warps have it when they differ).  Long lists say how much they
 * left out.
 */
static void sum_warps(struct sum *s, const struct vxcd_node *root)
{
	const struct vxcd_node *ws = vxcd_get(root, "warps"), *w, *v, *x;
	int n = vxcd_count(ws), i, j, k, m, count, masks;
	char pc[160], name[48], more[3][32];
	struct list ids, cuda, mask;

	say(s, "warps:   %d with a context", n);
	for (i = 0; (w = vxcd_item(ws, i)); i++) {
		for (j = 0; j < i && num(vxcd_item(ws, j), "pc") != num(w, "pc"); j++)
			;
		if (j < i)
			continue;
		memset(&ids, 0, sizeof(ids));
		memset(&cuda, 0, sizeof(cuda));
		memset(&mask, 0, sizeof(mask));
		for (k = i, count = 0, masks = 0; (v = vxcd_item(ws, k)); k++) {
			if (num(v, "pc") != num(w, "pc"))
				continue;
			list_add(&ids, "%s%s", count ? " " : "", val(v, "id"));
			cuda_name(s, v, name, sizeof(name));
			list_add(&cuda, "%s%s", count ? ", " : "", name);
			count++;
			/* Each mask once, at the first warp of the group with it. */
			for (j = i; j < k; j++) {
				x = vxcd_item(ws, j);
				if (num(x, "pc") == num(w, "pc") &&
				    num(x, "thread-mask") == num(v, "thread-mask"))
					break;
			}
			if (j < k)
				continue;
			for (j = k, m = 0; (x = vxcd_item(ws, j)); j++)
				m += num(x, "pc") == num(w, "pc") &&
				     num(x, "thread-mask") == num(v, "thread-mask");
			list_add(&mask, "%s%s (%d)", masks++ ? ", " : "", val(v, "thread-mask"), m);
		}
		if (masks == 1) {	/* one mask: no count */
			memset(&mask, 0, sizeof(mask));
			list_add(&mask, "%s", val(w, "thread-mask"));
		}
		say(s, "  %3d at %s  (warp%s %s%s; %s%s; thread mask%s %s%s)", count,
		    where(s, num(w, "pc"), pc, sizeof(pc)), count > 1 ? "s" : "", ids.b,
		    list_more(&ids, more[0], sizeof(more[0])), cuda.b,
		    list_more(&cuda, more[1], sizeof(more[1])), masks > 1 ? "s" : "", mask.b,
		    list_more(&mask, more[2], sizeof(more[2])));
	}
}

/*
 * The card's ISA and what the CUDA ELF tells cuda-gdb it is: its device
 * row (smType, SMs, warps per SM, lanes per warp).  An older driver's
 * smType was the ISA, which cuda-gdb 12.4 refuses (--extract-elf
 * rewrites it: vxcd_elf_compat()).
 */
static void sum_device(struct sum *s, const struct vxcd_elf *e)
{
	const uint32_t *row;
	const char *sm, *isa;
	uint32_t rev;
	size_t len;
	char at[32] = "";

	isa = vxcd_elf_isa(e, &sm, &rev);
	row = vxcd_elf_section(e, ".cudbg.devtbl", &len, NULL);
	if (!row || len < 80)
		return;
	if (rev)
		snprintf(at, sizeof(at), " (revision 0x%08x)", rev);
	say(s, "device:  %s%s; CUDA ELF: %s, %u SMs x %u warps x %u lanes%s", isa ?: "?", at,
	    sm ?: "?", row[9], row[10], row[11],
	    sm && strncmp(sm, "sm_", 3) ? " (--extract-elf writes sm_75 for cuda-gdb)" : "");
}

/* "2026-11-25 23:22:13 UTC (1795650163.737488120)" of the dump's time: */
static const char *when(const char *epoch, char *buf, size_t len)
{
	time_t t = strtoll(epoch, NULL, 10);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm))
		return epoch;
	snprintf(buf + strlen(buf), len - strlen(buf), " (%s)", epoch);
	return buf;
}

/**
 * vxcd_summary() - a few lines on what happened
 * @d: the validated dump
 * @e: its CUDA ELF, or NULL
 * @emit: called with each line
 * @ctx: passed to @emit
 */
void vxcd_summary(const struct vxcd_dump *d, const struct vxcd_elf *e,
		  void (*emit)(void *ctx, const char *line), void *ctx)
{
	const struct vxcd_node *root = d->root;
	const struct vxcd_node *ring = vxcd_item(vxcd_get(root, "ringbuffer"), 0);
	const uint64_t *grid = NULL;
	struct sum s = { .emit = emit, .ctx = ctx };
	const uint8_t *dev = NULL, *split;
	size_t dev_len = 0, split_len = 0;
	char at[96];
	const char *err = val(root, "error");

	if (e && e->buf) {
		s.img = vxcd_elf_section(e, ".cudbg.relfimg.dev0.ctx0", &s.img_len, NULL);
		grid = vxcd_elf_section(e, ".cudbg.gridtbl.dev0", NULL, NULL);
		dev = vxcd_elf_section(e, ".cudbg.devtbl.dev0", &dev_len, NULL);
		if (!dev)
			dev = vxcd_elf_section(e, ".cudbg.devtbl", &dev_len, NULL);
		split = vxcd_elf_section(e, ".note.vortex.split", &split_len, NULL);
		/* 12-byte note header, "Vortex\0" padded to 8, six u32 */
		if (split && split_len >= 44) {
			memcpy(&s.parts, split + 20, 4);
			memcpy(&s.per_sm, split + 28, 4);
			memcpy(&s.spc, split + 32, 4);
			memcpy(&s.warps, split + 36, 4);
		} else if (dev && dev_len >= 44) {
			/* numWarpsPerSM, after 3 u64 and 4 u32: one SM per core */
			memcpy(&s.per_sm, dev + 40, 4);
			s.warps = s.per_sm;
			s.parts = s.spc = 1;
		}
	}
	if (s.img && grid && s.img_len >= 28)
		s.base = grid[3] - *(const uint32_t *)(s.img + 24);	/* entry - e_entry */
	say(&s, "job %s of %s: %s", val(root, "job"), val(root, "comm"),
	    !strcmp(err, "timeout") ? "HUNG (timed out)" :
	    !strcmp(err, "exception") ? "FAULTED (device exception)" : "dump requested by a debugger");
	say(&s, "command: %s", val(root, "cmdline"));
	/* Version 1 dumps had no dump-version, pid or card-job. */
	say(&s, "process: pid %s, card job %s, dump format %s", val(root, "pid"),
	    val(root, "card-job"), vxcd_get(root, "dump-version") ?
	    val(root, "dump-version") : "1");
	say(&s, "kernel:  %s, card %s, at %s", val(root, "kernel"), val(root, "revision"),
	    when(val(root, "time"), at, sizeof(at)));
	sum_fault(&s, root);
	if (grid) {
		const uint32_t *dim = (const uint32_t *)grid + 18;	/* gridDimX.. blockDimZ */

		say(&s, "grid:    %u x %u x %u blocks of %u x %u x %u threads, entry 0x%08llx",
		    dim[0], dim[1], dim[2], dim[3], dim[4], dim[5], (unsigned long long)grid[3]);
	}
	if (e && e->buf)
		sum_device(&s, e);
	sum_warps(&s, root);
	if (ring)
		say(&s, "ring:    rptr %s wptr %s, fence %s emitted, %s retired", val(ring, "rptr"),
		    val(ring, "wptr"), val(ring, "last-fence"), val(ring, "retired-fence"));
	say(&s, "buffers: %d", vxcd_count(vxcd_get(root, "bos")));
	if (vxcd_get(root, "not-captured"))
		say(&s, "missing: %s", val(root, "not-captured"));
}
