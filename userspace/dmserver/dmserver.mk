# SPDX-License-Identifier: GPL-2.0
#
# vortex-dmserver, the DM line-protocol bridge, and its tests.
# Included by the top-level Makefile after userspace/debug/debug.mk, whose
# libraries it links; paths are relative to $(TOP).
#
#   $(O)/guest/vortex-dmserver               static, driver backend (-> guest /vortex/bin)
#   $(O)/host/userspace/vortex-dmserver-sim  the same on the simulator, in-process
#   $(O)/host/userspace/test_dmproto         host test: the line parser and replies
#   $(O)/host/userspace/test_dm_sim          host test: the backend's raw DM op, simulator
#   $(O)/host/userspace/dmserver_sim         host test: tests/dmserver_e2e.py against
#                                            vortex-dmserver-sim (a link, named for the suite)
#   $(O)/host/userspace/dmserver_status_sim  host test: tests/dmserver_status.py, DCTRL's
#                                            summary bits as the RTL's, line by line
#   $(O)/host/userspace/dmserver_vxmodel_sim host test: tests/dmserver_vortex_model.py, a
#                                            client halting and stepping a .vxbin's job

DMS_DIR := userspace/dmserver
DMS_INC := -I$(TOP)/$(DMS_DIR) $(DBG_INC)
DMS_HDRS := $(wildcard $(DMS_DIR)/*.h) $(DBG_HDRS) $(TESTLIB_HDRS)
DMS_SRCS := userspace/tools/vortex-dmserver.c $(DMS_DIR)/dmserver.c \
	$(DMS_DIR)/dmproto.c $(DMS_DIR)/dmtarget_sample.c

# The driver build's targets: a kernel ELF (libvortex), a Vortex binary
# (vortex-run's own launch, over libvortexrt), another process.
DMS_DRV_SRCS := $(DMS_DIR)/dmtarget_drv.c $(DMS_DIR)/dmtarget_vxbin.c $(DMS_DIR)/dmtarget_proc.c

$(O)/guest/vortex-dmserver: $(DMS_SRCS) $(DMS_DRV_SRCS) $(DMS_HDRS) \
		$(US_DIR)/tools/vortex_run_vxbin.h $(O)/userspace/tools/vortex_run_vxbin.o \
		$(DBG_LIB) $(US_LIB) $(VXRT_LIB) $(TESTLIB_SAMPLES)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(DMS_INC) -I$(TOP)/$(US_DIR)/tools -o $@ $(DMS_SRCS) \
		$(DMS_DRV_SRCS) $(O)/userspace/tools/vortex_run_vxbin.o $(DBG_GUEST_LIBS) \
		$(VXRT_LIB) $(TESTLIB_SAMPLES)

$(O)/host/userspace/vortex-dmserver-sim: $(DMS_SRCS) $(DMS_DIR)/dmtarget_sim.c $(DMS_HDRS) \
		$(DBG_LIB) $(DBG_SIM_LIB) $(US_LIB) $(TESTLIB_SAMPLES) $(LIBVXSIM)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(DMS_INC) -DVXDBG_SIM -o $@ $(DMS_SRCS) \
		$(DMS_DIR)/dmtarget_sim.c $(DBG_HOST_LIBS)

GUEST_FILES += $(O)/guest/vortex-dmserver
host-all: $(O)/host/userspace/vortex-dmserver-sim

# ------------------------------------------------------------- tests
$(O)/host/userspace/test_dmproto: $(DMS_DIR)/tests/test_dmproto.c $(DMS_DIR)/dmproto.c \
		$(DMS_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(DMS_INC) $(KSFT_CFLAGS) -o $@ $< $(DMS_DIR)/dmproto.c

$(O)/host/userspace/test_dm_sim: $(DMS_DIR)/tests/test_dm_sim.c $(DMS_HDRS) \
		$(DBG_LIB) $(DBG_SIM_LIB) $(US_LIB) $(TESTLIB_SAMPLES) $(LIBVXSIM) | $(US_KERNELS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(DMS_INC) $(KSFT_CFLAGS) \
		-DVX_KERNEL_DIR='"$(abspath $(RV_KDIR))"' -o $@ $< $(DBG_HOST_LIBS)

$(O)/host/userspace/dmserver_sim: $(DMS_DIR)/tests/dmserver_e2e.py $(DMS_DIR)/tests/dm_line_client.py \
		$(O)/host/userspace/vortex-dmserver-sim | $(US_KERNELS)
	@mkdir -p $(@D)
	ln -sf $(abspath $<) $@

$(O)/host/userspace/dmserver_status_sim: $(DMS_DIR)/tests/dmserver_status.py \
		$(DMS_DIR)/tests/dmserver_e2e.py $(DMS_DIR)/tests/dm_line_client.py \
		$(O)/host/userspace/vortex-dmserver-sim | $(US_KERNELS)
	@mkdir -p $(@D)
	ln -sf $(abspath $<) $@

$(O)/host/userspace/dmserver_vxmodel_sim: $(DMS_DIR)/tests/dmserver_vortex_model.py \
		$(DMS_DIR)/tests/dmserver_e2e.py $(DMS_DIR)/tests/dm_line_client.py \
		$(O)/host/userspace/vortex-dmserver-sim | $(RV_KDIR)/vxs_hello.vxbin
	@mkdir -p $(@D)
	ln -sf $(abspath $<) $@

HOST_TESTS += $(O)/host/userspace/test_dmproto $(O)/host/userspace/test_dm_sim \
	$(O)/host/userspace/dmserver_sim $(O)/host/userspace/dmserver_status_sim \
	$(O)/host/userspace/dmserver_vxmodel_sim
