/*-------------------------------------------------------------------------
 * heuristics_test.c
 *    Unit tests of the strategy rules (src/heuristics.c) and of the spec ->
 *    workload code the executor and the emulator share (src/strategy.c).
 *    Plain C: no PostgreSQL, no GPU.  Prints one line per check (TAP) and
 *    exits 1 if any failed.
 *
 *    make -C test/unit run
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fastmod.h"
#include "gpugb_device.h"
#include "heuristics.h"
#include "strategy.h"

/* The H200's sizes: cuda/device.cu's defaults before a probe. */
static const GpugbDeviceProps h200 = {132, 60ll << 20, 48ll << 10, 228ll << 10, 141ll << 30, 227ll << 10};

/* strategy.c asks the device module; here the module is this stub. */
void
gpugb_device_properties(GpugbDeviceProps *props)
{
	*props = h200;
}

static int	checks = 0;
static int	failures = 0;

#define CHECK(cond, ...) check((cond), #cond, __FILE__, __LINE__, __VA_ARGS__)

static void
check(int ok, const char *expr, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#include <stdarg.h>

static void
check(int ok, const char *expr, const char *file, int line, const char *fmt, ...)
{
	va_list		ap;

	checks++;
	printf("%s %d - ", ok ? "ok" : "not ok", checks);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!ok)
	{
		failures++;
		printf("#   failed: %s (%s:%d)\n", expr, file, line);
	}
}

static GpugbWorkload
workload(double rows, double rows_per_launch, double groups, int key_words, int state_columns)
{
	GpugbWorkload w = {rows, rows_per_launch, groups, key_words, state_columns};

	return w;
}

/* The same with one int32 key (the kernel benchmark's 4-byte keys): sort sorts by the key. */
static GpugbWorkload
workload_int32(double rows, double rows_per_launch, double groups, int state_columns)
{
	GpugbWorkload w = workload(rows, rows_per_launch, groups, 1, state_columns);

	w.key_fits_int32 = true;
	return w;
}

/* The kernel benchmark's COUNT(*) and `payloads` integer sums on an int32 key: the lean kernel's aggregates. */
static GpugbWorkload
workload_lean(double groups, int payloads, double hot_share)
{
	GpugbWorkload w = workload_int32(268435456.0, 268435456.0, groups, 1 + 3 * payloads);

	w.lean_aggs = true;
	w.lean_columns = payloads + 1;
	w.hot_share = hot_share;
	return w;
}

/* ...with every summed input of int32 words too: PARTITION's lean kernel reads up to four sums packed. */
static GpugbWorkload
workload_packed(double groups, int payloads, double hot_share)
{
	GpugbWorkload w = workload_lean(groups, payloads, hot_share);

	w.sums_fit_int32 = true;
	return w;
}

/* ...with an 8-byte key instead, in 16-byte pair slots (gpugb_spec_slot_bytes), as the executor's workload has it. */
static GpugbWorkload
wide_key(GpugbWorkload w)
{
	w.key_fits_int32 = false;
	w.slot_bytes = 16;
	return w;
}

static GpugbStrategyChoice
choose(GpugbWorkload w)
{
	GpugbStrategyChoice c;

	gpugb_choose_strategy(&w, &h200, &c);
	return c;
}

