/*-------------------------------------------------------------------------
 * device_ops.h
 *    The device API as a table of functions, so the executor can run the
 *    same GPU path against the real CUDA module or against the CPU
 *    emulator (gpugb.emulate_device, for machines without a GPU).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_DEVICE_OPS_H
#define GPUGB_DEVICE_OPS_H

#include "gpugb_device.h"

typedef struct GpugbDeviceOps
{
	const char *name;
	GpugbStatus (*probe) (void);
	const char *(*description) (void);
	const char *(*last_error) (void);
	GpugbStatus (*create) (const GpugbGroupBySpec *spec, GpugbGroupBy **out);
	GpugbStatus (*host_register) (void *ptr, size_t bytes);
	void		(*host_unregister) (void *ptr, size_t bytes);
	GpugbStatus (*next_stride) (GpugbGroupBy *gb, GpugbStride **stride);
	GpugbStatus (*append) (GpugbGroupBy *gb, GpugbStride *stride, const GpugbStride *src,
						   int *ticket);
	GpugbStatus (*append_done) (GpugbGroupBy *gb, int ticket, bool wait, bool *done);
	GpugbStatus (*submit) (GpugbGroupBy *gb, GpugbStride *stride);
	GpugbStatus (*finish) (GpugbGroupBy *gb, int64_t *n_groups);
	GpugbStatus (*fetch) (GpugbGroupBy *gb, int64_t first, int64_t count,
						  const GpugbGroupResults *out);
	GpugbStatus (*remap_values) (GpugbGroupBy *gb, const int *aggs, int n_aggs,
								 const int64_t *map, int64_t map_len);
	void		(*stats) (const GpugbGroupBy *gb, GpugbStats *stats);
	void		(*destroy) (GpugbGroupBy *gb);
} GpugbDeviceOps;

extern const GpugbDeviceOps gpugb_cuda_ops;
extern const GpugbDeviceOps gpugb_emulator_ops;

extern int	gpugb_emulator_live_handles(void);
extern int64_t gpugb_emulator_registered_bytes(void);

/* The ops gpugb.emulate_device selects. */
extern const GpugbDeviceOps *gpugb_current_device_ops(void);


#endif							/* GPUGB_DEVICE_OPS_H */
