/* SPDX-License-Identifier: MIT */
/*
 * A whole file in memory, for tests that read kernel binaries: the host
 * test of libvortexrt on the simulator and the guest's.
 */
#ifndef VX_FILE_H
#define VX_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* @path's bytes (malloc'ed) and their count in *@len; NULL if unreadable or empty. */
static inline void *vx_file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf = NULL;
	long n = 0;

	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc(n)) && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (f)
		fclose(f);
	*len = buf ? (size_t)n : 0;
	return buf;
}

#endif /* VX_FILE_H */
