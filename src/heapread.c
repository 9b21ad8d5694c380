/*-------------------------------------------------------------------------
 * heapread.c
 *    Reading a plain heap SeqScan's visible rows page by page, without the
 *    executor's per-row calls.
 *
 * A GpuGroupAgg's CPU side is the scan: with the GPU doing the grouping,
 * the time of a GROUP BY over a table is the time to read its rows.  Going
 * through ExecProcNode costs, per row, SeqNext, heap_getnextslot, storing
 * the tuple in a buffer slot (a pin count change), the projection of the
 * target list and the slot's deforming: measured locally, more than half
 * the filler's time on Query B.  Where the input is a SeqScan of a heap
 * table, the filler reads the scan's pages itself instead:
 *
 *  - page by page as heapgetpage reads them (read_page: heapgetpage
 *    itself under SERIALIZABLE), which (in page mode, under an MVCC
 *    snapshot) pins the page, checks every tuple's visibility once and
 *    lists the visible ones in rs_vistuples: exactly what heap_getnextslot
 *    walks, block after block in heapgettup_pagemode's order (parallel
 *    block allocation, synchronized-scan start and reporting);
 *  - the scan descriptor is the SeqScan's own (created as SeqNext creates
 *    it where it does not exist yet), so its rescan, its end and parallel
 *    set-up stay PostgreSQL's;
 *  - a tuple is deformed by the reader itself (locate_attributes): the
 *    attributes up to the last one read are walked as
 *    slot_deform_heap_tuple walks them (NULL bitmap, alignment, varlena
 *    lengths), keeping only where each starts, from offsets computed once
 *    for the leading fixed-length ones of a tuple without NULLs.  Storing
 *    the tuple in the scan's slot and deforming it there cost TPC-H Q1's
 *    fill about a tenth of its time (perf, locally).  A tuple with fewer
 *    attributes than the table has (after ALTER TABLE ADD COLUMN, its
 *    missing values) goes through the scan's slot and slot_getsomeattrs,
 *    as the SeqScan would;
 *  - where the scan's quals (a WHERE) are all made of truth steps
 *    (hostexpr_cond.c: comparisons of columns with constants, IN lists, IS
 *    NULL, AND, OR; none can raise an error), the reader checks them on the
 *    columns' words itself, on the fast path too (rows removed counted as
 *    the scan counts them); any other qual makes every tuple go through the
 *    slot, where the quals are evaluated as ExecScan evaluates them (its
 *    expression context reset per tuple, rows removed counted); where its
 *    target list computes something (a FILTER's condition), the SeqScan's
 *    projection runs too, as in ExecScan.  What is saved then is the
 *    executor's calls per row (and, without a projection, the projection).
 *
 * The SeqScan's EXPLAIN ANALYZE row counts are kept by adding each call's
 * rows to its instrumentation.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/relscan.h"
#include "access/syncscan.h"
#include "access/tableam.h"
#include "executor/executor.h"
#include "executor/instrument.h"
#include "nodes/nodeFuncs.h"
#include "pgstat.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/rel.h"

#include "exec.h"
#include "gpugb.h"
#include "heapread.h"
#include "hostexpr.h"
#include "textqual.h"

struct GpugbHeapReader
{
	SeqScanState *scan_state;
	int			n_columns;
	AttrNumber *attnos;			/* per target list column */
	Form_pg_attribute *atts;	/* of each column */
	/* some column is computed: every row goes through the SeqScan's projection */
	bool		project;
	bool		checked;		/* usable decided */
	bool		usable;
	int			max_attno;		/* the last attribute any column reads */
	/* attributes 1..max_attno: their lengths and alignments (locate_attributes) */
	int16	   *attlens;
	char	   *attaligns;
	/* the leading fixed-length ones: their offsets in a NULL-free tuple */
	int			n_fixed_prefix;
	int		   *offsets;
	int			fixed_prefix_end;	/* the offset after them */
	/* where each of attributes 1..max_attno starts in the row being read, NULL for a NULL */
	const char **attr_ptrs;
	int64		rows;			/* read so far */
	/* gpugb_heap_reader_next_batch's rows, GPUGB_HEAP_READ_BATCH x n_columns */
	Datum	   *batch_values;
	bool	   *batch_isnull;
	/*
	 * The scan's quals as truth programs (hostexpr_cond.c), one per qual,
	 * checked here in their order instead of by ExecQual; n_quals 0 where
	 * they are not all made of truth steps.  A qual column's word is made
	 * once per row, when the first qual that reads it is checked.
	 */
	int			n_quals;
	GpugbHostExpr *qual_programs;
	int		  **qual_reads;		/* per qual: the qual columns it reads */
	int		   *qual_n_reads;
	int			n_qual_columns;
	AttrNumber *qual_attnos;
	Form_pg_attribute *qual_atts;
	GpugbColumnType *qual_types;
	int64	   *qual_words;
	bool	   *qual_nulls;
	int64	   *qual_stamp;		/* the row whose word qual_words holds */
	int64		row_stamp;
	/*
	 * Per qual: true where it is one comparison of an integer column (int2,
	 * int4, int8, date, timestamp) with a constant (qual_programs' only
	 * step, a TRUTH_CMP), which quals_pass checks on the tuple's bytes
	 * without the interpreter (TPC-H Q1's l_shipdate <= ...).
	 */
	bool	   *qual_simple;
	/*
	 * The quals that compare a text column with constants for equality
	 * (textqual.h), checked on the tuple's bytes after the truth programs:
	 * neither kind raises an error, so the order does not change which
	 * rows pass.
	 */
	int			n_text_quals;
	GpugbTextQual *text_quals;
};

