#!/usr/bin/env python3
"""test/bench/report.py — the Python half of test/bench/report.sh.

Subcommands (report.sh calls them; each can be run by hand):

  duck-load   export a PostgreSQL table to CSV files (parallel COPY over ctid
              ranges, through psql) and load them into a DuckDB database file;
              skipped when the DuckDB table already holds the same data (tag)
  run-suite   time each query of a query file on PostgreSQL's best plan
              (gpugb.enabled=off), gpugb (forced, require_gpu) and DuckDB;
              compare the results; append one CSV row per query as it goes
  checksum    Query B's cross-check: numeric checksums of gpugb's and DuckDB's
              results (gpugb against PostgreSQL is queryb.sh's own check)
  render      BENCHMARKS.md, PNG plots and CSVs from a run's raw CSVs

PostgreSQL is reached through psql only (no driver needed); DuckDB through its
Python package (import duckdb), matplotlib for the plots (Agg backend).
"""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys
import threading
import time

# ---------------------------------------------------------------------------
# Common


def log(msg):
    print(f"[report {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def parse_queries(path):
    """-- @ name | title, then SQL; -- @duckdb name, then DuckDB's text."""
    queries, cur = [], None
    with open(path) as f:
        for line in f:
            m = re.match(r"^--\s*@duckdb\s+(\S+)\s*$", line)
            if m:
                cur = {"duck_of": m.group(1), "sql": []}
                queries.append(cur)
                continue
            m = re.match(r"^--\s*@\s+(\S+)\s*(?:\|\s*(.*))?$", line)
            if m:
                cur = {"name": m.group(1), "title": (m.group(2) or "").strip(), "sql": []}
                queries.append(cur)
                continue
            m = re.match(r"^--\s*checksum:\s*(.*)$", line)
            if m and cur is not None:
                cur["checksum"] = m.group(1).strip()
                continue
            if cur is None or line.lstrip().startswith("--"):
                continue
            cur["sql"].append(line.rstrip("\n"))
    out, by_name = [], {}
    for q in queries:
        sql = "\n".join(q["sql"]).strip().rstrip(";").strip()
        if "duck_of" in q:
            by_name[q["duck_of"]]["duck_sql"] = sql
        else:
            q["sql"] = sql
            q.setdefault("duck_sql", None)
            by_name[q["name"]] = q
            out.append(q)
    for q in out:
        q["duck_sql"] = q["duck_sql"] or q["sql"]
    return out


# Seconds a timed session waits before its query (report.sh's WARM_S).
WARM_S = float(os.environ.get("WARM_S", "0.5"))


def psql(db, opts, stmts, timeout_s=None, at=True):
    """Runs statements in one psql session; returns (rc, stdout, stderr)."""
    args = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", db]
    if at:
        args.insert(2, "-At")
    args += ["-c", "LOAD 'gpugb'"]
    if timeout_s is not None:
        args += ["-c", f"SET statement_timeout = '{max(1, int(math.ceil(timeout_s)))}s'"]
    for s in stmts:
        args += ["-c", s]
    env = dict(os.environ)
    env["PGOPTIONS"] = (env.get("PGOPTIONS", "") + " " + opts).strip()
    try:
        p = subprocess.run(args, env=env, capture_output=True, text=True,
                           timeout=None if timeout_s is None else timeout_s + 120)
    except subprocess.TimeoutExpired:
        return 124, "", "ERROR:  psql did not return 2 minutes after the statement timeout (client gave up)"
    return p.returncode, p.stdout, p.stderr


def classify_error(err):
    if "statement timeout" in err or "client gave up" in err:
        return "timeout", ""
    first = next((l for l in err.splitlines() if "ERROR" in l), err.strip().splitlines()[-1] if err.strip() else "?")
    if "GPU aggregation did not finish" in err:
        return "fallback", first
    return "error", first


def is_num(s):
    try:
        float(s)
        return True
    except (TypeError, ValueError):
        return False


def fmt_s(x):
    return f"{x:.3f}"


# ---------------------------------------------------------------------------
# duck-load

PG2DUCK = [
    (r"^smallint$", "SMALLINT"), (r"^integer$", "INTEGER"), (r"^bigint$", "BIGINT"),
    (r"^real$", "FLOAT"), (r"^double precision$", "DOUBLE"),
    (r"^numeric\((\d+),(\d+)\)$", None), (r"^date$", "DATE"),
    (r"^timestamp without time zone$", "TIMESTAMP"), (r"^text$", "VARCHAR"),
    (r"^character varying", "VARCHAR"), (r"^character\(", "VARCHAR"), (r"^boolean$", "BOOLEAN"),
]


def duck_type(pgtype):
    for pat, t in PG2DUCK:
        m = re.match(pat, pgtype)
        if m:
            return t or f"DECIMAL({m.group(1)},{m.group(2)})"
    raise SystemExit(f"duck-load: no DuckDB type for {pgtype}")


def cmd_duck_load(a):
    import duckdb
    opts = "-c gpugb.enabled=off -c DateStyle=ISO,YMD -c extra_float_digits=3"
    # The tag names the data; the table's file node tells a reloaded table (atable's values are random).
    rc, out, err = psql(a.db, opts, [f"SELECT pg_relation_filenode('{a.table}')"])
    if rc:
        raise SystemExit(f"duck-load: {err}")
    tag = f"{a.tag} filenode={out.strip()}"
    con = duckdb.connect(a.duck)
    con.execute("CREATE TABLE IF NOT EXISTS _gpugb_loaded (name VARCHAR, tag VARCHAR)")
    have = con.execute("SELECT tag FROM _gpugb_loaded WHERE name = ?", [a.table]).fetchall()
    if have and have[0][0] == tag:
        log(f"duck-load: {a.table} ({tag}) is already in {a.duck}")
        return
    t0 = time.time()
    rc, out, err = psql(a.db, opts, [
        "SELECT attname || '|' || format_type(atttypid, atttypmod) FROM pg_attribute "
        f"WHERE attrelid = '{a.table}'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum"])
    if rc:
        raise SystemExit(f"duck-load: {err}")
    cols = [tuple(l.split("|", 1)) for l in out.split("\n") if l]
    rc, out, err = psql(a.db, opts, [
        f"SELECT pg_relation_size('{a.table}') / current_setting('block_size')::int"])
    pages = int(out.strip())
    jobs = max(1, min(a.jobs, pages))
    os.makedirs(a.tmp, exist_ok=True)
    files, procs = [], []
    step = (pages + jobs - 1) // jobs
    for j in range(jobs):
        lo, hi = j * step, (j + 1) * step
        where = f"ctid >= '({lo},0)'::tid" + (f" AND ctid < '({hi},0)'::tid" if j < jobs - 1 else "")
        fn = os.path.join(a.tmp, f"{a.table}_{j}.csv")
        files.append(fn)
        env = dict(os.environ, PGOPTIONS=(os.environ.get("PGOPTIONS", "") + " " + opts).strip())
        f = open(fn, "w")
        procs.append((subprocess.Popen(
            ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", a.db, "-c",
             f"COPY (SELECT * FROM {a.table} WHERE {where}) TO STDOUT (FORMAT csv)"],
            stdout=f, stderr=subprocess.PIPE, env=env, text=True), f))
    for p, f in procs:
        _, e = p.communicate()
        f.close()
        if p.returncode:
            raise SystemExit(f"duck-load: COPY failed: {e}")
    t1 = time.time()
    size = sum(os.path.getsize(f) for f in files)
    log(f"duck-load: {a.table} exported ({size / 1e9:.2f} GB CSV, {jobs} sessions) in {t1 - t0:.1f} s")
    con.execute(f"SET threads = {a.threads}")
    con.execute("SET enable_progress_bar = false")
    colspec = "{" + ", ".join(f"'{n}': '{duck_type(t)}'" for n, t in cols) + "}"
    select = ", ".join(f"rtrim({n}) AS {n}" if t.startswith("character(") else n for n, t in cols)
    flist = "[" + ", ".join(f"'{f}'" for f in files) + "]"
    con.execute(f"CREATE OR REPLACE TABLE {a.table} AS SELECT {select} FROM read_csv({flist}, "
                f"columns = {colspec}, header = false, auto_detect = false, delim = ',', quote = '\"', "
                f"escape = '\"', allow_quoted_nulls = false)")
    n = con.execute(f"SELECT count(*) FROM {a.table}").fetchone()[0]
    con.execute("DELETE FROM _gpugb_loaded WHERE name = ?", [a.table])
    con.execute("INSERT INTO _gpugb_loaded VALUES (?, ?)", [a.table, tag])
    con.execute("CHECKPOINT")
    con.close()
    for f in files:
        os.remove(f)
    rc, out, err = psql(a.db, opts, [f"SELECT count(*) FROM {a.table}"])
    pg_n = int(out.strip()) if rc == 0 else -1
    log(f"duck-load: {a.table}: {n} rows in DuckDB (PostgreSQL: {pg_n}), loaded in {time.time() - t1:.1f} s")
    if n != pg_n:
        raise SystemExit(f"duck-load: {a.table}: DuckDB has {n} rows, PostgreSQL {pg_n}")


