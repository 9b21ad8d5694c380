/*
 * partition_move.cu
 *    PARTITION's rows moved into partition order (Wu et al.'s transformed
 *    relation), for launches of one key word without NULLs: a pack kernel
 *    writes each row's partition and its key and value words, packed, and
 *    CUB's radix sort moves the packed rows with the partitions, or, where
 *    it pays, one scatter pass does (partition_scatter.cuh, since session
 *    37).  The lean partition kernel reads the rows packed
 *    (partition_lean_kernel.cuh, since session 34); for the generic kernel
 *    (partition_kernels.cuh), and for retries, an unpack kernel writes them
 *    back out as int64 columns in partition order, row i = sorted position
 *    i.
 *
 * Why: partition_strategy.cu's first path sorts only 4-byte row numbers,
 * and the partition kernel reads every row's key and values through them.
 * For a launch whose columns exceed L2 (the kernel benchmark's 2^28 rows)
 * that is a random 32-byte sector read per 8-byte word: PARTITION took
 * 25-146 ms at 2^20-2^26 groups where Thrust's sort and reduce take 33-71
 * (H200, session 31, call 1).  test/kernelbench/partition_bound.cu, which
 * moves the rows with the sort, reached 9.4-12.9 ms with one payload.
 *
 * Packed rows are 32-bit words: the key in one word where the spec declares
 * key_fits_int32, else two; each value column in one word where every
 * column's input is declared in spec.inputs_fit_int32, else two (one width
 * for all, so the instances stay few).  A declared word outside int32
 * traps, as gpugb_row_key_int32 does.  Rows are padded to 2, 4 or 6 words,
 * but an 8-byte key with one 4-byte value keeps 3 (gpugb_moved_row_words).
 *
 * Only launches whose value aggregates read at most
 * GPUGB_MOVE_MAX_VALUE_INPUTS inputs move (gpugb_device.h says why): the
 * partition kernel's own time, not the gather, is most of PARTITION's at
 * four payloads, and the moved rows add a pack, a wider sort and an unpack.
 * H200, 2^28 rows, 4-byte keys, session 31 call 2 against call 1:
 * one payload 19.8-55.7 ms at 2^20-2^26 uniform groups where the row
 * numbers' sort took 25.8-68.3; four payloads 66.6-149.9 against
 * 50.6-130.1.  8-byte keys with one payload: even (0.93-1.09x).  Launches
 * of COUNT and one integer SUM then take the lean partition kernel
 * (partition_lean_kernel.cuh), which keeps lean block states.  Since
 * session 35 launches of an int32 key and two to four integer SUMs of
 * int32 words move too, but only where the lean kernel reads their rows
 * packed (6 words, 24 bytes, with four sums): its cost is what the generic
 * kernel's was not.  Since session 36 an 8-byte key's rows (pair slots)
 * stay packed the same way.
 *
 * Retries: rows that find no group id are listed by sorted position, so the
 * caller makes the moved parameters the set's (set->params): retries read
 * the sorted columns, which stay in the set's scratch until the set's next
 * launch, after complete_set has run them.  Rows left packed get their
 * columns only then, from complete_set, where the launch listed retries
 * (gpugb_partition_unpack_for_retries): since session 53, before which
 * every such launch allocated them, 4-10 GiB at 2^28 rows, 0.2-0.5 ms of
 * cudaMalloc (H200, kernel benchmark's alloc trace, session 53 call 1).
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <mutex>

#include "groupby_internal.cuh"
#include "split_values.cuh"
#include "partition_scatter.cuh"
#if GPUGB_PARTITION_MIXED_KEYS
#include "key_mix.cuh"
#endif
#include "../src/heuristics.h"	/* gpugb_partition_scatter_pays */

static_assert(GPUGB_PARTITION_LEAN_MAX_SUMS >= GPUGB_MOVE_MAX_VALUE_INPUTS, "packed moves hold every moved input");

/* Each launch row's partition (PartKey: move_rows' sort_rows says which) and packed row, in launch order, for CUB's sort. */
template <class Packer, class PartKey>
__global__ void
gpugb_move_pack_kernel(const Packer pk, PartKey *part_keys, typename Packer::Row *rows)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < pk.p.nrows;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		part_keys[i] = (PartKey) pk.partition(i);
		rows[i] = pk.row(i);
	}
}

/* The sorted rows as int64 columns: for the generic kernel, or for retries of packed rows (the file comment). */
template <int KW, int VW, int NV, bool TIGHT>
__global__ void
gpugb_move_unpack_kernel(const GpugbMovedRow<gpugb_moved_row_words(KW + VW * NV, TIGHT)> *rows, int64_t n,
						 const GpugbMoveCols c)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		GpugbMovedRow<gpugb_moved_row_words(KW + VW * NV, TIGHT)> r = rows[i];

		c.key_out[i] = KW == 1 ? (int64_t) (int32_t) r.w[0] :
			(int64_t) (((uint64_t) r.w[1] << 32) | r.w[0]);
#pragma unroll
		for (int a = 0; a < NV; a++)
			c.out[a][i] = VW == 1 ? (int64_t) (int32_t) r.w[KW + a] :
				(int64_t) (((uint64_t) r.w[KW + 2 * a + 1] << 32) | r.w[KW + 2 * a]);
	}
}

/* Makes buf hold at least `bytes` (its old contents are not kept). */
static GpugbStatus
ensure_buf(GpugbGroupBy *gb, DevBuf *buf, size_t bytes, const char *what)
{
	if (buf->ptr != nullptr && buf->bytes >= bytes)
		return GPUGB_OK;
	gpugb_dev_free(&gb->acct, buf);
	return gpugb_dev_alloc(&gb->acct, buf, bytes, what);
}

/*
 * Whether launch p's rows scatter (partition_scatter.cuh) rather than sort:
 * not under spec.partition_cub_sort; where gpugb_partition_scatter_pays
 * (src/heuristics.c) for the rows' width and the partition bits; the counts
 * fit the sort keys' scratch (keys_in, its scan keys_out); the device gives
 * the scatter kernel its shared memory.  Then *scan_bytes is the scan's
 * scratch.
 */
