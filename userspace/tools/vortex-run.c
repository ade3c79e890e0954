// SPDX-License-Identifier: MIT
/*
 * vortex-run: run one kernel ELF on a Vortex card and check its result.
 *
 * Input: the kernel binary named on the command line (normally one of the
 * samples in /vortex/kernels/), the card at /dev/accel/accelN (--index,
 * default 0) or --device PATH, and inputs this program generates from a
 * fixed seed.  For the sample kernels it knows (by the ELF's base name or
 * --kind) it builds the argument block, runs the kernel, and compares every
 * output element with a host computation.  For any other kernel the
 * positional arguments after the ELF are 32-bit words of its argument
 * block, and nothing is checked beyond the job's status.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vortex.h"
#include "vortex_kernels.h"

/* Exit codes besides EXIT_SUCCESS / EXIT_FAILURE (usage, setup). */
#define EXIT_WRONG	2	/* the job ran but its results are wrong */
#define EXIT_TIMEDOUT	3	/* the job hung and the driver stopped it */
#define EXIT_FAULT	4	/* the job raised a device exception */

struct run {
	struct vx_device *dev;
	const struct vx_topology *topo;
	struct vx_kernel *k;
	struct vx_launch launch;
	struct vx_launch_bo bos[4];
	uint32_t n;		/* elements */
	uint32_t seed;
	int timeout_ms;
	int verbose;
	char detail[128];	/* check's one-line verdict */
	/* kind state */
	void *host[4];
	struct vx_bo *bo[4];
	union {
		struct vecadd_args vecadd;
		struct saxpy_args saxpy;
		struct reduce_args reduce;
		struct diverge_args diverge;
		struct reloc_args reloc;
		struct hang_args hang;
		struct fault_args fault;
		uint32_t raw[VX_LAUNCH_MAX_ARGS / 4];
	} args;
};

struct kind {
	const char *name;
	int (*setup)(struct run *r);
	int (*check)(struct run *r);	/* EXIT_SUCCESS or EXIT_WRONG */
	int strided;			/* loops: a grid the size of the card suffices */
};

