/*-------------------------------------------------------------------------
 * budget.c
 *    gpugb.max_device_memory: one device-memory budget for every session.
 *
 * Each backend has its own CUDA context, so nothing on the device stops
 * concurrent sessions (and their parallel queries) from exhausting its
 * memory between them.  When gpugb is preloaded, a counter in shared
 * memory holds the bytes all gpugb queries have on the device; the device
 * module (and the emulator, so CI tests it) reserves every allocation
 * against gpugb.max_device_memory before making it, and gives it back when
 * it frees it.  A query that cannot reserve what it needs falls back to
 * PostgreSQL's plan, never meets a CUDA out-of-memory error.  Memory is
 * released on success, ERROR and cancel with the device handle (exec.c);
 * a crashed backend restarts the server, which resets the counter.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/guc.h"

#include "gpugb.h"
#include "gpugb_device.h"

typedef struct GpugbBudget
{
	pg_atomic_uint64 reserved;	/* bytes gpugb holds on the device, all sessions */
} GpugbBudget;

int			gpugb_max_device_memory_mb = 0;

static GpugbBudget *budget = NULL;
static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void
budget_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(MAXALIGN(sizeof(GpugbBudget)));
}

static void
budget_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	budget = ShmemInitStruct("gpugb device memory budget", sizeof(GpugbBudget), &found);
	if (!found)
		pg_atomic_init_u64(&budget->reserved, 0);
	LWLockRelease(AddinShmemInitLock);
}

/* Reserves bytes of device memory; false if that would pass the budget. */
bool
gpugb_budget_reserve(int64 bytes)
{
	uint64		limit = (uint64) gpugb_max_device_memory_mb * 1024 * 1024;
	uint64		after;

	if (budget == NULL)
		return true;			/* not preloaded: no shared budget */
	after = pg_atomic_add_fetch_u64(&budget->reserved, (uint64) bytes);
	if (limit > 0 && after > limit)
	{
		pg_atomic_sub_fetch_u64(&budget->reserved, (uint64) bytes);
		return false;
	}
	return true;
}

void
gpugb_budget_release(int64 bytes)
{
	if (budget != NULL)
		pg_atomic_sub_fetch_u64(&budget->reserved, (uint64) bytes);
}

/* Bytes all sessions hold now, or -1 without a shared budget. */
int64
gpugb_budget_reserved(void)
{
	return budget ? (int64) pg_atomic_read_u64(&budget->reserved) : -1;
}

void
gpugb_budget_init(void)
{
	DefineCustomIntVariable("gpugb.max_device_memory",
							"Most device memory all gpugb queries together may hold; 0 means no limit.",
							"Needs gpugb in shared_preload_libraries. A query that cannot get its "
							"memory falls back to PostgreSQL's own plan.",
							&gpugb_max_device_memory_mb, 0, 0, INT_MAX, PGC_SIGHUP,
							GUC_UNIT_MB, NULL, NULL, NULL);
	if (process_shared_preload_libraries_in_progress)
	{
		prev_shmem_request_hook = shmem_request_hook;
		shmem_request_hook = budget_shmem_request;
		prev_shmem_startup_hook = shmem_startup_hook;
		shmem_startup_hook = budget_shmem_startup;
	}
	/* No CUDA call: only two function pointers for the device module. */
	gpugb_device_set_budget(gpugb_budget_reserve, gpugb_budget_release);
}
