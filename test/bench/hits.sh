#!/usr/bin/env bash
# test/bench/hits.sh — generates a ClickBench-like `hits` table in PostgreSQL
# (a subset of ClickBench's columns, lower-case names), pure SQL, without an
# outside data set: every value is a seeded hash of the row number, so the
# table is the same for any number of loading sessions.
#
#   HITS_ROWS=30000000 test/bench/hits.sh
#
# Columns and distributions (Zipf-ish = log-uniform rank, P(rank r) ~ 1/r):
#   watchid          int8       unique-ish hash of the row number
#   counterid        int4       Zipf-ish over 1..5000 (counter 1 has ~12% of the rows)
#   eventtime        timestamp  uniform over July 2013, second resolution
#   eventdate        date       eventtime's day
#   userid           int8       Zipf-ish rank over HITS_ROWS/4 users, hashed into int8
#   regionid         int4       Zipf-ish over 1..10000
#   searchengineid   int2       0 for 70%, else 1..30
#   advengineid      int2       0 for 95%, else 0..59
#   resolutionwidth  int2       one of 12 screen widths
#   isrefresh        int2       1 for 10%
#   dontcounthits    int2       1 for 5%
#   traficsourceid   int2       -1..9
#   clientip         int4       Zipf-ish rank over HITS_ROWS/8 addresses, hashed into int4
#   duration         int4       0..3599, skewed to short
#   searchphrase     text       '' for 80%, else '<word> <n>' (at most 13 bytes), Zipf-ish over 100000 phrases
#   url              text       '' for 2%; 88% short ('m.site.ru/<n>', at most 15 bytes); 10% long
#                               ('http://www.example<n>.com/catalog/item.php?id=<m>', ~50 bytes)
#
# Environment: HITS_ROWS (30000000), DB (gpugb_hits; created with the C
# collation, so that text sorts as in DuckDB), LOAD_JOBS (nproc), PG_WORKERS
# (16, the table's parallel_workers), and the usual PGHOST/PGPORT/PGUSER.
# Skips the load when hits already holds HITS_ROWS rows (its comment).
set -euo pipefail
# shellcheck source=../lib/batch-load.sh
source "$(dirname "$0")/../lib/batch-load.sh"
HITS_ROWS=${HITS_ROWS:-30000000}
DB=${DB:-gpugb_hits}
LOAD_JOBS=${LOAD_JOBS:-$(nproc)}
PG_WORKERS=${PG_WORKERS:-16}
log() { echo "[hits $(date +%H:%M:%S)] $*" >&2; }
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

if [ "$(psql -X -At -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
  createdb -T template0 --locale=C -E UTF8 "$DB"
fi
if [ "$(q -c "SELECT coalesce(obj_description(to_regclass('hits'), 'pg_class'), '')")" = "hits rows=$HITS_ROWS" ]; then
  log "hits with $HITS_ROWS rows is already loaded"; exit 0
fi

users=$(( HITS_ROWS / 4 > 1 ? HITS_ROWS / 4 : 2 ))
ips=$(( HITS_ROWS / 8 > 1 ? HITS_ROWS / 8 : 2 ))
log "$HITS_ROWS rows, $LOAD_JOBS sessions"
t0=$(date +%s)
q <<SQL
DROP TABLE IF EXISTS hits;
CREATE UNLOGGED TABLE hits (
  watchid         int8      NOT NULL,
  counterid       int4      NOT NULL,
  eventtime       timestamp NOT NULL,
  eventdate       date      NOT NULL,
  userid          int8      NOT NULL,
  regionid        int4      NOT NULL,
  searchengineid  int2      NOT NULL,
  advengineid     int2      NOT NULL,
  resolutionwidth int2      NOT NULL,
  isrefresh       int2      NOT NULL,
  dontcounthits   int2      NOT NULL,
  traficsourceid  int2      NOT NULL,
  clientip        int4      NOT NULL,
  duration        int4      NOT NULL,
  searchphrase    text      NOT NULL,
  url             text      NOT NULL);
-- uniform in [0, n) from (x, stream): a seeded 64-bit hash
CREATE OR REPLACE FUNCTION hits_u(x bigint, stream bigint, n bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS 'SELECT (hashint8extended(x, stream) & 9223372036854775807) % n';
-- Zipf-ish rank in [1, n): log-uniform, P(r) ~ 1/r
CREATE OR REPLACE FUNCTION hits_z(x bigint, stream bigint, n bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS 'SELECT floor(exp(ln(n::float8) * (hashint8extended(x, stream) & 9223372036854775807)::float8
                       / 9223372036854775808.0))::bigint';
SQL

# The statement that loads keys $1..$2 (batch_load, test/lib/batch-load.sh).
hits_batch_sql() {
  local lo=$1 hi=$2
  cat <<SQL
INSERT INTO hits
SELECT hashint8extended(i, 1),
       hits_z(i, 2, 5001)::int,
       ts, ts::date,
       hashint8extended(hits_z(i, 4, $users), 40),
       hits_z(i, 5, 10001)::int,
       CASE WHEN hits_u(i, 6, 10) < 7 THEN 0 ELSE 1 + hits_u(i, 16, 30) END,
       CASE WHEN hits_u(i, 7, 20) < 19 THEN 0 ELSE hits_u(i, 17, 60) END,
       (ARRAY[1024, 1280, 1366, 1440, 1536, 1600, 1920, 2560, 360, 375, 414, 768])[1 + hits_u(i, 8, 12)],
       CASE WHEN hits_u(i, 9, 10) = 0 THEN 1 ELSE 0 END,
       CASE WHEN hits_u(i, 10, 20) = 0 THEN 1 ELSE 0 END,
       hits_u(i, 11, 11) - 1,
       (hashint8extended(hits_z(i, 12, $ips), 120) >> 32)::int,
       hits_z(i, 13, 3601)::int - 1,
       CASE WHEN hits_u(i, 14, 5) < 4 THEN ''
            ELSE (ARRAY['cheap', 'buy', 'best', 'hotel', 'flights', 'weather', 'news', 'music',
                        'video', 'games', 'auto', 'phone', 'laptop', 'tickets', 'pizza', 'recipe'])
                 [1 + p % 16] || ' ' || (p / 16)::text END,
       CASE WHEN uk < 2 THEN ''
            WHEN uk < 90 THEN 'm.site.ru/' || hits_z(i, 15, 100000)::text
            ELSE 'http://www.example' || hits_z(i, 25, 20000)::text || '.com/catalog/item.php?id='
                 || hits_u(i, 35, 1000000)::text END
FROM generate_series($lo::bigint, $hi::bigint) i,
     LATERAL (SELECT timestamp '2013-07-01 00:00:00' + hits_u(i, 3, 31 * 86400) * interval '1 second' AS ts,
                     hits_z(i, 24, 100000) AS p,
                     hits_u(i, 34, 100) AS uk) v;
SQL
}
batch_load "$DB" "$HITS_ROWS" 500000 "$LOAD_JOBS" hits_batch_sql
q -c "ALTER TABLE hits SET (parallel_workers = $PG_WORKERS)" \
  -c "VACUUM (ANALYZE) hits" \
  -c "COMMENT ON TABLE hits IS 'hits rows=$HITS_ROWS'"
log "loaded $(q -c "SELECT count(*) FROM hits") rows in $(( $(date +%s) - t0 )) s"
