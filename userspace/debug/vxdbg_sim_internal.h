/* SPDX-License-Identifier: MIT */
/*
 * Inside the simulator backend: the card, the runtime's state, and the
 * session the "driver" half keeps.  vxdbg_sim.c owns the card and jobs,
 * vxdbg_sim_session.c the session operations; every Debug Module access,
 * session check and breakpoint goes through the driver's own debugger
 * core (dbgcore/).
 */
#ifndef VXDBG_SIM_INTERNAL_H
#define VXDBG_SIM_INTERNAL_H

#include <stdbool.h>

#include "vx_sim.h"
#include "vortex_dmseq.h"
#include "vortex_regs.h"
#include "vxdbg_sim.h"

#define SIM_JOBS		64	/* queued or remembered */
#define SIM_RING_SIZE		4096
#define SIM_CODE_OBJECTS	256

struct sim_job {
	uint64_t seqno;		/* 0: slot free */
	uint32_t launch[VX_LAUNCH_NDW];
	bool started, ended;
	int status;
};

struct sim_code_object {
	uint32_t id, elf_addr, elf_size, load_addr, load_size;
};

/* The session: what struct vortex_debug is to the driver. */
struct sim_session {
	struct vxdbg_backend be;
	struct vxdbg_sim *s;
	struct vortex_dmseq_session seq;	/* the driver's sequences' hooks */
	bool frozen;		/* the card stopped on the job's exception */
	struct vortex_dmseq_bps bps;		/* the driver's breakpoint table */
	struct vortex_dmseq_events evq;		/* the driver's queue */
};

struct vxdbg_sim {
	struct vx_sim *sim;
	uint8_t *vram;
	struct vxdbg_topology topo;
	uint64_t brk;			/* next free VRAM offset */
	uint64_t ring;			/* device address */
	uint32_t tail;
	uint64_t stack;			/* device address of the stack area */
	uint32_t fence;			/* last FENCE seqno written */
	struct sim_job jobs[SIM_JOBS];
	uint64_t next_seqno;
	struct sim_job *active;		/* on the card */
	struct sim_code_object co[SIM_CODE_OBJECTS];
	uint32_t nco, next_co_id;
	struct sim_session *dbg;	/* attached session, or NULL */
	/* The Debug Module, driven by the driver's sequences (dbgcore/vortex_dmseq.c) */
	struct vortex_dmseq dm;
	uint64_t dm_accesses;		/* counted as the driver's debugfs does */
};

/* The card and its jobs (vxdbg_sim.c). */
bool sim_in_vram(const struct vxdbg_sim *s, uint64_t addr, uint64_t len);
void sim_card_reset(struct vxdbg_sim *s);
void sim_ndmreset(struct vxdbg_sim *s);
void sim_job_end(struct vxdbg_sim *s, int status);
void sim_post(struct sim_session *d, uint16_t type, uint64_t job,
	      const uint32_t *data, unsigned int n);
void sim_code_event(struct vxdbg_sim *s, const struct sim_code_object *co,
		    uint16_t type, bool replayed);
uint64_t sim_active_seqno(const struct vxdbg_sim *s);
int sim_wait_event(struct vxdbg_sim *s, int timeout_ms);

/* The session (vxdbg_sim_session.c). */
extern const struct vxdbg_backend_ops sim_session_ops;
extern const struct vortex_dmseq_session_ops sim_session_seq_ops;
extern const struct vortex_dmseq_bp_ops sim_session_bp_ops;
void sim_session_detach(struct sim_session *d);

#endif /* VXDBG_SIM_INTERNAL_H */