static int
is_power_of_two(int64_t x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

/*
 * Private placement: a thread's slice of shared memory holds every group's
 * states.  On the H200 (228 kB per SM, at least two blocks of 256 threads
 * an SM) that is 113 kB a block: 18 groups of 3 state columns, 56 of 1
 * (capped at GPUGB_PRIVATE_MAX_GROUPS), 4 of 13 (count(*) and four sums
 * of four inputs: 5 count columns, 4 values, 4 high words).  A choice sizes
 * the slices for the groups expected, with a quarter more room.
 */
static void
test_private_placement(void)
{
	GpugbStrategyChoice c;

	CHECK(gpugb_private_groups_for(3, &h200) == 18, "3 state columns: 18 private groups (%lld)",
		  (long long) gpugb_private_groups_for(3, &h200));
	CHECK(gpugb_private_groups_for(1, &h200) == GPUGB_PRIVATE_MAX_GROUPS,
		  "1 state column: capped at %d private groups (%lld)", GPUGB_PRIVATE_MAX_GROUPS,
		  (long long) gpugb_private_groups_for(1, &h200));
	CHECK(gpugb_private_groups_for(13, &h200) == 4, "13 state columns: 4 private groups (%lld)",
		  (long long) gpugb_private_groups_for(13, &h200));
	CHECK(gpugb_private_groups_for(60, &h200) == 0, "60 state columns: no private slice (%lld)",
		  (long long) gpugb_private_groups_for(60, &h200));
	for (int cols = 1; cols <= 60; cols++)
	{
		int64_t		g = gpugb_private_groups_for(cols, &h200);

		int64_t		bytes = GPUGB_PRIVATE_TABLE_BYTES(cols, g) + gpugb_private_cache_bytes(g);

		if (bytes > h200.shared_bytes_per_block_optin ||
			2 * (bytes + 1024) > h200.shared_bytes_per_sm)
			CHECK(0, "private slices and key cache of %d columns within opt-in and two blocks an SM",
				  cols);
	}
	{
		/*
		 * Without an opt-in figure: what a block has without it (48 kB).
		 * 8 groups of 3 columns take all of it; the key cache needs room.
		 */
		GpugbDeviceProps no_optin = h200;

		no_optin.shared_bytes_per_block_optin = 0;
		CHECK(gpugb_private_groups_for(3, &no_optin) == 7,
			  "no opt-in: 48 kB, 7 groups of 3 columns and their key cache (%lld)",
			  (long long) gpugb_private_groups_for(3, &no_optin));
	}
	CHECK(gpugb_private_groups_needed(1, 18) == 2 && gpugb_private_groups_needed(4, 18) == 5 &&
		  gpugb_private_groups_needed(16, 18) == 18 && gpugb_private_groups_needed(0, 18) == 1,
		  "groups needed: a quarter more than expected, within the capacity");

	c = choose(workload(1e8, 1 << 20, 1, 0, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_PRIVATE_HASH, "one group (no GROUP BY) -> private_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
	CHECK(strstr(c.reason, "one group") != NULL, "one group: reason says so (%s)", c.reason);
	CHECK(c.private_groups == 2, "... slices for 2 groups (%lld)", (long long) c.private_groups);
	{
		/* Counts and integer sums only: one group takes SHARED_HASH's lean kernel, 4 stay private. */
		GpugbWorkload lean = workload(1e8, 1 << 20, 1, 0, 3);

		lean.lean_aggs = true;
		lean.lean_columns = 2;
		c = choose(lean);
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH && strstr(c.reason, "one group") != NULL,
			  "one group of counts and integer sums -> shared_hash (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		lean.key_words = 1;
		c = choose(lean);
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH, "... also under GROUP BY (got %s)",
			  gpugb_strategy_name(c.strategy));
		lean.groups = 4;
		c = choose(lean);
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH && c.private_groups == 5,
			  "... 4 such groups too, private slices sized for them if forced (got %s, %lld)",
			  gpugb_strategy_name(c.strategy), (long long) c.private_groups);
		/* four sums (9 generic state columns), 1024 groups: the lean table still holds them */
		lean = workload(1e8, 1 << 20, 1024, 1, 9);
		c = choose(lean);
		CHECK(c.strategy != GPUGB_STRATEGY_SHARED_HASH, "1024 groups of 9 state columns: not shared_hash (got %s)",
			  gpugb_strategy_name(c.strategy));
		lean.lean_aggs = true;
		lean.lean_columns = 5;
		c = choose(lean);
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH, "... but as four lean sums: shared_hash (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		lean.groups = 1e6;
		c = choose(lean);
		CHECK(c.strategy != GPUGB_STRATEGY_SHARED_HASH, "... but not 1e6 of them (got %s)",
			  gpugb_strategy_name(c.strategy));
	}
	{
		/* The lean table the launch takes: 4x the groups, one slot without keys. */
		GpugbSharedTablePlan plan;

		CHECK(gpugb_plan_lean_table(2, 1, 256, &h200, &plan) && plan.slots == 1024,
			  "lean table, one sum, 256 groups: keyed, 1024 slots (%lld)", (long long) plan.slots);
		CHECK(gpugb_plan_lean_table(3, 0, 1, &h200, &plan) && plan.slots == 1,
			  "lean table without keys: one slot (%lld)", (long long) plan.slots);
		CHECK(gpugb_plan_lean_table(2, 1, 256, &h200, &plan) && !plan.partial,
			  "... and holds all 256 groups");
		CHECK(gpugb_plan_lean_table(2, 1, 1e6, &h200, &plan) && plan.partial && plan.slots == 2048,
			  "lean table, 1e6 groups: partial, the 2048 slots two blocks an SM hold (%lld, partial %d)",
			  (long long) plan.slots, plan.partial);
		CHECK(2 * (plan.bytes + 1024) <= h200.shared_bytes_per_sm &&
			  2 * (GPUGB_SHARED_KEYED_TABLE_BYTES(2, 1, 2 * plan.slots) + 1024) > h200.shared_bytes_per_sm,
			  "... the largest such table (%lld bytes)", (long long) plan.bytes);
		CHECK(!gpugb_plan_lean_table(2, 3, 1e6, &h200, &plan), "lean table: not for keys no cache holds");
		/*
		 * A partial table without NULL inputs runs in one block an SM
		 * (cuda/launch.cu, one_block_partial_slots), which holds more slots
		 * than the two-block plan on the H200 for every launch the lean
		 * kernel takes (1-2 keys, 0-4 sums): 2-4x as many.
		 */
		for (int keys = 1; keys <= 2; keys++)
			for (int sums = 0; sums <= GPUGB_LEAN_MAX_SUMS; sums++)
			{
				int64_t		one_block = gpugb_lean_one_block_max_slots(sums, keys, &h200);
				bool		partial = gpugb_plan_lean_table(sums + 1, keys, 1e6, &h200, &plan) &&
					plan.partial;

				CHECK(partial && one_block >= 2 * plan.slots,
					  "one-block partial table, %d keys, %d sums: %lld slots, the two-block plan %lld",
					  keys, sums, (long long) one_block, (long long) plan.slots);
			}
	}
	c = choose(workload(1e8, 1 << 20, 4, 1, 3));
	CHECK(c.strategy == GPUGB_STRATEGY_PRIVATE_HASH, "4 groups, 3 state columns -> private_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
	CHECK(c.private_groups == 5, "... slices for 5 groups (%lld)", (long long) c.private_groups);
	c = choose(workload(1e8, 1 << 20, 18, 1, 3));
	CHECK(c.strategy == GPUGB_STRATEGY_PRIVATE_HASH && c.private_groups == 18,
		  "18 groups, 3 columns -> private_hash, 18 slices (got %s, %lld)",
		  gpugb_strategy_name(c.strategy), (long long) c.private_groups);
	c = choose(workload(1e8, 1 << 20, 19, 1, 3));
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH, "19 groups, 3 columns -> shared_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
	CHECK(c.private_groups == 18, "... private_groups is the capacity (forcing private uses it: %lld)",
		  (long long) c.private_groups);
	c = choose(workload(1e8, 1 << 20, 2, 1, 60));
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
		  "2 groups of 60 state columns (no private slice) -> shared_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
}

static void
test_shared_placement(void)
{
	GpugbStrategyChoice c;

	c = choose(workload(1e8, 1 << 20, 100, 1, 2));
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH, "100 groups -> shared_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
	c = choose(workload(1e6, 1 << 20, 1000, 2, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH, "1000 groups, 1 state column -> shared_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
	CHECK(c.shared_slots >= 2000, "... a shared table of >= 2 x 1000 slots (%lld)",
		  (long long) c.shared_slots);

	/* The largest g that stays shared is the shared table's slots (it claims half). */
	c = choose(workload(1e8, 1 << 20, 1, 1, 2));
	{
		int64_t		slots = c.shared_slots;
		GpugbStrategyChoice at = choose(workload(1e8, 1 << 20, (double) slots, 1, 2));
		GpugbStrategyChoice above = choose(workload(1e8, 1 << 20, (double) slots + 1, 1, 2));

		CHECK(at.strategy == GPUGB_STRATEGY_SHARED_HASH, "g = slots = %lld -> shared_hash",
			  (long long) slots);
		CHECK(above.strategy != GPUGB_STRATEGY_SHARED_HASH, "g = slots + 1 -> not shared (%s)",
			  gpugb_strategy_name(above.strategy));
	}
	/* The kernel benchmark's 2^8 groups, 4 payloads (13 state columns): 256 slots, shared. */
	c = choose(workload(268435456.0, 268435456.0, 256, 1, 13));
	CHECK(c.shared_slots == 256 && c.strategy == GPUGB_STRATEGY_SHARED_HASH,
		  "2^8 groups, 13 state columns: shared_hash in %lld slots (%s)",
		  (long long) c.shared_slots, gpugb_strategy_name(c.strategy));
}

static void
test_global_and_sort(void)
{
	GpugbStrategyChoice c;
	double		bytes_per_group = 8.0 * 2 + 8.0 * (1 + 1) + 4;	/* 50 % fill, 1 key, 1 state */
	double		beyond_l2 = 2.0 * (double) h200.l2_bytes / bytes_per_group;

	/*
	 * Beyond any shared table, and an L2-sized table would be < 50 % full:
	 * L2-sized (Karnagel).  1 key, 2 state columns at 50 % fill: 8 + 0.5 x
	 * (8 x 3 + 4) = 22 bytes a slot, 2^21 slots (44 MB) fit 60 MB of L2.
	 */
	c = choose(workload(1e8, 1 << 20, 100000, 1, 2));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH, "1e5 groups (table in L2) -> global_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
	CHECK(strstr(c.reason, "L2-sized table") != NULL, "... reason: L2-sized (%s)", c.reason);
	CHECK(c.fill_percent == 50, "... 50 %% fill (%d)", c.fill_percent);
	CHECK(c.table_slots == (1 << 21), "... an L2-sized table of 2^21 slots (%lld slots)",
		  (long long) c.table_slots);
	/*
	 * Pair slots (16 bytes: one key word lives in the slot) make a group
	 * larger: with 3 state columns 8 + 0.5 x (8 x 4 + 4) = 26 bytes a slot
	 * fit 2^21 slots in L2, 16 + 18 = 34 only 2^20.
	 */
	{
		GpugbWorkload w = workload(1e8, 1 << 20, 100000, 1, 3);

		c = choose(w);
		CHECK(c.table_slots == (1 << 21), "8-byte slots, 3 state columns: 2^21 slots in L2 (%lld)",
			  (long long) c.table_slots);
		w.slot_bytes = 16;
		c = choose(w);
		CHECK(c.table_slots == (1 << 20), "16-byte slots, 3 state columns: 2^20 slots in L2 (%lld)",
			  (long long) c.table_slots);
	}
	/* 1.2e6 groups: an L2-sized table would be over half full: sized for them. */
	c = choose(workload(1e8, 1 << 20, 1.2e6, 1, 2));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH && strstr(c.reason, "fits L2") != NULL,
		  "1.2e6 groups -> global_hash, a table that fits L2 (%s)", c.reason);
	CHECK(is_power_of_two(c.table_slots) && c.table_slots * 0.5 >= 1.2e6 &&
		  c.table_slots * 0.25 < 1.2e6,
		  "... table of the smallest power of two holding 1.2e6 at 50 %% (%lld slots)",
		  (long long) c.table_slots);
	/* The L2 rule is GLOBAL_HASH's: few groups (private, shared) keep small tables. */
	c = choose(workload(1e8, 1 << 20, 100, 1, 2));
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH && c.table_slots == 1024,
		  "100 groups: shared_hash with the smallest table (%s, %lld slots)",
		  gpugb_strategy_name(c.strategy), (long long) c.table_slots);

	/* A table twice the L2 with 6 rows per group: hash probes still do well. */
	c = choose(workload(1e9, 6.0 * beyond_l2, beyond_l2, 1, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "%.0f groups (table 2 x L2), 6 rows per group per launch -> global_hash (got %s)",
		  beyond_l2, gpugb_strategy_name(c.strategy));
	CHECK(strstr(c.reason, "within 3 x L2") != NULL, "... reason: within 3 x L2 (%s)", c.reason);

	/* A table eight times the L2, 6 rows per group in a launch: sort. */
	c = choose(workload(1e9, 24.0 * beyond_l2, 4 * beyond_l2, 1, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "%.0f groups (table 8 x L2), 6 rows per group per launch -> sort (got %s)",
		  4 * beyond_l2, gpugb_strategy_name(c.strategy));
	CHECK(strstr(c.reason, "exceeds L2") != NULL, "... reason: exceeds L2 (%s)", c.reason);

	/* The same table, about one row per group per launch: the sort cannot pay. */
	c = choose(workload(1e9, beyond_l2, beyond_l2, 1, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "table 2 x L2, 1 row per group per launch -> global_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
	c = choose(workload(1e9, 1 << 20, 3e7, 1, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "3e7 groups, 1M rows per launch (0.03 per group) -> global_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
	CHECK(strstr(c.reason, "too few to gain from sorting") != NULL, "... reason (%s)", c.reason);
}

/*
 * PARTITION (Wu et al. PGB-TR): far beyond L2 (16 x), with rows to combine
 * per group and launch, and a block key table that fits the states.
 */
static void
test_partition(void)
{
	GpugbStrategyChoice c;
	double		bytes_per_group = 8.0 * 2 + 8.0 * (1 + 1) + 4;	/* 50 % fill, 1 key, 1 state */
	double		l2_groups = (double) h200.l2_bytes / bytes_per_group;	/* a table of 1 x L2 */
	GpugbWorkload w;

	/* Block key table: 16 bytes of hash, state, row per slot besides the states. */
	CHECK(gpugb_partition_slots_for(3, &h200) == 1024,
		  "3 state columns: 1024 slots of 40 bytes in 48 kB (%lld)",
		  (long long) gpugb_partition_slots_for(3, &h200));
	for (int cols = 1; cols <= 100; cols++)
		if (gpugb_partition_slots_for(cols, &h200) > gpugb_shared_slots_for(cols, &h200) ||
			GPUGB_PARTITION_TABLE_BYTES(cols, gpugb_partition_slots_for(cols, &h200)) >
			h200.shared_bytes_per_block)
		{
			CHECK(0, "partition slots for %d columns within shared_hash's and 48 kB", cols);
			break;
		}
	CHECK(gpugb_partition_slots_for(200, &h200) == 0, "200 state columns: no partition table");

	/*
	 * Partition bits (cuda/partition_strategy.cu).  The lean kernel's 8192
	 * slots, no floor of partitions: 2^18 keys in 2^28 rows take 7 bits,
	 * one radix pass (session 32: 10.7 ms where two passes took 12.6);
	 * 2^20 take 9 and 2^22 11.  The generic kernel's 1024 slots and two
	 * partitions an SM (264 on the H200): 2^22 keys take 14 bits, a few
	 * keys 9 (the floor).  Never more partitions than rows, nor than
	 * GPUGB_PARTITION_MAX_BITS or the table's bits; at least one bit.
	 */
	CHECK(gpugb_partition_bits(262144.0, 1ll << 28, 8192, 1, 27) == 7,
		  "2^18 keys, 8192 slots: 7 partition bits (%d)", gpugb_partition_bits(262144.0, 1ll << 28, 8192, 1, 27));
	CHECK(gpugb_partition_bits(1048576.0, 1ll << 28, 8192, 1, 27) == 9 &&
		  gpugb_partition_bits(4194304.0, 1ll << 28, 8192, 1, 27) == 11,
		  "2^20 and 2^22 keys, 8192 slots: 9 and 11 partition bits");
	/*
	 * The run-time estimate of 2^22 or 2^20 groups, a few per mille high,
	 * keeps the bits of the true count (and so the scatter); a quarter
	 * more than a quarter of the slots takes one more bit.
	 */
	CHECK(gpugb_partition_bits(4194304.0 * 1.004, 1ll << 28, 8192, 1, 27) == 11 &&
		  gpugb_partition_bits(1048576.0 * 1.01, 1ll << 28, 4096, 1, 27) == 10 &&
		  gpugb_partition_bits(4194304.0 * 1.3, 1ll << 28, 8192, 1, 27) == 12,
		  "an estimate a little high keeps its bits, one 30 %% high takes another (%d, %d, %d)",
		  gpugb_partition_bits(4194304.0 * 1.004, 1ll << 28, 8192, 1, 27),
		  gpugb_partition_bits(1048576.0 * 1.01, 1ll << 28, 4096, 1, 27),
		  gpugb_partition_bits(4194304.0 * 1.3, 1ll << 28, 8192, 1, 27));
	CHECK(gpugb_partition_bits(4194304.0, 1ll << 28, 1024, 264, 27) == 14 &&
		  gpugb_partition_bits(1000.0, 1ll << 28, 1024, 264, 27) == 9,
		  "1024 slots, at least 264 partitions: 2^22 keys 14 bits, 1000 keys 9");
	CHECK(gpugb_partition_bits(10.0, 1ll << 28, 8192, 1, 27) == 1,
		  "a few keys, no floor: one bit (%d)", gpugb_partition_bits(10.0, 1ll << 28, 8192, 1, 27));
	CHECK(gpugb_partition_bits(1e6, 100, 1024, 264, 27) == 6,
		  "100 rows: at most 64 partitions (%d)", gpugb_partition_bits(1e6, 100, 1024, 264, 27));
	CHECK(gpugb_partition_bits(1e12, 1ll << 40, 1024, 264, 40) == GPUGB_PARTITION_MAX_BITS &&
		  gpugb_partition_bits(4194304.0, 1ll << 28, 1024, 264, 12) == 12,
		  "at most GPUGB_PARTITION_MAX_BITS, and at most the table's bits");
	CHECK(gpugb_partition_lean_rows_pay(268435456.0, 4194304.0) &&
		  gpugb_partition_lean_rows_pay(268435456.0, 16777216.0) &&
		  gpugb_partition_lean_rows_pay(268435456.0, 1.1 * 16777216.0) &&
		  gpugb_partition_lean_rows_pay(268435456.0, 67108864.0) &&
		  gpugb_partition_lean_rows_pay(268435456.0, 1.004 * 67108864.0) &&
		  gpugb_partition_lean_rows_pay(3.0 * 1000, 1000.0) &&
		  !gpugb_partition_lean_rows_pay(2.9 * 1000, 1000.0) &&
		  !gpugb_partition_lean_rows_pay(268435456.0, 134217728.0),
		  "the lean partition kernel from 3 rows a key: 64, 16, 14.5, 4 and 3.98 yes, 3 yes, 2.9 no, 2 no");

	/*
	 * Auto leaves partition to gpugb.strategy: sort matched or beat it
	 * wherever it used to win (heuristics.c, SORT_MIN_L2_MULTIPLE).
	 */
	c = choose(workload_int32(1e10, 64.0 * 32 * l2_groups, 32 * l2_groups, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "%.0f groups (table 32 x L2), 64 rows per group per launch, int32 key -> sort (got %s)",
		  32 * l2_groups, gpugb_strategy_name(c.strategy));
	CHECK(strstr(c.reason, "exceeds L2") != NULL, "... reason: exceeds L2 (%s)", c.reason);
	CHECK(c.partition_slots == gpugb_partition_slots_for(1, &h200),
		  "... partition slots set for a forced partition (%lld)", (long long) c.partition_slots);

	/* 1.5 x L2, 64 rows per group: the global table still (kernel benchmark, 4 payloads, 2^20). */
	c = choose(workload(1e10, 64.0 * 1.5 * l2_groups, 1.5 * l2_groups, 1, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "table 1.5 x L2, 64 rows per group -> global_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
	/* 2.5 x L2 too (kernel benchmark, 4 payloads, 2^20: 2.2 x L2, even with sort) */
	c = choose(workload(1e10, 64.0 * 2.5 * l2_groups, 2.5 * l2_groups, 1, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "table 2.5 x L2, 64 rows per group -> global_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
	/* 3.5 x L2, 64 rows per group: sort (kernel benchmark, 1 payload, 2^22: 3.6 x L2). */
	c = choose(workload_int32(1e10, 64.0 * 3.5 * l2_groups, 3.5 * l2_groups, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT, "table 3.5 x L2, 64 rows per group, int32 key -> sort (got %s)",
		  gpugb_strategy_name(c.strategy));
	/* Within L2: the global table. */
	c = choose(workload(1e10, 64.0 * 0.5 * l2_groups, 0.5 * l2_groups, 1, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH, "table 0.5 x L2, 64 rows per group -> global_hash (got %s)",
		  gpugb_strategy_name(c.strategy));
	/* 8 x L2 with 4 rows per group: sort. */
	c = choose(workload(1e10, 4.0 * 8 * l2_groups, 8 * l2_groups, 1, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT, "table 8 x L2, 4 rows per group -> sort (got %s)",
		  gpugb_strategy_name(c.strategy));

	/* 32 x L2, about 1 row per group per launch: nothing to combine, global. */
	c = choose(workload(1e10, 32 * l2_groups, 32 * l2_groups, 1, 1));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "table 32 x L2, 1 row per group per launch -> global_hash (got %s)",
		  gpugb_strategy_name(c.strategy));

	/*
	 * The kernel benchmark's points: count + int sum (3 columns), 1 key,
	 * 52 bytes per group, all 2^28 rows in one launch: 2^22 groups (3.6 x
	 * L2, 64 rows per group), 2^24 (16) and 2^26 (4) sort (session 20,
	 * H200: 22.3, 26.8 and 45.7 ms; partition 28.4, 44.6 and 126.5).
	 */
	c = choose(workload_int32(268435456.0, 268435456.0, 4194304.0, 3));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "2^22 groups, 3 state columns, 2^28 rows in one launch, int32 key -> sort (got %s)",
		  gpugb_strategy_name(c.strategy));
	c = choose(workload(268435456.0, 268435456.0, 16777216.0, 1, 3));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "2^24 groups, 3 state columns, 2^28 rows in one launch -> sort (got %s)",
		  gpugb_strategy_name(c.strategy));
	c = choose(workload(268435456.0, 268435456.0, 67108864.0, 1, 3));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "2^26 groups, 3 state columns, 2^28 rows in one launch -> sort (got %s)",
		  gpugb_strategy_name(c.strategy));
	/* ...also when the run-time estimate of 2^26 comes out 0.4 % high (3.98 rows per group). */
	c = choose(workload(268435456.0, 268435456.0, 67108864.0 * 1.004, 1, 3));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "2^26 groups estimated 0.4 %% high, 2^28 rows in one launch -> sort (got %s)",
		  gpugb_strategy_name(c.strategy));
	/* Four payloads (13 state columns): 2^22 groups sort (46.4 ms, partition 59.2). */
	c = choose(workload_int32(268435456.0, 268435456.0, 4194304.0, 13));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "2^22 groups, 13 state columns, 64 rows per group, int32 key -> sort (got %s)",
		  gpugb_strategy_name(c.strategy));
	/*
	 * A key sort cannot sort by itself (8-byte keys, or two keys), many rows
	 * per group: partition (session 22, H200, 2^22 groups, 8-byte keys: 24.5
	 * ms against sort's 28.6 with one payload, 47.2 against 53.2 with four);
	 * with 16 rows per group (2^24) sort still (33.0 against 36.8).
	 */
	c = choose(workload(268435456.0, 268435456.0, 4194304.0, 1, 3));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "partition") != NULL,
		  "2^22 groups, 8-byte key, 64 rows per group -> partition (got %s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	c = choose(workload(268435456.0, 268435456.0, 4194304.0, 2, 13));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION,
		  "2^22 groups, two keys, 13 state columns -> partition (got %s)",
		  gpugb_strategy_name(c.strategy));
	c = choose(workload(268435456.0, 268435456.0, 16777216.0, 1, 3));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "2^24 groups, 8-byte key, 16 rows per group -> sort (got %s)",
		  gpugb_strategy_name(c.strategy));
	/*
	 * COUNT and one integer sum on one key word, 64 rows a group: the lean
	 * partition kernel, 4-byte keys too (session 32, call 2: 16.3 ms
	 * against sort's 23.7 at 2^22, uniform); 16 rows a group (2^24) too
	 * since session 34 (call 3: 17.5 against 30.1); 4 rows a group (2^26)
	 * too since session 43 where the sum's words are int32 and the rows stay
	 * packed for the deferred lookups (call 3: 42.3 against 50.7), also
	 * when the run-time estimate comes out 0.4 % high; a sum of wider words
	 * keeps the key cache's kernel, and sort there.
	 */
	c = choose(workload_lean(4194304.0, 1, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
		  "2^22 groups, COUNT and one sum, 64 rows per group -> partition, lean (got %s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	c = choose(workload_lean(16777216.0, 1, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
		  "2^24 groups, COUNT and one sum, 16 rows per group -> partition, lean (got %s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	c = choose(workload_packed(67108864.0, 1, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
		  "2^26 groups, COUNT and one int32 sum, 4 rows per group -> partition, lean (got %s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	c = choose(workload_packed(67108864.0 * 1.004, 1, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
		  "2^26 groups estimated 0.4 %% high, COUNT and one int32 sum -> partition, lean (got %s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	c = choose(workload_packed(67108864.0, 0, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
		  "2^26 groups, COUNT only, 4 rows per group -> partition, lean (got %s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	c = choose(workload_lean(67108864.0, 1, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "2^26 groups, COUNT and one sum of wider words, 4 rows per group -> sort (got %s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	{
		/*
		 * NULLs in a key or an input, by the statistics: the launches do not
		 * move their rows, so not the lean partition but sort (4-byte key),
		 * or PARTITION's generic kernel where a wide key has many rows a group.
		 */
		GpugbWorkload nulls26 = workload_packed(67108864.0, 1, 0.0);
		GpugbWorkload nulls24 = workload_packed(16777216.0, 1, 0.0);
		GpugbWorkload nulls22_wide = wide_key(workload_packed(4194304.0, 1, 0.0));

		nulls26.nulls_expected = nulls24.nulls_expected = nulls22_wide.nulls_expected = true;
		c = choose(nulls26);
		CHECK(c.strategy == GPUGB_STRATEGY_SORT, "2^26 groups, one int32 sum, NULLs expected -> sort (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(nulls24);
		CHECK(c.strategy == GPUGB_STRATEGY_SORT, "2^24 groups, one int32 sum, NULLs expected -> sort (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(nulls22_wide);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean") == NULL,
			  "2^22 groups, 8-byte key, NULLs expected -> partition, not lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
	}
	/* ...but not at 2 rows a group (2^27, not measured). */
	c = choose(workload_packed(134217728.0, 1, 0.0));
	CHECK(c.strategy != GPUGB_STRATEGY_PARTITION,
		  "2^27 groups, COUNT and one sum, 2 rows per group -> not partition (got %s)",
		  gpugb_strategy_name(c.strategy));
	/*
	 * Counts only: the table of 2^22 groups is 2.4 x L2, within sort's 3 x
	 * but beyond the lean partition's 2 x (session 34, call 4: 12.3 ms
	 * against global_hash's 15.8); at 2^20 groups (under 1 x L2) the global
	 * table; one sum at 2^20 groups (about 1 x L2: global_hash 9.4 against
	 * 14.1, session 33) the global table too.
	 */
	c = choose(workload_lean(4194304.0, 0, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
		  "2^22 groups, COUNT only -> partition, lean (got %s: %s)", gpugb_strategy_name(c.strategy),
		  c.reason);
	c = choose(workload_lean(4194304.0, 0, 0.063));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION,
		  "2^22 groups, COUNT only, 6.3 %% hot -> partition (got %s)", gpugb_strategy_name(c.strategy));
	c = choose(workload_lean(1048576.0, 0, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "2^20 groups, COUNT only -> global_hash (got %s)", gpugb_strategy_name(c.strategy));
	c = choose(workload_lean(1048576.0, 1, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "2^20 groups, COUNT and one sum -> global_hash (got %s)", gpugb_strategy_name(c.strategy));
	/*
	 * ...and only counts of an int32 key between 2 and 3 x L2: one sum at
	 * 2.5 x 2^20 groups (a table of 150 MB, 2.5 x L2) keeps the global table.
	 */
	c = choose(workload_lean(2621440.0, 1, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH && strstr(c.reason, "within 3 x L2") != NULL,
		  "2.5 x 2^20 groups, COUNT and one sum -> global_hash within 3 x L2 (got %s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	c = choose(workload_lean(4194304.0, 4, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "2^22 groups, COUNT and four sums of 8-byte words, int32 key -> sort (got %s)",
		  gpugb_strategy_name(c.strategy));
	/*
	 * Two to four sums of int32 words on an int32 key: the lean partition
	 * kernel over packed rows (session 35, call 5, 2^28 rows).  From 1.6 x
	 * L2: 2^20 groups with four sums (2.2 x; 29.0 ms against global_hash's
	 * 42.2) and three (1.8 x; 18.7 against 26.7), not two (1.4 x; global_hash
	 * 14.4 against 17.8); 2^22 groups with four sums and a group of 6.3 %
	 * too (34.8 against sort's 46.0), not one of 38 %; 2^18 the global table.
	 */
	c = choose(workload_packed(4194304.0, 4, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
		  "2^22 groups, COUNT and four int32 sums, int32 key -> partition, lean (got %s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	c = choose(workload_packed(1048576.0, 4, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
		  "2^20 groups, four int32 sums -> partition, lean (got %s: %s)", gpugb_strategy_name(c.strategy),
		  c.reason);
	c = choose(workload_packed(1048576.0, 3, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION,
		  "2^20 groups, three int32 sums -> partition (got %s)", gpugb_strategy_name(c.strategy));
	c = choose(workload_packed(1048576.0, 2, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "2^20 groups, two int32 sums -> global_hash (got %s)", gpugb_strategy_name(c.strategy));
	c = choose(workload_packed(262144.0, 4, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "2^18 groups, four int32 sums -> global_hash (got %s)", gpugb_strategy_name(c.strategy));
	c = choose(workload_packed(4194304.0, 4, 0.063));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION,
		  "2^22 groups, four int32 sums, 6.3 %% hot -> partition, not sort (got %s)",
		  gpugb_strategy_name(c.strategy));
	c = choose(workload_packed(4194304.0, 4, 0.38));
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
		  "2^22 groups, four int32 sums, 38 %% hot -> shared_hash (got %s)", gpugb_strategy_name(c.strategy));
	{
		/* ...but one sum and counts of many inputs (wide states, unmeasured) keep sort's rule. */
		GpugbWorkload wide = workload_lean(4194304.0, 1, 0.063);

		wide.state_columns = GPUGB_WIDE_STATES;
		c = choose(wide);
		CHECK(c.strategy == GPUGB_STRATEGY_SORT,
			  "2^22 groups, one sum, wide states, 6.3 %% hot -> sort (got %s)", gpugb_strategy_name(c.strategy));
	}
	/* 4 rows a group: the lean kernel since session 43 (call 3: 78.8 ms against sort's 89.3). */
	c = choose(workload_packed(67108864.0, 4, 0.0));
	CHECK(c.strategy == GPUGB_STRATEGY_PARTITION,
		  "2^26 groups, four int32 sums, 4 rows a group -> partition (got %s)", gpugb_strategy_name(c.strategy));
	{
		/*
		 * 8-byte keys pack too since session 36 (pair slots): four sums at
		 * 2^20 groups, uniform, PARTITION about 26.8 ms against
		 * global_hash's 44.9; at 2^22 28.8 against sort's 56.7.  Two sums at
		 * 2^20 (a table of 100 MB in pair slots, 1.7 x L2) PARTITION too:
		 * 17.0 ms, auto 17.6 (session 36, call 2).  Sums of 8-byte words
		 * keep the generic kernel's rules (sort at 2^22).
		 */
		GpugbWorkload wide4 = wide_key(workload_packed(1048576.0, 4, 0.0));
		GpugbWorkload wide2 = wide_key(workload_packed(1048576.0, 2, 0.0));
		GpugbWorkload wide22 = wide_key(workload_packed(4194304.0, 4, 0.0));
		GpugbWorkload wide_words = wide_key(workload_lean(4194304.0, 4, 0.0));

		c = choose(wide4);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
			  "2^20 groups, four int32 sums, 8-byte key -> partition, lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(wide22);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
			  "2^22 groups, four int32 sums, 8-byte key -> partition, lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(wide2);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION,
			  "2^20 groups, two int32 sums, 8-byte key (pair slots) -> partition (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(wide_words);
		CHECK(c.strategy == GPUGB_STRATEGY_SORT || strstr(c.reason, "lean block table") == NULL,
			  "2^22 groups, four sums of 8-byte words, 8-byte key -> not the lean partition (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
	}
	{
		/*
		 * One int32 sum without skew: PARTITION from 1.5 x L2
		 * (LEAN_PARTITION_ONE_SUM_MIN_L2_MULTIPLE).  Session 59, call 5:
		 * 2^21 groups, 4-byte keys (120 MB, 2.0 x L2) PARTITION 9.0 ms
		 * against global_hash's 19.6, which auto kept; 2^20 with 8-byte
		 * keys (76 MB, 1.27 x L2) even, and global_hash stays.
		 */
		GpugbWorkload one21 = workload_packed(2097152.0, 1, 0.0);
		GpugbWorkload one20_wide = wide_key(workload_packed(1048576.0, 1, 0.0));
		GpugbWorkload one21_words = workload_lean(2097152.0, 1, 0.0);

		c = choose(one21);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
			  "2^21 groups, one int32 sum, int32 key -> partition, lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(one20_wide);
		CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
			  "2^20 groups, one int32 sum, 8-byte key (1.27 x L2) -> global_hash (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(one21_words);
		CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
			  "2^21 groups, one sum of 8-byte words (not measured) -> global_hash as before (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
	}
	{
		/*
		 * Four int32 sums over an 8-byte key: PARTITION (hashed rows) from
		 * 0.1 x L2 (LEAN_PARTITION_HASHED_SUMS_MIN_L2_MULTIPLE).  Session 60,
		 * call 4: 2^16 groups 15.2 ms against global_hash's 18.0, 2^18 16.1
		 * against 18.7 (uniform) and shared_hash's 22.2 (Zipf 1.0, 7.6 % hot);
		 * 2^14 stays in the lean tables; int32 keys and three sums keep
		 * their lines.
		 */
		GpugbWorkload hashed16 = wide_key(workload_packed(65536.0, 4, 0.0));
		GpugbWorkload hashed18_skew = wide_key(workload_packed(262144.0, 4, 0.076));
		GpugbWorkload hashed14 = wide_key(workload_packed(16384.0, 4, 0.0));
		GpugbWorkload int32_16 = workload_packed(65536.0, 4, 0.0);
		GpugbWorkload three16 = wide_key(workload_packed(65536.0, 3, 0.0));
		GpugbWorkload words16 = wide_key(workload_lean(65536.0, 4, 0.0));

		c = choose(hashed16);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
			  "2^16 groups, four int32 sums, 8-byte key -> partition, lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(hashed18_skew);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION,
			  "2^18 groups, four int32 sums, 8-byte key, 7.6 %% hot -> partition (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(hashed14);
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
			  "2^14 groups, four int32 sums, 8-byte key -> shared_hash (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(int32_16);
		CHECK(c.strategy != GPUGB_STRATEGY_PARTITION,
			  "2^16 groups, four int32 sums, int32 key -> not partition (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(three16);
		CHECK(c.strategy != GPUGB_STRATEGY_PARTITION,
			  "2^16 groups, three int32 sums, 8-byte key (not measured) -> not partition (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(words16);
		CHECK(c.strategy != GPUGB_STRATEGY_PARTITION,
			  "2^16 groups, four sums of 8-byte words, 8-byte key -> not partition (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
	}
	{
		/*
		 * Skewed (Zipf 1.0, largest group 7 %), within 3 x L2, two or three
		 * sums: the partial lean table, not PARTITION (session 36, call 2:
		 * 8-byte keys, three sums, 21.8 ms against 28.2); beyond it PARTITION
		 * still.  Four sums from 1.6 x L2 since the scatter (0.8 x since session 61: below) (session 37,
		 * call 5: 2^20, 25.8 ms against shared_hash's 30.9; 2^18, 0.6 x L2,
		 * shared_hash 19.7 against 20.9).
		 */
		GpugbWorkload skew3 = wide_key(workload_packed(1048576.0, 3, 0.07));
		GpugbWorkload skew4_int32 = workload_packed(1048576.0, 4, 0.07);
		GpugbWorkload skew4_18 = workload_packed(262144.0, 4, 0.076);
		GpugbWorkload skew4_22 = wide_key(workload_packed(4194304.0, 4, 0.063));

		c = choose(skew3);
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
			  "2^20 groups, three int32 sums, 8-byte key, 7 %% hot -> shared_hash (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(skew4_int32);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
			  "2^20 groups, four int32 sums, int32 key, 7 %% hot -> partition, lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(skew4_18);
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
			  "2^18 groups, four int32 sums, int32 key, 7.6 %% hot -> shared_hash (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(skew4_22);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION,
			  "2^22 groups, four int32 sums, 8-byte key, 6.3 %% hot -> partition (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
	}
	{
		/*
		 * Four int32 sums over an int32 key, skewed or not: PARTITION from
		 * 0.8 x L2 (LEAN_PARTITION_INT32_FOUR_SUMS_MIN_L2_MULTIPLE).  Session
		 * 61, call 1: 2^19 groups (1.1 x L2) 17.5-17.9 ms against
		 * global_hash's 19.3-19.4 and shared_hash's 25.2 (Zipf 1.0); 2^18
		 * (0.55 x) keeps global_hash (18.0 against 20.2) and shared_hash
		 * (above: skew4_18); three sums keep their line (not measured).
		 */
		GpugbWorkload four19 = workload_packed(524288.0, 4, 0.0);
		GpugbWorkload four19_skew = workload_packed(524288.0, 4, 0.072);
		GpugbWorkload four18 = workload_packed(262144.0, 4, 0.0);
		GpugbWorkload three19 = workload_packed(524288.0, 3, 0.0);

		c = choose(four19);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
			  "2^19 groups, four int32 sums, int32 key -> partition, lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(four19_skew);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
			  "2^19 groups, four int32 sums, int32 key, 7.2 %% hot -> partition, lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(four18);
		CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
			  "2^18 groups, four int32 sums, int32 key (0.55 x L2) -> global_hash (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(three19);
		CHECK(c.strategy != GPUGB_STRATEGY_PARTITION,
			  "2^19 groups, three int32 sums, int32 key (not measured) -> not partition (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
	}
	/*
	 * PARTITION's scatter (session 37, call 4): from 2^9 partitions while a
	 * tile keeps four rows a partition (8-byte rows in 8192-row tiles to
	 * 2^11, wider ones in 4096-row tiles to 2^10); 12-byte rows from one bit.
	 */
	CHECK(!gpugb_partition_scatter_pays(8, 8, 8192) && gpugb_partition_scatter_pays(8, 9, 8192) &&
		  gpugb_partition_scatter_pays(8, 11, 8192) && !gpugb_partition_scatter_pays(8, 12, 8192),
		  "scatter: 8-byte rows at 2^9-2^11 partitions only");
	CHECK(!gpugb_partition_scatter_pays(24, 8, 4096) && gpugb_partition_scatter_pays(24, 10, 4096) &&
		  !gpugb_partition_scatter_pays(24, 11, 4096) && gpugb_partition_scatter_pays(16, 9, 4096),
		  "scatter: 16- and 24-byte rows at 2^9-2^10 partitions only");
	CHECK(gpugb_partition_scatter_pays(12, 1, 4096) && gpugb_partition_scatter_pays(12, 10, 4096) &&
		  !gpugb_partition_scatter_pays(12, 11, 4096),
		  "scatter: 12-byte rows from one partition bit to 2^10");
	{
		/*
		 * One sum, skewed (Zipf 1.0): PARTITION from 0.2 x L2 since the
		 * scatter (session 37, call 5): 2^18 groups 8.9 ms against
		 * shared_hash's 10.9 (4-byte keys), 10.2 against 11.4 (8-byte); at
		 * 2^16 shared_hash 9.1 against 9.3.  Counts only keep their line
		 * (unmeasured): the partial table at 2^18.
		 */
		GpugbWorkload one18 = workload_lean(262144.0, 1, 0.076);
		GpugbWorkload one18_wide = wide_key(workload_lean(262144.0, 1, 0.076));
		GpugbWorkload one16 = workload_lean(65536.0, 1, 0.085);
		GpugbWorkload one17 = workload_lean(131072.0, 1, 0.081);
		GpugbWorkload one17_wide = wide_key(workload_lean(131072.0, 1, 0.081));
		GpugbWorkload counts18 = workload_lean(262144.0, 0, 0.076);

		c = choose(one18);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
			  "2^18 groups, one sum, int32 key, 7.6 %% hot -> partition, lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(one18_wide);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
			  "2^18 groups, one sum, 8-byte key, 7.6 %% hot -> partition, lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(one16);
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
			  "2^16 groups, one sum, 8.5 %% hot -> shared_hash (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		/* From 0.1 x L2 since session 61: 2^17 (0.13 x L2, 0.16 x) 7.7 and 8.5 ms against 9.8 and 10.7. */
		c = choose(one17);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
			  "2^17 groups, one sum, int32 key, 8.1 %% hot -> partition, lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(one17_wide);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION && strstr(c.reason, "lean block table") != NULL,
			  "2^17 groups, one sum, 8-byte key, 8.1 %% hot -> partition, lean (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(counts18);
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
			  "2^18 groups, counts only, 7.6 %% hot -> shared_hash (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
	}
	{
		/*
		 * 9 rows a key (Zipf 1.0 over 2^26: 29.8 million groups): the lean
		 * partition since session 43, whose kernel looks group ids up at the
		 * flush (call 3: 25.5 ms against sort's 37.3 with one payload, 51.2
		 * against 66.0 with four, 29.3 against 41.7 with 8-byte keys), where
		 * the sums' words are int32 and the rows stay packed.  It was sort
		 * until then (session 36, call 2: 33.1 against 37.4), and it still is
		 * for a sum of wider words (the key cache's kernel).
		 */
		GpugbWorkload nine1 = workload_packed(29776660.0, 1, 0.03);
		GpugbWorkload nine4 = workload_packed(29776660.0, 4, 0.03);
		GpugbWorkload nine1_wide = wide_key(workload_packed(29776660.0, 1, 0.03));
		GpugbWorkload nine1_unpacked = workload_lean(29776660.0, 1, 0.03);

		c = choose(nine1);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION, "9 rows a key, one sum, int32 key -> partition (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(nine4);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION, "9 rows a key, four int32 sums -> partition (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(nine1_wide);
		CHECK(c.strategy == GPUGB_STRATEGY_PARTITION, "9 rows a key, one sum, 8-byte key -> partition (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		c = choose(nine1_unpacked);
		CHECK(c.strategy == GPUGB_STRATEGY_SORT,
			  "9 rows a key, one sum of wider words (not packed: the key cache's kernel) -> sort (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		CHECK(gpugb_partition_lean_rows_pay(268435456.0, 29776660.0),
			  "a launch of 9 rows a key still takes the lean kernel where PARTITION runs");
	}
	/* No block table fits the states: sort, whatever the key. */
	c = choose(workload(268435456.0, 268435456.0, 4194304.0, 1, 200));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "2^22 groups, 8-byte key, 200 state columns (no partition table) -> sort (got %s)",
		  gpugb_strategy_name(c.strategy));
	/* ...but in PostgreSQL's strides of 2^20 rows, 1/32 row per group: global. */
	c = choose(workload(268435456.0, 1048576.0, 33554432.0, 1, 3));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "2^25 groups in strides of 2^20 rows -> global_hash (got %s)",
		  gpugb_strategy_name(c.strategy));

	/*
	 * Skew beyond L2: sort still, short of extreme skew (Zipf 1.0, largest
	 * group 6 %: sort 23.2 ms against shared_hash's 30.4 at 2^22); a group
	 * of 38 % (Zipf 1.5) -> shared_hash (15.1 against sort's 20.6).
	 */
	w = workload_int32(1e10, 64.0 * 32 * l2_groups, 32 * l2_groups, 1);
	w.hot_share = 0.06;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SORT, "32 x L2 with a 6 %% group -> sort (%s)",
		  gpugb_strategy_name(c.strategy));
	w.hot_share = 0.38;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH, "32 x L2 with a 38 %% group -> shared_hash (%s)",
		  gpugb_strategy_name(c.strategy));
	/* ...and a 38 % group with no shared table (200 state columns): sort. */
	w.state_columns = 200;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SORT, "32 x L2, 38 %% group, no shared table -> sort (%s)",
		  gpugb_strategy_name(c.strategy));

	/* States too wide for the block key table: sort. */
	c = choose(workload(1e10, 64.0 * 32 * l2_groups, 32 * l2_groups, 1, 200));
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "32 x L2 groups, 200 state columns (no partition table) -> sort (got %s)",
		  gpugb_strategy_name(c.strategy));
}

static void
test_fill_factor(void)
{
	GpugbStrategyChoice c;

	/* 1e6 groups x (16 + 8 x 5 + 4) bytes = 60 MB: below 2 GB */
	c = choose(workload(1e9, 1 << 20, 1e6, 1, 4));
	CHECK(c.fill_percent == 50, "table of 60 MB: 50 %% fill (%d)", c.fill_percent);
	/* 1e8 groups: 6 GB */
	c = choose(workload(1e9, 1 << 20, 1e8, 1, 4));
	CHECK(c.fill_percent == 83, "table of 6 GB: 83 %% fill (%d)", c.fill_percent);
	/* just below and just above 2 GB with 1 key word and 1 state column (36 bytes) */
	c = choose(workload(1e9, 1 << 20, (double) GPUGB_DENSE_TABLE_BYTES / 36.0 * 0.99, 1, 1));
	CHECK(c.fill_percent == 50, "table of 0.99 x 2 GB: 50 %% fill (%d)", c.fill_percent);
	c = choose(workload(1e9, 1 << 20, (double) GPUGB_DENSE_TABLE_BYTES / 36.0 * 1.01, 1, 1));
	CHECK(c.fill_percent == 83, "table of 1.01 x 2 GB: 83 %% fill (%d)", c.fill_percent);
}

static void
test_shared_slots(void)
{
	int64_t		budget = h200.shared_bytes_per_sm / 4 < h200.shared_bytes_per_block ?
		h200.shared_bytes_per_sm / 4 : h200.shared_bytes_per_block;
	int64_t		prev = gpugb_shared_slots_for(1, &h200);
	int			monotone = 1,
				fits = 1,
				first_zero = -1;

	CHECK(prev >= 1024, "1 state column: a shared table of >= 1024 slots (%lld)", (long long) prev);
	for (int cols = 1; cols <= 256; cols++)
	{
		int64_t		slots = gpugb_shared_slots_for(cols, &h200);

		if (slots > prev)
			monotone = 0;
		if (slots > 0 && (!is_power_of_two(slots) || slots < GPUGB_MIN_SHARED_SLOTS ||
						  GPUGB_SHARED_TABLE_BYTES(cols, slots) > budget))
			fits = 0;
		if (slots == 0 && first_zero < 0)
			first_zero = cols;
		prev = slots;
	}
	CHECK(monotone, "shared slots never grow as state columns grow");
	/* The whole table, counter included: a launch over 48 KiB fails (found on the H200). */
	CHECK(fits, "shared slots: a power of two >= %d whose table fits the block's budget (%lld bytes)",
		  GPUGB_MIN_SHARED_SLOTS, (long long) budget);
	CHECK(gpugb_shared_slots_for(4, &h200) < gpugb_shared_slots_for(1, &h200),
		  "4 state columns: fewer slots than 1 (%lld < %lld)",
		  (long long) gpugb_shared_slots_for(4, &h200), (long long) gpugb_shared_slots_for(1, &h200));
	CHECK(first_zero > 0 &&
		  GPUGB_SHARED_TABLE_BYTES(first_zero, GPUGB_MIN_SHARED_SLOTS) > budget &&
		  GPUGB_SHARED_TABLE_BYTES(first_zero - 1, GPUGB_MIN_SHARED_SLOTS) <= budget,
		  "shared slots are 0 from %d state columns on, where even %d slots do not fit",
		  first_zero, GPUGB_MIN_SHARED_SLOTS);
	{
		GpugbStrategyChoice c = choose(workload(1e8, 1 << 20, 1, 1, first_zero));

		CHECK(c.shared_slots == 0 && c.strategy != GPUGB_STRATEGY_SHARED_HASH,
			  "no shared table fits: even 1 group is not shared_hash (got %s)",
			  gpugb_strategy_name(c.strategy));
	}
	{
		/* a device with less shared memory gets a smaller table */
		GpugbDeviceProps small = h200;

		small.shared_bytes_per_sm = 64 << 10;
		CHECK(gpugb_shared_slots_for(1, &small) < gpugb_shared_slots_for(1, &h200),
			  "less shared memory per SM: fewer slots (%lld)",
			  (long long) gpugb_shared_slots_for(1, &small));
	}
}

static void
test_observed(void)
{
	GpugbWorkload planned = workload(1e8, 1 << 20, 1e8, 1, 1);
	GpugbWorkload seen;
	GpugbStrategyChoice before,
				after;

	/* GROUP BY mod(x, 1000): planned 1e8 groups, 1000 after 1M rows */
	gpugb_workload_observed(&planned, 1e6, 1000, &seen);
	CHECK(fabs(seen.groups - 1000) < 1, "mod(x, 1000): 1000 groups seen in 1M rows -> 1000 (%.0f)",
		  seen.groups);
	CHECK(seen.rows == 1e8 && seen.rows_per_launch == planned.rows_per_launch &&
		  seen.key_words == 1 && seen.state_columns == 1,
		  "... rows and the rest as planned");
	before = choose(planned);
	after = choose(seen);
	CHECK(before.strategy == GPUGB_STRATEGY_GLOBAL_HASH && after.strategy == GPUGB_STRATEGY_SHARED_HASH,
		  "... planned %s, corrected to %s", gpugb_strategy_name(before.strategy),
		  gpugb_strategy_name(after.strategy));

	/* all distinct: 1M groups in 1M rows, extrapolated to 1e8 */
	gpugb_workload_observed(&planned, 1e6, 1e6, &seen);
	CHECK(fabs(seen.groups - 1e8) < 1, "all distinct: 1M groups in 1M rows -> 1e8 (%.0f)", seen.groups);
	/* half distinct: G with G (1 - e^(-n/G)) = 5e5, about 627,500 */
	gpugb_workload_observed(&planned, 1e6, 5e5, &seen);
	CHECK(fabs(seen.groups * -expm1(-1e6 / seen.groups) - 5e5) < 1 && seen.groups > 6e5 &&
		  seen.groups < 6.5e5,
		  "half distinct: 5e5 groups in 1M rows -> the uniform-draw estimate (%.0f)", seen.groups);
	/*
	 * Chao1 from the groups seen once and twice (but under spec.observed_uniform_only): a
	 * Zipf 1.0 sample of 2^20 rows over 2^22 keys (simulated: 303,611
	 * groups, 237,777 once, 32,870 twice) reads as about 1.16e6, where the
	 * evenly-drawn model alone reads 3.15e5; a uniform one (927,778
	 * groups, 816,653 once, 102,005 twice) as the model's 4.2e6 either way;
	 * nothing counted (0) leaves the model's estimate.
	 */
	{
		GpugbWorkload sample = planned;
		GpugbWorkload model;

		gpugb_workload_observed(&planned, 1048576, 303611, &model);
		sample.sample_once = 237777;
		sample.sample_twice = 32870;
		gpugb_workload_observed(&sample, 1048576, 303611, &seen);
		CHECK(model.groups > 3.0e5 && model.groups < 3.3e5 && seen.groups > 1.1e6 && seen.groups < 1.2e6,
			  "a Zipf 1.0 sample: the model %.0f, with Chao1 %.0f", model.groups, seen.groups);
		gpugb_workload_observed(&planned, 1048576, 927778, &model);
		sample.sample_once = 816653;
		sample.sample_twice = 102005;
		gpugb_workload_observed(&sample, 1048576, 927778, &seen);
		CHECK(model.groups > 4.1e6 && model.groups < 4.3e6 && seen.groups >= model.groups &&
			  seen.groups < 1.02 * model.groups,
			  "a uniform sample: the model %.0f, with Chao1 %.0f", model.groups, seen.groups);
		sample.sample_once = 1000;
		sample.sample_twice = 0;
		gpugb_workload_observed(&sample, 1e6, 2000, &seen);
		CHECK(fabs(seen.groups - (2000 + 1000 * 999 / 2.0)) < 1,
			  "no group seen twice: d + f1 (f1 - 1) / 2 (%.0f)", seen.groups);
	}
	/* more rows than planned: the rows seen count */
	planned.rows = 1000;
	gpugb_workload_observed(&planned, 1e6, 10, &seen);
	CHECK(seen.rows == 1e6 && fabs(seen.groups - 10) < 1, "more rows than planned: rows %.0f, groups %.0f",
		  seen.rows, seen.groups);
	/* few groups, many rows: exactly the groups seen (a 4-group private slice must do) */
	for (int g = 1; g <= 64; g++)
	{
		gpugb_workload_observed(&planned, 1 << 20, g, &seen);
		if (seen.groups != g)
			CHECK(0, "%d groups seen in 2^20 rows -> exactly %d (%.3f)", g, g, seen.groups);
	}
	/*
	 * Fewer than planned by less than 4x: skew, not a wrong plan (Zipf 0.5
	 * over 2^26 groups: 2^22 rows, 93 % distinct, read as 2.9e7 groups by
	 * the uniform model); the plan's 2^26 stands and keeps sort.
	 */
	planned = workload(268435456.0, 268435456.0, 67108864.0, 1, 3);
	gpugb_workload_observed(&planned, 4194304.0, 0.932 * 4194304.0, &seen);
	CHECK(seen.groups == planned.groups && choose(seen).strategy == GPUGB_STRATEGY_SORT,
		  "Zipf 0.5 sample of a planned 2^26: the plan stands (%.3g, %s)", seen.groups,
		  gpugb_strategy_name(choose(seen).strategy));
	/*
	 * A skewed sample that has not seen its groups repeat: Zipf 1.0 over a
	 * planned (and true) 2^24 groups shows 1.28e6 of them in 2^22 rows, the
	 * largest 5.8 %: the plan stands and keeps sort (run F, session 20:
	 * sort 30.9 ms, shared_hash 50.5).  Unskewed, the same counts refute it.
	 */
	planned = workload(268435456.0, 268435456.0, 16777216.0, 1, 3);
	planned.hot_share = 0.058;
	gpugb_workload_observed(&planned, 4194304.0, 1.28e6, &seen);
	CHECK(seen.groups == planned.groups && choose(seen).strategy == GPUGB_STRATEGY_SORT,
		  "Zipf 1.0 sample of a planned 2^24, 5.8 %% hot: the plan stands (%.3g, %s)",
		  seen.groups, gpugb_strategy_name(choose(seen).strategy));
	planned.hot_share = 0;
	gpugb_workload_observed(&planned, 4194304.0, 1.28e6, &seen);
	CHECK(seen.groups < planned.groups / 4,
		  "...the same counts with no hot group: refuted (%.3g)", seen.groups);
	/* A wrong plan's groups repeat, skewed or not: mod(x, 1000), 13 % hot, is 1000. */
	planned = workload(1e8, 1 << 20, 1e8, 1, 1);
	planned.hot_share = 0.13;
	gpugb_workload_observed(&planned, 1e6, 1000, &seen);
	CHECK(fabs(seen.groups - 1000) < 1, "skewed mod(x, 1000): 1000 groups in 1M rows -> 1000 (%.0f)",
		  seen.groups);
	/* ...and 2^18 of them seen 16 times each on average refute a planned 1e8. */
	gpugb_workload_observed(&planned, 4194304.0, 262144.0, &seen);
	CHECK(seen.groups < 3e5, "2^18 skewed groups in 2^22 rows against a planned 1e8 -> %.3g",
		  seen.groups);
	planned = workload(268435456.0, 268435456.0, 67108864.0, 1, 3);

	/* ...but 2^21 seen in 2^22 rows (about 2.6e6 groups) refutes a planned 2e7 */
	planned.groups = 2e7;
	gpugb_workload_observed(&planned, 4194304.0, 0.5 * 4194304.0, &seen);
	CHECK(seen.groups > 2.5e6 && seen.groups < 2.8e6,
		  "2^21 groups in 2^22 rows against a planned 2e7: the count (%.3g)", seen.groups);
	/* ...and one within 4x of a planned 1e7 does not */
	planned.groups = 1e7;
	gpugb_workload_observed(&planned, 4194304.0, 0.5 * 4194304.0, &seen);
	CHECK(seen.groups == 1e7, "2^21 groups in 2^22 rows against a planned 1e7: the plan (%.3g)",
		  seen.groups);
	planned = workload(1e8, 1 << 20, 1e8, 1, 1);

	/* nothing seen: the plan */
	gpugb_workload_observed(&planned, 0, 0, &seen);
	CHECK(seen.groups == planned.groups, "nothing seen: the planned groups (%.0f)", seen.groups);
	/* a cross join's absurd row estimate must not stop the search converging (review) */
	planned.rows = 1e100;
	gpugb_workload_observed(&planned, 2e6, 1e6, &seen);
	CHECK(seen.groups > 1.2e6 && seen.groups < 1.3e6,
		  "planned 1e100 rows, 1e6 groups in 2e6 rows -> about 1.26e6 (%.3g)", seen.groups);
}

/* Skew seen at run time (kernel benchmark: Zipf 1.0 and 1.5 over 2^10..2^26 groups). */
static void
test_skew(void)
{
	GpugbWorkload w = workload(1e8, 1 << 20, 1 << 20, 1, 4);
	GpugbStrategyChoice c = choose(w);

	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH, "1M uniform groups: global_hash (%s)",
		  gpugb_strategy_name(c.strategy));
	w.hot_share = 0.05;			/* Zipf 1.0 over 1M groups: 1 / H(1M) = 7 % */
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH, "a group with 5 %% of the rows: shared_hash (%s)",
		  gpugb_strategy_name(c.strategy));
	w.hot_share = GPUGB_HOT_SHARE / 2;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH, "half the hot share: global_hash (%s)",
		  gpugb_strategy_name(c.strategy));
	w.hot_share = 0.4;			/* Zipf 1.5 */
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH, "40 %% in one group, narrow states: shared_hash (%s)",
		  gpugb_strategy_name(c.strategy));
	w.state_columns = 13;		/* count(*), 4 x sum: rows, 4 NULL counts, 4 x 2 words */
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SORT, "40 %% in one group, 13 state columns: sort (%s)",
		  gpugb_strategy_name(c.strategy));
	w.state_columns = 200;
	w.hot_share = 0.05;
	c = choose(w);
	CHECK(c.strategy != GPUGB_STRATEGY_SHARED_HASH,
		  "hot, but no shared table fits 200 state columns: not shared_hash (%s)",
		  gpugb_strategy_name(c.strategy));

	/*
	 * Groups beyond the block table raise the share needed (up to 4x):
	 * Zipf 0.5 over 2^10 groups (1.6 %) with 13 state columns (256 slots)
	 * stays global; Zipf 1.0 (13 %) goes shared; 1.6 % over groups that
	 * overflow a table only 1.5x needs 1.5 %: shared.
	 */
	w = workload(268435456.0, 268435456.0, 1024, 1, 13);
	w.hot_share = 0.016;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
		  "1.6 %% hot, 2^10 groups in a 256-slot table (4x over): global_hash (%s)",
		  gpugb_strategy_name(c.strategy));
	w.hot_share = 0.13;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SORT, "13 %% hot, 2^10 groups, 13 state columns: sort (%s)",
		  gpugb_strategy_name(c.strategy));
	w = workload(268435456.0, 268435456.0, 384, 1, 13);
	w.hot_share = 0.016;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
		  "1.6 %% hot, 384 groups in a 256-slot table (1.5x over): shared_hash (%s)",
		  gpugb_strategy_name(c.strategy));

	/*
	 * Wide states, more groups than the 256-slot table, a group of 4 % or
	 * more: sort, in L2 or beyond (kernel benchmark, session 20, Zipf 1.0,
	 * four payloads: 2^12 groups, 11 %, sort 34.8 ms against shared_hash's
	 * 47.3; 2^16, 8.5 %, 36.5 against global_hash's 56.5; 2^20, 6.9 %,
	 * 39.8 against shared_hash's 67.6).  Narrow states keep
	 * GPUGB_HOT_SHARE's rule while the table fits L2.
	 */
	w = workload(268435456.0, 268435456.0, 262144, 1, 13);
	w.hot_share = 0.076;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "7.6 %% hot, 2^18 groups, 13 state columns, table in L2: sort (%s)",
		  gpugb_strategy_name(c.strategy));
	w.groups = 65536;
	w.hot_share = 0.085;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SORT, "8.5 %% hot, 2^16 groups, 13 state columns: sort (%s)",
		  gpugb_strategy_name(c.strategy));
	w.groups = 4096;
	w.hot_share = 0.11;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SORT, "11 %% hot, 2^12 groups, 13 state columns: sort (%s)",
		  gpugb_strategy_name(c.strategy));
	w.groups = 1048576;
	w.hot_share = 0.069;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SORT,
		  "6.9 %% hot, 2^20 groups, 13 state columns, table beyond L2: sort (%s)",
		  gpugb_strategy_name(c.strategy));
	w.hot_share = 0.03;
	c = choose(w);
	CHECK(c.strategy != GPUGB_STRATEGY_SORT,
		  "3 %% hot, 2^20 groups, 13 state columns, table 2.2 x L2: not sort (%s)",
		  gpugb_strategy_name(c.strategy));
	w = workload(268435456.0, 268435456.0, 262144, 1, 4);
	w.hot_share = 0.076;
	c = choose(w);
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
		  "7.6 %% hot, 2^18 groups, 4 state columns (narrow): shared_hash (%s)",
		  gpugb_strategy_name(c.strategy));

	/*
	 * Counts and integer sums (the lean kernel), more groups than a lean
	 * table holds: Zipf 1.5 (38 %) takes SHARED_HASH's partial lean table,
	 * with one payload or four, in L2 or beyond.  Zipf 1.0 (5-13 %) takes
	 * it too while the global table stays within L2, and sort beyond
	 * (session 26: the partial table defers its cold rows), or PARTITION's
	 * lean kernel for one sum under 10 % (session 34); Zipf 0.5
	 * (under 1.6 %) the global table (H200 grids, sessions 23, 25, 26).
	 */
	for (int payloads = 1; payloads <= 4; payloads += 3)
	{
		double		groups[] = {4096, 65536, 1048576, 67108864};

		for (int g = 0; g < 4; g++)
		{
			c = choose(workload_lean(groups[g], payloads, 0.38));
			CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
				  "lean, %d payload(s), %.0f groups, 38 %% hot: shared_hash (%s)",
				  payloads, groups[g], gpugb_strategy_name(c.strategy));
			c = choose(workload_lean(groups[g], payloads, 0.11));
			CHECK(c.strategy == (g < 3 ? GPUGB_STRATEGY_SHARED_HASH : GPUGB_STRATEGY_SORT),
				  "lean, %d payload(s), %.0f groups, 11 %% hot: %s (%s)", payloads, groups[g],
				  g < 3 ? "shared_hash" : "sort (beyond L2)", gpugb_strategy_name(c.strategy));
		}
		/*
		 * Zipf 1.0 beyond L2: the partial table up to 12 x L2 (2^22 groups, 6.3 %: 4.2 x L2
		 * with one payload, 8.8 x with four), sort beyond (2^24, 5.8 %: 16 x L2 and more);
		 * one sum takes the lean partition kernel at both (session 34, calls 3 and 4: 16.2 ms
		 * against the partial table's 21.1 at 2^22; 23.1 against sort's 28.2 at 2^24).
		 */
		c = choose(workload_lean(4194304, payloads, 0.063));
		CHECK(c.strategy == (payloads == 1 ? GPUGB_STRATEGY_PARTITION : GPUGB_STRATEGY_SHARED_HASH),
			  "lean, %d payload(s), 2^22 groups, 6.3 %% hot: %s (%s)", payloads,
			  payloads == 1 ? "partition" : "shared_hash", gpugb_strategy_name(c.strategy));
		/* ...the partial table from 10 % (unmeasured between 6.3 and 38 %), and at 38 %. */
		c = choose(workload_lean(4194304, payloads, 0.11));
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
			  "lean, %d payload(s), 2^22 groups, 11 %% hot: shared_hash (%s)", payloads,
			  gpugb_strategy_name(c.strategy));
		c = choose(workload_lean(4194304, payloads, 0.38));
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
			  "lean, %d payload(s), 2^22 groups, 38 %% hot: shared_hash (%s)", payloads,
			  gpugb_strategy_name(c.strategy));
		c = choose(workload_lean(16777216, payloads, 0.058));
		CHECK(c.strategy == (payloads == 1 ? GPUGB_STRATEGY_PARTITION : GPUGB_STRATEGY_SORT),
			  "lean, %d payload(s), 2^24 groups, 5.8 %% hot: %s (%s)", payloads,
			  payloads == 1 ? "partition" : "sort", gpugb_strategy_name(c.strategy));
		/* ...where one sum takes the lean partition kernel (partition_lean_pays): 64 rows a group. */
		c = choose(workload_lean(4194304, payloads, 0.03));
		CHECK(c.strategy == (payloads == 1 ? GPUGB_STRATEGY_PARTITION : GPUGB_STRATEGY_SORT),
			  "lean, %d payload(s), 2^22 groups, 3 %% hot: %s (%s)", payloads,
			  payloads == 1 ? "partition" : "sort", gpugb_strategy_name(c.strategy));
		c = choose(workload_lean(65536, payloads, 0.005));
		CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
			  "lean, %d payload(s), 2^16 groups, 0.5 %% hot: global_hash (%s)",
			  payloads, gpugb_strategy_name(c.strategy));
	}

	/* A partial lean table pays for a group of 5 % or more, or when no check measured the skew. */
	CHECK(gpugb_lean_partial_pays(0, 65536, 2048), "skew unknown (forced SHARED_HASH): the partial lean table");
	CHECK(gpugb_lean_partial_pays(0.38, 65536, 2048), "38 %% hot: the partial lean table");
	CHECK(gpugb_lean_partial_pays(0.11, 65536, 2048), "11 %% hot: the partial lean table");
	CHECK(!gpugb_lean_partial_pays(0.03, 65536, 2048), "3 %% hot, 2^16 groups: the generic kernel");
	CHECK(!gpugb_lean_partial_pays(0.0001, 65536, 2048), "uniform, 2^16 groups: the generic kernel");
	CHECK(gpugb_lean_partial_pays(0.0001, 4096, 2048), "uniform, 4096 groups in 2048 slots: the partial lean table");
	CHECK(!gpugb_lean_partial_pays(0.0001, 4097, 2048), "uniform, 4097 groups in 2048 slots: the generic kernel");
	/* ...and auto plans it there: four payloads (one takes the one-block table), any skew. */
	for (int h = 0; h < 3; h++)
	{
		double		hot[] = {0, 0.005, 0.11};

		c = choose(workload_lean(4096, 4, hot[h]));
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
			  "lean, four payloads, 4096 groups, %.1f %% hot: shared_hash (%s)", 100 * hot[h],
			  gpugb_strategy_name(c.strategy));
	}
	c = choose(workload_lean(16384, 4, 0.005));
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH, "lean, four payloads, 16384 groups, uniform: global_hash (%s)",
		  gpugb_strategy_name(c.strategy));
}

