# SPDX-License-Identifier: GPL-2.0
#
# Test code shared by the host tests, the guest selftests and the tools,
# so that no side keeps its own copy.  Plain C with no dependencies: guest
# binaries are static, host ones link libvxsim, both include these.
#
#   vx_asm.h       the tests' names for hw/vortex_rv32.h's RV32 encoders, and
#                  the instructions only tests write
#   vx_card_io.h   ring writer and Debug Module requests over BAR0/VRAM callbacks
#   vx_samples.[ch] sample kernels: buffers, inputs, argument blocks, references
#
# Included from userspace/userspace.mk, after qemu-device/sim.mk (whose
# uncore tests it adds prerequisites to) and before selftests/selftests.mk.

TESTLIB_DIR := testlib
TESTLIB_INC := -I$(TOP)/$(TESTLIB_DIR)
# vx_asm.h is built on hw/vortex_rv32.h, the driver's encoders.
TESTLIB_HDRS := $(wildcard $(TESTLIB_DIR)/*.h) hw/vortex_rv32.h

# qemu-device/tests/uncore_util.h is built on these headers.
$(UNCORE_TESTS): $(TESTLIB_HDRS)

# The sample kernels' buffers, inputs and references: one object, linked
# into the host test on the simulator and the static guest programs alike.
TESTLIB_SAMPLES := $(O)/testlib/vx_samples.o

$(TESTLIB_SAMPLES): $(TESTLIB_DIR)/vx_samples.c $(TESTLIB_DIR)/vx_samples.h \
		userspace/include/vortex_kernels.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(TESTLIB_INC) -I$(TOP)/userspace/include -c -o $@ $<
