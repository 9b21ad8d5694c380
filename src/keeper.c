/*-------------------------------------------------------------------------
 * keeper.c
 *    The device keeper: a background worker that initializes the CUDA
 *    driver once and stays up, so that every backend's own start-up is
 *    shorter.
 *
 * Measured on the GPU box (test/bench/cuda_startup.cu, docs/startup-*.md):
 * a process's cuInit takes about 100 ms when no other process on the
 * machine has the driver initialised, and about 10 ms when one has, even
 * one that created no context (persistence mode on in both cases).  A
 * backend pays cuInit before its first GROUP BY (or on its start-up thread,
 * preinit.c), so one process that holds the driver open saves each new
 * session about 90 ms.  The keeper creates no context: it holds no device
 * memory and runs nothing on the GPU.
 *
 * Registered from _PG_init when gpugb is in shared_preload_libraries and
 * gpugb.device_keeper is on; it takes one of max_worker_processes, and
 * pg_stat_activity shows it (backend_type "gpugb device keeper").  While it
 * runs the driver stays loaded, so a GPU reset or a driver unload needs the
 * setting off (and a server restart).  Where there is no driver or no
 * device it logs why and exits for good (exit code 0 unregisters a worker).
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/guc.h"

#include "gpugb.h"
#include "gpugb_device.h"

bool		gpugb_device_keeper = true;

PGDLLEXPORT void gpugb_keeper_main(Datum arg);

void
gpugb_keeper_main(Datum arg)
{
	int			devices;

	pqsignal(SIGTERM, die);
	pqsignal(SIGHUP, SIG_IGN);	/* a reload changes nothing the keeper uses */
	pqsignal(SIGINT, SIG_IGN);	/* nothing to cancel */
	BackgroundWorkerUnblockSignals();
	/* No database: only so that pg_stat_activity shows the worker. */
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);

	devices = gpugb_device_driver_init();
	if (devices <= 0)
	{
		ereport(LOG,
				(errmsg("gpugb device keeper: %s, exiting",
						devices < 0 ? "no CUDA driver" : "no CUDA device")));
		proc_exit(0);
	}
	ereport(DEBUG1, (errmsg("gpugb device keeper: CUDA driver initialised, %d device(s)", devices)));

	for (;;)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_EXIT_ON_PM_DEATH, -1L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

void
gpugb_keeper_init(void)
{
	BackgroundWorker worker;

	DefineCustomBoolVariable("gpugb.device_keeper",
							 "Keeps the CUDA driver initialised in a background worker.",
							 "Shortens every new session's CUDA start-up by about 90 ms; "
							 "the worker holds no device memory.  Needs gpugb in "
							 "shared_preload_libraries.",
							 &gpugb_device_keeper, true, PGC_POSTMASTER, 0,
							 NULL, NULL, NULL);
	if (!process_shared_preload_libraries_in_progress || !gpugb_device_keeper)
		return;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
	/*
	 * Never restarted: a keeper killed inside the driver counts as a crash,
	 * which restarts every backend, and a keeper that crashed again at each
	 * start would keep the server restarting.  Without it sessions only
	 * start CUDA more slowly, until the server's next start.
	 */
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "gpugb");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "gpugb_keeper_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "gpugb device keeper");
	snprintf(worker.bgw_type, BGW_MAXLEN, "gpugb device keeper");
	RegisterBackgroundWorker(&worker);
}
