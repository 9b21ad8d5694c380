/*-------------------------------------------------------------------------
 * interval_words.c
 *    interval values as exact device words, and their results.
 *
 * An interval is (month int32, day int32, time int64 microseconds), and
 * PostgreSQL compares it by its span, month * 30 days + day days + time, in
 * microseconds (interval_cmp_value, as int128), so '1 day' = '24 hours' and
 * '1 mon' = '30 days'.  Each use gets words of its own, derived from the
 * Datum by the filler (strides.c):
 *
 * GROUP BY key.  The key word is the span (a span beyond int64 has no word:
 * the query falls back).  Equal spans are one group, as in PostgreSQL, but
 * the group must print the representation of one of its rows (PostgreSQL
 * prints the first it read; a parallel plan may print any).  A hidden
 * MIN_INT over a packing of (month, day) picks the (month, day) of a row of
 * the group, and that row's time is then span - (month * 30 + day) days,
 * exactly.  The packing orders (month, day) so that the row with the most
 * months, then days, of the span's sign wins: '1 day' over '24:00:00',
 * '1 mon' over '30 days', '-2 days -03:00:00' over '-51:00:00' (all rows of
 * a group share the span, so its sign picks the order).
 *
 * sum and avg.  PostgreSQL adds component by component with interval_pl,
 * which raises "interval out of range" as soon as a running sum of months,
 * days (int32) or microseconds (int64) overflows, so whether it raises
 * depends on the order of the rows.  Six exact int128 sums per group, of the
 * positive and of the negative parts of each component, bound every running
 * sum in every order: if each positive sum stays below the maximum and each
 * negative sum above the minimum, no order overflows and the result is
 * their sum; otherwise the query falls back and PostgreSQL's own plan
 * answers, raising or not as it does.  avg is then interval_avg's: the sum,
 * interval_div by N, with PostgreSQL's own function.
 *
 * min and max.  PostgreSQL returns one of the rows with the extreme span
 * (interval_smaller / interval_larger keep either on a tie), so the result
 * needs that row's representation, which a minimum of spans alone cannot
 * give.  The word is span * 4 + form, where the form names a canonical way
 * to split a span into (month, day, time):
 *   0  time only: (0, 0, span)                                '25:00:00'
 *   1  days and time, |time| < 1 day, signs alike: (0, d, t)   '1 day 01:00:00'
 *                                            (what timestamp - timestamp gives)
 *   2  30-day months, days < 30, time < 1 day, signs alike     '1 mon 2 days 03:00:00'
 *   3  none of these ('1 day 25:00:00', '1 mon -1 days'): not decodable
 * The filler gives a row the lowest form that reproduces it exactly.  The
 * least min word is then a row of the least span (the lowest form among
 * ties), so decoding it gives a row of the group with the minimal span, as
 * PostgreSQL could return.  max uses span * 4 + (3 - form), so that among
 * ties its greatest word too is the decodable row with the lowest form.
 * Only if every extreme row is of form 3 does the result come out
 * undecodable, and then the query falls back.  A span outside
 * [-2^61, 2^61) (about 73,000 years) has no such word: the query falls back.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"

#include "exec.h"
#include "interval_words.h"

#define USECS_PER_MONTH (DAYS_PER_MONTH * USECS_PER_DAY)

/* interval_cmp_value: months count 30 days, days 24 hours. */
static inline int128
interval_span(const Interval *iv)
{
	return (int128) iv->time +
		(int128) ((int64) iv->month * DAYS_PER_MONTH + iv->day) * USECS_PER_DAY;
}

/* Device inputs (beyond the allowance of 3 every input has) and hidden aggregates. */
int
gpugb_interval_extra_inputs(Oid typid, bool key)
{
	if (typid != INTERVALOID)
		return 0;
	/*
	 * A key: its (month, day).  An input: six sum parts and the min and max
	 * words, of which the allowance covers two.
	 */
	return key ? 1 : GPUGB_INTERVAL_SUM_PARTS;
}

