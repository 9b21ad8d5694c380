#!/usr/bin/env bash
# test/tpch/lineitem.sh — generates TPC-H's lineitem table in PostgreSQL, with
# TPC-H's column types and the value distributions of its dbgen (spec 2.x,
# section 4.2.3), without an outside generator: every value is a hash of the
# order key and line number, so the table is the same for any number of
# loading sessions.
#
#   SF=1 test/tpch/lineitem.sh          scale factor 1: 1.5M orders, ~6M lines
#
# Environment: SF (1), DB (gpugb_bench), LOAD_JOBS (nproc), PG_WORKERS (16,
# the table's parallel_workers), and the usual PGHOST/PGPORT/PGUSER.
# Skips the load when lineitem already holds scale factor SF (its comment).
set -euo pipefail
# shellcheck source=../lib/batch-load.sh
source "$(dirname "$0")/../lib/batch-load.sh"
SF=${SF:-1}
DB=${DB:-gpugb_bench}
LOAD_JOBS=${LOAD_JOBS:-$(nproc)}
PG_WORKERS=${PG_WORKERS:-16}
log() { echo "[lineitem $(date +%H:%M:%S)] $*" >&2; }
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

if [ "$(psql -X -At -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
  createdb "$DB"
fi
if [ "$(q -c "SELECT coalesce(obj_description(to_regclass('lineitem'), 'pg_class'), '')")" = "tpch sf=$SF" ]; then
  log "lineitem at scale factor $SF is already loaded"; exit 0
fi

orders=$(awk -v sf="$SF" 'BEGIN { printf "%d", sf * 1500000 }')
parts=$(awk -v sf="$SF" 'BEGIN { printf "%d", sf * 200000 }')
supps=$(awk -v sf="$SF" 'BEGIN { n = sf * 10000; printf "%d", n < 1 ? 1 : n }')
log "scale factor $SF: $orders orders, $LOAD_JOBS sessions"
t0=$(date +%s)
q <<SQL
DROP TABLE IF EXISTS lineitem;
CREATE UNLOGGED TABLE lineitem (
  l_orderkey      bigint        NOT NULL,
  l_partkey       integer       NOT NULL,
  l_suppkey       integer       NOT NULL,
  l_linenumber    integer       NOT NULL,
  l_quantity      numeric(15,2) NOT NULL,
  l_extendedprice numeric(15,2) NOT NULL,
  l_discount      numeric(15,2) NOT NULL,
  l_tax           numeric(15,2) NOT NULL,
  l_returnflag    char(1)       NOT NULL,
  l_linestatus    char(1)       NOT NULL,
  l_shipdate      date          NOT NULL,
  l_commitdate    date          NOT NULL,
  l_receiptdate   date          NOT NULL,
  l_shipinstruct  char(25)      NOT NULL,
  l_shipmode      char(10)      NOT NULL,
  l_comment       varchar(44)   NOT NULL);
-- uniform in [0, n) from (x, stream): a seeded 64-bit hash
CREATE OR REPLACE FUNCTION tpch_u(x bigint, stream bigint, n bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS 'SELECT (hashint8extended(x, stream) & 9223372036854775807) % n';
SQL

# The statement that loads keys $1..$2 (batch_load, test/lib/batch-load.sh).
lineitem_batch_sql() {
  local lo=$1 hi=$2
  cat <<SQL
INSERT INTO lineitem
SELECT o, pk, sk, ln, qty,
       qty * (90000 + (pk / 10) % 20001 + 100 * (pk % 1000)) / 100.0,
       disc, tax,
       CASE WHEN receipt <= date '1995-06-17'
            THEN (CASE WHEN tpch_u(key, 9, 2) = 0 THEN 'R' ELSE 'A' END) ELSE 'N' END,
       CASE WHEN ship > date '1995-06-17' THEN 'O' ELSE 'F' END,
       ship, commitd, receipt,
       (ARRAY['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'])[1 + tpch_u(key, 10, 4)],
       (ARRAY['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'])[1 + tpch_u(key, 11, 7)],
       left(md5(key::text) || md5((key + 1)::text), 10 + tpch_u(key, 12, 34)::int)
FROM generate_series($lo, $hi) o,
     LATERAL (SELECT date '1992-01-01' + tpch_u(o, 1, 2406)::int AS odate,
                     1 + tpch_u(o, 2, 7)::int AS nlines) ord,
     LATERAL generate_series(1, ord.nlines) ln,
     LATERAL (SELECT o * 8 + ln AS key) k,
     LATERAL (SELECT 1 + tpch_u(key, 3, $parts)::int AS pk,
                     1 + tpch_u(key, 4, $supps)::int AS sk,
                     (1 + tpch_u(key, 5, 50))::numeric(15,2) AS qty,
                     (tpch_u(key, 6, 11) / 100.0)::numeric(15,2) AS disc,
                     (tpch_u(key, 7, 9) / 100.0)::numeric(15,2) AS tax,
                     odate + 1 + tpch_u(key, 8, 121)::int AS ship,
                     odate + 30 + tpch_u(key, 13, 61)::int AS commitd) v,
     LATERAL (SELECT ship + 1 + tpch_u(key, 14, 30)::int AS receipt) r;
SQL
}
batch_load "$DB" "$orders" 100000 "$LOAD_JOBS" lineitem_batch_sql
q -c "ALTER TABLE lineitem SET (parallel_workers = $PG_WORKERS)" \
  -c "VACUUM (ANALYZE) lineitem" \
  -c "COMMENT ON TABLE lineitem IS 'tpch sf=$SF'"
log "loaded $(q -c "SELECT count(*) FROM lineitem") lines in $(( $(date +%s) - t0 )) s"
