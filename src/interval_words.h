/*-------------------------------------------------------------------------
 * interval_words.h
 *    interval values as exact device words (see the .c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_INTERVAL_WORDS_H
#define GPUGB_INTERVAL_WORDS_H

#include "postgres.h"

#include "nodes/primnodes.h"

struct GpugbScanState;

/* The words an interval becomes (derived inputs, exec.h's GpugbDerivedKind). */
typedef enum GpugbIntervalWord
{
	GPUGB_IWORD_MONTH_POS,		/* max(month, 0): the six parts of an exact sum */
	GPUGB_IWORD_MONTH_NEG,		/* min(month, 0) */
	GPUGB_IWORD_DAY_POS,
	GPUGB_IWORD_DAY_NEG,
	GPUGB_IWORD_TIME_POS,
	GPUGB_IWORD_TIME_NEG,
	GPUGB_IWORD_MIN,			/* span * 4 + form: the least is a minimal row */
	GPUGB_IWORD_MAX,			/* span * 4 + 3 - form: the greatest is a maximal row */
	GPUGB_IWORD_MONTH_DAY		/* a key's (month, day), packed to pick a row by min */
} GpugbIntervalWord;

#define GPUGB_INTERVAL_SUM_PARTS 6

/* planner: device inputs and hidden aggregates an interval adds */
extern int	gpugb_interval_extra_inputs(Oid typid, bool key);
extern int	gpugb_interval_hidden_aggs(Oid aggfnoid);

/* strides.c */
extern bool gpugb_interval_key_word(Datum d, int64 *word);
extern bool gpugb_interval_word(GpugbIntervalWord kind, Datum d, int64 *word);

/* exec.c */
extern void gpugb_interval_build_spec(struct GpugbScanState *st, int *n);
extern bool gpugb_interval_needs_check(struct GpugbScanState *st);
extern const char *gpugb_interval_results_unsafe(struct GpugbScanState *st,
												 int64 first, int64 count);
extern Datum gpugb_interval_key_datum(int64 span, int64 month_day);
extern Datum gpugb_interval_agg_datum(struct GpugbScanState *st, int a, int64 g,
									  bool *isnull);

#endif							/* GPUGB_INTERVAL_WORDS_H */