# ---------------------------------------------------------------------------
# run-suite


def plan_summary(plan):
    """PostgreSQL's plan as 'Finalize HashAggregate / Gather (16) / Partial HashAggregate'."""
    parts = []
    lines = plan.splitlines()
    for i, l in enumerate(lines):
        s = re.sub(r"^\s*(->\s*)?", "", l).strip()
        s = re.sub(r"\s+\(.*$", "", s) if "Custom Scan" not in s else s
        if re.search(r"(Aggregate|^Gather|GpuGroupAgg)", s):
            if s.startswith("Gather"):
                w = next((re.search(r"\d+", x).group(0) for x in lines[i + 1:i + 3] if "Workers Planned" in x), "?")
                s = f"{s} ({w})"
            parts.append(s.replace("Custom Scan (GpuGroupAgg)", "GpuGroupAgg"))
        if "GpuGroupAgg" in s:
            break  # below it: its input and its fallback plan
    return " / ".join(parts) if parts else "-"


def gpugb_plan_summary(plan):
    if "GpuGroupAgg" not in plan:
        return "not planned"
    if "Ingest: parallel" in plan:
        w = re.search(r"Workers Planned: (\d+)", plan)
        return f"parallel ingest ({w.group(1) if w else '?'} workers)"
    return "one process"


def analyze_summary(text):
    def g(pat):
        m = re.search(pat, text, re.M)
        return m.group(1) if m else "?"
    if "Fallback:" in text:
        return {"groups": "", "strategy": "", "breakdown": "fallback: " + g(r"Fallback: (.*)")}
    return {
        "groups": g(r"^\s*Groups: (\d+)"),  # not "Estimated Groups:"
        "strategy": g(r"Strategy Used: (\S+)"),
        "breakdown": " / ".join(f"{float(g(p + r': ([0-9.]+) ms')):.0f}" if g(p + r': ([0-9.]+) ms') != "?" else "?"
                               for p in ("Fill Time", "Transfer Time", "Kernel Time", "Wait Time")),
    }


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


INT_RE = re.compile(r"^-?\d+$")


def field_equal(x, y, rel=1e-9, absol=1e-12):
    """x, y: one value as two engines printed it (text).  Integers must be equal;
    other numbers within a relative tolerance; text as it is."""
    if x == y:
        return True
    if INT_RE.match(x) and INT_RE.match(y):
        return False
    try:
        a, b = float(x), float(y)
    except ValueError:
        return False
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= max(absol, rel * max(abs(a), abs(b)))