/*
 * The one-block lean table (heuristics.c, gpugb_lean_one_block_slots): one
 * key, at most one sum, a whole table too big for two blocks an SM but
 * within one block's opt-in.  On the H200 2^12 groups take 8192 slots,
 * 229,392 bytes (8 a sum, 4 a count, 16 the key cache's, a slot, and its
 * 16 bytes of counters), within 232,448; auto then plans SHARED_HASH.
 */
static void
test_one_block_lean(void)
{
	GpugbDeviceProps a100 = h200;
	GpugbStrategyChoice c;

	a100.shared_bytes_per_block_optin = 163ll << 10;
	a100.shared_bytes_per_sm = 164ll << 10;
	CHECK(GPUGB_LEAN_TABLE_BYTES(1, 1, 1, 8192) == 229392, "8192 slots, one sum: 229,392 bytes (%lld)",
		  (long long) GPUGB_LEAN_TABLE_BYTES(1, 1, 1, 8192));
	CHECK(gpugb_lean_one_block_slots(1, 1, 4096, &h200) == 8192, "4096 groups, one sum: 8192 slots");
	CHECK(gpugb_lean_one_block_slots(0, 1, 3000, &h200) == 8192, "3000 groups, counts only: 8192 slots");
	CHECK(gpugb_lean_one_block_slots(1, 1, 2048, &h200) == 4096, "2048 groups: 4096 slots");
	CHECK(gpugb_lean_one_block_slots(1, 1, 4097, &h200) == 0, "4097 groups: 16384 slots do not fit");
	CHECK(gpugb_lean_one_block_slots(2, 1, 4096, &h200) == 0, "two sums: no one-block table");
	CHECK(gpugb_lean_one_block_slots(1, 2, 1000, &h200) == 0, "two keys: no one-block table");
	CHECK(gpugb_lean_one_block_slots(1, 0, 1, &h200) == 0, "no keys: no one-block table");
	CHECK(gpugb_lean_one_block_slots(1, 1, 4096, &a100) == 0, "A100 opt-in, 4096 groups: does not fit");
	CHECK(gpugb_lean_one_block_slots(1, 1, 2048, &a100) == 4096, "A100 opt-in, 2048 groups: 4096 slots");
	/*
	 * The fast lean kernel's wide table: one sum or counts only from 64 groups (sessions 30
	 * and 31: slower at 4-16, faster at 64-1024), two to four sums always (session 31).
	 */
	CHECK(!gpugb_lean_fast_wide_pays(1, 16), "one sum, 16 groups: the fast kernel's table stays five blocks an SM");
	CHECK(!gpugb_lean_fast_wide_pays(1, 63), "one sum, 63 groups: five blocks an SM");
	CHECK(gpugb_lean_fast_wide_pays(1, 64), "one sum, 64 groups: one wide block an SM");
	CHECK(gpugb_lean_fast_wide_pays(1, 1024), "one sum, 1024 groups: one wide block an SM");
	CHECK(!gpugb_lean_fast_wide_pays(0, 16), "counts only, 16 groups: five blocks an SM");
	CHECK(gpugb_lean_fast_wide_pays(0, 64), "counts only, 64 groups: one wide block an SM");
	CHECK(gpugb_lean_fast_wide_pays(2, 1), "two sums, one group: one wide block an SM");
	CHECK(gpugb_lean_fast_wide_pays(4, 4), "four sums, 4 groups: one wide block an SM");
	CHECK(gpugb_lean_fast_wide_pays(3, 4096), "three sums, 4096 groups: one wide block an SM");
	CHECK(gpugb_lean_one_block_slots(1, 1, (double) gpugb_lean_one_block_max_slots(1, 1, &h200) / 2, &h200) ==
		  8192, "the wide table of one sum: 8192 slots");

	for (int g = 2048; g <= 4096; g *= 2)
	{
		c = choose(workload_lean(g, 1, 0));
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH && strstr(c.reason, "one block") != NULL,
			  "lean, one payload, %d groups, skew unknown: shared_hash, one block an SM (%s: %s)", g,
			  gpugb_strategy_name(c.strategy), c.reason);
	}
	c = choose(workload_lean(8192, 1, 0));
	CHECK(strstr(c.reason, "one block") == NULL, "lean, one payload, 8192 groups: no one-block table (%s)",
		  c.reason);
	c = choose(workload_lean(4096, 4, 0));
	CHECK(strstr(c.reason, "one block") == NULL, "lean, four payloads, 4096 groups: no one-block table (%s)",
		  c.reason);
	{
		GpugbWorkload w = workload_lean(4096, 1, 0);

		w.lean_aggs = false;
		c = choose(w);
		CHECK(strstr(c.reason, "one block") == NULL, "not lean aggregates: no one-block table (%s)",
			  c.reason);
	}
}

