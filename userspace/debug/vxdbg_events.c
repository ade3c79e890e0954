// SPDX-License-Identifier: MIT
/*
 * libvortex-debug: events and code objects.  The driver's events become
 * CUDBGEvents: CODE_LOADED is ELF_IMAGE_LOADED (the ELF is read from device
 * memory, where the runtime registered it, and kept), CODE_UNLOADED
 * Vortex's own ELF_IMAGE_UNLOADED; LAUNCHED is KERNEL_READY, preceded by
 * ELF_IMAGE_LOADED if it names a code object not seen yet (a driver
 * without CODE_LOADED, or one read too late); FINISHED is
 * KERNEL_FINISHED; OVERFLOW is INTERNAL_ERROR; HALTED, EXCEPTION and
 * TIMEOUT have no CUDA kind and get Vortex's own.  Unknown event types
 * (a newer driver) are skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vx_elf.h"
#include "vxdbg_internal.h"

/* ------------------------------------------------------ code objects */

static struct code_object *co_find(struct vxdbg *d, uint32_t id)
{
	for (uint32_t i = 0; i < d->nco; i++)
		if (d->co[i].id == id)
			return &d->co[i];
	return NULL;
}

/* Keeps @elf (owned from now on); the oldest goes when the table is full. */
static struct code_object *co_add(struct vxdbg *d, uint32_t id, void *elf, uint64_t size,
				  uint64_t load_addr, uint64_t load_size)
{
	struct vx_elf_layout l = { 0 };
	struct code_object *co;

	if (d->nco == MAX_CODE_OBJECTS) {
		free(d->co[0].elf);
		memmove(&d->co[0], &d->co[1], (MAX_CODE_OBJECTS - 1) * sizeof(d->co[0]));
		d->nco--;
		d->current = NULL;
	}
	co = &d->co[d->nco++];
	vx_elf_parse(elf, size, &l);	/* a bad ELF just has no symbols */
	*co = (struct code_object){ id, elf, size, load_addr, load_size, l.vaddr_lo };
	d->current = co;
	return co;
}

void vxdbg_free_code_objects(struct vxdbg *d)
{
	for (uint32_t i = 0; i < d->nco; i++)
		free(d->co[i].elf);
	d->nco = 0;
	d->current = NULL;
}

vxdbg_result vxdbg_add_code_object(struct vxdbg *d, const void *elf, uint64_t size,
				   uint64_t load_addr, uint64_t load_size)
{
	void *copy;

	if (!d)
		return VXDBG_ERROR_UNINITIALIZED;
	if (!elf || !size || !load_size)
		return VXDBG_ERROR_INVALID_ARGS;
	copy = malloc(size);
	if (!copy)
		return VXDBG_ERROR_OS_RESOURCES;
	memcpy(copy, elf, size);
	co_add(d, 0, copy, size, load_addr, load_size);
	return VXDBG_SUCCESS;
}

/*
 * The ELF a code object names, read from device memory: @co holds its id,
 * ELF address and size, load address and size (LAUNCHED's data[7..11],
 * CODE_LOADED's [0..4]).
 */
static struct code_object *co_fetch(struct vxdbg *d, const uint32_t *co)
{
	void *elf;

	if (!co[0] || !co[2])
		return NULL;
	elf = malloc(co[2]);
	if (!elf)
		return NULL;
	if (vxdbg_read_global_memory(d, co[1], elf, co[2])) {
		free(elf);
		return NULL;
	}
	return co_add(d, co[0], elf, co[2], co[3], co[4]);
}

/* Forgets the object @id; false if it was not known. */
static bool co_remove(struct vxdbg *d, uint32_t id)
{
	struct code_object *co = id ? co_find(d, id) : NULL;

	if (!co)
		return false;
	if (d->current == co)
		d->current = NULL;
	else if (d->current > co)
		d->current--;
	free(co->elf);
	memmove(co, co + 1, (size_t)(&d->co[d->nco] - (co + 1)) * sizeof(*co));
	d->nco--;
	return true;
}

/* ELF_IMAGE_LOADED for a code object: the driver's CODE_LOADED, or a job's new one. */
static void elf_loaded(struct vxdbg_event *ev, const struct code_object *co, bool replayed)
{
	ev->kind = VXDBG_EVENT_ELF_IMAGE_LOADED;
	ev->u.elf_image_loaded.handle = co->id;
	ev->u.elf_image_loaded.size = co->size;
	ev->u.elf_image_loaded.load_addr = co->load_addr;
	ev->u.elf_image_loaded.load_size = co->load_size;
	ev->u.elf_image_loaded.replayed = replayed;
}

static struct code_object *co_holding(struct vxdbg *d, uint64_t addr)
{
	for (uint32_t i = d->nco; i--;)
		if (addr - d->co[i].load_addr < d->co[i].load_size)
			return &d->co[i];
	return NULL;
}

