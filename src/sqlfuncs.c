/*-------------------------------------------------------------------------
 * sqlfuncs.c
 *    SQL-callable status functions (see sql/gpugb--0.1.sql).
 *
 * gpugb_device_info()    which GPU this backend would use, or why none.
 * gpugb_memory_in_use()  device memory, pinned memory and streams gpugb
 *                        holds in this backend right now (0 between queries,
 *                        also after an ERROR or a cancel: tests check it).
 * gpugb_backend_stats()  GPU runs and fallbacks in this backend so far.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "device_ops.h"
#include "gpugb.h"

PG_FUNCTION_INFO_V1(gpugb_device_info);
PG_FUNCTION_INFO_V1(gpugb_memory_in_use);
PG_FUNCTION_INFO_V1(gpugb_backend_stats_fn);

Datum
gpugb_device_info(PG_FUNCTION_ARGS)
{
	gpugb_device_probe();
	PG_RETURN_TEXT_P(cstring_to_text(gpugb_device_description()));
}

static TupleDesc
result_desc(FunctionCallInfo fcinfo)
{
	TupleDesc	desc;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "gpugb: return type must be a row type");
	return BlessTupleDesc(desc);
}

Datum
gpugb_memory_in_use(PG_FUNCTION_ARGS)
{
	TupleDesc	desc = result_desc(fcinfo);
	GpugbUsage	usage;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};

	gpugb_device_usage(&usage);
	values[0] = Int64GetDatum(usage.device_bytes);
	values[1] = Int64GetDatum(usage.pinned_bytes + gpugb_emulator_registered_bytes());
	values[2] = Int32GetDatum(usage.streams);
	values[3] = Int32GetDatum(usage.handles + gpugb_emulator_live_handles());
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

Datum
gpugb_backend_stats_fn(PG_FUNCTION_ARGS)
{
	TupleDesc	desc = result_desc(fcinfo);
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	values[0] = Int64GetDatum(gpugb_backend_stats.gpu_runs);
	values[1] = Int64GetDatum(gpugb_backend_stats.fallbacks);
	values[2] = CStringGetTextDatum(gpugb_backend_stats.last_fallback_reason);
	nulls[2] = gpugb_backend_stats.last_fallback_reason[0] == '\0';
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

PG_FUNCTION_INFO_V1(gpugb_device_memory_budget);

/* Device memory all sessions' gpugb queries hold now, and the budget. */
Datum
gpugb_device_memory_budget(PG_FUNCTION_ARGS)
{
	TupleDesc	desc = result_desc(fcinfo);
	Datum		values[2];
	bool		nulls[2] = {false, false};
	int64		reserved = gpugb_budget_reserved();

	values[0] = Int64GetDatum(reserved);
	nulls[0] = reserved < 0;	/* not preloaded: no shared counter */
	values[1] = Int64GetDatum((int64) gpugb_max_device_memory_mb * 1024 * 1024);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}
