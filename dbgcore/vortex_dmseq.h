/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Copyright 2026 The Vortex driver authors */
/*
 * The debugger's OS-neutral core, written once (vortex_dmseq.c:
 * registers; vortex_dmseq_warp.c: one halted warp; vortex_dmseq_session.c:
 * a debugger session's batches; vortex_dmseq_check.c: a session call's
 * arguments; vortex_dmseq_bp.c: breakpoints): compiled into the driver
 * (Kbuild) and into libvortex-debug's simulator backend
 * (userspace/debug/debug.mk).  Plain C: the host gives register access
 * through struct vortex_dmseq_ops, memory through struct
 * vortex_dmseq_bp_ops, and keeps its own locks.
 */
#ifndef VORTEX_DMSEQ_H
#define VORTEX_DMSEQ_H

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/types.h>
#else
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#endif

#include "vortex_accel.h"
#include "vortex_regs.h"
#include "vortex_rv32.h"

/* ebreak: what a software breakpoint writes over an instruction */
#define VORTEX_EBREAK		RV32_EBREAK

/* Registers of a whole warp, per lane: x0-x31, f0-f31, fcsr */
#define VORTEX_WARP_REGS	65

/* Events a session queues before it drops (and counts) the newest. */
#define VORTEX_DEBUG_EVENTS	256

/* GPR reads of one warp that share one pass over its lanes (DSCRATCH0-3) */
#define VORTEX_WARP_GROUP	4

/* Longest entry stride of a session batch (uapi, "Session ioctl sizes") */
#define VORTEX_DMSEQ_MAX_STRIDE	4096

/**
 * struct vortex_dmseq_ops - how the host reaches the Debug Module
 *
 * Called with the host's DM lock held (the host asserts it).
 */
struct vortex_dmseq_ops {
	/** @read: DM register @reg (VX_DM_*), one access */
	u32 (*read)(void *priv, u32 reg);
	/** @write: DM register @reg, one access */
	void (*write)(void *priv, u32 reg, u32 val);
	/** @delay: between two polls of a request; NULL: none */
	void (*delay)(void *priv);
};

/**
 * struct vortex_dmseq - one card's Debug Module, as the host drives it
 *
 * The topology and the accessors are the host's (set before
 * vortex_dmseq_init()); the rest are shadows of what was last written, so
 * sequences skip writes that would change nothing.
 */
struct vortex_dmseq {
	/** @ops: register access */
	const struct vortex_dmseq_ops *ops;
	/** @priv: the host's, passed to @ops */
	void *priv;
	/** @polls: DCTRL reads a request waits for before it failed (-EIO) */
	unsigned int polls;
	/** @clusters: clusters on the card */
	u32 clusters;
	/** @cores: cores per cluster */
	u32 cores;
	/** @warps: warps per core */
	u32 warps;
	/** @threads: lanes per warp */
	u32 threads;
	/** @wmask: last WMASK written, one word per window (the host's memory) */
	u32 *wmask;
	/** @raw_wmask: the mask array as the raw client's batches left it */
	u32 *raw_wmask;
	/** @active: DCTRL.dmactive is set */
	bool active;
	/** @wmask_known: @wmask is what the card holds */
	bool wmask_known;
	/** @dselect: last DSELECT written */
	u32 dselect;
	/** @dconfig: last DCONFIG written */
	u32 dconfig;
	/** @raw_dselect: DSELECT as the last raw batch left it */
	u32 raw_dselect;
	/**
	 * @stepped: the warps halted as the last STEP left them, which no
	 * HALTED event reports again (vortex_dmseq_halted_news()).  This
	 * layer clears it itself: on any DCTRL request but an injection
	 * (halt, resume, reset-halt, a new step), a raw client's batch, the
	 * DM's activation or reset, and the card's reset
	 * (vortex_dmseq_card_reset()).  @stepped_halted and @stepped_first
	 * are how many warps and the lowest.
	 */
	bool stepped;
	/** @stepped_halted: see @stepped */
	u32 stepped_halted;
	/** @stepped_first: see @stepped */
	u32 stepped_first;
};

/**
 * struct vortex_dmseq_warp - a borrowed warp: its lanes' DSCRATCHes, kept
 */
