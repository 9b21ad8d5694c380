/*-------------------------------------------------------------------------
 * zonetrunc.c
 *    date_trunc('unit', timestamptz) in a TimeZone with daylight saving or a
 *    history of offsets (Europe/Berlin, America/New_York, PST8PDT), the
 *    day-by-day reporting key, without PostgreSQL's per-row function call.
 *
 * timestamptz_trunc (timestamp.c) turns the instant into local fields with
 * the UTC offset in effect then (timestamp2tm, pg_localtime), truncates the
 * fields, and turns them back: up to an hour with that same offset, from a
 * day up (day, week, month, quarter, year) with the offset that
 * DetermineTimeZoneOffset finds for the truncated local time, which
 * settles local times that a transition skips or repeats.  So, exactly:
 *
 *   - the offset at an instant comes from a few cached ranges of instants
 *     over which the zone keeps one offset (pg_next_dst_boundary gives the
 *     next transition after an instant; a range grows down as earlier
 *     instants of it are met); on each miss, pg_localtime's offset for the
 *     instant must be the one the range says, else the row falls back;
 *   - up to an hour: floor(instant + offset, unit) - offset;
 *   - from a day up: the truncated local time (a local midnight) is
 *     floored arithmetically, and its instant is PostgreSQL's own
 *     DetermineTimeZoneOffset and tm2timestamp, cached per local midnight
 *     (a year of daily rows has 365 of them).
 *
 * The caches are the backend's, for the session's TimeZone (pg_tzset keeps
 * every zone it loaded for the backend's life, so the pointer identifies
 * it); a new TimeZone empties them.  Decades, centuries and millennia stay
 * with the input plan.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/int.h"
#include "datatype/timestamp.h"
#include "pgtime.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"

#include "zonetrunc.h"

#define OFFSET_RANGES 16
#define LOCAL_MIDNIGHTS 1024	/* a power of two */

/* For instants (seconds since 1970) in [lo, hi), the zone's UTC offset is gmtoff. */
typedef struct OffsetRange
{
	pg_time_t	lo;
	pg_time_t	hi;
	long int	gmtoff;
} OffsetRange;

/* A local midnight (a timestamp of local fields) and its instant. */
typedef struct LocalMidnight
{
	bool		valid;
	int64		local;
	int64		instant;
} LocalMidnight;

static pg_tz *cached_zone = NULL;
static OffsetRange ranges[OFFSET_RANGES];
static int	n_ranges = 0;
static int	next_replaced = 0;
static LocalMidnight midnights[LOCAL_MIDNIGHTS];

bool
gpugb_zone_trunc_unit(int unit)
{
	switch (unit)
	{
		case DTK_MICROSEC:
		case DTK_MILLISEC:
		case DTK_SECOND:
		case DTK_MINUTE:
		case DTK_HOUR:
		case DTK_DAY:
		case DTK_WEEK:
		case DTK_MONTH:
		case DTK_QUARTER:
		case DTK_YEAR:
			return true;
		default:
			return false;
	}
}

static void
use_zone(pg_tz *zone)
{
	cached_zone = zone;
	n_ranges = 0;
	next_replaced = 0;
	memset(midnights, 0, sizeof(midnights));
}

/* The offset at instant s from the zone's data; false if it cannot be trusted. */
static bool
offset_from_zone(pg_time_t s, long int *gmtoff)
{
	long int	before_gmtoff,
				after_gmtoff;
	int			before_isdst,
				after_isdst;
	pg_time_t	boundary;
	struct pg_tm *tm;
	int			found = pg_next_dst_boundary(&s, &before_gmtoff, &before_isdst, &boundary,
											 &after_gmtoff, &after_isdst, cached_zone);

	if (found < 0)
		return false;
	/* timestamp2tm reads the offset with pg_localtime: they must agree */
	tm = pg_localtime(&s, cached_zone);
	if (tm == NULL || tm->tm_gmtoff != before_gmtoff)
		return false;
	*gmtoff = before_gmtoff;
	if (found == 0)
	{
		pg_time_t	next = s + 1;

		/*
		 * "No transition after s" is also the answer exactly at the last
		 * transition of the zone's table (and at it plus 400-year cycles),
		 * where the instants after s may still follow the zone's rules
		 * (goahead): trust it only if the next second says so too, else
		 * cache nothing.
		 */
		if (pg_next_dst_boundary(&next, &before_gmtoff, &before_isdst, &boundary,
								 &after_gmtoff, &after_isdst, cached_zone) != 0 ||
			before_gmtoff != *gmtoff)
			return true;
		boundary = PG_INT64_MAX;
	}
	else if (boundary <= s)
		return false;
	/* the same range, met above its lowest known instant: it grows down */
	for (int i = 0; i < n_ranges; i++)
		if (ranges[i].hi == boundary && ranges[i].gmtoff == *gmtoff)
		{
			ranges[i].lo = Min(ranges[i].lo, s);
			return true;
		}
	if (n_ranges < OFFSET_RANGES)
		ranges[n_ranges++] = (OffsetRange) {s, boundary, *gmtoff};
	else
	{
		ranges[next_replaced] = (OffsetRange) {s, boundary, *gmtoff};
		next_replaced = (next_replaced + 1) % OFFSET_RANGES;
	}
	return true;
}

