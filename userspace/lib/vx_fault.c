// SPDX-License-Identifier: MIT
/*
 * A failed job's fault, read from the driver and printed as upstream's
 * simulator prints an abort (vortexgpgpu/vortex at fe8168b9:
 * sim/simx/execute.cpp:446 "divergent branch! PC=0x...",
 * sim/simx/processor.cpp:230 "Error: exception: ..."), with what the card
 * knows besides: the warp and lanes, and the crash dump the driver kept.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vortex_causes.h"
#include "vx_fault.h"

int vx_fault_query(int fd, uint64_t job, struct drm_vortex_fault_info *f)
{
	struct drm_vortex_fault q = { .job = job, .info = (uintptr_t)f,
				      .info_size = sizeof(*f) };
	int ret;

	memset(f, 0, sizeof(*f));
	do {
		ret = ioctl(fd, DRM_IOCTL_VORTEX_FAULT, &q);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : 0;
}

const char *vx_fault_lanes(const uint32_t lanes[4], char *buf, size_t len)
{
	size_t at = 0;
	int l, first = -1;

	buf[0] = 0;
	for (l = 0; l <= 128; l++) {
		int set = l < 128 && (lanes[l / 32] >> (l % 32) & 1);

		if (set && first < 0)
			first = l;
		if (set || first < 0)
			continue;
		if (at < len)
			at += snprintf(buf + at, len - at, first == l - 1 ? "%s%d" : "%s%d-%d",
				       at ? "," : "", first, l - 1);
		first = -1;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}

static void print_where(FILE *out, const char *who, const struct drm_vortex_fault_info *f)
{
	char lanes[160], taken[160];
	uint32_t not_taken[4];
	int i;

	fprintf(out, "%s:   in warp %u (cluster %u core %u warp %u), lane %u\n", who,
		f->warp, f->cluster, f->core, f->warp_in_core, f->lane);
	if (f->cause != VX_ERR_DIVERGENT_BRANCH) {
		fprintf(out, "%s:   faulting lanes: %s\n", who,
			vx_fault_lanes(f->lanes, lanes, sizeof(lanes)));
		return;
	}
	for (i = 0; i < 4; i++)
		not_taken[i] = f->lanes[i] & ~f->info[i];
	fprintf(out, "%s:   lanes %s take the branch to 0x%08x, lanes %s do not\n", who,
		vx_fault_lanes(f->info, taken, sizeof(taken)), f->addr,
		vx_fault_lanes(not_taken, lanes, sizeof(lanes)));
}

void vx_fault_print(FILE *out, const char *who, const struct drm_vortex_fault_info *f)
{
	const char *name = vx_cause_name(f->cause);

	if (f->status == -ETIMEDOUT || f->cause == VX_ERR_NONE) {
		fprintf(out, "%s: Error: the kernel hung and the driver stopped it\n", who);
	} else {
		if (name)
			fprintf(out, "%s: Error: device exception %s (%s) at PC=0x%08x, address=0x%08x\n",
				who, name, vx_cause_text(f->cause), f->pc, f->addr);
		else
			fprintf(out, "%s: Error: device exception, cause %u, at PC=0x%08x, address=0x%08x\n",
				who, f->cause, f->pc, f->addr);
		print_where(out, who, f);
	}
	if (f->dump >= 0)
		fprintf(out, "%s:   crash dump: /sys/class/devcoredump/devcd%d/data\n", who, f->dump);
	else
		fprintf(out, "%s:   no crash dump (dumps off for this program, or an unread one kept it out)\n",
			who);
}
