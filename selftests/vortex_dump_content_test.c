// SPDX-License-Identifier: GPL-2.0
/*
 * Crash dumps, what one holds: a hang's ring, buffers (trailing zero
 * words left out), warps and every register of every active lane; a
 * device exception's fault, an assert's message, a misaligned jump; the
 * header's pid, card job and version; buffer labels and NO_DUMP buffers;
 * a warp parked at a barrier; the console; the CUDA ELF's global sections
 * and its compressed form.  The bytes are decoded with the fixture's own
 * ascii85 decoder and compared against what the test uploaded.
 */
#include "vortex_dump_fixture.h"

/* The CUDA ELF of a hang: identity, the tables' shape, the same registers. */
static void check_hang_elf(struct __test_metadata *_metadata,
			   FIXTURE_DATA(dump) *self)
{
	struct elf_view e;
	int dev, ctx, grid, sm, regs0, regs1, glob, i;
	const uint32_t *devrow, *r;
	const uint64_t *gridrow;
	char name[96];

	ASSERT_TRUE(elf_from_dump(self->text, &e));
	EXPECT_EQ(0, memcmp(e.eh->e_ident, ELFMAG, SELFMAG));
	EXPECT_EQ(ELFCLASS64, e.eh->e_ident[EI_CLASS]);
	EXPECT_EQ(0x33, e.eh->e_ident[EI_OSABI]);
	EXPECT_EQ(7, e.eh->e_ident[EI_ABIVERSION]);
	EXPECT_EQ(ET_CORE, e.eh->e_type);
	EXPECT_EQ(0xbe, e.eh->e_machine);
	EXPECT_STREQ(".strtab", e.str + e.sh[e.strndx].sh_name);
	EXPECT_EQ(SHT_STRTAB, e.sh[e.strndx].sh_type);

	dev = elf_index(&e, ".cudbg.devtbl");
	ASSERT_LT(0, dev);
	EXPECT_EQ(CUDBG_SHT(9), e.sh[dev].sh_type);
	EXPECT_EQ(80, e.sh[dev].sh_entsize);
	EXPECT_EQ(80, e.sh[dev].sh_size);
	devrow = elf_data(&e, dev);
	EXPECT_STREQ("Vortex", e.str + ((const uint64_t *)devrow)[0]);
	/* What cuda-gdb 12.4 parses (issue 38); the ISA is in the note. */
	EXPECT_STREQ("sm_75", e.str + ((const uint64_t *)devrow)[2]);
	EXPECT_EQ(self->threads, devrow[6 + 5]);	/* numLanesPerWarp */
	EXPECT_EQ(255, devrow[6 + 6]);			/* numRegsPerLane */
	EXPECT_EQ(7, devrow[6 + 8]);			/* smMajor */
	EXPECT_EQ(5, devrow[6 + 9]);			/* smMinor */
	EXPECT_EQ(4, devrow[6 + 10]);			/* instructionSize */
	i = elf_index(&e, ".note.vortex.isa");
	ASSERT_LT(0, i);
	ASSERT_EQ(32, e.sh[i].sh_size);
	r = elf_data(&e, i);
	EXPECT_EQ(3, r[2]);				/* type */
	EXPECT_EQ(0, memcmp(&r[3], "Vortex", 7));
	EXPECT_EQ(num(self->text, "revision"), r[5]);
	EXPECT_STREQ("rv32imf", (const char *)&r[6]);
	ctx = elf_index(&e, ".cudbg.ctxtbl.dev0");
	ASSERT_LT(0, ctx);
	EXPECT_EQ(CUDBG_SHT(10), e.sh[ctx].sh_type);
	EXPECT_EQ(dev, e.sh[ctx].sh_link);
	grid = elf_index(&e, ".cudbg.gridtbl.dev0");
	ASSERT_LT(0, grid);
	EXPECT_EQ(120, e.sh[grid].sh_entsize);
	EXPECT_EQ(dev, e.sh[grid].sh_link);
	gridrow = elf_data(&e, grid);
	EXPECT_EQ(self->sub.seqno, gridrow[0]);
	EXPECT_EQ(self->code_addr, gridrow[3]);		/* functionEntry */
	EXPECT_EQ(self->threads, ((const uint32_t *)(gridrow + 7))[7]);	/* blockDimX */
	/*
	 * The code object, whole, zero tail included: raw code, so not the
	 * module's image, which CUDA readers load as an ELF (issue 38): that
	 * is a bare RISC-V ELF header.
	 */
	i = elf_index(&e, ".vortex.code");
	ASSERT_LT(0, i);
	EXPECT_EQ(sizeof(prog_hang) + 8, e.sh[i].sh_size);
	EXPECT_EQ(0, memcmp(elf_data(&e, i), self->code_map, sizeof(prog_hang) + 8));
	i = elf_index(&e, ".cudbg.relfimg.dev0.ctx0");
	ASSERT_LT(0, i);
	EXPECT_EQ(CUDBG_SHT(7), e.sh[i].sh_type);
	ASSERT_EQ(sizeof(Elf32_Ehdr), e.sh[i].sh_size);
	EXPECT_EQ(0, memcmp(elf_data(&e, i), ELFMAG, SELFMAG));
	EXPECT_EQ(ELFCLASS32, ((const uint8_t *)elf_data(&e, i))[EI_CLASS]);
	EXPECT_EQ(EM_RISCV, ((const Elf32_Ehdr *)elf_data(&e, i))->e_machine);
	sm = elf_index(&e, ".cudbg.smtbl.dev0");
	ASSERT_LT(0, sm);
	EXPECT_EQ(dev, e.sh[sm].sh_link);
	EXPECT_EQ(8, e.sh[sm].sh_entsize);
	EXPECT_EQ(devrow[6 + 3] * 8, e.sh[sm].sh_size);	/* numSMs rows */

	/* The first warp's lane table and its lanes' registers. */
	for (regs0 = regs1 = -1, glob = 1; glob < e.nsh; glob++) {
		const char *n = e.str + e.sh[glob].sh_name;

		if (!strncmp(n, ".cudbg.regs.", 12) && strstr(n, ".ln0") &&
		    !strcmp(strstr(n, ".ln0"), ".ln0") && regs0 < 0)
			regs0 = glob;
		if (!strncmp(n, ".cudbg.regs.", 12) && strstr(n, ".ln1") &&
		    !strcmp(strstr(n, ".ln1"), ".ln1") && regs1 < 0)
			regs1 = glob;
	}
	ASSERT_LT(0, regs0);
	EXPECT_EQ(CUDBG_SHT(5), e.sh[regs0].sh_type);
	EXPECT_EQ(64 * 4, e.sh[regs0].sh_size);
	EXPECT_EQ(CUDBG_SHT(15), e.sh[e.sh[regs0].sh_link].sh_type);
	EXPECT_EQ(48, e.sh[e.sh[regs0].sh_link].sh_entsize);
	EXPECT_EQ(self->threads * 48, e.sh[e.sh[regs0].sh_link].sh_size);
	r = elf_data(&e, regs0);
	EXPECT_EQ(1, r[T0]);
	EXPECT_EQ(self->data_addr, r[A0]);
	if (self->threads > 1) {
		ASSERT_LT(0, regs1);
		EXPECT_EQ(4, ((const uint32_t *)elf_data(&e, regs1))[T0]);
	}
	/* The data buffer, at its device address, byte for byte. */
	for (glob = 0; glob < 8; glob++) {
		int g;

		snprintf(name, sizeof(name), ".cudbg.global.%d", glob);
		g = elf_index(&e, name);
		if (g < 0 || e.sh[g].sh_addr != self->data_addr)
			continue;
		EXPECT_EQ(CUDBG_SHT(2), e.sh[g].sh_type);
		EXPECT_EQ(4000, e.sh[g].sh_size);
		EXPECT_EQ(0, memcmp(elf_data(&e, g), (void *)self->data_map, 4000));
		break;
	}
	EXPECT_LT(glob, 8) TH_LOG("no .cudbg.global for the data buffer");
	free(e.buf);
}