/* SHARED_HASH's table indexed by group id (gpugb_lean_gid_pays), beyond what the keyed lean tables hold. */
static void
test_lean_gid_table(void)
{
	GpugbStrategyChoice c;

	CHECK(gpugb_lean_gid_max_groups(1, &h200) == 19370 && gpugb_lean_gid_max_groups(4, &h200) == 6456,
		  "the table indexed by group id on the H200: 19370 groups of one sum, 6456 of four (%lld, %lld)",
		  (long long) gpugb_lean_gid_max_groups(1, &h200), (long long) gpugb_lean_gid_max_groups(4, &h200));
	CHECK(gpugb_lean_gid_max_groups(0, &h200) == 0 &&
		  gpugb_lean_gid_max_groups(GPUGB_LEAN_GID_MAX_SUMS + 1, &h200) == 0,
		  "counts only, or more sums than it was measured with: none");
	CHECK(!gpugb_lean_gid_pays(1, false, 16384, GPUGB_VERY_HOT_SHARE, &h200) &&
		  gpugb_lean_gid_pays(1, false, 16384, GPUGB_VERY_HOT_SHARE - 0.01, &h200),
		  "a very hot group keeps the partial keyed table from rows looked up by row");
	CHECK(gpugb_lean_gid_pays(1, true, 16384, 0.4, &h200) && !gpugb_lean_gid_pays(2, true, 9000, 0.4, &h200),
		  "but not from one sum looked up by key word; two sums, still");
	CHECK(!gpugb_lean_gid_pays(1, true, 20000, 0, &h200), "more groups than the table holds: not by key word either");
	/* 228 kB less 32 kB for L1 and 1 kB a block: 16640 slots of 12 bytes */
	CHECK(gpugb_lean_gid_launch_slots(1, 8192, 19370, &h200) == 16384 &&
		  gpugb_lean_gid_launch_slots(1, 16384, 19370, &h200) == 16640 &&
		  gpugb_lean_gid_launch_slots(1, 18000, 19370, &h200) == 18000 &&
		  gpugb_lean_gid_launch_slots(1, 100, 19370, &h200) == 200 &&
		  gpugb_lean_gid_launch_slots(1, 8192, 10000, &h200) == 10000 &&
		  gpugb_lean_gid_launch_slots(1, 30000, 19370, &h200) == 19370,
		  "the group-id table leaves L1 32 kB where the groups expected fit so (%lld at 2^13, %lld at 2^14)",
		  (long long) gpugb_lean_gid_launch_slots(1, 8192, 19370, &h200),
		  (long long) gpugb_lean_gid_launch_slots(1, 16384, 19370, &h200));
	CHECK(gpugb_lean_one_block_slots_leaving(1, 1, 0, &h200) == gpugb_lean_one_block_max_slots(1, 1, &h200) &&
		  gpugb_lean_one_block_max_slots(1, 1, &h200) == 8192 &&
		  gpugb_lean_one_block_slots_leaving(1, 1, 32768, &h200) == 4096,
		  "one block's lean table of one sum: 8192 slots, 4096 leaving L1 32 kB (%lld)",
		  (long long) gpugb_lean_one_block_slots_leaving(1, 1, 32768, &h200));
	CHECK(gpugb_lean_one_block_slots_leaving(4, 1, GPUGB_PARTITION_L1_RESERVE_BYTES, &h200) ==
		  gpugb_lean_one_block_max_slots(4, 1, &h200) / 2 &&
		  gpugb_lean_one_block_slots_leaving(4, 1, GPUGB_PARTITION_L1_RESERVE_BYTES, &h200) >= GPUGB_MIN_KEYED_SLOTS,
		  "four sums' one-block table leaving PARTITION's L1 reserve: half the slots (%lld of %lld)",
		  (long long) gpugb_lean_one_block_slots_leaving(4, 1, GPUGB_PARTITION_L1_RESERVE_BYTES, &h200),
		  (long long) gpugb_lean_one_block_max_slots(4, 1, &h200));
	/* session 56's wins: four sums over an int32 key word, 2^22 groups and up, no very hot group */
	CHECK(gpugb_partition_l1_reserve_pays(4, true, 4194304.0, 0) &&
		  gpugb_partition_l1_reserve_pays(4, true, 67108864.0, 0.06),
		  "PARTITION's L1 reserve: four sums, int32 key, 2^22-2^26 groups, uniform to Zipf 1.0");
	/* session 59's: 2^21 won too, and Zipf draws hold a little fewer keys than drawn from */
	CHECK(gpugb_partition_l1_reserve_pays(4, true, 2097152.0, 0) &&
		  gpugb_partition_l1_reserve_pays(4, true, 4181415.0, 0.06) &&
		  gpugb_partition_l1_reserve_pays(4, true, 2080000.0, 0.07),
		  "PARTITION's L1 reserve from 2^21 groups, and for Zipf 1.0's 4,181,415 keys of 2^22");
	CHECK(!gpugb_partition_l1_reserve_pays(4, true, 1048576.0, 0) &&
		  !gpugb_partition_l1_reserve_pays(4, true, 1500000.0, 0) &&
		  !gpugb_partition_l1_reserve_pays(4, false, 4194304.0, 0) &&
		  !gpugb_partition_l1_reserve_pays(1, true, 4194304.0, 0) &&
		  !gpugb_partition_l1_reserve_pays(4, true, 4194304.0, GPUGB_VERY_HOT_SHARE),
		  "no L1 reserve at 2^20 groups, with 8-byte keys, one sum or a very hot group (its losses)");
	CHECK(gpugb_lean_gid_split_ranges(4, true, 12000, 0, &h200) == 1 &&
		  gpugb_lean_gid_split_ranges(2, true, 19370, 0, &h200) == 1 &&
		  gpugb_lean_gid_split_ranges(4, true, 6000, 0, &h200) == 0 &&
		  gpugb_lean_gid_split_ranges(4, false, 12000, 0, &h200) == 0 &&
		  gpugb_lean_gid_split_ranges(1, true, 12000, 0, &h200) == 0 &&
		  gpugb_lean_gid_split_ranges(4, true, 12000, GPUGB_VERY_HOT_SHARE, &h200) == 0,
		  "the group-id table once a sum: two to four sums by key word, past their own table, within one sum's, "
		  "no very hot group");
	/* past one sum's table: ranges of the 16640 slots that leave L1 32 kB */
	CHECK(gpugb_lean_gid_split_ranges(1, true, 19371, 0, &h200) == 2 &&
		  gpugb_lean_gid_split_ranges(1, true, 32768, 0, &h200) == 2 &&
		  gpugb_lean_gid_split_ranges(1, true, 65536, 0, &h200) == 4 &&
		  gpugb_lean_gid_split_ranges(4, true, 20000, 0, &h200) == 2 &&
		  gpugb_lean_gid_split_ranges(4, true, 65536, 0, &h200) == 0 &&
		  gpugb_lean_gid_split_ranges(2, true, 65536, 0, &h200) == 4 &&
		  gpugb_lean_gid_split_ranges(1, true, 16640.0 * GPUGB_GID_MAX_RANGES, 0, &h200) == GPUGB_GID_MAX_RANGES &&
		  gpugb_lean_gid_split_ranges(1, true, 16640.0 * GPUGB_GID_MAX_RANGES + 1, 0, &h200) == 0 &&
		  gpugb_lean_gid_split_ranges(4, true, 16640.0 * (GPUGB_GID_MAX_RANGE_PASSES / 4) + 1, 0, &h200) == 0 &&
		  gpugb_lean_gid_split_ranges(1, false, 65536, 0, &h200) == 0 &&
		  gpugb_lean_gid_split_ranges(1, true, 65536, GPUGB_VERY_HOT_SHARE, &h200) == 0 &&
		  gpugb_lean_gid_split_pays(1, true, 65536, 0, &h200),
		  "the group-id table once a sum and group range: one to four sums by key word past one sum's table, "
		  "2 ranges at 2^15, 4 at 2^16 (%d, %d), not four sums at 2^16, no very hot group, at most %d ranges and %d passes",
		  gpugb_lean_gid_split_ranges(1, true, 32768, 0, &h200), gpugb_lean_gid_split_ranges(1, true, 65536, 0, &h200),
		  GPUGB_GID_MAX_RANGES, GPUGB_GID_MAX_RANGE_PASSES);
	c = choose(workload_packed(65536, 1, 0));
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
		  "the group-id table by group range: one payload at 2^16 groups plans shared_hash (%s)",
		  gpugb_strategy_name(c.strategy));
	c = choose(workload_packed(12000, 4, 0));
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH && c.table_slots >= 32 * 12000,
		  "the group-id table once a sum: four payloads at 12000 groups plan shared_hash, an L2-sized global table "
		  "(%s, %lld)", gpugb_strategy_name(c.strategy), (long long) c.table_slots);
	CHECK(gpugb_lean_gid_launch_slots(4, 4096, 6456, &h200) == 5546,
		  "four sums at 4096 groups: 5546 slots of 36 bytes (%lld)",
		  (long long) gpugb_lean_gid_launch_slots(4, 4096, 6456, &h200));

	for (int g = 8192; g <= 16384; g *= 2)
	{
		c = choose(workload_packed(g, 1, 0));
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH && strstr(c.reason, "indexed by group id") != NULL,
			  "lean, one payload, %d groups, skew unknown: shared_hash indexed by group id (%s: %s)", g,
			  gpugb_strategy_name(c.strategy), c.reason);
	}
	c = choose(workload_packed(16384, 1, 0.38));
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH && strstr(c.reason, "indexed by group id") != NULL,
		  "one key word, one payload, 16384 groups, largest 38 %%: still indexed by group id (%s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	c = choose(workload_packed(4096, 4, 0.38));
	CHECK(strstr(c.reason, "indexed by group id") == NULL,
		  "four payloads, 4096 groups, largest 38 %%: not indexed by group id (%s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	/* From 2048 groups, one sum looked up by key word: the table indexed by group id first. */
	for (int g = 2048; g <= 8192; g *= 2)
	{
		c = choose(workload_packed(g, 1, 0));
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH && strstr(c.reason, "indexed by group id") != NULL &&
			  c.table_slots >= 64 * 16384,
			  "one payload, %d groups, no hot group: indexed by group id first, in an L2-sized table (%s, %lld slots)",
			  g, c.reason, (long long) c.table_slots);
	}
	c = choose(workload_packed(4096, 1, 0));
	CHECK(c.lean_gid_first, "4096 groups of one sum: the plan says the group-id table first (its launches may)");
	c = choose(workload_lean(4096, 1, 0));
	CHECK(!c.lean_gid_first && strstr(c.reason, "indexed by group id") == NULL,
		  "4096 groups of a sum not declared int32: the keyed table, and its launches may not take the group-id "
		  "table first (%s)", c.reason);
	{
		GpugbWorkload w = workload_packed(4096, 1, 0);

		w.nulls_expected = true;
		c = choose(w);
		CHECK(!c.lean_gid_first, "NULLs expected: not first (%s)", c.reason);
	}
	c = choose(workload_packed(1024, 1, 0));
	CHECK(!c.lean_gid_first && strstr(c.reason, "indexed by group id") == NULL, "1024 groups: the keyed table (%s)",
		  c.reason);
	c = choose(workload_packed(4096, 1, 0.10));
	CHECK(strstr(c.reason, "indexed by group id") == NULL, "4096 groups, largest 10 %%: the keyed table (%s)",
		  c.reason);
	{
		GpugbWorkload w = workload_packed(4096, 1, 0);

		w.tagged_slots_only = true;
		c = choose(w);
		CHECK(strstr(c.reason, "indexed by group id") == NULL, "tagged slots (no lookup by key word): the keyed table (%s)",
			  c.reason);
	}
	CHECK(gpugb_lean_gid_first(1, true, GPUGB_GID_FIRST_MIN_GROUPS, 0, &h200) &&
		  !gpugb_lean_gid_first(1, true, GPUGB_GID_FIRST_MIN_GROUPS - 1, 0, &h200) &&
		  !gpugb_lean_gid_first(1, true, 4096, GPUGB_GID_FIRST_MAX_HOT_SHARE, &h200) &&
		  !gpugb_lean_gid_first(2, true, 4096, 0, &h200) && !gpugb_lean_gid_first(1, false, 4096, 0, &h200) &&
		  !gpugb_lean_gid_first(1, true, 20000, 0, &h200),
		  "gpugb_lean_gid_first: one sum by key word, 2048 groups to what the table holds, no group of 5 %%");
	c = choose(workload_packed(16384, 1, 0));
	CHECK(c.table_slots >= 64 * 16384, "16384 groups indexed by group id: an L2-sized global table (%lld slots)",
		  (long long) c.table_slots);
	c = choose(workload_packed(4096, 4, 0));
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH && strstr(c.reason, "indexed by group id") != NULL,
		  "lean, four payloads, 4096 groups: shared_hash indexed by group id (%s: %s)",
		  gpugb_strategy_name(c.strategy), c.reason);
	c = choose(workload_packed(2048, 1, 0.10));
	CHECK(strstr(c.reason, "indexed by group id") == NULL,
		  "lean, one payload, 2048 groups, largest 10 %%: a keyed table holds them (%s)", c.reason);
	c = choose(workload_packed(32768, 1, 0));
	CHECK(strstr(c.reason, "indexed by group id, in 2 group ranges") != NULL,
		  "lean, one payload, 32768 groups: more than the table holds, two group ranges (%s)", c.reason);
	c = choose(workload_packed(20000, 4, 0));
	CHECK(strstr(c.reason, "indexed by group id, in 2 group ranges") != NULL,
		  "lean, four payloads, 20000 groups: more than the table of one sum holds, two group ranges (%s)", c.reason);
	c = choose(workload_packed(16640.0 * GPUGB_GID_MAX_RANGES + 1, 1, 0));
	CHECK(strstr(c.reason, "indexed by group id") == NULL,
		  "lean, one payload, more groups than its most group ranges hold: not indexed by group id (%s)", c.reason);
	c = choose(workload_packed(16640.0 * (GPUGB_GID_MAX_RANGE_PASSES / 4) + 1, 4, 0));
	CHECK(strstr(c.reason, "indexed by group id") == NULL,
		  "lean, four payloads, more groups than its most passes hold: not indexed by group id (%s)", c.reason);
	{
		GpugbWorkload w = workload_packed(16384, 1, 0);

		w.hot_share = 0.4;
		w.key_words = 2;
		c = choose(w);
		CHECK(strstr(c.reason, "indexed by group id") == NULL,
			  "two key words (looked up by row) and a group of 40 %% of the rows: not (%s)", c.reason);
		w = workload_packed(16384, 1, 0);
		w.nulls_expected = true;
		c = choose(w);
		CHECK(strstr(c.reason, "indexed by group id") == NULL, "NULLs expected: not (%s)", c.reason);
		w = workload_packed(16384, 1, 0);
		w.lean_gid_off = true;
		c = choose(w);
		CHECK(strstr(c.reason, "indexed by group id") == NULL, "spec.lean_gid_off: not (%s)", c.reason);
		w = workload_lean(16384, 1, 0);
		c = choose(w);
		CHECK(strstr(c.reason, "indexed by group id") == NULL,
			  "summed inputs not declared int32 (each row might take the generic update): not (%s)",
			  c.reason);
		w = workload_packed(16384, 1, 0);
		w.lean_aggs = false;
		c = choose(w);
		CHECK(strstr(c.reason, "indexed by group id") == NULL, "not lean aggregates: not (%s)", c.reason);
	}
}