static uint32_t rnd(uint32_t *s)
{
	/* xorshift32: reproducible inputs, same on every run */
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Allocate buffer i of n 32-bit words, filled from host[i] if given. */
static int buf(struct run *r, int i, uint32_t words, int fill)
{
	int ret;

	r->host[i] = calloc(words ? words : 1, 4);
	if (!r->host[i])
		return -ENOMEM;
	if (fill == 1)
		for (uint32_t j = 0; j < words; j++)
			((uint32_t *)r->host[i])[j] = rnd(&r->seed) % 100000;
	else if (fill == 2)
		for (uint32_t j = 0; j < words; j++)
			((float *)r->host[i])[j] = (float)(rnd(&r->seed) % 20000) / 64.0f - 150.0f;
	else if (fill == 3)	/* full range, negative too */
		for (uint32_t j = 0; j < words; j++)
			((uint32_t *)r->host[i])[j] = rnd(&r->seed) - 0x80000000u;
	ret = vx_bo_alloc(r->dev, (uint64_t)(words ? words : 1) * 4, &r->bo[i]);
	if (!ret)
		ret = vx_bo_upload(r->bo[i], 0, r->host[i], (size_t)words * 4);
	if (ret)
		return ret;
	r->bos[r->launch.nbos++] = (struct vx_launch_bo){ r->bo[i], 0 };
	return 0;
}

static uint32_t addr(struct run *r, int i)
{
	return (uint32_t)vx_bo_dev_addr(r->bo[i]);
}

static int setup_vecadd(struct run *r)
{
	int ret = buf(r, 0, r->n, 3) ?: buf(r, 1, r->n, 3) ?: buf(r, 2, r->n, 0);

	r->args.vecadd = (struct vecadd_args){ addr(r, 0), addr(r, 1), addr(r, 2), r->n };
	r->launch.args_size = sizeof(r->args.vecadd);
	return ret;
}

static int check_vecadd(struct run *r)
{
	const uint32_t *a = r->host[0], *b = r->host[1];
	uint32_t *c = r->host[2], bad = 0, first = 0;

	if (vx_bo_download(r->bo[2], 0, c, (size_t)r->n * 4))
		return EXIT_FAILURE;
	for (uint32_t i = 0; i < r->n; i++)
		if (c[i] != a[i] + b[i] && !bad++)
			first = i;
	if (bad)
		printf("  first wrong c[%u] = %d, expected %d\n", first,
		       (int32_t)c[first], (int32_t)(a[first] + b[first]));
	snprintf(r->detail, sizeof(r->detail), "%u of %u elements exact, max error %u",
		 r->n - bad, r->n, bad ? 1u : 0u);
	return bad ? EXIT_WRONG : EXIT_SUCCESS;
}

static int setup_saxpy(struct run *r)
{
	int ret = buf(r, 0, r->n, 2) ?: buf(r, 1, r->n, 2);
	float alpha = 2.5f;

	r->host[2] = malloc((size_t)r->n * 4 + 4);
	if (!ret && !r->host[2])
		ret = -ENOMEM;
	if (!ret)
		memcpy(r->host[2], r->host[1], (size_t)r->n * 4);	/* y before */
	r->args.saxpy = (struct saxpy_args){ addr(r, 0), addr(r, 1), r->n, alpha };
	r->launch.args_size = sizeof(r->args.saxpy);
	return ret;
}

static int check_saxpy(struct run *r)
{
	const float *x = r->host[0], *y0 = r->host[2];
	float *y = r->host[1], alpha = r->args.saxpy.alpha;
	double maxerr = 0;
	uint32_t bad = 0;

	if (vx_bo_download(r->bo[1], 0, y, (size_t)r->n * 4))
		return EXIT_FAILURE;
	for (uint32_t i = 0; i < r->n; i++) {
		volatile float p = alpha * x[i];	/* no fused multiply-add */
		float want = p + y0[i];
		double err = fabs((double)y[i] - want);

		if (err > maxerr)
			maxerr = err;
		if (y[i] != want && !bad++)
			printf("  first wrong y[%u] = %g, expected %g\n", i, y[i], want);
	}
	snprintf(r->detail, sizeof(r->detail), "%u of %u elements exact, max error %g",
		 r->n - bad, r->n, maxerr);
	return bad ? EXIT_WRONG : EXIT_SUCCESS;
}

static int setup_reduce(struct run *r)
{
	uint32_t blocks = r->launch.grid[0], bt = r->launch.block[0];
	int ret = buf(r, 0, r->n, 3) ?: buf(r, 1, blocks, 0) ?: buf(r, 2, blocks * bt, 0);

	r->args.reduce = (struct reduce_args){ addr(r, 0), addr(r, 1), addr(r, 2), r->n };
	r->launch.args_size = sizeof(r->args.reduce);
	return ret;
}

static int check_reduce(struct run *r)
{
	const uint32_t *in = r->host[0];
	uint32_t *part = r->host[1], want = 0, got = 0;

	if (vx_bo_download(r->bo[1], 0, part, (size_t)r->launch.grid[0] * 4))
		return EXIT_FAILURE;
	for (uint32_t i = 0; i < r->n; i++)
		want += in[i];
	for (uint32_t b = 0; b < r->launch.grid[0]; b++)
		got += part[b];
	snprintf(r->detail, sizeof(r->detail), "sum %d, expected %d",
		 (int32_t)got, (int32_t)want);
	return got == want ? EXIT_SUCCESS : EXIT_WRONG;
}

static int setup_diverge(struct run *r)
{
	int ret = buf(r, 0, r->n, 3) ?: buf(r, 1, r->n, 0);
	int32_t *in = r->host[0];

	/* mostly small values so every path of diverge_ref() is taken */
	for (uint32_t i = 0; i < r->n; i++)
		if (i % 4)
			in[i] = in[i] % 300;
	if (!ret)
		ret = vx_bo_upload(r->bo[0], 0, in, (size_t)r->n * 4);
	r->args.diverge = (struct diverge_args){ addr(r, 0), addr(r, 1), r->n, 0 };
	r->launch.args_size = sizeof(r->args.diverge);
	return ret;
}

static int check_diverge(struct run *r)
{
	const int32_t *in = r->host[0];
	int32_t *out = r->host[1];
	uint32_t bad = 0;

	if (vx_bo_download(r->bo[1], 0, out, (size_t)r->n * 4))
		return EXIT_FAILURE;
	for (uint32_t i = 0; i < r->n; i++)
		if (out[i] != diverge_ref(in[i]) && !bad++)
			printf("  first wrong out[%u] = %d, expected %d (in %d)\n",
			       i, out[i], diverge_ref(in[i]), in[i]);
	snprintf(r->detail, sizeof(r->detail), "%u of %u elements exact",
		 r->n - bad, r->n);
	return bad ? EXIT_WRONG : EXIT_SUCCESS;
}

static int setup_reloc(struct run *r)
{
	int ret = buf(r, 0, r->n, 0);

	r->args.reloc = (struct reloc_args){ addr(r, 0), r->n };
	r->launch.args_size = sizeof(r->args.reloc);
	return ret;
}

static int check_reloc(struct run *r)
{
	int32_t *out = r->host[0];
	uint32_t bad = 0;

	if (vx_bo_download(r->bo[0], 0, out, (size_t)r->n * 4))
		return EXIT_FAILURE;
	for (uint32_t i = 0; i < r->n; i++)
		if (out[i] != reloc_ref(i) && !bad++)
			printf("  first wrong out[%u] = %d, expected %d\n", i, out[i],
			       reloc_ref(i));
	snprintf(r->detail, sizeof(r->detail), "%u of %u elements exact",
		 r->n - bad, r->n);
	return bad ? EXIT_WRONG : EXIT_SUCCESS;
}

static int setup_hang(struct run *r)
{
	int ret = buf(r, 0, 1, 0);

	r->args.hang = (struct hang_args){ addr(r, 0), 0 };
	r->launch.args_size = sizeof(r->args.hang);
	return ret;
}

static int setup_fault(struct run *r)
{
	int ret = buf(r, 0, 1, 0);

	/* fault_assert: every lane from the middle of the grid on fails */
	r->args.fault = (struct fault_args){ addr(r, 0), r->n / 2 };
	r->launch.args_size = sizeof(r->args.fault);
	return ret;
}

static int setup_none(struct run *r)
{
	return 0;
}

static const struct kind kinds[] = {
	{ "vecadd", setup_vecadd, check_vecadd, 0 },
	{ "saxpy", setup_saxpy, check_saxpy, 1 },
	{ "reduce", setup_reduce, check_reduce, 1 },
	{ "diverge", setup_diverge, check_diverge, 0 },
	{ "reloc", setup_reloc, check_reloc, 0 },
	{ "hang", setup_hang, NULL, 0 },
	{ "empty", setup_none, NULL, 0 },
	{ "fault_badaddr", setup_fault, NULL, 0 },
	{ "fault_misaligned", setup_fault, NULL, 0 },
	{ "fault_illegal", setup_fault, NULL, 0 },
	{ "fault_assert", setup_fault, NULL, 0 },
};

static const struct kind *find_kind(const char *name)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	return NULL;
}

