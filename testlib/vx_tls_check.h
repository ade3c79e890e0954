/* SPDX-License-Identifier: MIT */
/*
 * The check of what vxs_tls wrote (userspace/include/vortex_kernels.h,
 * struct vxs_tls_args), for the host test of libvortexrt on the simulator
 * and the guest's: each hart counts its own tasks from 0 and sums their
 * ids in its thread-local block, so a block that was not cleared, or that
 * two harts share, shows; tp - _end must be the hart's place in upstream's
 * layout, hart * __tbss_size.  A hart runs its tasks in increasing order
 * (vx_spawn.c), so the tasks are walked so.
 */
#ifndef VX_TLS_CHECK_H
#define VX_TLS_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* 0, or -1 with a sentence in @why: the first task that is wrong, or an idle hart. */
static inline int vx_tls_check(const uint32_t *out, uint32_t n, uint32_t harts,
			       uint32_t block, char *why, size_t whylen)
{
	uint32_t *count = calloc(harts, sizeof(*count)), *sum = calloc(harts, sizeof(*sum));
	uint32_t i, h = 0;
	int bad = -1;

	if (!count || !sum) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		const uint32_t *t = &out[3 * i];

		h = t[0] >> 16;
		if (h >= harts || ++count[h] != (t[0] & 0xffff) || t[1] != sum[h] ||
		    t[2] != h * block) {
			snprintf(why, whylen,
				 "task %u: hart %u, its task %u (want %u), sum 0x%x (want 0x%x), tp - _end 0x%x (want 0x%x)",
				 i, h, t[0] & 0xffff, h < harts ? count[h] : 0, t[1],
				 h < harts ? sum[h] : 0, t[2], h * block);
			goto out;
		}
		sum[h] += i;
	}
	for (h = 0; h < harts && count[h]; h++)
		;
	if (h < harts)
		snprintf(why, whylen, "hart %u ran no task", h);
	else
		bad = 0;
out:
	free(count);
	free(sum);
	return bad;
}

#endif /* VX_TLS_CHECK_H */
