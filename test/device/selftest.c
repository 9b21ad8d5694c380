/*
 * selftest.c
 *    Differential test of the CUDA group-by (cuda/gpugb_device.h) against a
 *    straightforward CPU reference, on generated data: several group counts,
 *    key shapes, NULL rates, skew, every aggregate operation, int128 sums,
 *    NaN/Inf floats, forced table growth with retries, partial strides, and
 *    memory limits.  Every group's every result is compared: integers and
 *    float min/max exactly (bit for bit), float sums within 1e-9 of the sum
 *    of magnitudes (the order of additions differs, as in PostgreSQL's own
 *    parallel aggregation).
 *
 *    device_selftest [--require-gpu] [--quick]
 * Without a device it prints the probe result and exits 0, unless
 * --require-gpu.  Exit status is nonzero when any case failed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../cuda/gpugb_device.h"

typedef __int128 i128;

/* ------------------------------------------------------------------ data */

typedef struct CaseSpec
{
	const char *name;
	uint64_t	seed;
	int64_t		nrows;
	int			n_keys;
	int64_t		g;				/* distinct key tuples drawn from (before NULLs) */
	double		zipf;			/* 0: uniform */
	double		key_null;		/* fraction of NULL key values */
	double		in_null;		/* fraction of NULL inputs */
	int			big_ints;		/* inputs near INT64_MIN/MAX */
	int			specials;		/* NaN, +-Inf, -0.0 among floats */
	int64_t		est_groups;		/* 0: g */
	int64_t		stride_rows;	/* 0: 1 << 20 */
	int			partial;		/* random fill sizes below stride_rows */
	int64_t		mem_limit;
	GpugbStatus expect;			/* GPUGB_OK or the status it must fail with */
	int			expect_grow;	/* stats must show grows and retries */
	int			perf;			/* print rows/s */
} CaseSpec;

#define N_INPUTS 3
#define N_AGGS 12

static const GpugbAggSpec aggs[N_AGGS] = {
	{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_COUNT, 0}, {GPUGB_AGG_SUM_INT, 0},
	{GPUGB_AGG_MIN_INT, 0}, {GPUGB_AGG_MAX_INT, 0}, {GPUGB_AGG_SUM_FLOAT, 1},
	{GPUGB_AGG_MIN_FLOAT, 1}, {GPUGB_AGG_MAX_FLOAT, 1}, {GPUGB_AGG_COUNT, 1},
	{GPUGB_AGG_SUM_INT, 2}, {GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_COUNT, 2},
};

typedef struct Data
{
	int64_t		nrows;
	int			n_keys;
	int64_t    *key[GPUGB_MAX_KEYS];
	uint8_t    *knull[GPUGB_MAX_KEYS];
	int64_t    *in[N_INPUTS];
	uint8_t    *innull[N_INPUTS];
} Data;

static uint64_t rng_state;

