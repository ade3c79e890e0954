/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: what the parts of the translating executor
 * share: the translator (vx_jit_translate.c, its encoder vx_jit_emit.h),
 * the dispatch (vx_jit_dispatch.c) and the helpers translated code calls
 * (vx_jit_helpers.c).  Their DOC blocks have the design.  x86-64 hosts
 * only; vx_jit_none.c stands in elsewhere.
 */
#ifndef VX_JIT_INTERNAL_H
#define VX_JIT_INTERNAL_H

#include <stddef.h>
#include "vx_exec.h"
#include "vx_jit.h"

/*
 * What translated code works on: the executor fills it before a block
 * runs, the code reads it through rbp and writes the exit into pc/idx.
 * The offsets are part of the emitted code (static asserts below).
 */
struct vx_jit_ctx {
    uint32_t *x;                /*  0: the warp's registers (rbx) */
    const uint32_t *xl;         /*  8: x + the highest active lane */
    struct vx_sim *sim;         /* 16 */
    struct vx_warp *w;          /* 24 */
    uint64_t left;              /* 32: slots left (self-loops) */
    uint64_t done;              /* 40: instructions of finished loop turns */
    uint32_t pc;                /* 48: status 0: the next PC */
    uint32_t idx;               /* 52: instructions run since the last turn */
    uint32_t full;              /* 56: every lane active */
    uint32_t lane0;             /* 60: the lowest active lane */
    uint32_t mask[VX_TMASK_WORDS * 32] __attribute__((aligned(32)));  /* 64 */
    /* what the inline loads and stores read (emit_mem_fast()) */
    uint32_t iota4[VX_TMASK_WORDS * 32] __attribute__((aligned(32)));
    uint8_t *vram;
    const uint8_t *codemap;     /* VRAM pages holding translated code: 1 */
    uint64_t codemap_pages;
    struct vx_xlat *xlat;       /* the warp's memo */
    uint32_t *f;
    uint64_t vram_size;
    uint32_t lim;               /* the highest offset of a warp's words */
    enum vx_exec_result r;      /* JIT_FAULT: what vx_exec_one() said */
    uint32_t start;             /* the block's PC */
    /* the thread mask's bits (kmovw k1 reads bytes c and c + 1) */
    uint32_t maskw[VX_TMASK_WORDS + 1];
    /* a translated launch's inline DTLB probe (vx_tlb_probe()) */
    const struct vx_tlb_entry *dtlb;
    uint32_t asp_khi, asp_hash; /* the warp's vx_mmu_asp() */
    uint32_t entry;             /* fn_mid: the instruction it starts at */
};

_Static_assert(sizeof(struct vx_tlb_entry) == 16 &&
               offsetof(struct vx_tlb_entry, ok) == 4 &&
               offsetof(struct vx_tlb_entry, poff) == 12, "TLB layout");

_Static_assert(offsetof(struct vx_jit_ctx, xl) == 8, "ctx layout");
_Static_assert(offsetof(struct vx_jit_ctx, left) == 32, "ctx layout");
_Static_assert(offsetof(struct vx_jit_ctx, done) == 40, "ctx layout");
_Static_assert(offsetof(struct vx_jit_ctx, pc) == 48, "ctx layout");
_Static_assert(offsetof(struct vx_jit_ctx, idx) == 52, "ctx layout");
_Static_assert(offsetof(struct vx_jit_ctx, mask) == 64, "ctx layout");

#define CTX_XL      8
#define CTX_LEFT    32
#define CTX_DONE    40
#define CTX_PC      48
#define CTX_IDX     52
#define CTX_MASK    64
#define CTX_IOTA    offsetof(struct vx_jit_ctx, iota4)
#define CTX_VRAM    offsetof(struct vx_jit_ctx, vram)
#define CTX_CODEMAP offsetof(struct vx_jit_ctx, codemap)
#define CTX_XLAT    offsetof(struct vx_jit_ctx, xlat)
#define CTX_F       offsetof(struct vx_jit_ctx, f)
#define CTX_VRAMSZ  offsetof(struct vx_jit_ctx, vram_size)
#define CTX_LIM     offsetof(struct vx_jit_ctx, lim)
#define CTX_MASKW   offsetof(struct vx_jit_ctx, maskw)
#define CTX_DTLB    offsetof(struct vx_jit_ctx, dtlb)
#define CTX_KHI     offsetof(struct vx_jit_ctx, asp_khi)
#define CTX_HASH    offsetof(struct vx_jit_ctx, asp_hash)
#define CTX_ENTRY   offsetof(struct vx_jit_ctx, entry)

