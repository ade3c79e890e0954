// SPDX-License-Identifier: MIT
/* empty: does nothing; measures the launch round trip. */
void vx_kernel_main(void *arg)
{
	(void)arg;
}
