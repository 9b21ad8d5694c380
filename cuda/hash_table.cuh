/*
 * hash_table.cuh
 *    Device code of the global open-addressing (linear probing) hash table
 *    that maps a group key to a dense group id.
 *
 * Slot protocol (one 64-bit word per slot):
 *    EMPTY (0) --CAS--> LOCKED (1) --store-release--> (tag << 32) | gid
 *                           \--store--> EMPTY   (no group id was left)
 * The thread that wins the CAS takes gid from group_counter (in the lean
 * kernels' slow path one atomicAdd for the lanes that claim together,
 * gpugb_take_group_id<true>), writes the key into the dense arrays
 * and only then publishes the slot (release order), so any reader that
 * sees the published word (acquire order) sees the key; keyed slots publish
 * relaxed, their readers needing only the word (below).  Readers that find
 * LOCKED spin: the holder never waits on anything, and sm_70+ independent
 * thread scheduling guarantees it makes progress even when it is a lane of
 * the spinning warp.
 *
 * Invariants:
 *  - A published slot never changes again, and a LOCKED slot always ends
 *    published or EMPTY; so a key lives at the first slot of its probe
 *    sequence that it could claim, and two threads inserting the same key
 *    can never publish it twice.
 *  - At most max_groups < capacity slots (the fill factor, table.cu) are
 *    ever published, so probing always reaches an EMPTY slot and ends.
 *  - group_counter may run past max_groups (every failed claim still
 *    incremented it); the host clamps it before using it as a count.
 *  - A LOCKED slot goes back to EMPTY only when its claimer found no group
 *    id left; so a reader that saw it so knows the table is full for this
 *    launch, and sends its row to the retry list (gpugb_probe).
 *  - NULL keys are hashed and stored as value 0 plus their null-mask bit, so
 *    (values, mask) equality is GROUP BY equality.
 *
 * Keyed slots (p.slot_format GPUGB_SLOTS_KEYED32: one key word, always an int32 value; the
 * spec's key_fits_int32): a published word is the key itself,
 * (uint32 key << 32) | (NULL << 31) | (gid + 2), so equality is one compare
 * of the word's upper 33 bits and a lookup reads nothing but the slot.  The
 * tagged format costs a lookup three dependent L2 reads (slot, null mask,
 * key), and on the H200 the global table's lookups and atomics kept L2 93 %
 * busy at 2^16 groups (Nsight Compute, docs/session17-2026-11-27).  The
 * word carries everything a reader needs, so readers load it relaxed: no
 * acquire, which orders later loads behind it.  And the claimer publishes
 * it relaxed: no release, whose fence (MEMBAR.GPU) waited a round trip to
 * L2 on every new group.  The release only ordered the dense key arrays
 * before the word, and no kernel reads those for a keyed table (only
 * gpugb_row_matches, the tagged format's): fetch and growth's rehash read
 * them after the launch, and a group's states are filled with identities
 * before any launch that can claim it (table.cu), so a reader that takes
 * the id from the word needs nothing else the claimer wrote.
 *
 * Pair slots (p.slot_format GPUGB_SLOTS_PAIR: one key word of any value,
 * int8, timestamp, a text code...): 16 bytes, the salted key word and a
 * state word, EMPTY, LOCKED or (NULL << 63) | (gid + 2) (kernel_params.cuh).
 * The claimer writes the key word and then publishes the state (release).
 * A reader loads both words relaxed, in either order: a published state
 * with a written key word is the final pair (each word changes once), and
 * an unwritten key word (GPUGB_PAIR_KEY_UNSET, the salt's key) is read
 * again after an acquire load of the state, which orders it behind the
 * claimer's write.  So a lookup reads one 16-byte slot, where the tagged
 * format reads three words and pays the acquire (below) on every probe.
 */
#ifndef GPUGB_HASH_TABLE_CUH
#define GPUGB_HASH_TABLE_CUH

#include <cuda/atomic>
#include <cooperative_groups.h>

#include "kernel_params.cuh"

/* Murmur3's 64-bit finaliser: full avalanche, cheap, robust on dense keys. */
__device__ __forceinline__ uint64_t
gpugb_fmix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return k;
}

/* A row's hash starts here (gpugb_hash_row, gpugb_find_or_insert_word). */
#define GPUGB_HASH_SEED 0x243F6A8885A308D3ull