/*
 * The memo keys (vx_xlat.key) translated code compares carry
 * JIT_XLAT_OWN, and a store's JIT_XLAT_NOCODE too: the page held no
 * translated code when the slot was filled.  The other executors never
 * set either, so their slots miss there and the code's miss theirs.  The
 * code XORs the flags into the address's page and low two bits: a
 * misaligned address then gives low bits no slot ever holds (keys are 0,
 * 1 or 3 from the other executors, 9 or 15 from the code), so it misses.
 */
#define JIT_XLAT_NOCODE     VX_BIT(2)
#define JIT_XLAT_OWN        VX_BIT(3)

/* The flags of the memo key translated code compares. */
static inline uint32_t jit_xlat_flags(bool store)
{
    return store ? VX_XLAT_VALID | VX_XLAT_STORE | JIT_XLAT_NOCODE |
                   JIT_XLAT_OWN
                 : VX_XLAT_VALID | JIT_XLAT_OWN;
}

/* Exit status of a block's function (eax). */
enum {
    JIT_END = 0,        /* ran to its end: the PC is ctx.pc */
    JIT_BEFORE = 1,     /* stopped before instruction idx (the interpreter's) */
    JIT_AFTER = 2,      /* a store wrote code: stopped after instruction idx - 1 */
    JIT_FAULT = 3,      /* instruction idx faulted in the interpreter (ctx.r) */
};

/* A load or store, for jit_mem(); the code passes its address. */
struct jit_mem_op {
    uint32_t rd, rs1, rs2;      /* register file indexes: reg * threads */
    uint32_t imm;
    uint32_t pc;                /* its memo slot is the burst executor's */
    uint32_t insn;              /* K_CALL: the word jit_one() runs */
    uint8_t store, size, sign, fp, rd0;
};

/*
 * The helpers translated code calls with (ctx, its descriptor); each
 * returns a JIT_* status (vx_jit_helpers.c).
 *   vx_jit_mem   a load or store of the warp's active lanes
 *   vx_jit_memo  a memo miss of an inline access: refill the slot, 0
 *   vx_jit_one   a K_CALL instruction on the interpreter
 *   vx_jit_fp    the same on the host FPU when IEEE gives the answer
 */
uint32_t vx_jit_mem(struct vx_jit_ctx *c, const struct jit_mem_op *m);
uint32_t vx_jit_memo(struct vx_jit_ctx *c, const struct jit_mem_op *m);
uint32_t vx_jit_one(struct vx_jit_ctx *c, const struct jit_mem_op *m);
uint32_t vx_jit_fp(struct vx_jit_ctx *c, const struct jit_mem_op *m);
/* Whether vx_jit_fp() may take @insn (else vx_jit_one()). */
bool vx_jit_fp_fast(uint32_t insn);

/* ------------------------------------------- translator and dispatch */

#define VX_JIT_MAX_INSNS    64
#define VX_JIT_MAX_TAIL     16
#define VX_JIT_TABLE        4096            /* entries, power of two */
/* masked runs in a row with one mask before code for it (the default) */
#define VX_JIT_SPEC_AFTER   2
#define VX_JIT_ARENA        (16u << 20)     /* bytes of host code */
/*
 * Worst case per instruction and 8-lane chunk (a masked sltu: 2 loads,
 * 4 ops, the blend's 2 loads and itself, a store, a cache move: some 70
 * bytes; a store for one mask: its address check and a move per word,
 * some 130), and per instruction besides (a translated launch's inline
 * store with its memo refill, its call of vx_jit_mem() and the countdown's
 * check, and its inline DTLB probe: some 350).  vx_jit_translate() aborts
 * rather than overrun them.
 */
