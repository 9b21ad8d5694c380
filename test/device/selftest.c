/*
 * selftest.c
 *    Differential test of the CUDA group-by (cuda/gpugb_device.h) against a
 *    straightforward CPU reference, on generated data: several group counts,
 *    key shapes, NULL rates, skew, every aggregate operation, int128 sums,
 *    NaN/Inf floats, forced table growth with retries, partial strides, and
 *    memory limits.  Every group's every result is compared: integers and
 *    float min/max exactly (bit for bit), float sums within 1e-9 of the sum
 *    of magnitudes (the order of additions differs, as in PostgreSQL's own
 *    parallel aggregation), and the float variance's shifted sums (shift,
 *    SUM_SHIFTED, SUM_SHIFTED_SQ over a finite input of a large mean and
 *    tiny spread) through gpugb_fsum_sxx within 1e-12 of a two-pass long
 *    double Sxx, the shift within the group's spread.
 *
 *    Every case runs once per strategy (forced) and once with the
 *    heuristics' choice and run-time correction ("auto").  Cases marked
 *    "ordered" ask for ordered output (spec.n_order) and also check that
 *    the groups come back sorted, compared with a CPU comparison of
 *    PostgreSQL's order (NaN greatest, -0 = 0, NULLS FIRST/LAST, DESC).
 *    Cases marked "remap" aggregate min/max of words that are ranks in a
 *    growing order, with gpugb_groupby_remap_values between strides
 *    (selftest.h), and are checked in the final order.
 *
 *    device_selftest [--require-gpu] [--quick] [--lean-fast-key] [--lean-fast-wide] [--no-lean-gid-table] [--lean-deferred] [--no-partition-direct] [--partition-padded] [--partition-unpacked]
 *                    [--partition-cub-sort] [--partition-wide-keys] [--partition-l1-reserve] [--partition-unmixed] [--partition-ungathered] [--partition-uncarried] [--partition-unhashed] [--sort-probe] [--partition-own-probe] [--partition-probe-unbounded] [--overflow-walks-only] [--retry-repartition] [--observed-uniform-only] [--strategy NAME|auto] [--only TEXT]
 * Without a device it prints the probe result and exits 0, unless
 * --require-gpu.  Exit status is nonzero when any case failed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "selftest.h"
#include "../../cuda/gpugb_fsum.h"
#include "../../src/strategy.h"

/* Built against src/emulator.c (make run-emulator), not the CUDA module. */
#ifdef GPUGB_SELFTEST_EMULATOR
#define EMULATOR 1
#else
#define EMULATOR 0
#endif

/* The strategy the cases run with: a GpugbStrategy, or -1 for auto. */
static int	case_strategy = -1;
/* --lean-fast-key: every case with spec.lean_fast_key (an experiment of session 29). */
static int	lean_fast_key_option = 0;
/* --no-lean-gid-table: every case with spec.lean_gid_off (no table indexed by group id, as before session 45). */
static int	no_lean_gid_option = 0;
/* --lean-deferred: every case with spec.lean_deferred (the one-block table with ids looked up at the flush, session 47's experiment). */
static int	lean_deferred_option = 0;
/* --no-partition-direct: every case with spec.partition_lookup_all (PARTITION looks every group up at the flush, as before session 48). */
static int	no_partition_direct_option = 0;
/* --lean-fast-wide: every case with spec.lean_fast_wide (an experiment of session 30). */
static int	lean_fast_wide_option = 0;
/* --partition-padded: every case with spec.partition_move_padded (16-byte moved rows, as before session 33). */
static int	partition_padded_option = 0;
/* --partition-unpacked: every case with spec.partition_lean_unpacked (the lean partition kernel reads columns, as before session 34). */
static int	partition_unpacked_option = 0;
/* --partition-cub-sort: every case with spec.partition_cub_sort (packed rows sorted by CUB, as before session 37). */
static int	partition_cub_sort_option = 0;
/* --partition-wide-keys: every case with spec.partition_wide_sort_keys (CUB sorts 4-byte partitions, as before session 49). */
static int	partition_wide_keys_option = 0;
/* --partition-unmixed: every case with spec.partition_unmixed_words (direct launches sort packed rows with their partitions, as before session 50). */
static int	partition_unmixed_option = 0;
/* --partition-ungathered: every case with spec.partition_ungathered_values (direct launches of two to four sums sort packed rows with their partitions, as before session 51). */
static int	partition_ungathered_option = 0;
/* --partition-uncarried: every case with spec.partition_uncarried_values (gathered rows' sums read through row numbers, as sessions 51-60). */
static int	partition_uncarried_option = 0;
/* --partition-unhashed: every case with spec.partition_unhashed_keys (packed rows of an 8-byte key sort with their partitions, as before session 60). */
static int	partition_unhashed_option = 0;
/* --sort-probe: every case with spec.partition_sort_probe (SORT as auto's probe where PARTITION is planned, the default before session 38). */
static int	sort_probe_option = 0;
/* --partition-own-probe: every case with spec.partition_own_probe (PARTITION as that probe, the default of sessions 38-44). */
static int	own_probe_option = 0;
/* --partition-probe-unbounded: every case with spec.partition_probe_unbounded (PARTITION's lookups without a bound, as before session 39). */
static int	probe_unbounded_option = 0;
/* --overflow-walks-only: every case with spec.partition_overflow_walks_only (session 39's experiment; no case must overflow). */
static int	walks_only_option = 0;
/* --retry-repartition: every case with spec.partition_retry_repartition (session 39's experiment). */
static int	retry_repartition_option = 0;
static int	n_repartitioned_cases = 0;
/* --partition-l1-reserve: every case with spec.partition_l1_reserve always (PARTITION's lean table leaves L1 its reserve, session 58's rule's shape). */
static int	partition_l1_reserve_option = 0;
static int	n_l1_reserve_cases = 0;
static int	n_overflowed_cases = 0;
/* --observed-uniform-only: every case with spec.observed_uniform_only (the check's evenly-drawn model alone, as before session 39). */
static int	observed_uniform_only_option = 0;
/* Cases with a PARTITION launch whose rows were scattered (cuda/partition_scatter.cuh), for the summary. */
static int	n_scattered_cases = 0;
static int	n_deferred_cases = 0;	/* cases whose lean partition launches looked group ids up at the flush */
static int	n_direct_cases = 0;	/* cases whose first partition launch was allowed to number groups without lookups */
static int	n_direct_group_cases = 0;	/* ...and of those, cases where it numbered some */
static int	n_narrow_sort_cases = 0;	/* cases whose packed rows CUB sorted with 2-byte partitions */
static int	n_mixed_cases = 0;	/* cases whose first launch sorted mixed words (GPUGB_PARTITION_MIXED_KEYS) */
static int	n_gathered_cases = 0;	/* ...mixed keys with row numbers (GPUGB_GATHERED_KEY_WORDS) */
static int	n_carried_cases = 0;	/* ...of which the sort carried the sums (GPUGB_CARRIED_KEY_WORDS) */
static int	n_hashed_cases = 0;	/* cases with launches of hashed rows (GPUGB_HASHED_KEY_WORDS) */
static int	n_deferred_wide_cases = 0;	/* ...over 8-byte keys, among them GPUGB_DEFERRED_EMPTY_KEY (reference.c) */

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

/* *g = the reference group of the device's group i, seen once only. */
static int
ref_group(const Results *res, Ref *r, int64_t i, int64_t *g)
{
	int64_t		vals[GPUGB_MAX_KEYS];
	uint32_t	mask = 0;

	*g = 0;
	for (int k = 0; k < r->n_keys; k++)
	{
		vals[k] = res->kv[k][i];
		mask |= (uint32_t) (res->kn[k][i] != 0) << k;
		CHECK(!res->kn[k][i] || vals[k] == 0, "group %lld: NULL key %d has value %lld",
			  (long long) i, k, (long long) vals[k]);
	}
	if (r->n_keys > 0)
		*g = ref_lookup(r, vals, mask, 0);
	CHECK(*g >= 0, "group %lld: key not in the reference (key0=%lld mask=%x)",
		  (long long) i, (long long) vals[0], mask);
	CHECK(!r->seen[*g], "group %lld: key appears twice", (long long) i);
	r->seen[*g] = 1;
	return 1;
}

/* The rows of case cs's strides. */
static int64_t
spec_stride_rows(const CaseSpec *cs)
{
	return cs->stride_rows ? cs->stride_rows : (1 << 20);
}

/* The aggregates case cs runs (not the remap cases'). */
static const GpugbAggSpec *
case_aggs(const CaseSpec *cs, int *n_aggs)
{
	*n_aggs = cs->lean ? N_LEAN_AGGS : N_AGGS;
	return cs->lean ? lean_aggs[cs->lean - 1] : aggs;
}

/* Whether a case's aggregates are COUNT and integer SUM only (lean sets but 5). */
static int
case_lean_only(const CaseSpec *cs)
{
	return cs->lean >= 1 && cs->lean != 5;
}

/* The distinct sums of a lean case (the device keeps one column for SUM_INT of one input). */
static int
lean_case_sums(const CaseSpec *cs)
{
	const GpugbAggSpec *a = lean_aggs[cs->lean - 1];
	int			sums = 0;

	for (int i = 0; i < N_LEAN_AGGS; i++)
	{
		int			seen = 0;

		for (int j = 0; j < i; j++)
			seen |= a[j].op == GPUGB_AGG_SUM_INT && a[j].input == a[i].input;
		sums += a[i].op == GPUGB_AGG_SUM_INT && !seen;
	}
	return sums;
}

static int
compare(const CaseSpec *cs, const Results *res, Ref *r)
{
	int			n_aggs;
	const GpugbAggSpec *aggs = case_aggs(cs, &n_aggs);

	CHECK(res->n == r->n_groups, "device has %lld groups, reference %lld",
		  (long long) res->n, (long long) r->n_groups);
	for (int64_t i = 0; i < res->n; i++)
	{
		int64_t		g;

		if (!ref_group(res, r, i, &g))
			return 0;
		for (int a = 0; a < n_aggs; a++)
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
					if (!check_sum_int(res, a, i, r->sum_in[in][g]))
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
				case GPUGB_AGG_SHIFT_FLOAT:
					{
						double		k,
									level;

						memcpy(&k, &res->val[a][i], 8);

						/*
						 * One of the group's inputs: a generated value, 1e9,
						 * 2e9 or 3e9 plus noise below 2.5e-3 (a group mixes
						 * the levels, so its mean says nothing about K).
						 */
						level = round(k / 1e9);
						CHECK(isfinite(k) && level >= 1 && level <= 3 &&
							  fabs(k - level * 1e9) <= 3e-3,
							  "group %lld: shift %.17g is no generated input", (long long) i, k);
						break;
					}
				case GPUGB_AGG_SUM_SHIFTED_SQ:
					{
						/* aggs: SUM_SHIFTED_SQ at a, SUM_SHIFTED at a + 1 */
						double		s1h,
									s1l,
									s2h,
									s2l,
									got;
						double		want = (double) r->vsxx[g];

						memcpy(&s2h, &res->val[a][i], 8);
						memcpy(&s2l, &res->hi[a][i], 8);
						memcpy(&s1h, &res->val[a + 1][i], 8);
						memcpy(&s1l, &res->hi[a + 1][i], 8);
						got = gpugb_fsum_sxx((double) want_cnt, s1h, s1l, s2h, s2l);
						CHECK(fabs(got - want) <= 1e-12 * want + 1e-30,
							  "group %lld: Sxx %.17g, want %.17g (n %lld, S1 %.17g%+g, S2 %.17g%+g)",
							  (long long) i, got, want, (long long) want_cnt, s1h, s1l, s2h, s2l);
						break;
					}
				default:
					break;
			}
		}
	}
	return 1;
}

/*
 * Remap cases (remap_aggs): MIN and MAX of input 2 are in the final order's
 * ranks, i.e. the reference's min0 and max0 (input 0); the identities of
 * groups without input stayed; SUM of input 2 and MAX of input 0 are as fed.
 */
static int
compare_remap(const Results *res, Ref *r)
{
	CHECK(res->n == r->n_groups, "device has %lld groups, reference %lld",
		  (long long) res->n, (long long) r->n_groups);
	for (int64_t i = 0; i < res->n; i++)
	{
		int64_t		g;
		int64_t		n_in;

		if (!ref_group(res, r, i, &g))
			return 0;
		for (int a = 0; a < N_RAGGS; a++)
		{
			int			in = remap_aggs[a].input;
			int64_t		want_cnt = in < 0 ? r->cnt_star[g] : r->cnt_in[in][g];

			CHECK(res->cnt[a][i] == want_cnt, "group %lld agg %d: count %lld, want %lld",
				  (long long) i, a, (long long) res->cnt[a][i], (long long) want_cnt);
		}
		n_in = r->cnt_in[2][g];
		for (int a = 1; a <= 3; a++)
		{
			int64_t		want = remap_aggs[a].op == GPUGB_AGG_MIN_INT ?
				(n_in > 0 ? r->min0[g] : INT64_MAX) : (n_in > 0 ? r->max0[g] : INT64_MIN);

			CHECK(res->val[a][i] == want, "group %lld agg %d: %s %lld, want %lld",
				  (long long) i, a, remap_aggs[a].op == GPUGB_AGG_MIN_INT ? "min" : "max",
				  (long long) res->val[a][i], (long long) want);
		}
		if (n_in > 0 && !check_sum_int(res, 5, i, r->sum_in[2][g]))
			return 0;
		CHECK(n_in == 0 || res->val[6][i] == r->max0[g], "group %lld: unlisted max %lld, want %lld",
			  (long long) i, (long long) res->val[6][i], (long long) r->max0[g]);
	}
	return 1;
}

/*
 * Ordered output (spec.n_order): every key, the last first, directions and
 * NULLS FIRST/LAST alternating; with cs->ordered == 2 the most significant
 * key's words are read as doubles (random bit patterns: NaNs of every
 * payload and sign, -0 from INT64_MIN, infinities, subnormals); with
 * cs->ordered == 3 two counts come first: COUNT(in0) (aggs[1], whose NULLs
 * the device counts apart) DESC, then COUNT_STAR (aggs[0]); with
 * cs->ordered == 4 two values: SUM_INT(in0) (aggs[2], 128 bits) DESC NULLS
 * FIRST, then MIN_INT(in0) (aggs[3]) NULLS LAST.
 */
#define ORDER_COUNTS(cs) ((cs)->ordered >= 3 ? 2 : 0)

static void
case_order(const CaseSpec *cs, GpugbGroupBySpec *spec)
{
	int			counts = ORDER_COUNTS(cs);

	spec->n_order = cs->ordered ? counts + cs->n_keys : 0;
	for (int o = 0; o < counts; o++)
	{
		spec->order[o].by_count = cs->ordered == 3;
		spec->order[o].by_value = cs->ordered == 4;
		spec->order[o].agg = cs->ordered == 3 ? (o == 0 ? 1 : 0) : (o == 0 ? 2 : 3);
		spec->order[o].kind = GPUGB_ORDER_INT;
		spec->order[o].descending = o == 0;
		spec->order[o].nulls_first = o == 0;
	}
	for (int o = counts; o < spec->n_order; o++)
	{
		int			k = o - counts;

		spec->order[o].key = cs->n_keys - 1 - k;
		spec->order[o].kind = cs->ordered == 2 && k == 0 ? GPUGB_ORDER_FLOAT : GPUGB_ORDER_INT;
		spec->order[o].descending = k % 2 == 1;
		spec->order[o].nulls_first = k % 3 == 0;
	}
}

/* The CPU reference of PostgreSQL's order (order_kernels.cuh, by other means). */
static int
ref_order_cmp(const GpugbOrderKey *key, int64_t va, int na, int64_t vb, int nb)
{
	if (na || nb)
	{
		if (na && nb)
			return 0;
		return na == key->nulls_first ? -1 : 1;
	}
	int			c;

	if (key->kind == GPUGB_ORDER_FLOAT)
	{
		double		a,
					b;

		memcpy(&a, &va, 8);
		memcpy(&b, &vb, 8);
		/* float8_cmp_internal: NaN = NaN, NaN above everything else */
		if (isnan(a) || isnan(b))
			c = isnan(a) && isnan(b) ? 0 : isnan(a) ? 1 : -1;
		else
			c = a < b ? -1 : a > b ? 1 : 0;	/* -0 == 0 */
	}
	else
		c = va < vb ? -1 : va > vb ? 1 : 0;
	return key->descending ? -c : c;
}

