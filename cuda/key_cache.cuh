/*
 * key_cache.cuh
 *    A block's cache, in shared memory, of the global table's key -> group
 *    id mapping, for the kernels of small g (SHARED_HASH, PRIVATE_HASH).
 *
 * Why: a row's lookup in the global table (gpugb_find_or_insert) is three
 * dependent L2 reads (the slot with acquire order, the group's null mask
 * and its key, both through L2), and at small g every warp of the grid
 * reads the same few lines, which serialize on their L2 slices.  The
 * kernel benchmark put PRIVATE_HASH at 5.3 ms for 2^28 rows of one group
 * against a 0.95 ms floor.  A block meets each of its groups' keys many
 * times; the cache answers all but the first from shared memory.
 *
 * An entry is (key words, null mask) -> gid, the same equality as the
 * global table's.  Slot protocol (gid word, per slot):
 *    FREE (-1) --CAS--> BUSY (-2) --store-release--> gid
 *                          \--store-release--> FREE  (no group id was left)
 * The thread that wins the CAS looks the key up in the global table, writes
 * the key words and mask, and only then publishes the gid (release, block
 * scope), so a reader that sees a gid (acquire) sees its key.  Readers
 * that find BUSY spin: the holder only waits on the global table, whose
 * holders never wait (hash_table.cuh).
 *
 * Invariants:
 *  - A published entry never changes during the launch, and the global
 *    table's key -> gid mapping never changes (growth re-inserts the same
 *    gids between launches), so a hit returns exactly what the global
 *    lookup would.
 *  - At most slots/2 entries are ever claimed (a claim reserves first), so
 *    a probe always reaches a FREE slot and ends; once full, misses go to
 *    the global table: always correct, only slower.
 *  - Only launches whose keys fit in GPUGB_KEY_CACHE_MAX_KEYS words use a
 *    cache (gpugb_key_cache_usable), decided per launch, so the shape of
 *    an entry is uniform.
 */
#ifndef GPUGB_KEY_CACHE_CUH
#define GPUGB_KEY_CACHE_CUH

#include <cuda/atomic>

#include "hash_table.cuh"
#include "../src/heuristics.h"	/* GPUGB_KEY_CACHE_MAX_KEYS, GPUGB_KEY_CACHE_BYTES */

#define GPUGB_KEY_FREE (-1)
#define GPUGB_KEY_BUSY (-2)

/*
 * Bytes of the entries' key words and null masks (the gid words are
 * extra); none without keys (SHARED_HASH's gid-keyed table).
 */
__host__ __device__ inline size_t
gpugb_key_cache_key_bytes(int n_keys, int64_t slots)
{
	return (size_t) (GPUGB_KEY_CACHE_BYTES(n_keys, slots) - GPUGB_KEY_CACHE_BYTES(0, slots));
}

/* Bytes of a whole cache: keys, masks, gid words and the claimed counter. */
__host__ __device__ inline size_t
gpugb_key_cache_bytes(int n_keys, int64_t slots)
{
	return (size_t) GPUGB_KEY_CACHE_BYTES(n_keys, slots);
}

__host__ __device__ inline bool
gpugb_key_cache_usable(int n_keys)
{
	return n_keys >= 1 && n_keys <= GPUGB_KEY_CACHE_MAX_KEYS;
}

struct GpugbKeyCache
{
	long long  *keys;			/* n_keys columns of `slots` words */
	uint32_t   *masks;
	int		   *gids;			/* FREE, BUSY or the published gid */
	unsigned   *claimed;
	int			slots;			/* a power of two */
	int			shift;			/* 32 - log2(slots) */
};

/*
 * Lays a cache out at `base` (8-byte aligned): key columns, masks, then
 * `gids` where the caller has its own gid array (SHARED_HASH's table), or
 * the cache's own, then the counter.
 */
