/*
 * partition_deferred.cuh
 *    PARTITION's lean kernel over packed rows, with the block table keyed
 *    by the key word alone and every group id looked up at the flush, not
 *    when a key first comes.  Where it applies: partition_deferred_rule.cuh.
 *
 * Why: the lean kernel's key cache (key_cache.cuh) publishes a key only
 * with its group id, so a key's first row in a stretch looks the key up in
 * the global table inside the row loop, one lane at a time while the
 * warp's other lanes wait: at 2^22 groups a warp had 18 of its 32 lanes
 * active on average, at 2^24 (16 rows a key) 14, and the kernel took 5.3
 * and 10.1 ms (H200, 2^28 rows, one payload, Nsight Compute, session 42
 * calls 3 and 5).  test/kernelbench/partition_bound.cu's region phase, whose
 * block table looks each group up once at the end of its region, does the
 * same partitions' work in 2.8 and 4.7 ms (its "global" design, call 5).
 *
 * Here a row claims its key's slot with a shared-memory CAS of the key word
 * and adds itself there; the flush, after the stretch (or a chunk of it, as
 * below), lists the claimed slots, looks each listed key up
 * (gpugb_find_or_insert_word) and adds the slot's states to its group, all
 * lanes busy, then empties the listed slots.  Listing them (session 46)
 * made forced PARTITION 1.12-1.38x as fast at 2^24-2^26 groups and
 * 0.97-1.04x at 2^22 (H200, 2^28 rows, both key widths, one and four
 * payloads, uniform and Zipf 1.0, 3 reps, session 46 call 2): the walk of
 * every slot had kept about 8 lanes of a warp busy.
 *
 * Measured (H200, 2^28 rows, forced PARTITION against the key cache's way,
 * 2^16-2^24 groups, session 43 calls 1 and 2): 4-byte keys, one payload,
 * Zipf 1.0 1.05-1.45x, uniform 0.97-1.02x; four payloads up to 1.28x
 * (Zipf 1.0) and 1.05-1.11x (uniform); 8-byte keys 1.02-1.36x.  At 4 rows
 * a key (2^26 groups) it beats sort by 1.13-1.46x (call 3), so the lean
 * kernel runs from 3 rows a key (GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY).
 * First written for an int32 key and one sum (session 42); 8-byte keys and
 * two to four sums since session 43.
 *
 * Invariants:
 *  - Room: the table takes the stretch's rows in chunks of at most
 *    gpugb_deferred_chunk_rows(slots); before a chunk whose new keys could
 *    take the table past 7/8 of its slots it is flushed and emptied.  So a
 *    probe always meets an EMPTY slot, and no row ever lacks a slot.
 *  - An 8-byte key equal to GPUGB_DEFERRED_EMPTY_KEY has no slot (nor, in
 *    SHARED_HASH's columns, a row with a value beyond int32: the row
 *    sources' `unslotted`): its rows go to the retry list as they come,
 *    unadded, and the rescan below skips them, so each is listed once.
 *  - A lookup that gets no group id (a full global table) leaves its slot
 *    FAILED; then every row added to the table since it was last emptied
 *    is looked for in it again (the keys stay in place until then, so the
 *    probes find them), and the rows of FAILED slots go to the retry list
 *    by position.  Their states are dropped with the slot: nothing of those
 *    rows reached the global states, and the retries add them once.
 *  - Once the launch is overflowed (p.overflow, seen at a chunk's end),
 *    the table's keys get no lookup (all FAILED, as the lean kernel lists a
 *    warp's remaining rows, gpugb_retry_warp_rest), and the rest of the
 *    stretch, and every later stretch of the block, goes to the retry list
 *    unadded.
 *  - Every barrier is reached by every thread: the chunks, the flushes and
 *    the early return follow from the stretch's bounds and from values
 *    every thread reads alike after a barrier (GpugbDeferredCount,
 *    __syncthreads_or).
 */
