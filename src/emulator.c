/*-------------------------------------------------------------------------
 * emulator.c
 *    A CPU implementation of the device API (gpugb_device.h), selected by
 *    gpugb.emulate_device.
 *
 * It exists so that machines without a GPU (CI) run gpugb's whole host
 * pipeline — planning, stride filling, finalization into PostgreSQL types,
 * HAVING, EXPLAIN ANALYZE — against the same contract the CUDA module
 * implements, with the same value encoding and the same semantics (int128
 * sums, PostgreSQL's float ordering for min/max, NULL keys as one group).
 * It is a test double, not a product path: it is single-threaded and
 * simple, and it never runs unless the GUC asks for it.  The kernels
 * themselves are proven on a real GPU by test/device/selftest.c.
 *
 * Strategies: it aggregates the same way whatever spec.strategy says (every
 * strategy gives the same groups and states), but it makes the device's
 * strategy decisions and reports them in the stats: it starts with
 * spec.strategy (or GLOBAL_HASH where that cannot run) and, when
 * spec.allow_switch and there are GROUP BY keys, re-decides once before the
 * third stride from the rows, groups and largest group seen (strategy.c, as
 * the CUDA module does).
 *
 * Ordered output (spec.n_order): finish sorts the groups as cuda/order.cu
 * does, with the same key order and ties in group-id order, so CI proves
 * the plans that rely on it.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "common/hashfn.h"
#include "utils/memutils.h"

#include "aggcatalog.h"
#include "device_ops.h"
#include "gpugb_fsum.h"
#include "gpugb.h"
#include "strategy.h"

typedef struct EmuGroupBy
{
	MemoryContext cxt;			/* everything below lives here */
	GpugbGroupBySpec spec;
	GpugbStride stride;			/* one buffer set: work is synchronous */
	bool		appended;		/* stride filled by emu_append since next_stride */
	/*
	 * Append tickets: 0 free, 1 issued, 2 polled once.  A ticket is done
	 * on its second poll (or a waiting one), so the leader's handling of
	 * copies still in flight runs in CI too.
	 */
	uint8	   *tickets;
	int			n_tickets;
	int64		n_groups;
	int64		max_groups;		/* capacity of the dense arrays */
	uint64		slot_mask;
	int64	   *slots;			/* group id + 1, 0 = empty */
	int64	   *keys[GPUGB_MAX_KEYS];
	uint32	   *null_masks;
	int64	   *count[GPUGB_MAX_AGGS];
	int64	   *value[GPUGB_MAX_AGGS];
	int64	   *value_hi[GPUGB_MAX_AGGS];
	int64	   *group_rows;		/* rows per group, as the device's count column 0 */
	int			shift_agg[GPUGB_MAX_AGGS];	/* SUM_SHIFTED*: the SHIFT_FLOAT of its input */
	bool		strategy_checked;
	bool		finished;		/* groups ordered (spec.n_order), no more rows */
	GpugbStats	stats;
	int64		reserved;		/* bytes reserved in gpugb.max_device_memory */
} EmuGroupBy;

/* Murmur3's 64-bit finalizer, as the device uses. */
static inline uint64
fmix64(uint64 k)
{
	k ^= k >> 33;
	k *= UINT64CONST(0xff51afd7ed558ccd);
	k ^= k >> 33;
	k *= UINT64CONST(0xc4ceb9fe1a85ec53);
	k ^= k >> 33;
	return k;
}

/* Live emulator handles, reported by gpugb_memory_in_use() like CUDA's. */
static int	emu_live_handles = 0;
/* Bytes "registered" (emu_host_register), reported as pinned like CUDA's. */
static int64 emu_registered_bytes = 0;

int
gpugb_emulator_live_handles(void)
{
	return emu_live_handles;
}

int64
gpugb_emulator_registered_bytes(void)
{
	return emu_registered_bytes;
}

static GpugbStatus
emu_probe(void)
{
	return GPUGB_OK;
}

static const char *emu_error = "";

static const char *
emu_last_error(void)
{
	return emu_error;
}

static const char *
emu_description(void)
{
	return "CPU emulator of the gpugb device (gpugb.emulate_device)";
}

/* Order-preserving encoding of doubles, NaN above +Infinity, as on the device. */
static uint64
float_order_key(double d)
{
	uint64		bits;

	if (isnan(d))
		d = NAN;
	memcpy(&bits, &d, sizeof(bits));
	return (bits & UINT64CONST(0x8000000000000000)) ? ~bits : bits | UINT64CONST(0x8000000000000000);
}