/* Does the reader check the scan's quals itself (instead of ExecQual)? */
static inline bool
direct_quals(const GpugbHeapReader *r)
{
	return r->n_quals > 0 || r->n_text_quals > 0;
}

/* Is the qual program one comparison of a by-value integer column with a constant? */
static bool
simple_comparison(GpugbHeapReader *r, const GpugbHostExpr *hx)
{
	GpugbValueKind kind;

	if (hx->nsteps != 1 || hx->steps[0].op != GPUGB_HX_TRUTH_CMP)
		return false;
	kind = r->qual_types[hx->steps[0].column].kind;
	return (kind == GPUGB_VALUE_INT16 || kind == GPUGB_VALUE_INT32 ||
			kind == GPUGB_VALUE_INT64) &&
		r->qual_atts[hx->steps[0].column]->attbyval;
}

/* The word of an integer column's value at p (a by-value attribute of length len). */
static inline int64
integer_word(const char *p, int16 len)
{
	int16		v16;
	int32		v32;
	int64		v64;

	switch (len)
	{
		case sizeof(int16):
			memcpy(&v16, p, sizeof(v16));
			return v16;
		case sizeof(int32):
			memcpy(&v32, p, sizeof(v32));
			return v32;
		default:
			memcpy(&v64, p, sizeof(v64));
			return v64;
	}
}

/* Is var a user column of the scanned table, of the attribute's own type? */
static bool
is_scan_column(SeqScanState *scan_state, TupleDesc desc, Var *var)
{
	return IsA(var, Var) && var->varno == ((Scan *) scan_state->ss.ps.plan)->scanrelid &&
		var->varlevelsup == 0 && var->varattno > 0 && var->varattno <= desc->natts &&
		!TupleDescAttr(desc, var->varattno - 1)->attisdropped &&
		var->vartype == TupleDescAttr(desc, var->varattno - 1)->atttypid;
}

/*
 * Compiles the scan's quals for the reader where every one is either a
 * text equality with constants (textqual.c) or made of truth steps over
 * plain columns of the scanned table of kinds whose word needs no
 * dictionary; else the reader leaves them to ExecQual.
 */