__device__ __forceinline__ GpugbKeyCache
gpugb_key_cache_at(void *base, int n_keys, int slots, int *gids)
{
	GpugbKeyCache c;
	char	   *p = (char *) base;

	c.keys = (long long *) p;
	c.masks = (uint32_t *) (p + (size_t) 8 * n_keys * slots);
	p += gpugb_key_cache_key_bytes(n_keys, slots);
	if (gids == nullptr)
	{
		gids = (int *) p;
		p += (size_t) slots * 4;
	}
	c.gids = gids;
	c.claimed = (unsigned *) p;
	c.slots = slots;
	c.shift = 32 - (31 - __clz(slots));
	return c;
}

/* Every entry FREE, nothing claimed (block-collective; __syncthreads after). */
__device__ __forceinline__ void
gpugb_key_cache_reset(const GpugbKeyCache &c)
{
	for (int i = threadIdx.x; i < c.slots; i += blockDim.x)
		c.gids[i] = GPUGB_KEY_FREE;
	if (threadIdx.x == 0)
		*c.claimed = 0;
}

typedef cuda::atomic_ref<int, cuda::thread_scope_block> gpugb_entry_ref;

/* The cache's hash: its seed, one step a key word, and the slot of the whole key and mask. */
#define GPUGB_KEY_CACHE_SEED 0x9E3779B9u

__device__ __forceinline__ uint32_t
gpugb_key_cache_hash_step(uint32_t h, long long word)
{
	h = (h ^ (uint32_t) word) * 0x85EBCA6Bu;
	h = (h ^ (uint32_t) ((unsigned long long) word >> 32)) * 0xC2B2AE35u;
	return h ^ (h >> 16);
}

__device__ __forceinline__ unsigned
gpugb_key_cache_home(const GpugbKeyCache &c, uint32_t h, uint32_t mask)
{
	return ((h ^ mask) * 2654435761u) >> c.shift;
}

/*
 * The row's key words and null mask, and the cache slot its probe starts
 * at (every lookup of the same key must start there).
 */
__device__ __forceinline__ unsigned
gpugb_key_cache_key(const GpugbAggParams &p, const GpugbKeyCache &c, uint32_t row,
					long long key[GPUGB_KEY_CACHE_MAX_KEYS], uint32_t *mask_out)
{
	uint32_t	mask = 0;
	uint32_t	h = GPUGB_KEY_CACHE_SEED;

	for (int k = 0; k < GPUGB_KEY_CACHE_MAX_KEYS; k++)
	{
		if (k >= p.n_keys)
			break;

		bool		null;

		key[k] = gpugb_row_key(p, k, row, &null);
		mask |= (uint32_t) null << k;
		h = gpugb_key_cache_hash_step(h, key[k]);
	}
	*mask_out = mask;
	return gpugb_key_cache_home(c, h, mask);
}

/* Whether published slot idx holds this key. */
__device__ __forceinline__ bool
gpugb_key_cache_same(const GpugbAggParams &p, const GpugbKeyCache &c, unsigned idx,
					 const long long key[GPUGB_KEY_CACHE_MAX_KEYS], uint32_t mask)
{
	bool		same = c.masks[idx] == mask;

	for (int k = 0; same && k < p.n_keys && k < GPUGB_KEY_CACHE_MAX_KEYS; k++)
		same = c.keys[(size_t) k * c.slots + idx] == key[k];
	return same;
}

/*
 * A gid word with acquire order at block scope, by its shared-memory
 * address: the generic address cuda::atomic_ref takes costs every probe
 * the conversion (Nsight Compute, session 23: a quarter of the lean
 * kernel's instructions in its probe loop).
 */
__device__ __forceinline__ int
gpugb_key_cache_load_gid(const GpugbKeyCache &c, unsigned idx)
{
	int			v;

	asm volatile("ld.acquire.cta.shared.b32 %0, [%1];" : "=r"(v)
				 : "r"((unsigned) __cvta_generic_to_shared(&c.gids[idx])) : "memory");
	return v;
}

/*
 * The slot of the row's key where a block's cache already publishes it,
 * and its group id in *gid; -1 where the probe meets a FREE or BUSY slot
 * first (a key new to the block, or one being looked up): then
 * gpugb_key_cache_find, which also inserts.  Read-only, so the rows of a
 * block's known keys, nearly all of them at small g, take no atomic.
 */
