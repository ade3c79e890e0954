// SPDX-License-Identifier: MIT
/*
 * The Debug Module sequences the driver and the simulator backend share
 * (dbgcore/vortex_dmseq*.c), access by access, over a recording DM: what a
 * register read, an FPR write, a warp's status, a request that never
 * finishes and a raw client's selection cost, as transcripts; and the
 * session's event queue with its OVERFLOW rule.  The
 * expectations come from the spec and the driver's documented design
 * (shared/specs/vxdebug-spec.md: "write DSCRATCHn" and "inject"; docs/
 * debugging.md, "One copy of the Debug Module sequencing"), and the
 * injected instructions from testlib/vx_asm.h's encoders, not from the
 * code under test.  Both users of the sequences run them unchanged, so a
 * change to any transcript here is a change to the driver's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

#include "vortex_dmseq.h"
#include "vx_asm.h"

#define LANES	2
#define WARPS	2

static const char *const names[VX_DM_NREGS] = {
	"PLATFORM", "DCONFIG", "DSELECT", "WMASK", "WACTIVE", "WSTATUS",
	"DCTRL", "DPC", "INJECT", "DS0", "DS1", "DS2", "DS3",
};

/* A DM that records every access and plays a 2-warp, 2-lane card. */
struct fake {
	char log[8192];
	uint32_t dselect, halted, inject, dpc;
	uint32_t ds[WARPS][LANES][4];
	unsigned int pending;	/* DCTRL reads that still show a step pending */
	unsigned int delays;
	bool gone;		/* reads all ones */
};

static void note(struct fake *f, const char *fmt, ...)
{
	size_t n = strlen(f->log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->log + n, sizeof(f->log) - n, fmt, ap);
	va_end(ap);
}

static uint32_t *scratch(struct fake *f, uint32_t k)
{
	return &f->ds[VX_DSELECT_WARPSEL(f->dselect) % WARPS]
		     [VX_DSELECT_THREADSEL(f->dselect) % LANES][k];
}

static uint32_t fake_read(void *priv, uint32_t reg)
{
	struct fake *f = priv;
	uint32_t v = 0;

	note(f, " R%s", names[reg]);
	if (f->gone)
		return ~0u;
	if (reg == VX_DM_WSTATUS)
		v = f->halted;
	else if (reg == VX_DM_DCTRL)
		v = VX_DCTRL_DMACTIVE | (f->pending ? (f->pending--, 1u << 4) : 0);
	else if (reg == VX_DM_DPC)
		v = f->dpc;
	else if (reg >= VX_DM_DSCRATCH(0))
		v = *scratch(f, reg - VX_DM_DSCRATCH(0));
	else if (reg == VX_DM_DSELECT)
		v = f->dselect;
	return v;
}

/* An injected csrw dscratchK, xR leaves 0x1000 * R + lane in each lane. */
static void fake_inject(struct fake *f, bool warp_wide)
{
	uint32_t csr = f->inject >> 20, rs1 = f->inject >> 15 & 31, l;
	uint32_t w = VX_DSELECT_WARPSEL(f->dselect) % WARPS;

	if ((f->inject & 0x707f) != 0x1073 || csr < VX_CSR_DSCRATCH(0) ||
	    csr > VX_CSR_DSCRATCH(3))
		return;
	for (l = 0; l < LANES; l++)
		if (warp_wide || l == VX_DSELECT_THREADSEL(f->dselect))
			f->ds[w][l][csr - VX_CSR_DSCRATCH(0)] = 0x1000 * rs1 + l;
}

static void fake_write(void *priv, uint32_t reg, uint32_t val)
{
	struct fake *f = priv;

	note(f, " W%s=%x", names[reg], val);
	if (reg == VX_DM_DSELECT)
		f->dselect = val;
	else if (reg == VX_DM_INJECT)
		f->inject = val;
	else if (reg == VX_DM_DCTRL && val & VX_DCTRL_INJECTREQ)
		fake_inject(f, val & VX_DCTRL_INJECTWARP);
	else if (reg >= VX_DM_DSCRATCH(0))
		*scratch(f, reg - VX_DM_DSCRATCH(0)) = val;
}