static inline bool
offset_at(pg_time_t s, long int *gmtoff)
{
	static int	last_hit = 0;	/* rows near in time share a range: try it first */

	if (last_hit < n_ranges && s >= ranges[last_hit].lo && s < ranges[last_hit].hi)
	{
		*gmtoff = ranges[last_hit].gmtoff;
		return true;
	}
	for (int i = 0; i < n_ranges; i++)
		if (s >= ranges[i].lo && s < ranges[i].hi)
		{
			*gmtoff = ranges[i].gmtoff;
			last_hit = i;
			return true;
		}
	return offset_from_zone(s, gmtoff);
}

/* The instant of a local midnight, as timestamptz_trunc computes it (redotz). */
static bool
midnight_instant(int64 local, int64 *instant)
{
	LocalMidnight *m = &midnights[(uint64) (local / USECS_PER_DAY) & (LOCAL_MIDNIGHTS - 1)];
	struct pg_tm tm;
	fsec_t		fsec;
	int			tz;
	Timestamp	result;

	if (m->valid && m->local == local)
	{
		*instant = m->instant;
		return true;
	}
	if (timestamp2tm(local, NULL, &tm, &fsec, NULL, NULL) != 0)
		return false;
	tz = DetermineTimeZoneOffset(&tm, cached_zone);
	if (tm2timestamp(&tm, fsec, &tz, &result) != 0)
		return false;
	m->valid = true;
	m->local = local;
	m->instant = result;
	*instant = result;
	return true;
}

/* floor(x / unit) * unit + origin's remainder, for unit > 0 */
static inline int64
floor_to(int64 x, int64 unit, int64 origin)
{
	int64		r = (x - origin) / unit;

	if ((x - origin) % unit < 0)
		r--;
	return r * unit + origin;
}

/*
 * The UTC offset (microseconds) timestamp2tm applies to the finite
 * timestamptz x in the session's TimeZone; false if it cannot be read.
 */
static bool
offset_of(int64 x, int64 *shift)
{
	pg_time_t	s;
	long int	gmtoff;

	if (unlikely(session_timezone != cached_zone))
		use_zone(session_timezone);
	if (cached_zone == NULL)
		return false;
	/* the whole seconds (floored) timestamp2tm hands pg_localtime */
	s = x / USECS_PER_SEC;
	if (x % USECS_PER_SEC < 0)
		s--;
	s += (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY;
	if (!offset_at(s, &gmtoff))
		return false;
	*shift = (int64) gmtoff * USECS_PER_SEC;
	return true;
}

bool
gpugb_zone_local(int64 x, int64 *local)
{
	int64		shift;

	return offset_of(x, &shift) && !pg_add_s64_overflow(x, shift, local);
}

bool
gpugb_zone_trunc(int unit, int64 min, int64 max, int64 *word)
{
	int64		x = *word;
	int64		local;
	int64		shift;
	int64		r;

	if (x == PG_INT64_MIN || x == PG_INT64_MAX)
		return true;			/* infinities: unchanged, as TIMESTAMP_NOT_FINITE */
	if (!offset_of(x, &shift) || pg_add_s64_overflow(x, shift, &local))
		return false;
	switch (unit)
	{
		case DTK_MICROSEC:
			r = x;
			break;
		case DTK_MILLISEC:
			r = floor_to(local, 1000, 0) - shift;
			break;
		case DTK_SECOND:
			r = floor_to(local, USECS_PER_SEC, 0) - shift;
			break;
		case DTK_MINUTE:
			r = floor_to(local, USECS_PER_MINUTE, 0) - shift;
			break;
		case DTK_HOUR:
			r = floor_to(local, USECS_PER_HOUR, 0) - shift;
			break;
		case DTK_DAY:
			if (!midnight_instant(floor_to(local, USECS_PER_DAY, 0), &r))
				return false;
			break;
		case DTK_WEEK:
			/* ISO weeks start on Monday; 2000-01-03 was one */
			if (!midnight_instant(floor_to(local, 7 * USECS_PER_DAY, 2 * USECS_PER_DAY), &r))
				return false;
			break;
		case DTK_MONTH:
		case DTK_QUARTER:
		case DTK_YEAR:
			{
				int			months = unit == DTK_MONTH ? 1 : unit == DTK_QUARTER ? 3 : MONTHS_PER_YEAR;
				int64		days = floor_to(local, USECS_PER_DAY, 0) / USECS_PER_DAY;
				int			year,
							month,
							day;

				j2date((int) (days + POSTGRES_EPOCH_JDATE), &year, &month, &day);
				month = (month - 1) / months * months + 1;
				if (!midnight_instant(((int64) date2j(year, month, 1) - POSTGRES_EPOCH_JDATE) *
									  USECS_PER_DAY, &r))
					return false;
				break;
			}
		default:
			return false;
	}
	if (r < min || r > max)
		return false;
	*word = r;
	return true;
}
