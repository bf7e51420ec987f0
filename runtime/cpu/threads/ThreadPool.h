/*===- ThreadPool.h - the thread pool compiled CPU models run on -*- C -*-===*
 *
 * Kiln's CPU thread runtime: a small C library (the C library and POSIX
 * threads, nothing else) that kiln-compile'd objects call to run their
 * parallel loops. A program that wants more than one thread creates a pool
 * and makes it the calling thread's pool; compiled code run on that thread
 * then splits its parallel loops over the pool's threads. Without a pool (or
 * without this library linked: the object references the entry point
 * weakly) every loop runs on the calling thread.
 *
 *   kiln_cpu_pool *pool = kiln_cpu_pool_create(2);
 *   kiln_cpu_pool *previous = kiln_cpu_set_thread_pool(pool);
 *   model_run(...);                        // uses both threads
 *   kiln_cpu_set_thread_pool(previous);
 *   kiln_cpu_pool_destroy(pool);
 *
 * Creating a pool allocates and starts its threads; running on it allocates
 * nothing. A pool runs one parallel loop at a time: a loop reached while
 * another thread's loop holds the pool runs on its own thread. The results
 * do not depend on the number of threads: each iteration of a parallel loop
 * computes the same values whichever thread runs it.
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_RUNTIME_CPU_THREADS_THREADPOOL_H
#define KILN_RUNTIME_CPU_THREADS_THREADPOOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A set of worker threads that compiled models' parallel loops run on
    (generated model headers declare it too). */
#ifndef KILN_CPU_POOL_DECLARED
#define KILN_CPU_POOL_DECLARED
typedef struct kiln_cpu_pool kiln_cpu_pool;
#endif

/** Creates a pool of `num_threads` threads in all: the thread that runs a
    model counts as one, so the pool starts `num_threads - 1` workers.
    Returns NULL when `num_threads` is below 1 or above 1024, or when
    memory or a thread cannot be had. */
kiln_cpu_pool *kiln_cpu_pool_create(int num_threads);

/** Stops and joins the pool's workers and frees it (NULL does nothing).
    No thread may be running a model on it. */
void kiln_cpu_pool_destroy(kiln_cpu_pool *pool);

/** The number of threads `pool` runs a loop on, the caller's included. */
int kiln_cpu_pool_num_threads(const kiln_cpu_pool *pool);

/** Makes `pool` (or NULL: one thread) the pool that compiled code run on
    the calling thread uses. Returns the thread's previous pool. */
kiln_cpu_pool *kiln_cpu_set_thread_pool(kiln_cpu_pool *pool);

/** The calling thread's pool, or NULL. */
kiln_cpu_pool *kiln_cpu_get_thread_pool(void);

/** The body of a parallel loop: runs iterations [begin, end) with `context`
    holding the values the loop reads. */
typedef void (*kiln_cpu_loop_body)(void *context, int64_t begin, int64_t end);

/** What compiled code calls for a parallel loop of `count` iterations: runs
    `body` over [0, count) in chunks on the calling thread's pool (on the
    calling thread alone without one) and returns when every iteration has
    run. Allocates nothing. */
void kiln_cpu_parallel_for(kiln_cpu_loop_body body, void *context,
                           int64_t count);

#ifdef __cplusplus
}
#endif

#endif /* KILN_RUNTIME_CPU_THREADS_THREADPOOL_H */