__device__ __forceinline__ uint64_t
gpugb_hash_step(uint64_t h, uint64_t word)
{
	return gpugb_fmix64(h ^ word) + 0x9E3779B97F4A7C15ull;
}

__device__ __forceinline__ uint64_t
gpugb_hash_finish(uint64_t h, uint32_t nullmask)
{
	return gpugb_fmix64(h ^ ((uint64_t) nullmask << 1) ^ 0x5851F42D4C957F2Dull);
}

/* Key k of a stride row, NULL canonicalised to 0. */
__device__ __forceinline__ int64_t
gpugb_row_key(const GpugbAggParams &p, int k, uint32_t row, bool *is_null)
{
	const uint8_t *nulls = p.key_nulls[k];
	bool		null = nulls != nullptr && nulls[row] != 0;

	*is_null = null;
	return null ? 0 : p.key_values[k][row];
}

__device__ __forceinline__ uint64_t
gpugb_hash_row(const GpugbAggParams &p, uint32_t row, uint32_t *nullmask_out)
{
	uint64_t	h = GPUGB_HASH_SEED;
	uint32_t	mask = 0;

	for (int k = 0; k < p.n_keys; k++)
	{
		bool		null;
		int64_t		v = gpugb_row_key(p, k, row, &null);

		mask |= (uint32_t) null << k;
		h = gpugb_hash_step(h, (uint64_t) v);
	}
	*nullmask_out = mask;
	return gpugb_hash_finish(h, mask);
}

/*
 * gpugb_hash_row's hash of a row whose one key, never NULL, is `key`:
 * PARTITION's packed rows (gpugb_find_or_insert_word) and its row packer's
 * partitions (move_row.cuh), which must agree with each other and with it.
 */
__device__ __forceinline__ uint64_t
gpugb_hash_word(int64_t key)
{
	return gpugb_hash_finish(gpugb_hash_step(GPUGB_HASH_SEED, (uint64_t) key), 0);
}

/* gpugb_fmix64's inverse: each xor-shift by 33 is its own, and the multipliers' inverses mod 2^64. */
__device__ __forceinline__ uint64_t
gpugb_unfmix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0x9cb4b2f8129337dbull;	/* 0xc4ceb9fe1a85ec53's inverse */
	k ^= k >> 33;
	k *= 0x4f74430c22a54005ull;	/* 0xff51afd7ed558ccd's inverse */
	k ^= k >> 33;
	return k;
}

/*
 * The key whose gpugb_hash_word is h: every step of that hash (an xor with
 * a constant, gpugb_fmix64, an add) is a bijection of 64-bit words, so
 * PARTITION's hashed rows (GPUGB_HASHED_KEY_WORDS) keep the hash in the key's place.
 */
__device__ __forceinline__ int64_t
gpugb_unhash_word(uint64_t h)
{
	uint64_t	x = gpugb_unfmix64(h) ^ 0x5851F42D4C957F2Dull;

	return (int64_t) (gpugb_unfmix64(x - 0x9E3779B97F4A7C15ull) ^ GPUGB_HASH_SEED);
}

/*
 * Group data is read through L2 (ld.global.cg): the line may have been
 * cached in this SM's L1 before another SM wrote a neighbouring group.
 */
__device__ __forceinline__ bool
gpugb_row_matches(const GpugbAggParams &p, uint32_t row, uint32_t mask, int64_t gid)
{
	if (__ldcg(&p.group_nulls[gid]) != mask)
		return false;
	for (int k = 0; k < p.n_keys; k++)
	{
		bool		null;
		int64_t		v = gpugb_row_key(p, k, row, &null);

		if ((long long) __ldcg((const long long *) &p.group_keys[k * p.max_groups + gid]) != v)
			return false;
	}
	return true;
}

typedef cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> gpugb_slot_ref;

/*
 * The row's one key where the spec declares key_fits_int32 (keyed slots,
 * SORT's exact sort keys): its word, 0 for NULL.  A word beyond int32 would
 * share its 32 bits with another key: trap (a sticky CUDA error, see
 * key_fits_int32 in gpugb_device.h) rather than group them together.
 * Unreachable from SQL: the executor declares only int2, int4, date and
 * bool keys, whose words are range-checked.
 */