template <class Packer>
static bool
scatter_applies(const GpugbGroupBy *gb, const GpugbSortBufs *b, int64_t n, int bits, size_t *scan_bytes)
{
	constexpr int TILE = GpugbScatterShape<Packer::W>::tile_rows;
	int64_t		n_parts = 1ll << bits;
	int64_t		n_tiles = (n + TILE - 1) / TILE;
	GpugbDeviceProps props;

	static std::once_flag opted_in;
	static bool	opt_in_ok = false;

	if (gb->spec.partition_cub_sort || !gpugb_partition_scatter_pays(Packer::W * 4, bits, TILE) ||
		bits > GPUGB_SCATTER_MAX_BITS || n_parts * n_tiles > b->rows)
		return false;

	/*
	 * More than 48 KB of dynamic shared memory needs the kernels' opt-in
	 * (the scatter's tile, the count kernel's GPUGB_SCATTER_COUNT_TILES
	 * histograms), once; where the device cannot give it (with the kernel's
	 * static shared memory), CUB's sort instead.
	 */
	std::call_once(opted_in, [&] {
		auto		kernel = gpugb_scatter_rows_kernel<Packer>;
		size_t		dynamic_bytes = gpugb_scatter_smem_bytes<Packer::W>(1 << GPUGB_SCATTER_MAX_BITS);
		cudaFuncAttributes attr;

		auto		count_kernel = gpugb_scatter_count_kernel<Packer>;
		size_t		count_bytes = gpugb_scatter_count_smem_bytes(1 << GPUGB_SCATTER_MAX_BITS);
		int64_t		room;

		gpugb_device_properties(&props);
		room = props.shared_bytes_per_block_optin > 0 ? props.shared_bytes_per_block_optin :
			props.shared_bytes_per_block;
		opt_in_ok = cudaFuncGetAttributes(&attr, kernel) == cudaSuccess &&
			(int64_t) (dynamic_bytes + attr.sharedSizeBytes) <= room &&
			cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) dynamic_bytes) ==
			cudaSuccess &&
			(int64_t) count_bytes <= room &&
			cudaFuncSetAttribute(count_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) count_bytes) ==
			cudaSuccess;
		/*
		 * Two blocks an SM (GpugbScatterShape) need the most shared memory;
		 * a preference only: without it the kernel is as correct, in one.
		 */
		if (opt_in_ok && GpugbScatterShape<Packer::W>::min_blocks > 1)
			(void) cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
										cudaSharedmemCarveoutMaxShared);
		(void) cudaGetLastError();
	});
	if (!opt_in_ok)
		return false;
	*scan_bytes = 0;
	if (cub::DeviceScan::ExclusiveSum(nullptr, *scan_bytes, (const uint32_t *) nullptr, (uint32_t *) nullptr,
									  n_parts * n_tiles) != cudaSuccess)
		return false;
	/* Never an empty scratch: CUB takes a null one for a size query and would scan nothing. */
	if (*scan_bytes < 256)
		*scan_bytes = 256;
	return true;
}

/*
 * The scatter's steps (count, scan, scatter) over launch p's rows into
 * b->moved_out, and the partitions' bounds into b->keys_in
 * (partition_scatter.cuh); b->moved_temp holds the scan's scratch.
 */
template <class Packer>
static GpugbStatus
scatter_rows(GpugbSortBufs *b, const Packer &pk, int64_t n, int bits, cudaStream_t stream)
{
	constexpr int TILE = GpugbScatterShape<Packer::W>::tile_rows;
	constexpr int THREADS = GpugbScatterShape<Packer::W>::threads;
	auto		kernel = gpugb_scatter_rows_kernel<Packer>;
	uint32_t	n_parts = 1u << bits;
	int64_t		n_tiles = (n + TILE - 1) / TILE;
	uint32_t   *counts = (uint32_t *) b->keys_in.ptr,
			   *offsets = (uint32_t *) b->keys_out.ptr;
	size_t		scan_bytes = b->moved_temp.bytes;

	gpugb_scatter_count_kernel<Packer><<<(unsigned) ((n_tiles + GPUGB_SCATTER_COUNT_TILES - 1) / GPUGB_SCATTER_COUNT_TILES),
		1024, gpugb_scatter_count_smem_bytes(n_parts), stream>>>(pk, n, n_tiles, n_parts, counts);
	GPUGB_TRY(GPUGB_LAUNCHED("gpugb_scatter_count_kernel"));
	GPUGB_TRY(GPUGB_CUDA(cub::DeviceScan::ExclusiveSum(b->moved_temp.ptr, scan_bytes, (const uint32_t *) counts,
														offsets, (int64_t) n_parts * n_tiles, stream)));
	kernel<<<(unsigned) n_tiles, THREADS, gpugb_scatter_smem_bytes<Packer::W>(n_parts), stream>>>(
		pk, n, n_tiles, n_parts, offsets, (typename Packer::Row *) b->moved_out.ptr);
	GPUGB_TRY(GPUGB_LAUNCHED("gpugb_scatter_rows_kernel"));
	/* The counts are spent: the bounds take their place (partition_strategy.cu reads them there). */
	gpugb_scatter_bounds_kernel<<<gpugb_grid_for((int64_t) n_parts + 1, 256), 256, 0, stream>>>(
		offsets, n_tiles, n_parts, n, counts);
	return GPUGB_LAUNCHED("gpugb_scatter_bounds_kernel");
}

