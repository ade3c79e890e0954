/* SPDX-License-Identifier: MIT */
/*
 * The guest benches' timing and statistics: CLOCK_MONOTONIC in µs, and a
 * figure printed as "name: MEDIAN (p10 A, p90 B, min C, N samples)", the
 * line scripts/bench.sh reads.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* @p-quantile (0..1) of @n >= 1 sorted values, nearest rank. */
static inline double percentile(const double *sorted, int n, double p)
{
	return sorted[(int)(p * (n - 1) + 0.5)];
}

/*
 * "name: median (p10, p90, min, n)" of @v, which is left as it is, with
 * @prec decimals.
 */
static inline int print_stats_prec(const char *name, const double *v, int n,
				   int prec)
{
	double *s;

	if (n < 1) {
		printf("%s: n/a (0 samples)\n", name);
		return 0;
	}
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	printf("%s: %.*f (p10 %.*f, p90 %.*f, min %.*f, %d samples)\n", name,
	       prec, percentile(s, n, 0.5), prec, percentile(s, n, 0.1),
	       prec, percentile(s, n, 0.9), prec, s[0], n);
	free(s);
	return 0;
}

static inline int print_stats(const char *name, const double *v, int n)
{
	return print_stats_prec(name, v, n, 2);
}

#endif /* BENCH_STATS_H */
