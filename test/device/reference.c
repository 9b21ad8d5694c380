/*
 * reference.c
 *    Data generation (seeded, deterministic) and the straightforward CPU
 *    group-by the device results are checked against: a linear-probing map
 *    from key tuple (values + null mask) to group, int128 sums, PostgreSQL
 *    float order for min/max (NaN above +Infinity, via the same encoding the
 *    device uses), and the sum of magnitudes that bounds float-sum error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selftest.h"

const GpugbAggSpec aggs[N_AGGS] = {
	{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_COUNT, 0}, {GPUGB_AGG_SUM_INT, 0},
	{GPUGB_AGG_MIN_INT, 0}, {GPUGB_AGG_MAX_INT, 0}, {GPUGB_AGG_SUM_FLOAT, 1},
	{GPUGB_AGG_MIN_FLOAT, 1}, {GPUGB_AGG_MAX_FLOAT, 1}, {GPUGB_AGG_COUNT, 1},
	{GPUGB_AGG_SUM_INT, 2}, {GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_COUNT, 2},
	/* float variance over in3: the shifted sums before their shift, on purpose */
	{GPUGB_AGG_SUM_SHIFTED_SQ, 3}, {GPUGB_AGG_SUM_SHIFTED, 3}, {GPUGB_AGG_SHIFT_FLOAT, 3},
};

/*
 * Lean cases: COUNT and integer SUM only; SUM_INT(in0) twice, as in aggs.
 * The third counts two more inputs, so that with NULLs in one of them
 * (in_null_only) the launch has count columns with and without NULLs.
 */
const GpugbAggSpec lean_aggs[N_LEAN_SPECS][N_LEAN_AGGS] = {
	{{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_COUNT, 0}, {GPUGB_AGG_SUM_INT, 0}},
	{{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_SUM_INT, 2}, {GPUGB_AGG_COUNT, 2}},
	{{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_COUNT, 1}, {GPUGB_AGG_COUNT, 3}},
	/* counts only: the lean instances of no sum (the fast kernel's wide table of 8192 slots too) */
	{{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_COUNT, 0}, {GPUGB_AGG_COUNT, 1}, {GPUGB_AGG_COUNT, 3}},
	/* not lean: three value columns over in0 (PARTITION's moved rows, partition_only cases) */
	{{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_MIN_INT, 0}, {GPUGB_AGG_MAX_INT, 0}},
	/* four sums, and COUNT(*) with three (narrow_in13 cases: PARTITION's packed rows) */
	{{GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_SUM_INT, 1}, {GPUGB_AGG_SUM_INT, 2}, {GPUGB_AGG_SUM_INT, 3}},
	{{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_SUM_INT, 1}, {GPUGB_AGG_SUM_INT, 2}},
};

/*
 * Remap cases: MIN and MAX of the text words (twice MIN: one shared
 * column, which remap_values rewrites once), and what must stay as fed:
 * the SUM of the words and MAX of the final ranks (a MAX_INT not listed).
 */
const GpugbAggSpec remap_aggs[N_RAGGS] = {
	{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_MIN_INT, 2}, {GPUGB_AGG_MAX_INT, 2},
	{GPUGB_AGG_MIN_INT, 2}, {GPUGB_AGG_COUNT, 2}, {GPUGB_AGG_SUM_INT, 2},
	{GPUGB_AGG_MAX_INT, 0},
};

static uint64_t rng_state;

