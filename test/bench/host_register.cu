/*
 * host_register.cu
 *    What registering PostgreSQL's parallel DSM with CUDA costs, and how fast
 *    the device then reads it: the measurement behind the direct slot copy
 *    of parallel ingest (src/parallel.c, issue 5).
 *
 * A parallel query's DSM segment is a POSIX shared memory object
 * (dynamic_shared_memory_type = posix): shm_open, posix_fallocate, mmap
 * MAP_SHARED.  This program makes one the same way, touches it as the
 * workers would, then times cudaHostRegister / cudaHostUnregister and the
 * host-to-device bandwidth from it, against cudaHostAlloc'ed memory and
 * against pageable memory.
 *
 * Build and run (GPU box):
 *   nvcc -O2 -arch=sm_90 -o /tmp/host_register test/bench/host_register.cu && /tmp/host_register
 */
#include <chrono>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static double
ms_since(std::chrono::steady_clock::time_point t0)
{
	return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

static void *
posix_segment(size_t bytes, bool touch)
{
	char		name[64];
	int			fd;
	void	   *p;

	snprintf(name, sizeof(name), "/gpugb.hostreg.%d", (int) getpid());
	fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || posix_fallocate(fd, 0, bytes) != 0)
	{
		perror("shm_open/posix_fallocate");
		exit(1);
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	shm_unlink(name);
	if (p == MAP_FAILED)
	{
		perror("mmap");
		exit(1);
	}
	if (touch)
		memset(p, 1, bytes);
	return p;
}

/* GB/s of `reps` copies of `bytes` from src to dst on one stream. */
static double
h2d_gbps(void *dst, const void *src, size_t bytes, int reps)
{
	cudaEvent_t a,
				b;
	float		ms;

	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
	CHECK(cudaEventRecord(a));
	for (int r = 0; r < reps; r++)
		CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice));
	CHECK(cudaEventRecord(b));
	CHECK(cudaEventSynchronize(b));
	CHECK(cudaEventElapsedTime(&ms, a, b));
	return (double) bytes * reps / (ms * 1e6);
}

int
main(void)
{
	const size_t sizes[] = {(size_t) 64 << 20, (size_t) 256 << 20, (size_t) 512 << 20};
	void	   *dev;

	CHECK(cudaSetDevice(0));
	CHECK(cudaFree(0));
	CHECK(cudaMalloc(&dev, (size_t) 512 << 20));

	for (size_t bytes : sizes)
	{
		for (int touch = 0; touch <= 1; touch++)
		{
			void	   *seg = posix_segment(bytes, touch);
			auto		t0 = std::chrono::steady_clock::now();

			CHECK(cudaHostRegister(seg, bytes, cudaHostRegisterDefault));
			double		reg_ms = ms_since(t0);
			double		gbps = h2d_gbps(dev, seg, bytes, 4);

			/* Small copies, as one slot column: 64K rows x 8 bytes. */
			double		small = h2d_gbps(dev, seg, 65536 * 8, 200);

			t0 = std::chrono::steady_clock::now();
			CHECK(cudaHostUnregister(seg));
			double		unreg_ms = ms_since(t0);

			printf("posix shm %4zu MB %-9s: register %7.2f ms, unregister %6.2f ms, "
				   "H2D %5.1f GB/s (512 KB copies %5.1f GB/s)\n",
				   bytes >> 20, touch ? "touched" : "untouched", reg_ms, unreg_ms, gbps, small);
			munmap(seg, bytes);
		}
	}

	/* References: cudaHostAlloc'ed and pageable memory of 512 MB. */
	{
		size_t		bytes = (size_t) 512 << 20;
		void	   *pinned;
		auto		t0 = std::chrono::steady_clock::now();

		CHECK(cudaHostAlloc(&pinned, bytes, cudaHostAllocDefault));
		double		alloc_ms = ms_since(t0);

		memset(pinned, 1, bytes);
		printf("cudaHostAlloc  512 MB          : alloc %7.2f ms, H2D %5.1f GB/s (512 KB copies %5.1f GB/s)\n",
			   alloc_ms, h2d_gbps(dev, pinned, bytes, 4), h2d_gbps(dev, pinned, 65536 * 8, 200));
		CHECK(cudaFreeHost(pinned));

		void	   *pageable = malloc(bytes);

		memset(pageable, 1, bytes);
		printf("pageable       512 MB          : H2D %5.1f GB/s\n", h2d_gbps(dev, pageable, bytes, 2));
		free(pageable);

		/* memcpy on one core: what the leader's copy of slots costs today. */
		void	   *a = malloc(bytes),
				   *b = malloc(bytes);

		memset(a, 1, bytes);
		memset(b, 2, bytes);
		t0 = std::chrono::steady_clock::now();
		memcpy(b, a, bytes);
		printf("memcpy         512 MB          : %7.2f ms (%5.1f GB/s, one core)\n",
			   ms_since(t0), (double) bytes / (ms_since(t0) * 1e6));
	}
	CHECK(cudaFree(dev));
	return 0;
}
