/*
 * kernelbench.cu
 *    The standalone kernel benchmark of issue 3 (item 5): gpugb's device
 *    group-by on rows already resident in device memory, no PostgreSQL.
 *
 * For every point (key width, payload columns, key distribution, groups g)
 * it runs the Thrust baseline (which is also the reference result and
 * gives the true group count), each gpugb strategy forced, and the
 * heuristic's pick with run-time switching allowed; it verifies each gpugb
 * result against the reference, and reports throughput against the
 * device-memory floor (report.cu).  See README.md for usage.
 *
 * Invariants:
 *  - Keys are regenerated on the device per (key width, distribution, g);
 *    payloads are generated once; nothing of the input crosses the bus.
 *  - Every gpugb handle is created and destroyed around one measured run,
 *    and the module's process tally is back to zero after each destroy.
 *  - CSV rows are written as points finish; any fatal error or the
 *    --max-seconds budget still leaves the CSV and the markdown report of
 *    what was measured.
 */
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernelbench.h"

/* Groups fetched per gpugb_groupby_fetch call: bounds pinned host memory. */
#define FETCH_CHUNK_GROUPS ((int64_t) 1 << 22)

static KbRun *the_run = nullptr;	/* for kb_fatal's partial report */
static std::chrono::steady_clock::time_point start_time;

static double
elapsed_s(void)
{
	return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
}