__device__ __forceinline__ int32_t
gpugb_row_key_int32(const GpugbAggParams &p, uint32_t row, bool *is_null)
{
	int64_t		value = gpugb_row_key(p, 0, row, is_null);

	if (value != (int64_t) (int32_t) value)
		__trap();
	return (int32_t) value;
}

/* The upper 33 bits of a keyed slot word: the int32 key and its NULL bit. */
__device__ __forceinline__ unsigned long long
gpugb_keyed_slot_key(int64_t value, bool is_null)
{
	return ((unsigned long long) (uint32_t) value << 32) | (is_null ? GPUGB_KEYED_SLOT_NULL : 0ull);
}

/*
 * A new group id for the calling lane.  COALESCED: one atomicAdd for the
 * lanes that call together (cooperative groups' coalesced_threads:
 * whichever lanes are converged here), for callers whose lanes diverge.
 * Every new group of every kernel takes an id from the one counter, and
 * same-address atomics serialize in L2.  In PARTITION's lean kernel at
 * 2^22 groups the claims come from its divergent slow path, about 3 lanes
 * at a time, which nvcc does not aggregate, and the atomicAdd with the
 * compare that waits on it took about a fifth of the kernel's stall
 * samples (Nsight Compute, session 33, call 1).  Where the lanes converge
 * nvcc aggregates the plain atomicAdd itself (docs/session32-2026-11-29/
 * pending/partition-next-steps.md), and there the coalesced group cost
 * registers and time: global_hash was 0.94-0.97x as fast at 2^14-2^22
 * uniform groups (session 33, call 2), so the others keep the plain one.
 * The ids a group of lanes takes are consecutive; which lane gets which
 * does not matter.
 */
template <bool COALESCED>
__device__ __forceinline__ unsigned long long
gpugb_take_group_id(unsigned long long *counter)
{
	if constexpr (COALESCED)
	{
		cooperative_groups::coalesced_group lanes = cooperative_groups::coalesced_threads();
		unsigned long long first = 0;

		if (lanes.thread_rank() == 0)
			first = atomicAdd(counter, (unsigned long long) lanes.num_threads());
		return lanes.shfl(first, 0) + lanes.thread_rank();
	}
	else
		return atomicAdd(counter, 1ull);
}

/*
 * Claims the EMPTY slot whose state word is `slot` for the row's key: group
 * id (or -1 when no id is left: the slot is given back), the dense key
 * arrays written, and then `publish(gid)`, which stores the slot's final
 * words, the state last (release order, but for keyed slots: relaxed).
 * false: another thread claimed it first; *seen is what the state holds
 * now.  WORD: the key is `word`, one key without NULLs, not the row's
 * (gpugb_find_or_insert_word).
 */
template <bool COALESCED, bool WORD, typename Publish>
__device__ __forceinline__ bool
gpugb_claim_slot(const GpugbAggParams &p, gpugb_slot_ref &slot, uint32_t row, uint32_t mask, int64_t word,
				 Publish publish, unsigned long long *seen, int64_t *gid_out)
{
	unsigned long long expected = GPUGB_SLOT_EMPTY;

	/*
	 * A full table fails fast: there every row of a new key goes to the
	 * retry list, and where the planner's estimate was 1e5 times too low
	 * that is most rows of the launch.  Each of them locked a slot, took an
	 * atomic on the one counter and gave the slot back.  The flag is read
	 * through L1 (its line is not written while ids last; a stale 0 only
	 * sends the row the long way) and the counter, whose line every claim's
	 * atomic takes, only once the flag is up: a volatile read of it per claim
	 * cost PARTITION 17.5 -> 30.5 ms at 2^24 groups (H200, session 39).  The
	 * counter read keeps a stale 1 harmless.
	 */
	if (__ldca(p.groups_exhausted) != 0u &&
		*(volatile unsigned long long *) p.group_counter >= (unsigned long long) p.max_groups)
	{
		*gid_out = -1;
		return true;
	}
	if (!slot.compare_exchange_strong(expected, GPUGB_SLOT_LOCKED, cuda::memory_order_relaxed))
	{
		*seen = expected;
		return false;
	}

	unsigned long long gid = gpugb_take_group_id<COALESCED>(p.group_counter);

	if (gid >= (unsigned long long) p.max_groups)
	{
		/*
		 * Table full: give the slot back, the host re-runs this row.  The
		 * counter passes max_groups once a launch, so one thread raises
		 * the flag.
		 */
		if (gid == (unsigned long long) p.max_groups)
			*(volatile unsigned int *) p.groups_exhausted = 1u;
		slot.store(GPUGB_SLOT_EMPTY, cuda::memory_order_relaxed);
		*gid_out = -1;
		return true;
	}
	if constexpr (WORD)
		p.group_keys[gid] = word;
	else
	{
		for (int k = 0; k < p.n_keys; k++)
		{
			bool		null;

			p.group_keys[k * p.max_groups + gid] = gpugb_row_key(p, k, row, &null);
		}
	}
	p.group_nulls[gid] = mask;
	publish(gid);
	*gid_out = (int64_t) gid;
	return true;
}

