/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: Sv32 address translation.
 *
 * A LAUNCH whose SATP dword has MODE set runs its warps in the address
 * space that dword names: two-level RISC-V Sv32 tables in VRAM, 4 KiB
 * pages and 4 MiB megapages, kernels running as user.  The card only
 * reads page tables: it never sets A or D, and faults where the RISC-V
 * privileged spec lets an implementation without hardware A/D updating
 * fault (Svade).  docs/hardware.md ("Address translation") is the
 * contract; this file is its one implementation, shared by every
 * executor, the Debug Module's injected accesses included.
 *
 * Two direct-mapped TLBs serve the whole card: 64 entries for fetches and
 * 1024 for loads and stores, tagged by ASID and never flushed by a
 * LAUNCH, so a context keeps its entries from one job to the next.
 * Fetches have their own TLB so that an executor may keep the current
 * code page's translation for a burst without looking it up again: only
 * fetches fill the ITLB, so nothing can change that entry meanwhile.
 * Between bursts, a warp's memo of it (vx_warp.xlat_code) lives only as
 * long as no TLB changes (vx_sim.tlb_gen).
 * Software invalidates after changing a page table (TLB_* registers or
 * a TLB_INVAL packet); until it does, the card may use the old entry.
 */
#include <string.h>

#include "vx_exec.h"

#define VPN_BITS        20
#define VPN_MASK        ((1u << VPN_BITS) - 1)

static const uint32_t page_fault[] = {
    [VX_ACC_FETCH] = VX_ERR_FETCH_PAGE_FAULT,
    [VX_ACC_LOAD] = VX_ERR_LOAD_PAGE_FAULT,
    [VX_ACC_STORE] = VX_ERR_STORE_PAGE_FAULT,
};

/* Tables or pages outside VRAM: the access faults as without translation. */
static const uint32_t access_fault[] = {
    [VX_ACC_FETCH] = VX_ERR_FETCH_FAULT,
    [VX_ACC_LOAD] = VX_ERR_LOAD_FAULT,
    [VX_ACC_STORE] = VX_ERR_STORE_FAULT,
};

/* VRAM offset of physical address @pa (34 bits in Sv32), if it is VRAM. */
static bool phys_off(const struct vx_sim *sim, uint64_t pa, uint32_t *off)
{
    uint64_t o = pa - VX_VRAM_DEVADDR;

    if (pa < VX_VRAM_DEVADDR || o >= sim->cfg.vram_size) {
        return false;
    }
    *off = (uint32_t)o;
    return true;
}

/* A TLB changed: the executors' memos of them (vx_xlat) are stale. */
static void tlb_changed(struct vx_sim *sim)
{
    if (++sim->tlb_gen != 0) {
        return;
    }
    /* a wrapped generation could match an old memo */
    for (uint32_t g = 0; g < sim->nwarps; g++) {
        struct vx_warp *w = &sim->warps[g];

        memset(w->xlat, 0, sizeof(w->xlat));
        memset(&w->xlat_code, 0, sizeof(w->xlat_code));
    }
}

void vx_mmu_memo_flush(struct vx_sim *sim)
{
    tlb_changed(sim);
}

/*
 * Cache leaf @pte for @va's 4 KiB page at VRAM offset @off.  The entry
 * records what the page allows for the kind of access that loaded it:
 * X in the ITLB; R, and W with D, in the DTLB.  The DTLB never holds a
 * page vx_mmu_untlb() names (the IO_COUT page; local memory is never
 * translated): every data access to it comes back here, so the
 * executors can catch the console's byte stores on their miss path.
 */
static void tlb_fill(struct vx_sim *sim, struct vx_asp asp, uint32_t va,
                     enum vx_acc acc, uint32_t pte, bool mega, uint32_t off)
{
    uint32_t vpn = va >> VX_PAGE_SHIFT, key = asp.khi | vpn;
    struct vx_tlb_entry *e = vx_tlb_set(sim, asp, vpn, acc);
    bool wd = (pte & (VX_PTE_W | VX_PTE_D)) == (VX_PTE_W | VX_PTE_D);

    if (acc != VX_ACC_FETCH && vx_mmu_untlb(va)) {
        return;
    }
    e->tag = key | (mega ? VX_TLB_MEGA : 0);
    tlb_changed(sim);
    if (acc == VX_ACC_FETCH) {
        e->ok[VX_TLB_ACC_READ] = pte & VX_PTE_X ? key : 0;
        e->ok[VX_TLB_ACC_WRITE] = 0;
    } else {
        e->ok[VX_TLB_ACC_READ] = pte & VX_PTE_R ? key : 0;
        e->ok[VX_TLB_ACC_WRITE] = wd ? key : 0;
    }
    e->poff = off;
}

/* Whether leaf @pte allows @acc (A was checked by the walk). */
static bool leaf_allows(uint32_t pte, enum vx_acc acc)
{
    switch (acc) {
    case VX_ACC_FETCH:
        return pte & VX_PTE_X;
    case VX_ACC_LOAD:
        return pte & VX_PTE_R;
    default:
        return (pte & (VX_PTE_W | VX_PTE_D)) == (VX_PTE_W | VX_PTE_D);
    }
}

/*
 * The walk of the privileged spec's "virtual address translation
 * process" for Sv32, minus the A/D updates: V clear or W without R is a
 * page fault at either level; a pointer at level 0 too; a megapage whose
 * PPN[0] is not zero is misaligned; a leaf must have U and A.  Only a
 * leaf that passes those is cached; R/W/X/D are checked per access.
 */
static uint32_t walk(struct vx_sim *sim, uint32_t satp, uint32_t va,
                     enum vx_acc acc, uint32_t *poff)
{
    uint64_t table = (uint64_t)VX_SATP_PPN(satp) << VX_PAGE_SHIFT;
    uint32_t pte = 0, off;
    int level;