/*
 * What the CUDA module would need on the device: two stride buffer sets and
 * a table at 50 % fill, so gpugb.device_memory_limit behaves alike.
 */
static int64
emulated_bytes(const GpugbGroupBySpec *spec, int64 max_groups)
{
	int64		stride_bytes = 2 * spec->stride_rows * 9 * (spec->n_keys + spec->n_inputs);
	int64		group_bytes = 16 + 9 * spec->n_keys + 24 * spec->n_aggs;

	return stride_bytes + max_groups * group_bytes;
}

/*
 * Takes the handle's emulated device memory to what max_groups needs,
 * within gpugb.device_memory_limit and the shared gpugb.max_device_memory.
 */
static bool
reserve_for(const GpugbGroupBySpec *spec, int64 *reserved, int64 max_groups)
{
	int64		needed = emulated_bytes(spec, max_groups);

	if (spec->device_memory_limit > 0 && needed > spec->device_memory_limit)
	{
		emu_error = "gpugb.device_memory_limit exceeded (emulated)";
		return false;
	}
	if (needed > *reserved && !gpugb_budget_reserve(needed - *reserved))
	{
		emu_error = "gpugb.max_device_memory: other queries hold the memory (emulated)";
		return false;
	}
	*reserved = Max(*reserved, needed);
	return true;
}

static void
init_group(EmuGroupBy *gb, int64 g)
{
	gb->group_rows[g] = 0;
	for (int a = 0; a < gb->spec.n_aggs; a++)
	{
		gb->count[a][g] = 0;
		gb->value_hi[a][g] = 0;
		switch (gb->spec.aggs[a].op)
		{
			case GPUGB_AGG_MIN_INT:
				gb->value[a][g] = PG_INT64_MAX;
				break;
			case GPUGB_AGG_MAX_INT:
				gb->value[a][g] = PG_INT64_MIN;
				break;
			case GPUGB_AGG_MIN_FLOAT:
				gb->value[a][g] = gpugb_double_to_word(NAN);
				break;
			case GPUGB_AGG_MAX_FLOAT:
				gb->value[a][g] = gpugb_double_to_word(-INFINITY);
				break;
			case GPUGB_AGG_SUM_FLOAT:
				/* -0.0 is the additive identity: a lone -0 sums to -0, as in PG */
				gb->value[a][g] = gpugb_double_to_word(-0.0);
				break;
			case GPUGB_AGG_SHIFT_FLOAT:
				gb->value[a][g] = (int64) GPUGB_SHIFT_UNSET;
				break;
			default:
				gb->value[a][g] = 0;
		}
	}
}

