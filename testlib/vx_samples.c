// SPDX-License-Identifier: MIT
/*
 * The sample kernels' buffers, inputs, argument blocks and reference
 * results (see vx_samples.h).  One table entry per kernel; the reference
 * of each is the plain C loop the kernel's own comment describes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vx_samples.h"

#define SAXPY_ALPHA	-1.75f

struct vx_sample {
	const char *name;
	bool strided;
	bool floats;
	void (*layout)(struct vx_sample_job *j);
	void (*fill)(const struct vx_sample_job *j, uint32_t *const buf[],
		     uint32_t *seed);
	void (*expect)(const struct vx_sample_job *j, uint32_t *const buf[],
		       uint32_t *want);
	size_t (*args)(const struct vx_sample_job *j, const uint32_t addr[],
		       void *args);
};

uint32_t vx_rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Buffer @i: @words words, used as @use. */
static void buf_def(struct vx_sample_job *j, unsigned int i, uint32_t words,
		    uint32_t use)
{
	j->words[i] = words;
	j->use[i] = use;
	if (i >= j->nbufs)
		j->nbufs = i + 1;
}

/* ---------------------------------------------- vecadd: c = a + b (int32) */

static void vecadd_layout(struct vx_sample_job *j)
{
	buf_def(j, 0, j->n, VX_SAMPLE_IN);
	buf_def(j, 1, j->n, VX_SAMPLE_IN);
	buf_def(j, 2, j->n, VX_SAMPLE_OUT);
	j->out = 2;
}

static void vecadd_fill(const struct vx_sample_job *j, uint32_t *const buf[],
			uint32_t *seed)
{
	for (uint32_t i = 0; i < j->n; i++) {
		buf[0][i] = vx_rnd(seed);
		buf[1][i] = vx_rnd(seed);
	}
}

static void vecadd_expect(const struct vx_sample_job *j, uint32_t *const buf[],
			  uint32_t *want)
{
	for (uint32_t i = 0; i < j->n; i++)
		want[i] = buf[0][i] + buf[1][i];	/* wraps, as int32 on the card */
}

static size_t vecadd_args(const struct vx_sample_job *j, const uint32_t addr[],
			  void *args)
{
	struct vecadd_args a = { addr[0], addr[1], addr[2], j->n };

	memcpy(args, &a, sizeof(a));
	return sizeof(a);
}

/* ------------------------------------ saxpy: y = alpha * x + y (not fused) */

static void saxpy_layout(struct vx_sample_job *j)
{
	buf_def(j, 0, j->n, VX_SAMPLE_IN);
	buf_def(j, 1, j->n, VX_SAMPLE_IN | VX_SAMPLE_OUT);
	j->out = 1;
}

static void saxpy_fill(const struct vx_sample_job *j, uint32_t *const buf[],
		       uint32_t *seed)
{
	float *x = (float *)buf[0], *y = (float *)buf[1];

	for (uint32_t i = 0; i < j->n; i++) {
		x[i] = (float)(vx_rnd(seed) % 100000) / 37.0f - 1000.0f;
		y[i] = (float)(vx_rnd(seed) % 100000) / 13.0f;
	}
}

static void saxpy_expect(const struct vx_sample_job *j, uint32_t *const buf[],
			 uint32_t *want)
{
	const float *x = (const float *)buf[0], *y = (const float *)buf[1];

	for (uint32_t i = 0; i < j->n; i++) {
		volatile float p = SAXPY_ALPHA * x[i];	/* no fused multiply-add */
		float r = p + y[i];

		memcpy(&want[i], &r, 4);
	}
}

static size_t saxpy_args(const struct vx_sample_job *j, const uint32_t addr[],
			 void *args)
{
	struct saxpy_args a = { addr[0], addr[1], j->n, SAXPY_ALPHA };

	memcpy(args, &a, sizeof(a));
	return sizeof(a);
}

/* -------------------------------- reduce: one wrapping int32 sum per block */

