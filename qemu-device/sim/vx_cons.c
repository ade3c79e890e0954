/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: the console.
 *
 * Upstream Vortex's vx_putchar() stores one byte at IO_COUT_ADDR +
 * (mhartid & (IO_COUT_SIZE - 1)), and its simulators print what each
 * hardware thread stores there.  This card keeps those bytes, in the
 * order the stores execute, in a ring of 4-byte records in VRAM that the
 * driver sets up and drains through the CONS_* registers: each record is
 * the byte and the mhartid of the lane that stored it.  When the ring is
 * full, or not enabled, a byte is dropped and counted instead
 * (CONS_DROPPED), so nothing is lost silently and a kernel never waits
 * for the driver.  There is no interrupt: the driver drains the ring
 * when a job ends.  docs/hardware.md ("Console") is the contract.
 */
#include "vx_exec.h"

void vx_cons_putc(struct vx_sim *sim, uint32_t hart, uint32_t ch)
{
    uint32_t next = (sim->cons_tail + VX_CONS_REC_SIZE) & (sim->cons_size - 1);

    if (!(sim->cons_ctrl & VX_CONS_CTRL_ENABLE) || next == sim->cons_head) {
        sim->cons_dropped++;
        return;
    }
    /* enabling checked that the whole ring is VRAM */
    st32(sim->vram + vx_vram_off(sim->cons_base) + sim->cons_tail,
         VX_CONS_REC_MAKE(hart, ch));
    sim->cons_tail = next;
}

/* The ring BASE and SIZE describe, or why it cannot be enabled. */
static const char *cons_config_check(const struct vx_sim *sim)
{
    uint32_t size = sim->cons_size;

    if (size < VX_CONS_SIZE_MIN || size > VX_CONS_SIZE_MAX ||
        (size & (size - 1))) {
        return "CONS_SIZE is not a power of two of 4 KiB to 16 MiB";
    }
    if (sim->cons_base & (size - 1)) {
        return "CONS_BASE is not aligned to CONS_SIZE";
    }
    if (!vx_vram_range_ok(sim, sim->cons_base, size)) {
        return "the console ring is not in VRAM";
    }
    return NULL;
}

static void cons_ctrl_write(struct vx_sim *sim, uint32_t v)
{
    const char *why;

    if (v & ~VX_CONS_CTRL_ENABLE) {
        vx_sim_guest_error(sim, "vortex: CONS_CTRL reserved bits 0x%x",
                           v & ~VX_CONS_CTRL_ENABLE);
    }
    if (!(v & VX_CONS_CTRL_ENABLE)) {
        sim->cons_ctrl = 0;
        return;
    }
    if (sim->cons_ctrl & VX_CONS_CTRL_ENABLE) {
        return;         /* already on: HEAD and TAIL stay */
    }
    why = cons_config_check(sim);
    if (why) {
        vx_sim_guest_error(sim, "vortex: console not enabled: %s", why);
        return;
    }
    sim->cons_head = 0;
    sim->cons_tail = 0;
    sim->cons_ctrl = VX_CONS_CTRL_ENABLE;
}

bool vx_cons_reg_read(struct vx_sim *sim, uint32_t offset, uint32_t *v)
{
    switch (offset) {
    case VX_REG_CONS_BASE:
        *v = sim->cons_base;
        return true;
    case VX_REG_CONS_SIZE:
        *v = sim->cons_size;
        return true;
    case VX_REG_CONS_HEAD:
        *v = sim->cons_head;
        return true;
    case VX_REG_CONS_TAIL:
        *v = sim->cons_tail;
        return true;
    case VX_REG_CONS_CTRL:
        *v = sim->cons_ctrl;
        return true;
    case VX_REG_CONS_DROPPED:
        *v = sim->cons_dropped;
        return true;
    }
    return false;
}

bool vx_cons_reg_write(struct vx_sim *sim, uint32_t offset, uint32_t v)
{
    bool on = sim->cons_ctrl & VX_CONS_CTRL_ENABLE;

    switch (offset) {
    case VX_REG_CONS_BASE:
    case VX_REG_CONS_SIZE:
        if (on) {
            vx_sim_guest_error(sim, "vortex: CONS_%s written while the "
                               "console is enabled, ignored",
                               offset == VX_REG_CONS_BASE ? "BASE" : "SIZE");
        } else if (offset == VX_REG_CONS_BASE) {
            sim->cons_base = v;
        } else {
            sim->cons_size = v;
        }
        return true;
    case VX_REG_CONS_HEAD:
        if (!on || (v & (VX_CONS_REC_SIZE - 1)) || v >= sim->cons_size) {
            vx_sim_guest_error(sim, "vortex: CONS_HEAD 0x%x is not a record "
                               "offset of the enabled ring, ignored", v);
        } else {
            sim->cons_head = v;
        }
        return true;
    case VX_REG_CONS_CTRL:
        cons_ctrl_write(sim, v);
        return true;
    case VX_REG_CONS_TAIL:
    case VX_REG_CONS_DROPPED:
        vx_sim_guest_error(sim, "vortex: write 0x%x to read-only console "
                           "register 0x%x ignored", v, offset);
        return true;
    }
    return false;
}

void vx_cons_reset(struct vx_sim *sim)
{
    sim->cons_base = 0;
    sim->cons_size = 0;
    sim->cons_head = 0;
    sim->cons_tail = 0;
    sim->cons_ctrl = 0;
    sim->cons_dropped = 0;
}