#ifndef GPUGB_PARTITION_DEFERRED_CUH
#define GPUGB_PARTITION_DEFERRED_CUH

#include "lean_fast_kernel.cuh"
#include "partition_deferred_rule.cuh"
#if GPUGB_PARTITION_MIXED_KEYS
#include "key_mix.cuh"
#endif
#include "split_values.cuh"

/* A slot whose lookup got no group id (in the table's gid word; 0 otherwise). */
#define GPUGB_DEFERRED_FAILED 1

/*
 * Where the deferred table's rows come from, and which of them take no
 * slot (listed for retry as they come, and skipped by the rescan).
 * PARTITION's packed rows (a key of KW words, int32 values): only an
 * 8-byte key equal to GPUGB_DEFERRED_EMPTY_KEY.
 */
template <int NV, int KW>
struct GpugbDeferredPackedRows
{
	const void *rows;
	int64_t		n;				/* the launch's rows: where the split layouts' parts begin */

#if GPUGB_PARTITION_MIXED_KEYS
	/*
	 * The gathered layout (key_mix.cuh) is read in two steps: the row
	 * number of sorted position i (stage, a coalesced load), then its
	 * mixed key (the block table's key, sign-extended as a mixed word's)
	 * and the values of its row through it (fetch).  gpugb_deferred_stretch
	 * stages a step before it fetches, so the fetch need not wait for it.
	 */
	static constexpr bool staged = KW == GPUGB_GATHERED_KEY_WORDS;

	__device__ __forceinline__ uint32_t stage(int64_t i, int64_t end) const
	{
		return i < end ? __ldg((const uint32_t *) rows + n + i) : 0u;
	}

	/* Row `row`'s values: one aligned 8- or 16-byte load. */
	__device__ __forceinline__ GpugbSplitValues<NV> values_of(uint32_t row) const
	{
		static_assert(NV >= 2 && NV <= 4, "gathered rows hold two to four sums");
		return gpugb_split_load_values<NV>(rows, n, row);
	}

	__device__ __forceinline__ GpugbLeanRowInputs<NV> fetch(uint32_t row, int64_t i, int64_t end) const
	{
		GpugbLeanRowInputs<NV> in = {};

		if (i < end)
		{
			const GpugbSplitValues<NV> v = values_of(row);

			in.key = (long long) (int32_t) __ldg((const uint32_t *) rows + i);
#pragma unroll
			for (int a = 0; a < NV; a++)
				in.w[a] = (long long) (int32_t) v.w[a];
		}
		return in;
	}
#else
	static constexpr bool staged = false;
#endif

	__device__ __forceinline__ GpugbLeanRowInputs<NV> load(int64_t i, int64_t end) const
	{
		/*
		 * Sums in sorted order (split_values.cuh) beside the block table's
		 * keys: hashed rows' key hashes, or carried rows' mixed keys
		 * (sign-extended, as a mixed word's).
		 */
		if constexpr (KW == GPUGB_HASHED_KEY_WORDS || KW == GPUGB_CARRIED_KEY_WORDS)
		{
			GpugbLeanRowInputs<NV> in = {};

			if (i < end)
			{
				const GpugbSplitValues<NV> v = gpugb_split_load_values<NV>(rows, n, i);

				if constexpr (KW == GPUGB_HASHED_KEY_WORDS)
					in.key = (long long) __ldg((const unsigned long long *) rows + i);
				else
					in.key = (long long) (int32_t) __ldg((const uint32_t *) rows + i);
#pragma unroll
				for (int a = 0; a < NV; a++)
					in.w[a] = (long long) (int32_t) v.w[a];
			}
			return in;
		}
		else
#if GPUGB_PARTITION_MIXED_KEYS
		if constexpr (KW == GPUGB_GATHERED_KEY_WORDS)
			return fetch(stage(i, end), i, end);
		else
		/* One 8-byte word: the mixed key (the block table's key) above the value. */
		if constexpr (KW == GPUGB_MIXED_KEY_WORDS)
		{
			GpugbLeanRowInputs<NV> in = {};

			static_assert(NV == 1, "mixed rows hold one sum");
			if (i < end)
			{
				unsigned long long word = __ldg((const unsigned long long *) rows + i);

				in.key = (long long) gpugb_mixed_word_key(word);
				in.w[0] = (long long) gpugb_mixed_word_value(word);
			}
			return in;
		}
		else
#endif
			return gpugb_lean_packed_load<NV, KW>(rows, i, end);
	}
	/* An 8-byte block-table key (a hashed row's hash too) may be the EMPTY key. */
	static constexpr bool may_be_unslotted = GPUGB_KEY_WORDS_8_BYTES(KW);

