// SPDX-License-Identifier: GPL-2.0
/*
 * Crash dumps of whole cards: every register of every warp of a full
 * card in few Debug Module accesses, and the CUDA ELF's rows of a card
 * past cuda-gdb's limits (CUDA-sized SMs and warps, lanes past 31).
 */
#include "vortex_dump_fixture.h"

/*
 * Every lane of every warp of the card: x_r = r << 24 + hart << 8 (r =
 * 2..30), x31 = hart << 8 + 31, f_r = (0x40 + r) << 16 + hart << 8, fcsr
 * 0x65, then (with @tmc) x1 = the mask and vx_tmc(x1), and a jump to
 * itself: a hang.  Returns the program's length in words; *@mask receives
 * the lanes of the first 32 it keeps on: with @tmc those of 0x5a5 | 1 (a
 * 32-bit register has no bits for the lanes past them, which vx_tmc turns
 * off), without it all of them (x1 = 0).
 */
static uint32_t all_registers_prog(uint32_t *prog, uint64_t threads, bool tmc,
				   uint32_t *mask)
{
	uint32_t all = threads >= 32 ? ~0u : (1u << threads) - 1, n = 0, r;

	*mask = tmc ? (0x5a5 & all) | 1 : all;
	/* x31 = hart << 8; f_f = (0x40 + f) << 16 + x31; fcsr = 0x65 */
	prog[n++] = CSRR(31, VX_CSR_MHARTID);
	prog[n++] = SLLI(31, 31, 8);
	for (r = 0; r < 32; r++) {
		prog[n++] = LUI(1, (0x40 + r) << 4);
		prog[n++] = ADD(1, 1, 31);
		prog[n++] = FMV_W_X(r, 1);
	}
	prog[n++] = ADDI(1, X0, 0x65);
	prog[n++] = CSRW(0x003, 1);
	/* x_r = r << 24 + x31, x31 += 31, x1 = the mask the warp goes on with */
	for (r = 2; r < 31; r++) {
		prog[n++] = LUI(r, r << 12);
		prog[n++] = ADD(r, r, 31);
	}
	prog[n++] = ADDI(31, 31, 31);
	prog[n++] = ADDI(1, X0, tmc ? *mask : 0);
	prog[n++] = tmc ? TMC(1) : ADDI(X0, X0, 0);
	prog[n++] = JSELF;
	return n;
}

/* all_registers_prog() on every warp of the card, hung and dumped. */
static void hang_all_registers(struct __test_metadata *_metadata,
			       FIXTURE_DATA(dump) *self, bool tmc, uint32_t *n,
			       uint32_t *mask)
{
	uint64_t clusters, cores, warps;
	uint32_t prog[192];

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CLUSTERS, &clusters));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CORES, &cores));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &warps));
	*n = all_registers_prog(prog, self->threads, tmc, mask);
	ASSERT_LE(*n, sizeof(prog) / 4);
	self->sub.grid[0] = clusters * cores;
	self->sub.block[0] = warps * self->threads;
	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog, *n * 4));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(NULL, field(self->text, "not-captured"));
}

/*
 * A hang of every warp of the card, each lane with its own value in every
 * register, some lanes masked off by vx_tmc: the dump holds each listed
 * lane's x0-x31, f0-f31 and fcsr exactly, the warp's own thread mask, and
 * only the lanes of that mask.  A recovery dump has the warps store their
 * registers themselves (driver/vortex_dump_regs.c, a stub they run: DPC is
 * "RW", shared/specs/vxdebug-spec.md), so the Debug Module sees a handful
 * of accesses per warp, not three per injected instruction (some 270 per
 * warp, which on a 4,8,32,32 card kept it frozen for 270 ms).
 */