static bool
grow(EmuGroupBy *gb)
{
	int64		new_max = gb->max_groups * 2;
	uint64		new_slots = (uint64) new_max * 2;

	if (!reserve_for(&gb->spec, &gb->reserved, new_max))
		return false;

	for (int k = 0; k < gb->spec.n_keys; k++)
		gb->keys[k] = repalloc_huge(gb->keys[k], new_max * sizeof(int64));
	gb->null_masks = repalloc_huge(gb->null_masks, new_max * sizeof(uint32));
	gb->group_rows = repalloc_huge(gb->group_rows, new_max * sizeof(int64));
	for (int a = 0; a < gb->spec.n_aggs; a++)
	{
		gb->count[a] = repalloc_huge(gb->count[a], new_max * sizeof(int64));
		gb->value[a] = repalloc_huge(gb->value[a], new_max * sizeof(int64));
		gb->value_hi[a] = repalloc_huge(gb->value_hi[a], new_max * sizeof(int64));
	}
	pfree(gb->slots);
	gb->slots = palloc_extended(new_slots * sizeof(int64), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	gb->slot_mask = new_slots - 1;
	gb->max_groups = new_max;
	gb->stats.table_grows++;
	gb->stats.table_slots = new_slots;

	for (int64 g = 0; g < gb->n_groups; g++)
	{
		uint64		h = gb->null_masks[g];

		for (int k = 0; k < gb->spec.n_keys; k++)
			h = hash_combine64(h, fmix64((uint64) gb->keys[k][g]));
		for (h &= gb->slot_mask; gb->slots[h] != 0; h = (h + 1) & gb->slot_mask)
			;
		gb->slots[h] = g + 1;
	}
	return true;
}

static int64
find_group(EmuGroupBy *gb, const GpugbStride *s, int64 row)
{
	uint32		mask = 0;
	uint64		h;

	if (gb->spec.n_keys == 0)
		return 0;
	for (int k = 0; k < gb->spec.n_keys; k++)
		if (s->key_has_nulls[k] && s->key_nulls[k][row])
			mask |= 1u << k;
	h = mask;
	for (int k = 0; k < gb->spec.n_keys; k++)
		h = hash_combine64(h, fmix64((uint64) s->key_values[k][row]));
	for (h &= gb->slot_mask;; h = (h + 1) & gb->slot_mask)
	{
		int64		g = gb->slots[h] - 1;
		bool		same = true;

		if (g < 0)
			break;
		if (gb->null_masks[g] != mask)
			continue;
		for (int k = 0; k < gb->spec.n_keys && same; k++)
			same = gb->keys[k][g] == s->key_values[k][row];
		if (same)
			return g;
	}
	if (gb->n_groups == gb->max_groups)
	{
		if (!grow(gb))
			return -1;
		return find_group(gb, s, row);
	}
	gb->slots[h] = gb->n_groups + 1;
	for (int k = 0; k < gb->spec.n_keys; k++)
		gb->keys[k][gb->n_groups] = s->key_values[k][row];
	gb->null_masks[gb->n_groups] = mask;
	init_group(gb, gb->n_groups);
	return gb->n_groups++;
}

static void
accumulate(EmuGroupBy *gb, int a, int64 g, int64 w)
{
	switch (gb->spec.aggs[a].op)
	{
		case GPUGB_AGG_COUNT_STAR:
		case GPUGB_AGG_COUNT:
			break;
		case GPUGB_AGG_SUM_INT:
			{
				int128		sum = ((int128) gb->value_hi[a][g] << 64) | (uint64) gb->value[a][g];

				sum += w;
				gb->value[a][g] = (int64) (uint64) sum;
				gb->value_hi[a][g] = (int64) (sum >> 64);
				break;
			}
		case GPUGB_AGG_SUM_FLOAT:
			gb->value[a][g] = gpugb_double_to_word(gpugb_word_to_double(gb->value[a][g]) + gpugb_word_to_double(w));
			break;
		case GPUGB_AGG_MIN_INT:
			gb->value[a][g] = Min(gb->value[a][g], w);
			break;
		case GPUGB_AGG_MAX_INT:
			gb->value[a][g] = Max(gb->value[a][g], w);
			break;
		case GPUGB_AGG_MIN_FLOAT:
			if (gb->count[a][g] == 0 ||
				float_order_key(gpugb_word_to_double(w)) < float_order_key(gpugb_word_to_double(gb->value[a][g])))
				gb->value[a][g] = isnan(gpugb_word_to_double(w)) ? gpugb_double_to_word(NAN) : w;
			break;
		case GPUGB_AGG_MAX_FLOAT:
			if (gb->count[a][g] == 0 ||
				float_order_key(gpugb_word_to_double(w)) > float_order_key(gpugb_word_to_double(gb->value[a][g])))
				gb->value[a][g] = isnan(gpugb_word_to_double(w)) ? gpugb_double_to_word(NAN) : w;
			break;
		case GPUGB_AGG_SHIFT_FLOAT:
			/* the group's first input claims the shift */
			if (gb->value[a][g] == (int64) GPUGB_SHIFT_UNSET)
				gb->value[a][g] = w;
			break;
		case GPUGB_AGG_SUM_SHIFTED:
		case GPUGB_AGG_SUM_SHIFTED_SQ:
			{
				int			s = gb->shift_agg[a];
				double		hi,
							lo,
							sum_hi = gpugb_word_to_double(gb->value[a][g]),
							sum_lo = gpugb_word_to_double(gb->value_hi[a][g]);

				if (gb->value[s][g] == (int64) GPUGB_SHIFT_UNSET)
					gb->value[s][g] = w;
				gpugb_fsum_term(gpugb_word_to_double(w), gpugb_word_to_double(gb->value[s][g]),
								gb->spec.aggs[a].op == GPUGB_AGG_SUM_SHIFTED_SQ, &hi, &lo);
				gpugb_fsum_add(&sum_hi, &sum_lo, hi, lo);
				gb->value[a][g] = gpugb_double_to_word(sum_hi);
				gb->value_hi[a][g] = gpugb_double_to_word(sum_lo);
				break;
			}
	}
	gb->count[a][g]++;
}

static GpugbStatus
emu_create(const GpugbGroupBySpec *spec, GpugbGroupBy **out)
{
	MemoryContext cxt;
	MemoryContext old;
	EmuGroupBy *gb;
	int64		reserved = 0;

	/*
	 * Owned by the handle alone, like the CUDA module's memory: a child of
	 * the query context would already be gone when the executor's cleanup
	 * callback destroys the handle (children are deleted before callbacks).
	 */
	cxt = AllocSetContextCreate(TopMemoryContext, "gpugb emulator",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	gb = palloc0(sizeof(EmuGroupBy));

	gb->cxt = cxt;
	gb->spec = *spec;
	for (int a = 0; a < spec->n_aggs; a++)
	{
		gb->shift_agg[a] = -1;
		if (spec->aggs[a].op != GPUGB_AGG_SUM_SHIFTED && spec->aggs[a].op != GPUGB_AGG_SUM_SHIFTED_SQ)
			continue;
		for (int b = 0; b < spec->n_aggs; b++)
			if (spec->aggs[b].op == GPUGB_AGG_SHIFT_FLOAT && spec->aggs[b].input == spec->aggs[a].input)
				gb->shift_agg[a] = b;
		if (gb->shift_agg[a] < 0)
		{
			MemoryContextSwitchTo(old);
			MemoryContextDelete(cxt);
			emu_error = "invalid argument: a shifted sum without a SHIFT_FLOAT over its input";
			return GPUGB_INVALID_ARGUMENT;
		}
	}
	for (int k = 0; k < spec->n_keys; k++)
	{
		gb->stride.key_values[k] = palloc_extended(spec->stride_rows * sizeof(int64), MCXT_ALLOC_HUGE);
		gb->stride.key_nulls[k] = palloc_extended(spec->stride_rows, MCXT_ALLOC_HUGE);
	}
	for (int i = 0; i < spec->n_inputs; i++)
	{
		gb->stride.input_values[i] = palloc_extended(spec->stride_rows * sizeof(int64), MCXT_ALLOC_HUGE);
		gb->stride.input_nulls[i] = palloc_extended(spec->stride_rows, MCXT_ALLOC_HUGE);
	}
	/* Start small so that tests exercise growth. */
	gb->max_groups = 512;
	gb->slot_mask = 1023;
	gb->slots = palloc0(1024 * sizeof(int64));
	gb->null_masks = palloc(gb->max_groups * sizeof(uint32));
	gb->group_rows = palloc(gb->max_groups * sizeof(int64));
	for (int k = 0; k < spec->n_keys; k++)
		gb->keys[k] = palloc(gb->max_groups * sizeof(int64));
	for (int a = 0; a < spec->n_aggs; a++)
	{
		gb->count[a] = palloc(gb->max_groups * sizeof(int64));
		gb->value[a] = palloc(gb->max_groups * sizeof(int64));
		gb->value_hi[a] = palloc(gb->max_groups * sizeof(int64));
	}
	gb->stats.table_slots = 1024;
	gb->stats.strategy_planned = spec->strategy;
	gb->stats.strategy_used = gpugb_spec_first_runnable(spec, spec->strategy);
	gb->stats.strategy_switches = 0;
	gb->stats.groups_at_switch_check = -1;
	if (spec->n_keys == 0)
	{
		init_group(gb, 0);
		gb->n_groups = 1;
	}
	MemoryContextSwitchTo(old);
	/* Reserved last: an ERROR in the allocations above leaves nothing reserved. */
	if (!reserve_for(spec, &reserved, 512))
	{
		MemoryContextDelete(cxt);
		return GPUGB_OUT_OF_MEMORY;
	}
	gb->reserved = reserved;
	emu_live_handles++;
	*out = (GpugbGroupBy *) gb;
	return GPUGB_OK;
}

/*
 * Run-time correction, when the device makes it: as the first stride set
 * comes round again (before the third stride), from the rows and groups of
 * the first two strides and the largest group's share of those rows; never
 * at finish, where no stride is left to use it.
 */
static void
recheck_strategy(EmuGroupBy *gb)
{
	GpugbStrategyChoice choice;
	GpugbStrategy next;
	int64		largest = 0,
				once = 0,
				twice = 0;

	gb->strategy_checked = true;
	/* As the device's count summary (gpugb_count_summary_kernel) of count column 0. */
	for (int64 g = 0; g < gb->n_groups; g++)
	{
		largest = Max(largest, gb->group_rows[g]);
		once += gb->group_rows[g] == 1;
		twice += gb->group_rows[g] == 2;
	}
	gpugb_spec_recheck(&gb->spec, (double) gb->stats.rows, (double) gb->n_groups,
					   gb->stats.rows > 0 ? (double) largest / gb->stats.rows : 0,
					   (double) once, (double) twice, &choice);
	gb->stats.groups_at_switch_check = gb->n_groups;
	next = gpugb_spec_runnable(&gb->spec, choice.strategy);
	if (next != gb->stats.strategy_used)
	{
		gb->stats.strategy_used = next;
		gb->stats.strategy_switches++;
	}
}

static GpugbStatus
emu_next_stride(GpugbGroupBy *handle, GpugbStride **stride)
{
	EmuGroupBy *gb = (EmuGroupBy *) handle;

	if (gb->stats.strides == 2 && !gb->strategy_checked && gb->spec.allow_switch &&
		gb->spec.n_keys > 0)
		recheck_strategy(gb);
	/* as the CUDA module hands a stride out: empty, no NULLs */
	gb->appended = false;
	gb->stride.nrows = 0;
	memset(gb->stride.key_has_nulls, 0, sizeof(gb->stride.key_has_nulls));
	memset(gb->stride.input_has_nulls, 0, sizeof(gb->stride.input_has_nulls));
	*stride = &gb->stride;
	return GPUGB_OK;
}

/* The emulator's memory is host memory: registering only counts the bytes. */
static GpugbStatus
emu_host_register(void *ptr, size_t bytes)
{
	emu_registered_bytes += bytes;
	return GPUGB_OK;
}

static void
emu_host_unregister(void *ptr, size_t bytes)
{
	emu_registered_bytes -= bytes;
}

/* One column's null bytes, as cuda/append.cu writes them. */
static void
emu_append_nulls(uint8 *dst, bool *has_nulls, int64 at, const uint8 *src, bool src_has_nulls,
				 int64 n)
{
	if (src_has_nulls)
	{
		if (!*has_nulls)
			memset(dst, 0, at);
		memcpy(dst + at, src, n);
		*has_nulls = true;
	}
	else if (*has_nulls)
		memset(dst + at, 0, n);
}

/* gpugb_groupby_append: the copy is made at once; the ticket says so later. */
static GpugbStatus
emu_append(GpugbGroupBy *handle, GpugbStride *stride, const GpugbStride *src, int *ticket)
{
	EmuGroupBy *gb = (EmuGroupBy *) handle;
	int64		at = stride->nrows;
	int64		n = src->nrows;
	int			t;

	*ticket = -1;
	if (stride != &gb->stride || (at > 0 && !gb->appended) ||
		n < 0 || n > gb->spec.stride_rows - at)
	{
		emu_error = "invalid argument: append to a stride filled on the host or beyond it";
		return GPUGB_INVALID_ARGUMENT;
	}
	if (n == 0)
		return GPUGB_OK;
	gb->appended = true;
	for (int k = 0; k < gb->spec.n_keys; k++)
	{
		memcpy(stride->key_values[k] + at, src->key_values[k], n * sizeof(int64));
		emu_append_nulls(stride->key_nulls[k], &stride->key_has_nulls[k], at,
						 src->key_nulls[k], src->key_has_nulls[k], n);
	}
	for (int i = 0; i < gb->spec.n_inputs; i++)
	{
		memcpy(stride->input_values[i] + at, src->input_values[i], n * sizeof(int64));
		emu_append_nulls(stride->input_nulls[i], &stride->input_has_nulls[i], at,
						 src->input_nulls[i], src->input_has_nulls[i], n);
	}
	stride->nrows += n;

	for (t = 0; t < gb->n_tickets && gb->tickets[t] != 0; t++)
		;
	if (t == gb->n_tickets)
	{
		int			grown = Max(16, gb->n_tickets * 2);
		MemoryContext old = MemoryContextSwitchTo(gb->cxt);

		gb->tickets = gb->tickets == NULL ? palloc(grown) : repalloc_huge(gb->tickets, grown);
		MemoryContextSwitchTo(old);
		memset(gb->tickets + gb->n_tickets, 0, grown - gb->n_tickets);
		gb->n_tickets = grown;
	}
	gb->tickets[t] = 1;
	*ticket = t;
	return GPUGB_OK;
}

static GpugbStatus
emu_append_done(GpugbGroupBy *handle, int ticket, bool wait, bool *done)
{
	EmuGroupBy *gb = (EmuGroupBy *) handle;

	*done = false;
	if (ticket == -1)
	{
		*done = true;
		return GPUGB_OK;
	}
	if (ticket < 0 || ticket >= gb->n_tickets || gb->tickets[ticket] == 0)
	{
		emu_error = "invalid argument: not a ticket in use";
		return GPUGB_INVALID_ARGUMENT;
	}
	if (!wait && gb->tickets[ticket] == 1)
	{
		gb->tickets[ticket] = 2;
		return GPUGB_OK;
	}
	gb->tickets[ticket] = 0;
	*done = true;
	return GPUGB_OK;
}

static GpugbStatus
emu_submit(GpugbGroupBy *handle, GpugbStride *s)
{
	EmuGroupBy *gb = (EmuGroupBy *) handle;
	MemoryContext old = MemoryContextSwitchTo(gb->cxt);

	for (int64 row = 0; row < s->nrows; row++)
	{
		int64		g = find_group(gb, s, row);

		if (g < 0)
		{
			MemoryContextSwitchTo(old);
			return GPUGB_OUT_OF_MEMORY;
		}
		gb->group_rows[g]++;
		for (int a = 0; a < gb->spec.n_aggs; a++)
		{
			int			in = gb->spec.aggs[a].input;

			if (in >= 0 && s->input_has_nulls[in] && s->input_nulls[in][row])
				continue;
			accumulate(gb, a, g, in >= 0 ? s->input_values[in][row] : 0);
		}
	}
	gb->stats.strides++;
	gb->stats.rows += s->nrows;
	gb->stats.bytes_to_device += s->nrows * 9 * (gb->spec.n_keys + gb->spec.n_inputs);
	MemoryContextSwitchTo(old);
	return GPUGB_OK;
}

/*
 * Ordered output, as cuda/order.cu sorts: the word of an order key as
 * unsigned bits in PostgreSQL's order (order_kernels.cuh's
 * gpugb_order_word), complemented for DESC; NULLs first or last; an
 * aggregate's count as an int64.
 */
static uint64
order_word(int64 word, GpugbOrderKind kind)
{
	uint64		u = (uint64) word;
	const uint64 sign = UINT64CONST(0x8000000000000000);

	if (kind == GPUGB_ORDER_FLOAT)
	{
		if (isnan(gpugb_word_to_double(word)))
			return ~UINT64CONST(0);
		if (u == sign)
			u = 0;				/* -0 = 0 */
		return (u & sign) ? ~u : u | sign;
	}
	return u ^ sign;
}

static int
order_cmp(const void *pa, const void *pb, void *arg)
{
	const EmuGroupBy *gb = (const EmuGroupBy *) arg;
	int64		a = *(const int64 *) pa;
	int64		b = *(const int64 *) pb;

	for (int o = 0; o < gb->spec.n_order; o++)
	{
		const GpugbOrderKey *key = &gb->spec.order[o];
		bool		na,
					nb;
		uint64		ua,
					ub;

		if (key->by_count)
		{
			/* an aggregate's count: never NULL, an int64 */
			int64		ca = gb->count[key->agg][a];
			int64		cb = gb->count[key->agg][b];

			if (ca != cb)
				return (ca < cb) != key->descending ? -1 : 1;
			continue;
		}
		if (key->by_value)
		{
			/* an aggregate's value: NULL without a non-NULL input; a 128-bit sum */
			int			g = key->agg;
			int128		va,
						vb;

			na = gb->count[g][a] == 0;
			nb = gb->count[g][b] == 0;
			if (na != nb)
				return (na == key->nulls_first) ? -1 : 1;
			if (na)
				continue;
			va = gb->spec.aggs[g].op == GPUGB_AGG_SUM_INT ?
				((int128) gb->value_hi[g][a] << 64) | (uint64) gb->value[g][a] : gb->value[g][a];
			vb = gb->spec.aggs[g].op == GPUGB_AGG_SUM_INT ?
				((int128) gb->value_hi[g][b] << 64) | (uint64) gb->value[g][b] : gb->value[g][b];
			if (va != vb)
				return (va < vb) != key->descending ? -1 : 1;
			continue;
		}
		na = (gb->null_masks[a] >> key->key) & 1;
		nb = (gb->null_masks[b] >> key->key) & 1;
		if (na != nb)
			return (na == key->nulls_first) ? -1 : 1;
		if (na)
			continue;
		ua = order_word(gb->keys[key->key][a], key->kind);
		ub = order_word(gb->keys[key->key][b], key->kind);
		if (key->descending)
		{
			ua = ~ua;
			ub = ~ub;
		}
		if (ua != ub)
			return ua < ub ? -1 : 1;
	}
	/* ties in group-id order, as the device's stable sort leaves them */
	return a < b ? -1 : a > b;
}

/* Puts column[0 .. n) in the order of perm, through scratch. */
static void
permute_column(int64 *column, const int64 *perm, int64 n, int64 *scratch)
{
	for (int64 i = 0; i < n; i++)
		scratch[i] = column[perm[i]];
	memcpy(column, scratch, n * sizeof(int64));
}

static void
order_groups(EmuGroupBy *gb)
{
	int64		n = gb->n_groups;
	int64	   *perm;
	int64	   *scratch;
	uint32	   *masks;

	if (gb->spec.n_order <= 0 || gb->spec.n_keys == 0 || n < 2)
		return;
	perm = palloc_extended(n * sizeof(int64), MCXT_ALLOC_HUGE);
	scratch = palloc_extended(n * sizeof(int64), MCXT_ALLOC_HUGE);
	masks = palloc_extended(n * sizeof(uint32), MCXT_ALLOC_HUGE);
	for (int64 g = 0; g < n; g++)
		perm[g] = g;
	qsort_arg(perm, n, sizeof(int64), order_cmp, gb);
	for (int k = 0; k < gb->spec.n_keys; k++)
		permute_column(gb->keys[k], perm, n, scratch);
	for (int a = 0; a < gb->spec.n_aggs; a++)
	{
		permute_column(gb->count[a], perm, n, scratch);
		permute_column(gb->value[a], perm, n, scratch);
		permute_column(gb->value_hi[a], perm, n, scratch);
	}
	permute_column(gb->group_rows, perm, n, scratch);
	for (int64 i = 0; i < n; i++)
		masks[i] = gb->null_masks[perm[i]];
	memcpy(gb->null_masks, masks, n * sizeof(uint32));
	pfree(perm);
	pfree(scratch);
	pfree(masks);
	/* the slots still map keys to the old group ids: no row comes after finish */
}

static GpugbStatus
emu_finish(GpugbGroupBy *handle, int64_t *n_groups)
{
	EmuGroupBy *gb = (EmuGroupBy *) handle;

	if (!gb->finished)
	{
		MemoryContext old = MemoryContextSwitchTo(gb->cxt);

		order_groups(gb);
		MemoryContextSwitchTo(old);
		gb->finished = true;
	}
	*n_groups = gb->n_groups;
	return GPUGB_OK;
}

static GpugbStatus
emu_fetch(GpugbGroupBy *handle, int64_t first, int64_t count, const GpugbGroupResults *out)
{
	EmuGroupBy *gb = (EmuGroupBy *) handle;

	if (first < 0 || count < 0 || first + count > gb->n_groups)
		return GPUGB_INVALID_ARGUMENT;
	for (int k = 0; k < gb->spec.n_keys; k++)
		for (int64 i = 0; i < count; i++)
		{
			if (out->key_values[k])
				out->key_values[k][i] = gb->keys[k][first + i];
			if (out->key_nulls[k])
				out->key_nulls[k][i] = (gb->null_masks[first + i] >> k) & 1;
		}
	for (int a = 0; a < gb->spec.n_aggs; a++)
	{
		if (out->agg_count[a])
			memcpy(out->agg_count[a], gb->count[a] + first, count * sizeof(int64));
		if (out->agg_value[a])
			memcpy(out->agg_value[a], gb->value[a] + first, count * sizeof(int64));
		if (out->agg_value_hi[a])
			memcpy(out->agg_value_hi[a], gb->value_hi[a] + first, count * sizeof(int64));
	}
	return GPUGB_OK;
}

/*
 * gpugb_groupby_remap_values: work is synchronous, so there is nothing in
 * flight to wait for.  The device shares one value column among aggregates
 * of the same op and input, so remapping one of them remaps all: here each
 * aggregate has its own column, and all those of a listed aggregate's op and
 * input are rewritten, once each.  Groups [n_groups, max_groups) are not
 * initialised yet; they get their identities when created.
 */
static GpugbStatus
emu_remap_values(GpugbGroupBy *handle, const int *aggs, int n_aggs, const int64_t *map,
				 int64_t map_len)
{
	EmuGroupBy *gb = (EmuGroupBy *) handle;
	bool		remap[GPUGB_MAX_AGGS] = {false};

	if (gb == NULL)
	{
		emu_error = "invalid argument: NULL handle";
		return GPUGB_INVALID_ARGUMENT;
	}
	if (gb->finished)
	{
		emu_error = "invalid argument: remap_values after finish";
		return GPUGB_INVALID_ARGUMENT;
	}
	if (n_aggs < 0 || n_aggs > GPUGB_MAX_AGGS || map_len < 0 ||
		(n_aggs > 0 && aggs == NULL) || (map_len > 0 && map == NULL))
	{
		emu_error = "invalid argument: remap_values: bad aggregate list or map";
		return GPUGB_INVALID_ARGUMENT;
	}
	for (int i = 0; i < n_aggs; i++)
	{
		const GpugbAggSpec *ag;

		if (aggs[i] < 0 || aggs[i] >= gb->spec.n_aggs)
		{
			emu_error = "invalid argument: remap_values: aggregate index out of range";
			return GPUGB_INVALID_ARGUMENT;
		}
		ag = &gb->spec.aggs[aggs[i]];
		if (ag->op != GPUGB_AGG_MIN_INT && ag->op != GPUGB_AGG_MAX_INT)
		{
			emu_error = "invalid argument: remap_values: aggregate is not MIN_INT or MAX_INT";
			return GPUGB_INVALID_ARGUMENT;
		}
		for (int a = 0; a < gb->spec.n_aggs; a++)
			if (gb->spec.aggs[a].op == ag->op && gb->spec.aggs[a].input == ag->input)
				remap[a] = true;
	}
	for (int a = 0; a < gb->spec.n_aggs && map_len > 0; a++)
	{
		if (!remap[a])
			continue;
		for (int64 g = 0; g < gb->n_groups; g++)
		{
			int64		v = gb->value[a][g];

			if (v >= 0 && v < map_len)
				gb->value[a][g] = map[v];
		}
	}
	gb->stats.bytes_to_device += n_aggs > 0 ? map_len * 8 : 0;
	return GPUGB_OK;
}

static void
emu_stats(const GpugbGroupBy *handle, GpugbStats *stats)
{
	*stats = ((const EmuGroupBy *) handle)->stats;
}

/* Called from EndCustomScan, or from the query context's reset callback on ERROR. */
static void
emu_destroy(GpugbGroupBy *handle)
{
	if (handle != NULL)
	{
		gpugb_budget_release(((EmuGroupBy *) handle)->reserved);
		MemoryContextDelete(((EmuGroupBy *) handle)->cxt);
		emu_live_handles--;
	}
}

const GpugbDeviceOps gpugb_emulator_ops = {
	.name = "emulator",
	.probe = emu_probe,
	.description = emu_description,
	.last_error = emu_last_error,
	.create = emu_create,
	.host_register = emu_host_register,
	.host_unregister = emu_host_unregister,
	.next_stride = emu_next_stride,
	.append = emu_append,
	.append_done = emu_append_done,
	.submit = emu_submit,
	.finish = emu_finish,
	.fetch = emu_fetch,
	.remap_values = emu_remap_values,
	.stats = emu_stats,
	.destroy = emu_destroy,
};

const GpugbDeviceOps gpugb_cuda_ops = {
	.name = "cuda",
	.probe = gpugb_device_probe,
	.description = gpugb_device_description,
	.last_error = gpugb_last_error,
	.create = gpugb_groupby_create,
	.host_register = gpugb_host_register,
	.host_unregister = gpugb_host_unregister,
	.next_stride = gpugb_groupby_next_stride,
	.append = gpugb_groupby_append,
	.append_done = gpugb_groupby_append_done,
	.submit = gpugb_groupby_submit,
	.finish = gpugb_groupby_finish,
	.fetch = gpugb_groupby_fetch,
	.remap_values = gpugb_groupby_remap_values,
	.stats = gpugb_groupby_stats,
	.destroy = gpugb_groupby_destroy,
};

const GpugbDeviceOps *
gpugb_current_device_ops(void)
{
	return gpugb_emulate_device ? &gpugb_emulator_ops : &gpugb_cuda_ops;
}
