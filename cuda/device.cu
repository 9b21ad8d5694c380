/*
 * device.cu
 *    Device discovery (lazy, cached probe), the human-readable description,
 *    the last-error buffer, status names, and the tracked allocation helpers
 *    that keep the process-wide usage tally exact.
 *
 * Invariants:
 *  - CUDA is touched for the first time by the probe (gpugb_device_probe,
 *    or the start-up thread of gpugb_device_probe_async), never at load
 *    time: the runtime is linked statically and dlopens libcuda only then,
 *    so the library loads on machines without a GPU or driver.
 *  - The probe result is computed once per process and cached (also a
 *    failure: a process without a driver will not get one later).
 *  - The tally only changes in the helpers below, by exactly the amount
 *    that was really obtained or released.
 *  - One thread per process uses this module (PostgreSQL backends are single
 *    threaded), apart from the start-up probe thread, which only runs the
 *    probe and is joined before anything else touches CUDA; the tally
 *    still uses atomics so a threaded test cannot corrupt it.
 */
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gpugb_internal.cuh"

static char last_error[1024] = "no error";
static char description[512] = "device not probed";

static std::atomic<bool> probed{false};
static std::atomic<bool> props_ready{false};	/* device_props hold the device's values */
static GpugbStatus probe_status = GPUGB_NO_DEVICE;
static int	sm_count = 1;
/* Read from the device by the probe (H200, sm_90, values until then). */
static GpugbDeviceProps device_props;

static std::atomic<int64_t> tally_device_bytes{0};
static std::atomic<int64_t> tally_pinned_bytes{0};
static std::atomic<int> tally_streams{0};
static std::atomic<int> tally_handles{0};

static GpugbBudgetReserve budget_reserve = nullptr;
static GpugbBudgetRelease budget_release = nullptr;
static GpugbAllocTrace alloc_trace = nullptr;

GPUGB_API void
gpugb_device_set_budget(GpugbBudgetReserve reserve, GpugbBudgetRelease release)
{
	budget_reserve = reserve;
	budget_release = release;
}

GPUGB_API void
gpugb_device_set_alloc_trace(GpugbAllocTrace trace)
{
	alloc_trace = trace;
}

void
gpugb_set_error(const char *fmt, ...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

GpugbStatus
gpugb_check(cudaError_t err, const char *call, const char *file, int line)
{
	if (err == cudaSuccess)
		return GPUGB_OK;
	/* Reset the runtime's last-error slot; sticky errors stay sticky anyway. */
	(void) cudaGetLastError();
	gpugb_set_error("%s:%d: %s: %s (%s)", file, line, call,
					cudaGetErrorString(err), cudaGetErrorName(err));
	if (err == cudaErrorMemoryAllocation)
		return GPUGB_OUT_OF_MEMORY;
	if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
		return GPUGB_NO_DEVICE;
	return GPUGB_CUDA_ERROR;
}

GPUGB_API void
gpugb_device_properties(GpugbDeviceProps *props)
{
	static const GpugbDeviceProps h200 = {132, 60ll << 20, 48ll << 10, 228ll << 10, 141ll << 30, 227ll << 10};

	/* Never reads what a start-up thread may be writing. */
	*props = props_ready.load(std::memory_order_acquire) ? device_props : h200;
}

int
gpugb_sm_count(void)
{
	return sm_count;
}

static GpugbStatus
probe_once(void)
{
	int			count = 0;
	cudaError_t err = cudaGetDeviceCount(&count);

	if (err != cudaSuccess)
	{
		(void) cudaGetLastError();
		if (err == cudaErrorNoDevice)
			snprintf(description, sizeof(description), "no device: no CUDA device (%s)",
					 cudaGetErrorString(err));
		else
			snprintf(description, sizeof(description), "no device: no CUDA driver: %s (%s)",
					 cudaGetErrorString(err), cudaGetErrorName(err));
		gpugb_set_error("gpugb_device_probe: %s", description);
		return GPUGB_NO_DEVICE;
	}
	if (count <= 0)
	{
		snprintf(description, sizeof(description), "no device: no CUDA device");
		gpugb_set_error("gpugb_device_probe: %s", description);
		return GPUGB_NO_DEVICE;
	}
	/* cudaFree(0) forces context creation now, where its cost is expected. */
	if ((err = cudaSetDevice(0)) != cudaSuccess || (err = cudaFree(0)) != cudaSuccess)
	{
		(void) cudaGetLastError();
		snprintf(description, sizeof(description), "no device: cannot initialise device 0: %s (%s)",
				 cudaGetErrorString(err), cudaGetErrorName(err));
		gpugb_set_error("gpugb_device_probe: %s", description);
		return GPUGB_NO_DEVICE;
	}

	cudaDeviceProp prop;
	int			major = 0,
				minor = 0,
				l2 = 0;

	if ((err = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess ||
		(err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0)) != cudaSuccess ||
		(err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0)) != cudaSuccess ||
		(err = cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0)) != cudaSuccess ||
		(err = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0)) != cudaSuccess)
	{
		(void) cudaGetLastError();
		snprintf(description, sizeof(description), "no device: cannot query device 0: %s",
				 cudaGetErrorString(err));
		gpugb_set_error("gpugb_device_probe: %s", description);
		return GPUGB_NO_DEVICE;
	}
	/* The kernels use sm_70+ features (independent thread scheduling, match). */
	if (major < 7)
	{
		snprintf(description, sizeof(description), "no device: %s is sm_%d%d, need sm_70 or newer",
				 prop.name, major, minor);
		gpugb_set_error("gpugb_device_probe: %s", description);
		return GPUGB_NO_DEVICE;
	}
	if (sm_count < 1)
		sm_count = 1;
	device_props.sm_count = sm_count;
	device_props.l2_bytes = l2;
	device_props.shared_bytes_per_block = (int64_t) prop.sharedMemPerBlock;
	device_props.shared_bytes_per_sm = (int64_t) prop.sharedMemPerMultiprocessor;
	device_props.global_bytes = (int64_t) prop.totalGlobalMem;
	device_props.shared_bytes_per_block_optin = (int64_t) prop.sharedMemPerBlockOptin;
	snprintf(description, sizeof(description), "%s, sm_%d%d, %d SMs, %d MB L2, %lld GB",
			 prop.name, major, minor, sm_count, l2 >> 20,
			 (long long) ((prop.totalGlobalMem + (1u << 29)) >> 30));
	return GPUGB_OK;
}