static void
test_names(void)
{
	for (int s = 0; s < GPUGB_N_STRATEGIES; s++)
		CHECK(gpugb_strategy_from_name(gpugb_strategy_name((GpugbStrategy) s)) == s,
			  "name round trip: %s", gpugb_strategy_name((GpugbStrategy) s));
	CHECK(strcmp(gpugb_strategy_name(GPUGB_STRATEGY_GLOBAL_HASH), "global_hash") == 0 &&
		  strcmp(gpugb_strategy_name(GPUGB_STRATEGY_SHARED_HASH), "shared_hash") == 0 &&
		  strcmp(gpugb_strategy_name(GPUGB_STRATEGY_SORT), "sort") == 0 &&
		  strcmp(gpugb_strategy_name(GPUGB_STRATEGY_PARTITION), "partition") == 0 &&
		  strcmp(gpugb_strategy_name(GPUGB_STRATEGY_PRIVATE_HASH), "private_hash") == 0,
		  "names are gpugb.strategy's values");
	CHECK(gpugb_strategy_from_name("auto") == -1 && gpugb_strategy_from_name("") == -1,
		  "unknown names -> -1");
	CHECK(strcmp(gpugb_strategy_name(GPUGB_N_STRATEGIES), "unknown") == 0 &&
		  strcmp(gpugb_strategy_name((GpugbStrategy) -1), "unknown") == 0,
		  "out-of-range strategies are \"unknown\"");
}

