// SPDX-License-Identifier: MIT
/*
 * libvortex-debug, the API layer: CUDA Debugger API calls over the
 * backend's session operations (vxdbg_backend.h), shared by both
 * backends.  It validates coordinates itself (so a bad SM, warp or lane
 * gets its own result, as CUDA's do), turns (dev, sm, wp) into the
 * card's global warp ids, maps each errno to a CUDBGResult value
 * (docs/debugging.md has the table), and keeps what the driver does not:
 * the code objects' ELFs (read from device memory once, when a job first
 * names them), the exception the card froze on, the temporary breakpoint
 * of resume-until-PC, and the breakpoints it set, for finalize.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vortex_causes.h"
#include "vxdbg_internal.h"

/* ------------------------------------------------------------ results */

const char *vxdbg_result_name(vxdbg_result r)
{
	static const char *const names[] = {
#define N(x) [VXDBG_##x] = "VXDBG_" #x
		N(SUCCESS), N(ERROR_UNKNOWN), N(ERROR_BUFFER_TOO_SMALL),
		N(ERROR_UNKNOWN_FUNCTION), N(ERROR_INVALID_ARGS),
		N(ERROR_UNINITIALIZED), N(ERROR_INVALID_COORDINATES),
		N(ERROR_INVALID_MEMORY_SEGMENT), N(ERROR_INVALID_MEMORY_ACCESS),
		N(ERROR_MEMORY_MAPPING_FAILED), N(ERROR_INTERNAL),
		N(ERROR_INVALID_DEVICE), N(ERROR_INVALID_SM), N(ERROR_INVALID_WARP),
		N(ERROR_INVALID_LANE), N(ERROR_SUSPENDED_DEVICE),
		N(ERROR_RUNNING_DEVICE), N(ERROR_INVALID_ADDRESS),
		N(ERROR_INCOMPATIBLE_API), N(ERROR_INITIALIZATION_FAILURE),
		N(ERROR_INVALID_GRID), N(ERROR_NO_EVENT_AVAILABLE),
		N(ERROR_COMMUNICATION_FAILURE), N(ERROR_INVALID_MODULE),
		N(ERROR_OS_RESOURCES), N(ERROR_NO_DEVICE_AVAILABLE),
		N(ERROR_ATTACH_NOT_POSSIBLE), N(ERROR_WARP_RESUME_NOT_POSSIBLE),
		N(ERROR_INVALID_WARP_MASK), N(ERROR_NOT_SUPPORTED),
#undef N
	};

	if ((unsigned int)r < sizeof(names) / sizeof(names[0]) && names[r])
		return names[r];
	return "VXDBG_ERROR_(unknown result)";
}

vxdbg_result vxdbg_result_from_errno(int err)
{
	switch (err) {
	case 0:
		return VXDBG_SUCCESS;
	case -EINVAL:
	case -ERANGE:
	case -E2BIG:
	case -EFAULT:
	case -EEXIST:
		return VXDBG_ERROR_INVALID_ARGS;
	case -ESRCH:
		return VXDBG_ERROR_INVALID_WARP;	/* no warp of the target exists */
	case -EBUSY:
		return VXDBG_ERROR_RUNNING_DEVICE;
	case -ENXIO:
		return VXDBG_ERROR_INVALID_MEMORY_ACCESS;
	case -ENOENT:
		return VXDBG_ERROR_INVALID_ADDRESS;
	case -EIO:
		return VXDBG_ERROR_COMMUNICATION_FAILURE;
	case -ENODEV:
		return VXDBG_ERROR_INVALID_DEVICE;
	case -ENOSPC:
	case -ENOMEM:
		return VXDBG_ERROR_OS_RESOURCES;
	case -EOPNOTSUPP:
	case -ENOTTY:
		return VXDBG_ERROR_NOT_SUPPORTED;
	case -EPERM:
	case -EACCES:
		return VXDBG_ERROR_ATTACH_NOT_POSSIBLE;
	case -ETIME:
	case -EAGAIN:
		return VXDBG_ERROR_NO_EVENT_AVAILABLE;
	default:
		return VXDBG_ERROR_UNKNOWN;
	}
}

/* The one map from card errors to CUDA exceptions: hw/vortex_causes.h. */
vxdbg_exception vxdbg_exception_from_cause(uint32_t cause)
{
	return (vxdbg_exception)vx_cause_cuda_exception(cause);
}

/* --------------------------------------------------------- lifetime */

