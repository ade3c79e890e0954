/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: RV32F.
 *
 * A small integer-only soft-float rather than the host FPU: the results and
 * flags must match qemu-riscv32 bit for bit on any host, RISC-V's
 * round-to-nearest-max-magnitude mode has no x86 equivalent, and host
 * <fenv.h> state is fragile under compiler optimisation.  Every arithmetic
 * operation computes an exact (or sticky-jammed) significand and goes
 * through one rounding routine, f32_pack(), which knows the five rounding
 * modes and detects tininess after rounding, as RISC-V does.
 */
#include <math.h>
#include <string.h>
#include "vx_fpu.h"

enum {
    RM_RNE = 0, RM_RTZ = 1, RM_RDN = 2, RM_RUP = 3, RM_RMM = 4, RM_DYN = 7,
};

#define F32_SIGN        0x80000000u
#define F32_INF         0x7f800000u
#define F32_MAXF        0x7f7fffffu
#define F32_QNAN        0x7fc00000u     /* RISC-V canonical NaN */

static inline bool f32_isnan(uint32_t a)
{
    return (a & ~F32_SIGN) > F32_INF;
}

static inline bool f32_issnan(uint32_t a)
{
    return f32_isnan(a) && !(a & 0x00400000u);
}

static inline bool f32_isinf(uint32_t a)
{
    return (a & ~F32_SIGN) == F32_INF;
}

static inline bool f32_iszero(uint32_t a)
{
    return !(a & ~F32_SIGN);
}

static inline uint64_t shr_jam64(uint64_t x, uint32_t n)
{
    if (n == 0) {
        return x;
    }
    if (n >= 64) {
        return x != 0;
    }
    return (x >> n) | ((x << (64 - n)) != 0);
}

/*
 * Unpack a finite non-zero float into a 24-bit significand with the leading
 * one at bit 23 and an exponent such that value = m * 2^(e - 150).
 */
static void f32_unpack(uint32_t a, uint32_t *m, int32_t *e)
{
    uint32_t exp = (a >> 23) & 0xff;
    uint32_t frac = a & 0x7fffff;

    if (exp == 0) {
        int shift = __builtin_clz(frac) - 8;
        *m = frac << shift;
        *e = 1 - shift;
    } else {
        *m = frac | 0x800000;
        *e = exp;
    }
}

/* The value an overflow rounds to: infinity, or the largest finite. */
static uint32_t f32_overflow(uint32_t sign, uint32_t rm, uint8_t *fl)
{
    bool to_inf = rm == RM_RNE || rm == RM_RMM ||
                  (rm == RM_RUP && !sign) || (rm == RM_RDN && sign);

    *fl |= VX_FFLAG_OF | VX_FFLAG_NX;
    return sign | (to_inf ? F32_INF : F32_MAXF);
}

/* Round @sig (31 bits, 7 of them below the result's lsb) per @rm. */
static uint32_t round_sig(uint32_t sig, uint32_t sign, uint32_t rm)
{
    uint32_t rbits = sig & 0x7f;
    uint32_t inc;

    switch (rm) {
    case RM_RNE:
    case RM_RMM:
        inc = 0x40;
        break;
    case RM_RDN:
        inc = sign ? 0x7f : 0;
        break;
    case RM_RUP:
        inc = sign ? 0 : 0x7f;
        break;
    default:
        inc = 0;
        break;
    }
    sig = (sig + inc) >> 7;
    if (rm == RM_RNE && rbits == 0x40) {
        sig &= ~1u;     /* tie: to even */
    }
    return sig;
}

/*
 * Round and pack sign | value, value = sig * 2^(e - 157) (for a normalised
 * sig the leading one is at bit 30 and e is the biased exponent).  Any sig
 * and e are accepted; lost low bits must already be jammed into bit 0.
 */
