/*-------------------------------------------------------------------------
 * zonetrunc.h
 *    date_trunc('unit', timestamptz column) under a TimeZone with daylight
 *    saving or a history of offsets, computed by the stride filler as
 *    timestamptz_trunc computes it (see zonetrunc.c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_ZONETRUNC_H
#define GPUGB_ZONETRUNC_H

#include "postgres.h"

/*
 * Is unit (a DTK_ code, as DecodeUnits gives it) one gpugb_zone_trunc
 * computes: microseconds to year?
 */
extern bool gpugb_zone_trunc_unit(int unit);

/*
 * date_trunc(unit, *word) of the timestamptz *word in the session's
 * TimeZone, into *word; false where PostgreSQL would raise "timestamp out
 * of range" (or the zone's data cannot be read the way pg_localtime reads
 * it): the caller falls back to PostgreSQL's plan.
 */
extern bool gpugb_zone_trunc(int unit, int64 min, int64 max, int64 *word);

/*
 * The local time (a timestamp of the local fields) of the finite
 * timestamptz x in the session's TimeZone, as timestamp2tm computes it;
 * false where the zone's data cannot be read so (the caller falls back).
 */
extern bool gpugb_zone_local(int64 x, int64 *local);

#endif							/* GPUGB_ZONETRUNC_H */
