// SPDX-License-Identifier: MIT
/*
 * vortex-dmserver's target on the simulator (the host build): a card of
 * its own in-process, a kernel ELF staged by vxdbg_sim_stage() or a Vortex
 * binary by vxdbg_sim_stage_vxbin() (Vortex's launch model, as vortex-run
 * runs one), a session through vxdbg_sim_attach().  Nothing runs unless
 * dmtarget_tick() runs the card, a slice at a time, so the server's loop
 * is its clock.  A Vortex binary's second `s` starts it again on memory as
 * the last run left it, as the RTL's reset does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmtarget.h"
#include "vortex_regs.h"
#include "vxdbg_sim_start.h"

/* Slots per tick: about a millisecond of waiting, as a debugger's wait counts it. */
#define DMTARGET_SIM_SLOTS	VXDBG_SIM_SLOTS_PER_MS

struct dmtarget_sim {
	struct dmtarget t;
	struct vxdbg_sim *sim;
	struct vxdbg_sim_staged st;
	struct dmtarget_sample ds;
	const char *kernel;
	uint64_t seqno;		/* the last job, 0 before the first */
	bool running;
};

static const struct dmtarget_ops dmtarget_sim_ops;

static struct dmtarget_sim *to_sim(struct dmtarget *t)
{
	return (struct dmtarget_sim *)t;
}

int dmtarget_open(const struct dmtarget_opts *o, struct dmtarget **out)
{
	struct vxdbg_sim_start so = { .n = o->n };
	const struct vx_sample *s = o->n ? vx_sample_find_path(o->kernel) : NULL;
	struct dmtarget_sim *t;
	int ret;

	if (o->pid || o->argv) {
		fprintf(stderr, "vortex-dmserver: the simulator runs its own kernel: no -p, no --\n");
		return -EINVAL;
	}
	memcpy(so.topo, o->topo[0] ? o->topo : (const uint32_t[4]){ 1, 2, 4, 8 },
	       sizeof(so.topo));
	vx_sample_dims(s, o->n, so.topo[0] * so.topo[1], so.topo[2] * so.topo[3],
		       &so.grid, &so.block);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->t.ops = &dmtarget_sim_ops;
	ret = dmtarget_is_vxbin(o->kernel) ?
	      vxdbg_sim_stage_vxbin(o->kernel, o->argfile, &so, &t->sim, &t->st) :
	      vxdbg_sim_stage(o->kernel, &so, &t->sim, &t->st);
	if (ret) {
		free(t);
		return ret;
	}
	t->kernel = o->kernel;
	t->ds.s = t->st.sample;
	t->ds.job = t->st.job;
	memcpy(t->ds.addr, t->st.addr, sizeof(t->ds.addr));
	memcpy(t->ds.buf, t->st.buf, sizeof(t->ds.buf));
	*out = &t->t;
	return 0;
}

static void sim_close(struct dmtarget *tt)
{
	struct dmtarget_sim *t = to_sim(tt);

	vxdbg_sim_free(t->sim);
	free(t->ds.want);
	free(t);
}

static int sim_attach(struct dmtarget *t, struct vxdbg_backend **be)
{
	return vxdbg_sim_attach(to_sim(t)->sim, be);
}

static bool sim_vortex_model(const struct dmtarget_sim *t)
{
	return t->st.launch.flags & VX_LAUNCH_FLAG_CORES;
}

static int sim_launch(struct dmtarget *tt)
{
	struct dmtarget_sim *t = to_sim(tt);
	void *args = vxdbg_sim_ptr(t->sim, t->st.launch.arg);
	int ret;

	if (t->running)
		return -EBUSY;
	/* a Vortex binary's argument block is its file's, not ours */
	if (!sim_vortex_model(t))
		memset(args, 0, 4096);
	if (t->ds.s && !dmtarget_sample_prepare(&t->ds, args, 4096))
		return -ENOMEM;
	ret = vxdbg_sim_launch(t->sim, &t->st.launch, &t->seqno);
	t->running = !ret;
	return ret;
}

static enum dmtarget_state sim_tick(struct dmtarget *tt, int *status)
{
	struct dmtarget_sim *t = to_sim(tt);
	uint64_t used;

	if (!t->running)
		return DMTARGET_IDLE;
	used = vxdbg_sim_run(t->sim, DMTARGET_SIM_SLOTS);
	if (vxdbg_sim_wait(t->sim, t->seqno, 0, status))
		return used ? DMTARGET_BUSY : DMTARGET_WAITING;
	t->running = false;
	return DMTARGET_ENDED;
}

static void sim_describe(struct dmtarget *tt, char *buf, size_t len)
{
	struct dmtarget_sim *t = to_sim(tt);
	const struct vxdbg_sim_launch *l = &t->st.launch;

	if (sim_vortex_model(t)) {
		snprintf(buf, len, "job %llu: %s at 0x%llx, argument block at 0x%llx, in Vortex's "
			 "model (warp 0 lane 0 of every core)", (unsigned long long)t->seqno,
			 t->kernel, (unsigned long long)l->entry, (unsigned long long)l->arg);
		return;
	}
	snprintf(buf, len, "job %llu: %s, %u blocks x %u threads, entry 0x%llx, arguments at 0x%llx",
		 (unsigned long long)t->seqno, t->kernel, l->grid[0], l->block[0],
		 (unsigned long long)l->entry, (unsigned long long)l->arg);
}

static int sim_check(struct dmtarget *t, char *buf, size_t len)
{
	return dmtarget_sample_check(&to_sim(t)->ds, buf, len);
}

static const struct dmtarget_ops dmtarget_sim_ops = {
	.close = sim_close,
	.attach = sim_attach,
	.launch = sim_launch,
	.tick = sim_tick,
	.describe = sim_describe,
	.check = sim_check,
};
