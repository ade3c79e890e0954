# SPDX-License-Identifier: GPL-2.0
#
# libvortex-debug, vxdbg, their tests and the debugger benchmark.
# Included by the top-level Makefile; paths are relative to $(TOP).
#
#   $(O)/userspace/libvortex-debug.a      API layer, driver backend, CLI core
#   $(O)/userspace/libvortex-debug-sim.a  simulator backend (host only)
#   $(O)/guest/vxdbg                      the debugger (static, -> guest /vortex/bin)
#   $(O)/host/userspace/vxdbg-sim         the same debugger on the simulator
#   $(O)/host/userspace/test_vxdbg_*      host tests (TAP)
#   $(O)/guest/selftests/vortex_vxdbg_*   guest tests (TAP)
#   $(O)/guest/bench/debug_bench          guest benchmark

DBG_DIR := userspace/debug
DBG_INC := -I$(TOP)/$(DBG_DIR) $(US_INC) $(GUEST_INC) -I$(TOP)/qemu-device/sim \
	-I$(TOP)/qemu-device/tests -I$(TOP)/testlib -I$(TOP)/dbgcore
DBG_CFLAGS = $(HOST_CFLAGS) $(DBG_INC)
DBG_HDRS := $(wildcard $(DBG_DIR)/*.h) $(US_HDRS) hw/vortex_regs.h hw/vortex_causes.h \
	$(wildcard dbgcore/*.h) hw/vortex_rv32.h qemu-device/sim/vx_sim.h testlib/vx_asm.h

DBG_LIB := $(O)/userspace/libvortex-debug.a
DBG_LIB_NAMES := vxdbg vxdbg_console vxdbg_state vxdbg_events vxdbg_ioctl vx_disasm vxdbg_cli \
	vx_lineedit vx_conn vxdbg_tool
DBG_SIM_LIB := $(O)/userspace/libvortex-debug-sim.a
# vortex_dmseq*: the debugger core (dbgcore/): the driver's Debug Module
# sequences, session checks and breakpoints, the same sources the module
# compiles (Kbuild), so the simulator backend makes the driver's accesses
# and refuses what the driver refuses.
DBG_SEQ_NAMES := vortex_dmseq vortex_dmseq_warp vortex_dmseq_session vortex_dmseq_check \
	vortex_dmseq_bp
DBG_SIM_NAMES := vxdbg_sim vxdbg_sim_session vxdbg_sim_start vxdbg_tool_sim $(DBG_SEQ_NAMES)

$(O)/userspace/debug/%.o: $(DBG_DIR)/%.c $(DBG_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(DBG_CFLAGS) -c -o $@ $<

# A Vortex binary on the simulator is laid out with libvortexrt's own memory map.
$(O)/userspace/debug/vxdbg_sim_start.o: DBG_CFLAGS += -I$(TOP)/$(US_DIR)/vxrt
$(O)/userspace/debug/vxdbg_sim_start.o: $(US_DIR)/vxrt/vxrt_internal.h

$(DBG_SEQ_NAMES:%=$(O)/userspace/debug/%.o): $(O)/userspace/debug/%.o: dbgcore/%.c $(DBG_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(DBG_CFLAGS) -c -o $@ $<

$(DBG_LIB): $(DBG_LIB_NAMES:%=$(O)/userspace/debug/%.o)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(DBG_SIM_LIB): $(DBG_SIM_NAMES:%=$(O)/userspace/debug/%.o)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# Host programs link the simulator; guest programs are static.
DBG_HOST_LIBS = $(DBG_LIB) $(DBG_SIM_LIB) $(US_LIB) $(TESTLIB_SAMPLES) $(LIBVXSIM) -lm
DBG_GUEST_LIBS = $(DBG_LIB) $(US_LIB)

# -------------------------------------------------------------- vxdbg
$(O)/guest/vxdbg: userspace/tools/vxdbg.c $(DBG_HDRS) $(DBG_LIB) $(US_LIB)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(DBG_INC) -o $@ $< $(DBG_GUEST_LIBS)

$(O)/host/userspace/vxdbg-sim: userspace/tools/vxdbg.c $(DBG_HDRS) $(DBG_LIB) \
		$(DBG_SIM_LIB) $(US_LIB) $(TESTLIB_SAMPLES) $(LIBVXSIM)
	@mkdir -p $(@D)
	$(HOST_CC) $(DBG_CFLAGS) -DVXDBG_SIM -o $@ $< $(DBG_HOST_LIBS)

GUEST_FILES += $(O)/guest/vxdbg
DBG_HOST_TOOLS := $(O)/host/userspace/vxdbg-sim
host-all: $(DBG_HOST_TOOLS)

# ------------------------------------------------------------- tests
# test_vxdbg_api: one source, built for the host (simulator backend) and
# for the guest (driver backend), see tests/vxdbg_target.h.
DBG_TDIR := $(DBG_DIR)/tests
DBG_THDRS := $(DBG_HDRS) $(wildcard $(DBG_TDIR)/*.h)

$(O)/host/userspace/test_vxdbg_api: $(DBG_TDIR)/test_vxdbg_api.c $(DBG_THDRS) \
		$(DBG_LIB) $(DBG_SIM_LIB) $(US_LIB) $(TESTLIB_SAMPLES) $(LIBVXSIM) | $(US_KERNELS)
	@mkdir -p $(@D)
	$(HOST_CC) $(DBG_CFLAGS) -I$(TOP)/$(DBG_TDIR) $(KSFT_CFLAGS) -DVXDBG_TEST_SIM \
		-DVX_KERNEL_DIR='"$(abspath $(RV_KDIR))"' -o $@ $< $(DBG_HOST_LIBS)

$(O)/guest/selftests/vortex_vxdbg_api_test: $(DBG_TDIR)/test_vxdbg_api.c $(DBG_THDRS) \
		$(DBG_LIB) $(US_LIB)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(DBG_INC) -I$(TOP)/$(DBG_TDIR) \
		$(KSFT_CFLAGS) -o $@ $< $(DBG_GUEST_LIBS)

HOST_TESTS += $(O)/host/userspace/test_vxdbg_api
GUEST_TESTS += $(O)/guest/selftests/vortex_vxdbg_api_test

# test_vortex_dmseq: the shared DM sequences (dbgcore/vortex_dmseq*.c) access by
# access over a recording DM.
$(O)/host/userspace/test_vortex_dmseq: $(DBG_TDIR)/test_vortex_dmseq.c $(DBG_THDRS) \
		$(DBG_SEQ_NAMES:%=$(O)/userspace/debug/%.o)
	@mkdir -p $(@D)
	$(HOST_CC) $(DBG_CFLAGS) $(KSFT_CFLAGS) -o $@ $< $(DBG_SEQ_NAMES:%=$(O)/userspace/debug/%.o)

HOST_TESTS += $(O)/host/userspace/test_vortex_dmseq

# test_vortex_rv32: hw/vortex_rv32.h's encoders against an assembler's words.
$(O)/host/userspace/test_vortex_rv32: $(DBG_TDIR)/test_vortex_rv32.c $(DBG_THDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(DBG_CFLAGS) $(KSFT_CFLAGS) -o $@ $<

HOST_TESTS += $(O)/host/userspace/test_vortex_rv32

# test_vx_disasm: the disassembler against llvm-objdump on every device program.
$(O)/host/userspace/test_vx_disasm: $(DBG_TDIR)/test_vx_disasm.c $(DBG_THDRS) \
		$(DBG_LIB) | $(US_KERNELS) $(SIM_RV_ELFS)
	@mkdir -p $(@D)
	$(HOST_CC) $(DBG_CFLAGS) $(KSFT_CFLAGS) -DVX_KERNEL_DIR='"$(abspath $(RV_KDIR))"' \
		-DVX_TEST_RV_DIR='"$(abspath $(SIM_RV_DIR))"' -o $@ $< $(DBG_LIB)

HOST_TESTS += $(O)/host/userspace/test_vx_disasm

# bt_calls.elf: a kernel with a frame that keeps ra on the stack, for bt.
$(RV_KDIR)/obj/bt_calls.o: $(DBG_TDIR)/bt_calls.c $(RV_KHDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_KCFLAGS) -c -o $@ $<

# test_vxdbg_cli: vxdbg -x SCRIPT on vecadd started halted; the host runs
# vxdbg-sim, the guest vxdbg on vortex-run.
$(O)/host/userspace/test_vxdbg_cli: $(DBG_TDIR)/test_vxdbg_cli.c \
		$(O)/host/userspace/vxdbg-sim | $(US_KERNELS) $(RV_KDIR)/bt_calls.elf
	@mkdir -p $(@D)
	$(HOST_CC) $(DBG_CFLAGS) $(KSFT_CFLAGS) -DVXDBG_TEST_SIM \
		-DVXDBG_SIM_PATH='"$(abspath $(O)/host/userspace/vxdbg-sim)"' \
		-DVX_KERNEL_DIR='"$(abspath $(RV_KDIR))"' -o $@ $<

$(O)/guest/selftests/vortex_vxdbg_cli_test: $(DBG_TDIR)/test_vxdbg_cli.c $(US_LIB) $(US_HDRS)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(US_INC) $(GUEST_INC) $(KSFT_CFLAGS) \
		-o $@ $< $(US_LIB)

HOST_TESTS += $(O)/host/userspace/test_vxdbg_cli
GUEST_TESTS += $(O)/guest/selftests/vortex_vxdbg_cli_test

# test_vxdbg_pty: the README's vxdbg session typed at human speed on a pty;
# the guest types it to vxdbg on vortex-run, the host to vxdbg-sim.
$(O)/host/userspace/test_vxdbg_pty: $(DBG_TDIR)/test_vxdbg_pty.c \
		$(O)/host/userspace/vxdbg-sim | $(US_KERNELS)
	@mkdir -p $(@D)
	$(HOST_CC) $(DBG_CFLAGS) $(KSFT_CFLAGS) -DVXDBG_TEST_SIM \
		-DVXDBG_SIM_PATH='"$(abspath $(O)/host/userspace/vxdbg-sim)"' \
		-DVX_KERNEL_DIR='"$(abspath $(RV_KDIR))"' -o $@ $<

# The guest's test lowers the hang of its never-ending target (hang_gate:
# selftests/vortex_test_hooks.h).
$(O)/guest/selftests/vortex_vxdbg_pty_test: $(DBG_TDIR)/test_vxdbg_pty.c \
		selftests/vortex_test_hooks.h
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(KSFT_CFLAGS) -Iselftests -o $@ $<

HOST_TESTS += $(O)/host/userspace/test_vxdbg_pty
GUEST_TESTS += $(O)/guest/selftests/vortex_vxdbg_pty_test

# ---------------------------------------------------------- benchmark
# debug_bench: DM accesses per register, register and memory throughput of
# the session ioctls (guest; `make bench` runs it in its guest boot).
$(O)/guest/bench/debug_bench: bench/debug_bench.c $(DBG_HDRS) $(DBG_LIB) $(US_LIB)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(DBG_INC) -o $@ $< $(DBG_GUEST_LIBS)

GUEST_FILES += $(O)/guest/bench/debug_bench
