/*
 * thrust_baseline.cu
 *    Runs the naive Thrust baseline (thrust_groupby.cuh) on the device,
 *    times it, and checksums its result, which is the reference every gpugb
 *    strategy is verified against.
 *
 * Fairness: the baseline's working arrays are allocated once up front (as a
 * gpugb handle's creation is excluded from its time), and Thrust's own
 * temporary storage comes from a cache, so the timed region is the copy,
 * sort, gather and reduce, not cudaMalloc/cudaFree of gigabytes.
 */
#include <chrono>
#include <cuda_runtime.h>
#include <exception>
#include <map>
#include <new>
#include <thrust/execution_policy.h>

#include "thrust_groupby.cuh"

/*
 * Thrust's temporary allocations, kept for reuse.  A freed block serves a
 * later request of up to its size, but not a much smaller one, so one huge
 * sort buffer is not pinned down by a tiny reduce buffer.
 */
class KbCachingAllocator
{
  public:
	typedef char value_type;

	~KbCachingAllocator() { release(); }

	char	   *allocate(std::ptrdiff_t n)
	{
		size_t		want = (size_t) n;
		auto		it = free_.lower_bound(want);

		if (it != free_.end() && it->first <= 2 * want + (1u << 20))
		{
			char	   *p = it->second;

			used_[p] = it->first;
			free_.erase(it);
			return p;
		}
		char	   *p = nullptr;

		if (cudaMalloc(&p, want) != cudaSuccess)
		{
			/* Give cached blocks back and try once more before failing. */
			(void) cudaGetLastError();
			release();
			if (cudaMalloc(&p, want) != cudaSuccess)
			{
				(void) cudaGetLastError();
				throw std::bad_alloc();
			}
		}
		used_[p] = want;
		return p;
	}

	void		deallocate(char *p, size_t)
	{
		auto		it = used_.find(p);

		if (it == used_.end())
			return;
		free_.insert(std::make_pair(it->second, p));
		used_.erase(it);
	}

	void		release()
	{
		for (auto &f : free_)
			(void) cudaFree(f.second);
		free_.clear();
	}

  private:
	std::multimap<size_t, char *> free_;
	std::map<char *, size_t> used_;
};

struct KbThrustScratch
{
	KbCachingAllocator alloc;
	int64_t		rows = 0;
	int64_t		max_groups = 0;
	int			max_payloads = 0;
	int64_t    *keys = nullptr;
	uint32_t   *perm = nullptr;
	int64_t    *gathered = nullptr;
	int64_t    *out_keys = nullptr;
	void	   *out_acc = nullptr;	/* KbAcc<P>, P <= max_payloads */
};

static void *
scratch_alloc(size_t bytes, const char *what)
{
	void	   *p = nullptr;

	kb_cuda_check(cudaMalloc(&p, bytes ? bytes : 1), what);
	return p;
}

KbThrustScratch *
kb_thrust_scratch_create(int64_t rows, int max_payloads, int64_t max_groups)
{
	KbThrustScratch *s = new KbThrustScratch();
	size_t		n = (size_t) rows;
	size_t		groups = (size_t) (max_groups < rows ? max_groups : rows);

	s->rows = rows;
	s->max_groups = (int64_t) groups;
	s->max_payloads = max_payloads;
	s->keys = (int64_t *) scratch_alloc(n * 8, "cudaMalloc (thrust keys)");
	s->perm = (uint32_t *) scratch_alloc(n * 4, "cudaMalloc (thrust permutation)");
	s->gathered = (int64_t *) scratch_alloc(n * 8 * max_payloads, "cudaMalloc (thrust gather)");
	s->out_keys = (int64_t *) scratch_alloc(groups * 8, "cudaMalloc (thrust output keys)");
	/* sizeof(KbAcc<P>) = 8 (P + 1) for P >= 1, 16 for P = 0 */
	s->out_acc = scratch_alloc(groups * 8 * ((max_payloads > 1 ? max_payloads : 1) + 1), "cudaMalloc (thrust output)");
	return s;
}

void
kb_thrust_scratch_destroy(KbThrustScratch *s)
{
	if (s == nullptr)
		return;
	(void) cudaFree(s->keys);
	(void) cudaFree(s->perm);
	(void) cudaFree(s->gathered);
	(void) cudaFree(s->out_keys);
	(void) cudaFree(s->out_acc);
	delete s;
}

template <int P>
static bool
run_baseline(KbThrustScratch *s, const KbDeviceData &d, double *seconds, int64_t *groups,
			 KbChecksum *cs, std::string *error)
{
	KbThrustArrays<P> w = {s->keys, s->perm, s->gathered, s->out_keys, (KbAcc<P> *) s->out_acc};

	try
	{
		kb_cuda_check(cudaDeviceSynchronize(), "before thrust");
		auto		t0 = std::chrono::steady_clock::now();
		int64_t		n = kb_thrust_groupby_impl<P>(thrust::cuda::par(s->alloc), d.keys, d.payload,
												  d.rows, w);

		kb_cuda_check(cudaDeviceSynchronize(), "thrust baseline");
		*seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
		*groups = n;
		*cs = kb_thrust_checksum_impl<P>(thrust::cuda::par(s->alloc), w, n);
		return true;
	}
	catch (const std::exception &e)
	{
		/* Thrust reports CUDA errors and failed allocations by exceptions. */
		(void) cudaGetLastError();
		*error = std::string("thrust: ") + e.what();
		return false;
	}
}

bool
kb_thrust_groupby(KbThrustScratch *s, const KbDeviceData &d, int payloads, double *seconds,
				  int64_t *groups, KbChecksum *cs, std::string *error)
{
	if (payloads < 0 || payloads > s->max_payloads || d.rows != s->rows)
	{
		*error = "thrust: payload count or rows outside the scratch arrays";
		return false;
	}
	switch (payloads)
	{
		case 0:
			return run_baseline<0>(s, d, seconds, groups, cs, error);
		case 1:
			return run_baseline<1>(s, d, seconds, groups, cs, error);
		case 2:
			return run_baseline<2>(s, d, seconds, groups, cs, error);
		case 3:
			return run_baseline<3>(s, d, seconds, groups, cs, error);
		default:
			return run_baseline<4>(s, d, seconds, groups, cs, error);
	}
}
