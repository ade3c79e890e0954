#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# How the fixtures next to this file were made: run in the guest as a test
# program (scripts/initramfs.sh ... capture-dumps.sh), it makes three jobs
# fail and prints each crash dump between "@@dump NAME" and "@@dump-end"
# lines of its output (results.log on the host).  hang_64lanes.devcd is
# the same loop's hang on a 1,1,2,64 card (run-guest.sh --topology
# 1,1,2,64), whose CUDA ELF is split into CUDA-sized warps;
# fault_illegal_v3.devcd the fault of a driver that writes the sm_75
# device row (issue 38).
for k in hang fault_illegal fault_assert; do
	vortex-run /vortex/kernels/$k.elf > /dev/null 2>&1
	for cd in /sys/class/devcoredump/devcd*; do
		[ -f "$cd/data" ] || continue
		echo "@@dump $k"
		cat "$cd/data"
		echo "@@dump-end"
		echo 1 > "$cd/data"
	done
	sleep 1
done
echo "1..0 # SKIP capture only"