static uint32_t f32_pack(uint32_t sign, int32_t e, uint64_t sig,
                         uint32_t rm, uint8_t *fl)
{
    uint32_t s, m;
    int lead;

    if (sig == 0) {
        return sign;
    }
    lead = 63 - __builtin_clzll(sig);
    if (lead > 30) {
        sig = shr_jam64(sig, lead - 30);
        e += lead - 30;
    } else {
        sig <<= 30 - lead;
        e -= 30 - lead;
    }
    s = (uint32_t)sig;

    if (e >= 1) {
        m = round_sig(s, sign, rm);
        if (m >> 24) {
            m >>= 1;
            e++;
        }
        if (e >= 0xff) {
            return f32_overflow(sign, rm, fl);
        }
        if (s & 0x7f) {
            *fl |= VX_FFLAG_NX;
        }
        return sign | ((uint32_t)e << 23) | (m & 0x7fffff);
    }

    /* Subnormal range.  Tiny unless rounding at e = 0 reaches 2^-126. */
    bool tiny = e < 0 || (round_sig(s, sign, rm) >> 24) == 0;
    s = (uint32_t)shr_jam64(s, 1 - e);
    m = round_sig(s, sign, rm);
    if (s & 0x7f) {
        *fl |= VX_FFLAG_NX | (tiny ? VX_FFLAG_UF : 0);
    }
    return sign | m;    /* m == 2^23 gives the smallest normal */
}

/* NaN result of an operation: canonical, NV if any input signals. */
static uint32_t f32_nan2(uint32_t a, uint32_t b, uint8_t *fl)
{
    if (f32_issnan(a) || f32_issnan(b)) {
        *fl |= VX_FFLAG_NV;
    }
    return F32_QNAN;
}

static uint32_t f32_invalid(uint8_t *fl)
{
    *fl |= VX_FFLAG_NV;
    return F32_QNAN;
}

/* Exact zero result of x + y with x = -y: +0, or -0 rounding down. */
static inline uint32_t zero_sum(uint32_t rm)
{
    return rm == RM_RDN ? F32_SIGN : 0;
}

static uint32_t f32_add(uint32_t a, uint32_t b, uint32_t rm, uint8_t *fl)
{
    uint32_t sa = a & F32_SIGN, sb = b & F32_SIGN;
    uint32_t ma, mb;
    int32_t ea, eb;
    uint64_t xa, xb;

    if (f32_isnan(a) || f32_isnan(b)) {
        return f32_nan2(a, b, fl);
    }
    if (f32_isinf(a)) {
        return (f32_isinf(b) && sa != sb) ? f32_invalid(fl) : a;
    }
    if (f32_isinf(b)) {
        return b;
    }
    if (f32_iszero(a) || f32_iszero(b)) {
        if (f32_iszero(a) && f32_iszero(b)) {
            return sa == sb ? a : zero_sum(rm);
        }
        return f32_iszero(a) ? b : a;
    }
    f32_unpack(a, &ma, &ea);
    f32_unpack(b, &mb, &eb);
    /* 32 guard bits; the smaller operand is aligned with a sticky bit. */
    xa = (uint64_t)ma << 32;
    xb = (uint64_t)mb << 32;
    if (ea < eb || (ea == eb && ma < mb)) {
        uint64_t tx = xa;
        int32_t te = ea;
        uint32_t ts = sa;
        xa = xb; ea = eb; sa = sb;
        xb = tx; eb = te; sb = ts;
    }
    xb = shr_jam64(xb, ea - eb);
    if (sa == sb) {
        xa += xb;
    } else {
        xa -= xb;
        if (xa == 0) {
            return zero_sum(rm);
        }
    }
    /* value = x * 2^(ea - 182) */
    return f32_pack(sa, ea - 25, xa, rm, fl);
}

static uint32_t f32_mul(uint32_t a, uint32_t b, uint32_t rm, uint8_t *fl)
{
    uint32_t sign = (a ^ b) & F32_SIGN;
    uint32_t ma, mb;
    int32_t ea, eb;

    if (f32_isnan(a) || f32_isnan(b)) {
        return f32_nan2(a, b, fl);
    }
    if (f32_isinf(a) || f32_isinf(b)) {
        if (f32_iszero(a) || f32_iszero(b)) {
            return f32_invalid(fl);
        }
        return sign | F32_INF;
    }
    if (f32_iszero(a) || f32_iszero(b)) {
        return sign;
    }
    f32_unpack(a, &ma, &ea);
    f32_unpack(b, &mb, &eb);
    /* value = ma * mb * 2^(ea + eb - 300) */
    return f32_pack(sign, ea + eb - 143, (uint64_t)ma * mb, rm, fl);
}

