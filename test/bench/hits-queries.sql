-- ClickBench-style GROUP BY queries over test/bench/hits.sh's table, for
-- test/bench/report.sh.  Numbers are ClickBench's query numbers (0-based as in
-- its queries.sql, Q0..Q42) that each one adapts: COUNT(DISTINCT ...), which
-- gpugb does not offload, is left out; every ORDER BY ... LIMIT has a
-- tie-breaker so that all engines return the same rows (the database uses the
-- C collation, as DuckDB sorts text).  Format: see tpch-queries.sql.

-- @ c08 | Q8: per AdvEngineID (int2), WHERE AdvEngineID <> 0
SELECT advengineid, count(*) AS c FROM hits WHERE advengineid <> 0
GROUP BY advengineid ORDER BY c DESC, advengineid

-- @ c10 | Q10 without COUNT(DISTINCT): per RegionID, sum, count, avg; top 10
SELECT regionid, sum(advengineid) AS adv, count(*) AS c, avg(resolutionwidth) AS width
FROM hits GROUP BY regionid ORDER BY c DESC, regionid LIMIT 10

-- @ c13 | Q13: per SearchPhrase (short text), WHERE SearchPhrase <> ''; top 10
SELECT searchphrase, count(*) AS c FROM hits WHERE searchphrase <> ''
GROUP BY searchphrase ORDER BY c DESC, searchphrase LIMIT 10

-- @ c15 | Q15: per (SearchEngineID, SearchPhrase); top 10
SELECT searchengineid, searchphrase, count(*) AS c FROM hits WHERE searchphrase <> ''
GROUP BY searchengineid, searchphrase ORDER BY c DESC, searchengineid, searchphrase LIMIT 10

-- @ c16 | Q16: per UserID (int8, Zipf-ish, many groups); top 10
SELECT userid, count(*) AS c FROM hits GROUP BY userid ORDER BY c DESC, userid LIMIT 10

-- @ c17 | Q17: per (UserID, SearchPhrase); top 10
SELECT userid, searchphrase, count(*) AS c FROM hits
GROUP BY userid, searchphrase ORDER BY c DESC, userid, searchphrase LIMIT 10

-- @ c19 | Q19 with date_trunc('minute', EventTime) for extract(minute): per (UserID, minute, SearchPhrase); top 10
SELECT userid, date_trunc('minute', eventtime) AS m, searchphrase, count(*) AS c FROM hits
GROUP BY userid, date_trunc('minute', eventtime), searchphrase
ORDER BY c DESC, userid, m, searchphrase LIMIT 10

-- @ c28 | Q28: per CounterID, avg(length(URL)), HAVING count(*) > 10000
SELECT counterid, avg(length(url)) AS l, count(*) AS c FROM hits WHERE url <> ''
GROUP BY counterid HAVING count(*) > 10000 ORDER BY l DESC, counterid LIMIT 25

-- @ c31 | Q31: per (SearchEngineID, ClientIP) WHERE SearchPhrase <> '': count, sum, avg; top 10
SELECT searchengineid, clientip, count(*) AS c, sum(isrefresh) AS refreshes, avg(resolutionwidth) AS width
FROM hits WHERE searchphrase <> ''
GROUP BY searchengineid, clientip ORDER BY c DESC, searchengineid, clientip LIMIT 10

-- @ c34 | Q34: per URL (10% longer than 16 bytes: dictionary-encoded, one process); top 10
SELECT url, count(*) AS c FROM hits GROUP BY url ORDER BY c DESC, url LIMIT 10

-- @ c42 | Q42 on the whole month: per date_trunc('minute', EventTime) (44640 groups): count, sum, min/max timestamps
SELECT date_trunc('minute', eventtime) AS m, count(*) AS pageviews, sum(duration) AS duration,
       min(eventtime) AS first_hit, max(eventtime) AS last_hit
FROM hits WHERE isrefresh = 0 AND dontcounthits = 0
GROUP BY date_trunc('minute', eventtime) ORDER BY m LIMIT 10 OFFSET 1000