def compare_rows(rows_a, rows_b):
    """Rows as sets, numbers within a tolerance (field_equal), text without trailing
    blanks (char(n)).  Rows are sorted field by field as text: the group keys come
    first and print alike in every engine (integers, text, dates, timestamps,
    numeric(p, s)), so the same groups meet.  Returns 'yes' or the first difference."""
    if len(rows_a) != len(rows_b):
        return f"NO: {len(rows_a)} rows vs {len(rows_b)}"
    na = sorted([x.rstrip() for x in r] for r in rows_a)
    nb = sorted([x.rstrip() for x in r] for r in rows_b)
    for i, (ra, rb) in enumerate(zip(na, nb)):
        if ra == rb:
            continue
        if len(ra) != len(rb) or not all(field_equal(x, y) for x, y in zip(ra, rb)):
            return f"NO: row {i}: {','.join(ra)[:160]} vs {','.join(rb)[:160]}"
    return "yes"


def compare_column_sums(rows_a, rows_b):
    """For big results (a row-by-row comparison in Python takes too long): per column,
    the exact sum of integers, the sum of other numbers (relative tolerance), or the
    sum of the hashes of text values."""
    if len(rows_a) != len(rows_b):
        return f"NO: {len(rows_a)} rows vs {len(rows_b)}"
    if not rows_a:
        return "yes"
    ncol = len(rows_a[0])

    def sums(rows):
        out = []
        for c in range(ncol):
            col = [r[c] for r in rows]
            if all(INT_RE.match(x) for x in col):
                out.append(("int", sum(map(int, col)), 0.0))
            else:
                try:
                    v = [float(x) for x in col]
                    out.append(("num", math.fsum(v), math.fsum(map(abs, v))))
                except ValueError:
                    out.append(("text", sum(hash(x.rstrip()) for x in col) & (2 ** 64 - 1), 0.0))
        return out
    if any(len(r) != ncol for r in rows_b):
        return "NO: column counts differ"
    for c, (x, y) in enumerate(zip(sums(rows_a), sums(rows_b))):
        if x[0] == "int" and y[0] == "int":
            ok = x[1] == y[1]
        elif "text" in (x[0], y[0]):
            ok = x == y
        else:
            ok = abs(x[1] - y[1]) <= 1e-9 * max(x[2], y[2], 1e-300)
        if not ok:
            return f"NO: column {c + 1}: sum {x[1]} vs {y[1]}"
    return "yes (column sums)"


def compare_numeric(rows_a, rows_b, full_max=300000):
    if max(len(rows_a), len(rows_b)) > full_max:
        return compare_column_sums(rows_a, rows_b)
    return compare_rows(rows_a, rows_b)


def compare_text(path_a, path_b):
    with open(path_a) as f:
        a = sorted(f.read().splitlines())
    with open(path_b) as f:
        b = sorted(f.read().splitlines())
    if a == b:
        return "yes"
    if len(a) != len(b):
        return f"NO: {len(a)} rows vs {len(b)}"
    i = next(i for i, (x, y) in enumerate(zip(a, b)) if x != y)
    return f"NO: sorted row {i}: {a[i][:160]} vs {b[i][:160]}"


class Duck:
    def __init__(self, path, threads):
        import duckdb
        self.duckdb = duckdb
        self.con = duckdb.connect(path, read_only=True)
        self.con.execute(f"SET threads = {threads}")
        self.con.execute("SET enable_progress_bar = false")
        self.version = duckdb.__version__

    def run(self, sql, timeout_s):
        """Returns (seconds, None) or (None, status)."""
        timer = threading.Timer(max(timeout_s, 0.1), self.con.interrupt)
        timer.start()
        try:
            t0 = time.perf_counter()
            self.con.execute(sql)
            return time.perf_counter() - t0, None
        except Exception as e:  # duckdb.InterruptException and the like
            if "nterrupt" in type(e).__name__ or "nterrupt" in str(e):
                return None, "timeout"
            log(f"duckdb error: {e}")
            return None, "error"
        finally:
            timer.cancel()

    def query(self, sql):
        return self.con.execute(sql).fetchall()


class Runner:
    def __init__(self, a):
        self.a = a
        self.deadline = a.deadline or float("inf")

    def remaining(self):
        return self.deadline - time.time()

    def tmo(self):
        return min(self.a.timeout, self.remaining())

    def time_pg(self, opts, sql, result_file):
        """Fastest of the reps (a rep is repeated only while it took < repeat_max);
        the first rep writes the result (CSV) to result_file when given."""
        best, first = None, True
        self.msg = ""
        for r in range(self.a.reps):
            if self.tmo() < 1:
                return best, "skipped (budget)" if best is None else None
            target = result_file if (first and result_file) else "/dev/null"
            # A session WARM_S old, as a pooled connection is: a new backend's CUDA
            # start-up (docs/startup-*.md) is not part of a query's time.
            rc, out, err = psql(self.a.db, opts, [f"SELECT pg_sleep({WARM_S})", "\\timing on",
                                                  f"COPY ({sql}) TO '{target}' (FORMAT csv)"],
                                timeout_s=self.tmo())
            if rc:
                st, msg = classify_error(err)
                if msg:
                    log(f"{st}: {msg}")
                self.msg = msg
                if first and result_file and os.path.exists(result_file):
                    os.remove(result_file)  # no result to compare
                return best, st if best is None else None
            ms = [float(x) for x in re.findall(r"Time: ([0-9.]+) ms", out)]
            s = ms[-1] / 1000
            best = s if best is None else min(best, s)
            first = False
            if s >= self.a.repeat_max:
                break
        return best, None

    def time_duck(self, duck, sql, result_file):
        best, first = None, True
        for r in range(max(self.a.reps, 2)):  # DuckDB: at least 2 (the file database warms up)
            if self.tmo() < 1:
                return best, "skipped (budget)" if best is None else None
            target = result_file if (first and result_file) else "/dev/null"
            # USE_TMP_FILE false: DuckDB writes the file in place (never a temporary file renamed over /dev/null)
            s, st = duck.run(f"COPY ({sql}) TO '{target}' (FORMAT csv, HEADER false, USE_TMP_FILE false)",
                             self.tmo())
            if st:
                if first and result_file and os.path.exists(result_file):
                    os.remove(result_file)
                return best, st if best is None else None
            best = s if best is None else min(best, s)
            first = False
            if s >= self.a.repeat_max:
                break
        return best, None


