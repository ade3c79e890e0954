// SPDX-License-Identifier: MIT
/*
 * BAR0 glue registers of the simulated card, no QEMU: identification,
 * interrupts, clock, reset, status and the topology checks behind the
 * QEMU properties.
 */
#include "kselftest_harness.h"
#include "uncore_util.h"

FIXTURE(card) {
    struct card c;
};

FIXTURE_SETUP(card)
{
    ASSERT_EQ(0, card_open(&self->c, 1, 2, 4, 8));
}

FIXTURE_TEARDOWN(card)
{
    card_close(&self->c);
}

TEST_F(card, identification)
{
    struct card *c = &self->c;

    EXPECT_EQ(VX_ID_MAGIC, rd(c, VX_REG_ID));
    EXPECT_EQ(1, VX_VERSION_MAJOR(rd(c, VX_REG_VERSION)));
    EXPECT_EQ(VX_VERSION_CURRENT, rd(c, VX_REG_VERSION));
    EXPECT_EQ(VX_CAPS_DM | VX_CAPS_RING | VX_CAPS_FPU | VX_CAPS_MMU |
              VX_CAPS_CONSOLE | VX_CAPS_LMEM | VX_CAPS_FENCE_WB,
              rd(c, VX_REG_CAPS));
    EXPECT_EQ(TEST_VRAM_SIZE, rd(c, VX_REG_VRAM_SIZE_LO));
    EXPECT_EQ(0, rd(c, VX_REG_VRAM_SIZE_HI));
    EXPECT_EQ(VX_VRAM_DEVADDR, rd(c, VX_REG_VRAM_DEVADDR));
    /* upstream's 1 << LMEM_LOG_SIZE, hw/rtl/VX_config.vh (docs/hardware.md) */
    EXPECT_EQ(16384, rd(c, VX_REG_LMEM_SIZE));
    EXPECT_EQ(0, c->guest_errors);
}

TEST_F(card, id_is_read_only)
{
    struct card *c = &self->c;

    wr(c, VX_REG_ID, 0);
    wr(c, VX_REG_VRAM_SIZE_LO, 0);
    EXPECT_EQ(VX_ID_MAGIC, rd(c, VX_REG_ID));
    EXPECT_EQ(TEST_VRAM_SIZE, rd(c, VX_REG_VRAM_SIZE_LO));
    EXPECT_EQ(2, c->guest_errors);
}

TEST_F(card, unknown_offsets_read_zero_and_log)
{
    struct card *c = &self->c;
    const uint32_t offs[] = { 0x00c, 0x028, 0x058, 0x0b8, 0x800,
                              VX_DM_REG(VX_DM_NREGS), 0xfffc };

    for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
        int before = c->guest_errors;

        EXPECT_EQ(0, rd(c, offs[i]));
        EXPECT_EQ(before + 1, c->guest_errors) {
            TH_LOG("offset 0x%x", offs[i]);
        }
        wr(c, offs[i], 0xffffffff);
        EXPECT_EQ(before + 2, c->guest_errors);
    }
}

TEST_F(card, unaligned_and_out_of_range_offsets)
{
    struct card *c = &self->c;

    EXPECT_EQ(0, rd(c, VX_REG_ID + 1));
    EXPECT_EQ(0, rd(c, VX_MMIO_SIZE));
    wr(c, VX_REG_IRQ_ENABLE + 2, VX_IRQ_ALL);
    EXPECT_EQ(0, rd(c, VX_REG_IRQ_ENABLE));
    EXPECT_EQ(3, c->guest_errors);
}

