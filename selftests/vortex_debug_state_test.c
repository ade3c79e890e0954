// SPDX-License-Identifier: GPL-2.0
/*
 * A halted warp's state through the debugger: registers (GPRs, FPRs,
 * CSRs, the PC) and memory read with the values the test knows and
 * written so that the output changes as predicted; breakpoints hidden in
 * memory reads and kept across writes; buffers read-only to the GPU,
 * closed or freed.
 */
#include "vortex_debug_fixture.h"

/* ------------------------------------------------- breakpoints, regs */

TEST_F_TIMEOUT(dbg, breakpoint_halts_registers_hold_known_values, 60)
{
	struct drm_vortex_debug_warp_state st;
	struct drm_vortex_debug_event ev;
	uint32_t vals[128], l, word;

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	vx_cmd(dbg_bp(self->sfd, self->code_addr + STORE_BP, DRM_VORTEX_DEBUG_BP_SET));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	ASSERT_EQ(0, dbg_event(self->sfd, DRM_VORTEX_DEBUG_EVENT_HALTED, VX_LIVE_MS, &ev));
	EXPECT_EQ(VX_HACAUSE_EBREAK, ev.data[0]);
	EXPECT_EQ(1, ev.data[1]);
	EXPECT_EQ(self->code_addr + STORE_BP, ev.data[3]);
	EXPECT_EQ(self->sub.seqno, ev.job);
	self->warp = ev.data[2];

	vx_cmd(dbg_status(self->sfd, self->warp, &st));
	EXPECT_EQ(DRM_VORTEX_DEBUG_WARP_ACTIVE | DRM_VORTEX_DEBUG_WARP_HALTED |
		  DRM_VORTEX_DEBUG_WARP_ON_BREAKPOINT, st.state);
	EXPECT_EQ(VX_HACAUSE_EBREAK, st.cause);
	EXPECT_EQ(self->code_addr + STORE_BP, st.pc);
	EXPECT_EQ(self->threads >= 32 ? ~0u : (1u << self->threads) - 1,
		  st.thread_mask[0]);

	vx_cmd(dbg_reg(self->sfd, self->warp, T0, self->threads, vals, false));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(100, vals[l]);
	vx_cmd(dbg_reg(self->sfd, self->warp, T1, self->threads, vals, false));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(l, vals[l]);
	vx_cmd(dbg_reg(self->sfd, self->warp, T2, self->threads, vals, false));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(100 + l, vals[l]);
	vx_cmd(dbg_reg(self->sfd, self->warp, T3, self->threads, vals, false));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(self->data_addr + 4 * l, vals[l]);
	vx_cmd(dbg_reg(self->sfd, self->warp, A0, self->threads, vals, false));
	EXPECT_EQ(self->data_addr, vals[0]);
	vx_cmd(dbg_reg(self->sfd, self->warp, X0, 1, vals, false));
	EXPECT_EQ(0, vals[0]);
	/* The borrowed DSCRATCHes read as the program left them (zero). */
	vx_cmd(dbg_reg(self->sfd, self->warp, DRM_VORTEX_DEBUG_REG_CSR(VX_CSR_DSCRATCH(0)),
		       self->threads, vals, false));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(0, vals[l]);

	/* Memory reads hide the breakpoint; the card holds ebreak. */
	vx_cmd(dbg_mem(self->sfd, self->code_addr + STORE_BP, &word, 4, false));
	EXPECT_EQ(prog_store[STORE_BP / 4], word);
	EXPECT_EQ(EBREAK, self->code_map[STORE_BP / 4]);

	EXPECT_EQ(0, resume_and_wait(_metadata, self));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(100 + l, self->data_map[l]);
	/* The breakpoint stays, and clearing it restores the word. */
	EXPECT_EQ(EBREAK, self->code_map[STORE_BP / 4]);
	vx_cmd(dbg_bp(self->sfd, self->code_addr + STORE_BP, DRM_VORTEX_DEBUG_BP_CLEAR));
	EXPECT_EQ(prog_store[STORE_BP / 4], self->code_map[STORE_BP / 4]);
}