int
gpugb_interval_hidden_aggs(Oid aggfnoid)
{
	/* the query's own aggregate sums one part, hidden ones the other five */
	return aggfnoid == F_SUM_INTERVAL || aggfnoid == F_AVG_INTERVAL ?
		GPUGB_INTERVAL_SUM_PARTS - 1 : 0;
}

bool
gpugb_interval_key_word(Datum d, int64 *word)
{
	int128		span = interval_span(DatumGetIntervalP(d));

	*word = (int64) span;
	return span >= PG_INT64_MIN && span <= PG_INT64_MAX;
}

/*
 * (month, day) as one word whose least value, among the rows of a group,
 * is the row with the most months, then days, of the span's sign: the
 * signed month above the day offset by 2^31, so that words order as
 * (month, day) do, complemented for a span >= 0 (min then finds the most).
 */
static inline int64
pack_month_day(int32 month, int32 day, bool nonnegative)
{
	int64		pack = (int64) (((uint64) (uint32) month << 32) |
								((uint32) day ^ UINT64CONST(0x80000000)));

	return nonnegative ? ~pack : pack;
}

/* The interval of form 0..2 with this span; false if it does not fit. */
static bool
decode_form(int64 span, int form, Interval *out)
{
	int64		months = 0;
	int64		days = 0;
	int64		rest = span;

	if (form == 2)
	{
		months = rest / USECS_PER_MONTH;
		rest -= months * USECS_PER_MONTH;
	}
	if (form >= 1)
	{
		days = rest / USECS_PER_DAY;
		rest -= days * USECS_PER_DAY;
	}
	if (months < PG_INT32_MIN || months > PG_INT32_MAX ||
		days < PG_INT32_MIN || days > PG_INT32_MAX)
		return false;
	out->month = (int32) months;
	out->day = (int32) days;
	out->time = rest;
	return true;
}

/* The lowest form that reproduces iv exactly, or 3. */
static int
canonical_form(const Interval *iv, int64 span)
{
	for (int form = 0; form < 3; form++)
	{
		Interval	decoded;

		if (decode_form(span, form, &decoded) && decoded.month == iv->month &&
			decoded.day == iv->day && decoded.time == iv->time)
			return form;
	}
	return 3;
}

/* Word `kind` of a non-null interval; false if it has none. */
bool
gpugb_interval_word(GpugbIntervalWord kind, Datum d, int64 *word)
{
	const Interval *iv = DatumGetIntervalP(d);
	int128		span;
	int			form;

	switch (kind)
	{
		case GPUGB_IWORD_MONTH_POS:
			*word = Max(iv->month, 0);
			return true;
		case GPUGB_IWORD_MONTH_NEG:
			*word = Min(iv->month, 0);
			return true;
		case GPUGB_IWORD_DAY_POS:
			*word = Max(iv->day, 0);
			return true;
		case GPUGB_IWORD_DAY_NEG:
			*word = Min(iv->day, 0);
			return true;
		case GPUGB_IWORD_TIME_POS:
			*word = Max(iv->time, 0);
			return true;
		case GPUGB_IWORD_TIME_NEG:
			*word = Min(iv->time, 0);
			return true;
		case GPUGB_IWORD_MONTH_DAY:
			*word = pack_month_day(iv->month, iv->day, interval_span(iv) >= 0);
			return true;
		case GPUGB_IWORD_MIN:
		case GPUGB_IWORD_MAX:
			span = interval_span(iv);
			*word = 0;
			if (span < PG_INT64_MIN / 4 || span > (PG_INT64_MAX - 3) / 4)
				return false;
			form = canonical_form(iv, (int64) span);
			*word = (int64) span * 4 + (kind == GPUGB_IWORD_MIN ? form : 3 - form);
			return true;
	}
	return false;
}

/*
 * The device aggregates: a sum or avg sums its first part itself and adds
 * five hidden sums; a min or max reads its own word; an interval key adds a
 * hidden min of its (month, day).
 */
