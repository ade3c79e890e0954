/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: the translating executor (VX_SIM_EXEC_JIT).
 *
 * DOC: design (first stage)
 *
 * What is translated.  A block is the longest run, from a PC, of RV32I/M
 * lane-arithmetic instructions (op, op-imm, lui, auipc, mul) within one
 * 4 KiB code page, at most VX_JIT_MAX_INSNS long.  Everything else
 * (loads, stores, atomics, branches, jumps, CSRs, FP, ecall/ebreak, the
 * SIMT custom-0 operations, mulh/div/rem, Zicond, illegal encodings) ends
 * the block and is executed by the burst executor (vx_exec_fast(), its
 * AVX2 copy, which matches the reference interpreter instruction for
 * instruction) for as many instructions as followed the block untranslated
 * when it was translated (its tail: only a budget, whatever the words are
 * now), so every fault, halt, barrier and warp switch happens there
 * exactly as without translation.
 * A translated instruction cannot fault, so a block either runs whole or
 * not at all: the PC and the registers are exact at every instruction
 * the interpreter sees.
 *
 * Host code.  Each block becomes two x86-64 functions, one that blends
 * every result with the chunk's thread mask (vpblendvb) and one for a
 * full chunk; both take (x, mask, consts) and run 8 lanes (one ymm) of
 * every instruction, reading and writing the warp's register file in
 * memory (x[reg * threads + lane]), one load/op/store per instruction.
 * The executor calls the function once per 8-lane chunk with any lane
 * active, so a warp of T lanes costs T/8 calls per block.  Immediates live
 * in a constant pool after the code.  Warps narrower than 8 lanes are
 * not translated: the AVX2 burst executor runs them.  On a host without
 * AVX2 (cpuid, __builtin_cpu_supports(), in vx_sim_exec_available()) the
 * executor is unavailable: vx_sim_config_check() and vx_sim_set_exec()
 * refuse it with a sentence saying so, and the default stays "best".
 *
 * Memory.  The code arena is mmap'ed read-write, written, then
 * mprotect'ed read-execute (W^X; no RWX mapping is needed).  A full arena
 * is dropped whole with the table (a flush) and refilled.
 *
 * Invalidation by validation.  The table is direct-mapped by PC and
 * tagged with the PC, the warp's satp and the host address the code was
 * fetched from; each entry keeps the instruction words it translated, and
 * a block runs only if the code at that host address still holds exactly
 * those words (a short memcmp).  Any write to code therefore invalidates
 * its translation, whoever makes it (a kernel's own stores, the Debug
 * Module's memory writes and software breakpoints, host uploads into
 * VRAM), and a page-table or TLB change that maps the PC elsewhere misses
 * on the host address: the code is always fetched through
 * vx_exec_code_page(), the ITLB the interpreter uses.
 *
 * Budget and the Debug Module.  A block of n instructions takes n slots
 * and runs only if n slots are left, else the burst executor runs the
 * rest of the budget; a DM step (a burst of 1) thus never runs more than
 * one instruction.  Counters (cycle, instret) move as the interpreter's.
 *
 * Next stages: chaining blocks (and branches inside the translation,
 * exiting on divergence), keeping registers in ymm across a block,
 * loads/stores through the MMU fast path, FP, a scalar path for 1-4 lanes.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "vx_exec.h"
#include "vx_jit.h"

#define VX_JIT_MAX_INSNS    64
#define VX_JIT_MAX_TAIL     16
#define VX_JIT_TABLE        4096            /* entries, power of two */
#define VX_JIT_ARENA        (4u << 20)      /* bytes of host code */
/* Worst case per instruction: 7 VEX instructions of <= 10 bytes. */
#define VX_JIT_INSN_BYTES   80

typedef void (*vx_jit_fn)(uint32_t *x, const uint32_t *mask,
                          const uint32_t *consts);

