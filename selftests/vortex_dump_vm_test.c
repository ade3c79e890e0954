// SPDX-License-Identifier: GPL-2.0
/*
 * Crash dumps of address-space faults: a page fault's PTE walk against
 * the tables the test built (a 4 KiB page and a megapage), and the
 * vm-log's unmap before a use-after-unmap, by handle and by VM_BIND.
 */
#include "vortex_dump_fixture.h"

/*
 * A store to a read-only buffer is a STORE_PAGE_FAULT (docs/hardware.md,
 * "Page tables": a store needs W).  The dump walks its address through the
 * file's tables as the card did and prints each level's PTE, level 1
 * first, as msm's pgtable-fault-info prints its walk: level 1 a pointer
 * (V, no R/W/X) to a level-0 table in VRAM, level 0 the leaf the driver
 * built for a GPU_READ_ONLY buffer at its own address (vortex_vm.c: R, X,
 * U, A, D, no W; PPN the buffer's VRAM page).  The CUDA ELF's faulting
 * lane holds CUDBG_EXCEPTION_LANE_ILLEGAL_ADDRESS (1, cudadebugger.h), as
 * libvortex-debug's exception event says for the same fault
 * (hw/vortex_causes.h, the one map).
 */
TEST_F_TIMEOUT(dump, page_fault_dump_walks_the_page_tables, 60)
{
	uint64_t ro_addr, vram_base, vram_size, leaf;
	unsigned int l1, l0, pte[3];
	const char *f, *pt, *v;
	struct elf_view e;
	int i, nexc = 0;
	uint32_t ro;

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_VRAM_DEVADDR, &vram_base));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_VRAM_SIZE, &vram_size));
	vx_cmd(_vx_bo_create(self->fd, 4096, DRM_VORTEX_BO_GPU_READ_ONLY, &ro, &ro_addr));
	self->data_map[0] = ro_addr;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_store, sizeof(prog_store)));
	ASSERT_NE(NULL, self->text);
	f = section(self->text, "fault-info");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(VX_ERR_STORE_PAGE_FAULT, num(f, "cause"));
	EXPECT_EQ(ro_addr, num(f, "address"));
	EXPECT_EQ(self->code_addr + STORE_PC, num(f, "pc"));

	pt = section(self->text, "pgtable-fault-info");
	ASSERT_NE(NULL, pt);
	EXPECT_EQ(ro_addr, num(pt, "va"));
	v = field(pt, "ptes");
	ASSERT_NE(NULL, v);
	ASSERT_EQ(2, ptes_of(v, pte)) TH_LOG("ptes: %.40s", v);
	l1 = pte[0];
	l0 = pte[1];
	EXPECT_EQ(VX_PTE_V, l1 & (VX_PTE_V | VX_PTE_R | VX_PTE_W | VX_PTE_X));
	EXPECT_LE(vram_base, (uint64_t)VX_PTE_PPN(l1) << VX_PAGE_SHIFT);
	EXPECT_GT(vram_base + vram_size, (uint64_t)VX_PTE_PPN(l1) << VX_PAGE_SHIFT);
	EXPECT_EQ(0, num(pt, "root") & 0xfff);
	leaf = VX_PTE_MAKE(ro_addr >> VX_PAGE_SHIFT, VX_PTE_V | VX_PTE_R | VX_PTE_X |
			   VX_PTE_U | VX_PTE_A | VX_PTE_D);
	EXPECT_EQ(leaf, l0);

	/* Exactly one lane of the ELF faulted: the card's ERR_THREAD. */
	ASSERT_TRUE(elf_from_dump(self->text, &e));
	for (i = 1; i < e.nsh; i++) {
		const uint32_t *row = elf_data(&e, i);
		size_t r;

		if (e.sh[i].sh_type != CUDBG_SHT(15))
			continue;
		for (r = 0; r < e.sh[i].sh_size / 48; r++, row += 12) {
			if (!row[8])
				continue;
			EXPECT_EQ(1, row[8]);	/* CUDBG_EXCEPTION_LANE_ILLEGAL_ADDRESS */
			EXPECT_EQ(num(f, "thread"), row[4]);	/* ln */
			nexc++;
		}
	}
	EXPECT_EQ(1, nexc);
	free(e.buf);
	_vx_bo_close(self->fd, ro);
}

/*
 * A buffer of 4 MiB is mapped with a megapage (vortex_vm.c: 4 MiB aligned,
 * a level-1 leaf): the walk of a store into its read-only middle ends at
 * level 1, on that leaf, "ptes:" one entry.
 */
