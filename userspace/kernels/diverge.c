// SPDX-License-Identifier: MIT
/*
 * diverge: nested data-dependent branches, every one a split/join, so
 * lanes of one warp take different paths.  Must match diverge_ref().
 */
#include "vx_intrinsics.h"
#include "vortex_kernels.h"

void vx_kernel_main(const struct diverge_args *arg)
{
	uint32_t i = vx_global_id_x();

	VX_IF (i < arg->n) {
		int32_t x = arg->in[i];
		int32_t r = 0;

		VX_IF (x & 1) {
			VX_IF (x % 3 == 0) {
				r = x * 3;
			} VX_ELSE {
				r = x + 7;
			} VX_ENDIF;
		} VX_ELSE {
			r = x / 2;
			VX_IF (x > 100) {
				r -= 5;
			} VX_ENDIF;
		} VX_ENDIF;
		VX_IF (r < 0) {
			r = -r;
		} VX_ENDIF;
		arg->out[i] = r;
	} VX_ENDIF;
}