/*
 * The pack and CUB's sort of launch p's rows by their `bits`-bit
 * partitions, as PartKey words (uint32_t, or uint16_t: below), into
 * b->keys_out and b->moved_out; temp == nullptr: only the scratch's size
 * for `rows` rows into *temp_bytes.
 *
 * Why 2-byte partitions: each of the sort's passes reads and writes every
 * row with its partition, and at 2^24 groups (13 bits: two passes) the
 * pack and sort of 4-byte partitions and 8-byte rows took 7.8 ms of
 * PARTITION's 12.6 (H200, 2^28 rows, 4-byte keys, one payload; session 48,
 * Nsight Compute).  With 2-byte partitions the pack took 1.94 ms, not 2.07,
 * and the sort's passes 5.53, not 5.79 (session 49, call 2), and forced
 * PARTITION was 1.00-1.05x as fast with rows of 8 and 12 bytes (4- and
 * 8-byte keys, one payload, 2^18-2^26 groups, uniform and Zipf 1.0, 3
 * reps; kernelbench --partition-narrow-keys off against on).  With 24-byte
 * rows (four payloads) it was 0.95-1.02x (the sort's passes 18.8 ms against
 * 17.5 at 2^22 groups): so only rows of at most 12 bytes
 * (GPUGB_NARROW_PART_MAX_ROW_BYTES).  Only packed rows for the lean kernel
 * take them (GpugbPackedRows.sorted_part_bytes tells its bounds kernel);
 * the generic kernel reads 4-byte partitions.
 */
#define GPUGB_NARROW_PART_MAX_ROW_BYTES 12

/*
 * Gathered rows only from this many partition bits: CUB's onesweep sorts 8
 * bits a pass, and where one pass moves the packed rows, reading them
 * through row numbers costs more than it saves.  H200, 2^28 rows, 4-byte
 * keys, four payloads, forced PARTITION (session 51, call 3): 0.93-0.96x
 * at 2^16-2^18 groups, 1.00-1.01x at 2^20, 1.16-1.22x at 2^22-2^26.
 */
#define GPUGB_GATHER_MIN_BITS 9

template <class Packer, class PartKey>
static GpugbStatus
sort_rows(GpugbSortBufs *b, const Packer *pk, int64_t n, int64_t rows, int bits, void *temp, size_t *temp_bytes,
		  cudaStream_t stream)
{
	typedef typename Packer::Row Row;

	if (temp == nullptr)
		return GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, *temp_bytes, (const PartKey *) nullptr,
														  (PartKey *) nullptr, (const Row *) nullptr,
														  (Row *) nullptr, rows));
	gpugb_move_pack_kernel<Packer, PartKey><<<gpugb_grid_for(n, 256), 256, 0, stream>>>(
		*pk, (PartKey *) b->keys_in.ptr, (Row *) b->moved_in.ptr);
	GPUGB_TRY(GPUGB_LAUNCHED("gpugb_move_pack_kernel"));
	return GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, (const PartKey *) b->keys_in.ptr,
													  (PartKey *) b->keys_out.ptr, (const Row *) b->moved_in.ptr,
													  (Row *) b->moved_out.ptr, n, 0, bits, stream));
}

/* Each row of an 8-byte key and NV int32 values as the hashed layout's (split_values.cuh): the key's hash, and the values. */
template <class Packer, int NV>
__global__ void
gpugb_move_pack_hashed_kernel(const Packer pk, unsigned long long *hashes, GpugbSplitValues<NV> *values)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < pk.p.nrows;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		const typename Packer::Row r = pk.row(i);
		GpugbSplitValues<NV> v = {};

#pragma unroll
		for (int a = 0; a < NV; a++)
			v.w[a] = r.w[2 + a];
		hashes[i] = gpugb_hash_word((int64_t) (((uint64_t) r.w[1] << 32) | r.w[0]));
		values[i] = v;
	}
}

/*
 * Hashed rows (GPUGB_HASHED_KEY_WORDS, gpugb_device.h): the pack into
 * b->moved_in and CUB's sort of the (hash, values) pairs by the hashes'
 * bits [shift, shift + bits), the partitions, into b->moved_out; temp ==
 * nullptr: only the scratch's size for `items` pairs (all 64 bits: at
 * least the passes of `bits`).
 */
template <class Packer, int NV>
static GpugbStatus
sort_hashed(GpugbSortBufs *b, const Packer *pk, int64_t n, int64_t items, int shift, int bits, void *temp,
			size_t *temp_bytes, cudaStream_t stream)
{
	typedef GpugbSplitValues<NV> Values;

	if (temp == nullptr)
		return GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, *temp_bytes, (const unsigned long long *) nullptr,
														  (unsigned long long *) nullptr, (const Values *) nullptr,
														  (Values *) nullptr, items));

	void	   *in = b->moved_in.ptr,
			   *out = b->moved_out.ptr;

	gpugb_move_pack_hashed_kernel<Packer, NV><<<gpugb_grid_for(n, 256), 256, 0, stream>>>(
		*pk, (unsigned long long *) in, gpugb_split_values<NV>(in, n));
	GPUGB_TRY(GPUGB_LAUNCHED("gpugb_move_pack_hashed_kernel"));
	return GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, (const unsigned long long *) in,
													  (unsigned long long *) out,
													  (const Values *) gpugb_split_values<NV>(in, n),
													  gpugb_split_values<NV>(out, n), n, shift, shift + bits,
													  stream));
}

/* The hashed layout's rows as int64 columns in sorted order, for retries. */
template <int NV>
__global__ void
gpugb_move_unpack_hashed_kernel(const void *layout, int64_t n, const GpugbMoveCols c)
{
	const unsigned long long *hashes = (const unsigned long long *) layout;
	const GpugbSplitValues<NV> *values = gpugb_split_values<NV>(layout, n);

	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		const GpugbSplitValues<NV> v = values[i];

		c.key_out[i] = gpugb_unhash_word(hashes[i]);
#pragma unroll
		for (int a = 0; a < NV; a++)
			c.out[a][i] = (int64_t) (int32_t) v.w[a];
	}
}

#if GPUGB_PARTITION_MIXED_KEYS
/* Each row of an int32 key and one int32 value as one word: the key mixed (key_mix.cuh) above the value. */
template <class Packer>
__global__ void
gpugb_move_pack_mixed_kernel(const Packer pk, unsigned long long *words)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < pk.p.nrows;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		const typename Packer::Row r = pk.row(i);

		words[i] = gpugb_mixed_word(r.w[0], r.w[1]);
	}
}

/*
 * Mixed words (GPUGB_PARTITION_MIXED_KEYS, gpugb_device.h): the mixed
 * words packed into b->moved_in and sorted by their top `bits` bits into
 * b->moved_out, keys only; temp == nullptr: only the scratch's size for
 * `items` words (all 64 bits: at least the passes of `bits`).
 */
