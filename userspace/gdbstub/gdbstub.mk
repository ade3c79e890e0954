# SPDX-License-Identifier: GPL-2.0
#
# vortex-gdbserver, the GDB remote stub over libvortex-debug, and its tests.
# Included by the top-level Makefile after debug.mk; paths are relative to
# $(TOP).
#
#   $(O)/guest/vortex-gdbserver               static, driver backend (-> guest /vortex/bin)
#   $(O)/host/userspace/vortex-gdbserver-sim  the same on the simulator
#   $(O)/host/userspace/test_rsp              host test: the packet layer (TAP)
#   $(O)/host/userspace/gdb_sim               host test: gdb-multiarch against
#                                             vortex-gdbserver-sim (TAP)

GDBS_DIR := userspace/gdbstub
GDBS_NAMES := rsp gdbs_io gdbs_server gdbs_threads gdbs_regs gdbs_mem gdbs_run \
	gdbs_monitor gdbs_target_xml gdbs_watch
GDBS_SRCS := $(GDBS_NAMES:%=$(GDBS_DIR)/%.c)
GDBS_HDRS := $(wildcard $(GDBS_DIR)/*.h) $(DBG_HDRS)
GDBS_INC := -I$(TOP)/$(GDBS_DIR) $(DBG_INC)

$(O)/guest/vortex-gdbserver: userspace/tools/vortex-gdbserver.c $(GDBS_SRCS) $(GDBS_HDRS) \
		$(DBG_LIB) $(US_LIB)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(GDBS_INC) -o $@ $< $(GDBS_SRCS) $(DBG_GUEST_LIBS)

$(O)/host/userspace/vortex-gdbserver-sim: userspace/tools/vortex-gdbserver.c $(GDBS_SRCS) \
		$(GDBS_HDRS) $(DBG_LIB) $(DBG_SIM_LIB) $(US_LIB) $(TESTLIB_SAMPLES) $(LIBVXSIM)
	@mkdir -p $(@D)
	$(HOST_CC) $(DBG_CFLAGS) $(GDBS_INC) -DVXDBG_SIM -o $@ $< $(GDBS_SRCS) $(DBG_HOST_LIBS)

GUEST_FILES += $(O)/guest/vortex-gdbserver
host-all: $(O)/host/userspace/vortex-gdbserver-sim

# ------------------------------------------------------------- tests
$(O)/host/userspace/test_rsp: $(GDBS_DIR)/tests/test_rsp.c $(GDBS_DIR)/rsp.c $(GDBS_DIR)/rsp.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(TOP)/$(GDBS_DIR) $(KSFT_CFLAGS) -o $@ $< $(GDBS_DIR)/rsp.c

HOST_TESTS += $(O)/host/userspace/test_rsp

# gdb_sim: the gdb end-to-end test on the simulator.  The same script runs
# in the guest against vortex-gdbserver there (--connect, suite gdb_guest).
$(O)/host/userspace/gdb_sim: $(GDBS_DIR)/tests/test_gdb.py \
		$(O)/host/userspace/vortex-gdbserver-sim | $(US_KERNELS)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec python3 %s --server %s --elf-dir %s "$$@"\n' \
		'$(abspath $(GDBS_DIR)/tests/test_gdb.py)' \
		'$(abspath $(O)/host/userspace/vortex-gdbserver-sim)' \
		'$(abspath $(RV_KDIR))' > $@
	chmod +x $@

HOST_TESTS += $(O)/host/userspace/gdb_sim
