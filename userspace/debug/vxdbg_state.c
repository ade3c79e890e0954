// SPDX-License-Identifier: MIT
/*
 * libvortex-debug: reading and changing a halted card's state.  Warp
 * state comes from one STATUS call (which the driver fills by injection
 * for halted warps); registers go through REGS batches, one per call
 * however many lanes and registers it names; memory through MEM, split
 * at the driver's per-op maximum.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vxdbg_internal.h"

static int status_of(struct vxdbg *d, uint32_t first, uint32_t count,
		     struct drm_vortex_debug_warp_state *st)
{
	struct drm_vortex_debug_status s = {
		.states = (uintptr_t)st, .first = first, .count = count,
		.stride = sizeof(*st),
	};
	int ret = d->be->ops->status(d->be, &s);

	if (ret == -ESRCH) {	/* nothing on the card: no warp is valid */
		memset(st, 0, count * sizeof(*st));
		for (uint32_t i = 0; i < count; i++)
			st[i].warp = first + i;
		return 0;
	}
	return ret;
}

/* One bit per warp of @sm whose state has all of @bits. */
static vxdbg_result sm_mask(struct vxdbg *d, uint32_t dev, uint32_t sm, uint64_t *mask,
			    uint32_t bits)
{
	struct drm_vortex_debug_warp_state st[64];
	vxdbg_result r = check_sm(d, dev, sm);
	int ret;

	if (r)
		return r;
	if (!mask)
		return VXDBG_ERROR_INVALID_ARGS;
	if (d->topo.warps > 64)
		return VXDBG_ERROR_NOT_SUPPORTED;
	ret = status_of(d, gwarp(d, sm, 0), d->topo.warps, st);
	if (ret)
		return warp_result(ret);
	*mask = 0;
	for (uint32_t wp = 0; wp < d->topo.warps; wp++)
		if ((st[wp].state & bits) == bits)
			*mask |= 1ull << wp;
	return VXDBG_SUCCESS;
}

vxdbg_result vxdbg_read_valid_warps(struct vxdbg *d, uint32_t dev, uint32_t sm,
				    uint64_t *mask)
{
	return sm_mask(d, dev, sm, mask, DRM_VORTEX_DEBUG_WARP_ACTIVE);
}

vxdbg_result vxdbg_read_broken_warps(struct vxdbg *d, uint32_t dev, uint32_t sm,
				     uint64_t *mask)
{
	return sm_mask(d, dev, sm, mask, DRM_VORTEX_DEBUG_WARP_HALTED |
		       DRM_VORTEX_DEBUG_WARP_ON_BREAKPOINT);
}

/* ------------------------------------------------------- registers */

_Static_assert(VXDBG_REG_PC == DRM_VORTEX_DEBUG_REG_PC, "VXDBG_REG_PC is the uapi's");

static int regs_call(struct vxdbg *d, struct drm_vortex_debug_reg_op *ops, uint32_t n)
{
	struct drm_vortex_debug_regs r = {
		.ops = (uintptr_t)ops, .count = n, .stride = sizeof(*ops),
	};

	return d->be->ops->regs(d->be, &r);
}

static uint32_t lanes_count(const struct vxdbg_lanes *l)
{
	uint32_t n = 0;

	for (int w = 0; w < VXDBG_LANE_WORDS; w++)
		n += __builtin_popcount(l->w[w]);
	return n;
}

/*
 * -EBUSY says the warp is not halted: it runs (RUNNING_DEVICE), or has no
 * context at all (INVALID_WARP), which only a STATUS tells apart.
 */
vxdbg_result vxdbg_busy_result(struct vxdbg *d, int ret, uint32_t sm, uint32_t wp)
{
	struct drm_vortex_debug_warp_state st;

	if (ret != -EBUSY)
		return warp_result(ret);
	if (!status_of(d, gwarp(d, sm, wp), 1, &st) &&
	    !(st.state & DRM_VORTEX_DEBUG_WARP_ACTIVE))
		return VXDBG_ERROR_INVALID_WARP;
	return VXDBG_ERROR_RUNNING_DEVICE;
}

/* Register errnos: a CSR the card lacks faults its injection (-EIO). */
static vxdbg_result reg_result(struct vxdbg *d, int ret, uint32_t sm, uint32_t wp,
			       uint32_t regno)
{
	if (ret == -EIO && regno >= VXDBG_REG_CSR(0))
		return VXDBG_ERROR_INVALID_ARGS;
	return vxdbg_busy_result(d, ret, sm, wp);
}

