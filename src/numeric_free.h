/*-------------------------------------------------------------------------
 * numeric_free.h
 *    numeric without a type modifier: words at a planned scale, each value
 *    keeping its own display scale (see numeric_free.c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_NUMERIC_FREE_H
#define GPUGB_NUMERIC_FREE_H

#include "postgres.h"

#include "nodes/pathnodes.h"

#include "numeric_words.h"

/*
 * Low bits of a packed word that hold the display scale.  30, not 31, is
 * the largest: (2^58 - 1) * 32 + 31 would be INT64_MAX, the NaN word.
 */
#define GPUGB_FREE_DSCALE_BITS 5
#define GPUGB_FREE_DSCALE_MASK ((1 << GPUGB_FREE_DSCALE_BITS) - 1)
#define GPUGB_FREE_MAX_DSCALE (GPUGB_FREE_DSCALE_MASK - 1)
/* |v * 10^S| must stay below this for the packed word to fit an int64 */
#define GPUGB_FREE_VALUE_LIMIT (INT64CONST(1) << (63 - GPUGB_FREE_DSCALE_BITS))
/* the scale used when the planner knows nothing about a column's values */
#define GPUGB_FREE_DEFAULT_SCALE 4
/* the largest planned scale: 10^17 < 2^58 leaves values up to 2.88 */
#define GPUGB_FREE_MAX_SCALE 17

extern bool gpugb_free_numeric_to_word(Datum datum, int scale, int64 *word);

/* v * 10^S of a packed word (NaN stays the NaN word). */
static inline int64
gpugb_free_word_value(int64 packed)
{
	return packed == GPUGB_NUMERIC_NAN_WORD ? packed : packed >> GPUGB_FREE_DSCALE_BITS;
}

/*
 * The packed word of v * 10^S and its display scale; false where |v * 10^S|
 * or the display scale does not fit.
 */
static inline bool
gpugb_free_word_pack(int64 value, int dscale, int64 *word)
{
	if (dscale > GPUGB_FREE_MAX_DSCALE || value >= GPUGB_FREE_VALUE_LIMIT ||
		value <= -GPUGB_FREE_VALUE_LIMIT)
		return false;
	*word = value * (1 << GPUGB_FREE_DSCALE_BITS) + dscale;
	return true;
}

/* The display scale of a packed word (not for NaN). */
static inline int
gpugb_free_word_dscale(int64 packed)
{
	return (int) (packed & GPUGB_FREE_DSCALE_MASK);
}

extern Datum gpugb_free_value_to_numeric(int64 value, int scale, int dscale);
extern Datum gpugb_numeric_with_dscale(Datum num, int dscale);
extern Datum gpugb_scaled_to_numeric(int64 value, int scale, int dscale);
extern int	gpugb_free_numeric_plan_scale(PlannerInfo *root, Node *expr);
extern bool gpugb_is_free_numeric(Node *expr);
extern const char *gpugb_free_numeric_unsupported(PlannerInfo *root, Node *expr);

#endif							/* GPUGB_NUMERIC_FREE_H */