static uint32_t f32_div(uint32_t a, uint32_t b, uint32_t rm, uint8_t *fl)
{
    uint32_t sign = (a ^ b) & F32_SIGN;
    uint32_t ma, mb;
    int32_t ea, eb;
    uint64_t num, q;

    if (f32_isnan(a) || f32_isnan(b)) {
        return f32_nan2(a, b, fl);
    }
    if (f32_isinf(a)) {
        return f32_isinf(b) ? f32_invalid(fl) : (sign | F32_INF);
    }
    if (f32_isinf(b)) {
        return sign;
    }
    if (f32_iszero(b)) {
        if (f32_iszero(a)) {
            return f32_invalid(fl);
        }
        *fl |= VX_FFLAG_DZ;
        return sign | F32_INF;
    }
    if (f32_iszero(a)) {
        return sign;
    }
    f32_unpack(a, &ma, &ea);
    f32_unpack(b, &mb, &eb);
    num = (uint64_t)ma << 40;
    q = num / mb;
    q |= (num % mb) != 0;
    /* value = q * 2^(ea - eb - 40) */
    return f32_pack(sign, ea - eb + 117, q, rm, fl);
}

static uint32_t f32_sqrt(uint32_t a, uint32_t rm, uint8_t *fl)
{
    uint32_t m;
    int32_t e, k;
    uint64_t x, r;

    if (f32_isnan(a)) {
        return f32_nan2(a, a, fl);
    }
    if (f32_iszero(a)) {
        return a;
    }
    if (a & F32_SIGN) {
        return f32_invalid(fl);
    }
    if (f32_isinf(a)) {
        return a;
    }
    f32_unpack(a, &m, &e);
    k = e - 150;        /* value = m * 2^k; make k even */
    x = m;
    if (k & 1) {
        x <<= 1;
        k--;
    }
    x <<= 38;           /* < 2^63, so (r + 1)^2 below cannot overflow */
    r = (uint64_t)sqrt((double)x);
    while (r * r > x) {
        r--;
    }
    while ((r + 1) * (r + 1) <= x) {
        r++;
    }
    r |= r * r != x;
    /* value = r * 2^(k/2 - 19) */
    return f32_pack(0, k / 2 + 138, r, rm, fl);
}

static inline unsigned __int128 shr_jam128(unsigned __int128 x, uint32_t n)
{
    if (n == 0) {
        return x;
    }
    if (n >= 128) {
        return x != 0;
    }
    return (x >> n) | ((x << (128 - n)) != 0);
}

/* Special operands of a * b + c; returns true with *res set if handled. */
static bool f32_fma_special(uint32_t a, uint32_t b, uint32_t c, uint32_t rm,
                            uint8_t *fl, uint32_t *res)
{
    uint32_t sp = (a ^ b) & F32_SIGN;
    bool pinf = f32_isinf(a) || f32_isinf(b);
    bool pzero = f32_iszero(a) || f32_iszero(b);

    /* RISC-V: inf * 0 is invalid even when c is a quiet NaN. */
    if (pinf && pzero && !f32_isnan(a) && !f32_isnan(b)) {
        *fl |= VX_FFLAG_NV;
        *res = F32_QNAN;
        return true;
    }
    if (f32_isnan(a) || f32_isnan(b) || f32_isnan(c)) {
        if (f32_issnan(a) || f32_issnan(b) || f32_issnan(c)) {
            *fl |= VX_FFLAG_NV;
        }
        *res = F32_QNAN;
        return true;
    }
    if (pinf) {
        if (f32_isinf(c) && (c & F32_SIGN) != sp) {
            *res = f32_invalid(fl);
        } else {
            *res = sp | F32_INF;
        }
        return true;
    }
    if (f32_isinf(c)) {
        *res = c;
        return true;
    }
    if (pzero) {
        if (f32_iszero(c)) {
            *res = (c & F32_SIGN) == sp ? c : zero_sum(rm);
        } else {
            *res = c;
        }
        return true;
    }
    if (f32_iszero(c)) {
        *res = f32_mul(a, b, rm, fl);
        return true;
    }
    return false;
}