struct vx_jit_block {
    uint32_t pc;                /* tag: PC ... */
    uint32_t satp;              /* ... address space ... */
    const uint8_t *code;        /* ... and where the words were fetched */
    uint32_t len;               /* instructions translated, 0 = none */
    uint32_t tail;              /* untranslatable ones after them */
    uint32_t gen;               /* arena generation the functions are of */
    vx_jit_fn fn_masked, fn_full;
    const uint32_t *consts;
    uint32_t words[VX_JIT_MAX_INSNS];
};

struct vx_jit {
    uint8_t *arena;
    size_t used;
    uint32_t gen;               /* bumped by every flush */
    uint32_t threads;
    uint32_t *mask;             /* threads lane masks (0 / ~0) */
    struct vx_jit_stats stats;
    struct vx_jit_block table[VX_JIT_TABLE];
};

/* ---------------------------------------------------------- emitter */

struct em {
    uint8_t *p;
};

enum { YA = 0, YB = 1, YT = 2, YM = 7 };        /* ymm roles */
enum { RDX = 2, RSI = 6, RDI = 7 };             /* base registers */

static inline void b1(struct em *e, uint8_t v)
{
    *e->p++ = v;
}

static inline void d32(struct em *e, uint32_t v)
{
    memcpy(e->p, &v, 4);
    e->p += 4;
}

/* 3-byte VEX, 256-bit, registers 0..7 only (R, X, B clear). */
static void vex(struct em *e, int map, int pp, int vvvv, uint8_t op)
{
    b1(e, 0xc4);
    b1(e, 0xe0 | map);
    b1(e, (uint8_t)(((~vvvv & 15) << 3) | 4 | pp));
    b1(e, op);
}

static void modrm_mem(struct em *e, int reg, int base, uint32_t disp)
{
    b1(e, (uint8_t)(0x80 | (reg << 3) | base));
    d32(e, disp);
}

static void modrm_rr(struct em *e, int reg, int rm)
{
    b1(e, (uint8_t)(0xc0 | (reg << 3) | rm));
}

static void ld(struct em *e, int y, int base, uint32_t disp)
{
    vex(e, 1, 2, 0, 0x6f);                      /* vmovdqu ymm, m256 */
    modrm_mem(e, y, base, disp);
}

static void st(struct em *e, int y, int base, uint32_t disp)
{
    vex(e, 1, 2, 0, 0x7f);                      /* vmovdqu m256, ymm */
    modrm_mem(e, y, base, disp);
}

static void bcast(struct em *e, int y, uint32_t disp)
{
    vex(e, 2, 1, 0, 0x58);                      /* vpbroadcastd ymm, m32 */
    modrm_mem(e, y, RDX, disp);
}

/* dst = op(src1, src2): map 1 or 2, 66 prefix. */
static void op3(struct em *e, int map, uint8_t op, int dst, int s1, int s2)
{
    vex(e, map, 1, s1, op);
    modrm_rr(e, dst, s2);
}

/* vpslld (/6), vpsrld (/2), vpsrad (/4) dst, src, imm8 */
static void shift_imm(struct em *e, int ext, int dst, int src, uint8_t n)
{
    vex(e, 1, 1, dst, 0x72);
    modrm_rr(e, ext, src);
    b1(e, n);
}

/* ------------------------------------------------------- translation */

struct xl {
    struct em e;
    uint32_t *pool;             /* constants, written after the code */
    uint32_t npool;
    uint32_t T;
    bool masked;
};

static uint32_t pool_add(struct xl *x, uint32_t v)
{
    for (uint32_t i = 0; i < x->npool; i++) {
        if (x->pool[i] == v) {
            return i * 4;
        }
    }
    x->pool[x->npool] = v;
    return x->npool++ * 4;
}

static uint32_t xoff(const struct xl *x, uint32_t reg)
{
    return reg * x->T * 4;
}

