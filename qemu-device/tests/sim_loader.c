/* SPDX-License-Identifier: MIT */
/*
 * Host-side helpers for simulator tests.  The ELF reader trusts nothing:
 * a segment or symbol outside the file or VRAM is an error, not a crash.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_loader.h"

#define CARD_VRAM       (16u << 20)
#define RING_SIZE       0x1000u

struct vx_card *vx_card_new(uint32_t cores, uint32_t warps, uint32_t threads)
{
    struct vx_card *c = calloc(1, sizeof(*c));

    if (!c) {
        return NULL;
    }
    c->cfg.clusters = 1;
    c->cfg.cores = cores;
    c->cfg.warps = warps;
    c->cfg.threads = threads;
    c->cfg.vram_size = CARD_VRAM;
    /* the harness runs each suite once per executor VX_SIM_EXEC names */
    if (vx_sim_exec_parse(getenv("VX_SIM_EXEC"), &c->cfg.exec, NULL, 0)) {
        vx_card_free(c);
        return NULL;
    }
    c->vram = calloc(1, CARD_VRAM);
    c->sim = c->vram ? vx_sim_new(&c->cfg, c->vram, NULL, NULL) : NULL;
    if (!c->sim) {
        vx_card_free(c);
        return NULL;
    }
    return c;
}

void vx_card_free(struct vx_card *c)
{
    if (!c) {
        return;
    }
    if (c->sim) {
        vx_sim_free(c->sim);
    }
    free(c->vram);
    free(c->elf);
    free(c);
}

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (!f) {
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = malloc(n))) {
        if (fread(buf, 1, n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        *size = n;
    }
    fclose(f);
    return buf;
}

static bool in_file(const struct vx_card *c, uint64_t off, uint64_t len)
{
    return off <= c->elf_size && len <= c->elf_size - off;
}

int vx_card_load(struct vx_card *c, const char *path)
{
    const Elf32_Ehdr *eh;

    free(c->elf);
    c->elf = read_file(path, &c->elf_size);
    if (!c->elf || !in_file(c, 0, sizeof(*eh))) {
        return -1;
    }
    eh = (const Elf32_Ehdr *)c->elf;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS32 ||
        eh->e_machine != EM_RISCV ||
        !in_file(c, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf32_Phdr))) {
        return -1;
    }
    for (int i = 0; i < eh->e_phnum; i++) {
        const Elf32_Phdr *ph = (const Elf32_Phdr *)(c->elf + eh->e_phoff) + i;
        uint64_t off = (uint64_t)ph->p_paddr - VX_VRAM_DEVADDR;

        if (ph->p_type != PT_LOAD || ph->p_memsz == 0) {
            continue;
        }
        if (ph->p_paddr < VX_VRAM_DEVADDR || ph->p_filesz > ph->p_memsz ||
            off + ph->p_memsz > c->cfg.vram_size ||
            !in_file(c, ph->p_offset, ph->p_filesz)) {
            return -1;
        }
        memcpy(c->vram + off, c->elf + ph->p_offset, ph->p_filesz);
        memset(c->vram + off + ph->p_filesz, 0, ph->p_memsz - ph->p_filesz);
    }
    c->entry = eh->e_entry;
    return 0;
}

uint32_t vx_card_sym(const struct vx_card *c, const char *name)
{
    const Elf32_Ehdr *eh = (const Elf32_Ehdr *)c->elf;
    const Elf32_Shdr *sh;

    if (!c->elf ||
        !in_file(c, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf32_Shdr))) {
        return 0;
    }
    sh = (const Elf32_Shdr *)(c->elf + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++) {
        const Elf32_Shdr *strs;

        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
            !in_file(c, sh[i].sh_offset, sh[i].sh_size)) {
            continue;
        }
        strs = &sh[sh[i].sh_link];
        for (uint32_t s = 0; s < sh[i].sh_size / sizeof(Elf32_Sym); s++) {
            const Elf32_Sym *sym =
                (const Elf32_Sym *)(c->elf + sh[i].sh_offset) + s;
            uint64_t noff = (uint64_t)strs->sh_offset + sym->st_name;

            if (noff >= (uint64_t)strs->sh_offset + strs->sh_size ||
                !in_file(c, noff, strlen(name) + 1)) {
                continue;
            }
            if (!strcmp(c->elf + noff, name)) {
                return sym->st_value;
            }
        }
    }
    return 0;
}