static GpugbGroupBySpec
spec_of(int n_keys, int n_aggs, const GpugbAggSpec *aggs)
{
	GpugbGroupBySpec spec;

	memset(&spec, 0, sizeof(spec));
	spec.n_keys = n_keys;
	spec.n_inputs = 8;
	spec.n_aggs = n_aggs;
	memcpy(spec.aggs, aggs, n_aggs * sizeof(GpugbAggSpec));
	spec.stride_rows = 1 << 20;
	return spec;
}

static void
test_state_columns(void)
{
	static const GpugbAggSpec star[] = {{GPUGB_AGG_COUNT_STAR, -1}};
	static const GpugbAggSpec star_twice[] = {{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_COUNT_STAR, -1}};
	static const GpugbAggSpec counts[] = {{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_COUNT, 0},
	{GPUGB_AGG_COUNT, 1}, {GPUGB_AGG_COUNT, 0}};
	/* count(*), sum(x), avg(x) (= SUM_INT + its count), min(x), max(x) of an integer */
	static const GpugbAggSpec ints[] = {{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_SUM_INT, 0},
	{GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_MIN_INT, 0}, {GPUGB_AGG_MAX_INT, 0}};
	/* sum(f) of a float with its hidden max over the derived |f| input 1 */
	static const GpugbAggSpec floats[] = {{GPUGB_AGG_SUM_FLOAT, 0}, {GPUGB_AGG_MAX_FLOAT, 1},
	{GPUGB_AGG_MIN_FLOAT, 0}, {GPUGB_AGG_SUM_FLOAT, 0}};
	/* variance(x): SUM_INT(x), hidden SUM_INT over x^2's hi and lo inputs */
	static const GpugbAggSpec variance[] = {{GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_SUM_INT, 1},
	{GPUGB_AGG_SUM_INT, 2}};
	/*
	 * variance(f) of a float: COUNT(f), hidden MAX_FLOAT over |f| (input 1),
	 * SHIFT_FLOAT and the two shifted sums over the finite f (input 2)
	 */
	static const GpugbAggSpec fvariance[] = {{GPUGB_AGG_COUNT, 0}, {GPUGB_AGG_MAX_FLOAT, 1},
	{GPUGB_AGG_SHIFT_FLOAT, 2}, {GPUGB_AGG_SUM_SHIFTED, 2}, {GPUGB_AGG_SUM_SHIFTED_SQ, 2}};
	GpugbGroupBySpec spec;

	spec = spec_of(1, 1, star);
	CHECK(gpugb_spec_state_columns(&spec) == 1, "count(*): 1 state column (%d)",
		  gpugb_spec_state_columns(&spec));
	spec = spec_of(1, 2, star_twice);
	CHECK(gpugb_spec_state_columns(&spec) == 1, "count(*) twice: 1 (%d)", gpugb_spec_state_columns(&spec));
	spec = spec_of(1, 4, counts);
	CHECK(gpugb_spec_state_columns(&spec) == 3, "count(*), count(a), count(b), count(a): 3 (%d)",
		  gpugb_spec_state_columns(&spec));
	spec = spec_of(1, 5, ints);
	CHECK(gpugb_spec_state_columns(&spec) == 6,
		  "count(*), sum(x), avg(x), min(x), max(x): rows, count x, sum x (2), min, max = 6 (%d)",
		  gpugb_spec_state_columns(&spec));
	spec = spec_of(1, 4, floats);
	CHECK(gpugb_spec_state_columns(&spec) == 6,
		  "sum(f), max(|f|), min(f), sum(f): rows, NULLs f, sum, min, NULLs |f|, max = 6 (%d)",
		  gpugb_spec_state_columns(&spec));
	spec = spec_of(1, 3, variance);
	CHECK(gpugb_spec_state_columns(&spec) == 10,
		  "variance(x): rows + 3 inputs x (NULLs + 2 words) = 10 (%d)",
		  gpugb_spec_state_columns(&spec));
	spec = spec_of(1, 5, fvariance);
	CHECK(gpugb_spec_state_columns(&spec) == 10,
		  "variance(f): rows, NULLs f, NULLs |f|, max, NULLs finite f, K, 2 pairs = 10 (%d)",
		  gpugb_spec_state_columns(&spec));
}