TEST_F_TIMEOUT(dump, hang_dump_holds_ring_buffers_warps_registers, 120)
{
	const char *p, *bo, *w;
	uint32_t *words, lane, x[32];
	size_t n, i;
	bool launch = false;
	char comm[32], kline[96];
	struct utsname uts;
	static const uint32_t prog_end[] = { TMC(X0) };
	int32_t status = 1;

	/* The "image" ends in two zero words: the dump must keep them. */
	struct drm_vortex_code_object co = {
		.handle = self->code, .size = sizeof(prog_hang) + 8,
		.load_addr = self->code_addr, .load_size = CODE_SIZE,
	};

	VX_NEED_GATES();
	/*
	 * One job to its end first: a card reset (a suite before this one
	 * may end in one) leaves FENCE_SEQNO at 0 until a FENCE executes, and
	 * the ring's check below wants every job before the hang retired.
	 */
	memcpy(self->code_map, prog_end, sizeof(prog_end));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	ASSERT_EQ(0, status);

	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_VORTEX_CODE_OBJECT, &co));
	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog_hang, sizeof(prog_hang)));
	p = self->text;
	ASSERT_NE(NULL, p);
	/* The running kernel's release, whichever (docs/kernels.md). */
	ASSERT_EQ(0, uname(&uts));
	snprintf(kline, sizeof(kline), "kernel: %s\n", uts.release);
	EXPECT_EQ(0, strncmp(p, kline, strlen(kline))) TH_LOG("%.40s", p);
	EXPECT_EQ(0, strncmp(field(p, "module"), "vortex\n", 7));
	EXPECT_NE(NULL, field(p, "time"));
	/* The task's comm: its program's name, cut to TASK_COMM_LEN - 1. */
	snprintf(comm, sizeof(comm), "%.15s\n", program_invocation_short_name);
	EXPECT_EQ(0, strncmp(field(p, "comm"), comm, strlen(comm)));
	EXPECT_EQ(0, strncmp(field(p, "error"), "timeout\n", 8));
	EXPECT_EQ(self->sub.seqno, num(p, "job"));
	EXPECT_EQ(NULL, section(p, "fault-info"));
	EXPECT_EQ(NULL, field(p, "not-captured"));

	/* The ring holds this job's LAUNCH: header, entry, argument, dims. */
	p = strstr(self->text, "\nringbuffer:\n");
	ASSERT_NE(NULL, p);
	EXPECT_EQ(num(p, "last-fence"), num(p, "retired-fence") + 1);
	words = ascii85_block(field(p, "data"), 4, &n);
	ASSERT_NE(NULL, words);
	for (i = 0; i + 8 < n; i++)
		if (words[i] == VX_PKT_HDR(VX_PKT_LAUNCH, VX_LAUNCH_NDW) &&
		    words[i + 1 + VX_LAUNCH_ENTRY] == self->code_addr &&
		    words[i + 1 + VX_LAUNCH_ARG] == self->data_addr &&
		    words[i + 1 + VX_LAUNCH_BLOCK_X] == self->threads)
			launch = true;
	EXPECT_TRUE(launch) TH_LOG("no LAUNCH of this job in the ring");
	free(words);

	/* Each buffer, byte for byte, without the zero tail. */
	bo = find_bo(self->text, self->data_addr);
	ASSERT_NE(NULL, bo);
	EXPECT_EQ(DATA_SIZE, num(bo, "size"));
	EXPECT_EQ(DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_DUMP, num(bo, "flags"));
	words = ascii85_block(field(bo, "data"), 4, &n);
	EXPECT_EQ(1000, n);
	for (i = 0; i < n && i < 1000; i++)
		ASSERT_EQ(self->data_map[i], words[i]) TH_LOG("word %zu", i);
	free(words);
	bo = find_bo(self->text, self->code_addr);
	ASSERT_NE(NULL, bo);
	words = ascii85_block(field(bo, "data"), 4, &n);
	ASSERT_EQ(sizeof(prog_hang) / 4, n);
	EXPECT_EQ(0, memcmp(words, prog_hang, sizeof(prog_hang)));
	free(words);

	/* One warp, in its loop, every lane's t0 = 3 * lane + 1. */
	w = strstr(self->text, "\nwarps:\n  - id: ");
	ASSERT_NE(NULL, w);
	EXPECT_EQ(self->code_addr + HANG_PC, num(w, "pc"));
	EXPECT_EQ(0, strncmp(field(w, "halted"), "yes", 3));
	for (lane = 0; lane < self->threads; lane++) {
		char pat[32];
		const char *l, *v;

		snprintf(pat, sizeof(pat), "- lane: %u\n", lane);
		l = strstr(w, pat);
		ASSERT_NE(NULL, l) TH_LOG("lane %u missing", lane);
		v = field(l, "x");
		ASSERT_NE(NULL, v);
		for (i = 0, v++; i < 32; i++) {
			x[i] = strtoul(v, (char **)&v, 0);
			v += 2;
		}
		EXPECT_EQ(0, x[0]);
		EXPECT_EQ(3 * lane + 1, x[T0]) TH_LOG("lane %u", lane);
		EXPECT_EQ(self->data_addr, x[A0]);
		/* f3 holds the same bits; fcsr is 0 */
		v = field(l, "f");
		ASSERT_NE(NULL, v);
		for (i = 0, v++; i <= 3; i++) {
			x[i] = strtoul(v, (char **)&v, 0);
			v += 2;
		}
		EXPECT_EQ(3 * lane + 1, x[3]) TH_LOG("lane %u", lane);
		EXPECT_EQ(0, num(l, "fcsr"));
	}
	check_hang_elf(_metadata, self);

	/* The registers section has the card's STATUS. */
	EXPECT_NE(NULL, strstr(self->text, "\nregisters:\n  - { offset: 0x0000, value: 0x"));
	EXPECT_NE(NULL, strstr(self->text, "\ndebug-module:\n  - { reg: 0x0, name: platform"));
}

