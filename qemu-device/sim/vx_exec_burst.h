/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: the body of the burst executors, included by
 * vx_exec_fast.c once per vector width (VL lanes, types VEC/VECS) as the
 * static function VX_BURST_FN with attributes VX_BURST_ATTR, for
 * untranslated launches or, with VX_BURST_MMU = 1, translated ones.  The building
 * blocks (ALU_RR, LOAD, ...) are vx_exec_fast.c's macros.  No include
 * guard: this is a template.  vx_exec_burst() calls it with @max > 0 and
 * lanes to run.
 */

static __attribute__((noinline)) VX_BURST_ATTR enum vx_exec_result
VX_BURST_FN(struct vx_sim *sim, struct vx_warp *w, uint64_t max, uint64_t *used)
{
    const uint32_t T = sim->cfg.threads;
    /* in a local: a store to VRAM could alias sim->cfg for the compiler */
    const uint64_t vram_size __attribute__((unused)) = sim->cfg.vram_size;
    /* the VRAM loads and stores reach with one test (vx_sim.vram_flat) */
    const uint64_t vram_flat = sim->vram_flat;
    /* vx_vram_range_ok() for a whole warp's consecutive words at offset o */
    const uint32_t lim4 = (uint32_t)(vram_flat - 4 * T);
    const uint32_t lim4k = 4096 - 4 * T;    /* the same in a 4 KiB page */
    /*
     * Translated, only TLB probes need VRAM's address: they take it from
     * sim, leaving the register to the hot path.
     */
    uint8_t *const vram = VX_BURST_MMU ? NULL : sim->vram;
    uint32_t *const X = w->x, *const F = w->f;
    /* branches whose lanes disagree stop the card (not rtl_branch) */
    const bool dvg_check = !sim->cfg.rtl_branch;
    enum vx_exec_result r;
    uint32_t pc = w->pc, lane0, laneN;
    /*
     * Slots left; the instructions run so far are max - left, and those
     * not yet added to w->cycle and w->instret are max - left - synced.
     */
    uint64_t left = max, synced = 0;
    uint32_t VT;        /* T if every lane is active and T % 8 == 0, else 0 */
#if VX_BURST_MMU
    /*
     * The code page: its virtual address and host address.  pc - cpage
     * has no bits of 0xfffff003 for an aligned PC in it, the test the
     * untranslated fetch makes of pc - VX_VRAM_DEVADDR (so a misaligned
     * PC never matches, and goes where vx_exec_code_page() faults).
     */
    uint32_t cpage;
    const uint8_t *code;

    /* the memo (vx_xlat) holds only what the TLBs say now */
#define XLAT_SYNC()                                                     \
    do {                                                                \
        if (__builtin_expect(w->xlat_gen != sim->tlb_gen ||             \
                             w->xlat_satp != w->satp, 0)) {             \
            memset(w->xlat, 0, sizeof(w->xlat));                        \
            memset(&w->xlat_code, 0, sizeof(w->xlat_code));             \
            w->xlat_gen = sim->tlb_gen;                                 \
            w->xlat_satp = w->satp;                                     \
        }                                                               \
    } while (0)
    XLAT_SYNC();
    /*
     * The last burst's code page, not probed again while it is the PC's;
     * else one the PC is not in, so that the first fetch looks it up.
     */
    cpage = pc & ~0xfffu;
    if (w->xlat_code.key != (cpage | VX_XLAT_VALID)) {
        cpage ^= 0x1000;
    }
    code = w->xlat_code.host;
#endif

    VT = (T & 7) == 0 && tmask_is_full(&w->tmask, T) ? T : 0;
    lane0 = first_lane(&w->tmask);
    laneN = last_lane(&w->tmask);       /* jumps and branches follow it */

    while (left) {
        uint32_t word;
        struct vx_dinsn *d;

        left--;
#if VX_BURST_MMU
        if (__builtin_expect((pc - cpage) & 0xfffff003u, 0)) {
            /* an ITLB hit inline, as vx_mmu_translate() would find it */
            const struct vx_tlb_entry *e = (pc & 3) ? NULL :
                vx_tlb_probe(sim, vx_mmu_asp(w->satp), pc, VX_ACC_FETCH);

            if (e) {
                code = sim->vram + e->poff;
            } else {
                w->pc = pc;
                code = vx_exec_code_page(sim, w);
                if (!code) {
                    w->cycle += max - left - synced;
                    w->instret += max - left - synced - 1;
                    *used = max - left;
                    return VX_EXEC_FAULT;
                }
                XLAT_SYNC();
            }
            cpage = pc & ~0xfffu;
            w->xlat_code = (struct vx_xlat){ cpage | VX_XLAT_VALID,
                                             (uint8_t *)code };
        }
        word = ld32(code + (pc - cpage));
#else
        if (!vx_vram_pc_ok(vram_size, pc)) {
            w->pc = pc;
            w->cycle += max - left - synced;
            w->instret += max - left - synced - 1;
            *used = max - left;
            return vx_exec_fetch_fault(sim, w);
        }
        word = ld32(vram + vx_vram_off(pc));
#endif
        d = &sim->dcache[(pc >> 2) & DCACHE_MASK];
        if (__builtin_expect(d->pc != pc || d->insn != word, 0)) {
            decode(sim, d, pc, word);
        }
        switch ((enum dop)d->op) {
        case D_NOP:  pc += 4; break;
        case D_ADDI: ALU_RI(a + b, a + b); break;
        case D_SLTI: ALU_RI(SLTI_V, SLT_S); break;
        case D_SLTIU: ALU_RI(SLTU_V, SLTU_S); break;
        case D_XORI: ALU_RI(a ^ b, a ^ b); break;
        case D_ORI:  ALU_RI(a | b, a | b); break;
        case D_ANDI: ALU_RI(a & b, a & b); break;
        case D_SLLI: ALU_RI(a << b, a << b); break;
        case D_SRLI: ALU_RI(a >> b, a >> b); break;
        case D_SRAI: ALU_RI((VEC)((VECS)a >> (int32_t)b),
                            (uint32_t)((int32_t)a >> b)); break;
        case D_ADD:  ALU_RR(a + b, a + b); break;
        case D_SUB:  ALU_RR(a - b, a - b); break;
        case D_SLL:  ALU_RR(a << (b & 31), a << (b & 31)); break;
        case D_SLT:  ALU_RR(SLT_V, SLT_S); break;
        case D_SLTU: ALU_RR(SLTU_V, SLTU_S); break;
        case D_XOR:  ALU_RR(a ^ b, a ^ b); break;
        case D_SRL:  ALU_RR(a >> (b & 31), a >> (b & 31)); break;
        case D_SRA:  ALU_RR((VEC)((VECS)a >> (VECS)(b & 31)),
                            (uint32_t)((int32_t)a >> (b & 31))); break;
        case D_OR:   ALU_RR(a | b, a | b); break;
        case D_AND:  ALU_RR(a & b, a & b); break;
        case D_MUL:  ALU_RR(a * b, a * b); break;
        case D_LI:
            UNIFORM(d->rd, d->imm);
            pc += 4;
            break;
        case D_JAL:
            if (d->rd) {
                UNIFORM(d->rd, pc + 4);
            }
            pc = d->imm;
            break;
        case D_JALR: {
            /* the target first: rd may be rs1 */
            uint32_t target = (X[d->rs1 + laneN] + d->imm) & ~1u;

            if (target & 3) {
                goto slow;      /* faults on the jump */
            }
            if (d->rd) {
                UNIFORM(d->rd, pc + 4);
            }
            pc = target;
            break;
        }
        case D_BEQ:  BRANCH(a == b); break;
        case D_BNE:  BRANCH(a != b); break;
        case D_BLT:  BRANCH((int32_t)a < (int32_t)b); break;
        case D_BGE:  BRANCH((int32_t)a >= (int32_t)b); break;
        case D_BLTU: BRANCH(a < b); break;
        case D_BGEU: BRANCH(a >= b); break;
        case D_LB:   LOAD(1, X, LD_B, 0); break;
        case D_LH:   LOAD(2, X, LD_H, 1); break;
        case D_LW:   LOAD(4, X, ld32, 2); break;
        case D_LBU:  LOAD(1, X, LD_BU, 4); break;
        case D_LHU:  LOAD(2, X, LD_HU, 5); break;
        case D_FLW:  LOAD(4, F, ld32, 2); break;
        case D_SB:   STORE(1, X, ST_B); break;
        case D_SH:   STORE(2, X, st16); break;
        case D_SW:   STORE(4, X, st32); break;
        case D_FSW:  STORE(4, F, st32); break;
        default:
            goto slow;
        }
        continue;

    slow:
        /* out of line, with the warp's state where the callee looks */
        w->pc = pc;
        w->cycle += max - left - synced;
        w->instret += max - left - synced - 1;
        synced = max - left;
        if (d->op == D_SIMT) {
            /* moves pc, reports faults */
            r = vx_simt_exec(sim, w, d->insn);
        } else {
            r = vx_exec_one(sim, w, d->insn);
        }
        if (r != VX_EXEC_OK) {
            /*
             * The warp may be gone (its slot even reused by the CP): the
             * callee left it as it must be.  A parked bar did retire.
             */
            if (r == VX_EXEC_WAIT) {
                w->instret++;
            }
            *used = max - left;
            return r;
        }
        w->instret++;
        if (__builtin_expect(sim->resv_live != 0, 0)) {
            /* an LR reserved: only the reference executor's stores look */
            uint64_t n;

            r = vx_exec_ref(sim, w, left, &n);
            *used = max - left + n;
            return r;
        }
        pc = w->pc;
#if VX_BURST_MMU
        XLAT_SYNC();
#endif
        /* a Vortex op may change the mask (never to empty: that ends) */
        VT = (T & 7) == 0 && tmask_is_full(&w->tmask, T) ? T : 0;
        lane0 = first_lane(&w->tmask);
        laneN = last_lane(&w->tmask);
    }
    w->pc = pc;
    w->cycle += max - synced;
    w->instret += max - synced;
    *used = max;
    return VX_EXEC_OK;
}

#if VX_BURST_MMU
#undef XLAT_SYNC
#endif
