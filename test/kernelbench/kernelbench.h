/*
 * kernelbench.h
 *    Shared declarations of the standalone kernel benchmark (issue 3,
 *    item 5): options, measured points, the order-independent result
 *    checksum, and the interfaces of its translation units:
 *      kernelbench.cu     options, the measurement loop, gpugb runs
 *      datagen.cu         keys, payloads and the bandwidth probe on the device
 *      thrust_baseline.cu sort_by_key + reduce_by_key, the reference result
 *      report.cu          CSV and markdown output
 *
 * Data representation: gpugb's device format is one int64 word per row per
 * column.  A "4-byte key" is an int4-like key (values fit in 32 bits,
 * sign-extended into its word); a payload is an int32 value in a word.  So
 * the device reads 8 bytes per column per row whatever the logical width,
 * and the report gives both floors (logical bytes and bytes actually read).
 */
#ifndef KERNELBENCH_H
#define KERNELBENCH_H

#include <stdint.h>
#include <stdio.h>
#include <string>
#include <vector>

#include "gpugb_device.h"
#include "heuristics.h"
#include "strategy.h"

#ifdef __CUDACC__
#define KB_HD __host__ __device__
#else
#define KB_HD
#endif

/* Payload columns the program supports (the issue needs 1 and 4). */
#define KB_MAX_PAYLOADS 4
/* Largest row and group counts: row indices and ranks stay in 32 bits. */
#define KB_MAX_LOG2_ROWS 30
#define KB_MAX_LOG2_GROUPS 30

/* ---------------------------------------------------------------------
 * Methods, distributions, options
 * --------------------------------------------------------------------- */

/*
 * Methods 0 .. GPUGB_N_STRATEGIES - 1 are the device strategies forced, in
 * the order and with the names of GpugbStrategy (gpugb_strategy_name), so a
 * new strategy is a new method, run by default and reported, without a list
 * to edit here; then auto and the Thrust baseline.
 */
enum KbMethod
{
	KB_GLOBAL_HASH = GPUGB_STRATEGY_GLOBAL_HASH,
	KB_SHARED_HASH = GPUGB_STRATEGY_SHARED_HASH,
	KB_SORT = GPUGB_STRATEGY_SORT,
	KB_PARTITION = GPUGB_STRATEGY_PARTITION,
	KB_PRIVATE_HASH = GPUGB_STRATEGY_PRIVATE_HASH,
	KB_N_FORCED = GPUGB_N_STRATEGIES,
	KB_AUTO = KB_N_FORCED,		/* gpugb_choose_strategy's pick, switching allowed */
	KB_THRUST,					/* naive baseline and reference */
	KB_N_METHODS
};

/* A forced strategy: the method's value is its GpugbStrategy. */
inline bool
kb_method_forced(int method)
{
	return method >= 0 && method < KB_N_FORCED;
}

/* "global_hash", ..., "private_hash", "auto", "thrust"; "?" out of range. */
const char *kb_method_name(int method);

struct KbDist
{
	std::string name;			/* "uniform", "zipf0.5", ... */
	double		s;				/* Zipf exponent; 0 = uniform */
};

struct KbOptions
{
	int			log2_rows = 28;
	std::vector<int> key_bytes{4, 8};
	std::vector<int> payloads{1, 4};
	std::vector<KbDist> dists;
	std::vector<int> log2_groups;
	std::vector<int> methods;	/* gpugb methods to run; thrust always runs */
	int			reps = 1;
	double		max_seconds = 450;	/* 0 = no budget */
	double		bw_gib = 4;		/* size of the bandwidth probe's buffer */
	uint64_t	seed = 1;
	bool		clustered = false;	/* rows sorted by key (--clustered) */
	std::string csv_path;
	std::string md_path;
	std::string command;		/* argv, for the report */
};

/* ---------------------------------------------------------------------
 * Results
 * --------------------------------------------------------------------- */

/* Order-independent checksum of a group-by result. */
struct KbChecksum
{
	uint64_t	groups;
	uint64_t	rows;			/* sum of COUNT(*) over groups */
	uint64_t	agg[1 + KB_MAX_PAYLOADS];	/* [0] COUNT(*), [1 + c] SUM(payload c) */
};

enum KbVerdict
{
	KB_REFERENCE,				/* thrust: the result others are checked against */
	KB_VERIFIED,
	KB_MISMATCH,
	KB_FAILED,					/* the method returned an error */
	KB_UNVERIFIED				/* no reference (thrust failed) */
};

const char *kb_verdict_name(KbVerdict v);

/* One (key_bytes, payloads, dist, log2_g) combination. */
struct KbPoint
{
	int			key_bytes;
	int			payloads;
	int			dist;			/* index into options.dists */
	int			log2_g;
	int64_t		rows;
	int64_t		groups = -1;	/* distinct keys present (thrust's count); -1 unknown */
	GpugbStrategy auto_pick = GPUGB_STRATEGY_GLOBAL_HASH;
	std::string auto_reason;
	double		floor_s = 0;	/* rows * (1 + payloads) * 8 bytes / bandwidth */
	double		floor_logical_s = 0;	/* rows * (key_bytes + 4 * payloads) / bandwidth */
	double		largest_share = 0;	/* the largest group's expected share of the rows */
};