/*
 * Slots a lookup of a launch with p.overflow may walk before it gives its
 * row to the retry list.  PARTITION takes its partitions in home-slot order,
 * so where a partition holds more keys than its slice of the table has
 * slots (a group estimate far too low), linear probing piles the keys into
 * one run across the slices being worked on, and every lookup homed in it
 * walks to its end: forced PARTITION at 0.08x the groups (Zipf 1.0, 2^22
 * groups, 2^28 rows) ran over 70 s (H200, session 38).  A table at most
 * 83 % full (table.cu) has runs this long with odds of about e^-66 a key.
 * Stopping early is always correct: the row has not been added, and the
 * retries look it up after growth, without a bound by the last round (a
 * retry round runs as PARTITION, with p.overflow, at most once a launch:
 * spec.partition_retry_repartition, gpugb_run_retries).
 */
#define GPUGB_PROBE_OVERFLOW_STEPS 4096

/* Marks the launch overflowed (p.overflow; gpugb_probe) and gives -1: the row goes to the retry list. */
__device__ __forceinline__ int64_t
gpugb_probe_overflowed(const GpugbAggParams &p)
{
	if (p.overflow != nullptr)
		*(volatile unsigned int *) p.overflow = 1u;
	return -1;
}

/*
 * No group id left for the row: -1, the row to the retry list, and the
 * launch marked overflowed (but under p.overflow_on_walks_only, where only
 * the rows of keys with no id retry).
 */
__device__ __forceinline__ int64_t
gpugb_probe_no_id(const GpugbAggParams &p)
{
	return p.overflow_on_walks_only ? -1 : gpugb_probe_overflowed(p);
}

/*
 * The probe loop of every slot format: from the row's home slot `idx`,
 * claim an EMPTY slot or wait out a LOCKED one, and return the group id of
 * the first published slot that holds the row's key (-1: no id left, or
 * GPUGB_PROBE_OVERFLOW_STEPS walked where p.overflow is set).  The
 * format (one of the three below) says how a slot's state is loaded, how a
 * claimed slot is published and what a published slot's key is:
 *   gpugb_slot_ref state(idx)       the slot's state word
 *   unsigned long long load(idx)    its state, and what match() will need
 *   unsigned long long reload(ref)  the state again, while LOCKED
 *   void publish(idx, gid)          the slot's final words, the state last (release; keyed: relaxed)
 *   bool match(idx, s, &gid)        published state s holds the row's key
 */
template <bool COALESCED, bool WORD = false, typename Format>
__device__ __forceinline__ int64_t
gpugb_probe(const GpugbAggParams &p, uint32_t row, uint32_t mask, uint64_t idx, Format &f, int64_t word = 0)
{
	for (uint32_t steps = 0;; steps++)
	{
		if (p.overflow != nullptr && steps >= GPUGB_PROBE_OVERFLOW_STEPS)
			return gpugb_probe_overflowed(p);

		gpugb_slot_ref slot = f.state(idx);
		unsigned long long s = f.load(idx);
		int64_t		gid;

		if (s == GPUGB_SLOT_EMPTY &&
			gpugb_claim_slot<COALESCED, WORD>(p, slot, row, mask, word,
							 [&f, idx](unsigned long long id) { f.publish(idx, id); }, &s, &gid))
			return gid >= 0 ? gid : gpugb_probe_no_id(p);
		while (s == GPUGB_SLOT_LOCKED)
			s = f.reload(slot);

		/*
		 * Its claimer found no id left, and the counter only grows: none is
		 * left for this row either, which goes to the retry list.  Claiming
		 * the slot in turn, as before session 37, gave the same -1 after a
		 * lock, an atomic on the one counter and a store, one waiter at a
		 * time, for every row of a new key in a full table.
		 */
		if (s == GPUGB_SLOT_EMPTY)
			return gpugb_probe_no_id(p);
		if (f.match(idx, s, &gid))
			return gid;
		idx = (idx + 1) & p.slot_mask;
	}
}