CSV_FIELDS = ["suite", "query", "title", "pg_s", "gpugb_s", "duckdb_s", "result_rows", "pg_plan",
              "gpugb_plan", "gpugb_groups", "gpugb_strategy", "gpugb_breakdown_ms", "gpugb_vs_pg",
              "duckdb_vs_pg", "notes"]


def cmd_run_suite(a):
    queries = parse_queries(a.queries)
    if a.only:
        keep = set(a.only.split(","))
        queries = [q for q in queries if q["name"] in keep]
    engines = a.engines.split(",")
    run = Runner(a)
    duck = Duck(a.duck, a.threads) if "duckdb" in engines else None
    os.makedirs(a.resdir, exist_ok=True)
    os.chmod(a.resdir, 0o1777)
    if a.explain_dir:
        os.makedirs(a.explain_dir, exist_ok=True)
    new = not os.path.exists(a.out)
    with open(a.out, "a", newline="") as f:
        if new:
            csv.writer(f).writerow(CSV_FIELDS)
    for q in queries:
        name, sql = q["name"], q["sql"]
        row = dict.fromkeys(CSV_FIELDS, "")
        row.update(suite=a.suite, query=name, title=q["title"])
        notes = []
        log(f"{a.suite} {name}: {q['title']}")
        files = {e: (os.path.join(a.resdir, f"{a.suite}_{name}_{e}.csv") if a.results else None)
                 for e in ("pg", "gpugb", "duckdb")}
        for fn in files.values():
            if fn and os.path.exists(fn):
                os.remove(fn)
        if "pg" in engines:
            rc, out, err = psql(a.db, a.pg_opts, [f"EXPLAIN (COSTS OFF) {sql}"])
            row["pg_plan"] = plan_summary(out) if rc == 0 else "?"
            s, st = run.time_pg(a.pg_opts, sql, files["pg"])
            row["pg_s"] = fmt_s(s) if s is not None else st
            if st == "error":
                notes.append(f"PostgreSQL error: {run.msg}")
        if "gpugb" in engines:
            rc, out, err = psql(a.db, a.gpu_opts, [f"EXPLAIN (COSTS OFF) {sql}"])
            row["gpugb_plan"] = gpugb_plan_summary(out) if rc == 0 else "?"
            if row["gpugb_plan"] == "not planned":
                row["gpugb_s"] = "not planned"
                notes.append("gpugb did not plan GpuGroupAgg")
            else:
                s, st = run.time_pg(a.gpu_opts, sql, files["gpugb"])
                row["gpugb_s"] = fmt_s(s) if s is not None else st
                if st in ("fallback", "error"):
                    notes.append(f"gpugb {st}: {run.msg}")
        if duck:
            s, st = run.time_duck(duck, q["duck_sql"], files["duckdb"])
            row["duckdb_s"] = fmt_s(s) if s is not None else st
        for e, col in (("pg", "pg_s"), ("gpugb", "gpugb_s"), ("duckdb", "duckdb_s")):
            if row[col] == "timeout":
                notes.append(f"{e} timeout ({int(a.timeout)} s or the budget)")
        # Results.
        have = {e: fn for e, fn in files.items()
                if fn and os.path.exists(fn) and is_num(row[{"pg": "pg_s", "gpugb": "gpugb_s", "duckdb": "duckdb_s"}[e]])}
        if "pg" in have:
            with open(have["pg"]) as f:
                row["result_rows"] = str(sum(1 for _ in f))
        if "pg" in have and "gpugb" in have:
            row["gpugb_vs_pg"] = compare_text(have["pg"], have["gpugb"])
        if "pg" in have and "duckdb" in have:
            row["duckdb_vs_pg"] = compare_numeric(read_rows(have["pg"]), read_rows(have["duckdb"]))
        elif "gpugb" in have and "duckdb" in have:
            row["duckdb_vs_pg"] = "vs gpugb: " + compare_numeric(read_rows(have["gpugb"]), read_rows(have["duckdb"]))
        for k in ("gpugb_vs_pg", "duckdb_vs_pg"):
            if row[k].startswith("NO") or "NO:" in row[k]:
                notes.append(f"{k.replace('_vs_', ' vs ')} mismatch")
                log(f"{name}: {k}: {row[k]}")
        # gpugb's EXPLAIN ANALYZE: groups, strategy, time breakdown.
        if a.explain_dir and "gpugb" in engines and is_num(row["gpugb_s"]) and run.tmo() > 1:
            # in a session as old as the timed runs', so that Setup Time is not the
            # new backend's CUDA start-up (run 7's fresh sessions showed 70-130 ms there)
            rc, out, err = psql(a.db, a.gpu_opts, [f"SELECT pg_sleep({WARM_S})",
                                                   f"EXPLAIN (ANALYZE, VERBOSE) {sql}"],
                                timeout_s=run.tmo(), at=False)
            with open(os.path.join(a.explain_dir, f"{a.suite}_{name}_gpugb_analyze.txt"), "w") as f:
                f.write(sql + "\n\n" + out + err)
            if rc == 0:
                s = analyze_summary(out)
                row["gpugb_groups"], row["gpugb_strategy"], row["gpugb_breakdown_ms"] = \
                    s["groups"], s["strategy"], s["breakdown"]
        if a.explain_dir and "pg" in engines:
            rc, out, err = psql(a.db, a.pg_opts, [f"EXPLAIN {sql}"], at=False)
            with open(os.path.join(a.explain_dir, f"{a.suite}_{name}_pg_plan.txt"), "w") as f:
                f.write(sql + "\n\n" + out + err)
        row["notes"] = "; ".join(notes)
        log(f"{a.suite} {name}: pg {row['pg_s'] or '-'}, gpugb {row['gpugb_s'] or '-'}, "
            f"duckdb {row['duckdb_s'] or '-'}; rows {row['result_rows'] or '-'}; "
            f"gpugb=pg {row['gpugb_vs_pg'] or '-'}; duckdb=pg {row['duckdb_vs_pg'] or '-'}")
        with open(a.out, "a", newline="") as f:
            csv.writer(f).writerow([row[k] for k in CSV_FIELDS])
        for fn in files.values():
            if fn and os.path.exists(fn) and not a.keep_results:
                os.remove(fn)


