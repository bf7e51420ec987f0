/*===- ThreadPool.c - the thread pool compiled CPU models run on -*- C -*-===*
 *
 * One job at a time per pool. The thread that calls kiln_cpu_parallel_for
 * publishes the job (body, context, count) and bumps the pool's generation;
 * the workers, spinning for a while after their last job and then asleep on
 * a condition variable, see the new generation, and every thread (the
 * caller too) claims chunks of iterations from one atomic counter until none
 * are left. The caller then waits until every worker has left the job.
 * Dynamic chunks keep both threads busy when the machine is shared; which
 * thread runs an iteration does not change what it computes.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "runtime/cpu/threads/ThreadPool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define KILN_CPU_RELAX() _mm_pause()
#else
#define KILN_CPU_RELAX() ((void)0)
#endif

/* How many times a worker checks for a new job before it sleeps, and a
   waiting caller before it yields: a few tens of microseconds, so the
   workers stay awake between the loops of one model run. */
enum { kSpinsBeforeSleep = 1 << 15, kSpinsBeforeYield = 1 << 12 };

struct kiln_cpu_pool {
  int num_threads;
  pthread_t *workers;
  int num_started;

  pthread_mutex_t mutex;
  pthread_cond_t wake;
  atomic_int sleeping;
  atomic_int stop;

  /* Held by the thread whose loop runs on the pool. */
  atomic_int busy;

  /* The current job, written before `generation` is bumped. */
  kiln_cpu_loop_body body;
  void *context;
  int64_t count;
  int64_t chunk;
  atomic_llong next;
  atomic_uint generation;
  atomic_int pending;
};

static _Thread_local kiln_cpu_pool *thread_pool;

/* Claims and runs chunks of the current job until none are left. */
static void run_chunks(kiln_cpu_pool *pool) {
  for (;;) {
    int64_t begin = atomic_fetch_add(&pool->next, pool->chunk);
    if (begin >= pool->count)
      return;
    int64_t end = begin + pool->chunk;
    if (end > pool->count)
      end = pool->count;
    pool->body(pool->context, begin, end);
  }
}

static void *worker_main(void *arg) {
  kiln_cpu_pool *pool = (kiln_cpu_pool *)arg;
  unsigned seen = 0;
  for (;;) {
    int spins = 0;
    while (atomic_load(&pool->generation) == seen &&
           !atomic_load(&pool->stop)) {
      if (++spins < kSpinsBeforeSleep) {
        KILN_CPU_RELAX();
        continue;
      }
      /* Counted as sleeping before the last check, so a caller that bumps
         the generation after it either is seen here or sees the sleeper
         and signals under the mutex. */
      pthread_mutex_lock(&pool->mutex);
      atomic_fetch_add(&pool->sleeping, 1);
      while (atomic_load(&pool->generation) == seen &&
             !atomic_load(&pool->stop))
        pthread_cond_wait(&pool->wake, &pool->mutex);
      atomic_fetch_sub(&pool->sleeping, 1);
      pthread_mutex_unlock(&pool->mutex);
    }
    if (atomic_load(&pool->stop))
      return NULL;
    seen = atomic_load(&pool->generation);
    run_chunks(pool);
    atomic_fetch_sub(&pool->pending, 1);
  }
}

static void wake_workers(kiln_cpu_pool *pool) {
  if (atomic_load(&pool->sleeping) == 0)
    return;
  pthread_mutex_lock(&pool->mutex);
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->mutex);
}

kiln_cpu_pool *kiln_cpu_pool_create(int num_threads) {
  if (num_threads < 1 || num_threads > 1024)
    return NULL;
  kiln_cpu_pool *pool = (kiln_cpu_pool *)calloc(1, sizeof *pool);
  if (!pool)
    return NULL;
  pool->num_threads = num_threads;
  atomic_init(&pool->sleeping, 0);
  atomic_init(&pool->stop, 0);
  atomic_init(&pool->busy, 0);
  atomic_init(&pool->next, 0);
  atomic_init(&pool->generation, 0);
  atomic_init(&pool->pending, 0);
  if (pthread_mutex_init(&pool->mutex, NULL) != 0) {
    free(pool);
    return NULL;
  }
  if (pthread_cond_init(&pool->wake, NULL) != 0) {
    pthread_mutex_destroy(&pool->mutex);
    free(pool);
    return NULL;
  }
  if (num_threads > 1) {
    pool->workers =
        (pthread_t *)calloc((size_t)num_threads - 1, sizeof(pthread_t));
    if (!pool->workers) {
      kiln_cpu_pool_destroy(pool);
      return NULL;
    }
    for (int i = 0; i < num_threads - 1; ++i) {
      if (pthread_create(&pool->workers[i], NULL, worker_main, pool) != 0) {
        kiln_cpu_pool_destroy(pool);
        return NULL;
      }
      ++pool->num_started;
    }
  }
  return pool;
}

void kiln_cpu_pool_destroy(kiln_cpu_pool *pool) {
  if (!pool)
    return;
  pthread_mutex_lock(&pool->mutex);
  atomic_store(&pool->stop, 1);
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->mutex);
  for (int i = 0; i < pool->num_started; ++i)
    pthread_join(pool->workers[i], NULL);
  if (thread_pool == pool)
    thread_pool = NULL;
  free(pool->workers);
  pthread_cond_destroy(&pool->wake);
  pthread_mutex_destroy(&pool->mutex);
  free(pool);
}

int kiln_cpu_pool_num_threads(const kiln_cpu_pool *pool) {
  return pool ? pool->num_threads : 1;
}

kiln_cpu_pool *kiln_cpu_set_thread_pool(kiln_cpu_pool *pool) {
  kiln_cpu_pool *previous = thread_pool;
  thread_pool = pool;
  return previous;
}

kiln_cpu_pool *kiln_cpu_get_thread_pool(void) { return thread_pool; }

void kiln_cpu_parallel_for(kiln_cpu_loop_body body, void *context,
                           int64_t count) {
  if (count <= 0)
    return;
  kiln_cpu_pool *pool = thread_pool;
  int idle = 0;
  if (!pool || pool->num_threads == 1 || count == 1 ||
      !atomic_compare_exchange_strong(&pool->busy, &idle, 1)) {
    body(context, 0, count);
    return;
  }
  int64_t parts = (int64_t)pool->num_threads * 4;
  pool->body = body;
  pool->context = context;
  pool->count = count;
  pool->chunk = count > parts ? count / parts : 1;
  atomic_store(&pool->next, 0);
  atomic_store(&pool->pending, pool->num_threads - 1);
  atomic_fetch_add(&pool->generation, 1);
  wake_workers(pool);
  run_chunks(pool);
  for (int spins = 0; atomic_load(&pool->pending) != 0;)
    if (++spins < kSpinsBeforeYield)
      KILN_CPU_RELAX();
    else
      sched_yield();
  atomic_store(&pool->busy, 0);
}