/*
 * CUDA gives each context 8 hardware work queues by default, and creating
 * them is half of a context's start-up on the GPU box (with the keeper up:
 * about 140 ms with 8, 75 ms with 2, 60 ms with 1; test/bench/cuda_startup.cu).
 * One queue serializes the work of a handle's two streams (GPUGB_N_SETS) in
 * submission order; gpugb's strides are filled by the CPU far more slowly
 * than the device copies and aggregates them, and TPC-H Q1 at SF 10 took the
 * same time with 1, 2 and 8 queues (docs/startup-2026-11-27.md).  Set in
 * this process only, before its first CUDA call (the runtime reads it when
 * it creates the context), and only where the environment does not set it.
 * Called with no CUDA thread of this module running (setenv is not safe
 * against a concurrent getenv).
 */
static void
limit_work_queues(void)
{
	setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 0);
}

/*
 * The probe runs once per process, either on the caller's thread or on a
 * start-up thread (gpugb_device_probe_async) whose work the first caller
 * joins.  call_once makes both paths one: whichever runs first does the
 * work, a concurrent caller waits for it, and the results (status,
 * description, properties) are published by call_once's synchronisation.
 */
static std::once_flag probe_flag;
static std::thread *probe_thread = nullptr;

static void
run_probe(void)
{
	probe_status = probe_once();
	probed = true;
	props_ready.store(probe_status == GPUGB_OK, std::memory_order_release);
}

/*
 * Starts body on a new thread that never takes a signal meant for the
 * process (a backend's cancel and latch wake-ups, a worker's shutdown): it
 * starts with every signal blocked, as CUDA's own threads do, and so does
 * every thread the driver starts from it.  The caller's mask is back on
 * return.  nullptr where no thread could be started.
 */
template <typename Body>
static std::thread *
start_thread_without_signals(Body body)
{
	sigset_t	all,
				old;
	std::thread *thread;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	try
	{
		thread = new std::thread(body);
	}
	catch (...)
	{
		thread = nullptr;
	}
	pthread_sigmask(SIG_SETMASK, &old, nullptr);
	return thread;
}

GPUGB_API bool
gpugb_device_probe_async(void)
{
	if (probe_thread != nullptr || probed)
		return false;
	limit_work_queues();
	/* no thread: the first query probes itself */
	probe_thread = start_thread_without_signals([] { std::call_once(probe_flag, run_probe); });
	return probe_thread != nullptr;
}

/*
 * Initializes the driver only (cuInit, through the runtime's first call),
 * with no context: for the device keeper (src/keeper.c), a process that
 * stays up so that every backend's own cuInit finds the driver already
 * initialised (about 10 ms on the GPU box instead of 100).  On a thread of
 * its own (start_thread_without_signals), so the caller takes its signals
 * (shutdown) while it waits and acts on them once the driver returns.
 */