struct vortex_dmseq_warp {
	/** @dm: the Debug Module */
	struct vortex_dmseq *dm;
	/** @warp: warp whose DSCRATCHes are saved in @saved, or ~0u */
	u32 warp;
	/** @scratch_lost: the card is reset next, DSCRATCH need not survive */
	bool scratch_lost;
	/** @saved: DSCRATCH0-3 of each lane of @warp */
	u32 saved[VX_DM_MAX_THREADS][4];
	/** @rows: room for the values of one vortex_dmseq_warp_read_group() */
	u32 rows[VORTEX_WARP_GROUP][VX_DM_MAX_THREADS];
};

/**
 * struct vortex_dmseq_bp_ops - how the host reaches the target's memory
 *
 * Called with the host's DM lock held.  @where is the host's: the driver's
 * VRAM offset, the simulator backend's device address.
 */
struct vortex_dmseq_bp_ops {
	/**
	 * @resolve: where the word at @addr of the target lies, and in @ref
	 * a hold on that memory (or NULL) kept while a breakpoint is in it;
	 * -ENXIO if the target maps nothing at @addr
	 */
	int (*resolve)(void *priv, u64 addr, u64 *where, void **ref);
	/** @release: drops a hold @resolve gave */
	void (*release)(void *priv, void *ref);
	/** @read_word: the word at @where */
	u32 (*read_word)(void *priv, u64 where);
	/**
	 * @write_word: an instruction word at @where, which the card may
	 * fetch as soon as the call returns
	 */
	void (*write_word)(void *priv, u64 where, u32 word);
};

/**
 * struct vortex_dmseq_bp - a software breakpoint
 */
struct vortex_dmseq_bp {
	/** @addr: the instruction's address, in the target's space */
	u64 addr;
	/** @where: where @addr lay when it was set (&vortex_dmseq_bp_ops) */
	u64 where;
	/**
	 * @ref: the host's hold on the memory at @where (the driver: its
	 * buffer, so the memory is nobody else's until the word is back)
	 */
	void *ref;
	/** @orig: the word ebreak replaced */
	u32 orig;
};

/**
 * struct vortex_dmseq_bps - a session's breakpoints (vortex_dmseq_bp.c)
 */
struct vortex_dmseq_bps {
	/** @ops: the target's memory */
	const struct vortex_dmseq_bp_ops *ops;
	/** @priv: the host's, passed to @ops */
	void *priv;
	/** @count: breakpoints set, the first @count of @bp */
	u32 count;
	/** @bp: the breakpoints */
	struct vortex_dmseq_bp bp[DRM_VORTEX_DEBUG_MAX_BREAKPOINTS];
};

/**
 * struct vortex_dmseq_hidden - a breakpoint's word as a read shows it
 */
struct vortex_dmseq_hidden {
	/** @addr: the breakpoint's address */
	u64 addr;
	/** @orig: the word ebreak replaced */
	u32 orig;
};

/**
 * struct vortex_dmseq_session_ops - what a debugger session adds
 */
struct vortex_dmseq_session_ops {
	/** @card_failed: the card stopped on an error (a step faulted) */
	bool (*card_failed)(void *priv);
	/** @card_reset: resets the card, DM kept (halt at start) */
	void (*card_reset)(void *priv);
};

/*
 * What the target's launches do (vortex_dmseq_set_launch_halt()): run, or
 * halt at their first instruction, the next one or every one.
 */
#define VORTEX_DMSEQ_LAUNCH_RUN		0
#define VORTEX_DMSEQ_LAUNCH_HALT_NEXT	1
#define VORTEX_DMSEQ_LAUNCH_HALT_EVERY	2

/**
 * struct vortex_dmseq_session - a debugger session over a Debug Module
 */
struct vortex_dmseq_session {
	/** @dm: the Debug Module */
	struct vortex_dmseq *dm;
	/** @ops: the session's hooks */
	const struct vortex_dmseq_session_ops *ops;
	/** @priv: the host's, passed to @ops */
	void *priv;
	/** @bps: the session's breakpoints, stepped over */
	struct vortex_dmseq_bps *bps;
	/**
	 * @launch_halt: VORTEX_DMSEQ_LAUNCH_*, what the target's next job
	 * does at its start (0, run, in a zeroed session); the host
	 * serialises it with the job's start (the driver: the DM lock)
	 */
	u32 launch_halt;
};

/**
 * struct vortex_dmseq_events - a session's event queue
 *
 * The host serialises it (the driver: &vortex_debug.ev_lock) and wakes
 * its readers.
 */
