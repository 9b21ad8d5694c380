/*
 * kernel_params.cuh
 *    The plain structs passed by value to the aggregation kernels, and the
 *    identities/encodings both the host and the device must agree on.
 *
 * Layout of the dense group storage (all arrays indexed by group id, gid):
 *   group_keys    n_keys columns of int64, column k at [k * max_groups]
 *   group_nulls   one uint32 null mask per group (bit k = key k is NULL;
 *                 GPUGB_GROUP_UNPUBLISHED while a group is in no slot)
 *   counts        n_counts columns of int64: column 0 rows, the others the
 *                 NULL inputs of one input each (fetch returns rows - NULLs)
 *   values        n_values columns of uint64 (int64, double bits, or the
 *                 order-preserving float encoding for MIN/MAX_FLOAT)
 *   values_hi     n_his columns of int64 (high word of SUM_INT, low double
 *                 of SUM_SHIFTED*)
 * Columns are max_groups apart, so growing the table moves every column.
 *
 * Several aggregates over the same input share one count column (sum, avg,
 * min and max of x all need "non-null x seen"), and that column counts the
 * NULLs, which are rare: inputs without NULLs cost no count atomics.
 */
#ifndef GPUGB_KERNEL_PARAMS_CUH
#define GPUGB_KERNEL_PARAMS_CUH

#include <stdint.h>

#include "gpugb_device.h"
#include "gpugb_fsum.h"

#define GPUGB_MAX_COUNTS (GPUGB_MAX_INPUTS + 1)

/* Slot words of the open-addressing table. */
#define GPUGB_SLOT_EMPTY 0ull
#define GPUGB_SLOT_LOCKED 1ull
/* A published slot is (tag << 32) | gid with the tag's top bit forced on, so
 * it can never equal EMPTY or LOCKED. */
#define GPUGB_TAG_BIT 0x80000000u
/*
 * The null-mask word of a group whose id PARTITION's deferred flush gave
 * without a slot (partition_deferred.cuh, gpugb_deferred_flush_direct),
 * until gpugb_publish_groups_kernel puts it in one (and the word back to
 * 0): right after the launch, or on a device-resident handle before the
 * next lookup (groupby.cu, gpugb_publish_pending).  Such a group has one key word without NULLs,
 * so a real mask never has this bit.
 */
#define GPUGB_GROUP_UNPUBLISHED 0x80000000u
/* Formats of a table's slots (GpugbAggParams.slot_format; hash_table.cuh). */
#define GPUGB_SLOTS_TAGGED 0	/* 8 bytes: (tag << 32) | gid; keys in the dense arrays */
#define GPUGB_SLOTS_KEYED32 1	/* 8 bytes: one int32 key word and the gid */
#define GPUGB_SLOTS_PAIR 2		/* 16 bytes: one key word, and NULL bit and gid */

/*
 * 32-bit words a row of `words` key and value words moves in with
 * PARTITION's sort (cuda/partition_move.cu): padded to 2, 4 or 6, whole
 * 8-byte words for CUB, or 3 where `tight` (an 8-byte key and one 4-byte
 * value: 12 bytes a row where the padded row takes 16, so each radix pass
 * moves 16 bytes a row instead of 20).  The 12-byte rows made forced
 * PARTITION 1.05-1.21x faster with 8-byte keys and one payload at
 * 2^14-2^22 groups, uniform and Zipf 1.0 (H200, 2^28 rows, session 33,
 * call 1: kernelbench --partition-tight off against on, every result
 * verified); spec.partition_move_padded keeps the padded rows for A/B runs.
 */
__host__ __device__ constexpr int
gpugb_moved_row_words(int words, bool tight = false)
{
	return words <= 2 ? 2 : words == 3 && tight ? 3 : words <= 4 ? 4 : (words + 1) / 2 * 2;
}

/*
 * ...and of the rows PARTITION's lean kernel reads packed: a key of
 * key_words words (an int32 in one, an 8-byte key in two) and n_values
 * int32 values, tight where that applies (an 8-byte key and one value).
 */
