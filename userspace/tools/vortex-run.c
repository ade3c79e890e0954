// SPDX-License-Identifier: MIT
/*
 * vortex-run: run one kernel ELF on a Vortex card and check its result.
 *
 * Input: the kernel binary named on the command line (normally one of the
 * samples in /vortex/kernels/), the card at /dev/accel/accelN (--index,
 * default 0) or --device PATH, and inputs this program generates from a
 * fixed seed.  For the sample kernels it knows (by the ELF's base name or
 * --kind) it builds the argument block, runs the kernel, and compares every
 * output element with the reference of testlib/vx_samples.c, the one the
 * tests use.  For any other kernel the
 * positional arguments after the ELF are 32-bit words of its argument
 * block, and nothing is checked beyond the job's status.
 *
 * A Vortex binary (PROGRAM.vxbin, as upstream Vortex builds its kernels)
 * runs in Vortex's launch model instead, with an argument file:
 * vortex_run_vxbin.c.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libvortex.h"
#include "vortex_run_vxbin.h"
#include "vx_fault.h"
#include "vx_samples.h"

struct run {
	struct vx_device *dev;
	const struct vx_topology *topo;
	struct vx_kernel *k;
	struct vx_launch launch;
	struct vx_launch_bo bos[VX_SAMPLE_MAX_BUFS];
	uint32_t n;		/* elements */
	uint32_t seed;
	int timeout_ms;
	int verbose;
	char detail[128];	/* check's one-line verdict */
	/* a sample kernel's buffers, host copies and expected result */
	const struct vx_sample *sample;
	struct vx_sample_job job;
	uint32_t *host[VX_SAMPLE_MAX_BUFS];
	struct vx_bo *bo[VX_SAMPLE_MAX_BUFS];
	uint32_t *want;
	union {
		struct hang_args hang;
		struct fault_args fault;
		uint32_t raw[VX_LAUNCH_MAX_ARGS / 4];
	} args;
};

struct kind {
	const char *name;
	int (*setup)(struct run *r);
	int (*check)(struct run *r);	/* EXIT_SUCCESS or EXIT_WRONG */
};

/* Buffer @i of @words zeroed 32-bit words, with its host copy. */
static int buf(struct run *r, int i, uint32_t words, uint32_t flags)
{
	int ret;

	r->host[i] = calloc(words ? words : 1, 4);
	if (!r->host[i])
		return -ENOMEM;
	ret = vx_bo_alloc(r->dev, (uint64_t)(words ? words : 1) * 4, &r->bo[i]);
	if (ret)
		return ret;
	r->bos[r->launch.nbos++] = (struct vx_launch_bo){ r->bo[i], flags };
	return 0;
}

static uint32_t addr(struct run *r, int i)
{
	return (uint32_t)vx_bo_dev_addr(r->bo[i]);
}

/* A sample kernel: buffers and inputs as testlib/vx_samples.c says. */
static int setup_sample(struct run *r)
{
	struct vx_sample_job *j = &r->job;
	uint32_t a[VX_SAMPLE_MAX_BUFS];
	int ret = 0;

	*j = (struct vx_sample_job){ .n = r->n, .grid = r->launch.grid[0],
				     .block = r->launch.block[0] };
	vx_sample_layout(r->sample, j);
	for (unsigned int i = 0; i < j->nbufs && !ret; i++) {
		ret = buf(r, i, j->words[i], 0);
		if (!ret)
			a[i] = addr(r, i);
	}
	r->want = ret ? NULL : malloc((size_t)j->words[j->out] * 4 + 4);
	if (ret || !r->want)
		return ret ?: -ENOMEM;
	vx_sample_fill(r->sample, j, r->host, r->seed);
	vx_sample_expect(r->sample, j, r->host, r->want);
	for (unsigned int i = 0; i < j->nbufs && !ret; i++)
		if (j->use[i] & VX_SAMPLE_IN)
			ret = vx_bo_upload(r->bo[i], 0, r->host[i], (size_t)j->words[i] * 4);
	r->launch.args_size = vx_sample_args(r->sample, j, a, &r->args, sizeof(r->args));
	return ret;
}

