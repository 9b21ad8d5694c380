/*-------------------------------------------------------------------------
 * keyexpr.h
 *    Integer GROUP BY keys of the form  column OP constant  (mod, %, +, -,
 *    *), and  date_trunc('unit', timestamp column)  from microseconds to
 *    year, computed by the stride filler from the column's word instead of
 *    by the input plan's projection.
 *
 * Query B's GROUP BY mod(col1, g) would otherwise make every row of the
 * scan go through an expression-interpreter function call in the
 * projection; reading the plain column is the executor's cheapest path
 * (a Var fetch), and the filler's arithmetic costs a nanosecond.  The
 * results are PostgreSQL's: its int2/int4/int8 operators' own rules
 * (C's truncating %, x % -1 = 0), and a value out of range stops the fill
 * so that PostgreSQL's plan runs and raises its "out of range" error.
 * date_trunc of a timestamp (without time zone: no TimeZone involved) is
 * timestamp_trunc's arithmetic: up to a day, the microseconds floored to a
 * multiple of the unit (timestamp2tm splits at midnight with floor
 * semantics); a week, floored to a Monday; a month, quarter or year, the
 * day's calendar date with its month floored and day 1 (j2date, date2j);
 * infinities unchanged; a result before the first timestamp falls back, as
 * PostgreSQL raises "timestamp out of range" there.  date_trunc of a
 * timestamptz, where the session's TimeZone is one fixed offset from UTC
 * (UTC itself, or SET TIME ZONE 5.5): the same floor in local time, which
 * timestamptz_trunc computes with the zone's offset (for a fixed offset,
 * the offset before and after truncating is one); under a zone with
 * daylight saving or a history of offsets, zonetrunc.c's exact
 * computation in the TimeZone of execution.  Its per-row cost in
 * PostgreSQL is a function call that lower-cases and looks up the unit
 * string for every row.  extract(field FROM timestamp column) (a numeric)
 * and date_part('field', timestamp column) (a float8) of the integer
 * fields are timestamp_part_common's arithmetic on the same calendar
 * split: an infinite timestamp gives NULL, or for year, decade, century,
 * millennium and isoyear +-Infinity, which date_part's float8 holds and
 * extract's numeric word does not (that falls back).  extract(field FROM
 * date column) is extract_date's: the same fields of the date's midnight,
 * except those of a time of day, which PostgreSQL rejects for a date.
 * extract's second, milliseconds and epoch are scaled microseconds with
 * display scales 6, 3 and 6 (a date's epoch: whole seconds); the key's
 * planned device scale holds them (numeric_free.c).  date_part's float8 of
 * second, milliseconds, epoch and julian is timestamp_part_common's float8
 * arithmetic on the same fields.
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_KEYEXPR_H
#define GPUGB_KEYEXPR_H

#include "postgres.h"

#include "common/int.h"
#include "datatype/timestamp.h"
#include "nodes/primnodes.h"

#include "fastmod.h"
#include "zonetrunc.h"

typedef enum GpugbKeyOp
{
	GPUGB_KEY_PLAIN = 0,		/* the child computes the key */
	GPUGB_KEY_MOD,
	GPUGB_KEY_ADD,
	GPUGB_KEY_SUB,
	GPUGB_KEY_MUL,
	GPUGB_KEY_TRUNC,			/* floor to offset + k * operand (date_trunc up to week) */
	GPUGB_KEY_TRUNC_MONTHS,		/* the first day of a block of operand months */
	/* (both: of a timestamptz's local time where zone_dst, gpugb_key_trunc_zoned) */
	GPUGB_KEY_EXTRACT,			/* field operand (a DTK_ code) as a free numeric word */
	GPUGB_KEY_DATE_PART,		/* field operand as a float8 word */
	GPUGB_KEY_EXTRACT_DATE,		/* EXTRACT of a date column (no time of day) */
	GPUGB_KEY_TO_DATE			/* timestamp::date (operand 0) or timestamptz::date in the
								 * session's TimeZone (operand 1) */
} GpugbKeyOp;

typedef struct GpugbKeyTransform
{
	GpugbKeyOp	op;
	int64		operand;		/* the constant (never 0 for MOD; > 0 for TRUNC*) */
	int64		offset;			/* TRUNC: a boundary of the unit (a Monday for weeks);
								 * EXTRACT: 10^S of the key's planned scale (exec.c) */
	int64		min;			/* the key type's range */
	int64		max;
	/*
	 * date_trunc of a timestamptz: computed for the session TimeZone of
	 * planning, a fixed offset of zone_gmtoff seconds east of UTC (folded
	 * into offset); the executor checks the zone is still that one
	 */
	bool		zoned;
	int32		zone_gmtoff;
	/*
	 * date_trunc of a timestamptz under a TimeZone with daylight saving or
	 * a history of offsets: TRUNC or TRUNC_MONTHS of the local time, whose
	 * offset is read per row at run time (zonetrunc.c), as
	 * timestamptz_trunc reads it
	 */
	bool		zone_dst;
	/* MOD: the operand prepared for gpugb_fastmod_s32 (set when decoded; not serialized) */
	GpugbFastMod mod;
} GpugbKeyTransform;

