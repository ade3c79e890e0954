// SPDX-License-Identifier: GPL-2.0
/*
 * vortex-coredump --json: the summary's facts as one JSON object, for
 * programs (as Radeon GPU Detective's JSON report is), shaped by
 * userspace/coredump/vortex-coredump-report.schema.json.  Numbers are JSON
 * numbers (addresses fit in 53 bits); what a dump lacks is null.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vortex_causes.h"
#include "vxcd.h"

/* The report's own version: bump it when a field changes meaning. */
#define VXCD_JSON_VERSION	1

/* @s as a JSON string: '"', '\\' and control bytes escaped. */
static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* A text value as a JSON string, without its quotes if it is "quoted". */
static void jtext(FILE *f, const struct vxcd_node *n)
{
	size_t len;
	char *s;

	if (!n) {
		fputs("null", f);
		return;
	}
	len = strlen(n->value);
	if (len >= 2 && n->value[0] == '"' && n->value[len - 1] == '"') {
		/* Undo the driver's \" and \\ escapes. */
		char *o;
		const char *p;

		s = malloc(len);
		for (p = n->value + 1, o = s; p < n->value + len - 1; p++) {
			if (*p == '\\' && p + 1 < n->value + len - 1)
				p++;
			*o++ = *p;
		}
		*o = 0;
		jstr(f, s);
		free(s);
		return;
	}
	jstr(f, n->value);
}

/* A number field, or null if absent or not a number. */
static void jnum(FILE *f, const struct vxcd_node *n, const char *key)
{
	struct vxcd_err err;
	uint64_t v;

	if (!vxcd_get(n, key) || vxcd_u64(n, key, "", &v, &err))
		fputs("null", f);
	else
		fprintf(f, "%llu", (unsigned long long)v);
}

static uint64_t num(const struct vxcd_node *n, const char *key)
{
	struct vxcd_err err;
	uint64_t v = 0;

	vxcd_u64(n, key, "", &v, &err);
	return v;
}

/* ", \"@name\": " and a number field of @n, or null */
static void jkv_num(FILE *f, const char *name, const struct vxcd_node *n, const char *key)
{
	fprintf(f, ", \"%s\": ", name);
	jnum(f, n, key);
}

/* ", \"@name\": " and a text field of @n, or null */
static void jkv_text(FILE *f, const char *name, const struct vxcd_node *n, const char *key)
{
	fprintf(f, ", \"%s\": ", name);
	jtext(f, vxcd_get(n, key));
}

/* Fields copied as they are: a JSON name, the text's key, text or number. */
struct jfield {
	const char *name, *key;
	bool text;
};

static void jfields(FILE *f, const struct vxcd_node *n, const struct jfield *fs, int count)
{
	for (int i = 0; i < count; i++)
		(fs[i].text ? jkv_text : jkv_num)(f, fs[i].name, n, fs[i].key);
}

