/*-------------------------------------------------------------------------
 * exec.h
 *    Executor state of a GpuGroupAgg node, shared by exec.c, strides.c,
 *    finalize.c and explain.c.
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_EXEC_H
#define GPUGB_EXEC_H

#include "postgres.h"

#include "nodes/execnodes.h"
#include "portability/instr_time.h"

#include "aggcatalog.h"
#include "gpugb.h"
#include "heuristics.h"
#include "interval_words.h"

typedef enum GpugbPhase
{
	GPUGB_PHASE_START,			/* nothing run yet */
	GPUGB_PHASE_EMIT,			/* GPU finished; emitting its groups */
	GPUGB_PHASE_FALLBACK,		/* running PostgreSQL's own plan instead */
	GPUGB_PHASE_DONE
} GpugbPhase;

/* Number of groups copied back from the device at a time. */
#define GPUGB_FETCH_CHUNK 65536

/* Inputs the filler computes from another input x (NULL where x is NULL). */
typedef enum GpugbDerivedKind
{
	GPUGB_DERIVED_FINITE_ABS,	/* |x| of a float where finite, else NULL */
	GPUGB_DERIVED_FINITE,		/* x of a float where finite, else NULL */
	GPUGB_DERIVED_SQUARE_HI,	/* x^2 = hi * 2^64 + lo + 2^63 of an integer */
	GPUGB_DERIVED_SQUARE_LO,	/* word x, exactly, with hi and lo in int64 */
	/* a free numeric's packed word x (numeric_free.c) */
	GPUGB_DERIVED_FREE_VALUE,	/* v * 10^S (NaN stays NaN) */
	GPUGB_DERIVED_FREE_DSCALE,	/* its dscale; NULL for NaN */
	GPUGB_DERIVED_KEY_DSCALE,	/* the same of GROUP BY key derived_from[d] */
	GPUGB_DERIVED_KEY_BLANKS,	/* trailing spaces of char key derived_from[d] (no length) */
	GPUGB_DERIVED_KEY_NEGZERO,	/* 1 where float key derived_from[d] is -0, else 0 */
	/*
	 * This + a GpugbIntervalWord: that word of interval input x's Datum (of
	 * key x's for GPUGB_IWORD_MONTH_DAY), see interval_words.c
	 */
	GPUGB_DERIVED_INTERVAL
} GpugbDerivedKind;

/*
 * Column layout of the strides: the input child's columns (keys, then
 * aggregate inputs), then derived inputs the filler computes itself.
 */
typedef struct GpugbInputLayout
{
	int			n_keys;			/* device key words */
	int			n_sql_keys;		/* GROUP BY keys: the child's first columns */
	GpugbColumnType key_types[GPUGB_MAX_KEYS];	/* of each GROUP BY key */
	/* a key the filler computes from the child's key column (keyexpr.c) */
	GpugbKeyTransform key_transforms[GPUGB_MAX_KEYS];
	/* or one it computes from the child columns after the keys (hostexpr.c) */
	struct GpugbHostExpr *key_expr[GPUGB_MAX_KEYS];
	int			n_key_exprs;	/* keys with a key_expr */
	int			key_word[GPUGB_MAX_KEYS];	/* its first device key word */
	int			n_inputs;		/* child inputs + derived inputs */
	int			n_child_inputs;	/* the query's inputs (then derived ones) */
	int			n_child_columns;	/* the child's columns after the keys */
	GpugbColumnType input_types[GPUGB_MAX_INPUTS];
	/* child input i: child column input_column[i], or computed by input_expr[i] */
	int			input_column[GPUGB_MAX_INPUTS];
	struct GpugbHostExpr *input_expr[GPUGB_MAX_INPUTS];
	GpugbColumnType child_types[GPUGB_MAX_INPUTS];	/* of the child's columns after the keys */
	/* derived input d: derived_kind[d] of input derived_from[d] */
	GpugbDerivedKind derived_kind[GPUGB_MAX_INPUTS];
	int			derived_from[GPUGB_MAX_INPUTS];
	/*
	 * Long text keys and the texts of min/max (textdict.c): this process's
	 * one dictionary, or its view of the query's shared one
	 */
	struct GpugbTextDict *text_dict;
	/* a child column min/max of text reads: its ids' ranks (textorder.c; leader only) */
	struct GpugbTextOrder *child_order[GPUGB_MAX_INPUTS];
	/* the child SeqScan's pages read directly (heapread.c), or NULL */
	struct GpugbHeapReader *heap_reader;
	/* every word a plain conversion: filled in batches (gpugb_layout_fills_plainly) */
	bool		fills_plainly;
	/* else, where the rows come from a heap reader, a column at a time (gpugb_layout_fills_by_column) */
	bool		fills_by_column;
	/* input programs evaluated a batch of rows at a time (gpugb_layout_batches_programs) */
	bool		batches_programs;
	/* a key was planned for another TimeZone (keyexpr.h, zoned): fall back */
	bool		zone_changed;
} GpugbInputLayout;