uint64_t
rnd(void)
{
	uint64_t	z = (rng_state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* The generator's state, which a case's runs restore after its data (selftest.c, case_data_of). */
uint64_t
rnd_state(void)
{
	return rng_state;
}

void
rnd_restore(uint64_t state)
{
	rng_state = state;
}

static double
rnd01(void)
{
	return (rnd() >> 11) * (1.0 / 9007199254740992.0);
}

void *
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

/*
 * Key column k of key tuple j: mixed ranges, negatives and the int64
 * extremes; with int32_keys (one key), int32 values and their extremes
 * (distinct tuples may share a value: the reference groups by value).
 */
static int64_t
key_of(int n_keys, int k, int64_t j, int int32_keys)
{
	if (int32_keys)
	{
		static const int64_t special[] = {INT32_MIN, INT32_MAX, -1, 0};

		if (j < 4)
			return special[j];
		return (int64_t) (int32_t) (uint32_t) ((uint64_t) j * 0x9E3779B9ull);
	}
	if (n_keys == 1 || (n_keys > 3 && k == 0))
	{
		if (j == 0)
			return INT64_MIN;
		if (j == 1)
			return INT64_MAX;
		if (j == 2)
			return -1;
		if (j == 3)
			return 0;
		if (j == 4)				/* the key an unwritten pair-slot key word stands for
								 * (GPUGB_PAIR_KEY_SALT, cuda/kernel_params.cuh) */
			return (int64_t) 0x9E3779B97F4A7C15ull;
		if (j == 5)				/* the key word of an empty slot in PARTITION's deferred
								 * block table, whose rows are retried */
			return (int64_t) GPUGB_DEFERRED_EMPTY_KEY;
		if (j == 6)				/* the key whose table hash (gpugb_hash_word) is that word: the
								 * block-table key of PARTITION's hashed rows
								 * (GPUGB_HASHED_KEY_WORDS), whose rows are retried */
			return (int64_t) 0xAAA9133EDF738BD5ull;
		return (int64_t) ((uint64_t) j * 0xD1B54A32D192ED03ull);
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

/* Multiplier of the clustered cases' group order: odd and prime, so a bijection mod any g it does not divide. */
#define CLUSTER_SCRAMBLE 7919

/*
 * Reorders the rows of d so that each group's rows are consecutive, group j
 * at position (j * CLUSTER_SCRAMBLE) mod g of the order (cs->clustered),
 * keeping the drawn order within a group.  group[row]: the row's group.
 */
static void
cluster_rows(const CaseSpec *cs, Data *d, const int64_t *group)
{
	int64_t		g = cs->g;
	int64_t    *next = xcalloc(g + 1, sizeof(int64_t));
	int64_t    *perm = xcalloc(d->nrows, sizeof(int64_t));

	if (g % CLUSTER_SCRAMBLE == 0)
		abort();				/* not a bijection: pick another g */
	for (int64_t row = 0; row < d->nrows; row++)
		next[group[row] * CLUSTER_SCRAMBLE % g + 1]++;
	for (int64_t p = 0; p < g; p++)
		next[p + 1] += next[p];
	for (int64_t row = 0; row < d->nrows; row++)
		perm[next[group[row] * CLUSTER_SCRAMBLE % g]++] = row;
	for (int c = 0; c < d->n_keys + N_INPUTS; c++)
	{
		int64_t    *values = c < d->n_keys ? d->key[c] : d->in[c - d->n_keys];
		uint8_t    *nulls = c < d->n_keys ? d->knull[c] : d->innull[c - d->n_keys];
		int64_t    *v2 = xcalloc(d->nrows, 8);
		uint8_t    *n2 = xcalloc(d->nrows, 1);

		for (int64_t i = 0; i < d->nrows; i++)
		{
			v2[i] = values[perm[i]];
			n2[i] = nulls[perm[i]];
		}
		memcpy(values, v2, (size_t) d->nrows * 8);
		memcpy(nulls, n2, (size_t) d->nrows);
		free(v2);
		free(n2);
	}
	free(perm);
	free(next);
}

void
generate(const CaseSpec *cs, Data *d)
{
	double	   *cdf = NULL;
	int64_t    *group = cs->clustered ? xcalloc(cs->nrows > 0 ? cs->nrows : 1, sizeof(int64_t)) : NULL;

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
		if (group != NULL)
			group[row] = j;
		for (int k = 0; k < cs->n_keys; k++)
		{
			if (cs->key_null > 0 && rnd01() < cs->key_null)
				d->knull[k][row] = 1;	/* value stays 0, as the contract says */
			else
				d->key[k][row] = key_of(cs->n_keys, k, j, cs->int32_keys);
		}
		/* in0: mixed ints with rare extremes (or near the extremes) */
		if (cs->big_ints)
			d->in[0][row] = (rnd() & 1) ? INT64_MAX - (int64_t) (rnd() % 1000)
				: INT64_MIN + (int64_t) (rnd() % 1000);
		else
		{
			uint64_t	r = rnd() % 1000;

			d->in[0][row] = r == 0 && !cs->narrow_in0 ? INT64_MIN : r == 1 && !cs->narrow_in0 ? INT64_MAX
				: (int64_t) (rnd() % 2000000001ull) - 1000000000;
		}
		double		f = float_value(cs->specials);

		memcpy(&d->in[1][row], &f, 8);
		d->in[2][row] = cs->narrow_in2 ? (int64_t) (rnd() % 2000001) - 1000000
			: INT64_MAX - (int64_t) (rnd() % 100000);	/* always overflows int64 */
		/* in3: finite, a large mean per group and a tiny spread (variance) */
		f = 1e9 * (double) (1 + j % 3) + (rnd01() - 0.5) * 1e-3 * (double) (1 + j % 5);
		memcpy(&d->in[3][row], &f, 8);
		if (cs->narrow_in13)
		{
			d->in[1][row] = (int64_t) (rnd() % 2000001) - 1000000;
			d->in[3][row] = (int64_t) (rnd() % 2000001) - 1000000;
		}
		for (int i = 0; i < N_INPUTS; i++)
			if (cs->in_null > 0 && (cs->in_null_only == 0 || cs->in_null_only == i + 1) &&
				rnd01() < cs->in_null)
			{
				d->innull[i][row] = 1;
				if (!cs->null_words)
					d->in[i][row] = 0;
			}
	}
	free(cdf);
	if (group != NULL)
		cluster_rows(cs, d, group);
	free(group);
}

void
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

/* Texts of the remap cases: their ranks are well inside the map's range. */
#define N_TEXTS 10000

/*
 * Rewrites inputs 0 and 2 of generate()'s rows for a remap case (see
 * selftest.h), input 2's NULLs those of input 0, and plans the remaps.
 * Text t joins in phase born[t], every text by the last phase, so a rank
 * of the final order is the text itself.  After the first phase, rows
 * only draw the middle half of the texts, and the 16 smallest join last:
 * so even one group's min and max are ranks of an early phase that later
 * phases moved, and only a correct remap gets them right.
 */
void
generate_ranks(const CaseSpec *cs, Data *d, RankPlan *rp)
{
	int			phases = cs->remap + 1;
	int		   *born = xcalloc(N_TEXTS, sizeof(int));
	int64_t    *known = xcalloc(N_TEXTS, 8);

	if (cs->remap > MAX_REMAPS)
	{
		fprintf(stderr, "device selftest: more than %d remaps\n", MAX_REMAPS);
		exit(2);
	}
	memset(rp, 0, sizeof(*rp));
	rp->n = cs->remap;
	for (int64_t t = 0; t < N_TEXTS; t++)
		born[t] = t < 16 ? phases - 1 : t % 7 == 3 ? 0 : (int) (rnd() % (uint64_t) phases);
	for (int p = 0; p < phases; p++)
	{
		int64_t		n_known = 0,
					lo = 0,
					hi;

		for (int64_t t = 0; t < N_TEXTS; t++)
			if (born[t] <= p)
				known[n_known++] = t;
		hi = n_known;			/* this phase's rows draw ranks [lo, hi) */
		if (p > 0)
		{
			int64_t    *map = xcalloc(N_TEXTS, 8);
			int64_t		r_old = 0,
						r_new = 0;

			while (known[lo] < N_TEXTS / 4)
				lo++;
			for (hi = lo; hi < n_known && known[hi] < N_TEXTS * 3 / 4; hi++)
				;
			/* old rank r -> r + the texts of phase p inserted below it */
			for (int64_t t = 0; t < N_TEXTS; t++)
			{
				if (born[t] <= p - 1)
					map[r_old++] = r_new;
				if (born[t] <= p)
					r_new++;
			}
			rp->bound[p - 1] = d->nrows * p / phases;
			rp->map[p - 1] = map;
			rp->map_len[p - 1] = r_old;
		}
		for (int64_t row = d->nrows * p / phases; row < d->nrows * (p + 1) / phases; row++)
		{
			int64_t		i = lo + (int64_t) (rnd() % (uint64_t) (hi - lo));

			d->innull[2][row] = d->innull[0][row];
			d->in[0][row] = d->innull[0][row] ? 0 : known[i];
			d->in[2][row] = d->innull[0][row] ? 0 : i;	/* known[i]'s rank in phase p */
		}
	}
	free(born);
	free(known);
}

void
free_ranks(RankPlan *rp)
{
	for (int p = 0; p < rp->n; p++)
		free(rp->map[p]);
}

/* ------------------------------------------------------------- reference */

uint64_t
float_encode(uint64_t bits)
{
	if ((bits & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (bits & 0xFFFFFFFFFFFFFull))
		bits = 0x7FF8000000000000ull;
	return (bits >> 63) ? ~bits : (bits | 0x8000000000000000ull);
}

uint64_t
float_decode(uint64_t enc)
{
	return (enc >> 63) ? (enc & ~0x8000000000000000ull) : ~enc;
}


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
int64_t
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

void
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
	for (int i = 0; i < N_INPUTS; i++)
		r->sum_in[i] = xcalloc(bound, sizeof(i128));
	r->min0 = xcalloc(bound, 8);
	r->max0 = xcalloc(bound, 8);
	r->fsum = xcalloc(bound, 8);
	r->fabs_ = xcalloc(bound, 8);
	r->fmin = xcalloc(bound, 8);
	r->fmax = xcalloc(bound, 8);
	r->seen = xcalloc(bound, 1);
	r->vfirst = xcalloc(bound, sizeof(double));
	r->vsum = xcalloc(bound, sizeof(long double));
	r->vsxx = xcalloc(bound, sizeof(long double));
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
			if (!d->innull[i][row])
			{
				r->cnt_in[i][g]++;
				r->sum_in[i][g] += d->in[i][row];
			}
		if (!d->innull[0][row])
		{
			int64_t		v = d->in[0][row];

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
		if (!d->innull[3][row])
		{
			double		f;

			memcpy(&f, &d->in[3][row], 8);
			if (r->cnt_in[3][g] == 1)
				r->vfirst[g] = f;
			r->vsum[g] += (long double) f - r->vfirst[g];
		}
	}
	/* second pass: Sxx about each group's mean */
	for (int64_t row = 0; row < d->nrows; row++)
	{
		int64_t		vals[GPUGB_MAX_KEYS];
		uint32_t	mask = 0;
		int64_t		g = 0;
		double		f;
		long double dev;

		if (d->innull[3][row])
			continue;
		for (int k = 0; k < d->n_keys; k++)
		{
			vals[k] = d->knull[k][row] ? 0 : d->key[k][row];
			mask |= (uint32_t) (d->knull[k][row] != 0) << k;
		}
		if (d->n_keys > 0)
			g = ref_lookup(r, vals, mask, 0);
		memcpy(&f, &d->in[3][row], 8);
		dev = ((long double) f - r->vfirst[g]) - r->vsum[g] / (long double) r->cnt_in[3][g];
		r->vsxx[g] += dev * dev;
	}
}

void
free_reference(Ref *r)
{
	void	   *ps[] = {r->table, r->keys, r->mask, r->cnt_star, r->cnt_in[0], r->cnt_in[1],
		r->cnt_in[2], r->cnt_in[3], r->sum_in[0], r->sum_in[1], r->sum_in[2], r->sum_in[3], r->min0, r->max0,
	r->fsum, r->fabs_, r->fmin, r->fmax, r->seen, r->vfirst, r->vsum, r->vsxx};

	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		free(ps[i]);
}

