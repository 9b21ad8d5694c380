/*-------------------------------------------------------------------------
 * strides.c
 *    Pulls tuples from the input child into pinned column strides.
 *
 * The child's target list is exactly [keys..., aggregate inputs...], so
 * column i of the slot is key i or input i - n_keys.  Every value becomes
 * one 8-byte word (see gpugb_device.h): integers sign-extended, floats
 * widened to double, NULLs as 0 with the null byte set.  This loop is the
 * CPU's whole share of the work, so it avoids anything per row that can be
 * done per column or per stride.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "executor/executor.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/float.h"
#include "utils/uuid.h"

#include "exec.h"
#include "heapread.h"
#include "hostexpr.h"
#include "interval_words.h"
#include "textdict.h"
#include "numeric_free.h"
#include "numeric_words.h"
#include "varlena_in_line.h"

/*
 * The bytes of a text, varchar or char(n) Datum (char(n) without its
 * trailing spaces, which its comparisons ignore); *detoasted is a copy to
 * pfree, or NULL.
 */
static inline const char *
text_bytes(Datum d, bool blank_padded, int *len, struct varlena **detoasted)
{
	struct varlena *raw = gpugb_varlena_in_line(d, detoasted);
	const char *data;

	data = VARDATA_ANY(raw);
	*len = VARSIZE_ANY_EXHDR(raw);
	if (blank_padded)
		while (*len > 0 && data[*len - 1] == ' ')
			(*len)--;
	return data;
}

/* Trailing spaces of a char without a length (its key keeps them apart). */
static int64
trailing_blanks(Datum d)
{
	struct varlena *detoasted;
	int			len;
	int			stripped;
	const char *data = text_bytes(d, false, &len, &detoasted);

	for (stripped = len; stripped > 0 && data[stripped - 1] == ' '; stripped--)
		;
	if (detoasted)
		pfree(detoasted);
	return len - stripped;
}

/*
 * len (at most 8 * words) bytes as `words` words, zero-padded, laid out
 * as memcpy would lay them.  A memcpy of a variable length was a libc
 * call per key and row (with TPC-H Q1's two char(1) keys, about 8 % of its
 * fill in a local profile): the bytes are shifted into place instead.
 */
static inline void
pack_short_bytes(const char *data, int len, int words, int64 *word)
{
#ifdef WORDS_BIGENDIAN
	char		packed[2 * sizeof(int64)] = {0};

	memcpy(packed, data, len);
	memcpy(word, packed, words * sizeof(int64));
#else
	for (int w = 0; w < words; w++)
	{
		uint64		v = 0;
		int			n = Min(len - w * (int) sizeof(int64), (int) sizeof(int64));

		for (int i = 0; i < n; i++)
			v |= (uint64) (uint8) data[w * sizeof(int64) + i] << (8 * i);
		word[w] = (int64) v;
	}
#endif
}

/*
 * A text key in `words` words: up to 8 bytes each, zero-padded, which is
 * injective, as text never contains a zero byte; a longer value, where a
 * dictionary exists (a parallel worker has none if the leader could not
 * share it), as (0, id) (textdict.c).  char(n) compares without
 * its trailing spaces, so they are dropped first (finalize.c pads the key
 * again).
 */
static pg_attribute_always_inline bool
short_text_to_words(Datum d, bool blank_padded, int words, GpugbTextDict *dict, int64 *word)
{
	struct varlena *detoasted;
	int			len;
	const char *data = text_bytes(d, blank_padded, &len, &detoasted);
	int			room = words * (int) sizeof(int64);

	if (len <= room)
		pack_short_bytes(data, len, words, word);
	else if (dict != NULL && words == 2)
	{
		/* (0, id): see textdict.c */
		word[0] = 0;
		word[1] = gpugb_textdict_id(dict, data, len);
		len = 0;
	}
	if (detoasted)
		pfree(detoasted);
	return len <= room;
}

/*
 * A min/max input of text: its id in the node's one dictionary, which
 * textorder.c turns into a rank before the stride is submitted.  char(n)
 * compares without its trailing spaces (bpcharcmp), and finalize pads it
 * again.
 */
static inline int64
text_id(Datum d, bool blank_padded, GpugbTextDict *dict)
{
	struct varlena *detoasted;
	int			len;
	const char *data = text_bytes(d, blank_padded, &len, &detoasted);
	int64		id = gpugb_textdict_id(dict, data, len);

	if (detoasted)
		pfree(detoasted);
	return id;
}

/*
 * Float keys group as PostgreSQL's float equality does: -0 equals 0, and
 * every NaN equals every other.  (PostgreSQL shows whichever zero its hash
 * table met first, which depends on row order; we show -0 where every
 * member was -0 (exec.c), so a group of -0 alone shows as PostgreSQL shows
 * it.  Every NaN prints as NaN.)
 */
static inline int64
float_key_word(int64 word)
{
	double		d = gpugb_word_to_double(word);

	if (d == 0.0)
		return gpugb_double_to_word(0.0);
	if (isnan(d))
		return gpugb_double_to_word(get_float8_nan());
	return word;
}

/*
 * The word (two for a key of two words) for a non-null Datum; false if the
 * value has none (see GpugbValueKind).
 */