/* Writes whatever was measured, then exits; never returns. */
void
kb_fatal(const char *fmt, ...)
{
	static bool in_fatal = false;
	va_list		ap;

	fprintf(stderr, "kernelbench: FATAL: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	if (the_run != nullptr && !in_fatal)
	{
		in_fatal = true;
		the_run->wall_s = elapsed_s();
		the_run->stopped_early = true;
		kb_csv_close();
		kb_write_markdown(*the_run);
	}
	exit(2);
}

void
kb_cuda_check(int err, const char *what)
{
	if (err != (int) cudaSuccess)
		kb_fatal("%s: %s (%s)", what, cudaGetErrorString((cudaError_t) err),
				 cudaGetErrorName((cudaError_t) err));
}

/* ---------------------------------------------------------------------
 * Options
 * --------------------------------------------------------------------- */

/* The gpugb methods --methods takes, in order: every forced strategy, then auto. */
static std::string
method_list(void)
{
	std::string list;

	for (int m = 0; m <= KB_AUTO; m++)
		list += std::string(m ? "," : "") + kb_method_name(m);
	return list;
}

static void
usage(FILE *f)
{
	fprintf(f,
			"usage: kernelbench [options]\n"
			"  --log2-rows N        rows resident on the device, 2^N (default 28, 10..%d)\n"
			"  --keys LIST          key widths in bytes, 4 and/or 8 (default 4,8)\n"
			"  --payloads LIST      int32 payload columns, 0..%d (default 1,4; 0: count(*) only)\n"
			"  --dists LIST         uniform and/or zipfS, S > 0 (default uniform,zipf0.5,zipf1.0,zipf1.5)\n"
			"  --log2-groups LIST   group counts g = 2^x; items x or A:B[:STEP] (default 0:26:2)\n"
			"  --methods LIST       gpugb methods, default all of:\n"
			"                       %s\n"
			"                       (the thrust baseline always runs: it is the reference)\n"
			"  --reps N             timed repetitions per method and point (default 1; median)\n"
			"  --csv FILE           one row per (point, method), written as points finish\n"
			"  --md FILE            markdown report (default: stdout)\n"
			"  --max-seconds S      stop cleanly before starting work after S seconds of wall\n"
			"                       time (default 450; 0 = no limit)\n"
			"  --bw-gib N           GiB read by the bandwidth probe (default 4)\n"
			"  --seed N             data seed (default 1)\n"
			"  --keyed-slots on|off on (default): the hash table keeps the key in its slots,\n"
			"                       4-byte keys (declared int32, spec.key_fits_int32) in 8-byte\n"
			"                       slots, 8-byte keys in 16-byte pairs; off: tagged slots for\n"
			"                       every key (spec.tagged_slots_only), the A/B baseline\n"
			"  --planned-skew on|off on: auto plans with the largest group's share of the\n"
			"                       rows known, as PostgreSQL's statistics tell it\n"
			"                       (spec.estimated_hot_share); off (default): unknown\n"
			"  --clustered on|off   on: rows sorted by key, as a table stored in key order\n"
			"                       delivers them (groups in their keys' scrambled order);\n"
			"                       off (default): rows in random order\n"
			"  --lean-gid-table on|off off: SHARED_HASH never takes its block table\n"
			"                       indexed by group id, nor auto plans it, as before\n"
			"                       session 45 (spec.lean_gid_off); on (default)\n"
			"  --rep-trace on|off   on: each repetition's time and its largest group's\n"
			"                       id (ids come from racing claims; session 56's\n"
			"                       two speeds of a hot group); off (default)\n"
			"  --lean-deferred on|off on: SHARED_HASH's one-block table looks its ids\n"
			"                       up at the flush (spec.lean_deferred, an experiment of\n"
			"                       session 47); off (default)\n"
			"  --partition-direct on|off off: PARTITION's deferred launches look every\n"
			"                       group up at the flush, as before session 48\n"
			"                       (spec.partition_lookup_all); on (default): the\n"
			"                       first numbers whole partitions' groups directly\n"
			"  --lean-fast-key on|off on: the lean kernel looks one key up by its word,\n"
			"                       and whole tables of any number of sums run\n"
			"                       gpugb_lean_fast_kernel (the plan: at most one)\n"
			"                       (spec.lean_fast_key, an experiment; the log marks\n"
			"                       the runs); off (default)\n"
			"  --lean-fast-wide on|off on: whole tables of the fast lean kernel take one\n"
			"                       block an SM with the most slots it holds at any\n"
			"                       number of groups (the plan: from 64), with\n"
			"                       --lean-fast-key for two to four sums too\n"
			"                       (spec.lean_fast_wide, an experiment); off (default)\n"
			"  --partition-move on|off off: PARTITION sorts row numbers even where it\n"
			"                       would move the rows with its sort (spec.\n"
			"                       partition_rows_only, for A/B runs); on (default)\n"
			"  --partition-lean on|off off: PARTITION's moved launches take the generic\n"
			"                       partition kernel even where the lean one applies\n"
			"                       (spec.partition_generic_only, for A/B runs); on\n"
			"                       (default)\n"
			"  --partition-tight on|off off: PARTITION pads a moved row of an 8-byte key\n"
			"                       and one 4-byte value to 16 bytes, not 12 (spec.\n"
			"                       partition_move_padded, for A/B runs); on (default)\n"
			"  --partition-packed on|off off: PARTITION's lean kernel reads the unpacked\n"
			"                       columns even where it would read the sorted packed\n"
			"                       rows (4- and 8-byte keys), unpacked only for\n"
			"                       retries, and two to four sums take the generic\n"
			"                       kernel (spec.partition_lean_unpacked, for A/B\n"
			"                       runs); on (default)\n"
			"  --partition-scatter on|off off: PARTITION moves packed rows with CUB's\n"
			"                       radix sort even where the one-pass scatter applies\n"
			"                       (spec.partition_cub_sort, for A/B runs); on (default)\n"
			"  --partition-narrow-keys on|off off: PARTITION's CUB sort of packed rows\n"
			"                       takes 4-byte partitions even where 2 bytes hold them\n"
			"                       (spec.partition_wide_sort_keys, for A/B runs); on (default)\n"
			"  --partition-mixed-words on|off off: PARTITION's direct first launch sorts\n"
			"                       packed rows with their partitions, not an int32 key\n"
			"                       mixed above its one sum, nor gathers two to four\n"
			"                       (spec.partition_unmixed_words, for A/B runs); on\n"
			"                       (default)\n"
			"  --partition-eager-publish on|off on: a direct launch's groups go into the\n"
			"                       slot table right after it, as in the executor\n"
			"                       (spec.partition_eager_publish); off (default): when\n"
			"                       a lookup is to come\n"
			"  --partition-gather on|off off: PARTITION's direct first launch of an int32\n"
			"                       key and two to four sums sorts packed rows with their\n"
			"                       partitions, not mixed keys with row numbers\n"
			"                       (spec.partition_ungathered_values, for A/B runs); on\n"
			"                       (default)\n"
			"  --partition-carry on|off  off: gathered rows' sums are read through their\n"
			"                       row numbers, not carried by CUB's sort beside the\n"
			"                       mixed keys (spec.partition_uncarried_values, for A/B\n"
			"                       runs); on (default)\n"
			"  --partition-hashed on|off  off: PARTITION sorts packed rows of an 8-byte key\n"
			"                       with their partitions, not (key hash, sums) pairs\n"
			"                       (spec.partition_unhashed_keys, for A/B runs); on\n"
			"                       (default)\n"
			"  --partition-l1-reserve rule|off|on  PARTITION's lean table leaves L1 32 kB\n"
			"                       of the SM where gpugb_partition_l1_reserve_pays\n"
			"                       (rule, default), never or always (spec.\n"
			"                       partition_l1_reserve, for A/B runs)\n"
			"  --estimate-scale F   the group estimate every method is given is the true\n"
			"                       number of groups times F (at least 1): 1e-5 or 1e5\n"
			"                       for a planner far off; 1 (default)\n"
			"  --probe-rows N       rows of auto's probe launch before its run-time check\n"
			"                       (spec.device_probe_rows, for A/B runs); 0: the default,\n"
			"                       GPUGB_DEVICE_PROBE_ROWS (2^20)\n"
			"  --direct-min-groups N groups auto's probe must lead it to expect before its\n"
			"                       rows run again on an emptied table, for direct group\n"
			"                       ids (spec.device_direct_min_groups, for A/B runs); 0:\n"
			"                       the default, GPUGB_DIRECT_MIN_GROUPS (0.9 x 2^21)\n"
			"  --partition-probe hash|on|off hash (default): where auto plans PARTITION,\n"
			"                       its probe launch runs GLOBAL_HASH; on: PARTITION, as\n"
			"                       in sessions 38-44 (spec.partition_own_probe); off:\n"
			"                       SORT, as before session 38 (spec.partition_sort_probe)\n"
			"  --partition-overflow-abort on|off on (default): PARTITION's lean and\n"
			"                       generic launches stop at their first lookup past\n"
			"                       GPUGB_PROBE_OVERFLOW_STEPS slots or without an id\n"
			"                       left, and retry the rest; off: they walk without a\n"
			"                       bound, as before session 39\n"
			"                       (spec.partition_probe_unbounded)\n"
			"  --partition-overflow-no-id on|off on (default): a PARTITION lookup with no\n"
			"                       group id left stops the launch too; off: only a walk\n"
			"                       past the bound does, and rows of keys with no id\n"
			"                       retry alone (spec.partition_overflow_walks_only, an\n"
			"                       experiment)\n"
			"  --partition-retry-repartition on|off on: a retry round of half a PARTITION\n"
			"                       launch's rows or more runs as a PARTITION launch of\n"
			"                       the gathered rows (spec.partition_retry_repartition,\n"
			"                       an experiment); off (default): GLOBAL_HASH\n"
			"  --observed-chao1 on|off on (default): the run-time check's group estimate\n"
			"                       is at least Chao1's; off: the evenly-drawn model's\n"
			"                       alone, as before session 39\n"
			"                       (spec.observed_uniform_only)\n"
			"  --partition-lean-rows N  PARTITION's lean kernel from N rows a key\n"
			"                       expected in a launch (spec.partition_lean_rows_per_key,\n"
			"                       an experiment); 0 (default): the heuristic's (%d)\n"
			"  --alloc-trace on|off on: after each method's first timed run, the log\n"
			"                       lists its device allocations and frees by buffer\n"
			"                       (count, MB, host ms in cudaMalloc and cudaFree);\n"
			"                       off (default)\n",
			KB_MAX_LOG2_ROWS, KB_MAX_PAYLOADS, method_list().c_str(), GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY);
}

[[noreturn]] static void
bad_option(const char *fmt, const char *arg)
{
	fprintf(stderr, "kernelbench: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	usage(stderr);
	exit(2);
}

static long
parse_long(const char *s, long lo, long hi, const char *what)
{
	char	   *end = nullptr;
	long		v = strtol(s, &end, 10);

	if (end == s || *end != '\0' || v < lo || v > hi)
		bad_option("bad value for %s", what);
	return v;
}

static double
parse_double(const char *s, double lo, double hi, const char *what)
{
	char	   *end = nullptr;
	double		v = strtod(s, &end);

	if (end == s || *end != '\0' || !(v >= lo && v <= hi))
		bad_option("bad value for %s", what);
	return v;
}

static std::vector<std::string>
split(const char *list)
{
	std::vector<std::string> items;
	std::string cur;

	for (const char *p = list;; p++)
	{
		if (*p == ',' || *p == '\0')
		{
			if (!cur.empty())
				items.push_back(cur);
			cur.clear();
			if (*p == '\0')
				break;
		}
		else
			cur += *p;
	}
	return items;
}

static std::vector<int>
parse_ints(const char *list, long lo, long hi, const char *what)
{
	std::vector<int> v;

	for (const std::string &item : split(list))
	{
		int			a,
					b,
					step = 1;
		int			n = sscanf(item.c_str(), "%d:%d:%d", &a, &b, &step);

		if (n == 1 && item.find(':') == std::string::npos)
			b = a;
		else if (n < 2 || step < 1)
			bad_option("bad list item in %s", what);
		for (int x = a; x <= b; x += step)
		{
			if (x < lo || x > hi)
				bad_option("value out of range in %s", what);
			v.push_back(x);
		}
	}
	if (v.empty())
		bad_option("empty list for %s", what);
	return v;
}

static std::vector<KbDist>
parse_dists(const char *list)
{
	std::vector<KbDist> v;

	for (const std::string &item : split(list))
	{
		char	   *end = nullptr;

		if (item == "uniform")
			v.push_back({item, 0.0});
		else if (item.compare(0, 4, "zipf") == 0)
		{
			double		s = strtod(item.c_str() + 4, &end);

			if (end == item.c_str() + 4 || *end != '\0' || !(s > 0 && s <= 10))
				bad_option("bad Zipf exponent in %s", item.c_str());
			v.push_back({item, s});
		}
		else
			bad_option("unknown distribution %s", item.c_str());
	}
	if (v.empty())
		bad_option("empty list for %s", "--dists");
	return v;
}

static std::vector<int>
parse_methods(const char *list)
{
	std::vector<int> v;

	for (const std::string &item : split(list))
	{
		int			m = -1;

		for (int i = 0; i <= KB_AUTO; i++)
			if (item == kb_method_name(i))
				m = i;
		if (m < 0)
			bad_option("unknown method %s (thrust always runs)", item.c_str());
		v.push_back(m);
	}
	return v;
}

/*
 * --keyed-slots: on, 4-byte keys tell gpugb their words fit int32
 * (spec.key_fits_int32, as the executor does for int2/int4/date/bool keys)
 * and the hash table keeps every key in its slots (8-byte keys as pairs);
 * off, it keeps tagged slots for every key (spec.tagged_slots_only).  Read
 * by make_spec, which makes every spec of the run the same way.
 */
static bool keyed_slots_option = true;

/*
 * --planned-skew: on, specs carry the point's largest group share as the
 * planner's estimate (spec.estimated_hot_share, src/skew_estimate.c), so
 * auto starts where its run-time check would take it; off, unknown (0).
 */
static bool planned_skew_option = false;

/* --lean-fast-key: spec.lean_fast_key (an experiment of session 29; its fast kernel is the plan for one sum since session 30). */
static bool lean_fast_key_option = false;
/* --lean-gid-table off: spec.lean_gid_off (no block table indexed by group id, as before session 45). */
static bool lean_gid_table_option = true;
/* --rep-trace on: each repetition's time and its largest group's id on stderr (rep_trace). */
static bool rep_trace_option = false;
/* --lean-deferred on: spec.lean_deferred (SHARED_HASH's one-block table looks its ids up at the flush; session 47's experiment). */
static bool lean_deferred_option = false;
/* --partition-direct off: spec.partition_lookup_all (every group looked up at the flush, as before session 48). */
static bool partition_direct_option = true;
/* --lean-fast-wide: spec.lean_fast_wide (an experiment of session 30). */
static bool lean_fast_wide_option = false;
/* --partition-move: off sets spec.partition_rows_only (cuda/partition_move.cu's A/B, session 31). */
static bool partition_move_option = true;
/* --partition-lean: off sets spec.partition_generic_only (cuda/partition_lean_kernel.cuh's A/B, session 32). */
static bool partition_lean_option = true;
/* --partition-tight: off sets spec.partition_move_padded (cuda/partition_move.cu's 12-byte rows' A/B, session 33). */
static bool partition_tight_option = true;
/* --partition-packed: off sets spec.partition_lean_unpacked (cuda/partition_lean_kernel.cuh's packed rows' A/B, session 34). */
static bool partition_packed_option = true;
/* --partition-scatter: off sets spec.partition_cub_sort (cuda/partition_scatter.cuh's A/B, session 37). */
static bool partition_scatter_option = true;
/* --partition-narrow-keys: off sets spec.partition_wide_sort_keys (cuda/partition_move.cu's A/B, session 49). */
static bool partition_narrow_keys_option = true;
/* --partition-mixed-words: off sets spec.partition_unmixed_words (GPUGB_PARTITION_MIXED_KEYS's A/B, session 50). */
static bool partition_mixed_words_option = true;
/* --partition-eager-publish: on sets spec.partition_eager_publish (what the executor's publish costs, session 50). */
static bool partition_eager_publish_option = false;
/* --partition-gather: off sets spec.partition_ungathered_values (GPUGB_GATHERED_KEY_WORDS's A/B, session 51). */
static bool partition_gather_option = true;
/* --partition-carry: off sets spec.partition_uncarried_values (GPUGB_CARRIED_KEY_WORDS's A/B, session 61). */
static bool partition_carry_option = true;
/* --partition-hashed: off sets spec.partition_unhashed_keys (GPUGB_HASHED_KEY_WORDS's A/B, session 60). */
static bool partition_hashed_option = true;
/* --partition-l1-reserve: spec.partition_l1_reserve (GPUGB_PARTITION_L1_RESERVE_BYTES's rule and its A/B, session 58). */
static int	partition_l1_reserve_option = GPUGB_L1_RESERVE_BY_RULE;
/*
 * --estimate-scale: the planner's group estimate (spec.estimated_groups) is
 * the true number of groups times this, at least 1, for every method: the
 * run-time correction's cost where the estimate is far off (issue 3, item 3).
 */
static double estimate_scale_option = 1.0;
/* --probe-rows: spec.device_probe_rows, the rows of auto's probe launch (cuda/groupby.cu; 0: its default). */
static long probe_rows_option = 0;
/* --direct-min-groups: spec.device_direct_min_groups, the groups expected from which auto's probe rows run again (cuda/groupby.cu; 0: its default). */
static long direct_min_groups_option = 0;
/* --partition-probe off: spec.partition_sort_probe (SORT as auto's probe where PARTITION is planned, the default before session 38). */
static bool partition_sort_probe_option = false;
/* --partition-probe on: spec.partition_own_probe (PARTITION as that probe, the default of sessions 38-44). */
static bool partition_own_probe_option = false;
/* --partition-overflow-abort off: spec.partition_probe_unbounded (the default before session 39). */
static bool partition_overflow_abort_option = true;
/* --partition-retry-repartition on: spec.partition_retry_repartition (an experiment of session 39). */
static bool partition_retry_repartition_option = false;
/* --partition-overflow-no-id off: spec.partition_overflow_walks_only (an experiment of session 39). */
static bool partition_overflow_no_id_option = true;
/* --observed-chao1 off: spec.observed_uniform_only (the default before session 39). */
static bool observed_chao1_option = true;
/* --partition-lean-rows: spec.partition_lean_rows_per_key (an experiment of session 34; 0: the heuristic's). */
static int	partition_lean_rows_option = 0;
/* --alloc-trace: gpugb_device_set_alloc_trace over the first rep's timed part (AllocTrace). */
static bool alloc_trace_option = false;

/* An option's on|off value. */
static bool
parse_on_off(const char *val, const char *opt)
{
	if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0)
		bad_option("%s: on or off", opt);
	return strcmp(val, "on") == 0;
}

static void
parse_options(int argc, char **argv, KbOptions *o)
{
	o->dists = parse_dists("uniform,zipf0.5,zipf1.0,zipf1.5");
	o->log2_groups = parse_ints("0:26:2", 0, KB_MAX_LOG2_GROUPS, "--log2-groups");
	o->methods.clear();
	for (int m = 0; m <= KB_AUTO; m++)
		o->methods.push_back(m);
	for (int i = 0; i < argc; i++)
		o->command += std::string(i ? " " : "") + argv[i];

	for (int i = 1; i < argc; i++)
	{
		const char *opt = argv[i];

		if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0)
		{
			usage(stdout);
			exit(0);
		}
		if (i + 1 >= argc)
			bad_option("%s needs a value (or is unknown)", opt);
		const char *val = argv[++i];

		if (strcmp(opt, "--log2-rows") == 0)
			o->log2_rows = (int) parse_long(val, 10, KB_MAX_LOG2_ROWS, opt);
		else if (strcmp(opt, "--keys") == 0)
		{
			o->key_bytes = parse_ints(val, 4, 8, opt);
			for (int k : o->key_bytes)
				if (k != 4 && k != 8)
					bad_option("%s: key widths are 4 or 8", opt);
		}
		else if (strcmp(opt, "--payloads") == 0)
			o->payloads = parse_ints(val, 0, KB_MAX_PAYLOADS, opt);
		else if (strcmp(opt, "--dists") == 0)
			o->dists = parse_dists(val);
		else if (strcmp(opt, "--log2-groups") == 0)
			o->log2_groups = parse_ints(val, 0, KB_MAX_LOG2_GROUPS, opt);
		else if (strcmp(opt, "--methods") == 0)
			o->methods = parse_methods(val);
		else if (strcmp(opt, "--reps") == 0)
			o->reps = (int) parse_long(val, 1, 1000, opt);
		else if (strcmp(opt, "--csv") == 0)
			o->csv_path = val;
		else if (strcmp(opt, "--md") == 0)
			o->md_path = val;
		else if (strcmp(opt, "--max-seconds") == 0)
			o->max_seconds = (double) parse_long(val, 0, 1000000, opt);
		else if (strcmp(opt, "--bw-gib") == 0)
			o->bw_gib = (double) parse_long(val, 1, 64, opt);
		else if (strcmp(opt, "--seed") == 0)
			o->seed = (uint64_t) parse_long(val, 0, 1L << 62, opt);
		else if (strcmp(opt, "--keyed-slots") == 0)
			keyed_slots_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--clustered") == 0)
			o->clustered = parse_on_off(val, opt);
		else if (strcmp(opt, "--planned-skew") == 0)
			planned_skew_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--lean-fast-key") == 0)
			lean_fast_key_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--lean-gid-table") == 0)
			lean_gid_table_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--rep-trace") == 0)
			rep_trace_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--lean-deferred") == 0)
			lean_deferred_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-direct") == 0)
			partition_direct_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--lean-fast-wide") == 0)
			lean_fast_wide_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-move") == 0)
			partition_move_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-lean") == 0)
			partition_lean_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-packed") == 0)
			partition_packed_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-scatter") == 0)
			partition_scatter_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-narrow-keys") == 0)
			partition_narrow_keys_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-mixed-words") == 0)
			partition_mixed_words_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-eager-publish") == 0)
			partition_eager_publish_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-gather") == 0)
			partition_gather_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-carry") == 0)
			partition_carry_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-hashed") == 0)
			partition_hashed_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-l1-reserve") == 0)
		{
			if (strcmp(val, "rule") == 0)
				partition_l1_reserve_option = GPUGB_L1_RESERVE_BY_RULE;
			else
				partition_l1_reserve_option = parse_on_off(val, opt) ? GPUGB_L1_RESERVE_ALWAYS : GPUGB_L1_RESERVE_NEVER;
		}
		else if (strcmp(opt, "--estimate-scale") == 0)
			estimate_scale_option = parse_double(val, 1e-9, 1e9, opt);
		else if (strcmp(opt, "--probe-rows") == 0)
			probe_rows_option = parse_long(val, 0, 1L << 30, opt);
		else if (strcmp(opt, "--direct-min-groups") == 0)
			direct_min_groups_option = parse_long(val, 0, 1L << 40, opt);
		else if (strcmp(opt, "--partition-probe") == 0)
		{
			bool		hash = strcmp(val, "hash") == 0;
			bool		own = !hash && parse_on_off(val, opt);

			partition_own_probe_option = own;
			partition_sort_probe_option = !hash && !own;
		}
		else if (strcmp(opt, "--observed-chao1") == 0)
			observed_chao1_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-overflow-abort") == 0)
			partition_overflow_abort_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-overflow-no-id") == 0)
			partition_overflow_no_id_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-retry-repartition") == 0)
			partition_retry_repartition_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--partition-lean-rows") == 0)
			partition_lean_rows_option = (int) parse_long(val, 0, 1 << 20, opt);
		else if (strcmp(opt, "--partition-tight") == 0)
			partition_tight_option = parse_on_off(val, opt);
		else if (strcmp(opt, "--alloc-trace") == 0)
			alloc_trace_option = parse_on_off(val, opt);
		else
			bad_option("unknown option %s", opt);
	}
}