static void usage(FILE *f, const char *argv0)
{
	fprintf(f,
		"Usage: %s [OPTION]... KERNEL.elf [N | WORD...]\n"
		"       %s [--device PATH | --index N] --info\n"
		"Run a kernel on a Vortex card and check its outputs.\n\n"
		"  -d, --device PATH   card node (default /dev/accel/accel0)\n"
		"  -i, --index N       card /dev/accel/accelN\n"
		"  -g, --grid X[,Y,Z]  blocks (default: enough for N elements)\n"
		"  -b, --block X[,Y,Z] threads per block (default: one core)\n"
		"  -t, --timeout MS    wait at most MS ms (default: driver timeout + 1 s)\n"
		"  -k, --kind NAME     argument layout (default: the ELF's base name)\n"
		"  -s, --seed N        input generator seed (default 1)\n"
		"  -v, --verbose       print launch details\n"
		"  -I, --info          print the card's topology and exit\n"
		"  -h, --help          this text\n\n"
		"Known kinds, N = elements (default 1024): vecadd saxpy reduce diverge\n"
		"reloc; N = threads, no output to check: hang empty fault_badaddr\n"
		"fault_misaligned fault_illegal fault_assert.  Other kernels: WORDs\n"
		"fill the argument block.\n\n"
		"Exit status: 0 ok, 1 usage or setup error, %d wrong results,\n"
		"%d job timed out (hang), %d device exception.\n",
		argv0, argv0, EXIT_WRONG, EXIT_TIMEDOUT, EXIT_FAULT);
}

