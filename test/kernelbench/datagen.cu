/*
 * datagen.cu
 *    The benchmark's data, made on the device so that 2^28-row inputs never
 *    cross the bus: keys per point (uniform, or Zipf through an inverse-CDF
 *    table built with Thrust), payload columns once, and the read-bandwidth
 *    probe that defines the device-memory floor.
 *
 * The per-row logic lives in kernelbench.h (kb_key_of_row and friends) so
 * the host can check it without a GPU; the kernels here only apply it.
 * Everything runs on the legacy default stream and ends with a device
 * synchronisation, so gpugb's non-blocking streams always see finished data.
 */
#include <cuda_runtime.h>
#include <exception>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include "kernelbench.h"

static const int GEN_BLOCK = 256;

static int
sm_count(void)
{
	static int	sms = 0;

	if (sms == 0)
	{
		kb_cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0),
					  "cudaDeviceGetAttribute");
		if (sms < 1)
			sms = 1;
	}
	return sms;
}

/* Grid-stride kernels: enough blocks to fill every SM, no more. */
static unsigned
grid_for(int64_t n)
{
	int64_t		blocks = (n + GEN_BLOCK - 1) / GEN_BLOCK;
	int64_t		cap = (int64_t) sm_count() * (2048 / GEN_BLOCK);

	return (unsigned) (blocks < 1 ? 1 : blocks > cap ? cap : blocks);
}

__global__ void
gen_keys_kernel(int64_t *keys, int64_t rows, uint64_t g, const double *cdf, double total,
				int key_bytes, uint64_t seed)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < rows;
		 i += (int64_t) gridDim.x * blockDim.x)
		keys[i] = kb_key_of_row((uint64_t) i, g, cdf, total, key_bytes, seed);
}

__global__ void
gen_payload_kernel(int64_t *payload, int64_t rows, int ncols, uint64_t seed)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < rows;
		 i += (int64_t) gridDim.x * blockDim.x)
		for (int c = 0; c < ncols; c++)
			payload[c * rows + i] = kb_payload_of_row((uint64_t) i, c, seed);
}

/* Zipf weight of rank r (0-based): 1 / (r + 1)^s. */
struct ZipfWeight
{
	double		s;

	__host__ __device__ double operator()(int64_t r) const
	{
		return pow((double) (r + 1), -s);
	}
};

static void
synchronize(const char *what)
{
	kb_cuda_check(cudaGetLastError(), what);
	kb_cuda_check(cudaDeviceSynchronize(), what);
}

void
kb_generate_payloads(const KbDeviceData &d, int ncols, uint64_t seed)
{
	gen_payload_kernel<<<grid_for(d.rows), GEN_BLOCK>>>(d.payload, d.rows, ncols, seed);
	synchronize("gen_payload_kernel");
}

/*
 * Builds the unnormalised CDF of Zipf(s) over g ranks in d.cdf and returns
 * its total.  Doubles: the sum of 2^26 weights of 1/sqrt(r) is ~16384 and
 * each step must still be resolved, which float could not do.
 */
static double
build_zipf_cdf(const KbDeviceData &d, double s, int64_t g)
{
	double		total = 0;

	if (g > d.cdf_capacity)
		kb_fatal("Zipf table of %lld ranks exceeds its buffer (%lld)", (long long) g,
				 (long long) d.cdf_capacity);
	try
	{
		thrust::counting_iterator<int64_t> first(0);

		thrust::transform(thrust::cuda::par, first, first + g, d.cdf, ZipfWeight{s});
		thrust::inclusive_scan(thrust::cuda::par, d.cdf, d.cdf + g, d.cdf);
	}
	catch (const std::exception &e)
	{
		kb_fatal("building the Zipf table: %s", e.what());
	}
	kb_cuda_check(cudaMemcpy(&total, d.cdf + g - 1, sizeof(total), cudaMemcpyDeviceToHost),
				  "copying the Zipf total");
	return total;
}

/*
 * clustered: the keys sorted, as a table stored in key order delivers its
 * rows: each group's rows consecutive, the groups in their keys' order,
 * which the scramble makes unrelated to their ranks (the hottest do not
 * come first).  The payloads stay where they were drawn.
 */