TEST_F(card, irq_status_is_w1c_and_level_follows_enable)
{
    struct card *c = &self->c;

    vx_sim_irq_raise(c->sim, VX_IRQ_FENCE | VX_IRQ_DEBUG);
    EXPECT_EQ(VX_IRQ_FENCE | VX_IRQ_DEBUG, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_FALSE(c->irq_level);     /* nothing enabled */

    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_DEBUG);
    EXPECT_TRUE(c->irq_level);
    EXPECT_EQ(1, c->irq_rises);

    wr(c, VX_REG_IRQ_STATUS, VX_IRQ_FENCE);     /* not the enabled one */
    EXPECT_EQ(VX_IRQ_DEBUG, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_TRUE(c->irq_level);

    wr(c, VX_REG_IRQ_STATUS, VX_IRQ_DEBUG);
    EXPECT_EQ(0, rd(c, VX_REG_IRQ_STATUS));
    EXPECT_FALSE(c->irq_level);

    /* every 0->1 of status & enable is a new edge (one MSI each) */
    vx_sim_irq_raise(c->sim, VX_IRQ_DEBUG);
    EXPECT_TRUE(c->irq_level);
    EXPECT_EQ(2, c->irq_rises);
    wr(c, VX_REG_IRQ_ENABLE, 0);
    EXPECT_FALSE(c->irq_level);
    EXPECT_EQ(VX_IRQ_DEBUG, rd(c, VX_REG_IRQ_STATUS));
}

TEST_F(card, irq_enable_reserved_bits)
{
    struct card *c = &self->c;

    wr(c, VX_REG_IRQ_ENABLE, 0xffffffff);
    EXPECT_EQ(VX_IRQ_ALL, rd(c, VX_REG_IRQ_ENABLE));
    EXPECT_EQ(1, c->guest_errors);
}

TEST_F(card, clock_counts_instructions_and_latches_hi)
{
    struct card *c = &self->c;
    uint32_t lo0, lo1;

    PUT_CODE(c, ADDI(5, 5, 1), JAL(0, -4));
    ring_setup(c, 0x1000);
    ring_launch_simple(c, 1, 8);
    ring_kick(c);
    lo0 = rd(c, VX_REG_CLOCK_LO);
    vx_sim_run(c->sim, 500);
    lo1 = rd(c, VX_REG_CLOCK_LO);
    EXPECT_EQ(500, lo1 - lo0);
    EXPECT_EQ(0, rd(c, VX_REG_CLOCK_HI));

    c->sim->clock = 0x100000005ull;
    EXPECT_EQ(0, rd(c, VX_REG_CLOCK_HI));       /* latched by the last LO */
    EXPECT_EQ(5, rd(c, VX_REG_CLOCK_LO));
    c->sim->clock = 0x2ffffffffull;
    EXPECT_EQ(1, rd(c, VX_REG_CLOCK_HI));
}

TEST_F(card, status_bits)
{
    struct card *c = &self->c;

    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
    PUT_CODE(c, JSELF);
    ring_setup(c, 0x1000);
    ring_launch_simple(c, 1, 8);
    ring_kick(c);
    EXPECT_EQ(VX_STATUS_CP_BUSY, rd(c, VX_REG_STATUS));
    vx_sim_run(c->sim, 10);
    EXPECT_EQ(VX_STATUS_CP_BUSY | VX_STATUS_WARPS_ACTIVE,
              rd(c, VX_REG_STATUS));

    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE);
    dm_wr(c, VX_DM_WMASK, 1);
    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_HALTREQ);
    EXPECT_EQ(VX_STATUS_CP_BUSY | VX_STATUS_WARPS_ACTIVE | VX_STATUS_HALTED,
              rd(c, VX_REG_STATUS));
}

TEST_F(card, reset_key)
{
    struct card *c = &self->c;

    PUT_CODE(c, JSELF);
    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    ring_setup(c, 0x1000);
    ring_launch_simple(c, 2, 8);
    ring_kick(c);
    vx_sim_run(c->sim, 100);
    ASSERT_TRUE(rd(c, VX_REG_STATUS) & VX_STATUS_WARPS_ACTIVE);

    wr(c, VX_REG_RESET, 1);     /* not the key: nothing happens */
    EXPECT_EQ(1, c->guest_errors);
    EXPECT_TRUE(rd(c, VX_REG_STATUS) & VX_STATUS_WARPS_ACTIVE);
    EXPECT_EQ(VX_IRQ_ALL, rd(c, VX_REG_IRQ_ENABLE));

    wr(c, VX_REG_RESET, VX_RESET_KEY);
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
    EXPECT_EQ(0, rd(c, VX_REG_IRQ_ENABLE));
    EXPECT_EQ(0, rd(c, VX_REG_RING_CTRL));
    EXPECT_EQ(0, rd(c, VX_REG_RING_BASE));
    EXPECT_FALSE(vx_sim_runnable(c->sim));
}