/* ---------------------------------------------------------------------
 * gpugb runs
 * --------------------------------------------------------------------- */

/* Pinned host arrays for one fetch chunk: key, COUNT(*), and each SUM's two words. */
struct FetchBuffers
{
	int64_t    *key = nullptr;
	int64_t    *count = nullptr;
	int64_t    *lo[KB_MAX_PAYLOADS] = {};
	int64_t    *hi[KB_MAX_PAYLOADS] = {};
};

static int64_t *
pinned_array(int64_t n)
{
	void	   *p = nullptr;

	kb_cuda_check(cudaHostAlloc(&p, (size_t) n * 8, cudaHostAllocDefault),
				  "cudaHostAlloc (fetch buffers)");
	return (int64_t *) p;
}

static FetchBuffers
fetch_buffers_create(void)
{
	FetchBuffers b;

	b.key = pinned_array(FETCH_CHUNK_GROUPS);
	b.count = pinned_array(FETCH_CHUNK_GROUPS);
	for (int c = 0; c < KB_MAX_PAYLOADS; c++)
	{
		b.lo[c] = pinned_array(FETCH_CHUNK_GROUPS);
		b.hi[c] = pinned_array(FETCH_CHUNK_GROUPS);
	}
	return b;
}

/* Aggregates: aggs[0] = COUNT(*), aggs[1 + c] = SUM_INT(payload c). */
static GpugbGroupBySpec
make_spec(const KbPoint &p, GpugbStrategy strategy, bool allow_switch, int64_t estimate)
{
	GpugbGroupBySpec spec;

	memset(&spec, 0, sizeof(spec));
	spec.n_keys = 1;
	spec.n_inputs = p.payloads;
	spec.n_aggs = 1 + p.payloads;
	spec.aggs[0].op = GPUGB_AGG_COUNT_STAR;
	spec.aggs[0].input = -1;
	for (int c = 0; c < p.payloads; c++)
	{
		spec.aggs[1 + c].op = GPUGB_AGG_SUM_INT;
		spec.aggs[1 + c].input = c;
	}
	spec.estimated_groups = estimate;
	spec.estimated_rows = (double) p.rows;
	spec.stride_rows = p.rows;	/* one aggregate_device call holds every row */
	spec.device_memory_limit = 0;
	spec.strategy = strategy;
	spec.allow_switch = allow_switch;
	spec.device_resident = true;
	spec.key_fits_int32 = keyed_slots_option && p.key_bytes == 4;
	/* The payloads are int32 values (PARTITION moves them in 4 bytes). */
	spec.inputs_fit_int32 = p.payloads > 0 ? (1ull << p.payloads) - 1 : 0;
	spec.tagged_slots_only = !keyed_slots_option;
	spec.estimated_hot_share = planned_skew_option ? p.largest_share : 0;
	spec.lean_fast_key = lean_fast_key_option;
	spec.lean_fast_wide = lean_fast_wide_option;
	spec.lean_gid_off = !lean_gid_table_option;
	spec.lean_deferred = lean_deferred_option;
	spec.partition_lookup_all = !partition_direct_option;
	spec.partition_rows_only = !partition_move_option;
	spec.partition_generic_only = !partition_lean_option;
	spec.partition_lean_unpacked = !partition_packed_option;
	spec.partition_cub_sort = !partition_scatter_option;
	spec.partition_wide_sort_keys = !partition_narrow_keys_option;
	spec.partition_unmixed_words = !partition_mixed_words_option;
	spec.partition_eager_publish = partition_eager_publish_option;
	spec.partition_ungathered_values = !partition_gather_option;
	spec.partition_unhashed_keys = !partition_hashed_option;
	spec.partition_uncarried_values = !partition_carry_option;
	spec.partition_l1_reserve = (int8_t) partition_l1_reserve_option;
	spec.device_probe_rows = probe_rows_option;
	spec.device_direct_min_groups = direct_min_groups_option;
	spec.partition_sort_probe = partition_sort_probe_option;
	spec.partition_own_probe = partition_own_probe_option;
	spec.partition_lean_rows_per_key = partition_lean_rows_option;
	spec.partition_probe_unbounded = !partition_overflow_abort_option;
	spec.partition_overflow_walks_only = !partition_overflow_no_id_option;
	spec.partition_retry_repartition = partition_retry_repartition_option;
	spec.observed_uniform_only = !observed_chao1_option;
	spec.partition_move_padded = !partition_tight_option;
	return spec;
}