/* The device's groups, in fetch order, are sorted by the case's order. */
static int
check_order(const Results *res, const CaseSpec *cs)
{
	GpugbGroupBySpec spec;

	memset(&spec, 0, sizeof(spec));
	case_order(cs, &spec);
	for (int64_t i = 1; i < res->n; i++)
	{
		int			c = 0;

		for (int o = 0; o < spec.n_order && c == 0; o++)
		{
			int			k = spec.order[o].key;

			if (spec.order[o].by_count)
			{
				/* a count as fetched (non-NULL inputs), never NULL */
				const int64_t *cnt = res->cnt[spec.order[o].agg];

				c = ref_order_cmp(&spec.order[o], cnt[i - 1], 0, cnt[i], 0);
				CHECK(c <= 0, "groups %lld and %lld out of order (count of agg %d: %lld, %lld)",
					  (long long) i - 1, (long long) i, spec.order[o].agg,
					  (long long) cnt[i - 1], (long long) cnt[i]);
				continue;
			}
			if (spec.order[o].by_value)
			{
				/* a value as fetched: NULL without a non-NULL input; a sum's 128 bits */
				int			ag = spec.order[o].agg;
				int			na = res->cnt[ag][i - 1] == 0,
							nb = res->cnt[ag][i] == 0;
				i128		va = aggs[ag].op == GPUGB_AGG_SUM_INT ?
					((i128) res->hi[ag][i - 1] << 64) | (i128) (uint64_t) res->val[ag][i - 1] :
					(i128) res->val[ag][i - 1];
				i128		vb = aggs[ag].op == GPUGB_AGG_SUM_INT ?
					((i128) res->hi[ag][i] << 64) | (i128) (uint64_t) res->val[ag][i] :
					(i128) res->val[ag][i];

				if (na || nb)
					c = na && nb ? 0 : na == spec.order[o].nulls_first ? -1 : 1;
				else
					c = va < vb ? -1 : va > vb ? 1 : 0;
				if (!na && !nb && spec.order[o].descending)
					c = -c;
				CHECK(c <= 0, "groups %lld and %lld out of order (value of agg %d: hi %lld lo %llu%s, hi %lld lo %llu%s)",
					  (long long) i - 1, (long long) i, ag,
					  (long long) res->hi[ag][i - 1], (unsigned long long) res->val[ag][i - 1],
					  na ? " NULL" : "", (long long) res->hi[ag][i],
					  (unsigned long long) res->val[ag][i], nb ? " NULL" : "");
				continue;
			}
			c = ref_order_cmp(&spec.order[o], res->kv[k][i - 1], res->kn[k][i - 1],
							  res->kv[k][i], res->kn[k][i]);
		}
		CHECK(c <= 0, "groups %lld and %lld out of order (key %d: %llx%s, %llx%s)",
			  (long long) i - 1, (long long) i, spec.order[0].key,
			  (unsigned long long) res->kv[spec.order[0].key][i - 1],
			  res->kn[spec.order[0].key][i - 1] ? " NULL" : "",
			  (unsigned long long) res->kv[spec.order[0].key][i],
			  res->kn[spec.order[0].key][i] ? " NULL" : "");
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

/*
 * Wall time from one report to the next, each case's line ending with it,
 * and the slowest cases listed before the summary: the GPU box's minutes
 * are few, and the whole run takes most of four of them (session 36).
 */
#define SLOWEST_LISTED 8
static double last_report_s;
static struct
{
	double		secs;
	char		name[120];
}			slowest[SLOWEST_LISTED];

static void
note_case_time(const char *name, double secs)
{
	int			i = SLOWEST_LISTED - 1;

	if (secs <= slowest[i].secs)
		return;
	for (; i > 0 && slowest[i - 1].secs < secs; i--)
		slowest[i] = slowest[i - 1];
	slowest[i].secs = secs;
	snprintf(slowest[i].name, sizeof(slowest[i].name), "%s", name);
}

static void
print_slowest(void)
{
	for (int i = 0; i < SLOWEST_LISTED && slowest[i].secs > 0; i++)
		printf("slowest %d: %.2f s  %s\n", i + 1, slowest[i].secs, slowest[i].name);
}

static void
report(const char *name, int ok, const char *detail)
{
	double		now = now_s();
	double		secs = last_report_s > 0 ? now - last_report_s : 0;

	last_report_s = now;
	n_cases++;
	if (!ok)
		n_failed++;
	note_case_time(name, secs);
	printf("%s %s%s%s (%.2f s)\n", ok ? "ok  " : "FAIL", name, detail[0] ? ": " : "", detail, secs);
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

/*
 * Remap p of a remap case: alternately all three MIN/MAX of input 2, and
 * just one of the two MINs that share a column (which remaps both).
 */
static GpugbStatus
remap(GpugbGroupBy *gb, const RankPlan *rp, int p)
{
	static const int all[] = {1, 2, 3};
	static const int one_min[] = {3, 2};

	if (p % 2 == 0)
		return gpugb_groupby_remap_values(gb, all, 3, rp->map[p], rp->map_len[p]);
	return gpugb_groupby_remap_values(gb, one_min, 2, rp->map[p], rp->map_len[p]);
}

/*
 * Slots as parallel ingest's DSM holds them (src/parallel.c: every value
 * column, then every null column), registered with the device, for the
 * append cases.
 */
#define N_SLOTS 4

typedef struct SlotArea
{
	int64_t		slot_rows;
	int			ncols;
	size_t		slot_bytes;
	size_t		bytes;
	char	   *base;
	int			registered;
	int			ticket[N_SLOTS];
	int			busy[N_SLOTS];
} SlotArea;

static GpugbStatus
slot_area_init(SlotArea *sa, int n_keys, int64_t stride_rows)
{
	void	   *p = NULL;

	memset(sa, 0, sizeof(*sa));
	sa->slot_rows = stride_rows / 3 + 1;
	sa->ncols = n_keys + N_INPUTS;
	sa->slot_bytes = (size_t) sa->slot_rows * 9 * sa->ncols;
	sa->bytes = (sa->slot_bytes * N_SLOTS + 4095) & ~(size_t) 4095;
	if (posix_memalign(&p, 4096, sa->bytes) != 0)
		abort();
	sa->base = p;
	GpugbStatus st = gpugb_host_register(sa->base, sa->bytes);

	sa->registered = st == GPUGB_OK;
	return st;
}

static void
slot_area_free(SlotArea *sa)
{
	if (sa->registered)
		gpugb_host_unregister(sa->base, sa->bytes);
	free(sa->base);
	sa->base = NULL;
}

/* A slot whose last copy has finished; waits for one when all are busy. */
static GpugbStatus
free_slot(GpugbGroupBy *gb, SlotArea *sa, int *slot)
{
	GpugbStatus st;

	for (int wait = 0; wait <= 1; wait++)
		for (int i = 0; i < N_SLOTS; i++)
		{
			int			done = 1;

			if (sa->busy[i])
			{
				bool		d = false;

				if ((st = gpugb_groupby_append_done(gb, sa->ticket[i], wait, &d)) != GPUGB_OK)
					return st;
				done = d;
			}
			if (done)
			{
				sa->busy[i] = 0;
				*slot = i;
				return GPUGB_OK;
			}
		}
	return GPUGB_CUDA_ERROR;	/* a waited-for ticket that is not done */
}

/* One column's slice into a slot column; poisoned null bytes when it has none. */
static bool
fill_slot_column(int64_t *values, uint8_t *nulls, const int64_t *src, const uint8_t *src_nulls,
				 int64_t m)
{
	bool		has = any_set(src_nulls, m);

	memcpy(values, src, m * 8);
	/* the device must not read the null bytes of a slot column without NULLs */
	if (has)
		memcpy(nulls, src_nulls, m);
	else
		memset(nulls, 0xA5, m);
	return has;
}

/* Rows [done, done + n) appended to s in slots of random sizes. */
static GpugbStatus
append_rows(GpugbGroupBy *gb, GpugbStride *s, const CaseSpec *cs, const Data *d, int64_t done,
			int64_t n, SlotArea *sa)
{
	GpugbStatus st;

	for (int64_t off = 0; off < n;)
	{
		int64_t		cap = n - off < sa->slot_rows ? n - off : sa->slot_rows;
		int64_t		m = 1 + (int64_t) (rnd() % (uint64_t) cap);
		int			slot;
		GpugbStride v;

		if ((st = free_slot(gb, sa, &slot)) != GPUGB_OK)
			return st;

		char	   *base = sa->base + slot * sa->slot_bytes;
		int64_t    *values = (int64_t *) base;
		uint8_t    *nulls = (uint8_t *) (base + (size_t) sa->ncols * sa->slot_rows * 8);

		memset(&v, 0, sizeof(v));
		v.nrows = m;
		for (int k = 0; k < cs->n_keys; k++)
		{
			v.key_values[k] = values + k * sa->slot_rows;
			v.key_nulls[k] = nulls + k * sa->slot_rows;
			v.key_has_nulls[k] = fill_slot_column(v.key_values[k], v.key_nulls[k],
												  d->key[k] + done + off,
												  d->knull[k] + done + off, m);
		}
		for (int i = 0; i < N_INPUTS; i++)
		{
			int			c = cs->n_keys + i;

			v.input_values[i] = values + c * sa->slot_rows;
			v.input_nulls[i] = nulls + c * sa->slot_rows;
			v.input_has_nulls[i] = fill_slot_column(v.input_values[i], v.input_nulls[i],
													d->in[i] + done + off,
													d->innull[i] + done + off, m);
		}
		if ((st = gpugb_groupby_append(gb, s, &v, &sa->ticket[slot])) != GPUGB_OK)
			return st;
		sa->busy[slot] = 1;
		off += m;
	}
	return GPUGB_OK;
}

/*
 * One key column whose every value (NULL rows included) is an int32: the
 * executor declares for int2/int4/date/bool keys (spec.key_fits_int32), so
 * those cases run the table's keyed slots (cuda/hash_table.cuh).
 */
static bool
keys_fit_int32(const Data *d)
{
	if (d->n_keys != 1)
		return false;
	for (int64_t r = 0; r < d->nrows; r++)
		if (d->key[0][r] != (int64_t) (int32_t) d->key[0][r])
			return false;
	return true;
}

/* Distinct inputs the case's value aggregates (all but COUNT and COUNT(*)) read. */
static int
case_value_inputs(const CaseSpec *cs)
{
	int			n_aggs;
	const GpugbAggSpec *a = case_aggs(cs, &n_aggs);
	uint64_t	inputs = 0;
	int			n = 0;

	for (int i = 0; i < n_aggs; i++)
		if (a[i].op != GPUGB_AGG_COUNT_STAR && a[i].op != GPUGB_AGG_COUNT &&
			(inputs >> a[i].input & 1) == 0)
		{
			inputs |= 1ull << a[i].input;
			n++;
		}
	return n;
}

/*
 * Whether every input a lean case sums holds int32 words: in0 under
 * narrow_in0, in2 under narrow_in2, in1 and in3 under narrow_in13
 * (reference.c).  True for a case of no sums.
 */
static int
case_sums_narrow(const CaseSpec *cs)
{
	const GpugbAggSpec *a = lean_aggs[cs->lean - 1];

	for (int i = 0; i < N_LEAN_AGGS; i++)
		if (a[i].op == GPUGB_AGG_SUM_INT &&
			!((a[i].input == 0 && cs->narrow_in0) || (a[i].input == 2 && cs->narrow_in2) ||
			  ((a[i].input == 1 || a[i].input == 3) && cs->narrow_in13)))
			return 0;
	return 1;
}

/*
 * The inputs whose every word is an int32 value, declared as the executor
 * declares int2, int4 and bool columns (spec.inputs_fit_int32).
 */
static uint64_t
inputs_fit_int32(const Data *d)
{
	uint64_t	fit = 0;

	for (int i = 0; i < N_INPUTS; i++)
	{
		int64_t		r = 0;

		while (r < d->nrows && d->in[i][r] == (int64_t) (int32_t) d->in[i][r])
			r++;
		if (r == d->nrows)
			fit |= 1ull << i;
	}
	return fit;
}

/*
 * Feeds the data through a handle; returns the status of the first failing
 * call.  With rp (remap cases), strides end at the remaps' rows and the
 * remaps come between them, with the strides before still in flight.
 */
static GpugbStatus
run_device(const CaseSpec *cs, const Data *d, const RankPlan *rp, Results *res,
		   GpugbStats *stats, double *secs)
{
	GpugbGroupBySpec spec;
	GpugbGroupBy *gb = NULL;
	GpugbStatus st;
	double		t0 = now_s();
	int			n_aggs;
	const GpugbAggSpec *run_aggs = case_aggs(cs, &n_aggs);
	int			next_remap = 0;

	if (rp != NULL)
	{
		run_aggs = remap_aggs;
		n_aggs = N_RAGGS;
	}
	memset(&spec, 0, sizeof(spec));
	spec.n_keys = cs->n_keys;
	spec.n_inputs = N_INPUTS;
	spec.n_aggs = n_aggs;
	memcpy(spec.aggs, run_aggs, n_aggs * sizeof(GpugbAggSpec));
	spec.estimated_groups = cs->est_groups ? cs->est_groups : cs->g;
	spec.stride_rows = spec_stride_rows(cs);
	spec.device_memory_limit = cs->mem_limit;
	spec.estimated_rows = (double) cs->nrows;
	spec.appends_only = cs->append != 0;	/* as the leader's direct copy: no pinned strides */
	spec.lean_fast_key = lean_fast_key_option != 0;
	spec.lean_fast_wide = lean_fast_wide_option != 0;
	spec.lean_gid_off = no_lean_gid_option != 0 || cs->keyed_only != 0;
	spec.lean_deferred = lean_deferred_option != 0;
	spec.partition_lookup_all = no_partition_direct_option != 0;
	spec.partition_rows_only = cs->rows_only != 0;
	spec.partition_scratch_refused_from = cs->scratch_refused_from;
	spec.partition_move_padded = partition_padded_option != 0;
	spec.partition_lean_unpacked = partition_unpacked_option != 0;
	spec.partition_cub_sort = partition_cub_sort_option != 0;
	spec.partition_wide_sort_keys = partition_wide_keys_option != 0;
	spec.partition_l1_reserve = partition_l1_reserve_option ? GPUGB_L1_RESERVE_ALWAYS : GPUGB_L1_RESERVE_BY_RULE;
	spec.partition_unmixed_words = partition_unmixed_option != 0;
	spec.partition_ungathered_values = partition_ungathered_option != 0;
	spec.partition_unhashed_keys = partition_unhashed_option != 0;
	spec.partition_uncarried_values = partition_uncarried_option != 0;
	spec.partition_sort_probe = sort_probe_option != 0;
	spec.partition_own_probe = own_probe_option != 0;
	spec.partition_probe_unbounded = probe_unbounded_option != 0;
	spec.partition_overflow_walks_only = walks_only_option != 0;
	spec.partition_retry_repartition = retry_repartition_option != 0;
	spec.observed_uniform_only = observed_uniform_only_option != 0;
	spec.key_fits_int32 = keys_fit_int32(d);
	spec.inputs_fit_int32 = inputs_fit_int32(d);
	if ((cs->narrow_in0 && (spec.inputs_fit_int32 & 1) == 0) ||
		(cs->narrow_in13 && (spec.inputs_fit_int32 & 0xA) != 0xA))
		return GPUGB_INVALID_ARGUMENT;	/* the case's data must declare it */
	if (cs->int32_keys && !spec.key_fits_int32)
		return GPUGB_INVALID_ARGUMENT;	/* the case's data must declare it */
	case_order(cs, &spec);
	if (case_strategy >= 0)
		spec.strategy = (GpugbStrategy) case_strategy;
	else
	{
		/* What the executor does for gpugb.strategy = auto. */
		GpugbStrategyChoice choice;

		gpugb_spec_choose(&spec, -1, &choice);
		spec.strategy = choice.strategy;
		spec.allow_switch = true;
	}

	SlotArea	sa = {0};

	if ((st = gpugb_groupby_create(&spec, &gb)) != GPUGB_OK)
		return st;
	if (cs->append && (st = slot_area_init(&sa, cs->n_keys, spec.stride_rows)) != GPUGB_OK)
		goto out;
	for (int64_t done = 0; done < d->nrows;)
	{
		GpugbStride *s;
		int64_t		n = d->nrows - done;

		for (; rp != NULL && next_remap < rp->n && rp->bound[next_remap] <= done; next_remap++)
			if ((st = remap(gb, rp, next_remap)) != GPUGB_OK)
				goto out;
		if ((st = gpugb_groupby_next_stride(gb, &s)) != GPUGB_OK)
			goto out;
		if (n > spec.stride_rows)
			n = spec.stride_rows;
		if (cs->partial)
			n = 1 + (int64_t) (rnd() % (uint64_t) n);
		if (rp != NULL && next_remap < rp->n && done + n > rp->bound[next_remap])
			n = rp->bound[next_remap] - done;
		if (cs->append)
		{
			if ((st = append_rows(gb, s, cs, d, done, n, &sa)) != GPUGB_OK ||
				(st = gpugb_groupby_submit(gb, s)) != GPUGB_OK)
				goto out;
			done += n;
			continue;
		}
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
	/* Remaps after the last stride (no rows in their phase), also legal. */
	for (; rp != NULL && next_remap < rp->n; next_remap++)
		if ((st = remap(gb, rp, next_remap)) != GPUGB_OK)
			goto out;
	if ((st = gpugb_groupby_finish(gb, &res->n)) != GPUGB_OK)
		goto out;
	*secs = now_s() - t0;

	/* Fetch in two pieces, so that `first` is exercised. */
	for (int k = 0; k < cs->n_keys; k++)
	{
		res->kv[k] = xcalloc(res->n, 8);
		res->kn[k] = xcalloc(res->n, 1);
	}
	for (int a = 0; a < n_aggs; a++)
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
		for (int a = 0; a < n_aggs; a++)
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
	gpugb_groupby_destroy(gb);	/* waits for every copy from the slots */
	if (sa.base != NULL)
		slot_area_free(&sa);
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

/*
 * Whether the device holds a one-block lean table of one sum for `groups`
 * groups (heuristics.c, gpugb_lean_one_block_slots): 2^12 groups (cases
 * 74-75) take 229,392 bytes, which an H200 allows (232,448 with opt-in) and
 * an A100 (about 166,000) does not; case 77's 1000 fit both.
 */
static bool
one_block_table_fits(double groups)
{
	GpugbDeviceProps props;

	gpugb_device_properties(&props);
	return gpugb_lean_one_block_slots(1, 1, groups, &props) > 0;
}

/*
 * Whether a lean case's groups expected fit SHARED_HASH's table indexed by
 * group id on this device (src/heuristics.c, gpugb_lean_gid_max_groups):
 * then the launch takes it rather than a partial keyed table, unless an
 * input has NULLs or a group 25 % of the rows.
 */
static int
gid_table_fits(const CaseSpec *cs)
{
	GpugbDeviceProps props;
	int64_t		groups = cs->est_groups ? cs->est_groups : cs->g;

	gpugb_device_properties(&props);
	return case_lean_only(cs) && !no_lean_gid_option && !cs->keyed_only &&
		groups <= gpugb_lean_gid_max_groups(lean_case_sums(cs), &props);
}

/*
 * The group ranges case cs's groups take the group-id table once a sum in
 * on this device (the heuristic's gpugb_lean_gid_split_ranges: 0, no
 * split; 1, once a sum; more, by group range too), 0 where the table is
 * turned off.
 */
static int
gid_split_case_ranges(const CaseSpec *cs)
{
	GpugbDeviceProps props;
	int64_t		groups = cs->est_groups ? cs->est_groups : cs->g;

	if (!case_lean_only(cs) || no_lean_gid_option || cs->keyed_only)
		return 0;
	gpugb_device_properties(&props);
	return gpugb_lean_gid_split_ranges(lean_case_sums(cs), true, (double) groups, 0, &props);
}

/*
 * The data and CPU reference of the case main is running, kept while every
 * strategy runs it in turn.  Building the reference of "1 key, g=1e6, 1e7
 * rows" took 7.0 s on the development machine (with a build beside it),
 * and that case took 5.7-7.9 s a strategy on the H200, whose kernels take
 * milliseconds; the whole self-test, which built each case's data and
 * reference again for each of its six strategies, no longer finished
 * within a device call's 600 s (session 50: 617 cases, none failed, in
 * 555 s).  Each run starts from the generator's state after the data, as
 * a run of one strategy does (partial cases draw their fill sizes from
 * it).  run_case takes its case's data before anything may replace its cs
 * (the refused move's `limited` copy): the key is main's &cases[i].
 */
typedef struct CaseData
{
	const CaseSpec *cs;			/* whose data this is; NULL: none */
	Data		d;
	RankPlan	rp;
	Ref			r;
	int			have_ref;		/* r built (the first run that got a result) */
	uint64_t	rng_after;		/* rnd_state() after generate */
} CaseData;

static CaseData case_data;

static void
release_case_data(void)
{
	if (case_data.cs == NULL)
		return;
	if (case_data.have_ref)
		free_reference(&case_data.r);
	if (case_data.cs->remap)
		free_ranks(&case_data.rp);
	free_data(&case_data.d);
	memset(&case_data, 0, sizeof(case_data));
}

/* cs's data, generated unless it is the kept case's; the generator back at its state after them. */
static CaseData *
case_data_of(const CaseSpec *cs)
{
	if (case_data.cs != cs)
	{
		release_case_data();
		case_data.cs = cs;
		generate(cs, &case_data.d);
		if (cs->remap)
			generate_ranks(cs, &case_data.d, &case_data.rp);
		case_data.rng_after = rnd_state();
	}
	rnd_restore(case_data.rng_after);
	return &case_data;
}

/* The kept case's reference, built once; compare() marks the groups it met in r->seen, cleared here. */
static Ref *
case_reference(CaseData *cd, const CaseSpec *cs)
{
	if (!cd->have_ref)
	{
		build_reference(&cd->d, cs, &cd->r);
		cd->have_ref = 1;
	}
	else
		memset(cd->r.seen, 0, (size_t) cd->r.max_groups);
	return &cd->r;
}

static void
run_case(const CaseSpec *cs)
{
	CaseData   *cd = case_data_of(cs);
	const Data *d = &cd->d;
	Results		res;
	GpugbStats	stats;
	GpugbUsage	before,
				after;
	double		secs = 0;
	char		detail[768] = "";
	int			ok;

	memset(&res, 0, sizeof(res));
	memset(&stats, 0, sizeof(stats));
	/*
	 * A refused move (CaseSpec.refuse_move): the peak without the move, then
	 * the case under a limit just above it.
	 */
	CaseSpec	limited;
	int			refusing = cs->refuse_move && !EMULATOR && case_strategy == GPUGB_STRATEGY_PARTITION;

	gpugb_device_usage(&before);	/* before both runs: a leak in either shows */
	if (refusing)
	{
		CaseSpec	calibration = *cs;
		Results		calibration_res;
		GpugbStats	calibration_stats;

		memset(&calibration_res, 0, sizeof(calibration_res));
		memset(&calibration_stats, 0, sizeof(calibration_stats));
		calibration.rows_only = 1;
		calibration.mem_limit = 0;
		if (run_device(&calibration, d, NULL, &calibration_res, &calibration_stats, &secs) == GPUGB_OK)
		{
			limited = *cs;
			limited.mem_limit = calibration_stats.peak_device_bytes + (1 << 20);
			cs = &limited;
		}
		free_results(&calibration_res);
	}
	GpugbStatus st = run_device(cs, d, cs->remap ? &cd->rp : NULL, &res, &stats, &secs);

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
		Ref		   *r = case_reference(cd, cs);

		ok = cs->remap ? compare_remap(&res, r) : compare(cs, &res, r);
		if (ok && cs->ordered)
			ok = check_order(&res, cs);
		if (ok && stats.rows != cs->nrows)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "stats.rows %lld, fed %lld",
					 (long long) stats.rows, (long long) cs->nrows);
		}
		/*
		 * The emulator grows its table, but it has no retries; nor has auto
		 * where its run-time check grew the table (gpugb_table_reserve) before
		 * any launch overflowed it (1-row strides: the check sees every row
		 * distinct and expects all the rows' groups).
		 */
		if (ok && cs->expect_grow &&
			(stats.table_grows == 0 ||
			 (stats.retried_rows == 0 && !EMULATOR && !(case_strategy < 0 && stats.groups_at_switch_check >= 0))))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "expected table growth with retries");
		}
		/*
		 * A lean case run as SHARED_HASH on the device must have taken the
		 * lean kernel, so that its results prove that kernel (the emulator
		 * has no kernels): after the switch, too, not only in the probe.
		 */
		if (ok && !EMULATOR && cs->lean && cs->nrows > 0 &&
			(case_strategy >= 0 || !cs->partial_lean) &&
			stats.strategy_used == GPUGB_STRATEGY_SHARED_HASH &&
			stats.lean_launches == stats.lean_probe_launches)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "shared_hash without a lean launch");
		}
		/*
		 * PARTITION on one key without NULLs must move the rows with its sort
		 * (cuda/partition_move.cu) wherever a launch has two rows or more and
		 * no memory limit could refuse the scratch, so that its results prove
		 * the moved rows, and retries over them.
		 */
		int64_t		first_launch_rows = cs->nrows < spec_stride_rows(cs) ? cs->nrows : spec_stride_rows(cs);
		int64_t		most_groups = cs->est_groups > cs->g ? cs->est_groups : cs->g;
		int			keys_repeat = gpugb_partition_lean_rows_pay((double) first_launch_rows, (double) most_groups);

		/*
		 * Two to four sums move only packed, for the lean kernel: an int32
		 * key or an 8-byte one (in 12-byte or even rows, not under
		 * --partition-padded) and int32 words in every summed input,
		 * and the lean kernel must pay (keys_repeat) for the launch to move.
		 */
		int			packable_key = cs->int32_keys || !partition_padded_option;
		int			packs_many = case_lean_only(cs) && lean_case_sums(cs) >= 2 &&
			lean_case_sums(cs) <= GPUGB_PARTITION_LEAN_MAX_SUMS && packable_key && cs->n_keys == 1 &&
			case_sums_narrow(cs) && cs->key_null == 0 && cs->in_null == 0 && cs->remap == 0 &&
			!partition_unpacked_option;
		int			moves_rows = cs->n_keys == 1 && cs->key_null == 0 && cs->in_null == 0 &&
			cs->remap == 0 && (case_value_inputs(cs) <= GPUGB_MOVE_MAX_VALUE_INPUTS || (packs_many && keys_repeat));

		if (ok && !EMULATOR && case_strategy == GPUGB_STRATEGY_PARTITION &&
			stats.strategy_used == GPUGB_STRATEGY_PARTITION && moves_rows && cs->mem_limit == 0 &&
			cs->nrows > 1 && cs->stride_rows != 1 && stats.partition_moved_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "partition without a moved launch");
		}
		/* ...and none may where the case's shape says no (not NULLs: a stride may have none). */
		if (ok && !EMULATOR && cs->remap == 0 &&
			(cs->n_keys != 1 || (case_value_inputs(cs) > GPUGB_MOVE_MAX_VALUE_INPUTS && !packs_many)) &&
			stats.partition_moved_launches != 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld moved partition launches where none applies",
					 (long long) stats.partition_moved_launches);
		}
		/* ...and under the limit of a refused move (refuse_move), none may, and PARTITION stays. */
		if (ok && refusing &&
			(cs->mem_limit == 0 || stats.strategy_used != GPUGB_STRATEGY_PARTITION ||
			 stats.partition_moved_launches != 0 || stats.partition_lean_launches != 0))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg),
					 "a refused move: limit %lld, used %s, %lld moved launches, %lld lean",
					 (long long) cs->mem_limit, gpugb_strategy_name(stats.strategy_used),
					 (long long) stats.partition_moved_launches,
					 (long long) stats.partition_lean_launches);
		}
		/*
		 * Where such a launch is COUNT and at most one integer SUM, and its
		 * keys repeat (the first launch's rows at least
		 * GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY times the groups, estimated
		 * and true, so whatever the run-time check makes of the estimate),
		 * the lean partition kernel (cuda/partition_lean_kernel.cuh) must
		 * take it, so that its results prove that kernel; and no other
		 * shape may take it.
		 */
		int			lean_partition_shape = case_lean_only(cs) &&
			(lean_case_sums(cs) <= 1 || packs_many);

		if (ok && !EMULATOR && case_strategy == GPUGB_STRATEGY_PARTITION &&
			stats.partition_moved_launches > 0 && moves_rows && lean_partition_shape && keys_repeat &&
			stats.partition_lean_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld moved partition launches, none lean",
					 (long long) stats.partition_moved_launches);
		}
		if (ok && !EMULATOR && (!lean_partition_shape || cs->n_keys != 1 || cs->remap != 0) &&
			stats.partition_lean_launches != 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld lean partition launches where none applies",
					 (long long) stats.partition_lean_launches);
		}
		/*
		 * Packed rows: none under --partition-unpacked, and otherwise
		 * every lean launch of one key (not 8-byte keys under
		 * --partition-padded) and sums of int32 words reads them
		 * (partition_move.cu: keyed slots, which int32 keys get, or pair
		 * slots), so that its results prove the packed path (cases 101-104,
		 * 107-118).
		 */
		int			packed_shape = lean_partition_shape && packable_key && cs->n_keys == 1 &&
			case_sums_narrow(cs) && cs->key_null == 0 && cs->in_null == 0 && cs->remap == 0;

		/*
		 * Scattered rows are packed ones (partition_move.cu): never more
		 * than the packed launches, and none under --partition-cub-sort.
		 */
		if (ok && stats.partition_scattered_launches >
			(partition_cub_sort_option ? 0 : stats.partition_packed_launches))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld scattered partition launches, %lld packed%s",
					 (long long) stats.partition_scattered_launches,
					 (long long) stats.partition_packed_launches,
					 partition_cub_sort_option ? " under --partition-cub-sort" : "");
		}
		/*
		 * 2-byte partitions are CUB's sorts of packed rows of at most 12 bytes
		 * (partition_move.cu): at most the packed launches that did not
		 * scatter nor sorted mixed words, none under --partition-wide-keys, and
		 * some in the cases of one sum (8- or 12-byte rows) where every packed
		 * launch sorts (--partition-cub-sort: the self-test's launches take at
		 * most 16 partition bits) and not every one sorted mixed words.
		 */
		if (ok && (stats.partition_narrow_sort_launches >
				   (partition_wide_keys_option ? 0 :
					stats.partition_packed_launches - stats.partition_scattered_launches -
					stats.partition_mixed_launches - stats.partition_hashed_launches) ||
				   (!EMULATOR && partition_cub_sort_option && !partition_wide_keys_option && cs->lean == 1 &&
					stats.partition_packed_launches > stats.partition_mixed_launches + stats.partition_hashed_launches &&
					stats.partition_narrow_sort_launches == 0)))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld sorts of 2-byte partitions, %lld packed launches, %lld scattered, %lld mixed%s",
					 (long long) stats.partition_narrow_sort_launches, (long long) stats.partition_packed_launches,
					 (long long) stats.partition_scattered_launches, (long long) stats.partition_mixed_launches,
					 partition_wide_keys_option ? " under --partition-wide-keys" : "");
		}
		if (ok && stats.partition_narrow_sort_launches > 0)
			n_narrow_sort_cases++;
		/*
		 * Mixed keys (GPUGB_PARTITION_MIXED_KEYS, gpugb_device.h; the words of
		 * one sum and, since session 51, the gathered rows of two to four,
		 * counted below too): only in
		 * direct launches, none under --partition-unmixed or without them, and
		 * some wherever a case of int32 keys and one sum (lean 1: in0's)
		 * launched directly and scattered nothing: such a direct launch's rows
		 * are mixed unless they scatter (partition_move.cu, MIXABLE).  Case
		 * 139 is one under --partition-cub-sort (its 2^10 partitions scatter
		 * otherwise), and its expect_direct makes sure it launches directly.
		 */
		if (ok && (stats.partition_mixed_launches >
				   (GPUGB_PARTITION_MIXED_KEYS && !partition_unmixed_option ? stats.partition_direct_launches : 0) ||
				   (!EMULATOR && GPUGB_PARTITION_MIXED_KEYS && !partition_unmixed_option && !partition_padded_option &&
					case_strategy == GPUGB_STRATEGY_PARTITION && cs->int32_keys && cs->lean == 1 &&
					stats.partition_direct_launches > 0 && stats.partition_scattered_launches == 0 &&
					stats.partition_mixed_launches == 0)))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld sorts of mixed words, %lld direct launches%s",
					 (long long) stats.partition_mixed_launches, (long long) stats.partition_direct_launches,
					 partition_unmixed_option ? " under --partition-unmixed" : "");
		}
		if (ok && stats.partition_mixed_launches > stats.partition_gathered_launches)
			n_mixed_cases++;
		/*
		 * Gathered rows (GPUGB_GATHERED_KEY_WORDS, gpugb_device.h): counted
		 * with the mixed launches, none under --partition-ungathered or
		 * --partition-unmixed, and some in the cases that expect them
		 * (case 141: four sums, a direct launch of at least 2^10 partitions,
		 * GPUGB_GATHER_MIN_BITS), unless they scattered (partition_move.cu,
		 * GATHERABLE).
		 */
		if (ok && (stats.partition_gathered_launches >
				   (partition_ungathered_option || partition_unmixed_option ? 0 : stats.partition_mixed_launches) ||
				   (!EMULATOR && GPUGB_PARTITION_MIXED_KEYS && !partition_ungathered_option && !partition_unmixed_option &&
					!partition_padded_option && case_strategy == GPUGB_STRATEGY_PARTITION && cs->expect_gathered &&
					stats.partition_direct_launches > 0 && stats.partition_scattered_launches == 0 &&
					stats.partition_gathered_launches == 0)))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld launches of gathered rows, %lld of mixed keys, %lld direct%s",
					 (long long) stats.partition_gathered_launches, (long long) stats.partition_mixed_launches,
					 (long long) stats.partition_direct_launches, partition_ungathered_option ? " under --partition-ungathered" : "");
		}
		if (ok && stats.partition_gathered_launches > 0)
			n_gathered_cases++;
		/*
		 * Carried values (GPUGB_CARRIED_KEY_WORDS, gpugb_device.h): every
		 * gathered launch of two sums (GPUGB_CARRIED_MAX_SUMS) carries them
		 * through the sort, none of more, none under --partition-uncarried.
		 */
		if (ok && stats.partition_carried_launches !=
			(partition_uncarried_option || !case_lean_only(cs) || lean_case_sums(cs) > GPUGB_CARRIED_MAX_SUMS ? 0 :
			 stats.partition_gathered_launches))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld launches of carried values, %lld of gathered rows%s",
					 (long long) stats.partition_carried_launches, (long long) stats.partition_gathered_launches,
					 partition_uncarried_option ? " under --partition-uncarried" : "");
		}
		if (ok && stats.partition_carried_launches > 0)
			n_carried_cases++;
		/*
		 * Hashed rows (GPUGB_HASHED_KEY_WORDS, gpugb_device.h): packed launches
		 * of 8-byte keys that neither scattered nor sorted mixed words, none
		 * under --partition-unhashed, and every deferred launch of a case of
		 * 8-byte keys with a sum under --partition-cub-sort (where nothing
		 * scatters): the deferred path applies to hashed rows wherever it does
		 * to packed 8-byte ones with a sum (partition_deferred_rule.cuh).
		 */
		if (ok && (stats.partition_hashed_launches >
				   (partition_unhashed_option || cs->int32_keys ? 0 :
					stats.partition_packed_launches - stats.partition_scattered_launches -
					stats.partition_mixed_launches) ||
				   (!EMULATOR && partition_cub_sort_option && !partition_unhashed_option && !partition_padded_option &&
					case_strategy == GPUGB_STRATEGY_PARTITION && !cs->int32_keys && cs->n_keys == 1 &&
					case_lean_only(cs) && lean_case_sums(cs) >= 1 &&
					stats.partition_hashed_launches < stats.partition_deferred_launches)))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld launches of hashed rows, %lld packed, %lld deferred, %lld scattered%s",
					 (long long) stats.partition_hashed_launches, (long long) stats.partition_packed_launches,
					 (long long) stats.partition_deferred_launches, (long long) stats.partition_scattered_launches,
					 partition_unhashed_option ? " under --partition-unhashed" : "");
		}
		if (ok && stats.partition_hashed_launches > 0)
			n_hashed_cases++;
		if (ok && !EMULATOR && cs->expect_scatter && case_strategy == GPUGB_STRATEGY_PARTITION &&
			!partition_cub_sort_option && !partition_unpacked_option && stats.partition_scattered_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "no scattered partition launch (%lld packed)",
					 (long long) stats.partition_packed_launches);
		}
		if (ok && stats.partition_scattered_launches > 0)
			n_scattered_cases++;
		/* Deferred lookups are a packed launch's (cuda/partition_deferred_rule.cuh). */
		if (ok && stats.partition_deferred_launches > stats.partition_packed_launches)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld deferred partition launches, %lld packed",
					 (long long) stats.partition_deferred_launches, (long long) stats.partition_packed_launches);
		}
		if (ok && !EMULATOR && cs->expect_no_grow && case_strategy == GPUGB_STRATEGY_PARTITION &&
			(stats.table_grows != 0 || stats.retried_rows == 0 || stats.partition_deferred_launches == 0))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%d table grows, %lld retried rows, %lld deferred launches: "
					 "expected retries and no growth", stats.table_grows, (long long) stats.retried_rows,
					 (long long) stats.partition_deferred_launches);
		}
		/* Only a handle's first launch numbers groups without lookups, and never under the option. */
		if (ok && (stats.partition_direct_launches > (no_partition_direct_option ? 0 : 1) ||
				   stats.partition_direct_launches > stats.partition_deferred_launches))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld direct partition launches, %lld deferred",
					 (long long) stats.partition_direct_launches, (long long) stats.partition_deferred_launches);
		}
		/*
		 * Groups numbered directly (as the publish found them): only by a
		 * direct launch, at most the groups there are, and some in the
		 * cases shaped for it, where the options leave their rows packed
		 * (a direct launch is a deferred one, which reads packed rows:
		 * none under --partition-unpacked, nor for 8-byte keys under
		 * --partition-padded).
		 */
		if (ok && (stats.partition_direct_groups > (stats.partition_direct_launches > 0 ? res.n : 0) ||
				   (!EMULATOR && cs->expect_direct && case_strategy == GPUGB_STRATEGY_PARTITION &&
					!no_partition_direct_option && !partition_unpacked_option &&
					(cs->int32_keys || !partition_padded_option) && stats.partition_direct_groups == 0)))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld groups numbered directly by %lld direct launches, of %lld groups%s",
					 (long long) stats.partition_direct_groups, (long long) stats.partition_direct_launches,
					 (long long) res.n, cs->expect_direct ? " (the case expects some)" : "");
		}
		if (ok && stats.partition_direct_launches > 0)
			n_direct_cases++;
		if (ok && stats.partition_direct_groups > 0)
			n_direct_group_cases++;
		if (ok && stats.partition_deferred_launches > 0)
		{
			n_deferred_cases++;
			if (!cs->int32_keys && cs->n_keys == 1 && cs->g > 5)
				n_deferred_wide_cases++;
		}
		/* Only lean and generic partition launches overflow so, and never without the bound. */
		if (ok && (stats.partition_overflow_aborts > stats.partition_lean_launches + stats.partition_generic_launches ||
				   (probe_unbounded_option && stats.partition_overflow_aborts > 0)))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld overflowed partition launches, %lld lean, %lld generic%s",
					 (long long) stats.partition_overflow_aborts, (long long) stats.partition_lean_launches,
					 (long long) stats.partition_generic_launches,
					 probe_unbounded_option ? " under --partition-probe-unbounded" : "");
		}
		if (ok && !EMULATOR && cs->expect_overflow && !probe_unbounded_option && !walks_only_option &&
			case_strategy == GPUGB_STRATEGY_PARTITION && stats.partition_overflow_aborts == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "no overflowed partition launch (%lld retried rows)",
					 (long long) stats.retried_rows);
		}
		if (ok && stats.partition_overflow_aborts > 0)
			n_overflowed_cases++;
		/* A refused scratch (scratch_refused_from): rows left packed, retried, after the switch. */
		if (ok && !EMULATOR && cs->scratch_refused_from > 0 && case_strategy == GPUGB_STRATEGY_PARTITION &&
			(stats.partition_packed_launches == 0 || stats.retried_rows == 0 ||
			 stats.strategy_used != GPUGB_STRATEGY_GLOBAL_HASH))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "refused scratch: %lld packed launches, %lld retried rows, used %s",
					 (long long) stats.partition_packed_launches, (long long) stats.retried_rows,
					 gpugb_strategy_name(stats.strategy_used));
		}
		/*
		 * Only the experiment runs a retry round as PARTITION.  Under it, an overflowed case
		 * must, where its retries hold half its first launch's rows or more: a smaller round
		 * does not qualify (gpugb_partition_retry_round).  Case 123 overflows with 1.55e6 of
		 * its 8e6 rows retried (session 40, call 3), since Zipf's hot groups took their ids
		 * before the table ran out.
		 */
		if (ok && (stats.retry_partition_rounds > stats.retry_rounds ||
				   (!retry_repartition_option && stats.retry_partition_rounds > 0) ||
				   (retry_repartition_option && !EMULATOR && cs->expect_overflow &&
					case_strategy == GPUGB_STRATEGY_PARTITION && stats.partition_overflow_aborts > 0 &&
					2 * stats.retried_rows >= first_launch_rows && stats.retry_partition_rounds == 0)))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%d of %d retry rounds partitioned%s",
					 stats.retry_partition_rounds, stats.retry_rounds,
					 retry_repartition_option ? " under --retry-repartition" : "");
		}
		if (ok && stats.retry_partition_rounds > 0)
			n_repartitioned_cases++;
		/* The L1 reserve under the option: every lean partition launch (the reserved table is what ran). */
		if (ok && partition_l1_reserve_option && stats.partition_l1_reserve_launches != stats.partition_lean_launches)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld of %lld lean partition launches left L1 its reserve%s",
					 (long long) stats.partition_l1_reserve_launches, (long long) stats.partition_lean_launches,
					 partition_l1_reserve_option ? " under --partition-l1-reserve" : "");
		}
		if (ok && stats.partition_l1_reserve_launches > 0)
			n_l1_reserve_cases++;
		if (ok && partition_unpacked_option && stats.partition_packed_launches != 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld packed partition launches under --partition-unpacked",
					 (long long) stats.partition_packed_launches);
		}
		if (ok && !EMULATOR && !partition_unpacked_option && packed_shape &&
			stats.partition_packed_launches != stats.partition_lean_launches)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld lean partition launches, %lld packed",
					 (long long) stats.partition_lean_launches, (long long) stats.partition_packed_launches);
		}
		/*
		 * ...and a partial case forced to SHARED_HASH (the skew unknown), the
		 * partial table's instance, whose deferred rows it then proves.
		 */
		if (ok && !EMULATOR && cs->partial_lean && cs->nrows > 0 && (cs->in_null > 0 || !gid_table_fits(cs)) &&
			case_strategy == GPUGB_STRATEGY_SHARED_HASH && stats.partial_lean_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "shared_hash without a partial lean launch");
		}
		if (ok && cs->lean_probe && case_strategy < 0 &&
			stats.strategy_planned != GPUGB_STRATEGY_GLOBAL_HASH)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "planned %s, not global_hash: no lean probe to test",
					 gpugb_strategy_name(stats.strategy_planned));
		}
		if (ok && !EMULATOR && cs->lean_probe > 0 && case_strategy < 0 && cs->nrows > 0 &&
			stats.lean_probe_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "planned global_hash, skew unknown, without a lean probe");
		}
		/*
		 * About 2^12 groups expected, one key, one sum: a forced SHARED_HASH
		 * must take the one-block lean table, and so must auto, which plans
		 * SHARED_HASH for it (heuristics.c, gpugb_lean_one_block_slots).
		 */
		if (ok && !EMULATOR && cs->lean_one_block > 0 && cs->nrows > 0 &&
			one_block_table_fits(cs->est_groups ? cs->est_groups : cs->g) &&
			(case_strategy == GPUGB_STRATEGY_SHARED_HASH || case_strategy < 0) &&
			stats.one_block_lean_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "planned %s, without a one-block lean launch",
					 gpugb_strategy_name(stats.strategy_planned));
		}
		/*
		 * A partial case without NULL inputs, forced to SHARED_HASH: its
		 * partial table in one 1024-thread block an SM (cuda/launch.cu,
		 * one_block_partial_slots); with NULL inputs in every input, never.
		 */
		if (ok && !EMULATOR && cs->partial_lean && cs->in_null == 0 && cs->nrows > 0 && !gid_table_fits(cs) &&
			case_strategy == GPUGB_STRATEGY_SHARED_HASH && stats.one_block_partial_lean_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "shared_hash without a one-block partial lean launch");
		}
		if (ok && !EMULATOR && cs->lean && cs->in_null > 0 && !cs->in_null_only &&
			stats.one_block_partial_lean_launches != 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "NULL inputs: %lld one-block partial lean launches",
					 (long long) stats.one_block_partial_lean_launches);
		}
		/*
		 * ...and with NULL inputs (-1) none, but the partial table, forced and
		 * under auto: a partial launch for every stride (probes aside).
		 */
		if (ok && !EMULATOR && cs->lean_one_block < 0 && cs->nrows > 0 &&
			(case_strategy == GPUGB_STRATEGY_SHARED_HASH || case_strategy < 0) &&
			(stats.one_block_lean_launches != 0 ||
			 (stats.strategy_used == GPUGB_STRATEGY_SHARED_HASH && stats.strategy_switches == 0 &&
			  stats.partial_lean_launches - stats.lean_probe_launches < stats.strides)))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg),
					 "NULL inputs: %lld one-block, %lld partial lean launches (%lld probes) for %lld strides",
					 (long long) stats.one_block_lean_launches,
					 (long long) stats.partial_lean_launches,
					 (long long) stats.lean_probe_launches, (long long) stats.strides);
		}
		/*
		 * spec.lean_fast_key (an experiment): without it no launch looks keys
		 * up by their word; with it, a lean case of one key without NULL
		 * keys forced to SHARED_HASH must, and one with NULL keys must not
		 * (unless its strides are of random sizes: a small one may have none).
		 */
		if (ok && !lean_fast_key_option && stats.fast_key_lean_launches != 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld fast-key launches without --lean-fast-key",
					 (long long) stats.fast_key_lean_launches);
		}
		if (ok && !EMULATOR && lean_fast_key_option && cs->lean && cs->n_keys == 1 && cs->nrows > 0 &&
			case_strategy == GPUGB_STRATEGY_SHARED_HASH &&
			(cs->key_null == 0 ?
			 /* the group-id tables look rows up in the global table, never by the cache's word */
			 cs->gid_split <= 0 && cs->lean_gid <= 0 && cs->gid_word <= 0 && stats.fast_key_lean_launches == 0 :
			 !cs->partial && stats.fast_key_lean_launches != 0))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "--lean-fast-key, NULL keys %g: %lld fast-key launches",
					 cs->key_null, (long long) stats.fast_key_lean_launches);
		}
		/*
		 * Whole tables of a lean case of one key without NULL keys or
		 * inputs run gpugb_lean_fast_kernel: in five blocks an SM where it
		 * has at most one sum and fewer than 64 groups, else in the wide
		 * table's one block (cuda/launch.cu, lean_fast_kernel_applies and
		 * fast_wide_slots), or under --lean-deferred that block's table with
		 * ids looked up at the flush (lean_deferred_kernel.cuh: from 2048
		 * groups expected, every sum declared int32); no case with NULL
		 * inputs does.
		 */
		/*
		 * such a case forced to SHARED_HASH, with a whole table (not partial,
		 * nor more groups than a keyed table holds: lean_gid, nor one sum from
		 * 2048 groups expected, which the table indexed by group id takes
		 * first: gid_word 1 or 2, unless keyed_only; nor the groups of
		 * gid_split cases, which no keyed table holds either)
		 */
		int			whole_fast_case = cs->lean && cs->n_keys == 1 && cs->key_null == 0 &&
			cs->in_null == 0 && !cs->partial_lean && cs->lean_gid == 0 && cs->gid_word <= 0 &&
			cs->gid_split == 0 &&
			cs->nrows > 0 && case_strategy == GPUGB_STRATEGY_SHARED_HASH;

		if (ok && !EMULATOR && cs->in_null > 0 && stats.fast_lean_kernel_launches != 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld fast lean kernel launches (NULL inputs %g)",
					 (long long) stats.fast_lean_kernel_launches, cs->in_null);
		}
		/*
		 * Two sums or more take the fast kernel only in one 1024-thread block
		 * (its five-blocks-an-SM instance spills), unless --lean-fast-key: a
		 * one-block launch of two sums is always the fast kernel's wide table.
		 */
		if (ok && !EMULATOR && cs->lean && lean_case_sums(cs) >= 2 && !lean_fast_key_option &&
			stats.fast_lean_kernel_launches > stats.one_block_lean_launches)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg),
					 "%d sums: %lld fast lean kernel launches, %lld of them in one block",
					 lean_case_sums(cs), (long long) stats.fast_lean_kernel_launches,
					 (long long) stats.one_block_lean_launches);
		}
		if (ok && !EMULATOR && whole_fast_case && stats.fast_lean_kernel_launches == 0 &&
			stats.deferred_lean_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg),
					 "a whole table of %d sums without the fast lean kernel or the deferred table",
					 lean_case_sums(cs));
		}
		/*
		 * ...and take the fast kernel's wide table, one block an SM: those of
		 * two sums at any number of groups, of one sum or counts only from
		 * 64 groups expected and met (the plan: gpugb_lean_fast_wide_pays),
		 * all of them under spec.lean_fast_wide (an experiment; cuda/launch.cu,
		 * fast_wide_slots).
		 */
		int64_t		case_estimate = cs->est_groups ? cs->est_groups : cs->g;

		if (ok && !EMULATOR && whole_fast_case &&
			(lean_fast_wide_option || lean_case_sums(cs) >= 2 ||
			 (case_estimate >= GPUGB_LEAN_FAST_WIDE_MIN_GROUPS &&
			  cs->g >= GPUGB_LEAN_FAST_WIDE_MIN_GROUPS)) &&
			(stats.one_block_lean_launches == 0 ||
			 (stats.fast_lean_kernel_launches == 0 && stats.deferred_lean_launches == 0)))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg),
					 "a whole table of %d sums, %lld groups expected: not the fast kernel's wide table "
					 "(%lld one-block, %lld fast, %lld deferred launches)", lean_case_sums(cs),
					 (long long) case_estimate, (long long) stats.one_block_lean_launches,
					 (long long) stats.fast_lean_kernel_launches, (long long) stats.deferred_lean_launches);
		}
		/*
		 * The one-block table with ids looked up at the flush, under
		 * --lean-deferred: a forced SHARED_HASH takes it for lean_deferred 1
		 * (its groups fit the table between flushes, every sum declared
		 * int32); none for -1, nor without the option.
		 */
		if (ok && !EMULATOR && cs->lean_deferred > 0 && lean_deferred_option && cs->nrows > 0 &&
			case_strategy == GPUGB_STRATEGY_SHARED_HASH && stats.deferred_lean_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "shared_hash without a launch of the deferred one-block table");
		}
		if (ok && (cs->lean_deferred < 0 || !lean_deferred_option) && stats.deferred_lean_launches != 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld launches of the deferred one-block table",
					 (long long) stats.deferred_lean_launches);
		}
		/*
		 * The table indexed by group id: a forced SHARED_HASH takes it for
		 * the groups it holds on this device (lean_gid 1 and 2), and auto
		 * plans SHARED_HASH for them where every summed input is declared
		 * int32 (lean_gid 1), the heuristic's gpugb_lean_gid_pays (so this
		 * holds in the emulator too); never with NULL inputs, nor under
		 * --no-lean-gid-table.
		 */
		if (ok && !EMULATOR && cs->lean_gid > 0 && cs->nrows > 0 && gid_table_fits(cs) &&
			case_strategy == GPUGB_STRATEGY_SHARED_HASH && stats.gid_lean_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "shared_hash without a launch of the table indexed by group id");
		}
		if (ok && cs->lean_gid == 1 && cs->nrows > 0 && case_strategy < 0 && gid_table_fits(cs) &&
			stats.strategy_planned != GPUGB_STRATEGY_SHARED_HASH)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "auto planned %s, not shared_hash indexed by group id",
					 gpugb_strategy_name(stats.strategy_planned));
		}
		if (ok && (cs->lean_gid < 0 || no_lean_gid_option) && stats.gid_lean_launches != 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld launches of the table indexed by group id (NULL inputs %g)",
					 (long long) stats.gid_lean_launches, cs->in_null);
		}
		/* The table's rows looked up by key word, loaded a step ahead (lean_gid_by_word). */
		if (ok && cs->gid_word != 0 && stats.gid_word_lean_launches != (cs->gid_word > 0 ? stats.gid_lean_launches : 0))
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld of %lld launches of the table indexed by group id by key word",
					 (long long) stats.gid_word_lean_launches, (long long) stats.gid_lean_launches);
		}
		if (ok && !EMULATOR && cs->gid_word > 0 && cs->nrows > 0 && gid_table_fits(cs) &&
			(case_strategy == GPUGB_STRATEGY_SHARED_HASH || (cs->gid_word == 2 && case_strategy < 0)) &&
			stats.gid_word_lean_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%s without a launch of the table indexed by group id by key word",
					 case_strategy < 0 ? "auto" : "shared_hash");
		}
		/* The group-id table once a sum (gpugb_lean_gid_split_pays). */
		if (ok && !EMULATOR && cs->gid_split > 0 && cs->nrows > 0 &&
			gid_split_case_ranges(cs) > 0 &&
			(case_strategy == GPUGB_STRATEGY_SHARED_HASH || (cs->gid_split == 2 && case_strategy < 0)) &&
			stats.gid_split_lean_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%s without a launch of the group-id table once a sum",
					 case_strategy < 0 ? "auto" : "shared_hash");
		}
		/* ...and group range (gpugb_lean_gid_split_ranges). */
		if (ok && !EMULATOR && cs->gid_range > 0 && cs->nrows > 0 && gid_split_case_ranges(cs) > 1 &&
			(case_strategy == GPUGB_STRATEGY_SHARED_HASH || (cs->gid_range == 2 && case_strategy < 0)) &&
			stats.gid_range_lean_launches == 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%s without a launch of the group-id table by group range",
					 case_strategy < 0 ? "auto" : "shared_hash");
		}
		if (ok && cs->gid_split < 0 && stats.gid_split_lean_launches != 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld launches of the group-id table once a sum",
					 (long long) stats.gid_split_lean_launches);
		}
		if (ok && cs->lean_probe < 0 && stats.lean_probe_launches != 0)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "%lld lean probes, with no run-time check to follow",
					 (long long) stats.lean_probe_launches);
		}
		/*
		 * The run-time check must count the groups of every row before it:
		 * rows whose claim failed in a full table count only after their
		 * retry.
		 */
		if (ok && cs->check_groups_min > 0 && case_strategy < 0 &&
			stats.groups_at_switch_check < cs->check_groups_min)
		{
			ok = 0;
			snprintf(fail_msg, sizeof(fail_msg), "run-time check counted %lld groups, want >= %lld",
					 (long long) stats.groups_at_switch_check, (long long) cs->check_groups_min);
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
	char		name[256];

	snprintf(name, sizeof(name), "[%s] %s",
			 case_strategy < 0 ? "auto" : gpugb_strategy_name((GpugbStrategy) case_strategy), cs->name);
	if (ok && st == GPUGB_OK)
	{
		size_t		len = strlen(detail);

		snprintf(detail + len, sizeof(detail) - len, "; used %s, %d switches",
				 gpugb_strategy_name(stats.strategy_used), stats.strategy_switches);
		if (stats.partition_moved_launches > 0)
		{
			len = strlen(detail);
			snprintf(detail + len, sizeof(detail) - len, ", %lld moved launches (%lld lean, %lld packed, %lld scattered)",
					 (long long) stats.partition_moved_launches,
					 (long long) stats.partition_lean_launches,
					 (long long) stats.partition_packed_launches,
					 (long long) stats.partition_scattered_launches);
		}
		if (stats.groups_at_switch_check >= 0)
		{
			len = strlen(detail);
			snprintf(detail + len, sizeof(detail) - len, ", checked at %lld groups",
					 (long long) stats.groups_at_switch_check);
		}
	}
	report(name, ok, detail);
	free_results(&res);
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
	spec.aggs[0].input = 0;
	spec.n_order = 1;
	spec.order[0].key = 1;
	st = gpugb_groupby_create(&spec, &gb);
	report("invalid spec (order key out of range)", st == GPUGB_INVALID_ARGUMENT && gb == NULL,
		   gpugb_status_name(st));
	spec.n_order = 0;
	gpugb_groupby_destroy(NULL);
	report("destroy(NULL)", 1, "");
}