TEST_F(card, reset_clears_error_capture)
{
    struct card *c = &self->c;

    PUT_CODE(c, ILLEGAL);
    wr(c, VX_REG_IRQ_ENABLE, VX_IRQ_ERROR);
    ring_setup(c, 0x1000);
    ring_launch_simple(c, 1, 8);
    ring_kick(c);
    run_idle(c, 100);
    ASSERT_EQ(VX_ERR_ILLEGAL_INSTR, rd(c, VX_REG_ERR_CAUSE));
    EXPECT_EQ(DEV(CODE_OFF), rd(c, VX_REG_ERR_PC));
    EXPECT_EQ(0xff, rd(c, VX_REG_ERR_TMASK(0)));
    EXPECT_TRUE(rd(c, VX_REG_STATUS) & VX_STATUS_ERROR);
    EXPECT_TRUE(c->irq_level);

    wr(c, VX_REG_RESET, VX_RESET_KEY);
    EXPECT_FALSE(c->irq_level);
    for (uint32_t off = VX_REG_ERR_CAUSE; off <= VX_REG_ERR_PKT; off += 4) {
        EXPECT_EQ(0, rd(c, off));
    }
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
}

TEST_F(card, power_on_reset_clears_dm)
{
    struct card *c = &self->c;

    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE);
    dm_wr(c, VX_DM_DCONFIG, VX_DCONFIG_EBREAKH);
    vx_sim_reset(c->sim);
    EXPECT_EQ(0, dm_rd(c, VX_DM_DCTRL));
    dm_wr(c, VX_DM_DCTRL, VX_DCTRL_DMACTIVE);
    EXPECT_EQ(0, dm_rd(c, VX_DM_DCONFIG));
}

/*
 * Guest input must never crash the card: random values to every register
 * (and some non-registers) with random VRAM behind the ring, the code and
 * the injected instructions.  Run under ASan/UBSan to make it count.
 */
TEST_F(card, random_register_storm)
{
    struct card *c = &self->c;
    uint32_t seed = 12345;

    for (uint32_t i = 0; i < 0x200000; i += 4) {
        seed = seed * 1103515245 + 12345;
        vram32_set(c, i, seed);
    }
    for (int i = 0; i < 200000; i++) {
        uint32_t r = (uint32_t)random(), v = (uint32_t)random();
        uint32_t off;

        switch (r % 4) {
        case 0:
            off = (r >> 8) % 0x100 & ~3u;
            break;
        case 1:
            off = VX_DM_REG((r >> 8) % (VX_DM_NREGS + 2));
            break;
        case 2:
            off = VX_REG_RING_BASE + ((r >> 8) % 10) * 4;
            v = (r & 0x100) ? DEV(v & 0x1ff000) : v;
            if (off == VX_REG_RING_SIZE && (r & 0x200)) {
                v = 0x1000u << (v % 3);
            }
            break;
        default:
            off = (r >> 8) % VX_MMIO_SIZE;
            break;
        }
        if (off == VX_DM_REG(VX_DM_DCTRL) && !(r & 0x1000)) {
            v |= VX_DCTRL_DMACTIVE;
        }
        if (off == VX_REG_RESET && (r & 0x2000)) {
            v = VX_RESET_KEY;
        }
        if (r & 1) {
            wr(c, off, v);
        } else {
            rd(c, off);
        }
        if ((r & 0x3f) == 0) {
            vx_sim_run(c->sim, 200);
        }
    }
    /* still a card: a reset brings it back */
    vx_sim_reset(c->sim);
    EXPECT_EQ(VX_ID_MAGIC, rd(c, VX_REG_ID));
    EXPECT_EQ(0, rd(c, VX_REG_STATUS));
}

/* ------------------------------------------------------------ topology */

/* A topology; the fields after vram_size keep their zero defaults. */
#define CFG(clusters_, cores_, warps_, threads_, vram_) { \
        .clusters = (clusters_), .cores = (cores_), .warps = (warps_), \
        .threads = (threads_), .vram_size = (vram_) }

struct cfg_case {
    struct vx_sim_config cfg;
    const char *field;      /* NULL: valid */
};

