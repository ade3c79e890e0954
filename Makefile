# SPDX-License-Identifier: GPL-2.0
#
# Vortex driver and debug stack: the user-facing targets.
#
#   make check        set up everything, build, run every host and guest test
#   make demo         boot the simulated card and show it working
#   make bench        print the benchmark figures
#   make debug-shell  a guest with the debug servers, for gdb-multiarch on the host
#   make install      tools, libraries, headers, pkg-config files and vortex.ko
#                     (PREFIX=/usr/local, DESTDIR=, KDIR= the running kernel's;
#                     vortex.ko without the test hooks)
#   make install-dkms vortex.ko's sources, built by DKMS for every kernel
#   make all          the module and every host-built program (the default)
#   make module       vortex.ko against the cached Debian headers (KDIR= another tree),
#                     with the test hooks (CONFIG_DRM_ACCEL_VORTEX_DEBUG=n: without)
#   make module-newest vortex.ko for Debian's newest kernel, in its build root
#                     (build/module/<kver>/, docs/kernels.md)
#   make host-tests   build and run the host test suites
#   make lint         checkpatch --strict, sparse, W=1, kernel-doc on driver/, uapi/;
#                     the simulator cross-compiled for aarch64
#   make guest        the guest's initramfs, build/guest/initramfs.cpio
#   make debug-guest  the same for the debug kernel (KASAN, lockdep, kmemleak;
#                     docs/debug-kernel.md), built if missing: build/debug/
#   make clean        remove build/ (O=) and the module's objects
#   make distclean    the same (the download and build cache is kept)
#   make print-VAR    print a make variable, e.g. print-HOST_TESTS
#   make help         this text
#
# `make -C $KDIR M=$PWD` reads ./Kbuild instead of this file, so the module
# also builds against any kernel tree.

VX_CACHE ?= $(HOME)/.cache/vortex-bench
O ?= build
export VX_CACHE O

TOP := $(CURDIR)

# Host C (simulator, tests, tools).  Guest binaries are static: the guest
# userland is busybox plus whatever we put in the initramfs.
# VX_CCACHE: ccache, set by the scripts (scripts/lib.sh), empty by hand;
# scripts/ccache-cc.sh gives it the compiles of a compile-and-link too.
VX_CC_PREFIX := $(if $(VX_CCACHE),$(TOP)/scripts/ccache-cc.sh)
HOST_CC ?= $(VX_CC_PREFIX) gcc
HOST_CFLAGS ?= -O2 -g -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	-std=gnu11 -D_GNU_SOURCE
GUEST_CC ?= $(VX_CC_PREFIX) gcc
GUEST_CFLAGS ?= $(HOST_CFLAGS) -static
GUEST_INC := -I$(TOP)/uapi -I/usr/include/libdrm

# Device code: RV32IMF, bare metal, clang + lld, libgcc from the
# riscv64-unknown-elf cross gcc for 64-bit and soft-double helpers.
RV_CC ?= $(VX_CC_PREFIX) clang
RV_ARCH := --target=riscv32-unknown-elf -march=rv32imf -mabi=ilp32f
RV_CFLAGS ?= $(RV_ARCH) -O2 -g -ffreestanding -fno-builtin -nostdlib \
	-fno-pic -mcmodel=medany -Wall -Wextra
RV_LDFLAGS ?= $(RV_ARCH) -fuse-ld=lld -nostdlib -static
RV_LIBGCC = $(shell riscv64-unknown-elf-gcc -march=rv32imf -mabi=ilp32f \
	-print-libgcc-file-name 2>/dev/null)

# kselftest_harness.h from Debian's linux-source-6.12 (scripts/ksft.sh).
# Its TEST_F wrapper sets `child` between setjmp() and a failed ASSERT's
# longjmp(), so C leaves `child` indeterminate there, and GCC 12 at -O1 and
# above threads the jump past the test of it: the fixture's teardown never
# ran after a failed ASSERT, and what the test had armed (a debugfs gate, a
# lowered job_timeout_ms) failed the tests after it.  Without GCC's
# dominator optimisations the test stays, in all 309 fixture wrappers
# (-fno-thread-jumps keeps it too, but costs -Wmaybe-uninitialized its
# precision: 20 false warnings); selftests/ksft_teardown_test.c checks it.
# -Wno-clobbered: GCC's warning about `child` is the harness's own.
# Upstream stopped using setjmp() in 6.16 (869c788909b9, "selftests:
# harness: Stop using setjmp()/longjmp()").
KSFT_DIR ?= $(shell $(TOP)/scripts/ksft.sh --print 2>/dev/null)
KSFT_CFLAGS = -I$(KSFT_DIR) -fno-tree-dominator-opts -Wno-clobbered

