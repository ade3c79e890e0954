// SPDX-License-Identifier: GPL-2.0
/*
 * vortex-coredump: reads a Vortex crash dump, the text the driver hands to
 * devcoredump (a saved file, or /sys/class/devcoredump/devcdN/data
 * directly), checks it, and prints a summary; or writes what it holds:
 * the CUDA-format ELF (as is, or with cuda-gdb 11.8's r400 rows), one
 * buffer's bytes, or a RISC-V ELF core of one lane for gdb.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vxcd.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vortex-coredump [OPTION] DUMP\n"
		"Reads a Vortex crash dump (a file or /sys/class/devcoredump/devcdN/data;\n"
		"- for stdin), checks it and prints a summary.\n"
		"  -e, --extract-elf FILE    write the CUDA-format coredump ELF\n"
		"  -r, --cuda-layout r400    ... with r400 rows (cuda-gdb 11.8)\n"
		"  -b, --bo IOVA             write that buffer's bytes (to -o)\n"
		"  -g, --gdb-core [WARP.]LANE  write a RISC-V ELF core of a lane (to -o);\n"
		"                            the faulting (else first) warp by default\n"
		"  -o, --output FILE         where --bo and --gdb-core write\n"
		"  -c, --check               only check; silent if well formed\n"
		"  -h, --help\n");
}

static char *read_all(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t len = 0, cap = 0, n;
	char *buf = NULL;

	if (!f)
		return NULL;
	do {
		if (cap - len < 65536)
			buf = realloc(buf, (cap = cap * 2 + 65536) + 1);
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (f != stdin)
		fclose(f);
	buf[len] = 0;
	return buf;
}

static int write_all(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "vortex-coredump: %s: %s\n", path, strerror(errno));
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}

static void print_line(void *ctx, const char *line)
{
	puts(line);
}

/* The bytes of the buffer at @iova. */
static int write_bo(const struct vxcd_dump *d, uint64_t iova, const char *path,
		    struct vxcd_err *err)
{
	const struct vxcd_node *bo;
	uint64_t at, size;
	uint8_t *buf;
	int i, ret;

	for (i = 0; (bo = vxcd_item(vxcd_get(d->root, "bos"), i)); i++) {
		if (vxcd_u64(bo, "iova", "bos", &at, err) || at != iova)
			continue;
		if (vxcd_u64(bo, "size", "bos", &size, err) ||
		    vxcd_blob(bo, "bos", size, &buf, err))
			return -EINVAL;
		ret = write_all(path, buf, size);
		free(buf);
		return ret;
	}
	fprintf(stderr, "vortex-coredump: no buffer at 0x%llx\n", (unsigned long long)iova);
	return EXIT_FAILURE;
}

static int fail(const char *path, const struct vxcd_err *err)
{
	if (err->line)
		fprintf(stderr, "%s:%d: %s: %s\n", path, err->line, err->field, err->msg);
	else
		fprintf(stderr, "%s: %s: %s\n", path, err->field, err->msg);
	return EXIT_FAILURE;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "extract-elf", required_argument, NULL, 'e' },
		{ "cuda-layout", required_argument, NULL, 'r' },
		{ "bo", required_argument, NULL, 'b' },
		{ "gdb-core", required_argument, NULL, 'g' },
		{ "output", required_argument, NULL, 'o' },
		{ "check", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *elf_out = NULL, *layout = NULL, *bo = NULL, *core = NULL, *out = NULL;
	struct vxcd_elf e = {}, r400;
	struct vxcd_err err = {};
	struct vxcd_dump d;
	int c, check = 0, warp = -1, lane, ret;
	uint8_t *buf;
	size_t len;
	char *text;

	while ((c = getopt_long(argc, argv, "e:r:b:g:o:ch", opts, NULL)) != -1) {
		switch (c) {
		case 'e': elf_out = optarg; break;
		case 'r': layout = optarg; break;
		case 'b': bo = optarg; break;
		case 'g': core = optarg; break;
		case 'o': out = optarg; break;
		case 'c': check = 1; break;
		case 'h': usage(stdout); return EXIT_SUCCESS;
		default: usage(stderr); return EXIT_FAILURE;
		}
	}
	if (optind + 1 != argc || (layout && (strcmp(layout, "r400") || !elf_out)) ||
	    ((bo || core) && !out)) {
		usage(stderr);
		return EXIT_FAILURE;
	}
	text = read_all(argv[optind]);
	if (!text) {
		fprintf(stderr, "vortex-coredump: %s: %s\n", argv[optind], strerror(errno));
		return EXIT_FAILURE;
	}
	if (vxcd_parse(&d, text, &err) || vxcd_validate(&d, &err) ||
	    (vxcd_get(d.root, "cuda-coredump") && vxcd_elf_get(&d, &e, &err)))
		return fail(argv[optind], &err);
	ret = EXIT_SUCCESS;
	if (elf_out && !e.buf) {
		fprintf(stderr, "vortex-coredump: the dump holds no CUDA ELF\n");
		ret = EXIT_FAILURE;
	} else if (elf_out && layout) {
		ret = vxcd_elf_r400(&e, &r400) ? EXIT_FAILURE : write_all(elf_out, r400.buf, r400.len);
	} else if (elf_out) {
		ret = write_all(elf_out, e.buf, e.len);
	} else if (bo) {
		ret = write_bo(&d, strtoull(bo, NULL, 0), out, &err);
		if (ret < 0)
			return fail(argv[optind], &err);
	} else if (core) {
		if (strchr(core, '.'))
			warp = strtol(core, NULL, 0);
		lane = strtol(strchr(core, '.') ? strchr(core, '.') + 1 : core, NULL, 0);
		if (vxcd_core(&d, &e, warp, lane, &buf, &len, &err))
			return fail(argv[optind], &err);
		ret = write_all(out, buf, len);
		free(buf);
	} else if (!check) {
		vxcd_summary(&d, &e, print_line, NULL);
	}
	free(e.buf);
	vxcd_free(&d);
	return ret;
}