static void json_fault(FILE *f, const struct vxcd_node *root)
{
	const struct vxcd_node *fi = vxcd_item(vxcd_get(root, "fault-info"), 0);
	const struct vxcd_node *pt = vxcd_item(vxcd_get(root, "pgtable-fault-info"), 0);
	const struct vxcd_node *bo;
	unsigned int cause, exc;
	bool inside;
	const char *p;
	char *end;
	int b, i;

	if (!fi) {
		fputs("null", f);
		return;
	}
	cause = num(fi, "cause");
	exc = vx_cause_cuda_exception(cause);
	fprintf(f, "{\"cause\": %u, \"cause_name\": ", cause);
	if (vx_cause_name(cause))
		jstr(f, vx_cause_name(cause));
	else
		fputs("null", f);
	fputs(", \"cuda_exception\": ", f);
	if (exc == VX_CUDA_EXCEPTION_UNKNOWN)
		fputs("null, \"cuda_exception_name\": null", f);
	else
		fprintf(f, "%u, \"cuda_exception_name\": \"%s\"", exc,
			vx_cuda_exception_name(exc));
	jkv_num(f, "warp", fi, "warp");
	jkv_num(f, "lane", fi, "thread");
	jkv_num(f, "pc", fi, "pc");
	jkv_num(f, "address", fi, "address");
	fputs(", \"assert\": ", f);
	if (vxcd_get(fi, "assert")) {
		fputs("{\"expression\": ", f);
		jtext(f, vxcd_get(fi, "assert"));
		jkv_text(f, "file", fi, "file");
		jkv_num(f, "line", fi, "line");
		jkv_text(f, "function", fi, "function");
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fputs(", \"branch\": ", f);
	if (vxcd_get(fi, "lanes-taken")) {
		fputs("{\"lanes_taken\": ", f);
		jtext(f, vxcd_get(fi, "lanes-taken"));
		jkv_text(f, "lanes_not_taken", fi, "lanes-not-taken");
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fputs(", \"buffer\": ", f);
	b = vxcd_fault_buffer(root, num(fi, "address"), &inside);
	bo = b < 0 ? NULL : vxcd_item(vxcd_get(root, "bos"), b);
	if (bo)
		fprintf(f, "{\"index\": %d, \"offset\": %llu, \"overrun\": %s}", b,
			(unsigned long long)(num(fi, "address") - num(bo, "iova")),
			inside ? "false" : "true");
	else
		fputs("null", f);
	fputs(", \"ptes\": ", f);
	if (pt && vxcd_get(pt, "ptes")) {
		fputc('[', f);
		for (p = vxcd_get(pt, "ptes")->value, i = 0;; i++) {
			unsigned long v = strtoul(p, &end, 16);

			if (end == p)
				break;
			fprintf(f, "%s%lu", i ? ", " : "", v);
			p = end;
		}
		fputc(']', f);
	} else {
		fputs("null", f);
	}
	fputc('}', f);
}

static void json_buffers(FILE *f, const struct vxcd_node *root)
{
	const struct vxcd_node *bo, *data;
	int i;

	fputc('[', f);
	for (i = 0; (bo = vxcd_item(vxcd_get(root, "bos"), i)); i++) {
		data = vxcd_get(bo, "data");
		fprintf(f, "%s{\"index\": %d, \"iova\": ", i ? ", " : "", i);
		jnum(f, bo, "iova");
		jkv_num(f, "size", bo, "size");
		jkv_num(f, "flags", bo, "flags");
		jkv_text(f, "label", bo, "label");
		fprintf(f, ", \"has_data\": %s}", data ? "true" : "false");
	}
	fputc(']', f);
}

static void json_warps(FILE *f, const struct vxcd_node *root)
{
	static const struct jfield warp_fields[] = {
		{ "cluster", "cluster", false }, { "core", "core", false },
		{ "warp_in_core", "warp-in-core", false }, { "pc", "pc", false },
		{ "thread_mask", "thread-mask", false },
	};
	const struct vxcd_node *w;
	uint32_t block[3];
	int i;

	fputc('[', f);
	for (i = 0; (w = vxcd_item(vxcd_get(root, "warps"), i)); i++) {
		fprintf(f, "%s{\"id\": ", i ? ", " : "");
		jnum(f, w, "id");
		jfields(f, w, warp_fields, sizeof(warp_fields) / sizeof(*warp_fields));
		fprintf(f, ", \"halted\": %s",
			vxcd_get(w, "halted") && !strcmp(vxcd_get(w, "halted")->value, "yes") ?
			"true" : "false");
		if (vxcd_list_u32(vxcd_get(w, "block"), block, 3) == 3)
			fprintf(f, ", \"block\": [%u, %u, %u]", block[0], block[1], block[2]);
		else
			fputs(", \"block\": null", f);
		fprintf(f, ", \"registers\": %s}", vxcd_get(w, "threads") ? "true" : "false");
	}
	fputc(']', f);
}

/* vm-log entries: "op:job" keys, "first-end" values. */
static void json_vm_log(FILE *f, const struct vxcd_node *root)
{
	const struct vxcd_node *e, *kv;
	unsigned long long first, last, job;
	char op[8];
	int i, n = 0;

	fputc('[', f);
	for (i = 0; (e = vxcd_item(vxcd_get(root, "vm-log"), i)); i++) {
		kv = e->child;
		if (!kv || sscanf(kv->key, "%7[a-z]:%llu", op, &job) != 2 ||
		    sscanf(kv->value, "%llx-%llx", &first, &last) != 2)
			continue;
		fprintf(f, "%s{\"op\": ", n++ ? ", " : "");
		jstr(f, op);
		fprintf(f, ", \"job\": %llu, \"start\": %llu, \"end\": %llu}", job, first, last);
	}
	fputc(']', f);
}

/**
 * vxcd_json() - the report as JSON, one object and a newline
 * @d: the validated dump
 * @f: where to print it
 */
void vxcd_json(const struct vxcd_dump *d, FILE *f)
{
	static const struct jfield header_fields[] = {
		{ "kernel", "kernel", true }, { "revision", "revision", true },
		{ "time", "time", true }, { "comm", "comm", true },
		{ "cmdline", "cmdline", true }, { "pid", "pid", false }, { "job", "job", false },
		{ "card_job", "card-job", false }, { "error", "error", true },
	};
	const struct vxcd_node *root = d->root;

	fprintf(f, "{\"report_version\": %d, \"dump_version\": ", VXCD_JSON_VERSION);
	if (vxcd_get(root, "dump-version"))
		jnum(f, root, "dump-version");
	else
		fputs("1", f);
	jfields(f, root, header_fields, sizeof(header_fields) / sizeof(*header_fields));
	fputs(", \"fault\": ", f);
	json_fault(f, root);
	fputs(", \"buffers\": ", f);
	json_buffers(f, root);
	fputs(", \"warps\": ", f);
	json_warps(f, root);
	fputs(", \"vm_log\": ", f);
	json_vm_log(f, root);
	jkv_text(f, "not_captured", root, "not-captured");
	fputs("}\n", f);
}