__device__ __forceinline__ int
gpugb_key_cache_hit(const GpugbAggParams &p, const GpugbKeyCache &c, uint32_t row, int64_t *gid)
{
	long long	key[GPUGB_KEY_CACHE_MAX_KEYS];
	uint32_t	mask;
	unsigned	idx = gpugb_key_cache_key(p, c, row, key, &mask);

	for (;;)
	{
		int			cur = gpugb_key_cache_load_gid(c, idx);

		if (cur < 0)
			return -1;
		if (gpugb_key_cache_same(p, c, idx, key, mask))
		{
			*gid = cur;
			return (int) idx;
		}
		idx = (idx + 1) & (unsigned) (c.slots - 1);
	}
}

/*
 * gpugb_key_cache_hit for a launch of one key without NULLs (every entry's
 * mask is then 0, so the probe compares the word alone), given the key's
 * word: gpugb_lean_fast_kernel, and gpugb_lean_shared_kernel under the
 * experiment spec.lean_fast_key (lean_kernel.cuh, gpugb_lean_word_key).
 * The same hash and probe order as the general lookup, which inserts the
 * keys this one finds.
 */
__device__ __forceinline__ int
gpugb_key_cache_hit_word(const GpugbKeyCache &c, long long word, int64_t *gid)
{
	unsigned	idx = gpugb_key_cache_home(c, gpugb_key_cache_hash_step(GPUGB_KEY_CACHE_SEED, word), 0);

	for (;;)
	{
		int			cur = gpugb_key_cache_load_gid(c, idx);

		if (cur < 0)
			return -1;
		if (c.keys[idx] == word)
		{
			*gid = cur;
			return (int) idx;
		}
		idx = (idx + 1) & (unsigned) (c.slots - 1);
	}
}

/* Set in the claimed counter once a lookup found no group id left: the cache takes no more keys. */
#define GPUGB_KEY_CACHE_NO_ID_BIT 0x40000000u

/*
 * Whether the cache has claimed all the entries it may (slots/2), or found
 * no group id left (GPUGB_KEY_CACHE_NO_ID_BIT), so that a key new to it
 * gets no slot.  A plain read, so a full cache costs no
 * atomic per row; a stale or transient value only changes which path a row
 * takes, never its group id.
 */
__device__ __forceinline__ bool
gpugb_key_cache_full(const GpugbKeyCache &c)
{
	return *(volatile unsigned *) c.claimed >= (unsigned) c.slots / 2;
}

/* The global table's group id of the row's key, or of `word` where WORD (gpugb_key_cache_find). */
template <bool COALESCED, int WORD>
__device__ __forceinline__ int64_t
gpugb_key_cache_global_gid(const GpugbAggParams &p, uint32_t row, long long word)
{
	if constexpr (WORD != 0)
		return gpugb_find_or_insert_word<COALESCED, WORD == 2>(p, (int64_t) word);
	else
		return gpugb_find_or_insert<COALESCED>(p, row);
}

/*
 * Group id of the row's key (inserting it into the global table if new;
 * -1 when no id is left) and the cache slot that holds it (-1 when the
 * cache is full).  The row's key words and mask are read once here.
 * COALESCED: gpugb_find_or_insert's.  WORD (1: an int32 key in keyed slots,
 * 2: an 8-byte key in pair slots; 0: the row's): the key is `word`, not the
 * row's, in a launch of one key without NULLs, where no
 * column holds it (PARTITION's lean kernel over packed rows): the same
 * home, entry and group as a row of that key (mask 0, as
 * gpugb_key_cache_hit_word assumes).
 */
