/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the host told the guest tests, through the kernel command line:
 * vxtest.topology=CLUSTERS,CORES,WARPS,THREADS and vxtest.vram=BYTES are
 * what the card was booted with (scripts/run-guest.sh); other vxtest.*
 * words switch on tests that need the host's help, e.g. vxtest.unplug=1.
 */
#ifndef VORTEX_TEST_CMDLINE_H
#define VORTEX_TEST_CMDLINE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct vx_expect {
	unsigned long clusters, cores, warps, threads, vram;
};

static inline bool vx_cmdline_read(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cmdline", "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = 0;
	return true;
}

/* The card's expected topology; false if the command line lacks it. */
static inline bool vx_cmdline_expect(struct vx_expect *e)
{
	char buf[4096], *p;

	if (!vx_cmdline_read(buf, sizeof(buf)))
		return false;
	p = strstr(buf, "vxtest.topology=");
	if (!p || sscanf(p, "vxtest.topology=%lu,%lu,%lu,%lu", &e->clusters,
			 &e->cores, &e->warps, &e->threads) != 4)
		return false;
	p = strstr(buf, "vxtest.vram=");
	return p && sscanf(p, "vxtest.vram=%lu", &e->vram) == 1;
}

static inline bool vx_cmdline_has(const char *word)
{
	char buf[4096];

	return vx_cmdline_read(buf, sizeof(buf)) && strstr(buf, word);
}

#endif /* VORTEX_TEST_CMDLINE_H */