static void
compile_quals(GpugbHeapReader *r, SeqScanState *scan_state, TupleDesc desc)
{
	List	   *quals = scan_state->ss.ps.plan->qual;
	List	   *others = NIL;
	List	   *columns = NIL;
	List	   *programs = NIL;
	GpugbTextQual *text_quals = palloc(sizeof(GpugbTextQual) * list_length(quals));
	int			n_text = 0;
	ListCell   *lc;
	int			n;
	int			max_attno = 0;
	bool	   *reads;

	foreach(lc, quals)
	{
		Var		   *var = gpugb_text_qual_compile(lfirst(lc), &text_quals[n_text]);

		if (var == NULL)
		{
			others = lappend(others, lfirst(lc));
			continue;
		}
		if (!is_scan_column(scan_state, desc, var))
			return;
		text_quals[n_text].attno = var->varattno;
		max_attno = Max(max_attno, var->varattno);
		n_text++;
	}
	if (others != NIL)
	{
		programs = gpugb_hostexpr_compile_quals(others, &columns);
		if (programs == NIL)
			return;
	}
	n = list_length(columns);
	r->qual_attnos = palloc(sizeof(AttrNumber) * Max(n, 1));
	r->qual_atts = palloc(sizeof(Form_pg_attribute) * Max(n, 1));
	r->qual_types = palloc(sizeof(GpugbColumnType) * Max(n, 1));
	foreach(lc, columns)
	{
		Var		   *var = lfirst(lc);
		int			c = foreach_current_index(lc);
		GpugbValueKind kind;

		if (!is_scan_column(scan_state, desc, var))
			return;
		r->qual_attnos[c] = var->varattno;
		r->qual_atts[c] = TupleDescAttr(desc, var->varattno - 1);
		r->qual_types[c] = gpugb_column_type(var->vartype, var->vartypmod, false);
		kind = r->qual_types[c].kind;
		if (kind != GPUGB_VALUE_INT16 && kind != GPUGB_VALUE_INT32 && kind != GPUGB_VALUE_INT64 &&
			kind != GPUGB_VALUE_BOOL && kind != GPUGB_VALUE_FLOAT4 &&
			kind != GPUGB_VALUE_FLOAT8 && kind != GPUGB_VALUE_NUMERIC)
			return;
		max_attno = Max(max_attno, var->varattno);
	}
	r->qual_programs = palloc(sizeof(GpugbHostExpr) * Max(list_length(programs), 1));
	r->qual_reads = palloc(sizeof(int *) * Max(list_length(programs), 1));
	r->qual_n_reads = palloc0(sizeof(int) * Max(list_length(programs), 1));
	r->qual_simple = palloc0(sizeof(bool) * Max(list_length(programs), 1));
	reads = palloc(sizeof(bool) * Max(n, 1));
	foreach(lc, programs)
	{
		int			q = foreach_current_index(lc);

		gpugb_hostexpr_decode(lfirst(lc), 0, BOOLOID, &r->qual_programs[q]);
		r->qual_simple[q] = simple_comparison(r, &r->qual_programs[q]);
		memset(reads, 0, sizeof(bool) * Max(n, 1));
		gpugb_hostexpr_mark_read(lfirst(lc), reads, n);
		r->qual_reads[q] = palloc(sizeof(int) * Max(n, 1));
		for (int c = 0; c < n; c++)
			if (reads[c])
				r->qual_reads[q][r->qual_n_reads[q]++] = c;
	}
	r->n_qual_columns = n;
	r->qual_words = palloc0(sizeof(int64) * Max(n, 1));
	r->qual_nulls = palloc0(sizeof(bool) * Max(n, 1));
	r->qual_stamp = palloc0(sizeof(int64) * Max(n, 1));
	r->max_attno = Max(r->max_attno, max_attno);
	r->n_quals = list_length(programs);
	r->text_quals = text_quals;
	r->n_text_quals = n_text;
}

/*
 * Qual column c's word for this row (made once per row): from where
 * locate_attributes found it (ptrs), or from the slot, deformed up to it;
 * false where the value has no word.
 */
static bool
qual_column(GpugbHeapReader *r, int c, const char **ptrs, TupleTableSlot *slot)
{
	int			a = r->qual_attnos[c] - 1;
	Datum		d;

	if (r->qual_stamp[c] == r->row_stamp)
		return true;
	r->qual_stamp[c] = r->row_stamp;
	r->qual_words[c] = 0;
	if (ptrs != NULL)
	{
		r->qual_nulls[c] = ptrs[a] == NULL;
		d = r->qual_nulls[c] ? (Datum) 0 :
			fetch_att(ptrs[a], r->qual_atts[c]->attbyval, r->qual_atts[c]->attlen);
	}
	else
	{
		slot_getsomeattrs(slot, a + 1);
		d = slot->tts_values[a];
		r->qual_nulls[c] = slot->tts_isnull[a];
	}
	return r->qual_nulls[c] || gpugb_datum_to_word(r->qual_types[c], d, NULL, &r->qual_words[c]);
}

/*
 * Does the row pass the quals?  The truth programs in their order, each
 * reading only its columns, then the text quals, up to the first that is
 * not true, as ExecQual stops there (none raises an error, so which one
 * stops it does not matter):
 * 1 where all are true, 0 where one is not, -1 where a column has no word
 * (the caller asks ExecQual).
 */