struct vortex_dmseq_events {
	/** @ev: a ring of @count events from @head */
	struct drm_vortex_debug_event ev[VORTEX_DEBUG_EVENTS];
	/** @head: oldest queued event */
	u32 head;
	/** @count: events queued */
	u32 count;
	/** @dropped: events the newest (OVERFLOW) event counts as dropped */
	u32 dropped;
	/** @seqno: seqno of the last event queued */
	u64 seqno;
};

/* 32-warp windows that name warps on the card */
static inline u32 vortex_dmseq_windows(const struct vortex_dmseq *dm)
{
	return (dm->clusters * dm->cores * dm->warps + 31) / 32;
}

static inline u32 vortex_dmseq_total_warps(const struct vortex_dmseq *dm)
{
	return dm->clusters * dm->cores * dm->warps;
}

/* Whether lane @lane is set in a lane mask (bit l of word l / 32). */
static inline bool vortex_dmseq_lane_set(const u32 *lanes, u32 lane)
{
	return lanes[lane / 32] & VX_BIT(lane % 32);
}

/* Whether register number @reg (DRM_VORTEX_DEBUG_REG_*) is x0..x31. */
static inline bool vortex_dmseq_reg_is_gpr(u32 reg)
{
	return reg < DRM_VORTEX_DEBUG_REG_F(0);
}

/*
 * Whether byte @b of @h's word lies in [@addr, @addr + @len); *@off is
 * its offset there.  Its value is ((const u8 *)&@h->orig)[@b].
 */
static inline bool vortex_dmseq_hidden_byte(const struct vortex_dmseq_hidden *h,
					    u32 b, u64 addr, u64 len, u64 *off)
{
	u64 a = h->addr + b;

	*off = a - addr;
	return a >= addr && a < addr + len;
}

/* Registers (vortex_dmseq.c) */
void vortex_dmseq_init(struct vortex_dmseq *dm);
u32 vortex_dmseq_read(struct vortex_dmseq *dm, u32 reg);
void vortex_dmseq_write(struct vortex_dmseq *dm, u32 reg, u32 val);
int vortex_dmseq_activate(struct vortex_dmseq *dm);
void vortex_dmseq_deactivate(struct vortex_dmseq *dm);
int vortex_dmseq_request(struct vortex_dmseq *dm, u32 bits, u32 *dctrl);
void vortex_dmseq_select(struct vortex_dmseq *dm, u32 warp, u32 thread);
void vortex_dmseq_set_dconfig(struct vortex_dmseq *dm, u32 dconfig);
void vortex_dmseq_mask_all(const struct vortex_dmseq *dm, u32 *mask, bool all);
void vortex_dmseq_set_mask(struct vortex_dmseq *dm, const u32 *mask);
void vortex_dmseq_set_mask_all(struct vortex_dmseq *dm, bool all);
int vortex_dmseq_halt_running(struct vortex_dmseq *dm, const u32 *mask);
u32 vortex_dmseq_window(struct vortex_dmseq *dm, u32 reg, u32 win);
bool vortex_dmseq_warp_bit(struct vortex_dmseq *dm, u32 reg, u32 warp);
int vortex_dmseq_inject(struct vortex_dmseq *dm, u32 insn, bool warp_wide);
void vortex_dmseq_raw_begin(struct vortex_dmseq *dm);
bool vortex_dmseq_raw_write(struct vortex_dmseq *dm, u32 reg, u32 val);
void vortex_dmseq_raw_end(struct vortex_dmseq *dm);
void vortex_dmseq_card_reset(struct vortex_dmseq *dm);
void vortex_dmseq_forget_step(struct vortex_dmseq *dm);

/* One halted warp (vortex_dmseq_warp.c) */
int vortex_dmseq_warp_check(struct vortex_dmseq *dm, u32 warp, bool halted);
void vortex_dmseq_warp_init(struct vortex_dmseq_warp *ctx,
			    struct vortex_dmseq *dm);
int vortex_dmseq_warp_borrow(struct vortex_dmseq_warp *ctx, u32 warp);
void vortex_dmseq_warp_restore(struct vortex_dmseq_warp *ctx);
int vortex_dmseq_warp_read_group(struct vortex_dmseq_warp *ctx,
				 const struct drm_vortex_debug_reg_op *ops,
				 u32 n, u32 vals[][VX_DM_MAX_THREADS]);
int vortex_dmseq_warp_write(struct vortex_dmseq_warp *ctx,
			    const struct drm_vortex_debug_reg_op *op,
			    const u32 *vals);
void vortex_dmseq_warp_pc(struct vortex_dmseq_warp *ctx,
			  const struct drm_vortex_debug_reg_op *op, u32 *vals,
			  u32 nlanes);
