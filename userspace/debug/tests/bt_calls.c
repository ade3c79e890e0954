// SPDX-License-Identifier: MIT
/*
 * bt_calls: vx_kernel_main -> outer -> inner, none inlined, so outer keeps
 * its return address on the stack: what vxdbg's `bt` unwinds
 * (test_vxdbg_cli).
 */
__attribute__((noinline)) static int inner(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3 + 1;
}

__attribute__((noinline)) static int outer(int x)
{
	return inner(x) + inner(x + 1);
}

void vx_kernel_main(void *arg)
{
	int *out = arg;

	out[0] = outer(out[1]);
}
