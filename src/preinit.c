/*-------------------------------------------------------------------------
 * preinit.c
 *    gpugb.preinit_device: start CUDA in a new backend before its first
 *    query needs it.
 *
 * Each backend opens its own CUDA context (one created before fork() would
 * be unusable), and the driver's start-up costs a few hundred
 * milliseconds, which the first GROUP BY of every session would pay inside
 * its planning.  When gpugb is preloaded, a backend starts the probe on a
 * thread of its own as soon as the client has authenticated
 * (ClientAuthentication_hook), so the start-up overlaps the rest of the
 * connection and whatever the client does before its first GROUP BY.  The
 * planner does not wait for the thread (gpugb_device_starting); the
 * executor joins it before its first device call, so a client that groups
 * at once still overlaps its planning and, in a parallel plan, the
 * workers' first strides with the start-up.  The cost: every connection
 * holds a CUDA context (device memory) from the start, even if it never
 * groups; turn the setting off where many idle connections matter more.
 *
 * The thread is joined before the backend exits (on_proc_exit), so process
 * exit never tears CUDA down under a probe in progress.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "storage/ipc.h"
#include "utils/guc.h"

#include "device_ops.h"
#include "gpugb.h"

bool		gpugb_preinit_device = true;

/*
 * From libpq/auth.h, which cannot be included without the GSSAPI headers
 * of builds with GSS (Debian's): the hook and its type, verbatim.
 */
typedef struct Port Port;
typedef void (*ClientAuthentication_hook_type) (Port *, int);
extern PGDLLIMPORT ClientAuthentication_hook_type ClientAuthentication_hook;

static ClientAuthentication_hook_type prev_client_auth_hook = NULL;

bool
gpugb_device_starting(void)
{
	return gpugb_current_device_ops() == &gpugb_cuda_ops && gpugb_device_probe_pending();
}

static void
join_probe_at_exit(int code, Datum arg)
{
	gpugb_device_probe_join();
}

static void
start_device_after_auth(Port *port, int status)
{
	if (prev_client_auth_hook)
		prev_client_auth_hook(port, status);
	if (status != STATUS_OK || !gpugb_preinit_device)
		return;
	if (gpugb_device_probe_async())
		on_proc_exit(join_probe_at_exit, (Datum) 0);
}

void
gpugb_preinit_init(void)
{
	DefineCustomBoolVariable("gpugb.preinit_device",
							 "Starts CUDA in each new session right after authentication.",
							 "Hides the driver's start-up from the first GROUP BY of a "
							 "session; needs gpugb in shared_preload_libraries.  Each "
							 "session then holds a CUDA context from its start.",
							 &gpugb_preinit_device, true, PGC_SIGHUP, 0,
							 NULL, NULL, NULL);
	prev_client_auth_hook = ClientAuthentication_hook;
	ClientAuthentication_hook = start_device_after_auth;
}
