// SPDX-License-Identifier: MIT
/*
 * vortex-run PROGRAM.vxbin [ARGFILE]: a Vortex binary run the way a Vortex
 * host program runs it (upstream tests/regression/<name>/main.cpp):
 * vx_dev_open(), vx_upload_kernel_file(), the argument block uploaded with
 * vx_upload_file(), vx_start(), vx_ready_wait().  Warp 0 lane 0 of every
 * core starts at the binary's load address with mscratch = the argument
 * block (docs/runtime.md, "Running").
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

int vortex_run_vxbin(const char *prog, const char *argfile, const char *outfile,
		     int timeout_ms)
{
	static const uint32_t no_args;
	vx_buffer_h kernel = NULL, args = NULL;
	uint64_t entry, argp, nargs;
	struct timespec t0, t1;
	vx_device_h dev;
	int ret;

	if (vx_dev_open(&dev))
		return fail("no Vortex card that runs Vortex's launch model", NULL);
	if (vx_upload_kernel_file(dev, prog, &kernel)) {
		ret = fail("cannot upload", prog);
		goto out;
	}
	ret = argfile ? vx_upload_file(dev, argfile, &args) :
			vx_upload_bytes(dev, &no_args, sizeof(no_args), &args);
	if (ret) {
		ret = fail("cannot upload the argument file", argfile);
		goto out;
	}
	nargs = argfile ? file_size(argfile) : sizeof(no_args);
	vx_mem_address(kernel, &entry);
	vx_mem_address(args, &argp);
	printf("%s: started at 0x%llx, argument block of %llu bytes at 0x%llx\n", prog,
	       (unsigned long long)entry, (unsigned long long)nargs,
	       (unsigned long long)argp);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (vx_start(dev, kernel, args)) {
		ret = fail("cannot start", prog);
		goto out;
	}
	ret = vx_ready_wait(dev, timeout_ms < 0 ? VX_MAX_TIMEOUT : (uint64_t)timeout_ms);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (ret) {
		ret = errno == ETIMEDOUT || errno == ETIME ? EXIT_TIMEDOUT :
		      errno == EIO ? EXIT_FAULT : EXIT_FAILURE;
		printf("%s: %s\n", prog, ret == EXIT_TIMEDOUT ? "timed out" :
		       ret == EXIT_FAULT ? "device exception" : strerror(errno));
		goto out;
	}
	printf("%s: completed in %.2f ms\n", prog,
	       (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
	ret = outfile ? save_args(args, nargs, outfile) : EXIT_SUCCESS;
out:
	vx_mem_free(args);
	vx_mem_free(kernel);
	vx_dev_close(dev);
	return ret;
}