static pg_attribute_always_inline bool
datum_to_word(GpugbColumnType type, Datum d, GpugbTextDict *dict, int64 *word)
{
	switch (type.kind)
	{
		case GPUGB_VALUE_INT16:
			*word = (int64) DatumGetInt16(d);
			return true;
		case GPUGB_VALUE_INT32:
			*word = (int64) DatumGetInt32(d);
			return true;
		case GPUGB_VALUE_INT64:
			*word = DatumGetInt64(d);
			return true;
		case GPUGB_VALUE_BOOL:
			*word = DatumGetBool(d) ? 1 : 0;
			return true;
		case GPUGB_VALUE_FLOAT4:
			*word = gpugb_double_to_word((double) DatumGetFloat4(d));
			return true;
		case GPUGB_VALUE_FLOAT8:
			*word = gpugb_double_to_word(DatumGetFloat8(d));
			return true;
		case GPUGB_VALUE_NUMERIC:
			{
				int			dscale;

				return gpugb_numeric_to_word_inline(d, type.scale, word, &dscale);
			}
		case GPUGB_VALUE_NUMERIC_FREE:
			return gpugb_free_numeric_to_word(d, type.scale, word);
		case GPUGB_VALUE_SHORT_TEXT:
			return short_text_to_words(d, false, type.words, dict, word);
		case GPUGB_VALUE_SHORT_BPCHAR:
			return short_text_to_words(d, true, type.words, dict, word);
		case GPUGB_VALUE_TEXT_RANK:
		case GPUGB_VALUE_BPCHAR_RANK:
			if (unlikely(dict == NULL))
				return false;	/* a worker the leader shared no dictionary with */
			*word = text_id(d, type.kind == GPUGB_VALUE_BPCHAR_RANK, dict);
			return true;
		case GPUGB_VALUE_UUID:
			memcpy(word, DatumGetUUIDP(d)->data, UUID_LEN);
			return true;
		case GPUGB_VALUE_INTERVAL_KEY:
			return gpugb_interval_key_word(d, word);
		case GPUGB_VALUE_INTERVAL:
			*word = 0;			/* its words are derived from the Datum */
			return true;
		case GPUGB_VALUE_NULL_ONLY:
			*word = 0;
			return true;
	}
	return false;
}

/* datum_to_word for other files (heapread.c's quals); the filler's calls stay inline. */
bool
gpugb_datum_to_word(GpugbColumnType type, Datum d, GpugbTextDict *dict, int64 *word)
{
	return datum_to_word(type, d, dict, word);
}

/* One value of a stride column (0 with its null byte set for a NULL). */
static inline void
store_word(int64 *values, uint8 *nulls, bool *has_nulls, int64 row, int64 word, bool isnull)
{
	values[row] = isnull ? 0 : word;
	nulls[row] = isnull;
	if (isnull)
		*has_nulls = true;
}

/*
 * Derived input d of row, from input src (see GpugbDerivedKind), or from
 * GROUP BY key src's packed free numeric word in key_packed (PG_INT64_MIN,
 * which no packed word is: NULL).
 */
static inline void
store_derived(GpugbStride *stride, GpugbDerivedKind kind, int src, int d, int64 row,
			  const int64 *key_packed)
{
	int64		x = 0;
	bool		isnull;
	int64		word = 0;

	if (kind == GPUGB_DERIVED_KEY_DSCALE || kind == GPUGB_DERIVED_KEY_BLANKS ||
		kind == GPUGB_DERIVED_KEY_NEGZERO)
	{
		x = key_packed[src];
		isnull = x == PG_INT64_MIN;
	}
	else
	{
		x = stride->input_values[src][row];
		isnull = stride->input_nulls[src][row] != 0;
	}
	if (!isnull)
	{
		switch (kind)
		{
			case GPUGB_DERIVED_FREE_VALUE:
				word = gpugb_free_word_value(x);
				break;
			case GPUGB_DERIVED_KEY_BLANKS:
			case GPUGB_DERIVED_KEY_NEGZERO:
				word = x;
				break;
			case GPUGB_DERIVED_FREE_DSCALE:
			case GPUGB_DERIVED_KEY_DSCALE:
				/* NaN has no dscale of its own: it shows as NaN */
				isnull = x == GPUGB_NUMERIC_NAN_WORD;
				word = gpugb_free_word_dscale(x);
				break;
			case GPUGB_DERIVED_FINITE:
				{
					double		f = gpugb_word_to_double(x);

					isnull = isinf(f) || isnan(f);
					word = x;
					break;
				}
			case GPUGB_DERIVED_FINITE_ABS:
				{
					double		f = gpugb_word_to_double(x);

					isnull = isinf(f) || isnan(f);
					word = gpugb_double_to_word(fabs(f));
					break;
				}
			case GPUGB_DERIVED_SQUARE_HI:
			case GPUGB_DERIVED_SQUARE_LO:
				{
					uint128		square = (uint128) ((int128) x * (int128) x);

					/* lo is offset by -2^63 to fit signed; finalize.c adds N * 2^63 back */
					word = kind == GPUGB_DERIVED_SQUARE_HI ? (int64) (square >> 64) :
						(int64) ((uint64) square ^ (UINT64CONST(1) << 63));
					break;
				}
			case GPUGB_DERIVED_INTERVAL:
				break;			/* store_interval_derived */
		}
	}
	store_word(stride->input_values[d], stride->input_nulls[d], &stride->input_has_nulls[d],
			   row, word, isnull);
}