TEST_F_TIMEOUT(dump, full_card_hang_dump_has_every_register_in_few_dm_accesses, 120)
{
	uint64_t clusters, cores, warps;
	uint32_t n, mask, r, nwarps = 0, lane, g, hart, v[32];
	const char *w, *l, *p;
	char pat[32], *next;
	long long accesses;

	VX_NEED_GATES();
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CLUSTERS, &clusters));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CORES, &cores));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &warps));
	hang_all_registers(_metadata, self, true, &n, &mask);

	w = strstr(self->text, "\nwarps:\n");
	for (w = w ? strstr(w, "\n  - id: ") : NULL; w; w = next) {
		/* The warp's lines alone: its end is the next one's start. */
		next = strstr(w + 1, "\n  - id: ");
		if (next)
			*next = 0;
		g = num(w + 1, "id");
		nwarps++;
		EXPECT_EQ(0, strncmp(field(w, "halted"), "yes", 3));
		EXPECT_EQ(VX_HACAUSE_HALTREQ, num(w, "halt-cause")) TH_LOG("warp %u", g);
		EXPECT_EQ(self->code_addr + (n - 1) * 4, num(w, "pc")) TH_LOG("warp %u", g);
		EXPECT_EQ(mask, num(w, "thread-mask")) TH_LOG("warp %u", g);
		p = field(w, "block");
		ASSERT_NE(NULL, p);
		EXPECT_GT(self->sub.grid[0], strtoul(p + 1, NULL, 0)) TH_LOG("warp %u", g);
		for (lane = 0; lane < self->threads; lane++) {
			snprintf(pat, sizeof(pat), "- lane: %u\n", lane);
			l = strstr(w, pat);
			if (lane < 32 && !(mask & (1u << lane))) {
				EXPECT_EQ(NULL, l) TH_LOG("warp %u lane %u is masked off", g, lane);
				continue;
			}
			ASSERT_NE(NULL, l) TH_LOG("warp %u lane %u missing", g, lane);
			hart = g * self->threads + lane;
			p = field(l, "x");
			ASSERT_NE(NULL, p);
			for (r = 0, p++; r < 32; r++, p += 2)
				v[r] = strtoul(p, (char **)&p, 0);
			EXPECT_EQ(0, v[0]);
			EXPECT_EQ(mask, v[1]) TH_LOG("warp %u lane %u", g, lane);
			for (r = 2; r < 31; r++)
				ASSERT_EQ((r << 24) + (hart << 8), v[r])
					TH_LOG("warp %u lane %u x%u", g, lane, r);
			EXPECT_EQ((hart << 8) + 31, v[31]) TH_LOG("warp %u lane %u", g, lane);
			p = field(l, "f");
			ASSERT_NE(NULL, p);
			for (r = 0, p++; r < 32; r++, p += 2)
				v[r] = strtoul(p, (char **)&p, 0);
			for (r = 0; r < 32; r++)
				ASSERT_EQ(((0x40 + r) << 16) + (hart << 8), v[r])
					TH_LOG("warp %u lane %u f%u", g, lane, r);
			EXPECT_EQ(0x65, num(l, "fcsr")) TH_LOG("warp %u lane %u", g, lane);
		}
		if (next)
			*next = '\n';
	}
	EXPECT_EQ(clusters * cores * warps, nwarps);
	/*
	 * Per warp: its selection, DCTRL (the halt cause), DPC read and
	 * written (reading it through DSCRATCH cost some 270); the rest is
	 * the capture's own (the DM's registers, the windows, halting and
	 * resuming, and polling the batch, whose count depends on how soon
	 * the card's simulator gets the CPU: the constant).
	 */
	accesses = last_dump_num("dm_accesses");
	TH_LOG("%u warps: %lld DM accesses", nwarps, accesses);
	EXPECT_GE(256 + 32 * (long long)nwarps, accesses);
}

/*
 * The CUDA ELF of any card is one cuda-gdb can read: it stops at more
 * than 32 lanes per warp or 64 warps per SM ("internal-error: ...
 * m_num_lanes <= CUDBG_MAX_LANES", issue 26), so a wider card is written
 * as CUDA-sized SMs and warps, as .note.vortex.split says (docs/driver.md,
 * "The CUDA ELF"): part h of warp w of core c (lanes 32h..32h+31) is warp
 * v % 64 of SM c * S + v / 64, v = w * parts + h.  Every listed lane of
 * every warp is in exactly one lane row, with its own registers
 * (all_registers_prog()'s values), found through the tables' links as a
 * reader walks them: lane row -> warp row -> block -> SM.  Lanes 0-31 are
 * listed while on; lanes past 31 always (vortex_dump_lane_listed(): the
 * card's thread-mask CSR is 32 bits wide and injection runs on the
 * selected thread whether it is on or not, so nothing the Debug Module
 * reads tells which are on), in the ELF as in the text.  make check runs
 * these on a 1,1,96,64 card too (96 warps per core, 64 lanes per warp).
 */
