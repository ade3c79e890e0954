// SPDX-License-Identifier: MIT
/*
 * The simulator backend's card half: the simulator core in-process, VRAM
 * as a byte array, and what libvortex and the driver do around it on a
 * real card (docs/hardware.md, "What the driver does"): load kernels and
 * register their code objects, queue jobs as LAUNCH + FENCE on a ring,
 * run one job at a time, and after every burst of simulation look at
 * IRQ_STATUS as the driver's interrupt handler would: FENCE ends the job,
 * ERROR either freezes the card for an attached debugger or ends the job
 * with -EIO and resets, DEBUG queues a HALTED event.
 *
 * The Debug Module is driven by the driver's own sequences
 * (dbgcore/vortex_dmseq.c, compiled into this library too) over the simulator's
 * MMIO, so the DM access count a host test measures here is the one the
 * driver's debugfs reports.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vx_elf.h"
#include "vxdbg_sim_internal.h"

#define SIM_STACK_SIZE		1024u	/* bytes per hardware thread */
#define SIM_RUN_CHUNK		4096u	/* slots between two IRQ checks */

static uint32_t mmio_rd(struct vxdbg_sim *s, uint32_t off)
{
	return vx_sim_mmio_read(s->sim, off);
}

static void mmio_wr(struct vxdbg_sim *s, uint32_t off, uint32_t v)
{
	vx_sim_mmio_write(s->sim, off, v);
}

bool sim_in_vram(const struct vxdbg_sim *s, uint64_t addr, uint64_t len)
{
	return addr >= s->topo.vram_devaddr && len <= s->topo.vram_size &&
	       addr - s->topo.vram_devaddr <= s->topo.vram_size - len;
}

void *vxdbg_sim_ptr(struct vxdbg_sim *s, uint64_t addr)
{
	return sim_in_vram(s, addr, 1) ? s->vram + (addr - s->topo.vram_devaddr) : NULL;
}

/* ------------------------------------------------------ Debug Module */

static uint32_t sim_dm_read(void *priv, uint32_t reg)
{
	struct vxdbg_sim *s = priv;

	s->dm_accesses++;
	return mmio_rd(s, VX_DM_REG(reg));
}

static void sim_dm_write(void *priv, uint32_t reg, uint32_t val)
{
	struct vxdbg_sim *s = priv;

	s->dm_accesses++;
	mmio_wr(s, VX_DM_REG(reg), val);
}

/* The simulated DM finishes requests inside the write: one poll, no delay. */
static const struct vortex_dmseq_ops sim_dm_ops = {
	.read = sim_dm_read,
	.write = sim_dm_write,
};

/* ------------------------------------------------------------- card */