template <class Packer>
static GpugbStatus
sort_mixed_words(GpugbSortBufs *b, const Packer *pk, int64_t n, int64_t items, int bits, void *temp,
				 size_t *temp_bytes, cudaStream_t stream)
{
	if (temp == nullptr)
		return GPUGB_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, *temp_bytes, (const unsigned long long *) nullptr,
														 (unsigned long long *) nullptr, items));
	gpugb_move_pack_mixed_kernel<Packer><<<gpugb_grid_for(n, 256), 256, 0, stream>>>(
		*pk, (unsigned long long *) b->moved_in.ptr);
	GPUGB_TRY(GPUGB_LAUNCHED("gpugb_move_pack_mixed_kernel"));
	return GPUGB_CUDA(cub::DeviceRadixSort::SortKeys(temp, *temp_bytes, (const unsigned long long *) b->moved_in.ptr,
													 (unsigned long long *) b->moved_out.ptr, n, 64 - bits, 64,
													 stream));
}

/* The sorted mixed words as int64 columns, for retries. */
__global__ void
gpugb_move_unpack_mixed_kernel(const unsigned long long *words, int64_t n, int64_t *key_out, int64_t *value_out)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		const unsigned long long w = words[i];

		key_out[i] = gpugb_unmixed_key((uint32_t) gpugb_mixed_word_key(w));
		value_out[i] = gpugb_mixed_word_value(w);
	}
}

/*
 * The gathered layout (GPUGB_GATHERED_KEY_WORDS, gpugb_device.h; key_mix.cuh):
 * each row's mixed key and row number, for CUB's sort, and its values,
 * packed in launch order where the layout keeps them; carried rows
 * (GPUGB_CARRIED_KEY_WORDS, row_numbers == nullptr): the keys and the
 * values, for CUB's sort of both.
 */
template <class Packer, int NV>
__global__ void
gpugb_move_pack_gathered_kernel(const Packer pk, uint32_t *mixed_keys, uint32_t *row_numbers,
								GpugbSplitValues<NV> *values)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < pk.p.nrows;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		const typename Packer::Row r = pk.row(i);
		GpugbSplitValues<NV> v = {};

#pragma unroll
		for (int a = 0; a < NV; a++)
			v.w[a] = r.w[1 + a];
		mixed_keys[i] = gpugb_mix32(r.w[0]);
		if (row_numbers != nullptr)
			row_numbers[i] = (uint32_t) i;
		values[i] = v;
	}
}

/*
 * The gathered layout of launch p's rows in b->moved_out: the pack (mixed
 * keys into b->keys_in, row numbers into b->moved_in, values in place) and
 * CUB's sort of the (mixed key, row number) pairs by the keys' top `bits`
 * bits; carried: the values into b->moved_in instead (in launch order, from
 * its start), and CUB's sort of the (mixed key, values) pairs, the values
 * into the layout's place for them.  temp == nullptr: only the scratch's
 * size for `items` pairs.
 */
template <class Packer, int NV>
static GpugbStatus
sort_gathered(GpugbSortBufs *b, const Packer *pk, int64_t n, int64_t items, int bits, bool carried, void *temp,
			  size_t *temp_bytes, cudaStream_t stream)
{
	typedef GpugbSplitValues<NV> Values;
	/* Only the instances that carry (GPUGB_CARRIED_MAX_SUMS): CUB's sort of each value type is large. */
	constexpr bool CARRIES = NV <= GPUGB_CARRIED_MAX_SUMS;

	if (carried && !CARRIES)
		return GPUGB_INVALID_ARGUMENT;
	if (temp == nullptr)
	{
		if constexpr (CARRIES)
			if (carried)
				return GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, *temp_bytes, (const uint32_t *) nullptr,
																  (uint32_t *) nullptr, (const Values *) nullptr,
																  (Values *) nullptr, items));
		return GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, *temp_bytes, (const uint32_t *) nullptr,
														  (uint32_t *) nullptr, (const uint32_t *) nullptr,
														  (uint32_t *) nullptr, items));
	}

	char	   *layout = (char *) b->moved_out.ptr;
	uint32_t   *sorted_keys = (uint32_t *) layout;
	Values	   *values = gpugb_split_values<NV>(layout, n);

	gpugb_move_pack_gathered_kernel<Packer, NV><<<gpugb_grid_for(n, 256), 256, 0, stream>>>(
		*pk, (uint32_t *) b->keys_in.ptr, carried ? nullptr : (uint32_t *) b->moved_in.ptr,
		carried ? (Values *) b->moved_in.ptr : values);
	GPUGB_TRY(GPUGB_LAUNCHED("gpugb_move_pack_gathered_kernel"));
	if constexpr (CARRIES)
		if (carried)
			return GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, (const uint32_t *) b->keys_in.ptr,
															  sorted_keys, (const Values *) b->moved_in.ptr, values,
															  n, 32 - bits, 32, stream));
	return GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, (const uint32_t *) b->keys_in.ptr,
													  sorted_keys, (const uint32_t *) b->moved_in.ptr,
													  sorted_keys + n, n, 32 - bits, 32, stream));
}

/* The gathered layout's rows as int64 columns in sorted order, for retries (carried: the values in that order too). */
template <int NV>
__global__ void
gpugb_move_unpack_gathered_kernel(const void *layout, int64_t n, bool carried, const GpugbMoveCols c)
{
	const uint32_t *keys = (const uint32_t *) layout;
	const GpugbSplitValues<NV> *values = gpugb_split_values<NV>(layout, n);

	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		const GpugbSplitValues<NV> v = values[carried ? i : (int64_t) keys[n + i]];

		c.key_out[i] = gpugb_unmixed_key(keys[i]);
#pragma unroll
		for (int a = 0; a < NV; a++)
			c.out[a][i] = (int64_t) (int32_t) v.w[a];
	}
}
#endif

