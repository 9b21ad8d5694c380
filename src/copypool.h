/*-------------------------------------------------------------------------
 * copypool.h
 *    The parallel-ingest leader's copies of worker slots into its pinned
 *    strides, spread over a few threads (copypool.c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_COPYPOOL_H
#define GPUGB_COPYPOOL_H

#include "postgres.h"

/* bytes from src to dst, or (src NULL) bytes of dst zeroed */
typedef struct GpugbCopyJob
{
	void	   *dst;
	const void *src;
	Size		bytes;
} GpugbCopyJob;

/* Does every job, and returns when all are done. */
extern void gpugb_copy_jobs(const GpugbCopyJob *jobs, int n_jobs);

#endif							/* GPUGB_COPYPOOL_H */
