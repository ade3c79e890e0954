/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: the translator's x86-64 instruction encoder.
 *
 * Writes VEX (AVX2) and EVEX (AVX-512VL masked moves) instructions and a
 * few general-purpose ones into a code buffer; knows nothing of RISC-V
 * (vx_jit_translate.c) or of where the code runs (vx_jit_dispatch.c).
 * Header-only, inline: the translator calls these per byte.  x86-64 hosts
 * only (qemu-device/meson.build, qemu-device/sim.mk).
 */
#ifndef VX_JIT_EMIT_H
#define VX_JIT_EMIT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vx_jit_internal.h"

struct em {
    uint8_t *p;
    uint8_t *vex1;              /* the last VEX prefix's R/X/B byte */
};

/* ymm roles: result, operand, old rd, 31, sign bit, immediate, mask */
enum { YA = 0, YB = 1, YT = 2, Y31 = 3, YS = 4, YI = 5, YM = 7 };
enum { RCX = 1, RDX = 2, RBX = 3, RBP = 5 };    /* base registers */

static inline void b1(struct em *e, uint8_t v)
{
    *e->p++ = v;
}

static inline void d32(struct em *e, uint32_t v)
{
    memcpy(e->p, &v, 4);
    e->p += 4;
}

static inline void d64(struct em *e, uint64_t v)
{
    memcpy(e->p, &v, 8);
    e->p += 8;
}

static inline void bytes(struct em *e, const char *s, size_t n)
{
    memcpy(e->p, s, n);
    e->p += n;
}

/*
 * 3-byte VEX, 256-bit; the ModRM that follows sets R and B for ymm8-15
 * (general registers are 0..7 only).
 */
static inline void vex(struct em *e, int map, int pp, int vvvv, uint8_t op)
{
    b1(e, 0xc4);
    e->vex1 = e->p;
    b1(e, 0xe0 | map);
    b1(e, (uint8_t)(((~vvvv & 15) << 3) | 4 | pp));
    b1(e, op);
}

/* 3-byte VEX, 128-bit, no vvvv operand; @w: VEX.W */
static inline void vex128(struct em *e, int map, int pp, int w, uint8_t op)
{
    b1(e, 0xc4);
    e->vex1 = e->p;
    b1(e, 0xe0 | map);
    b1(e, (uint8_t)((w << 7) | 0x78 | pp));
    b1(e, op);
}

/* [base + disp32]; base is never rsp (no SIB) */
static inline void modrm_mem(struct em *e, int reg, int base, uint32_t disp)
{
    if (reg & 8) {
        *e->vex1 &= 0x7f;                       /* VEX.R: ymm8-15 */
    }
    b1(e, (uint8_t)(0x80 | ((reg & 7) << 3) | base));
    d32(e, disp);
}

static inline void modrm_rr(struct em *e, int reg, int rm)
{
    if (reg & 8) {
        *e->vex1 &= 0x7f;                       /* VEX.R */
    }
    if (rm & 8) {
        *e->vex1 &= 0xdf;                       /* VEX.B */
    }
    b1(e, (uint8_t)(0xc0 | ((reg & 7) << 3) | (rm & 7)));
}

/*
 * AVX-512 (EVEX.256.F3.0F.W0, mask k1): vmovdqu32 [base + disp]{k1}, ymm
 * (@op 0x7f) or vmovdqu32 ymm{k1}, [base + disp] (@op 0x6f, merging);
 * only the lanes k1 selects are read or written, faults of the others
 * suppressed.
 */
static inline void evmov(struct em *e, uint8_t op, int y, int base, uint32_t disp)
{
    b1(e, 0x62);
    b1(e, (uint8_t)((y & 8 ? 0 : 0x80) | 0x71));
    b1(e, 0x7e);
    b1(e, 0x29);
    b1(e, op);
    b1(e, (uint8_t)(0x80 | ((y & 7) << 3) | base));
    d32(e, disp);
}

/* kmovw k1, [rbp + maskw + @c]: the mask bits of lanes 8c .. 8c + 7 */
static inline void kmask(struct em *e, uint32_t c)
{
    bytes(e, "\xc5\xf8\x90\x8d", 4);
    d32(e, (uint32_t)(CTX_MASKW + c));
}