static int check_sample(struct run *r)
{
	const struct vx_sample_job *j = &r->job;
	uint32_t *got = r->host[j->out];
	struct vx_sample_diff d;
	char g[32], w[32];

	if (vx_bo_download(r->bo[j->out], 0, got, (size_t)j->words[j->out] * 4))
		return EXIT_FAILURE;
	if (vx_sample_check(r->sample, j, r->want, got, &d))
		printf("  first wrong element [%u] = %s, expected %s\n", d.first,
		       vx_sample_word_str(r->sample, got[d.first], g, sizeof(g)),
		       vx_sample_word_str(r->sample, r->want[d.first], w, sizeof(w)));
	snprintf(r->detail, sizeof(r->detail), "%u of %u elements exact, max error %g",
		 j->words[j->out] - d.bad, j->words[j->out], d.max_err);
	return d.bad ? EXIT_WRONG : EXIT_SUCCESS;
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

static const struct kind sample_kind = { "sample", setup_sample, check_sample };

/* Kernels with nothing to check but their status. */
static const struct kind kinds[] = {
	{ "hang", setup_hang, NULL },
	{ "empty", setup_none, NULL },
	{ "fault_badaddr", setup_fault, NULL },
	{ "fault_misaligned", setup_fault, NULL },
	{ "fault_illegal", setup_fault, NULL },
	{ "fault_jump", setup_fault, NULL },
	{ "fault_branch", setup_fault, NULL },
	{ "fault_assert", setup_fault, NULL },
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
		"       %s [OPTION]... PROGRAM.vxbin [ARGFILE]\n"
		"       %s [--device PATH | --index N] --info\n"
		"Run a kernel on a Vortex card and check its outputs.  A Vortex binary\n"
		"(.vxbin) runs as Vortex's runtime runs it: warp 0 lane 0 of every core\n"
		"starts at its load address with mscratch = ARGFILE's bytes on the card.\n\n"
		"  -d, --device PATH   card node (default /dev/accel/accel0)\n"
		"  -i, --index N       card /dev/accel/accelN\n"
		"  -g, --grid X[,Y,Z]  blocks (default: enough for N elements)\n"
		"  -b, --block X[,Y,Z] threads per block (default: one core)\n"
		"  -t, --timeout MS    wait at most MS ms (default: until the job ends, which\n"
		"                      the driver's job timeout bounds unless a debugger\n"
		"                      holds the job)\n"
		"  -k, --kind NAME     argument layout (default: the ELF's base name)\n"
		"  -s, --seed N        input generator seed (default 1)\n"
		"  -o, --out FILE      .vxbin: write the argument block back to FILE\n"
		"  -v, --verbose       print launch details\n"
		"  -I, --info          print the card's topology and exit\n"
		"  -h, --help          this text\n\n"
		"Known kinds, N = elements (default 1024): vecadd saxpy reduce diverge\n"
		"reloc; N = threads, no output to check: hang empty fault_badaddr\n"
		"fault_misaligned fault_illegal fault_assert fault_jump fault_branch.  Other\n"
		"kernels: WORDs"
		"fill the argument block.\n\n"
		"Exit status: 0 ok, 1 usage or setup error, %d wrong results,\n"
		"%d job timed out (hang), %d device exception.\n",
		argv0, argv0, argv0, EXIT_WRONG, EXIT_TIMEDOUT, EXIT_FAULT);
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
static void default_dims(struct run *r)
{
	vx_sample_dims(r->sample, r->n, r->topo->clusters * r->topo->cores,
		       r->topo->warps * r->topo->threads, &r->launch.grid[0],
		       &r->launch.block[0]);
}

/* What the driver recorded of the failed job, as simx prints its abort. */
static void report_fault(struct vx_device *dev, const char *name)
{
	struct drm_vortex_fault_info f;

	fflush(stdout);
	if (!vx_device_fault(dev, 0, &f))
		vx_fault_print(stderr, name, &f);
}

static int report_status(struct vx_device *dev, const char *name, int ret, double ms)
{
	if (ret == -ETIMEDOUT || ret == -ETIME) {
		printf("%s: %s after %.0f ms\n", name, vx_status_name(ret), ms);
		if (ret == -ETIMEDOUT)
			report_fault(dev, name);
		return EXIT_TIMEDOUT;
	}
	if (ret == -EIO) {
		printf("%s: %s after %.1f ms\n", name, vx_status_name(ret), ms);
		report_fault(dev, name);
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
	unsigned int blocks;
	double t0, ms;
	int ret;

	ret = kind->setup(r);
	if (ret) {
		fprintf(stderr, "%s: setting up buffers: %s\n", name, strerror(-ret));
		return EXIT_FAILURE;
	}
	r->launch.args = &r->args;
	r->launch.bos = r->bos;
	blocks = r->launch.grid[0] * (r->launch.grid[1] ?: 1) * (r->launch.grid[2] ?: 1);
	printf("%s: %u %s, %u block%s x %u threads on %ux%ux%ux%u card "
	       "(clusters x cores x warps x threads)\n", name, r->n,
	       kind->check ? "elements" : "threads", blocks, blocks == 1 ? "" : "s",
	       r->launch.block[0] * (r->launch.block[1] ?: 1) * (r->launch.block[2] ?: 1),
	       r->topo->clusters, r->topo->cores, r->topo->warps, r->topo->threads);
	if (r->verbose)
		printf("  image at 0x%llx, entry 0x%llx, wait %d ms (-1: until it ends)\n",
		       (unsigned long long)vx_kernel_base(r->k),
		       (unsigned long long)vx_kernel_entry(r->k), r->timeout_ms);
	t0 = now_ms();
	ret = vx_run(r->k, &r->launch, r->timeout_ms);
	ms = now_ms() - t0;
	if (ret)
		return report_status(r->dev, name, ret, ms);
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
		{ "out", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "info", no_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct run r = { .n = 1024, .seed = 1, .timeout_ms = -1 };
	const char *device = NULL, *kind_name = NULL, *out = NULL, *elf;
	char node[32];
	const struct kind *kind;
	static const struct kind raw = { "raw", setup_none, NULL };
	char *base, *dot;
	int index = 0, info = 0, c, ret;

	while ((c = getopt_long(argc, argv, "d:i:g:b:t:k:s:o:vIh", opts, NULL)) != -1) {
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
		case 'o':
			out = optarg;
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
	if (strlen(elf) > 6 && !strcmp(elf + strlen(elf) - 6, ".vxbin")) {
		if (argc - optind > 1)
			goto bad_usage;
		/* libvortexrt finds the card through $VORTEX_DEVICE */
		if (!device && index) {
			snprintf(node, sizeof(node), "/dev/accel/accel%d", index);
			device = node;
		}
		if (device)
			setenv("VORTEX_DEVICE", device, 1);
		return vortex_run_vxbin(elf, optind < argc ? argv[optind] : NULL, out,
					r.timeout_ms);
	}
	if (out)
		goto bad_usage;

	base = strdup(elf);
	if (!base)
		return EXIT_FAILURE;
	if (!kind_name) {
		kind_name = basename(base);
		dot = strstr(base, ".elf");
		if (dot && !dot[4])
			*dot = 0;
	}
	r.sample = vx_sample_find(kind_name);
	kind = r.sample ? &sample_kind : find_kind(kind_name);
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
	ret = vx_kernel_load_file(r.dev, elf, &r.k);
	if (ret) {
		fprintf(stderr, "%s: cannot load %s: %s\n", argv[0], elf, strerror(-ret));
		vx_device_close(r.dev);
		return EXIT_FAILURE;
	}
	default_dims(&r);
	ret = run_kernel(&r, kind, kind_name);

	vx_kernel_free(r.k);
	for (int i = 0; i < VX_SAMPLE_MAX_BUFS; i++) {
		vx_bo_free(r.bo[i]);
		free(r.host[i]);
	}
	free(r.want);
	vx_device_close(r.dev);
	free(base);
	return ret;

bad_usage:
	usage(stderr, argv[0]);
	return EXIT_FAILURE;
}