static void fake_delay(void *priv)
{
	((struct fake *)priv)->delays++;
}

static const struct vortex_dmseq_ops fake_ops = {
	.read = fake_read, .write = fake_write, .delay = fake_delay,
};

FIXTURE(dm) {
	struct fake f;
	struct vortex_dmseq dm;
	struct vortex_dmseq_warp ctx;
	uint32_t wmask[1], raw_wmask[1];
	char want[8192];
};

FIXTURE_SETUP(dm)
{
	memset(&self->f, 0, sizeof(self->f));
	self->dm = (struct vortex_dmseq){
		.ops = &fake_ops, .priv = &self->f, .polls = 10000,
		.clusters = 1, .cores = 1, .warps = WARPS, .threads = LANES,
		.wmask = self->wmask, .raw_wmask = self->raw_wmask,
	};
	vortex_dmseq_init(&self->dm);
	ASSERT_EQ(0, vortex_dmseq_activate(&self->dm));
	vortex_dmseq_warp_init(&self->ctx, &self->dm);
	self->f.halted = 3;	/* both warps debug-halted */
	self->f.log[0] = 0;
	self->want[0] = 0;
}

FIXTURE_TEARDOWN(dm)
{
}

static void want(char *w, const char *fmt, ...)
{
	size_t n = strlen(w);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w + n, 8192 - n, fmt, ap);
	va_end(ap);
}

/* DCTRL as the driver writes it for an injection into every lane, then the poll. */
static void want_inject(char *w, uint32_t insn)
{
	want(w, " WINJECT=%x WDCTRL=%x RDCTRL", insn,
	     VX_DCTRL_DMACTIVE | VX_DCTRL_INJECTREQ | VX_DCTRL_INJECTWARP);
}

/* Borrowing warp 1: its halt checked, DSCRATCH0-3 of each lane saved. */
static void want_borrow(char *w)
{
	want(w, " RWSTATUS");
	for (int l = 0; l < LANES; l++)
		want(w, " WDSELECT=%x RDS0 RDS1 RDS2 RDS3", VX_DSELECT_MAKE(0, 1, l));
}

static void want_restore(char *w, const uint32_t saved[LANES][4])
{
	for (int l = 0; l < LANES; l++)
		want(w, " WDSELECT=%x WDS0=%x WDS1=%x WDS2=%x WDS3=%x", VX_DSELECT_MAKE(0, 1, l),
		     saved[l][0], saved[l][1], saved[l][2], saved[l][3]);
}

/*
 * x1 of lane 1 of warp 1: "csrw dscratch0, x1" injected into every lane,
 * then lane 1's DSCRATCH0 read (two accesses a lane), the borrowed
 * DSCRATCHes given back.
 */
TEST_F(dm, gpr_read_transcript)
{
	struct drm_vortex_debug_reg_op op = { .warp = 1, .reg = DRM_VORTEX_DEBUG_REG_X(1),
					      .lanes = { 2 } };
	uint32_t vals[1][VX_DM_MAX_THREADS], nlanes, ran, saved[LANES][4];

	for (int l = 0; l < LANES; l++)
		for (int k = 0; k < 4; k++)
			saved[l][k] = self->f.ds[1][l][k] = 0x50 + 4 * l + k;
	ASSERT_EQ(0, vortex_dmseq_reg_op_check(&self->dm, &op, &nlanes));
	ASSERT_EQ(1, nlanes);
	ASSERT_EQ(0, vortex_dmseq_regs(&self->ctx, &op, 1, vals, &nlanes, &ran));
	EXPECT_EQ(1, ran);
	EXPECT_EQ(0x1001, vals[0][0]);	/* x1 of lane 1, as the fake card left it */
	want_borrow(self->want);
	want_inject(self->want, CSRW(VX_CSR_DSCRATCH(0), 1));
	want(self->want, " RDS0");	/* lane 1 still selected */
	want_restore(self->want, saved);
	EXPECT_STREQ(self->want, self->f.log);
	EXPECT_EQ(0x55, self->f.ds[1][1][1]);	/* given back */
}