static uint64_t
rnd(void)
{
	uint64_t	z = (rng_state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double
rnd01(void)
{
	return (rnd() >> 11) * (1.0 / 9007199254740992.0);
}

static void *
xcalloc(size_t n, size_t size)
{
	void	   *p = calloc(n ? n : 1, size);

	if (p == NULL)
	{
		fprintf(stderr, "device selftest: out of host memory\n");
		exit(2);
	}
	return p;
}

/* Key column k of key tuple j: mixed ranges, negatives and the int64 extremes. */
static int64_t
key_of(int n_keys, int k, int64_t j)
{
	if (n_keys == 1 || (n_keys > 3 && k == 0))
	{
		if (j == 0)
			return INT64_MIN;
		if (j == 1)
			return INT64_MAX;
		if (j == 2)
			return -1;
		return (int64_t) ((uint64_t) j * 0x9E3779B97F4A7C15ull);
	}
	if (n_keys <= 3)
	{
		if (k == 0)
			return j % 7 - 3;
		if (k == 1)
			return j / 7 == 1 ? INT64_MIN : (int64_t) ((uint64_t) (j / 7) * 0xD6E8FEB86659FD93ull);
		return INT64_MAX - j % 3;
	}
	return ((j >> (k % 24)) & 1) ? k : -k;	/* many keys: bits of j */
}

static double
float_value(int specials)
{
	if (specials)
	{
		uint64_t	r = rnd() % 3000;
		uint64_t	bits;

		switch (r)
		{
			case 0:
				return INFINITY;
			case 1:
				return -INFINITY;
			case 2:
				return -0.0;
			case 3:
				return 0.0;
			case 4:
				bits = 0xFFF8000000000123ull;	/* a negative NaN with payload */
				{
					double		d;

					memcpy(&d, &bits, 8);
					return d;
				}
			case 5:
				return NAN;
			default:
				break;
		}
	}
	return (rnd01() - 0.5) * 2000.0;
}

static void
generate(const CaseSpec *cs, Data *d)
{
	double	   *cdf = NULL;

	rng_state = cs->seed * 0x2545F4914F6CDD1Dull + 1;
	d->nrows = cs->nrows;
	d->n_keys = cs->n_keys;
	for (int k = 0; k < cs->n_keys; k++)
	{
		d->key[k] = xcalloc(cs->nrows, 8);
		d->knull[k] = xcalloc(cs->nrows, 1);
	}
	for (int i = 0; i < N_INPUTS; i++)
	{
		d->in[i] = xcalloc(cs->nrows, 8);
		d->innull[i] = xcalloc(cs->nrows, 1);
	}
	if (cs->zipf > 0)
	{
		double		s = 0;

		cdf = xcalloc(cs->g, sizeof(double));
		for (int64_t r = 0; r < cs->g; r++)
			cdf[r] = (s += 1.0 / pow((double) (r + 1), cs->zipf));
		for (int64_t r = 0; r < cs->g; r++)
			cdf[r] /= s;
	}
	for (int64_t row = 0; row < cs->nrows; row++)
	{
		int64_t		j;

		if (cdf != NULL)
		{
			double		u = rnd01();
			int64_t		lo = 0,
						hi = cs->g - 1;

			while (lo < hi)
			{
				int64_t		mid = (lo + hi) / 2;

				if (cdf[mid] < u)
					lo = mid + 1;
				else
					hi = mid;
			}
			j = lo;
		}
		else
			j = (int64_t) (rnd() % (uint64_t) cs->g);
		for (int k = 0; k < cs->n_keys; k++)
		{
			if (cs->key_null > 0 && rnd01() < cs->key_null)
				d->knull[k][row] = 1;	/* value stays 0, as the contract says */
			else
				d->key[k][row] = key_of(cs->n_keys, k, j);
		}
		/* in0: mixed ints with rare extremes (or near the extremes) */
		if (cs->big_ints)
			d->in[0][row] = (rnd() & 1) ? INT64_MAX - (int64_t) (rnd() % 1000)
				: INT64_MIN + (int64_t) (rnd() % 1000);
		else
		{
			uint64_t	r = rnd() % 1000;

			d->in[0][row] = r == 0 ? INT64_MIN : r == 1 ? INT64_MAX
				: (int64_t) (rnd() % 2000000001ull) - 1000000000;
		}
		double		f = float_value(cs->specials);

		memcpy(&d->in[1][row], &f, 8);
		d->in[2][row] = INT64_MAX - (int64_t) (rnd() % 100000);	/* always overflows int64 */
		for (int i = 0; i < N_INPUTS; i++)
			if (cs->in_null > 0 && rnd01() < cs->in_null)
			{
				d->innull[i][row] = 1;
				d->in[i][row] = 0;
			}
	}
	free(cdf);
}

static void
free_data(Data *d)
{
	for (int k = 0; k < d->n_keys; k++)
	{
		free(d->key[k]);
		free(d->knull[k]);
	}
	for (int i = 0; i < N_INPUTS; i++)
	{
		free(d->in[i]);
		free(d->innull[i]);
	}
}

/* ------------------------------------------------------------- reference */

static uint64_t
float_encode(uint64_t bits)
{
	if ((bits & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (bits & 0xFFFFFFFFFFFFFull))
		bits = 0x7FF8000000000000ull;
	return (bits >> 63) ? ~bits : (bits | 0x8000000000000000ull);
}

static uint64_t
float_decode(uint64_t enc)
{
	return (enc >> 63) ? (enc & ~0x8000000000000000ull) : ~enc;
}

typedef struct Ref
{
	int			n_keys;
	int64_t		n_groups,
				max_groups;
	int64_t    *keys;			/* [g * n_keys + k] */
	uint32_t   *mask;
	int64_t		cap;
	int64_t    *table;			/* group index or -1 */
	int64_t    *cnt_star,
			   *cnt_in[N_INPUTS];
	i128	   *sum0,
			   *sum2;
	int64_t    *min0,
			   *max0;
	double	   *fsum,
			   *fabs_;
	uint64_t   *fmin,
			   *fmax;
	uint8_t    *seen;
} Ref;

static uint64_t
mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

static uint64_t
tuple_hash(int n_keys, const int64_t *vals, uint32_t mask)
{
	uint64_t	h = 1469598103934665603ull ^ mask;

	for (int k = 0; k < n_keys; k++)
		h = mix(h ^ (uint64_t) vals[k]) + k;
	return mix(h);
}

/* Finds (or with insert, adds) the group of a key tuple; -1 if absent. */
static int64_t
ref_lookup(Ref *r, const int64_t *vals, uint32_t mask, int insert)
{
	uint64_t	i = tuple_hash(r->n_keys, vals, mask) & (uint64_t) (r->cap - 1);

	for (;; i = (i + 1) & (uint64_t) (r->cap - 1))
	{
		int64_t		g = r->table[i];

		if (g < 0)
		{
			if (!insert)
				return -1;
			if (r->n_groups >= r->max_groups)
			{
				fprintf(stderr, "device selftest: reference table too small\n");
				exit(2);
			}
			g = r->n_groups++;
			r->table[i] = g;
			memcpy(&r->keys[g * r->n_keys], vals, sizeof(int64_t) * r->n_keys);
			r->mask[g] = mask;
			return g;
		}
		if (r->mask[g] == mask &&
			memcmp(&r->keys[g * r->n_keys], vals, sizeof(int64_t) * r->n_keys) == 0)
			return g;
	}
}

static void
build_reference(const Data *d, const CaseSpec *cs, Ref *r)
{
	int64_t		bound = d->nrows + 1;
	int64_t		gb = cs->g;

	for (int k = 0; k < d->n_keys && k < 20 && gb < bound; k++)
		gb *= cs->key_null > 0 ? 2 : 1;
	if (d->n_keys > 0 && gb < bound)
		bound = gb;
	memset(r, 0, sizeof(*r));
	r->n_keys = d->n_keys;
	r->max_groups = bound;
	for (r->cap = 16; r->cap < 2 * bound; r->cap *= 2)
		;
	r->table = xcalloc(r->cap, 8);
	memset(r->table, 0xFF, r->cap * 8);
	r->keys = xcalloc(bound * (d->n_keys ? d->n_keys : 1), 8);
	r->mask = xcalloc(bound, 4);
	r->cnt_star = xcalloc(bound, 8);
	for (int i = 0; i < N_INPUTS; i++)
		r->cnt_in[i] = xcalloc(bound, 8);
	r->sum0 = xcalloc(bound, sizeof(i128));
	r->sum2 = xcalloc(bound, sizeof(i128));
	r->min0 = xcalloc(bound, 8);
	r->max0 = xcalloc(bound, 8);
	r->fsum = xcalloc(bound, 8);
	r->fabs_ = xcalloc(bound, 8);
	r->fmin = xcalloc(bound, 8);
	r->fmax = xcalloc(bound, 8);
	r->seen = xcalloc(bound, 1);
	for (int64_t g = 0; g < bound; g++)
	{
		r->min0[g] = INT64_MAX;
		r->max0[g] = INT64_MIN;
		r->fmin[g] = ~0ull;
		r->fsum[g] = -0.0;
	}
	if (d->n_keys == 0)
		r->n_groups = 1;		/* the one global group, even without rows */

	for (int64_t row = 0; row < d->nrows; row++)
	{
		int64_t		vals[GPUGB_MAX_KEYS];
		uint32_t	mask = 0;
		int64_t		g = 0;

		for (int k = 0; k < d->n_keys; k++)
		{
			vals[k] = d->knull[k][row] ? 0 : d->key[k][row];
			mask |= (uint32_t) (d->knull[k][row] != 0) << k;
		}
		if (d->n_keys > 0)
			g = ref_lookup(r, vals, mask, 1);
		r->cnt_star[g]++;
		for (int i = 0; i < N_INPUTS; i++)
			r->cnt_in[i][g] += !d->innull[i][row];
		if (!d->innull[0][row])
		{
			int64_t		v = d->in[0][row];

			r->sum0[g] += v;
			if (v < r->min0[g])
				r->min0[g] = v;
			if (v > r->max0[g])
				r->max0[g] = v;
		}
		if (!d->innull[1][row])
		{
			double		f;
			uint64_t	e = float_encode((uint64_t) d->in[1][row]);

			memcpy(&f, &d->in[1][row], 8);
			r->fsum[g] += f;
			r->fabs_[g] += fabs(f);
			if (e < r->fmin[g])
				r->fmin[g] = e;
			if (e > r->fmax[g])
				r->fmax[g] = e;
		}
		if (!d->innull[2][row])
			r->sum2[g] += d->in[2][row];
	}
}

static void
free_reference(Ref *r)
{
	void	   *ps[] = {r->table, r->keys, r->mask, r->cnt_star, r->cnt_in[0], r->cnt_in[1],
		r->cnt_in[2], r->sum0, r->sum2, r->min0, r->max0, r->fsum, r->fabs_, r->fmin, r->fmax,
	r->seen};

	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		free(ps[i]);
}

/* ------------------------------------------------------------ comparison */

typedef struct Results
{
	int64_t		n;
	int64_t    *kv[GPUGB_MAX_KEYS];
	uint8_t    *kn[GPUGB_MAX_KEYS];
	int64_t    *cnt[N_AGGS],
			   *val[N_AGGS],
			   *hi[N_AGGS];
} Results;

static char fail_msg[512];

#define CHECK(cond, ...) \
	do { if (!(cond)) { snprintf(fail_msg, sizeof(fail_msg), __VA_ARGS__); return 0; } } while (0)

static int
check_sum_int(const Results *res, int a, int64_t i, i128 want)
{
	i128		got = ((i128) res->hi[a][i] << 64) | (i128) (uint64_t) res->val[a][i];

	CHECK(got == want, "group %lld agg %d: int128 sum hi=%lld lo=%llu, want hi=%lld lo=%llu",
		  (long long) i, a, (long long) res->hi[a][i], (unsigned long long) res->val[a][i],
		  (long long) (int64_t) (want >> 64), (unsigned long long) (uint64_t) want);
	return 1;
}

static int
compare(const Results *res, Ref *r)
{
	CHECK(res->n == r->n_groups, "device has %lld groups, reference %lld",
		  (long long) res->n, (long long) r->n_groups);
	for (int64_t i = 0; i < res->n; i++)
	{
		int64_t		vals[GPUGB_MAX_KEYS];
		uint32_t	mask = 0;
		int64_t		g = 0;

		for (int k = 0; k < r->n_keys; k++)
		{
			vals[k] = res->kv[k][i];
			mask |= (uint32_t) (res->kn[k][i] != 0) << k;
			CHECK(!res->kn[k][i] || vals[k] == 0, "group %lld: NULL key %d has value %lld",
				  (long long) i, k, (long long) vals[k]);
		}
		if (r->n_keys > 0)
			g = ref_lookup(r, vals, mask, 0);
		CHECK(g >= 0, "group %lld: key not in the reference (key0=%lld mask=%x)",
			  (long long) i, (long long) vals[0], mask);
		CHECK(!r->seen[g], "group %lld: key appears twice", (long long) i);
		r->seen[g] = 1;

		for (int a = 0; a < N_AGGS; a++)
		{
			int			in = aggs[a].input;
			int64_t		want_cnt = in < 0 ? r->cnt_star[g] : r->cnt_in[in][g];

			CHECK(res->cnt[a][i] == want_cnt, "group %lld agg %d: count %lld, want %lld",
				  (long long) i, a, (long long) res->cnt[a][i], (long long) want_cnt);
			if (want_cnt == 0 || aggs[a].op == GPUGB_AGG_COUNT_STAR || aggs[a].op == GPUGB_AGG_COUNT)
				continue;
			switch (aggs[a].op)
			{
				case GPUGB_AGG_SUM_INT:
					if (!check_sum_int(res, a, i, in == 0 ? r->sum0[g] : r->sum2[g]))
						return 0;
					break;
				case GPUGB_AGG_MIN_INT:
					CHECK(res->val[a][i] == r->min0[g], "group %lld: min %lld, want %lld",
						  (long long) i, (long long) res->val[a][i], (long long) r->min0[g]);
					break;
				case GPUGB_AGG_MAX_INT:
					CHECK(res->val[a][i] == r->max0[g], "group %lld: max %lld, want %lld",
						  (long long) i, (long long) res->val[a][i], (long long) r->max0[g]);
					break;
				case GPUGB_AGG_MIN_FLOAT:
				case GPUGB_AGG_MAX_FLOAT:
					{
						uint64_t	want = float_decode(aggs[a].op == GPUGB_AGG_MIN_FLOAT ? r->fmin[g] : r->fmax[g]);

						CHECK((uint64_t) res->val[a][i] == want, "group %lld agg %d: float bits %016llx, want %016llx",
							  (long long) i, a, (unsigned long long) res->val[a][i],
							  (unsigned long long) want);
						break;
					}
				case GPUGB_AGG_SUM_FLOAT:
					{
						double		got,
									want = r->fsum[g];

						memcpy(&got, &res->val[a][i], 8);
						if (isnan(want))
							CHECK(isnan(got), "group %lld: float sum %g, want NaN", (long long) i, got);
						else if (isinf(want))
							CHECK(got == want, "group %lld: float sum %g, want %g", (long long) i, got, want);
						else
							CHECK(fabs(got - want) <= 1e-9 * r->fabs_[g] &&
								  (want != 0 || signbit(got) == signbit(want) || r->fabs_[g] > 0),
								  "group %lld: float sum %.17g, want %.17g (sum |x| %g)",
								  (long long) i, got, want, r->fabs_[g]);
						break;
					}
				default:
					break;
			}
		}
	}
	return 1;
}

/* ---------------------------------------------------------------- driver */

static int	n_cases,
			n_failed;

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
report(const char *name, int ok, const char *detail)
{
	n_cases++;
	if (!ok)
		n_failed++;
	printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", name, detail[0] ? ": " : "", detail);
	fflush(stdout);
}

static int
usage_equal(const GpugbUsage *a, const GpugbUsage *b)
{
	return a->device_bytes == b->device_bytes && a->pinned_bytes == b->pinned_bytes &&
		a->streams == b->streams && a->handles == b->handles;
}

static int
any_set(const uint8_t *p, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		if (p[i])
			return 1;
	return 0;
}

/* Feeds the data through a handle; returns the status of the first failing call. */
static GpugbStatus
run_device(const CaseSpec *cs, const Data *d, Results *res, GpugbStats *stats, double *secs)
{
	GpugbGroupBySpec spec;
	GpugbGroupBy *gb = NULL;
	GpugbStatus st;
	double		t0 = now_s();

	memset(&spec, 0, sizeof(spec));
	spec.n_keys = cs->n_keys;
	spec.n_inputs = N_INPUTS;
	spec.n_aggs = N_AGGS;
	memcpy(spec.aggs, aggs, sizeof(aggs));
	spec.estimated_groups = cs->est_groups ? cs->est_groups : cs->g;
	spec.stride_rows = cs->stride_rows ? cs->stride_rows : (1 << 20);
	spec.device_memory_limit = cs->mem_limit;

	if ((st = gpugb_groupby_create(&spec, &gb)) != GPUGB_OK)
		return st;
	for (int64_t done = 0; done < d->nrows;)
	{
		GpugbStride *s;
		int64_t		n = d->nrows - done;

		if ((st = gpugb_groupby_next_stride(gb, &s)) != GPUGB_OK)
			goto out;
		if (n > spec.stride_rows)
			n = spec.stride_rows;
		if (cs->partial)
			n = 1 + (int64_t) (rnd() % (uint64_t) n);
		s->nrows = n;
		for (int k = 0; k < cs->n_keys; k++)
		{
			memcpy(s->key_values[k], d->key[k] + done, n * 8);
			s->key_has_nulls[k] = any_set(d->knull[k] + done, n);
			if (s->key_has_nulls[k])
				memcpy(s->key_nulls[k], d->knull[k] + done, n);
		}
		for (int i = 0; i < N_INPUTS; i++)
		{
			memcpy(s->input_values[i], d->in[i] + done, n * 8);
			s->input_has_nulls[i] = any_set(d->innull[i] + done, n);
			if (s->input_has_nulls[i])
				memcpy(s->input_nulls[i], d->innull[i] + done, n);
		}
		if ((st = gpugb_groupby_submit(gb, s)) != GPUGB_OK)
			goto out;
		done += n;
	}
	if ((st = gpugb_groupby_finish(gb, &res->n)) != GPUGB_OK)
		goto out;
	*secs = now_s() - t0;

	/* Fetch in two pieces, so that `first` is exercised. */
	for (int k = 0; k < cs->n_keys; k++)
	{
		res->kv[k] = xcalloc(res->n, 8);
		res->kn[k] = xcalloc(res->n, 1);
	}
	for (int a = 0; a < N_AGGS; a++)
	{
		res->cnt[a] = xcalloc(res->n, 8);
		res->val[a] = xcalloc(res->n, 8);
		res->hi[a] = xcalloc(res->n, 8);
	}
	for (int piece = 0; piece < 2; piece++)
	{
		int64_t		first = piece == 0 ? 0 : res->n / 3;
		int64_t		count = piece == 0 ? res->n / 3 : res->n - res->n / 3;
		GpugbGroupResults out;

		memset(&out, 0, sizeof(out));
		for (int k = 0; k < cs->n_keys; k++)
		{
			out.key_values[k] = res->kv[k] + first;
			out.key_nulls[k] = res->kn[k] + first;
		}
		for (int a = 0; a < N_AGGS; a++)
		{
			out.agg_count[a] = res->cnt[a] + first;
			out.agg_value[a] = res->val[a] + first;
			out.agg_value_hi[a] = res->hi[a] + first;
		}
		if ((st = gpugb_groupby_fetch(gb, first, count, &out)) != GPUGB_OK)
			goto out;
	}
out:
	gpugb_groupby_stats(gb, stats);
	gpugb_groupby_destroy(gb);
	return st;
}

static void
free_results(Results *res)
{
	for (int k = 0; k < GPUGB_MAX_KEYS; k++)
	{
		free(res->kv[k]);
		free(res->kn[k]);
	}
	for (int a = 0; a < N_AGGS; a++)
	{
		free(res->cnt[a]);
		free(res->val[a]);
		free(res->hi[a]);
	}
}

static void
run_case(const CaseSpec *cs)
{
	Data		d;
	Ref			r;
	Results		res;
	GpugbStats	stats;
	GpugbUsage	before,
				after;
	double		secs = 0;
	char		detail[768] = "";
	int			ok;

	memset(&d, 0, sizeof(d));
	memset(&res, 0, sizeof(res));
	memset(&stats, 0, sizeof(stats));
	generate(cs, &d);
	gpugb_device_usage(&before);
	GpugbStatus st = run_device(cs, &d, &res, &stats, &secs);

	gpugb_device_usage(&after);

	if (st != cs->expect)
	{
		ok = 0;
		snprintf(detail, sizeof(detail), "status \"%s\", expected \"%s\" (%s)",
				 gpugb_status_name(st), gpugb_status_name(cs->expect), gpugb_last_error());
	}
	else if (!usage_equal(&before, &after))
	{
		ok = 0;
		snprintf(detail, sizeof(detail), "leak: device %lld->%lld pinned %lld->%lld streams %d->%d handles %d->%d",
				 (long long) before.device_bytes, (long long) after.device_bytes,
				 (long long) before.pinned_bytes, (long long) after.pinned_bytes,
				 before.streams, after.streams, before.handles, after.handles);
	}
	else if (st != GPUGB_OK)
	{
		ok = 1;
		snprintf(detail, sizeof(detail), "%s as expected, usage back to baseline (%s)",
				 gpugb_status_name(st), gpugb_last_error());
	}
	else
	{
		build_reference(&d, cs, &r);
		ok = compare(&res, &r);
		free_reference(&r);
		if (ok && cs->expect_grow && (stats.table_grows == 0 || stats.retried_rows == 0))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "expected table growth with retries");
		}
		if (!ok)
			snprintf(detail, sizeof(detail), "%s", fail_msg);
		else
			snprintf(detail, sizeof(detail), "%lld groups, %lld strides, %d grows, %lld retried rows, slots %lld, peak %.1f MB",
					 (long long) res.n, (long long) stats.strides, stats.table_grows,
					 (long long) stats.retried_rows, (long long) stats.table_slots,
					 stats.peak_device_bytes / 1048576.0);
		if (ok && cs->perf && secs > 0)
		{
			size_t		len = strlen(detail);

			snprintf(detail + len, sizeof(detail) - len,
					 "; %.1f M rows/s (transfer %.1f ms, kernel %.1f ms, wait %.1f ms)",
					 cs->nrows / secs / 1e6, stats.transfer_ms, stats.kernel_ms, stats.wait_ms);
		}
	}
	report(cs->name, ok, detail);
	free_results(&res);
	free_data(&d);
}

static void
run_invalid_spec(void)
{
	GpugbGroupBySpec spec;
	GpugbGroupBy *gb = (GpugbGroupBy *) &spec;	/* must be reset to NULL */
	GpugbStatus st;

	memset(&spec, 0, sizeof(spec));
	spec.n_keys = 1;
	spec.n_inputs = 1;
	spec.n_aggs = 0;
	spec.stride_rows = 1000;
	st = gpugb_groupby_create(&spec, &gb);
	report("invalid spec (no aggregates)", st == GPUGB_INVALID_ARGUMENT && gb == NULL,
		   gpugb_status_name(st));
	spec.n_aggs = 1;
	spec.aggs[0].op = GPUGB_AGG_SUM_INT;
	spec.aggs[0].input = 5;
	st = gpugb_groupby_create(&spec, &gb);
	report("invalid spec (input out of range)", st == GPUGB_INVALID_ARGUMENT && gb == NULL,
		   gpugb_status_name(st));
	gpugb_groupby_destroy(NULL);
	report("destroy(NULL)", 1, "");
}

int
main(int argc, char **argv)
{
	int			require_gpu = 0;
	int64_t		scale = 1;		/* --quick divides row counts by 10 */

	for (int i = 1; i < argc; i++)
	{
		if (strcmp(argv[i], "--require-gpu") == 0)
			require_gpu = 1;
		else if (strcmp(argv[i], "--quick") == 0)
			scale = 10;
		else
		{
			fprintf(stderr, "usage: %s [--require-gpu] [--quick]\n", argv[0]);
			return 2;
		}
	}

	GpugbStatus st = gpugb_device_probe();

	printf("device: %s (%s)\n", gpugb_device_description(), gpugb_status_name(st));
	if (st != GPUGB_OK)
	{
		int			ok = st == GPUGB_NO_DEVICE && !require_gpu;

		printf("%s no-device probe: %s\n", ok ? "ok  " : "FAIL", gpugb_last_error());
		/* Without a device, create must refuse cleanly as well. */
		GpugbGroupBySpec spec;
		GpugbGroupBy *gb = NULL;

		memset(&spec, 0, sizeof(spec));
		spec.n_aggs = 1;
		spec.stride_rows = 1024;
		GpugbStatus cst = gpugb_groupby_create(&spec, &gb);

		if (st == GPUGB_NO_DEVICE && (cst != GPUGB_NO_DEVICE || gb != NULL))
			ok = 0;
		printf("device selftest: %d cases, %d failed (no device%s)\n", 1, ok ? 0 : 1,
			   require_gpu ? ", --require-gpu" : "");
		return ok ? 0 : 1;
	}

	const int64_t M = 1000000 / scale;
	const CaseSpec cases[] = {
		/* name                                  seed rows  keys g  zipf knull innull big spec est stride part limit expect grow perf */
		{"no keys, g=1, 10% null inputs", 1, 2 * M, 0, 1, 0, 0, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 1},
		{"no keys, empty input", 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"1 key, empty input", 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"1 key, g=1, 1e7 rows", 2, 10 * M, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 1},
		{"1 key, g=7, 1e7 rows", 3, 10 * M, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 1},
		{"1 key, g=1000, 10% nulls, seed 1", 1, 2 * M, 1, 1000, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"1 key, g=1000, 10% nulls, seed 2", 2, 2 * M, 1, 1000, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"1 key, g=1000, 10% nulls, seed 3", 3, 2 * M, 1, 1000, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"3 keys, g=1e5, 10% nulls, seed 1", 1, 4 * M, 3, 100000, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 1},
		{"3 keys, g=1e5, 10% nulls, seed 2", 2, 4 * M, 3, 100000, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"1 key, g=1e6, 1e7 rows", 4, 10 * M, 1, 1000000, 0, 0, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 1},
		{"1 key, zipf 1.1 over 1e5", 5, 4 * M, 1, 100000, 1.1, 0, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 1},
		{"3 keys, zipf 0.8 over 1e5", 6, 4 * M, 3, 100000, 0.8, 0.01, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"3 keys, 100% null keys and inputs", 7, 1 * M, 3, 1000, 0, 1.0, 1.0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"int128 sums near INT64 extremes, g=7", 8, 2 * M, 1, 7, 0, 0, 0, 1, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"int128 sums, no keys", 9, 2 * M, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"floats with NaN/+-Inf/-0, g=1000", 10, 2 * M, 1, 1000, 0, 0, 0.1, 0, 1, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"floats with NaN/+-Inf/-0, g=3", 11, 2 * M, 1, 3, 0, 0, 0, 0, 1, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"estimate 1, g=1e5, 64K strides (grow+retry)", 12, 2 * M, 1, 100000, 0, 0.1, 0.1, 0, 0, 1, 65536, 0, 0, GPUGB_OK, 1, 0},
		{"estimate 1, g=1e6, partial strides (grow+retry)", 13, 3 * M, 3, 1000000, 0, 0, 0, 0, 0, 1, 100000, 1, 0, GPUGB_OK, 1, 1},
		{"estimate 1, g=2000, 1 row strides", 14, 5000, 1, 2000, 0, 0, 0, 0, 0, 1, 1, 0, 0, GPUGB_OK, 1, 0},
		{"32 keys, g=1000, partial strides", 15, M / 5, 32, 1000, 0, 0.05, 0.05, 0, 0, 0, 4096, 1, 0, GPUGB_OK, 0, 0},
		{"memory limit below the stride buffers", 16, M, 1, 1000, 0, 0, 0, 0, 0, 0, 1 << 20, 0, 1 << 20, GPUGB_OUT_OF_MEMORY, 0, 0},
		{"memory limit hit while growing", 17, 2 * M, 1, 1000000, 0, 0, 0, 0, 0, 1, 65536, 0, 12 << 20, GPUGB_OUT_OF_MEMORY, 0, 0},
	};

	run_invalid_spec();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
	printf("device selftest: %d cases, %d failed\n", n_cases, n_failed);
	return n_failed ? 1 : 0;
}
