// SPDX-License-Identifier: MIT
/*
 * launch_bench: launch overhead and BO copy throughput, in the guest.
 *
 * Input: the card at /dev/accel/accel0 (--device overrides) and the empty
 * kernel /vortex/kernels/empty.elf (--kernel overrides).  Prints
 * "name: value" lines for scripts/bench.sh:
 *   noop_ioctl_us            GET_PARAM round trip on the same fd
 *   launch_wait_us           launch + wait of an empty 1-thread kernel
 *   launch_submit_us         of which the SUBMIT path (vx_launch())
 *   launch_poll_us           the same round trip, waiting by polling WAIT
 *   launch_vs_noop_ratio     the two above divided (goal <= 5)
 *   bo_upload_mbps / bo_download_mbps   memcpy into / out of a BO mapping
 *   memcpy_mbps              memcpy between two malloc'ed buffers
 * Times are medians of repeated runs, to shrug off guest scheduling noise.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drm.h"
#include "vortex_accel.h"
#include "vortex.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static int bench_noop(struct vx_device *dev, int iters, double *us)
{
	double *t = calloc(iters, sizeof(*t));
	uint64_t v;

	if (!t)
		return -ENOMEM;
	for (int i = 0; i < iters; i++) {
		double t0 = now_us();
		int ret = vx_get_param(dev, DRM_VORTEX_PARAM_NUM_CORES, &v);

		if (ret) {
			free(t);
			return ret;
		}
		t[i] = now_us() - t0;
	}
	*us = median(t, iters);
	free(t);
	return 0;
}

/* Block in WAIT, or (poll) call it with a deadline of 0 until the job ends. */
static int wait_job(struct vx_device *dev, uint64_t seq, int poll, int *status)
{
	int ret;

	if (!poll)
		return vx_wait(dev, seq, vx_deadline_ms(10000), status);
	do {
		ret = vx_wait(dev, seq, 0, status);
	} while (ret == -ETIME);
	return ret;
}

/*
 * Median launch + wait round trip, and of its two halves: the SUBMIT path
 * (vx_launch() returning) and the wait for the fence.
 */
static int bench_launch(struct vx_device *dev, struct vx_kernel *k, int iters,
			int poll, double *us, double *submit_us)
{
	struct vx_launch l = { .grid = { 1 }, .block = { 1 } };
	double *t = calloc(2 * (size_t)iters, sizeof(*t));
	int ret = 0, status = 0;

	if (!t)
		return -ENOMEM;
	/* one untimed run: first-use allocations (stack, argument ring) */
	ret = vx_run(k, &l, 10000);
	for (int i = 0; !ret && i < iters; i++) {
		double t0 = now_us(), t1;
		uint64_t seq;

		ret = vx_launch(k, &l, &seq);
		t1 = now_us();
		if (!ret)
			ret = wait_job(dev, seq, poll, &status);
		if (!ret)
			ret = status;
		t[i] = now_us() - t0;
		t[iters + i] = t1 - t0;
	}
	if (!ret) {
		*us = median(t, iters);
		*submit_us = median(t + iters, iters);
	}
	free(t);
	return ret;
}

/* MB/s of memcpy(dst, src, len), best of @reps. */
static double copy_mbps(void *dst, const void *src, size_t len, int reps)
{
	double best = 1e30;

	for (int r = 0; r < reps; r++) {
		double t0 = now_us(), dt;

		memcpy(dst, src, len);
		__asm__ volatile ("" ::: "memory");
		dt = now_us() - t0;
		if (dt < best)
			best = dt;
	}
	return len / best;	/* bytes per µs = MB/s */
}

static int bench_copy(struct vx_device *dev, size_t len)
{
	struct vx_bo *bo;
	char *a, *b;
	void *map;
	int ret;

	a = malloc(len);
	b = malloc(len);
	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	memset(a, 0x5a, len);
	memset(b, 0xa5, len);
	ret = vx_bo_alloc(dev, len, &bo);
	if (!ret)
		ret = vx_bo_map(bo, &map);
	if (!ret) {
		printf("bo_copy_bytes: %zu\n", len);
		printf("bo_upload_mbps: %.1f\n", copy_mbps(map, a, len, 5));
		printf("bo_download_mbps: %.1f\n", copy_mbps(b, map, len, 3));
		printf("memcpy_mbps: %.1f\n", copy_mbps(b, a, len, 5));
	}
	vx_bo_free(bo);
	free(a);
	free(b);
	return ret;
}

static void usage(FILE *f, const char *argv0)
{
	fprintf(f, "Usage: %s [--device PATH] [--kernel EMPTY.elf] [--iters N] [--mib M]\n"
		"Print launch overhead and BO copy throughput as 'name: value' lines.\n",
		argv0);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "iters", required_argument, NULL, 'n' },
		{ "mib", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *device = "/dev/accel/accel0", *kpath = "/vortex/kernels/empty.elf";
	int iters = 1000, mib = 16, c, ret;
	double noop_us, launch_us, submit_us, poll_us, poll_submit_us;
	struct vx_device *dev;
	struct vx_kernel *k;

	while ((c = getopt_long(argc, argv, "d:k:n:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			device = optarg;
			break;
		case 'k':
			kpath = optarg;
			break;
		case 'n':
			iters = atoi(optarg);
			break;
		case 'm':
			mib = atoi(optarg);
			break;
		case 'h':
			usage(stdout, argv[0]);
			return EXIT_SUCCESS;
		default:
			usage(stderr, argv[0]);
			return EXIT_FAILURE;
		}
	}
	if (iters < 1 || mib < 1) {
		usage(stderr, argv[0]);
		return EXIT_FAILURE;
	}
	ret = vx_device_open_path(device, &dev);
	if (ret) {
		fprintf(stderr, "launch_bench: %s: %s\n", device, strerror(-ret));
		return EXIT_FAILURE;
	}
	ret = vx_kernel_load_file(dev, kpath, &k);
	if (ret) {
		fprintf(stderr, "launch_bench: %s: %s\n", kpath, strerror(-ret));
		vx_device_close(dev);
		return EXIT_FAILURE;
	}
	ret = bench_noop(dev, iters, &noop_us);
	if (!ret)
		ret = bench_launch(dev, k, iters, 0, &launch_us, &submit_us);
	if (!ret)
		ret = bench_launch(dev, k, iters, 1, &poll_us, &poll_submit_us);
	if (!ret) {
		printf("noop_ioctl_us: %.2f\n", noop_us);
		printf("launch_wait_us: %.2f\n", launch_us);
		printf("launch_submit_us: %.2f\n", submit_us);
		printf("launch_poll_us: %.2f\n", poll_us);
		printf("launch_vs_noop_ratio: %.2f\n", launch_us / noop_us);
	} else {
		fprintf(stderr, "launch_bench: launch: %s\n", vx_status_name(ret));
	}
	/* the copy figures do not depend on the launch path working */
	c = bench_copy(dev, (size_t)mib << 20);
	if (c)
		fprintf(stderr, "launch_bench: BO copy: %s\n", strerror(-c));
	ret = ret ? ret : c;
	vx_kernel_free(k);
	vx_device_close(dev);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
