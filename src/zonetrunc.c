/*-------------------------------------------------------------------------
 * zonetrunc.c
 *    A timestamptz's local time in a TimeZone with daylight saving or a
 *    history of offsets (Europe/Berlin, America/New_York, PST8PDT), read as
 *    timestamp2tm and timestamptz_trunc read it, without PostgreSQL's
 *    per-row function call: for date_trunc('unit', timestamptz) and
 *    timestamptz::date GROUP BY keys (keyexpr.c, zone_dst; TO_DATE).
 *
 * timestamptz_trunc (timestamp.c) turns the instant into local fields with
 * the UTC offset in effect then (timestamp2tm, pg_localtime), truncates the
 * fields, and turns them back: up to an hour with that same offset, from a
 * day up (day, week, month, quarter, year) with the offset that
 * DetermineTimeZoneOffset finds for the truncated local time, which
 * settles local times that a transition skips or repeats.  This file gives
 * the two zone lookups, exactly:
 *
 *   - the offset at an instant (gpugb_zone_offset) comes from a few cached
 *     ranges of instants over which the zone keeps one offset
 *     (pg_next_dst_boundary gives the next transition after an instant; a
 *     range grows down as earlier instants of it are met); on each miss,
 *     pg_localtime's offset for the instant must be the one the range
 *     says, else the row falls back;
 *   - the instant of a local midnight (gpugb_zone_midnight) is
 *     PostgreSQL's own DetermineTimeZoneOffset and tm2timestamp, cached per
 *     local midnight (a year of daily rows has 365 of them).
 *
 * The truncation arithmetic is keyexpr's (gpugb_key_trunc_zoned).  The
 * caches are the backend's, for the session's TimeZone (pg_tzset keeps
 * every zone it loaded for the backend's life, so the pointer identifies
 * it); a new TimeZone empties them.
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

bool
gpugb_zone_midnight(int64 local, int64 *instant)
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

bool
gpugb_zone_offset(int64 x, int64 *shift)
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

	return gpugb_zone_offset(x, &shift) && !pg_add_s64_overflow(x, shift, local);
}
