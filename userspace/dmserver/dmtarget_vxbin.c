// SPDX-License-Identifier: MIT
/*
 * vortex-dmserver's target for a Vortex binary on the card (the guest
 * build): staged and started exactly as vortex-run runs one
 * (vortex_run_vxbin.c over libvortexrt: the binary at its load address, the
 * argument file's bytes at mscratch, warp 0 lane 0 of every core started
 * with DRM_VORTEX_SUBMIT_CORES).  libvortexrt's accel file is the only one
 * this process opens, so the debug session attaches to it through our own
 * pid: the server debugs its own jobs, as with a kernel ELF.  A second `s`
 * starts the binary again on memory as the last run left it, as the RTL's
 * reset does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dmtarget.h"
#include "vortex_run_vxbin.h"

struct dmtarget_vxbin {
	struct dmtarget t;
	struct vortex_vxbin *r;
	unsigned int runs;	/* jobs started */
	bool running;
};

static const struct dmtarget_ops dmtarget_vxbin_ops;

static struct dmtarget_vxbin *to_vxbin(struct dmtarget *t)
{
	return (struct dmtarget_vxbin *)t;
}

int dmtarget_vxbin_open(const struct dmtarget_opts *o, struct dmtarget **out)
{
	struct dmtarget_vxbin *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->t.ops = &dmtarget_vxbin_ops;
	if (o->device)
		setenv("VORTEX_DEVICE", o->device, 1);	/* as vortex-run -d */
	if (vortex_vxbin_stage(o->kernel, o->argfile, &t->r)) {
		free(t);
		return -ENODEV;
	}
	*out = &t->t;
	return 0;
}

static void vxbin_close(struct dmtarget *t)
{
	vortex_vxbin_free(to_vxbin(t)->r);
	free(t);
}

static int vxbin_attach(struct dmtarget *t, struct vxdbg_backend **be)
{
	return vxdbg_ioctl_attach_pid(getpid(), be);
}

static int vxbin_launch(struct dmtarget *tt)
{
	struct dmtarget_vxbin *t = to_vxbin(tt);

	if (t->running)
		return -EBUSY;
	if (vortex_vxbin_start(t->r))
		return -EIO;
	t->runs++;
	t->running = true;
	return 0;
}

static enum dmtarget_state vxbin_tick(struct dmtarget *tt, int *status)
{
	struct dmtarget_vxbin *t = to_vxbin(tt);

	if (!t->running)
		return DMTARGET_IDLE;
	return dmtarget_waited(&t->running, vortex_vxbin_wait(t->r, 0, status), status);
}

static void vxbin_describe(struct dmtarget *tt, char *buf, size_t len)
{
	struct dmtarget_vxbin *t = to_vxbin(tt);
	char what[200];

	vortex_vxbin_describe(t->r, what, sizeof(what));
	snprintf(buf, len, "run %u: %s, in Vortex's model (warp 0 lane 0 of every core)",
		 t->runs, what);
}

static const struct dmtarget_ops dmtarget_vxbin_ops = {
	.close = vxbin_close,
	.attach = vxbin_attach,
	.launch = vxbin_launch,
	.tick = vxbin_tick,
	.describe = vxbin_describe,
};