/* Whether @insn at a block is one the translator runs (see the DOC). */
static bool translatable(uint32_t insn)
{
    uint32_t f3 = F3(insn), f7 = F7(insn);

    switch (insn & 0x7f) {
    case 0x37:
    case 0x17:
        return true;
    case 0x13:
        if (f3 == 1) {
            return f7 == 0;
        }
        if (f3 == 5) {
            return f7 == 0 || f7 == 0x20;
        }
        return true;
    case 0x33:
        if (f7 == 0) {
            return true;
        }
        if (f7 == 0x20) {
            return f3 == 0 || f3 == 5;
        }
        return f7 == 1 && f3 == 0;              /* mul */
    }
    return false;
}

/*
 * Whether the burst after a block stops after @insn: a control transfer
 * (branch, jump, system, the SIMT custom-0 ops), so that the code it goes
 * to runs translated.
 */
static bool ends_tail(uint32_t insn)
{
    switch (insn & 0x7f) {
    case 0x63:
    case 0x6f:
    case 0x67:
    case 0x73:
    case VX_OPCODE_CUSTOM0:
        return true;
    }
    return false;
}

/* Host code for one translatable @insn at @pc into ymm YA, then rd. */
static void emit_insn(struct xl *x, uint32_t insn, uint32_t pc)
{
    struct em *e = &x->e;
    uint32_t rd = RD(insn), f3 = F3(insn), f7 = F7(insn);
    uint32_t opc = insn & 0x7f;

    if (rd == 0) {
        return;                                 /* nop, hint */
    }
    if (opc == 0x37 || opc == 0x17) {
        uint32_t v = (insn & 0xfffff000u) + (opc == 0x17 ? pc : 0);

        bcast(e, YA, pool_add(x, v));
    } else if (opc == 0x13) {
        uint32_t imm = imm_i(insn);

        ld(e, YA, RDI, xoff(x, RS1(insn)));
        switch (f3) {
        case 1: shift_imm(e, 6, YA, YA, imm & 31); break;
        case 5: shift_imm(e, f7 ? 4 : 2, YA, YA, imm & 31); break;
        default:
            bcast(e, YB, pool_add(x, imm));
            break;
        }
        switch (f3) {
        case 0: op3(e, 1, 0xfe, YA, YA, YB); break;     /* vpaddd */
        case 2: goto slt;
        case 3: goto sltu;
        case 4: op3(e, 1, 0xef, YA, YA, YB); break;     /* vpxor */
        case 6: op3(e, 1, 0xeb, YA, YA, YB); break;     /* vpor */
        case 7: op3(e, 1, 0xdb, YA, YA, YB); break;     /* vpand */
        default: break;
        }
    } else {
        ld(e, YA, RDI, xoff(x, RS1(insn)));
        ld(e, YB, RDI, xoff(x, RS2(insn)));
        if (f7 == 1) {
            op3(e, 2, 0x40, YA, YA, YB);                /* vpmulld */
        } else {
            switch (f3) {
            case 0: op3(e, 1, f7 ? 0xfa : 0xfe, YA, YA, YB); break;
            case 1:
            case 5:
                bcast(e, YT, pool_add(x, 31));
                op3(e, 1, 0xdb, YB, YB, YT);            /* count & 31 */
                op3(e, 2, f3 == 1 ? 0x47 : f7 ? 0x46 : 0x45, YA, YA, YB);
                break;
            case 2: goto slt;
            case 3: goto sltu;
            case 4: op3(e, 1, 0xef, YA, YA, YB); break;
            case 6: op3(e, 1, 0xeb, YA, YA, YB); break;
            default: op3(e, 1, 0xdb, YA, YA, YB); break;
            }
        }
    }
    goto store;
sltu:
    bcast(e, YT, pool_add(x, 0x80000000u));
    op3(e, 1, 0xef, YA, YA, YT);
    op3(e, 1, 0xef, YB, YB, YT);
slt:
    op3(e, 1, 0x66, YA, YB, YA);                /* vpcmpgtd: b > a */
    shift_imm(e, 2, YA, YA, 31);
store:
    if (x->masked) {
        ld(e, YT, RDI, xoff(x, rd));
        vex(e, 3, 1, YT, 0x4c);                 /* vpblendvb */
        modrm_rr(e, YA, YA);
        b1(e, YM << 4);
    }
    st(e, YA, RDI, xoff(x, rd));
}