static int parse_dims(const char *s, uint32_t d[3])
{
	char *end;

	for (int i = 0; i < 3; i++) {
		unsigned long v = strtoul(s, &end, 0);

		if (end == s || !v || v > UINT32_MAX)
			return -1;
		d[i] = v;
		if (!*end)
			return 0;
		if (*end != ',' || i == 2)
			return -1;
		s = end + 1;
	}
	return 0;
}

/* Grid/block defaults from the topology and the element count. */
static void default_dims(struct run *r, const struct kind *kind)
{
	uint32_t core = r->topo->warps * r->topo->threads;

	if (!r->launch.block[0])
		r->launch.block[0] = core;
	if (!r->launch.grid[0]) {
		uint32_t bt = r->launch.block[0];
		uint32_t g = (r->n + bt - 1) / bt;

		/* reduce and saxpy loop: a grid as big as the card suffices */
		if (kind && kind->strided) {
			uint32_t cores = r->topo->clusters * r->topo->cores;

			if (g > cores * 2)
				g = cores * 2;
		}
		r->launch.grid[0] = g ? g : 1;
	}
}

static int report_status(const char *name, int ret, double ms)
{
	if (ret == -ETIMEDOUT || ret == -ETIME) {
		printf("%s: %s after %.0f ms\n", name, vx_status_name(ret), ms);
		return EXIT_TIMEDOUT;
	}
	if (ret == -EIO) {
		printf("%s: %s after %.1f ms (the driver logs the cause)\n", name,
		       vx_status_name(ret), ms);
		return EXIT_FAULT;
	}
	fprintf(stderr, "%s: launch failed: %s\n", name, strerror(-ret));
	return EXIT_FAILURE;
}

static int open_dev(const char *device, int index, struct vx_device **dev)
{
	int ret = device ? vx_device_open_path(device, dev) :
			   vx_device_open_index(index, dev);

	if (ret && device)
		fprintf(stderr, "vortex-run: cannot open %s: %s\n", device, strerror(-ret));
	else if (ret)
		fprintf(stderr, "vortex-run: cannot open /dev/accel/accel%d: %s\n",
			index, strerror(-ret));
	return ret;
}