/* A register written at the breakpoint is what the kernel then stores. */
TEST_F_TIMEOUT(dbg, write_register_changes_output, 60)
{
	uint32_t vals[128], l;
	struct drm_vortex_debug_reg_op op = {
		.reg = T2, .lanes = { 1u << 1 },
		.values = (uintptr_t)vals, .flags = DRM_VORTEX_DEBUG_REG_WRITE,
	};
	struct drm_vortex_debug_regs r = { .ops = (uintptr_t)&op, .count = 1,
		.stride = sizeof(op) };

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	vx_cmd(dbg_bp(self->sfd, self->code_addr + STORE_BP, DRM_VORTEX_DEBUG_BP_SET));
	vx_cmd(_vx_submit(self->fd, &self->sub));

	/* t2 of lane 1 only: the other lanes keep theirs. */
	op.warp = self->warp = halted_warp(_metadata, self->sfd);
	vals[0] = 0x5eed;
	vx_cmd(dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_REGS, &r));
	EXPECT_EQ(1, r.done);
	vx_cmd(dbg_reg(self->sfd, self->warp, T2, self->threads, vals, false));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(l == 1 ? 0x5eed : 100 + l, vals[l]);

	EXPECT_EQ(0, resume_and_wait(_metadata, self));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(l == 1 ? 0x5eed : 100 + l, self->data_map[l]);
}

/* FPRs and CSRs go through a borrowed x5, which must not change. */
TEST_F_TIMEOUT(dbg, fpr_and_csr_access_keeps_x5, 60)
{
	uint32_t vals[128], x5[128], l;

	ATTACH_SUBMIT_HALTED();
	for (l = 0; l < self->threads; l++)
		vals[l] = 0x3f800000u + l;	/* 1.0f + ulps */
	vx_cmd(dbg_reg(self->sfd, self->warp, T0, self->threads, x5, false));
	vx_cmd(dbg_reg(self->sfd, self->warp, DRM_VORTEX_DEBUG_REG_F(3), self->threads, vals, true));
	memset(vals, 0, sizeof(vals));
	vx_cmd(dbg_reg(self->sfd, self->warp, DRM_VORTEX_DEBUG_REG_F(3), self->threads, vals, false));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(0x3f800000u + l, vals[l]);
	vx_cmd(dbg_reg(self->sfd, self->warp, DRM_VORTEX_DEBUG_REG_CSR(VX_CSR_MHARTID),
		       self->threads, vals, false));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(self->warp * self->threads + l, vals[l]);
	vx_cmd(dbg_reg(self->sfd, self->warp, DRM_VORTEX_DEBUG_REG_FCSR, 1, vals, false));
	EXPECT_EQ(0, vals[0]);
	vx_cmd(dbg_reg(self->sfd, self->warp, T0, self->threads, vals, false));
	EXPECT_EQ(0, memcmp(x5, vals, self->threads * 4));
}

/* A word of memory written while halted is what the kernel then loads. */
TEST_F_TIMEOUT(dbg, write_memory_changes_output, 60)
{
	uint32_t in = 5000, l;

	ATTACH_SUBMIT_HALTED();
	vx_cmd(dbg_mem(self->sfd, self->data_addr + IN_OFF, &in, 4, true));
	EXPECT_EQ(5000, self->data_map[IN_OFF / 4]);
	EXPECT_EQ(0, resume_and_wait(_metadata, self));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(5000 + l, self->data_map[l]);
}

/* A write into code is seen by the next fetch. */
TEST_F_TIMEOUT(dbg, write_into_code_is_fetched, 60)
{
	uint32_t insn = ADDI(T2, X0, 77), l;

	ATTACH_SUBMIT_HALTED();
	/* t2 = in + lane becomes t2 = 77 */
	vx_cmd(dbg_mem(self->sfd, self->code_addr + 0x08, &insn, 4, true));
	EXPECT_EQ(0, resume_and_wait(_metadata, self));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(77, self->data_map[l]) TH_LOG("lane %u", l);
}

/* The PC reads as the DM's DPC, and a write redirects the warp. */
TEST_F_TIMEOUT(dbg, pc_register_reads_and_redirects, 60)
{
	uint32_t vals[128], l;

	ATTACH_SUBMIT_HALTED();
	vx_cmd(dbg_reg(self->sfd, self->warp, DRM_VORTEX_DEBUG_REG_PC,
		       self->threads, vals, false));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(self->code_addr, vals[l]);
	/* Skip the load of the input: t0 stays 0, out[lane] = lane. */
	vals[0] = self->code_addr + 4;
	vx_cmd(dbg_reg(self->sfd, self->warp, DRM_VORTEX_DEBUG_REG_PC, 1, vals, true));
	vx_cmd(dbg_reg(self->sfd, self->warp, DRM_VORTEX_DEBUG_REG_PC, 1, vals, false));
	EXPECT_EQ(self->code_addr + 4, vals[0]);
	EXPECT_EQ(0, resume_and_wait(_metadata, self));
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(l, self->data_map[l]);
}