TEST_F_TIMEOUT(dump, page_fault_dump_walks_a_megapage, 60)
{
	unsigned int pte[3];
	const char *pt, *v;
	uint64_t addr;
	uint32_t bo;

	vx_cmd(_vx_bo_create(self->fd, 4 << 20, DRM_VORTEX_BO_GPU_READ_ONLY, &bo, &addr));
	ASSERT_EQ(0, addr & ((4 << 20) - 1));
	self->data_map[0] = addr + 0x123450;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_store, sizeof(prog_store)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(VX_ERR_STORE_PAGE_FAULT, num(section(self->text, "fault-info"), "cause"));
	pt = section(self->text, "pgtable-fault-info");
	ASSERT_NE(NULL, pt);
	EXPECT_EQ(addr + 0x123450, num(pt, "va"));
	v = field(pt, "ptes");
	ASSERT_NE(NULL, v);
	ASSERT_EQ(1, ptes_of(v, pte)) TH_LOG("ptes: %.40s", v);
	EXPECT_EQ(VX_PTE_MAKE(addr >> VX_PAGE_SHIFT, VX_PTE_V | VX_PTE_R | VX_PTE_X |
			      VX_PTE_U | VX_PTE_A | VX_PTE_D), pte[0]);
	_vx_bo_close(self->fd, bo);
}

/*
 * Use after unmap: a buffer whose handle the program closed (no job of
 * the file running, so its mapping goes at once, vortex_vm.c) and a kernel
 * that loads from it.  The dump's vm-log (msm's format, "op:job:
 * first-end", oldest first) ends with the unmap of exactly that range,
 * after its map; both before the file's first job (job 0).  The walk of
 * the address finds no valid leaf.
 */
TEST_F_TIMEOUT(dump, vm_log_shows_the_unmap_before_the_fault, 60)
{
	char map[96], unmap[96];
	const char *log, *m, *u, *f, *v, *end;
	unsigned int pte[3];
	uint64_t addr;
	uint32_t bo;
	int n;

	vx_cmd(_vx_bo_create(self->fd, 8192, 0, &bo, &addr));
	vx_cmd(_vx_bo_close(self->fd, bo));
	self->data_map[0] = addr + 4;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_load, sizeof(prog_load)));
	ASSERT_NE(NULL, self->text);
	f = section(self->text, "fault-info");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, num(f, "cause"));
	EXPECT_EQ(addr + 4, num(f, "address"));

	log = section(self->text, "vm-log");
	ASSERT_NE(NULL, log);
	snprintf(map, sizeof(map), "  - map:0: 0x%016llx-0x%016llx\n",
		 (unsigned long long)addr, (unsigned long long)addr + 8192);
	snprintf(unmap, sizeof(unmap), "  - unmap:0: 0x%016llx-0x%016llx\n",
		 (unsigned long long)addr, (unsigned long long)addr + 8192);
	m = strstr(log, map);
	u = strstr(log, unmap);
	ASSERT_NE(NULL, m) TH_LOG("no \"%s\" in vm-log", map);
	ASSERT_NE(NULL, u) TH_LOG("no \"%s\" in vm-log", unmap);
	EXPECT_LT(m, u);
	/* The unmap is the log's last entry. */
	end = u + strlen(unmap);
	EXPECT_NE(0, strncmp(end, "  - ", 4)) TH_LOG("after the unmap: %.60s", end);

	v = field(section(self->text, "pgtable-fault-info"), "ptes");
	ASSERT_NE(NULL, v);
	n = ptes_of(v, pte);
	ASSERT_LE(1, n);
	EXPECT_EQ(0, pte[n - 1] & VX_PTE_V);	/* the walk ends on an invalid PTE */
}

/*
 * The same through VM_BIND: a page of the data buffer mapped at a chosen
 * address and unmapped again (no job of the file yet, so at once), then a
 * load from it.  The vm-log's last two entries are that map and unmap.
 */
TEST_F_TIMEOUT(dump, vm_log_shows_a_vm_bind_unmap_before_the_fault, 60)
{
	const uint64_t va = 0x10000000;
	char map[160], unmap[96];
	const char *log, *u;

	vx_cmd(_vx_vm_bind(self->fd, DRM_VORTEX_VM_BIND_OP_MAP, self->data, 0, va, 4096,
			   DRM_VORTEX_VM_BIND_READ | DRM_VORTEX_VM_BIND_WRITE));
	vx_cmd(_vx_vm_bind(self->fd, DRM_VORTEX_VM_BIND_OP_UNMAP, 0, 0, va, 4096, 0));
	self->data_map[0] = va + 8;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_load, sizeof(prog_load)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, num(section(self->text, "fault-info"), "cause"));
	EXPECT_EQ(va + 8, num(section(self->text, "fault-info"), "address"));
	log = section(self->text, "vm-log");
	ASSERT_NE(NULL, log);
	snprintf(map, sizeof(map), "  - map:0: 0x%016llx-0x%016llx\n  - unmap:0: 0x%016llx-0x%016llx\n",
		 (unsigned long long)va, (unsigned long long)va + 4096,
		 (unsigned long long)va, (unsigned long long)va + 4096);
	snprintf(unmap, sizeof(unmap), "  - unmap:0: 0x%016llx-0x%016llx\n",
		 (unsigned long long)va, (unsigned long long)va + 4096);
	u = strstr(log, map);
	ASSERT_NE(NULL, u) TH_LOG("no \"%s\" in vm-log", map);
	u = strstr(u, unmap);
	ASSERT_NE(NULL, u);
	EXPECT_NE(0, strncmp(u + strlen(unmap), "  - ", 4));	/* the last entry */
}

TEST_HARNESS_MAIN
