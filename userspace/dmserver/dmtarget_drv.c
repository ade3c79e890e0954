// SPDX-License-Identifier: MIT
/*
 * vortex-dmserver's targets on the card (the guest build), and the choice
 * among them (dmtarget_open()).  Here the kernel ELF: loaded through
 * libvortex on the accel node, a sample's buffers in BOs, and the debug
 * session attached through that same file, so the server debugs its own
 * jobs ("a process attaching through its own file debugs itself",
 * uapi/vortex_accel.h) under the driver's rules.  The job's end is seen
 * by polling its fence (a WAIT with a zero deadline).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmtarget.h"
#include "libvortex.h"

struct dmtarget_elf {
	struct dmtarget t;
	struct vx_device *dev;
	struct vx_kernel *k;
	struct dmtarget_sample ds;
	struct vx_bo *bo[VX_SAMPLE_MAX_BUFS];
	struct vx_launch_bo lbo[VX_SAMPLE_MAX_BUFS];
	struct vx_launch launch;
	uint8_t args[VX_LAUNCH_MAX_ARGS];
	const char *kernel;
	uint64_t seqno;
	bool running;
};

static const struct dmtarget_ops dmtarget_elf_ops;

static struct dmtarget_elf *to_elf(struct dmtarget *t)
{
	return (struct dmtarget_elf *)t;
}

/* A sample's buffers: a BO and a host copy each. */
static int sample_bufs(struct dmtarget_elf *t)
{
	struct vx_sample_job *j = &t->ds.job;
	int ret;

	vx_sample_layout(t->ds.s, j);
	for (unsigned int i = 0; i < j->nbufs; i++) {
		t->ds.buf[i] = calloc(j->words[i] ?: 1, 4);
		if (!t->ds.buf[i])
			return -ENOMEM;
		ret = vx_bo_alloc(t->dev, (uint64_t)(j->words[i] ?: 1) * 4, &t->bo[i]);
		if (ret)
			return ret;
		t->ds.addr[i] = vx_bo_dev_addr(t->bo[i]);
		t->lbo[i] = (struct vx_launch_bo){ t->bo[i], 0 };
	}
	t->launch.bos = t->lbo;
	t->launch.nbos = j->nbufs;
	return 0;
}

int dmtarget_open(const struct dmtarget_opts *o, struct dmtarget **out)
{
	if (o->pid || o->argv)
		return dmtarget_proc_open(o, out);
	if (dmtarget_is_vxbin(o->kernel))
		return dmtarget_vxbin_open(o, out);
	return dmtarget_elf_open(o, out);
}

int dmtarget_elf_open(const struct dmtarget_opts *o, struct dmtarget **out)
{
	const char *node = o->device ?: "/dev/accel/accel0";
	const struct vx_topology *topo;
	struct dmtarget_elf *t;
	int ret;

	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->t.ops = &dmtarget_elf_ops;
	t->kernel = o->kernel;
	ret = vx_device_open_path(node, &t->dev);
	if (ret) {
		fprintf(stderr, "vortex-dmserver: cannot open %s: %s\n", node, strerror(-ret));
		goto err_free;
	}
	ret = vx_kernel_load_file(t->dev, o->kernel, &t->k);
	if (ret) {
		fprintf(stderr, "vortex-dmserver: cannot load %s: %s\n", o->kernel, strerror(-ret));
		goto err_free;
	}
	topo = vx_device_topology(t->dev);
	t->ds.s = o->n ? vx_sample_find_path(o->kernel) : NULL;
	t->ds.job.n = o->n;
	vx_sample_dims(t->ds.s, o->n, topo->clusters * topo->cores,
		       topo->warps * topo->threads, &t->launch.grid[0], &t->launch.block[0]);
	t->ds.job.grid = t->launch.grid[0];
	t->ds.job.block = t->launch.block[0];
	t->launch.args = t->args;
	t->launch.args_size = sizeof(t->args);
	ret = t->ds.s ? sample_bufs(t) : 0;
	if (ret) {
		fprintf(stderr, "vortex-dmserver: %s: buffers for %u elements: %s\n", o->kernel, o->n,
			strerror(-ret));
		goto err_free;
	}
	*out = &t->t;
	return 0;

err_free:
	dmtarget_close(&t->t);
	return ret;
}

static void elf_close(struct dmtarget *tt)
{
	struct dmtarget_elf *t = to_elf(tt);

	for (int i = 0; i < VX_SAMPLE_MAX_BUFS; i++) {
		vx_bo_free(t->bo[i]);
		free(t->ds.buf[i]);
	}
	free(t->ds.want);
	vx_kernel_free(t->k);
	vx_device_close(t->dev);
	free(t);
}

static int elf_attach(struct dmtarget *t, struct vxdbg_backend **be)
{
	return vxdbg_ioctl_attach_fd(vx_device_fd(to_elf(t)->dev), be);
}

static int upload_bufs(struct dmtarget_elf *t)
{
	const struct vx_sample_job *j = &t->ds.job;
	int ret = 0;

	for (unsigned int i = 0; i < j->nbufs && !ret; i++)
		ret = vx_bo_upload(t->bo[i], 0, t->ds.buf[i], (size_t)j->words[i] * 4);
	return ret;
}

static int elf_launch(struct dmtarget *tt)
{
	struct dmtarget_elf *t = to_elf(tt);
	int ret;

	if (t->running)
		return -EBUSY;
	memset(t->args, 0, sizeof(t->args));
	if (t->ds.s) {
		if (!dmtarget_sample_prepare(&t->ds, t->args, sizeof(t->args)))
			return -ENOMEM;
		ret = upload_bufs(t);
		if (ret)
			return ret;
	}
	ret = vx_launch(t->k, &t->launch, &t->seqno);
	t->running = !ret;
	return ret;
}

static enum dmtarget_state elf_tick(struct dmtarget *tt, int *status)
{
	struct dmtarget_elf *t = to_elf(tt);

	if (!t->running)
		return DMTARGET_IDLE;
	return dmtarget_waited(&t->running, vx_wait(t->dev, t->seqno, 0, status), status);
}

static void elf_describe(struct dmtarget *tt, char *buf, size_t len)
{
	struct dmtarget_elf *t = to_elf(tt);

	snprintf(buf, len, "job %llu: %s, %u blocks x %u threads, entry 0x%llx",
		 (unsigned long long)t->seqno, t->kernel, t->launch.grid[0],
		 t->launch.block[0], (unsigned long long)vx_kernel_entry(t->k));
}

static int elf_check(struct dmtarget *tt, char *buf, size_t len)
{
	struct dmtarget_elf *t = to_elf(tt);
	const struct vx_sample_job *j = &t->ds.job;
	int ret;

	if (!t->ds.s)
		return -ENOENT;
	ret = vx_bo_download(t->bo[j->out], 0, t->ds.buf[j->out], (size_t)j->words[j->out] * 4);
	return ret ?: dmtarget_sample_check(&t->ds, buf, len);
}

static const struct dmtarget_ops dmtarget_elf_ops = {
	.close = elf_close,
	.attach = elf_attach,
	.launch = elf_launch,
	.tick = elf_tick,
	.describe = elf_describe,
	.check = elf_check,
};
