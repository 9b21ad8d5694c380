/*-------------------------------------------------------------------------
 * textorder.c
 *    min/max of text, varchar and char(n) on the device.
 *
 * The device compares 8-byte words, and the order of texts is the
 * collation's (varstr_cmp), which no fixed-width encoding of the bytes
 * keeps.  So the filler gives each distinct text a dictionary id
 * (textdict.c, exact bytes; char(n) without its trailing spaces, as
 * bpcharcmp compares), and before a stride goes to the device the ids it
 * holds are replaced by their ranks among all the texts met so far, in the
 * collation's order.  The device then takes min/max of ranks like any
 * integers.
 *
 * New texts can rank between old ones, which moves the old ranks up.  The
 * device's states hold ranks of the old order, so the executor then asks
 * the device to rewrite them through the map old rank -> new rank
 * (gpugb_groupby_remap_values), which first waits for every stride already
 * submitted: each stride is aggregated entirely in the order current when
 * it was submitted.  The map is monotone, so min/max of the rewritten
 * ranks are the rewritten min/max.  When the new texts all sort after the
 * old ones (ascending input, or no new text), nothing moves and the device
 * is not disturbed.
 *
 * Under a deterministic collation varstr_cmp orders distinct byte strings
 * strictly (it breaks ties by bytes), and equal strings share one id, so
 * ranks are a strict order and the minimum is the very value PostgreSQL
 * returns.  The planner declines nondeterministic collations, and
 * parallel ingest (a worker's ids would need the shared dictionary's
 * bytes here).
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/varlena.h"

#include "device_ops.h"
#include "exec.h"
#include "textorder.h"

struct GpugbTextOrder
{
	MemoryContext cxt;
	GpugbTextDict *dict;
	Oid			collation;
	int64		n;				/* ids 1 .. n are ranked */
	int64		capacity;
	int64	   *sorted;			/* [rank]: the id of that rank, rank 0 .. n - 1 */
	int64	   *rank;			/* [id - 1]: its rank */
	int64	   *map;			/* old rank -> new rank, of the last refresh */
};

GpugbTextOrder *
gpugb_textorder_create(MemoryContext parent, GpugbTextDict *dict, Oid collation)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "gpugb text order",
											  ALLOCSET_DEFAULT_SIZES);
	GpugbTextOrder *order = MemoryContextAllocZero(cxt, sizeof(GpugbTextOrder));

	order->cxt = cxt;
	order->dict = dict;
	order->collation = collation;
	return order;
}

/* The collation's order of two ids' texts; never 0 for two ids. */
static int
compare_ids(int64 a, int64 b, const GpugbTextOrder *order)
{
	int			len_a,
				len_b;
	const char *bytes_a = gpugb_textdict_bytes(order->dict, a, &len_a);
	const char *bytes_b = gpugb_textdict_bytes(order->dict, b, &len_b);

	return varstr_cmp(bytes_a, len_a, bytes_b, len_b, order->collation);
}

static int
compare_id_pointers(const void *a, const void *b, void *arg)
{
	return compare_ids(*(const int64 *) a, *(const int64 *) b, arg);
}

static void
reserve(GpugbTextOrder *order, int64 n)
{
	Size		bytes;

	if (n <= order->capacity)
		return;
	order->capacity = Max(n, Max(1024, order->capacity * 2));
	bytes = order->capacity * sizeof(int64);
	if (order->sorted == NULL)
	{
		order->sorted = MemoryContextAllocHuge(order->cxt, bytes);
		order->rank = MemoryContextAllocHuge(order->cxt, bytes);
		order->map = MemoryContextAllocHuge(order->cxt, bytes);
	}
	else
	{
		order->sorted = repalloc_huge(order->sorted, bytes);
		order->rank = repalloc_huge(order->rank, bytes);
		order->map = repalloc_huge(order->map, bytes);
	}
}

/*
 * Ranks the texts the dictionary gained since the last call.  Returns NULL
 * when no old rank moved, else the map old rank -> new rank of the old
 * ranks 0 .. *map_len - 1 (valid until the next call).
 *
 * The new ids are sorted among themselves, each finds its place among the
 * old ones by binary search (in increasing order, so each search starts
 * where the last ended), and the two lists merge from the back in place:
 * O(m log n) comparisons for m new texts, not O(n), so a high-cardinality
 * input does not pay a full pass of string comparisons per stride.
 */