/*
 * The expected share of the rows of the largest group of g: the first rank
 * of Zipf(s), 1 / sum_k k^-s (datagen.cu draws ranks so), or 1/g uniform.
 */
static double
largest_share(double zipf_s, int64_t g)
{
	double		h = 0;

	if (zipf_s <= 0)
		return 1.0 / (double) g;
	for (int64_t k = g; k >= 1; k--)	/* smallest terms first, for the rounding */
		h += pow((double) k, -zipf_s);
	return 1.0 / h;
}

/*
 * The heuristic's pick for this point, from the workload the executor
 * would build for the same spec (src/strategy.c: rows, rows per launch,
 * groups, key words and the exact state-column count), so "auto" here is
 * what gpugb.strategy = auto plans for this query.
 */
static void
choose_auto(KbPoint *p, int64_t estimate, const GpugbDeviceProps *props)
{
	GpugbGroupBySpec spec = make_spec(*p, GPUGB_STRATEGY_GLOBAL_HASH, true, estimate);
	GpugbWorkload w;
	GpugbStrategyChoice choice;

	gpugb_spec_workload(&spec, &w);
	gpugb_choose_strategy(&w, props, &choice);
	p->auto_pick = choice.strategy;
	p->auto_reason = choice.reason;
}

/* The handle's result, fetched in chunks, as a checksum. */
static GpugbStatus
checksum_result(GpugbGroupBy *gb, int payloads, int64_t n_groups, const FetchBuffers &b,
				KbChecksum *cs)
{
	GpugbGroupResults out;

	memset(&out, 0, sizeof(out));
	memset(cs, 0, sizeof(*cs));
	out.key_values[0] = b.key;
	out.agg_count[0] = b.count;
	for (int c = 0; c < payloads; c++)
	{
		out.agg_value[1 + c] = b.lo[c];
		out.agg_value_hi[1 + c] = b.hi[c];
	}
	for (int64_t first = 0; first < n_groups; first += FETCH_CHUNK_GROUPS)
	{
		int64_t		n = n_groups - first < FETCH_CHUNK_GROUPS ? n_groups - first
			: FETCH_CHUNK_GROUPS;
		GpugbStatus st = gpugb_groupby_fetch(gb, first, n, &out);

		if (st != GPUGB_OK)
			return st;
		for (int64_t i = 0; i < n; i++)
		{
			kb_checksum_add_count(cs, b.key[i], b.count[i]);
			for (int c = 0; c < payloads; c++)
				kb_checksum_add_sum(cs, c, b.key[i], b.lo[c][i], b.hi[c][i]);
		}
	}
	return GPUGB_OK;
}