TEST_F_TIMEOUT(dump, exception_dump_has_fault_info, 60)
{
	const char *f, *w;

	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(0, strncmp(field(self->text, "error"), "exception\n", 10));
	f = section(self->text, "fault-info");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(VX_ERR_ILLEGAL_INSTR, num(f, "cause"));
	EXPECT_EQ(self->code_addr + FAULT_PC, num(f, "pc"));
	EXPECT_EQ(0, num(f, "thread"));
	w = strstr(self->text, "\nwarps:\n  - id: ");
	ASSERT_NE(NULL, w);
	EXPECT_EQ(num(f, "warp"), num(w, "id"));
	EXPECT_EQ(self->code_addr + FAULT_PC, num(w, "pc"));

	check_fault_elf(_metadata, self);
}

TEST_F_TIMEOUT(dump, assert_dump_has_message_file_line, 60)
{
	static const char expr[] = "n < 4", file[] = "kernels/check.c", fn[] = "check";
	const char *f;

	memcpy((char *)self->data_map + 1024, expr, sizeof(expr));
	memcpy((char *)self->data_map + 1088, file, sizeof(file));
	memcpy((char *)self->data_map + 1152, fn, sizeof(fn));
	self->data_map[0] = self->data_addr + 1024;
	self->data_map[1] = self->data_addr + 1088;
	self->data_map[2] = 42;
	self->data_map[3] = self->data_addr + 1152;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_assert, sizeof(prog_assert)));
	ASSERT_NE(NULL, self->text);
	f = section(self->text, "fault-info");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(VX_ERR_ASSERT, num(f, "cause"));
	EXPECT_EQ(0, strncmp(field(f, "assert"), "\"n < 4\"\n", 8));
	EXPECT_EQ(0, strncmp(field(f, "file"), "\"kernels/check.c\"\n", 18));
	EXPECT_EQ(42, num(f, "line"));
	EXPECT_EQ(0, strncmp(field(f, "function"), "\"check\"\n", 8));
}