const int64 *
gpugb_textorder_refresh(GpugbTextOrder *order, int64 *map_len)
{
	int64		total = gpugb_textdict_count(order->dict);
	int64		old = order->n;
	int64		m = total - old;
	int64	   *fresh;
	int64	   *place;
	int64		lo = 0;
	int64		i,
				j,
				k;
	bool		moved;

	*map_len = 0;
	if (m <= 0)
		return NULL;
	reserve(order, total);
	fresh = MemoryContextAllocHuge(order->cxt, m * sizeof(int64));
	place = MemoryContextAllocHuge(order->cxt, m * sizeof(int64));
	for (j = 0; j < m; j++)
		fresh[j] = old + 1 + j;
	qsort_arg(fresh, m, sizeof(int64), compare_id_pointers, order);

	/* place[j]: how many old texts sort before fresh[j] */
	for (j = 0; j < m; j++)
	{
		int64		hi = old;

		while (lo < hi)
		{
			int64		mid = lo + (hi - lo) / 2;

			if (compare_ids(order->sorted[mid], fresh[j], order) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		place[j] = lo;
	}
	moved = place[0] < old;

	/* merge from the back: old rank i goes after fresh[j] iff i >= place[j] */
	for (i = old - 1, j = m - 1, k = total - 1; j >= 0; k--)
	{
		if (i >= 0 && i >= place[j])
		{
			order->map[i] = k;
			order->sorted[k] = order->sorted[i];
			i--;
		}
		else
			order->sorted[k] = fresh[j--];
	}
	for (; i >= 0; i--)
		order->map[i] = i;
	for (k = place[0]; k < total; k++)
		order->rank[order->sorted[k] - 1] = k;
	order->n = total;
	pfree(fresh);
	pfree(place);
	if (!moved)
		return NULL;
	*map_len = old;
	return order->map;
}

int64
gpugb_textorder_rank(const GpugbTextOrder *order, int64 id)
{
	if (id < 1 || id > order->n)
		elog(ERROR, "gpugb: text id " INT64_FORMAT " has no rank", id);
	return order->rank[id - 1];
}

/* The text of a rank, as the aggregate's type: char(n) padded again. */
Datum
gpugb_textorder_datum(const GpugbTextOrder *order, GpugbColumnType type, int64 rank)
{
	int			len;
	const char *bytes;
	Datum		value;

	if (rank < 0 || rank >= order->n)
		elog(ERROR, "gpugb: text rank " INT64_FORMAT " out of range", rank);
	bytes = gpugb_textdict_bytes(order->dict, order->sorted[rank], &len);
	value = PointerGetDatum(cstring_to_text_with_len(bytes, len));
	if (type.kind == GPUGB_VALUE_BPCHAR_RANK)
		value = DirectFunctionCall3(bpchar, value, Int32GetDatum(type.typmod),
									BoolGetDatum(false));
	return value;
}

/*
 * Executor set-up: a dictionary and an order for each child column that a
 * min/max of text reads, in the collation of its aggregates.
 */
void
gpugb_text_ranks_begin(GpugbScanState *st, MemoryContext cxt)
{
	GpugbInputLayout *layout = &st->layout;

	for (int c = 0; c < layout->n_child_columns; c++)
	{
		GpugbValueKind kind = layout->child_types[c].kind;
		Oid			collation = InvalidOid;

		layout->child_dict[c] = NULL;
		layout->child_order[c] = NULL;
		if (kind != GPUGB_VALUE_TEXT_RANK && kind != GPUGB_VALUE_BPCHAR_RANK)
			continue;
		for (int a = 0; a < st->info.n_aggs; a++)
		{
			int			input = st->info.agg_inputs[a];

			if (input < 0 || layout->input_column[input] != c ||
				st->finish[a] != GPUGB_FINISH_MINMAX)
				continue;
			if (OidIsValid(collation) && collation != st->info.agg_collations[a])
				elog(ERROR, "gpugb: min/max over one text column in two collations");
			collation = st->info.agg_collations[a];
		}
		if (st->shared != NULL || IsParallelWorker())
			elog(ERROR, "gpugb: min/max of text under parallel ingest");
		layout->child_dict[c] = gpugb_textdict_create(cxt);
		layout->child_order[c] = gpugb_textorder_create(cxt, layout->child_dict[c], collation);
	}
}

/*
 * Before a stride is submitted: rank the texts it brought, move the
 * device's old ranks if new texts came between them, and rewrite the
 * stride's min/max inputs from ids to ranks.
 */
GpugbStatus
gpugb_text_ranks_prepare(GpugbScanState *st, GpugbStride *stride)
{
	GpugbInputLayout *layout = &st->layout;

	for (int c = 0; c < layout->n_child_columns; c++)
	{
		GpugbTextOrder *order = layout->child_order[c];
		int64		map_len;
		const int64 *map;

		if (order == NULL)
			continue;
		map = gpugb_textorder_refresh(order, &map_len);
		if (map != NULL)
		{
			int			aggs[GPUGB_MAX_AGGS];
			int			n_aggs = 0;

			/* the query's aggregates come first on the device, in order */
			for (int a = 0; a < st->info.n_aggs; a++)
			{
				int			input = st->info.agg_inputs[a];

				if (input >= 0 && layout->input_column[input] == c &&
					layout->input_expr[input] == NULL && st->finish[a] == GPUGB_FINISH_MINMAX)
					aggs[n_aggs++] = a;
			}
			if (n_aggs > 0)
			{
				GpugbStatus status = st->ops->remap_values(st->gb, aggs, n_aggs, map, map_len);

				if (status != GPUGB_OK)
					return status;
			}
		}
		for (int i = 0; i < layout->n_child_inputs; i++)
		{
			int64	   *values = stride->input_values[i];
			const uint8 *nulls = stride->input_nulls[i];

			if (layout->input_column[i] != c || layout->input_expr[i] != NULL)
				continue;
			for (int64 row = 0; row < stride->nrows; row++)
				if (!nulls[row])
					values[row] = gpugb_textorder_rank(order, values[row]);
		}
	}
	return GPUGB_OK;
}
