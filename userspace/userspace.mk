# SPDX-License-Identifier: GPL-2.0
#
# Userspace: device runtime and sample kernels (RISC-V), libvortex,
# vortex-run and the host test of the kernels on the simulator.
# Included by the top-level Makefile; paths are relative to $(TOP).
#
#   $(O)/riscv/NAME.elf                  sample kernels (-> guest /vortex/kernels/)
#   $(O)/userspace/libvortex.a           runtime library (host objects, static)
#   $(O)/guest/vortex-run                CLI (static, -> guest)
#   $(O)/host/userspace/test_kernels_sim host test: kernels on libvxsim

include testlib/testlib.mk

US_DIR := userspace
US_INC := -I$(TOP)/$(US_DIR)/include -I$(TOP)/$(US_DIR)/lib -I$(TOP)/hw

# ---------------------------------------------------------- device side
# Kernels are static PIEs linked at 0 (docs/hardware.md, "Kernel binaries"):
# -fPIE keeps read-only data free of absolute addresses, hidden visibility
# avoids GOT indirection, -mno-relax because lld 14 does not relax and
# there is no gp; -ffp-contract=off so float results match the host's.
RV_KDIR := $(O)/riscv
RV_KCFLAGS = $(RV_CFLAGS) -fPIE -fvisibility=hidden -mno-relax -ffp-contract=off \
	-I$(TOP)/$(US_DIR)/device -I$(TOP)/$(US_DIR)/include -I$(TOP)/hw
RV_KLDFLAGS = $(RV_LDFLAGS) -Wl,-pie -Wl,--no-dynamic-linker -Wl,-z,text \
	-Wl,--build-id=none -T $(TOP)/$(US_DIR)/device/kernel.ld
