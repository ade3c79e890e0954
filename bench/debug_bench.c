// SPDX-License-Identifier: MIT
/*
 * debug_bench: what the debugger interface costs (guest).
 *
 * Input: the card at /dev/accel/accel0 (--device), the empty kernel
 * (/vortex/kernels/empty.elf, --kernel) started halted at its first
 * instruction under a debug session this process opens on itself, and
 * the driver's DM access counter in debugfs.  Prints, each as the median
 * of --runs runs with the spread (min..max):
 *
 *   dm_mmio_per_reg      DM register accesses per lane register for one
 *                        REGS batch of x0..x31 x every lane of a warp
 *                        (goal <= 2; the driver was designed for ~1.7)
 *   dbg_regs_per_s       lane registers read per second through REGS
 *   dbg_mem_vs_bo_ratio  bulk read through the MEM ioctl vs memcpy from a
 *                        mapping of the same buffer (goal >= 0.8)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libvortex.h"
#include "vxdbg.h"
#include "vxdbg_backend.h"

#define MAX_RUNS	32

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *name, double *v, int n, const char *fmt)
{
	char med[32], lo[32], hi[32];

	qsort(v, n, sizeof(*v), cmp_double);
	snprintf(med, sizeof(med), fmt, n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
	snprintf(lo, sizeof(lo), fmt, v[0]);
	snprintf(hi, sizeof(hi), fmt, v[n - 1]);
	printf("%s: %s (median of %d runs, spread %s..%s)\n", name, med, n, lo, hi);
}

/* One REGS batch: x0..x31 of every lane of @warp. */
static int read_warp_gprs(struct vxdbg_backend *be, uint32_t warp, uint32_t threads,
			  uint32_t *vals)
{
	struct drm_vortex_debug_reg_op ops[32];
	struct drm_vortex_debug_regs r = {
		.ops = (uintptr_t)ops, .count = 32, .stride = sizeof(ops[0]),
	};

	memset(ops, 0, sizeof(ops));
	for (int i = 0; i < 32; i++) {
		ops[i].warp = warp;
		ops[i].reg = i;
		ops[i].values = (uintptr_t)(vals + i * threads);
		for (uint32_t l = 0; l < threads; l++)
			ops[i].lanes[l / 32] |= 1u << l % 32;
	}
	return be->ops->regs(be, &r);
}

static int bench_regs(struct vxdbg_backend *be, uint32_t warp, int runs)
{
	uint32_t threads = be->topo.threads, *vals = malloc(32 * threads * 4);
	double per_reg[MAX_RUNS], rate[MAX_RUNS];
	uint64_t before, after;
	int ret = 0, dm = 1;

	for (int r = 0; r < runs && !ret; r++) {
		double t0, t;
		long n = 0;

		if (be->ops->dm_accesses(be, &before))
			dm = 0;
		ret = read_warp_gprs(be, warp, threads, vals);
		if (dm && !ret && !be->ops->dm_accesses(be, &after))
			per_reg[r] = (double)(after - before) / (32.0 * threads);
		t0 = now_s();
		do {
			ret = ret ?: read_warp_gprs(be, warp, threads, vals);
			n++;
			t = now_s() - t0;
		} while (!ret && t < 0.3);
		rate[r] = n * 32.0 * threads / t;
	}
	free(vals);
	if (ret)
		return fprintf(stderr, "debug_bench: REGS: %s\n", strerror(-ret)), ret;
	if (dm)
		report("dm_mmio_per_reg", per_reg, runs, "%.2f");
	else
		fprintf(stderr, "debug_bench: no dm_accesses in debugfs\n");
	report("dbg_regs_per_s", rate, runs, "%.0f");
	return 0;
}