GPUGB_API int
gpugb_device_driver_init(void)
{
	int			count = -1;
	std::thread *init = start_thread_without_signals([&count] {
		if (cudaGetDeviceCount(&count) != cudaSuccess)
		{
			(void) cudaGetLastError();
			count = -1;
		}
	});

	if (init == nullptr)
		return -1;
	init->join();
	delete init;
	return count;
}

GPUGB_API bool
gpugb_device_probe_pending(void)
{
	return probe_thread != nullptr && !probed;
}

GPUGB_API bool
gpugb_device_properties_known(void)
{
	return props_ready.load(std::memory_order_acquire);
}

GPUGB_API void
gpugb_device_probe_join(void)
{
	if (probe_thread != nullptr)
	{
		probe_thread->join();
		delete probe_thread;
		probe_thread = nullptr;
	}
}

GPUGB_API GpugbStatus
gpugb_device_probe(void)
{
	gpugb_device_probe_join();
	if (!probed)
		limit_work_queues();
	std::call_once(probe_flag, run_probe);
	return probe_status;
}

GPUGB_API const char *
gpugb_device_description(void)
{
	return description;
}

GPUGB_API const char *
gpugb_last_error(void)
{
	return last_error;
}

GPUGB_API const char *
gpugb_status_name(GpugbStatus status)
{
	switch (status)
	{
		case GPUGB_OK:
			return "ok";
		case GPUGB_NO_DEVICE:
			return "no device";
		case GPUGB_OUT_OF_MEMORY:
			return "out of memory";
		case GPUGB_CUDA_ERROR:
			return "CUDA error";
		case GPUGB_INVALID_ARGUMENT:
			return "invalid argument";
	}
	return "unknown status";
}

GPUGB_API void
gpugb_device_usage(GpugbUsage *usage)
{
	if (usage == NULL)
		return;
	usage->device_bytes = tally_device_bytes.load();
	usage->pinned_bytes = tally_pinned_bytes.load();
	usage->streams = tally_streams.load();
	usage->handles = tally_handles.load();
}

void
gpugb_handles_adjust(int delta)
{
	tally_handles += delta;
}

/* ---------------------------------------------------------------------
 * Tracked resources
 * --------------------------------------------------------------------- */

GpugbStatus
gpugb_dev_alloc(GpugbAccount *acct, DevBuf *buf, size_t bytes, const char *what)
{
	buf->ptr = nullptr;
	buf->bytes = 0;
	if (bytes == 0)
		bytes = 1;				/* a valid, distinct pointer keeps callers simple */
	/* Round like the allocator does, so the limit is about real usage. */
	bytes = (bytes + 255) & ~(size_t) 255;
	if (acct->device_limit > 0 &&
		acct->device_bytes + (int64_t) bytes > acct->device_limit)
	{
		gpugb_set_error("device memory limit: %s needs %zu bytes, %lld of %lld held",
						what, bytes, (long long) acct->device_bytes,
						(long long) acct->device_limit);
		return GPUGB_OUT_OF_MEMORY;
	}
	if (budget_reserve != nullptr && !budget_reserve((int64_t) bytes))
	{
		gpugb_set_error("gpugb.max_device_memory: %s needs %zu bytes, which other queries hold",
						what, bytes);
		return GPUGB_OUT_OF_MEMORY;
	}
	auto		t0 = std::chrono::steady_clock::now();
	cudaError_t err = cudaMalloc(&buf->ptr, bytes);
	double		ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

	acct->alloc_ms += ms;
	if (alloc_trace != nullptr)
		alloc_trace(what, err == cudaSuccess ? (int64_t) bytes : 0, ms, false);
	if (err != cudaSuccess)
	{
		buf->ptr = nullptr;
		if (budget_release != nullptr)
			budget_release((int64_t) bytes);
		(void) cudaGetLastError();	/* keep the context usable after an OOM */
		gpugb_set_error("cudaMalloc(%zu) for %s: %s", bytes, what, cudaGetErrorString(err));
		return err == cudaErrorMemoryAllocation ? GPUGB_OUT_OF_MEMORY : GPUGB_CUDA_ERROR;
	}
	buf->bytes = bytes;
	buf->what = what;
	acct->device_bytes += (int64_t) bytes;
	if (acct->device_bytes > acct->peak_device_bytes)
		acct->peak_device_bytes = acct->device_bytes;
	tally_device_bytes += (int64_t) bytes;
	return GPUGB_OK;
}