__host__ __device__ constexpr int
gpugb_packed_row_words(int key_words, int n_values)
{
	return gpugb_moved_row_words(key_words + n_values, key_words == 2 && n_values == 1);
}
/*
 * Keyed slots (one int32 key word): a published slot is
 * (uint32 key << 32) | (NULL << 31) | (gid + 2); gid + 2 >= 2 keeps it off
 * EMPTY and LOCKED, so a table in this format holds at most this many groups.
 */
#define GPUGB_KEYED_SLOT_NULL 0x80000000ull
#define GPUGB_KEYED_SLOT_GID_MASK 0x7FFFFFFFull
#define GPUGB_KEYED_SLOT_MAX_GROUPS (0x7FFFFFFFll - 2)
/*
 * Pair slots (one key word of any value): slot i is words 2i (the key word
 * XOR GPUGB_PAIR_KEY_SALT; 0 until its claimer writes it) and 2i + 1 (the
 * state: EMPTY, LOCKED or (NULL << 63) | (gid + 2)).  The salt makes the
 * unwritten key word stand for an unlikely key rather than 0.
 */
#define GPUGB_PAIR_SLOT_NULL 0x8000000000000000ull
#define GPUGB_PAIR_SLOT_GID_MASK 0x7FFFFFFFFFFFFFFFull
#define GPUGB_PAIR_KEY_SALT 0x9E3779B97F4A7C15ull
#define GPUGB_PAIR_KEY_UNSET 0ull

/* Canonical NaN: PostgreSQL treats all NaNs as equal and above +Infinity. */
#define GPUGB_CANONICAL_NAN 0x7FF8000000000000ull
/* -0.0 is the exact additive identity of IEEE doubles (-0 + x == x for all x). */
#define GPUGB_NEG_ZERO_BITS 0x8000000000000000ull

/* Identity of the value column of an aggregate (stored representation). */
static inline __host__ __device__ uint64_t
gpugb_value_identity(int op)
{
	switch (op)
	{
		case GPUGB_AGG_SUM_FLOAT:
			return GPUGB_NEG_ZERO_BITS;
		case GPUGB_AGG_MIN_INT:
			return (uint64_t) INT64_MAX;
		case GPUGB_AGG_MAX_INT:
			return (uint64_t) INT64_MIN;
		case GPUGB_AGG_MIN_FLOAT:
			return ~0ull;		/* above the encoding of every double */
		case GPUGB_AGG_SHIFT_FLOAT:
			return GPUGB_SHIFT_UNSET;
		default:				/* SUM_INT lo word, MAX_FLOAT (below everything),
								 * SUM_SHIFTED* (+0.0) */
			return 0;
	}
}

/*
 * Order-preserving encoding of a double as uint64 under PostgreSQL's float
 * order (-Inf < ... < -0 <= +0 < ... < +Inf < NaN): flip all bits of
 * negatives, set the sign bit of positives.  Every NaN is first replaced by
 * the canonical positive quiet NaN, whose encoding is the largest.
 */
static inline __host__ __device__ uint64_t
gpugb_float_encode(uint64_t bits)
{
	if ((bits & 0x7FF0000000000000ull) == 0x7FF0000000000000ull &&
		(bits & 0x000FFFFFFFFFFFFFull) != 0)
		bits = GPUGB_CANONICAL_NAN;
	return (bits & 0x8000000000000000ull) ? ~bits : (bits | 0x8000000000000000ull);
}

static inline __host__ __device__ uint64_t
gpugb_float_decode(uint64_t enc)
{
	return (enc & 0x8000000000000000ull) ? (enc & ~0x8000000000000000ull) : ~enc;
}

/* One value-producing aggregate (everything but COUNT_STAR / COUNT). */
struct GpugbValueAgg
{
	const int64_t *values;		/* device input column */
	const uint8_t *nulls;		/* NULL: no nulls in this stride */
	int32_t		op;				/* GpugbAggOp */
	int32_t		value_col;		/* column in `values` */
	int32_t		hi_col;			/* column in `values_hi`: SUM_INT, SUM_SHIFTED* */
	int32_t		shift_col;		/* SUM_SHIFTED*: the value column of the group's K */
};

struct GpugbAggParams
{
	/* Rows of this launch: row i is row_list[i] if row_list, else i. */
	int64_t		nrows;
	const uint32_t *row_list;