	__device__ __forceinline__ bool unslotted(const GpugbLeanRowInputs<NV> &in) const
	{
		return may_be_unslotted && in.key == GPUGB_DEFERRED_EMPTY_KEY;
	}
};

/*
 * The slot holding `key`, claiming an EMPTY one on the way (room is the
 * caller's: see above); *won: this call claimed it.
 */
__device__ __forceinline__ int
gpugb_deferred_slot(const GpugbLeanTable &t, long long key, bool *won)
{
	unsigned	idx = gpugb_key_cache_home(t.cache, gpugb_key_cache_hash_step(GPUGB_KEY_CACHE_SEED, key), 0);

	*won = false;
	for (;;)
	{
		long long	k = *(volatile long long *) &t.cache.keys[idx];

		if (k == key)
			return (int) idx;
		if (k == GPUGB_DEFERRED_EMPTY_KEY)
		{
			k = (long long) atomicCAS((unsigned long long *) &t.cache.keys[idx],
									  (unsigned long long) GPUGB_DEFERRED_EMPTY_KEY, (unsigned long long) key);
			if (k == GPUGB_DEFERRED_EMPTY_KEY)
			{
				*won = true;
				return (int) idx;
			}
			if (k == key)
				return (int) idx;
		}
		idx = (idx + 1) & (unsigned) (t.slots - 1);
	}
}

/* The slot already holding `key` (every row added since the table was emptied has one). */
__device__ __forceinline__ int
gpugb_deferred_find(const GpugbLeanTable &t, long long key)
{
	unsigned	idx = gpugb_key_cache_home(t.cache, gpugb_key_cache_hash_step(GPUGB_KEY_CACHE_SEED, key), 0);

	for (;;)
	{
		long long	k = t.cache.keys[idx];

		if (k == key)
			return (int) idx;
		if (k == GPUGB_DEFERRED_EMPTY_KEY)
			__trap();			/* a row added to the table without its key: a bug */
		idx = (idx + 1) & (unsigned) (t.slots - 1);
	}
}

/* Lane's row i to the retry list where `list`: one atomic a warp.  Warp-collective. */
__device__ __forceinline__ void
gpugb_deferred_list_rows(const GpugbAggParams &p, bool list, int64_t i, unsigned lane)
{
	unsigned	mask = __ballot_sync(GPUGB_FULL_MASK, list);
	unsigned	at = 0;

	if (mask == 0u)
		return;
	if (lane == 0)
		at = atomicAdd(p.retry_count, (unsigned) __popc(mask));
	at = __shfl_sync(GPUGB_FULL_MASK, at, 0);
	if (list)
		p.retry_out[at + __popc(mask & ((1u << lane) - 1u))] = (uint32_t) i;
}

/*
 * One warp step's rows (lane's row i below `end`) added to their slots; a
 * row that takes no slot (rows.unslotted: the key GPUGB_DEFERRED_EMPTY_KEY
 * of 8-byte keys, or a value beyond int32 in SHARED_HASH's columns) listed
 * for retry instead.  Warp-collective.
 */