typedef struct GpugbScanState
{
	CustomScanState css;
	GpugbPlanInfo info;
	GpugbInputLayout layout;
	PlanState  *input;			/* child computing [keys..., inputs...] */
	PlanState  *fallback;		/* PostgreSQL's own grouping plan (always present) */
	GpugbPhase	phase;

	/* Device aggregates: the query's, then hidden helpers. */
	GpugbGroupBySpec spec;
	const GpugbAggEntry *aggs[GPUGB_MAX_AGGS];	/* the query's, by scan column */
	GpugbFinish finish[GPUGB_MAX_AGGS];	/* how each result is finished */
	int			float_bound_agg[GPUGB_MAX_AGGS];	/* hidden max of a float sum's finite |x| */
	int			nan_check_agg[GPUGB_MAX_AGGS];	/* hidden max of a numeric sum's input (NaN?) */
	int			square_hi_agg[GPUGB_MAX_AGGS];	/* variance: hidden sums of x^2's parts */
	int			square_lo_agg[GPUGB_MAX_AGGS];
	/* float variance: hidden shifted sums of x - K and (x - K)^2 (gpugb_fsum.h) */
	int			shifted_sum_agg[GPUGB_MAX_AGGS];
	int			shifted_sq_agg[GPUGB_MAX_AGGS];
	/* interval sum or avg: the device aggregates of its parts (GpugbIntervalWord order) */
	int			interval_parts[GPUGB_MAX_AGGS][GPUGB_INTERVAL_SUM_PARTS];
	int			interval_key_agg[GPUGB_MAX_KEYS];	/* hidden min of a key's (month, day) */
	/* free numerics: hidden max dscale of a sum's input, min dscale of a key */
	int			dscale_agg[GPUGB_MAX_AGGS];
	int			key_dscale_agg[GPUGB_MAX_KEYS];
	int			key_blanks_agg[GPUGB_MAX_KEYS];	/* char without a length: its spaces */
	int			key_negzero_agg[GPUGB_MAX_KEYS];	/* a float: did a member show -0 */
	/*
	 * Every key an integer or bool word and every aggregate a count or an
	 * integer sum to int8: next_group's lean loop (emit_lean) applies
	 */
	bool		lean_emit;
	GpugbStrategyChoice strategy_choice;	/* spec.strategy, and why (EXPLAIN) */
	bool		strategy_props_known;	/* chosen with the device's properties,
										 * not the defaults */
	int			strategy_forced;	/* gpugb.strategy when the node began */

	const struct GpugbDeviceOps *ops;	/* CUDA, or the CPU emulator */
	struct GpugbShared *shared;	/* parallel ingest: slots in DSM, or NULL */
	struct ParallelContext *pcxt;	/* leader: the Gather's, for workers launched */
	GpugbGroupBy *gb;
	int			fallback_eflags;	/* for setting the fallback plan up late */
	MemoryContextCallback cleanup;
	bool		cleanup_registered;

	/* Groups coming back from the device, GPUGB_FETCH_CHUNK at a time. */
	int64		n_groups;
	int64		next_group;
	int64		chunk_first;
	int64		chunk_count;
	GpugbGroupResults chunk;
	bool		chunk_allocated;

	/* For EXPLAIN ANALYZE. */
	bool		gpu_done;
	GpugbStats	stats;
	double		fill_ms;		/* pulling input tuples into strides */
	double		fetch_ms;		/* copying results back (not building tuples) */
	double		setup_ms;		/* probing the device, creating the handle */
	double		ingest_ms;		/* from the first row to the last stride submitted */
	double		finish_ms;		/* the last strides' kernels, counting groups, checks */
	/* parallel ingest: the leader copying workers' slots, and idle waiting */
	double		copy_ms;
	double		idle_ms;
	double		workers_fill_ms;	/* summed over workers */
	double		workers_stall_ms;	/* summed: workers waiting for a free slot */
	/*
	 * Parallel ingest straight from the DSM slots (feed_parallel.c): the
	 * slot area registered with the device while registered_bytes > 0, and
	 * what doing so took.
	 */
	bool		direct_copy;	/* the last run's slots went to the device directly */
	void	   *registered_at;
	size_t		registered_bytes;
	const struct GpugbDeviceOps *registered_ops;
	struct dsm_segment *registered_seg;	/* whose detach undoes it */
	double		register_ms;
	int			runs;
	char		fallback_reason[256];
	char		fallback_detail[512];
	bool		input_touched;	/* rows reached the device: no clean restart */
} GpugbScanState;