/*
 * f2 of lane 0: through x5, saved in DSCRATCH3 and put back last, both
 * ways (every lane's own value first, so lane 1 keeps its f2).
 */
TEST_F(dm, fpr_write_injections)
{
	struct drm_vortex_debug_reg_op op = { .warp = 1, .reg = DRM_VORTEX_DEBUG_REG_F(2),
					      .lanes = { 1 }, .flags = DRM_VORTEX_DEBUG_REG_WRITE };
	uint32_t vals[1][VX_DM_MAX_THREADS] = { { 0x3f800000 } }, nlanes, ran;
	const uint32_t d0 = VX_CSR_DSCRATCH(0), d3 = VX_CSR_DSCRATCH(3);
	const uint32_t insns[] = {
		CSRW(d3, 5), FMV_X_W(5, 2), CSRW(d0, 5), CSRR(5, d3),
		CSRW(d3, 5), CSRR(5, d0), FMV_W_X(2, 5), CSRR(5, d3),
	};
	char *p = self->f.log;
	unsigned int i = 0, insn;

	ASSERT_EQ(0, vortex_dmseq_reg_op_check(&self->dm, &op, &nlanes));
	ASSERT_EQ(0, vortex_dmseq_regs(&self->ctx, &op, 1, vals, &nlanes, &ran));
	while ((p = strstr(p, " WINJECT="))) {
		ASSERT_EQ(1, sscanf(p, " WINJECT=%x", &insn));
		ASSERT_LT(i, sizeof(insns) / sizeof(insns[0]));
		EXPECT_EQ(insns[i], insn);
		i++;
		p++;
	}
	EXPECT_EQ(sizeof(insns) / sizeof(insns[0]), i);
	/* the value goes into lane 0's DSCRATCH0 between the two halves */
	EXPECT_TRUE(strstr(self->f.log, " WDSELECT=80 WDS0=3f800000 WINJECT=") != NULL);
}

/*
 * A warp's status: DCTRL's cause and DPC, then injection into lane 0
 * alone, DSCRATCH0 and DSCRATCH3 written back as they were.
 */
TEST_F(dm, status_gives_scratch_back)
{
	struct drm_vortex_debug_warp_state st = { .warp = 1 };
	const char *end;

	self->f.ds[1][0][0] = 0xaaaa;
	self->f.ds[1][0][3] = 0xbbbb;
	self->f.dpc = 0x80001234;
	ASSERT_EQ(0, vortex_dmseq_warp_status(&self->dm, &st));
	EXPECT_EQ(0x80001234, st.pc);
	want(self->want, " WDSELECT=%x RDCTRL RDPC RDS0 RDS3 WINJECT=%x WDCTRL=%x RDCTRL",
	     VX_DSELECT_MAKE(0, 1, 0), CSRW(VX_CSR_DSCRATCH(3), 5),
	     VX_DCTRL_DMACTIVE | VX_DCTRL_INJECTREQ);
	EXPECT_EQ(0, strncmp(self->want, self->f.log, strlen(self->want)));
	end = self->f.log + strlen(self->f.log) - strlen(" WDS0=aaaa WDS3=bbbb");
	EXPECT_STREQ(" WDS0=aaaa WDS3=bbbb", end);
}

/* A step that never finishes: DCTRL polled @polls times, a delay between, -EIO. */
TEST_F(dm, request_polls_are_bounded)
{
	self->dm.polls = 3;
	self->f.pending = ~0u;
	EXPECT_EQ(-EIO, vortex_dmseq_request(&self->dm, VX_DCTRL_STEPREQ, NULL));
	want(self->want, " WDCTRL=%x RDCTRL RDCTRL RDCTRL",
	     VX_DCTRL_DMACTIVE | VX_DCTRL_STEPREQ);
	EXPECT_STREQ(self->want, self->f.log);
	EXPECT_EQ(3, self->f.delays);
	/* a card that is gone reads all ones: -ENODEV at the first poll */
	self->f.gone = true;
	EXPECT_EQ(-ENODEV, vortex_dmseq_request(&self->dm, VX_DCTRL_STEPREQ, NULL));
}

