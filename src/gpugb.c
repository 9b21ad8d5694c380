/*-------------------------------------------------------------------------
 * gpugb.c
 *    Entry point of the gpugb extension: wires the modules together.
 *
 * Nothing here touches CUDA: when the library is preloaded, _PG_init runs
 * in the postmaster, and a CUDA context created before fork() is unusable
 * in the children.  The device is opened per backend: lazily, or right
 * after authentication (preinit.c); a background worker keeps the driver
 * initialised for them (keeper.c).
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

#include "gpugb.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

void
_PG_init(void)
{
	gpugb_budget_init();		/* before gpugb_guc_init reserves the prefix */
	gpugb_preinit_init();
	gpugb_keeper_init();
	gpugb_guc_init();
	gpugb_plan_init();
	gpugb_planner_init();
}
