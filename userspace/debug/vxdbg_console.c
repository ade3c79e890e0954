// SPDX-License-Identifier: MIT
/*
 * The target's console as a debugger shows it: what its kernels printed
 * since the session last looked (vxdbg_read_console()), a line per
 * hardware thread, in the order the threads printed.  vxdbg prints the
 * lines at a stop, the gdb stub sends them as 'O' packets before its stop
 * reply.
 */
#include <stdint.h>
#include <string.h>

#include "vortex_accel.h"
#include "vxdbg.h"

#define CONSOLE_HARTS	64	/* threads with a line in flight, per call */
#define CONSOLE_LINE	160	/* longer lines come in pieces */

struct console_line {
	uint32_t hart, len;
	char buf[CONSOLE_LINE];
};

vxdbg_result vxdbg_console_lines(struct vxdbg *d, uint32_t dev, vxdbg_console_fn emit,
				 void *arg, uint64_t *skipped)
{
	struct console_line l[CONSOLE_HARTS];
	uint32_t rec[1024], n, nl = 0, i, j;
	uint64_t skip;
	vxdbg_result r;

	*skipped = 0;
	do {
		n = 1024;
		r = vxdbg_read_console(d, dev, rec, &n, &skip);
		if (r)
			return r;
		*skipped += skip;
		for (i = 0; i < n; i++) {
			uint32_t h = DRM_VORTEX_CONSOLE_HART(rec[i]);
			char ch = DRM_VORTEX_CONSOLE_CHAR(rec[i]);

			for (j = 0; j < nl && l[j].hart != h; j++)
				;
			if (j == nl) {
				if (nl == CONSOLE_HARTS)
					continue;	/* the program prints it all anyway */
				l[nl].hart = h;
				l[nl++].len = 0;
			}
			if (ch == '\n' || l[j].len == CONSOLE_LINE) {
				emit(arg, h, l[j].buf, l[j].len);
				l[j].len = 0;
			}
			if (ch != '\n')
				l[j].buf[l[j].len++] = ch;
		}
	} while (n == 1024);
	/* a line the stop cut short, as far as it goes */
	for (j = 0; j < nl; j++)
		if (l[j].len)
			emit(arg, l[j].hart, l[j].buf, l[j].len);
	return VXDBG_SUCCESS;
}
