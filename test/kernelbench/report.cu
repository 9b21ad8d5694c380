/*
 * report.cu
 *    The benchmark's outputs: one CSV row per (point, method), appended and
 *    flushed as points finish (a run cut short still leaves its rows), and
 *    the markdown report with one table per (key width, payloads,
 *    distribution) and the issue's three targets counted.
 *
 * Host code only (no kernels), so host_test.cu exercises it without a GPU.
 * Ratios are of times: auto/best is t_auto / t_best (target <= 1.2),
 * best/thrust is the speedup t_thrust / t_best (target >= 3), best/floor is
 * t_best / t_floor (target <= 3 for g <= 2^16).
 */
#include <algorithm>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kernelbench.h"

#define AUTO_TARGET 1.2
#define THRUST_TARGET 3.0
#define FLOOR_TARGET 3.0
#define FLOOR_TARGET_MAX_LOG2_G 16
/* Misses listed by name in the report; the rest are counted. */
#define MAX_LISTED_MISSES 40

const char *
kb_method_name(int method)
{
	if (kb_method_forced(method))
		return gpugb_strategy_name((GpugbStrategy) method);
	return method == KB_AUTO ? "auto" : method == KB_THRUST ? "thrust" : "?";
}

const char *
kb_verdict_name(KbVerdict v)
{
	switch (v)
	{
		case KB_REFERENCE:
			return "reference";
		case KB_VERIFIED:
			return "yes";
		case KB_MISMATCH:
			return "MISMATCH";
		case KB_FAILED:
			return "error";
		case KB_UNVERIFIED:
			return "unverified";
	}
	return "?";
}