static std::string
gpugb_error(const char *call, GpugbStatus st)
{
	return std::string(call) + ": " + gpugb_status_name(st) + ": " + gpugb_last_error();
}

/* A CUDA error the module left behind would poison every later point. */
static void
check_device_healthy(const char *after)
{
	cudaError_t err = cudaDeviceSynchronize();

	if (err != cudaSuccess)
		kb_fatal("device unusable after %s: %s", after, cudaGetErrorString(err));
}

static void
check_no_leak(KbMeasure *m)
{
	GpugbUsage	u;

	gpugb_device_usage(&u);
	if (u.device_bytes == 0 && u.pinned_bytes == 0 && u.streams == 0 && u.handles == 0)
		return;
	char		buf[160];

	snprintf(buf, sizeof(buf), "leak after destroy: %lld device bytes, %lld pinned, %d streams, "
			 "%d handles", (long long) u.device_bytes, (long long) u.pinned_bytes, u.streams,
			 u.handles);
	fprintf(stderr, "kernelbench: WARNING: %s\n", buf);
	if (m->error.empty())
		m->error = buf;
}

/* Which parts of a result differ from the reference. */
static std::string
mismatch_text(const KbChecksum &got, const KbChecksum &ref, int payloads)
{
	char		buf[200];
	std::string differ;

	snprintf(buf, sizeof(buf), "%llu groups (reference %llu), %llu rows (reference %llu)",
			 (unsigned long long) got.groups, (unsigned long long) ref.groups,
			 (unsigned long long) got.rows, (unsigned long long) ref.rows);
	for (int a = 0; a <= payloads; a++)
		if (got.agg[a] != ref.agg[a])
			differ += (differ.empty() ? "" : " ") +
				(a == 0 ? std::string("count") : "sum" + std::to_string(a));
	return std::string(buf) + (differ.empty() ? "" : "; checksums differ: " + differ);
}

/*
 * --alloc-trace: the device allocations and frees of one timed part, summed
 * by the name the module gives each buffer (gpugb_device_set_alloc_trace),
 * to place GpugbStats.device_alloc_ms.  Names are literals: one entry a
 * distinct text.
 */
struct AllocTraceEntry
{
	const char *what;
	int			allocs,
				frees;
	int64_t		bytes;			/* allocated */
	double		alloc_ms,
				free_ms;
};

static AllocTraceEntry alloc_trace_entries[48];
static int	alloc_trace_count;
static int	alloc_trace_dropped;	/* calls under names beyond the table's */

static void
alloc_trace_record(const char *what, int64_t bytes, double ms, bool freed)
{
	const char *name = what != nullptr ? what : "(unnamed)";
	int			e;

	for (e = 0; e < alloc_trace_count && strcmp(alloc_trace_entries[e].what, name) != 0; e++)
		;
	if (e == alloc_trace_count)
	{
		if (alloc_trace_count == (int) (sizeof(alloc_trace_entries) / sizeof(alloc_trace_entries[0])))
		{
			alloc_trace_dropped++;
			return;
		}
		alloc_trace_entries[alloc_trace_count++] = AllocTraceEntry{name, 0, 0, 0, 0, 0};
	}
	if (freed)
	{
		alloc_trace_entries[e].frees++;
		alloc_trace_entries[e].free_ms += ms;
	}
	else
	{
		alloc_trace_entries[e].allocs++;
		alloc_trace_entries[e].bytes += bytes;
		alloc_trace_entries[e].alloc_ms += ms;
	}
}

/* The entries, the costliest first, one log line each. */
static void
alloc_trace_print(int method)
{
	AllocTraceEntry *t = alloc_trace_entries;

	std::sort(t, t + alloc_trace_count, [](const AllocTraceEntry &a, const AllocTraceEntry &b) {
		return a.alloc_ms + a.free_ms > b.alloc_ms + b.free_ms;
	});
	for (int e = 0; e < alloc_trace_count; e++)
		printf("      [%s] alloc trace: %-28s %2d alloc %2d free %9.1f MB  alloc %6.3f ms  free %6.3f ms\n",
			   kb_method_name(method), t[e].what, t[e].allocs, t[e].frees, t[e].bytes / 1048576.0,
			   t[e].alloc_ms, t[e].free_ms);
	if (alloc_trace_dropped > 0)
		printf("      [%s] alloc trace: %d calls under further names not listed\n", kb_method_name(method),
			   alloc_trace_dropped);
	alloc_trace_count = 0;
	alloc_trace_dropped = 0;
}

/*
 * --rep-trace: repetition rep's time and the id of its group with the most
 * rows (fetched in id order), the key and its count, on stderr.  Why: with a
 * hot group the same kernel ran at one of two speeds from one repetition to
 * the next (session 56 call 1: 4-byte keys at Zipf 1.5 over 2^14 groups, a
 * median of 3.41 ms and a minimum of 2.84 over 9 reps), and the ids, which
 * decide the hot group's slots in the block tables, come from racing claims.
 */
