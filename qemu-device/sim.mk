# SPDX-License-Identifier: GPL-2.0
#
# Simulator core (plain C, no QEMU headers) and its host tests.
# Included by the top-level Makefile; paths are relative to $(TOP).
#
#   $(O)/host/libvxsim.a       every qemu-device/sim/*.c
#   $(O)/rv/isa/NAME.sim.elf   device test programs (bare metal, at VRAM)
#   $(O)/rv/isa/NAME.linux.elf the same program for qemu-riscv32 (diff_* only)
#   $(O)/host/tests/...        host test binaries (TAP, kselftest harness)

SIM_DIR := qemu-device/sim
SIM_TDIR := qemu-device/tests
SIM_INC := -I$(TOP)/hw -I$(TOP)/$(SIM_DIR)
SIM_HDRS := $(wildcard $(SIM_DIR)/*.h) hw/vortex_regs.h

# ---------------------------------------------------------------- library
# A wildcard, so either sim helper can add a file without editing this;
# but the translator emits x86-64 code, so other machines get its stub
# (as qemu-device/meson.build does).  $(call sim_srcs,MACHINE) is the
# list for a compiler's -dumpmachine (make lint's aarch64 build uses it).
SIM_JIT_SRCS := $(addprefix $(SIM_DIR)/,vx_jit_translate.c vx_jit_dispatch.c \
	vx_jit_helpers.c)
SIM_NOJIT_SRCS := $(SIM_DIR)/vx_jit_none.c
sim_srcs = $(filter-out $(SIM_JIT_SRCS) $(SIM_NOJIT_SRCS),$(wildcard $(SIM_DIR)/*.c)) \
	$(if $(filter x86_64-%,$(1)),$(SIM_JIT_SRCS),$(SIM_NOJIT_SRCS))
SIM_SRCS := $(call sim_srcs,$(shell $(HOST_CC) -dumpmachine))
SIM_SRCS_AARCH64 := $(call sim_srcs,aarch64-linux-gnu)
SIM_OBJS := $(patsubst $(SIM_DIR)/%.c,$(O)/host/sim/%.o,$(SIM_SRCS))
LIBVXSIM := $(O)/host/libvxsim.a

$(O)/host/sim/%.o: $(SIM_DIR)/%.c $(SIM_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SIM_INC) -c -o $@ $<

$(LIBVXSIM): $(SIM_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# ------------------------------------------------- device test programs
# diff_*.{c,S}: built twice, for the simulator and for qemu-riscv32 user
# mode, and compared byte for byte by test_isa.
# sim_*.{c,S}: simulator only (SIMT, exceptions).
SIM_RV_DIR := $(O)/rv/isa
SIM_ISA_SRCS := $(wildcard $(SIM_TDIR)/isa/diff_*.c $(SIM_TDIR)/isa/diff_*.S \
	$(SIM_TDIR)/isa/sim_*.c $(SIM_TDIR)/isa/sim_*.S)
SIM_ISA_NAMES := $(basename $(notdir $(SIM_ISA_SRCS)))
SIM_DIFF_NAMES := $(filter diff_%,$(SIM_ISA_NAMES))
SIM_RV_ELFS := $(SIM_ISA_NAMES:%=$(SIM_RV_DIR)/%.sim.elf) \
	$(SIM_DIFF_NAMES:%=$(SIM_RV_DIR)/%.linux.elf)
SIM_RV_CFLAGS = $(RV_CFLAGS) -I$(TOP)/hw -I$(TOP)/$(SIM_TDIR)/isa

$(SIM_RV_DIR)/%.o: $(SIM_TDIR)/isa/%.c $(wildcard $(SIM_TDIR)/isa/*.h)
	@mkdir -p $(@D)
	$(RV_CC) $(SIM_RV_CFLAGS) -c -o $@ $<

$(SIM_RV_DIR)/%.o: $(SIM_TDIR)/isa/%.S $(wildcard $(SIM_TDIR)/isa/*.h)
	@mkdir -p $(@D)
	$(RV_CC) $(SIM_RV_CFLAGS) -c -o $@ $<

$(SIM_RV_DIR)/%.sim.elf: $(SIM_RV_DIR)/%.o $(SIM_RV_DIR)/crt_sim.o \
		$(SIM_TDIR)/isa/sim.ld
	$(RV_CC) $(RV_LDFLAGS) -T $(SIM_TDIR)/isa/sim.ld -o $@ \
		$(SIM_RV_DIR)/crt_sim.o $< $(RV_LIBGCC)

$(SIM_RV_DIR)/%.linux.elf: $(SIM_RV_DIR)/%.o $(SIM_RV_DIR)/crt_linux.o
	$(RV_CC) $(RV_LDFLAGS) -Wl,--image-base=0x10000 -o $@ \
		$(SIM_RV_DIR)/crt_linux.o $< $(RV_LIBGCC)

RV_KERNELS += $(SIM_RV_ELFS)

# ------------------------------------------------------ host tests
SIM_TEST_CFLAGS = $(HOST_CFLAGS) $(SIM_INC) -I$(TOP)/$(SIM_TDIR) -I$(TOP)/testlib $(KSFT_CFLAGS) \
	-DVX_TEST_RV_DIR='"$(abspath $(SIM_RV_DIR))"'
SIM_TEST_LIBS := $(O)/host/tests/sim_loader.o $(LIBVXSIM)

$(O)/host/tests/sim_loader.o: $(SIM_TDIR)/sim_loader.c $(SIM_TDIR)/sim_loader.h \
		$(SIM_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(SIM_TEST_CFLAGS) -c -o $@ $<

# Each test binary $(O)/host/tests/NAME comes from $(SIM_TDIR)/NAME.c and
# runs after every device program is built.
$(O)/host/tests/%: $(SIM_TDIR)/%.c $(SIM_TEST_LIBS) $(SIM_HDRS) \
		$(SIM_TDIR)/sim_loader.h | $(SIM_RV_ELFS)
	@mkdir -p $(@D)
	$(HOST_CC) $(SIM_TEST_CFLAGS) -o $@ $< $(SIM_TEST_LIBS) -lm

# Core tests (ISA differential, SIMT, exceptions, CSRs and extensions).
HOST_TESTS += $(O)/host/tests/test_isa $(O)/host/tests/test_simt \
	$(O)/host/tests/test_simt_vortex $(O)/host/tests/test_exc $(O)/host/tests/test_isa_ext

# Uncore tests (registers, command processor, fast doorbell, fence
# write-back, Debug Module, address translation): hand-assembled programs
# from tests/uncore_util.h, so they need
# neither the RV toolchain nor sim_loader; a static pattern rule keeps them
# off those prerequisites.
UNCORE_TESTS := $(O)/host/tests/test_regs $(O)/host/tests/test_cp \
	$(O)/host/tests/test_doorbell $(O)/host/tests/test_fence_wb \
	$(O)/host/tests/test_dm \
	$(O)/host/tests/test_mmu $(O)/host/tests/test_lmem \
	$(O)/host/tests/test_park $(O)/host/tests/test_jit_diff \
	$(O)/host/tests/test_branch $(O)/host/tests/test_coalesce

$(UNCORE_TESTS): $(O)/host/tests/%: $(SIM_TDIR)/%.c $(LIBVXSIM) $(SIM_HDRS) \
		$(SIM_TDIR)/uncore_util.h $(SIM_TDIR)/exec_matrix.h testlib/vx_sv32.h
	@mkdir -p $(@D)
	$(HOST_CC) $(SIM_TEST_CFLAGS) -o $@ $< $(LIBVXSIM) -lm

HOST_TESTS += $(UNCORE_TESTS)

# Suites that scripts/run-host-tests.sh runs once per executor
# (VX_SIM_EXEC=ref, burst, avx2, jit), so a bug in any of them fails the
# run.  test_jit_diff, test_branch and test_coalesce pick their executors
# themselves (exec_matrix.h): they run once.
SIM_EXEC_TESTS := $(O)/host/tests/test_isa $(O)/host/tests/test_simt \
	$(O)/host/tests/test_simt_vortex $(O)/host/tests/test_exc $(O)/host/tests/test_isa_ext \
	$(filter-out %/test_jit_diff %/test_branch %/test_coalesce,$(UNCORE_TESTS)) \
	$(O)/host/userspace/test_kernels_sim

# The QEMU device itself, through qtest (needs VX_QEMU, set by make check).
HOST_TESTS += $(SIM_TDIR)/qtest_vortex.py

# ------------------------------------------------------- benchmark
# bench_vec: one assembly file, linked for the simulator (sim.ld) and as a
# Linux user-mode program; sim_bench runs both and prints the ratio.
$(SIM_RV_DIR)/bench_vec.o: bench/sim_bench_kernel.S
	@mkdir -p $(@D)
	$(RV_CC) $(SIM_RV_CFLAGS) -c -o $@ $<

$(SIM_RV_DIR)/bench_vec.sim.elf: $(SIM_RV_DIR)/bench_vec.o $(SIM_TDIR)/isa/sim.ld
	$(RV_CC) $(RV_LDFLAGS) -T $(SIM_TDIR)/isa/sim.ld -Wl,-e,vec_sim_entry -o $@ $<

$(SIM_RV_DIR)/bench_vec.linux.elf: $(SIM_RV_DIR)/bench_vec.o
	$(RV_CC) $(RV_LDFLAGS) -Wl,--image-base=0x10000 -o $@ $<

BENCH_SIM_ELFS := $(SIM_RV_DIR)/bench_vec.sim.elf $(SIM_RV_DIR)/bench_vec.linux.elf
RV_KERNELS += $(BENCH_SIM_ELFS)

$(O)/host/bench/sim_bench: bench/sim_bench.c $(SIM_TEST_LIBS) $(SIM_HDRS) \
		$(SIM_TDIR)/sim_loader.h | $(BENCH_SIM_ELFS)
	@mkdir -p $(@D)
	$(HOST_CC) $(SIM_TEST_CFLAGS) -o $@ $< $(SIM_TEST_LIBS) -lm

BENCHES += $(O)/host/bench/sim_bench

.PHONY: sim-tests
sim-tests: $(filter $(O)/host/tests/%,$(HOST_TESTS))
	@for t in $^; do echo "# $$t"; $$t || exit 1; done
