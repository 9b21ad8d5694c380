/*
 * rehash_kernel.cuh
 *    The table's rehash after it grew (cuda/table.cu queues it through
 *    launch.cu).  Apart from hash_table.cuh, whose device functions other
 *    translation units include (partition_move.cu), because a __global__
 *    definition may appear in one translation unit only.
 */
#ifndef GPUGB_REHASH_KERNEL_CUH
#define GPUGB_REHASH_KERNEL_CUH

#include "hash_table.cuh"

/*
 * Puts group gid (key words in the dense arrays, null mask `mask`) into an
 * EMPTY slot of its probe sequence.  Only for a key no slot holds, with no
 * lookup running: a claim needs no key comparison and no lock (CAS EMPTY ->
 * published directly).  A slot is loaded before its CAS: a taken one never
 * turns EMPTY again, so only a stale EMPTY can mislead the load, and then
 * the CAS fails as it would have.
 */
__device__ __forceinline__ void
gpugb_insert_distinct(unsigned long long *slots, uint64_t slot_mask, const int64_t *group_keys, int64_t max_groups,
					  int n_keys, int64_t gid, uint32_t mask, int slot_format)
{
	uint64_t	h = GPUGB_HASH_SEED;	/* gpugb_hash_row's: a group rehashes to its rows' home */

	for (int k = 0; k < n_keys; k++)
		h = gpugb_hash_step(h, (uint64_t) group_keys[k * max_groups + gid]);
	h = gpugb_hash_finish(h, mask);

	uint64_t	idx = h & slot_mask;

	if (slot_format == GPUGB_SLOTS_PAIR)
	{
		/* state first, then the key word: nothing reads the table meanwhile */
		unsigned long long state = (mask != 0 ? GPUGB_PAIR_SLOT_NULL : 0ull) | (unsigned long long) (gid + 2);

		while (slots[2 * idx + 1] != GPUGB_SLOT_EMPTY ||
			   atomicCAS(&slots[2 * idx + 1], GPUGB_SLOT_EMPTY, state) != GPUGB_SLOT_EMPTY)
			idx = (idx + 1) & slot_mask;
		slots[2 * idx] = (unsigned long long) group_keys[gid] ^ GPUGB_PAIR_KEY_SALT;
		return;
	}

	unsigned long long word = slot_format == GPUGB_SLOTS_KEYED32 ?
		gpugb_keyed_slot_key(group_keys[gid], mask != 0) | (unsigned long long) (gid + 2) :
		((unsigned long long) ((uint32_t) (h >> 32) | GPUGB_TAG_BIT) << 32) | (unsigned long long) gid;

	while (slots[idx] != GPUGB_SLOT_EMPTY || atomicCAS(&slots[idx], GPUGB_SLOT_EMPTY, word) != GPUGB_SLOT_EMPTY)
		idx = (idx + 1) & slot_mask;
}

/* Re-inserts groups [0, n_groups) into a fresh (all EMPTY) slot array after the table grew. */
__global__ void
gpugb_rehash_kernel(unsigned long long *slots, uint64_t slot_mask,
					const int64_t *group_keys, const uint32_t *group_nulls,
					int64_t max_groups, int n_keys, int64_t n_groups, int slot_format)
{
	for (int64_t gid = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; gid < n_groups;
		 gid += (int64_t) gridDim.x * blockDim.x)
		gpugb_insert_distinct(slots, slot_mask, group_keys, max_groups, n_keys, gid, group_nulls[gid],
							  slot_format);
}

/*
 * Puts the groups PARTITION's deferred flush numbered without slots
 * (GPUGB_GROUP_UNPUBLISHED, partition_deferred.cuh) into the slot table,
 * after their launch and before any other lookup: their keys are in
 * no slot (each was one partition's, in one flush) and differ from every
 * key that is.  !insert: only their null-mask words go back to 0, for a
 * handle whose table takes no more lookups (groupby.cu,
 * gpugb_publish_pending).  The groups are those the counter numbered, [0, max_groups)
 * at most; their ids run in the order the blocks flushed, so the threads at
 * work at any moment insert the keys of neighbouring partitions, whose
 * homes are neighbouring slices of the table (the partitions are its top
 * bits).  Adds the groups it found marked to *published (one atomic a
 * warp), which the tests read (GpugbStats.partition_direct_groups).
 */
__global__ void
gpugb_publish_groups_kernel(unsigned long long *slots, uint64_t slot_mask, const int64_t *group_keys,
							uint32_t *group_nulls, int64_t max_groups, const unsigned long long *group_counter,
							int slot_format, bool insert, unsigned long long *published)
{
	const unsigned long long counted = *(volatile const unsigned long long *) group_counter;
	const int64_t n_groups = counted < (unsigned long long) max_groups ? (int64_t) counted : max_groups;
	unsigned	found = 0;

	for (int64_t gid = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; gid < n_groups;
		 gid += (int64_t) gridDim.x * blockDim.x)
		if (group_nulls[gid] == GPUGB_GROUP_UNPUBLISHED)
		{
			group_nulls[gid] = 0u;
			found++;
			if (insert)
				gpugb_insert_distinct(slots, slot_mask, group_keys, max_groups, 1, gid, 0u, slot_format);
		}
	/* Every lane reaches this (no thread returns early); blockDim.x is a multiple of 32. */
	found = __reduce_add_sync(0xFFFFFFFFu, found);
	if ((threadIdx.x & 31u) == 0 && found > 0)
		atomicAdd(published, (unsigned long long) found);
}

#endif							/* GPUGB_REHASH_KERNEL_CUH */
