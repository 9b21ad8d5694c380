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

#include "exec.h"

static inline int64
datum_to_word(GpugbValueKind kind, Datum d)
{
	switch (kind)
	{
		case GPUGB_VALUE_INT16:
			return (int64) DatumGetInt16(d);
		case GPUGB_VALUE_INT32:
			return (int64) DatumGetInt32(d);
		case GPUGB_VALUE_INT64:
			return DatumGetInt64(d);
		case GPUGB_VALUE_BOOL:
			return DatumGetBool(d) ? 1 : 0;
		case GPUGB_VALUE_FLOAT4:
			return gpugb_double_to_word((double) DatumGetFloat4(d));
		case GPUGB_VALUE_FLOAT8:
			return gpugb_double_to_word(DatumGetFloat8(d));
		case GPUGB_VALUE_NULL_ONLY:
			return 0;
	}
	return 0;
}

static inline void
store_column(GpugbValueKind kind, Datum d, bool isnull, int64 row,
			 int64 *values, uint8 *nulls, bool *has_nulls)
{
	if (isnull)
	{
		values[row] = 0;
		nulls[row] = 1;
		*has_nulls = true;
	}
	else
	{
		values[row] = datum_to_word(kind, d);
		nulls[row] = 0;
	}
}

/* Derived input d of row: |x| of input src where x is finite, else NULL. */
static inline void
store_finite_abs(GpugbStride *stride, int src, int d, int64 row)
{
	double		x = gpugb_word_to_double(stride->input_values[src][row]);

	if (stride->input_nulls[src][row] || isinf(x) || isnan(x))
		store_column(GPUGB_VALUE_FLOAT8, (Datum) 0, true, row, stride->input_values[d],
					 stride->input_nulls[d], &stride->input_has_nulls[d]);
	else
		store_column(GPUGB_VALUE_FLOAT8, Float8GetDatum(fabs(x)), false, row,
					 stride->input_values[d], stride->input_nulls[d],
					 &stride->input_has_nulls[d]);
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
 * Appends rows from the child until the stride holds capacity rows; sets
 * *exhausted when the child has no more.  Returns the rows appended.
 */
int64
gpugb_fill_stride(const GpugbInputLayout *layout, PlanState *input,
				  GpugbStride *stride, int64 capacity, bool *exhausted)
{
	int			n_keys = layout->n_keys;
	int			n_cols = layout->n_keys + layout->n_child_inputs;
	int64		first = stride->nrows;
	int64		row = first;

	*exhausted = false;
	while (row < capacity)
	{
		TupleTableSlot *slot = ExecProcNode(input);

		if (TupIsNull(slot))
		{
			*exhausted = true;
			break;
		}
		slot_getsomeattrs(slot, n_cols);
		for (int k = 0; k < n_keys; k++)
			store_column(layout->key_kinds[k], slot->tts_values[k], slot->tts_isnull[k],
						 row, stride->key_values[k], stride->key_nulls[k],
						 &stride->key_has_nulls[k]);
		for (int i = 0; i < layout->n_child_inputs; i++)
			store_column(layout->input_kinds[i], slot->tts_values[n_keys + i],
						 slot->tts_isnull[n_keys + i], row, stride->input_values[i],
						 stride->input_nulls[i], &stride->input_has_nulls[i]);
		for (int d = layout->n_child_inputs; d < layout->n_inputs; d++)
			store_finite_abs(stride, layout->finite_abs_of[d], d, row);
		row++;
	}
	stride->nrows = row;
	CHECK_FOR_INTERRUPTS();
	return row - first;
}
