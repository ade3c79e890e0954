// SPDX-License-Identifier: MIT
/*
 * vortex-dmserver's target on the simulator (the host build): a card of
 * its own in-process, the kernel staged by vxdbg_sim_stage(), a session
 * through vxdbg_sim_attach().  Nothing runs unless dmtarget_tick() runs
 * the card, a slice at a time, so the server's loop is its clock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmtarget.h"
#include "vxdbg_sim_start.h"

/* Slots per tick: about a millisecond of waiting, as a debugger's wait counts it. */
#define DMTARGET_SIM_SLOTS	VXDBG_SIM_SLOTS_PER_MS

struct dmtarget {
	struct vxdbg_sim *sim;
	struct vxdbg_sim_staged st;
	struct dmtarget_sample ds;
	const char *kernel;
	uint64_t seqno;		/* the last job, 0 before the first */
	bool running;
};

int dmtarget_open(const struct dmtarget_opts *o, struct dmtarget **out)
{
	struct vxdbg_sim_start so = { .n = o->n };
	const struct vx_sample *s = o->n ? vx_sample_find_path(o->kernel) : NULL;
	struct dmtarget *t;
	int ret;

	memcpy(so.topo, o->topo[0] ? o->topo : (const uint32_t[4]){ 1, 2, 4, 8 },
	       sizeof(so.topo));
	vx_sample_dims(s, o->n, so.topo[0] * so.topo[1], so.topo[2] * so.topo[3],
		       &so.grid, &so.block);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	ret = vxdbg_sim_stage(o->kernel, &so, &t->sim, &t->st);
	if (ret) {
		free(t);
		return ret;
	}
	t->kernel = o->kernel;
	t->ds.s = t->st.sample;
	t->ds.job = t->st.job;
	memcpy(t->ds.addr, t->st.addr, sizeof(t->ds.addr));
	memcpy(t->ds.buf, t->st.buf, sizeof(t->ds.buf));
	*out = t;
	return 0;
}

void dmtarget_close(struct dmtarget *t)
{
	if (!t)
		return;
	vxdbg_sim_free(t->sim);
	free(t->ds.want);
	free(t);
}

int dmtarget_attach(struct dmtarget *t, struct vxdbg_backend **be)
{
	return vxdbg_sim_attach(t->sim, be);
}

int dmtarget_launch(struct dmtarget *t)
{
	void *args = vxdbg_sim_ptr(t->sim, t->st.launch.arg);
	int ret;

	if (t->running)
		return -EBUSY;
	memset(args, 0, 4096);
	if (t->ds.s && !dmtarget_sample_prepare(&t->ds, args, 4096))
		return -ENOMEM;
	ret = vxdbg_sim_launch(t->sim, &t->st.launch, &t->seqno);
	t->running = !ret;
	return ret;
}

enum dmtarget_state dmtarget_tick(struct dmtarget *t, int *status)
{
	uint64_t used;

	if (!t->running)
		return DMTARGET_IDLE;
	used = vxdbg_sim_run(t->sim, DMTARGET_SIM_SLOTS);
	if (vxdbg_sim_wait(t->sim, t->seqno, 0, status))
		return used ? DMTARGET_BUSY : DMTARGET_WAITING;
	t->running = false;
	return DMTARGET_ENDED;
}

void dmtarget_describe(struct dmtarget *t, char *buf, size_t len)
{
	const struct vxdbg_sim_launch *l = &t->st.launch;

	snprintf(buf, len, "job %llu: %s, %u blocks x %u threads, entry 0x%llx, arguments at 0x%llx",
		 (unsigned long long)t->seqno, t->kernel, l->grid[0], l->block[0],
		 (unsigned long long)l->entry, (unsigned long long)l->arg);
}

int dmtarget_check(struct dmtarget *t, char *buf, size_t len)
{
	return dmtarget_sample_check(&t->ds, buf, len);
}
