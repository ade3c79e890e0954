// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */
/*
 * Vortex crash dumps: the CUDA ELF compressed with zlib
 *
 * A file that sets DRM_VORTEX_DUMP_COMPRESS_ELF gets its dumps' CUDA ELF as
 * a zlib stream (RFC 1950, the kernel's deflate, as i915 compresses its
 * error state).  The ELF is mostly zero-padded rows and register files, so
 * it shrinks several times before ascii85 adds its quarter.  The text then
 * says ``encoding: zlib`` and ``stored-size:``; ``size:`` stays the ELF's,
 * so a reader knows what inflating must give back.
 */

#include <linux/vmalloc.h>
#include <linux/zlib.h>
#include "vortex_device.h"
#include "vortex_dump.h"
#include "vortex_dump_state.h"

/**
 * vortex_dump_compress_elf() - replace @d's ELF by its zlib stream
 * @d: a captured dump whose @elf is set
 *
 * Return: 0 with @d->elf the stream, @d->elf_len its length and
 * @d->elf_size the ELF's; or -errno with @d unchanged (the ELF is then
 * written as it is): -ENOMEM, or -E2BIG if the stream is not smaller.
 */
int vortex_dump_compress_elf(struct vortex_dump *d)
{
	struct z_stream_s zs = {};
	void *out;
	int ret = -ENOMEM;

	if (d->elf_len > U32_MAX)
		return -E2BIG;
	zs.workspace = __vmalloc(zlib_deflate_workspacesize(MAX_WBITS,
							    DEF_MEM_LEVEL),
				 VORTEX_RECOVERY_GFP);
	out = __vmalloc(d->elf_len, VORTEX_RECOVERY_GFP);
	if (!zs.workspace || !out)
		goto out_free;
	if (zlib_deflateInit(&zs, Z_BEST_SPEED) != Z_OK) {
		ret = -EINVAL;
		goto out_free;
	}
	zs.next_in = d->elf;
	zs.avail_in = d->elf_len;
	zs.next_out = out;
	zs.avail_out = d->elf_len;
	/* Z_OK or Z_BUF_ERROR: the output filled before the input ended. */
	ret = zlib_deflate(&zs, Z_FINISH) == Z_STREAM_END ? 0 : -E2BIG;
	zlib_deflateEnd(&zs);
	if (ret)
		goto out_free;
	vfree(d->elf);
	d->elf = out;
	d->elf_size = d->elf_len;
	d->elf_len = zs.total_out;
	out = NULL;
out_free:
	vfree(out);
	vfree(zs.workspace);
	return ret;
}