/* a * b + c with one rounding. */
static uint32_t f32_fma(uint32_t a, uint32_t b, uint32_t c, uint32_t rm,
                        uint8_t *fl)
{
    uint32_t sp = (a ^ b) & F32_SIGN, sc = c & F32_SIGN;
    uint32_t ma, mb, mc;
    int32_t ea, eb, ec, xe, ye;
    unsigned __int128 x, y;
    uint32_t res;

    if (f32_fma_special(a, b, c, rm, fl, &res)) {
        return res;
    }
    f32_unpack(a, &ma, &ea);
    f32_unpack(b, &mb, &eb);
    f32_unpack(c, &mc, &ec);
    /* x * 2^xe is the product, y * 2^ye the addend, both with guard bits. */
    x = (unsigned __int128)((uint64_t)ma * mb) << 40;
    xe = ea + eb - 340;
    y = (unsigned __int128)mc << 64;
    ye = ec - 214;
    if (xe < ye || (xe == ye && x < y)) {
        unsigned __int128 t = x;
        int32_t te = xe;
        uint32_t ts = sp;
        x = y; xe = ye; sp = sc;
        y = t; ye = te; sc = ts;
    }
    /* x has the larger exponent or, at equal exponents, the larger value */
    if (xe > ye) {
        y = shr_jam128(y, xe - ye);
        if (y > x) {
            /* y is larger despite the smaller exponent: swap signs only */
            unsigned __int128 t = x;
            uint32_t ts = sp;
            x = y; sp = sc;
            y = t; sc = ts;
        }
    }
    if (sp == sc) {
        x += y;
    } else {
        x -= y;
        if (x == 0) {
            return zero_sum(rm);
        }
    }
    /* bring x under 2^64 with a sticky bit; value = x * 2^xe */
    int hi = 127 - (x >> 64 ? __builtin_clzll((uint64_t)(x >> 64))
                            : 64 + __builtin_clzll((uint64_t)x));
    uint32_t sh = hi > 62 ? hi - 62 : 0;
    x = shr_jam128(x, sh);
    return f32_pack(sp, xe + sh + 157, (uint64_t)x, rm, fl);
}

/* Integer from float: round per @rm, saturate, flags as RISC-V. */
static uint32_t f32_to_int(uint32_t a, bool is_unsigned, uint32_t rm,
                           uint8_t *fl)
{
    uint32_t sign = a & F32_SIGN;
    uint32_t m;
    int32_t e, s;
    uint64_t mag;
    bool inexact = false;

    if (f32_isnan(a)) {
        *fl |= VX_FFLAG_NV;
        return is_unsigned ? 0xffffffffu : 0x7fffffffu;
    }
    if (f32_iszero(a)) {
        return 0;
    }
    if (f32_isinf(a)) {
        mag = 1ull << 40;
    } else {
        f32_unpack(a, &m, &e);
        s = 150 - e;        /* value = m / 2^s */
        if (s <= 0) {
            mag = -s > 40 ? 1ull << 40 : (uint64_t)m << -s;
        } else {
            uint64_t rem, half;

            if (s > 25) {
                s = 26;     /* m < half: only directed modes round up */
            }
            mag = m >> s;
            rem = m & ((1ull << s) - 1);
            half = 1ull << (s - 1);
            inexact = rem != 0;
            if ((rm == RM_RNE && (rem > half || (rem == half && (mag & 1)))) ||
                (rm == RM_RMM && rem >= half) ||
                (rm == RM_RDN && sign && rem) ||
                (rm == RM_RUP && !sign && rem)) {
                mag++;
            }
        }
    }
    if (is_unsigned) {
        if (sign && mag) {
            *fl |= VX_FFLAG_NV;
            return 0;
        }
        if (mag > 0xffffffffu) {
            *fl |= VX_FFLAG_NV;
            return 0xffffffffu;
        }
    } else if (mag > (sign ? 0x80000000u : 0x7fffffffu)) {
        *fl |= VX_FFLAG_NV;
        return sign ? 0x80000000u : 0x7fffffffu;
    }
    if (inexact) {
        *fl |= VX_FFLAG_NX;
    }
    return sign ? (uint32_t)-mag : (uint32_t)mag;
}

static uint32_t f32_from_int(uint32_t v, bool is_signed, uint32_t rm,
                             uint8_t *fl)
{
    uint32_t sign = 0;

    if (is_signed && (int32_t)v < 0) {
        sign = F32_SIGN;
        v = -v;
    }
    return f32_pack(sign, 157, v, rm, fl);
}

/* a < b (or <= with @or_equal) for non-NaN operands. */
static bool f32_less(uint32_t a, uint32_t b, bool or_equal)
{
    if (f32_iszero(a) && f32_iszero(b)) {
        return or_equal;
    }
    if (a == b) {
        return or_equal;
    }
    if ((a ^ b) & F32_SIGN) {
        return a & F32_SIGN;
    }
    return (a & F32_SIGN) ? a > b : a < b;
}