vxdbg_result vxdbg_lookup_symbol(struct vxdbg *d, const char *name, uint64_t *addr)
{
	uint32_t v;

	if (!d)
		return VXDBG_ERROR_UNINITIALIZED;
	if (!name || !addr)
		return VXDBG_ERROR_INVALID_ARGS;
	if (!d->current)
		return VXDBG_ERROR_INVALID_MODULE;
	if (vx_elf_symbol(d->current->elf, d->current->size, name, &v))
		return VXDBG_ERROR_UNKNOWN_FUNCTION;
	*addr = d->current->load_addr + v - d->current->vaddr_lo;
	return VXDBG_SUCCESS;
}

vxdbg_result vxdbg_symbolize(struct vxdbg *d, uint64_t addr, char *buf, uint32_t sz)
{
	struct code_object *co;
	const char *name;
	uint32_t v, elf_addr;
	int n;

	if (!d)
		return VXDBG_ERROR_UNINITIALIZED;
	if (!buf || !sz)
		return VXDBG_ERROR_INVALID_ARGS;
	co = co_holding(d, addr);
	if (!co)
		return VXDBG_ERROR_UNKNOWN_FUNCTION;
	elf_addr = addr - co->load_addr + co->vaddr_lo;
	if (vx_elf_symbol_at(co->elf, co->size, elf_addr, &name, &v))
		return VXDBG_ERROR_UNKNOWN_FUNCTION;
	n = elf_addr == v ? snprintf(buf, sz, "%s", name) :
	    snprintf(buf, sz, "%s+0x%x", name, elf_addr - v);
	return n < (int)sz ? VXDBG_SUCCESS : VXDBG_ERROR_BUFFER_TOO_SMALL;
}

vxdbg_result vxdbg_get_elf_image(struct vxdbg *d, const void **elf, uint64_t *size,
				 uint64_t *load_addr)
{
	if (!d)
		return VXDBG_ERROR_UNINITIALIZED;
	if (!elf || !size)
		return VXDBG_ERROR_INVALID_ARGS;
	if (!d->current)
		return VXDBG_ERROR_INVALID_MODULE;
	*elf = d->current->elf;
	*size = d->current->size;
	if (load_addr)
		*load_addr = d->current->load_addr;
	return VXDBG_SUCCESS;
}

/* ----------------------------------------------------------- events */

static void push_pending(struct vxdbg *d, const struct vxdbg_event *ev)
{
	if (d->npending < PENDING_EVENTS)
		d->pending[d->npending++] = *ev;
}

/* KERNEL_READY, after ELF_IMAGE_LOADED if the code object is new; returns how many. */
static int launched(struct vxdbg *d, const struct drm_vortex_debug_event *e,
		    struct vxdbg_event *ev)
{
	struct code_object *co = e->data[7] ? co_find(d, e->data[7]) : NULL;
	struct vxdbg_event *ready = ev;

	d->grid_id = e->job;
	d->exception = false;
	/* the halt asked for the next launch only is used up */
	if (d->launch_halt == VXDBG_LAUNCH_HALT_NEXT)
		d->launch_halt = VXDBG_LAUNCH_RUN;
	if (co) {
		d->current = co;
	} else if ((co = co_fetch(d, &e->data[7]))) {	/* a driver without CODE_LOADED */
		elf_loaded(ev, co, false);
		ready = &ev[1];
		*ready = ev[0];
	}
	ready->kind = VXDBG_EVENT_KERNEL_READY;
	memset(&ready->u, 0, sizeof(ready->u));
	ready->u.kernel_ready.grid_dim = (struct vxdbg_dim3){ e->data[0], e->data[1], e->data[2] };
	ready->u.kernel_ready.block_dim = (struct vxdbg_dim3){ e->data[3], e->data[4], e->data[5] };
	ready->u.kernel_ready.function_entry = e->data[6];
	ready->u.kernel_ready.module = e->data[7];
	return ready - ev + 1;
}

static void halted(struct vxdbg *d, const struct drm_vortex_debug_event *e,
		   struct vxdbg_event *ev)
{
	ev->kind = VXDBG_EVENT_HALTED;
	ev->u.halted.cause = e->data[0];
	ev->u.halted.count = e->data[1];
	ev->u.halted.sm = e->data[2] / d->topo.warps;
	ev->u.halted.wp = e->data[2] % d->topo.warps;
	ev->u.halted.pc = e->data[3];
	/* A resume-until-PC is over once something halted. */
	vxdbg_drop_temp_bp(d);
}

