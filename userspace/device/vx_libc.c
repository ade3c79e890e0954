// SPDX-License-Identifier: MIT
/*
 * The few libc functions a freestanding kernel still needs: clang emits
 * calls to memcpy/memset/memmove for struct copies and zeroing even with
 * -ffreestanding.  Byte loops on purpose: the card faults on misaligned
 * accesses, and these are never hot in the sample kernels.
 */
#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
