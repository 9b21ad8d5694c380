/*-------------------------------------------------------------------------
 * zonetrunc.h
 *    A timestamptz's local time under a TimeZone with daylight saving or a
 *    history of offsets, read as timestamp2tm and timestamptz_trunc read it
 *    (see zonetrunc.c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_ZONETRUNC_H
#define GPUGB_ZONETRUNC_H

#include "postgres.h"

/*
 * The UTC offset (microseconds east) that timestamp2tm applies to the
 * finite timestamptz x in the session's TimeZone; false where the zone's
 * data cannot be read the way pg_localtime reads it (the caller falls back).
 */
extern bool gpugb_zone_offset(int64 x, int64 *shift);

/*
 * The instant of the local midnight `local` (a timestamp of local fields)
 * in the session's TimeZone, as timestamptz_trunc computes it from a day up
 * (DetermineTimeZoneOffset, tm2timestamp); false where PostgreSQL would
 * raise "timestamp out of range".  Call gpugb_zone_offset first (it sets
 * the zone up).
 */
extern bool gpugb_zone_midnight(int64 local, int64 *instant);

/*
 * The local time (a timestamp of the local fields) of the finite
 * timestamptz x in the session's TimeZone, as timestamp2tm computes it;
 * false where the zone's data cannot be read so (the caller falls back).
 */
extern bool gpugb_zone_local(int64 x, int64 *local);

#endif							/* GPUGB_ZONETRUNC_H */