static int
quals_pass(GpugbHeapReader *r, const char **ptrs, TupleTableSlot *slot)
{
	r->row_stamp++;
	for (int q = 0; q < r->n_quals; q++)
	{
		int64		truth;
		bool		truth_null;

		if (ptrs != NULL && r->qual_simple[q])
		{
			const GpugbHostExprStep *step = &r->qual_programs[q].steps[0];
			int			c = step->column;
			const char *p = ptrs[r->qual_attnos[c] - 1];

			/* NULL compares to NULL, which a qual takes as false */
			if (p == NULL ||
				!gpugb_hostexpr_compare_words(integer_word(p, r->qual_atts[c]->attlen),
									   step->value, step->scale))
				return 0;
			continue;
		}
		for (int k = 0; k < r->qual_n_reads[q]; k++)
			if (!qual_column(r, r->qual_reads[q][k], ptrs, slot))
				return -1;
		if (!gpugb_hostexpr_eval(&r->qual_programs[q], r->qual_words, r->qual_nulls,
								 r->qual_types, &truth, &truth_null))
			return -1;
		if (truth_null || truth == 0)
			return 0;
	}
	for (int t = 0; t < r->n_text_quals; t++)
	{
		const GpugbTextQual *tq = &r->text_quals[t];
		const char *p;
		int			truth;

		if (ptrs != NULL)
			p = ptrs[tq->attno - 1];
		else
		{
			slot_getsomeattrs(slot, tq->attno);
			p = slot->tts_isnull[tq->attno - 1] ? NULL :
				DatumGetPointer(slot->tts_values[tq->attno - 1]);
		}
		if (p == NULL)
			return 0;			/* NULL = or <> anything is NULL: not true */
		truth = gpugb_text_qual_check(tq, p);
		if (truth <= 0)
			return truth;
	}
	return 1;
}

GpugbHeapReader *
gpugb_heap_reader_create(PlanState *input, int n_columns)
{
	SeqScanState *scan_state;
	Relation	rel;
	TupleDesc	desc;
	GpugbHeapReader *r;
	ListCell   *lc;

	if (!gpugb_direct_scan || !IsA(input, SeqScanState))
		return NULL;
	scan_state = (SeqScanState *) input;
	rel = scan_state->ss.ss_currentRelation;
	if (rel->rd_tableam != GetHeapamTableAmRoutine() ||
		list_length(input->plan->targetlist) < n_columns)
		return NULL;
	desc = RelationGetDescr(rel);

	r = palloc0(sizeof(GpugbHeapReader));
	r->scan_state = scan_state;
	r->n_columns = n_columns;
	r->batch_values = palloc(sizeof(Datum) * GPUGB_HEAP_READ_BATCH * Max(n_columns, 1));
	r->batch_isnull = palloc(sizeof(bool) * GPUGB_HEAP_READ_BATCH * Max(n_columns, 1));
	if (scan_state->ss.ps.plan->qual != NIL)
		compile_quals(r, scan_state, desc);
	r->attnos = palloc(sizeof(AttrNumber) * Max(n_columns, 1));
	r->atts = palloc(sizeof(Form_pg_attribute) * Max(n_columns, 1));
	foreach(lc, input->plan->targetlist)
	{
		TargetEntry *tle = lfirst(lc);
		Var		   *var = (Var *) tle->expr;
		int			c = foreach_current_index(lc);

		if (c >= n_columns)
			break;
		/*
		 * A user column of the scanned table, nothing computed from it; else
		 * (a FILTER's condition, a cast) the SeqScan's own projection
		 * computes the target list from each row.
		 */
		if (!is_scan_column(scan_state, desc, var))
		{
			if (scan_state->ss.ps.ps_ProjInfo == NULL)
				return NULL;
			/*
			 * Every row goes through the slot; the quals, where the reader
			 * checks them, first, on the tuple (read_row).
			 */
			r->project = true;
			break;
		}
		r->attnos[c] = var->varattno;
		r->atts[c] = TupleDescAttr(desc, var->varattno - 1);
		r->max_attno = Max(r->max_attno, var->varattno);
	}

	/*
	 * What locate_attributes needs of attributes 1..max_attno, and the
	 * offsets of the leading fixed-length ones in a tuple without NULLs
	 * (slot_deform_heap_tuple's attcacheoff).  A dropped attribute keeps
	 * its length and alignment: old tuples still hold its values.
	 */
	r->attlens = palloc(sizeof(int16) * Max(r->max_attno, 1));
	r->attaligns = palloc(sizeof(char) * Max(r->max_attno, 1));
	r->offsets = palloc(sizeof(int) * Max(r->max_attno, 1));
	r->attr_ptrs = palloc0(sizeof(char *) * Max(r->max_attno, 1));
	{
		int			off = 0;
		bool		fixed = true;

		for (int i = 0; i < r->max_attno; i++)
		{
			Form_pg_attribute att = TupleDescAttr(desc, i);

			r->attlens[i] = att->attlen;
			r->attaligns[i] = att->attalign;
			fixed = fixed && att->attlen > 0;
			if (!fixed)
				continue;
			off = att_align_nominal(off, att->attalign);
			r->offsets[i] = off;
			off += att->attlen;
			r->n_fixed_prefix = i + 1;
			r->fixed_prefix_end = off;
		}
	}
	return r;
}

