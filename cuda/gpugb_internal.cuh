/*
 * gpugb_internal.cuh
 *    Host-side plumbing shared by the cuda/ translation units: error
 *    recording, the process-wide resource tally, and tracked allocation
 *    helpers.  Never included by src/.
 *
 * Invariants:
 *  - Every device buffer, pinned buffer, stream and event a handle owns is
 *    obtained and released through the helpers below, so the process tally
 *    (gpugb_device_usage) and the handle's own account always agree with
 *    what is really held.  Release helpers are idempotent (they clear the
 *    handle they are given), which makes half-built handles safe to destroy.
 *  - Failures are turned into a GpugbStatus plus a message in the static
 *    last-error buffer; nothing here throws, exits or aborts.
 */
#ifndef GPUGB_INTERNAL_CUH
#define GPUGB_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "gpugb_device.h"

/* The Makefile builds with -fvisibility=hidden; only the C API is exported. */
#define GPUGB_API extern "C" __attribute__((visibility("default")))

/* Per-handle resource account; the process tally is kept alongside it. */
struct GpugbAccount
{
	int64_t		device_bytes = 0;
	int64_t		peak_device_bytes = 0;
	int64_t		device_limit = 0;	/* 0 = unlimited */
	int64_t		pinned_bytes = 0;
	int			streams = 0;
	int			events = 0;
	/*
	 * Host time in cudaMalloc and cudaFree (gpugb_dev_alloc, gpugb_dev_free):
	 * a PARTITION launch over 2^28 device-resident rows allocates about 12 GB
	 * of scratch, and the kernels' sum (Nsight Compute, session 34) left
	 * 1.9 ms of its 13.3 unexplained.
	 */
	double		alloc_ms = 0;
};

struct DevBuf
{
	void	   *ptr = nullptr;
	size_t		bytes = 0;
	const char *what = nullptr;	/* gpugb_dev_alloc's name for it, a literal (the alloc trace) */
};

struct HostBuf
{
	void	   *ptr = nullptr;
	size_t		bytes = 0;
};

/* Records "where: what: cuda error text" as the last error. */
void		gpugb_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Checks a CUDA return code.  On failure records the call site, clears the
 * (non-sticky) CUDA error state so the context stays usable, and maps the
 * error to a status (allocation failures become GPUGB_OUT_OF_MEMORY).
 */
GpugbStatus gpugb_check(cudaError_t err, const char *call, const char *file, int line);

#define GPUGB_CUDA(call) gpugb_check((call), #call, __FILE__, __LINE__)
/* Propagates a non-OK status out of the calling function. */
#define GPUGB_TRY(expr) \
	do { GpugbStatus st_ = (expr); if (st_ != GPUGB_OK) return st_; } while (0)
/* After a kernel launch: configuration errors show up here, not at sync. */
#define GPUGB_LAUNCHED(name) gpugb_check(cudaGetLastError(), "launch " name, __FILE__, __LINE__)

/* Device properties cached by the probe (valid once probe returned OK). */
int			gpugb_sm_count(void);

/* Tracked resources. */
GpugbStatus gpugb_dev_alloc(GpugbAccount *acct, DevBuf *buf, size_t bytes, const char *what);
void		gpugb_dev_free(GpugbAccount *acct, DevBuf *buf);
GpugbStatus gpugb_host_alloc(GpugbAccount *acct, HostBuf *buf, size_t bytes, const char *what);
void		gpugb_host_free(GpugbAccount *acct, HostBuf *buf);
GpugbStatus gpugb_stream_create(GpugbAccount *acct, cudaStream_t *stream);
void		gpugb_stream_destroy(GpugbAccount *acct, cudaStream_t *stream);
GpugbStatus gpugb_event_create(GpugbAccount *acct, cudaEvent_t *event);
void		gpugb_event_destroy(GpugbAccount *acct, cudaEvent_t *event);
void		gpugb_handles_adjust(int delta);

#endif							/* GPUGB_INTERNAL_CUH */