/* A CSR the program may not write is -EIO, and x5 is given back. */
TEST_F_TIMEOUT(dbg, read_only_csr_write_eio_keeps_x5, 60)
{
	uint32_t vals[128] = { 0x77 };

	ATTACH_SUBMIT_HALTED();
	vx_cmd(dbg_reg(self->sfd, self->warp, T0, 1, vals, true));
	vals[0] = 1;
	EXPECT_EQ(-EIO, dbg_reg(self->sfd, self->warp,
				DRM_VORTEX_DEBUG_REG_CSR(VX_CSR_MHARTID), 1, vals, true));
	vx_cmd(dbg_reg(self->sfd, self->warp, T0, 1, vals, false));
	EXPECT_EQ(0x77, vals[0]);
	EXPECT_EQ(0, resume_and_wait(_metadata, self));
}

/* A write over a breakpoint changes what it will execute; ebreak stays. */
TEST_F(dbg, mem_write_over_a_breakpoint_keeps_it)
{
	uint32_t word = ADDI(T2, X0, 55);

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	vx_cmd(dbg_bp(self->sfd, self->code_addr + 8, DRM_VORTEX_DEBUG_BP_SET));
	vx_cmd(dbg_mem(self->sfd, self->code_addr + 8, &word, 4, true));
	EXPECT_EQ(EBREAK, self->code_map[2]);
	word = 0;
	vx_cmd(dbg_mem(self->sfd, self->code_addr + 8, &word, 4, false));
	EXPECT_EQ(ADDI(T2, X0, 55), word);
	vx_cmd(dbg_bp(self->sfd, self->code_addr + 8, DRM_VORTEX_DEBUG_BP_CLEAR));
	EXPECT_EQ(ADDI(T2, X0, 55), self->code_map[2]);
}

/*
 * A read shows the words breakpoints replaced, whatever part of a word it
 * covers: the driver copies VRAM straight to the user and puts the kept
 * words back over the ebreaks (vortex_debug_mem_read()).
 */
TEST_F(dbg, mem_read_hides_breakpoints_at_every_offset)
{
	static const struct { uint32_t off, len; } reads[] = {
		{ 0, 4096 }, { 8, 4 }, { 10, 2 }, { 7, 3 }, { 11, 1 },
		{ 9, 10 }, { 16, 1 }, { 4, 16 },
	};
	uint8_t orig[4096], buf[4096 + 1];
	size_t i;

	memcpy(orig, (void *)self->code_map, sizeof(orig));
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	vx_cmd(dbg_bp(self->sfd, self->code_addr + 8, DRM_VORTEX_DEBUG_BP_SET));
	vx_cmd(dbg_bp(self->sfd, self->code_addr + 16, DRM_VORTEX_DEBUG_BP_SET));
	ASSERT_EQ(EBREAK, self->code_map[2]);
	ASSERT_EQ(EBREAK, self->code_map[4]);
	for (i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		memset(buf, 0xee, sizeof(buf));
		vx_cmd(dbg_mem(self->sfd, self->code_addr + reads[i].off, buf,
			       reads[i].len, false));
		EXPECT_EQ(0, memcmp(buf, orig + reads[i].off, reads[i].len))
			TH_LOG("read of %u bytes at +%u", reads[i].len, reads[i].off);
		EXPECT_EQ(0xee, buf[reads[i].len]) TH_LOG("wrote past %u bytes", reads[i].len);
	}
}