TEST(config_check_names_the_field)
{
    const uint64_t M = 1 << 20;
    const struct cfg_case cases[] = {
        { CFG(1, 2, 4, 8, 256 * M), NULL },
        { CFG(127, 1, 1, 1, 16 * M), NULL },
        { CFG(1, 1, 1, 128, 2048 * M), NULL },
        { CFG(1, 64, 511, 1, 16 * M), NULL },        /* 32704 warps */
        { CFG(0, 2, 4, 8, 256 * M), "clusters" },
        { CFG(128, 2, 4, 8, 256 * M), "clusters" },
        { CFG(1, 0, 4, 8, 256 * M), "cores" },
        { CFG(1, 512, 4, 8, 256 * M), "cores" },
        { CFG(1, 2, 0, 8, 256 * M), "warps" },
        { CFG(1, 2, 512, 8, 256 * M), "warps" },
        { CFG(1, 2, 4, 0, 256 * M), "threads" },
        { CFG(1, 2, 4, 6, 256 * M), "threads" },
        { CFG(1, 2, 4, 256, 256 * M), "threads" },
        { CFG(2, 256, 64, 8, 256 * M), NULL },             /* exactly 32768 */
        { CFG(2, 256, 65, 8, 256 * M), "clusters * cores * warps" },
        { CFG(1, 2, 4, 8, 8 * M), "vram" },
        { CFG(1, 2, 4, 8, 4096 * M), "vram" },
        { CFG(1, 2, 4, 8, 100 * M), "vram" },
        { CFG(1, 2, 4, 8, 0), "vram" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char err[200] = "";
        int r = vx_sim_config_check(&cases[i].cfg, err, sizeof(err));

        if (!cases[i].field) {
            EXPECT_EQ(0, r) {
                TH_LOG("case %zu: %s", i, err);
            }
            continue;
        }
        EXPECT_EQ(-1, r);
        EXPECT_EQ(0, strncmp(err, cases[i].field, strlen(cases[i].field))) {
            TH_LOG("case %zu: '%s' does not start with '%s'", i, err,
                   cases[i].field);
        }
    }
}

TEST(new_rejects_bad_config)
{
    struct vx_sim_config cfg = CFG(1, 2, 4, 3, TEST_VRAM_SIZE);
    static uint8_t dummy[1];

    EXPECT_EQ(NULL, vx_sim_new(&cfg, dummy, NULL, NULL));
    EXPECT_EQ(NULL, vx_sim_new(NULL, dummy, NULL, NULL));
}

/*
 * What "best" must be (vx_sim.h, VX_SIM_EXEC_BEST): jit where the host
 * can run it (sim_bench measured it above avx2 on every figure), else
 * avx2, else burst.
 */
static enum vx_sim_exec best_exec(void)
{
    if (vx_sim_exec_available(VX_SIM_EXEC_JIT)) {
        return VX_SIM_EXEC_JIT;
    }
    return vx_sim_exec_available(VX_SIM_EXEC_AVX2) ? VX_SIM_EXEC_AVX2
                                                   : VX_SIM_EXEC_BURST;
}

/*
 * A card runs the executor its config names (the harness runs every
 * simulator suite once per executor, parsing VX_SIM_EXEC into the
 * config), and vx_sim_set_exec() refuses what the host cannot run rather
 * than fall back.
 */
TEST(executor_selection)
{
    struct vx_sim_config cfg = CFG(1, 1, 1, 8, TEST_VRAM_SIZE);
    const char *want = getenv("VX_SIM_EXEC");
    uint8_t *vram = calloc(1, TEST_VRAM_SIZE);
    struct vx_sim *sim;

    ASSERT_NE(NULL, vram);
    ASSERT_EQ(0, vx_sim_exec_parse(want, &cfg.exec, NULL, 0));
    sim = vx_sim_new(&cfg, vram, NULL, NULL);
    ASSERT_NE(NULL, sim);
    if (want && *want && strcmp(want, "best") != 0) {
        EXPECT_STREQ(want, vx_sim_exec_name(vx_sim_get_exec(sim)));
    }
    TH_LOG("executor: %s", vx_sim_exec_name(vx_sim_get_exec(sim)));

    EXPECT_EQ(0, vx_sim_set_exec(sim, VX_SIM_EXEC_REF));
    EXPECT_EQ(VX_SIM_EXEC_REF, vx_sim_get_exec(sim));
    EXPECT_EQ(0, vx_sim_set_exec(sim, VX_SIM_EXEC_BURST));
    EXPECT_EQ(VX_SIM_EXEC_BURST, vx_sim_get_exec(sim));
    EXPECT_EQ(vx_sim_exec_available(VX_SIM_EXEC_AVX2) ? 0 : -1,
              vx_sim_set_exec(sim, VX_SIM_EXEC_AVX2));
    EXPECT_EQ(vx_sim_exec_available(VX_SIM_EXEC_JIT) ? 0 : -1,
              vx_sim_set_exec(sim, VX_SIM_EXEC_JIT));
    EXPECT_EQ(0, vx_sim_set_exec(sim, VX_SIM_EXEC_BEST));
    EXPECT_EQ(best_exec(), vx_sim_get_exec(sim));
    vx_sim_free(sim);
    free(vram);
}

/*
 * The executor is the config's, not the environment's: the core reads no
 * VX_SIM_EXEC (issue 27: "the property is new; getenv in the core goes"),
 * so a card configured for the interpreter runs it whatever the
 * variable says, and a zeroed config is the default (best).
 */
TEST(executor_is_a_config_property)
{
    struct vx_sim_config cfg = CFG(1, 1, 1, 8, TEST_VRAM_SIZE);
    const char *was = getenv("VX_SIM_EXEC");
    char *saved = was ? strdup(was) : NULL;
    uint8_t *vram = calloc(1, TEST_VRAM_SIZE);
    struct vx_sim *sim;

    ASSERT_NE(NULL, vram);
    setenv("VX_SIM_EXEC", "burst", 1);
    cfg.exec = VX_SIM_EXEC_REF;
    sim = vx_sim_new(&cfg, vram, NULL, NULL);
    ASSERT_NE(NULL, sim);
    EXPECT_EQ(VX_SIM_EXEC_REF, vx_sim_get_exec(sim));
    vx_sim_free(sim);

    cfg.exec = VX_SIM_EXEC_BEST;
    sim = vx_sim_new(&cfg, vram, NULL, NULL);
    ASSERT_NE(NULL, sim);
    EXPECT_EQ(best_exec(), vx_sim_get_exec(sim));
    vx_sim_free(sim);
    if (saved) {
        setenv("VX_SIM_EXEC", saved, 1);
    } else {
        unsetenv("VX_SIM_EXEC");
    }
    free(saved);
    free(vram);
}

TEST(executor_unknown_name_refused)
{
    struct vx_sim_config cfg = CFG(1, 1, 1, 8, TEST_VRAM_SIZE);
    enum vx_sim_exec e = VX_SIM_EXEC_REF;
    static uint8_t dummy[1];
    char err[200] = "";

    EXPECT_EQ(-1, vx_sim_exec_parse("fast", &e, err, sizeof(err)));
    EXPECT_EQ(0, strncmp(err, "executor fast", 13)) {
        TH_LOG("'%s'", err);
    }
    EXPECT_EQ(0, vx_sim_exec_parse("ref", &e, err, sizeof(err)));
    EXPECT_EQ(VX_SIM_EXEC_REF, e);
    EXPECT_EQ(0, vx_sim_exec_parse(NULL, &e, err, sizeof(err)));
    EXPECT_EQ(VX_SIM_EXEC_BEST, e);
    /* an executor out of the enum is a config error */
    cfg.exec = (enum vx_sim_exec)42;
    EXPECT_EQ(-1, vx_sim_config_check(&cfg, err, sizeof(err)));
    EXPECT_EQ(0, strncmp(err, "executor", 8)) {
        TH_LOG("'%s'", err);
    }
    EXPECT_EQ(NULL, vx_sim_new(&cfg, dummy, NULL, NULL));
}

TEST(large_topology_and_no_hooks)
{
    struct vx_sim_config cfg = CFG(4, 64, 128, 128, TEST_VRAM_SIZE);
    uint8_t *vram = calloc(1, TEST_VRAM_SIZE);
    struct vx_sim *sim;

    ASSERT_NE(NULL, vram);
    sim = vx_sim_new(&cfg, vram, NULL, NULL);
    ASSERT_NE(NULL, sim);
    /* guest errors and interrupts without hooks must not crash */
    vx_sim_mmio_read(sim, 0x800);
    vx_sim_mmio_write(sim, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
    vx_sim_irq_raise(sim, VX_IRQ_FENCE);
    EXPECT_EQ(VX_PLATFORM_MAKE(7, 128, 64, 4),
              vx_sim_mmio_read(sim, VX_DM_REG(VX_DM_PLATFORM)));
    vx_sim_free(sim);
    free(vram);
}

TEST_HARNESS_MAIN