/*
 * Pack, sort and unpack launch p's rows (the instance for its widths).
 * packed != nullptr (int32 values, and an int32 key or an 8-byte one in
 * pair slots, not padded): no unpack;
 * *packed is what the lean kernel reads and what
 * gpugb_partition_unpack_for_retries needs.  Such rows scatter where that
 * applies (scatter_applies); packed->bounds_ready then says so.
 */
template <int KW, int VW, int NV, bool TIGHT = false>
static GpugbStatus
move_rows(GpugbGroupBy *gb, GpugbSortBufs *b, const GpugbAggParams &p, GpugbMoveCols c,
		  int shift, int bits, cudaStream_t stream, bool *did, GpugbPackedRows *packed = nullptr,
		  bool want_mixed = false, bool want_hashed = false)
{
	typedef GpugbRowPacker<KW, VW, NV, TIGHT> Packer;
	typedef typename Packer::Row Row;
	/* The lean kernel reads the rows with the same width (gpugb_packed_row_words): not the padded ones. */
	constexpr bool PACKABLE = VW == 1 && Packer::W == gpugb_packed_row_words(KW, NV);
	int64_t		n = p.nrows;
	size_t		rows = (size_t) b->rows;	/* the scratch's rows: a whole stride */
	size_t		temp_bytes = 0;
	bool		scatter = false;
	size_t		out_bytes = rows * sizeof(Row);	/* moved_out's: the sorted rows, or the gathered layout */
	/* 2-byte partitions: only packed rows for the lean kernel (sort_rows says why). */
	constexpr bool NARROWABLE = PACKABLE && sizeof(Row) <= GPUGB_NARROW_PART_MAX_ROW_BYTES;
	const bool	narrow = NARROWABLE && packed != nullptr && bits <= 16 && !gb->spec.partition_wide_sort_keys;
	/* The sort's instances of 2-byte partitions only for the narrow rows the lean kernel reads packed. */
	auto		sort = [&](const Packer *with, int64_t items, void *temp) -> GpugbStatus {
		if constexpr (NARROWABLE)
			if (narrow)
				return sort_rows<Packer, uint16_t>(b, with, n, items, bits, temp, &temp_bytes, stream);
		return sort_rows<Packer, uint32_t>(b, with, n, items, bits, temp, &temp_bytes, stream);
	};

	if constexpr (PACKABLE)
		scatter = packed != nullptr && scatter_applies<Packer>(gb, b, n, bits, &temp_bytes);

	/*
	 * Hashed rows (gpugb_device.h): an 8-byte key and one to four sums, where
	 * the caller wants them (not under spec.partition_unhashed_keys) and no scatter.
	 */
	constexpr bool HASHABLE = PACKABLE && KW == 2 && NV >= 1;
	const bool	hashed = HASHABLE && want_hashed && packed != nullptr && !scatter;
	size_t		in_bytes = rows * sizeof(Row);	/* moved_in's: the packed rows, or the hashed layout */

#if GPUGB_PARTITION_MIXED_KEYS
	/* Mixed words (gpugb_device.h): an int32 key and one sum, where the caller wants them and no scatter. */
	constexpr bool MIXABLE = PACKABLE && KW == 1 && NV == 1 && !TIGHT;
	const bool	mixed = MIXABLE && want_mixed && packed != nullptr && !scatter;

	/*
	 * Gathered rows (GPUGB_GATHERED_KEY_WORDS, gpugb_device.h): an int32 key
	 * and two to four sums, under the same conditions, where CUB's sort
	 * takes more than one pass (GPUGB_GATHER_MIN_BITS); row numbers of 32
	 * bits.
	 */
	constexpr bool GATHERABLE = PACKABLE && KW == 1 && NV >= 2 && !TIGHT;
	const bool	gathered = GATHERABLE && want_mixed && packed != nullptr && !scatter &&
		!gb->spec.partition_ungathered_values && bits >= GPUGB_GATHER_MIN_BITS && n <= (int64_t) UINT32_MAX;
	/* Two sums carried by the sort (GPUGB_CARRIED_KEY_WORDS), not read through row numbers. */
	const bool	carried = gathered && NV <= GPUGB_CARRIED_MAX_SUMS && !gb->spec.partition_uncarried_values;

	/* Carried values sit at moved_in's start before the sort: no more than the packed rows' bytes. */
	static_assert(!GATHERABLE || sizeof(GpugbSplitValues<NV>) <= sizeof(Row), "carried values fit moved_in");

	static_assert(!MIXABLE || sizeof(Row) == 8, "a mixed word is a packed row's size");
	/* A partition within the mixed key's 32 bits: above them the value's would split a key's rows. */
	static_assert(GPUGB_PARTITION_MAX_BITS <= 32, "partitions of at most 32 bits");
#else
	(void) want_mixed;
#endif
	if (!scatter)
		GPUGB_TRY(sort(nullptr, (int64_t) rows, nullptr));	/* the scratch's size */
	/*
	 * Hashed rows' pairs: scratch and buffers for them and for the packed
	 * rows' sort, which a later launch of the set may take (no scatter
	 * then), so that none of them frees a buffer to grow it (a cudaFree
	 * waits for the whole device).  Their layout outgrows the tight 12-byte
	 * rows by its 16-byte alignment.
	 */
	if constexpr (HASHABLE)
	{
		if (hashed)
		{
			size_t		pairs_bytes = 0;

			GPUGB_TRY((sort_hashed<Packer, NV>(b, nullptr, n, (int64_t) rows, shift, bits, nullptr, &pairs_bytes,
											   stream)));
			temp_bytes = pairs_bytes > temp_bytes ? pairs_bytes : temp_bytes;
			if (gpugb_split_bytes<NV>((int64_t) rows) > in_bytes)
				in_bytes = gpugb_split_bytes<NV>((int64_t) rows);
			if (gpugb_split_bytes<NV>((int64_t) rows) > out_bytes)
				out_bytes = gpugb_split_bytes<NV>((int64_t) rows);
		}
	}
#if GPUGB_PARTITION_MIXED_KEYS
	/*
	 * Only the handle's first launch sorts mixed words; its set's later
	 * launches sort pairs, whose scratch holds more (CUB's alternate
	 * buffers: 10 bytes a row for 2-byte partitions and 8-byte rows, 8 for
	 * the words).  Sized for both now, so that none of them frees it to
	 * grow it (a cudaFree waits for the whole device).
	 */
	if (mixed)
	{
		size_t		words_bytes = 0;

		GPUGB_TRY(sort_mixed_words<Packer>(b, nullptr, n, (int64_t) rows, bits, nullptr, &words_bytes, stream));
		temp_bytes = words_bytes > temp_bytes ? words_bytes : temp_bytes;
	}
	/*
	 * The same for gathered rows' pairs; their layout (8 bytes a row of key
	 * and row number, and 8 or 16 of values) outgrows the packed rows.
	 */
	if constexpr (GATHERABLE)
	{
		if (gathered)
		{
			size_t		pairs_bytes = 0;

			GPUGB_TRY((sort_gathered<Packer, NV>(b, nullptr, n, (int64_t) rows, bits, carried, nullptr, &pairs_bytes,
												 stream)));
			temp_bytes = pairs_bytes > temp_bytes ? pairs_bytes : temp_bytes;
			if (gpugb_split_bytes<NV>((int64_t) rows) > out_bytes)
				out_bytes = gpugb_split_bytes<NV>((int64_t) rows);
		}
	}
#endif

	/*
	 * The scatter writes the rows straight to moved_out: no moved_in.  A
	 * gathered launch needs only its row numbers there (4 bytes a row; a
	 * carried one its values, 8) but
	 * takes the packed rows' size, which the set's later launches sort: 6
	 * GiB at 2^28 rows of four sums, where 1 would do for a handle of one
	 * launch (a review's note, session 51; not changed for want of a GPU run).
	 */
	GpugbStatus st = scatter ? GPUGB_OK : ensure_buf(gb, &b->moved_in, in_bytes, "moved rows");

	if (st == GPUGB_OK)
		st = ensure_buf(gb, &b->moved_out, out_bytes, "moved rows");
	/*
	 * The int64 columns now only for the generic kernel, which reads them:
	 * rows left packed get theirs where the launch lists retries
	 * (gpugb_partition_unpack_for_retries).
	 */
	const bool	unpack_now = !(PACKABLE && packed != nullptr);

	if (st == GPUGB_OK && unpack_now)
		st = ensure_buf(gb, &b->moved_cols, rows * 8 * (1 + NV), "moved columns");
	if (st == GPUGB_OK)
		st = ensure_buf(gb, &b->moved_temp, temp_bytes, scatter ? "moved rows' scan scratch" :
						"moved rows' sort scratch");
	if (st == GPUGB_OUT_OF_MEMORY)
	{
		/*
		 * No room: the row numbers' sort (the caller's path) needs none of
		 * this; later launches do not try again (each cudaFree waits for
		 * the whole device).
		 */
		gb->move_refused = true;
		gpugb_dev_free(&gb->acct, &b->moved_in);
		gpugb_dev_free(&gb->acct, &b->moved_out);
		gpugb_dev_free(&gb->acct, &b->moved_cols);
		gpugb_dev_free(&gb->acct, &b->moved_temp);
		return GPUGB_OK;
	}
	GPUGB_TRY(st);

	if (unpack_now)
	{
		int64_t    *cols = (int64_t *) b->moved_cols.ptr;

		c.key_out = cols;
		for (int a = 0; a < NV; a++)
			c.out[a] = cols + (size_t) (1 + a) * rows;
	}

	const Packer pk = {p, c, shift};

	if (scatter)
	{
		/* scatter is only ever true for packable rows: the other instances need no scatter kernels. */
		if constexpr (PACKABLE)
			GPUGB_TRY(scatter_rows(b, pk, n, bits, stream));
		gb->stats.partition_scattered_launches++;
	}
	else if (hashed)
	{
		temp_bytes = b->moved_temp.bytes;
		if constexpr (HASHABLE)
			GPUGB_TRY((sort_hashed<Packer, NV>(b, &pk, n, n, shift, bits, b->moved_temp.ptr, &temp_bytes, stream)));
		gb->stats.partition_hashed_launches++;
	}
#if GPUGB_PARTITION_MIXED_KEYS
	else if (mixed)
	{
		temp_bytes = b->moved_temp.bytes;
		GPUGB_TRY(sort_mixed_words<Packer>(b, &pk, n, n, bits, b->moved_temp.ptr, &temp_bytes, stream));
		gb->stats.partition_mixed_launches++;
	}
	else if (gathered)
	{
		temp_bytes = b->moved_temp.bytes;
		if constexpr (GATHERABLE)
			GPUGB_TRY((sort_gathered<Packer, NV>(b, &pk, n, n, bits, carried, b->moved_temp.ptr, &temp_bytes,
												 stream)));
		gb->stats.partition_mixed_launches++;
		gb->stats.partition_gathered_launches++;
		if (carried)
			gb->stats.partition_carried_launches++;
	}
#endif
	else
	{
		temp_bytes = b->moved_temp.bytes;
		GPUGB_TRY(sort(&pk, n, b->moved_temp.ptr));
		if (narrow)
			gb->stats.partition_narrow_sort_launches++;
	}
	*did = true;
	if constexpr (PACKABLE)
	{
		if (packed != nullptr)
		{
			packed->rows = b->moved_out.ptr;
			packed->n = n;
			packed->key_words = KW;
			packed->n_values = NV;
			packed->bounds_ready = scatter;
			packed->pitch = (int64_t) rows;
			packed->sorted_part_bytes = narrow && !scatter ? 2 : 4;
			if (hashed)
			{
				/* The layout's sorted hashes come first, and their bits from shift are the partitions. */
				packed->key_words = GPUGB_HASHED_KEY_WORDS;
				packed->sorted_part_bytes = GPUGB_SORTED_PARTS_HASHED;
			}
#if GPUGB_PARTITION_MIXED_KEYS
			if (mixed)
			{
				/* The words are the rows, and their top bits the partitions (launch.cu's bounds). */
				packed->key_words = GPUGB_MIXED_KEY_WORDS;
				packed->sorted_part_bytes = 8;
			}
			if (gathered)
			{
				/* The layout's sorted mixed keys come first, and their top bits are the partitions. */
				packed->key_words = carried ? GPUGB_CARRIED_KEY_WORDS : GPUGB_GATHERED_KEY_WORDS;
				packed->sorted_part_bytes = GPUGB_SORTED_PARTS_MIXED32;
			}
#endif
			return GPUGB_OK;
		}
	}
	gpugb_move_unpack_kernel<KW, VW, NV, TIGHT><<<gpugb_grid_for(n, 256), 256, 0, stream>>>(
		(const Row *) b->moved_out.ptr, n, c);
	return GPUGB_LAUNCHED("gpugb_move_unpack_kernel");
}