/* The scan descriptor, begun as SeqNext begins it where it does not exist yet. */
static HeapScanDesc
scan_desc(GpugbHeapReader *r)
{
	SeqScanState *node = r->scan_state;

	if (node->ss.ss_currentScanDesc == NULL)
		node->ss.ss_currentScanDesc =
			table_beginscan(node->ss.ss_currentRelation, node->ss.ps.state->es_snapshot,
							0, NULL);
	return (HeapScanDesc) node->ss.ss_currentScanDesc;
}

bool
gpugb_heap_reader_usable(GpugbHeapReader *r)
{
	if (!r->checked)
	{
		HeapScanDesc scan = scan_desc(r);
		EState	   *estate = r->scan_state->ss.ps.state;

		/*
		 * Page mode needs an MVCC snapshot (heap_beginscan allows it only
		 * then); scan keys and EvalPlanQual rechecks are SeqNext's business.
		 */
		r->usable = (scan->rs_base.rs_flags & SO_ALLOW_PAGEMODE) != 0 &&
			scan->rs_base.rs_nkeys == 0 && estate->es_epq_active == NULL &&
			ScanDirectionIsForward(estate->es_direction);
		r->checked = true;
	}
	return r->usable;
}

/*
 * How many visible tuples ahead of the one being read the reader asks the
 * CPU to fetch.  heapgetpage reads only a page's line pointers; the first
 * touch of each tuple is the reader's, and without a prefetch every row
 * waits for memory (perf: two thirds of a count(*)'s reader time on the
 * tuple header's load).  Tuples lie at falling addresses in the page,
 * which the hardware prefetchers follow poorly.  12 rather than 6, and
 * every line of the tuple rather than its first and last (TPC-H Q1's
 * numerics lie in a lineitem tuple's middle line): Q1's local serial fill
 * from shared buffers went from about 635 to 570 ms.
 */
#define GPUGB_TUPLE_PREFETCH 12

/*
 * Asks for every cache line of visible tuple i of the scan's page, if any.
 * A macro: GCC 12 at -O2 deleted every call to a static function whose
 * only effect was a prefetch (seen in its assembly: no prefetcht0 left),
 * as a call without effects.
 */
#define prefetch_tuple(scan, page, i) \
	do { \
		if ((i) < (scan)->rs_ntuples) \
		{ \
			ItemId		lp_ = PageGetItemId((page), (scan)->rs_vistuples[(i)]); \
			char	   *start_ = (char *) (page) + ItemIdGetOffset(lp_); \
			char	   *last_ = start_ + ItemIdGetLength(lp_) - 1; \
			\
			for (char *line_ = start_; line_ < last_; line_ += 64) \
				__builtin_prefetch(line_); \
			__builtin_prefetch(last_); \
		} \
	} while (0)

/*
 * heapgetpage(scan, page) where the scan needs no serializable conflict
 * checks (any isolation level below SERIALIZABLE): the same steps (the
 * previous page let go, the new one read with the scan's strategy, pruned,
 * share-locked while its tuples' visibility is checked, TestForOldSnapshot),
 * without heapgetpage's two calls per tuple into the SSI code that return
 * at once, and on an all-visible page only a loop over the line pointers.
 * That per-tuple work was about a quarter of Query B's fill (perf,
 * locally).  Otherwise heapgetpage itself.
 */