static int print_info(const char *device, int index)
{
	const struct vx_topology *t;
	struct vx_device *dev;

	if (open_dev(device, index, &dev))
		return EXIT_FAILURE;
	t = vx_device_topology(dev);
	printf("card version %u.%u: %u cluster(s) x %u cores x %u warps x %u threads"
	       " = %llu hardware threads\n", t->device_version >> 16,
	       t->device_version & 0xffff, t->clusters, t->cores, t->warps,
	       t->threads, (unsigned long long)vx_topology_hw_threads(t));
	printf("VRAM %llu MiB at device address 0x%llx; job timeout %u ms;"
	       " capabilities 0x%llx\n", (unsigned long long)(t->vram_size >> 20),
	       (unsigned long long)t->vram_devaddr, t->job_timeout_ms,
	       (unsigned long long)t->caps);
	vx_device_close(dev);
	return EXIT_SUCCESS;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int run_kernel(struct run *r, const struct kind *kind, const char *name)
{
	double t0, ms;
	int ret;

	ret = kind->setup(r);
	if (ret) {
		fprintf(stderr, "%s: setting up buffers: %s\n", name, strerror(-ret));
		return EXIT_FAILURE;
	}
	r->launch.args = &r->args;
	r->launch.bos = r->bos;
	printf("%s: %u %s, %u blocks x %u threads on %ux%ux%ux%u card "
	       "(clusters x cores x warps x threads)\n", name, r->n,
	       kind->check ? "elements" : "threads",
	       r->launch.grid[0] * (r->launch.grid[1] ?: 1) * (r->launch.grid[2] ?: 1),
	       r->launch.block[0] * (r->launch.block[1] ?: 1) * (r->launch.block[2] ?: 1),
	       r->topo->clusters, r->topo->cores, r->topo->warps, r->topo->threads);
	if (r->verbose)
		printf("  image at 0x%llx, entry 0x%llx, timeout %d ms\n",
		       (unsigned long long)vx_kernel_base(r->k),
		       (unsigned long long)vx_kernel_entry(r->k), r->timeout_ms);
	t0 = now_ms();
	ret = vx_run(r->k, &r->launch, r->timeout_ms);
	ms = now_ms() - t0;
	if (ret)
		return report_status(name, ret, ms);
	if (!kind->check) {
		printf("%s: completed in %.2f ms\n", name, ms);
		return EXIT_SUCCESS;
	}
	ret = kind->check(r);
	printf("%s: %s (%s) in %.2f ms\n", name, ret == EXIT_SUCCESS ? "OK" : "WRONG",
	       r->detail, ms);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "index", required_argument, NULL, 'i' },
		{ "grid", required_argument, NULL, 'g' },
		{ "block", required_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 't' },
		{ "kind", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "info", no_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct run r = { .n = 1024, .seed = 1, .timeout_ms = -1 };
	const char *device = NULL, *kind_name = NULL, *elf;
	const struct kind *kind;
	static const struct kind raw = { "raw", setup_none, NULL, 0 };
	char *base, *dot;
	int index = 0, info = 0, c, ret;

	while ((c = getopt_long(argc, argv, "d:i:g:b:t:k:s:vIh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			device = optarg;
			break;
		case 'i':
			index = atoi(optarg);
			break;
		case 'g':
			if (parse_dims(optarg, r.launch.grid))
				goto bad_usage;
			break;
		case 'b':
			if (parse_dims(optarg, r.launch.block))
				goto bad_usage;
			break;
		case 't':
			r.timeout_ms = atoi(optarg);
			break;
		case 'k':
			kind_name = optarg;
			break;
		case 's':
			r.seed = strtoul(optarg, NULL, 0) ?: 1;
			break;
		case 'v':
			r.verbose = 1;
			break;
		case 'I':
			info = 1;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return EXIT_SUCCESS;
		default:
			goto bad_usage;
		}
	}
	if (info)
		return print_info(device, index);
	if (optind >= argc)
		goto bad_usage;
	elf = argv[optind++];

	base = strdup(elf);
	if (!base)
		return EXIT_FAILURE;
	if (!kind_name) {
		kind_name = basename(base);
		dot = strstr(base, ".elf");
		if (dot && !dot[4])
			*dot = 0;
	}
	kind = find_kind(kind_name);
	if (kind && optind < argc) {
		char *end;
		unsigned long n = strtoul(argv[optind++], &end, 0);

		if (*end || !n || n > (1u << 26) || optind < argc)
			goto bad_usage;
		r.n = n;
	} else if (!kind) {
		for (int i = 0; optind < argc; i++) {
			if (i >= VX_LAUNCH_MAX_ARGS / 4)
				goto bad_usage;
			r.args.raw[i] = strtoul(argv[optind++], NULL, 0);
			r.launch.args_size = (i + 1) * 4;
		}
		kind = &raw;
	}

	if (open_dev(device, index, &r.dev))
		return EXIT_FAILURE;
	r.topo = vx_device_topology(r.dev);
	if (r.timeout_ms < 0)
		r.timeout_ms = r.topo->job_timeout_ms + 1000;
	ret = vx_kernel_load_file(r.dev, elf, &r.k);
	if (ret) {
		fprintf(stderr, "%s: cannot load %s: %s\n", argv[0], elf, strerror(-ret));
		vx_device_close(r.dev);
		return EXIT_FAILURE;
	}
	default_dims(&r, kind == &raw ? NULL : kind);
	ret = run_kernel(&r, kind, kind_name);

	vx_kernel_free(r.k);
	for (int i = 0; i < 4; i++) {
		vx_bo_free(r.bo[i]);
		free(r.host[i]);
	}
	vx_device_close(r.dev);
	free(base);
	return ret;

bad_usage:
	usage(stderr, argv[0]);
	return EXIT_FAILURE;
}