# Fragments append to these.
HOST_TESTS :=		# host test binaries, each prints TAP
GUEST_TESTS :=		# static binaries run in the guest, each prints TAP
GUEST_FILES :=		# other files copied into the guest's /vortex
RV_KERNELS :=		# device ELF programs
BENCHES :=		# benchmark binaries (host)

.PHONY: all check demo debug-shell bench module host-tests lint guest clean distclean help
.PHONY: install install-dkms module-newest
all: module host-all

include qemu-device/sim.mk
include userspace/userspace.mk
include selftests/selftests.mk
include bench/bench.mk
include userspace/debug/debug.mk
include userspace/gdbstub/gdbstub.mk
include userspace/dmserver/dmserver.mk
include userspace/coredump/coredump.mk

# The bench's own judge: scripts/tap.py decides every verdict.
HOST_TESTS += scripts/tests/test_tap.py scripts/tests/test_make_help.py \
	scripts/tests/test_make_dir.py scripts/tests/test_script_help.py \
	scripts/tests/test_estimate.sh scripts/tests/test_install.sh scripts/tests/test_ccache_cc.sh \
	scripts/tests/test_guest_prof.py

host-all: $(HOST_TESTS) $(GUEST_TESTS) $(GUEST_FILES) $(RV_KERNELS) $(BENCHES)

check:
	@$(TOP)/scripts/check.sh

demo:
	@$(TOP)/scripts/demo.sh

debug-shell:
	@$(TOP)/scripts/debug-shell.sh

bench:
	@$(TOP)/scripts/bench.sh

# The driver's test hooks (Kconfig's DRM_ACCEL_VORTEX_DEBUG: debugfs gates,
# docs/driver.md "Test hooks"): in the module built for the guests, the
# tests and the benchmarks; not in what `make install` installs (a target
# variable, so the module `all` builds for it has none either), unless
# asked for on the command line: make install CONFIG_DRM_ACCEL_VORTEX_DEBUG=y.
CONFIG_DRM_ACCEL_VORTEX_DEBUG ?= y

# Installing is for the machine's own kernel, not the guest's.
PREFIX ?= /usr/local
install: export KDIR ?= /lib/modules/$(shell uname -r)/build
install: CONFIG_DRM_ACCEL_VORTEX_DEBUG = n
install: all
	@$(TOP)/scripts/install.sh --prefix $(PREFIX) --kdir $(KDIR) \
		$(if $(DESTDIR),--destdir $(DESTDIR))

install-dkms:
	@$(TOP)/scripts/install.sh --dkms $(if $(DESTDIR),--destdir $(DESTDIR))

# The module, against the cached Debian headers (KDIR= overrides).
# W= on make's command line is Kbuild's warning level (default 1); a W in
# the environment is someone else's variable and is not passed on.
export VX_KBUILD_W := $(if $(filter command line,$(origin W)),$(W),1)
module:
	+@CONFIG_DRM_ACCEL_VORTEX_DEBUG=$(CONFIG_DRM_ACCEL_VORTEX_DEBUG) $(TOP)/scripts/build-module.sh

module-newest:
	+@CONFIG_DRM_ACCEL_VORTEX_DEBUG=$(CONFIG_DRM_ACCEL_VORTEX_DEBUG) \
		$(TOP)/scripts/build-module.sh --series newest > /dev/null

# qtest_vortex.py drives the real QEMU: the cached build ($VX_QEMU, else
# scripts/qemu.sh finds or builds it).
host-tests: $(HOST_TESTS)
	@q=$${VX_QEMU:-$$($(TOP)/scripts/qemu.sh)} && export VX_QEMU=$$q && \
	$(TOP)/scripts/tap.py $$($(TOP)/scripts/run-host-tests.sh $(O)/results/host $(HOST_TESTS))

# The kernel's checkers on the driver and the uapi header; the findings
# that stay are waived, with a reason each, in scripts/lint-waivers.txt.
lint:
	@$(TOP)/scripts/lint.sh

# The guest's initramfs: the module, the guest tests and files, busybox.
guest: module host-all
	@k=$$($(TOP)/scripts/kernel.sh) && $(TOP)/scripts/initramfs.sh \
		$(O)/guest/initramfs.cpio "$$k" vortex.ko $(GUEST_TESTS) -- $(GUEST_FILES)

.PHONY: debug-guest
debug-guest: host-all
	+@$(TOP)/scripts/debug-guest.sh $(O)/debug > /dev/null

# Used by the scripts: print a variable's value.
print-%:
	@echo '$($*)'

clean:
	rm -rf $(O)
	rm -f *.o *.ko *.mod *.mod.c .*.cmd modules.order Module.symvers
	rm -f driver/*.o driver/.*.cmd dbgcore/*.o dbgcore/.*.cmd

distclean: clean
	@echo "cache kept in $(VX_CACHE); remove it by hand to rebuild QEMU and refetch kernels"

help:
	@sed -n '3,/^$$/p' Makefile | sed 's/^# \{0,1\}//' 