vxdbg_result vxdbg_read_warp_registers(struct vxdbg *d, uint32_t dev, uint32_t sm,
				       uint32_t wp, const struct vxdbg_lanes *lanes,
				       uint32_t index, uint32_t n, uint32_t *vals)
{
	struct drm_vortex_debug_reg_op ops[DRM_VORTEX_DEBUG_MAX_REG_OPS];
	vxdbg_result r = check_warp(d, dev, sm, wp);
	uint32_t nl, i;

	if (r)
		return r;
	if (!lanes || !vals || !n || n > DRM_VORTEX_DEBUG_MAX_REG_OPS)
		return VXDBG_ERROR_INVALID_ARGS;
	nl = lanes_count(lanes);
	if (!nl)
		return VXDBG_ERROR_INVALID_ARGS;
	for (i = 0; i < VXDBG_MAX_LANES; i++)
		if (lanes->w[i / 32] >> i % 32 & 1 && i >= d->topo.threads)
			return VXDBG_ERROR_INVALID_LANE;
	for (i = 0; i < n; i++) {
		if (!valid_regno(index + i))
			return VXDBG_ERROR_INVALID_ARGS;
		ops[i] = (struct drm_vortex_debug_reg_op){
			.warp = gwarp(d, sm, wp), .reg = index + i,
			.values = (uintptr_t)(vals + (size_t)i * nl),
		};
		memcpy(ops[i].lanes, lanes->w, sizeof(ops[i].lanes));
	}
	return reg_result(d, regs_call(d, ops, n), sm, wp, index + n - 1);
}

vxdbg_result vxdbg_read_register_range(struct vxdbg *d, uint32_t dev, uint32_t sm,
				       uint32_t wp, uint32_t ln, uint32_t index,
				       uint32_t n, uint32_t *regs)
{
	struct vxdbg_lanes l = { { 0 } };
	vxdbg_result r = check_lane(d, dev, sm, wp, ln);

	if (r)
		return r;
	l.w[ln / 32] = 1u << ln % 32;
	return vxdbg_read_warp_registers(d, dev, sm, wp, &l, index, n, regs);
}

vxdbg_result vxdbg_read_register(struct vxdbg *d, uint32_t dev, uint32_t sm, uint32_t wp,
				 uint32_t ln, uint32_t regno, uint32_t *val)
{
	return vxdbg_read_register_range(d, dev, sm, wp, ln, regno, 1, val);
}

vxdbg_result vxdbg_write_register(struct vxdbg *d, uint32_t dev, uint32_t sm, uint32_t wp,
				  uint32_t ln, uint32_t regno, uint32_t val)
{
	struct drm_vortex_debug_reg_op op = {
		.reg = regno, .values = (uintptr_t)&val, .flags = DRM_VORTEX_DEBUG_REG_WRITE,
	};
	vxdbg_result r = check_lane(d, dev, sm, wp, ln);

	if (r)
		return r;
	if (!valid_regno(regno))
		return VXDBG_ERROR_INVALID_ARGS;
	op.warp = gwarp(d, sm, wp);
	op.lanes[ln / 32] = 1u << ln % 32;
	return reg_result(d, regs_call(d, &op, 1), sm, wp, regno);
}

/* Lane 0's CSRs @csr..@csr+2: block and thread coordinates. */
static vxdbg_result read_dim3(struct vxdbg *d, uint32_t dev, uint32_t sm, uint32_t wp,
			      uint32_t ln, uint32_t csr, struct vxdbg_dim3 *out)
{
	uint32_t v[3];
	vxdbg_result r;

	if (!out)
		return check_lane(d, dev, sm, wp, ln) ?: VXDBG_ERROR_INVALID_ARGS;
	r = vxdbg_read_register_range(d, dev, sm, wp, ln, VXDBG_REG_CSR(csr), 3, v);
	if (!r)
		*out = (struct vxdbg_dim3){ v[0], v[1], v[2] };
	return r;
}

vxdbg_result vxdbg_read_thread_idx(struct vxdbg *d, uint32_t dev, uint32_t sm,
				   uint32_t wp, uint32_t ln, struct vxdbg_dim3 *idx)
{
	return read_dim3(d, dev, sm, wp, ln, VX_CSR_THREAD_IDX(0), idx);
}

vxdbg_result vxdbg_read_block_idx(struct vxdbg *d, uint32_t dev, uint32_t sm,
				  uint32_t wp, struct vxdbg_dim3 *idx)
{
	return read_dim3(d, dev, sm, wp, 0, VX_CSR_BLOCK_IDX(0), idx);
}

/* ------------------------------------------------------ warp state */