/*
 * A jump to a misaligned target faults on the jump: ERR_PC is the jalr,
 * ERR_ADDR the target, t1 (its rd) still 0x55 in the dump, and the
 * driver's log line names the jump's PC.
 */
TEST_F_TIMEOUT(dump, misaligned_jump_faults_on_the_jump, 60)
{
	char pat[96], *log;
	const char *f, *w, *l, *v;
	uint32_t x = 0;
	int i, n;

	/*
	 * The driver rate-limits its failure lines; the faults of the tests
	 * before this one must not use up the window this line is printed in.
	 */
	vx_fail_log_fresh();
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_jump, sizeof(prog_jump)));
	ASSERT_NE(NULL, self->text);
	f = section(self->text, "fault-info");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(VX_ERR_MISALIGNED_FETCH, num(f, "cause"));
	EXPECT_EQ(self->code_addr + JUMP_PC, num(f, "pc"));
	EXPECT_EQ(self->code_addr + 18, num(f, "address"));
	w = strstr(self->text, "\nwarps:\n  - id: ");
	ASSERT_NE(NULL, w);
	EXPECT_EQ(self->code_addr + JUMP_PC, num(w, "pc"));
	l = strstr(w, "- lane: 0\n");
	ASSERT_NE(NULL, l);
	v = field(l, "x") + 1;
	for (i = 0; i <= T1; i++) {
		x = strtoul(v, (char **)&v, 0);
		v += 2;
	}
	EXPECT_EQ(0x55, x);

	n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	ASSERT_LT(0, n);
	log = calloc(1, n + 1);
	ASSERT_NE(NULL, log);
	ASSERT_LT(0, klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, n));
	snprintf(pat, sizeof(pat), "jump to a misaligned target (cause %d) in warp",
		 VX_ERR_MISALIGNED_FETCH);
	v = strstr(log, pat);
	ASSERT_NE(NULL, v);
	snprintf(pat, sizeof(pat), "at pc 0x%08llx, addr 0x%08llx",
		 (unsigned long long)self->code_addr + JUMP_PC,
		 (unsigned long long)self->code_addr + 18);
	EXPECT_NE(NULL, strstr(v, pat)) TH_LOG("no \"%s\" in the log", pat);
	free(log);
}

