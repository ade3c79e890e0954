// SPDX-License-Identifier: MIT
/*
 * libvortexrt: what the kernels printed, printed as Vortex's runtime
 * prints it: each hardware thread's output line by line, "#slot: line",
 * slot being the low 6 bits of its mhartid (upstream's IO_COUT slot;
 * sim/simx emulator.cpp prints per slot), an unterminated last line
 * flushed when the job has ended.  Bytes the driver had to drop are
 * counted on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vortex_accel.h"
#include "vxrt_internal.h"

#define VXRT_LINE	256	/* longer lines are printed in pieces */

struct vxrt_line {
	uint32_t len;
	char buf[VXRT_LINE];
};

static void vxrt_line_flush(FILE *out, uint32_t hart, struct vxrt_line *l)
{
	/* the bytes as they came, a zero among them too (simx writes them out) */
	fprintf(out, "#%u: ", hart & (VX_IO_COUT_SIZE - 1));
	fwrite(l->buf, 1, l->len, out);
	fputc('\n', out);
	l->len = 0;
}

/**
 * vxrt_console_print() - print what @dev's jobs printed since the last call
 * @dev: the device
 * @out: where (stdout)
 *
 * Return: 0 or -errno.
 */
int vxrt_console_print(struct vxrt_device *dev, FILE *out)
{
	uint64_t harts = dev->clusters * dev->cores * dev->warps * dev->threads, dropped = 0;
	struct drm_vortex_console c = { 0 };
	struct vxrt_line *lines;
	uint32_t rec[1024], i, h;
	int ret = 0;

	lines = calloc(harts, sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	do {
		c = (struct drm_vortex_console){ .data = (uintptr_t)rec, .count = 1024 };
		ret = vx_ioctl(vxrt_fd(dev), DRM_IOCTL_VORTEX_CONSOLE, &c);
		if (ret)
			break;
		dropped += c.dropped;
		for (i = 0; i < c.count; i++) {
			char ch = DRM_VORTEX_CONSOLE_CHAR(rec[i]);

			h = DRM_VORTEX_CONSOLE_HART(rec[i]);
			if (h >= harts)
				continue;
			if (ch == '\n') {
				vxrt_line_flush(out, h, &lines[h]);
				continue;
			}
			lines[h].buf[lines[h].len++] = ch;
			if (lines[h].len == VXRT_LINE)
				vxrt_line_flush(out, h, &lines[h]);
		}
	} while (c.count == 1024);	/* fewer: the driver had no more */
	for (h = 0; h < harts; h++)
		if (lines[h].len)
			vxrt_line_flush(out, h, &lines[h]);
	if (dropped)
		fprintf(stderr, "vortex: %llu bytes the kernels printed were dropped\n",
			(unsigned long long)dropped);
	fflush(out);
	free(lines);
	return ret;
}