static void sim_ring_program(struct vxdbg_sim *s)
{
	mmio_wr(s, VX_REG_RING_BASE, s->ring);
	mmio_wr(s, VX_REG_RING_SIZE, SIM_RING_SIZE);
	mmio_wr(s, VX_REG_RING_CTRL, VX_RING_CTRL_ENABLE);
	mmio_wr(s, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
	s->tail = 0;
}

/*
 * RESET keeps VRAM and the DM: only the ring needs programming again.  No
 * warp stays halted, which the DM sequences hear (vortex_device_reset()).
 */
void sim_card_reset(struct vxdbg_sim *s)
{
	mmio_wr(s, VX_REG_RESET, VX_RESET_KEY);
	vortex_dmseq_card_reset(&s->dm);
	sim_ring_program(s);
}

int vxdbg_sim_alloc(struct vxdbg_sim *s, uint64_t bytes, uint64_t *addr)
{
	uint64_t off = s->brk;

	if (!bytes || bytes > s->topo.vram_size - off)
		return -ENOMEM;
	s->brk = (off + bytes + 4095) & ~4095ull;
	if (s->brk > s->topo.vram_size)
		s->brk = s->topo.vram_size;
	memset(s->vram + off, 0, bytes);
	*addr = s->topo.vram_devaddr + off;
	return 0;
}

int vxdbg_sim_new(struct vxdbg_topology *topo, struct vxdbg_sim **out)
{
	struct vx_sim_config cfg = {
		.clusters = topo->clusters, .cores = topo->cores,
		.warps = topo->warps, .threads = topo->threads,
		.vram_size = topo->vram_size,
	};
	uint64_t hw = (uint64_t)vxdbg_topology_warps(topo) * topo->threads;
	struct vxdbg_sim *s;
	char err[128];

	/* VX_SIM_EXEC picks the executor, as for the simulator's host tests */
	if (vx_sim_exec_parse(getenv("VX_SIM_EXEC"), &cfg.exec, err, sizeof(err)) ||
	    vx_sim_config_check(&cfg, err, sizeof(err)))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	topo->vram_devaddr = VX_VRAM_DEVADDR;
	s->topo = *topo;
	s->dm = (struct vortex_dmseq){
		.ops = &sim_dm_ops, .priv = s, .polls = 1,
		.clusters = topo->clusters, .cores = topo->cores,
		.warps = topo->warps, .threads = topo->threads,
	};
	s->vram = calloc(1, topo->vram_size);
	s->dm.wmask = calloc(vortex_dmseq_windows(&s->dm), sizeof(uint32_t));
	s->dm.raw_wmask = calloc(vortex_dmseq_windows(&s->dm), sizeof(uint32_t));
	if (s->vram && s->dm.wmask && s->dm.raw_wmask) {
		vortex_dmseq_init(&s->dm);
		s->sim = vx_sim_new(&cfg, s->vram, NULL, NULL);
	}
	if (!s->sim || vxdbg_sim_alloc(s, SIM_RING_SIZE, &s->ring) ||
	    vxdbg_sim_alloc(s, hw * SIM_STACK_SIZE, &s->stack)) {
		vxdbg_sim_free(s);
		return -ENOMEM;
	}
	sim_ring_program(s);
	*out = s;
	return 0;
}

void vxdbg_sim_free(struct vxdbg_sim *s)
{
	if (!s)
		return;
	if (s->dbg)
		s->dbg->be.ops->close(&s->dbg->be);
	if (s->sim)
		vx_sim_free(s->sim);
	free(s->dm.wmask);
	free(s->dm.raw_wmask);
	free(s->vram);
	free(s);
}

/* ------------------------------------------------------ code objects */

int vxdbg_sim_load(struct vxdbg_sim *s, const void *elf, size_t len,
		   uint64_t *base, uint64_t *entry)
{
	struct sim_code_object *co;
	struct vx_elf_layout l;
	uint64_t img, copy;
	int ret;

	ret = vx_elf_parse(elf, len, &l);
	if (ret)
		return ret;
	if (vxdbg_sim_alloc(s, l.size, &img) || vxdbg_sim_alloc(s, len, &copy))
		return -ENOMEM;
	ret = vx_elf_build(elf, len, &l, img, vxdbg_sim_ptr(s, img));
	if (ret)
		return ret;
	memcpy(vxdbg_sim_ptr(s, copy), elf, len);
	if (s->nco < SIM_CODE_OBJECTS) {
		co = &s->co[s->nco++];
		*co = (struct sim_code_object){ ++s->next_co_id, copy, len, img, l.size };
		sim_code_event(s, co, DRM_VORTEX_DEBUG_EVENT_CODE_LOADED, false);
	}
	*base = img - l.vaddr_lo;
	*entry = img + l.entry;
	return 0;
}

/* The newest object whose range holds @pc, as vortex_code_object_find(). */
static const struct sim_code_object *sim_code_object_find(struct vxdbg_sim *s,
							  uint32_t pc)
{
	for (uint32_t i = s->nco; i--;)
		if (pc - s->co[i].load_addr < s->co[i].load_size)
			return &s->co[i];
	return NULL;
}

int vxdbg_sim_unload(struct vxdbg_sim *s, uint64_t addr)
{
	const struct sim_code_object *co = sim_code_object_find(s, addr);
	uint32_t i;

	if (!co)
		return -ENOENT;
	sim_code_event(s, co, DRM_VORTEX_DEBUG_EVENT_CODE_UNLOADED, false);
	i = co - s->co;
	memmove(&s->co[i], &s->co[i + 1], (s->nco - i - 1) * sizeof(s->co[0]));
	s->nco--;
	return 0;
}

/*
 * vortex_debug_code_object(): the session hears of each object; one
 * session at a time, told of every object there (at its attach, or as
 * it came), so each unload was a load it heard of.
 */
void sim_code_event(struct vxdbg_sim *s, const struct sim_code_object *co,
		    uint16_t type, bool replayed)
{
	uint32_t data[6] = { co->id, co->elf_addr, co->elf_size, co->load_addr,
			     co->load_size, replayed };

	if (s->dbg)
		sim_post(s->dbg, type, 0, data,
			 type == DRM_VORTEX_DEBUG_EVENT_CODE_LOADED ? 6 : 1);
}


/* ------------------------------------------------------------- jobs */

uint64_t sim_active_seqno(const struct vxdbg_sim *s)
{
	return s->active ? s->active->seqno : 0;
}

static struct sim_job *sim_job_find(struct vxdbg_sim *s, uint64_t seqno)
{
	for (int i = 0; i < SIM_JOBS; i++)
		if (s->jobs[i].seqno == seqno)
			return &s->jobs[i];
	return NULL;
}

int vxdbg_sim_launch(struct vxdbg_sim *s, const struct vxdbg_sim_launch *l,
		     uint64_t *seqno)
{
	struct sim_job *j = NULL;
	uint32_t *p;
	int i;

	/* A free slot, else the one of the oldest ended job. */
	for (i = 0; i < SIM_JOBS && !j; i++)
		if (!s->jobs[i].seqno)
			j = &s->jobs[i];
	for (i = 0; i < SIM_JOBS && !j; i++)
		if (s->jobs[i].ended)
			j = &s->jobs[i];
	for (; i < SIM_JOBS && j; i++)
		if (s->jobs[i].ended && s->jobs[i].seqno < j->seqno)
			j = &s->jobs[i];
	if (!j)
		return -EBUSY;
	memset(j, 0, sizeof(*j));
	j->seqno = ++s->next_seqno;
	p = j->launch;
	p[VX_LAUNCH_ENTRY] = l->entry;
	p[VX_LAUNCH_ARG] = l->arg;
	p[VX_LAUNCH_FLAGS] = l->flags;
	p[VX_LAUNCH_SATP] = l->satp;
	/* Vortex's model has no grid, no block, and the kernel's own stacks. */
	if (!(l->flags & VX_LAUNCH_FLAG_CORES)) {
		for (i = 0; i < 3; i++) {
			p[VX_LAUNCH_GRID_X + i] = l->grid[i] ?: 1;
			p[VX_LAUNCH_BLOCK_X + i] = l->block[i] ?: 1;
		}
		p[VX_LAUNCH_STACK_BASE] = s->stack;
		p[VX_LAUNCH_STACK_SIZE] = SIM_STACK_SIZE;
	}
	*seqno = j->seqno;
	return 0;
}

static void ring_put(struct vxdbg_sim *s, uint32_t dw)
{
	memcpy(vxdbg_sim_ptr(s, s->ring + s->tail), &dw, 4);
	s->tail = (s->tail + 4) % SIM_RING_SIZE;
}

/* What vortex_debug_job_start() does for the target's job. */
static void sim_debug_job_start(struct vxdbg_sim *s, struct sim_job *j)
{
	struct sim_session *d = s->dbg;
	const struct sim_code_object *co;
	uint32_t data[12];

	if (!d)
		return;
	vortex_dmseq_launch(&d->seq);
	memcpy(data, &j->launch[VX_LAUNCH_GRID_X], 6 * sizeof(uint32_t));
	data[6] = j->launch[VX_LAUNCH_ENTRY];
	co = sim_code_object_find(s, data[6]);
	memset(&data[7], 0, 5 * sizeof(uint32_t));
	if (co)
		memcpy(&data[7], co, 5 * sizeof(uint32_t));
	sim_post(d, DRM_VORTEX_DEBUG_EVENT_LAUNCHED, j->seqno, data, 12);
}

/* Puts the oldest queued job on the card if it is free. */
static void sim_job_next(struct vxdbg_sim *s)
{
	struct sim_job *j = NULL;

	if (s->active)
		return;
	for (int i = 0; i < SIM_JOBS; i++) {
		struct sim_job *c = &s->jobs[i];

		if (c->seqno && !c->started && (!j || c->seqno < j->seqno))
			j = c;
	}
	if (!j)
		return;
	j->started = true;
	s->active = j;
	sim_debug_job_start(s, j);
	ring_put(s, VX_PKT_HDR(VX_PKT_LAUNCH, VX_LAUNCH_NDW));
	for (int i = 0; i < VX_LAUNCH_NDW; i++)
		ring_put(s, j->launch[i]);
	ring_put(s, VX_PKT_HDR(VX_PKT_FENCE, VX_FENCE_NDW));
	ring_put(s, ++s->fence);
	ring_put(s, VX_FENCE_FLAG_IRQ);
	mmio_wr(s, VX_REG_RING_TAIL, s->tail);
	mmio_wr(s, VX_REG_DOORBELL, 1);
}

void sim_job_end(struct vxdbg_sim *s, int status)
{
	struct sim_job *j = s->active;
	uint32_t st = status;

	if (!j)
		return;
	j->ended = true;
	j->status = status;
	s->active = NULL;
	if (s->dbg) {
		s->dbg->frozen = false;
		sim_post(s->dbg, DRM_VORTEX_DEBUG_EVENT_FINISHED, j->seqno, &st, 1);
	}
}

/*
 * vortex_job_ndmreset(): the job on the card (if any) ends with -ECANCELED
 * and the card is reset, as recovery does it (at once here).
 */
void sim_ndmreset(struct vxdbg_sim *s)
{
	if (s->active)
		sim_job_end(s, -ECANCELED);
	sim_card_reset(s);
}

/* ------------------------------------------------------------ events */

/* vortex_debug_post() */
void sim_post(struct sim_session *d, uint16_t type, uint64_t job,
	      const uint32_t *data, unsigned int n)
{
	vortex_dmseq_event_post(&d->evq, type, job, data, n);
}

/* An exception: frozen for the debugger, or the job fails and the card resets. */
static void sim_irq_error(struct vxdbg_sim *s)
{
	uint32_t data[17] = { 0 }, info[4];

	if (!s->active || !s->dbg) {
		sim_job_end(s, -EIO);
		sim_card_reset(s);
		return;
	}
	s->dbg->frozen = true;
	data[0] = mmio_rd(s, VX_REG_ERR_CAUSE);
	data[1] = mmio_rd(s, VX_REG_ERR_WARP);
	data[2] = mmio_rd(s, VX_REG_ERR_THREAD);
	data[3] = mmio_rd(s, VX_REG_ERR_PC);
	data[4] = mmio_rd(s, VX_REG_ERR_ADDR);
	for (int i = 0; i < 4; i++) {
		data[5 + i] = mmio_rd(s, VX_REG_ERR_TMASK(i));
		info[i] = mmio_rd(s, VX_REG_ERR_INFO(i));
	}
	vortex_dmseq_exception_sides(data, info);
	/* Halted warps can be inspected by injection. */
	vortex_dmseq_halt_running(&s->dm, NULL);
	sim_post(s->dbg, DRM_VORTEX_DEBUG_EVENT_EXCEPTION, s->active->seqno, data, 17);
}

static void sim_irq_debug(struct vxdbg_sim *s)
{
	uint32_t data[4];

	if (s->dbg && vortex_dmseq_halted_news(&s->dbg->seq, data))
		sim_post(s->dbg, DRM_VORTEX_DEBUG_EVENT_HALTED, sim_active_seqno(s), data, 4);
}

/* The interrupt handler's part. */
static void sim_service(struct vxdbg_sim *s)
{
	uint32_t irq = mmio_rd(s, VX_REG_IRQ_STATUS);

	if (!irq)
		return;
	mmio_wr(s, VX_REG_IRQ_STATUS, irq);
	if (irq & VX_IRQ_ERROR)
		sim_irq_error(s);
	if (irq & VX_IRQ_DEBUG && s->dbg)
		sim_irq_debug(s);
	if (irq & VX_IRQ_FENCE && s->active && mmio_rd(s, VX_REG_FENCE_SEQNO) == s->fence)
		sim_job_end(s, 0);
}

/* Runs until @budget, an event is queued (if @stop_on_event), or idle. */
static uint64_t sim_run(struct vxdbg_sim *s, uint64_t budget, bool stop_on_event)
{
	uint64_t used = 0, n;

	while (used < budget) {
		sim_job_next(s);
		sim_service(s);		/* a reset-halted start raises DEBUG at once */
		if (stop_on_event && s->dbg && s->dbg->evq.count)
			break;
		n = vx_sim_run(s->sim, budget - used < SIM_RUN_CHUNK ?
				       budget - used : SIM_RUN_CHUNK);
		used += n;
		sim_service(s);
		if (stop_on_event && s->dbg && s->dbg->evq.count)
			break;
		if (!n && !vx_sim_runnable(s->sim)) {
			sim_job_next(s);
			if (!vx_sim_runnable(s->sim))
				break;
		}
	}
	return used;
}

uint64_t vxdbg_sim_run(struct vxdbg_sim *s, uint64_t budget)
{
	return sim_run(s, budget, false);
}

int vxdbg_sim_wait(struct vxdbg_sim *s, uint64_t seqno, uint64_t budget, int *status)
{
	struct sim_job *j = sim_job_find(s, seqno);
	uint64_t used = 0, n;

	if (!j)
		return -ENOENT;
	while (!j->ended && used < budget) {
		n = sim_run(s, budget - used < 65536 ? budget - used : 65536, false);
		if (!n && !j->ended && !vx_sim_runnable(s->sim))
			break;
		used += n;
	}
	if (!j->ended)
		return -ETIME;
	*status = j->status;
	return 0;
}

/* A debugger's wait: the card runs while nothing is queued. */
int sim_wait_event(struct vxdbg_sim *s, int timeout_ms)
{
	uint64_t budget = timeout_ms < 0 ? UINT64_MAX :
			  (uint64_t)timeout_ms * VXDBG_SIM_SLOTS_PER_MS;

	sim_service(s);		/* what the card raised since the last run */
	if (!s->dbg->evq.count && timeout_ms)
		sim_run(s, budget, true);
	return s->dbg->evq.count ? 0 : -ETIME;
}

/* ------------------------------------------------------------ attach */

int vxdbg_sim_attach(struct vxdbg_sim *s, struct vxdbg_backend **out)
{
	struct sim_session *d;
	int ret;

	if (s->dbg)
		return -EBUSY;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->be.ops = &sim_session_ops;
	d->be.topo = s->topo;
	d->s = s;
	d->seq = (struct vortex_dmseq_session){
		.dm = &s->dm, .ops = &sim_session_seq_ops, .priv = d, .bps = &d->bps,
	};
	d->bps.ops = &sim_session_bp_ops;
	d->bps.priv = s;
	/* vortex_debug_publish(): the DM on, the shadows from its reset values */
	ret = vortex_dmseq_activate(&s->dm);
	if (ret) {
		free(d);
		return ret;
	}
	/* An ebreak halts the warp instead of failing the job. */
	vortex_dmseq_set_dconfig(&s->dm, VX_DCONFIG_EBREAKH);
	s->dbg = d;
	/* vortex_debug_replay_code_objects() */
	for (uint32_t i = 0; i < s->nco; i++)
		sim_code_event(s, &s->co[i], DRM_VORTEX_DEBUG_EVENT_CODE_LOADED, true);
	*out = &d->be;
	return 0;
}

/* vortex_debug_detach(): breakpoints back, the DM off (warps resume). */
void sim_session_detach(struct sim_session *d)
{
	struct vxdbg_sim *s = d->s;

	if (d->frozen) {
		sim_job_end(s, -EIO);
		sim_card_reset(s);
	}
	vortex_dmseq_bp_clear_all(&d->bps, true);
	s->dbg = NULL;
	vortex_dmseq_deactivate(&s->dm);
	free(d);
}
