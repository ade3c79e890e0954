/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: state shared between its parts.
 *
 * The simulator is split by hardware block, one file each:
 *   vx_sim.c   lifecycle, BAR0 register file, interrupts, reset, faults
 *   vx_cp.c    command processor: ring, packets, block dispatch
 *   vx_dm.c    Debug Module
 *   vx_run.c   warp scheduler (vx_sim_run)
 *   vx_exec.c  RV32IMA + Zicsr + Zicond decode and execute across a warp's lanes:
 *              the reference interpreter, and the executors' entry points
 *   vx_exec_fast.c  the burst executors' fast path: decoded-instruction
 *              cache, bursts, vector lane loops (template vx_exec_burst.h);
 *              vx_exec.h is what it shares with vx_exec.c
 *   vx_coalesce.c  a warp's load, lanes of one address seeing one value
 *   vx_fpu.c   RV32F with rounding modes and exception flags
 *   vx_simt.c  Vortex SIMT instructions: tmc, wspawn, split, join, bar, pred
 *   vx_mmu.c   Sv32 translation: page-table walk, TLBs, invalidation
 *   vx_lmem.c  per-core local memory (upstream's LMEM at VX_LMEM_BASE_ADDR)
 *   vx_cons.c  the console: byte stores to IO_COUT into a ring in VRAM
 *   vx_park.c  parking a card whose every running warp spins without effect
 *   vx_jit_*.c the translating executor (vx_jit.h): x86-64 hosts build
 *              vx_jit_translate.c, vx_jit_dispatch.c and vx_jit_helpers.c,
 *              the others vx_jit_none.c
 * The functions below are the only calls between those files.
 */
#ifndef VX_SIM_INTERNAL_H
#define VX_SIM_INTERNAL_H

#include "vx_sim.h"
#include "vortex_regs.h"

#define VX_NUM_BARRIERS         16
#define VX_TMASK_WORDS          4       /* 128 lanes */
/*
 * IPDOM entries a warp can hold: threads - 1 as upstream (emulator.cpp,
 * ipdom_size_), so the array is sized for the widest warp.
 */
#define VX_IPDOM_DEPTH          (VX_TMASK_WORDS * 32 - 1)

/* A thread mask; lanes >= threads are always clear. */
struct vx_tmask {
    uint32_t w[VX_TMASK_WORDS];
};

/*
 * One divergent split: the mask to reconverge to, the side that runs
 * second and where it starts, and whether it has started (upstream's
 * orig_tmask, else_tmask, PC, fallthrough).  A uniform split pushes
 * nothing.
 */
struct vx_ipdom_entry {
    struct vx_tmask mask;
    struct vx_tmask other;
    uint32_t pc;
    bool fallthrough;
};

/*
 * The burst executors' memo of a warp's recent translations, a slot per
 * memory instruction (by PC) and one for the code page: everything in it
 * was filled at TLB generation vx_warp.xlat_gen for address space
 * vx_warp.xlat_satp, and a burst empties the memo first if either has
 * changed since (vx_sim.tlb_gen is bumped by every TLB fill, invalidation
 * and reset; nothing in a burst changes it but the calls out of line,
 * after which it checks again).  So the memo always says what a TLB
 * probe would, one compare away and without a dependent load, and a
 * replaced or invalidated entry is dropped from it before the next
 * instruction of any warp.
 */
#define VX_XLAT_SLOTS           8
#define VX_XLAT_VALID           VX_BIT(0)       /* in key: a slot in use */
#define VX_XLAT_STORE           VX_BIT(1)       /* in key: a store's */

struct vx_xlat {
    uint32_t key;           /* virtual page | VX_XLAT_*, 0 = none */
    uint8_t *host;          /* host address of the physical page */
};

/* The host's cache line, for the layout of what every launch touches. */
#define VX_CACHE_LINE           64

/* One warp context.  Per-lane state is register-major: x[reg * threads + lane]. */
struct vx_warp {
    uint32_t gid;           /* global warp id (DM numbering) */
    uint32_t core;          /* global core id */
    uint32_t lwid;          /* warp index within its core */

    bool active;            /* has a context (running or halted) */
    bool halted;            /* debug-halted */
    /*
     * The RTL's halted bit of a warp without a context: set by a haltreq
     * or a reset's resethaltreq, cleared by a resumereq, a reset and the
     * warp's start.  Only DCTRL's summary bits see it (vx_dm.c).
     */
    bool halted_idle;
    uint8_t hacause;        /* VX_HACAUSE_* */
    bool resethalt_armed;   /* halt before the first instruction it runs */
    bool at_barrier;        /* waiting in bar */
    uint32_t barrier_id;

    uint32_t pc;
    struct vx_tmask tmask;
    uint32_t ipdom_depth;

    uint32_t *x;            /* 32 * threads integer registers, x0 kept 0 */
    uint32_t *f;            /* 32 * threads float registers (raw bits) */
    uint32_t *dscratch;     /* 4 * threads: dscratch[n * threads + lane] */
    uint8_t fflags;         /* fcsr, one per warp as upstream's */
    uint8_t frm;

    /* Launch coordinates and address space (CP sets them; wspawn copies). */
    uint32_t satp;          /* LAUNCH's VX_LAUNCH_SATP, 0 = untranslated */
    int32_t block_slot;     /* index into vx_cp.blocks, -1 if none */
    uint32_t block_idx[3];
    uint32_t warp_in_block;

    uint64_t cycle;         /* cycles this warp has been resident */
    /* instructions retired; starts the line the memo below shares */
    uint64_t instret __attribute__((aligned(VX_CACHE_LINE)));

    /*
     * The burst executors' memo, last: ahead of cycle and instret, its
     * size moved them and cost the reference interpreter a few percent.
     * What every translated burst reads shares instret's cache line
     * (warps are cache-line aligned): a launch finds the card's lines
     * cold, and one more line missed was most of what translation added
     * to a tiny job's launch.
     */
    uint32_t xlat_gen;      /* vx_sim.tlb_gen the memo is of */
    uint32_t xlat_satp;     /* satp the memo is of */
    struct vx_xlat xlat_code;       /* the code page of the last burst */
    struct vx_xlat xlat[VX_XLAT_SLOTS];

    /* After everything hot: only split and join touch it, from the top. */
    struct vx_ipdom_entry ipdom[VX_IPDOM_DEPTH];
} __attribute__((aligned(VX_CACHE_LINE)));

struct vx_core {
    uint32_t id;
    /* barrier id -> warps arrived so far, for warps outside any block */
    uint32_t bar_count[VX_NUM_BARRIERS];
    /* global barrier id -> this core's warps arrived (vx_simt.c) */
    uint32_t gbar_warps[VX_NUM_BARRIERS];
    /*
     * A wspawn waiting for its caller to be the core's only active warp
     * (upstream's deferred wspawn_): the caller is parked meanwhile.
     */
    bool spawn_pending;
    uint32_t spawn_count, spawn_pc, spawn_caller;  /* caller: lwid */
    uint32_t mscratch;      /* one per core, as upstream's */
    /*
     * The LR/SC reservation, one per core as upstream's: the VRAM offset
     * of the word the last LR of any of its lanes read (vx_exec.c).
     */
    bool resv_valid;
    uint32_t resv_off;
    /*
     * mcycle and minstret are these plus the cycle and instret of the
     * core's warps: what they counted in contexts they no longer have.
     */
    uint64_t cycle_base;
    uint64_t instret_base;
    /* vx_lmem.c: the vx_sim.lmem_epoch its local memory was zeroed for */
    uint64_t lmem_epoch;
    bool lmem_touched;      /* its pages were written to at some point */
};

/* A block of the current launch that is resident on a core. */
struct vx_block {
    bool used;
    uint32_t core;
    uint32_t warps_left;    /* warps of this block not yet ended */
    /* barrier id -> warps of this block arrived so far */
    uint32_t bar_count[VX_NUM_BARRIERS];
};

struct vx_cp {
    bool busy;              /* executing a LAUNCH */
    uint32_t pkt_offset;    /* ring offset of the packet being run */
    /* the running LAUNCH */
    uint32_t entry, arg, stack_base, stack_size, satp;
    uint32_t grid[3], block[3];
    uint64_t blocks_total, blocks_issued, blocks_done;
    uint32_t warps_per_block, threads_per_block;
    struct vx_block *blocks;        /* one slot per warp of the device */
    /* added by vx_cp.c: */
    uint32_t tail;          /* RING_TAIL as sampled by the last DOORBELL */
    uint32_t next_core;     /* round-robin start for block placement */
    bool in_doorbell;       /* running inside a fast DOORBELL: FENCE is silent */
    bool cores_mode;        /* the LAUNCH has VX_LAUNCH_FLAG_CORES */
};

struct vx_dm {
    bool dmactive;
    uint32_t dconfig;
    uint32_t dselect;
    uint32_t inject;
    bool injecterr;
    uint32_t *wmask;        /* (nwarps + 31) / 32 words */
    uint32_t *resethalt;    /* latched by resethaltreq, same size */
    uint64_t ndmreset_until; /* sim clock at which ndmreset deasserts */
};

/* A fault being reported by the executor. */
struct vx_fault {
    uint32_t cause;         /* VX_ERR_* */
    uint32_t pc;
    uint32_t addr;          /* bad address or instruction word */
    struct vx_tmask lanes;  /* faulting lanes */
    /*
     * ASSERT: a0..a3 of the lowest lane; DIVERGENT_BRANCH: the lanes that
     * take the branch (a mask as lanes, lane l bit l % 32 of info[l / 32])
     */
    uint32_t info[VX_TMASK_WORDS];
};

/*
 * A decoded instruction (vx_exec.c).  The cache is direct-mapped by PC and
 * tagged with the PC and the instruction word, which the executor fetches
 * anyway: an entry is reused only for the same word at the same address,
 * so stores into code, DPC writes and reloads need no invalidation.
 */
#define VX_DCACHE_BITS          12

struct vx_dinsn {
    uint32_t pc;            /* tag: address ... */
    uint32_t insn;          /* ... and word (pc 0 never executes: empty) */
    uint32_t op;            /* vx_exec.c's enum dop */
    uint32_t rd, rs1, rs2;  /* register number * threads */
    uint32_t imm;           /* immediate, or a PC-relative target/value */
    uint32_t pad;
};

/*
 * A TLB entry caches one 4 KiB page of a valid user leaf (a megapage is
 * cached a 4 KiB page at a time).  Keys are VX_TLB_VALID | asid << 20 |
 * vpn; ok[] holds the key only where the page allows the access, so a
 * probe is one compare.  tag is the key plus VX_TLB_MEGA, for invalidation.
 */
#define VX_TLB_VALID            VX_BIT(31)
#define VX_TLB_MEGA             VX_BIT(30)
#define VX_TLB_ACC_READ         0       /* ok[] index: load or fetch */
#define VX_TLB_ACC_WRITE        1
#define VX_ITLB_BITS            6
#define VX_DTLB_BITS            10

struct vx_tlb_entry {
    uint32_t tag;           /* 0: empty */
    uint32_t ok[2];         /* [VX_TLB_ACC_*]: the key, or 0 if refused */
    uint32_t poff;          /* VRAM offset of the physical page */
};

/* A warp's translation context, derived from its satp. */
struct vx_asp {
    uint32_t khi;           /* VX_TLB_VALID | asid << 20 */
    uint32_t hash;          /* XORed into the vpn to pick a set */
};

/*
 * vx_park.c's state: the probe rounds' schedule, the words the spinning
 * warps read (VRAM offsets of aligned words, with what they held), and
 * whether the card is parked.
 */
#define VX_PARK_WATCH_MAX       256

struct vx_park {
    bool parked;            /* vx_sim_run() runs nothing until woken */
    bool probing;           /* a round is under way, at warp @next */
    uint32_t next;
    uint32_t probed;        /* warps of this round that spin */
    uint64_t due;           /* vx_sim.clock at which the next round starts */
    uint64_t interval;      /* slots between rounds, doubled by a failed one */
    uint64_t parks;         /* times the card parked, for tests and benches */
    uint32_t polls;         /* vx_sim_park_poll() calls in this parked spell */
    uint32_t *snap;         /* a warp's x and f while it is probed */
    uint32_t nwatch;
    uint32_t watch_off[VX_PARK_WATCH_MAX];
    uint32_t watch_val[VX_PARK_WATCH_MAX];
};

struct vx_sim {
    struct vx_sim_config cfg;
    uint32_t ncores;        /* clusters * cores */
    uint32_t nwarps;        /* ncores * warps */
    uint32_t tlog2;         /* log2(threads) */
    uint8_t *vram;
    const struct vx_sim_hooks *hooks;
    void *opaque;

    struct vx_core *cores;
    struct vx_warp *warps;  /* nwarps, index = gid */
    uint32_t gbar_count[VX_NUM_BARRIERS];   /* global barriers: cores arrived */
    uint32_t run_cursor;    /* round-robin position of the scheduler */
    /*
     * Cores holding an LR reservation.  While any does, every warp runs
     * on the reference interpreter, whose stores break reservations; the
     * burst executors' stores do not look (vx_exec.c).
     */
    uint32_t resv_live;
    enum vx_sim_exec exec;  /* the executor vx_exec_burst() runs */
    struct vx_jit *jit;     /* vx_jit_dispatch.c's blocks, made on first use */
    /*
     * vx_mmu.c: bumped by every TLB fill or invalidation.  Here, not with
     * the TLBs: every translated burst reads it, and this line is one a
     * launch touches anyway.
     */
    uint32_t tlb_gen;
    /*
     * VRAM the untranslated executors reach with one mask test
     * (vx_vram_fault_bits()): all of it, but for a 2 GiB VRAM, which
     * reaches local memory's addresses, only its lower half.
     */
    uint64_t vram_flat;

    /* BAR0 registers */
    uint32_t irq_status, irq_enable;
    bool irq_level;
    uint32_t ring_base, ring_size, ring_head, ring_tail, ring_ctrl;
    uint32_t fence_seqno;
    uint32_t fence_wb;      /* FENCE_WB: where FENCEs write their record, or 0 */
    bool error;             /* stopped on an error until reset */
    uint32_t err_cause, err_warp, err_thread, err_pc, err_addr, err_pkt;
    uint32_t err_tmask[VX_TMASK_WORDS], err_info[4];
    uint64_t clock;         /* device cycles */
    uint32_t clock_hi_latch;

    struct vx_cp cp;
    struct vx_dm dm;

    struct vx_dinsn dcache[1u << VX_DCACHE_BITS];

    /* vx_mmu.c: TLBs shared by every core, and the invalidation registers */
    struct vx_tlb_entry itlb[1u << VX_ITLB_BITS];
    struct vx_tlb_entry dtlb[1u << VX_DTLB_BITS];
    uint32_t tlb_asid, tlb_va;

    /*
     * vx_lmem.c: VX_LMEM_SIZE bytes per core, core c's at c * VX_LMEM_SIZE
     * (calloc: a core that never uses it costs no memory).  Local memory
     * reads 0 at the start of every LAUNCH: a core zeroes its own at its
     * first access after lmem_epoch moved on.
     */
    uint8_t *lmem;
    uint64_t lmem_epoch;
    bool lmem_used;         /* a memo may hold a local memory page */

    struct vx_park park;

    /* vx_cons.c: the CONS_* registers */
    uint32_t cons_base, cons_size, cons_head, cons_tail, cons_ctrl;
    uint32_t cons_dropped;
};

/* ---- vx_sim.c ---- */
void vx_sim_irq_raise(struct vx_sim *sim, uint32_t cause);      /* VX_IRQ_* */
/* Record @f for @w, freeze the card, raise VX_IRQ_ERROR. */
void vx_sim_fault(struct vx_sim *sim, struct vx_warp *w, const struct vx_fault *f);
/* CP-level error without a warp (BAD_PACKET). */
void vx_sim_cp_error(struct vx_sim *sim, uint32_t cause, uint32_t pkt_offset);
/* Reset cores, CP, ring, error, irq state (RESET register, ndmreset). */
void vx_sim_core_reset(struct vx_sim *sim);
void vx_sim_guest_error(struct vx_sim *sim, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- device addresses (inline: the executors' hottest checks) ---- */
/*
 * The one translation from device addresses to VRAM, used by the CP and
 * by every executor.  VRAM (a power of two, at most 2 GiB) starts at
 * VX_VRAM_DEVADDR = 2 GiB, so an address below it wraps to an offset of
 * 2 GiB or more: "inside VRAM" is "offset < vram_size" for any address.
 */
static inline uint32_t vx_vram_off(uint32_t addr)
{
    return addr - VX_VRAM_DEVADDR;
}

/* Whether @len bytes from device address @addr are all in VRAM. */
static inline bool vx_vram_range_ok(const struct vx_sim *sim, uint32_t addr,
                                    uint64_t len)
{
    uint32_t off = vx_vram_off(addr);

    return off < sim->cfg.vram_size && len <= sim->cfg.vram_size - off;
}

/* Host pointer for @len bytes at device address @addr, NULL outside VRAM. */
static inline uint8_t *vx_sim_mem(struct vx_sim *sim, uint32_t addr,
                                  uint32_t len)
{
    return vx_vram_range_ok(sim, addr, len) ? sim->vram + vx_vram_off(addr)
                                             : NULL;
}

/*
 * The VRAM offset bits that make an access of @size bytes (1, 2 or 4)
 * fault: misaligned, or outside VRAM of @vram_size bytes.  An aligned
 * access that starts in VRAM ends in it, so this is vx_vram_range_ok()
 * plus alignment in one AND, and the executors OR all lanes' offsets
 * together and test them once.
 */
static inline uint32_t vx_vram_fault_bits(uint64_t vram_size, uint32_t size)
{
    return ~(uint32_t)(vram_size - 1) | (size - 1);
}

/*
 * Whether a warp can fetch at @pc: a 4-byte aligned VRAM address.  Every
 * executor's fetch and the CP's check of a LAUNCH entry ask this one
 * question, so whatever else must run only at valid PCs (jump targets)
 * can ask it too.
 */
static inline bool vx_vram_pc_ok(uint64_t vram_size, uint32_t pc)
{
    return !(vx_vram_off(pc) & vx_vram_fault_bits(vram_size, 4));
}

/* ---- vx_mmu.c ---- */
/* The three kinds of access, as the card checks them. */
enum vx_acc { VX_ACC_FETCH, VX_ACC_LOAD, VX_ACC_STORE };

static inline struct vx_asp vx_mmu_asp(uint32_t satp)
{
    uint32_t asid = VX_SATP_ASID(satp);

    return (struct vx_asp){ VX_TLB_VALID | asid << 20, asid * 0x2f5u };
}

/*
 * The one entry of the ITLB or the DTLB that may cache @vpn for @asp.
 * The megapage number is folded in, so that the same page of different
 * megapages (arrays 4 MiB apart) does not share a set.
 */
static inline struct vx_tlb_entry *
vx_tlb_set(const struct vx_sim *sim, struct vx_asp asp, uint32_t vpn,
           enum vx_acc acc)
{
    uint32_t i = vpn ^ (vpn >> 10) ^ asp.hash;

    if (acc == VX_ACC_FETCH) {
        return (struct vx_tlb_entry *)
               &sim->itlb[i & ((1u << VX_ITLB_BITS) - 1)];
    }
    return (struct vx_tlb_entry *)&sim->dtlb[i & ((1u << VX_DTLB_BITS) - 1)];
}

/*
 * The TLB entry that lets @asp do @acc at virtual address @va, or NULL
 * (a miss, or a cached page that refuses the access).  Inline: the burst
 * executors probe once per memory instruction.
 */
static inline const struct vx_tlb_entry *
vx_tlb_probe(const struct vx_sim *sim, struct vx_asp asp, uint32_t va,
             enum vx_acc acc)
{
    uint32_t vpn = va >> VX_PAGE_SHIFT, key = asp.khi | vpn;
    const struct vx_tlb_entry *e = vx_tlb_set(sim, asp, vpn, acc);

    return e->ok[acc == VX_ACC_STORE] == key ? e : NULL;
}

/*
 * Translate @va for @acc in address space @satp (MODE set): 0 with
 * *@poff = the VRAM offset of its 4 KiB physical page, or the VX_ERR_*
 * cause (a page fault, or an access fault where the tables or the page
 * are outside VRAM).  Walks the tables and fills the TLB on a miss.
 */
uint32_t vx_mmu_translate(struct vx_sim *sim, uint32_t satp, uint32_t va,
                          enum vx_acc acc, uint32_t *poff);
/* The TLB_* registers (vx_sim.c routes 0xc0..0xc8 here). */
bool vx_mmu_reg_read(struct vx_sim *sim, uint32_t offset, uint32_t *v);
bool vx_mmu_reg_write(struct vx_sim *sim, uint32_t offset, uint32_t v);
/* VX_TLB_INVAL_* @cmd for @asid / @va; false if @cmd is not one. */
bool vx_mmu_inval(struct vx_sim *sim, uint32_t cmd, uint32_t asid, uint32_t va);
void vx_mmu_reset(struct vx_sim *sim);  /* empty TLBs, registers 0 */
/* Make every executor memo (vx_xlat) stale, as a TLB change does. */
void vx_mmu_memo_flush(struct vx_sim *sim);
/*
 * Whether a data access at virtual address @va must skip the TLB and
 * its memos: local memory, which is not translated, and the page of
 * IO_COUT, whose byte stores go to the console whatever maps the page.
 * The DTLB never caches either, so a hit in it or in a memo is always
 * an ordinary access, and only the miss path asks this.
 */
static inline bool vx_mmu_untlb(uint32_t va)
{
    return va - VX_LMEM_BASE_ADDR < VX_LMEM_SIZE ||
           va >> VX_PAGE_SHIFT == VX_IO_COUT_ADDR >> VX_PAGE_SHIFT;
}

/* ---- vx_lmem.c ---- */
/* Whether @addr (as a lane computes it, before translation) is local memory. */
static inline bool vx_lmem_hit(uint32_t addr)
{
    return addr - VX_LMEM_BASE_ADDR < VX_LMEM_SIZE;
}
/*
 * Host address of local memory address @addr of @core: zeroed first if
 * this is the core's first access since a LAUNCH or RESET.
 */
uint8_t *vx_lmem_host(struct vx_sim *sim, uint32_t core, uint32_t addr);
/*
 * A LAUNCH starts / the card resets: local memory reads 0 again, and no
 * memo keeps a page of it.  Inline: every launch passes here.
 */
static inline void vx_lmem_launch(struct vx_sim *sim)
{
    sim->lmem_epoch++;
    if (sim->lmem_used) {
        sim->lmem_used = false;
        vx_mmu_memo_flush(sim);
    }
}

/* ---- vx_cons.c ---- */
/* Whether a byte store at @addr (before translation) goes to the console. */
static inline bool vx_cons_hit(uint32_t addr)
{
    return addr - VX_IO_COUT_ADDR < VX_IO_COUT_SIZE;
}
/* Hardware thread @hart stored @ch to IO_COUT: a record, or a drop. */
void vx_cons_putc(struct vx_sim *sim, uint32_t hart, uint32_t ch);
/* The CONS_* registers (vx_sim.c routes 0xd0..0xe4 here). */
bool vx_cons_reg_read(struct vx_sim *sim, uint32_t offset, uint32_t *v);
bool vx_cons_reg_write(struct vx_sim *sim, uint32_t offset, uint32_t v);
void vx_cons_reset(struct vx_sim *sim);  /* disabled, registers 0 */

/* ---- vx_park.c ---- */
/*
 * Something outside the warps happened (a register write, a reset): no
 * longer parked (the embedder is kicked if it was), the next probe round
 * VX_PARK_INTERVAL_MIN slots away.
 */
void vx_park_wake(struct vx_sim *sim);
/* Whether vx_sim_run() should hand its next slots to vx_park_probe(). */
static inline bool vx_park_due(const struct vx_sim *sim)
{
    return sim->park.probing || sim->clock >= sim->park.due;
}
/*
 * Go on with the probe round within @left slots; returns the slots used.
 * *@ended: a warp ended (the CP may dispatch).  *@stop: vx_sim_run()
 * returns now (parked, or the round goes on at its next call).
 */
uint64_t vx_park_probe(struct vx_sim *sim, uint64_t left, bool *ended,
                       bool *stop);
void vx_park_fini(struct vx_sim *sim);

/* ---- vx_cp.c ---- */
uint32_t vx_cp_read(struct vx_sim *sim, uint32_t offset);
void vx_cp_write(struct vx_sim *sim, uint32_t offset, uint32_t value);
/* Parse packets and dispatch blocks while possible (called by vx_sim_run). */
void vx_cp_advance(struct vx_sim *sim);
/* A warp of the current launch ended (tmc 0). */
void vx_cp_warp_ended(struct vx_sim *sim, struct vx_warp *w);
void vx_cp_reset(struct vx_sim *sim);
/*
 * True while the CP has work: a LAUNCH running or packets between HEAD and
 * the sampled TAIL (false once the card is stopped on an error).  With no
 * LAUNCH running, vx_sim_runnable() must be true while this is, even with
 * no warp runnable, so that vx_sim_run() gets to call vx_cp_advance().
 * Also STATUS.CP_BUSY.
 */
bool vx_cp_pending(const struct vx_sim *sim);

/* ---- vx_dm.c ---- */
uint32_t vx_dm_read(struct vx_sim *sim, uint32_t reg);
void vx_dm_write(struct vx_sim *sim, uint32_t reg, uint32_t value);
/* @w stops in debug halt with @cause; raises VX_IRQ_DEBUG. */
void vx_dm_halt_warp(struct vx_sim *sim, struct vx_warp *w, uint8_t cause);
bool vx_dm_ebreak_halts(const struct vx_sim *sim);      /* DCONFIG.ebreakh */
/* A reset happened: arm the latched reset-halt warps. */
void vx_dm_on_reset(struct vx_sim *sim);
void vx_dm_reset(struct vx_sim *sim);   /* dmactive = 0 / power on */

/* ---- vx_run.c ---- */
/* Give @w a fresh context at @pc with @tmask (registers zeroed). */
void vx_warp_start(struct vx_sim *sim, struct vx_warp *w, uint32_t pc,
                   const struct vx_tmask *tmask);
/* The same for wspawn: the registers are kept. */
void vx_warp_spawn(struct vx_sim *sim, struct vx_warp *w, uint32_t pc,
                   const struct vx_tmask *tmask);
/* Remove @w's context (tmc 0, reset). */
void vx_warp_stop(struct vx_sim *sim, struct vx_warp *w);
/*
 * Forget the launch @w belonged to (block, barrier) and its counters (its
 * core's mcycle and minstret keep them).
 */
void vx_warp_forget_launch(struct vx_sim *sim, struct vx_warp *w);
bool vx_warp_runnable(const struct vx_sim *sim, const struct vx_warp *w);

/* ---- vx_exec.c ---- */
enum vx_exec_result {
    VX_EXEC_OK,             /* retired, pc/mask updated */
    VX_EXEC_ENDED,          /* warp ended (tmc 0) */
    VX_EXEC_WAIT,           /* parked at a barrier; retried later */
    VX_EXEC_HALTED,         /* ebreak with ebreakh: warp is now halted */
    VX_EXEC_FAULT,          /* vx_sim_fault() was called, card frozen */
};
/* Execute one instruction of @w (all lanes of its mask). */
enum vx_exec_result vx_exec_warp(struct vx_sim *sim, struct vx_warp *w);
/*
 * Execute up to @max instructions of @w, stopping early at the first
 * result other than VX_EXEC_OK, which is returned.  *@used = the slots
 * used, the stopping instruction included (as many vx_exec_warp() calls).
 */
enum vx_exec_result vx_exec_burst(struct vx_sim *sim, struct vx_warp *w,
                                  uint64_t max, uint64_t *used);
/*
 * DM injection: execute @insn for lane @lane of halted @w with the PC and
 * mask untouched.  Returns 0, or -1 if the instruction faulted or is not
 * allowed (see docs/hardware.md); never stops the card.
 */
int vx_exec_inject(struct vx_sim *sim, struct vx_warp *w, uint32_t lane, uint32_t insn);
/* Core @core starts work with no warp running: mscratch = @arg, no LR. */
void vx_exec_core_start(struct vx_sim *sim, uint32_t core, uint32_t arg);
/* Reset: every core's mscratch, reservation and counters to 0. */
void vx_exec_reset(struct vx_sim *sim);

/* ---- vx_exec_fast.c ---- */
/* This build has the AVX2 copy of the burst executor and the host runs it. */
bool vx_exec_has_avx2(void);

/* ---- vx_simt.c (called by the executors for custom-0) ---- */
enum vx_exec_result vx_simt_exec(struct vx_sim *sim, struct vx_warp *w, uint32_t insn);
/* @w leaves (tmc 0, no lanes): context gone, CP told, a pending wspawn. */
enum vx_exec_result vx_simt_warp_end(struct vx_sim *sim, struct vx_warp *w);
/* ecall, ebreak: every warp of @w's core ends, without an error. */
enum vx_exec_result vx_simt_core_end(struct vx_sim *sim, struct vx_warp *w);
/* Reset: no barrier arrivals, no pending wspawn. */
void vx_simt_reset(struct vx_sim *sim);

/* ---- thread mask helpers ---- */

/*
 * Iterate @lane over the set bits of @mask.  A macro rather than a
 * callback: the body is inlined into each per-opcode loop, which is what
 * makes executing a warp instruction cheap.
 */
#define VX_FOR_EACH_LANE(mask, lane)                                        \
    for (uint32_t vx_wi_ = 0, vx_m_ = (mask)->w[0], lane;                   \
         vx_wi_ < VX_TMASK_WORDS;                                           \
         vx_m_ = (++vx_wi_ < VX_TMASK_WORDS) ? (mask)->w[vx_wi_] : 0)       \
        for (; vx_m_ && ((lane = vx_wi_ * 32 + __builtin_ctz(vx_m_)), 1);   \
             vx_m_ &= vx_m_ - 1)

static inline bool vx_tmask_test(const struct vx_tmask *m, uint32_t lane)
{
    return (m->w[lane >> 5] >> (lane & 31)) & 1;
}

static inline void vx_tmask_set(struct vx_tmask *m, uint32_t lane)
{
    m->w[lane >> 5] |= 1u << (lane & 31);
}

static inline bool vx_tmask_empty(const struct vx_tmask *m)
{
    return !(m->w[0] | m->w[1] | m->w[2] | m->w[3]);
}

static inline int vx_tmask_first(const struct vx_tmask *m)
{
    for (int i = 0; i < VX_TMASK_WORDS; i++) {
        if (m->w[i]) {
            return i * 32 + __builtin_ctz(m->w[i]);
        }
    }
    return -1;
}

/* Highest lane of @m, -1 if empty: upstream's thread_last. */
static inline int vx_tmask_last(const struct vx_tmask *m)
{
    for (int i = VX_TMASK_WORDS - 1; i >= 0; i--) {
        if (m->w[i]) {
            return i * 32 + 31 - __builtin_clz(m->w[i]);
        }
    }
    return -1;
}

#endif /* VX_SIM_INTERNAL_H */