/* Tagged slots: (tag << 32) | gid, the key in the dense arrays (acquire order). */
struct GpugbTaggedSlots
{
	const GpugbAggParams &p;
	uint32_t	row;
	uint32_t	mask;
	uint32_t	tag;

	__device__ gpugb_slot_ref state(uint64_t idx) const { return gpugb_slot_ref(p.slots[idx]); }
	__device__ unsigned long long load(uint64_t idx) const
	{
		return state(idx).load(cuda::memory_order_acquire);
	}
	__device__ unsigned long long reload(gpugb_slot_ref &slot) const
	{
		return slot.load(cuda::memory_order_acquire);
	}
	__device__ void publish(uint64_t idx, unsigned long long gid) const
	{
		state(idx).store(((unsigned long long) tag << 32) | gid, cuda::memory_order_release);
	}
	__device__ bool match(uint64_t idx, unsigned long long s, int64_t *gid) const
	{
		*gid = (int64_t) (s & 0xFFFFFFFFull);
		return (uint32_t) (s >> 32) == tag && gpugb_row_matches(p, row, mask, *gid);
	}
};

/* Keyed slots: (uint32 key << 32) | (NULL << 31) | (gid + 2), read relaxed. */
struct GpugbKeyedSlots
{
	const GpugbAggParams &p;
	unsigned long long key;		/* gpugb_keyed_slot_key of the row */

	__device__ gpugb_slot_ref state(uint64_t idx) const { return gpugb_slot_ref(p.slots[idx]); }
	__device__ unsigned long long load(uint64_t idx) const
	{
		return state(idx).load(cuda::memory_order_relaxed);
	}
	__device__ unsigned long long reload(gpugb_slot_ref &slot) const
	{
		return slot.load(cuda::memory_order_relaxed);
	}
	__device__ void publish(uint64_t idx, unsigned long long gid) const
	{
		/* relaxed: nothing a reader needs was written before it (above) */
		state(idx).store(key | (gid + 2), cuda::memory_order_relaxed);
	}
	__device__ bool match(uint64_t idx, unsigned long long s, int64_t *gid) const
	{
		*gid = (int64_t) (s & GPUGB_KEYED_SLOT_GID_MASK) - 2;
		return (s & ~GPUGB_KEYED_SLOT_GID_MASK) == key;
	}
};

/* Pair slots: words 2i (salted key) and 2i + 1 (state), both read relaxed. */
struct GpugbPairSlots
{
	const GpugbAggParams &p;
	unsigned long long key;		/* the row's key word ^ GPUGB_PAIR_KEY_SALT */
	unsigned long long null_bit;
	unsigned long long seen_key = GPUGB_PAIR_KEY_UNSET;	/* the key word load() read */

	__device__ gpugb_slot_ref key_word(uint64_t idx) const { return gpugb_slot_ref(p.slots[2 * idx]); }
	__device__ gpugb_slot_ref state(uint64_t idx) const { return gpugb_slot_ref(p.slots[2 * idx + 1]); }
	/*
	 * Both words in one 16-byte relaxed load: one L2 request where two
	 * loads made two, and L2 is what limits global_hash (Nsight Compute,
	 * session 17).  The PTX memory model makes a vector load a relaxed load
	 * of each word, in no order between them: what the two scalar loads
	 * were, and all match() needs (a key word is written once, so any
	 * value but UNSET is the slot's key).  p.slots is cudaMalloc'd: every
	 * pair is 16-byte aligned.
	 */
	__device__ unsigned long long load(uint64_t idx)
	{
		unsigned long long s;

		asm volatile ("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];"
					  : "=l" (seen_key), "=l" (s) : "l" (&p.slots[2 * idx]) : "memory");
		return s;
	}
	__device__ unsigned long long reload(gpugb_slot_ref &slot) const
	{
		return slot.load(cuda::memory_order_relaxed);
	}
	__device__ void publish(uint64_t idx, unsigned long long gid) const
	{
		key_word(idx).store(key, cuda::memory_order_relaxed);
		state(idx).store(null_bit | (gid + 2), cuda::memory_order_release);
	}
	__device__ bool match(uint64_t idx, unsigned long long s, int64_t *gid)
	{
		if (seen_key == GPUGB_PAIR_KEY_UNSET)
		{
			/* Loaded before its claimer wrote it (or the key is the salt): in order now. */
			(void) state(idx).load(cuda::memory_order_acquire);
			seen_key = key_word(idx).load(cuda::memory_order_relaxed);
		}
		*gid = (int64_t) (s & GPUGB_PAIR_SLOT_GID_MASK) - 2;
		return seen_key == key && (s & GPUGB_PAIR_SLOT_NULL) == null_bit;
	}
};