/* One method at one point: one CSV row. */
struct KbMeasure
{
	int			point;			/* index into the points vector */
	int			method;
	KbVerdict	verdict = KB_FAILED;
	std::string error;
	std::vector<double> seconds;	/* one per repetition */
	double		create_s = 0;	/* handle creation (not in seconds) */
	double		verify_s = 0;	/* fetch + checksum of the first repetition (not in seconds) */
	int64_t		groups = -1;
	int			strategy_used = -1;
	int			switches = 0;
	int			table_grows = 0;
	int64_t		retried_rows = 0;	/* stats.retried_rows, and where the time went (first repetition) */
	int			retry_rounds = 0;
	int			retry_partition_rounds = 0;	/* of those, PARTITION launches (--partition-retry-repartition) */
	double		kernel_ms = 0,
				grow_ms = 0,
				retry_ms = 0;
	int64_t		peak_device_bytes = 0;
	int64_t		one_block_launches = 0;	/* stats.one_block_lean_launches (the log marks them) */
	int64_t		one_block_partial_launches = 0;	/* stats.one_block_partial_lean_launches */
	int64_t		fast_key_launches = 0;	/* stats.fast_key_lean_launches (--lean-fast-key) */
	int64_t		fast_kernel_launches = 0;	/* stats.fast_lean_kernel_launches (--lean-fast-key) */
	int64_t		gid_launches = 0;	/* stats.gid_lean_launches (the table indexed by group id) */
	int64_t		gid_word_launches = 0;	/* stats.gid_word_lean_launches (of those, rows looked up by key word) */
	int64_t		gid_split_launches = 0;	/* stats.gid_split_lean_launches (of those, once a sum) */
	int64_t		gid_range_launches = 0;	/* stats.gid_range_lean_launches (of those, by group range too) */
	int64_t		deferred_launches = 0;	/* stats.deferred_lean_launches (ids looked up at the flush) */
	int64_t		partition_launches[8] = {0, 0, 0, 0, 0, 0, 0, 0};	/* stats.partition_{moved,lean,packed,scattered}_launches, partition_overflow_aborts, partition_{deferred,direct}_launches, probe_restarts */
	int64_t		partition_direct_groups = 0;	/* stats.partition_direct_groups */
	int64_t		partition_narrow_sorts = 0;	/* stats.partition_narrow_sort_launches */
	int64_t		partition_mixed_sorts = 0;	/* stats.partition_mixed_launches */
	int64_t		partition_gathered_sorts = 0;	/* stats.partition_gathered_launches */
	int64_t		partition_carried_sorts = 0;	/* stats.partition_carried_launches */
	int64_t		partition_hashed_sorts = 0;	/* stats.partition_hashed_launches */
	int64_t		partition_l1_reserves = 0;	/* stats.partition_l1_reserve_launches */
	int64_t		groups_at_check = -1;	/* stats.groups_at_switch_check (-1: no run-time check) */
	double		alloc_s = 0;	/* stats.device_alloc_ms after create to after finish (in seconds) */

	bool		ok() const { return verdict == KB_REFERENCE || verdict == KB_VERIFIED; }
	double		median_s() const;
	double		min_s() const;
};

struct KbRun
{
	KbOptions	opt;
	std::string device;
	double		bandwidth_gbs = 0;	/* measured read bandwidth, 1e9 bytes/s */
	std::vector<KbPoint> points;
	std::vector<KbMeasure> measures;
	bool		stopped_early = false;
	double		wall_s = 0;
};

/* ---------------------------------------------------------------------
 * Hashing and the checksum (host and device)
 * --------------------------------------------------------------------- */

/* splitmix64's finalizer: a bijection on 64 bits (xor-shifts, odd multipliers). */
KB_HD inline uint64_t
kb_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Murmur3's 32-bit finalizer: a bijection on 32 bits. */
KB_HD inline uint32_t
kb_mix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85EBCA6Bu;
	h ^= h >> 13;
	h *= 0xC2B2AE35u;
	return h ^ (h >> 16);
}

KB_HD inline void
kb_checksum_add_count(KbChecksum *cs, int64_t key, int64_t count)
{
	cs->groups += 1;
	cs->rows += (uint64_t) count;
	cs->agg[0] += kb_mix64((uint64_t) key) * (uint64_t) count;
}

/* An int128 sum (lo, hi); a different key weight per column catches swaps. */
KB_HD inline void
kb_checksum_add_sum(KbChecksum *cs, int c, int64_t key, int64_t lo, int64_t hi)
{
	uint64_t	w = kb_mix64((uint64_t) key + 0x9E3779B97F4A7C15ull * (uint64_t) (c + 1));

	cs->agg[1 + c] += w * ((uint64_t) lo + (uint64_t) hi * 0x100000001B3ull);
}

