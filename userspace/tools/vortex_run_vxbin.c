// SPDX-License-Identifier: MIT
/*
 * vortex-run PROGRAM.vxbin [ARGFILE]: a Vortex binary run the way a Vortex
 * host program runs it (upstream tests/regression/<name>/main.cpp):
 * vx_dev_open(), vx_upload_kernel_file(), the argument block uploaded with
 * vx_upload_file(), vx_start(), vx_ready_wait().  Warp 0 lane 0 of every
 * core starts at the binary's load address with mscratch = the argument
 * block (docs/runtime.md, "Running").  The steps are apart
 * (vortex_vxbin_stage(), _start(), _wait()) for vortex-dmserver, which
 * launches a Vortex binary the same way under its debug session.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vortex.h>

#include "vortex_run_vxbin.h"

static int fail(const char *what, const char *name)
{
	fprintf(stderr, "vortex-run: %s%s%s: %s\n", what, name ? " " : "", name ?: "",
		strerror(errno));
	return EXIT_FAILURE;
}

/* The argument block back into @path, for a kernel that writes results there. */
static int save_args(vx_buffer_h args, uint64_t size, const char *path)
{
	char *buf = malloc(size ? size : 1);
	FILE *f;
	int ret = -1;

	if (!buf)
		return fail("reading the argument block back", NULL);
	if (vx_copy_from_dev(buf, args, 0, size)) {
		ret = fail("reading the argument block back", NULL);
		goto out;
	}
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, size, f) != size) {
		if (f)
			fclose(f);
		ret = fail("writing", path);
		goto out;
	}
	ret = fclose(f) ? fail("writing", path) : EXIT_SUCCESS;
out:
	free(buf);
	return ret;
}

static uint64_t file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n = -1;

	if (f && !fseek(f, 0, SEEK_END))
		n = ftell(f);
	if (f)
		fclose(f);
	return n < 0 ? 0 : n;
}

struct vortex_vxbin {
	vx_device_h dev;
	vx_buffer_h kernel, args;
	const char *prog;
	uint64_t entry, argp, nargs;
};

int vortex_vxbin_stage(const char *prog, const char *argfile, struct vortex_vxbin **out)
{
	static const uint32_t no_args;
	struct vortex_vxbin *r = calloc(1, sizeof(*r));
	int ret;

	if (!r)
		return fail("staging", prog);
	r->prog = prog;
	if (vx_dev_open(&r->dev)) {
		free(r);
		return fail("no Vortex card that runs Vortex's launch model", NULL);
	}
	if (vx_upload_kernel_file(r->dev, prog, &r->kernel)) {
		ret = fail("cannot upload", prog);
		goto err;
	}
	ret = argfile ? vx_upload_file(r->dev, argfile, &r->args) :
			vx_upload_bytes(r->dev, &no_args, sizeof(no_args), &r->args);
	if (ret) {
		ret = fail("cannot upload the argument file", argfile);
		goto err;
	}
	r->nargs = argfile ? file_size(argfile) : sizeof(no_args);
	vx_mem_address(r->kernel, &r->entry);
	vx_mem_address(r->args, &r->argp);
	*out = r;
	return EXIT_SUCCESS;
err:
	vortex_vxbin_free(r);
	return ret;
}

int vortex_vxbin_start(struct vortex_vxbin *r)
{
	return vx_start(r->dev, r->kernel, r->args) ? fail("cannot start", r->prog) :
						      EXIT_SUCCESS;
}

int vortex_vxbin_wait(struct vortex_vxbin *r, int timeout_ms, int *status)
{
	*status = 0;
	if (!vx_ready_wait(r->dev, timeout_ms < 0 ? VX_MAX_TIMEOUT : (uint64_t)timeout_ms))
		return 0;
	if (errno == ETIME)
		return -ETIME;		/* WAIT's deadline: the job runs on */
	*status = -errno;
	return 0;
}

void vortex_vxbin_describe(struct vortex_vxbin *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s at 0x%llx, argument block of %llu bytes at 0x%llx", r->prog,
		 (unsigned long long)r->entry, (unsigned long long)r->nargs,
		 (unsigned long long)r->argp);
}

void vortex_vxbin_free(struct vortex_vxbin *r)
{
	if (!r)
		return;
	vx_mem_free(r->args);
	vx_mem_free(r->kernel);
	vx_dev_close(r->dev);
	free(r);
}

int vortex_run_vxbin(const char *prog, const char *argfile, const char *outfile,
		     int timeout_ms)
{
	struct vortex_vxbin *r;
	struct timespec t0, t1;
	int ret, status;

	ret = vortex_vxbin_stage(prog, argfile, &r);
	if (ret)
		return ret;
	printf("%s: started at 0x%llx, argument block of %llu bytes at 0x%llx\n", prog,
	       (unsigned long long)r->entry, (unsigned long long)r->nargs,
	       (unsigned long long)r->argp);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = vortex_vxbin_start(r);
	if (ret)
		goto out;
	ret = vortex_vxbin_wait(r, timeout_ms, &status);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	status = ret ?: status;
	if (status) {
		ret = status == -ETIMEDOUT || status == -ETIME ? EXIT_TIMEDOUT :
		      status == -EIO ? EXIT_FAULT : EXIT_FAILURE;
		printf("%s: %s\n", prog, ret == EXIT_TIMEDOUT ? "timed out" :
		       ret == EXIT_FAULT ? "device exception" : strerror(-status));
		goto out;
	}
	printf("%s: completed in %.2f ms\n", prog,
	       (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
	ret = outfile ? save_args(r->args, r->nargs, outfile) : EXIT_SUCCESS;
out:
	vortex_vxbin_free(r);
	return ret;
}