static const char *
key_transform_unfit_reason(const GpugbKeyTransform *transform)
{
	switch (transform->op)
	{
		case GPUGB_KEY_TRUNC:
		case GPUGB_KEY_TRUNC_MONTHS:
			return "a date_trunc GROUP BY key is out of the timestamp range";
		case GPUGB_KEY_TO_DATE:
			return "a timestamp's date GROUP BY key is out of the date range";
		case GPUGB_KEY_EXTRACT:
		case GPUGB_KEY_EXTRACT_DATE:
			return "an extract GROUP BY key is infinite or too large for its numeric word";
		default:
			return "an integer GROUP BY key expression is out of range";
	}
}

static const char *
unfit_reason(GpugbColumnType type)
{
	if (type.kind == GPUGB_VALUE_INTERVAL_KEY)
		return "an interval GROUP BY key's span does not fit 64 bits";
	if (type.kind == GPUGB_VALUE_NUMERIC)
		return "a numeric value does not fit 18 digits at its declared scale";
	if (type.kind == GPUGB_VALUE_NUMERIC_FREE)
		return "a numeric value (Infinity, digits beyond the device scale, a display scale above 30, or too large) has no device word";
	if (type.kind == GPUGB_VALUE_TEXT_RANK || type.kind == GPUGB_VALUE_BPCHAR_RANK)
		return "a min/max of text has no text dictionary";
	return "a text GROUP BY key is longer than 16 bytes";
}

/*
 * Derived input d of row: a word of an interval's Datum, of a key's or of
 * an input's column in the current row (interval_words.c).  False if the
 * value has no such word.
 */
static inline bool
store_interval_derived(const GpugbInputLayout *layout, const Datum *values,
					   const bool *nulls, GpugbStride *stride, int d, int64 row)
{
	GpugbIntervalWord kind = (GpugbIntervalWord) (layout->derived_kind[d] - GPUGB_DERIVED_INTERVAL);
	int			src = layout->derived_from[d];
	int			column = kind == GPUGB_IWORD_MONTH_DAY ? src :
		layout->n_sql_keys + layout->input_column[src];
	bool		isnull = nulls[column];
	int64		word = 0;
	bool		ok;

	Assert(kind == GPUGB_IWORD_MONTH_DAY || layout->input_column[src] >= 0);
	ok = isnull || gpugb_interval_word(kind, values[column], &word);
	store_word(stride->input_values[d], stride->input_nulls[d], &stride->input_has_nulls[d],
			   row, word, isnull);
	return ok;
}

/* An empty stride: no rows, no nulls. */
void
gpugb_stride_begin(const GpugbInputLayout *layout, GpugbStride *stride)
{
	stride->nrows = 0;
	for (int k = 0; k < layout->n_keys; k++)
		stride->key_has_nulls[k] = false;
	for (int i = 0; i < layout->n_inputs; i++)
		stride->input_has_nulls[i] = false;
}

/*
 * Stores GROUP BY key k of row `row` from its word(s), and keeps in
 * key_packed[k] what its derived inputs need (values[k] is the child's
 * Datum of the key, read only for a char key without a length).
 */
static inline void
store_key(const GpugbInputLayout *layout, const Datum *values, GpugbStride *stride,
		  int64 row, int k, int64 *words, bool isnull, int64 *key_packed)
{
	GpugbColumnType type = layout->key_types[k];
	int			w = layout->key_word[k];

	/* a free numeric key groups by value; its dscale goes to a hidden min */
	key_packed[k] = isnull ? PG_INT64_MIN : words[0];
	/* a float key's -0 groups with 0; whether it was -0 goes to a hidden min */
	if (type.kind == GPUGB_VALUE_FLOAT4 || type.kind == GPUGB_VALUE_FLOAT8)
	{
		if (!isnull)
			key_packed[k] = words[0] == gpugb_double_to_word(-0.0) ? 1 : 0;
		words[0] = float_key_word(words[0]);
	}
	/* a char key without a length: its trailing spaces go to a hidden max */
	if (unlikely(gpugb_key_is_unpadded_bpchar(type)) && !isnull)
		key_packed[k] = trailing_blanks(values[k]);
	if (type.kind == GPUGB_VALUE_NUMERIC_FREE)
		words[0] = isnull ? 0 : gpugb_free_word_value(words[0]);
	for (int i = 0; i < type.words; i++)
		store_word(stride->key_values[w + i], stride->key_nulls[w + i],
				   &stride->key_has_nulls[w + i], row, words[i], isnull);
}

/* Why a program's value has no word (gpugb_hostexpr_eval returned false). */
static const char *
hostexpr_unfit_reason(const GpugbHostExpr *hx)
{
	return hx->floating ?
		"a float expression overflows, underflows or divides by zero" :
		hx->packed ?
		"a numeric CASE, COALESCE or GROUP BY key reads a NaN, or its value does not fit a free numeric word" :
		hx->integer ?
		"an integer expression's value is out of its type's range, or divides by zero" :
		"a numeric expression's value does not fit 18 digits";
}