KB_HD inline void
kb_checksum_merge(KbChecksum *a, const KbChecksum &b)
{
	a->groups += b.groups;
	a->rows += b.rows;
	for (int i = 0; i < 1 + KB_MAX_PAYLOADS; i++)
		a->agg[i] += b.agg[i];
}

bool		kb_checksum_equal(const KbChecksum &a, const KbChecksum &b, int payloads);

/* ---------------------------------------------------------------------
 * Data generation (per row, so the host tests the device's logic)
 * --------------------------------------------------------------------- */

/* A uniform 64-bit hash of (row, stream): independent streams per use. */
KB_HD inline uint64_t
kb_row_hash(uint64_t row, uint64_t stream, uint64_t seed)
{
	return kb_mix64(row * 0x9E3779B97F4A7C15ull + kb_mix64(stream ^ (seed << 8)));
}

/*
 * Key of a group rank: an invertible scramble, so keys are unique per rank
 * but not dense small integers (which would flatter any hash table).  A
 * 4-byte key is an int32 value sign-extended into its word.
 */
KB_HD inline int64_t
kb_key_of_rank(uint64_t rank, int key_bytes, uint64_t seed)
{
	if (key_bytes == 4)
		return (int64_t) (int32_t) kb_mix32((uint32_t) rank ^ (uint32_t) kb_mix64(seed));
	return (int64_t) kb_mix64(rank ^ kb_mix64(seed + 1));
}

/* The smallest rank r with cdf[r] > target (g - 1 if none: rounding at the top). */
KB_HD inline uint64_t
kb_zipf_rank(const double *cdf, uint64_t g, double target)
{
	uint64_t	lo = 0,
				hi = g - 1;

	while (lo < hi)
	{
		uint64_t	mid = lo + (hi - lo) / 2;

		if (cdf[mid] > target)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Key of row `row`: rank uniform over [0, g) (multiply-high of a hash), or
 * Zipf through the inverse of the unnormalised CDF (cdf[g-1] == total).
 */
KB_HD inline int64_t
kb_key_of_row(uint64_t row, uint64_t g, const double *cdf, double total, int key_bytes,
			  uint64_t seed)
{
	uint64_t	h = kb_row_hash(row, 0, seed);
	uint64_t	rank;

	if (cdf == nullptr)
	{
#ifdef __CUDA_ARCH__
		rank = __umul64hi(h, g);
#else
		rank = (uint64_t) (((unsigned __int128) h * g) >> 64);
#endif
	}
	else
		rank = kb_zipf_rank(cdf, g, (double) (h >> 11) * 0x1.0p-53 * total);
	return kb_key_of_rank(rank, key_bytes, seed);
}

/* Payload column c of row `row`: an int32 in [-2^19, 2^19), sign-extended. */
KB_HD inline int64_t
kb_payload_of_row(uint64_t row, int c, uint64_t seed)
{
	uint32_t	h = (uint32_t) kb_row_hash(row, 1 + (uint64_t) c, seed);

	return (int64_t) ((int32_t) h >> 12);
}

/* datagen.cu: device buffers; CUDA errors are fatal (kb_fatal). */
struct KbDeviceData
{
	int64_t		rows = 0;
	int64_t    *keys = nullptr;		/* rows words */
	int64_t    *payload = nullptr;	/* KB_MAX_PAYLOADS columns of rows words */
	double	   *cdf = nullptr;		/* Zipf CDF, 2^max log2_g doubles */
	int64_t		cdf_capacity = 0;
};

void		kb_generate_payloads(const KbDeviceData &d, int ncols, uint64_t seed);
void		kb_generate_keys(const KbDeviceData &d, int key_bytes, double zipf_s, int64_t g,
							 uint64_t seed, bool clustered);
double		kb_measure_bandwidth(const void *buf, size_t bytes, int sm_count);

/* thrust_baseline.cu: returns false (with *error) when thrust failed. */
struct KbThrustScratch;
KbThrustScratch *kb_thrust_scratch_create(int64_t rows, int max_payloads, int64_t max_groups);
void		kb_thrust_scratch_destroy(KbThrustScratch *s);
bool		kb_thrust_groupby(KbThrustScratch *s, const KbDeviceData &d, int payloads,
							  double *seconds, int64_t *groups, KbChecksum *cs,
							  std::string *error);

/* report.cu */
void		kb_csv_open(KbRun *run);
void		kb_csv_append(KbRun *run, size_t first_measure);
void		kb_csv_close(void);
void		kb_write_markdown(const KbRun &run);
void		kb_print_targets(FILE *f, const KbRun &run);

/* kernelbench.cu: prints, writes whatever was measured, exits 2. */
[[noreturn]] void kb_fatal(const char *fmt, ...);
void		kb_cuda_check(int err, const char *what);

#endif							/* KERNELBENCH_H */