vxdbg_result vxdbg_initialize(struct vxdbg_backend *be, struct vxdbg **out)
{
	struct vxdbg *d;

	if (!be || !out) {
		if (be)
			be->ops->close(be);
		return VXDBG_ERROR_INVALID_ARGS;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		be->ops->close(be);
		return VXDBG_ERROR_OS_RESOURCES;
	}
	d->be = be;
	d->topo = be->topo;
	*out = d;
	return VXDBG_SUCCESS;
}

vxdbg_result vxdbg_finalize(struct vxdbg *d)
{
	struct drm_vortex_debug_warps w = {
		.op = DRM_VORTEX_DEBUG_WARPS_RESUME, .flags = DRM_VORTEX_DEBUG_WARPS_ALL,
	};

	if (!d)
		return VXDBG_ERROR_UNINITIALIZED;
	/* The driver does this at close too; the simulator and old drivers alike. */
	while (d->nbps)
		vxdbg_unset_breakpoint(d, 0, d->bps[d->nbps - 1]);
	if (d->temp_bp)
		vxdbg_unset_breakpoint(d, 0, d->temp_bp);
	d->be->ops->warps(d->be, &w);
	d->be->ops->close(d->be);
	vxdbg_free_code_objects(d);
	free(d);
	return VXDBG_SUCCESS;
}

struct vxdbg_backend *vxdbg_backend_of(struct vxdbg *d)
{
	return d ? d->be : NULL;
}

/* ------------------------------------------------ device properties */

vxdbg_result vxdbg_get_num_devices(struct vxdbg *d, uint32_t *num)
{
	if (!d)
		return VXDBG_ERROR_UNINITIALIZED;
	if (!num)
		return VXDBG_ERROR_INVALID_ARGS;
	*num = 1;
	return VXDBG_SUCCESS;
}

static vxdbg_result get_num(struct vxdbg *d, uint32_t dev, uint32_t *num, uint32_t v)
{
	vxdbg_result r = check_dev(d, dev);

	if (!r && !num)
		r = VXDBG_ERROR_INVALID_ARGS;
	if (!r)
		*num = v;
	return r;
}

vxdbg_result vxdbg_get_num_sms(struct vxdbg *d, uint32_t dev, uint32_t *num)
{
	return get_num(d, dev, num, d ? num_sms(d) : 0);
}

vxdbg_result vxdbg_get_num_warps(struct vxdbg *d, uint32_t dev, uint32_t *num)
{
	return get_num(d, dev, num, d ? d->topo.warps : 0);
}

vxdbg_result vxdbg_get_num_lanes(struct vxdbg *d, uint32_t dev, uint32_t *num)
{
	return get_num(d, dev, num, d ? d->topo.threads : 0);
}

vxdbg_result vxdbg_get_num_registers(struct vxdbg *d, uint32_t dev, uint32_t *num)
{
	return get_num(d, dev, num, VXDBG_NUM_REGS);
}

static vxdbg_result put_string(struct vxdbg *d, uint32_t dev, char *buf, uint32_t sz,
			       const char *s)
{
	vxdbg_result r = check_dev(d, dev);

	if (r)
		return r;
	if (!buf)
		return VXDBG_ERROR_INVALID_ARGS;
	if (strlen(s) >= sz)
		return VXDBG_ERROR_BUFFER_TOO_SMALL;
	strcpy(buf, s);
	return VXDBG_SUCCESS;
}

vxdbg_result vxdbg_get_device_name(struct vxdbg *d, uint32_t dev, char *buf, uint32_t sz)
{
	char name[128] = "";

	if (d)
		snprintf(name, sizeof(name),
			 "Vortex SIMT card (%u cluster%s x %u cores, %u warps x %u lanes, %s)",
			 d->topo.clusters, d->topo.clusters == 1 ? "" : "s", d->topo.cores,
			 d->topo.warps, d->topo.threads, d->be->ops->name);
	return put_string(d, dev, buf, sz, name);
}

vxdbg_result vxdbg_get_device_type(struct vxdbg *d, uint32_t dev, char *buf, uint32_t sz)
{
	return put_string(d, dev, buf, sz, "vortex");
}

vxdbg_result vxdbg_get_sm_type(struct vxdbg *d, uint32_t dev, char *buf, uint32_t sz)
{
	return put_string(d, dev, buf, sz, "rv32imf");
}

/* -------------------------------------------------- execution control */

