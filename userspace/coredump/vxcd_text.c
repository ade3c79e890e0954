// SPDX-License-Identifier: GPL-2.0
/*
 * The crash dump text (driver/vortex_dump.c, MSM's layout) as a tree:
 * "key: value" lines, sections indented two spaces deeper than their
 * header, list entries opened by "- ", "{ k: v, ... }" entries on one line,
 * and ascii85 blocks after "data: !!ascii85 |" running while lines are
 * indented deeper than "data".  A tolerant reader: unknown keys are kept
 * and ignored; what is required is checked by vxcd_validate().
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vxcd.h"

void vxcd_error(struct vxcd_err *err, int line, const char *field,
		const char *fmt, ...)
{
	va_list args;

	err->line = line;
	snprintf(err->field, sizeof(err->field), "%s", field);
	va_start(args, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, args);
	va_end(args);
}

static struct vxcd_node *node_new(struct vxcd_node *parent, char *key,
				  char *value, int line, int indent)
{
	struct vxcd_node *n = calloc(1, sizeof(*n)), **p;

	n->key = key;
	n->value = value;
	n->line = line;
	n->indent = indent;
	n->parent = parent;
	for (p = &parent->child; *p; p = &(*p)->next)
		;
	*p = n;
	return n;
}

/* "k: v, k: v }" of a flow entry, split in place into children of @item. */
static int parse_flow(struct vxcd_node *item, char *s, int line,
		      struct vxcd_err *err)
{
	char *end = strrchr(s, '}'), *tok, *save, *colon;

	if (!end) {
		vxcd_error(err, line, item->parent->key, "'{' without '}'");
		return -EINVAL;
	}
	*end = 0;
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		colon = strstr(tok, ": ");
		if (!colon) {
			vxcd_error(err, line, item->parent->key, "'%s' is not 'key: value'", tok);
			return -EINVAL;
		}
		*colon = 0;
		for (end = colon + 2 + strlen(colon + 2); end > colon + 2 && end[-1] == ' ';)
			*--end = 0;
		node_new(item, tok, colon + 2, line, item->indent + 2);
	}
	return 0;
}

/* The node a line indented @indent belongs under. */
static struct vxcd_node *parent_of(struct vxcd_node *last, int indent)
{
	while (last->parent && last->indent >= indent)
		last = last->parent;
	return last;
}

/*
 * One "key: value" or "key:" at @s; @parent already chosen.  The key ends
 * at the first ": " (or the line's last ':'), so it may hold a ':' itself,
 * as msm's vm-log entries' keys do ("map:0: 0x...-0x...").
 */
static struct vxcd_node *parse_pair(struct vxcd_node *parent, char *s, int line,
				    int indent, struct vxcd_err *err)
{
	char *colon = strstr(s, ": ");
	size_t len = strlen(s);

	if (!colon && len && s[len - 1] == ':')
		colon = s + len - 1;
	if (!colon || colon == s) {
		vxcd_error(err, line, parent->key ?: "", "'%.40s' is not 'key: value'", s);
		return NULL;
	}
	*colon = 0;
	return node_new(parent, s, colon[1] ? colon + 2 : colon + 1, line, indent);
}

/*
 * Appends the block line @s (spaces stripped) to @data's block, which
 * grows by doubling: a buffer's block runs to tens of megabytes.
 */
static void block_add(struct vxcd_node *data, const char *s, int line)
{
	size_t have = data->block_len, n = strlen(s);

	if (!data->block_line)
		data->block_line = line;
	if (have + n + 2 > data->block_cap) {
		data->block_cap = (have + n + 2) * 2;
		data->block = realloc(data->block, data->block_cap);
	}
	if (have)
		data->block[have++] = '\n';
	memcpy(data->block + have, s, n + 1);
	data->block_len = have + n;
}

/**
 * vxcd_parse() - the text as a tree
 * @d: receives the tree; vxcd_free() it
 * @text: the dump, NUL-terminated; taken over (split in place)
 * @err: what is malformed, on -EINVAL
 */