static void
rep_trace(GpugbGroupBy *gb, const KbMeasure *m, int64_t n_groups, const FetchBuffers &b)
{
	GpugbGroupResults out;
	int64_t		hot = -1;
	long long	hot_key = 0;
	long long	hot_count = -1;

	memset(&out, 0, sizeof(out));
	out.key_values[0] = b.key;
	out.agg_count[0] = b.count;
	for (int64_t first = 0; first < n_groups; first += FETCH_CHUNK_GROUPS)
	{
		int64_t		n = n_groups - first < FETCH_CHUNK_GROUPS ? n_groups - first : FETCH_CHUNK_GROUPS;

		if (gpugb_groupby_fetch(gb, first, n, &out) != GPUGB_OK)
			return;
		for (int64_t i = 0; i < n; i++)
			if ((long long) b.count[i] > hot_count)
			{
				hot = first + i;
				hot_key = (long long) b.key[i];
				hot_count = (long long) b.count[i];
			}
	}
	fprintf(stderr, "      rep %zu %-12s %8.3f ms  hot id %lld (id %% 32 = %lld, key %lld, %lld rows)\n",
			m->seconds.size(), kb_method_name(m->method), m->seconds.back() * 1e3, (long long) hot,
			(long long) (hot & 31), hot_key, hot_count);
}

/*
 * One timed run: create (timed apart), aggregate_device + finish (timed),
 * and on the first repetition the stats and the verification.
 */
static bool
gpugb_once(const KbDeviceData &d, const KbPoint &p, const GpugbGroupBySpec &spec,
		   const KbChecksum *ref, const FetchBuffers &b, bool first_rep, KbMeasure *m)
{
	GpugbGroupBy *gb = nullptr;
	GpugbDeviceColumns cols;
	int64_t		n_groups = 0;
	GpugbStatus st;

	memset(&cols, 0, sizeof(cols));
	cols.nrows = p.rows;
	cols.key_values[0] = d.keys;
	for (int c = 0; c < p.payloads; c++)
		cols.input_values[c] = d.payload + c * d.rows;

	check_device_healthy("the previous run or data generation");
	auto		t0 = std::chrono::steady_clock::now();

	if ((st = gpugb_groupby_create(&spec, &gb)) != GPUGB_OK)
	{
		m->error = gpugb_error("create", st);
		return false;
	}
	GpugbStats	created;

	gpugb_groupby_stats(gb, &created);	/* create's allocations, not in the timed part */

	if (alloc_trace_option && first_rep)
	{
		alloc_trace_count = 0;
		alloc_trace_dropped = 0;
		gpugb_device_set_alloc_trace(alloc_trace_record);
	}

	auto		t1 = std::chrono::steady_clock::now();

	st = gpugb_groupby_aggregate_device(gb, &cols);
	if (st == GPUGB_OK)
		st = gpugb_groupby_finish(gb, &n_groups);
	(void) cudaDeviceSynchronize();
	auto		t2 = std::chrono::steady_clock::now();

	if (alloc_trace_option && first_rep)
	{
		gpugb_device_set_alloc_trace(nullptr);
		alloc_trace_print(m->method);
	}

	if (st != GPUGB_OK)
	{
		m->error = gpugb_error("aggregate_device/finish", st);
		gpugb_groupby_destroy(gb);
		check_device_healthy(kb_method_name(m->method));
		return false;
	}
	m->seconds.push_back(std::chrono::duration<double>(t2 - t1).count());
	if (rep_trace_option)
		rep_trace(gb, m, n_groups, b);
	if (first_rep)
	{
		GpugbStats stats;
		KbChecksum cs;

		m->create_s = std::chrono::duration<double>(t1 - t0).count();
		gpugb_groupby_stats(gb, &stats);
		m->groups = n_groups;
		m->strategy_used = (int) stats.strategy_used;
		m->switches = stats.strategy_switches;
		m->table_grows = stats.table_grows;
		m->retried_rows = stats.retried_rows;
		m->retry_rounds = stats.retry_rounds;
		m->retry_partition_rounds = stats.retry_partition_rounds;
		m->kernel_ms = stats.kernel_ms;
		m->grow_ms = stats.grow_ms;
		m->retry_ms = stats.retry_ms;
		m->peak_device_bytes = stats.peak_device_bytes;
		m->one_block_launches = stats.one_block_lean_launches;
		m->one_block_partial_launches = stats.one_block_partial_lean_launches;
		m->fast_key_launches = stats.fast_key_lean_launches;
		m->fast_kernel_launches = stats.fast_lean_kernel_launches;
		m->gid_launches = stats.gid_lean_launches;
		m->gid_word_launches = stats.gid_word_lean_launches;
		m->gid_split_launches = stats.gid_split_lean_launches;
		m->gid_range_launches = stats.gid_range_lean_launches;
		m->deferred_launches = stats.deferred_lean_launches;
		m->partition_launches[0] = stats.partition_moved_launches;
		m->partition_launches[1] = stats.partition_lean_launches;
		m->partition_launches[2] = stats.partition_packed_launches;
		m->partition_launches[3] = stats.partition_scattered_launches;
		m->partition_launches[4] = stats.partition_overflow_aborts;
		m->partition_launches[5] = stats.partition_deferred_launches;
		m->partition_launches[6] = stats.partition_direct_launches;
		m->partition_launches[7] = stats.probe_restarts;
		m->partition_direct_groups = stats.partition_direct_groups;
		m->partition_narrow_sorts = stats.partition_narrow_sort_launches;
		m->partition_mixed_sorts = stats.partition_mixed_launches;
		m->partition_gathered_sorts = stats.partition_gathered_launches;
		m->partition_hashed_sorts = stats.partition_hashed_launches;
		m->partition_carried_sorts = stats.partition_carried_launches;
		m->partition_l1_reserves = stats.partition_l1_reserve_launches;
		m->groups_at_check = stats.groups_at_switch_check;
		m->alloc_s = (stats.device_alloc_ms - created.device_alloc_ms) / 1e3;
		auto		t3 = std::chrono::steady_clock::now();

		if ((st = checksum_result(gb, p.payloads, n_groups, b, &cs)) != GPUGB_OK)
		{
			m->error = gpugb_error("fetch", st);
			gpugb_groupby_destroy(gb);
			return false;
		}
		m->verify_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t3).count();
		m->verdict = ref == nullptr ? KB_UNVERIFIED
			: kb_checksum_equal(cs, *ref, p.payloads) ? KB_VERIFIED : KB_MISMATCH;
		if (m->verdict == KB_MISMATCH)
			m->error = mismatch_text(cs, *ref, p.payloads);
	}
	gpugb_groupby_destroy(gb);
	check_no_leak(m);
	return true;
}

static void
run_gpugb(const KbDeviceData &d, const KbOptions &o, const KbPoint &p, int method,
		  int64_t estimate, const KbChecksum *ref, const FetchBuffers &b, KbMeasure *m)
{
	bool		is_auto = method == KB_AUTO;
	GpugbStrategy strategy = is_auto ? p.auto_pick : (GpugbStrategy) method;
	GpugbGroupBySpec spec = make_spec(p, strategy, is_auto, estimate);

	for (int rep = 0; rep < o.reps; rep++)
		if (!gpugb_once(d, p, spec, ref, b, rep == 0, m))
		{
			m->verdict = KB_FAILED;
			m->seconds.clear();
			return;
		}
}