/* Bulk memory through the debugger equals the buffer, byte for byte. */
TEST_F(dbg, mem_bulk_read_and_write_match_the_buffer)
{
	uint8_t *buf = malloc(DATA_SIZE);
	uint32_t i;

	ASSERT_NE(NULL, buf);
	for (i = 0; i < DATA_SIZE / 4; i++)
		self->data_map[i] = i * 2654435761u;
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	vx_cmd(dbg_mem(self->sfd, self->data_addr, buf, DATA_SIZE, false));
	EXPECT_EQ(0, memcmp(buf, (void *)self->data_map, DATA_SIZE));
	for (i = 0; i < DATA_SIZE; i++)
		buf[i] = i ^ 0x5a;
	vx_cmd(dbg_mem(self->sfd, self->data_addr + 3, buf, DATA_SIZE - 3, true));
	EXPECT_EQ(0, memcmp(buf, (uint8_t *)self->data_map + 3, DATA_SIZE - 3));
	free(buf);
}

/* A buffer the target closed is out of its space for the debugger too. */
TEST_F(dbg, mem_of_a_closed_buffer_is_enxio)
{
	uint32_t h, word = 0;
	uint64_t addr;

	vx_cmd(_vx_bo_create(self->fd, 4096, 0, &h, &addr));
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	vx_cmd(dbg_mem(self->sfd, addr, &word, 4, false));
	vx_cmd(_vx_bo_close(self->fd, h));
	EXPECT_EQ(-ENXIO, dbg_mem(self->sfd, addr, &word, 4, false));
	EXPECT_EQ(-ENXIO, dbg_bp(self->sfd, addr, DRM_VORTEX_DEBUG_BP_SET));
}

/*
 * A buffer's GPU access flags bind the target's kernels, not its
 * debugger (as ptrace writes read-only text): MEM writes into a
 * read-only, no-exec buffer, across its page boundary, and reads back
 * what it wrote, the CPU's mapping sees it, and the flags are still
 * there.
 */
TEST_F(dbg, mem_write_reaches_a_gpu_read_only_buffer)
{
	const uint32_t flags = DRM_VORTEX_BO_GPU_READ_ONLY | DRM_VORTEX_BO_GPU_NO_EXEC;
	uint32_t h, *map, in[3] = { 0x11111111u, 0x22222222u, 0x33333333u }, out[3];
	struct drm_vortex_bo_info info;
	uint64_t addr;

	vx_cmd(_vx_bo_create(self->fd, 8192, flags, &h, &addr));
	map = vx_bo_map(self->fd, h, NULL);
	ASSERT_NE(NULL, map);
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	vx_cmd(dbg_mem(self->sfd, addr + 4094, in, sizeof(in), true));
	vx_cmd(dbg_mem(self->sfd, addr + 4094, out, sizeof(out), false));
	EXPECT_EQ(0, memcmp(in, out, sizeof(in)));
	EXPECT_EQ(0, memcmp((char *)map + 4094, in, sizeof(in)));
	info = (struct drm_vortex_bo_info){ .handle = h };
	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_VORTEX_BO_INFO, &info));
	EXPECT_EQ(flags, info.flags);
	munmap(map, 8192);
	vx_cmd(_vx_bo_close(self->fd, h));
}

/*
 * A breakpoint keeps the memory under it: the target frees the buffer,
 * and until the breakpoint is cleared no new buffer gets that memory (a
 * best-fit allocator would hand the exact hole out first).
 */
TEST_F(dbg, breakpoint_holds_a_freed_buffers_memory)
{
	uint32_t h, h2[8], *map, i;
	uint64_t addr, addr2;

	vx_cmd(_vx_bo_create(self->fd, 4096, 0, &h, &addr));
	map = vx_bo_map(self->fd, h, NULL);
	ASSERT_NE(NULL, map);
	map[0] = prog_store[0];
	munmap(map, 4096);
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	vx_cmd(dbg_bp(self->sfd, addr, DRM_VORTEX_DEBUG_BP_SET));
	vx_cmd(_vx_bo_close(self->fd, h));
	for (i = 0; i < 8; i++) {
		vx_cmd(_vx_bo_create(self->fd, 4096, 0, &h2[i], &addr2));
		EXPECT_NE(addr, addr2) TH_LOG("buffer %u got the breakpoint's memory", i);
	}
	/* Still the target's breakpoint: clearing it works. */
	vx_cmd(dbg_bp(self->sfd, addr, DRM_VORTEX_DEBUG_BP_CLEAR));
	for (i = 0; i < 8; i++)
		vx_cmd(_vx_bo_close(self->fd, h2[i]));
}

TEST_HARNESS_MAIN