/* The columns the unpack for retries writes: those that packed rows name. */
static GpugbMoveCols
retry_cols(const GpugbPackedRows &packed)
{
	GpugbMoveCols c = {};

	c.key_out = packed.key_out;
	for (int a = 0; a < packed.n_values; a++)
		c.out[a] = packed.value_out[a];
	return c;
}

/* The unpack of packed rows of a key of KW words and NV int32 values (an 8-byte key and one value: the tight rows). */
template <int KW, int NV>
static GpugbStatus
unpack_packed_for_retries(const GpugbPackedRows &packed, cudaStream_t stream)
{
	gpugb_move_unpack_kernel<KW, 1, NV, KW == 2 && NV == 1><<<gpugb_grid_for(packed.n, 256), 256, 0, stream>>>(
		(const GpugbMovedRow<gpugb_packed_row_words(KW, NV)> *) packed.rows, packed.n, retry_cols(packed));
	return GPUGB_LAUNCHED("gpugb_move_unpack_kernel");
}

/* Queues the unpack of packed rows into the columns they name. */
static GpugbStatus
unpack_packed_rows(const GpugbPackedRows &packed, cudaStream_t stream)
{
	static_assert(GPUGB_PARTITION_LEAN_MAX_SUMS == GPUGB_LEAN_MAX_SUMS, "gpugb_for_lean_sums' instances");
	if (packed.key_words == GPUGB_HASHED_KEY_WORDS)
		return gpugb_for_lean_sums(packed.n_values, [&](auto nv) -> GpugbStatus {
			constexpr int NV = decltype(nv)::value;

			if constexpr (NV >= 1)
			{
				gpugb_move_unpack_hashed_kernel<NV><<<gpugb_grid_for(packed.n, 256), 256, 0, stream>>>(
					packed.rows, packed.n, retry_cols(packed));
				return GPUGB_LAUNCHED("gpugb_move_unpack_hashed_kernel");
			}
			else
				return GPUGB_INVALID_ARGUMENT;	/* hashed rows hold one to four sums */
		});
#if GPUGB_PARTITION_MIXED_KEYS
	if (packed.key_words == GPUGB_MIXED_KEY_WORDS)
	{
		gpugb_move_unpack_mixed_kernel<<<gpugb_grid_for(packed.n, 256), 256, 0, stream>>>(
			(const unsigned long long *) packed.rows, packed.n, packed.key_out, packed.value_out[0]);
		return GPUGB_LAUNCHED("gpugb_move_unpack_mixed_kernel");
	}
	if (packed.key_words == GPUGB_GATHERED_KEY_WORDS || packed.key_words == GPUGB_CARRIED_KEY_WORDS)
		return gpugb_for_lean_sums(packed.n_values, [&](auto nv) -> GpugbStatus {
			constexpr int NV = decltype(nv)::value;

			if constexpr (NV >= 2)
			{
				gpugb_move_unpack_gathered_kernel<NV><<<gpugb_grid_for(packed.n, 256), 256, 0, stream>>>(
					packed.rows, packed.n, packed.key_words == GPUGB_CARRIED_KEY_WORDS, retry_cols(packed));
				return GPUGB_LAUNCHED("gpugb_move_unpack_gathered_kernel");
			}
			else
				return GPUGB_INVALID_ARGUMENT;	/* gathered rows hold two to four sums */
		});
#endif
	return gpugb_for_lean_sums(packed.n_values, [&](auto nv) {
		constexpr int NV = decltype(nv)::value;

		return packed.key_words == 2 ? unpack_packed_for_retries<2, NV>(packed, stream) :
			unpack_packed_for_retries<1, NV>(packed, stream);
	});
}