RV_KHDRS := $(wildcard $(US_DIR)/device/*.h) $(US_DIR)/include/vortex_kernels.h \
	hw/vortex_regs.h
RV_KRT := $(RV_KDIR)/rt/crt0.o $(RV_KDIR)/rt/vx_libc.o

US_KERNEL_NAMES := vecadd saxpy reduce diverge hang empty reloc \
	fault_badaddr fault_misaligned fault_illegal fault_assert fault_jump \
	fault_branch
US_KERNELS := $(US_KERNEL_NAMES:%=$(RV_KDIR)/%.elf)

$(RV_KDIR)/rt/%.o: $(US_DIR)/device/%.S
	@mkdir -p $(@D)
	$(RV_CC) $(RV_KCFLAGS) -c -o $@ $<

$(RV_KDIR)/rt/%.o: $(US_DIR)/device/%.c $(RV_KHDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_KCFLAGS) -c -o $@ $<

$(RV_KDIR)/obj/%.o: $(US_DIR)/kernels/%.c $(RV_KHDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_KCFLAGS) -c -o $@ $<

$(RV_KDIR)/%.elf: $(RV_KDIR)/obj/%.o $(RV_KRT) $(US_DIR)/device/kernel.ld
	$(RV_CC) $(RV_KLDFLAGS) -o $@ $(RV_KRT) $< $(RV_LIBGCC)

.PRECIOUS: $(RV_KDIR)/obj/%.o $(RV_KDIR)/rt/%.o

RV_KERNELS += $(US_KERNELS)
GUEST_FILES += $(US_KERNELS)

# Vortex-style kernels: one thread per core starts (LAUNCH CORES) and the
# project's spawn library (device/vx_spawn.c) spreads the work.
VXS_KERNEL_NAMES := vxs_vecadd vxs_sort vxs_hello vxs_sgemm_lmem vxs_tls vxs_count
VXS_KERNELS := $(VXS_KERNEL_NAMES:%=$(RV_KDIR)/%.elf)
VXS_RT := $(RV_KDIR)/rt/vxs_start.o $(RV_KDIR)/rt/vx_spawn.o $(RV_KDIR)/rt/vxs_perf.o \
	$(RV_KDIR)/rt/vx_libc.o

$(RV_KDIR)/obj/%.o: $(US_DIR)/kernels/vxstyle/%.c $(RV_KHDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_KCFLAGS) -c -o $@ $<

$(VXS_KERNELS): $(RV_KDIR)/%.elf: $(RV_KDIR)/obj/%.o $(VXS_RT) $(US_DIR)/device/kernel.ld
	$(RV_CC) $(RV_KLDFLAGS) -o $@ $(VXS_RT) $< $(RV_LIBGCC)

RV_KERNELS += $(VXS_KERNELS)
GUEST_FILES += $(VXS_KERNELS)

# ------------------------------------------------------------- library
US_LIB := $(O)/userspace/libvortex.a
US_LIB_SRCS := $(US_DIR)/lib/libvortex.c $(US_DIR)/lib/vx_elf.c $(US_DIR)/lib/vx_fault.c
US_LIB_OBJS := $(US_LIB_SRCS:$(US_DIR)/lib/%.c=$(O)/userspace/lib/%.o)
US_HDRS := $(wildcard $(US_DIR)/include/*.h $(US_DIR)/lib/*.h) uapi/vortex_accel.h
US_CFLAGS = $(HOST_CFLAGS) $(US_INC) $(GUEST_INC)

$(O)/userspace/lib/%.o: $(US_DIR)/lib/%.c $(US_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(US_CFLAGS) -c -o $@ $<

$(US_LIB): $(US_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^


include $(US_DIR)/vxrt/vxrt.mk

# ----------------------------------------------------------- vortex-run
# Two halves: the project's kernels through libvortex, Vortex binaries
# through libvortexrt (<libvortex.h> and Vortex's <vortex.h>).
$(O)/userspace/tools/vortex_run_vxbin.o: $(US_DIR)/tools/vortex_run_vxbin.c \
		$(US_DIR)/tools/vortex_run_vxbin.h $(VXRT_HDRS)
	@mkdir -p $(@D)
	$(GUEST_CC) $(HOST_CFLAGS) -I$(TOP)/$(VXRT_DIR)/include/vortex $(GUEST_INC) -c -o $@ $<

$(O)/guest/vortex-run: $(US_DIR)/tools/vortex-run.c $(US_DIR)/tools/vortex_run_vxbin.h \
		$(O)/userspace/tools/vortex_run_vxbin.o $(US_LIB) $(VXRT_LIB) $(US_HDRS) \
		$(TESTLIB_SAMPLES) $(TESTLIB_HDRS)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(US_INC) $(TESTLIB_INC) $(GUEST_INC) -o $@ $< \
		$(O)/userspace/tools/vortex_run_vxbin.o $(US_LIB) $(VXRT_LIB) \
		$(TESTLIB_SAMPLES) -lm

# elf2vxbin (host): a kernel ELF as a Vortex binary (.vxbin); built for the
# Vortex-style kernels, which also ship as .vxbin.
$(O)/host/elf2vxbin: $(US_DIR)/tools/elf2vxbin.c $(US_DIR)/lib/vx_elf.c $(US_DIR)/lib/vx_elf.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(TOP)/$(US_DIR)/lib -o $@ $< $(US_DIR)/lib/vx_elf.c

VXS_VXBINS := $(VXS_KERNEL_NAMES:%=$(RV_KDIR)/%.vxbin)
$(VXS_VXBINS): %.vxbin: %.elf $(O)/host/elf2vxbin
	$(O)/host/elf2vxbin $< $@

GUEST_FILES += $(VXS_VXBINS)

GUEST_FILES += $(O)/guest/vortex-run

# The tools as a person runs them in the guest's shell (TAP); the README's
# commands that discard a crash dump and start the collector go in as
# written.
$(O)/guest/selftests/vortex_tools_test: $(US_DIR)/tools/tests/vortex_tools_test.sh README.md
	@mkdir -p $(@D)
	line=$$(grep -m1 'devcd\*/data.*# discard it' README.md | sed 's/ *# discard it.*//') && \
	coll=$$(grep -m1 '^vortex-dump-collector --watch &' README.md | sed 's/ *#.*//') && \
	[ -n "$$line" ] && [ -n "$$coll" ] && \
	awk -v l="$$line" -v c="$$coll" ' \
		function put(tag, text, i) { i = index($$0, tag); \
			if (i) $$0 = substr($$0, 1, i - 1) text substr($$0, i + length(tag)) } \
		{ put("@README_DISCARD@", l); put("@README_COLLECT@", c); print }' $< > $@
	chmod +x $@

GUEST_TESTS += $(O)/guest/selftests/vortex_tools_test

# ---------------------------------------------- host test on the simulator
# Needs the simulator library; built from qemu-device/sim.mk's rule.
$(O)/host/userspace/test_kernels_sim: $(US_DIR)/tests/test_kernels_sim.c \
		$(O)/userspace/lib/vx_elf.o $(TESTLIB_SAMPLES) $(LIBVXSIM) $(US_HDRS) \
		$(TESTLIB_HDRS) | $(US_KERNELS) $(VXS_KERNELS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(US_INC) $(TESTLIB_INC) -I$(TOP)/qemu-device/sim \
		-I$(TOP)/$(US_DIR)/device \
		$(KSFT_CFLAGS) -DVX_KERNEL_DIR='"$(abspath $(RV_KDIR))"' -o $@ $< \
		$(O)/userspace/lib/vx_elf.o $(TESTLIB_SAMPLES) $(LIBVXSIM) -lm

HOST_TESTS += $(O)/host/userspace/test_kernels_sim