template <int NV, int KW, class Rows>
__device__ __forceinline__ void
gpugb_deferred_warp_rows(const GpugbAggParams &p, const GpugbLeanTable &t, const Rows &rows,
						 const GpugbLeanRowInputs<NV> &in, int64_t i, int64_t end, unsigned *claimed, unsigned lane)
{
	bool		valid = i < end;

	if constexpr (Rows::may_be_unslotted)
	{
		bool		unkeyed = valid && rows.unslotted(in);

		gpugb_deferred_list_rows(p, unkeyed, i, lane);
		valid = valid && !unkeyed;
	}

	bool		won = false;
	int			slot = valid ? gpugb_deferred_slot(t, in.key, &won) : -1;
	unsigned	claims = __ballot_sync(GPUGB_FULL_MASK, won);

	if (lane == 0 && claims != 0u)
		atomicAdd(claimed, (unsigned) __popc(claims));	/* one atomic a warp step */
	int			v[NV > 0 ? NV : 1];

#pragma unroll
	for (int a = 0; a < NV; a++)
		v[a] = valid ? (int) in.w[a] : 0;	/* packed values are int32 words */
	gpugb_lean_add_warp_rows<NV>(t, v, valid, slot, lane);
}

/* Rows [begin, end) to the retry list by position, a warp's 32 at a time (block-collective loop). */
__device__ __forceinline__ void
gpugb_deferred_retry_rows(const GpugbAggParams &p, int64_t begin, int64_t end, unsigned lane)
{
	int64_t		base = begin + (threadIdx.x & ~31u);

	if (base < end)
		gpugb_retry_warp_rest(p, base, end, blockDim.x, lane);
}

/*
 * The flush's list of claimed slots, in the key cache's mask column (which
 * this table does not use) after GpugbDeferredCount's two counters: word
 * 2 counts the slots listed, words 3.. hold them.  A flush starts with
 * at most 7/8 of the slots claimed (the room rule), so the list fits; a
 * trap guards it, as gpugb_deferred_find guards the rows' slots.
 */
#define GPUGB_DEFERRED_LIST_COUNT 2
#define GPUGB_DEFERRED_LIST_FIRST 3

#ifndef GPUGB_DEFERRED_FLUSH_COMPACT
#define GPUGB_DEFERRED_FLUSH_COMPACT 1
#endif

/*
 * Lists the table's claimed slots (block-collective, after __syncthreads;
 * one shared atomic a warp) and returns how many, the same in every
 * thread.  Why: at about a quarter full, a walk of every slot kept some 8
 * lanes of a warp busy, each with a chain of dependent global round trips
 * (slot load, CAS, the group-id counter, key and state stores, the adds),
 * and 8 such steps a thread made the flush about 123 us a partition
 * against 40 for test/kernelbench/partition_bound.cu's (H200, 2^24 groups,
 * session 45).  Listed, the lookups keep every lane busy, and the lanes
 * that claim new groups together take their ids with one atomic
 * (gpugb_take_group_id<true>).
 */
__device__ __forceinline__ int
gpugb_deferred_list_claimed(const GpugbLeanTable &t, unsigned lane)
{
	unsigned   *list = (unsigned *) t.cache.masks;

	for (int base = (int) (threadIdx.x & ~31u); base < t.slots; base += blockDim.x)
	{
		const int	s = base + (int) lane;
		const bool	claimed = s < t.slots && t.cache.keys[s] != GPUGB_DEFERRED_EMPTY_KEY;
		const unsigned mask = __ballot_sync(GPUGB_FULL_MASK, claimed);
		unsigned	at = 0;

		if (mask == 0u)
			continue;
		if (lane == 0)
			at = atomicAdd(&list[GPUGB_DEFERRED_LIST_COUNT], (unsigned) __popc(mask));
		at = __shfl_sync(GPUGB_FULL_MASK, at, 0);
		if (GPUGB_DEFERRED_LIST_FIRST + at + (unsigned) __popc(mask) > (unsigned) t.slots)
			__trap();			/* the list outgrew the mask column: the room rule is broken, a bug */
		if (claimed)
			list[GPUGB_DEFERRED_LIST_FIRST + at + __popc(mask & ((1u << lane) - 1u))] = (unsigned) s;
	}
	__syncthreads();
	return (int) *(volatile unsigned *) &list[GPUGB_DEFERRED_LIST_COUNT];
}