/* fmin/fmax: IEEE 754-2019 minimumNumber/maximumNumber, -0 < +0. */
static uint32_t f32_minmax(uint32_t a, uint32_t b, bool is_max, uint8_t *fl)
{
    if (f32_issnan(a) || f32_issnan(b)) {
        *fl |= VX_FFLAG_NV;
    }
    if (f32_isnan(a)) {
        return f32_isnan(b) ? F32_QNAN : b;
    }
    if (f32_isnan(b)) {
        return a;
    }
    if (f32_iszero(a) && f32_iszero(b)) {
        return is_max ? (a & b) : (a | b);
    }
    return f32_less(a, b, false) != is_max ? a : b;
}

static uint32_t f32_compare(uint32_t a, uint32_t b, uint32_t f3, uint8_t *fl)
{
    if (f32_isnan(a) || f32_isnan(b)) {
        /* feq is quiet; flt and fle signal on any NaN */
        if (f3 != 2 || f32_issnan(a) || f32_issnan(b)) {
            *fl |= VX_FFLAG_NV;
        }
        return 0;
    }
    switch (f3) {
    case 2:
        return a == b || (f32_iszero(a) && f32_iszero(b));
    case 1:
        return f32_less(a, b, false);
    default:
        return f32_less(a, b, true);
    }
}

static uint32_t f32_class(uint32_t a)
{
    bool neg = a & F32_SIGN;
    uint32_t exp = (a >> 23) & 0xff;

    if (f32_isnan(a)) {
        return f32_issnan(a) ? 1u << 8 : 1u << 9;
    }
    if (f32_isinf(a)) {
        return neg ? 1u << 0 : 1u << 7;
    }
    if (f32_iszero(a)) {
        return neg ? 1u << 3 : 1u << 4;
    }
    if (exp == 0) {
        return neg ? 1u << 2 : 1u << 5;
    }
    return neg ? 1u << 1 : 1u << 6;
}

/* ------------------------------------------------------------- decode */

enum vx_fop {
    FOP_ADD, FOP_SUB, FOP_MUL, FOP_DIV, FOP_SQRT, FOP_SGNJ, FOP_SGNJN,
    FOP_SGNJX, FOP_MIN, FOP_MAX, FOP_CVT_W, FOP_CVT_WU, FOP_MV_XW,
    FOP_CLASS, FOP_CMP, FOP_CVT_SW, FOP_CVT_SWU, FOP_MV_WX,
    FOP_MADD, FOP_MSUB, FOP_NMSUB, FOP_NMADD,
};

struct vx_fdec {
    enum vx_fop op;
    bool uses_rm;       /* funct3 is a rounding mode */
    bool rd_int;        /* result goes to x[rd] */
    bool rs1_int;       /* operand 1 comes from x[rs1] */
    uint32_t f3;
};

/* Decode OP-FP; false if the encoding is not an RV32F instruction. */
static bool fpu_decode_opfp(uint32_t insn, struct vx_fdec *d)
{
    uint32_t f7 = insn >> 25, rs2 = (insn >> 20) & 31, f3 = (insn >> 12) & 7;

    d->f3 = f3;
    d->uses_rm = false;
    d->rd_int = false;
    d->rs1_int = false;
    switch (f7) {
    case 0x00: d->op = FOP_ADD; d->uses_rm = true; return true;
    case 0x04: d->op = FOP_SUB; d->uses_rm = true; return true;
    case 0x08: d->op = FOP_MUL; d->uses_rm = true; return true;
    case 0x0c: d->op = FOP_DIV; d->uses_rm = true; return true;
    case 0x2c:
        d->op = FOP_SQRT;
        d->uses_rm = true;
        return rs2 == 0;
    case 0x10:
        d->op = FOP_SGNJ + f3;
        return f3 <= 2;
    case 0x14:
        d->op = f3 ? FOP_MAX : FOP_MIN;
        return f3 <= 1;
    case 0x60:
        d->op = rs2 ? FOP_CVT_WU : FOP_CVT_W;
        d->uses_rm = true;
        d->rd_int = true;
        return rs2 <= 1;
    case 0x70:
        d->op = f3 ? FOP_CLASS : FOP_MV_XW;
        d->rd_int = true;
        return rs2 == 0 && f3 <= 1;
    case 0x50:
        d->op = FOP_CMP;
        d->rd_int = true;
        return f3 <= 2;
    case 0x68:
        d->op = rs2 ? FOP_CVT_SWU : FOP_CVT_SW;
        d->uses_rm = true;
        d->rs1_int = true;
        return rs2 <= 1;
    case 0x78:
        d->op = FOP_MV_WX;
        d->rs1_int = true;
        return rs2 == 0 && f3 == 0;
    default:
        return false;
    }
}