/* ---------------------------------------------------------------------
 * Points
 * --------------------------------------------------------------------- */

static bool
out_of_time(KbRun *run)
{
	if (run->opt.max_seconds > 0 && elapsed_s() > run->opt.max_seconds)
		run->stopped_early = true;
	return run->stopped_early;
}

static void
print_measure(const KbPoint &p, const KbMeasure &m)
{
	double		t = m.median_s();

	fprintf(stderr, "    %-12s", kb_method_name(m.method));
	if (t > 0)
		fprintf(stderr, " %8.3f G rows/s %9.2f ms  %5.2fx floor", p.rows / t / 1e9, t * 1e3,
				p.floor_s > 0 ? t / p.floor_s : 0);
	if (m.method == KB_AUTO)
		fprintf(stderr, "  pick %s", gpugb_strategy_name(p.auto_pick));
	if (m.strategy_used >= 0 && m.method != KB_THRUST)
		fprintf(stderr, "  used %s", gpugb_strategy_name((GpugbStrategy) m.strategy_used));
	if (m.one_block_launches > 0)
		fprintf(stderr, " (one-block lean table)");
	if (m.one_block_partial_launches > 0)
		fprintf(stderr, " (one-block partial lean table)");
	if (m.fast_key_launches > 0)
		fprintf(stderr, " (lean fast key)");
	if (m.fast_kernel_launches > 0)
		fprintf(stderr, " (fast lean kernel)");
	if (m.gid_launches > 0)
		fprintf(stderr, " (table indexed by group id%s)",
				m.gid_word_launches == m.gid_launches ? ", rows looked up by key word" :
				m.gid_word_launches > 0 ? ", some launches' rows looked up by key word" : "");
	if (m.gid_split_launches > 0)
		fprintf(stderr, " (group-id table once a sum%s)", m.gid_range_launches > 0 ? " and group range" : "");
	if (m.deferred_launches > 0)
		fprintf(stderr, " (ids looked up at the flush)");
	/* Which PARTITION kernel ran: auto may reach it only after the run-time check. */
	if (m.partition_launches[0] > 0)
		fprintf(stderr, " (partition launches: %lld moved, %lld lean, %lld packed, %lld scattered, %lld overflowed, %lld deferred, %lld direct, %lld restarted; %lld groups numbered directly, %lld sorts of 2-byte partitions, %lld of mixed keys, %lld of them with row numbers)",
				(long long) m.partition_launches[0], (long long) m.partition_launches[1],
				(long long) m.partition_launches[2], (long long) m.partition_launches[3],
				(long long) m.partition_launches[4], (long long) m.partition_launches[5],
				(long long) m.partition_launches[6], (long long) m.partition_launches[7],
				(long long) m.partition_direct_groups, (long long) m.partition_narrow_sorts,
				(long long) m.partition_mixed_sorts, (long long) m.partition_gathered_sorts);
	if (m.partition_carried_sorts > 0)
		fprintf(stderr, " (%lld gathered partition launches carried their sums)", (long long) m.partition_carried_sorts);
	if (m.partition_hashed_sorts > 0)
		fprintf(stderr, " (%lld partition launches sorted hashed keys)", (long long) m.partition_hashed_sorts);
	if (m.partition_l1_reserves > 0)
		fprintf(stderr, " (%lld lean partition launches left L1 its reserve)", (long long) m.partition_l1_reserves);
	if (m.groups_at_check >= 0)
		fprintf(stderr, "  %d switch(es), %lld groups at the check", m.switches,
				(long long) m.groups_at_check);
	/*
	 * Growth and retries (an estimate far too low, --estimate-scale): the
	 * launches' kernels, the growth's and the retries' (events, first
	 * repetition), so that a slow point shows which part took the time.
	 */
	if (m.method != KB_THRUST && (m.table_grows > 0 || m.retried_rows > 0))
		fprintf(stderr, "  %d grow(s) %.1f ms, %lld rows retried in %d round(s) (%d partitioned) %.1f ms, kernels %.1f ms",
				m.table_grows, m.grow_ms, (long long) m.retried_rows, m.retry_rounds,
				m.retry_partition_rounds, m.retry_ms, m.kernel_ms);
	/* Host time in cudaMalloc and cudaFree within the timed part (first repetition). */
	if (m.method != KB_THRUST && m.alloc_s > 0)
		fprintf(stderr, "  alloc %.2f ms", m.alloc_s * 1e3);
	if (m.method != KB_THRUST && m.create_s > 0)
		fprintf(stderr, "  create %.0f ms, verify %.0f ms", m.create_s * 1e3, m.verify_s * 1e3);
	fprintf(stderr, "  %s%s%s\n",
			m.verdict == KB_MISMATCH ? "*** MISMATCH ***" : kb_verdict_name(m.verdict),
			m.error.empty() ? "" : ": ", m.error.c_str());
}

static void
run_thrust(const KbDeviceData &d, const KbOptions &o, KbThrustScratch *scratch, KbPoint *p,
		   KbChecksum *ref, KbMeasure *m)
{
	for (int rep = 0; rep < o.reps; rep++)
	{
		double		s = 0;
		int64_t		groups = 0;
		KbChecksum	cs;

		if (!kb_thrust_groupby(scratch, d, p->payloads, &s, &groups, &cs, &m->error))
		{
			m->verdict = KB_FAILED;
			m->seconds.clear();
			check_device_healthy("thrust");
			return;
		}
		m->seconds.push_back(s);
		if (rep == 0)
		{
			*ref = cs;
			m->groups = groups;
			m->verdict = KB_REFERENCE;
		}
	}
	p->groups = m->groups;
}

/*
 * Every method at one point; returns false when the time budget ran out.
 * The Thrust run comes first: it is the reference and gives the true group
 * count that the handles and the heuristic are told.
 */
static bool
run_point(KbRun *run, int pi, const KbDeviceData &d, KbThrustScratch *scratch,
		  const FetchBuffers &b, const GpugbDeviceProps *props)
{
	const KbOptions &o = run->opt;
	KbPoint    &p = run->points[pi];
	KbChecksum	ref;
	KbMeasure	mt;
	int64_t		g = (int64_t) 1 << p.log2_g;

	if (out_of_time(run))
		return false;
	mt.point = pi;
	mt.method = KB_THRUST;
	run_thrust(d, o, scratch, &p, &ref, &mt);
	run->measures.push_back(mt);

	int64_t		estimate = p.groups > 0 ? p.groups : (g < p.rows ? g : p.rows);

	/* A planner's estimate off by --estimate-scale (at least one group). */
	if (estimate_scale_option != 1.0)
		estimate = (int64_t) fmax(1.0, llround((double) estimate * estimate_scale_option));

	p.largest_share = largest_share(o.dists[p.dist].s, g);
	choose_auto(&p, estimate, props);
	fprintf(stderr, "  %d-byte keys, %d payload(s), %s, g=2^%d: %lld groups, auto picks %s\n",
			p.key_bytes, p.payloads, o.dists[p.dist].name.c_str(), p.log2_g,
			(long long) p.groups, gpugb_strategy_name(p.auto_pick));
	print_measure(p, mt);
	for (int method : o.methods)
	{
		KbMeasure	m;

		if (out_of_time(run))
			return false;
		m.point = pi;
		m.method = method;
		run_gpugb(d, o, p, method, estimate, mt.ok() ? &ref : nullptr, b, &m);
		run->measures.push_back(m);
		print_measure(p, m);
	}
	return true;
}

