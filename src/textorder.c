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
 * returns.  The planner declines nondeterministic collations.
 *
 * Every text column of a query shares the node's one dictionary
 * (layout->text_dict, long text keys' too), and an order ranks only the
 * ids its own column brought: before each stride, the ids in it that have
 * no rank yet are collected (once each, in O(rows)), and only they are
 * ranked.  Under parallel ingest that dictionary is the query's shared one
 * (textdict.c), so leader and workers give a text the same id, and the
 * leader reads the bytes of the workers' ids from its published index
 * (O(1) each).  Ids are taken from a shared counter, so the leader may not
 * yet see an id some worker is inserting; but it never ranks those: every
 * id in a stride it submits was published before it reached the stride
 * (its own fill, or a slot a worker handed over under the slot spinlock
 * after its fill), so an unreadable id there is an error, not a race.
 *
 * A rescan under parallel ingest empties the shared dictionary (or the
 * DSM set-up makes a new one), and its ids then mean other texts: the
 * executor empties the orders with it (gpugb_text_ranks_reset).
 *
 * Costs per stride: one pass over the rows of each min/max input to note
 * new ids and one to translate ids to ranks, O(m log m + m log n) string
 * comparisons for m new texts among n ranked, and a remap on the device
 * only when a new text sorts before an old one.  Memory: an order's rank
 * table is indexed by id, so it spans every id of the shared dictionary
 * (other columns' texts and long keys too): 8 bytes per id per order.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/varlena.h"

#include "device_ops.h"
#include "exec.h"
#include "textorder.h"

/* rank[id - 1] of an id with no rank (yet), or noted for the next refresh */
#define UNRANKED (-1)
#define PENDING (-2)

struct GpugbTextOrder
{
	MemoryContext cxt;
	GpugbTextDict *dict;
	Oid			collation;
	int64		n;				/* ids ranked */
	int64		capacity;		/* of sorted and map */
	int64	   *sorted;			/* [rank]: the id of that rank, rank 0 .. n - 1 */
	int64	   *map;			/* old rank -> new rank, of the last refresh */
	int64		id_capacity;	/* of rank: ids 1 .. id_capacity */
	int64	   *rank;			/* [id - 1]: its rank, UNRANKED or PENDING */
	int64		n_pending;		/* ids noted since the last refresh, each once */
	int64		pending_capacity;
	int64	   *pending;
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

/*
 * Empty, over dict: its ids will be other texts' (a dictionary reset or
 * replaced for a rescan).
 */
void
gpugb_textorder_reset(GpugbTextOrder *order, GpugbTextDict *dict)
{
	order->dict = dict;
	order->n = 0;
	order->n_pending = 0;
	if (order->rank)
		for (int64 i = 0; i < order->id_capacity; i++)
			order->rank[i] = UNRANKED;
}

/* The bytes of an id the order has met: always readable (see the header). */
static const char *
id_bytes(const GpugbTextOrder *order, int64 id, int *len)
{
	const char *bytes = gpugb_textdict_bytes(order->dict, id, len);

	if (bytes == NULL)
		elog(ERROR, "gpugb: text id " INT64_FORMAT " is not in the dictionary", id);
	return bytes;
}

/* The collation's order of two ids' texts; never 0 for two ids. */
static int
compare_ids(int64 a, int64 b, const GpugbTextOrder *order)
{
	int			len_a,
				len_b;
	const char *bytes_a = id_bytes(order, a, &len_a);
	const char *bytes_b = id_bytes(order, b, &len_b);

	return varstr_cmp(bytes_a, len_a, bytes_b, len_b, order->collation);
}

static int
compare_id_pointers(const void *a, const void *b, void *arg)
{
	return compare_ids(*(const int64 *) a, *(const int64 *) b, arg);
}

/* Room for n ranks. */
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
		order->map = MemoryContextAllocHuge(order->cxt, bytes);
	}
	else
	{
		order->sorted = repalloc_huge(order->sorted, bytes);
		order->map = repalloc_huge(order->map, bytes);
	}
}

/* rank[] covers id. */
static void
reserve_id(GpugbTextOrder *order, int64 id)
{
	int64		old = order->id_capacity;

	if (id <= old)
		return;
	order->id_capacity = Max(id, Max(1024, old * 2));
	if (order->rank == NULL)
		order->rank = MemoryContextAllocHuge(order->cxt, order->id_capacity * sizeof(int64));
	else
		order->rank = repalloc_huge(order->rank, order->id_capacity * sizeof(int64));
	for (int64 i = old; i < order->id_capacity; i++)
		order->rank[i] = UNRANKED;
}

/*
 * Notes the ids of a stride's column (non-null rows) that have no rank
 * yet, for the next refresh: O(rows), each new id once.
 */
void
gpugb_textorder_note(GpugbTextOrder *order, const int64 *ids, const uint8 *nulls, int64 nrows)
{
	for (int64 row = 0; row < nrows; row++)
	{
		int64		id = ids[row];

		if (nulls[row])
			continue;
		if (unlikely(id < 1))
			elog(ERROR, "gpugb: text id " INT64_FORMAT " out of range", id);
		if (likely(id <= order->id_capacity && order->rank[id - 1] != UNRANKED))
			continue;
		reserve_id(order, id);
		if (order->n_pending == order->pending_capacity)
		{
			order->pending_capacity = Max(1024, order->pending_capacity * 2);
			if (order->pending == NULL)
				order->pending = MemoryContextAllocHuge(order->cxt,
														order->pending_capacity * sizeof(int64));
			else
				order->pending = repalloc_huge(order->pending,
											   order->pending_capacity * sizeof(int64));
		}
		order->pending[order->n_pending++] = id;
		order->rank[id - 1] = PENDING;
	}
}

/*
 * Ranks the ids noted since the last call.  Returns NULL when no old rank
 * moved, else the map old rank -> new rank of the old ranks 0 ..
 * *map_len - 1 (valid until the next call).
 *
 * The new ids are sorted among themselves, each finds its place among the
 * old ones by binary search (in increasing order, so each search starts
 * where the last ended), and the two lists merge from the back in place:
 * O(m log n) comparisons for m new texts, not O(n), so a high-cardinality
 * input does not pay a full pass of string comparisons per stride.  (The
 * rank table is then rewritten from the first moved rank on: O(n) plain
 * stores at worst, no comparison.)
 */
const int64 *
gpugb_textorder_refresh(GpugbTextOrder *order, int64 *map_len)
{
	int64		old = order->n;
	int64		m = order->n_pending;
	int64		total = old + m;
	int64	   *fresh = order->pending;
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
	place = MemoryContextAllocHuge(order->cxt, m * sizeof(int64));
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
	order->n_pending = 0;
	pfree(place);
	if (!moved)
		return NULL;
	*map_len = old;
	return order->map;
}

int64
gpugb_textorder_rank(const GpugbTextOrder *order, int64 id)
{
	if (id < 1 || id > order->id_capacity || order->rank[id - 1] < 0)
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
	bytes = id_bytes(order, order->sorted[rank], &len);
	value = PointerGetDatum(cstring_to_text_with_len(bytes, len));
	if (type.kind == GPUGB_VALUE_BPCHAR_RANK)
		value = DirectFunctionCall3(bpchar, value, Int32GetDatum(type.typmod),
									BoolGetDatum(false));
	return value;
}

/* Does a min/max of text read some child column (which then needs text_dict)? */
bool
gpugb_text_ranks_needed(const GpugbInputLayout *layout)
{
	for (int c = 0; c < layout->n_child_columns; c++)
		if (layout->child_types[c].kind == GPUGB_VALUE_TEXT_RANK ||
			layout->child_types[c].kind == GPUGB_VALUE_BPCHAR_RANK)
			return true;
	return false;
}

/*
 * Executor set-up: an order over layout->text_dict (made by the caller)
 * for each child column that a min/max of text reads, in the collation of
 * its aggregates.  A worker only encodes ids: it has no order.
 */
void
gpugb_text_ranks_begin(GpugbScanState *st, MemoryContext cxt)
{
	GpugbInputLayout *layout = &st->layout;

	for (int c = 0; c < layout->n_child_columns; c++)
	{
		GpugbValueKind kind = layout->child_types[c].kind;
		Oid			collation = InvalidOid;

		layout->child_order[c] = NULL;
		if (kind != GPUGB_VALUE_TEXT_RANK && kind != GPUGB_VALUE_BPCHAR_RANK)
			continue;
		if (IsParallelWorker())
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
		Assert(layout->text_dict != NULL);
		layout->child_order[c] = gpugb_textorder_create(cxt, layout->text_dict, collation);
	}
}

/*
 * The leader's layout->text_dict was emptied or replaced (parallel ingest,
 * a rescan's DSM set-up): the orders start afresh over it.
 */
void
gpugb_text_ranks_reset(GpugbScanState *st)
{
	GpugbInputLayout *layout = &st->layout;

	for (int c = 0; c < layout->n_child_columns; c++)
		if (layout->child_order[c] != NULL)
			gpugb_textorder_reset(layout->child_order[c], layout->text_dict);
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
		for (int i = 0; i < layout->n_child_inputs; i++)
			if (layout->input_column[i] == c && layout->input_expr[i] == NULL)
				gpugb_textorder_note(order, stride->input_values[i], stride->input_nulls[i],
									 stride->nrows);
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