static int set_label(int fd, uint32_t handle, const char *label)
{
	struct drm_vortex_bo_set_label l = {
		.handle = handle, .label = (uintptr_t)label,
	};

	return vx_ioctl(fd, DRM_IOCTL_VORTEX_BO_SET_LABEL, &l);
}

/*
 * BO_SET_LABEL (as panthor's): the label names the buffer in the dump's
 * bos: entry ('"' and '\' escaped) and in the ELF's .note.vortex.bo (name
 * "Vortex", type 1, desc iova, size, label); a label removed (0) leaves
 * no trace.  Refused: flags, pad, a handle the file lacks, an unreadable
 * pointer, a label past DRM_VORTEX_BO_LABEL_MAX - 1 bytes or not
 * printable ASCII, each with its errno and the label left as it was.
 */
TEST_F_TIMEOUT(dump, buffer_labels_round_trip, 60)
{
	static const char label[] = "input \"A\" \\ 1";
	char longest[DRM_VORTEX_BO_LABEL_MAX], too_long[DRM_VORTEX_BO_LABEL_MAX + 1];
	struct drm_vortex_bo_set_label l;
	const char *b, *c, *note;
	uint64_t caps;
	struct elf_view e;
	int idx;

	VX_NEED_GATES();
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	ASSERT_TRUE(caps & DRM_VORTEX_CAP_BO_LABEL);
	memset(longest, 'x', sizeof(longest) - 1);
	longest[sizeof(longest) - 1] = 0;
	memset(too_long, 'y', sizeof(too_long) - 1);
	too_long[sizeof(too_long) - 1] = 0;

	vx_cmd(set_label(self->fd, self->code, longest));
	vx_cmd(set_label(self->fd, self->code, NULL));		/* removed */
	vx_cmd(set_label(self->fd, self->data, longest));
	vx_cmd(set_label(self->fd, self->data, label));
	vx_err(EINVAL, set_label(self->fd, self->data, too_long));
	vx_err(EINVAL, set_label(self->fd, self->data, "tab\there"));
	vx_err(EINVAL, set_label(self->fd, self->data, "\xc3\xa9t\xc3\xa9"));
	vx_err(ENOENT, set_label(self->fd, 0xdead, label));
	vx_err(EFAULT, set_label(self->fd, self->data, (const char *)8));
	l = (struct drm_vortex_bo_set_label){ .handle = self->data,
		.label = (uintptr_t)"x", .flags = 1 };
	vx_err(EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_BO_SET_LABEL, &l));
	l = (struct drm_vortex_bo_set_label){ .handle = self->data,
		.label = (uintptr_t)"x", .pad = 1 };
	vx_err(EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_BO_SET_LABEL, &l));

	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog_hang, sizeof(prog_hang)));
	ASSERT_NE(NULL, self->text);
	b = find_bo(self->text, self->data_addr);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(0, strncmp(field(b, "label"), "\"input \\\"A\\\" \\\\ 1\"\n", 19))
		TH_LOG("label: %.40s", field(b, "label"));
	c = find_bo(self->text, self->code_addr);
	ASSERT_NE(NULL, c);
	/* The code buffer's entry ends at the next "  - " without a label. */
	EXPECT_TRUE(!field(c, "label") || field(c, "label") > strstr(c + 4, "\n  - "));

	ASSERT_TRUE(elf_from_dump(self->text, &e));
	idx = elf_index(&e, ".note.vortex.bo");
	ASSERT_LT(0, idx);
	EXPECT_EQ(SHT_NOTE, e.sh[idx].sh_type);
	note = elf_data(&e, idx);
	EXPECT_EQ(7, ((const uint32_t *)note)[0]);			/* namesz */
	EXPECT_EQ(16 + 16, ((const uint32_t *)note)[1]);		/* descsz */
	EXPECT_EQ(1, ((const uint32_t *)note)[2]);			/* type */
	EXPECT_STREQ("Vortex", note + 12);
	EXPECT_EQ(self->data_addr, *(const uint64_t *)(note + 20));
	EXPECT_EQ(DATA_SIZE, *(const uint64_t *)(note + 28));
	EXPECT_STREQ(label, note + 36);
	EXPECT_EQ(12 + 8 + 32, e.sh[idx].sh_size);			/* one note only */
	free(e.buf);
}