static void
read_page(HeapScanDesc scan, BlockNumber page)
{
	Relation	rel = scan->rs_base.rs_rd;
	Snapshot	snapshot = scan->rs_base.rs_snapshot;
	Buffer		buffer;
	Page		dp;
	OffsetNumber lines;
	OffsetNumber lineoff;
	ItemId		lpp;
	int			ntup = 0;

	if (CheckForSerializableConflictOutNeeded(rel, snapshot))
	{
		heapgetpage(&scan->rs_base, page);
		return;
	}
	Assert(scan->rs_base.rs_flags & SO_ALLOW_PAGEMODE);
	if (BufferIsValid(scan->rs_cbuf))
	{
		ReleaseBuffer(scan->rs_cbuf);
		scan->rs_cbuf = InvalidBuffer;
	}
	CHECK_FOR_INTERRUPTS();
	scan->rs_cbuf = ReadBufferExtended(rel, MAIN_FORKNUM, page, RBM_NORMAL, scan->rs_strategy);
	scan->rs_cblock = page;
	buffer = scan->rs_cbuf;
	heap_page_prune_opt(rel, buffer);
	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	dp = BufferGetPage(buffer);
	TestForOldSnapshot(snapshot, rel, dp);
	lines = PageGetMaxOffsetNumber(dp);
	if (PageIsAllVisible(dp) && !snapshot->takenDuringRecovery)
	{
		for (lineoff = FirstOffsetNumber, lpp = PageGetItemId(dp, lineoff); lineoff <= lines;
			 lineoff++, lpp++)
			if (ItemIdIsNormal(lpp))
				scan->rs_vistuples[ntup++] = lineoff;
	}
	else
	{
		for (lineoff = FirstOffsetNumber, lpp = PageGetItemId(dp, lineoff); lineoff <= lines;
			 lineoff++, lpp++)
		{
			HeapTupleData loctup;

			if (!ItemIdIsNormal(lpp))
				continue;
			loctup.t_tableOid = RelationGetRelid(rel);
			loctup.t_data = (HeapTupleHeader) PageGetItem(dp, lpp);
			loctup.t_len = ItemIdGetLength(lpp);
			ItemPointerSet(&loctup.t_self, page, lineoff);
			if (HeapTupleSatisfiesVisibility(&loctup, snapshot, buffer))
				scan->rs_vistuples[ntup++] = lineoff;
		}
	}
	LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
	Assert(ntup <= MaxHeapTuplesPerPage);
	scan->rs_ntuples = ntup;
}

/*
 * The next page with visible tuples read into the scan, as
 * heapgettup_pagemode advances; false when the scan is done (the buffer
 * released and the scan reset, as there).
 */
static bool
next_page(HeapScanDesc scan)
{
	Relation	rel = scan->rs_base.rs_rd;
	ParallelBlockTableScanDesc pbscan = (ParallelBlockTableScanDesc) scan->rs_base.rs_parallel;
	BlockNumber page;
	bool		finished;

	if (!scan->rs_inited)
	{
		if (scan->rs_nblocks == 0 || scan->rs_numblocks == 0)
			return false;
		if (pbscan != NULL)
		{
			table_block_parallelscan_startblock_init(rel, scan->rs_parallelworkerdata, pbscan);
			page = table_block_parallelscan_nextpage(rel, scan->rs_parallelworkerdata, pbscan);
			/* other processes may have finished the scan already */
			if (page == InvalidBlockNumber)
				return false;
		}
		else
			page = scan->rs_startblock;
		finished = false;
	}
	else if (pbscan != NULL)
	{
		page = table_block_parallelscan_nextpage(rel, scan->rs_parallelworkerdata, pbscan);
		finished = page == InvalidBlockNumber;
	}
	else
	{
		page = scan->rs_cblock + 1;
		if (page >= scan->rs_nblocks)
			page = 0;
		finished = page == scan->rs_startblock ||
			(scan->rs_numblocks != InvalidBlockNumber && --scan->rs_numblocks == 0);
		/* before the end test, so the position hint ends at the start */
		if (scan->rs_base.rs_flags & SO_ALLOW_SYNC)
			ss_report_location(rel, page);
	}

	if (finished)
	{
		if (BufferIsValid(scan->rs_cbuf))
			ReleaseBuffer(scan->rs_cbuf);
		scan->rs_cbuf = InvalidBuffer;
		scan->rs_cblock = InvalidBlockNumber;
		scan->rs_ctup.t_data = NULL;
		scan->rs_inited = false;
		return false;
	}
	read_page(scan, page);
	scan->rs_inited = true;
	scan->rs_cindex = -1;
	return true;
}

/*
 * The scan, ready to read its next row.  A rescan with changed parameters
 * is left to the child's next ExecProcNode (exec.c's rescan only passes
 * the parameters on), which this reader never calls: do what it does.
 * Without this, a run that stopped early (a value with no device word)
 * left the scan in the middle, and the next run skipped the rows before.
 */
static HeapScanDesc
begin_read(GpugbHeapReader *r)
{
	SeqScanState *node = r->scan_state;

	Assert(r->usable);
	if (node->ss.ps.chgParam != NULL)
		ExecReScan(&node->ss.ps);
	return scan_desc(r);
}