static void exception(struct vxdbg *d, const struct drm_vortex_debug_event *e,
		      struct vxdbg_event *ev)
{
	ev->kind = VXDBG_EVENT_EXCEPTION;
	ev->u.exception.cause = e->data[0];
	ev->u.exception.exception = vxdbg_exception_from_cause(e->data[0]);
	ev->u.exception.sm = e->data[1] / d->topo.warps;
	ev->u.exception.wp = e->data[1] % d->topo.warps;
	ev->u.exception.ln = e->data[2];
	memcpy(ev->u.exception.lanes.w, &e->data[5], sizeof(ev->u.exception.lanes.w));
	if (!(e->data[5] | e->data[6] | e->data[7] | e->data[8]))	/* a driver without them */
		ev->u.exception.lanes.w[e->data[2] / 32] = 1u << e->data[2] % 32;
	ev->u.exception.pc = e->data[3];
	ev->u.exception.addr = e->data[4];
	if (e->version >= 2 && e->size >= offsetof(struct drm_vortex_debug_event, data[17])) {
		memcpy(ev->u.exception.taken.w, &e->data[9], sizeof(ev->u.exception.taken.w));
		memcpy(ev->u.exception.not_taken.w, &e->data[13],
		       sizeof(ev->u.exception.not_taken.w));
	}
	d->exception = true;
	d->exc = *ev;
}

/* Fills @ev[0] (and @ev[1]) from the driver's event; 0 for a type to skip. */
static int translate(struct vxdbg *d, const struct drm_vortex_debug_event *e,
		     struct vxdbg_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->seqno = e->seqno;
	ev->grid_id = e->job;
	switch (e->type) {
	case DRM_VORTEX_DEBUG_EVENT_LAUNCHED:
		return launched(d, e, ev);
	case DRM_VORTEX_DEBUG_EVENT_FINISHED:
		ev->kind = VXDBG_EVENT_KERNEL_FINISHED;
		ev->u.kernel_finished.status = (int32_t)e->data[0];
		d->exception = false;
		d->grid_id = 0;
		return 1;
	case DRM_VORTEX_DEBUG_EVENT_HALTED:
		halted(d, e, ev);
		return 1;
	case DRM_VORTEX_DEBUG_EVENT_EXCEPTION:
		exception(d, e, ev);
		return 1;
	case DRM_VORTEX_DEBUG_EVENT_TIMEOUT:
		ev->kind = VXDBG_EVENT_KERNEL_TIMEOUT;
		ev->u.kernel_timeout.ran_ms = e->data[0];
		return 1;
	case DRM_VORTEX_DEBUG_EVENT_CODE_LOADED: {
		struct code_object *co = co_find(d, e->data[0]);

		if (co || !(co = co_fetch(d, e->data)))
			return 0;	/* known, or gone before it was read */
		elf_loaded(ev, co, e->data[5]);
		return 1;
	}
	case DRM_VORTEX_DEBUG_EVENT_CODE_UNLOADED:
		if (!co_remove(d, e->data[0]))
			return 0;
		ev->kind = VXDBG_EVENT_ELF_IMAGE_UNLOADED;
		ev->u.elf_image_unloaded.handle = e->data[0];
		return 1;
	case DRM_VORTEX_DEBUG_EVENT_OVERFLOW:
		ev->kind = VXDBG_EVENT_INTERNAL_ERROR;
		ev->u.internal_error.error_type = VXDBG_ERROR_OS_RESOURCES;
		ev->u.internal_error.dropped = e->data[0];
		return 1;
	default:
		return 0;
	}
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

vxdbg_result vxdbg_get_next_event(struct vxdbg *d, struct vxdbg_event *ev, int timeout_ms)
{
	struct drm_vortex_debug_event e;
	int64_t end = now_ms() + timeout_ms;
	int ret, n, left = timeout_ms;
	struct vxdbg_event two[2];

	if (!d)
		return VXDBG_ERROR_UNINITIALIZED;
	if (!ev)
		return VXDBG_ERROR_INVALID_ARGS;
	if (d->npending) {
		*ev = d->pending[0];
		memmove(&d->pending[0], &d->pending[1], --d->npending * sizeof(*ev));
		return VXDBG_SUCCESS;
	}
	for (;;) {
		ret = d->be->ops->event(d->be, &e, left);
		if (ret)
			return vxdbg_result_from_errno(ret == -EAGAIN ? -ETIME : ret);
		n = translate(d, &e, two);
		if (n) {
			*ev = two[0];
			if (n > 1)
				push_pending(d, &two[1]);
			return VXDBG_SUCCESS;
		}
		if (timeout_ms > 0) {
			left = end - now_ms();
			if (left < 0)
				left = 0;
		}
	}
}

/*
 * Before the card runs again: HALTED events still queued describe halts
 * the resume ends (many are the debugger's own, from steps and suspends),
 * so they go; any other event waits for vxdbg_get_next_event().
 */
void vxdbg_drop_stale_halts(struct vxdbg *d)
{
	struct drm_vortex_debug_event e;
	struct vxdbg_event ev[2];
	int n;

	while (!d->be->ops->event(d->be, &e, 0)) {
		if (e.type == DRM_VORTEX_DEBUG_EVENT_HALTED)
			continue;
		n = translate(d, &e, ev);
		for (int i = 0; i < n; i++)
			push_pending(d, &ev[i]);
	}
}

vxdbg_result vxdbg_acknowledge_events(struct vxdbg *d)
{
	return d ? VXDBG_SUCCESS : VXDBG_ERROR_UNINITIALIZED;
}
