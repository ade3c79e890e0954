// SPDX-License-Identifier: MIT
/* The debug tools' simulated target (vxdbg_tool.h), host only. */
#include <errno.h>

#include "vxdbg_sim_start.h"
#include "vxdbg_tool.h"

int vxdbg_tool_start_sim(struct vxdbg_tool_target *t, char **argv, const char *prog,
			 struct vxdbg_backend **be)
{
	struct vxdbg_sim_start st = { .topo = { t->topo[0], t->topo[1], t->topo[2], t->topo[3] },
				      .grid = t->grid, .block = t->block, .n = t->n };
	int ret;

	if (!argv[0] || argv[1])
		return fprintf(stderr, "%s: one KERNEL.elf, please\n", prog), -EINVAL;
	ret = vxdbg_sim_start(argv[0], &st, &t->sim, be);
	t->seqno = st.seqno;
	return ret;
}