/*
 * The type key k's child column is read as: the key's own, or for
 * date_trunc, extract and date_part the timestamp or date they read.
 */
static inline GpugbColumnType
key_read_type(const GpugbInputLayout *layout, int k)
{
	const GpugbColumnType timestamp_type = {GPUGB_VALUE_INT64, 0, -1, 1};
	const GpugbColumnType date_type = {GPUGB_VALUE_INT32, 0, -1, 1};
	bool		date;

	if (gpugb_key_transform_reads_datetime(&layout->key_transforms[k], &date))
		return date ? date_type : timestamp_type;
	return layout->key_types[k];
}

/*
 * Rows whose input programs are still to run: their child columns' words,
 * kept by fill_row for gpugb_hostexpr_eval_rows (see fill_batch_programs).
 */
typedef struct ProgramBatch
{
	int			n;				/* rows kept */
	int64		first_row;		/* the stride row of the first */
	/* row r's child column c at [r * n_child_columns + c]: a few cache lines */
	int64		words[GPUGB_HOSTEXPR_BATCH * GPUGB_MAX_INPUTS];
	bool		nulls[GPUGB_HOSTEXPR_BATCH * GPUGB_MAX_INPUTS];
} ProgramBatch;

/*
 * Row `row` of the stride from the child's columns (values/nulls in the
 * child's target list order).  False, with *unfit set to why, for a value
 * with no device word: the row is then left out and the caller falls back.
 * With a batch (a layout that batches_programs), the input programs are
 * left for fill_batch_programs: the row's child words go to the batch.
 */
static inline bool
fill_row(const GpugbInputLayout *layout, const Datum *values, const bool *nulls,
		 GpugbStride *stride, int64 row, const char **unfit, ProgramBatch *batch)
{
	int			n_keys = layout->n_sql_keys;
	int64		row_words[GPUGB_MAX_INPUTS];
	bool		row_nulls[GPUGB_MAX_INPUTS];
	int64	   *child_words = batch ?
		batch->words + batch->n * layout->n_child_columns : row_words;
	bool	   *child_nulls = batch ?
		batch->nulls + batch->n * layout->n_child_columns : row_nulls;
	/* per key: a free numeric's packed word, a char's trailing spaces (derived inputs) */
	int64		key_packed[GPUGB_MAX_KEYS];

	for (int k = 0; k < n_keys; k++)
	{
		GpugbColumnType type = layout->key_types[k];
		const GpugbKeyTransform *transform = &layout->key_transforms[k];
		int64		words[2] = {0, 0};
		bool		isnull = nulls[k];

		if (layout->key_expr[k] != NULL)
			continue;			/* computed from the child columns, below */
		/* GROUP BY mod(x, c), date_trunc(u, ts) and the like: the child projected x */
		if (!isnull &&
			unlikely(!datum_to_word(key_read_type(layout, k), values[k], layout->text_dict,
									words)))
			*unfit = unfit_reason(type);
		if (transform->op != GPUGB_KEY_PLAIN && !isnull &&
			unlikely(!gpugb_key_transform_apply(transform, &words[0], &isnull)))
			*unfit = key_transform_unfit_reason(transform);
		store_key(layout, values, stride, row, k, words, isnull, key_packed);
	}
	/* each child column becomes a word once, however many inputs use it */
	for (int c = 0; c < layout->n_child_columns; c++)
	{
		child_nulls[c] = nulls[n_keys + c];
		child_words[c] = 0;
		if (!child_nulls[c] &&
			unlikely(!datum_to_word(layout->child_types[c], values[n_keys + c],
									layout->text_dict, &child_words[c])))
			*unfit = unfit_reason(layout->child_types[c]);
	}
	/* program keys, from the child columns' words */
	for (int k = 0; k < n_keys && layout->n_key_exprs > 0; k++)
	{
		int64		words[2] = {0, 0};
		bool		isnull = false;

		if (layout->key_expr[k] == NULL)
			continue;
		if (unlikely(!gpugb_hostexpr_eval(layout->key_expr[k], child_words, child_nulls,
										  layout->child_types, &words[0], &isnull)))
			*unfit = hostexpr_unfit_reason(layout->key_expr[k]);
		store_key(layout, values, stride, row, k, words, isnull, key_packed);
	}
	for (int i = 0; i < layout->n_child_inputs; i++)
	{
		bool		isnull = false;
		int64		word = 0;

		if (layout->input_expr[i] == NULL)
		{
			isnull = child_nulls[layout->input_column[i]];
			word = child_words[layout->input_column[i]];
		}
		else if (batch != NULL)
			continue;			/* fill_batch_programs */
		else if (unlikely(!gpugb_hostexpr_eval(layout->input_expr[i], child_words,
											   child_nulls, layout->child_types,
											   &word, &isnull)))
			*unfit = hostexpr_unfit_reason(layout->input_expr[i]);
		store_word(stride->input_values[i], stride->input_nulls[i],
				   &stride->input_has_nulls[i], row, word, isnull);
	}
	if (unlikely(*unfit != NULL))
		return false;
	if (batch != NULL)
	{
		if (batch->n++ == 0)
			batch->first_row = row;
		return true;			/* no derived inputs: gpugb_layout_batches_programs */
	}
	for (int d = layout->n_child_inputs; d < layout->n_inputs; d++)
	{
		if (layout->derived_kind[d] < GPUGB_DERIVED_INTERVAL)
			store_derived(stride, layout->derived_kind[d], layout->derived_from[d], d, row,
						  key_packed);
		else if (unlikely(!store_interval_derived(layout, values, nulls, stride, d, row)))
			*unfit = "an interval value's span is too large for its minimum or maximum";
	}
	return *unfit == NULL;
}