/*
 * Where each of attributes 1..max_attno of tuple td starts (NULL for a
 * NULL) into ptrs, walked as slot_deform_heap_tuple walks a tuple; td has
 * at least max_attno attributes.
 */
static pg_attribute_always_inline void
locate_attributes(GpugbHeapReader *r, HeapTupleHeader td, const char **ptrs)
{
	const char *tp = (char *) td + td->t_hoff;
	bool		hasnulls = (td->t_infomask & HEAP_HASNULL) != 0;
	const bits8 *bits = td->t_bits;
	int			a = 0;
	uint32		off = 0;

	if (!hasnulls)
	{
		for (; a < r->n_fixed_prefix; a++)
			ptrs[a] = tp + r->offsets[a];
		off = r->fixed_prefix_end;
	}
	for (; a < r->max_attno; a++)
	{
		int16		len = r->attlens[a];

		if (hasnulls && att_isnull(a, bits))
		{
			ptrs[a] = NULL;
			continue;
		}
		if (len == -1)
			off = att_align_pointer(off, r->attaligns[a], -1, tp + off);
		else
			off = att_align_nominal(off, r->attaligns[a]);
		ptrs[a] = tp + off;
		off = att_addlength_pointer(off, len, tp + off);
	}
}

/* What read_row found */
#define READ_END 0				/* the end of the scan */
#define READ_ROW 1				/* a row */
#define READ_PAGE_END (-1)		/* the end of the page (page_bound only) */

/*
 * The next visible row into values/isnull (READ_ROW), or READ_END at the
 * end of the scan.  qual: ExecQual's, unless the reader checks the quals
 * itself.  page_bound: READ_PAGE_END where the scan's page has no more
 * rows, instead of moving on to the next page (which lets go of it: rows
 * read before may point into it).  Inlined into every caller, so a batch
 * reads its rows without a call per row.
 */
static pg_attribute_always_inline int
read_row(GpugbHeapReader *r, HeapScanDesc scan, ExprState *qual, bool page_bound,
		 Datum *values, bool *isnull)
{
	SeqScanState *node = r->scan_state;

	for (;;)
	{
		HeapTupleHeader td;
		OffsetNumber off;
		ItemId		lp;
		Page		page;
		TupleTableSlot *slot;
		HeapTuple	tuple;
		bool		quals_checked;

		/* rs_cindex: the last returned tuple's index in rs_vistuples */
		while (!scan->rs_inited || scan->rs_cindex + 1 >= scan->rs_ntuples)
		{
			if (page_bound && scan->rs_inited)
				return READ_PAGE_END;
			if (!next_page(scan))
			{
				/* as heap_getnextslot at the end: the slot lets go of its page */
				ExecClearTuple(node->ss.ss_ScanTupleSlot);
				return READ_END;
			}
			CHECK_FOR_INTERRUPTS();
			page = BufferGetPage(scan->rs_cbuf);
			for (int i = 0; i < GPUGB_TUPLE_PREFETCH; i++)
				prefetch_tuple(scan, page, i);
		}
		scan->rs_cindex++;
		off = scan->rs_vistuples[scan->rs_cindex];
		page = BufferGetPage(scan->rs_cbuf);
		prefetch_tuple(scan, page, scan->rs_cindex + GPUGB_TUPLE_PREFETCH);
		lp = PageGetItemId(page, off);
		Assert(ItemIdIsNormal(lp));
		td = (HeapTupleHeader) PageGetItem(page, lp);
		pgstat_count_heap_getnext(scan->rs_base.rs_rd);

		/*
		 * The tuple's attributes located where it has every one the reader
		 * needs: read there, unless the scan projects, where only the quals
		 * the reader checks are (rows they remove never reach the slot).
		 */
		quals_checked = false;
		if (qual == NULL && (!r->project || direct_quals(r)) &&
			HeapTupleHeaderGetNatts(td) >= r->max_attno)
		{
			const char **ptrs = r->attr_ptrs;
			int			passes = 1;

			locate_attributes(r, td, ptrs);
			if (direct_quals(r))
			{
				passes = quals_pass(r, ptrs, NULL);
				if (passes == 0)
				{
					InstrCountFiltered1(node, 1);
					continue;
				}
			}
			/* a qual value without a word: the slot's way, PostgreSQL's check */
			quals_checked = passes > 0;
			if (passes > 0 && !r->project)
			{
				for (int c = 0; c < r->n_columns; c++)
				{
					Form_pg_attribute att = r->atts[c];
					const char *p = ptrs[r->attnos[c] - 1];

					isnull[c] = p == NULL;
					values[c] = p == NULL ? (Datum) 0 : fetch_att(p, att->attbyval, att->attlen);
				}
				r->rows++;
				return READ_ROW;
			}
		}

		/* as SeqNext: the tuple in the scan's slot, deformed there */
		slot = node->ss.ss_ScanTupleSlot;
		tuple = &scan->rs_ctup;
		tuple->t_data = td;
		tuple->t_len = ItemIdGetLength(lp);
		ItemPointerSet(&tuple->t_self, scan->rs_cblock, off);
		ExecStoreBufferHeapTuple(tuple, slot, scan->rs_cbuf);
		if (qual != NULL || r->project)
		{
			/* as ExecScan: quals and projection in the per-tuple context */
			ResetExprContext(node->ss.ps.ps_ExprContext);
			node->ss.ps.ps_ExprContext->ecxt_scantuple = slot;
		}
		if (qual != NULL && !ExecQual(qual, node->ss.ps.ps_ExprContext))
		{
			InstrCountFiltered1(node, 1);
			continue;
		}
		if (direct_quals(r) && !quals_checked)
		{
			int			passes = quals_pass(r, NULL, slot);

			if (passes < 0)
			{
				/* a value without a word: PostgreSQL's own check */
				ResetExprContext(node->ss.ps.ps_ExprContext);
				node->ss.ps.ps_ExprContext->ecxt_scantuple = slot;
				passes = ExecQual(node->ss.ps.qual, node->ss.ps.ps_ExprContext);
			}
			if (!passes)
			{
				InstrCountFiltered1(node, 1);
				continue;
			}
		}
		if (r->project)
		{
			TupleTableSlot *projected = ExecProject(node->ss.ps.ps_ProjInfo);

			slot_getsomeattrs(projected, r->n_columns);
			memcpy(values, projected->tts_values, r->n_columns * sizeof(Datum));
			memcpy(isnull, projected->tts_isnull, r->n_columns * sizeof(bool));
			r->rows++;
			return READ_ROW;
		}
		slot_getsomeattrs(slot, r->max_attno);
		for (int c = 0; c < r->n_columns; c++)
		{
			values[c] = slot->tts_values[r->attnos[c] - 1];
			isnull[c] = slot->tts_isnull[r->attnos[c] - 1];
		}
		r->rows++;
		return READ_ROW;
	}
}