/*
 * remap_values: argument checks (which leave the handle usable) and calls
 * that do nothing, then a remap with a stride in flight, and one after
 * finish; no keys, so the one group's states are known by heart.
 */
static void
run_remap_checks(void)
{
	GpugbGroupBySpec spec;
	GpugbGroupBy *gb = NULL;
	GpugbStride *s = NULL;
	GpugbUsage	before,
				after;
	GpugbGroupResults out;
	const int	out_of_range[] = {N_RAGGS};
	const int	not_minmax[] = {1, 5};
	const int	one_min[] = {1};
	const int64_t map[] = {5, 6};
	int64_t		val[N_RAGGS] = {0};
	int64_t		n = 0;
	int			ok;

	memset(&spec, 0, sizeof(spec));
	spec.n_inputs = N_INPUTS;
	spec.n_aggs = N_RAGGS;
	memcpy(spec.aggs, remap_aggs, sizeof(remap_aggs));
	spec.stride_rows = 1024;
	spec.estimated_groups = 1;
	gpugb_device_usage(&before);
	ok = gpugb_groupby_create(&spec, &gb) == GPUGB_OK &&
		gpugb_groupby_remap_values(NULL, one_min, 1, map, 2) == GPUGB_INVALID_ARGUMENT &&
		gpugb_groupby_remap_values(gb, out_of_range, 1, map, 2) == GPUGB_INVALID_ARGUMENT &&
		gpugb_groupby_remap_values(gb, not_minmax, 2, map, 2) == GPUGB_INVALID_ARGUMENT &&
		gpugb_groupby_remap_values(gb, one_min, 1, NULL, 2) == GPUGB_INVALID_ARGUMENT &&
		gpugb_groupby_remap_values(gb, not_minmax, 0, map, 2) == GPUGB_OK &&
		gpugb_groupby_remap_values(gb, one_min, 1, map, 0) == GPUGB_OK &&
		gpugb_groupby_next_stride(gb, &s) == GPUGB_OK;
	if (ok)
	{
		/* input 2: words 1 and 0, input 0 the final ranks 6 and 5 */
		s->nrows = 2;
		for (int i = 0; i < N_INPUTS; i++)
			s->input_values[i][0] = s->input_values[i][1] = 0;
		s->input_values[2][0] = 1;
		s->input_values[0][0] = 6;
		s->input_values[0][1] = 5;
	}
	ok = ok && gpugb_groupby_submit(gb, s) == GPUGB_OK &&
		gpugb_groupby_remap_values(gb, one_min, 1, map, 2) == GPUGB_OK &&
		gpugb_groupby_finish(gb, &n) == GPUGB_OK && n == 1;
	memset(&out, 0, sizeof(out));
	for (int a = 0; a < N_RAGGS; a++)
		out.agg_value[a] = &val[a];
	/* agg 1 listed; 3 shares its column; 2 (MAX of input 2), 5 and 6 stay */
	ok = ok && gpugb_groupby_fetch(gb, 0, 1, &out) == GPUGB_OK &&
		val[1] == 5 && val[3] == 5 && val[2] == 1 && val[5] == 1 && val[6] == 6 &&
		gpugb_groupby_remap_values(gb, one_min, 1, map, 2) == GPUGB_INVALID_ARGUMENT;
	gpugb_groupby_destroy(gb);
	gpugb_device_usage(&after);
	report("remap_values: argument checks, a stride in flight, after finish",
		   ok && usage_equal(&before, &after), ok ? "" : "a step failed or its result was wrong");
}