static uint8_t *emit_fn(struct xl *x, const uint32_t *words, uint32_t len,
                        uint32_t pc, bool masked)
{
    uint8_t *start = x->e.p;

    x->masked = masked;
    if (masked) {
        ld(&x->e, YM, RSI, 0);
    }
    for (uint32_t i = 0; i < len; i++) {
        emit_insn(x, words[i], pc + 4 * i);
    }
    b1(&x->e, 0xc5);                            /* vzeroupper */
    b1(&x->e, 0xf8);
    b1(&x->e, 0x77);
    b1(&x->e, 0xc3);                            /* ret */
    return start;
}

static void jit_flush(struct vx_jit *j)
{
    j->used = 0;
    j->gen++;
    j->stats.flushes++;
}

static int64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Fill @b for @pc (code at @code, @room words to the page end). */
static void translate(struct vx_jit *j, struct vx_jit_block *b, uint32_t pc,
                      uint32_t satp, const uint8_t *code, uint32_t room)
{
    int64_t t0 = now_ns();
    uint32_t len = 0, pool[2 * VX_JIT_MAX_INSNS + 2];
    size_t need, wlo, whi;
    struct xl x;

    b->pc = pc;
    b->satp = satp;
    b->code = code;
    b->fn_masked = b->fn_full = NULL;
    while (len < VX_JIT_MAX_INSNS && len < room) {
        uint32_t insn = ld32(code + 4 * len);

        if (!translatable(insn)) {
            break;
        }
        b->words[len++] = insn;
    }
    b->len = len;
    b->tail = 0;
    while (len + b->tail < room && b->tail < VX_JIT_MAX_TAIL) {
        uint32_t insn = ld32(code + 4 * (len + b->tail));

        if (translatable(insn)) {
            break;
        }
        b->tail++;
        if (ends_tail(insn)) {
            break;
        }
    }
    if (len == 0) {
        b->words[0] = ld32(code);
        j->stats.untranslatable++;
        return;
    }
    need = 2 * (len * VX_JIT_INSN_BYTES + 16) + sizeof(pool) + 32;
    if (j->used + need > VX_JIT_ARENA) {
        jit_flush(j);
    }
    /* only the pages this block's code goes to are made writable */
    wlo = j->used & ~(size_t)4095;
    whi = (j->used + need + 4095) & ~(size_t)4095;
    if (whi > VX_JIT_ARENA) {
        whi = VX_JIT_ARENA;
    }
    if (mprotect(j->arena + wlo, whi - wlo, PROT_READ | PROT_WRITE)) {
        b->len = 0;
        b->words[0] = ld32(code);
        return;
    }
    x.e.p = j->arena + j->used;
    x.pool = pool;
    x.npool = 0;
    x.T = j->threads;
    b->fn_masked = (vx_jit_fn)(void *)emit_fn(&x, b->words, len, pc, true);
    b->fn_full = (vx_jit_fn)(void *)emit_fn(&x, b->words, len, pc, false);
    x.e.p = (uint8_t *)(((uintptr_t)x.e.p + 3) & ~(uintptr_t)3);
    memcpy(x.e.p, pool, x.npool * 4);
    b->consts = (const uint32_t *)x.e.p;
    x.e.p += x.npool * 4;
    j->used = (size_t)(x.e.p - j->arena);
    mprotect(j->arena + wlo, whi - wlo, PROT_READ | PROT_EXEC);
    b->gen = j->gen;
    j->stats.blocks++;
    j->stats.insns += len;
    j->stats.ns += (uint64_t)(now_ns() - t0);
}