void
gpugb_interval_build_spec(GpugbScanState *st, int *n)
{
	for (int a = 0; a < st->info.n_aggs; a++)
	{
		int			source = st->info.agg_inputs[a];

		st->interval_parts[a][0] = -1;
		switch (st->finish[a])
		{
			case GPUGB_FINISH_SUM_INTERVAL:
			case GPUGB_FINISH_AVG_INTERVAL:
				st->interval_parts[a][0] = a;
				st->spec.aggs[a].input =
					gpugb_derived_input(st, GPUGB_DERIVED_INTERVAL + GPUGB_IWORD_MONTH_POS, source);
				for (int p = 1; p < GPUGB_INTERVAL_SUM_PARTS; p++)
					st->interval_parts[a][p] =
						gpugb_add_hidden_agg(st, n, GPUGB_AGG_SUM_INT,
											 gpugb_derived_input(st, GPUGB_DERIVED_INTERVAL + p,
																 source));
				break;
			case GPUGB_FINISH_MIN_INTERVAL:
				st->spec.aggs[a].input =
					gpugb_derived_input(st, GPUGB_DERIVED_INTERVAL + GPUGB_IWORD_MIN, source);
				break;
			case GPUGB_FINISH_MAX_INTERVAL:
				st->spec.aggs[a].input =
					gpugb_derived_input(st, GPUGB_DERIVED_INTERVAL + GPUGB_IWORD_MAX, source);
				break;
			default:
				break;
		}
	}
	for (int k = 0; k < st->info.n_keys; k++)
	{
		st->interval_key_agg[k] = -1;
		if (st->layout.key_types[k].kind == GPUGB_VALUE_INTERVAL_KEY)
			st->interval_key_agg[k] =
				gpugb_add_hidden_agg(st, n, GPUGB_AGG_MIN_INT,
									 gpugb_derived_input(st, GPUGB_DERIVED_INTERVAL + GPUGB_IWORD_MONTH_DAY, k));
	}
}

bool
gpugb_interval_needs_check(GpugbScanState *st)
{
	for (int a = 0; a < st->info.n_aggs; a++)
		if (st->finish[a] == GPUGB_FINISH_SUM_INTERVAL || st->finish[a] == GPUGB_FINISH_AVG_INTERVAL ||
			st->finish[a] == GPUGB_FINISH_MIN_INTERVAL || st->finish[a] == GPUGB_FINISH_MAX_INTERVAL)
			return true;
	return false;
}

static inline int128
part_sum(GpugbScanState *st, int agg, int64 g)
{
	return ((int128) st->chunk.agg_value_hi[agg][g] << 64) | (uint64) st->chunk.agg_value[agg][g];
}

/* Group g's exact sum; false if some order of its rows overflows a component. */
static bool
exact_sum(GpugbScanState *st, int a, int64 g, Interval *sum)
{
	const int  *parts = st->interval_parts[a];
	int128		month_pos = part_sum(st, parts[GPUGB_IWORD_MONTH_POS], g);
	int128		month_neg = part_sum(st, parts[GPUGB_IWORD_MONTH_NEG], g);
	int128		day_pos = part_sum(st, parts[GPUGB_IWORD_DAY_POS], g);
	int128		day_neg = part_sum(st, parts[GPUGB_IWORD_DAY_NEG], g);
	int128		time_pos = part_sum(st, parts[GPUGB_IWORD_TIME_POS], g);
	int128		time_neg = part_sum(st, parts[GPUGB_IWORD_TIME_NEG], g);

	if (month_pos > PG_INT32_MAX || month_neg < PG_INT32_MIN ||
		day_pos > PG_INT32_MAX || day_neg < PG_INT32_MIN ||
		time_pos > PG_INT64_MAX || time_neg < PG_INT64_MIN)
		return false;
	sum->month = (int32) (month_pos + month_neg);
	sum->day = (int32) (day_pos + day_neg);
	sum->time = (int64) (time_pos + time_neg);
	return true;
}