int vortex_dmseq_warp_status(struct vortex_dmseq *dm,
			     struct drm_vortex_debug_warp_state *st);
int vortex_dmseq_warp_read_regs(struct vortex_dmseq_warp *ctx, u32 warp,
				u32 *out);
u32 vortex_dmseq_warp_store_size(u32 threads);
int vortex_dmseq_warp_store_regs(struct vortex_dmseq *dm, u32 warp, u32 area);
void vortex_dmseq_warp_unpack(const u32 *slots, u32 threads, u32 *out);

/* A session's batches (vortex_dmseq_session.c) */
int vortex_dmseq_reg_op_check(const struct vortex_dmseq *dm,
			      const struct drm_vortex_debug_reg_op *op, u32 *n);
int vortex_dmseq_regs(struct vortex_dmseq_warp *ctx,
		      const struct drm_vortex_debug_reg_op *ops, u32 n,
		      u32 vals[][VX_DM_MAX_THREADS], const u32 *nlanes,
		      u32 *ran);
int vortex_dmseq_status(struct vortex_dmseq_session *s, u32 first, u32 count,
			struct drm_vortex_debug_warp_state *sts, u32 *filled);
int vortex_dmseq_mask_check(const struct vortex_dmseq *dm, const u32 *mask,
			    u32 words);
int vortex_dmseq_step_one(struct vortex_dmseq_session *s, u32 warp);
int vortex_dmseq_step_off_breakpoints(struct vortex_dmseq_session *s,
				      const u32 *mask);
int vortex_dmseq_step(struct vortex_dmseq_session *s,
		      struct drm_vortex_debug_step *args);
int vortex_dmseq_resume(struct vortex_dmseq_session *s, const u32 *mask,
			bool *resumed);
int vortex_dmseq_halt(struct vortex_dmseq_session *s, const u32 *mask);
void vortex_dmseq_halt_at_start(struct vortex_dmseq_session *s);
void vortex_dmseq_set_launch_halt(struct vortex_dmseq_session *s, u32 flags);
bool vortex_dmseq_launch(struct vortex_dmseq_session *s);
u32 vortex_dmseq_halted(struct vortex_dmseq *dm, u32 data[4]);
u32 vortex_dmseq_halted_news(struct vortex_dmseq_session *s, u32 data[4]);
void vortex_dmseq_event_post(struct vortex_dmseq_events *q, u16 type, u64 job,
			     const u32 *data, unsigned int n);
bool vortex_dmseq_event_pop(struct vortex_dmseq_events *q,
			    struct drm_vortex_debug_event *ev);
void vortex_dmseq_event_cut(struct drm_vortex_debug_event *ev, u32 size);
void vortex_dmseq_exception_sides(u32 *data, const u32 info[4]);

/* A session call's arguments (vortex_dmseq_check.c) */
int vortex_dmseq_stride_check(u32 stride, size_t size);
int vortex_dmseq_batch_check(u32 flags, u32 count, u32 stride, u32 max,
			     size_t size);
int vortex_dmseq_mem_op_check(const struct drm_vortex_debug_mem_op *op);
int vortex_dmseq_dm_check(const struct drm_vortex_debug_dm *args);
int vortex_dmseq_dm_op_check(const struct drm_vortex_debug_dm_op *op);
int vortex_dmseq_warps_check(const struct vortex_dmseq *dm,
			     const struct drm_vortex_debug_warps *args);
int vortex_dmseq_step_check(const struct drm_vortex_debug_step *args);
int vortex_dmseq_status_check(const struct vortex_dmseq *dm,
			      struct drm_vortex_debug_status *args);

/* Breakpoints (vortex_dmseq_bp.c) */
struct vortex_dmseq_bp *vortex_dmseq_bp_find(struct vortex_dmseq_bps *t,
					     u64 addr);
int vortex_dmseq_bp_op(struct vortex_dmseq_bps *t,
		       const struct drm_vortex_debug_bp_op *op);
void vortex_dmseq_bp_clear_all(struct vortex_dmseq_bps *t, bool restore);
void vortex_dmseq_bp_hide(struct vortex_dmseq_bps *t, u64 addr, u64 len);
u32 vortex_dmseq_bp_hidden(const struct vortex_dmseq_bps *t, u64 addr, u64 len,
			   struct vortex_dmseq_hidden *out);

#endif /* VORTEX_DMSEQ_H */