/* ---------------------------------------------------------- executor */

static struct vx_jit *jit_get(struct vx_sim *sim)
{
    struct vx_jit *j = sim->jit;

    if (j) {
        return j;
    }
    j = calloc(1, sizeof(*j));
    if (!j) {
        return NULL;
    }
    j->mask = calloc(sim->cfg.threads, sizeof(uint32_t));
    j->arena = mmap(NULL, VX_JIT_ARENA, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!j->mask || j->arena == MAP_FAILED) {
        free(j->mask);
        free(j);
        return NULL;
    }
    j->threads = sim->cfg.threads;
    j->gen = 1;
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
    free(j->mask);
    free(j);
    sim->jit = NULL;
}

bool vx_jit_stats_get(const struct vx_sim *sim, struct vx_jit_stats *st)
{
    if (!sim->jit) {
        memset(st, 0, sizeof(*st));
        return false;
    }
    *st = sim->jit->stats;
    return true;
}

/*
 * The entry of w->pc (len 0: nothing translated there), NULL if w->pc
 * cannot be fetched.  *fault is set when the fetch faulted (reported
 * already, as the interpreter would).
 */
static struct vx_jit_block *lookup(struct vx_sim *sim, struct vx_jit *j,
                                   struct vx_warp *w, bool *fault)
{
    const uint8_t *code;
    struct vx_jit_block *b;
    uint32_t pc = w->pc;

    *fault = false;
    if (w->satp) {
        const uint8_t *page;

        if (pc & 3) {
            return NULL;                /* the interpreter faults on it */
        }
        page = vx_exec_code_page(sim, w);
        if (!page) {
            *fault = true;
            return NULL;
        }
        code = page + (pc & 0xfff);
    } else {
        if (!vx_vram_pc_ok(sim->cfg.vram_size, pc)) {
            return NULL;
        }
        code = sim->vram + vx_vram_off(pc);
    }
    b = &j->table[(pc >> 2) & (VX_JIT_TABLE - 1)];
    if (b->pc == pc && b->satp == w->satp && b->code == code &&
        (b->len == 0 || b->gen == j->gen) &&
        memcmp(code, b->words, 4 * (b->len ? b->len : 1)) == 0) {
        return b;
    }
    translate(j, b, pc, w->satp, code, (0x1000 - (pc & 0xfff)) / 4);
    return b;
}

static void run_block(struct vx_jit *j, struct vx_warp *w,
                      const struct vx_jit_block *b)
{
    uint32_t T = j->threads;

    for (uint32_t c = 0; c < T; c += 8) {
        uint32_t bits = (w->tmask.w[c / 32] >> (c % 32)) & 0xff;

        if (bits == 0xff) {
            b->fn_full(w->x + c, NULL, b->consts);
        } else if (bits) {
            for (uint32_t k = 0; k < 8; k++) {
                j->mask[c + k] = (bits >> k) & 1 ? ~0u : 0;
            }
            b->fn_masked(w->x + c, j->mask + c, b->consts);
        }
    }
    w->pc += 4 * b->len;
    w->cycle += b->len;
    w->instret += b->len;
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
        bool fault;
        uint64_t u, k;

        if (sim->resv_live) {
            /* the reference interpreter's stores break reservations */
            r = vx_exec_ref(sim, w, max - n, &u);
            n += u;
            break;
        }
        b = lookup(sim, j, w, &fault);
        if (fault) {
            /* vx_exec_ref() would have taken the slot and faulted */
            n++;
            w->cycle++;
            r = VX_EXEC_FAULT;
            break;
        }
        if (b && b->len && b->len <= max - n) {
            run_block(j, w, b);
            n += b->len;
            j->stats.runs++;
            if (!b->tail || n == max) {
                continue;
            }
            k = b->tail;
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
