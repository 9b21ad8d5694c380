/*
 * selftest.h
 *    Shared declarations of the device selftest: the case description, the
 *    generated data, and the CPU reference it is compared against.
 */
#ifndef GPUGB_SELFTEST_H
#define GPUGB_SELFTEST_H

#include <stdint.h>

#include "../../cuda/gpugb_device.h"

typedef __int128 i128;

typedef struct CaseSpec
{
	const char *name;
	uint64_t	seed;
	int64_t		nrows;
	int			n_keys;
	int64_t		g;				/* distinct key tuples drawn from (before NULLs) */
	double		zipf;			/* 0: uniform */
	double		key_null;		/* fraction of NULL key values */
	double		in_null;		/* fraction of NULL inputs */
	int			big_ints;		/* inputs near INT64_MIN/MAX */
	int			specials;		/* NaN, +-Inf, -0.0 among floats */
	int64_t		est_groups;		/* 0: g */
	int64_t		stride_rows;	/* 0: 1 << 20 */
	int			partial;		/* random fill sizes below stride_rows */
	int64_t		mem_limit;
	GpugbStatus expect;			/* GPUGB_OK or the status it must fail with */
	int			expect_grow;	/* stats must show grows and retries */
	int			perf;			/* print rows/s */
	int			ordered;		/* ordered output: 1 INT order keys, 2 the first as FLOAT, 3 two counts first, 4 two values first */
	int			remap;			/* remaps of min/max between strides (RankPlan) */
	int64_t		check_groups_min;	/* auto: the run-time check must count this many groups */
	int			append;			/* rows arrive by gpugb_groupby_append from registered slots */
	/*
	 * One key of int32 values, INT32_MIN, INT32_MAX, -1 and 0 among them: the
	 * spec declares key_fits_int32 and the table keeps keys in its slots
	 * (cuda/hash_table.cuh); the other one-key cases' keys are int64-wide
	 * (INT64_MIN, INT64_MAX, -1, 0, the pair slots' salt and, from 6 groups,
	 * GPUGB_DEFERRED_EMPTY_KEY among them), and their tables keep keys in
	 * 16-byte pair slots.
	 */
	int			int32_keys;
	/*
	 * Lean aggregates (LEAN_AGGS, not aggs): COUNT and integer SUM only, the
	 * launches SHARED_HASH's lean kernel takes (cuda/lean_kernel.cuh).  1:
	 * the sums of in0, mostly int32-wide, some rows beyond; 2: also SUM of
	 * in2, never int32-wide, so every row takes the generic update; 3:
	 * COUNT of in1 and in3 beside the sum of in0; 4: counts only (lean_aggs).
	 * 5 is not lean: SUM, MIN and MAX of in0, for PARTITION's moved rows
	 * (partition_only cases), whose three value columns share one input.
	 * 6: the sums of in0 to in3 (four sums, no COUNT(*)); 7: COUNT(*) and
	 * the sums of in0 to in2 (three), with narrow_in13 for PARTITION's
	 * packed rows of four and three sums.
	 */
	int			lean;
	/* Only set by name (.field =): the cases' positional initializers end before these. */
	int			in_null_only;	/* 0: NULLs in every input; i + 1: in input i only */
	/*
	 * The words under NULL inputs keep their drawn values instead of 0.  The
	 * executor writes 0 there (src/strides.c), but a kernel must not rely on
	 * it: the lean kernel adds 0 for a NULL itself.
	 */
	int			null_words;
	/*
	 * More groups than a lean table holds: the lean kernel's partial table
	 * is certain only under a forced SHARED_HASH; auto takes it for a hot
	 * group or few groups more than it holds (gpugb_lean_partial_pays).
	 */
	int			partial_lean;
	/*
	 * Each group's rows consecutive, the groups in a scrambled order (not
	 * the hottest first), as a table stored in key order delivers them: a
	 * block's key cache fills with the first keys it meets, and whole warps
	 * of a later hot key miss it (the lean kernel's deferred rows).
	 */
	int			clustered;
	/*
	 * Auto plans GLOBAL_HASH with the skew unknown (as every case: the spec's
	 * estimated_hot_share is 0): its launches before the run-time check must
	 * probe with the lean kernel's partial table (groupby.cu, probes_with_lean),
	 * which they do only where more than two strides are expected.  -1: two
	 * strides or fewer, so no probe, whatever the strategy.
	 */
	int			lean_probe;
	/*
	 * 1: a forced SHARED_HASH, and auto, must take the one-block lean table
	 * (cuda/launch.cu, lean_one_block_slots).  -1: NULL inputs, so they must
	 * not, and must take the partial table where they run SHARED_HASH.
	 */
	int			lean_one_block;
	/*
	 * 1: more groups than a keyed lean table holds, as many as SHARED_HASH's
	 * table indexed by group id does (cuda/launch.cu, lean_gid_slots): a
	 * forced SHARED_HASH must take it, and auto must plan SHARED_HASH (its
	 * summed inputs declared int32).  2: a forced SHARED_HASH must take it;
	 * a summed input is not declared int32, so auto need not plan it.
	 * -1: NULL inputs, so no launch may.
	 */
	int			lean_gid;
	/*
	 * 1: every launch of the table indexed by group id must look its rows
	 * up by their key word (one key word without NULLs, one sum:
	 * cuda/launch.cu, lean_gid_by_word), and a forced SHARED_HASH must take
	 * one.  2: auto must take one too (a very hot group, which no longer
	 * keeps auto from the table: gpugb_lean_gid_pays' word_key).  -1: no
	 * launch may (NULL keys, more sums, or a sum not declared int32, whose
	 * plan keeps the keyed tables: GpugbAggParams.lean_gid_first).
	 */
	int			gid_word;
	/*
	 * The group-id table once a sum (src/heuristics.c,
	 * gpugb_lean_gid_split_pays): 1, a forced SHARED_HASH must take it; 2,
	 * auto too; -1: no launch may.
	 */
	int			gid_split;
	/*
	 * ...and group range (gpugb_lean_gid_split_ranges, more than one
	 * range: groups that not even one sum's table holds): 1, a forced
	 * SHARED_HASH must take it; 2, auto too.  Such a case sets gid_split too.
	 */
	int			gid_range;
	/*
	 * 1: spec.lean_gid_off, so that a case written for the keyed lean
	 * tables at 2048 groups or more with one sum keeps them (since session
	 * 54 such launches take the table indexed by group id first:
	 * gpugb_lean_gid_first).
	 */
	int			keyed_only;
	/*
	 * 1: under --lean-deferred, a forced SHARED_HASH must take the one-block
	 * table that looks its ids up at the flush (cuda/lean_deferred_kernel.cuh;
	 * cuda/launch.cu, lean_deferred_chunk_rows).  -1: no launch may (a summed
	 * input not declared int32).  Without the option none may.
	 */
	int			lean_deferred;
	/*
	 * 1: in2 holds small integers instead of values that overflow int64 on
	 * every row, so that a lean case of two sums (lean 2: in0 and in2) adds
	 * its rows in the block table's sum columns, not in the generic path.
	 */
	int			narrow_in2;
	/*
	 * 1: in0 holds integers of int32 (no extremes), so the spec declares it
	 * in inputs_fit_int32 as it does every input whose words fit, and
	 * PARTITION moves it in 4 bytes (cuda/partition_move.cu).
	 */
	int			narrow_in0;
	/*
	 * 1: in1 and in3 hold small integers instead of float bits (so their
	 * float aggregates mean nothing: only for lean sets 6 and 7, which sum
	 * them), declared in inputs_fit_int32: with narrow_in0 and narrow_in2,
	 * PARTITION packs three or four sums (cuda/partition_move.cu).
	 */
	int			narrow_in13;
	/*
	 * 1: the case runs only with PARTITION forced.  Its rows are for
	 * PARTITION's moved rows (cuda/partition_move.cu); the lean checks of the
	 * other strategies assume shapes these cases do not keep to.
	 */
	int			partition_only;
	/*
	 * 1: with PARTITION forced on the device (and not --partition-cub-sort
	 * or --partition-unpacked), a launch's packed rows must have moved in
	 * one scatter (cuda/partition_scatter.cuh): the case is shaped for it.
	 */
	int			expect_scatter;
	int			expect_overflow;	/* device, PARTITION forced, not --partition-probe-unbounded: a lean launch must overflow and retry its rest */
	int			expect_direct;	/* device, PARTITION forced, rows left packed, not --no-partition-direct: groups must have been numbered without lookups */
	int			expect_gathered;	/* device, PARTITION forced, none of the options that keep rows packed: the direct launch must gather (GPUGB_GATHERED_KEY_WORDS) */
	/*
	 * 1: with PARTITION forced on the device, the case first runs with the
	 * rows' move off (spec.partition_rows_only) to measure its peak device
	 * memory, then again under a limit of that peak and 1 MB, where the move's
	 * scratch (cuda/partition_move.cu) is refused: the launch must sort row
	 * numbers into the generic kernel's partitions, and the results must
	 * still be right (run_case).  rows_only is that first run's.
	 */
	int			refuse_move;
	int			rows_only;
	/*
	 * N > 0: with PARTITION forced on the device, PARTITION's scratch is
	 * refused from the handle's launch N on
	 * (spec.partition_scratch_refused_from): the other stride set's launch,
	 * in flight with rows left packed and retries to come, loses its
	 * scratch but those rows (gpugb_scratch_unavailable).  The case must
	 * retry rows and switch to GLOBAL_HASH, with the right results.
	 */
	int			scratch_refused_from;
	/*
	 * 1: with PARTITION forced on the device, the table must not grow: rows
	 * retried with room to spare in it (an 8-byte key equal to the deferred
	 * block table's empty word, GPUGB_DEFERRED_EMPTY_KEY) are no reason to.
	 */
	int			expect_no_grow;
} CaseSpec;