static int warps_all(struct vxdbg *d, uint32_t op)
{
	struct drm_vortex_debug_warps w = { .op = op, .flags = DRM_VORTEX_DEBUG_WARPS_ALL };

	return d->be->ops->warps(d->be, &w);
}

static int bp_op(struct vxdbg *d, uint64_t addr, uint32_t op);

void vxdbg_drop_temp_bp(struct vxdbg *d)
{
	if (!d->temp_bp)
		return;
	bp_op(d, d->temp_bp, DRM_VORTEX_DEBUG_BP_CLEAR);
	d->temp_bp = 0;
}

/* Every warp halted or resumed; nothing on the card is nothing to do. */
static vxdbg_result device_op(struct vxdbg *d, uint32_t dev, uint32_t op)
{
	vxdbg_result r = check_dev(d, dev);
	int ret;

	if (r)
		return r;
	vxdbg_drop_temp_bp(d);
	if (op == DRM_VORTEX_DEBUG_WARPS_RESUME)
		vxdbg_drop_stale_halts(d);
	ret = warps_all(d, op);
	return ret == -ESRCH ? VXDBG_SUCCESS : vxdbg_result_from_errno(ret);
}

vxdbg_result vxdbg_suspend_device(struct vxdbg *d, uint32_t dev)
{
	return device_op(d, dev, DRM_VORTEX_DEBUG_WARPS_HALT);
}

vxdbg_result vxdbg_resume_device(struct vxdbg *d, uint32_t dev)
{
	return device_op(d, dev, DRM_VORTEX_DEBUG_WARPS_RESUME);
}

vxdbg_result vxdbg_halt_at_start(struct vxdbg *d, uint32_t dev, bool on)
{
	return vxdbg_set_launch_halt(d, dev, on ? VXDBG_LAUNCH_HALT_NEXT : VXDBG_LAUNCH_RUN);
}

vxdbg_result vxdbg_set_launch_halt(struct vxdbg *d, uint32_t dev,
				   enum vxdbg_launch_halt mode)
{
	static const uint32_t flags[] = {
		[VXDBG_LAUNCH_RUN] = 0,
		[VXDBG_LAUNCH_HALT_NEXT] = DRM_VORTEX_DEBUG_WARPS_ALL,
		[VXDBG_LAUNCH_HALT_EVERY] = DRM_VORTEX_DEBUG_WARPS_ALL |
					    DRM_VORTEX_DEBUG_WARPS_PERSIST,
	};
	struct drm_vortex_debug_warps w = { .op = DRM_VORTEX_DEBUG_WARPS_HALT_AT_START };
	vxdbg_result r = check_dev(d, dev);

	if (r)
		return r;
	if ((unsigned int)mode >= sizeof(flags) / sizeof(flags[0]))
		return VXDBG_ERROR_INVALID_ARGS;
	w.flags = flags[mode];
	r = vxdbg_result_from_errno(d->be->ops->warps(d->be, &w));
	if (!r)
		d->launch_halt = mode;
	return r;
}

enum vxdbg_launch_halt vxdbg_get_launch_halt(const struct vxdbg *d)
{
	return d ? d->launch_halt : VXDBG_LAUNCH_RUN;
}

vxdbg_result vxdbg_read_console(struct vxdbg *d, uint32_t dev, uint32_t *rec,
				uint32_t *count, uint64_t *skipped)
{
	struct drm_vortex_debug_console c = {
		.data = (uintptr_t)rec, .count = count ? *count : 0,
	};
	vxdbg_result r = check_dev(d, dev);
	int ret;

	if (r)
		return r;
	if (!rec || !count)
		return VXDBG_ERROR_INVALID_ARGS;
	if (!d->be->ops->console)
		return VXDBG_ERROR_NOT_SUPPORTED;
	ret = d->be->ops->console(d->be, &c);
	if (ret)
		return vxdbg_result_from_errno(ret);
	*count = c.count;
	if (skipped)
		*skipped = c.skipped;
	return VXDBG_SUCCESS;
}

/* One breakpoint change: a batch of one. */
static int bp_op(struct vxdbg *d, uint64_t addr, uint32_t op)
{
	struct drm_vortex_debug_bp_op o = { .addr = addr, .op = op };
	struct drm_vortex_debug_breakpoint b = {
		.ops = (uintptr_t)&o, .count = 1, .stride = sizeof(o),
	};

	return d->be->ops->breakpoint(d->be, &b);
}