static inline void ld(struct em *e, int y, int base, uint32_t disp)
{
    vex(e, 1, 2, 0, 0x6f);                      /* vmovdqu ymm, m256 */
    modrm_mem(e, y, base, disp);
}

static inline void st(struct em *e, int y, int base, uint32_t disp)
{
    vex(e, 1, 2, 0, 0x7f);                      /* vmovdqu m256, ymm */
    modrm_mem(e, y, base, disp);
}

/* dst = op(src1, src2): map 1 or 2, 66 prefix. */
static inline void op3(struct em *e, int map, uint8_t op, int dst, int s1, int s2)
{
    vex(e, map, 1, s1, op);
    modrm_rr(e, dst, s2);
}

/* vpslld (/6), vpsrld (/2), vpsrad (/4) dst, src, imm8 */
static inline void shift_imm(struct em *e, int ext, int dst, int src, uint8_t n)
{
    vex(e, 1, 1, dst, 0x72);
    modrm_rr(e, ext, src);
    b1(e, n);
}

static inline void rel32_to(struct em *e, const uint8_t *target)
{
    d32(e, (uint32_t)(int32_t)(target - (e->p + 4)));
}

/* mov dword [rbp + d8], imm32 */
static inline void ctx_put(struct em *e, uint8_t off, uint32_t v)
{
    b1(e, 0xc7);
    b1(e, 0x45);
    b1(e, off);
    d32(e, v);
}

/* jcc rel32 to be patched: returns where */
static inline uint8_t *jcc_fwd(struct em *e, uint8_t cc)
{
    uint8_t *fix;

    b1(e, 0x0f);
    b1(e, cc);
    fix = e->p;
    d32(e, 0);
    return fix;
}

static inline void patch_here(struct em *e, uint8_t *fix)
{
    d32(&(struct em){ .p = fix }, (uint32_t)(e->p - (fix + 4)));
}

/*
 * 32-bit general-register operations (the loop mode's scalars, in r8-r15
 * too): a REX prefix where @reg (ModRM.reg) or @rm is r8-r15.
 */
enum { RAX = 0 };

static inline void rex_rr(struct em *e, int reg, int rm)
{
    if ((reg | rm) & 8) {
        b1(e, (uint8_t)(0x40 | (reg & 8 ? 4 : 0) | (rm & 8 ? 1 : 0)));
    }
}

/* @op r/m32 @rm, r32 @reg: mov 0x89, add 0x01, sub 0x29, and 0x21,
 * or 0x09, xor 0x31, cmp 0x39 */
static inline void gop(struct em *e, uint8_t op, int rm, int reg)
{
    rex_rr(e, reg, rm);
    b1(e, op);
    b1(e, (uint8_t)(0xc0 | ((reg & 7) << 3) | (rm & 7)));
}

/* group 1, r32 @rm, imm32: /0 add, /1 or, /4 and, /5 sub, /6 xor, /7 cmp */
static inline void gopi(struct em *e, int ext, int rm, uint32_t imm)
{
    rex_rr(e, 0, rm);
    b1(e, 0x81);
    b1(e, (uint8_t)(0xc0 | (ext << 3) | (rm & 7)));
    d32(e, imm);
}

/* shl (/4), shr (/5), sar (/7) r32 @rm by @n, or by cl if @n < 0 */
static inline void gshift(struct em *e, int ext, int rm, int n)
{
    rex_rr(e, 0, rm);
    b1(e, n < 0 ? 0xd3 : 0xc1);
    b1(e, (uint8_t)(0xc0 | (ext << 3) | (rm & 7)));
    if (n >= 0) {
        b1(e, (uint8_t)n);
    }
}

/* mov r32 @reg, [@base + disp32] (base not rsp, r12 or r13) */
static inline void gld(struct em *e, int reg, int base, uint32_t disp)
{
    rex_rr(e, reg, 0);
    b1(e, 0x8b);
    b1(e, (uint8_t)(0x80 | ((reg & 7) << 3) | base));
    d32(e, disp);
}

#endif /* VX_JIT_EMIT_H */