/*
 * The group key of a block-table key: mixed rows' and gathered rows' keys
 * are mixed (GPUGB_PARTITION_MIXED_KEYS), hashed rows' are the key's hash.
 */
template <int KW>
__device__ __forceinline__ int64_t
gpugb_deferred_group_key(long long key)
{
	if constexpr (KW == GPUGB_HASHED_KEY_WORDS)
		return gpugb_unhash_word((uint64_t) key);
#if GPUGB_PARTITION_MIXED_KEYS
	if constexpr (GPUGB_KEY_WORDS_MIXED(KW))
		return gpugb_unmixed_key((uint32_t) key);
#endif
	return (int64_t) key;
}

/* Claimed slot s's group looked up and its states added, or the slot marked FAILED (*failed). */
template <int NV, int KW>
__device__ __forceinline__ void
gpugb_deferred_flush_slot(const GpugbAggParams &p, const GpugbStates &global, const GpugbLeanTable &t, int s,
						  bool overflowed, bool *failed)
{
	/* Coalesced claims: the lanes that claim together take their ids with one atomic. */
	int64_t		gid = overflowed ? -1 :
		gpugb_find_or_insert_word<true, GPUGB_KEY_WORDS_8_BYTES(KW)>(p, gpugb_deferred_group_key<KW>(t.cache.keys[s]));

	if (gid >= 0)
		gpugb_lean_slot_flush<NV, false>(p, global, t, s, (int) gid);
	else
	{
		t.cache.gids[s] = GPUGB_DEFERRED_FAILED;
		*failed = true;
	}
}

/*
 * Slot s's states stored as those of group gid, a group the direct flush
 * just numbered: its states are still the identities the table was filled
 * with (0 for the rows' count and SUM_INT's two words), and no other
 * thread writes them during the launch (the publish comes after it).  So
 * plain stores give what gpugb_lean_slot_flush's adds would, without the
 * int128 add's returned atomic, whose round trip the block's barrier
 * waits for, and without L2 reading the identities from DRAM first.
 * GPUGB_DIRECT_FLUSH_STORES (gpugb_device.h) chooses it.
 */
template <int NV>
__device__ __forceinline__ void
gpugb_deferred_slot_store(const GpugbAggParams &p, const GpugbStates &global, const GpugbLeanTable &t, int s,
						  int64_t gid)
{
	p.counts[gid] = (unsigned long long) t.counts[s];	/* count column 0, as the adds */
#pragma unroll
	for (int a = 0; a < NV; a++)
	{
		const long long sum = gpugb_lean_slot_sum(t, a, s);

		global.values[p.vals[a].value_col * global.pitch + gid] = (unsigned long long) sum;
		if (sum < 0)
			global.values_hi[p.vals[a].hi_col * global.pitch + gid] = -1;	/* the int128's sign */
	}
}

/*
 * The flush of a whole partition's keys (`direct`: the stretch was its
 * partition's every row, in one table, and the launch was the first on an
 * empty global table, so no other block and no earlier launch ever met
 * these keys): the block takes consecutive ids for its listed slots with
 * one atomic on the group counter and gives each slot's states to its new
 * group (stored: gpugb_deferred_slot_store; added with atomics where
 * GPUGB_DIRECT_FLUSH_STORES is 0), with no lookup in the global table.  The groups reach the slot
 * table after the launch (gpugb_publish_groups_kernel), which finds them by
 * GPUGB_GROUP_UNPUBLISHED in their null-mask word.  A slot whose id would
 * pass max_groups is FAILED, as a lookup that found no id left, and the
 * launch overflows (gpugb_probe_no_id).
 *
 * Why: at 2^22-2^26 groups a partition holds about 2000 keys, and each
 * lookup of the flush is a chain of dependent round trips to L2 (the slot's
 * load and CAS, the id counter, the key's store, the publish).  Here the
 * only round trip is the block's one atomic.
 * Block-collective, after gpugb_deferred_list_claimed's barrier.
 */