GpugbStatus
gpugb_partition_unpack_for_retries(GpugbGroupBy *gb, GpugbStrideSet *set, uint32_t n_retry)
{
	GpugbPackedRows *packed = &set->retry_unpack;

	if (packed->rows == nullptr || n_retry == 0)
	{
		*packed = GpugbPackedRows();
		return GPUGB_OK;
	}

	GpugbSortBufs *b = &set->sort;
	const size_t rows = (size_t) packed->pitch;	/* as the generic kernel's columns */
	const size_t bytes = rows * 8 * (1 + (size_t) packed->n_values);
	GpugbStatus st = ensure_buf(gb, &b->moved_cols, bytes, "moved columns");

	if (st == GPUGB_OUT_OF_MEMORY)
	{
		/* The set's launch is done: its sort's input and scratch make room (the next launch allocates them again). */
		gpugb_dev_free(&gb->acct, &b->moved_temp);
		gpugb_dev_free(&gb->acct, &b->moved_in);
		st = ensure_buf(gb, &b->moved_cols, bytes, "moved columns");
	}
	if (st != GPUGB_OK)
	{
		*packed = GpugbPackedRows();
		return st;
	}

	/*
	 * Packed rows hold each value column once, in the launch's order
	 * (gpugb_partition_move_rows keeps them packed only so): the key's
	 * column, then value a's at 1 + a, as the generic kernel's columns.
	 */
	int64_t    *cols = (int64_t *) b->moved_cols.ptr;

	packed->key_out = cols;
	set->params.key_values[0] = cols;
	for (int a = 0; a < packed->n_values; a++)
	{
		packed->value_out[a] = cols + (size_t) (1 + a) * rows;
		set->params.vals[a].values = packed->value_out[a];
	}
	st = unpack_packed_rows(*packed, set->stream);
	*packed = GpugbPackedRows();
	return st;
}