/*
 * The batch's input programs, a program at a time over all its rows, into
 * the stride; empties the batch.  False, with *unfit set, where a row's
 * result has no word: *rows_done is then the rows before the first such
 * one (the caller falls back), else every row of the batch.
 */
static bool
fill_batch_programs(const GpugbInputLayout *layout, ProgramBatch *batch, GpugbStride *stride,
					int *rows_done, const char **unfit)
{
	int			n = batch->n;
	int			first_unfit = n;

	for (int i = 0; i < layout->n_child_inputs; i++)
	{
		int64		word[GPUGB_HOSTEXPR_BATCH];
		bool		isnull[GPUGB_HOSTEXPR_BATCH];
		bool		fits[GPUGB_HOSTEXPR_BATCH];

		if (layout->input_expr[i] == NULL)
			continue;
		gpugb_hostexpr_eval_rows(layout->input_expr[i], batch->words, batch->nulls,
								 layout->n_child_columns, n,
								 layout->child_types, word, isnull, fits);
		for (int r = 0; r < n; r++)
		{
			if (unlikely(!fits[r]))
			{
				if (r < first_unfit)
				{
					first_unfit = r;
					*unfit = hostexpr_unfit_reason(layout->input_expr[i]);
				}
				break;
			}
			store_word(stride->input_values[i], stride->input_nulls[i],
					   &stride->input_has_nulls[i], batch->first_row + r, word[r], isnull[r]);
		}
	}
	batch->n = 0;
	*rows_done = first_unfit;
	return first_unfit == n;
}

/*
 * Rows row .. row + n - 1 of the stride from a batch of the child's rows
 * (row i's column c at values[i * n_columns + c], by-reference Datums
 * valid for the whole batch), a column at a time: each column's kind is
 * dispatched on once per batch instead of once per row, and the input
 * programs run over the batch (fill_batch_programs).  For a layout that
 * fills_by_column.  Returns the rows filled: n, or the rows before the
 * first with a value without a word (*unfit set to why; the caller falls
 * back, as from fill_row).
 */
static int
fill_rows_by_column(const GpugbInputLayout *layout, const Datum *values, const bool *nulls,
					int n_columns, GpugbStride *stride, int64 row, int n, const char **unfit)
{
	int			n_keys = layout->n_sql_keys;
	int			n_child = layout->n_child_columns;
	int			first_unfit = n;
	int			rows_done;
	int64		key_packed[GPUGB_MAX_KEYS]; /* for derived inputs: none here */
	ProgramBatch batch;

	for (int k = 0; k < n_keys; k++)
	{
		GpugbColumnType type = key_read_type(layout, k);
		const GpugbKeyTransform *transform = &layout->key_transforms[k];
		GpugbValueKind kind = layout->key_types[k].kind;
		int			w = layout->key_word[k];
		/* store_key's words unchanged: no float -0, no free numeric, no char's spaces */
		bool		stores_plainly = kind != GPUGB_VALUE_FLOAT4 && kind != GPUGB_VALUE_FLOAT8 &&
			kind != GPUGB_VALUE_NUMERIC_FREE &&
			!gpugb_key_is_unpadded_bpchar(layout->key_types[k]) &&
			type.words == layout->key_types[k].words;

		for (int i = 0; i < first_unfit; i++)
		{
			const Datum *row_values = values + i * n_columns;
			bool		isnull = nulls[i * n_columns + k];
			int64		words[2] = {0, 0};
			const char *reason = NULL;

			/* GROUP BY mod(x, c), date_trunc(u, ts) and the like: the child projected x */
			if (!isnull &&
				unlikely(!datum_to_word(type, row_values[k], layout->text_dict, words)))
				reason = unfit_reason(layout->key_types[k]);
			else if (transform->op != GPUGB_KEY_PLAIN && !isnull &&
					 unlikely(!gpugb_key_transform_apply(transform, &words[0], &isnull)))
				reason = key_transform_unfit_reason(transform);
			if (unlikely(reason != NULL))
			{
				*unfit = reason;
				first_unfit = i;
				break;
			}
			if (stores_plainly)
			{
				for (int j = 0; j < type.words; j++)
					store_word(stride->key_values[w + j], stride->key_nulls[w + j],
							   &stride->key_has_nulls[w + j], row + i, words[j], isnull);
			}
			else
				store_key(layout, row_values, stride, row + i, k, words, isnull, key_packed);
		}
	}
	/* each child column becomes a word once, however many inputs use it */
	for (int c = 0; c < n_child; c++)
	{
		GpugbColumnType type = layout->child_types[c];

		for (int i = 0; i < first_unfit; i++)
		{
			bool		isnull = nulls[i * n_columns + n_keys + c];
			int64		words[2] = {0, 0};	/* room for datum_to_word's two-word kinds */

			if (!isnull &&
				unlikely(!datum_to_word(type, values[i * n_columns + n_keys + c],
										layout->text_dict, words)))
			{
				*unfit = unfit_reason(type);
				first_unfit = i;
				break;
			}
			batch.words[i * n_child + c] = words[0];
			batch.nulls[i * n_child + c] = isnull;
		}
	}
	for (int j = 0; j < layout->n_child_inputs; j++)
	{
		int			c = layout->input_column[j];

		if (layout->input_expr[j] != NULL)
			continue;
		for (int i = 0; i < first_unfit; i++)
			store_word(stride->input_values[j], stride->input_nulls[j],
					   &stride->input_has_nulls[j], row + i,
					   batch.words[i * n_child + c], batch.nulls[i * n_child + c]);
	}
	if (first_unfit == 0)
		return 0;
	batch.n = first_unfit;
	batch.first_row = row;
	if (!fill_batch_programs(layout, &batch, stride, &rows_done, unfit))
		return rows_done;
	return first_unfit;
}

