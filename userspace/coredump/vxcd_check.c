// SPDX-License-Identifier: GPL-2.0
/*
 * What a dump must hold for the tools to trust it: the header fields, the
 * fault, every buffer's block decoding to no more than its size, every
 * warp's numbers and every lane's 32 + 32 registers.  The first problem
 * is reported with its line and field; unknown keys are not problems.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vxcd.h"

static const char *const vxcd_required[] = {
	"kernel", "module", "time", "comm", "revision", "status", "job", "error",
	"ringbuffer", "bos", "registers", "warps",
};

/* Checks @keys (numbers) of each entry of section @name. */
static int check_items(const struct vxcd_node *root, const char *name,
		       const char *const *keys, int nkeys, bool blob,
		       struct vxcd_err *err)
{
	const struct vxcd_node *sec = vxcd_get(root, name), *it;
	char where[48];
	uint64_t v, size;
	uint8_t *buf;
	int i, k;

	for (i = 0; (it = vxcd_item(sec, i)); i++) {
		snprintf(where, sizeof(where), "%s[%d]", name, i);
		for (k = 0; k < nkeys; k++)
			if (vxcd_u64(it, keys[k], where, &v, err))
				return -EINVAL;
		if (!blob)
			continue;
		if (vxcd_u64(it, "size", where, &size, err) ||
		    vxcd_blob(it, where, size, &buf, err))
			return -EINVAL;
		free(buf);
	}
	return 0;
}

static int check_lanes(const struct vxcd_node *warp, const char *wwhere,
		       struct vxcd_err *err)
{
	const struct vxcd_node *it;
	uint32_t regs[33];
	char where[64];
	uint64_t v;
	int i;

	for (i = 0; (it = vxcd_item(vxcd_get(warp, "threads"), i)); i++) {
		snprintf(where, sizeof(where), "%s.threads[%d]", wwhere, i);
		if (vxcd_u64(it, "lane", where, &v, err))
			return -EINVAL;
		if (vxcd_list_u32(vxcd_get(it, "x"), regs, 33) != 32 ||
		    vxcd_list_u32(vxcd_get(it, "f"), regs, 33) != 32) {
			vxcd_error(err, it->line, where,
				   "x and f must be lists of 32 registers");
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * vxcd_validate() - whether the parsed dump holds what the tools read
 * @d: the parsed dump
 * @err: the first problem, with its line and field
 */
int vxcd_validate(const struct vxcd_dump *d, struct vxcd_err *err)
{
	static const char *const fault[] = { "cause", "warp", "thread", "pc", "address" };
	static const char *const ring[] = { "iova", "rptr", "wptr" };
	static const char *const bo[] = { "iova", "flags" };
	static const char *const warp[] = { "id", "core", "pc", "thread-mask" };
	const struct vxcd_node *e, *w;
	const char *v;
	char where[32];
	size_t i;
	int n;

	for (i = 0; i < sizeof(vxcd_required) / sizeof(*vxcd_required); i++)
		if (!vxcd_get(d->root, vxcd_required[i])) {
			vxcd_error(err, d->nlines, vxcd_required[i],
				   "missing field (input ends at line %d)", d->nlines);
			return -EINVAL;
		}
	e = vxcd_get(d->root, "error");
	if (strcmp(e->value, "timeout") && strcmp(e->value, "exception") &&
	    strcmp(e->value, "requested")) {
		vxcd_error(err, e->line, "error", "'%s' is not timeout, exception or requested",
			   e->value);
		return -EINVAL;
	}
	if (check_items(d->root, "fault-info", fault, 5, false, err) ||
	    check_items(d->root, "ringbuffer", ring, 3, true, err) ||
	    check_items(d->root, "bos", bo, 2, true, err) ||
	    check_items(d->root, "warps", warp, 4, false, err))
		return -EINVAL;
	for (n = 0; (w = vxcd_item(vxcd_get(d->root, "warps"), n)); n++) {
		snprintf(where, sizeof(where), "warps[%d]", n);
		if (check_lanes(w, where, err))
			return -EINVAL;
	}
	v = vxcd_get(d->root, "not-captured") ? vxcd_get(d->root, "not-captured")->value : "";
	if (!vxcd_get(d->root, "cuda-coredump") && !strstr(v, "cuda-coredump")) {
		vxcd_error(err, d->nlines, "cuda-coredump",
			   "missing field (input ends at line %d)", d->nlines);
		return -EINVAL;
	}
	return 0;
}
