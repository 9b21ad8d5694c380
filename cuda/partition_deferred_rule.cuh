/*
 * partition_deferred_rule.cuh
 *    Where PARTITION's lean kernel looks group ids up at the flush
 *    (partition_deferred.cuh): the rule, shared by the kernel, which takes
 *    that path, and the host, which counts its launches
 *    (GpugbStats.partition_deferred_launches).
 *
 * The path takes packed rows (partition_move.cu) of either key width and
 * any number of sums the lean kernel takes (GPUGB_PARTITION_LEAN_MAX_SUMS),
 * where the block table is large enough for its chunks (below).
 * -DGPUGB_PARTITION_DEFERRED_GIDS=0 builds the key cache's way everywhere,
 * for A/B runs.
 */
#ifndef GPUGB_PARTITION_DEFERRED_RULE_CUH
#define GPUGB_PARTITION_DEFERRED_RULE_CUH

#include <stdint.h>

#include "gpugb_device.h"		/* GPUGB_DEFERRED_EMPTY_KEY */

#ifndef GPUGB_PARTITION_DEFERRED_GIDS
#define GPUGB_PARTITION_DEFERRED_GIDS 1
#endif

/*
 * Rows a block adds between two checks of the table's room, for a table
 * of `slots` slots (0: the table is too small for the path).  The table is
 * flushed once it holds more than 7/8 of its slots less a chunk, so a
 * probe always meets an empty slot; that threshold must be at least the
 * keys a partition is sized for (partition_strategy.cu), so that a
 * partition whose keys were estimated right is flushed once.  Those are a
 * quarter of the slots, up to 5/16 (PARTITION_FILL_SLACK in
 * src/heuristics.c); the rule checks a quarter, and the H200's tables pass
 * 5/16 too (8192 slots: 3072 >= 2560; 4096: 1536 >= 1280).
 * 4096 rows (four steps of 1024 threads, one barrier) where the table
 * allows, as with one sum (8192 slots on the H200); fewer, down to one
 * step, for the 4096 slots of two to four sums.
 */
static inline __host__ __device__ int
gpugb_deferred_chunk_rows(int slots)
{
	for (int rows = 4096; rows >= 1024; rows /= 2)
		if ((int64_t) slots * 7 / 8 - rows >= slots / 4)
			return rows;
	return 0;
}

/*
 * Whether a packed launch of `n_values` sums over a key of `key_words`
 * words (1: int32, 2: 8 bytes, GPUGB_MIXED_KEY_WORDS: an int32 mixed
 * above one sum, GPUGB_GATHERED_KEY_WORDS: an int32 mixed, two to four
 * sums read through row numbers, GPUGB_CARRIED_KEY_WORDS: the same with
 * two sums sorted beside the keys, GPUGB_HASHED_KEY_WORDS: an 8-byte key's
 * hash beside one to four sums, gpugb_device.h) whose lean table has
 * `slots` slots takes the path.  The kernel's instances know n_values and key_words at
 * compile time.
 */
static inline __host__ __device__ bool
gpugb_partition_deferred_applies(int n_values, int key_words, int slots)
{
	return GPUGB_PARTITION_DEFERRED_GIDS && n_values <= GPUGB_PARTITION_LEAN_MAX_SUMS &&
		(key_words == 1 || key_words == 2 ||
		 (GPUGB_PARTITION_MIXED_KEYS && key_words == GPUGB_MIXED_KEY_WORDS && n_values == 1) ||
		 (GPUGB_PARTITION_MIXED_KEYS && key_words == GPUGB_GATHERED_KEY_WORDS && n_values >= 2) ||
		 (GPUGB_PARTITION_MIXED_KEYS && key_words == GPUGB_CARRIED_KEY_WORDS && n_values >= 2 &&
		  n_values <= GPUGB_CARRIED_MAX_SUMS) ||
		 (key_words == GPUGB_HASHED_KEY_WORDS && n_values >= 1)) &&
		gpugb_deferred_chunk_rows(slots) > 0;
}

/*
 * SHARED_HASH's one-block table with ids looked up at the flush
 * (cuda/lean_deferred_kernel.cuh, an experiment): from this many groups
 * expected.  Below, the fast kernel's first-row lookups are few (a block
 * meets each key once), and it ran within 1.9x of the floor at 2^10
 * (H200, 2^28 rows, one payload: 1.74 ms).
 */
#define GPUGB_LEAN_DEFERRED_MIN_GROUPS 2048

/*
 * ...and at most this many sums: the launches it was measured on (one
 * payload; four never reached a one-block table at these groups).  Each
 * more would add two kernel instances to cuda/launch.cu's build.
 */
#define GPUGB_LEAN_DEFERRED_MAX_SUMS 1

/*
 * Rows between two checks of that table's room, `slots` slots, for
 * `groups` groups expected: the most of 4096, 2048 and 1024 whose flush
 * threshold (7/8 of the slots less a chunk, as gpugb_deferred_stretch
 * keeps) holds them all, so that a block whose groups were estimated right
 * flushes once, at its end; 0 where none does (the table is not taken).
 * 8192 slots (one sum on the H200) hold 4096 groups with 2048 rows.
 */
static inline __host__ __device__ int
gpugb_lean_deferred_chunk_rows(int slots, double groups)
{
	for (int rows = 4096; rows >= 1024; rows /= 2)
		if ((double) ((int64_t) slots * 7 / 8 - rows) >= groups)
			return rows;
	return 0;
}

#endif							/* GPUGB_PARTITION_DEFERRED_RULE_CUH */