/*
 * The header names the process (pid, as xe and amdgpu do), the job both
 * as its file counts (job:) and as the card does (card-job:, the ring's
 * fence seqno, card-wide), and the format's version.  Two files' first
 * jobs are both "job: 1", with card-wide numbers that grow.
 */
TEST_F_TIMEOUT(dump, header_names_pid_card_job_and_version, 60)
{
	unsigned long long first;
	int fd2;

	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(2, num(self->text, "dump-version"));
	EXPECT_EQ(getpid(), num(self->text, "pid"));
	EXPECT_EQ(1, num(self->text, "job"));
	first = num(self->text, "card-job");
	EXPECT_LE(1, first);
	EXPECT_NE(~0ull, first);

	/* The same program from a second file of this process. */
	vx_dump_discard();
	free(self->text);
	self->text = NULL;
	fd2 = self->fd;
	self->fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	vx_cmd(_vx_bo_create(self->fd, CODE_SIZE, 0, &self->code, &self->code_addr));
	self->code_map = vx_bo_map(self->fd, self->code, NULL);
	ASSERT_NE(NULL, self->code_map);
	self->bos[0].handle = self->code;
	self->bos[1].handle = 0;
	vx_submit_init(&self->sub, self->code_addr, 0, self->threads, self->bos, 1);
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(1, num(self->text, "job"));
	EXPECT_LT(first, num(self->text, "card-job"));
	close(fd2);
}

/*
 * DRM_VORTEX_BO_NO_DUMP: the buffer is listed (address, size, flags) but
 * its bytes are in neither the text nor the ELF, and not-captured: says
 * why; as the job's argument block, its bytes are not the ELF's
 * .cudbg.param either.  The other buffers' bytes are dumped as before.
 */
