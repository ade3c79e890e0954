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
 */
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vx_elf.h"

static int read_file(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long size;

	if (!f)
		return -errno;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -EIO;
	}
	*buf = malloc(size ? size : 1);
	if (!*buf) {
		fclose(f);
		return -ENOMEM;
	}
	if (fread(*buf, 1, size, f) != (size_t)size) {
		free(*buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*len = size;
	return 0;
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
	ret = read_file(argv[optind], &elf, &len);
	if (ret) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[optind], strerror(-ret));
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
