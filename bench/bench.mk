# fragment: see top-level Makefile

# --- userspace helper: launch overhead and BO throughput (guest, static)
$(O)/guest/bench/launch_bench: bench/launch_bench.c bench/bench_stats.h $(US_LIB) $(US_HDRS)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(US_INC) $(GUEST_INC) -o $@ $< $(US_LIB)

GUEST_FILES += $(O)/guest/bench/launch_bench

# --- guest: what a crash dump costs (dump_bench)
$(O)/guest/bench/dump_bench: bench/dump_bench.c uapi/vortex_accel.h selftests/vortex_test_ioctl.h selftests/vortex_test_hooks.h
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(GUEST_INC) -I$(TOP)/selftests -o $@ $<

GUEST_FILES += $(O)/guest/bench/dump_bench

# --- guest: what a file's address space costs a 64 MiB buffer, and what
# sharing the last ASID costs files that take turns (vm_bench)
$(O)/guest/bench/vm_bench: bench/vm_bench.c uapi/vortex_accel.h selftests/vortex_test_ioctl.h selftests/vortex_test_hooks.h \
		$(TESTLIB_HDRS)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(GUEST_INC) -I$(TOP)/selftests -I$(TOP)/hw $(TESTLIB_INC) \
		-o $@ $<

GUEST_FILES += $(O)/guest/bench/vm_bench

# --- host: what address translation adds to a tiny job's launch in the
# simulator, fast doorbell, no QEMU (launch_sim_bench)
$(O)/host/bench/launch_sim_bench: bench/launch_sim_bench.c $(LIBVXSIM) \
		$(SIM_HDRS) $(SIM_TDIR)/uncore_util.h testlib/vx_sv32.h
	@mkdir -p $(@D)
	$(HOST_CC) $(SIM_TEST_CFLAGS) -o $@ $< $(LIBVXSIM) -lm

BENCHES += $(O)/host/bench/launch_sim_bench

# --- guest: a launch in Vortex's model, raw and through libvortexrt
$(O)/guest/bench/launch_cores_bench: bench/launch_cores_bench.c bench/bench_stats.h \
		$(VXRT_LIB) $(VXRT_HDRS)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) -I$(TOP)/$(VXRT_DIR) -I$(TOP)/$(VXRT_DIR)/include/vortex $(VXRT_INC) \
		$(GUEST_INC) -I$(TOP)/uapi -o $@ $< $(VXRT_LIB)

GUEST_FILES += $(O)/guest/bench/launch_cores_bench

# --- host: what a hung job costs the host's CPU, and how fast a parked
# card wakes (park_bench)
$(O)/host/bench/park_bench: bench/park_bench.c bench/bench_stats.h $(LIBVXSIM) \
		$(SIM_HDRS) $(SIM_TDIR)/uncore_util.h testlib/vx_sv32.h
	@mkdir -p $(@D)
	$(HOST_CC) $(SIM_TEST_CFLAGS) -o $@ $< $(LIBVXSIM) -lm -lpthread

BENCHES += $(O)/host/bench/park_bench
