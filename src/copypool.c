/*-------------------------------------------------------------------------
 * copypool.c
 *    The parallel-ingest leader's copies of worker slots into its pinned
 *    strides, spread over a few threads.
 *
 * Under parallel ingest the leader alone copies every row from the DSM
 * slots into pinned memory (only it holds a CUDA context, and pinned
 * memory is the process's own).  One core copies about 8-10 GB/s: measured
 * on the H200 box, 100M rows of 5 columns (9 bytes each) took the leader
 * 585 ms while each of 16 workers filled for 300 ms, so the copy, not the
 * scan, set the query's time.  Here gpugb.copy_threads threads (3 by
 * default) copy beside the leader.
 *
 * The threads run nothing but memcpy and memset on memory the leader
 * hands them, and never call PostgreSQL: they are created with every
 * signal blocked (signals stay the backend's main thread's), they hold no
 * PostgreSQL lock or memory context, and the leader waits for all of them
 * before it returns, so an ERROR after the call never finds a copy in
 * flight.  Where a thread cannot be created, the leader copies alone.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <pthread.h>
#include <signal.h>

#include "copypool.h"
#include "gpugb.h"

/* Most helper threads a backend starts (gpugb.copy_threads' maximum). */
#define GPUGB_COPY_MAX_THREADS 16
/* Below this many bytes a copy is not worth waking anyone. */
#define GPUGB_COPY_MIN_PARALLEL_BYTES ((Size) 512 << 10)
/* Jobs are cut into pieces of this size, which the threads take in turn. */
#define GPUGB_COPY_PIECE_BYTES ((Size) 256 << 10)
#define GPUGB_COPY_MAX_PIECES 4096

typedef struct CopyPiece
{
	char	   *dst;
	const char *src;			/* NULL: zero dst */
	Size		bytes;
} CopyPiece;

static struct
{
	int			n_threads;		/* started so far */
	bool		start_failed;	/* pthread_create failed: start no more */
	pthread_mutex_t mutex;
	pthread_cond_t start;
	pthread_cond_t done;
	uint64		generation;		/* bumped for each parallel copy */
	int			busy;			/* threads still on this generation */
	int			helping;		/* threads 0 .. helping - 1 copy in this one */
	/* the generation when each thread was started: it waits for the next */
	uint64		born[GPUGB_COPY_MAX_THREADS];
	int			n_pieces;
	int			next_piece;		/* taken with __atomic_fetch_add */
	CopyPiece	pieces[GPUGB_COPY_MAX_PIECES];
}			pool = {
	.mutex = PTHREAD_MUTEX_INITIALIZER,
	.start = PTHREAD_COND_INITIALIZER,
	.done = PTHREAD_COND_INITIALIZER
};

/* Copies pieces until none is left (leader and helpers alike). */
static void
run_pieces(void)
{
	for (;;)
	{
		int			i = __atomic_fetch_add(&pool.next_piece, 1, __ATOMIC_RELAXED);
		CopyPiece  *p;

		if (i >= pool.n_pieces)
			return;
		p = &pool.pieces[i];
		if (p->src)
			memcpy(p->dst, p->src, p->bytes);
		else
			memset(p->dst, 0, p->bytes);
	}
}

static void *
helper_main(void *arg)
{
	int			index = (int) (intptr_t) arg;
	/* not pool.generation: the leader may have moved on before this runs */
	uint64		seen = pool.born[index];

	pthread_mutex_lock(&pool.mutex);
	for (;;)
	{
		while (pool.generation == seen)
			pthread_cond_wait(&pool.start, &pool.mutex);
		seen = pool.generation;
		if (index < pool.helping)
		{
			pthread_mutex_unlock(&pool.mutex);
			run_pieces();
			pthread_mutex_lock(&pool.mutex);
		}
		if (--pool.busy == 0)
			pthread_cond_signal(&pool.done);
	}
	return NULL;
}

/*
 * Helpers up to `wanted`, started when first wanted (the pool is idle:
 * the previous copy waited for every helper).  Returns how many there are.
 */
static int
grow_pool(int wanted)
{
	sigset_t	all,
				old;

	wanted = Min(wanted, GPUGB_COPY_MAX_THREADS);
	if (pool.n_threads >= wanted || pool.start_failed)
		return Min(pool.n_threads, wanted);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_mutex_lock(&pool.mutex);
	while (pool.n_threads < wanted)
	{
		pthread_t	thread;

		pool.born[pool.n_threads] = pool.generation;
		if (pthread_create(&thread, NULL, helper_main, (void *) (intptr_t) pool.n_threads) != 0)
		{
			pool.start_failed = true;
			break;
		}
		pthread_detach(thread);
		pool.n_threads++;
	}
	pthread_mutex_unlock(&pool.mutex);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pool.start_failed)
		elog(DEBUG1, "gpugb: %d of %d copy threads started", pool.n_threads, wanted);
	return Min(pool.n_threads, wanted);
}

/* Appends job j's pieces; false if the table is full. */
static bool
add_pieces(const GpugbCopyJob *job)
{
	for (Size off = 0; off < job->bytes; off += GPUGB_COPY_PIECE_BYTES)
	{
		CopyPiece  *p;

		if (pool.n_pieces == GPUGB_COPY_MAX_PIECES)
			return false;
		p = &pool.pieces[pool.n_pieces++];
		p->dst = (char *) job->dst + off;
		p->src = job->src ? (const char *) job->src + off : NULL;
		p->bytes = Min(GPUGB_COPY_PIECE_BYTES, job->bytes - off);
	}
	return true;
}

static void
copy_serially(const GpugbCopyJob *jobs, int n_jobs)
{
	for (int j = 0; j < n_jobs; j++)
	{
		if (jobs[j].src)
			memcpy(jobs[j].dst, jobs[j].src, jobs[j].bytes);
		else
			memset(jobs[j].dst, 0, jobs[j].bytes);
	}
}

void
gpugb_copy_jobs(const GpugbCopyJob *jobs, int n_jobs)
{
	Size		total = 0;
	bool		fits = true;
	int			helping;

	for (int j = 0; j < n_jobs; j++)
		total += jobs[j].bytes;
	if (total < GPUGB_COPY_MIN_PARALLEL_BYTES)
	{
		copy_serially(jobs, n_jobs);
		return;
	}
	helping = grow_pool(gpugb_copy_threads);
	if (helping == 0)
	{
		copy_serially(jobs, n_jobs);
		return;
	}

	/* The helpers are all idle here: the previous call waited for them. */
	pool.n_pieces = 0;
	for (int j = 0; j < n_jobs && fits; j++)
		fits = add_pieces(&jobs[j]);
	if (!fits)
	{
		copy_serially(jobs, n_jobs);
		return;
	}
	pool.next_piece = 0;

	pthread_mutex_lock(&pool.mutex);
	pool.busy = pool.n_threads;	/* every helper wakes; those beyond `helping` only report */
	pool.helping = helping;
	pool.generation++;
	pthread_cond_broadcast(&pool.start);
	pthread_mutex_unlock(&pool.mutex);

	run_pieces();

	pthread_mutex_lock(&pool.mutex);
	while (pool.busy > 0)
		pthread_cond_wait(&pool.done, &pool.mutex);
	pthread_mutex_unlock(&pool.mutex);
}