static void check_cuda_sized_elf(struct __test_metadata *_metadata,
				 FIXTURE_DATA(dump) *self, bool tmc)
{
	uint64_t clusters, cores, warps;
	uint32_t n, mask, parts, lanes, per_sm, spc, k, r, rows = 0;
	const uint32_t *devrow, *note, *regs, *lnrow, *wprow;
	uint8_t *seen;
	struct elf_view e;
	int i;

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CLUSTERS, &clusters));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CORES, &cores));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &warps));
	hang_all_registers(_metadata, self, tmc, &n, &mask);
	ASSERT_TRUE(elf_from_dump(self->text, &e));

	/* What a CUDA-sized card must be, from the limits alone. */
	parts = self->threads > 32 ? self->threads / 32 : 1;
	lanes = self->threads > 32 ? 32 : self->threads;
	per_sm = warps * parts > 64 ? 64 : warps * parts;
	spc = (warps * parts + 63) / 64;
	i = elf_index(&e, ".cudbg.devtbl");
	ASSERT_LE(0, i);
	devrow = elf_data(&e, i);
	EXPECT_EQ(clusters * cores * spc, devrow[9]);	/* numSMs */
	EXPECT_EQ(per_sm, devrow[10]);			/* numWarpsPerSM */
	EXPECT_EQ(lanes, devrow[11]);			/* numLanesPerWarp */
	EXPECT_GE(64, devrow[10]);
	EXPECT_GE(32, devrow[11]);
	i = elf_index(&e, ".note.vortex.split");
	ASSERT_LE(0, i);
	ASSERT_EQ(44, e.sh[i].sh_size);
	note = elf_data(&e, i);
	EXPECT_EQ(2, note[2]);				/* type */
	EXPECT_EQ(0, memcmp(&note[3], "Vortex", 7));
	EXPECT_EQ(parts, note[5]);
	EXPECT_EQ(lanes, note[6]);
	EXPECT_EQ(per_sm, note[7]);
	EXPECT_EQ(spc, note[8]);
	EXPECT_EQ(warps, note[9]);
	EXPECT_EQ(self->threads, note[10]);
	TH_LOG("%llu warps of %llu lanes per core: %u SMs per core of %u warps of %u lanes",
	       (unsigned long long)warps, (unsigned long long)self->threads, spc, per_sm,
	       lanes);

	seen = calloc(clusters * cores * warps * self->threads, 1);
	ASSERT_NE(NULL, seen);
	for (k = 1; k < e.nsh; k++) {
		uint32_t lnt, wpt, ctat, sm, v, lane, g, hart;

		if (e.sh[k].sh_type != CUDBG_SHT(5))	/* a lane's registers */
			continue;
		ASSERT_EQ(64 * 4, e.sh[k].sh_size);
		lnt = e.sh[k].sh_link;
		wpt = e.sh[lnt].sh_link;
		ctat = e.sh[wpt].sh_link;
		ASSERT_EQ(CUDBG_SHT(15), e.sh[lnt].sh_type);
		ASSERT_EQ(CUDBG_SHT(14), e.sh[wpt].sh_type);
		ASSERT_EQ(CUDBG_SHT(13), e.sh[ctat].sh_type);
		lnrow = (const uint32_t *)((const uint8_t *)elf_data(&e, lnt) +
					   48 * e.sh[k].sh_info);
		wprow = (const uint32_t *)((const uint8_t *)elf_data(&e, wpt) +
					   40 * e.sh[lnt].sh_info);
		sm = e.sh[ctat].sh_info;
		ASSERT_GT(lanes, lnrow[4]);			/* ln */
		ASSERT_GT(per_sm, wprow[2]);			/* warpId */
		EXPECT_TRUE(wprow[3] & (1u << lnrow[4]));	/* validLanes */
		v = sm % spc * per_sm + wprow[2];
		lane = v % parts * 32 + lnrow[4];
		g = (sm / spc) * warps + v / parts;
		ASSERT_GT(clusters * cores * warps, g) TH_LOG("sm %u warp %u", sm, wprow[2]);
		hart = g * self->threads + lane;
		regs = elf_data(&e, k);
		for (r = 2; r < 31; r++)
			ASSERT_EQ((r << 24) + (hart << 8), regs[r])
				TH_LOG("sm %u warp %u lane %u (warp %u lane %u): x%u", sm,
				       wprow[2], lnrow[4], g, lane, r);
		for (r = 0; r < 32; r++)
			ASSERT_EQ(((0x40 + r) << 16) + (hart << 8), regs[32 + r])
				TH_LOG("sm %u warp %u lane %u (warp %u lane %u): f%u", sm,
				       wprow[2], lnrow[4], g, lane, r);
		seen[hart]++;
		rows++;
	}
	for (k = 0; k < clusters * cores * warps * self->threads; k++) {
		uint32_t lane = k % self->threads;
		bool listed = lane >= 32 || mask & (1u << lane);

		ASSERT_EQ(listed ? 1 : 0, seen[k])
			TH_LOG("warp %llu lane %u", (unsigned long long)(k / self->threads), lane);
	}
	TH_LOG("%u lane rows", rows);
	/* The text lists the same lanes. */
	EXPECT_EQ(rows, count(self->text, "      - lane: "));
	free(seen);
	free(e.buf);
}

/* vx_tmc(0x5a5 | 1): lanes 0, 2, 5, 7, 8 and 10 stay on of the first 32. */
TEST_F_TIMEOUT(dump, elf_rows_are_cuda_sized_and_hold_every_lane, 300)
{
	VX_NEED_GATES();
	check_cuda_sized_elf(_metadata, self, true);
}

/* No vx_tmc: every lane stays on and is listed. */
TEST_F_TIMEOUT(dump, elf_rows_hold_lanes_past_31_while_they_run, 300)
{
	VX_NEED_GATES();
	check_cuda_sized_elf(_metadata, self, false);
}

TEST_HARNESS_MAIN