template <bool COALESCED = false, int WORD = 0>
__device__ __forceinline__ int64_t
gpugb_key_cache_find(const GpugbAggParams &p, const GpugbKeyCache &c, uint32_t row, int *slot_out,
					 long long word = 0)
{
	long long	key[GPUGB_KEY_CACHE_MAX_KEYS];
	uint32_t	mask;
	unsigned	idx;

	if constexpr (WORD != 0)
	{
		key[0] = word;
		mask = 0;
		idx = gpugb_key_cache_home(c, gpugb_key_cache_hash_step(GPUGB_KEY_CACHE_SEED, word), 0);
	}
	else
		idx = gpugb_key_cache_key(p, c, row, key, &mask);

	*slot_out = -1;
	for (;;)
	{
		gpugb_entry_ref entry(c.gids[idx]);
		int			cur = gpugb_key_cache_load_gid(c, idx);

		if (cur >= 0)
		{
			if (gpugb_key_cache_same(p, c, idx, key, mask))
			{
				*slot_out = (int) idx;
				return cur;
			}
			idx = (idx + 1) & (unsigned) (c.slots - 1);
			continue;
		}
		if (cur == GPUGB_KEY_BUSY)
			continue;			/* its holder is looking the key up: wait for it */

		/*
		 * FREE: reserve first (at most slots/2 claims keep probes finite);
		 * a plain read first, so a full cache costs no atomic per row.
		 */
		if (gpugb_key_cache_full(c))
			return gpugb_key_cache_global_gid<COALESCED, WORD>(p, row, word);
		if (atomicAdd(c.claimed, 1u) >= (unsigned) c.slots / 2)
		{
			atomicSub(c.claimed, 1u);
			return gpugb_key_cache_global_gid<COALESCED, WORD>(p, row, word);
		}
		int			expected = GPUGB_KEY_FREE;

		if (!entry.compare_exchange_strong(expected, GPUGB_KEY_BUSY, cuda::memory_order_relaxed))
		{
			atomicSub(c.claimed, 1u);
			continue;			/* someone else's key or lookup: look again */
		}

		int64_t		gid = gpugb_key_cache_global_gid<COALESCED, WORD>(p, row, word);

		if (gid < 0)
		{
			/*
			 * No group id left: the host re-runs the row; free the entry,
			 * and mark the cache full for the rest of the launch's stretch
			 * (gpugb_key_cache_full; the bit outlives the reservations
			 * still in flight, and the table's reset clears it).  Rows of
			 * the key waited on the entry: freed alone, they claimed it in
			 * turn, one global lookup at a time, for the same -1.  Where the
			 * planner's estimate was 1e5 times too low (2^22 groups
			 * planned as 42, 2^28 rows), auto's PARTITION took 34 s
			 * (H200, session 38, call 2).  Misses now look the global table
			 * up at once, as a full cache's do.
			 */
			atomicOr(c.claimed, GPUGB_KEY_CACHE_NO_ID_BIT);
			entry.store(GPUGB_KEY_FREE, cuda::memory_order_release);
			atomicSub(c.claimed, 1u);
			return -1;
		}
		for (int k = 0; k < p.n_keys && k < GPUGB_KEY_CACHE_MAX_KEYS; k++)
			c.keys[(size_t) k * c.slots + idx] = key[k];
		c.masks[idx] = mask;
		entry.store((int) gid, cuda::memory_order_release);
		*slot_out = (int) idx;
		return gid;
	}
}

/*
 * gpugb_launch_row_gid through a block's key cache: launch row i's row
 * index, group id (-1: none left; the row is appended to the retry list)
 * and cache slot (-1: none).  COALESCED: gpugb_find_or_insert's.
 */
template <bool COALESCED = false>
__device__ __forceinline__ int64_t
gpugb_cached_row_gid(const GpugbAggParams &p, const GpugbKeyCache &c, int64_t i,
					 uint32_t *row_out, int *slot_out)
{
	uint32_t	row = p.row_list != nullptr ? p.row_list[i] : (uint32_t) i;
	int64_t		gid = gpugb_key_cache_find<COALESCED>(p, c, row, slot_out);

	*row_out = row;
	if (gid < 0)
		p.retry_out[atomicAdd(p.retry_count, 1u)] = row;
	return gid;
}

#endif							/* GPUGB_KEY_CACHE_CUH */