#define N_INPUTS 4
#define N_AGGS 15

/* The aggregates every case runs (all GpugbAggOps; SUM_INT(in0) twice). */
extern const GpugbAggSpec aggs[N_AGGS];

/* The aggregates of the lean cases (CaseSpec.lean 1 and 2). */
#define N_LEAN_AGGS 4
#define N_LEAN_SPECS 7
extern const GpugbAggSpec lean_aggs[N_LEAN_SPECS][N_LEAN_AGGS];

typedef struct Data
{
	int64_t		nrows;
	int			n_keys;
	int64_t    *key[GPUGB_MAX_KEYS];
	uint8_t    *knull[GPUGB_MAX_KEYS];
	int64_t    *in[N_INPUTS];
	uint8_t    *innull[N_INPUTS];
} Data;

typedef struct Ref
{
	int			n_keys;
	int64_t		n_groups,
				max_groups;
	int64_t    *keys;			/* [g * n_keys + k] */
	uint32_t   *mask;
	int64_t		cap;
	int64_t    *table;			/* group index or -1 */
	int64_t    *cnt_star,
			   *cnt_in[N_INPUTS];
	i128	   *sum_in[N_INPUTS];	/* each input's words as integers (in1's and in3's: lean sets 6 and 7) */
	int64_t    *min0,
			   *max0;
	double	   *fsum,
			   *fabs_;
	uint64_t   *fmin,
			   *fmax;
	uint8_t    *seen;
	/*
	 * in3 (finite floats, large mean): two-pass Sxx in long double, about
	 * the group's first value (exact differences, so the mean is accurate)
	 */
	double	   *vfirst;
	long double *vsum,			/* sum(x - first) */
			   *vsxx;
} Ref;