/*
 * Is the layout filled a column at a time (fill_rows_by_column): no key
 * computed by a program and no derived input (both are made per row from
 * the row's other words), and not filled plainly (that is faster still)?
 */
bool
gpugb_layout_fills_by_column(const GpugbInputLayout *layout)
{
	return !layout->fills_plainly && layout->n_key_exprs == 0 &&
		layout->n_inputs == layout->n_child_inputs;
}

/*
 * Are the layout's input programs better run a batch of rows at a time:
 * some program the batch evaluator takes, and no derived input (those are
 * computed per row from the inputs' words, after the programs)?
 */
bool
gpugb_layout_batches_programs(const GpugbInputLayout *layout)
{
	if (layout->n_inputs != layout->n_child_inputs)
		return false;
	for (int i = 0; i < layout->n_child_inputs; i++)
		if (layout->input_expr[i] != NULL && layout->input_expr[i]->batchable)
			return true;
	return false;
}

/*
 * Does every column's word come from a plain conversion of the child's
 * by-value Datum: integers, bool and (as inputs) floats, keys through
 * their integer or date_trunc transform, and no program, derived input
 * or dictionary?  Such a layout (Query B's, most integer GROUP BYs) is
 * filled a batch of rows at a time, column by column (fill_rows_plain),
 * instead of through fill_row's general per-row steps.
 */
static bool
plain_kind(GpugbValueKind kind, bool key)
{
	switch (kind)
	{
		case GPUGB_VALUE_INT16:
		case GPUGB_VALUE_INT32:
		case GPUGB_VALUE_INT64:
		case GPUGB_VALUE_BOOL:
			return true;
		case GPUGB_VALUE_FLOAT4:
		case GPUGB_VALUE_FLOAT8:
		case GPUGB_VALUE_NULL_ONLY:
			return !key;		/* a float key's -0 needs store_key */
		default:
			return false;
	}
}

bool
gpugb_layout_fills_plainly(const GpugbInputLayout *layout)
{
	if (layout->n_key_exprs > 0 || layout->n_inputs != layout->n_child_inputs ||
		layout->n_keys != layout->n_sql_keys)
		return false;
	for (int k = 0; k < layout->n_sql_keys; k++)
	{
		GpugbKeyOp	op = layout->key_transforms[k].op;

		if (!plain_kind(layout->key_types[k].kind, true) || layout->key_types[k].words != 1 ||
			op == GPUGB_KEY_EXTRACT || op == GPUGB_KEY_DATE_PART ||
			op == GPUGB_KEY_EXTRACT_DATE)
			return false;
	}
	for (int c = 0; c < layout->n_child_columns; c++)
		if (!plain_kind(layout->child_types[c].kind, false))
			return false;
	for (int i = 0; i < layout->n_inputs; i++)
		if (layout->input_expr[i] != NULL)
			return false;
	return true;
}

/*
 * Column c of a batch of rows into words, for an int2 or int4 column
 * (kind), with C's % by a prepared divisor where mod is not NULL (Query
 * B's mod(col1, g)): fill_rows_plain's loop with the type's switch and the
 * transform's call taken out of it.  Returns whether a row was NULL.  An
 * int2 or int4 value always fits 32 bits, so the fast remainder applies to
 * every row, and it cannot leave the type's range.
 */
static pg_attribute_always_inline bool
fill_int32_column(GpugbValueKind kind, const GpugbFastMod *mod, const Datum *values,
				  const bool *nulls, int n_columns, int c, int64 *dst, uint8 *dst_nulls, int n)
{
	bool		has_nulls = false;

	for (int i = 0; i < n; i++)
	{
		bool		isnull = nulls[i * n_columns + c];
		Datum		d = values[i * n_columns + c];
		int64		word = kind == GPUGB_VALUE_INT16 ? (int64) DatumGetInt16(d) :
			(int64) DatumGetInt32(d);

		if (mod != NULL)
			word = gpugb_fastmod_s32(word, mod);
		dst[i] = isnull ? 0 : word;
		dst_nulls[i] = isnull;
		has_nulls |= isnull;
	}
	return has_nulls;
}

