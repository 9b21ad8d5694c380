/*-------------------------------------------------------------------------
 * numeric_words.h
 *    numeric(p, s) values as exact fixed-point device words (see the .c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_NUMERIC_WORDS_H
#define GPUGB_NUMERIC_WORDS_H

#include "postgres.h"

/* numeric's NaN: above every scaled value (those stay below 10^18). */
#define GPUGB_NUMERIC_NAN_WORD PG_INT64_MAX

/* 10^0 .. 10^18: every power of ten an int64 holds */
#define GPUGB_POW10_COUNT 19
extern const int64 gpugb_pow10[GPUGB_POW10_COUNT];

/* The scale s of numeric(p, s) if 0 <= s <= 18, else -1 (also for no typmod). */
extern int	gpugb_numeric_scale(int32 typmod);
extern bool gpugb_numeric_to_word(Datum datum, int scale, int64 *word);
extern bool gpugb_numeric_to_word_dscale(Datum datum, int scale, int64 *word, int *dscale);
extern Datum gpugb_word_to_numeric(int64 word, int scale);
extern Datum gpugb_int128_to_numeric(int64 hi, int64 lo, int scale);

#endif							/* GPUGB_NUMERIC_WORDS_H */
