// SPDX-License-Identifier: MIT
/*
 * elf2vxbin: a kernel ELF as Vortex ships it, a .vxbin.
 *
 *   elf2vxbin [--base ADDR] KERNEL.elf OUT.vxbin
 *
 * The format is upstream Vortex's (kernel/scripts/vxbin.py writes it,
 * runtime/stub/utils.cpp vx_upload_kernel_bytes() reads it): two
 * little-endian 64-bit words, min_vma and max_vma, then the image from
 * min_vma up to its last file-backed byte.  What lies between that and
 * max_vma is bss, which the runtime zeroes.
 *
 * A static ELF (Vortex's kernels, linked at STARTUP_ADDR) keeps its own
 * addresses; a PIE (this project's kernels) is relocated to ADDR, by
 * default STARTUP_ADDR0's reset value 0x80000000 (hw/rtl/VX_config.vh).
 *
 * The format has no room for the kernel's thread-local size: the runtime
 * gives each hart VX_TLS_VXBIN_BOUND bytes past max_vma (vx_elf.h), so a
 * kernel whose PT_TLS is larger is refused here rather than fault there.
 */
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vx_elf.h"

/*
 * The whole file at PATH in a malloc'ed buffer, its size in *LEN; NULL with
 * errno set on failure.  A NULL return is the only failure, so a caller
 * never reads a buffer or size that was not written.
 */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long size;
	int err = EIO;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto out_close;
	buf = malloc(size ? size : 1);
	if (!buf) {
		err = ENOMEM;
		goto out_close;
	}
	if (fread(buf, 1, size, f) != (size_t)size) {
		free(buf);
		buf = NULL;
		goto out_close;
	}
	*len = size;
out_close:
	fclose(f);
	if (!buf)
		errno = err;
	return buf;
}

static void usage(FILE *f, const char *argv0)
{
	fprintf(f, "Usage: %s [--base ADDR] KERNEL.elf OUT.vxbin\n"
		"Write a kernel ELF as a Vortex binary: min_vma, max_vma (64-bit\n"
		"little-endian), then the image.  A PIE is placed at ADDR (default\n"
		"0x80000000, Vortex's STARTUP_ADDR); a static ELF where it is linked.\n",
		argv0);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned long long base = 0x80000000ull;
	struct vx_elf_layout l;
	uint64_t hdr[2];
	char *elf, *img, *end;
	size_t len;
	FILE *out;
	int c, ret;

	while ((c = getopt_long(argc, argv, "b:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			base = strtoull(optarg, &end, 0);
			if (*end || base > UINT32_MAX) {
				usage(stderr, argv[0]);
				return EXIT_FAILURE;
			}
			break;
		case 'h':
			usage(stdout, argv[0]);
			return EXIT_SUCCESS;
		default:
			usage(stderr, argv[0]);
			return EXIT_FAILURE;
		}
	}
	if (argc - optind != 2) {
		usage(stderr, argv[0]);
		return EXIT_FAILURE;
	}
	elf = read_file(argv[optind], &len);
	if (!elf) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[optind], strerror(errno));
		return EXIT_FAILURE;
	}
	ret = vx_elf_parse(elf, len, &l);
	if (!ret && !l.pie)
		base = l.vaddr_lo;
	if (!ret && base + l.size > UINT32_MAX)
		ret = -EFBIG;
	img = ret ? NULL : calloc(1, l.size);
	if (!ret && !img)
		ret = -ENOMEM;
	if (!ret)
		ret = vx_elf_build(elf, len, &l, base, img);
	if (ret) {
		fprintf(stderr, "%s: %s: not a kernel this card runs: %s\n", argv[0],
			argv[optind], strerror(-ret));
		free(img);
		free(elf);
		return EXIT_FAILURE;
	}
	if (l.tls_size > VX_TLS_VXBIN_BOUND) {
		fprintf(stderr, "%s: %s: %u bytes of thread-locals a hart, past the %u a .vxbin is given (docs/runtime.md); run the ELF instead\n",
			argv[0], argv[optind], l.tls_size, VX_TLS_VXBIN_BOUND);
		free(img);
		free(elf);
		return EXIT_FAILURE;
	}
	hdr[0] = htole64(base);
	hdr[1] = htole64(base + l.size);
	out = fopen(argv[optind + 1], "wb");
	ret = !out || fwrite(hdr, sizeof(hdr), 1, out) != 1 ||
	      (l.filesz && fwrite(img, l.filesz, 1, out) != 1);
	if ((out && fclose(out)) || ret) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[optind + 1], strerror(errno));
		free(img);
		free(elf);
		return EXIT_FAILURE;
	}
	free(img);
	free(elf);
	return EXIT_SUCCESS;
}