/*
 * Group id of the row's key, inserting it if new; -1 when no id is left.
 * COALESCED: new groups take their ids with gpugb_take_group_id's coalesced
 * lanes (for callers whose lanes diverge).
 */
template <bool COALESCED = false>
__device__ __forceinline__ int64_t
gpugb_find_or_insert(const GpugbAggParams &p, uint32_t row)
{
	uint32_t	mask;
	uint64_t	h = gpugb_hash_row(p, row, &mask);
	uint64_t	idx = h & p.slot_mask;

	/* The format is uniform over the launch. */
	if (p.slot_format == GPUGB_SLOTS_KEYED32)
	{
		bool		null;
		int32_t		value = gpugb_row_key_int32(p, row, &null);
		GpugbKeyedSlots f = {p, gpugb_keyed_slot_key(value, null)};

		return gpugb_probe<COALESCED>(p, row, mask, idx, f);
	}
	if (p.slot_format == GPUGB_SLOTS_PAIR)
	{
		bool		null;
		int64_t		value = gpugb_row_key(p, 0, row, &null);
		GpugbPairSlots f = {p, (unsigned long long) value ^ GPUGB_PAIR_KEY_SALT,
			null ? GPUGB_PAIR_SLOT_NULL : 0ull};

		return gpugb_probe<COALESCED>(p, row, mask, idx, f);
	}

	GpugbTaggedSlots f = {p, row, mask, (uint32_t) (h >> 32) | GPUGB_TAG_BIT};

	return gpugb_probe<COALESCED>(p, row, mask, idx, f);
}

/*
 * gpugb_find_or_insert for a launch of one key without NULLs in keyed slots
 * (GPUGB_SLOTS_KEYED32, an int32 key), or where PAIR in pair slots
 * (GPUGB_SLOTS_PAIR, any 8-byte key), given
 * the key's word where there is no key column to read a row from:
 * PARTITION's lean kernel over packed rows (partition_lean_kernel.cuh's
 * PACKED); or where the word was read a step ahead of the lookup
 * (lean_gid_kernel.cuh, gpugb_lean_gid_rows_ahead).  The same hash
 * (gpugb_hash_row of a row holding that key) and
 * slot words, so a row and a word of one key find one group.  The format is
 * a template parameter, so the int32 keys' instances keep their code.
 */
template <bool COALESCED = false, bool PAIR = false>
__device__ __forceinline__ int64_t
gpugb_find_or_insert_word(const GpugbAggParams &p, int64_t key)
{
	uint64_t	h = gpugb_hash_word(key);

	/* The host packs only such launches (partition_move.cu). */
	if (p.n_keys != 1 || p.slot_format != (PAIR ? GPUGB_SLOTS_PAIR : GPUGB_SLOTS_KEYED32))
		__trap();
	if constexpr (PAIR)
	{
		GpugbPairSlots f = {p, (unsigned long long) key ^ GPUGB_PAIR_KEY_SALT, 0ull};

		return gpugb_probe<COALESCED, true>(p, 0, 0, h & p.slot_mask, f, key);
	}
	else
	{
		GpugbKeyedSlots f = {p, gpugb_keyed_slot_key((int32_t) key, false)};

		return gpugb_probe<COALESCED, true>(p, 0, 0, h & p.slot_mask, f, key);
	}
}

#endif							/* GPUGB_HASH_TABLE_CUH */
