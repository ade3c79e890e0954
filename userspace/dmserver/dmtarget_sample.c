// SPDX-License-Identifier: MIT
/*
 * A sample kernel's inputs, reference and check for vortex-dmserver,
 * whichever card runs it (dmtarget.h).  Every launch starts from fresh
 * buffers, so a second `s` checks its own result, not the first one's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmtarget.h"

size_t dmtarget_sample_prepare(struct dmtarget_sample *ds, void *args, size_t max)
{
	const struct vx_sample_job *j = &ds->job;

	if (!ds->want)
		ds->want = malloc((size_t)j->words[j->out] * 4 + 4);
	if (!ds->want)
		return 0;
	for (unsigned int i = 0; i < j->nbufs; i++)
		memset(ds->buf[i], 0, (size_t)j->words[i] * 4);
	vx_sample_fill(ds->s, j, ds->buf, 1);
	vx_sample_expect(ds->s, j, ds->buf, ds->want);
	return vx_sample_args(ds->s, j, ds->addr, args, max);
}

int dmtarget_sample_check(struct dmtarget_sample *ds, char *buf, size_t len)
{
	const struct vx_sample_job *j = &ds->job;
	struct vx_sample_diff d;
	char g[32], w[32];
	int n;

	if (!ds->s || !ds->want)
		return -ENOENT;
	vx_sample_check(ds->s, j, ds->want, ds->buf[j->out], &d);
	n = snprintf(buf, len, "%s result %s: %u of %u elements exact",
		     vx_sample_name(ds->s), d.bad ? "WRONG" : "checked",
		     j->words[j->out] - d.bad, j->words[j->out]);
	if (d.bad && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ", first wrong [%u] = %s, expected %s", d.first,
			 vx_sample_word_str(ds->s, ds->buf[j->out][d.first], g, sizeof(g)),
			 vx_sample_word_str(ds->s, ds->want[d.first], w, sizeof(w)));
	return d.bad ? 1 : 0;
}