static void
test_spec_workload(void)
{
	static const GpugbAggSpec aggs[] = {{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_SUM_INT, 0}};
	GpugbGroupBySpec spec = spec_of(2, 2, aggs);
	GpugbWorkload w;
	GpugbStrategyChoice c;

	spec.estimated_rows = 1e8;
	spec.estimated_groups = 100000000;
	gpugb_spec_workload(&spec, &w);
	CHECK(w.rows == 1e8 && w.rows_per_launch == (1 << 20) && w.groups == 1e8 &&
		  w.key_words == 2 && w.state_columns == 4,
		  "spec workload: rows %.0f, per launch %.0f, groups %.0f, key words %d, state columns %d",
		  w.rows, w.rows_per_launch, w.groups, w.key_words, w.state_columns);
	CHECK(w.lean_aggs && w.lean_columns == 2, "count(*) and an integer sum over 2 keys: lean, 2 columns (%d)",
		  w.lean_columns);
	CHECK(!w.nulls_expected, "no NULLs in the statistics: none expected");
	spec.estimated_nulls = true;
	gpugb_spec_workload(&spec, &w);
	CHECK(w.nulls_expected, "NULLs in the statistics (spec.estimated_nulls): expected");
	spec.estimated_nulls = false;
	{
		static const GpugbAggSpec not_lean[] = {{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_SUM_INT, 0},
		{GPUGB_AGG_MIN_INT, 0}};
		static const GpugbAggSpec five_sums[] = {{GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_SUM_INT, 1},
			{GPUGB_AGG_SUM_INT, 2}, {GPUGB_AGG_SUM_INT, 3}, {GPUGB_AGG_SUM_INT, 4},
		{GPUGB_AGG_SUM_INT, 0}, {GPUGB_AGG_COUNT, 4}};
		GpugbGroupBySpec other = spec_of(2, 3, not_lean);
		GpugbWorkload ow;

		gpugb_spec_workload(&other, &ow);
		CHECK(!ow.lean_aggs, "a MIN beside them: not lean");
		other = spec_of(3, 2, aggs);
		gpugb_spec_workload(&other, &ow);
		CHECK(!ow.lean_aggs, "three keys (no key cache holds them): not lean");
		other = spec_of(0, 2, aggs);
		gpugb_spec_workload(&other, &ow);
		CHECK(ow.lean_aggs, "no keys: lean");
		other = spec_of(1, 4, five_sums);
		gpugb_spec_workload(&other, &ow);
		CHECK(ow.lean_aggs && ow.lean_columns == 5, "four sums of four inputs: lean, 5 columns (%d)",
			  ow.lean_columns);
		/* the kernel benchmark's four payloads at 2^10 groups (session 23, run 7) */
		other.estimated_rows = 1 << 28;
		other.estimated_groups = 1024;
		gpugb_spec_workload(&other, &ow);
		c = choose(ow);
		CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH,
			  "... and at 1024 groups a full lean table: shared_hash (got %s: %s)",
			  gpugb_strategy_name(c.strategy), c.reason);
		other = spec_of(1, 7, five_sums);
		gpugb_spec_workload(&other, &ow);
		CHECK(!ow.lean_aggs, "sums of five inputs: not lean");

		/* The planner's statistics' skew (skew_estimate.c) is the planned hot share. */
		other = spec_of(1, 2, aggs);
		other.estimated_rows = 1 << 28;
		other.estimated_groups = 65536;
		gpugb_spec_workload(&other, &ow);
		c = choose(ow);
		CHECK(ow.hot_share == 0 && c.strategy == GPUGB_STRATEGY_GLOBAL_HASH,
			  "2^16 groups, skew unknown: global_hash (%s)", gpugb_strategy_name(c.strategy));
		other.estimated_hot_share = 0.38;
		gpugb_spec_workload(&other, &ow);
		c = choose(ow);
		CHECK(ow.hot_share == 0.38 && c.strategy == GPUGB_STRATEGY_SHARED_HASH,
			  "2^16 groups, statistics say 38 %% in one: shared_hash from the start (%s)",
			  gpugb_strategy_name(c.strategy));
		other.n_keys = 0;
		gpugb_spec_workload(&other, &ow);
		CHECK(ow.hot_share == 0, "no keys: no skew (%.2f)", ow.hot_share);
	}
	spec.estimated_rows = 5000;
	gpugb_spec_workload(&spec, &w);
	CHECK(w.rows_per_launch == 5000, "fewer rows than a stride: a launch has them all (%.0f)",
		  w.rows_per_launch);
	spec.estimated_rows = 0;
	gpugb_spec_workload(&spec, &w);
	CHECK(w.rows == (1 << 20) && w.rows_per_launch == (1 << 20), "unknown rows: one stride (%.0f)", w.rows);
	CHECK(w.slot_bytes == 8, "two key words: tagged 8-byte slots (%d)", w.slot_bytes);
	spec.n_keys = 1;
	gpugb_spec_workload(&spec, &w);
	CHECK(w.slot_bytes == 16, "one key word: 16-byte pair slots (%d)", w.slot_bytes);
	spec.key_fits_int32 = true;
	gpugb_spec_workload(&spec, &w);
	CHECK(w.slot_bytes == 8, "one int32 key word: 8-byte keyed slots (%d)", w.slot_bytes);
	CHECK(w.key_fits_int32, "one int32 key word: the workload says so (sort sorts by it)");
	{
		/* Sums of int32 words: only where every summed input is declared (PARTITION's packed rows). */
		GpugbGroupBySpec sums = spec;
		GpugbWorkload sw;

		sums.n_aggs = 3;
		sums.aggs[0].op = GPUGB_AGG_COUNT_STAR;
		sums.aggs[0].input = -1;
		sums.aggs[1].op = GPUGB_AGG_SUM_INT;
		sums.aggs[1].input = 0;
		sums.aggs[2].op = GPUGB_AGG_SUM_INT;
		sums.aggs[2].input = 1;
		sums.n_inputs = 2;
		sums.inputs_fit_int32 = 1;
		gpugb_spec_workload(&sums, &sw);
		CHECK(sw.lean_aggs && sw.lean_columns == 3 && !sw.sums_fit_int32,
			  "two sums, one of an input not declared int32: not packable (%d %d %d)", sw.lean_aggs,
			  sw.lean_columns, sw.sums_fit_int32);
		sums.inputs_fit_int32 = 3;
		gpugb_spec_workload(&sums, &sw);
		CHECK(sw.sums_fit_int32, "two sums of inputs declared int32: packable");
	}
	spec.key_fits_int32 = false;
	gpugb_spec_workload(&spec, &w);
	CHECK(!w.key_fits_int32, "one key that is not an int32: the workload says so");
	spec.tagged_slots_only = true;
	gpugb_spec_workload(&spec, &w);
	CHECK(w.slot_bytes == 8, "tagged_slots_only: 8-byte slots (%d)", w.slot_bytes);
	spec.tagged_slots_only = false;
	spec.n_keys = 0;
	spec.estimated_groups = 7;
	gpugb_spec_workload(&spec, &w);
	CHECK(w.groups == 1 && w.key_words == 0, "no GROUP BY: one group (%.0f)", w.groups);

	/* forced: the strategy as asked, the sizes as auto's, the reason says so */
	spec = spec_of(1, 2, aggs);
	spec.estimated_rows = 1e6;
	spec.estimated_groups = 100;
	gpugb_spec_choose(&spec, -1, &c);
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH, "auto, 100 groups: shared_hash (%s)",
		  gpugb_strategy_name(c.strategy));
	gpugb_spec_choose(&spec, GPUGB_STRATEGY_SORT, &c);
	CHECK(c.strategy == GPUGB_STRATEGY_SORT && strstr(c.reason, "forced by gpugb.strategy") &&
		  strstr(c.reason, "shared_hash") && c.table_slots >= 1024,
		  "forced sort: %s", c.reason);

	/* the run-time check: mod(x, 100) estimated at 1e8 groups */
	spec.estimated_rows = 1e8;
	spec.estimated_groups = 100000000;
	gpugb_spec_choose(&spec, -1, &c);
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH, "1e8 estimated groups: global_hash (%s)",
		  gpugb_strategy_name(c.strategy));
	gpugb_spec_recheck(&spec, 1 << 20, 100, 0, 0, 0, &c);
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH, "... 100 seen in the first stride: shared_hash (%s)",
		  gpugb_strategy_name(c.strategy));
	gpugb_spec_recheck(&spec, 1 << 20, 3, 0, 0, 0, &c);
	CHECK(c.strategy == GPUGB_STRATEGY_SHARED_HASH, "... 3 seen in the first stride: shared_hash, "
		  "counts and sums only (%s)", gpugb_strategy_name(c.strategy));
	/*
	 * Groups seen once and twice count but under spec.observed_uniform_only:
	 * 100 groups, 90 of them seen once, read as at least Chao1's
	 * d + f1 (f1 - 1) / 2 = 4105, and as 100 under it (c.groups is the
	 * estimate).
	 */
	gpugb_spec_recheck(&spec, 1 << 20, 100, 0, 90, 0, &c);
	CHECK(c.groups >= 4105, "... 90 of 100 seen once: Chao1's %.0f groups", c.groups);
	spec.observed_uniform_only = true;
	gpugb_spec_recheck(&spec, 1 << 20, 100, 0, 90, 0, &c);
	CHECK(c.groups < 101, "... under spec.observed_uniform_only: %.0f groups", c.groups);
	spec.observed_uniform_only = false;
	{
		static const GpugbAggSpec with_min[] = {{GPUGB_AGG_COUNT_STAR, -1}, {GPUGB_AGG_MIN_INT, 0}};
		GpugbGroupBySpec min_spec = spec_of(1, 2, with_min);

		min_spec.estimated_rows = 1e8;
		min_spec.estimated_groups = 100000000;
		gpugb_spec_recheck(&min_spec, 1 << 20, 3, 0, 0, 0, &c);
		CHECK(c.strategy == GPUGB_STRATEGY_PRIVATE_HASH, "... with a min, 3 seen: private_hash (%s)",
			  gpugb_strategy_name(c.strategy));
	}
	gpugb_spec_recheck(&spec, 1 << 20, 1 << 20, 0, 0, 0, &c);
	CHECK(c.strategy == GPUGB_STRATEGY_GLOBAL_HASH, "... all distinct: stays global_hash (%s)",
		  gpugb_strategy_name(c.strategy));

	/* what cannot run: shared without room for the states, sort without keys */
	CHECK(gpugb_spec_runnable(&spec, GPUGB_STRATEGY_SORT) == GPUGB_STRATEGY_SORT &&
		  gpugb_spec_runnable(&spec, GPUGB_STRATEGY_PARTITION) == GPUGB_STRATEGY_PARTITION &&
		  gpugb_spec_runnable(&spec, GPUGB_STRATEGY_SHARED_HASH) == GPUGB_STRATEGY_SHARED_HASH &&
		  gpugb_spec_runnable(&spec, GPUGB_STRATEGY_GLOBAL_HASH) == GPUGB_STRATEGY_GLOBAL_HASH &&
		  gpugb_spec_runnable(&spec, GPUGB_STRATEGY_PRIVATE_HASH) == GPUGB_STRATEGY_PRIVATE_HASH,
		  "with keys and few states every strategy runs");
	/* before the run-time check partition runs as global_hash (session 45), the others as themselves */
	spec.allow_switch = true;
	CHECK(gpugb_spec_first_runnable(&spec, GPUGB_STRATEGY_PARTITION) == GPUGB_STRATEGY_GLOBAL_HASH &&
		  gpugb_spec_first_runnable(&spec, GPUGB_STRATEGY_GLOBAL_HASH) == GPUGB_STRATEGY_GLOBAL_HASH &&
		  gpugb_spec_first_runnable(&spec, GPUGB_STRATEGY_SHARED_HASH) == GPUGB_STRATEGY_SHARED_HASH &&
		  gpugb_spec_first_runnable(&spec, GPUGB_STRATEGY_SORT) == GPUGB_STRATEGY_SORT,
		  "auto: partition's first launches run as global_hash, the others as they are");
	spec.partition_sort_probe = true;
	CHECK(gpugb_spec_first_runnable(&spec, GPUGB_STRATEGY_PARTITION) == GPUGB_STRATEGY_SORT,
		  "auto under spec.partition_sort_probe: partition's first launches run as sort");
	spec.partition_sort_probe = false;
	spec.partition_own_probe = true;
	CHECK(gpugb_spec_first_runnable(&spec, GPUGB_STRATEGY_PARTITION) == GPUGB_STRATEGY_PARTITION &&
		  gpugb_spec_first_runnable(&spec, GPUGB_STRATEGY_SORT) == GPUGB_STRATEGY_SORT,
		  "auto under spec.partition_own_probe: partition's first launches run as partition");
	spec.partition_own_probe = false;
	spec.allow_switch = false;
	CHECK(gpugb_spec_first_runnable(&spec, GPUGB_STRATEGY_PARTITION) == GPUGB_STRATEGY_PARTITION,
		  "forced partition (no check to come) runs as partition from the first launch");
	spec.n_keys = 0;
	spec.allow_switch = true;
	CHECK(gpugb_spec_first_runnable(&spec, GPUGB_STRATEGY_PARTITION) == GPUGB_STRATEGY_GLOBAL_HASH,
		  "partition without GROUP BY: global_hash from the first launch");
	spec.allow_switch = false;
	CHECK(gpugb_spec_runnable(&spec, GPUGB_STRATEGY_SORT) == GPUGB_STRATEGY_GLOBAL_HASH,
		  "sort without GROUP BY runs as global_hash");
	CHECK(gpugb_spec_runnable(&spec, GPUGB_STRATEGY_PARTITION) == GPUGB_STRATEGY_GLOBAL_HASH,
		  "partition without GROUP BY runs as global_hash");
	spec.n_keys = 1;
	spec.n_aggs = 0;
	for (int i = 0; i < 32; i++)
	{
		spec.aggs[spec.n_aggs++] = (GpugbAggSpec) {GPUGB_AGG_SUM_INT, i};
		spec.aggs[spec.n_aggs++] = (GpugbAggSpec) {GPUGB_AGG_MIN_INT, i};
	}
	CHECK(gpugb_spec_state_columns(&spec) == 129 &&
		  gpugb_spec_runnable(&spec, GPUGB_STRATEGY_SHARED_HASH) == GPUGB_STRATEGY_GLOBAL_HASH,
		  "shared_hash with 129 state columns (no shared table fits) runs as global_hash");
	CHECK(gpugb_spec_runnable(&spec, GPUGB_STRATEGY_PRIVATE_HASH) == GPUGB_STRATEGY_GLOBAL_HASH,
		  "private_hash with 129 state columns runs as global_hash (through shared_hash)");
	CHECK(gpugb_spec_runnable(&spec, GPUGB_STRATEGY_PARTITION) == GPUGB_STRATEGY_PARTITION,
		  "partition with 129 state columns still runs (no block table: global updates)");
}

