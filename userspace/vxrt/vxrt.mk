# SPDX-License-Identifier: GPL-2.0
#
# libvortexrt: Vortex's host runtime API (userspace/vxrt/include/vortex/
# vortex.h) over the driver, built on libvortex (its ioctl layer), and the
# guest test of it.  Included by userspace/userspace.mk; paths are
# relative to $(TOP).
#
#   $(O)/userspace/libvortexrt.a    the library (static, host objects),
#                                   libvortex's objects in it too, so a
#                                   program links the one archive
#   $(O)/host/userspace/test_vxrt_sim  host test: the library on libvxsim

VXRT_DIR := $(US_DIR)/vxrt
VXRT_LIB := $(O)/userspace/libvortexrt.a
VXRT_SRCS := $(VXRT_DIR)/vxrt_console.c $(VXRT_DIR)/vxrt_device.c $(VXRT_DIR)/vxrt_mem.c \
	$(VXRT_DIR)/vxrt_upload.c
VXRT_OBJS := $(VXRT_SRCS:$(VXRT_DIR)/%.c=$(O)/userspace/vxrt/%.o) $(US_LIB_OBJS)
VXRT_HDRS := $(wildcard $(VXRT_DIR)/*.h $(VXRT_DIR)/include/vortex/*.h) \
	$(US_DIR)/include/libvortex.h $(US_DIR)/lib/vx_elf.h $(US_DIR)/lib/vx_fault.h \
	uapi/vortex_accel.h hw/vortex_regs.h hw/vortex_causes.h
VXRT_INC := -I$(TOP)/$(VXRT_DIR)/include -I$(TOP)/$(US_DIR)/include -I$(TOP)/$(US_DIR)/lib \
	-I$(TOP)/hw

$(O)/userspace/vxrt/%.o: $(VXRT_DIR)/%.c $(VXRT_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(VXRT_INC) $(GUEST_INC) -c -o $@ $<

$(VXRT_LIB): $(VXRT_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# A Vortex-style host program compiles as Vortex's do: #include <vortex.h>.
$(O)/guest/selftests/vortex_vxrt_test: selftests/vortex_vxrt_test.c $(VXRT_LIB) \
		$(VXRT_HDRS) $(US_DIR)/include/vortex_kernels.h $(TESTLIB_HDRS)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) -I$(TOP)/$(VXRT_DIR)/include/vortex \
		-I$(TOP)/$(US_DIR)/include -I$(TOP)/$(US_DIR)/lib $(TESTLIB_INC) $(GUEST_INC) $(KSFT_CFLAGS) \
		-o $@ $< $(VXRT_LIB)

GUEST_TESTS += $(O)/guest/selftests/vortex_vxrt_test

# The library itself on the host simulator: tests/vxrt_simdrv.c stands in
# for the driver, taking the process's DRM ioctls and the node's mmap
# (--wrap), so the test links the same libvortexrt.a the guest programs do.
VXRT_TDIR := $(VXRT_DIR)/tests
$(O)/host/userspace/test_vxrt_sim: $(VXRT_TDIR)/test_vxrt_sim.c $(VXRT_TDIR)/vxrt_simdrv.c \
		$(VXRT_TDIR)/vxrt_simdrv.h $(VXRT_LIB) $(LIBVXSIM) \
		$(VXRT_HDRS) $(TESTLIB_HDRS) $(US_DIR)/include/vortex_kernels.h \
		| $(RV_KDIR)/vxs_tls.elf $(RV_KDIR)/vxs_tls.vxbin $(RV_KDIR)/vxs_count.elf \
		$(O)/host/elf2vxbin
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(TOP)/$(VXRT_DIR)/include/vortex $(VXRT_INC) \
		-I$(TOP)/$(US_DIR)/include $(TESTLIB_INC) -I$(TOP)/qemu-device/sim $(GUEST_INC) \
		$(KSFT_CFLAGS) -DVX_KERNEL_DIR='"$(abspath $(RV_KDIR))"' \
		-DVX_ELF2VXBIN='"$(abspath $(O)/host/elf2vxbin)"' -o $@ $< \
		$(VXRT_TDIR)/vxrt_simdrv.c $(VXRT_LIB) $(LIBVXSIM) \
		-Wl,--wrap=ioctl,--wrap=mmap,--wrap=munmap -lm

HOST_TESTS += $(O)/host/userspace/test_vxrt_sim
SIM_EXEC_TESTS += $(O)/host/userspace/test_vxrt_sim