static int bench_mem(struct vx_device *dev, struct vxdbg_backend *be, uint64_t bytes,
		     int runs)
{
	struct drm_vortex_debug_mem_op op = { .len = bytes };
	struct drm_vortex_debug_mem m = {
		.ops = (uintptr_t)&op, .count = 1, .stride = sizeof(op),
	};
	double ratio[MAX_RUNS];
	struct vx_bo *bo;
	void *map, *buf = malloc(bytes);
	int ret;

	ret = buf ? vx_bo_alloc(dev, bytes, &bo) : -ENOMEM;
	if (!ret && (ret = vx_bo_map(bo, &map)))
		vx_bo_free(bo);
	if (ret)
		return fprintf(stderr, "debug_bench: buffer: %s\n", strerror(-ret)), ret;
	memset(map, 0x5a, bytes);
	op.addr = vx_bo_dev_addr(bo);
	op.buf = (uintptr_t)buf;
	/* Four copies per timing, the order alternating, against TCG's noise. */
	for (int r = 0; r < runs && !ret; r++) {
		double t[2] = { 0, 0 }, t0;	/* [0] the mapping, [1] MEM */

		for (int i = 0; i < 8 && !ret; i++) {
			int mem = (r + i) % 2;

			t0 = now_s();
			if (mem) {
				ret = be->ops->mem(be, &m);
			} else {
				memcpy(buf, map, bytes);
			}
			t[mem] += now_s() - t0;
		}
		ratio[r] = t[0] / t[1];		/* MEM's throughput over the mapping's */
	}
	vx_bo_free(bo);
	free(buf);
	if (ret)
		return fprintf(stderr, "debug_bench: MEM: %s\n", strerror(-ret)), ret;
	printf("dbg_mem_bytes: %llu\n", (unsigned long long)bytes);
	report("dbg_mem_vs_bo_ratio", ratio, runs, "%.2f");
	return 0;
}

/* A job halted at its start, and the first halted warp's id. */
static int halted_job(struct vx_device *dev, struct vx_kernel *k, struct vxdbg *d,
		      uint32_t *warp, uint64_t *seqno)
{
	const struct vx_topology *t = vx_device_topology(dev);
	struct vx_launch l = { .grid = { 1, 1, 1 }, .block = { t->threads, 1, 1 } };
	struct vxdbg_event ev;
	vxdbg_result r;
	int ret;

	r = vxdbg_halt_at_start(d, 0, true);
	if (r)
		return fprintf(stderr, "debug_bench: %s\n", vxdbg_result_name(r)), -EIO;
	ret = vx_launch(k, &l, seqno);
	if (ret)
		return fprintf(stderr, "debug_bench: launch: %s\n", strerror(-ret)), ret;
	do {
		r = vxdbg_get_next_event(d, &ev, 20000);
	} while (!r && ev.kind != VXDBG_EVENT_HALTED);
	if (r)
		return fprintf(stderr, "debug_bench: no halt: %s\n", vxdbg_result_name(r)), -EIO;
	*warp = ev.u.halted.sm * t->warps + ev.u.halted.wp;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "runs", required_argument, NULL, 'r' },
		{ "mib", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *device = "/dev/accel/accel0", *kpath = "/vortex/kernels/empty.elf";
	int runs = 7, mib = 4, c, ret, st;
	struct vxdbg_backend *be;
	struct vx_device *dev;
	struct vx_kernel *k;
	struct vxdbg *d;
	uint64_t seqno;
	uint32_t warp;

	while ((c = getopt_long(argc, argv, "d:k:r:m:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'd': device = optarg; break;
		case 'k': kpath = optarg; break;
		case 'r': runs = atoi(optarg); break;
		case 'm': mib = atoi(optarg); break;
		case 'h':
			printf("Usage: %s [--device PATH] [--kernel EMPTY.elf] [--runs N] [--mib M]\n",
			       argv[0]);
			return 0;
		default:
			return EXIT_FAILURE;
		}
	}
	if (runs < 1 || runs > MAX_RUNS || mib < 1)
		return fprintf(stderr, "debug_bench: 1..%d runs, at least 1 MiB\n", MAX_RUNS),
		       EXIT_FAILURE;
	ret = vx_device_open_path(device, &dev);
	if (!ret)
		ret = vx_kernel_load_file(dev, kpath, &k);
	if (!ret)
		ret = vxdbg_ioctl_attach_fd(vx_device_fd(dev), &be);
	if (ret)
		return fprintf(stderr, "debug_bench: setup: %s\n", strerror(-ret)), EXIT_FAILURE;
	if (vxdbg_initialize(be, &d))
		return EXIT_FAILURE;
	ret = halted_job(dev, k, d, &warp, &seqno);
	if (!ret) {
		printf("dbg_warp_lanes: %u\n", be->topo.threads);
		ret = bench_regs(be, warp, runs) ?: bench_mem(dev, be, (uint64_t)mib << 20, runs);
	}
	vxdbg_finalize(d);		/* the job runs on and ends */
	if (!ret)
		vx_wait(dev, seqno, vx_deadline_ms(20000), &st);
	vx_kernel_free(k);
	vx_device_close(dev);
	return ret ? EXIT_FAILURE : 0;
}