/*
 * "All subsequent step and instruction injection commands then use the
 * selected warp/thread pair" (vxdebug-spec.md): a raw client's DSELECT and
 * mask come back before its next batch, wherever the driver moved them.
 */
TEST_F(dm, raw_selection_given_back)
{
	vortex_dmseq_raw_begin(&self->dm);
	vortex_dmseq_raw_write(&self->dm, VX_DM_DSELECT, VX_DSELECT_MAKE(0, 1, 1));
	vortex_dmseq_raw_write(&self->dm, VX_DM_WMASK, 2);
	vortex_dmseq_raw_end(&self->dm);
	vortex_dmseq_set_mask_all(&self->dm, true);	/* the driver's own sequence */
	vortex_dmseq_select(&self->dm, 0, 0);
	self->f.log[0] = 0;
	vortex_dmseq_raw_begin(&self->dm);
	/* the mask window first (already selected), then DSELECT back */
	EXPECT_STREQ(" WWMASK=2 WDSELECT=81", self->f.log);
	/* nothing moved since: nothing written */
	self->f.log[0] = 0;
	vortex_dmseq_raw_begin(&self->dm);
	EXPECT_STREQ("", self->f.log);
}

/*
 * The event queue keeps its last slot for OVERFLOW: 300 events into 256
 * slots queue 255 and an OVERFLOW counting the 45 dropped; it keeps
 * counting while it is the newest, and a queue with room again takes
 * events (uapi/vortex_accel.h, DRM_VORTEX_DEBUG_EVENT_OVERFLOW).
 */
TEST(event_queue_overflow)
{
	static struct vortex_dmseq_events q;
	struct drm_vortex_debug_event ev;
	uint32_t i, data[12] = { 7 };

	for (i = 0; i < 300; i++) {
		data[1] = i;
		vortex_dmseq_event_post(&q, DRM_VORTEX_DEBUG_EVENT_HALTED, 9, data, 12);
	}
	ASSERT_EQ(VORTEX_DEBUG_EVENTS, q.count);
	for (i = 0; i < VORTEX_DEBUG_EVENTS - 1; i++) {
		ASSERT_TRUE(vortex_dmseq_event_pop(&q, &ev));
		EXPECT_EQ(DRM_VORTEX_DEBUG_EVENT_HALTED, ev.type);
		EXPECT_EQ(i + 1, ev.seqno);
		EXPECT_EQ(9, ev.job);
		EXPECT_EQ(i, ev.data[1]);
		EXPECT_EQ(sizeof(ev), ev.size);
		if (i == 0) {
			/* one more, while OVERFLOW is still the newest: counted */
			vortex_dmseq_event_post(&q, DRM_VORTEX_DEBUG_EVENT_HALTED, 9, data, 12);
		}
	}
	vortex_dmseq_event_post(&q, DRM_VORTEX_DEBUG_EVENT_FINISHED, 9, data, 1);
	ASSERT_TRUE(vortex_dmseq_event_pop(&q, &ev));
	EXPECT_EQ(DRM_VORTEX_DEBUG_EVENT_OVERFLOW, ev.type);
	EXPECT_EQ(46, ev.data[0]);
	EXPECT_EQ(0, ev.job);
	ASSERT_TRUE(vortex_dmseq_event_pop(&q, &ev));
	EXPECT_EQ(DRM_VORTEX_DEBUG_EVENT_FINISHED, ev.type);
	EXPECT_EQ(7, ev.data[0]);
	EXPECT_EQ(0, ev.data[1]);	/* one word posted, the rest zero */
	EXPECT_FALSE(vortex_dmseq_event_pop(&q, &ev));
}

TEST_HARNESS_MAIN
