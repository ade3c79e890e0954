// SPDX-License-Identifier: MIT
/*
 * launch_cores_bench: what a launch in Vortex's model costs, in the guest.
 *
 * Input: the card ($VORTEX_DEVICE, else the first Vortex node) and the
 * empty Vortex kernel: one instruction, `vx_tmc zero` (upstream
 * kernel/include/vx_intrinsics.h: a thread mask of 0 ends the warp, so
 * the core ends), as launch_bench's empty.elf is one thread that returns;
 * --kernel FILE.vxbin runs another.  The address space is libvortexrt's
 * (Vortex's memory map, docs/runtime.md).  Each iteration measures, back
 * to back,
 *   cores_noop_ioctl_us      one GET_PARAM ioctl on the same fd
 *   cores_launch_wait_us     SUBMIT with DRM_VORTEX_SUBMIT_CORES (warp 0
 *                            lane 0 of every core at STARTUP_ADDR), then a
 *                            blocking WAIT: the request vx_start() makes,
 *                            filled once, as launch_bench's is
 *   vx_start_wait_us         vx_start() + vx_ready_wait(): a Vortex
 *                            program's launch, the runtime's whole path
 *                            (DCR writes if they changed, the buffer list,
 *                            SUBMIT, then WAIT and CONSOLE unless SUBMIT
 *                            says the job ended within it and printed
 *                            nothing: DRM_VORTEX_SUBMIT_OUT_*)
 * and, from the same iterations, the ratios to the noop:
 *   cores_launch_vs_noop_ratio   SUBMIT + WAIT, as launch_bench's figure
 *   vx_start_vs_noop_ratio       a Vortex-model launch as Vortex's programs
 *                                make it (issue 24's goal: <= 5)
 * First 100 iterations are not recorded.  Nothing is asserted about speed;
 * a failed ioctl or job makes the exit status EXIT_FAILURE.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vortex.h>

#include "vortex_accel.h"
#include "vxrt_internal.h"
#include "bench_stats.h"

#define BENCH_WARMUP	100

enum { S_NOOP, S_CORES, S_START, S_RCORES, S_RSTART, S_COUNT };

/* The SUBMIT vx_start() makes, every buffer of @dev listed. */
static int cores_request(struct vxrt_device *dev, struct drm_vortex_submit *s,
			 struct drm_vortex_submit_bo **bos)
{
	struct vxrt_buffer *b;
	uint32_t n = 0;

	for (b = dev->bufs; b; b = b->next)
		n++;
	*bos = calloc(n, sizeof(**bos));
	if (!*bos)
		return -ENOMEM;
	n = 0;
	for (b = dev->bufs; b; b = b->next)
		(*bos)[n++] = (struct drm_vortex_submit_bo){ b->handle,
			DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_WRITE };
	*s = (struct drm_vortex_submit){ .flags = DRM_VORTEX_SUBMIT_CORES,
		.bos = (uintptr_t)*bos, .bo_count = n, .bo_stride = sizeof(**bos) };
	return 0;
}

static int cores_launch(struct vxrt_device *dev, struct drm_vortex_submit *s)
{
	struct drm_vortex_wait w = { 0 };
	int ret = vx_ioctl(vxrt_fd(dev), DRM_IOCTL_VORTEX_SUBMIT, s);

	if (ret)
		return ret;
	w.seqno = s->seqno;
	w.timeout_ns = INT64_MAX;
	ret = vx_ioctl(vxrt_fd(dev), DRM_IOCTL_VORTEX_WAIT, &w);
	return ret ?: w.status;
}

static int bench(vx_device_h hdev, vx_buffer_h kernel, vx_buffer_h args, int iters)
{
	static const char *const names[S_COUNT] = {
		"cores_noop_ioctl_us", "cores_launch_wait_us", "vx_start_wait_us",
		"cores_launch_vs_noop_ratio", "vx_start_vs_noop_ratio",
	};
	struct vxrt_device *dev = hdev;
	struct drm_vortex_get_param p = { .param = DRM_VORTEX_PARAM_NUM_CORES };
	struct drm_vortex_submit s;
	struct drm_vortex_submit_bo *bos = NULL;
	double *buf = calloc((size_t)S_COUNT * iters, sizeof(*buf)), *v[S_COUNT];
	double t0, noop, cores, start;
	int ret, n = 0;

	if (!buf)
		return -ENOMEM;
	for (int f = 0; f < S_COUNT; f++)
		v[f] = buf + (size_t)f * iters;
	/* the DCRs vx_start() writes, once: the raw launch reuses them */
	ret = vx_start(hdev, kernel, args) ?: vx_ready_wait(hdev, 10000);
	if (!ret)
		ret = cores_request(dev, &s, &bos);
	for (int i = -BENCH_WARMUP; !ret && i < iters; i++) {
		t0 = now_us();
		ret = vx_ioctl(vxrt_fd(dev), DRM_IOCTL_VORTEX_GET_PARAM, &p);
		noop = now_us() - t0;
		t0 = now_us();
		ret = ret ?: cores_launch(dev, &s);
		cores = now_us() - t0;
		t0 = now_us();
		ret = ret ?: vx_start(hdev, kernel, args) ?: vx_ready_wait(hdev, 10000);
		start = now_us() - t0;
		if (ret || i < 0 || noop <= 0)
			continue;
		v[S_NOOP][n] = noop;
		v[S_CORES][n] = cores;
		v[S_START][n] = start;
		v[S_RCORES][n] = cores / noop;
		v[S_RSTART][n] = start / noop;
		n++;
	}
	if (ret)
		fprintf(stderr, "launch_cores_bench: %s\n", strerror(ret < 0 ? -ret : errno));
	for (int f = 0; !ret && f < S_COUNT; f++)
		ret = print_stats(names[f], v[f], n);
	free(bos);
	free(buf);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "iters", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	/* min_vma, max_vma (STARTUP_ADDR), then `vx_tmc zero` (.insn r 0x0b, 0, 0) */
	static const uint32_t empty[] = { 0x80000000, 0, 0x80000004, 0, 0x0000000b };
	static const uint32_t no_args;
	const char *kpath = NULL;
	vx_buffer_h kernel, args;
	vx_device_h dev;
	int iters = 1000, c, ret;

	while ((c = getopt_long(argc, argv, "k:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			kpath = optarg;
			break;
		case 'n':
			iters = atoi(optarg);
			break;
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"Usage: %s [--kernel K.vxbin] [--iters N]\n", argv[0]);
			return c == 'h' ? EXIT_SUCCESS : EXIT_FAILURE;
		}
	}
	if (iters < 1 || vx_dev_open(&dev)) {
		fprintf(stderr, "launch_cores_bench: no card for Vortex's launch model\n");
		return EXIT_FAILURE;
	}
	if ((kpath ? vx_upload_kernel_file(dev, kpath, &kernel) :
		     vx_upload_kernel_bytes(dev, empty, sizeof(empty), &kernel)) ||
	    vx_upload_bytes(dev, &no_args, sizeof(no_args), &args)) {
		fprintf(stderr, "launch_cores_bench: %s: %s\n", kpath ?: "the empty kernel",
			strerror(errno));
		vx_dev_close(dev);
		return EXIT_FAILURE;
	}
	ret = bench(dev, kernel, args, iters);
	vx_mem_free(args);
	vx_mem_free(kernel);
	vx_dev_close(dev);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