/* A min or max word's form, and its interval if the form is decodable. */
static int
decode_extreme(GpugbFinish finish, int64 word, Interval *out)
{
	int64		low = word & 3;
	int64		span = (word - low) / 4;	/* floor: exact, whatever the sign */
	int			form = (int) (finish == GPUGB_FINISH_MIN_INTERVAL ? low : 3 - low);

	if (form < 3 && !decode_form(span, form, out))
		form = 3;				/* cannot happen: the filler checked the row */
	return form;
}

/*
 * Before any group is returned: NULL if every group's interval results are
 * exact, else why not (the query then falls back).
 */
const char *
gpugb_interval_results_unsafe(GpugbScanState *st, int64 first, int64 count)
{
	for (int a = 0; a < st->info.n_aggs; a++)
	{
		GpugbFinish finish = st->finish[a];

		for (int64 g = 0; g < count; g++)
		{
			Interval	iv;

			if (st->chunk.agg_count[a][g] == 0)
				continue;
			if ((finish == GPUGB_FINISH_SUM_INTERVAL || finish == GPUGB_FINISH_AVG_INTERVAL) &&
				!exact_sum(st, a, g, &iv))
				return "an interval sum could overflow in some order of its rows";
			if ((finish == GPUGB_FINISH_MIN_INTERVAL || finish == GPUGB_FINISH_MAX_INTERVAL) &&
				decode_extreme(finish, st->chunk.agg_value[a][g], &iv) == 3)
				return "an interval minimum or maximum has no canonical form to rebuild it from";
		}
	}
	return NULL;
}

/* A group's interval key: its span, and the (month, day) of one of its rows. */
Datum
gpugb_interval_key_datum(int64 span, int64 month_day)
{
	Interval   *iv = palloc(sizeof(Interval));
	int128		time;

	uint64		pack = (uint64) (span >= 0 ? ~month_day : month_day);	/* pack_month_day */

	iv->month = (int32) (uint32) (pack >> 32);
	iv->day = (int32) ((uint32) pack ^ 0x80000000U);
	time = (int128) span - (int128) ((int64) iv->month * DAYS_PER_MONTH + iv->day) * USECS_PER_DAY;
	if (time < PG_INT64_MIN || time > PG_INT64_MAX)
		elog(ERROR, "gpugb: an interval key's (month, day) is not of its group");
	iv->time = (int64) time;
	return IntervalPGetDatum(iv);
}

/* Aggregate a's result for group g (checked by gpugb_interval_results_unsafe). */
Datum
gpugb_interval_agg_datum(GpugbScanState *st, int a, int64 g, bool *isnull)
{
	GpugbFinish finish = st->finish[a];
	Interval   *iv = palloc(sizeof(Interval));
	int64		count = st->chunk.agg_count[a][g];

	*isnull = count == 0;
	if (*isnull)
		return (Datum) 0;
	switch (finish)
	{
		case GPUGB_FINISH_SUM_INTERVAL:
		case GPUGB_FINISH_AVG_INTERVAL:
			if (!exact_sum(st, a, g, iv))
				elog(ERROR, "gpugb: an unchecked interval sum");
			if (finish == GPUGB_FINISH_SUM_INTERVAL)
				return IntervalPGetDatum(iv);
			/* interval_avg: the sum, interval_div by N */
			return DirectFunctionCall2(interval_div, IntervalPGetDatum(iv),
									   Float8GetDatum((float8) count));
		case GPUGB_FINISH_MIN_INTERVAL:
		case GPUGB_FINISH_MAX_INTERVAL:
			if (decode_extreme(finish, st->chunk.agg_value[a][g], iv) == 3)
				elog(ERROR, "gpugb: an unchecked interval minimum or maximum");
			return IntervalPGetDatum(iv);
		default:
			break;
	}
	elog(ERROR, "gpugb: unexpected interval finish kind %d", (int) finish);
	return (Datum) 0;
}