const char *vx_test_path(const char *name, const char *suffix)
{
    static char buf[4096];
    const char *dir = getenv("VX_TEST_RV_DIR");

    snprintf(buf, sizeof(buf), "%s/%s%s", dir ? dir : VX_TEST_RV_DIR, name,
             suffix);
    return buf;
}

void vx_card_start(struct vx_card *c, uint32_t gid, uint32_t pc, uint32_t mask)
{
    struct vx_tmask m = { { mask } };

    vx_warp_start(c->sim, &c->sim->warps[gid], pc, &m);
}

uint64_t vx_card_run(struct vx_card *c, uint64_t max)
{
    uint64_t total = 0;

    while (total < max && vx_sim_runnable(c->sim)) {
        uint64_t left = max - total;
        uint64_t n = vx_sim_run(c->sim, left < 100000 ? left : 100000);

        total += n;
        if (n == 0 && !vx_sim_runnable(c->sim)) {
            break;
        }
    }
    return total;
}

uint32_t vx_card_rd32(const struct vx_card *c, uint32_t devaddr)
{
    uint32_t v = 0;
    uint64_t off = (uint64_t)devaddr - VX_VRAM_DEVADDR;

    if (devaddr >= VX_VRAM_DEVADDR && off + 4 <= c->cfg.vram_size) {
        memcpy(&v, c->vram + off, 4);
    }
    return v;
}

void vx_card_wr32(struct vx_card *c, uint32_t devaddr, uint32_t v)
{
    uint64_t off = (uint64_t)devaddr - VX_VRAM_DEVADDR;

    if (devaddr >= VX_VRAM_DEVADDR && off + 4 <= c->cfg.vram_size) {
        memcpy(c->vram + off, &v, 4);
    }
}

uint32_t vx_card_reg(struct vx_card *c, uint32_t offset)
{
    return vx_sim_mmio_read(c->sim, offset);
}

void vx_card_launch(struct vx_card *c, uint32_t entry, uint32_t arg,
                    const uint32_t grid[3], const uint32_t block[3],
                    uint32_t stack_base, uint32_t stack_size)
{
    uint32_t ring = VX_VRAM_DEVADDR + c->cfg.vram_size - RING_SIZE;
    uint32_t tail = vx_sim_mmio_read(c->sim, VX_REG_RING_TAIL);
    uint32_t pkt[1 + VX_LAUNCH_NDW] = {
        VX_PKT_HDR(VX_PKT_LAUNCH, VX_LAUNCH_NDW), entry, arg,
        grid[0], grid[1], grid[2], block[0], block[1], block[2],
        stack_base, stack_size, 0, c->satp,
    };

    if (!(vx_sim_mmio_read(c->sim, VX_REG_RING_CTRL) & VX_RING_CTRL_ENABLE)) {
        vx_sim_mmio_write(c->sim, VX_REG_RING_BASE, ring);
        vx_sim_mmio_write(c->sim, VX_REG_RING_SIZE, RING_SIZE);
        vx_sim_mmio_write(c->sim, VX_REG_RING_CTRL, VX_RING_CTRL_ENABLE);
        tail = 0;
    }
    for (unsigned i = 0; i < 1 + VX_LAUNCH_NDW; i++) {
        vx_card_wr32(c, ring + tail, pkt[i]);
        tail = (tail + 4) & (RING_SIZE - 1);
    }
    vx_sim_mmio_write(c->sim, VX_REG_RING_TAIL, tail);
    vx_sim_mmio_write(c->sim, VX_REG_DOORBELL, 1);
}
