/*-------------------------------------------------------------------------
 * aggcatalog.h
 *    The one table of aggregates and key types gpugb can run on the GPU.
 *
 * To support a new aggregate, add a row to the table in aggcatalog.c and,
 * if it needs a new way to finish its result, a case in finalize.c.
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_AGGCATALOG_H
#define GPUGB_AGGCATALOG_H

#include "postgres.h"

#include "nodes/primnodes.h"

#include "gpugb_device.h"

/* How a column's Datum becomes one 8-byte device word. */
typedef enum GpugbValueKind
{
	GPUGB_VALUE_INT16,
	GPUGB_VALUE_INT32,			/* int4, date */
	GPUGB_VALUE_INT64,			/* int8, time, timestamp, timestamptz */
	GPUGB_VALUE_BOOL,
	GPUGB_VALUE_FLOAT4,			/* widened to double, exactly */
	GPUGB_VALUE_FLOAT8,
	GPUGB_VALUE_NUMERIC,		/* numeric(p, s <= 18): v * 10^s, see numeric_words.c */
	GPUGB_VALUE_NUMERIC_FREE,	/* numeric without a typmod: (v * 10^S) * 32 + dscale,
								 * S planned (numeric_free.c) */
	GPUGB_VALUE_SHORT_TEXT,		/* text/varchar key of at most 8 bytes (16 in two
								 * words), packed */
	GPUGB_VALUE_SHORT_BPCHAR,	/* char(n) key: the same, trailing spaces dropped */
	GPUGB_VALUE_TEXT_RANK,		/* text/varchar input of min/max: its rank in the
								 * collation's order (textorder.c) */
	GPUGB_VALUE_BPCHAR_RANK,	/* char(n) input of min/max: the same, trailing
								 * spaces dropped */
	GPUGB_VALUE_UUID,			/* uuid key: two words */
	GPUGB_VALUE_INTERVAL_KEY,	/* interval key: its span (interval_words.c) */
	GPUGB_VALUE_INTERVAL,		/* interval input: nullness; its words are derived */
	GPUGB_VALUE_NULL_ONLY		/* count(x) of any type: only nullness travels */
} GpugbValueKind;

/* How the device result becomes PostgreSQL's result. */
typedef enum GpugbFinish
{
	GPUGB_FINISH_COUNT,			/* int8 count */
	GPUGB_FINISH_SUM_TO_INT8,	/* int128 -> int8, "bigint out of range" */
	GPUGB_FINISH_SUM_TO_NUMERIC,	/* int128 (/ 10^scale) -> numeric */
	GPUGB_FINISH_AVG_TO_NUMERIC,	/* that / count with numeric_div */
	GPUGB_FINISH_SUM_FLOAT4,
	GPUGB_FINISH_SUM_FLOAT8,
	GPUGB_FINISH_AVG_FLOAT8,
	GPUGB_FINISH_MINMAX,		/* same type as the input */
	/* interval_words.c, from the words it derives */
	GPUGB_FINISH_SUM_INTERVAL,
	GPUGB_FINISH_AVG_INTERVAL,
	GPUGB_FINISH_MIN_INTERVAL,
	GPUGB_FINISH_MAX_INTERVAL,
	/* numeric_stddev_internal's arithmetic over exact N, sum(x), sum(x^2) */
	GPUGB_FINISH_VAR_SAMP,
	GPUGB_FINISH_VAR_POP,
	GPUGB_FINISH_STDDEV_SAMP,
	GPUGB_FINISH_STDDEV_POP,
	/*
	 * float4/float8 input, float8 result: float8_var_samp etc. of the Sxx
	 * of shifted double-double sums (gpugb_fsum.h, finalize.c)
	 */
	GPUGB_FINISH_FVAR_SAMP,
	GPUGB_FINISH_FVAR_POP,
	GPUGB_FINISH_FSTDDEV_SAMP,
	GPUGB_FINISH_FSTDDEV_POP
} GpugbFinish;

typedef struct GpugbAggEntry
{
	Oid			fnoid;			/* pg_proc OID of the aggregate */
	const char *name;			/* for EXPLAIN and DEBUG messages */
	GpugbAggOp	op;
	GpugbFinish finish;
} GpugbAggEntry;

/* Device words hold doubles as their bit patterns. */
static inline double
gpugb_word_to_double(int64 w)
{
	double		d;

	memcpy(&d, &w, sizeof(d));
	return d;
}

static inline int64
gpugb_double_to_word(double d)
{
	int64		w;

	memcpy(&w, &d, sizeof(w));
	return w;
}

/* Variance of integers or numeric (exact, numeric result). */
static inline bool
gpugb_finish_is_variance(GpugbFinish finish)
{
	return finish >= GPUGB_FINISH_VAR_SAMP && finish <= GPUGB_FINISH_STDDEV_POP;
}

/* Variance of float4 or float8 (float8 result). */
static inline bool
gpugb_finish_is_float_variance(GpugbFinish finish)
{
	return finish >= GPUGB_FINISH_FVAR_SAMP && finish <= GPUGB_FINISH_FSTDDEV_POP;
}

static inline bool
gpugb_finish_is_interval(GpugbFinish finish)
{
	return finish >= GPUGB_FINISH_SUM_INTERVAL && finish <= GPUGB_FINISH_MAX_INTERVAL;
}

extern const GpugbAggEntry *gpugb_agg_lookup(Oid fnoid);
extern Expr *gpugb_aggref_input(Aggref *aggref);
/* A column's device representation: its kind, and the scale of a numeric. */
typedef struct GpugbColumnType
{
	GpugbValueKind kind;
	int			scale;			/* numeric: s, or the planned S of a free one */
	int32		typmod;			/* char(n): to pad the key again */
	int			words;			/* device words of a key: 1, or 2 */
} GpugbColumnType;

extern const char *gpugb_key_type_unsupported(Oid typid, int32 typmod, Oid collation);
extern const char *gpugb_agg_input_unsupported(const GpugbAggEntry *entry, Oid typid, int32 typmod);
extern GpugbColumnType gpugb_column_type(Oid typid, int32 typmod, bool key);
extern bool gpugb_key_is_unpadded_bpchar(GpugbColumnType type);
extern int	gpugb_device_aggs_needed(Aggref *aggref);
extern bool gpugb_agg_ranks_text(const GpugbAggEntry *entry, Oid typid, int32 typmod);
extern bool gpugb_key_kind_orders(GpugbValueKind kind, GpugbOrderKind *order_kind);

#endif							/* GPUGB_AGGCATALOG_H */
