/* SPDX-License-Identifier: MIT */
/*
 * Inside libvortex-debug's API layer: the handle, shared by vxdbg.c
 * (lifetime, control, breakpoints), vxdbg_state.c (inspection, registers,
 * memory) and vxdbg_events.c (events, code objects).
 */
#ifndef VXDBG_INTERNAL_H
#define VXDBG_INTERNAL_H

#include <errno.h>
#include <stdbool.h>

#include "vortex_regs.h"
#include "vxdbg.h"
#include "vxdbg_backend.h"

#define MAX_CODE_OBJECTS	64
#define PENDING_EVENTS		64

struct code_object {
	uint32_t id;
	void *elf;
	uint64_t size;
	uint64_t load_addr, load_size;
	uint32_t vaddr_lo;	/* ELF address at load_addr */
};

struct vxdbg {
	struct vxdbg_backend *be;
	struct vxdbg_topology topo;
	struct code_object co[MAX_CODE_OBJECTS];
	uint32_t nco;
	struct code_object *current;	/* the last launched job's */
	uint64_t grid_id;		/* the job on the card, 0 if none */
	bool exception;			/* the card froze on @exc */
	struct vxdbg_event exc;
	uint64_t temp_bp;		/* of resume-until-PC, 0 if none */
	enum vxdbg_launch_halt launch_halt;	/* as set; HALT_NEXT until a launch */
	uint64_t bps[DRM_VORTEX_DEBUG_MAX_BREAKPOINTS];
	uint32_t nbps;
	struct vxdbg_event pending[PENDING_EVENTS];
	uint32_t npending;
};

/* ------------------------------------------------------- coordinates */

static inline vxdbg_result check_dev(struct vxdbg *d, uint32_t dev)
{
	if (!d)
		return VXDBG_ERROR_UNINITIALIZED;
	return dev ? VXDBG_ERROR_INVALID_DEVICE : VXDBG_SUCCESS;
}

static inline uint32_t num_sms(const struct vxdbg *d)
{
	return d->topo.clusters * d->topo.cores;
}

static inline vxdbg_result check_sm(struct vxdbg *d, uint32_t dev, uint32_t sm)
{
	vxdbg_result r = check_dev(d, dev);

	if (!r && sm >= num_sms(d))
		r = VXDBG_ERROR_INVALID_SM;
	return r;
}

static inline vxdbg_result check_warp(struct vxdbg *d, uint32_t dev, uint32_t sm, uint32_t wp)
{
	vxdbg_result r = check_sm(d, dev, sm);

	if (!r && wp >= d->topo.warps)
		r = VXDBG_ERROR_INVALID_WARP;
	return r;
}

static inline vxdbg_result check_lane(struct vxdbg *d, uint32_t dev, uint32_t sm, uint32_t wp,
			       uint32_t ln)
{
	vxdbg_result r = check_warp(d, dev, sm, wp);

	if (!r && ln >= d->topo.threads)
		r = VXDBG_ERROR_INVALID_LANE;
	return r;
}

static inline uint32_t gwarp(const struct vxdbg *d, uint32_t sm, uint32_t wp)
{
	return sm * d->topo.warps + wp;
}

static inline bool valid_regno(uint32_t regno)
{
	return regno < VXDBG_REG_F(32) || regno == VXDBG_REG_PC ||
	       (regno >= VXDBG_REG_CSR(0) && regno <= VXDBG_REG_CSR(0xfff));
}

/* Step, status and register errnos after coordinates were checked. */
static inline vxdbg_result warp_result(int ret)
{
	if (ret == -ERANGE || ret == -ESRCH)
		return VXDBG_ERROR_INVALID_WARP;
	return vxdbg_result_from_errno(ret);
}

void vxdbg_free_code_objects(struct vxdbg *d);
void vxdbg_drop_stale_halts(struct vxdbg *d);
void vxdbg_drop_temp_bp(struct vxdbg *d);
vxdbg_result vxdbg_busy_result(struct vxdbg *d, int ret, uint32_t sm, uint32_t wp);

#endif /* VXDBG_INTERNAL_H */