static bool fpu_decode(uint32_t insn, struct vx_fdec *d)
{
    uint32_t opcode = insn & 0x7f;

    if (opcode == 0x53) {
        return fpu_decode_opfp(insn, d);
    }
    /* R4-type: fmt (bits 26:25) must be 00 = single */
    if ((insn >> 25) & 3) {
        return false;
    }
    d->op = FOP_MADD + ((opcode >> 2) & 3);
    d->uses_rm = true;
    d->rd_int = false;
    d->rs1_int = false;
    d->f3 = (insn >> 12) & 7;
    return true;
}

static uint32_t fpu_op(const struct vx_fdec *d, uint32_t a, uint32_t b,
                       uint32_t c, uint32_t rm, uint8_t *fl)
{
    switch (d->op) {
    case FOP_ADD:     return f32_add(a, b, rm, fl);
    case FOP_SUB:     return f32_add(a, b ^ F32_SIGN, rm, fl);
    case FOP_MUL:     return f32_mul(a, b, rm, fl);
    case FOP_DIV:     return f32_div(a, b, rm, fl);
    case FOP_SQRT:    return f32_sqrt(a, rm, fl);
    case FOP_SGNJ:    return (a & ~F32_SIGN) | (b & F32_SIGN);
    case FOP_SGNJN:   return (a & ~F32_SIGN) | (~b & F32_SIGN);
    case FOP_SGNJX:   return a ^ (b & F32_SIGN);
    case FOP_MIN:     return f32_minmax(a, b, false, fl);
    case FOP_MAX:     return f32_minmax(a, b, true, fl);
    case FOP_CVT_W:   return f32_to_int(a, false, rm, fl);
    case FOP_CVT_WU:  return f32_to_int(a, true, rm, fl);
    case FOP_MV_XW:   return a;
    case FOP_CLASS:   return f32_class(a);
    case FOP_CMP:     return f32_compare(a, b, d->f3, fl);
    case FOP_CVT_SW:  return f32_from_int(a, true, rm, fl);
    case FOP_CVT_SWU: return f32_from_int(a, false, rm, fl);
    case FOP_MV_WX:   return a;
    case FOP_MADD:    return f32_fma(a, b, c, rm, fl);
    case FOP_MSUB:    return f32_fma(a, b, c ^ F32_SIGN, rm, fl);
    case FOP_NMSUB:   return f32_fma(a ^ F32_SIGN, b, c, rm, fl);
    case FOP_NMADD:   return f32_fma(a ^ F32_SIGN, b, c ^ F32_SIGN, rm, fl);
    }
    return 0;
}

uint32_t vx_fpu_exec(struct vx_warp *w, uint32_t threads,
                     const struct vx_tmask *lanes, uint32_t insn,
                     struct vx_tmask *bad)
{
    uint32_t rd = (insn >> 7) & 31, rs1 = (insn >> 15) & 31;
    uint32_t rs2 = (insn >> 20) & 31, rs3 = insn >> 27;
    struct vx_fdec d;

    memset(bad, 0, sizeof(*bad));
    /* frm is the warp's (upstream's fcsr is one per warp) */
    if (!fpu_decode(insn, &d) || (d.uses_rm && (d.f3 == 5 || d.f3 == 6)) ||
        (d.uses_rm && d.f3 == RM_DYN && w->frm > RM_RMM)) {
        *bad = *lanes;
        return VX_ERR_ILLEGAL_INSTR;
    }

    const uint32_t *src1 = d.rs1_int ? &w->x[rs1 * threads]
                                     : &w->f[rs1 * threads];
    const uint32_t *src2 = &w->f[rs2 * threads];
    const uint32_t *src3 = &w->f[rs3 * threads];
    uint32_t *dst = d.rd_int ? &w->x[rd * threads] : &w->f[rd * threads];
    bool write = !(d.rd_int && rd == 0);

    VX_FOR_EACH_LANE(lanes, l) {
        uint32_t rm = d.f3 == RM_DYN ? w->frm : d.f3;
        /* every lane's flags accumulate in the warp's fflags */
        uint32_t v = fpu_op(&d, src1[l], src2[l], src3[l], rm, &w->fflags);

        if (write) {
            dst[l] = v;
        }
    }
    return 0;
}