/* Lanes that hold a thread of the block: the warp's share of its size. */
static vxdbg_result valid_lanes(struct vxdbg *d, uint32_t sm, uint32_t wp,
				uint32_t warp_in_block, struct vxdbg_lanes *out)
{
	struct vxdbg_dim3 dim;
	uint64_t threads, first = (uint64_t)warp_in_block * d->topo.threads;
	vxdbg_result r = read_dim3(d, 0, sm, wp, 0, VX_CSR_BLOCK_DIM(0), &dim);

	if (r)
		return r;
	threads = (uint64_t)dim.x * dim.y * dim.z;
	memset(out, 0, sizeof(*out));
	for (uint32_t l = 0; l < d->topo.threads && first + l < threads; l++)
		out->w[l / 32] |= 1u << l % 32;
	return VXDBG_SUCCESS;
}

vxdbg_result vxdbg_read_warp_state(struct vxdbg *d, uint32_t dev, uint32_t sm,
				   uint32_t wp, struct vxdbg_warp_state *ws)
{
	struct drm_vortex_debug_warp_state st;
	vxdbg_result r = check_warp(d, dev, sm, wp);
	int ret;

	if (r)
		return r;
	if (!ws)
		return VXDBG_ERROR_INVALID_ARGS;
	ret = status_of(d, gwarp(d, sm, wp), 1, &st);
	if (ret)
		return warp_result(ret);
	memset(ws, 0, sizeof(*ws));
	ws->valid = st.state & DRM_VORTEX_DEBUG_WARP_ACTIVE;
	ws->halted = st.state & DRM_VORTEX_DEBUG_WARP_HALTED;
	if (!ws->halted)
		return VXDBG_SUCCESS;
	ws->broken = st.state & DRM_VORTEX_DEBUG_WARP_ON_BREAKPOINT;
	ws->halt_cause = st.cause;
	ws->grid_id = d->grid_id;
	ws->block_idx = (struct vxdbg_dim3){ st.block_idx[0], st.block_idx[1], st.block_idx[2] };
	ws->warp_in_block = st.warp_in_block;
	ws->virtual_pc = st.pc;
	vxdbg_read_pc(d, dev, sm, wp, 0, &ws->pc);
	memcpy(ws->active_lanes.w, st.thread_mask, sizeof(ws->active_lanes.w));
	if (d->exception && d->exc.u.exception.sm == sm && d->exc.u.exception.wp == wp) {
		ws->error_pc = d->exc.u.exception.pc;
		ws->error_pc_valid = true;
	}
	return valid_lanes(d, sm, wp, st.warp_in_block, &ws->valid_lanes);
}

/* The valid or the active lanes of a warp, from its state. */
static vxdbg_result warp_lanes(struct vxdbg *d, uint32_t dev, uint32_t sm, uint32_t wp,
			       struct vxdbg_lanes *mask, bool active)
{
	struct vxdbg_warp_state ws;
	vxdbg_result r = mask ? vxdbg_read_warp_state(d, dev, sm, wp, &ws) :
			 check_warp(d, dev, sm, wp) ?: VXDBG_ERROR_INVALID_ARGS;

	if (!r)
		*mask = active ? ws.active_lanes : ws.valid_lanes;
	return r;
}

vxdbg_result vxdbg_read_valid_lanes(struct vxdbg *d, uint32_t dev, uint32_t sm,
				    uint32_t wp, struct vxdbg_lanes *mask)
{
	return warp_lanes(d, dev, sm, wp, mask, false);
}

vxdbg_result vxdbg_read_active_lanes(struct vxdbg *d, uint32_t dev, uint32_t sm,
				     uint32_t wp, struct vxdbg_lanes *mask)
{
	return warp_lanes(d, dev, sm, wp, mask, true);
}

/* The PC of a halted warp; RUNNING_DEVICE if it runs, INVALID_WARP if none. */
static vxdbg_result halted_pc(struct vxdbg *d, uint32_t dev, uint32_t sm, uint32_t wp,
			      uint32_t ln, uint64_t *pc)
{
	struct drm_vortex_debug_warp_state st;
	vxdbg_result r = check_lane(d, dev, sm, wp, ln);
	int ret;

	if (r)
		return r;
	if (!pc)
		return VXDBG_ERROR_INVALID_ARGS;
	ret = status_of(d, gwarp(d, sm, wp), 1, &st);
	if (ret)
		return warp_result(ret);
	if (!(st.state & DRM_VORTEX_DEBUG_WARP_ACTIVE))
		return VXDBG_ERROR_INVALID_WARP;
	if (!(st.state & DRM_VORTEX_DEBUG_WARP_HALTED))
		return VXDBG_ERROR_RUNNING_DEVICE;
	*pc = st.pc;
	return VXDBG_SUCCESS;
}