# ---------------------------------------------------------------------------
# checksum (Query B: gpugb against DuckDB)


def cmd_checksum(a):
    queries = parse_queries(a.queries)
    run = Runner(a)
    duck = Duck(a.duck, a.threads)
    fields = ["query", "gpugb", "duckdb", "equal"]
    new = not os.path.exists(a.out)
    with open(a.out, "a", newline="") as f:
        if new:
            csv.writer(f).writerow(fields)
    for q in queries:
        cs = q.get("checksum")
        if not cs:
            continue
        if run.tmo() < 1:
            res = [q["name"], "skipped (budget)", "", ""]
        else:
            # gpugb computes the query's result (with require_gpu a fallback is an
            # error); PostgreSQL's own plan sums it up, so the checksum's aggregates
            # (sums of numeric averages of any display scale, which the device may
            # decline) are never counted as gpugb's fallback.
            pg_stmts = [f"CREATE TEMP TABLE gpugb_result AS {q['sql']}",
                        "SET gpugb.enabled = off",
                        cs.replace("{Q}", "TABLE gpugb_result").replace("{BIG}", "numeric")]
            dk_sql = cs.replace("{Q}", q["duck_sql"]).replace("{BIG}", "HUGEINT")
            rc, out, err = psql(a.db, a.gpu_opts, pg_stmts, timeout_s=run.tmo())
            g = out.strip().split("|") if rc == 0 else None
            if g is None:
                st, msg = classify_error(err)
                log(f"checksum {q['name']}: gpugb {st} {msg}")
            try:
                d = [str(v) for v in duck.query(dk_sql)[0]]
            except Exception as e:
                log(f"checksum {q['name']}: duckdb {e}")
                d = None
            eq = compare_numeric([g], [d]) if g and d else "?"
            res = [q["name"], "|".join(g) if g else (classify_error(err)[0]), "|".join(d) if d else "error", eq]
        log(f"checksum {res}")
        with open(a.out, "a", newline="") as f:
            csv.writer(f).writerow(res)


# ---------------------------------------------------------------------------
# render