#define VX_JIT_CHUNK_BYTES  160
#define VX_JIT_INSN_BYTES   448

typedef uint32_t (*vx_jit_fn)(struct vx_jit_ctx *c);

struct vx_jit_block {
    uint32_t pc;                /* tag: PC ... */
    uint32_t satp;              /* ... address space ... */
    const uint8_t *code;        /* ... and where the words were fetched */
    uint32_t cap;               /* ... and the most it may hold: a budget */
    uint32_t len;               /* instructions translated, 0 = none */
    uint32_t tail;              /* untranslatable ones after them */
    uint32_t gen;               /* arena generation the functions are of */
    vx_jit_fn fn_masked, fn_full;
    /*
     * A self-loop's full-warp function entered at instruction ctx.entry
     * (a burst that starts inside the loop), ctx.left and ctx.done
     * counted as if from the block's start; NULL if it has no loop mode.
     */
    vx_jit_fn fn_mid;
    uint32_t words[VX_JIT_MAX_INSNS];
};

/*
 * What a block's code for one mask needs, beside the table (the entries
 * a lookup reads keep their size): vx_jit.spec[entry].  fn is the masked
 * function for @mask alone (vx_jit_specialize()), made at the
 * vx_jit.spec_after-th masked run in a row with that mask (runs: of the
 * last masked runs, how many in a row had @mask), NULL if none could be
 * (done).
 */
struct vx_jit_spec {
    vx_jit_fn fn;
    vx_jit_fn fn_mid;           /* fn entered inside (vx_jit_block's) */
    struct vx_tmask mask;
    uint8_t runs;
    bool done;
    bool term;                  /* the block ends with a branch or jump */
    const struct jit_mem_op *mops;      /* its descriptors, in the arena */
};

struct vx_jit {
    struct vx_jit_ctx ctx;      /* first: the struct is 64-byte aligned */
    uint8_t *arena;             /* where code is written ... */
    ptrdiff_t xdelta;           /* ... and run: + xdelta (dual mapping) */
    bool dual;                  /* two views of a memfd: no mprotect */
    bool avx512;                /* AVX-512F/VL: masked moves with k1 */
    uint8_t spec_after;         /* vx_jit_set_specialize()'s runs */
    size_t used;
    uint32_t gen;               /* bumped by every flush */
    uint32_t threads;
    struct vx_tmask ctx_mask;   /* the mask ctx.mask, full, lane0 are of */
    uint32_t ctx_last;          /* its highest lane (ctx.xl) */
    uint8_t *codemap;           /* VRAM pages holding translated code: 1 */
    uint64_t codemap_pages;
    struct vx_jit_stats stats;
    struct vx_jit_block *loop;  /* the last block run with a fn_mid */
    struct vx_jit_block table[VX_JIT_TABLE];
    struct vx_jit_spec spec[VX_JIT_TABLE];     /* of table[i] */
};

/* Drop every translation at once: the table's older entries miss. */
static inline void vx_jit_flush(struct vx_jit *j)
{
    j->used = 0;
    j->gen++;
    j->stats.flushes++;
}

/*
 * Fill @b with the translation of @pc (code at @code, @room words to the
 * page end, at most @cap instructions), in @j's arena (vx_jit_translate.c);
 * b->len 0 if nothing there translates.
 */
void vx_jit_translate(struct vx_sim *sim, struct vx_jit *j,
                      struct vx_jit_block *b, uint32_t pc, uint32_t satp,
                      const uint8_t *code, uint32_t room, uint32_t cap);

/*
 * Give @b (translated, of this arena generation) a masked function for
 * @mask alone (its vx_jit_spec's fn; vx_jit_translate.c), if the arena
 * has room.
 */
void vx_jit_specialize(struct vx_sim *sim, struct vx_jit *j,
                       struct vx_jit_block *b, const struct vx_tmask *mask);

#endif /* VX_JIT_INTERNAL_H */