/*
 * If key is  Var OP Const  of one integer type that the filler computes,
 * fills *t and returns the Var (what the input plan projects instead);
 * otherwise sets t->op = GPUGB_KEY_PLAIN and returns NULL.
 */
extern Var *gpugb_key_transform(Expr *key, GpugbKeyTransform *t);

/* Does a zoned transform still hold under the session's TimeZone? */
extern bool gpugb_key_transform_zone_holds(const GpugbKeyTransform *t);

/* custom_private form of a transform, and back. */
extern List *gpugb_key_transform_to_list(const GpugbKeyTransform *t);
extern void gpugb_key_transform_from_list(List *list, GpugbKeyTransform *t);

extern bool gpugb_key_trunc_months(const GpugbKeyTransform *t, int64 *word);
extern bool gpugb_key_trunc_zoned(const GpugbKeyTransform *t, int64 *word);

/* floor(x - origin, unit) + origin, for unit > 0: date_trunc's arithmetic */
static inline int64
gpugb_floor_to(int64 x, int64 unit, int64 origin)
{
	int64		r = (x - origin) / unit;

	if ((x - origin) % unit < 0)
		r--;					/* floor, not C's truncation */
	return r * unit + origin;
}
extern bool gpugb_key_extract(const GpugbKeyTransform *t, int64 *word, bool *isnull);
extern int	gpugb_extract_field_dscale(int field, bool date);
extern int	gpugb_extract_key_dscale(Node *expr);

/*
 * Does the filler read the key's column as a timestamp or a date (not as
 * the key's type)?  Then *date tells which.
 */
static inline bool
gpugb_key_transform_reads_datetime(const GpugbKeyTransform *t, bool *date)
{
	*date = t->op == GPUGB_KEY_EXTRACT_DATE;
	return t->op >= GPUGB_KEY_TRUNC;
}

/*
 * The key's word from its column's word; false if out of the type's range
 * (or, for extract, without a word).  *isnull is set where the result is
 * NULL (a field of an infinite timestamp).
 */
static inline bool
gpugb_key_transform_apply(const GpugbKeyTransform *t, int64 *word, bool *isnull)
{
	int64		x = *word;
	int64		r;

	switch (t->op)
	{
		case GPUGB_KEY_PLAIN:
			return true;
		case GPUGB_KEY_MOD:
			/* as int4mod: x % -1 is 0 (INT_MIN % -1 would trap) */
			if (t->operand == -1)
				*word = 0;
			/*
			 * Where both fit 32 bits (int2/int4 columns), without a division
			 * (fastmod.h): an idiv was a third of the batched filler's time.
			 * Same result: C's % takes the dividend's sign at every width.
			 */
			else if (x == (int32) x && t->mod.divisor != 0)
				*word = gpugb_fastmod_s32(x, &t->mod);
			else if (x == (int32) x && t->operand == (int32) t->operand)
				*word = (int32) x % (int32) t->operand;
			else
				*word = x % t->operand;
			return true;
		case GPUGB_KEY_ADD:
			if (pg_add_s64_overflow(x, t->operand, &r))
				return false;
			break;
		case GPUGB_KEY_SUB:
			if (pg_sub_s64_overflow(x, t->operand, &r))
				return false;
			break;
		case GPUGB_KEY_MUL:
			if (pg_mul_s64_overflow(x, t->operand, &r))
				return false;
			break;
		case GPUGB_KEY_TRUNC:
			/* -infinity and infinity are INT64_MIN and INT64_MAX: unchanged */
			if (x == PG_INT64_MIN || x == PG_INT64_MAX)
				return true;
			if (t->zone_dst)
				return gpugb_key_trunc_zoned(t, word);
			r = gpugb_floor_to(x, t->operand, t->offset);
			break;
		case GPUGB_KEY_TRUNC_MONTHS:
			return gpugb_key_trunc_months(t, word);
		case GPUGB_KEY_EXTRACT:
		case GPUGB_KEY_DATE_PART:
		case GPUGB_KEY_EXTRACT_DATE:
			return gpugb_key_extract(t, word, isnull);
		case GPUGB_KEY_TO_DATE:
			/* timestamp_date, timestamptz_date: the (local) day, floored */
			if (x == PG_INT64_MIN || x == PG_INT64_MAX)
			{
				*word = x == PG_INT64_MIN ? PG_INT32_MIN : PG_INT32_MAX;	/* DATE_NOBEGIN, NOEND */
				return true;
			}
			if (t->operand != 0 && !gpugb_zone_local(x, &x))
				return false;
			r = gpugb_floor_to(x, USECS_PER_DAY, 0) / USECS_PER_DAY;
			break;
		default:
			return false;
	}
	if (r < t->min || r > t->max)
		return false;
	*word = r;
	return true;
}

#endif							/* GPUGB_KEYEXPR_H */
