// SPDX-License-Identifier: GPL-2.0
/*
 * vortex-coredump: reads a Vortex crash dump, the text the driver hands to
 * devcoredump (a saved file, or /sys/class/devcoredump/devcdN/data
 * directly), checks it, and prints a summary; or writes what it holds:
 * the CUDA-format ELF (as is, or with cuda-gdb 11.8's r400 rows; an older
 * driver's device row as drivers write it now, for cuda-gdb 12.4), one
 * buffer's bytes, a RISC-V ELF core of one lane for gdb, or every lane's
 * registers, a line each.
 */
#include <ctype.h>
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
		"  -R, --registers           print every listed lane's registers, a line\n"
		"                            each: WARP LANE PC x0..x31 f0..f31 fcsr\n"
		"  -c, --check               only check; silent if well formed\n"
		"  -j, --json                print the report as JSON (the schema:\n"
		"                            vortex-coredump-report.schema.json)\n"
		"  -h, --help\n");
}

static char *read_all(const char *path, size_t *out_len)
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
	*out_len = len;
	return buf;
}

/* What the file is if it is plainly no dump text, else NULL. */
static const char *not_a_dump(const char *text, size_t len)
{
	size_t n = len < 4096 ? len : 4096;

	if (!len)
		return "an empty file, not a Vortex crash dump";
	if (len >= 4 && !memcmp(text, "\x7f" "ELF", 4))
		return "an ELF file, not a Vortex crash dump (the dump is the text of "
		       "/sys/class/devcoredump/devcdN/data; --extract-elf and --gdb-core "
		       "write ELFs from it)";
	for (size_t i = 0; i < n; i++)
		if (!text[i] || ((unsigned char)text[i] < 0x20 && !isspace((unsigned char)text[i])))
			return "binary data, not a Vortex crash dump (a text file)";
	return NULL;
}

/* @s on stderr, bytes that are not printable ASCII as \xNN. */
static void put_clean(const char *s)
{
	for (; *s; s++)
		if (isprint((unsigned char)*s))
			fputc(*s, stderr);
		else
			fprintf(stderr, "\\x%02x", (unsigned char)*s);
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

/*
 * A dump that is cut short (devcoredump's size limit, a partial copy) fails
 * on its last line: say so.
 */
static int fail(const char *path, const struct vxcd_err *err, const char *text, size_t len)
{
	int lines = 0;

	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (len && text[len - 1] != '\n')
		lines++;
	if (err->line)
		fprintf(stderr, "%s:%d: %s: ", path, err->line, err->field);
	else
		fprintf(stderr, "%s: %s: ", path, err->field);
	put_clean(err->msg);
	if (err->line && err->line >= lines)
		fprintf(stderr, " (the text ends there: the dump is truncated)");
	fputc('\n', stderr);
	return EXIT_FAILURE;
}

/* A usage mistake, named, and where the rest is. */
static int usage_error(const char *what)
{
	fprintf(stderr, "vortex-coredump: %s (--help for the options)\n", what);
	return EXIT_FAILURE;
}

/* "[WARP.]LANE": numbers, WARP -1 when absent.  Return: 0 or -EINVAL. */
static int parse_lane(const char *arg, int *warp, int *lane)
{
	const char *dot = strchr(arg, '.');
	char *end;
	long v;

	*warp = -1;
	if (dot) {
		v = strtol(arg, &end, 0);
		if (end != dot || end == arg || v < 0 || v > 65535)
			return -EINVAL;
		*warp = v;
		arg = dot + 1;
	}
	v = strtol(arg, &end, 0);
	if (*end || end == arg || v < 0 || v > 65535)
		return -EINVAL;
	*lane = v;
	return 0;
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
		{ "json", no_argument, NULL, 'j' },
		{ "registers", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *elf_out = NULL, *layout = NULL, *bo = NULL, *core = NULL, *out = NULL;
	struct vxcd_elf e = {}, r400;
	struct vxcd_err err = {};
	struct vxcd_dump d;
	int c, check = 0, json = 0, regs = 0, warp = -1, lane = 0, ret;
	unsigned long long iova = 0;
	const char *what;
	uint8_t *buf;
	size_t len, text_len;
	char *text, *end;

	while ((c = getopt_long(argc, argv, "e:r:b:g:o:cjRh", opts, NULL)) != -1) {
		switch (c) {
		case 'e': elf_out = optarg; break;
		case 'r': layout = optarg; break;
		case 'b': bo = optarg; break;
		case 'g': core = optarg; break;
		case 'o': out = optarg; break;
		case 'c': check = 1; break;
		case 'j': json = 1; break;
		case 'R': regs = 1; break;
		case 'h': usage(stdout); return EXIT_SUCCESS;
		default: usage(stderr); return EXIT_FAILURE;
		}
	}
	if (optind + 1 != argc)
		return usage_error(optind == argc ? "which DUMP?" : "one DUMP only");
	if (layout && strcmp(layout, "r400"))
		return usage_error("--cuda-layout knows only r400");
	if (layout && !elf_out)
		return usage_error("--cuda-layout goes with --extract-elf FILE");
	if ((bo || core) && !out)
		return usage_error(bo ? "--bo writes to -o FILE: which?" :
				   "--gdb-core writes to -o FILE: which?");
	if (core && parse_lane(core, &warp, &lane))
		return usage_error("--gdb-core wants [WARP.]LANE, numbers");
	if (bo) {
		errno = 0;
		iova = strtoull(bo, &end, 0);
		if (errno || *end || end == bo)
			return usage_error("--bo wants an IOVA, a number");
	}
	text = read_all(argv[optind], &text_len);
	if (!text) {
		fprintf(stderr, "vortex-coredump: %s: %s\n", argv[optind], strerror(errno));
		return EXIT_FAILURE;
	}
	what = not_a_dump(text, text_len);
	if (what) {
		fprintf(stderr, "vortex-coredump: %s: %s\n", argv[optind], what);
		return EXIT_FAILURE;
	}
	if (vxcd_parse(&d, text, &err) || vxcd_validate(&d, &err) ||
	    (vxcd_get(d.root, "cuda-coredump") && vxcd_elf_get(&d, &e, &err)))
		return fail(argv[optind], &err, text, text_len);
	ret = EXIT_SUCCESS;
	if (elf_out && e.buf)
		vxcd_elf_compat(&e);
	if (elf_out && !e.buf) {
		fprintf(stderr, "vortex-coredump: the dump holds no CUDA ELF\n");
		ret = EXIT_FAILURE;
	} else if (elf_out && layout) {
		ret = vxcd_elf_r400(&e, &r400) ? EXIT_FAILURE : write_all(elf_out, r400.buf, r400.len);
	} else if (elf_out) {
		ret = write_all(elf_out, e.buf, e.len);
	} else if (bo) {
		ret = write_bo(&d, iova, out, &err);
		if (ret < 0)
			return fail(argv[optind], &err, text, text_len);
	} else if (core) {
		if (vxcd_core(&d, &e, warp, lane, &buf, &len, &err))
			return fail(argv[optind], &err, text, text_len);
		ret = write_all(out, buf, len);
		free(buf);
	} else if (json) {
		vxcd_json(&d, stdout);
	} else if (regs) {
		vxcd_registers(&d, stdout);
	} else if (!check) {
		vxcd_summary(&d, &e, print_line, NULL);
	}
	free(e.buf);
	vxcd_free(&d);
	return ret;
}