int
main(int argc, char **argv)
{
	int			require_gpu = 0;
	int64_t		scale = 1;		/* --quick divides row counts by 10 */
	int			only_strategy = -2; /* -2: all, -1: auto, else one */
	const char *only_cases = NULL;	/* --only TEXT: cases whose name has it */

	for (int i = 1; i < argc; i++)
	{
		if (strcmp(argv[i], "--require-gpu") == 0)
			require_gpu = 1;
		else if (strcmp(argv[i], "--quick") == 0)
			scale = 10;
		else if (strcmp(argv[i], "--lean-fast-key") == 0)
			lean_fast_key_option = 1;
		else if (strcmp(argv[i], "--lean-fast-wide") == 0)
			lean_fast_wide_option = 1;
		else if (strcmp(argv[i], "--no-lean-gid-table") == 0)
			no_lean_gid_option = 1;
		else if (strcmp(argv[i], "--lean-deferred") == 0)
			lean_deferred_option = 1;
		else if (strcmp(argv[i], "--no-partition-direct") == 0)
			no_partition_direct_option = 1;
		else if (strcmp(argv[i], "--partition-padded") == 0)
			partition_padded_option = 1;
		else if (strcmp(argv[i], "--partition-unpacked") == 0)
			partition_unpacked_option = 1;
		else if (strcmp(argv[i], "--partition-cub-sort") == 0)
			partition_cub_sort_option = 1;
		else if (strcmp(argv[i], "--partition-wide-keys") == 0)
			partition_wide_keys_option = 1;
		else if (strcmp(argv[i], "--partition-l1-reserve") == 0)
			partition_l1_reserve_option = 1;
		else if (strcmp(argv[i], "--partition-unmixed") == 0)
			partition_unmixed_option = 1;
		else if (strcmp(argv[i], "--partition-ungathered") == 0)
			partition_ungathered_option = 1;
		else if (strcmp(argv[i], "--partition-uncarried") == 0)
			partition_uncarried_option = 1;
		else if (strcmp(argv[i], "--partition-unhashed") == 0)
			partition_unhashed_option = 1;
		else if (strcmp(argv[i], "--sort-probe") == 0)
			sort_probe_option = 1;
		else if (strcmp(argv[i], "--partition-own-probe") == 0)
			own_probe_option = 1;
		else if (strcmp(argv[i], "--partition-probe-unbounded") == 0)
			probe_unbounded_option = 1;
		else if (strcmp(argv[i], "--overflow-walks-only") == 0)
			walks_only_option = 1;
		else if (strcmp(argv[i], "--retry-repartition") == 0)
			retry_repartition_option = 1;
		else if (strcmp(argv[i], "--observed-uniform-only") == 0)
			observed_uniform_only_option = 1;
		else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
			only_cases = argv[++i];
		else if (strcmp(argv[i], "--strategy") == 0 && i + 1 < argc &&
				 (strcmp(argv[i + 1], "auto") == 0 || gpugb_strategy_from_name(argv[i + 1]) >= 0))
		{
			i++;
			only_strategy = strcmp(argv[i], "auto") == 0 ? -1 : gpugb_strategy_from_name(argv[i]);
		}
		else
		{
			fprintf(stderr, "usage: %s [--require-gpu] [--quick] [--lean-fast-key] [--lean-fast-wide] [--no-lean-gid-table] [--lean-deferred] [--no-partition-direct] [--partition-padded] [--partition-unpacked] [--partition-cub-sort] [--partition-wide-keys] [--partition-l1-reserve] [--partition-unmixed] [--partition-ungathered] [--partition-uncarried] [--partition-unhashed] [--sort-probe] [--partition-own-probe] [--partition-probe-unbounded] [--overflow-walks-only] [--retry-repartition] [--observed-uniform-only] [--strategy NAME|auto] "
					"[--only TEXT]\n",
					argv[0]);
			return 2;
		}
	}

	GpugbStatus st = gpugb_device_probe();

	printf("device: %s (%s)\n", gpugb_device_description(), gpugb_status_name(st));
	last_report_s = now_s();	/* the first case's time starts here */
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
		/* Two keys: the block key caches' widest entries (key_cache.cuh). */
		{"2 keys, g=1000, 10% nulls", 37, 2 * M, 2, 1000, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"2 keys, zipf 1.1 over 300, 5% nulls", 38, 2 * M, 2, 300, 1.1, 0.05, 0.05, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0},
		{"2 keys, estimate 1, g=1e5, 64K strides (grow+retry)", 39, 2 * M, 2, 100000, 0, 0.05, 0.05, 0, 0, 1, 65536, 0, 0, GPUGB_OK, 1, 0},
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
		{"estimate 1e9 under a 256 MB limit, g=1000", 18, 2 * M, 1, 1000, 0, 0, 0, 0, 0, 1000000000, 0, 0, 256 << 20, GPUGB_OK, 0, 0},
		/* Many rows per key in a launch: PARTITION's block tables combine them. */
		{"1 key, g=3e5, 8e6 rows, 4M strides", 19, 8 * M, 1, 300000, 0, 0.05, 0.05, 0, 0, 0, 4 << 20, 0, 0, GPUGB_OK, 0, 0},
		/* Estimate far too low: the table overflows before the run-time check (two 1024-row strides, ~2046 keys). */
		{"estimate 200, 1.2e5 rows of distinct keys, 1K strides", 36, 120000, 1, 1000000000, 0, 0, 0, 0, 0, 200, 1024, 0, 0, GPUGB_OK, 0, 0, 0, 0, 2000},
		{"memory limit hit while growing", 17, 2 * M, 1, 1000000, 0, 0, 0, 0, 0, 1, 65536, 0, 12 << 20, GPUGB_OUT_OF_MEMORY, 0, 0},
		/* ordered output (spec.n_order): sorted groups, checked against a CPU comparison */
		{"ordered: 1 key, g=1e5, 10% nulls", 19, 2 * M, 1, 100000, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, 1},
		{"ordered: 3 keys, g=1e5, 10% nulls, mixed directions", 20, 4 * M, 3, 100000, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, 1},
		{"ordered: float words (NaN, -0, Inf), g=1e5", 21, 2 * M, 1, 100000, 0, 0.05, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, 2},
		{"ordered: 3 keys, float major, zipf 0.8", 22, 2 * M, 3, 100000, 0.8, 0.01, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, 2},
		{"ordered: g=7, 1e7 rows", 23, 10 * M, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, 1},
		{"ordered: 100% null keys", 24, M, 3, 1000, 0, 1.0, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, 1},
		{"ordered: estimate 1, g=1e6 (grow+retry)", 25, 3 * M, 1, 1000000, 0, 0.01, 0, 0, 0, 1, 100000, 1, 0, GPUGB_OK, 1, 1, 1},
		{"ordered: 32 keys, g=1000, partial strides", 26, M / 5, 32, 1000, 0, 0.05, 0.05, 0, 0, 0, 4096, 1, 0, GPUGB_OK, 0, 0, 1},
		{"ordered: empty input", 27, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, 1},
		/* ... by counts first: count(in0) DESC (10% NULL inputs), count(*), then the keys */
		{"ordered by counts: g=1e5, zipf 0.8, 10% null inputs", 28, 2 * M, 2, 100000, 0.8, 0.05, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, 3},
		{"ordered by counts: g=20, 1e6 rows, partial strides", 29, M, 1, 20, 0, 0.1, 0.3, 0, 0, 0, 65536, 1, 0, GPUGB_OK, 0, 0, 3},
		/* ... by values first: a sum (beyond 64 bits, both signs) DESC NULLS FIRST, a min NULLS LAST */
		{"ordered by values: big sums, g=1e4", 44, 2 * M, 1, 10000, 0, 0.05, 0.3, 1, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, 4},
		{"ordered by values: 97% null inputs, g=1e5", 45, M, 2, 100000, 0.5, 0.05, 0.97, 1, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, 4},
		/* min/max of growing rank orders: remap_values between strides (RankPlan) */
		{"remap x3: 1 key, g=1000, 64K strides", 30, 2 * M, 1, 1000, 0, 0, 0.1, 0, 0, 0, 65536, 0, 0, GPUGB_OK, 0, 0, 0, 3},
		{"remap x4: estimate 1, g=1e5, 64K strides (grow+retry)", 31, 2 * M, 1, 100000, 0, 0.1, 0.1, 0, 0, 1, 65536, 0, 0, GPUGB_OK, 1, 0, 0, 4},
		{"remap x5: 3 keys, g=1e5, partial strides", 32, 2 * M, 3, 100000, 0, 0.05, 0.05, 0, 0, 0, 100000, 1, 0, GPUGB_OK, 0, 0, 0, 5},
		{"remap x3: no keys, 10% null inputs", 33, 2 * M, 0, 1, 0, 0, 0.1, 0, 0, 0, 65536, 0, 0, GPUGB_OK, 0, 0, 0, 3},
		{"remap x8: estimate 1, g=2000, 1 row strides", 34, 5000, 1, 2000, 0, 0, 0, 0, 0, 1, 1, 0, 0, GPUGB_OK, 1, 0, 0, 8},
		{"remap x2: empty input", 35, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, 0, 2},
		/* parallel ingest's direct copy: slots of random sizes appended from registered memory */
		{"append: 1 key, g=1000, 0.1% nulls, 64K strides", 40, 2 * M, 1, 1000, 0, 0.001, 0.001, 0, 0, 0, 65536, 0, 0, GPUGB_OK, 0, 0, 0, 0, 0, 1},
		{"append: 3 keys, estimate 1, g=1e5, 64K strides (grow+retry)", 41, 2 * M, 3, 100000, 0, 0.01, 0.01, 0, 0, 1, 65536, 0, 0, GPUGB_OK, 1, 0, 0, 0, 0, 1},
		{"append: no keys, 10% null inputs, partial strides", 42, M, 0, 1, 0, 0, 0.1, 0, 0, 0, 65536, 1, 0, GPUGB_OK, 0, 0, 0, 0, 0, 1},
		{"append: ordered, 2 keys, g=1e5, 1% nulls", 43, 2 * M, 2, 100000, 0, 0.01, 0.01, 0, 0, 0, 200000, 0, 0, GPUGB_OK, 0, 0, 1, 0, 0, 1},
		/* One int32 key: the table keeps the keys in its slot words (spec.key_fits_int32). */
		{"int32 keys: g=7, 1e7 rows", 44, 10 * M, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, .int32_keys = 1},
		{"int32 keys: g=1000, 10% nulls", 45, 2 * M, 1, 1000, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, .int32_keys = 1},
		{"int32 keys: zipf 1.1 over 1e5, 1% nulls", 46, 4 * M, 1, 100000, 1.1, 0.01, 0.1, 0, 0, 0, 0, 0, 0, GPUGB_OK, 0, 0, .int32_keys = 1},
		{"int32 keys: estimate 1, g=1e5, 64K strides (grow+retry)", 47, 2 * M, 1, 100000, 0, 0.05, 0.05, 0, 0, 1, 65536, 0, 0, GPUGB_OK, 1, 0, .int32_keys = 1},
		{"int32 keys: g=3e5, 8e6 rows, 4M strides", 48, 8 * M, 1, 300000, 0, 0.05, 0.05, 0, 0, 0, 4 << 20, 0, 0, GPUGB_OK, 0, 0, .int32_keys = 1},
		{"int32 keys: append, ordered, g=1e5, 1% nulls", 49, 2 * M, 1, 100000, 0, 0.01, 0.01, 0, 0, 0, 200000, 0, 0, GPUGB_OK, 0, 0, 1, 0, 0, 1, .int32_keys = 1},
		/* No NULL key in a stride: SORT sorts by the key itself (sort_kernels.cuh). */
		{"int32 keys: g=2e5, no NULL keys, 1M strides", 50, 4 * M, 1, 200000, 0, 0, 0.05, 0, 0, 0, 1 << 20, 0, 0, GPUGB_OK, 0, 0, .int32_keys = 1},
		{"int32 keys: zipf 1.2 over 1e6, no NULL keys, estimate 1 (grow+retry)", 51, 2 * M, 1, 1000000, 1.2, 0, 0.05, 0, 0, 1, 65536, 0, 0, GPUGB_OK, 1, 0, .int32_keys = 1},
		/* COUNT and integer SUM only, no NULL inputs: SHARED_HASH's lean kernel (lean_kernel.cuh). */
		{"lean: no keys, 1e7 rows", 60, 10 * M, 0, 1, .lean = 1},
		{"lean: no keys, 10% null inputs", 61, 2 * M, 0, 1, 0, 0, 0.1, .lean = 1},
		{"lean: g=500, 20% null inputs over nonzero words", 67, 2 * M, 1, 500, 0, 0.01, 0.2,
		 .null_words = 1, .lean = 1},
		{"lean: g=300, NULLs in one of three counted inputs", 68, 2 * M, 1, 300, 0, 0.01, 0.3,
		 .in_null_only = 2, .lean = 3},
		{"lean: g=1000, 10% null keys and inputs", 62, 2 * M, 1, 1000, 0, 0.1, 0.1, .lean = 1},
		{"lean: 2 keys, zipf 1.1 over 300, 30% null inputs, wide sums", 63, 2 * M, 2, 300, 1.1, 0.01,
		 0.3, .lean = 2},
		{"lean: 1 key, g=1, 1e7 rows", 52, 10 * M, 1, 1, .lean = 1},
		{"lean: 1 key, g=7, 1e7 rows", 53, 10 * M, 1, 7, .lean = 1},
		{"lean: 1 key, g=1000, 10% null keys", 54, 2 * M, 1, 1000, 0, 0.1, .lean = 1},
		{"lean: 2 keys, zipf 1.1 over 3000", 55, 4 * M, 2, 3000, 1.1, 0.01, .lean = 1},
		{"lean: int32 keys, g=100, partial strides", 56, 2 * M, 1, 100, 0, 0, .stride_rows = 100000,
		 .partial = 1, .int32_keys = 1, .lean = 1},
		{"lean: sums beyond int32 on every row, g=50", 57, 2 * M, 1, 50, 0, 0.01, .lean = 2},
		{"lean: estimate 1, g=1e5, 64K strides (grow+retry)", 58, 2 * M, 1, 100000, 0, 0.01,
		 .est_groups = 1, .stride_rows = 65536, .expect_grow = 1, .lean = 1},
		{"lean: append, 2 keys, g=1000", 59, 2 * M, 2, 1000, 0, 0.01, .stride_rows = 65536,
		 .append = 1, .lean = 1},
		/* More groups than a block table holds: a partial lean table (hot keys), the rest global. */
		/* Probes need more than two strides: 4e6 rows even under --quick; two strides, none. */
		{"lean partial: g=1e5, uniform, two strides (no probe)", 73, 2000000, 1, 100000, 0, 0.01,
		 .lean = 1, .partial_lean = 1, .lean_probe = -1},
		{"lean partial: g=1e5, uniform", 64, 4000000, 1, 100000, 0, 0.01, .lean = 1, .partial_lean = 1,
		 .lean_probe = 1},
		{"lean partial: zipf 1.2 over 1e6, 10% null inputs", 65, 4 * M, 1, 1000000, 1.2, 0.01, 0.1,
		 .lean = 2, .partial_lean = 1},
		{"lean partial: 2 keys, zipf 0.8 over 20000", 66, 4 * M, 2, 20000, 0.8, 0.01, .lean = 1,
		 .partial_lean = 1},
		/*
		 * Deferred cold rows (gpugb_lean_defer) whose key finds the global table full: retried.
		 * About 3.5e6 distinct keys, beyond what the L2-sized table of 2^21 slots takes (the
		 * estimate's table is L2-sized); 8e6 rows even under --quick, which divides M by 10.
		 */
		{"lean partial: estimate 20000, g=4e6, wide sums (grow+retry)", 70, 8000000, 1, 4000000, 0,
		 0.01, 0.05, .est_groups = 20000, .expect_grow = 1, .lean = 2, .partial_lean = 1},
		/*
		 * Rows in key order: whole warps of a hot key a block's full cache misses are deferred
		 * together and merged by the warp combine (gpugb_lean_add_deferred).
		 */
		{"lean partial: clustered rows, zipf 1.0 over 1e5", 71, 4 * M, 1, 100000, 1.0, 0.01, 0.05,
		 .lean = 1, .partial_lean = 1, .clustered = 1},
		{"lean partial: clustered rows, 2 keys, uniform over 30000", 72, 2 * M, 2, 30000, 0, 0.01,
		 .lean = 3, .partial_lean = 1, .clustered = 1},
		/*
		 * The one-block lean table (cuda/launch.cu): about 2^12 groups, one key, one sum
		 * column; then an estimate far too low, so the block's cache fills and the rest of the
		 * keys take the generic path.
		 */
		{"lean one-block: g=3000", 74, 4 * M, 1, 3000, 0, 0.01, .lean = 1, .lean_one_block = 1},
		{"lean one-block: estimate 3000, g=20000 (cache full)", 75, 4 * M, 1, 20000, 0.5, 0.01,
		 .est_groups = 3000, .lean = 1, .lean_one_block = 1},
		/* A whole table of which three blocks fit an SM: one block of 1024 threads instead. */
		{"lean one-block: g=1000 (a whole table)", 77, 4 * M, 1, 1000, 0.5, 0.01, .lean = 1,
		 .lean_one_block = 1},
		/*
		 * Partial tables in one 1024-thread block an SM (cuda/launch.cu, as every partial case
		 * without NULL inputs): 1e5 groups and one sum (8192 slots); two sums, clustered, 2 keys.
		 */
		{"lean one-block partial: g=1e5, zipf 1.0", 78, 4 * M, 1, 100000, 1.0, 0.01, .lean = 1,
		 .partial_lean = 1},
		{"lean one-block partial: clustered rows, 2 keys, 2 sums, uniform over 30000", 79, 2 * M, 2,
		 30000, 0, 0.01, .lean = 2, .partial_lean = 1, .clustered = 1},
		/*
		 * One key without NULLs: what spec.lean_fast_key (an experiment, --lean-fast-key)
		 * looks up by its word: a whole table, the one-block table, a partial table, NULL
		 * inputs and int32 keys.
		 */
		{"lean fast key: g=200", 80, 4 * M, 1, 200, 0, 0, .lean = 1},
		{"lean fast key: g=3000 (one-block table)", 81, 4 * M, 1, 3000, 0.5, 0, .lean = 1,
		 .lean_one_block = 1, .keyed_only = 1},
		{"lean fast key: zipf 1.0 over 1e5 (partial table)", 82, 4 * M, 1, 100000, 1.0, 0, .lean = 2,
		 .partial_lean = 1},
		{"lean fast key: g=1000, 10% null inputs", 83, 4 * M, 1, 1000, 0, 0, 0.1, .lean = 3},
		{"lean fast key: int32 keys, g=1000", 84, 2 * M, 1, 1000, 0, 0, .int32_keys = 1, .lean = 1},
		/* ...two sums; counts of two more inputs; a full cache; grow and retry. */
		{"lean fast key: two sums, g=200", 85, 4 * M, 1, 200, 0.5, 0, .lean = 2},
		/* two sums that fit int32, so the tables' second sum column is written (review of session 30) */
		{"lean fast key: two narrow sums, g=200", 89, 4 * M, 1, 200, 0.5, 0, .lean = 2, .narrow_in2 = 1},
		{"lean: two narrow sums, g=1000", 90, 4 * M, 1, 1000, 0, 0, .lean = 2, .narrow_in2 = 1},
		/* counts only: no sum column (the wide table from 64 groups, below under --lean-fast-wide) */
		{"lean fast key: counts only, g=30", 91, 2 * M, 1, 30, 0, 0, .lean = 4},
		{"lean fast key: counts only, g=2000", 92, 4 * M, 1, 2000, 0.5, 0, .lean = 4},
		{"lean: counts only, g=1000, 10% null inputs", 93, 2 * M, 1, 1000, 0, 0, 0.1, .lean = 4},
		{"lean fast key: three counts, g=1000", 86, 2 * M, 1, 1000, 0, 0, .lean = 3},
		{"lean fast key: estimate 3000, g=20000 (cache full)", 87, 4 * M, 1, 20000, 0.5, 0,
		 .est_groups = 3000, .lean = 1, .lean_one_block = 1, .keyed_only = 1},
		{"lean fast key: estimate 1, g=1e5, 64K strides (grow+retry)", 88, 2 * M, 1, 100000, 0, 0,
		 .est_groups = 1, .stride_rows = 65536, .expect_grow = 1, .lean = 1},
		/*
		 * The one-block table with ids looked up at the flush (cuda/lean_deferred_kernel.cuh, an
		 * experiment: --lean-deferred; without it these are the fast kernel's cases):
		 * int32 keys and 8-byte ones (among them the deferred table's empty word, whose rows
		 * are retried), uniform and Zipf 1.0, counts only; an estimate too low, so
		 * that blocks flush before their end and the global table, planned for 3000 groups,
		 * fills (FAILED slots, their rows retried, the table grown); a summed input not
		 * declared int32, which must not take it.
		 */
		{"lean deferred: int32 keys, g=4000, uniform", 134, 4 * M, 1, 4000, 0, 0, .int32_keys = 1,
		 .lean = 1, .narrow_in0 = 1, .lean_deferred = 1, .keyed_only = 1},
		{"lean deferred: g=3000, zipf 1.0", 135, 4 * M, 1, 3000, 1.0, 0, .lean = 1, .narrow_in0 = 1,
		 .lean_deferred = 1, .keyed_only = 1},
		{"lean deferred: int32 keys, counts only, g=2500", 136, 2 * M, 1, 2500, 0.5, 0, .int32_keys = 1,
		 .lean = 4, .lean_deferred = 1},
		{"lean deferred: estimate 3000, g=30000 (flushes, table full)", 137, 4 * M, 1, 30000, 0, 0,
		 .est_groups = 3000, .lean = 1, .narrow_in0 = 1, .lean_deferred = 1, .keyed_only = 1},
		{"lean deferred: int32 keys, g=4000, some sums beyond int32 (not taken)", 138, 2 * M, 1, 4000, 0,
		 0, .int32_keys = 1, .lean = 1, .lean_deferred = -1, .gid_word = -1},
		/*
		 * More groups than a keyed lean table holds, as many as the table indexed by group id
		 * does (cuda/lean_gid_kernel.cuh: 19370 of one sum, 11622 of two on the H200): sums
		 * beyond int32 on some rows and on every row (the generic update; auto plans the table
		 * only for inputs declared int32, lean_gid 2), NULL keys, two keys, int32 keys in partial
		 * strides, counts of two more inputs, appended clustered rows, an estimate too low (ids
		 * past the table: the generic update), Zipf 1.0; NULL inputs, which must not take it;
		 * Zipf 1.5, which auto keeps in the partial keyed table once the check has seen its hot
		 * group (NULL keys: the row loop; without them, cases 146 and 147, the word loop takes it).
		 * gid_word: the rows looked up by their key word (one key word without NULLs, one sum),
		 * or not (NULL keys, two sums).
		 */
		{"lean gid: g=10000, uniform, some sums beyond int32", 122, 4 * M, 1, 10000, 0, 0.01, .lean = 1,
		 .lean_gid = 2, .gid_word = -1},
		{"lean gid: g=10000, uniform", 132, 4 * M, 1, 10000, 0, 0.01, .lean = 1, .narrow_in0 = 1,
		 .lean_gid = 1},
		{"lean gid: 2 keys, zipf 0.8 over 8000", 123, 4 * M, 2, 8000, 0.8, 0.01, .lean = 1, .narrow_in0 = 1,
		 .lean_gid = 1},
		{"lean gid: int32 keys, g=6000, partial strides", 124, 2 * M, 1, 6000, 0, 0, .stride_rows = 100000,
		 .partial = 1, .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .lean_gid = 1},
		{"lean gid: two sums, one beyond int32, g=9000", 125, 4 * M, 1, 9000, 0, 0.01, .lean = 2,
		 .lean_gid = 2},
		{"lean gid: two narrow sums, g=9000", 126, 4 * M, 1, 9000, 0.5, 0, .lean = 2, .narrow_in2 = 1,
		 .narrow_in0 = 1, .lean_gid = 1, .gid_word = -1},
		{"lean gid: counts of two more inputs, g=7000", 133, 4 * M, 1, 7000, 0, 0.01, .lean = 3,
		 .narrow_in0 = 1, .lean_gid = 1},
		{"lean gid: estimate 10000, g=40000 (ids past the table)", 127, 4 * M, 1, 40000, 0, 0.01,
		 .est_groups = 10000, .lean = 1, .narrow_in0 = 1, .lean_gid = 1},
		{"lean gid: append, clustered rows, g=15000", 129, 2 * M, 1, 15000, 0, 0.01, .stride_rows = 65536,
		 .append = 1, .lean = 1, .narrow_in0 = 1, .lean_gid = 1, .clustered = 1},
		{"lean gid: zipf 1.0 over 16000", 130, 4 * M, 1, 16000, 1.0, 0.01, .lean = 1, .narrow_in0 = 1,
		 .lean_gid = 1},
		{"lean gid: g=12000, 10% null inputs (not taken)", 128, 4 * M, 1, 12000, 0, 0.01, 0.1, .lean = 1,
		 .lean_gid = -1},
		{"lean gid: zipf 1.5 over 12000", 131, 4 * M, 1, 12000, 1.5, 0.01, .lean = 1},
		/*
		 * Cases 122, 127 and 132 without NULL keys (session 53's review): one key word without
		 * NULLs and one sum take the word loop (gpugb_lean_gid_rows_ahead), so the sums beyond
		 * int32, the ids past the table and 8-byte keys in pair slots run there too; 146 and 147,
		 * Zipf 1.5, which auto takes there (int32 keys: keyed slots, whose home word is read
		 * a step ahead).
		 */
		{"lean gid: g=10000, uniform, some sums beyond int32, no NULL keys", 143, 4 * M, 1, 10000, 0, 0,
		 .lean = 1, .lean_gid = 2, .gid_word = 1},
		{"lean gid: estimate 10000, g=40000 (ids past the table), no NULL keys", 144, 4 * M, 1, 40000, 0, 0,
		 .est_groups = 10000, .lean = 1, .narrow_in0 = 1, .lean_gid = 1, .gid_word = 1},
		{"lean gid: g=10000, uniform, no NULL keys", 145, 4 * M, 1, 10000, 0, 0, .lean = 1, .narrow_in0 = 1,
		 .lean_gid = 1, .gid_word = 1},
		{"lean gid: zipf 1.5 over 12000, no NULL keys", 146, 4 * M, 1, 12000, 1.5, 0, .lean = 1,
		 .narrow_in0 = 1, .lean_gid = 1, .gid_word = 2},
		{"lean gid: int32 keys, zipf 1.5 over 12000, no NULL keys", 147, 4 * M, 1, 12000, 1.5, 0,
		 .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .lean_gid = 1, .gid_word = 2},
		/* 143 and 144 with int32 keys: keyed slots, whose home word the word loop reads a step ahead. */
		{"lean gid: int32 keys, g=10000, some sums beyond int32, no NULL keys", 148, 4 * M, 1, 10000, 0, 0,
		 .int32_keys = 1, .lean = 1, .lean_gid = 2, .gid_word = 1},
		{"lean gid: int32 keys, estimate 10000, g=40000 (ids past the table), no NULL keys", 149, 4 * M, 1,
		 40000, 0, 0, .est_groups = 10000, .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .lean_gid = 1,
		 .gid_word = 1},
		/*
		 * From 2048 groups one sum looked up by key word takes the table indexed by group id
		 * before the keyed tables, which hold these groups (gpugb_lean_gid_first): forced and
		 * auto (uniform: no hot group), 8-byte and int32 keys, and an estimate too low (ids past
		 * the table's twice the groups expected).  Case 138 (a sum not declared int32, whose plan
		 * keeps the keyed tables and their smaller global table) must not take it (gid_word -1):
		 * only the plan's choice lets a launch take it first (GpugbAggParams.lean_gid_first).
		 */
		{"lean gid first: g=3000, uniform, no NULL keys", 150, 4 * M, 1, 3000, 0, 0, .lean = 1,
		 .narrow_in0 = 1, .lean_gid = 1, .gid_word = 2},
		{"lean gid first: int32 keys, g=4000, uniform, no NULL keys", 151, 4 * M, 1, 4000, 0, 0,
		 .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .lean_gid = 1, .gid_word = 2},
		{"lean gid first: estimate 2500, g=9000, no NULL keys", 152, 4 * M, 1, 9000, 0, 0,
		 .est_groups = 2500, .lean = 1, .narrow_in0 = 1, .gid_word = 1},
		/*
		 * Two to four sums over more groups than the group-id table holds with all of them, as
		 * many as it holds with one: the table once a sum, the first launch writing each row's id
		 * for the later ones (gid_split).  A count and three sums declared int32, int32 and 8-byte keys,
		 * uniform and Zipf 1.0; four sums without COUNT(*); an estimate too low (ids past the
		 * table: the global update, each sum in its launch); sums beyond int32 (every row of
		 * one); strides of 100000 rows (the column used again: fixed sizes, so that PARTITION
		 * still packs every launch, at 3 rows a key); NULL keys (no split).
		 */
		{"lean gid split: a count and three narrow sums, g=12000, no NULL keys", 153, 4 * M, 1, 12000, 0, 0,
		 .lean = 7, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .gid_split = 2},
		{"lean gid split: int32 keys, a count and three narrow sums, zipf 1.0 over 14000", 154, 4 * M, 1, 14000,
		 1.0, 0, .int32_keys = 1, .lean = 7, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1,
		 .gid_split = 1},
		{"lean gid split: four narrow sums, g=10000, no NULL keys", 155, 4 * M, 1, 10000, 0, 0, .lean = 6,
		 .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .gid_split = 2},
		{"lean gid split: estimate 10000, g=30000 (ids past the table), no NULL keys", 156, 4 * M, 1, 30000, 0,
		 0, .est_groups = 10000, .lean = 7, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1,
		 .gid_split = 1},
		{"lean gid split: int32 keys, sums beyond int32, g=12000", 157, 2 * M, 1, 12000, 0, 0,
		 .int32_keys = 1, .lean = 7, .narrow_in13 = 1, .gid_split = 1},
		{"lean gid split: int32 keys, g=12000, 100000-row strides", 158, 2 * M, 1, 12000, 0, 0,
		 .stride_rows = 100000, .int32_keys = 1, .lean = 7, .narrow_in0 = 1, .narrow_in2 = 1,
		 .narrow_in13 = 1, .gid_split = 1},
		{"lean gid split: NULL keys, g=12000 (not taken)", 159, 2 * M, 1, 12000, 0, 0.01, .lean = 7,
		 .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .gid_split = -1},
		/*
		 * More groups than one sum's group-id table holds: the table once a sum and group range
		 * (gid_range), the first launch adding the first range, later ones a range of a sum each,
		 * the last range also every id past it.  One sum and a count and three sums, 8-byte and
		 * int32 keys, uniform and Zipf 1.0; an estimate too low (most ids past the last range, to
		 * the global update) and one too high (ranges with no ids); sums beyond int32; strides of
		 * 100000 rows.
		 */
		{"lean gid ranges: one sum, g=40000, no NULL keys", 160, 4 * M, 1, 40000, 0, 0, .lean = 1,
		 .narrow_in0 = 1, .gid_split = 2, .gid_range = 2},
		{"lean gid ranges: int32 keys, a count and three narrow sums, g=30000", 161, 4 * M, 1, 30000, 0, 0,
		 .int32_keys = 1, .lean = 7, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .gid_split = 2,
		 .gid_range = 2},
		{"lean gid ranges: int32 keys, one sum, zipf 1.0 over 60000", 162, 4 * M, 1, 60000, 1.0, 0,
		 .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .gid_split = 1, .gid_range = 1},
		{"lean gid ranges: estimate 20000, g=100000 (ids past the last range)", 163, 4 * M, 1, 100000, 0, 0,
		 .est_groups = 20000, .lean = 7, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .gid_split = 1,
		 .gid_range = 1},
		{"lean gid ranges: estimate 60000, g=5000 (ranges with no ids)", 164, 4 * M, 1, 5000, 0, 0,
		 .est_groups = 60000, .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .gid_split = 1, .gid_range = 1},
		{"lean gid ranges: int32 keys, sums beyond int32, g=40000", 165, 2 * M, 1, 40000, 0, 0,
		 .int32_keys = 1, .lean = 7, .narrow_in13 = 1, .gid_split = 1, .gid_range = 1},
		{"lean gid ranges: g=40000, 100000-row strides", 166, 2 * M, 1, 40000, 0, 0, .stride_rows = 100000,
		 .lean = 1, .narrow_in0 = 1, .gid_split = 1, .gid_range = 1},
		/* NULL inputs take a count column more: no one-block table, a partial one (auto too). */
		{"lean: g=3000, 10% null inputs (no one-block table)", 76, 4 * M, 1, 3000, 0, 0.01, 0.1,
		 .lean = 1, .partial_lean = 1, .lean_one_block = -1},
		/*
		 * PARTITION moves rows of one key without NULLs and at most one value input with its
		 * sort (cuda/partition_move.cu): inputs of int32 words in 4 bytes
		 * (spec.inputs_fit_int32), int32 keys in 4; a table that overflows, whose retries read
		 * the sorted columns.  The lean cases of one sum over a wide input move 8-byte words.
		 */
		{"partition moved: int32 keys, one narrow sum, g=3e5", 94, 4 * M, 1, 300000, 0, 0,
		 .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .partition_only = 1},
		{"partition moved: one narrow sum, zipf 1.1 over 1e6", 95, 4 * M, 1, 1000000, 1.1, 0,
		 .lean = 1, .narrow_in0 = 1, .partition_only = 1},
		{"partition moved: one narrow sum, estimate 1, g=1e5, 64K strides (grow+retry)", 96, 2 * M,
		 1, 100000, 0, 0, .est_groups = 1, .stride_rows = 65536, .expect_grow = 1, .lean = 1,
		 .narrow_in0 = 1, .partition_only = 1},
		{"partition moved: int32 keys, counts only, g=1e6", 97, 4 * M, 1, 1000000, 0, 0,
		 .int32_keys = 1, .lean = 4, .partition_only = 1},
		/* SUM, MIN and MAX of one input: three value columns, one moved column (partition_move.cu) */
		{"partition moved: sum, min and max of one narrow input, g=2e5", 99, 2 * M, 1, 200000, 0.8, 0,
		 .lean = 5, .narrow_in0 = 1, .partition_only = 1},
		/*
		 * The move refused under a memory limit (refuse_move): row numbers into the generic
		 * kernel's partitions.  A sum of values beyond int32, so that the rows move unpacked,
		 * with their int64 columns: since session 53 rows that stay packed get those columns
		 * only for retries (gpugb_partition_unpack_for_retries), and a narrow sum's packed
		 * rows (8 bytes a row, scattered) need less than the row numbers' sort (16), so no
		 * limit refuses their move alone: that case took the move and, for the second stride
		 * set's launch, GLOBAL_HASH (session 54, call 2).
		 */
		{"partition moved: one sum beyond int32, the move refused under a memory limit, g=1000", 100,
		 2 * M, 1, 1000, 0, 0, .int32_keys = 1, .lean = 1, .partition_only = 1,
		 .refuse_move = 1},
		/*
		 * Packed rows (partition_lean_kernel.cuh's PACKED, the default since session 34): int32
		 * keys and at most one sum of int32 words, which the lean kernel then reads packed;
		 * unless --partition-unpacked, every one must (the check above).  One sum, counts only, Zipf 1.0,
		 * and one launch of 4e6 rows (even under --quick: 40 a key, so the lean kernel must
		 * run) whose table, planned for one group, overflows: the key cache fills (rows add
		 * themselves to the global states), keys are looked up by word, and the retries read
		 * the columns the conditional unpack writes.
		 */
		{"partition packed: int32 keys, one narrow sum, g=1000", 101, 2 * M, 1, 1000, 0, 0,
		 .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .partition_only = 1},
		{"partition packed: int32 keys, counts only, g=1000", 102, 2 * M, 1, 1000, 0.5, 0,
		 .int32_keys = 1, .lean = 4, .partition_only = 1},
		{"partition packed: int32 keys, one narrow sum, zipf 1.0 over 3000", 103, 4 * M, 1, 3000, 1.0, 0,
		 .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .partition_only = 1},
		{"partition packed: int32 keys, one narrow sum, estimate 1, g=1e5, one 4e6-row launch (grow+retry)",
		 104, 4000000, 1, 100000, 0, 0, .est_groups = 1, .stride_rows = 4000000, .expect_grow = 1,
		 .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .partition_only = 1},
		/*
		 * The lean kernel from GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY (8 since session 34): about
		 * 10 rows a key in each 2^20-row launch (even under --quick), where most of a block's keys
		 * are new at each tile; packed 4-byte keys, and 8-byte keys in 12-byte moved rows.
		 */
		/*
		 * Rows the one-pass scatter moves (cuda/partition_scatter.cuh, session 37), where
		 * CUB's sort would take two passes: 8-byte rows of an int32 key and one sum in 2^9
		 * partitions (7e5 keys, 1367 a partition; 2^8 would hold 2734, beyond 5/16 of 8192
		 * slots: gpugb_partition_bits), and 24-byte rows of four sums in 2^9 (3.5e5 keys, 684 a
		 * partition of 4096 slots), 11 rows a key or more in one launch.
		 */
		{"partition scattered: int32 keys, one narrow sum, g=7e5, one 8e6-row launch", 119, 8000000, 1,
		 700000, 0, 0, .stride_rows = 8000000, .int32_keys = 1, .lean = 1, .narrow_in0 = 1,
		 .partition_only = 1, .expect_scatter = 1},
		{"partition scattered: int32 keys, four narrow sums, g=3.5e5, one 4e6-row launch", 120, 4000000, 1,
		 350000, 0, 0, .stride_rows = 4000000, .int32_keys = 1, .lean = 6, .narrow_in0 = 1, .narrow_in2 = 1,
		 .narrow_in13 = 1, .partition_only = 1, .expect_scatter = 1},
		/*
		 * ...16-byte rows (two sums: 2^9 partitions of 3.5e5 keys, 684 a partition of 4096
		 * slots); and 8-byte rows in 2^9 partitions planned for 7e5 groups that meet 4e6: the lean kernel's
		 * partitions hold more keys than its table (the rest go to the global table), the
		 * global table overflows, and the retries read the columns unpacked from the
		 * scattered rows.
		 */
		{"partition scattered: int32 keys, two narrow sums, g=3.5e5, one 4e6-row launch", 121, 4000000, 1,
		 350000, 0, 0, .stride_rows = 4000000, .int32_keys = 1, .lean = 2, .narrow_in0 = 1, .narrow_in2 = 1,
		 .partition_only = 1, .expect_scatter = 1},
		{"partition scattered: int32 keys, one narrow sum, estimate 7e5, g=4e6, one 8e6-row launch (grow+retry)",
		 122, 8000000, 1, 4000000, 0, 0, .est_groups = 700000, .stride_rows = 8000000, .expect_grow = 1,
		 .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .partition_only = 1, .expect_scatter = 1,
		 .expect_overflow = 1},
		/*
		 * A partition's keys beyond its slice of the table (session 38: forced PARTITION at
		 * 0.08x the groups, Zipf 1.0, ran over 70 s on 2^28 rows): partitions sized for 3e5
		 * keys (2^7) that meet over a million, whose run of keys in linear probing crosses
		 * the slices being worked on; a launch must stop and retry its rest (but under
		 * --partition-probe-unbounded).
		 */
		{"partition lean: int32 keys, one narrow sum, zipf 1.0 over 4e6, estimate 3e5, one 8e6-row launch (grow+retry)",
		 123, 8000000, 1, 4000000, 1.0, 0, .est_groups = 300000, .stride_rows = 8000000, .expect_grow = 1,
		 .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .partition_only = 1, .expect_overflow = 1},
		/*
		 * Whole partitions numbered without lookups (cuda/partition_deferred.cuh,
		 * gpugb_deferred_flush_direct, session 48) past max_groups: an estimate of 2^21 groups
		 * makes a table of 2^22 slots, max_groups 2^21 at 50 % fill (src/heuristics.c,
		 * size_global_table), and 2^10 partitions of 2560 keys at most; 2.4e6 keys over one
		 * 8e6-row launch meet about 2.31e6 (3.3 rows a key), 2256 a partition, which one flush
		 * holds (7/8 of 8192 slots less a 4096-row chunk).  A partition's 7800 rows are less
		 * than two tiles' (8e6 / 1056 rows a tile), so each stretch is its partition's every
		 * row, and the flushes' ids pass max_groups: those slots fail, the launch overflows,
		 * and the retries look their keys up once the launch's groups are in the slot table.
		 * Written in session 48 after its last GPU call: first run in session 49.  expect_direct:
		 * the publish must find groups numbered so (GpugbStats.partition_direct_groups).
		 */
		{"partition direct: int32 keys, one narrow sum, estimate 2^21, g=2.4e6, one 8e6-row launch (grow+retry)",
		 139, 8000000, 1, 2400000, 0, 0, .est_groups = 2097152, .stride_rows = 8000000, .expect_grow = 1,
		 .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .partition_only = 1, .expect_overflow = 1, .expect_direct = 1},
		{"partition direct: 8-byte keys, one narrow sum, estimate 2^21, g=2.4e6, one 8e6-row launch (grow+retry)",
		 140, 8000000, 1, 2400000, 0, 0, .est_groups = 2097152, .stride_rows = 8000000, .expect_grow = 1,
		 .lean = 1, .narrow_in0 = 1, .partition_only = 1, .expect_overflow = 1, .expect_direct = 1},
		/*
		 * Case 139's shape with four sums (session 51): unless --partition-ungathered, the direct
		 * launch's rows are gathered (GPUGB_GATHERED_KEY_WORDS; carried, GPUGB_CARRIED_KEY_WORDS,
		 * unless --partition-uncarried), its failed slots' rows are found again at their sorted
		 * positions, and the retries read the columns that
		 * gpugb_move_unpack_gathered_kernel writes.  2.31e6 keys pass max_groups 2^21, so the
		 * table must grow and rows be retried (expect_grow, added after the session's last GPU
		 * call on a review's note; its runs there, gathered, logged 1 grow and 752514 retried rows).  Its block tables
		 * hold fewer slots than one sum's, so the overflow of the launch is not expected.
		 */
		{"partition direct: int32 keys, four narrow sums, estimate 2^21, g=2.4e6, one 8e6-row launch",
		 141, 8000000, 1, 2400000, 0, 0, .est_groups = 2097152, .stride_rows = 8000000, .expect_grow = 1,
		 .int32_keys = 1,
		 .lean = 6, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .partition_only = 1, .expect_direct = 1,
		 .expect_gathered = 1},
		/*
		 * The same with three sums, gathered (16 bytes of values with a pad word,
		 * split_values.cuh), and with two, carried (GPUGB_CARRIED_KEY_WORDS, session 61: 8 bytes
		 * through the sort, the lean kernel and the retries' unpack).
		 */
		{"partition direct: int32 keys, three narrow sums, estimate 2^21, g=2.4e6, one 8e6-row launch",
		 241, 8000000, 1, 2400000, 0, 0, .est_groups = 2097152, .stride_rows = 8000000, .expect_grow = 1,
		 .int32_keys = 1,
		 .lean = 7, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .partition_only = 1, .expect_direct = 1,
		 .expect_gathered = 1},
		{"partition direct: int32 keys, two narrow sums, estimate 2^21, g=2.4e6, one 8e6-row launch",
		 242, 8000000, 1, 2400000, 0, 0, .est_groups = 2097152, .stride_rows = 8000000, .expect_grow = 1,
		 .int32_keys = 1,
		 .lean = 2, .narrow_in0 = 1, .narrow_in2 = 1, .partition_only = 1, .expect_direct = 1,
		 .expect_gathered = 1},
		/*
		 * Case 139's first launch, then a second whose scratch is refused (scratch_refused_from,
		 * session 53): the first set's launch, in flight with its rows left packed and its
		 * overflow's retries to come, loses its scratch to gpugb_scratch_unavailable but those
		 * rows, whose columns complete_set writes only now (gpugb_partition_unpack_for_retries,
		 * since session 53).  A review found the rows freed there, and the columns' pitch read
		 * as 0, before the fix.
		 */
		{"partition direct: int32 keys, one narrow sum, estimate 2^21, g=2.4e6, two 8e6-row launches, "
		 "the second's scratch refused (grow+retry)",
		 142, 16000000, 1, 2400000, 0, 0, .est_groups = 2097152, .stride_rows = 8000000, .expect_grow = 1,
		 .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .partition_only = 1, .expect_overflow = 1, .expect_direct = 1,
		 .scratch_refused_from = 1},
		{"partition lean: int32 keys, one narrow sum, g=1e5, 10 rows a key a launch", 105, 3000000, 1,
		 100000, 0, 0, .int32_keys = 1, .lean = 1, .narrow_in0 = 1, .partition_only = 1},
		{"partition lean: 8-byte keys, one narrow sum, zipf 0.5 over 1e5, 10 rows a key a launch", 106,
		 3000000, 1, 100000, 0.5, 0, .lean = 1, .narrow_in0 = 1, .partition_only = 1},
		/*
		 * two value columns over 8-byte keys, 7 rows a key: not moved (partition_move.cu: two
		 * or more move only packed, for the lean kernel, which does not pay), the row numbers' sort
		 */
		{"partition moved: two narrow sums over 8-byte keys, 7 rows a key, stay unmoved, g=3e5", 98, 2 * M, 1, 300000, 0, 0,
		 .lean = 2, .narrow_in0 = 1, .narrow_in2 = 1, .partition_only = 1},
		/*
		 * ...but over int32 keys they move packed, for the lean kernel, where its keys repeat
		 * (session 35): about 10 rows a key a launch, Zipf 1.0, and one launch whose table,
		 * planned for one group, overflows (the retries read the columns the conditional
		 * unpack writes, two value columns of them).
		 */
		{"partition packed: int32 keys, two narrow sums, g=1e5, 10 rows a key a launch", 107, 3000000, 1,
		 100000, 0, 0, .int32_keys = 1, .lean = 2, .narrow_in0 = 1, .narrow_in2 = 1, .partition_only = 1},
		{"partition packed: int32 keys, two narrow sums, zipf 1.0 over 3000", 108, 4 * M, 1, 3000, 1.0, 0,
		 .int32_keys = 1, .lean = 2, .narrow_in0 = 1, .narrow_in2 = 1, .partition_only = 1},
		{"partition packed: int32 keys, two narrow sums, estimate 1, g=1e5, one 4e6-row launch (grow+retry)",
		 109, 4000000, 1, 100000, 0, 0, .est_groups = 1, .stride_rows = 4000000, .expect_grow = 1,
		 .int32_keys = 1, .lean = 2, .narrow_in0 = 1, .narrow_in2 = 1, .partition_only = 1},
		/*
		 * Four sums (24-byte rows, three 8-byte loads a row, the slow path's inputs by
		 * reference) and three (16-byte rows without padding), the same shapes.
		 */
		{"partition packed: int32 keys, four narrow sums, g=1e5, 10 rows a key a launch", 110, 3000000, 1,
		 100000, 0, 0, .int32_keys = 1, .lean = 6, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1,
		 .partition_only = 1},
		{"partition packed: int32 keys, four narrow sums, estimate 1, g=1e5, one 4e6-row launch (grow+retry)",
		 111, 4000000, 1, 100000, 0, 0, .est_groups = 1, .stride_rows = 4000000, .expect_grow = 1,
		 .int32_keys = 1, .lean = 6, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .partition_only = 1},
		{"partition packed: int32 keys, three narrow sums, zipf 1.0 over 3000", 112, 4 * M, 1, 3000, 1.0, 0,
		 .int32_keys = 1, .lean = 7, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .partition_only = 1},
		/*
		 * 8-byte keys, whose rows stay packed in pair slots (session 35's experiment, the
		 * default since session 36): four sums, two sums with a table that overflows (retries
		 * through the unpack), one sum in 12-byte rows with one (the tight rows' unpack),
		 * counts only, four sums with retries (24-byte rows) and three (24 bytes with a pad
		 * word).  Under --partition-unpacked (and --partition-padded), the generic kernel (two
		 * sums or more) and unpacked columns.
		 */
		{"partition packed wide: 8-byte keys, four narrow sums, g=1e5, 10 rows a key a launch", 113, 3000000,
		 1, 100000, 0, 0, .lean = 6, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .partition_only = 1},
		{"partition packed wide: 8-byte keys, two narrow sums, estimate 1, g=1e5, one 4e6-row launch (grow+retry)",
		 114, 4000000, 1, 100000, 0, 0, .est_groups = 1, .stride_rows = 4000000, .expect_grow = 1, .lean = 2,
		 .narrow_in0 = 1, .narrow_in2 = 1, .partition_only = 1},
		{"partition packed wide: 8-byte keys, one narrow sum, estimate 1, g=1e5, one 4e6-row launch (grow+retry)",
		 115, 4000000, 1, 100000, 0, 0, .est_groups = 1, .stride_rows = 4000000, .expect_grow = 1, .lean = 1,
		 .narrow_in0 = 1, .partition_only = 1},
		{"partition packed wide: 8-byte keys, counts only, zipf 1.0 over 3000", 116, 4 * M, 1, 3000, 1.0, 0,
		 .lean = 4, .partition_only = 1},
		{"partition packed wide: 8-byte keys, four narrow sums, estimate 1, g=1e5, one 4e6-row launch (grow+retry)",
		 117, 4000000, 1, 100000, 0, 0, .est_groups = 1, .stride_rows = 4000000, .expect_grow = 1, .lean = 6,
		 .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .partition_only = 1},
		{"partition packed wide: 8-byte keys, three narrow sums, zipf 1.0 over 3000", 118, 4 * M, 1, 3000, 1.0, 0,
		 .lean = 7, .narrow_in0 = 1, .narrow_in2 = 1, .narrow_in13 = 1, .partition_only = 1},
		/*
		 * The empty slot's key (key tuple 5, reference.c) in every one of eight launches, the
		 * estimate right: its rows are retried, and the table, which has room, must not grow
		 * for them (session 43: it doubled at every such launch).
		 */
		{"partition packed wide: 8-byte keys, one narrow sum, g=1000, the empty word's rows retried in 8 launches",
		 124, 8 * M, 1, 1000, 0, 0, .stride_rows = M, .lean = 1, .narrow_in0 = 1, .partition_only = 1,
		 .expect_no_grow = 1},
		/*
		 * Auto: a group of 38 %, found by the lean probe: SHARED_HASH with the partial table (the
		 * lean-launch check applies).
		 */
		{"lean partial: zipf 1.5 over 1e5, auto keeps the hot groups", 69, 4000000, 1, 100000, 1.5, 0.01,
		 .lean = 1, .lean_probe = 1},
	};

	if (!EMULATOR)
		run_invalid_spec();		/* the emulator trusts the executor's specs */
	run_remap_checks();
	/* Each case under every strategy in turn, so its data and reference are made once (CaseData). */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		if (only_cases != NULL && strstr(cases[i].name, only_cases) == NULL)
			continue;
		for (int strategy = -1; strategy < GPUGB_N_STRATEGIES; strategy++)
		{
			if ((only_strategy != -2 && strategy != only_strategy) ||
				(cases[i].partition_only && strategy != GPUGB_STRATEGY_PARTITION))
				continue;
			case_strategy = strategy;
			run_case(&cases[i]);
		}
		release_case_data();
	}
	print_slowest();
	/* The one-pass scatter's share of the run: none under --partition-cub-sort, where it is checked. */
	printf("cases with scattered partition launches: %d\n", n_scattered_cases);
	printf("cases with sorts of 2-byte partitions: %d\n", n_narrow_sort_cases);
	printf("cases with sorts of mixed words: %d\n", n_mixed_cases);
	printf("cases with gathered values: %d\n", n_gathered_cases);
	printf("cases with carried values: %d\n", n_carried_cases);
	printf("cases with overflowed partition launches: %d\n", n_overflowed_cases);
	printf("cases with hashed partition launches: %d\n", n_hashed_cases);
	printf("cases with deferred partition launches: %d (%d over 8-byte keys with the empty slot's key)\n",
		   n_deferred_cases, n_deferred_wide_cases);
	printf("cases with partitioned retry rounds: %d\n", n_repartitioned_cases);
	printf("cases with lean partition launches leaving L1 its reserve: %d\n", n_l1_reserve_cases);
	printf("cases with a direct partition launch: %d (%d numbered groups so)\n", n_direct_cases, n_direct_group_cases);
	printf("device selftest: %d cases, %d failed\n", n_cases, n_failed);
	return n_failed ? 1 : 0;
}