static void reduce_layout(struct vx_sample_job *j)
{
	buf_def(j, 0, j->n, VX_SAMPLE_IN);
	buf_def(j, 1, j->grid, VX_SAMPLE_OUT);
	buf_def(j, 2, j->grid * j->block, VX_SAMPLE_IN | VX_SAMPLE_OUT);
	j->out = 1;	/* the partials; scratch is the kernel's business */
}

static void reduce_fill(const struct vx_sample_job *j, uint32_t *const buf[],
			uint32_t *seed)
{
	for (uint32_t i = 0; i < j->n; i++)
		buf[0][i] = vx_rnd(seed);
}

/* Block b owns b * block + t + k * grid * block (reduce_args). */
static void reduce_expect(const struct vx_sample_job *j, uint32_t *const buf[],
			  uint32_t *want)
{
	uint32_t total = j->grid * j->block;

	for (uint32_t b = 0; b < j->grid; b++) {
		uint32_t sum = 0;

		for (uint32_t i = b * j->block; i < j->n; i += total)
			for (uint32_t t = 0; t < j->block && i + t < j->n; t++)
				sum += buf[0][i + t];
		want[b] = sum;
	}
}

static size_t reduce_args(const struct vx_sample_job *j, const uint32_t addr[],
			  void *args)
{
	struct reduce_args a = { addr[0], addr[1], addr[2], j->n };

	memcpy(args, &a, sizeof(a));
	return sizeof(a);
}

/* ------------------------------------ diverge: out = diverge_ref(in) */

int32_t diverge_ref(int32_t x)
{
	int32_t r;

	if (x & 1) {
		if (x % 3 == 0)
			r = x * 3;
		else
			r = x + 7;
	} else {
		r = x / 2;
		if (x > 100)
			r -= 5;
	}
	if (r < 0)
		r = -r;
	return r;
}

static void diverge_layout(struct vx_sample_job *j)
{
	buf_def(j, 0, j->n, VX_SAMPLE_IN);
	buf_def(j, 1, j->n, VX_SAMPLE_OUT);
	j->out = 1;
}

/* Mostly small values, so that every path of diverge_ref() is taken. */
static void diverge_fill(const struct vx_sample_job *j, uint32_t *const buf[],
			 uint32_t *seed)
{
	for (uint32_t i = 0; i < j->n; i++)
		buf[0][i] = i % 4 ? (uint32_t)((int32_t)(vx_rnd(seed) % 300) - 60) :
				    vx_rnd(seed);
}

static void diverge_expect(const struct vx_sample_job *j, uint32_t *const buf[],
			   uint32_t *want)
{
	for (uint32_t i = 0; i < j->n; i++)
		want[i] = (uint32_t)diverge_ref((int32_t)buf[0][i]);
}

static size_t diverge_args(const struct vx_sample_job *j, const uint32_t addr[],
			   void *args)
{
	struct diverge_args a = { addr[0], addr[1], j->n, 0 };

	memcpy(args, &a, sizeof(a));
	return sizeof(a);
}

/* --------------------------- reloc: out = reloc_ref(i), no input at all */

int32_t reloc_ref(uint32_t i)
{
	static const int32_t vals[3] = { 10, 200, 3000 };
	int32_t a = vals[i % 3], b = (int32_t)i;

	switch (i % 4) {
	case 0:
		return a + b;
	case 1:
		return a - b;
	case 2:
		return a * b;
	default:
		return a ^ b;
	}
}

static void reloc_layout(struct vx_sample_job *j)
{
	buf_def(j, 0, j->n, VX_SAMPLE_OUT);
	j->out = 0;
}

static void reloc_fill(const struct vx_sample_job *j, uint32_t *const buf[],
		       uint32_t *seed)
{
}

static void reloc_expect(const struct vx_sample_job *j, uint32_t *const buf[],
			 uint32_t *want)
{
	for (uint32_t i = 0; i < j->n; i++)
		want[i] = (uint32_t)reloc_ref(i);
}

static size_t reloc_args(const struct vx_sample_job *j, const uint32_t addr[],
			 void *args)
{
	struct reloc_args a = { addr[0], j->n };

	memcpy(args, &a, sizeof(a));
	return sizeof(a);
}

