/* SPDX-License-Identifier: MIT */
/*
 * The memory layout of Vortex-style kernels (vx_spawn.h), for C and the
 * assembler: hart h's stack is the VXS_STACK_SIZE bytes below
 * VXS_STACK_TOP - h * VXS_STACK_SIZE.  VXS_STACK_TOP is upstream Vortex's
 * STACK_BASE_ADDR for RV32 (hw/rtl/VX_config.vh: 0xFFFF0000); the size is
 * this library's choice, 1 KiB (upstream's default STACK_LOG2_SIZE is
 * larger; our kernels are small).
 */
#ifndef VX_SPAWN_ABI_H
#define VX_SPAWN_ABI_H

#define VXS_STACK_TOP		0xFFFF0000
#define VXS_STACK_SIZE		1024

/* Cores a kernel of this library may run on: its per-core table's size. */
#define VXS_MAX_CORES		256

/*
 * Where the start code leaves main's return value: upstream's
 * IO_MPM_EXITCODE, IO_MPM_ADDR + 8 (kernel/src/common.h), core 0's slot of
 * the counter vx_perf_dump() skips (vxs_perf.c).
 */
#define VXS_IO_MPM_EXITCODE	0x88

#endif /* VX_SPAWN_ABI_H */