TEST_F_TIMEOUT(dump, no_dump_buffer_is_listed_without_its_bytes, 60)
{
	struct drm_vortex_submit_bo bos[3];
	const char *b, *next, *nc;
	volatile uint32_t *map;
	struct elf_view e;
	uint64_t addr, caps;
	uint32_t bo, i;
	int k;

	VX_NEED_GATES();
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	ASSERT_TRUE(caps & DRM_VORTEX_CAP_BO_NO_DUMP);
	vx_cmd(_vx_bo_create(self->fd, 4096, DRM_VORTEX_BO_NO_DUMP, &bo, &addr));
	map = vx_bo_map(self->fd, bo, NULL);
	ASSERT_NE(NULL, map);
	for (i = 0; i < 1024; i++)
		map[i] = 0x5ec0000u + i;
	bos[0] = self->bos[0];
	bos[1] = self->bos[1];
	bos[2] = (struct drm_vortex_submit_bo){ bo, DRM_VORTEX_SUBMIT_BO_READ |
		DRM_VORTEX_SUBMIT_BO_DUMP };
	vx_submit_init(&self->sub, self->code_addr, addr, self->threads, bos, 3);
	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog_hang, sizeof(prog_hang)));
	ASSERT_NE(NULL, self->text);

	b = find_bo(self->text, addr);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(4096, num(b, "size"));
	next = strstr(b + 4, "\n  - ") ?: strstr(b, "\nregisters:");
	ASSERT_NE(NULL, next);
	EXPECT_TRUE(!strstr(b, "data: ") || strstr(b, "data: ") > next);
	b = find_bo(self->text, self->data_addr);
	ASSERT_NE(NULL, b);
	EXPECT_NE(NULL, strstr(b, "    data: !!ascii85"));
	nc = field(self->text, "not-captured");
	ASSERT_NE(NULL, nc);
	EXPECT_NE(NULL, strstr(nc, "buffer contents (DRM_VORTEX_BO_NO_DUMP)"));

	ASSERT_TRUE(elf_from_dump(self->text, &e));
	for (k = 1; k < e.nsh; k++) {
		EXPECT_NE(addr, e.sh[k].sh_addr) TH_LOG("section %s", e.str + e.sh[k].sh_name);
		EXPECT_NE(CUDBG_SHT(18), e.sh[k].sh_type);	/* no .cudbg.param */
	}
	free(e.buf);
	munmap((void *)map, 4096);
}

/*
 * Every captured byte is in the ELF's CUDBG_SHT_GLOBAL_MEM sections, a
 * buffer's zero tail too: the data buffer (1000 words of pattern, then
 * zeros to DATA_SIZE) is covered from its first byte to its last by
 * .cudbg.global sections (cuda-gdb reads global memory only where a
 * section holds it), their bytes those the test wrote.
 */
TEST_F_TIMEOUT(dump, elf_global_sections_keep_the_zero_tail, 60)
{
	static uint8_t seen[DATA_SIZE];
	struct elf_view e;
	uint64_t lo, hi, a;
	int k, covered = 0;

	VX_NEED_GATES();
	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog_hang, sizeof(prog_hang)));
	ASSERT_NE(NULL, self->text);
	ASSERT_TRUE(elf_from_dump(self->text, &e));
	memset(seen, 0, sizeof(seen));
	for (k = 1; k < e.nsh; k++) {
		if (e.sh[k].sh_type != CUDBG_SHT(2))
			continue;
		lo = e.sh[k].sh_addr;
		hi = lo + e.sh[k].sh_size;
		if (hi <= self->data_addr || lo >= self->data_addr + DATA_SIZE)
			continue;
		ASSERT_LE(self->data_addr, lo);
		ASSERT_GE(self->data_addr + DATA_SIZE, hi);
		ASSERT_GE(e.len, e.sh[k].sh_offset + e.sh[k].sh_size);
		EXPECT_EQ(0, memcmp(elf_data(&e, k),
				    (const uint8_t *)self->data_map + (lo - self->data_addr),
				    hi - lo)) TH_LOG("section %s", e.str + e.sh[k].sh_name);
		for (a = lo; a < hi; a++)
			seen[a - self->data_addr] = 1;
	}
	for (a = 0; a < DATA_SIZE; a++)
		covered += seen[a];
	EXPECT_EQ(DATA_SIZE, covered);
	free(e.buf);
}

/*
 * Warp 0 of a two-warp block waits at a barrier warp 1 never reaches;
 * warp 1 loops.  A warp parked at a barrier does not run, so it cannot
 * run the dump's register stub (driver/vortex_dump_regs.c): it is halted
 * again, given its PC back and read the injecting way, while warp 1 stores
 * its own.  Both warps' registers are exact, and their PCs are where they
 * stopped (the parked warp's is past its bar, as the card keeps it).
 */