	/* Group keys of the stride. */
	int32_t		n_keys;
	int32_t		n_counts;
	int32_t		n_values;
	int32_t		lean_fast_key;	/* spec.lean_fast_key (the lean kernel's test: gpugb_lean_fast_key) */
	int32_t		lean_fast_wide;	/* spec.lean_fast_wide (cuda/launch.cu, fast_kernel_wide_slots) */
	int32_t		lean_gid_off;	/* spec.lean_gid_off (cuda/launch.cu, lean_gid_slots) */
	const int64_t *key_values[GPUGB_MAX_KEYS];
	const uint8_t *key_nulls[GPUGB_MAX_KEYS];	/* NULL: no nulls */

	/*
	 * Count column 0 counts every row; column c > 0 counts rows whose
	 * count_nulls[c] byte is set (none if NULL: the launch has no NULLs).
	 */
	const uint8_t *count_nulls[GPUGB_MAX_COUNTS];
	GpugbValueAgg vals[GPUGB_MAX_AGGS];

	/* The table and the dense group storage. */
	unsigned long long *slots;
	uint64_t	slot_mask;		/* capacity - 1 */
	/* GPUGB_SLOTS_*: what a slot holds (hash_table.cuh). */
	int32_t		slot_format;
	/*
	 * Nonzero: a lookup that finds no group id left does not raise
	 * `overflow` (below); only a walk past GPUGB_PROBE_OVERFLOW_STEPS does
	 * (spec.partition_overflow_walks_only, an experiment).
	 */
	int32_t		overflow_on_walks_only;
	int64_t		max_groups;
	unsigned long long *group_counter;
	/* Set once a claim found no id left (gpugb_claim_slot); its own line. */
	unsigned int *groups_exhausted;
	int64_t    *group_keys;
	uint32_t   *group_nulls;
	unsigned long long *counts;
	unsigned long long *values;
	long long  *values_hi;

	/* Rows that found no room: appended here (capacity >= nrows). */
	uint32_t   *retry_out;
	unsigned int *retry_count;
	/*
	 * NULL but for PARTITION's lean and generic launches (none under
	 * spec.partition_probe_unbounded): a lookup that walks more than
	 * GPUGB_PROBE_OVERFLOW_STEPS slots or finds no group id left sets it and
	 * sends its row to the retry list (gpugb_probe).  The lean kernel then
	 * sends the rest of its rows there unread (gpugb_lean_fast_rows); the
	 * generic kernel's global lookups give up at once
	 * (gpugb_partition_global_find), so the rows of every key new to a
	 * block go there.
	 */
	unsigned int *overflow;

	/*
	 * SORT: launch row i belongs to the run that starts at run_start[i],
	 * whose group id its head looked up once: run_gid[run_start[i]] (-1:
	 * no id left, the row is retried).  NULL: every row looks itself up.
	 */
	const uint32_t *run_start;
	const int64_t *run_gid;

	/*
	 * 1: SHARED_HASH's one-block table may look its ids up at the flush
	 * (cuda/launch.cu, lean_deferred_chunk_rows): the experiment
	 * spec.lean_deferred, and every summed input declared to fit int32
	 * (spec.inputs_fit_int32), since a row whose value does not fit is
	 * retried through the global table there.  Last, so that the fields
	 * before it keep their offsets (a struct that holds the params, as
	 * move_row.cuh's GpugbRowPacker does, still moves its later fields).
	 */
	int32_t		lean_deferred;
	/*
	 * 1: SHARED_HASH may take the table indexed by group id before the
	 * keyed tables (cuda/launch.cu, gpugb_lean_gid_first): the handle's plan
	 * chose it, and the global table is as large as that plan sized it
	 * (GpugbGroupBy.lean_gid_first).  Last, as lean_deferred.
	 */
	int32_t		lean_gid_first;
};

/*
 * Where a launch keeps group states: the global dense columns (pitch =
 * max_groups) or one block's shared-memory table (pitch = its slots).
 */
struct GpugbStates
{
	unsigned long long *counts;
	unsigned long long *values;
	long long  *values_hi;
	int64_t		pitch;
};

#endif							/* GPUGB_KERNEL_PARAMS_CUH */