void
kb_generate_keys(const KbDeviceData &d, int key_bytes, double zipf_s, int64_t g, uint64_t seed,
				 bool clustered)
{
	const double *cdf = nullptr;
	double		total = 0;

	if (zipf_s > 0)
	{
		total = build_zipf_cdf(d, zipf_s, g);
		cdf = d.cdf;
	}
	gen_keys_kernel<<<grid_for(d.rows), GEN_BLOCK>>>(d.keys, d.rows, (uint64_t) g, cdf, total,
													 key_bytes, seed);
	synchronize("gen_keys_kernel");
	if (!clustered)
		return;
	try
	{
		thrust::sort(thrust::cuda::par, d.keys, d.keys + d.rows);
	}
	catch (const std::exception &e)
	{
		kb_fatal("sorting the keys (--clustered): %s", e.what());
	}
	synchronize("sorting the keys");
}

/* ---------------------------------------------------------------------
 * Read bandwidth
 * --------------------------------------------------------------------- */

/*
 * Sums a buffer with 16-byte loads, four independent loads in flight per
 * thread per iteration (what a streaming aggregation needs to saturate
 * HBM); the sum is stored so the loads cannot be optimised away.
 */
__global__ void
read_kernel(const uint4 *__restrict__ p, size_t n, unsigned long long *out)
{
	size_t		stride = (size_t) gridDim.x * blockDim.x;
	size_t		i = blockIdx.x * (size_t) blockDim.x + threadIdx.x;
	unsigned long long s = 0;

	for (; i + 3 * stride < n; i += 4 * stride)
	{
		uint4		a = p[i],
					b = p[i + stride],
					c = p[i + 2 * stride],
					e = p[i + 3 * stride];

		s += (unsigned long long) (a.x ^ b.y ^ c.z ^ e.w) + (a.y ^ b.z ^ c.w ^ e.x) +
			(a.z ^ b.w ^ c.x ^ e.y) + (a.w ^ b.x ^ c.y ^ e.z);
	}
	for (; i < n; i += stride)
	{
		uint4		a = p[i];

		s += (unsigned long long) a.x + a.y + a.z + a.w;
	}
	for (int off = 16; off > 0; off /= 2)
		s += __shfl_down_sync(0xFFFFFFFFu, s, off);
	if ((threadIdx.x & 31) == 0)
		atomicAdd(out, s);
}

/* Best of several passes over `bytes` (a multiple of 16) at `buf`; 1e9 bytes/s. */
double
kb_measure_bandwidth(const void *buf, size_t bytes, int sms)
{
	const int	passes = 6;
	unsigned long long *sum = nullptr;
	cudaEvent_t ev0,
				ev1;
	float		best_ms = 0;
	unsigned	grid = (unsigned) sms * 8;

	kb_cuda_check(cudaMalloc(&sum, sizeof(*sum)), "cudaMalloc (bandwidth)");
	kb_cuda_check(cudaEventCreate(&ev0), "cudaEventCreate");
	kb_cuda_check(cudaEventCreate(&ev1), "cudaEventCreate");
	/* Pass 0 warms up (clocks, TLB) and is not counted. */
	for (int pass = 0; pass <= passes; pass++)
	{
		float		ms = 0;

		kb_cuda_check(cudaEventRecord(ev0), "cudaEventRecord");
		read_kernel<<<grid, 256>>>((const uint4 *) buf, bytes / 16, sum);
		kb_cuda_check(cudaGetLastError(), "read_kernel");
		kb_cuda_check(cudaEventRecord(ev1), "cudaEventRecord");
		kb_cuda_check(cudaEventSynchronize(ev1), "read_kernel");
		kb_cuda_check(cudaEventElapsedTime(&ms, ev0, ev1), "cudaEventElapsedTime");
		if (pass > 0 && (best_ms == 0 || ms < best_ms))
			best_ms = ms;
	}
	(void) cudaEventDestroy(ev0);
	(void) cudaEventDestroy(ev1);
	(void) cudaFree(sum);
	return best_ms > 0 ? (double) bytes / (best_ms * 1e-3) / 1e9 : 0;
}