/*
 * Remap cases (cs->remap > 0) run remap_aggs instead: input 2 carries the
 * words of a text column, ranks in an order that grows.  The rows come in
 * cs->remap + 1 phases; each phase knows more texts, and between phases
 * gpugb_groupby_remap_values takes the old ranks to the new ones.  Every
 * text is known in the last phase, so input 0, each row's rank in that
 * final order, gives the reference's min0 and max0.
 */
#define N_RAGGS 7
#define MAX_REMAPS 8

extern const GpugbAggSpec remap_aggs[N_RAGGS];

typedef struct RankPlan
{
	int			n;				/* remaps */
	int64_t		bound[MAX_REMAPS];	/* remap p comes before row bound[p] */
	int64_t    *map[MAX_REMAPS];	/* phase p's ranks to phase p + 1's */
	int64_t		map_len[MAX_REMAPS];
} RankPlan;

uint64_t	rnd(void);
uint64_t	rnd_state(void);
void		rnd_restore(uint64_t state);
void	   *xcalloc(size_t n, size_t size);
void		generate(const CaseSpec *cs, Data *d);
void		free_data(Data *d);
void		generate_ranks(const CaseSpec *cs, Data *d, RankPlan *rp);
void		free_ranks(RankPlan *rp);
uint64_t	float_encode(uint64_t bits);
uint64_t	float_decode(uint64_t enc);
void		build_reference(const Data *d, const CaseSpec *cs, Ref *r);
int64_t		ref_lookup(Ref *r, const int64_t *vals, uint32_t mask, int insert);
void		free_reference(Ref *r);

#endif							/* GPUGB_SELFTEST_H */
