/*
 * test/bench/membw.c — the host's memory read bandwidth, for judging the
 * heap scan's speed: a parallel GpuGroupAgg's workers read every tuple of
 * the table, so their rows per second can be no more than this bandwidth
 * divided by the bytes per tuple.
 *
 *   gcc -O2 -pthread -o /tmp/membw test/bench/membw.c && /tmp/membw [GiB] [max threads]
 *
 * Reads a buffer of GiB (default 8) with 1, 2, 4, ... threads (each its own
 * slice, 8-byte loads summed so the compiler keeps them), best of 3 passes,
 * and prints GB/s per thread count.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct
{
	const uint64_t *start;
	size_t		words;
	uint64_t	sum;
} Slice;

static void *
read_slice(void *arg)
{
	Slice	   *s = arg;
	uint64_t	a = 0, b = 0, c = 0, d = 0;

	for (size_t i = 0; i + 4 <= s->words; i += 4)
	{
		a += s->start[i];
		b += s->start[i + 1];
		c += s->start[i + 2];
		d += s->start[i + 3];
	}
	s->sum = a + b + c + d;
	return NULL;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
	double		gib = argc > 1 ? atof(argv[1]) : 8;
	int			max_threads = argc > 2 ? atoi(argv[2]) : 16;
	size_t		bytes = (size_t) (gib * 1073741824.0);
	size_t		words = bytes / sizeof(uint64_t);
	uint64_t   *buf = malloc(bytes);
	uint64_t	check = 0;

	if (buf == NULL)
		return 1;
	memset(buf, 1, bytes);		/* every page mapped before timing */
	for (int threads = 1; threads <= max_threads; threads *= 2)
	{
		double		best = 0;

		for (int pass = 0; pass < 3; pass++)
		{
			pthread_t	tid[256];
			Slice		slices[256];
			double		t0 = now();

			for (int t = 0; t < threads; t++)
			{
				slices[t].start = buf + words / threads * t;
				slices[t].words = words / threads;
				pthread_create(&tid[t], NULL, read_slice, &slices[t]);
			}
			for (int t = 0; t < threads; t++)
			{
				pthread_join(tid[t], NULL);
				check += slices[t].sum;
			}
			{
				double		gbs = (double) (words / threads * threads * 8) / (now() - t0) / 1e9;

				if (gbs > best)
					best = gbs;
			}
		}
		printf("membw: %2d threads: %6.1f GB/s\n", threads, best);
		if (threads * 2 > max_threads && threads != max_threads)
			threads = max_threads / 2;	/* end on max_threads itself */
	}
	return check == 42;			/* keeps the sums */
}