    for (level = 1; level >= 0; level--) {
        uint32_t idx = level ? va >> VX_MEGAPAGE_SHIFT
                             : (va >> VX_PAGE_SHIFT) & 0x3ff;

        if (!phys_off(sim, table + 4 * idx, &off)) {
            return access_fault[acc];
        }
        pte = ld32(sim->vram + off);
        if (!(pte & VX_PTE_V) ||
            (pte & (VX_PTE_R | VX_PTE_W)) == VX_PTE_W) {
            return page_fault[acc];
        }
        if (pte & (VX_PTE_R | VX_PTE_X)) {
            break;
        }
        table = (uint64_t)VX_PTE_PPN(pte) << VX_PAGE_SHIFT;
    }
    if (level < 0 || (level == 1 && (VX_PTE_PPN(pte) & 0x3ff)) ||
        !(pte & VX_PTE_U) || !(pte & VX_PTE_A)) {
        return page_fault[acc];
    }
    table = (uint64_t)VX_PTE_PPN(pte) << VX_PAGE_SHIFT;
    if (level == 1) {
        table |= va & ((1u << VX_MEGAPAGE_SHIFT) - (1u << VX_PAGE_SHIFT));
    }
    if (!phys_off(sim, table, &off)) {
        return access_fault[acc];
    }
    tlb_fill(sim, vx_mmu_asp(satp), va, acc, pte, level == 1, off);
    if (!leaf_allows(pte, acc)) {
        return page_fault[acc];
    }
    *poff = off;
    return 0;
}

uint32_t vx_mmu_translate(struct vx_sim *sim, uint32_t satp, uint32_t va,
                          enum vx_acc acc, uint32_t *poff)
{
    struct vx_asp asp = vx_mmu_asp(satp);
    const struct vx_tlb_entry *e = vx_tlb_probe(sim, asp, va, acc);
    uint32_t key = asp.khi | va >> VX_PAGE_SHIFT;

    if (e) {
        *poff = e->poff;
        return 0;
    }
    /* a cached page that refuses the access faults without a walk */
    if ((vx_tlb_set(sim, asp, va >> VX_PAGE_SHIFT, acc)->tag & ~VX_TLB_MEGA) ==
        key) {
        return page_fault[acc];
    }
    return walk(sim, satp, va, acc, poff);
}

/* ------------------------------------------------------- invalidation */

static bool entry_matches(const struct vx_tlb_entry *e, uint32_t cmd,
                          uint32_t asid, uint32_t va)
{
    uint32_t vpn = e->tag & VPN_MASK;

    if (!e->tag) {
        return false;
    }
    if (cmd == VX_TLB_INVAL_ALL) {
        return true;
    }
    if (VX_GET(e->tag, 28, 20) != asid) {
        return false;
    }
    if (cmd == VX_TLB_INVAL_ASID) {
        return true;
    }
    /* a megapage is cached 4 KiB at a time: drop all of it */
    if (e->tag & VX_TLB_MEGA) {
        return vpn >> 10 == va >> VX_MEGAPAGE_SHIFT;
    }
    return vpn == va >> VX_PAGE_SHIFT;
}

static void tlb_inval(struct vx_tlb_entry *tlb, uint32_t n, uint32_t cmd,
                      uint32_t asid, uint32_t va)
{
    for (uint32_t i = 0; i < n; i++) {
        if (entry_matches(&tlb[i], cmd, asid, va)) {
            memset(&tlb[i], 0, sizeof(tlb[i]));
        }
    }
}

bool vx_mmu_inval(struct vx_sim *sim, uint32_t cmd, uint32_t asid, uint32_t va)
{
    if (cmd < VX_TLB_INVAL_ALL || cmd > VX_TLB_INVAL_PAGE ||
        asid > VX_ASID_MAX) {
        return false;
    }
    tlb_inval(sim->itlb, 1u << VX_ITLB_BITS, cmd, asid, va);
    tlb_inval(sim->dtlb, 1u << VX_DTLB_BITS, cmd, asid, va);
    tlb_changed(sim);
    return true;
}

void vx_mmu_reset(struct vx_sim *sim)
{
    memset(sim->itlb, 0, sizeof(sim->itlb));
    memset(sim->dtlb, 0, sizeof(sim->dtlb));
    tlb_changed(sim);
    sim->tlb_asid = 0;
    sim->tlb_va = 0;
}

bool vx_mmu_reg_read(struct vx_sim *sim, uint32_t offset, uint32_t *v)
{
    switch (offset) {
    case VX_REG_TLB_ASID:
        *v = sim->tlb_asid;
        return true;
    case VX_REG_TLB_VA:
        *v = sim->tlb_va;
        return true;
    case VX_REG_TLB_INVAL:
        *v = 0;     /* write-only */
        return true;
    }
    return false;
}

bool vx_mmu_reg_write(struct vx_sim *sim, uint32_t offset, uint32_t v)
{
    switch (offset) {
    case VX_REG_TLB_ASID:
        if (v > VX_ASID_MAX) {
            vx_sim_guest_error(sim, "vortex: TLB_ASID 0x%x has bits above "
                               "8, kept 0x%x", v, v & VX_ASID_MAX);
        }
        sim->tlb_asid = v & VX_ASID_MAX;
        return true;
    case VX_REG_TLB_VA:
        sim->tlb_va = v;
        return true;
    case VX_REG_TLB_INVAL:
        if (!vx_mmu_inval(sim, v, sim->tlb_asid, sim->tlb_va)) {
            vx_sim_guest_error(sim, "vortex: TLB_INVAL 0x%x is no command, "
                               "ignored", v);
        }
        return true;
    }
    return false;
}