static KbPoint
make_point(const KbRun &run, int key_bytes, int payloads, int dist, int log2_g)
{
	KbPoint		p;
	double		bytes_per_s = run.bandwidth_gbs * 1e9;

	p.key_bytes = key_bytes;
	p.payloads = payloads;
	p.dist = dist;
	p.log2_g = log2_g;
	p.rows = (int64_t) 1 << run.opt.log2_rows;
	if (bytes_per_s > 0)
	{
		p.floor_s = (double) p.rows * (1 + payloads) * 8 / bytes_per_s;
		p.floor_logical_s = (double) p.rows * (key_bytes + 4 * payloads) / bytes_per_s;
	}
	return p;
}

/* The first point once, untimed: clocks up, caches and allocator pools warm. */
static void
warm_up(KbRun *run, const KbDeviceData &d, KbThrustScratch *scratch, const FetchBuffers &b,
		const GpugbDeviceProps *props)
{
	size_t		n = run->measures.size();

	fprintf(stderr, "kernelbench: warm-up (not recorded)\n");
	(void) run_point(run, (int) run->points.size() - 1, d, scratch, b, props);
	run->measures.resize(n);
	run->stopped_early = false;
}

static void
run_all(KbRun *run, const KbDeviceData &d, KbThrustScratch *scratch, const FetchBuffers &b,
		const GpugbDeviceProps *props)
{
	const KbOptions &o = run->opt;
	bool		warmed = false;

	for (int kb : o.key_bytes)
		for (size_t di = 0; di < o.dists.size(); di++)
			for (int lg : o.log2_groups)
			{
				if (out_of_time(run))
					return;
				auto		t0 = std::chrono::steady_clock::now();

				kb_generate_keys(d, kb, o.dists[di].s, (int64_t) 1 << lg, o.seed, o.clustered);
				fprintf(stderr, "kernelbench: [%.0f s] keys %d-byte %s g=2^%d generated in %.0f ms\n",
						elapsed_s(), kb, o.dists[di].name.c_str(), lg,
						std::chrono::duration<double, std::milli>(
							std::chrono::steady_clock::now() - t0).count());
				for (int pl : o.payloads)
				{
					size_t		first = run->measures.size();

					run->points.push_back(make_point(*run, kb, pl, (int) di, lg));
					if (!warmed)
					{
						warm_up(run, d, scratch, b, props);
						warmed = true;
					}
					bool		done = run_point(run, (int) run->points.size() - 1, d, scratch,
												 b, props);

					kb_csv_append(run, first);
					if (!done)
					{
						/* A point the budget stopped before any method is not reported. */
						if (run->measures.size() == first)
							run->points.pop_back();
						return;
					}
				}
			}
}

/* ---------------------------------------------------------------------
 * Setup
 * --------------------------------------------------------------------- */

static int
max_of(const std::vector<int> &v)
{
	int			m = v[0];

	for (int x : v)
		m = x > m ? x : m;
	return m;
}

static void *
device_alloc(size_t bytes, const char *what)
{
	void	   *p = nullptr;

	kb_cuda_check(cudaMalloc(&p, bytes ? bytes : 1), what);
	return p;
}

static double
probe_bandwidth(const KbOptions &o, int sms)
{
	size_t		bytes = (size_t) (o.bw_gib * (double) (1u << 30));
	void	   *buf = device_alloc(bytes, "cudaMalloc (bandwidth probe)");
	double		gbs;

	kb_cuda_check(cudaMemset(buf, 0x5A, bytes), "cudaMemset (bandwidth probe)");
	gbs = kb_measure_bandwidth(buf, bytes, sms);
	kb_cuda_check(cudaFree(buf), "cudaFree (bandwidth probe)");
	return gbs;
}

static KbDeviceData
allocate_data(const KbOptions &o)
{
	KbDeviceData d;
	bool		zipf = false;

	for (const KbDist &dist : o.dists)
		zipf |= dist.s > 0;
	d.rows = (int64_t) 1 << o.log2_rows;
	d.keys = (int64_t *) device_alloc((size_t) d.rows * 8, "cudaMalloc (keys)");
	d.payload = (int64_t *) device_alloc((size_t) d.rows * 8 * max_of(o.payloads),
										 "cudaMalloc (payloads)");
	if (zipf)
	{
		d.cdf_capacity = (int64_t) 1 << max_of(o.log2_groups);
		d.cdf = (double *) device_alloc((size_t) d.cdf_capacity * 8, "cudaMalloc (Zipf table)");
	}
	return d;
}

static void
print_plan(const KbRun &run)
{
	const KbOptions &o = run.opt;
	size_t		points = o.key_bytes.size() * o.payloads.size() * o.dists.size() *
		o.log2_groups.size();
	size_t		free_b = 0,
				total_b = 0;

	(void) cudaMemGetInfo(&free_b, &total_b);
	fprintf(stderr, "kernelbench: %s\n", run.device.c_str());
	fprintf(stderr, "kernelbench: 2^%d rows, %zu points x (%zu gpugb methods + thrust), %d rep(s), "
			"budget %s\n", o.log2_rows, points, o.methods.size(), o.reps,
			o.max_seconds > 0 ? (std::to_string((long) o.max_seconds) + " s").c_str() : "none");
	fprintf(stderr, "kernelbench: device memory %.1f GiB free of %.1f GiB after setup\n",
			free_b / 1073741824.0, total_b / 1073741824.0);
}

int
main(int argc, char **argv)
{
	KbRun		run;
	GpugbDeviceProps props;
	int			failures = 0;

	start_time = std::chrono::steady_clock::now();
	parse_options(argc, argv, &run.opt);
	/* Load every kernel at start-up, not inside the first timed call of each. */
	setenv("CUDA_MODULE_LOADING", "EAGER", 0);

	if (gpugb_device_probe() != GPUGB_OK)
	{
		fprintf(stderr, "kernelbench: %s\n", gpugb_device_description());
		return 2;
	}
	gpugb_device_properties(&props);
	run.device = gpugb_device_description();
	the_run = &run;

	run.bandwidth_gbs = probe_bandwidth(run.opt, props.sm_count);
	fprintf(stderr, "kernelbench: read bandwidth %.0f GB/s\n", run.bandwidth_gbs);

	KbDeviceData d = allocate_data(run.opt);
	int64_t		max_groups = (int64_t) 1 << max_of(run.opt.log2_groups);
	KbThrustScratch *scratch = kb_thrust_scratch_create(d.rows, max_of(run.opt.payloads),
														max_groups);
	FetchBuffers b = fetch_buffers_create();

	kb_generate_payloads(d, max_of(run.opt.payloads), run.opt.seed);
	print_plan(run);
	kb_csv_open(&run);

	run_all(&run, d, scratch, b, &props);

	run.wall_s = elapsed_s();
	kb_csv_close();
	kb_write_markdown(run);
	if (!run.opt.md_path.empty())
		kb_print_targets(stderr, run);
	for (const KbMeasure &m : run.measures)
		failures += m.verdict == KB_MISMATCH || m.verdict == KB_FAILED;
	if (run.stopped_early)
		fprintf(stderr, "kernelbench: INCOMPLETE: --max-seconds %.0f reached after %zu points\n",
				run.opt.max_seconds, run.points.size());
	if (failures > 0)
		fprintf(stderr, "kernelbench: *** %d MISMATCH/ERROR result(s): see the report ***\n",
				failures);
	fprintf(stderr, "kernelbench: done in %.0f s\n", run.wall_s);

	the_run = nullptr;
	kb_thrust_scratch_destroy(scratch);
	return failures > 0 ? 1 : 0;
}