template <int KW, int VW>
static GpugbStatus
move_rows_nv(GpugbGroupBy *gb, GpugbSortBufs *b, const GpugbAggParams &p, const GpugbMoveCols &c,
			 int n_cols, int shift, int bits, cudaStream_t stream, bool *did, GpugbPackedRows *packed,
			 bool want_mixed, bool want_hashed)
{
	static_assert(GPUGB_MOVE_MAX_VALUE_INPUTS == 1 && GPUGB_PARTITION_LEAN_MAX_SUMS == 4,
				  "instances for 0 and 1 value inputs, and 2 to 4 packed");
	/* No value column has no width: the caller passes VW 1 then, so VW 2 needs no NV 0 instance. */
	if constexpr (VW == 2)
		return move_rows<KW, 2, 1>(gb, b, p, c, shift, bits, stream, did);
	else
	{
		/* Two to four inputs only packed (gpugb_partition_move_rows). */
		return gpugb_for_lean_sums(n_cols, [&](auto nv) {
			constexpr int NV = decltype(nv)::value;
			constexpr bool TIGHT = KW == 2 && NV == 1;

			/* An 8-byte key and a 4-byte value: three words, 12 bytes (16 where padded, for A/B runs). */
			if (TIGHT && gb->spec.partition_move_padded)
				return move_rows<KW, 1, NV>(gb, b, p, c, shift, bits, stream, did);
			return move_rows<KW, 1, NV, TIGHT>(gb, b, p, c, shift, bits, stream, did, packed, want_mixed,
											   want_hashed);
		});
	}
}

GpugbStatus
gpugb_partition_move_rows(GpugbGroupBy *gb, GpugbSortBufs *b, const GpugbAggParams &p,
						  int shift, int bits, bool want_packed, bool want_mixed, bool want_hashed,
						  cudaStream_t stream, GpugbAggParams *moved, GpugbPackedRows *packed, bool *did)
{
	GpugbMoveCols c = {};
	int			col_of[GPUGB_MAX_AGGS];
	int			n_cols = 0;
	bool		values_fit = true;

	*did = false;
	*packed = GpugbPackedRows();
	if (gb->move_refused || gb->spec.partition_rows_only || p.n_keys != 1 ||
		p.key_nulls[0] != nullptr || p.row_list != nullptr || p.run_gid != nullptr || b->rows < p.nrows)
		return GPUGB_OK;
	for (int k = 1; k < p.n_counts; k++)
		if (p.count_nulls[k] != nullptr)
			return GPUGB_OK;
	/* One moved column per distinct input (sum, min and max of x share x's). */
	for (int a = 0; a < p.n_values; a++)
	{
		if (p.vals[a].nulls != nullptr)
			return GPUGB_OK;
		col_of[a] = -1;
		for (int m = 0; m < n_cols; m++)
			if (c.in[m] == p.vals[a].values)
				col_of[a] = m;
		if (col_of[a] >= 0)
			continue;
		if (n_cols == GPUGB_PARTITION_LEAN_MAX_SUMS)
			return GPUGB_OK;

		int			input = gb->value_cols[p.vals[a].value_col].input;

		values_fit = values_fit && input >= 0 && input < 64 &&
			(gb->spec.inputs_fit_int32 >> input & 1) != 0;
		col_of[a] = n_cols;
		c.in[n_cols++] = p.vals[a].values;
	}

	bool		key32 = gb->spec.key_fits_int32;
	GpugbStatus st;

	/*
	 * Packed rows are looked up by their key word (gpugb_find_or_insert_word):
	 * keyed slots for an int32 key; pair slots for an 8-byte key (session
	 * 35's experiment, the default since session 36: 1.03-1.13x faster
	 * forced with none or one sum, 1.44-1.98x with two to four, H200, 2^28
	 * rows, 2^20-2^24 groups), but not in the padded rows of
	 * spec.partition_move_padded.  Their value words are the
	 * launch's value columns in order (the lean kernel's NV is p.n_values).
	 */
	bool		packed_key = key32 ? p.slot_format == GPUGB_SLOTS_KEYED32 :
		p.slot_format == GPUGB_SLOTS_PAIR && !gb->spec.partition_move_padded;
	bool		keep_packed = want_packed && packed_key && values_fit && n_cols == p.n_values;

	/*
	 * More inputs than GPUGB_MOVE_MAX_VALUE_INPUTS move only to stay packed
	 * for the lean kernel: the generic kernel over their unpacked columns
	 * cost more than the row numbers' sort (gpugb_device.h says where).
	 */
	if (n_cols > GPUGB_MOVE_MAX_VALUE_INPUTS && !keep_packed)
		return GPUGB_OK;

	if (key32 && values_fit)
		st = move_rows_nv<1, 1>(gb, b, p, c, n_cols, shift, bits, stream, did, keep_packed ? packed : nullptr,
								   want_mixed, false);
	else if (key32)
		st = move_rows_nv<1, 2>(gb, b, p, c, n_cols, shift, bits, stream, did, nullptr, false, false);
	else if (values_fit)
		st = move_rows_nv<2, 1>(gb, b, p, c, n_cols, shift, bits, stream, did, keep_packed ? packed : nullptr,
								   false, want_hashed);
	else
		st = move_rows_nv<2, 2>(gb, b, p, c, n_cols, shift, bits, stream, did, nullptr, false, false);
	if (st != GPUGB_OK || !*did)
		return st;

	/* The launch over the sorted columns: row i is sorted position i. */
	*moved = p;
	if (packed->rows != nullptr)
	{
		/* No columns yet: gpugb_partition_unpack_for_retries names them where retries come. */
		moved->key_values[0] = nullptr;
		for (int a = 0; a < p.n_values; a++)
			moved->vals[a].values = nullptr;
		return GPUGB_OK;
	}

	int64_t    *cols = (int64_t *) b->moved_cols.ptr;

	moved->key_values[0] = cols;
	for (int a = 0; a < p.n_values; a++)
		moved->vals[a].values = cols + (size_t) (1 + col_of[a]) * (size_t) b->rows;
	return GPUGB_OK;
}