/* exec.c */
extern int	gpugb_derived_input(GpugbScanState *st, GpugbDerivedKind kind, int source);
extern int	gpugb_add_hidden_agg(GpugbScanState *st, int *n, GpugbAggOp op, int input);
extern void gpugb_release_device(GpugbScanState *st);
extern const char *gpugb_device_failure(GpugbScanState *st, const char *what,
										GpugbStatus status);
extern const char *gpugb_fill_from_input(GpugbScanState *st, GpugbStride *stride,
										 int64 capacity, bool *exhausted);
extern GpugbStatus gpugb_submit_stride(GpugbScanState *st, GpugbStride *stride);
extern double gpugb_ms_since(instr_time start);

/*
 * feed_parallel.c: the leader under a Gather.  prepare (before the device
 * handle is made) registers the slots for the direct copy if it can and
 * says whether it did; feed returns NULL, or why it could not finish.
 */
extern bool gpugb_feed_parallel_prepare(GpugbScanState *st);
extern const char *gpugb_feed_parallel(GpugbScanState *st);
/* After the device handle is gone: the slot area need not stay pinned. */
extern void gpugb_feed_parallel_unregister(GpugbScanState *st);

/* strides.c */
extern bool gpugb_datum_to_word(GpugbColumnType type, Datum d, struct GpugbTextDict *dict,
								int64 *word);
extern bool gpugb_layout_fills_plainly(const GpugbInputLayout *layout);
extern bool gpugb_layout_fills_by_column(const GpugbInputLayout *layout);
extern bool gpugb_layout_batches_programs(const GpugbInputLayout *layout);
extern void gpugb_stride_begin(const GpugbInputLayout *layout, GpugbStride *stride);
extern int64 gpugb_fill_stride(const GpugbInputLayout *layout, PlanState *input,
							   GpugbStride *stride, int64 capacity, bool *exhausted,
							   const char **unfit);

/* finalize.c */

/*
 * The Datum of a GROUP BY key of one integer or bool word (gpugb_key_datum's
 * cases for these kinds, inline for next_group's lean loop); kind is one of
 * INT16, INT32, INT64, BOOL.
 */
static inline Datum
gpugb_int_key_datum(GpugbValueKind kind, int64 value)
{
	switch (kind)
	{
		case GPUGB_VALUE_INT16:
			return Int16GetDatum((int16) value);
		case GPUGB_VALUE_INT32:
			return Int32GetDatum((int32) value);
		case GPUGB_VALUE_BOOL:
			return BoolGetDatum(value != 0);
		default:
			return Int64GetDatum(value);
	}
}

extern Datum gpugb_bpchar_with_blanks(Datum stripped, int64 blanks);
extern Datum gpugb_key_datum(GpugbColumnType type, int64 value, int64 value2,
							 struct GpugbTextDict *dict);
extern Datum gpugb_agg_datum(GpugbFinish finish, GpugbColumnType input_type,
							 int64 count, int64 value, int64 value_hi, int dscale,
							 bool *isnull);
extern bool gpugb_variance_is_null(GpugbFinish finish, int64 count);
extern Datum gpugb_variance_datum(GpugbFinish finish, int scale, int dscale, int64 count,
								  int64 sum_lo, int64 sum_hi,
								  int64 sq_hi_lo, int64 sq_hi_hi,
								  int64 sq_lo_lo, int64 sq_lo_hi, bool *isnull);
extern Datum gpugb_float_variance_datum(GpugbFinish finish, int64 count, int64 finite,
										double s1_hi, double s1_lo,
										double s2_hi, double s2_lo, bool *isnull);
extern const char *gpugb_float_sums_unsafe(GpugbScanState *st, int64 first, int64 count);

#endif							/* GPUGB_EXEC_H */