/*
 * fill_int32_column for a key or input of a plain layout where it applies:
 * an int2 or int4 word, unchanged or taken % a divisor fastmod.h prepared
 * (not -1, whose remainder int4mod defines as 0).  Sets *has_nulls; false
 * where the column needs the general loop.
 */
static bool
fill_int32_column_fast(GpugbColumnType type, const GpugbKeyTransform *transform,
					   const Datum *values, const bool *nulls, int n_columns, int c,
					   int64 *dst, uint8 *dst_nulls, int n, bool *has_nulls)
{
	const GpugbFastMod *mod = NULL;

	if (type.kind != GPUGB_VALUE_INT16 && type.kind != GPUGB_VALUE_INT32)
		return false;
	if (transform != NULL && transform->op != GPUGB_KEY_PLAIN)
	{
		if (transform->op != GPUGB_KEY_MOD || transform->operand == -1 ||
			transform->mod.divisor == 0)
			return false;
		mod = &transform->mod;
	}
	/* a separate loop per case, so that each is compiled without its tests */
	if (type.kind == GPUGB_VALUE_INT32 && mod != NULL)
		*has_nulls = fill_int32_column(GPUGB_VALUE_INT32, mod, values, nulls, n_columns, c,
									   dst, dst_nulls, n);
	else if (type.kind == GPUGB_VALUE_INT32)
		*has_nulls = fill_int32_column(GPUGB_VALUE_INT32, NULL, values, nulls, n_columns, c,
									   dst, dst_nulls, n);
	else if (mod != NULL)
		*has_nulls = fill_int32_column(GPUGB_VALUE_INT16, mod, values, nulls, n_columns, c,
									   dst, dst_nulls, n);
	else
		*has_nulls = fill_int32_column(GPUGB_VALUE_INT16, NULL, values, nulls, n_columns, c,
									   dst, dst_nulls, n);
	return true;
}

/*
 * Rows row .. row + n - 1 of a plain layout's stride from a batch of the
 * child's rows (row i's column c at values[i * n_columns + c]), one column
 * at a time.  False, with *unfit set, where a key transform's result is
 * out of its type's range (the caller falls back, as from fill_row).
 */
static bool
fill_rows_plain(const GpugbInputLayout *layout, const Datum *values, const bool *nulls,
				int n_columns, GpugbStride *stride, int64 row, int n, const char **unfit)
{
	for (int k = 0; k < layout->n_sql_keys; k++)
	{
		const GpugbKeyTransform *transform = &layout->key_transforms[k];
		GpugbColumnType type = key_read_type(layout, k);
		int64	   *dst = stride->key_values[layout->key_word[k]] + row;
		uint8	   *dst_nulls = stride->key_nulls[layout->key_word[k]] + row;
		bool		has_nulls = false;

		if (fill_int32_column_fast(type, transform, values, nulls, n_columns, k, dst, dst_nulls,
								   n, &has_nulls))
		{
			if (has_nulls)
				stride->key_has_nulls[layout->key_word[k]] = true;
			continue;
		}
		for (int i = 0; i < n; i++)
		{
			bool		isnull = nulls[i * n_columns + k];
			int64		word[2] = {0, 0};	/* room for datum_to_word's two-word kinds */

			/* a plain kind always has a word: no dictionary, no failure */
			if (!isnull)
				datum_to_word(type, values[i * n_columns + k], NULL, word);
			if (transform->op != GPUGB_KEY_PLAIN && !isnull &&
				unlikely(!gpugb_key_transform_apply(transform, &word[0], &isnull)))
			{
				*unfit = key_transform_unfit_reason(transform);
				return false;
			}
			dst[i] = isnull ? 0 : word[0];
			dst_nulls[i] = isnull;
			has_nulls |= isnull;
		}
		if (has_nulls)
			stride->key_has_nulls[layout->key_word[k]] = true;
	}
	for (int j = 0; j < layout->n_inputs; j++)
	{
		int			c = layout->n_sql_keys + layout->input_column[j];
		GpugbColumnType type = layout->child_types[layout->input_column[j]];
		int64	   *dst = stride->input_values[j] + row;
		uint8	   *dst_nulls = stride->input_nulls[j] + row;
		bool		has_nulls = false;

		if (fill_int32_column_fast(type, NULL, values, nulls, n_columns, c, dst, dst_nulls, n,
								   &has_nulls))
		{
			if (has_nulls)
				stride->input_has_nulls[j] = true;
			continue;
		}
		for (int i = 0; i < n; i++)
		{
			bool		isnull = nulls[i * n_columns + c];
			int64		word[2] = {0, 0};

			if (!isnull)
				datum_to_word(type, values[i * n_columns + c], NULL, word);
			dst[i] = word[0];
			dst_nulls[i] = isnull;
			has_nulls |= isnull;
		}
		if (has_nulls)
			stride->input_has_nulls[j] = true;
	}
	return true;
}

/*
 * gpugb_fill_stride's batches from the heap reader: by_column, a page of
 * rows at a time into fill_rows_by_column, else (a plain layout) into
 * fill_rows_plain.  Returns the stride's rows after.
 */