template <int NV, int KW>
__device__ __forceinline__ void
gpugb_deferred_flush_direct(const GpugbAggParams &p, const GpugbStates &global, const GpugbLeanTable &t,
							const unsigned *list, int listed, bool *failed)
{
	unsigned   *first_word = (unsigned *) t.cache.masks + t.slots - 1;

	if (threadIdx.x == 0)
	{
		unsigned long long first = atomicAdd(p.group_counter, (unsigned long long) listed);
		unsigned long long max_groups = (unsigned long long) p.max_groups;

		/* As gpugb_claim_slot: the one flush whose ids pass max_groups raises the flag. */
		if (first <= max_groups && first + (unsigned long long) listed > max_groups)
			*(volatile unsigned int *) p.groups_exhausted = 1u;
		*first_word = (unsigned) (first < max_groups ? first : max_groups);
	}
	__syncthreads();

	const int64_t first = *(volatile unsigned *) first_word;

	for (int j = threadIdx.x; j < listed; j += blockDim.x)
	{
		const int	s = (int) list[j];
		const int64_t gid = first + j;

		if (gid < p.max_groups)
		{
			p.group_keys[gid] = gpugb_deferred_group_key<KW>(t.cache.keys[s]);
			p.group_nulls[gid] = GPUGB_GROUP_UNPUBLISHED;
#if GPUGB_DIRECT_FLUSH_STORES
			gpugb_deferred_slot_store<NV>(p, global, t, s, gid);
#else
			gpugb_lean_slot_flush<NV, false>(p, global, t, s, (int) gid);
#endif
		}
		else
		{
			t.cache.gids[s] = GPUGB_DEFERRED_FAILED;
			gpugb_probe_no_id(p);
			*failed = true;
		}
	}
}

/* Slot s emptied: no key, no states, not FAILED. */
template <int NV>
__device__ __forceinline__ void
gpugb_deferred_empty_slot(const GpugbLeanTable &t, int s)
{
	t.cache.keys[s] = GPUGB_DEFERRED_EMPTY_KEY;
	t.cache.gids[s] = 0;
	t.counts[s] = 0;
#pragma unroll
	for (int a = 0; a < 2 * NV; a++)
		t.sums[(size_t) a * t.slots + s] = 0;
}

/*
 * Adds every claimed slot's states to its group (looked up now), or under
 * `direct` stores them as a new group's (gpugb_deferred_flush_direct), then
 * empties the table; where a lookup got no group id, first lists the rows
 * of [first, end) whose slot it was (the file comment).  `overflowed`:
 * the launch was, so no lookups (any thread's view: each slot is one
 * thread's).  Block-collective, after __syncthreads; leaves the table empty.
 */