/*
 * SHARED_HASH's block table per launch (gpugb_plan_shared_table): keyed
 * where the keys fit a cache entry and no group is hot, sized to the
 * groups, widened where two blocks still fit an SM, never more than a
 * block may have.
 */
static void
test_shared_table_plan(void)
{
	GpugbSharedTablePlan plan;
	int64_t		planned = gpugb_shared_slots_for(3, &h200);	/* 1 payload: 1024 */
	GpugbDeviceProps no_optin = h200;

	no_optin.shared_bytes_per_block_optin = 0;

	gpugb_plan_shared_table(planned, 3, 1, 16, 0, &h200, &plan);
	CHECK(plan.keyed && plan.slots == GPUGB_MIN_KEYED_SLOTS,
		  "16 groups, 1 key: keyed, at the smallest keyed size (%d, %lld)", plan.keyed,
		  (long long) plan.slots);
	gpugb_plan_shared_table(planned, 3, 2, 200, 0, &h200, &plan);
	CHECK(plan.keyed && plan.slots == 1024, "200 groups, 2 keys: keyed, 4x the groups (%d, %lld)",
		  plan.keyed, (long long) plan.slots);
	gpugb_plan_shared_table(planned, 3, 1, 16, 0.3, &h200, &plan);
	CHECK(!plan.keyed && plan.slots == planned,
		  "a group with 30 %% of the rows: the planned gid-keyed table (%d, %lld)", plan.keyed,
		  (long long) plan.slots);
	gpugb_plan_shared_table(planned, 3, 0, 1, 0, &h200, &plan);
	CHECK(!plan.keyed, "no keys: gid-keyed");
	gpugb_plan_shared_table(planned, 3, 3, 16, 0, &h200, &plan);
	CHECK(!plan.keyed, "3 keys: no cache entry holds them, gid-keyed");
	gpugb_plan_shared_table(planned, 3, 1, 1024, 0, &h200, &plan);
	CHECK(plan.keyed && plan.slots == 2048 && 2 * (plan.bytes + 1024) <= h200.shared_bytes_per_sm,
		  "1024 groups, 1 payload: widened to 2048 slots, two blocks an SM (%d, %lld, %lld)",
		  plan.keyed, (long long) plan.slots, (long long) plan.bytes);
	gpugb_plan_shared_table(planned, 3, 1, 16384, 0, &h200, &plan);
	CHECK(!plan.keyed && plan.slots == planned,
		  "16384 groups: no keyed table fits two blocks an SM, gid-keyed (%d, %lld)", plan.keyed,
		  (long long) plan.slots);
	gpugb_plan_shared_table(planned, 3, 1, 1024, 0, &no_optin, &plan);
	CHECK(!plan.keyed && plan.bytes <= no_optin.shared_bytes_per_block,
		  "no opt-in: a keyed table beyond 48 kB falls back (%d, %lld)", plan.keyed,
		  (long long) plan.bytes);
	CHECK(gpugb_private_cache_bytes(18) ==
		  GPUGB_KEY_CACHE_BYTES(GPUGB_KEY_CACHE_MAX_KEYS, gpugb_private_cache_slots(18)),
		  "PRIVATE_HASH's cache budget is the bytes of a two-key cache");

	/* Every shape: a power of two, within a block's limit, keyed only where allowed. */
	{
		const double groups[] = {0, 1, 16, 300, 1000, 5000, 1e6, 1e12, 1.0 / 0.0, 0.0 / 0.0};
		const GpugbDeviceProps *devices[] = {&h200, &no_optin};
		int			bad = 0;

		for (int d = 0; d < 2; d++)
			for (int cols = 1; cols <= 60; cols++)
			{
				int64_t		slots = gpugb_shared_slots_for(cols, devices[d]);
				int64_t		limit = devices[d]->shared_bytes_per_block_optin > 0 ?
					devices[d]->shared_bytes_per_block_optin : devices[d]->shared_bytes_per_block;

				if (slots == 0)
					continue;
				for (int k = 0; k <= 3; k++)
					for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
						for (int hot = 0; hot < 2; hot++)
						{
							gpugb_plan_shared_table(slots, cols, k, groups[g], hot ? 0.5 : 0,
													devices[d], &plan);
							if (plan.slots <= 0 || (plan.slots & (plan.slots - 1)) != 0 ||
								plan.bytes > limit ||
								(plan.keyed && (k == 0 || k > GPUGB_KEY_CACHE_MAX_KEYS || hot)) ||
								(!plan.keyed && plan.slots != slots) ||
								(plan.keyed && plan.slots < 64))
								bad++;
						}
			}
		CHECK(bad == 0, "every shape's plan: power-of-two slots within a block's limit (%d bad)",
			  bad);
	}
}

/*
 * fastmod.h against C's %: every dividend near 0, the int32 limits and
 * powers of two, and a pseudo-random sample, for divisors of every
 * magnitude and sign (1, -1, powers of two and their neighbours, INT32_MIN
 * and INT32_MAX, Query B's 10^k, random ones).
 */
static void
test_fastmod(void)
{
	int64_t		divisors[200];
	int			n_divisors = 0;
	uint64_t	state = 12345;
	long long	compared = 0,
				wrong = 0;

	for (int64_t d = -20; d <= 20; d++)
		if (d != 0)
			divisors[n_divisors++] = d;
	for (int b = 1; b < 31; b += 3)
	{
		divisors[n_divisors++] = ((int64_t) 1 << b) - 1;
		divisors[n_divisors++] = (int64_t) 1 << b;
		divisors[n_divisors++] = -(((int64_t) 1 << b) + 1);
	}
	for (int64_t p = 100; p <= 1000000000; p *= 10)
		divisors[n_divisors++] = p;
	divisors[n_divisors++] = INT32_MAX;
	divisors[n_divisors++] = INT32_MIN;
	divisors[n_divisors++] = INT32_MIN + 1;
	while (n_divisors < 200)
	{
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		divisors[n_divisors++] = (int32_t) (state >> 32) == 0 ? 7 : (int32_t) (state >> 32);
	}
	for (int i = 0; i < n_divisors; i++)
	{
		GpugbFastMod f = gpugb_fastmod_prepare(divisors[i]);

		for (int j = 0; j < 20000; j++)
		{
			int64_t		x;

			if (j < 2000)
				x = j - 1000;
			else if (j < 2100)
				x = INT32_MIN + (j - 2000);
			else if (j < 2200)
				x = INT32_MAX - (j - 2100);
			else if (j < 2400)
				x = (j & 1 ? -1 : 1) * (((int64_t) 1 << ((j - 2200) / 2 % 31)) + (j % 3) - 1);
			else
			{
				state = state * 6364136223846793005ull + 1442695040888963407ull;
				x = (int32_t) (state >> 32);
			}
			compared++;
			if (gpugb_fastmod_s32(x, &f) != x % divisors[i])
			{
				if (wrong++ < 5)
					printf("# fastmod: %lld %% %lld gave %lld\n", (long long) x,
						   (long long) divisors[i], (long long) gpugb_fastmod_s32(x, &f));
			}
		}
	}
	CHECK(wrong == 0, "fastmod equals C's %% on %lld int32 dividends and divisors (%lld wrong)",
		  compared, wrong);
	CHECK(gpugb_fastmod_prepare(0).divisor == 0 &&
		  gpugb_fastmod_prepare((int64_t) INT32_MAX + 1).divisor == 0,
		  "fastmod: a zero divisor or one beyond int32 is not prepared");
}

int
main(void)
{
	test_fastmod();
	test_shared_placement();
	test_global_and_sort();
	test_private_placement();
	test_partition();
	test_fill_factor();
	test_shared_slots();
	test_observed();
	test_names();
	test_state_columns();
	test_skew();
	test_one_block_lean();
	test_lean_gid_table();
	test_spec_workload();
	test_shared_table_plan();
	printf("1..%d\n", checks);
	if (failures)
	{
		printf("# %d of %d checks failed\n", failures, checks);
		return 1;
	}
	printf("# all %d checks passed\n", checks);
	return 0;
}
