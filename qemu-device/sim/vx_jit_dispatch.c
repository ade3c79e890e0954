/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: the dispatch of the translating executor
 * (VX_SIM_EXEC_JIT): the code arena, the table of translated blocks and
 * their validation, and vx_jit_exec(), which runs a warp's burst through
 * them and hands the rest to the burst executor.  The blocks come from
 * vx_jit_translate.c.  x86-64 hosts only.
 *
 * DOC: dispatch
 *
 * Chaining and the budget.  A block whose branch or jump goes back to
 * its own first instruction loops inside its code while the burst's
 * budget lasts (ctx.left, ctx.done); other exits return the next PC and
 * the executor looks the next block up (a direct-mapped table) and calls
 * it, without leaving vx_jit_exec() until the budget is spent or an
 * instruction it does not translate needs the interpreter.  The
 * scheduler (vx_run.c) thus sees the same bursts as with the other
 * executors: warp switches, barriers, traps and Debug Module requests
 * happen between them or in the interpreter.  The budget rarely ends at a
 * block's end, so each function has a second, countdown copy of its
 * instructions, entered when fewer slots are left than the block has
 * instructions (and by a self-loop's last turn): before each instruction
 * it compares ctx.left and stops there when the budget is spent.  A DM
 * step (a burst of 1) thus runs exactly one instruction.  Counters
 * (cycle, instret) move as the interpreter's.  A burst that starts
 * inside the self-loop last run in loop mode (vx_jit.loop: a warp's
 * next burst goes on where its last stopped, mostly mid-loop) enters
 * that loop's function at its instruction (run_mid(), fn_mid), with
 * ctx.left and ctx.done counted as from the block's start, rather than
 * running the block from there to the loop's branch and looking the loop
 * up again.
 *
 * Memory.  The code arena is a memfd mapped twice, read-write where the
 * translator writes and read-execute where the code runs (W^X without an
 * mprotect per block; a host that refuses memfds gets one mapping
 * switched with mprotect).  A full arena is dropped whole (a flush: the
 * table's entries of older generations miss) and refilled.
 *
 * Invalidation by validation.  The table is tagged with the PC, the
 * warp's satp and the host address the code was fetched from; each entry
 * keeps the instruction words it translated, and a block runs only if
 * the code at that host address still holds exactly those words.  Any
 * write to code therefore invalidates its translation, whoever makes it
 * (a kernel's own stores, the Debug Module's memory writes and software
 * breakpoints, host uploads into VRAM), and a page-table or TLB change
 * that maps the PC elsewhere misses on the host address: the code is
 * always fetched through the ITLB the interpreter uses (the warp's code
 * memo, else vx_exec_code_page()).  Within a block, a store into a VRAM
 * page that holds translated code (a byte per page, codemap) stops the
 * block after the store (JIT_AFTER), so the words after it are checked
 * again before they run.
 *
 * Where it does not apply.  Warps narrower than 8 lanes are not
 * translated: the AVX2 burst executor runs them.  While an LR
 * reservation is live anywhere (vx_sim.resv_live) the reference executor
 * runs, as with the burst executors.  On a host without AVX2 (cpuid,
 * __builtin_cpu_supports(), in vx_sim_exec_available()) the executor is
 * unavailable: vx_sim_config_check() and vx_sim_set_exec() refuse it
 * with a sentence saying so, and the default stays "best".
 *
 * The scheduler's bursts (vx_run.c, VX_RUN_BURST) are 128 instructions:
 * at 32, entering a warp (the scheduler, the table lookup and its word
 * check, the countdown copy a budget ending mid-loop takes, the block a
 * burst starting mid-loop needs) cost as much as a third of the time.
 */
#ifndef __x86_64__
#error "translated code is x86-64: elsewhere build vx_jit_none.c"
#endif

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vx_jit_internal.h"

/*
 * The code arena: a memfd mapped twice, read-write where the translator
 * writes and read-execute where the code runs (no page is ever both, and
 * no mprotect per block); where memfds are refused, one anonymous
 * mapping that vx_jit_translate() switches between the two with mprotect.
 */
static uint8_t *jit_arena_map(struct vx_jit *j)
{
    int fd = memfd_create("vx-jit", MFD_CLOEXEC);
    uint8_t *w, *x;

    if (fd >= 0 && ftruncate(fd, VX_JIT_ARENA) == 0) {
        w = mmap(NULL, VX_JIT_ARENA, PROT_READ | PROT_WRITE, MAP_SHARED,
                 fd, 0);
        x = mmap(NULL, VX_JIT_ARENA, PROT_READ | PROT_EXEC, MAP_SHARED,
                 fd, 0);
        if (w != MAP_FAILED && x != MAP_FAILED) {
            close(fd);
            j->dual = true;
            j->xdelta = x - w;
            return w;
        }
        if (w != MAP_FAILED) {
            munmap(w, VX_JIT_ARENA);
        }
        if (x != MAP_FAILED) {
            munmap(x, VX_JIT_ARENA);
        }
    }
    if (fd >= 0) {
        close(fd);
    }
    w = mmap(NULL, VX_JIT_ARENA, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return w == MAP_FAILED ? NULL : w;
}

/*
 * Whether @sim's translated code may use AVX-512F/VL: the host has them
 * and the card's config does not keep it to AVX2 (no_avx512).
 */
static bool jit_avx512_allowed(const struct vx_sim *sim)
{
    return !sim->cfg.no_avx512 && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512vl");
}

/* The translated code is AVX2 (vx_jit_translate.c). */
bool vx_jit_available(void)
{
    return __builtin_cpu_supports("avx2");
}

static struct vx_jit *jit_get(struct vx_sim *sim)
{
    struct vx_jit *j = sim->jit;

    if (j) {
        return j;
    }
    if (posix_memalign((void **)&j, 64, sizeof(*j))) {
        return NULL;
    }
    memset(j, 0, sizeof(*j));
    j->codemap_pages = (sim->cfg.vram_size + 4095) >> 12;
    j->codemap = calloc(j->codemap_pages, 1);
    j->arena = jit_arena_map(j);
    if (!j->codemap || !j->arena) {
        free(j->codemap);
        free(j);
        return NULL;
    }
    j->threads = sim->cfg.threads;
    j->gen = 1;
    j->avx512 = jit_avx512_allowed(sim);
    j->spec_after = VX_JIT_SPEC_AFTER;
    for (uint32_t l = 0; l < j->threads; l++) {
        j->ctx.iota4[l] = 4 * l;
    }
    j->ctx.vram = sim->vram;
    j->ctx.codemap = j->codemap;
    j->ctx.codemap_pages = j->codemap_pages;
    j->ctx.vram_size = sim->cfg.vram_size;
    j->ctx.lim = (uint32_t)(sim->vram_flat - 4 * j->threads);
    j->ctx.sim = sim;
    j->ctx.dtlb = sim->dtlb;
    sim->jit = j;
    return j;
}

void vx_jit_free(struct vx_sim *sim)
{
    struct vx_jit *j = sim->jit;

    if (!j) {
        return;
    }
    munmap(j->arena, VX_JIT_ARENA);
    if (j->dual) {
        munmap(j->arena + j->xdelta, VX_JIT_ARENA);
    }
    free(j->codemap);
    free(j);
    sim->jit = NULL;
}

int vx_jit_set_avx512(struct vx_sim *sim, bool on)
{
    struct vx_jit *j = sim->cfg.threads % 8 ? NULL : jit_get(sim);

    if (!j) {
        return -1;
    }
    j->avx512 = on && jit_avx512_allowed(sim);
    vx_jit_flush(j);           /* code of the other kind misses from now */
    return 0;
}

int vx_jit_set_specialize(struct vx_sim *sim, uint32_t runs)
{
    struct vx_jit *j = sim->cfg.threads % 8 ? NULL : jit_get(sim);

    if (!j) {
        return -1;
    }
    j->spec_after = (uint8_t)(runs < 255 ? runs : 255);
    vx_jit_flush(j);
    return 0;
}

bool vx_jit_stats_get(const struct vx_sim *sim, struct vx_jit_stats *st)
{
    if (!sim->jit) {
        memset(st, 0, sizeof(*st));
        return false;
    }
    *st = sim->jit->stats;
    st->avx512 = sim->jit->avx512;
    return true;
}

/* The entry for @pc's block of at most @cap instructions. */
static struct vx_jit_block *entry(struct vx_jit *j, uint32_t pc, uint32_t cap)
{
    return &j->table[((pc >> 2) ^ (cap * 0x9e5u)) & (VX_JIT_TABLE - 1)];
}

/* Whether @b is @pc's block of at most @cap for @code, still valid. */
static inline bool hit(const struct vx_jit *j, const struct vx_jit_block *b,
                       uint32_t pc, uint32_t satp, const uint8_t *code,
                       uint32_t cap)
{
    uint32_t n = b->len ? b->len : 1;
    uint64_t diff = 0;

    if (b->pc != pc || b->satp != satp || b->code != code ||
        b->cap != cap || (b->len && b->gen != j->gen)) {
        return false;
    }
    /* the words, as they are now (a short loop: memcmp is a call) */
    for (uint32_t i = 0; i + 2 <= n; i += 2) {
        uint64_t v, k;

        memcpy(&v, code + 4 * i, 8);
        memcpy(&k, b->words + i, 8);
        diff |= v ^ k;
    }
    if (n & 1) {
        uint32_t v;

        memcpy(&v, code + 4 * (n - 1), 4);
        diff |= v ^ b->words[n - 1];
    }
    return diff == 0;
}

/*
 * The host address of the code at w->pc, NULL if it cannot be fetched;
 * *fault is set when the fetch faulted (reported already, as the
 * interpreter would).
 */
static const uint8_t *code_at(struct vx_sim *sim, struct vx_warp *w,
                              bool *fault)
{
    const uint8_t *code;
    uint32_t pc = w->pc;

    *fault = false;
    if (w->satp) {
        const uint8_t *page;

        if (pc & 3) {
            return NULL;                /* the interpreter faults on it */
        }
        /* the memo, as the burst executor keeps it (XLAT_SYNC) */
        if (w->xlat_gen != sim->tlb_gen || w->xlat_satp != w->satp) {
            memset(w->xlat, 0, sizeof(w->xlat));
            memset(&w->xlat_code, 0, sizeof(w->xlat_code));
            w->xlat_gen = sim->tlb_gen;
            w->xlat_satp = w->satp;
        }
        if (w->xlat_code.key == ((pc & ~0xfffu) | VX_XLAT_VALID)) {
            page = w->xlat_code.host;
        } else {
            page = vx_exec_code_page(sim, w);
            if (!page) {
                *fault = true;
                return NULL;
            }
            if (w->xlat_gen != sim->tlb_gen) {
                memset(w->xlat, 0, sizeof(w->xlat));
                w->xlat_gen = sim->tlb_gen;
            }
            w->xlat_code = (struct vx_xlat){ (pc & ~0xfffu) | VX_XLAT_VALID,
                                             (uint8_t *)page };
        }
        code = page + (pc & 0xfff);
    } else {
        if (!vx_vram_pc_ok(sim->cfg.vram_size, pc)) {
            return NULL;
        }
        code = sim->vram + vx_vram_off(pc);
    }
    return code;
}

/*
 * The entry of w->pc (len 0: nothing translated there), NULL if w->pc
 * cannot be fetched (code_at()).
 */
static struct vx_jit_block *lookup(struct vx_sim *sim, struct vx_jit *j,
                                   struct vx_warp *w, const uint8_t *code)
{
    struct vx_jit_block *b;
    uint32_t pc = w->pc, room;

    if (!code) {
        return NULL;
    }
    room = (0x1000 - (pc & 0xfff)) / 4;
    b = entry(j, pc, VX_JIT_MAX_INSNS);
    if (!hit(j, b, pc, w->satp, code, VX_JIT_MAX_INSNS)) {
        vx_jit_translate(sim, j, b, pc, w->satp, code, room,
                         VX_JIT_MAX_INSNS);
        if (w->satp && w->xlat_gen != sim->tlb_gen) {
            /* a new code page made the memos stale: the code reads them */
            memset(w->xlat, 0, sizeof(w->xlat));
            memset(&w->xlat_code, 0, sizeof(w->xlat_code));
            w->xlat_gen = sim->tlb_gen;
        }
    }
    return b;
}

/* ctx for the warp running @b with @left slots of budget */
static void ctx_set(struct vx_sim *sim, struct vx_jit *j, struct vx_warp *w,
                    const struct vx_jit_block *b, uint64_t left)
{
    struct vx_jit_ctx *c = &j->ctx;
    uint32_t T = j->threads;

    c->x = w->x;
    c->f = w->f;
    c->xlat = w->xlat;
    c->sim = sim;
    c->w = w;
    c->left = left;
    c->done = 0;
    if (memcmp(&j->ctx_mask, &w->tmask, sizeof(w->tmask))) {
        /* what the code reads of a mask, made once per mask seen */
        j->ctx_mask = w->tmask;
        j->ctx_last = last_lane(&w->tmask);
        c->full = tmask_is_full(&w->tmask, T);
        c->lane0 = first_lane(&w->tmask);
        for (uint32_t l = 0; l < T && !c->full; l++) {
            c->mask[l] = vx_tmask_test(&w->tmask, l) ? ~0u : 0;
        }
        memcpy(c->maskw, w->tmask.w, sizeof(w->tmask.w));
    }
    c->xl = w->x + j->ctx_last;
    c->start = b->pc;
    if (w->satp) {
        struct vx_asp asp = vx_mmu_asp(w->satp);

        c->asp_khi = asp.khi;
        c->asp_hash = asp.hash;
    }
}

/*
 * Call @fn of @b, ctx set: returns the instructions it retired (from
 * ctx.done, which a mid-block entry starts below 0) and its exit
 * status, with w->pc where it stopped.
 */
static uint32_t run_fn(struct vx_jit *j, struct vx_warp *w,
                       const struct vx_jit_block *b, vx_jit_fn fn,
                       uint64_t *ran)
{
    struct vx_jit_ctx *c = &j->ctx;
    uint32_t st = fn(c);
    uint64_t k = c->done + c->idx;

    if (st == JIT_FAULT) {
        *ran = k + 1;   /* vx_jit_one() left the warp as it must be */
        return st;
    }
    w->pc = st == JIT_END ? c->pc : b->pc + 4 * c->idx;
    w->cycle += k;
    w->instret += k;
    *ran = k;
    return st;
}

/*
 * Run @b (b->len <= @left) for the warp: returns the instructions it
 * retired and its exit status, with w->pc where it stopped.
 */
static uint32_t run_block(struct vx_sim *sim, struct vx_jit *j,
                          struct vx_warp *w, struct vx_jit_block *b,
                          uint64_t left, uint64_t *ran)
{
    struct vx_jit_ctx *c = &j->ctx;
    vx_jit_fn fn = b->fn_full;

    ctx_set(sim, j, w, b, left);
    if (!c->full) {
        struct vx_jit_spec *sp = &j->spec[b - j->table];
        bool same = !memcmp(&sp->mask, &w->tmask, sizeof(w->tmask));

        if (!sp->done && j->spec_after) {
            /* code for a mask the block keeps running with, not for one run */
            sp->runs = same && sp->runs < 255 ? sp->runs + 1 : 1;
            sp->mask = w->tmask;
            if (sp->runs >= j->spec_after) {
                vx_jit_specialize(sim, j, b, &w->tmask);
                same = true;
            }
        }
        fn = sp->fn && same ? sp->fn : b->fn_masked;
        if (sp->fn_mid && same) {
            j->loop = b;
        }
    } else if (b->fn_mid) {
        j->loop = b;
    }
    return run_fn(j, w, b, fn, ran);
}

/*
 * A burst that starts inside the loop last run with a mid-block entry
 * (j->loop; @code: w->pc's words): run its loop from there (fn_mid),
 * not the block that starts at w->pc.  False if it cannot: w->pc is
 * not inside it, its words changed, or there is no fn_mid for the mask.
 */
static bool run_mid(struct vx_sim *sim, struct vx_jit *j, struct vx_warp *w,
                    const uint8_t *code, uint64_t left, uint64_t *ran,
                    uint32_t *st)
{
    struct vx_jit_block *b = j->loop;
    struct vx_jit_ctx *c = &j->ctx;
    uint32_t at = (w->pc - b->pc) / 4;
    vx_jit_fn fn;

    if (w->pc - b->pc >= 4 * b->len || (w->pc & 3) || !at ||
        !hit(j, b, b->pc, w->satp, code - 4 * at, VX_JIT_MAX_INSNS)) {
        return false;
    }
    /* as if from the block's start (a false return leaves it to run_block) */
    ctx_set(sim, j, w, b, left + at);
    if (c->full) {
        fn = b->fn_mid;
    } else {
        const struct vx_jit_spec *sp = &j->spec[b - j->table];

        fn = sp->fn && !memcmp(&sp->mask, &w->tmask, sizeof(w->tmask)) ?
             sp->fn_mid : NULL;
    }
    if (!fn) {
        return false;
    }
    /* the first turn is short by @at */
    c->done = -(uint64_t)at;
    c->entry = at;
    *st = run_fn(j, w, b, fn, ran);
    return true;
}

enum vx_exec_result vx_jit_exec(struct vx_sim *sim, struct vx_warp *w,
                                uint64_t max, uint64_t *used)
{
    struct vx_jit *j = sim->cfg.threads % 8 ? NULL : jit_get(sim);
    enum vx_exec_result r = VX_EXEC_OK;
    uint64_t n = 0;

    if (!j) {
        /* warps under 8 lanes (or no arena): the AVX2 burst executor */
        return vx_exec_fast(sim, w, max, used);
    }
    while (n < max && r == VX_EXEC_OK) {
        struct vx_jit_block *b;
        const uint8_t *code;
        uint32_t st;
        bool fault;
        uint64_t u, k;

        if (sim->resv_live) {
            /* the reference interpreter's stores break reservations */
            r = vx_exec_ref(sim, w, max - n, &u);
            n += u;
            break;
        }
        code = code_at(sim, w, &fault);
        if (fault) {
            /* vx_exec_ref() would have taken the slot and faulted */
            n++;
            w->cycle++;
            r = VX_EXEC_FAULT;
            break;
        }
        if (j->loop && code && j->loop->gen == j->gen &&
            run_mid(sim, j, w, code, max - n, &u, &st)) {
            b = j->loop;
        } else {
            b = lookup(sim, j, w, code);
            st = b && b->len ? run_block(sim, j, w, b, max - n, &u) : ~0u;
        }
        if (st != ~0u) {
            n += u;
            j->stats.runs++;
            if (st == JIT_FAULT) {
                r = j->ctx.r;
                break;
            }
            if (st == JIT_AFTER || n == max) {
                continue;
            }
            if (st == JIT_END) {
                if (!b->tail || w->pc != b->pc + 4 * b->len) {
                    continue;
                }
                k = b->tail;
            } else {
                k = 1;          /* the instruction it stopped before */
            }
        } else {
            /* a block the budget cannot take runs on the interpreter */
            k = b && !b->len ? b->tail : max - n;
        }
        /*
         * What follows a block is left to the burst executor, for as
         * many instructions as the block's tail counted when translated
         * (only a budget: whatever the words are now, it runs them).
         */
        k = k < max - n ? k : max - n;
        r = vx_exec_fast(sim, w, k ? k : 1, &u);
        n += u;
        j->stats.interp += u;
    }
    *used = n;
    return r;
}

