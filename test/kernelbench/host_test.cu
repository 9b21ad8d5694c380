/*
 * host_test.cu
 *    What of the kernel benchmark can be proven without a GPU, so that its
 *    first run on the GPU box is not also its first test: the per-row data
 *    generation the kernels apply (unique scrambled keys, Zipf and uniform
 *    frequencies, payload range), the Thrust baseline run with the host
 *    policy against a std::map group-by, the checksum (order-independent,
 *    sensitive to one wrong sum), and the CSV and markdown writers.
 *
 *   make -C test/kernelbench check
 */
#include <map>
#include <math.h>
#include <set>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thrust/execution_policy.h>
#include <unordered_set>

#include "partition_deferred_rule.cuh"
#include "thrust_groupby.cuh"

static int	failures = 0;

#define CHECK(cond, ...) \
	do { \
		if (!(cond)) \
		{ \
			failures++; \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fprintf(stderr, "\n"); \
		} \
	} while (0)

void
kb_fatal(const char *fmt, ...)
{
	va_list		ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

void
kb_cuda_check(int err, const char *what)
{
	if (err != 0)
		kb_fatal("%s: CUDA error %d", what, err);
}

static void
test_keys_unique(void)
{
	const uint64_t n = 1 << 20;

	for (int kb = 4; kb <= 8; kb += 4)
	{
		std::unordered_set<int64_t> seen;
		int			wide = 0;

		for (uint64_t r = 0; r < n; r++)
		{
			int64_t		k = kb_key_of_rank(r, kb, 1);

			seen.insert(k);
			if (kb == 4)
				CHECK(k >= INT32_MIN && k <= INT32_MAX, "4-byte key %lld", (long long) k);
			wide += k > INT32_MAX || k < INT32_MIN;
		}
		CHECK(seen.size() == n, "%d-byte keys: %zu distinct of %llu ranks", kb, seen.size(),
			  (unsigned long long) n);
		if (kb == 8)
			CHECK(wide > (int) (n * 9 / 10), "8-byte keys mostly beyond 32 bits: %d", wide);
	}
	/* The biggest supported rank still maps inside 32 bits, distinctly. */
	CHECK(kb_key_of_rank((1ull << 30) - 1, 4, 1) != kb_key_of_rank((1ull << 30) - 2, 4, 1),
		  "top ranks collide");
}

static std::vector<double>
host_cdf(uint64_t g, double s)
{
	std::vector<double> cdf(g);
	double		sum = 0;

	for (uint64_t r = 0; r < g; r++)
		cdf[r] = sum += pow((double) (r + 1), -s);
	return cdf;
}

static void
test_zipf_search(void)
{
	const uint64_t g = 1000;
	std::vector<double> cdf = host_cdf(g, 1.0);
	double		total = cdf[g - 1];

	CHECK(kb_zipf_rank(cdf.data(), g, 0.0) == 0, "target 0");
	CHECK(kb_zipf_rank(cdf.data(), g, total) == g - 1, "target total");
	CHECK(kb_zipf_rank(cdf.data(), 1, 0.5) == 0, "g = 1");
	for (int i = 0; i < 100000; i++)
	{
		double		t = (double) (kb_row_hash(i, 7, 3) >> 11) * 0x1.0p-53 * total;
		uint64_t	r = kb_zipf_rank(cdf.data(), g, t);

		CHECK(cdf[r] > t && (r == 0 || cdf[r - 1] <= t), "rank %llu for %g",
			  (unsigned long long) r, t);
		if (failures > 10)
			return;
	}
}

/* Share of the most frequent key over many rows, against the distribution's. */
static void
check_top_share(uint64_t g, double s, int key_bytes)
{
	const uint64_t rows = 1 << 21;
	std::vector<double> cdf = s > 0 ? host_cdf(g, s) : std::vector<double>();
	const double *c = s > 0 ? cdf.data() : nullptr;
	double		total = s > 0 ? cdf[g - 1] : 0;
	std::map<int64_t, uint64_t> counts;
	int64_t		top_key = kb_key_of_rank(0, key_bytes, 1);

	for (uint64_t i = 0; i < rows; i++)
		counts[kb_key_of_row(i, g, c, total, key_bytes, 1)]++;
	double		want = s > 0 ? 1.0 / total : 1.0 / (double) g;
	double		got = (double) counts[top_key] / rows;

	CHECK(fabs(got - want) < 0.02 * want + 3 * sqrt(want / rows),
		  "g=%llu s=%g: rank 0 share %g, want %g", (unsigned long long) g, s, got, want);
	CHECK(counts.size() <= g, "more keys than groups");
	if (g <= 1024)
		CHECK(s > 0 || counts.size() == g, "uniform g=%llu: %zu keys seen",
			  (unsigned long long) g, counts.size());
}

static void
test_distributions(void)
{
	check_top_share(1, 0, 8);
	check_top_share(4, 0, 4);
	check_top_share(1024, 0, 8);
	check_top_share(1 << 16, 0.5, 8);
	check_top_share(1 << 16, 1.0, 4);
	check_top_share(1 << 16, 1.5, 8);
}

static void
test_payloads(void)
{
	int64_t		lo = 0,
				hi = 0;
	double		sum = 0;

	for (uint64_t i = 0; i < 1000000; i++)
		for (int c = 0; c < KB_MAX_PAYLOADS; c++)
		{
			int64_t		v = kb_payload_of_row(i, c, 1);

			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
			sum += (double) v;
		}
	CHECK(lo >= -(1 << 19) && hi < (1 << 19), "payload range [%lld, %lld]", (long long) lo,
		  (long long) hi);
	CHECK(lo < -(1 << 18) && hi > (1 << 18), "payloads spread: [%lld, %lld]", (long long) lo,
		  (long long) hi);
	CHECK(fabs(sum / 4e6) < 2000, "payload mean %g", sum / 4e6);
	CHECK(kb_payload_of_row(5, 0, 1) != kb_payload_of_row(5, 1, 1), "columns independent");
}

/* Straightforward group-by, as a checksum (map order: a different order from Thrust's). */
static KbChecksum
map_groupby(const std::vector<int64_t> &keys, const std::vector<int64_t> &payload,
			int64_t rows, int P)
{
	std::map<int64_t, std::vector<int64_t> > groups;
	KbChecksum	cs = {};

	for (int64_t i = 0; i < rows; i++)
	{
		std::vector<int64_t> &g = groups[keys[i]];

		g.resize(P + 1);
		g[P]++;
		for (int c = 0; c < P; c++)
			g[c] += payload[c * rows + i];
	}
	for (auto it = groups.rbegin(); it != groups.rend(); ++it)
	{
		kb_checksum_add_count(&cs, it->first, it->second[P]);
		for (int c = 0; c < P; c++)
			kb_checksum_add_sum(&cs, c, it->first, it->second[c], it->second[c] < 0 ? -1 : 0);
	}
	return cs;
}

template <int P>
static void
test_thrust_baseline(uint64_t g, double s, int key_bytes)
{
	const int64_t rows = 200000;
	std::vector<double> cdf = s > 0 ? host_cdf(g, s) : std::vector<double>();
	std::vector<int64_t> keys(rows),
				payload(rows * KB_MAX_PAYLOADS),
				sorted(rows),
				gathered(rows * P),
				out_keys(rows);
	std::vector<uint32_t> perm(rows);
	std::vector<KbAcc<P> > out_acc(rows);

	for (int64_t i = 0; i < rows; i++)
	{
		keys[i] = kb_key_of_row(i, g, s > 0 ? cdf.data() : nullptr, s > 0 ? cdf[g - 1] : 0,
								key_bytes, 1);
		for (int c = 0; c < KB_MAX_PAYLOADS; c++)
			payload[c * rows + i] = kb_payload_of_row(i, c, 1);
	}
	KbThrustArrays<P> w = {sorted.data(), perm.data(), gathered.data(), out_keys.data(),
						   out_acc.data()};
	int64_t		n = kb_thrust_groupby_impl<P>(thrust::host, keys.data(), payload.data(), rows, w);
	KbChecksum	got = kb_thrust_checksum_impl<P>(thrust::host, w, n);
	KbChecksum	want = map_groupby(keys, payload, rows, P);

	CHECK(kb_checksum_equal(got, want, P), "thrust vs map: P=%d g=%llu s=%g: %lld groups vs %llu",
		  P, (unsigned long long) g, s, (long long) n, (unsigned long long) want.groups);
	CHECK(got.rows == (uint64_t) rows, "rows %llu", (unsigned long long) got.rows);

	/* One sum off by one, or two sums swapped between columns (counts only: a count off by one), must show. */
	KbChecksum	bad = {};

	for (int64_t i = 0; i < n; i++)
	{
		kb_checksum_add_count(&bad, out_keys[i], out_acc[i].n + (P == 0 && i == n / 2));
		for (int c = 0; c < P; c++)
		{
			int64_t		v = out_acc[i].s[P > 1 && i == 0 ? (c + 1) % P : c] + (i == n / 2 && c == 0);

			kb_checksum_add_sum(&bad, c, out_keys[i], v, v < 0 ? -1 : 0);
		}
	}
	CHECK(!kb_checksum_equal(bad, want, P), "checksum blind to a wrong %s (P=%d)", P ? "sum" : "count", P);
}

static void
test_baselines(void)
{
	test_thrust_baseline<0>(1000, 0, 4);	/* counts only (--payloads 0) */
	test_thrust_baseline<0>(1 << 16, 1.0, 8);
	test_thrust_baseline<1>(1, 0, 8);
	test_thrust_baseline<1>(1000, 0, 4);
	test_thrust_baseline<2>(1 << 16, 1.0, 8);
	test_thrust_baseline<3>(1 << 12, 0.5, 4);
	test_thrust_baseline<4>(1 << 20, 1.5, 8);
	test_thrust_baseline<4>(1 << 20, 0, 4);
}

static std::string
slurp(const char *path)
{
	std::string s;
	FILE	   *f = fopen(path, "r");
	char		buf[4096];
	size_t		n;

	if (f == nullptr)
		return s;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		s.append(buf, n);
	fclose(f);
	return s;
}

static KbMeasure
measure(int point, int method, KbVerdict v, double s, int used)
{
	KbMeasure	m;

	m.point = point;
	m.method = method;
	m.verdict = v;
	if (s > 0)
		m.seconds = {s * 1.1, s, s * 1.3};
	m.strategy_used = used;
	m.groups = 1;
	return m;
}

/* Method names: the forced strategies are the device's, in its order. */
static void
test_method_names(void)
{
	for (int s = 0; s < GPUGB_N_STRATEGIES; s++)
		CHECK(kb_method_forced(s) && strcmp(kb_method_name(s),
											gpugb_strategy_name((GpugbStrategy) s)) == 0,
			  "method %d", s);
	CHECK(strcmp(kb_method_name(KB_PRIVATE_HASH), "private_hash") == 0 &&
		  KB_PRIVATE_HASH == (int) GPUGB_STRATEGY_PRIVATE_HASH, "private_hash is a method");
	CHECK(!kb_method_forced(KB_AUTO) && strcmp(kb_method_name(KB_AUTO), "auto") == 0 &&
		  strcmp(kb_method_name(KB_THRUST), "thrust") == 0 &&
		  strcmp(kb_method_name(KB_N_METHODS), "?") == 0, "auto, thrust");
}

static void
test_reports(void)
{
	KbRun		run;
	const char *csv = "/tmp/kernelbench_host_test.csv";
	const char *md = "/tmp/kernelbench_host_test.md";

	run.opt.dists = {{"uniform", 0}, {"zipf1.0", 1.0}};
	run.opt.log2_groups = {0, 20};
	run.opt.csv_path = csv;
	run.opt.md_path = md;
	run.opt.command = "kernelbench --csv x.csv";
	run.device = "test device";
	run.bandwidth_gbs = 4000;
	for (int lg : {0, 20})
	{
		KbPoint		p;

		p.key_bytes = 8;
		p.payloads = 4;
		p.dist = 1;
		p.log2_g = lg;
		p.rows = 1 << 28;
		p.groups = (int64_t) 1 << lg;
		p.floor_s = p.rows * 40.0 / 4e12;
		p.auto_pick = lg == 0 ? GPUGB_STRATEGY_PRIVATE_HASH : GPUGB_STRATEGY_GLOBAL_HASH;
		p.auto_reason = "a reason, with a comma";
		run.points.push_back(p);
	}
	run.measures = {measure(0, KB_THRUST, KB_REFERENCE, 0.2, -1),
					measure(0, KB_GLOBAL_HASH, KB_VERIFIED, 0.05, 0),
					measure(0, KB_SHARED_HASH, KB_VERIFIED, 0.01, 1),
					measure(0, KB_SORT, KB_MISMATCH, 0.1, 2),
					measure(0, KB_PRIVATE_HASH, KB_VERIFIED, 0.005, 4),
					measure(0, KB_AUTO, KB_VERIFIED, 0.0055, 4),
					measure(1, KB_THRUST, KB_REFERENCE, 0.3, -1),
					measure(1, KB_GLOBAL_HASH, KB_VERIFIED, 0.08, 0),
					measure(1, KB_SHARED_HASH, KB_FAILED, 0, -1),
					measure(1, KB_SORT, KB_VERIFIED, 0.09, 2),
					measure(1, KB_PARTITION, KB_VERIFIED, 0.07, 3),
					measure(1, KB_AUTO, KB_VERIFIED, 0.2, 2)};
	run.measures[8].error = "create: out of memory: \"quoted\"";
	run.measures[3].error = "42 groups (reference 1)";
	kb_csv_open(&run);
	kb_csv_append(&run, 0);
	kb_csv_close();
	kb_write_markdown(run);

	std::string c = slurp(csv),
				m = slurp(md);
	int			lines = 0;

	for (char ch : c)
		lines += ch == '\n';
	CHECK(lines == 13, "CSV has %d lines", lines);
	CHECK(c.find("\"a reason, with a comma\"") != std::string::npos, "CSV quoting");
	CHECK(c.find("\"create: out of memory: \"\"quoted\"\"\"") != std::string::npos, "CSV quotes");
	CHECK(m.find("| 2^20 |") != std::string::npos, "markdown row");
	CHECK(m.find("**MISMATCH**") != std::string::npos, "mismatch shown");
	CHECK(m.find("private_hash →") == std::string::npos, "no switch shown");
	CHECK(m.find("global_hash → sort") != std::string::npos, "switch shown");
	CHECK(m.find("| auto within 20 % of the best strategy (t_auto / t_best <= 1.20) | 1 | 2 |") !=
		  std::string::npos, "auto target count");
	CHECK(m.find("| global_hash | shared_hash | sort | partition | private_hash | thrust | "
				 "auto (pick) | best |") != std::string::npos &&
		  m.find("|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|") !=
		  std::string::npos, "a column per forced strategy, then thrust");
	CHECK(m.find("| **MISMATCH** | - | 48.81 | 1.22 |") != std::string::npos,
		  "partition '-' where it did not run, private_hash measured");
	CHECK(m.find("| 48.81 | 1.22 | 44.37 (private_hash) | private_hash | 1.10 | 40.00 | 2.05 |") !=
		  std::string::npos, "private_hash picked by auto, and the best strategy");
	CHECK(m.find("| 2.71 | 3.49 | - | 0.81 | 1.22 (global_hash → sort) | partition | **2.86** |") !=
		  std::string::npos, "partition the best strategy, private_hash '-' where it did not run");
	CHECK(c.find(",private_hash,private_hash,0,0,3,") != std::string::npos &&
		  c.find(",auto,private_hash,0,0,3,") != std::string::npos, "private_hash in the CSV");
	CHECK(m.find("1 verified") == std::string::npos && m.find("8 verified") != std::string::npos,
		  "verification count");
	if (failures == 0)
		fprintf(stderr, "report written to %s and %s\n", csv, md);
}

/* Not a check: what the heuristic picks across the benchmark's g on an H200. */
static void
print_heuristic_picks(void)
{
	GpugbDeviceProps props = {132, 50ll << 20, 48ll << 10, 228ll << 10, 141ll << 30, 227ll << 10};

	fprintf(stderr, "heuristic picks for 2^28 rows, H200 defaults (P=1 / P=4):\n");
	for (int lg = 0; lg <= 26; lg += 2)
	{
		fprintf(stderr, "  g=2^%-2d", lg);
		for (int P : {1, 4})
		{
			GpugbWorkload w = {};
			GpugbStrategyChoice c;

			w.rows = w.rows_per_launch = (double) (1 << 28);
			w.groups = (double) (1 << lg);
			w.key_words = 1;
			w.state_columns = 1 + 3 * P;
			gpugb_choose_strategy(&w, &props, &c);
			fprintf(stderr, "  %-12s", gpugb_strategy_name(c.strategy));
		}
		fprintf(stderr, "\n");
	}
}

/*
 * The chunks of SHARED_HASH's one-block table with ids looked up at the
 * flush (cuda/launch.cu, lean_deferred_chunk_rows): the most rows whose
 * flush threshold (7/8 of the slots less a chunk) holds every group
 * expected, so a block flushes once; none where even 1024 rows leave too
 * little room.  Its room rule (partition_deferred.cuh) needs a chunk below
 * 7/8 of the slots, which these never pass.
 */
static void
test_lean_deferred_chunks(void)
{
	CHECK(gpugb_lean_deferred_chunk_rows(8192, 4096) == 2048, "8192 slots, 4096 groups: 2048 rows");
	CHECK(gpugb_lean_deferred_chunk_rows(8192, 3072) == 4096, "8192 slots, 3072 groups: 4096 rows");
	CHECK(gpugb_lean_deferred_chunk_rows(8192, 3073) == 2048, "8192 slots, 3073 groups: 2048 rows");
	CHECK(gpugb_lean_deferred_chunk_rows(8192, 6144) == 1024, "8192 slots, 6144 groups: 1024 rows");
	CHECK(gpugb_lean_deferred_chunk_rows(8192, 6145) == 0, "8192 slots, 6145 groups: none");
	CHECK(gpugb_lean_deferred_chunk_rows(4096, 2048) == 1024, "4096 slots, 2048 groups: 1024 rows");
	CHECK(gpugb_lean_deferred_chunk_rows(4096, 3000) == 0, "4096 slots, 3000 groups: none");
	for (int slots = 256; slots <= (1 << 20); slots *= 2)
		for (double g = 1; g <= slots; g *= 1.5)
		{
			int			rows = gpugb_lean_deferred_chunk_rows(slots, g);

			CHECK(rows == 0 || ((int64_t) slots * 7 / 8 - rows >= g && rows < (int64_t) slots * 7 / 8),
				  "%d slots, %g groups: %d rows", slots, g, rows);
		}
}

int
main(void)
{
	test_lean_deferred_chunks();
	test_keys_unique();
	test_zipf_search();
	test_distributions();
	test_payloads();
	test_baselines();
	test_method_names();
	test_reports();
	print_heuristic_picks();
	if (failures > 0)
	{
		fprintf(stderr, "kernelbench host test: %d FAILED\n", failures);
		return 1;
	}
	fprintf(stderr, "kernelbench host test: all passed\n");
	return 0;
}