static inline ExprState *
reader_qual(GpugbHeapReader *r)
{
	return direct_quals(r) ? NULL : r->scan_state->ss.ps.qual;
}

bool
gpugb_heap_reader_next(GpugbHeapReader *r, Datum *values, bool *isnull)
{
	return read_row(r, begin_read(r), reader_qual(r), false, values, isnull) == READ_ROW;
}

/*
 * Up to max rows into the reader's batch arrays; with one_page, only rows
 * of one page (the first row may move on to the next).
 */
static pg_attribute_always_inline int
read_batch(GpugbHeapReader *r, int max, bool one_page, const Datum **values,
		   const bool **isnull, bool *end)
{
	HeapScanDesc scan = begin_read(r);
	ExprState  *qual = reader_qual(r);
	int			n = 0;

	Assert(max <= GPUGB_HEAP_READ_BATCH);
	*end = false;
	while (n < max)
	{
		int			found = read_row(r, scan, qual, one_page && n > 0,
									 r->batch_values + n * r->n_columns,
									 r->batch_isnull + n * r->n_columns);

		if (found == READ_PAGE_END)
			break;
		if (found == READ_END)
		{
			/* the scan has reset itself: another call would read it again */
			*end = true;
			break;
		}
		n++;
	}
	*values = r->batch_values;
	*isnull = r->batch_isnull;
	return n;
}

int
gpugb_heap_reader_next_batch(GpugbHeapReader *r, int max, const Datum **values,
							 const bool **isnull, bool *end)
{
	return read_batch(r, max, false, values, isnull, end);
}

int
gpugb_heap_reader_next_page_batch(GpugbHeapReader *r, int max, const Datum **values,
								  const bool **isnull, bool *end)
{
	Assert(!r->project);
	return read_batch(r, max, true, values, isnull, end);
}

bool
gpugb_heap_reader_projects(GpugbHeapReader *reader)
{
	return reader->project;
}

int64
gpugb_heap_reader_rows(GpugbHeapReader *reader)
{
	return reader ? reader->rows : 0;
}

bool
gpugb_heap_reader_checks_quals(GpugbHeapReader *reader)
{
	return reader != NULL && direct_quals(reader);
}
