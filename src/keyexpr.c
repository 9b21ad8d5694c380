/*-------------------------------------------------------------------------
 * keyexpr.c
 *    Recognizes integer GROUP BY keys  column OP constant, and
 *    date_trunc('unit', timestamp column), that the stride filler computes
 *    (see keyexpr.h).
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pg_list.h"
#include "nodes/value.h"
#include "parser/scansup.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "pgtime.h"

#include "aggcatalog.h"
#include "keyexpr.h"
#include "numeric_free.h"

/* 1970-01-01 00:00 as a timestamp (SetEpochTimestamp's value) */
#define GPUGB_UNIX_EPOCH_TIMESTAMP \
	((int64) (UNIX_EPOCH_JDATE - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY)

static Var *extract_transform(FuncExpr *func, GpugbKeyOp op, GpugbKeyTransform *t);

/* The operator's kind, and the one integer type of both arguments and result. */
static GpugbKeyOp
key_op_of(Oid funcid, Oid *type)
{
	switch (funcid)
	{
		case F_INT2MOD:
		case F_MOD_INT2_INT2:	/* mod(), the same function under its SQL name */
			*type = INT2OID;
			return GPUGB_KEY_MOD;
		case F_INT4MOD:
		case F_MOD_INT4_INT4:
			*type = INT4OID;
			return GPUGB_KEY_MOD;
		case F_INT8MOD:
		case F_MOD_INT8_INT8:
			*type = INT8OID;
			return GPUGB_KEY_MOD;
		case F_INT2PL:
			*type = INT2OID;
			return GPUGB_KEY_ADD;
		case F_INT4PL:
			*type = INT4OID;
			return GPUGB_KEY_ADD;
		case F_INT8PL:
			*type = INT8OID;
			return GPUGB_KEY_ADD;
		case F_INT2MI:
			*type = INT2OID;
			return GPUGB_KEY_SUB;
		case F_INT4MI:
			*type = INT4OID;
			return GPUGB_KEY_SUB;
		case F_INT8MI:
			*type = INT8OID;
			return GPUGB_KEY_SUB;
		case F_INT2MUL:
			*type = INT2OID;
			return GPUGB_KEY_MUL;
		case F_INT4MUL:
			*type = INT4OID;
			return GPUGB_KEY_MUL;
		case F_INT8MUL:
			*type = INT8OID;
			return GPUGB_KEY_MUL;
		default:
			return GPUGB_KEY_PLAIN;
	}
}

static int64
const_int(Const *c)
{
	switch (c->consttype)
	{
		case INT2OID:
			return DatumGetInt16(c->constvalue);
		case INT4OID:
			return DatumGetInt32(c->constvalue);
		default:
			return DatumGetInt64(c->constvalue);
	}
}

/*
 * f('unit', column) of a timestamp or date column and a constant unit: the column, and the
 * unit's DTK_ code parsed as PostgreSQL parses it (lower-cased, DecodeUnits,
 * then DecodeSpecial where with_special), once, here; NULL otherwise (a
 * unit PostgreSQL rejects is left to the input plan, which raises).
 */
static Var *
datetime_unit_call(FuncExpr *func, Oid column_type, bool with_special, int *val)
{
	Node	   *unit;
	Node	   *column;
	text	   *units;
	char	   *lowunits;
	int			type;

	if (list_length(func->args) != 2)
		return NULL;
	unit = linitial(func->args);
	column = lsecond(func->args);
	if (!IsA(unit, Const) || ((Const *) unit)->constisnull ||
		exprType(unit) != TEXTOID || !IsA(column, Var) ||
		((Var *) column)->varlevelsup != 0 || exprType(column) != column_type)
		return NULL;
	units = DatumGetTextPP(((Const *) unit)->constvalue);
	lowunits = downcase_truncate_identifier(VARDATA_ANY(units), VARSIZE_ANY_EXHDR(units), false);
	type = DecodeUnits(0, lowunits, val);
	if (type == UNKNOWN_FIELD && with_special)
		type = DecodeSpecial(0, lowunits, val);
	/* epoch is the one RESERV field extract takes; DTK_ codes are distinct */
	if (type == RESERV && with_special && *val == DTK_EPOCH)
		return (Var *) column;
	return type == UNITS ? (Var *) column : NULL;
}

/*
 * date_trunc('unit', timestamp column) with a unit the filler computes:
 * the unit string is parsed as timestamp_trunc parses it (lower-cased,
 * DecodeUnits), once, here.
 */
static Var *
date_trunc_transform(FuncExpr *func, GpugbKeyTransform *t, Oid type)
{
	int			val;
	Var		   *column = datetime_unit_call(func, type, false, &val);
	long int	gmtoff = 0;

	if (column == NULL)
		return NULL;
	t->op = GPUGB_KEY_TRUNC;
	t->offset = 0;				/* 2000-01-01 00:00, a day boundary */
	switch (val)
	{
		case DTK_MICROSEC:
			t->operand = 1;
			break;
		case DTK_MILLISEC:
			t->operand = 1000;
			break;
		case DTK_SECOND:
			t->operand = USECS_PER_SEC;
			break;
		case DTK_MINUTE:
			t->operand = USECS_PER_MINUTE;
			break;
		case DTK_HOUR:
			t->operand = USECS_PER_HOUR;
			break;
		case DTK_DAY:
			t->operand = USECS_PER_DAY;
			break;
		case DTK_WEEK:
			/* ISO weeks start on Monday; 2000-01-03 was one */
			t->operand = 7 * USECS_PER_DAY;
			t->offset = 2 * USECS_PER_DAY;
			break;
		case DTK_MONTH:
		case DTK_QUARTER:
		case DTK_YEAR:
			t->op = GPUGB_KEY_TRUNC_MONTHS;
			t->operand = val == DTK_MONTH ? 1 : val == DTK_QUARTER ? 3 : MONTHS_PER_YEAR;
			break;
		default:
			/* decade, century, millennium: the input plan computes them */
			t->op = GPUGB_KEY_PLAIN;
			return NULL;
	}
	t->min = MIN_TIMESTAMP;
	t->max = END_TIMESTAMP - 1;
	/*
	 * A timestamptz is truncated in the session's zone: a fixed offset is
	 * folded in here; another zone (daylight saving, a history of offsets)
	 * is read at run time, as timestamptz_trunc reads it (zone_dst).
	 */
	if (type == TIMESTAMPTZOID &&
		(session_timezone == NULL || !pg_get_timezone_offset(session_timezone, &gmtoff)))
		t->zone_dst = true;
	else if (type == TIMESTAMPTZOID)
	{
		/* local = UTC + gmtoff: floor(x + g - off) + off - g */
		t->zoned = true;
		t->zone_gmtoff = (int32) gmtoff;
		t->offset -= (int64) gmtoff * USECS_PER_SEC;
	}
	return (Var *) column;
}

bool
gpugb_key_transform_zone_holds(const GpugbKeyTransform *t)
{
	long int	gmtoff;

	return !t->zoned ||
		(session_timezone != NULL && pg_get_timezone_offset(session_timezone, &gmtoff) &&
		 gmtoff == t->zone_gmtoff);
}

/*
 * extract's display scale for a field: timestamp_part_common builds second
 * and epoch as microseconds / 10^6 and milliseconds as microseconds / 10^3
 * (int64_div_fast_to_numeric); every other field, and a date's epoch
 * (extract_date), is an integer.
 */
int
gpugb_extract_field_dscale(int field, bool date)
{
	if (date)
		return 0;
	switch (field)
	{
		case DTK_SECOND:
		case DTK_EPOCH:
			return 6;
		case DTK_MILLISEC:
			return 3;
		default:
			return 0;
	}
}

/*
 * The display scale of extract(field FROM timestamp or date column) when
 * the filler computes it (extract_transform), else -1: the key's planned
 * device scale must hold it (numeric_free.c).
 */
int
gpugb_extract_key_dscale(Node *expr)
{
	FuncExpr   *func = (FuncExpr *) expr;
	GpugbKeyTransform t;

	if (!IsA(expr, FuncExpr) ||
		(func->funcid != F_EXTRACT_TEXT_TIMESTAMP && func->funcid != F_EXTRACT_TEXT_DATE))
		return -1;
	memset(&t, 0, sizeof(t));
	if (extract_transform(func, func->funcid == F_EXTRACT_TEXT_DATE ?
						  GPUGB_KEY_EXTRACT_DATE : GPUGB_KEY_EXTRACT, &t) == NULL)
		return -1;
	return gpugb_extract_field_dscale((int) t.operand, t.op == GPUGB_KEY_EXTRACT_DATE);
}

/*
 * extract('field' FROM timestamp column) or date_part('field', ...) of an
 * integer field (see keyexpr.h); the unit parsed as timestamp_part_common
 * parses it.  extract's second, milliseconds and epoch too (exact scaled
 * microseconds), and date_part's float8 of them and of julian
 * (date_part_fraction: timestamp_part_common's float8 arithmetic).
 */
static Var *
extract_transform(FuncExpr *func, GpugbKeyOp op, GpugbKeyTransform *t)
{
	int			val;
	/* timestamp_part_common also looks the unit up with DecodeSpecial (dow, doy, ...) */
	Var		   *column = datetime_unit_call(func, op == GPUGB_KEY_EXTRACT_DATE ? DATEOID : TIMESTAMPOID,
											true, &val);

	if (column == NULL)
		return NULL;
	switch (val)
	{
		case DTK_MICROSEC:
		case DTK_MINUTE:
		case DTK_HOUR:
			/* a date has no time of day: extract_date raises, in the input plan */
			if (op == GPUGB_KEY_EXTRACT_DATE)
				return NULL;
			break;
		case DTK_SECOND:
		case DTK_MILLISEC:
			/* a date has no time of day: extract_date raises, in the input plan */
			if (op == GPUGB_KEY_EXTRACT_DATE)
				return NULL;
			break;
		case DTK_EPOCH:
			break;
		case DTK_JULIAN:
			/* extract's numeric julian divides in numeric: the input plan */
			if (op != GPUGB_KEY_DATE_PART)
				return NULL;
			break;
		case DTK_DAY:
		case DTK_MONTH:
		case DTK_QUARTER:
		case DTK_WEEK:
		case DTK_YEAR:
		case DTK_DECADE:
		case DTK_CENTURY:
		case DTK_MILLENNIUM:
		case DTK_ISOYEAR:
		case DTK_DOW:
		case DTK_ISODOW:
		case DTK_DOY:
			break;
		default:
			return NULL;
	}
	t->op = op;
	t->operand = val;
	t->offset = 1;
	t->min = PG_INT64_MIN;
	t->max = PG_INT64_MAX;
	return (Var *) column;
}

/* The calendar split of timestamp2tm: the day (floored) and its time. */
static void
split_timestamp(int64 x, int *year, int *month, int *day, int64 *time)
{
	int64		days = gpugb_floor_to(x, USECS_PER_DAY, 0) / USECS_PER_DAY;

	*time = x - days * USECS_PER_DAY;
	j2date((int) (days + POSTGRES_EPOCH_JDATE), year, month, day);
}

/*
 * The integer field of a finite timestamp x (or, with date, of the date x:
 * days, no time of day), as timestamp_part_common and extract_date.
 */
static int64
datetime_field(int field, int64 x, bool date)
{
	int			y,
				m,
				d;
	int64		time = 0;
	int64		v;

	if (date)
		j2date((int) (x + POSTGRES_EPOCH_JDATE), &y, &m, &d);
	else
		split_timestamp(x, &y, &m, &d, &time);
	switch (field)
	{
		case DTK_MICROSEC:
		case DTK_MILLISEC:
		case DTK_SECOND:
			return time % USECS_PER_MINUTE;	/* tm_sec * 1000000 + fsec */
		case DTK_EPOCH:
			/* seconds of a date (extract_date), microseconds of a timestamp */
			return date ? (x + POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY :
				x - GPUGB_UNIX_EPOCH_TIMESTAMP;
		case DTK_MINUTE:
			return time / USECS_PER_MINUTE % MINS_PER_HOUR;
		case DTK_HOUR:
			return time / USECS_PER_HOUR;
		case DTK_DAY:
			return d;
		case DTK_MONTH:
			return m;
		case DTK_QUARTER:
			return (m - 1) / 3 + 1;
		case DTK_WEEK:
			return date2isoweek(y, m, d);
		case DTK_YEAR:
			/* there is no year 0, just 1 BC and 1 AD */
			return y > 0 ? y : y - 1;
		case DTK_DECADE:
			return y >= 0 ? y / 10 : -((8 - (y - 1)) / 10);
		case DTK_CENTURY:
			return y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100);
		case DTK_MILLENNIUM:
			return y > 0 ? (y + 999) / 1000 : -((999 - (y - 1)) / 1000);
		case DTK_ISOYEAR:
			v = date2isoyear(y, m, d);
			return v > 0 ? v : v - 1;	/* BC years, as for year */
		case DTK_DOW:
		case DTK_ISODOW:
			v = j2day(date2j(y, m, d));
			return field == DTK_ISODOW && v == 0 ? 7 : v;
		case DTK_DOY:
			return date2j(y, m, d) - date2j(y, 1, 1) + 1;
	}
	elog(ERROR, "gpugb: unexpected timestamp field %d", field);
	return 0;
}

/*
 * date_part's float8 of a finite timestamp x for second, milliseconds, epoch
 * and julian: timestamp_part_common's own expressions (retnumeric false),
 * over the same fields (tm_sec and fsec from the floored calendar split),
 * so the double is bit for bit PostgreSQL's.
 */
static double
date_part_fraction(int field, int64 x)
{
	int			y,
				m,
				d;
	int64		time;
	int			hour,
				min,
				sec;
	int32		fsec;

	if (field == DTK_EPOCH)
	{
		/* "try to avoid precision loss in subtraction", as PostgreSQL does */
		if (x < PG_INT64_MAX + GPUGB_UNIX_EPOCH_TIMESTAMP)
			return (x - GPUGB_UNIX_EPOCH_TIMESTAMP) / 1000000.0;
		return ((double) x - GPUGB_UNIX_EPOCH_TIMESTAMP) / 1000000.0;
	}
	split_timestamp(x, &y, &m, &d, &time);
	hour = (int) (time / USECS_PER_HOUR);
	min = (int) (time / USECS_PER_MINUTE % MINS_PER_HOUR);
	sec = (int) (time / USECS_PER_SEC % SECS_PER_MINUTE);
	fsec = (int32) (time % USECS_PER_SEC);
	switch (field)
	{
		case DTK_MILLISEC:
			return sec * 1000.0 + fsec / 1000.0;
		case DTK_SECOND:
			return sec + fsec / 1000000.0;
		case DTK_JULIAN:
			return date2j(y, m, d) +
				((((hour * MINS_PER_HOUR) + min) * SECS_PER_MINUTE) +
				 sec + (fsec / 1000000.0)) / (double) SECS_PER_DAY;
	}
	elog(ERROR, "gpugb: unexpected date_part field %d", field);
	return 0;
}

bool
gpugb_key_extract(const GpugbKeyTransform *t, int64 *word, bool *isnull)
{
	int64		x = *word;
	int64		v;
	int64		scaled;
	int64		unit;
	int			dscale;
	bool		date = t->op == GPUGB_KEY_EXTRACT_DATE;

	/* a date's infinities (DATEVAL_NOBEGIN, DATEVAL_NOEND) act as a timestamp's */
	if (date && (x == PG_INT32_MIN || x == PG_INT32_MAX))
		x = x == PG_INT32_MIN ? PG_INT64_MIN : PG_INT64_MAX;

	if (x == PG_INT64_MIN || x == PG_INT64_MAX)
	{
		/* NonFiniteTimestampTzPart: +-Infinity for these fields, else NULL */
		switch (t->operand)
		{
			case DTK_YEAR:
			case DTK_DECADE:
			case DTK_CENTURY:
			case DTK_MILLENNIUM:
			case DTK_ISOYEAR:
			case DTK_EPOCH:
			case DTK_JULIAN:
				if (t->op != GPUGB_KEY_DATE_PART)
					return false;	/* a numeric Infinity has no free numeric word */
				*word = gpugb_double_to_word(x == PG_INT64_MIN ? -get_float8_infinity() :
											 get_float8_infinity());
				return true;
			default:
				*isnull = true;
				*word = 0;
				return true;
		}
	}
	if (t->op == GPUGB_KEY_DATE_PART &&
		(t->operand == DTK_SECOND || t->operand == DTK_MILLISEC ||
		 t->operand == DTK_EPOCH || t->operand == DTK_JULIAN))
	{
		*word = gpugb_double_to_word(date_part_fraction((int) t->operand, x));
		return true;
	}
	/* timestamp_part_common computes such an epoch in numeric: fall back */
	if (t->operand == DTK_EPOCH && !date && x >= PG_INT64_MAX + GPUGB_UNIX_EPOCH_TIMESTAMP)
		return false;
	v = datetime_field((int) t->operand, x, date);
	if (t->op == GPUGB_KEY_DATE_PART)
	{
		*word = gpugb_double_to_word((double) v);
		return true;
	}
	/*
	 * v / 10^dscale with that display scale (int64_to_numeric for dscale 0,
	 * int64_div_fast_to_numeric else), packed at the key's planned scale S
	 * (offset = 10^S; the planner makes S >= dscale, numeric_free.c)
	 */
	dscale = gpugb_extract_field_dscale((int) t->operand, date);
	unit = gpugb_pow10[dscale];
	if (t->offset % unit != 0)
		return false;
	return !pg_mul_s64_overflow(v, t->offset / unit, &scaled) &&
		gpugb_free_word_pack(scaled, dscale, word);
}

/*
 * The first day (its midnight) of the block of operand months holding the
 * calendar day of the local time `local` (the day floored, as
 * timestamp2tm); false where timestamp2tm would fail.  A local time may lie
 * up to a day past the timestamp range, as a zone east of UTC shows its
 * last instants, whose truncation is in range again (the caller checks).
 */
static bool
month_block_start(const GpugbKeyTransform *t, int64 local, int64 *start)
{
	int64		time;
	int			year,
				month,
				day;

	if (local < t->min || local > t->max + USECS_PER_DAY)
		return false;
	split_timestamp(local, &year, &month, &day, &time);
	month = (month - 1) / (int) t->operand * (int) t->operand + 1;
	*start = ((int64) date2j(year, month, 1) - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY;
	return true;
}

/* A month, quarter or year: month_block_start, in a timestamptz's zone */
bool
gpugb_key_trunc_months(const GpugbKeyTransform *t, int64 *word)
{
	int64		r;
	/* a timestamptz: the calendar of its fixed-offset zone (local = UTC + offset) */
	int64		shift = t->zoned ? (int64) t->zone_gmtoff * USECS_PER_SEC : 0;

	if (*word == PG_INT64_MIN || *word == PG_INT64_MAX)
		return true;			/* infinities: unchanged */
	if (t->zone_dst)
		return gpugb_key_trunc_zoned(t, word);
	if (!month_block_start(t, *word + shift, &r))
		return false;
	r -= shift;
	if (r < t->min || r > t->max)
		return false;
	*word = r;
	return true;
}

/*
 * TRUNC or TRUNC_MONTHS of the finite timestamptz *word in the session's
 * TimeZone (zone_dst), as timestamptz_trunc computes it: the local time
 * with the UTC offset in effect at the instant (zonetrunc.c), truncated;
 * up to an hour turned back with that same offset, from a day up with the
 * offset DetermineTimeZoneOffset finds for the truncated local midnight.
 * False where PostgreSQL would raise "timestamp out of range" (or the
 * zone's data cannot be read as pg_localtime reads it): the caller falls
 * back.
 */
bool
gpugb_key_trunc_zoned(const GpugbKeyTransform *t, int64 *word)
{
	int64		x = *word;
	int64		shift;
	int64		local;
	int64		r;

	if (!gpugb_zone_offset(x, &shift) || pg_add_s64_overflow(x, shift, &local))
		return false;
	if (t->op == GPUGB_KEY_TRUNC_MONTHS)
	{
		if (!month_block_start(t, local, &local) || !gpugb_zone_midnight(local, &r))
			return false;
	}
	else if (t->operand <= USECS_PER_HOUR)
		r = gpugb_floor_to(local, t->operand, t->offset) - shift;
	else if (!gpugb_zone_midnight(gpugb_floor_to(local, t->operand, t->offset), &r))
		return false;			/* a day or a week */
	if (r < t->min || r > t->max)
		return false;
	*word = r;
	return true;
}

Var *
gpugb_key_transform(Expr *key, GpugbKeyTransform *t)
{
	Oid			funcid;
	List	   *args;
	Oid			type = InvalidOid;
	Node	   *left,
			   *right;
	GpugbKeyOp	op;

	memset(t, 0, sizeof(*t));
	t->op = GPUGB_KEY_PLAIN;
	if (IsA(key, OpExpr))
	{
		funcid = ((OpExpr *) key)->opfuncid;
		if (!OidIsValid(funcid))
			funcid = get_opcode(((OpExpr *) key)->opno);
		args = ((OpExpr *) key)->args;
	}
	else if (IsA(key, FuncExpr))
	{
		funcid = ((FuncExpr *) key)->funcid;
		args = ((FuncExpr *) key)->args;
		switch (funcid)
		{
			case F_DATE_TRUNC_TEXT_TIMESTAMP:
				return date_trunc_transform((FuncExpr *) key, t, TIMESTAMPOID);
			case F_DATE_TRUNC_TEXT_TIMESTAMPTZ:
				return date_trunc_transform((FuncExpr *) key, t, TIMESTAMPTZOID);
			case F_DATE_TIMESTAMP:
			case F_DATE_TIMESTAMPTZ:
				{
					Node	   *arg = list_length(args) == 1 ? linitial(args) : NULL;
					Oid			from = funcid == F_DATE_TIMESTAMP ? TIMESTAMPOID : TIMESTAMPTZOID;

					/* ts::date: the filler floors the column's (local) time to its day */
					if (arg == NULL || !IsA(arg, Var) || ((Var *) arg)->varlevelsup != 0 ||
						exprType(arg) != from)
						return NULL;
					t->op = GPUGB_KEY_TO_DATE;
					t->operand = from == TIMESTAMPTZOID;
					t->min = PG_INT32_MIN + 1;	/* a finite date; the infinities are set apart */
					t->max = PG_INT32_MAX - 1;
					return (Var *) arg;
				}
			case F_EXTRACT_TEXT_TIMESTAMP:
				return extract_transform((FuncExpr *) key, GPUGB_KEY_EXTRACT, t);
			case F_DATE_PART_TEXT_TIMESTAMP:
				return extract_transform((FuncExpr *) key, GPUGB_KEY_DATE_PART, t);
			case F_EXTRACT_TEXT_DATE:
				return extract_transform((FuncExpr *) key, GPUGB_KEY_EXTRACT_DATE, t);
		}
	}
	else
		return NULL;
	op = key_op_of(funcid, &type);
	if (op == GPUGB_KEY_PLAIN || list_length(args) != 2 || exprType((Node *) key) != type)
		return NULL;
	left = linitial(args);
	right = lsecond(args);

	/* column OP constant, both of the operator's type */
	if (!IsA(left, Var) || ((Var *) left)->varlevelsup != 0 || exprType(left) != type)
		return NULL;
	if (!IsA(right, Const) || ((Const *) right)->constisnull || exprType(right) != type)
		return NULL;
	t->operand = const_int((Const *) right);
	/* mod(x, 0) raises "division by zero": the input plan computes it and raises */
	if (op == GPUGB_KEY_MOD && t->operand == 0)
		return NULL;
	t->op = op;
	t->min = type == INT2OID ? PG_INT16_MIN : type == INT4OID ? PG_INT32_MIN : PG_INT64_MIN;
	t->max = type == INT2OID ? PG_INT16_MAX : type == INT4OID ? PG_INT32_MAX : PG_INT64_MAX;
	return (Var *) left;
}

List *
gpugb_key_transform_to_list(const GpugbKeyTransform *t)
{
	/* int64s as Strings: an Integer node holds an int */
	return list_concat(list_make5(makeInteger(t->op),
								  makeString(psprintf(INT64_FORMAT, t->operand)),
								  makeString(psprintf(INT64_FORMAT, t->offset)),
								  makeString(psprintf(INT64_FORMAT, t->min)),
								  makeString(psprintf(INT64_FORMAT, t->max))),
					   list_make3(makeInteger(t->zoned), makeInteger(t->zone_gmtoff),
								  makeInteger(t->zone_dst)));
}

static int64
string_int64(Node *n)
{
	return strtoi64(strVal(n), NULL, 10);
}

void
gpugb_key_transform_from_list(List *list, GpugbKeyTransform *t)
{
	t->op = (GpugbKeyOp) intVal(linitial(list));
	t->operand = string_int64(lsecond(list));
	t->offset = string_int64(lthird(list));
	t->min = string_int64(lfourth(list));
	t->max = string_int64(list_nth(list, 4));
	t->zoned = intVal(list_nth(list, 5)) != 0;
	t->zone_gmtoff = intVal(list_nth(list, 6));
	t->zone_dst = intVal(list_nth(list, 7)) != 0;
	t->mod = gpugb_fastmod_prepare(t->op == GPUGB_KEY_MOD ? t->operand : 0);
}
