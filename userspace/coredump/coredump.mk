# SPDX-License-Identifier: GPL-2.0
#
# vortex-coredump, the crash dump decoder, and its host test.  It links
# zlib (zlib1g-dev) to inflate an ELF the driver compressed.
# Included by the top-level Makefile; paths are relative to $(TOP).
#
#   $(O)/host/userspace/vortex-coredump   host tool (the tests run it)
#   $(O)/guest/vortex-coredump            static, -> guest /vortex/bin

CD_DIR := userspace/coredump
CD_SRCS := $(wildcard $(CD_DIR)/vxcd_*.c) userspace/tools/vortex-coredump.c
CD_HDRS := $(CD_DIR)/vxcd.h hw/vortex_regs.h hw/vortex_causes.h
CD_INC := -I$(TOP)/$(CD_DIR) -I$(TOP)/hw

$(O)/host/userspace/vortex-coredump: $(CD_SRCS) $(CD_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(CD_INC) -o $@ $(CD_SRCS) -lz

$(O)/guest/vortex-coredump: $(CD_SRCS) $(CD_HDRS)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(CD_INC) -o $@ $(CD_SRCS) -lz

GUEST_FILES += $(O)/guest/vortex-coredump

# vortex-dump-collector, the reference collector: saves each dump, frees
# the slot (and its udev rule, userspace/tools/70-vortex-coredump.rules).
$(O)/guest/vortex-dump-collector: userspace/tools/vortex-dump-collector.c
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $<

$(O)/guest/70-vortex-coredump.rules: userspace/tools/70-vortex-coredump.rules
	@mkdir -p $(@D)
	sed 's|@BINDIR@|/vortex/bin|' $< > $@

GUEST_FILES += $(O)/guest/vortex-dump-collector $(O)/guest/70-vortex-coredump.rules

# The test finds the tool, the fixtures and the kernels through these.
$(CD_DIR)/tests/test_coredump.py: $(O)/host/userspace/vortex-coredump $(US_KERNELS)
HOST_TESTS += $(CD_DIR)/tests/test_coredump.py
