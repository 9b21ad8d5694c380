/*
 * cuda_startup.cu — where a new process's CUDA start-up goes (issue 5, item 4).
 *
 * Times, in one fresh process, each step a gpugb backend takes before its
 * first GROUP BY can run: loading the driver library, cuInit (through the
 * runtime's first call), the primary context, the device queries of the
 * probe, and the first allocations, stream and kernel launch.  Prints one
 * line of milliseconds per step.  Run it several times, alone and while
 * another process holds a context (--hold SECONDS keeps one open) or has
 * only initialised the driver (--hold-init SECONDS), to see what a backend
 * pays and what another CUDA process on the box changes.
 *
 *   nvcc -O2 -o /tmp/cuda_startup test/bench/cuda_startup.cu -ldl
 *   for i in 1 2 3; do /tmp/cuda_startup; done
 *   /tmp/cuda_startup --hold 20 & sleep 3; for i in 1 2 3; do /tmp/cuda_startup; done
 */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__global__ void
touch(int *p)
{
	if (p)
		p[threadIdx.x] = threadIdx.x;
}

#define STEP(name, call) \
	do { \
		double t0_ = now_ms(); \
		cudaError_t e_ = (call); \
		double dt_ = now_ms() - t0_; \
		if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", name, cudaGetErrorString(e_)); return 1; } \
		printf(" %s=%.1f", name, dt_); \
	} while (0)

int
main(int argc, char **argv)
{
	double		start = now_ms();
	int			count = 0,
				value = 0;
	void	   *dev = NULL,
			   *host = NULL;
	cudaStream_t stream;
	cudaDeviceProp prop;
	int			hold = argc > 2 && strcmp(argv[1], "--hold") == 0 ? atoi(argv[2]) : 0;
	int			hold_init = argc > 2 && strcmp(argv[1], "--hold-init") == 0 ? atoi(argv[2]) : 0;

	printf("steps(ms):");
	{
		/* what the runtime's first call would do first, timed on its own */
		double		t0 = now_ms();
		void	   *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);

		printf(" dlopen_libcuda=%.1f%s", now_ms() - t0, h ? "" : "(failed)");
	}
	STEP("get_device_count(cuInit)", cudaGetDeviceCount(&count));
	if (hold_init > 0)
	{
		printf("\n");
		fflush(stdout);
		sleep(hold_init);
		return 0;
	}
	STEP("set_device", cudaSetDevice(0));
	STEP("free0(context)", cudaFree(0));
	STEP("get_device_properties", cudaGetDeviceProperties(&prop, 0));
	STEP("attribute", cudaDeviceGetAttribute(&value, cudaDevAttrL2CacheSize, 0));
	STEP("stream_create", cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	STEP("malloc_async_64MB", cudaMallocAsync(&dev, 64 << 20, stream));
	STEP("host_alloc_64MB", cudaHostAlloc(&host, 64 << 20, cudaHostAllocDefault));
	{
		double		t0 = now_ms();

		touch<<<1, 32, 0, stream>>>((int *) dev);
		cudaError_t e = cudaStreamSynchronize(stream);

		printf(" first_launch=%.1f%s", now_ms() - t0, e == cudaSuccess ? "" : "(failed)");
	}
	STEP("free_async", cudaFreeAsync(dev, stream));
	STEP("free_host", cudaFreeHost(host));
	printf(" total=%.1f\n", now_ms() - start);
	fflush(stdout);
	if (hold > 0)
		sleep(hold);
	return 0;
}
