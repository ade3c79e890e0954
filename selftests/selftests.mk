# fragment: see top-level Makefile

# --- userspace helper: sample kernels through libvortex (vortex_run_test)
$(O)/guest/selftests/vortex_run_test: selftests/vortex_run_test.c $(US_LIB) $(US_HDRS) selftests/vortex_test_hooks.h \
		$(TESTLIB_SAMPLES) $(TESTLIB_HDRS)
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(US_INC) $(TESTLIB_INC) $(GUEST_INC) \
		$(KSFT_CFLAGS) -o $@ $< $(US_LIB) $(TESTLIB_SAMPLES) -lm

GUEST_TESTS += $(O)/guest/selftests/vortex_run_test

# --- driver helper: the kernel ABI with plain ioctl()s (vortex_driver_test)
$(O)/guest/selftests/vortex_driver_test: selftests/vortex_driver_test.c uapi/vortex_accel.h \
		selftests/vortex_test_cmdline.h selftests/vortex_test_ioctl.h selftests/vortex_test_hooks.h selftests/vortex_client.h \
		$(TESTLIB_HDRS) hw/vortex_regs.h
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(GUEST_INC) $(KSFT_CFLAGS) -I$(TOP)/hw \
		$(TESTLIB_INC) -o $@ $<

GUEST_TESTS += $(O)/guest/selftests/vortex_driver_test

# --- the card's registers and Debug Module through BAR0 (vortex_bar_test)
$(O)/guest/selftests/vortex_bar_test: selftests/vortex_bar_test.c hw/vortex_regs.h \
		$(TESTLIB_HDRS) selftests/vortex_test_cmdline.h
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(GUEST_INC) $(KSFT_CFLAGS) -I$(TOP)/hw \
		$(TESTLIB_INC) -o $@ $<

GUEST_TESTS += $(O)/guest/selftests/vortex_bar_test

# --- raw-ioctl suites: recovery races and bounds, core ioctls on the accel
# node, CPU mappings, module parameters, per-file address spaces, VM_BIND
# (each one file, one concern)
# The crash-dump suites, one concern each over one fixture: what a dump
# holds, address-space faults, DUMP_CONFIG, whole cards, the one slot,
# dumps a debugger asks for.
VX_DUMP_TESTS := vortex_dump_content_test vortex_dump_vm_test vortex_dump_config_test \
	vortex_dump_card_test vortex_dump_slot_test vortex_dump_debugger_test
# The debugger suites, one concern each over one fixture: sessions and
# who may attach, a halted warp's state, running and stepping, the raw
# DM, time, events, each request's errnos, the ABI's shape, the target's
# address space.
VX_DEBUG_TESTS := vortex_debug_attach_test vortex_debug_state_test vortex_debug_run_test \
	vortex_debug_dm_test vortex_debug_timeout_test vortex_debug_events_test \
	vortex_debug_errno_test vortex_debug_abi_test vortex_debug_space_test
VX_RAW_TESTS := vortex_reliability_test vortex_core_ioctl_test vortex_mmap_test vortex_fault_test \
	vortex_module_test $(VX_DEBUG_TESTS) $(VX_DUMP_TESTS) vortex_vm_test \
	vortex_cores_test \
	vortex_vmbind_test

$(VX_RAW_TESTS:%=$(O)/guest/selftests/%): $(O)/guest/selftests/%: selftests/%.c \
		uapi/vortex_accel.h selftests/vortex_test_ioctl.h selftests/vortex_test_hooks.h selftests/vortex_client.h \
		$(TESTLIB_HDRS) hw/vortex_regs.h
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(GUEST_INC) $(KSFT_CFLAGS) -I$(TOP)/hw \
		$(TESTLIB_INC) -o $@ $< $(VX_TEST_LDLIBS)

# The dump suites inflate dumps whose ELF the driver compressed.
$(VX_DUMP_TESTS:%=$(O)/guest/selftests/%): VX_TEST_LDLIBS := -lz
$(VX_DUMP_TESTS:%=$(O)/guest/selftests/%): selftests/vortex_dump_fixture.h
$(VX_DEBUG_TESTS:%=$(O)/guest/selftests/%): selftests/vortex_debug_fixture.h
# vortex_vm_test closes a buffer from a thread while a job uses it.
$(O)/guest/selftests/vortex_vm_test: VX_TEST_LDLIBS := -lpthread
# The address-space suites share one client.
$(O)/guest/selftests/vortex_vm_test $(O)/guest/selftests/vortex_vmbind_test: \
		selftests/vortex_vm_progs.h selftests/vortex_client.h
# vortex_reliability_test closes a file from a thread while the scheduler holds it.
$(O)/guest/selftests/vortex_reliability_test: VX_TEST_LDLIBS := -lpthread

GUEST_TESTS += $(VX_RAW_TESTS:%=$(O)/guest/selftests/%)

# The same core-ioctl suite as a 32-bit program: drm_compat_ioctl() calls
# some core handlers directly, so the compat path needs its own proof.
$(O)/guest/selftests/vortex_core_ioctl_test32: selftests/vortex_core_ioctl_test.c \
		uapi/vortex_accel.h selftests/vortex_test_ioctl.h selftests/vortex_test_hooks.h
	@mkdir -p $(@D)
	$(GUEST_CC) -m32 $(GUEST_CFLAGS) -Wno-pointer-to-int-cast $(GUEST_INC) $(KSFT_CFLAGS) \
		-o $@ $<

GUEST_TESTS += $(O)/guest/selftests/vortex_core_ioctl_test32

# The harness as these rules build it runs a fixture's teardown after a
# failed ASSERT (KSFT_CFLAGS in the Makefile).  A host test, built as the
# guest's tests are.
$(O)/host/tests/ksft_teardown_test: selftests/ksft_teardown_test.c
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) $(KSFT_CFLAGS) -o $@ $<

HOST_TESTS += $(O)/host/tests/ksft_teardown_test