void
gpugb_dev_free(GpugbAccount *acct, DevBuf *buf)
{
	if (buf->ptr == nullptr)
		return;
	auto		t0 = std::chrono::steady_clock::now();

	/* Errors here are from earlier async work; the memory is gone regardless. */
	(void) cudaFree(buf->ptr);
	(void) cudaGetLastError();

	double		ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

	acct->alloc_ms += ms;
	if (alloc_trace != nullptr)
		alloc_trace(buf->what, (int64_t) buf->bytes, ms, true);
	acct->device_bytes -= (int64_t) buf->bytes;
	tally_device_bytes -= (int64_t) buf->bytes;
	if (budget_release != nullptr)
		budget_release((int64_t) buf->bytes);
	buf->ptr = nullptr;
	buf->bytes = 0;
	buf->what = nullptr;
}

GpugbStatus
gpugb_host_alloc(GpugbAccount *acct, HostBuf *buf, size_t bytes, const char *what)
{
	buf->ptr = nullptr;
	buf->bytes = 0;
	if (bytes == 0)
		bytes = 1;
	cudaError_t err = cudaHostAlloc(&buf->ptr, bytes, cudaHostAllocDefault);

	if (err != cudaSuccess)
	{
		buf->ptr = nullptr;
		(void) cudaGetLastError();
		gpugb_set_error("cudaHostAlloc(%zu) for %s: %s", bytes, what, cudaGetErrorString(err));
		return err == cudaErrorMemoryAllocation ? GPUGB_OUT_OF_MEMORY : GPUGB_CUDA_ERROR;
	}
	buf->bytes = bytes;
	acct->pinned_bytes += (int64_t) bytes;
	tally_pinned_bytes += (int64_t) bytes;
	return GPUGB_OK;
}

void
gpugb_host_free(GpugbAccount *acct, HostBuf *buf)
{
	if (buf->ptr == nullptr)
		return;
	(void) cudaFreeHost(buf->ptr);
	(void) cudaGetLastError();
	acct->pinned_bytes -= (int64_t) buf->bytes;
	tally_pinned_bytes -= (int64_t) buf->bytes;
	buf->ptr = nullptr;
	buf->bytes = 0;
}

GPUGB_API GpugbStatus
gpugb_host_register(void *ptr, size_t bytes)
{
	GPUGB_TRY(gpugb_device_probe());

	cudaError_t err = cudaHostRegister(ptr, bytes, cudaHostRegisterDefault);

	if (err != cudaSuccess)
	{
		(void) cudaGetLastError();
		gpugb_set_error("cudaHostRegister(%zu bytes): %s", bytes, cudaGetErrorString(err));
		return err == cudaErrorMemoryAllocation ? GPUGB_OUT_OF_MEMORY : GPUGB_CUDA_ERROR;
	}
	tally_pinned_bytes += (int64_t) bytes;
	return GPUGB_OK;
}

GPUGB_API void
gpugb_host_unregister(void *ptr, size_t bytes)
{
	/* After a sticky error it may fail; the pages are given back at exit then. */
	(void) cudaHostUnregister(ptr);
	(void) cudaGetLastError();
	tally_pinned_bytes -= (int64_t) bytes;
}

GpugbStatus
gpugb_stream_create(GpugbAccount *acct, cudaStream_t *stream)
{
	*stream = nullptr;
	/* Non-blocking: never serialise against the legacy default stream. */
	GPUGB_TRY(GPUGB_CUDA(cudaStreamCreateWithFlags(stream, cudaStreamNonBlocking)));
	acct->streams++;
	tally_streams++;
	return GPUGB_OK;
}

void
gpugb_stream_destroy(GpugbAccount *acct, cudaStream_t *stream)
{
	if (*stream == nullptr)
		return;
	(void) cudaStreamSynchronize(*stream);
	(void) cudaStreamDestroy(*stream);
	(void) cudaGetLastError();
	acct->streams--;
	tally_streams--;
	*stream = nullptr;
}

GpugbStatus
gpugb_event_create(GpugbAccount *acct, cudaEvent_t *event)
{
	*event = nullptr;
	/* Timing stays enabled: the stats report transfer and kernel times. */
	GPUGB_TRY(GPUGB_CUDA(cudaEventCreateWithFlags(event, cudaEventDefault)));
	acct->events++;
	return GPUGB_OK;
}

void
gpugb_event_destroy(GpugbAccount *acct, cudaEvent_t *event)
{
	if (*event == nullptr)
		return;
	(void) cudaEventDestroy(*event);
	(void) cudaGetLastError();
	acct->events--;
	*event = nullptr;
}