TEST_F_TIMEOUT(dump, warp_parked_at_a_barrier_is_read_too, 60)
{
	static const uint32_t prog[] = {
		CSRR(T0, VX_CSR_WARP_IN_BLOCK),
		CSRR(T1, VX_CSR_MHARTID),
		SLLI(T2, T1, 4),
		ADDI(A1, X0, 0),		/* barrier 0 ... */
		ADDI(A2, X0, 2),		/* ... of both warps */
		BNE(T0, X0, 8),
		RV_R(0, A2, A1, VX_F3_BAR, 0, VX_OPCODE_CUSTOM0),
		JSELF,				/* +28 */
	};
	uint64_t warps;
	uint32_t lane, g, x[32], i, n = 0;
	const char *w, *l, *v;
	char pat[32];

	VX_NEED_GATES();
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &warps));
	if (warps < 2)
		SKIP(return, "one warp per core: no barrier to wait at");
	self->sub.block[0] = 2 * self->threads;
	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog, sizeof(prog)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(NULL, field(self->text, "not-captured"));
	w = strstr(self->text, "\nwarps:\n");
	for (w = w ? strstr(w, "\n  - id: ") : NULL; w; w = strstr(w + 1, "\n  - id: ")) {
		g = num(w + 1, "id");
		n++;
		EXPECT_EQ(self->code_addr + 28, num(w, "pc")) TH_LOG("warp %u", g);
		for (lane = 0; lane < self->threads; lane++) {
			snprintf(pat, sizeof(pat), "- lane: %u\n", lane);
			l = strstr(w, pat);
			ASSERT_NE(NULL, l) TH_LOG("warp %u lane %u missing", g, lane);
			v = field(l, "x");
			ASSERT_NE(NULL, v);
			for (i = 0, v++; i < 32; i++, v += 2)
				x[i] = strtoul(v, (char **)&v, 0);
			EXPECT_EQ(g * self->threads + lane, x[T1]) TH_LOG("warp %u lane %u", g, lane);
			EXPECT_EQ((g * self->threads + lane) << 4, x[T2]);
			EXPECT_EQ(2, x[A2]);
			EXPECT_GE(1, x[T0]);
		}
	}
	EXPECT_EQ(2, n);
	TH_LOG("%lld DM accesses, frozen %lld us", last_dump_num("dm_accesses"),
	       last_dump_num("frozen_ns") / 1000);
}

/*
 * What the job printed before it faulted is in its dump: each hardware
 * thread's text (docs/driver.md, "The kernels' console"), whichever core
 * the block landed on.
 */
TEST_F_TIMEOUT(dump, console_output_is_in_the_dump, 60)
{
	const uint32_t prog[] = {
		CSRR(5, VX_CSR_MHARTID), ANDI(6, 5, 63), ADDI(6, 6, 0x40),
		ADDI(7, 0, 'o'), SB(7, 6, 0), ADDI(7, 0, 'k'), SB(7, 6, 0),
		LW(7, 0, 0x10),		/* a load fault */
	};
	const char *sec;

	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog, sizeof(prog)));
	ASSERT_NE(NULL, self->text);
	sec = strstr(self->text, "\nconsole:\n");
	ASSERT_NE(NULL, sec) TH_LOG("no console section");
	EXPECT_EQ(0, num(sec, "dropped"));
	EXPECT_NE(NULL, strstr(sec, "    - hart: ")) TH_LOG("%.300s", sec);
	EXPECT_NE(NULL, strstr(sec, "\n      text: \"ok\"\n")) TH_LOG("%.300s", sec);
}

/*
 * COMPRESS_ELF: the section says zlib, the stream is smaller than the ELF,
 * and it inflates to an ELF with the fault's rows.
 */
TEST_F_TIMEOUT(dump, compressed_elf_inflates_to_the_same_rows, 60)
{
	const char *sec;

	vx_cmd(dump_config(self->fd, DRM_VORTEX_DUMP_COMPRESS_ELF, NULL));
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	ASSERT_NE(NULL, self->text);
	sec = strstr(self->text, "\ncuda-coredump:\n");
	ASSERT_NE(NULL, sec);
	ASSERT_NE(NULL, field(sec, "encoding"));
	EXPECT_EQ(0, strncmp(field(sec, "encoding"), "zlib\n", 5));
	EXPECT_GT(num(sec, "size") / 2, num(sec, "stored-size"));
	check_fault_elf(_metadata, self);
}

TEST_HARNESS_MAIN