def read_csv_dicts(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def read_meta(path):
    """key=value lines; the last value of a key counts, all values of 'run' are kept."""
    meta = {"runs": []}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    if k == "run":
                        meta["runs"].append(v)
                    else:
                        meta[k] = v
    return meta


def ratio(a, b):
    if is_num(a) and is_num(b) and float(b) > 0:
        return float(a) / float(b)
    return None


def fx(r):
    return f"{r:.1f}x" if r is not None else "-"


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def gcount(g):
    g = float(g)
    return f"1e{int(round(math.log10(g)))}" if g >= 1000 and abs(math.log10(g) - round(math.log10(g))) < 1e-9 else str(int(g))


def cell(v):
    return (v or "-").replace("|", "\\|").replace("\n", " ")


def cmd_render(a):
    raw, docs = os.path.join(a.dir, "raw"), a.docs or os.path.join(a.dir, "docs")
    os.makedirs(docs, exist_ok=True)
    meta = read_meta(os.path.join(raw, "meta.env"))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    md, notes = [], []
    P = md.append
    P("# gpugb benchmarks: PostgreSQL, gpugb and DuckDB on the same data")
    P("")
    P(f"Generated by `test/bench/report.sh`; last run finished {meta.get('finished', 'never: partial results')}.")
    P("")
    P("## Machine and software")
    P("")
    for k, label in (("gpu", "GPU"), ("gpugb_device", "gpugb device"), ("cpu", "CPU"), ("nproc", "cores (nproc)"),
                     ("mem", "memory"), ("pg_version", "PostgreSQL"), ("pg_settings", "PostgreSQL settings"),
                     ("duckdb_version", "DuckDB"), ("duckdb_settings", "DuckDB settings"),
                     ("git_commit", "gpugb commit"), ("host", "host")):
        if k in meta:
            P(f"- {label}: {meta[k]}")
    P("")
    P("## How it was run")
    P("")
    for r in meta["runs"] or ["? | ? | ?"]:
        started, command, settings = (r.split(" | ", 2) + ["?", "?"])[:3]
        P(f"Started {started}:")
        P("")
        P("```")
        P(command)
        P("```")
        P("")
        P(f"Settings: `{settings}`.")
        P("")
    P("- **PostgreSQL**: its own best plan, `gpugb.enabled=off`, parallel query allowed "
      f"(`max_parallel_workers_per_gather={meta.get('pg_workers', '16')}`, tables' `parallel_workers` "
      f"{meta.get('pg_workers', '16')}).")
    P("- **gpugb**: `gpugb.force=on` (only GPU plans: the planner picks the one-process or the parallel-ingest "
      "GpuGroupAgg) and `gpugb.require_gpu=on`, so a fallback to PostgreSQL's plan is an error, reported as "
      "`fallback` and never timed.")
    P(f"- **DuckDB** {meta.get('duckdb_version', '')}: the same rows, exported from PostgreSQL (CSV) into a DuckDB "
      "database file before the timed runs (load not timed), `threads` = nproc.")
    P("- Timing: each query as `COPY (query) TO file` (the whole result produced and written, server side, in all "
      f"three engines), fastest of {meta.get('reps', '?')} runs (a run is not repeated once it takes longer than "
      f"{meta.get('repeat_max', '?')} s; DuckDB at least 2 runs); per-query timeout "
      f"{meta.get('timeout', '?')} s. Query B: PostgreSQL and gpugb timed by `test/bench/queryb.sh` "
      f"(`COPY (query) TO '/dev/null'`, fastest of {meta.get('qb_reps', '?')}; a run is not repeated once it "
      f"takes longer than {meta.get('repeat_max', '?')} s), DuckDB likewise.")
    if meta.get('warm_s'):
        P(f"- Sessions: PostgreSQL and gpugb run each timed query in a session {meta.get('warm_s')} s old "
          "(`SELECT pg_sleep(...)` first), as an application's pooled connection is. A new backend's CUDA "
          "start-up (hidden by `gpugb.preinit_device` once a session is 0.2 s old; with the device keeper, "
          "about 70-85 ms for a client that connects and groups at once, 2026-11-27) is therefore not in "
          "these times (`docs/startup-*.md`).")
    P("- Results: gpugb's and PostgreSQL's compared as text (sorted rows, exact); DuckDB's against PostgreSQL's "
      "numerically (integers exact, other numbers within 1e-9 relative: DuckDB's avg is a double, PostgreSQL's a "
      "numeric), text without trailing blanks (char(n)). Query B: `queryb.sh`'s hash checksum (gpugb = PostgreSQL) "
      "where PostgreSQL's result was checked, and numeric checksums (count, sums of every column and of key x count) "
      "of gpugb's and DuckDB's results at every g.")
    P("- Speed-up = other engine's time / gpugb's time (above 1: gpugb is faster).")
    P("")

    # ----- Query B
    qb = {}
    for v in ("b", "agg5"):
        for r in read_csv_dicts(os.path.join(raw, f"queryb-{v}", "queryb.csv")):
            if r.get("variant") in ("b", "agg5"):
                qb[(r["variant"], r["g"])] = dict(r)
    duckqb = {r["query"]: r for r in read_csv_dicts(os.path.join(raw, "queryb-duckdb.csv"))}
    chk = {r["query"]: r for r in read_csv_dicts(os.path.join(raw, "queryb-check.csv"))}
    keys = set(qb) | {tuple(k.split("_g", 1)) for k in duckqb}
    csv_out, qb_sp = [], []
    if keys:
        P("## Query B (Karnagel et al.): `SELECT mod(col1, g), count(*) FROM atable GROUP BY 1`")
        P("")
        P(f"atable: {meta.get('qb_rows', '?')} rows of 4 int columns, col1 uniform in [0, 1e9). "
          "`b` is Query B; `agg5` adds `sum(col2), min(col3), max(col4), avg(col2)`. "
          "PG est. groups: PostgreSQL's estimate (with expression statistics on mod(col1, g)). "
          "gpugb = PG: `queryb.sh`'s checksum of both results, run only where g <= "
          f"{meta.get('qb_check_max_g', '?')} (`-`: not compared; PostgreSQL's plan takes a minute or more per run "
          "beyond); gpugb = DuckDB: numeric checksums of both results.")
        P("")
        P("![Query B](benchmarks-queryb.png)")
        P("")
        for v, title in (("b", "Query B"), ("agg5", "5 aggregates: `count(*), sum(col2), min(col3), max(col4), avg(col2)`")):
            gs = sorted({g for vv, g in keys if vv == v}, key=float)
            if not gs:
                continue
            P(f"### {title}")
            P("")
            P("| g | PG est. groups | PG plan | PG (s) | gpugb (s) | DuckDB (s) | gpugb vs PG | gpugb vs DuckDB | gpugb = PG | gpugb = DuckDB |")
            P("|---:|---:|---|---:|---:|---:|---:|---:|---|---|")
            for g in gs:
                r = qb.get((v, g), {})
                name = f"{v}_g{g}"
                d = duckqb.get(name, {}).get("duckdb_s", "")
                c = chk.get(name, {}).get("equal", "")
                pg, gp = r.get("pg_s", ""), r.get("gpugb_s", "")
                eq = r.get("results_equal", "")
                P(f"| {gcount(g)} | {cell(r.get('pg_estimated_groups'))} | {cell(r.get('pg_plan'))} | {cell(pg)} | "
                  f"{cell(gp)} | {cell(d)} | {fx(ratio(pg, gp))} | {fx(ratio(d, gp))} | {cell(eq)} | {cell(c)} |")
                rp, rd = ratio(pg, gp), ratio(d, gp)
                if rp or rd:
                    qb_sp.append((v, g, rp, rd))
                csv_out.append(dict(variant=v, g=g, pg_estimated_groups=r.get("pg_estimated_groups", ""),
                                    pg_plan=r.get("pg_plan", ""), pg_s=pg, gpugb_s=gp, duckdb_s=d,
                                    gpugb_vs_pg=f"{ratio(pg, gp):.2f}" if ratio(pg, gp) else "",
                                    gpugb_vs_duckdb=f"{ratio(d, gp):.2f}" if ratio(d, gp) else "",
                                    gpugb_equals_pg=eq, gpugb_equals_duckdb=c))
                odd = [f"{who} {val}" for who, val in (("PostgreSQL", pg), ("gpugb", gp), ("DuckDB", d))
                       if val and not is_num(val)]
                if odd:
                    notes.append(f"Query B {v} g={g}: " + ", ".join(odd))
                if eq.startswith("**NO") or eq.startswith("NO") or eq.startswith("?"):
                    notes.append(f"Query B {v} g={g}: gpugb vs PostgreSQL: {eq}")
                if c and c != "yes" and is_num(gp):
                    notes.append(f"Query B {v} g={g}: gpugb vs DuckDB checksum: {c} "
                                 f"(gpugb {chk[name].get('gpugb')}, DuckDB {chk[name].get('duckdb')})")
            P("")
        cnt = [r for v in ("b", "agg5") for r in read_csv_dicts(os.path.join(raw, f"queryb-{v}", "queryb.csv"))
               if r.get("variant") == "count"]
        if cnt:
            P(f"`SELECT count(*) FROM atable`: PostgreSQL {cnt[0]['pg_s']} s, gpugb {cnt[0]['gpugb_s']} s.")
            P("")
        with open(os.path.join(docs, "benchmarks-queryb.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(csv_out[0].keys()) if csv_out else ["variant"])
            w.writeheader()
            w.writerows(csv_out)
        # plot
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.6), sharey=True)
        for ax, v, title in ((axes[0], "b", "Query B: count(*)"), (axes[1], "agg5", "5 aggregates")):
            rows = [r for r in csv_out if r["variant"] == v]
            for col, label, style in (("pg_s", "PostgreSQL (best plan)", "o-"), ("gpugb_s", "gpugb", "s-"),
                                      ("duckdb_s", "DuckDB", "^-")):
                pts = [(float(r["g"]), float(r[col])) for r in rows if is_num(r[col])]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=label)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("g (groups)")
            ax.set_title(title)
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_ylabel("seconds (log)")
        if axes[0].get_legend_handles_labels()[0]:
            axes[0].legend()
        fig.suptitle(f"SELECT mod(col1, g), ... FROM atable GROUP BY 1 — {meta.get('qb_rows', '?')} rows")
        fig.tight_layout()
        fig.savefig(os.path.join(docs, "benchmarks-queryb.png"), dpi=110)
        plt.close(fig)

    # ----- TPC-H and ClickBench-style suites
    summary = []
    for suite, title, intro in (
            ("tpch", f"TPC-H at scale factor {meta.get('sf', '?')} (lineitem only)",
             f"lineitem from `test/tpch/lineitem.sh` ({meta.get('tpch_rows', '?')} rows; TPC-H's types: "
             "numeric(15,2), char(1)/char(10) keys, dates). Queries: `test/bench/tpch-queries.sql`."),
            ("hits", f"ClickBench-style queries on a generated `hits` table",
             f"`hits` from `test/bench/hits.sh` ({meta.get('hits_rows', '?')} rows: Zipf-ish int8 UserID, "
             "short text SearchPhrase (80% empty), URL mostly <= 16 bytes with 10% long ones, timestamp EventTime). "
             "Queries: `test/bench/hits-queries.sql` (ClickBench's numbers; COUNT(DISTINCT) left out).")):
        rows = read_csv_dicts(os.path.join(raw, f"{suite}.csv"))
        if not rows:
            continue
        P(f"## {title}")
        P("")
        P(intro)
        P("")
        P(f"![{suite}](benchmarks-{suite}.png)")
        P("")
        P("| query | PG plan | gpugb plan | result rows | PG (s) | gpugb (s) | DuckDB (s) | gpugb vs PG | gpugb vs DuckDB | gpugb = PG | DuckDB = PG |")
        P("|---|---|---|---:|---:|---:|---:|---:|---:|---|---|")
        sp_pg, sp_dk, out_rows = [], [], []
        for r in rows:
            rp, rd = ratio(r["pg_s"], r["gpugb_s"]), ratio(r["duckdb_s"], r["gpugb_s"])
            sp_pg.append(rp)
            sp_dk.append(rd)
            P(f"| {r['query']} | {cell(r['pg_plan'])} | {cell(r['gpugb_plan'])} | {cell(r['result_rows'])} | "
              f"{cell(r['pg_s'])} | {cell(r['gpugb_s'])} | {cell(r['duckdb_s'])} | {fx(rp)} | {fx(rd)} | "
              f"{cell(r['gpugb_vs_pg'])[:80]} | {cell(r['duckdb_vs_pg'])[:80]} |")
            out_rows.append(dict(r, gpugb_speedup_vs_pg=f"{rp:.2f}" if rp else "",
                                 gpugb_speedup_vs_duckdb=f"{rd:.2f}" if rd else ""))
            odd = [r["notes"]] if r["notes"] else []
            odd += [f"{who} {r[col]}" for who, col in (("PostgreSQL", "pg_s"), ("gpugb", "gpugb_s"), ("DuckDB", "duckdb_s"))
                    if r[col] and not is_num(r[col]) and r[col] not in ("timeout", "fallback", "error", "not planned")]
            odd += [f"results {who}: {r[col]}" for col, who in (("gpugb_vs_pg", "gpugb vs PostgreSQL"),
                                                                ("duckdb_vs_pg", "DuckDB vs PostgreSQL"))
                    if r[col] and not r[col].startswith("yes")]
            if odd:
                notes.append(f"{suite} {r['query']}: " + "; ".join(odd))
        P("")
        gp, gd = geomean(sp_pg), geomean(sp_dk)
        P(f"Geometric mean of the speed-ups: {fx(gp)} over PostgreSQL, {fx(gd)} over DuckDB "
          f"({sum(1 for x in sp_pg if x)} and {sum(1 for x in sp_dk if x)} queries).")
        P("")
        summary.append((title, gp, gd))
        P("gpugb's EXPLAIN ANALYZE (a separate run): groups, strategy used, fill / transfer / kernel / wait (ms):")
        P("")
        P("| query | what | groups | strategy | fill / transfer / kernel / wait (ms) |")
        P("|---|---|---:|---|---|")
        for r in rows:
            P(f"| {r['query']} | {cell(r['title'])} | {cell(r['gpugb_groups'])} | {cell(r['gpugb_strategy'])} | "
              f"{cell(r['gpugb_breakdown_ms'])} |")
        P("")
        with open(os.path.join(docs, f"benchmarks-{suite}.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(out_rows[0].keys()))
            w.writeheader()
            w.writerows(out_rows)
        # plot: speed-up bars
        fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(rows) + 2), 4.6))
        xs = range(len(rows))
        wdt = 0.38
        # bars from 1x: up where gpugb is faster, down where it is slower
        for off, vals, label in ((-wdt / 2, sp_pg, "gpugb vs PostgreSQL (PG s / gpugb s)"),
                                 (wdt / 2, sp_dk, "gpugb vs DuckDB (DuckDB s / gpugb s)")):
            bars = ax.bar([x + off for x in xs], [(v - 1) if v else 0 for v in vals], wdt, bottom=1, label=label)
            for b, v in zip(bars, vals):
                ax.annotate((f"{v:.1f}x" if v >= 1 else f"{v:.2f}x") if v else "n/a",
                            (b.get_x() + b.get_width() / 2, v if v else 1),
                            ha="center", va="bottom" if (v or 1) >= 1 else "top", fontsize=7)
        ax.axhline(1, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(list(xs))
        ax.set_xticklabels([r["query"] for r in rows])
        ax.set_ylabel("speed-up of gpugb (log; > 1: gpugb faster)")
        ax.set_title(title.replace("`", ""))
        ax.legend(fontsize=8)
        ax.grid(True, axis="y", which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(docs, f"benchmarks-{suite}.png"), dpi=110)
        plt.close(fig)
        P("<details><summary>The queries</summary>")
        P("")
        qfile = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{suite}-queries.sql")
        if os.path.exists(qfile):
            for q in parse_queries(qfile):
                P(f"**{q['name']}** — {q['title']}")
                P("")
                P("```sql")
                P(q["sql"])
                P("```")
                if q["duck_sql"] != q["sql"]:
                    P("DuckDB's text:")
                    P("```sql")
                    P(q["duck_sql"])
                    P("```")
                P("")
        P("</details>")
        P("")

    # ----- Notes
    P("## Notes: fallbacks, errors, timeouts, mismatches, skipped parts")
    P("")
    for k in sorted(meta):
        if k.startswith("note_"):
            notes.append(meta[k])
    if notes:
        for n in notes:
            P(f"- {n}")
    else:
        P("- none: no fallback, error, timeout or result mismatch in this run.")
    P("")
    if meta.get("sections"):
        P(f"Wall time per section (s): {meta['sections']}.")
        P("")
    # summary up front
    if summary or qb_sp:
        head = ["", "Summary (speed-up of gpugb = other engine's time / gpugb's time):", ""]
        for v in ("b", "agg5"):
            for i, who in ((2, "PostgreSQL's best plan"), (3, "DuckDB")):
                xs = [(x[i], x[1]) for x in qb_sp if x[0] == v and x[i]]
                if xs:
                    lo, hi = min(xs), max(xs)
                    head.append(f"- Query B{' (5 aggregates)' if v == 'agg5' else ''}: over {who} "
                                f"{fx(lo[0])} (g = {gcount(lo[1])}) to {fx(hi[0])} (g = {gcount(hi[1])})")
        for t, gp, gd in summary:
            head.append(f"- {t}: geometric mean {fx(gp)} over PostgreSQL's best plan, {fx(gd)} over DuckDB")
        md[3:3] = head
    with open(os.path.join(docs, "BENCHMARKS.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    log(f"render: {os.path.join(docs, 'BENCHMARKS.md')} and plots written")


# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("duck-load")
    p.add_argument("--db", required=True)
    p.add_argument("--table", required=True)
    p.add_argument("--duck", required=True)
    p.add_argument("--tag", required=True)
    p.add_argument("--tmp", required=True)
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    p.add_argument("--threads", type=int, default=os.cpu_count())

    for name in ("run-suite", "checksum"):
        p = sub.add_parser(name)
        p.add_argument("--suite", default="")
        p.add_argument("--db", required=True)
        p.add_argument("--duck", required=True)
        p.add_argument("--queries", required=True)
        p.add_argument("--out", required=True)
        p.add_argument("--engines", default="pg,gpugb,duckdb")
        p.add_argument("--only", default="")
        p.add_argument("--resdir", default="/tmp/gpugb-report-results")
        p.add_argument("--results", type=int, default=1, help="0: no result files, no comparison")
        p.add_argument("--keep-results", action="store_true")
        p.add_argument("--explain-dir", default="")
        p.add_argument("--reps", type=int, default=2)
        p.add_argument("--repeat-max", type=float, default=5.0)
        p.add_argument("--timeout", type=float, default=150)
        p.add_argument("--deadline", type=float, default=0, help="epoch seconds; later runs are skipped")
        p.add_argument("--threads", type=int, default=os.cpu_count())
        p.add_argument("--pg-opts", default="-c gpugb.enabled=off")
        p.add_argument("--gpu-opts", default="-c gpugb.enabled=on -c gpugb.force=on -c gpugb.require_gpu=on")

    p = sub.add_parser("render")
    p.add_argument("dir", help="a run's OUT (its raw/ is read)")
    p.add_argument("docs", nargs="?", default="", help="where to write (default: DIR/docs)")

    a = ap.parse_args()
    {"duck-load": cmd_duck_load, "run-suite": cmd_run_suite, "checksum": cmd_checksum,
     "render": cmd_render}[a.cmd](a)


if __name__ == "__main__":
    main()
