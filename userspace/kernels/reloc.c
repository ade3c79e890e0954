// SPDX-License-Identifier: MIT
/*
 * reloc: exercises the loader's R_RISCV_RELATIVE path.  Tables of data
 * and function pointers are absolute addresses in the image, fixed up for
 * wherever the runtime placed it; out[i] = ops[i % 4](vals[i % 3][0], i).
 */
#include "vx_intrinsics.h"
#include "vortex_kernels.h"

static int32_t v0 = 10, v1 = 200, v2 = 3000;
static int32_t *const vals[3] = { &v0, &v1, &v2 };

static int32_t op_add(int32_t a, int32_t b) { return a + b; }
static int32_t op_sub(int32_t a, int32_t b) { return a - b; }
static int32_t op_mul(int32_t a, int32_t b) { return a * b; }
static int32_t op_xor(int32_t a, int32_t b) { return a ^ b; }

static int32_t (*const ops[4])(int32_t, int32_t) = { op_add, op_sub, op_mul, op_xor };

void vx_kernel_main(const struct reloc_args *arg)
{
	uint32_t i = vx_global_id_x();

	VX_IF (i < arg->n) {
		/* the call target differs per lane: one lane group at a time */
		uint32_t k = i % 4;

		VX_IF (k == 0) {
			arg->out[i] = ops[0](*vals[i % 3], i);
		} VX_ELSE {
			VX_IF (k == 1) {
				arg->out[i] = ops[1](*vals[i % 3], i);
			} VX_ELSE {
				VX_IF (k == 2) {
					arg->out[i] = ops[2](*vals[i % 3], i);
				} VX_ELSE {
					arg->out[i] = ops[3](*vals[i % 3], i);
				} VX_ENDIF;
			} VX_ENDIF;
		} VX_ENDIF;
	}
	VX_ENDIF;
}