int vxcd_parse(struct vxcd_dump *d, char *text, struct vxcd_err *err)
{
	struct vxcd_node *last, *data = NULL;
	char *p = text, *eol, *next, *s;
	int line = 0, indent;

	memset(d, 0, sizeof(*d));
	d->text = text;
	d->root = calloc(1, sizeof(*d->root));
	d->root->indent = -1;
	last = d->root;
	for (; *p; p = next) {
		eol = strchr(p, '\n');
		next = eol ? eol + 1 : p + strlen(p);
		if (eol)
			*eol = 0;
		line++;
		for (indent = 0; p[indent] == ' '; indent++)
			;
		s = p + indent;
		if (data && indent > data->indent) {
			block_add(data, s, line);
			continue;
		}
		data = NULL;
		if (!*s)
			continue;
		if (s[0] == '-' && s[1] == ' ') {
			last = node_new(parent_of(last, indent), "-", "", line, indent);
			s += 2;
			indent += 2;
			if (*s == '{') {
				if (parse_flow(last, s + 1, line, err))
					return -EINVAL;
				continue;
			}
		}
		last = parse_pair(parent_of(last, indent), s, line, indent, err);
		if (!last)
			return -EINVAL;
		if (!strcmp(last->key, "data") && !strncmp(last->value, "!!ascii85", 9))
			data = last;
	}
	d->nlines = line;
	return 0;
}

static void node_free(struct vxcd_node *n)
{
	struct vxcd_node *c, *next;

	for (c = n->child; c; c = next) {
		next = c->next;
		node_free(c);
	}
	free(n->block);
	free(n);
}

void vxcd_free(struct vxcd_dump *d)
{
	if (d->root)
		node_free(d->root);
	free(d->text);
	memset(d, 0, sizeof(*d));
}

/* @n's child @key (of its first list entry if @n is a list entry). */
const struct vxcd_node *vxcd_get(const struct vxcd_node *n, const char *key)
{
	const struct vxcd_node *c;

	for (c = n ? n->child : NULL; c; c = c->next)
		if (!strcmp(c->key, key))
			return c;
	return NULL;
}

int vxcd_count(const struct vxcd_node *n)
{
	const struct vxcd_node *c;
	int i = 0;

	for (c = n ? n->child : NULL; c; c = c->next)
		i += !strcmp(c->key, "-");
	return i;
}

const struct vxcd_node *vxcd_item(const struct vxcd_node *n, int i)
{
	const struct vxcd_node *c;

	for (c = n ? n->child : NULL; c; c = c->next)
		if (!strcmp(c->key, "-") && !i--)
			return c;
	return NULL;
}

/**
 * vxcd_u64() - a required number
 * @n: the node holding @key
 * @key: the field
 * @where: its path, for the message ("bos[1]")
 * @out: receives the value (decimal or 0x hex; trailing words ignored)
 * @err: a missing or non-numeric field, with its line
 */
int vxcd_u64(const struct vxcd_node *n, const char *key, const char *where,
	     uint64_t *out, struct vxcd_err *err)
{
	const struct vxcd_node *f = vxcd_get(n, key);
	char field[64], *end;

	snprintf(field, sizeof(field), "%s%s%s", where, *where ? "." : "", key);
	if (!f) {
		vxcd_error(err, n && n->line ? n->line : 0, field, "missing field");
		return -EINVAL;
	}
	errno = 0;
	*out = strtoull(f->value, &end, 0);
	if (errno || end == f->value || (*end && *end != ' ')) {
		vxcd_error(err, f->line, field, "'%s' is not a number", f->value);
		return -EINVAL;
	}
	return 0;
}

/* "[a, b, c]" into @out; the count, or -1 if malformed. */
int vxcd_list_u32(const struct vxcd_node *n, uint32_t *out, int max)
{
	const char *p = n ? n->value : "";
	char *end;
	int i = 0;

	if (*p++ != '[')
		return -1;
	while (*p && *p != ']') {
		if (i == max)
			return -1;
		out[i++] = strtoul(p, &end, 0);
		if (end == p)
			return -1;
		p = end + strspn(end, ", ");
	}
	return *p == ']' ? i : -1;
}