/* Breakpoint errnos: every address problem is INVALID_ADDRESS. */
static vxdbg_result bp_result(int ret)
{
	if (ret == -EINVAL || ret == -ENXIO || ret == -ENOENT)
		return VXDBG_ERROR_INVALID_ADDRESS;
	return vxdbg_result_from_errno(ret);
}

vxdbg_result vxdbg_resume_warps_until_pc(struct vxdbg *d, uint32_t dev, uint32_t sm,
					 uint64_t warp_mask, uint64_t virt_pc)
{
	uint32_t mask[VX_DM_MAX_WARPS / 32] = { 0 }, wp, g;
	struct drm_vortex_debug_warps w = {
		.op = DRM_VORTEX_DEBUG_WARPS_RESUME, .mask = (uintptr_t)mask,
	};
	vxdbg_result r = check_sm(d, dev, sm);
	int ret;

	if (r)
		return r;
	if (!warp_mask || (d->topo.warps < 64 && warp_mask >> d->topo.warps))
		return VXDBG_ERROR_INVALID_WARP_MASK;
	vxdbg_drop_temp_bp(d);
	ret = bp_op(d, virt_pc, DRM_VORTEX_DEBUG_BP_SET);
	if (ret && ret != -EEXIST)
		return bp_result(ret);
	if (!ret)
		d->temp_bp = virt_pc;
	vxdbg_drop_stale_halts(d);
	for (wp = 0; wp < 64 && wp < d->topo.warps; wp++) {
		if (!(warp_mask >> wp & 1))
			continue;
		g = gwarp(d, sm, wp);
		mask[g / 32] |= 1u << g % 32;
		w.mask_words = g / 32 + 1;
	}
	ret = d->be->ops->warps(d->be, &w);
	if (ret) {
		vxdbg_drop_temp_bp(d);
		return ret == -ESRCH ? VXDBG_ERROR_WARP_RESUME_NOT_POSSIBLE :
		       vxdbg_result_from_errno(ret);
	}
	return VXDBG_SUCCESS;
}

vxdbg_result vxdbg_single_step_warp(struct vxdbg *d, uint32_t dev, uint32_t sm,
				    uint32_t wp, uint32_t nsteps, uint64_t *warp_mask)
{
	struct drm_vortex_debug_step s = { .count = nsteps };
	vxdbg_result r = check_warp(d, dev, sm, wp);
	int ret;

	if (r)
		return r;
	if (!nsteps || nsteps > DRM_VORTEX_DEBUG_MAX_STEPS || !warp_mask)
		return VXDBG_ERROR_INVALID_ARGS;
	s.warp = gwarp(d, sm, wp);
	ret = d->be->ops->step(d->be, &s);
	if (ret)
		return vxdbg_busy_result(d, ret, sm, wp);
	*warp_mask = s.done ? 1ull << wp : 0;
	return VXDBG_SUCCESS;
}

/* ------------------------------------------------------ breakpoints */

vxdbg_result vxdbg_set_breakpoint(struct vxdbg *d, uint32_t dev, uint64_t addr)
{
	vxdbg_result r = check_dev(d, dev);
	int ret;

	if (r)
		return r;
	if (addr == d->temp_bp) {	/* the user's from now on */
		d->temp_bp = 0;
		ret = 0;
	} else {
		ret = bp_op(d, addr, DRM_VORTEX_DEBUG_BP_SET);
	}
	if (!ret)
		d->bps[d->nbps++] = addr;
	return bp_result(ret);
}

vxdbg_result vxdbg_unset_breakpoint(struct vxdbg *d, uint32_t dev, uint64_t addr)
{
	vxdbg_result r = check_dev(d, dev);
	uint32_t i;
	int ret;

	if (r)
		return r;
	ret = bp_op(d, addr, DRM_VORTEX_DEBUG_BP_CLEAR);
	for (i = 0; !ret && i < d->nbps; i++) {
		if (d->bps[i] == addr) {
			d->bps[i] = d->bps[--d->nbps];
			break;
		}
	}
	if (!ret && addr == d->temp_bp)
		d->temp_bp = 0;
	return bp_result(ret);
}

uint32_t vxdbg_breakpoints(struct vxdbg *d, uint64_t *addrs, uint32_t max)
{
	uint32_t i;

	for (i = 0; d && i < d->nbps && i < max; i++)
		addrs[i] = d->bps[i];
	return d ? d->nbps : 0;
}