static int64
fill_from_reader(const GpugbInputLayout *layout, PlanState *input, GpugbStride *stride,
				 int64 row, int64 capacity, bool by_column, bool *exhausted,
				 const char **unfit)
{
	int			n_columns = layout->n_sql_keys + layout->n_child_columns;
	int64		first = row;

	if (input->instrument)
		InstrStartNode(input->instrument);
	while (row < capacity)
	{
		const Datum *values;
		const bool *nulls;
		bool		end;
		int			max = (int) Min(capacity - row, GPUGB_HEAP_READ_BATCH);
		int			n = by_column ?
			gpugb_heap_reader_next_page_batch(layout->heap_reader, max, &values, &nulls, &end) :
			gpugb_heap_reader_next_batch(layout->heap_reader, max, &values, &nulls, &end);
		int			done = by_column ?
			fill_rows_by_column(layout, values, nulls, n_columns, stride, row, n, unfit) :
			fill_rows_plain(layout, values, nulls, n_columns, stride, row, n, unfit) ? n : 0;

		row += done;
		if (unlikely(done < n))
			break;
		if (end)
		{
			*exhausted = true;
			break;
		}
	}
	if (input->instrument)
		InstrStopNode(input->instrument, row - first);
	return row;
}

/*
 * Appends rows from the child until the stride holds capacity rows; sets
 * *exhausted when the child has no more.  Returns the rows appended.  A
 * value with no device word (a numeric(p, s) that does not match its
 * type modifier, a text key longer than 16 bytes, an interval too large
 * for its words) stops the fill with *unfit set to why: the caller then
 * falls back to PostgreSQL's plan.
 *
 * Where the layout has a heap reader (heapread.c) the rows come from the
 * child SeqScan's pages directly, and the SeqScan's instrumentation gets
 * their count; otherwise from ExecProcNode.
 */
int64
gpugb_fill_stride(const GpugbInputLayout *layout, PlanState *input,
				  GpugbStride *stride, int64 capacity, bool *exhausted,
				  const char **unfit)
{
	int64		first = stride->nrows;
	int64		row = first;

	*exhausted = false;
	*unfit = NULL;
	if (unlikely(layout->zone_changed))
	{
		/* a prepared plan run after SET TimeZone: PostgreSQL's plan answers */
		*unfit = "a date_trunc GROUP BY key was planned for another TimeZone";
		return 0;
	}
	if (layout->fills_plainly && layout->heap_reader != NULL &&
		gpugb_heap_reader_usable(layout->heap_reader))
		row = fill_from_reader(layout, input, stride, row, capacity, false, exhausted, unfit);
	else if (layout->fills_by_column && layout->heap_reader != NULL &&
			 gpugb_heap_reader_usable(layout->heap_reader) &&
			 !gpugb_heap_reader_projects(layout->heap_reader))
		row = fill_from_reader(layout, input, stride, row, capacity, true, exhausted, unfit);
	else
	{
		bool		direct = layout->heap_reader != NULL &&
			gpugb_heap_reader_usable(layout->heap_reader);
		int			n_cols = layout->n_sql_keys + layout->n_child_columns;
		/* on the stack: a GpuGroupAgg under this one's child has its own */
		ProgramBatch batch_space;
		ProgramBatch *batch = layout->batches_programs ? &batch_space : NULL;

		batch_space.n = 0;
		if (direct && input->instrument)
			InstrStartNode(input->instrument);
		while (row < capacity)
		{
			Datum		values_direct[GPUGB_MAX_KEYS + GPUGB_MAX_INPUTS];
			bool		nulls_direct[GPUGB_MAX_KEYS + GPUGB_MAX_INPUTS];
			const Datum *values = values_direct;
			const bool *nulls = nulls_direct;
			int			rows_done;

			if (direct)
			{
				if (!gpugb_heap_reader_next(layout->heap_reader, values_direct, nulls_direct))
				{
					*exhausted = true;
					break;
				}
			}
			else
			{
				TupleTableSlot *slot = ExecProcNode(input);

				if (TupIsNull(slot))
				{
					*exhausted = true;
					break;
				}
				slot_getsomeattrs(slot, n_cols);
				values = slot->tts_values;
				nulls = slot->tts_isnull;
			}
			if (unlikely(!fill_row(layout, values, nulls, stride, row, unfit, batch)))
				break;
			row++;
			if (batch != NULL && batch->n == GPUGB_HOSTEXPR_BATCH &&
				unlikely(!fill_batch_programs(layout, batch, stride, &rows_done, unfit)))
			{
				row -= GPUGB_HOSTEXPR_BATCH - rows_done;
				break;
			}
		}
		if (batch != NULL && batch->n > 0)
		{
			/* the rows before the end, or before a row fill_row found unfit */
			int			kept = batch->n;
			int			rows_done;
			const char *row_unfit = *unfit;

			if (!fill_batch_programs(layout, batch, stride, &rows_done, unfit))
			{
				row -= kept - rows_done;
				*exhausted = false;
			}
			else
				*unfit = row_unfit;
		}
		if (direct && input->instrument)
			InstrStopNode(input->instrument, row - first);
	}
	stride->nrows = row;
	CHECK_FOR_INTERRUPTS();
	return row - first;
}