template <int NV, int KW, class Rows>
__device__ __forceinline__ void
gpugb_deferred_flush(const GpugbAggParams &p, const GpugbLeanTable &t, const Rows &rows, int64_t first,
					 int64_t end, bool overflowed, bool direct, unsigned lane)
{
	const GpugbStates global = gpugb_global_states(p);
	bool		failed = false;
#if GPUGB_DEFERRED_FLUSH_COMPACT
	const unsigned *list = (const unsigned *) t.cache.masks + GPUGB_DEFERRED_LIST_FIRST;
	const int	listed = gpugb_deferred_list_claimed(t, lane);

	/*
	 * The id block's first word sits beyond the list (the room rule leaves
	 * at least 1/8 of the column).  The choice must be the block's own: the
	 * direct flush holds a barrier.  `overflowed` is not (at a stretch's
	 * end each thread reads the flag itself), so it does not choose: the
	 * direct flush needs no lookup, and its ids past max_groups fail as a
	 * lookup in a full table would (review of session 48: a launch that
	 * overflowed while a block ended a whole stretch split its threads
	 * between the two).
	 */
	if (direct && GPUGB_DEFERRED_LIST_FIRST + listed < t.slots - 1)
		gpugb_deferred_flush_direct<NV, KW>(p, global, t, list, listed, &failed);
	else
		for (int j = threadIdx.x; j < listed; j += blockDim.x)
			gpugb_deferred_flush_slot<NV, KW>(p, global, t, (int) list[j], overflowed, &failed);
#else
	for (int s = threadIdx.x; s < t.slots; s += blockDim.x)
		if (t.cache.keys[s] != GPUGB_DEFERRED_EMPTY_KEY)
			gpugb_deferred_flush_slot<NV, KW>(p, global, t, s, overflowed, &failed);
#endif
	if (__syncthreads_or(failed))
	{
		for (int64_t base = first + (threadIdx.x & ~31u); base < end; base += blockDim.x)
		{
			int64_t		i = base + lane;
			bool		retry = false;

			if (i < end)
			{
				GpugbLeanRowInputs<NV> in = rows.load(i, end);

				/* A row without a slot (the EMPTY key) was listed when it came. */
				retry = !rows.unslotted(in) && t.cache.gids[gpugb_deferred_find(t, in.key)] == GPUGB_DEFERRED_FAILED;
			}
			gpugb_deferred_list_rows(p, retry, i, lane);
		}
		__syncthreads();
	}
#if GPUGB_DEFERRED_FLUSH_COMPACT
	/* Only listed slots hold anything; every thread read `listed` before the barrier above. */
	for (int j = threadIdx.x; j < listed; j += blockDim.x)
		gpugb_deferred_empty_slot<NV>(t, (int) list[j]);
	if (threadIdx.x == 0)
		((unsigned *) t.cache.masks)[GPUGB_DEFERRED_LIST_COUNT] = 0u;
#else
	for (int s = threadIdx.x; s < t.slots; s += blockDim.x)
		gpugb_deferred_empty_slot<NV>(t, s);
#endif
	__syncthreads();
}

/*
 * The block's claim counting across chunks, the same in every thread:
 * claims of chunk c go to counters[c & 1], which only grow; after the
 * barrier that ends chunk c every thread reads counters[c & 1], which
 * nobody adds to again before the barrier that ends chunk c + 1 (chunk
 * c + 2 adds to it only after that).  So one barrier a chunk, where a
 * decision word written by thread 0 between two barriers took two.
 */
struct GpugbDeferredCount
{
	unsigned   *counters;		/* two words in the table's mask column */
	unsigned	chunk;			/* chunks taken by the block */
	unsigned	seen0,			/* counters[0] and [1] when last read (scalars: */
				seen1;			/* an array indexed by parity sat in local memory) */
	unsigned	held;			/* keys claimed since the table was emptied */
	bool		overflowed;		/* the block saw the launch overflowed (it stays so) */
};

/*
 * One stretch [begin, end) of `rows` (a partition's packed rows, or a
 * block's share of SHARED_HASH's columns: lean_deferred_kernel.cuh), in
 * chunks of chunk_rows (gpugb_deferred_chunk_rows, or
 * gpugb_lean_deferred_chunk_rows), with the table empty before and after.
 * direct: the stretch may take its ids without lookups
 * (gpugb_deferred_flush_direct) if it needs no flush before its end.
 * Each warp loads its next row a step ahead, as the lean kernel's AHEAD
 * loop does (gpugb_lean_fast_rows).  Thread 0 loads the launch's overflow
 * flag as a chunk starts, and the chunk's closing barrier
 * (__syncthreads_or) hands it to every thread.  Block-collective.
 */