vxdbg_result vxdbg_read_virtual_pc(struct vxdbg *d, uint32_t dev, uint32_t sm,
				   uint32_t wp, uint32_t ln, uint64_t *pc)
{
	return halted_pc(d, dev, sm, wp, ln, pc);
}

vxdbg_result vxdbg_read_pc(struct vxdbg *d, uint32_t dev, uint32_t sm, uint32_t wp,
			   uint32_t ln, uint64_t *pc)
{
	vxdbg_result r = halted_pc(d, dev, sm, wp, ln, pc);

	for (uint32_t i = 0; !r && i < d->nco; i++) {
		if (*pc - d->co[i].load_addr < d->co[i].load_size) {
			*pc = *pc - d->co[i].load_addr + d->co[i].vaddr_lo;
			return VXDBG_SUCCESS;
		}
	}
	return r ?: VXDBG_ERROR_UNKNOWN_FUNCTION;
}

vxdbg_result vxdbg_read_lane_exception(struct vxdbg *d, uint32_t dev, uint32_t sm,
				       uint32_t wp, uint32_t ln, vxdbg_exception *ex)
{
	vxdbg_result r = check_lane(d, dev, sm, wp, ln);

	if (r)
		return r;
	if (!ex)
		return VXDBG_ERROR_INVALID_ARGS;
	/* Every lane the card latched as faulting (ERR_TMASK0-3). */
	*ex = d->exception && d->exc.u.exception.sm == sm && d->exc.u.exception.wp == wp &&
	      (d->exc.u.exception.lanes.w[ln / 32] >> ln % 32 & 1) ?
	      d->exc.u.exception.exception : VXDBG_EXCEPTION_NONE;
	return VXDBG_SUCCESS;
}

vxdbg_result vxdbg_read_grid_id(struct vxdbg *d, uint32_t dev, uint32_t sm,
				uint32_t wp, uint64_t *grid_id)
{
	struct vxdbg_warp_state ws;
	vxdbg_result r = check_warp(d, dev, sm, wp);

	if (r)
		return r;
	if (!grid_id)
		return VXDBG_ERROR_INVALID_ARGS;
	r = vxdbg_read_warp_state(d, dev, sm, wp, &ws);
	if (!r && !ws.valid)
		r = VXDBG_ERROR_INVALID_WARP;
	if (!r)
		*grid_id = d->grid_id;
	return r;
}

/* ---------------------------------------------------------- memory */

static vxdbg_result global_memory(struct vxdbg *d, uint64_t addr, void *buf, uint32_t sz,
				  uint32_t flags)
{
	struct drm_vortex_debug_mem_op op = { .flags = flags };
	struct drm_vortex_debug_mem m = {
		.ops = (uintptr_t)&op, .count = 1, .stride = sizeof(op),
	};
	uint32_t off, n;
	int ret;

	if (!d)
		return VXDBG_ERROR_UNINITIALIZED;
	if (!buf || !sz)
		return VXDBG_ERROR_INVALID_ARGS;
	for (off = 0; off < sz; off += n) {
		n = sz - off < DRM_VORTEX_DEBUG_MAX_MEM_LEN ? sz - off :
		    DRM_VORTEX_DEBUG_MAX_MEM_LEN;
		op.addr = addr + off;
		op.buf = (uintptr_t)buf + off;
		op.len = n;
		ret = d->be->ops->mem(d->be, &m);
		if (ret)
			return vxdbg_result_from_errno(ret);
	}
	return VXDBG_SUCCESS;
}

vxdbg_result vxdbg_read_global_memory(struct vxdbg *d, uint64_t addr, void *buf,
				      uint32_t sz)
{
	return global_memory(d, addr, buf, sz, 0);
}

vxdbg_result vxdbg_write_global_memory(struct vxdbg *d, uint64_t addr, const void *buf,
				       uint32_t sz)
{
	return global_memory(d, addr, (void *)buf, sz, DRM_VORTEX_DEBUG_MEM_WRITE);
}

vxdbg_result vxdbg_generate_coredump(struct vxdbg *d, const char *filename, uint32_t flags)
{
	struct drm_vortex_debug_coredump c = { .flags = flags };

	if (!d)
		return VXDBG_ERROR_UNINITIALIZED;
	if (!filename || flags)
		return VXDBG_ERROR_INVALID_ARGS;
	return vxdbg_result_from_errno(d->be->ops->coredump(d->be, &c));
}