double
KbMeasure::median_s() const
{
	if (seconds.empty())
		return -1;
	std::vector<double> s = seconds;

	std::sort(s.begin(), s.end());
	size_t		n = s.size();

	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double
KbMeasure::min_s() const
{
	return seconds.empty() ? -1 : *std::min_element(seconds.begin(), seconds.end());
}

bool
kb_checksum_equal(const KbChecksum &a, const KbChecksum &b, int payloads)
{
	if (a.groups != b.groups || a.rows != b.rows)
		return false;
	for (int i = 0; i <= payloads; i++)
		if (a.agg[i] != b.agg[i])
			return false;
	return true;
}

/* ---------------------------------------------------------------------
 * CSV
 * --------------------------------------------------------------------- */

static FILE *csv_file = nullptr;

/* RFC 4180 quoting for the free-text fields. */
static std::string
csv_field(const std::string &s)
{
	if (s.find_first_of(",\"\n") == std::string::npos)
		return s;
	std::string q = "\"";

	for (char ch : s)
	{
		if (ch == '"')
			q += '"';
		q += ch == '\n' ? ' ' : ch;
	}
	return q + "\"";
}

void
kb_csv_open(KbRun *run)
{
	if (run->opt.csv_path.empty())
		return;
	csv_file = fopen(run->opt.csv_path.c_str(), "w");
	if (csv_file == nullptr)
		kb_fatal("cannot write %s", run->opt.csv_path.c_str());
	fprintf(csv_file,
			"key_bytes,payloads,dist,log2_g,rows,groups,method,strategy_used,switches,"
			"table_grows,reps,seconds,seconds_min,create_seconds,verify_seconds,g_rows_per_s,floor_seconds,"
			"floor_logical_seconds,floor_multiple,auto_pick,verified,peak_device_bytes,"
			"bandwidth_gbs,note,auto_reason\n");
	fflush(csv_file);
}

static void
csv_row(const KbRun &run, const KbMeasure &m)
{
	const KbPoint &p = run.points[m.point];
	double		t = m.median_s();
	const char *used = m.strategy_used >= 0 ? gpugb_strategy_name((GpugbStrategy) m.strategy_used)
		: m.method == KB_THRUST ? "thrust" : "";

	fprintf(csv_file, "%d,%d,%s,%d,%lld,%lld,%s,%s,%d,%d,%zu,", p.key_bytes, p.payloads,
			run.opt.dists[p.dist].name.c_str(), p.log2_g, (long long) p.rows,
			(long long) m.groups, kb_method_name(m.method), used, m.switches, m.table_grows,
			m.seconds.size());
	if (t > 0)
		fprintf(csv_file, "%.6f,%.6f,%.6f,%.6f,%.4f,", t, m.min_s(), m.create_s, m.verify_s,
				p.rows / t / 1e9);
	else
		fprintf(csv_file, ",,%.6f,%.6f,,", m.create_s, m.verify_s);
	fprintf(csv_file, "%.6f,%.6f,", p.floor_s, p.floor_logical_s);
	if (t > 0 && p.floor_s > 0)
		fprintf(csv_file, "%.3f,", t / p.floor_s);
	else
		fprintf(csv_file, ",");
	fprintf(csv_file, "%s,%s,%lld,%.1f,%s,%s\n", gpugb_strategy_name(p.auto_pick),
			kb_verdict_name(m.verdict), (long long) m.peak_device_bytes, run.bandwidth_gbs,
			csv_field(m.error).c_str(), csv_field(p.auto_reason).c_str());
}

void
kb_csv_append(KbRun *run, size_t first_measure)
{
	if (csv_file == nullptr)
		return;
	for (size_t i = first_measure; i < run->measures.size(); i++)
		csv_row(*run, run->measures[i]);
	fflush(csv_file);
}

void
kb_csv_close(void)
{
	if (csv_file != nullptr)
		fclose(csv_file);
	csv_file = nullptr;
}

/* ---------------------------------------------------------------------
 * Markdown
 * --------------------------------------------------------------------- */

/* The measures of one point by method (null where not measured). */
struct PointRow
{
	const KbPoint *p = nullptr;
	const KbMeasure *m[KB_N_METHODS] = {};
	int			best = -1;		/* fastest forced strategy that verified */

	double		t(int method) const
	{
		return m[method] != nullptr && m[method]->ok() ? m[method]->median_s() : -1;
	}
};

static std::vector<PointRow>
point_rows(const KbRun &run)
{
	std::vector<PointRow> rows(run.points.size());

	for (size_t i = 0; i < run.points.size(); i++)
		rows[i].p = &run.points[i];
	for (const KbMeasure &m : run.measures)
		rows[m.point].m[m.method] = &m;
	for (PointRow &r : rows)
		for (int s = 0; s < KB_N_FORCED; s++)
			if (r.t(s) > 0 && (r.best < 0 || r.t(s) < r.t(r.best)))
				r.best = s;
	return rows;
}

static std::string
fmt(const char *f, double v)
{
	char		buf[64];

	snprintf(buf, sizeof(buf), f, v);
	return buf;
}

/* Throughput cell: G rows/s, or why there is none. */
static std::string
rate_cell(const PointRow &r, int method)
{
	const KbMeasure *m = r.m[method];

	if (m == nullptr)
		return "-";
	if (m->verdict == KB_MISMATCH)
		return "**MISMATCH**";
	if (m->verdict == KB_FAILED || m->seconds.empty())
		return "**error**";
	std::string s = fmt("%.2f", r.p->rows / m->median_s() / 1e9);

	/* A forced strategy the module could not run as such (e.g. states too wide for shared memory). */
	if (kb_method_forced(method) && m->strategy_used >= 0 && m->strategy_used != method)
		s += " (ran " + std::string(gpugb_strategy_name((GpugbStrategy) m->strategy_used)) + ")";
	return m->verdict == KB_UNVERIFIED ? s + " (unverified)" : s;
}

static std::string
auto_cell(const PointRow &r)
{
	const KbMeasure *m = r.m[KB_AUTO];
	std::string pick = gpugb_strategy_name(r.p->auto_pick);

	if (m == nullptr)
		return "-";
	if (m->strategy_used >= 0 && m->strategy_used != (int) r.p->auto_pick)
		pick += " → " + std::string(gpugb_strategy_name((GpugbStrategy) m->strategy_used));
	return rate_cell(r, KB_AUTO) + " (" + pick + ")";
}

/* A ratio, bold when it misses its target. */
static std::string
ratio_cell(double v, bool miss)
{
	if (v <= 0)
		return "-";
	std::string s = fmt("%.2f", v);

	return miss ? "**" + s + "**" : s;
}

static std::string
log2_label(int lg)
{
	return "2^" + std::to_string(lg);
}

static std::string
panel_title(const KbRun &run, int kb, int pl, int dist)
{
	return std::to_string(kb) + "-byte keys, " + std::to_string(pl) + " payload" +
		(pl == 1 ? "" : "s") + ", " + run.opt.dists[dist].name;
}

static void
write_table(FILE *f, const KbRun &run, const std::vector<PointRow> &rows, int kb, int pl,
			int dist)
{
	bool		any = false;

	for (const PointRow &r : rows)
		any |= r.p->key_bytes == kb && r.p->payloads == pl && r.p->dist == dist;
	if (!any)
		return;
	fprintf(f, "\n### %s\n\n", panel_title(run, kb, pl, dist).c_str());
	/* Columns: each forced strategy in GpugbStrategy order, then thrust. */
	fprintf(f, "| g | groups |");
	for (int s = 0; s < KB_N_FORCED; s++)
		fprintf(f, " %s |", kb_method_name(s));
	fprintf(f, " %s | auto (pick) | best | auto/best | best/thrust | best/floor |\n",
			kb_method_name(KB_THRUST));
	fprintf(f, "|---|---:|");
	for (int s = 0; s <= KB_N_FORCED; s++)
		fprintf(f, "---:|");
	fprintf(f, "---|---|---:|---:|---:|\n");
	for (const PointRow &r : rows)
	{
		const KbPoint &p = *r.p;

		if (p.key_bytes != kb || p.payloads != pl || p.dist != dist)
			continue;
		double		tb = r.best >= 0 ? r.t(r.best) : -1;
		double		ta = r.t(KB_AUTO),
					tt = r.t(KB_THRUST);
		double		auto_ratio = tb > 0 && ta > 0 ? ta / tb : -1;
		double		speedup = tb > 0 && tt > 0 ? tt / tb : -1;
		double		floor_mult = tb > 0 && p.floor_s > 0 ? tb / p.floor_s : -1;

		fprintf(f, "| %s | %lld |", log2_label(p.log2_g).c_str(), (long long) p.groups);
		for (int s = 0; s < KB_N_FORCED; s++)
			fprintf(f, " %s |", rate_cell(r, s).c_str());
		fprintf(f, " %s | %s | %s | %s | %s | %s |\n",
				rate_cell(r, KB_THRUST).c_str(),
				auto_cell(r).c_str(), r.best >= 0 ? kb_method_name(r.best) : "-",
				ratio_cell(auto_ratio, auto_ratio > AUTO_TARGET).c_str(),
				ratio_cell(speedup, speedup < THRUST_TARGET).c_str(),
				ratio_cell(floor_mult, p.log2_g <= FLOOR_TARGET_MAX_LOG2_G &&
						   floor_mult > FLOOR_TARGET).c_str());
	}
}

/* One target: points that had the numbers, points that met it, the misses. */
struct Target
{
	const char *what;
	int			points = 0;
	int			met = 0;
	std::vector<std::string> misses;

	explicit	Target(const char *w) : what(w) {}

	void		count(bool ok, const std::string &where, double value)
	{
		points++;
		if (ok)
			met++;
		else
			misses.push_back(where + fmt(" (%.2f)", value));
	}
};

static std::string
point_label(const KbRun &run, const KbPoint &p)
{
	return std::to_string(p.key_bytes) + "B keys, " + std::to_string(p.payloads) + "P, " +
		run.opt.dists[p.dist].name + ", g=" + log2_label(p.log2_g);
}

static void
write_targets(FILE *f, const KbRun &run, const std::vector<PointRow> &rows, bool list_misses)
{
	/* Counted only over points where both sides of a target were measured and verified. */
	Target		t_auto{"auto within 20 % of the best strategy (t_auto / t_best <= 1.20)"};
	Target		t_best_thrust{"best strategy >= 3x Thrust (t_thrust / t_best >= 3)"};
	Target		t_auto_thrust{"auto >= 3x Thrust (t_thrust / t_auto >= 3)"};
	Target		t_best_floor{"best strategy within 3x of the floor for g <= 2^16 (t_best / t_floor <= 3)"};
	Target		t_auto_floor{"auto within 3x of the floor for g <= 2^16 (t_auto / t_floor <= 3)"};

	for (const PointRow &r : rows)
	{
		std::string where = point_label(run, *r.p);
		double		tb = r.best >= 0 ? r.t(r.best) : -1;
		double		ta = r.t(KB_AUTO),
					tt = r.t(KB_THRUST);

		if (tb > 0 && ta > 0)
			t_auto.count(ta <= AUTO_TARGET * tb, where, ta / tb);
		if (tb > 0 && tt > 0)
			t_best_thrust.count(tt >= THRUST_TARGET * tb, where, tt / tb);
		if (ta > 0 && tt > 0)
			t_auto_thrust.count(tt >= THRUST_TARGET * ta, where, tt / ta);
		if (r.p->log2_g <= FLOOR_TARGET_MAX_LOG2_G && r.p->floor_s > 0)
		{
			if (tb > 0)
				t_best_floor.count(tb <= FLOOR_TARGET * r.p->floor_s, where, tb / r.p->floor_s);
			if (ta > 0)
				t_auto_floor.count(ta <= FLOOR_TARGET * r.p->floor_s, where, ta / r.p->floor_s);
		}
	}

	const Target *targets[] = {&t_auto, &t_best_thrust, &t_auto_thrust, &t_best_floor,
							   &t_auto_floor};

	fprintf(f, "\n## Targets (issue 3)\n\n");
	fprintf(f, "| target | met | of points |\n|---|---:|---:|\n");
	for (const Target *t : targets)
		fprintf(f, "| %s | %d | %d |\n", t->what, t->met, t->points);
	for (const Target *t : targets)
	{
		if (!list_misses || t->misses.empty())
			continue;
		fprintf(f, "\nMissed: %s\n\n", t->what);
		for (size_t i = 0; i < t->misses.size() && i < MAX_LISTED_MISSES; i++)
			fprintf(f, "- %s\n", t->misses[i].c_str());
		if (t->misses.size() > MAX_LISTED_MISSES)
			fprintf(f, "- ... and %zu more (see the CSV)\n",
					t->misses.size() - MAX_LISTED_MISSES);
	}
}

static void
write_verification(FILE *f, const KbRun &run)
{
	int			verified = 0,
				mismatch = 0,
				failed = 0,
				unverified = 0;

	for (const KbMeasure &m : run.measures)
	{
		verified += m.verdict == KB_VERIFIED;
		mismatch += m.verdict == KB_MISMATCH;
		failed += m.verdict == KB_FAILED;
		unverified += m.verdict == KB_UNVERIFIED;
	}
	fprintf(f, "\n## Verification\n\n");
	fprintf(f, "Every gpugb result (group count and an order-independent checksum of keys, "
			"COUNT(*) and each SUM, fetched with gpugb_groupby_fetch) against Thrust's: "
			"%d verified, %d MISMATCH, %d errors, %d unverified (no reference).\n",
			verified, mismatch, failed, unverified);
	for (const KbMeasure &m : run.measures)
		if (m.verdict == KB_MISMATCH || m.verdict == KB_FAILED)
			fprintf(f, "- %s: %s %s%s%s\n", point_label(run, run.points[m.point]).c_str(),
					kb_method_name(m.method), kb_verdict_name(m.verdict),
					m.error.empty() ? "" : ": ", m.error.c_str());
}

static void
write_header(FILE *f, const KbRun &run)
{
	char		when[64];
	time_t		now = time(nullptr);
	int64_t		rows = run.points.empty() ? (int64_t) 1 << run.opt.log2_rows : run.points[0].rows;

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fprintf(f, "# gpugb kernel benchmark\n\n");
	if (run.stopped_early)
		fprintf(f, "**INCOMPLETE: stopped by --max-seconds %.0f; the points below are all that "
				"was measured.**\n\n", run.opt.max_seconds);
	fprintf(f, "- Command: `%s`\n", run.opt.command.c_str());
	fprintf(f, "- Device: %s; run %s, %.0f s wall\n", run.device.c_str(), when, run.wall_s);
	fprintf(f, "- Read bandwidth measured on the device: %.0f GB/s (best of 6 passes over "
			"%.1f GiB)\n", run.bandwidth_gbs, run.opt.bw_gib);
	fprintf(f, "- Input: %lld rows (2^%d) resident in device memory, one int64 word per row "
			"per column (gpugb's device format): a 4-byte key is an int32 value and a payload "
			"an int32 value in [-2^19, 2^19), each sign-extended into its word.  Keys are an "
			"invertible scramble of the group rank (unique, not dense)%s.\n",
			(long long) rows, run.opt.log2_rows,
			run.opt.clustered ? "; rows sorted by key (--clustered on)" : "");
	fprintf(f, "- Query: `SELECT key, count(*), sum(p1) [, sum(p2), sum(p3), sum(p4)] "
			"GROUP BY key`; the handle's estimate is the true group count.\n");
	fprintf(f, "- Time: median of %d run(s) of gpugb_groupby_aggregate_device + finish "
			"(handle creation excluded, in the CSV); thrust: key copy + sort_by_key + gather "
			"+ reduce_by_key (arrays preallocated, temporary storage cached).  Cells are "
			"G rows/s.\n", run.opt.reps);
	fprintf(f, "- Floor: every word read once at the measured bandwidth, rows x (1 + "
			"payloads) x 8 bytes.  The floor of the logical bytes (4 or 8 per key, 4 per "
			"payload) is in the CSV (floor_logical_seconds).\n");
	fprintf(f, "- auto: the strategy gpugb_choose_strategy picks for the true group count, "
			"run-time switching allowed (pick → used when it switched).  best: the fastest "
			"forced strategy.  Ratios are of times; bold misses its target.\n");
}

void
kb_print_targets(FILE *f, const KbRun &run)
{
	write_targets(f, run, point_rows(run), false);
}

void
kb_write_markdown(const KbRun &run)
{
	FILE	   *f = stdout;

	if (!run.opt.md_path.empty() && (f = fopen(run.opt.md_path.c_str(), "w")) == nullptr)
	{
		fprintf(stderr, "kernelbench: cannot write %s; report follows on stdout\n",
				run.opt.md_path.c_str());
		f = stdout;
	}
	std::vector<PointRow> rows = point_rows(run);

	write_header(f, run);
	write_targets(f, run, rows, true);
	write_verification(f, run);
	fprintf(f, "\n## Throughput (G rows/s)\n");
	for (int kb : run.opt.key_bytes)
		for (int pl : run.opt.payloads)
			for (size_t d = 0; d < run.opt.dists.size(); d++)
				write_table(f, run, rows, kb, pl, (int) d);
	if (f != stdout)
		fclose(f);
	else
		fflush(f);
}