/* -------------------------------------------------------------- the table */

#define SAMPLE(nm, strd, flt) {						\
	.name = #nm, .strided = strd, .floats = flt,			\
	.layout = nm##_layout, .fill = nm##_fill,			\
	.expect = nm##_expect, .args = nm##_args,			\
}

static const struct vx_sample samples[] = {
	SAMPLE(vecadd, false, false),
	SAMPLE(saxpy, true, true),
	SAMPLE(reduce, true, false),
	SAMPLE(diverge, false, false),
	SAMPLE(reloc, false, false),
};

const struct vx_sample *vx_sample_find(const char *name)
{
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		if (!strcmp(samples[i].name, name))
			return &samples[i];
	return NULL;
}

const struct vx_sample *vx_sample_find_path(const char *path)
{
	const char *base = strrchr(path, '/');
	char name[32];
	size_t len;

	base = base ? base + 1 : path;
	len = strcspn(base, ".");
	if (len >= sizeof(name))
		return NULL;
	memcpy(name, base, len);
	name[len] = 0;
	return vx_sample_find(name);
}

void vx_sample_dims(const struct vx_sample *s, uint32_t n, uint32_t cores,
		    uint32_t core_threads, uint32_t *grid, uint32_t *block)
{
	uint32_t g;

	if (!*block)
		*block = core_threads;
	if (*grid)
		return;
	g = (n + *block - 1) / *block;
	/* reduce and saxpy loop: a grid as big as the card suffices */
	if (s && s->strided && g > cores * 2)
		g = cores * 2;
	*grid = g ? g : 1;
}

const char *vx_sample_name(const struct vx_sample *s)
{
	return s->name;
}

bool vx_sample_strided(const struct vx_sample *s)
{
	return s->strided;
}

bool vx_sample_floats(const struct vx_sample *s)
{
	return s->floats;
}

void vx_sample_layout(const struct vx_sample *s, struct vx_sample_job *j)
{
	j->nbufs = 0;
	j->out = 0;
	memset(j->words, 0, sizeof(j->words));
	memset(j->use, 0, sizeof(j->use));
	s->layout(j);
}

void vx_sample_fill(const struct vx_sample *s, const struct vx_sample_job *j,
		    uint32_t *const buf[], uint32_t seed)
{
	if (!seed)
		seed = 1;	/* xorshift stays at 0 */
	s->fill(j, buf, &seed);
}

void vx_sample_expect(const struct vx_sample *s, const struct vx_sample_job *j,
		      uint32_t *const buf[], uint32_t *want)
{
	s->expect(j, buf, want);
}

size_t vx_sample_args(const struct vx_sample *s, const struct vx_sample_job *j,
		      const uint32_t addr[], void *args, size_t max)
{
	uint32_t block[8];
	size_t n = s->args(j, addr, block);

	if (n > max)
		return 0;
	memcpy(args, block, n);
	return n;
}

static double word_value(const struct vx_sample *s, uint32_t w)
{
	float f;

	if (!s->floats)
		return (int32_t)w;
	memcpy(&f, &w, 4);
	return f;
}

uint32_t vx_sample_check(const struct vx_sample *s, const struct vx_sample_job *j,
			 const uint32_t *want, const uint32_t *got,
			 struct vx_sample_diff *d)
{
	struct vx_sample_diff r = { 0 };

	/* Bit for bit: saxpy is exact when it does what the reference does. */
	for (uint32_t i = 0; i < j->words[j->out]; i++) {
		double err;

		if (got[i] == want[i])
			continue;
		if (!r.bad++)
			r.first = i;
		err = fabs(word_value(s, got[i]) - word_value(s, want[i]));
		if (isnan(err) || err > r.max_err)	/* NaN stays the largest */
			r.max_err = err;
	}
	if (d)
		*d = r;
	return r.bad;
}

const char *vx_sample_word_str(const struct vx_sample *s, uint32_t w,
			       char *buf, size_t len)
{
	if (s->floats)
		snprintf(buf, len, "%a", word_value(s, w));
	else
		snprintf(buf, len, "%d", (int32_t)w);
	return buf;
}