template <int NV, int KW, class Rows>
__device__ __forceinline__ void
gpugb_deferred_stretch(const GpugbAggParams &p, const GpugbLeanTable &t, const Rows &rows, int64_t begin,
					   int64_t end, GpugbDeferredCount &count, int chunk_rows, bool direct = false)
{
	const unsigned lane = threadIdx.x & 31u;
	const unsigned threshold = (unsigned) ((int64_t) t.slots * 7 / 8 - chunk_rows);
	int64_t		first = begin;		/* the first row the table holds */

	/* Once overflowed, the rest goes to the retry list unadded (no shared memory, no barrier). */
	if (count.overflowed)
	{
		gpugb_deferred_retry_rows(p, begin, end, lane);
		return;
	}
	for (int64_t chunk = begin; chunk < end; chunk += chunk_rows)
	{
		const int64_t chunk_end = min(chunk + chunk_rows, end);
		const unsigned parity = count.chunk & 1u;
		unsigned	flag = threadIdx.x == 0 ? gpugb_launch_overflow_flag(p) : 0u;
		int64_t		base = chunk + (threadIdx.x & ~31u);

		if constexpr (Rows::staged)
		{
			/*
			 * Gathered rows: each step fetches the next step's rows through
			 * the row numbers staged a step before, and stages the step
			 * after: a fetch waits on no load of its own row number.
			 */
			if (base < chunk_end)
			{
				uint32_t	staged = rows.stage(base + blockDim.x + lane, chunk_end);
				GpugbLeanRowInputs<NV> next = rows.load(base + lane, chunk_end);

				for (; base < chunk_end; base += blockDim.x)
				{
					const GpugbLeanRowInputs<NV> cur = next;

					if (base + blockDim.x < chunk_end)
					{
						next = rows.fetch(staged, base + blockDim.x + lane, chunk_end);
						staged = rows.stage(base + 2 * (int64_t) blockDim.x + lane, chunk_end);
					}
					gpugb_deferred_warp_rows<NV, KW>(p, t, rows, cur, base + lane, chunk_end,
													 &count.counters[parity], lane);
				}
			}
		}
		else if (base < chunk_end)
		{
			GpugbLeanRowInputs<NV> next = rows.load(base + lane, chunk_end);

			for (; base < chunk_end; base += blockDim.x)
			{
				const GpugbLeanRowInputs<NV> cur = next;

				if (base + blockDim.x < chunk_end)
					next = rows.load(base + blockDim.x + lane, chunk_end);
				gpugb_deferred_warp_rows<NV, KW>(p, t, rows, cur, base + lane, chunk_end, &count.counters[parity],
												 lane);
			}
		}

		const bool	overflowed = __syncthreads_or(flag != 0u) != 0;
		const unsigned now = *(volatile unsigned *) &count.counters[parity];

		count.held += now - (parity ? count.seen1 : count.seen0);
		if (parity)
			count.seen1 = now;
		else
			count.seen0 = now;
		count.chunk++;
		if (overflowed)
		{
			count.overflowed = true;
			gpugb_deferred_flush<NV, KW>(p, t, rows, first, chunk_end, true, false, lane);
			count.held = 0;
			gpugb_deferred_retry_rows(p, chunk_end, end, lane);
			return;
		}
		if (count.held > threshold && chunk_end < end)
		{
			gpugb_deferred_flush<NV, KW>(p, t, rows, first, chunk_end, false, false, lane);
			count.held = 0;
			first = chunk_end;
		}
	}
	/* Ids without lookups only for a partition's every key at once: no flush before this one. */
	gpugb_deferred_flush<NV, KW>(p, t, rows, first, end, gpugb_launch_overflow_flag(p) != 0u, direct && first == begin,
								 lane);
	count.held = 0;
}

#endif							/* GPUGB_PARTITION_DEFERRED_CUH */
