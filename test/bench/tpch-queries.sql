-- TPC-H queries that need only lineitem, for test/bench/report.sh.
-- Format (test/bench/report.py): "-- @ name | title" starts a query, whose SQL
-- follows (no trailing semicolon needed); "-- @duckdb name" starts DuckDB's own
-- text of query name where the SQL differs.  Group keys come first in the
-- select list (the result comparison sorts rows by their leading columns).

-- @ q1 | Q1 pricing summary: 4 groups (l_returnflag, l_linestatus), 8 aggregates, numeric arithmetic
SELECT l_returnflag, l_linestatus,
       sum(l_quantity) AS sum_qty,
       sum(l_extendedprice) AS sum_base_price,
       sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
       sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
       avg(l_quantity) AS avg_qty,
       avg(l_extendedprice) AS avg_price,
       avg(l_discount) AS avg_disc,
       count(*) AS count_order
FROM lineitem
WHERE l_shipdate <= date '1998-12-01' - interval '90' day
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus

-- @ q6 | Q6 forecasting revenue change: no GROUP BY, selective filter
SELECT sum(l_extendedprice * l_discount) AS revenue
FROM lineitem
WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1995-01-01'
  AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24

-- @ q18i | Q18's inner query: per order (1.5M groups per SF), HAVING sum(l_quantity) > 300
SELECT l_orderkey, sum(l_quantity) AS sum_qty
FROM lineitem
GROUP BY l_orderkey
HAVING sum(l_quantity) > 300

-- @ q15v | Q15's revenue view: per supplier (10k groups per SF), one quarter
SELECT l_suppkey AS supplier_no, sum(l_extendedprice * (1 - l_discount)) AS total_revenue
FROM lineitem
WHERE l_shipdate >= date '1996-01-01' AND l_shipdate < date '1996-04-01'
GROUP BY l_suppkey

-- @ part | per-part revenue (200k groups per SF), one year: count, 2 sums, avg
SELECT l_partkey, count(*) AS lines, sum(l_quantity) AS qty,
       sum(l_extendedprice * (1 - l_discount)) AS revenue, avg(l_discount) AS avg_disc
FROM lineitem
WHERE l_shipdate >= date '1995-01-01' AND l_shipdate < date '1996-01-01'
GROUP BY l_partkey

-- @ q12 | Q12's shape on lineitem: per l_shipmode (char(10) key), FILTERed counts and sums
SELECT l_shipmode,
       count(*) FILTER (WHERE l_shipinstruct IN ('DELIVER IN PERSON', 'COLLECT COD')) AS high_line_count,
       count(*) FILTER (WHERE l_shipinstruct NOT IN ('DELIVER IN PERSON', 'COLLECT COD')) AS low_line_count,
       sum(l_extendedprice) FILTER (WHERE l_returnflag = 'R') AS returned_price
FROM lineitem
WHERE l_shipmode IN ('MAIL', 'SHIP')
  AND l_commitdate < l_receiptdate AND l_shipdate < l_commitdate
  AND l_receiptdate >= date '1994-01-01' AND l_receiptdate < date '1995-01-01'
GROUP BY l_shipmode
ORDER BY l_shipmode

-- @ modeflag | per (l_shipmode, l_returnflag), whole table: FILTERed sums, avg, min/max of dates
SELECT l_shipmode, l_returnflag, count(*) AS lines,
       sum(l_quantity) FILTER (WHERE l_discount >= 0.05) AS qty_discounted,
       sum(l_extendedprice * (1 - l_discount)) FILTER (WHERE l_receiptdate > l_commitdate) AS late_revenue,
       avg(l_discount) AS avg_disc,
       min(l_shipdate) AS first_ship, max(l_receiptdate) AS last_receipt
FROM lineitem
GROUP BY l_shipmode, l_returnflag
ORDER BY l_shipmode, l_returnflag
