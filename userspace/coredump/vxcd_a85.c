// SPDX-License-Identifier: GPL-2.0
/*
 * The dump's ascii85 (the kernel's linux/ascii85.h): each 32-bit word of
 * the buffer, little-endian in memory, is one group, 'z' for zero, else
 * five characters '!'..'u', the most significant base-85 digit first.
 * There is no partial last group: buffers are whole words.  Groups do not
 * span lines in what the driver writes, but a reader may join them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vxcd.h"

/* The line of the block @data's character @at. */
static int a85_line(const struct vxcd_node *data, const char *at)
{
	const char *p;
	int line = data->block_line;

	for (p = data->block; p < at; p++)
		line += *p == '\n';
	return line;
}

/*
 * Decodes the group at *@p into *@v and moves *@p past it (a group broken
 * by a line end is joined, tolerantly); -EINVAL with @err filled if bad.
 */
static int a85_group(const struct vxcd_node *data, const char **p, uint32_t *v,
		     const char *where, struct vxcd_err *err)
{
	uint64_t acc = 0;
	const char *s = *p;
	int k;

	if (*s == 'z') {
		*v = 0;
		*p = s + 1;
		return 0;
	}
	for (k = 0; k < 5; s++) {
		if (*s == '\n')
			continue;
		if (!*s) {
			vxcd_error(err, a85_line(data, s), where,
				   "truncated ascii85 group (%d of 5 characters) at the end of the block", k);
			return -EINVAL;
		}
		if (*s < '!' || *s > 'u') {
			vxcd_error(err, a85_line(data, s), where,
				   "bad ascii85 character '%c' (0x%02x)",
				   *s, (unsigned char)*s);
			return -EINVAL;
		}
		acc = acc * 85 + (*s - '!');
		k++;
	}
	if (acc > UINT32_MAX) {
		vxcd_error(err, a85_line(data, *p), where, "ascii85 group '%.5s' exceeds 32 bits", *p);
		return -EINVAL;
	}
	*v = acc;
	*p = s;
	return 0;
}

/**
 * vxcd_a85_decode() - the bytes of an ascii85 block
 * @data: the "data" node holding the block
 * @where: its path, for messages
 * @out: receives a malloc()ed buffer
 * @len: its bytes, a multiple of 4
 * @err: a bad character or a truncated group, with its line
 */
int vxcd_a85_decode(const struct vxcd_node *data, const char *where,
		    uint8_t **out, size_t *len, struct vxcd_err *err)
{
	const char *p = data->block ?: "";
	uint8_t *buf = malloc(strlen(p) * 4 + 4);
	size_t n = 0;
	uint32_t v;

	while (*p) {
		if (*p == '\n') {
			p++;
			continue;
		}
		if (a85_group(data, &p, &v, where, err)) {
			free(buf);
			return -EINVAL;
		}
		memcpy(buf + n, &v, 4);	/* the dump's words are little-endian */
		n += 4;
	}
	*out = buf;
	*len = n;
	return 0;
}

/**
 * vxcd_blob() - a buffer of @size bytes from section @sec's "data"
 * @sec: the node holding "data" (a BO, the ring, cuda-coredump)
 * @where: its path, for messages
 * @size: the bytes the section says it has; what the block leaves out
 *	(trailing zero words) is zero
 * @out: receives a malloc()ed buffer of @size bytes
 * @err: a malformed block, or one longer than @size
 */
int vxcd_blob(const struct vxcd_node *sec, const char *where, uint64_t size,
	      uint8_t **out, struct vxcd_err *err)
{
	const struct vxcd_node *data = vxcd_get(sec, "data");
	char field[64];
	uint8_t *buf = NULL;
	size_t len = 0;

	snprintf(field, sizeof(field), "%s.data", where);
	if (data && vxcd_a85_decode(data, field, &buf, &len, err))
		return -EINVAL;
	if (len > (size + 3) / 4 * 4) {
		vxcd_error(err, vxcd_get(sec, "size") ? vxcd_get(sec, "size")->line : sec->line,
			   field, "size mismatch: %zu bytes decoded, size says %llu",
			   len, (unsigned long long)size);
		free(buf);
		return -EINVAL;
	}
	*out = calloc(1, size + 4);
	if (len)
		memcpy(*out, buf, len);
	free(buf);
	return 0;
}
