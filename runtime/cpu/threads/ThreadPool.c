/*===- ThreadPool.c - the thread pool compiled CPU models run on -*- C -*-===*
 *
 * One job at a time per pool. The thread that calls kiln_cpu_parallel_for
 * writes the job (body, context, count, chunk) and publishes it by storing a
 * new generation in the pool's `state` word; every thread then claims chunks
 * of iterations from one atomic counter until none are left.
 *
 * The caller never waits for a worker to arrive. A worker joins a job by
 * incrementing the count of workers inside it in `state`, which it can only
 * do while the job is open; when the caller has run out of chunks it closes
 * the job and waits only for the workers inside, each finishing the chunk it
 * holds. A worker that is asleep, or descheduled by the rest of a shared
 * machine, costs the caller nothing: the caller runs the chunks itself.
 *
 * Workers spin briefly (kSpinNanoseconds) after a job for the next one, then
 * sleep on a condition variable; a caller that has to wait for a worker's
 * last chunk spins as briefly, then sleeps too. Spinning for longer would
 * take a core from the caller (or from other programs) on a machine with
 * more runnable threads than cores.
 *
 * The words that threads write while others poll (state, the chunk counter,
 * the pool's owner flag, the sleepers' counts) each have their own cache
 * line. Which thread runs an iteration does not change what it computes.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "runtime/cpu/threads/ThreadPool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define KILN_CPU_RELAX() _mm_pause()
#else
#define KILN_CPU_RELAX() ((void)0)
#endif

/* How long a worker polls for the next job before it sleeps, and a caller
   for the last worker to leave its job before it sleeps. */
enum { kSpinNanoseconds = 50000 };

/* Chunks per thread: enough that a thread slowed by others on the machine
   leaves little for the rest to wait on, few enough that claiming them
   costs nothing next to a parallel loop's work. */
enum { kChunksPerThread = 4 };

/* `state`: the job's generation in the high 32 bits, whether it is closed
   (no more workers may join) in bit 31, the workers inside it below. */
#define KILN_STATE_CLOSED ((uint64_t)1 << 31)
#define KILN_STATE_INSIDE ((uint64_t)KILN_STATE_CLOSED - 1)
#define KILN_STATE_GENERATION(s) ((uint32_t)((s) >> 32))

#define KILN_CACHE_LINE 64

struct kiln_cpu_pool {
  /* Written by the pool's creator and the caller that owns the pool. */
  int num_threads;
  int num_started;
  pthread_t *workers;
  pthread_mutex_t mutex;
  pthread_cond_t wake;     /* workers: a job or stop */
  pthread_cond_t finished; /* the caller: the last worker left */
  kiln_cpu_loop_body body;
  void *context;
  int64_t count;
  int64_t chunk;

  /* Polled by idle workers; changed once per job and per worker. */
  _Alignas(KILN_CACHE_LINE) _Atomic uint64_t state;
  atomic_int stop;

  /* Claimed by every thread of the job. */
  _Alignas(KILN_CACHE_LINE) atomic_llong next;

  /* Held by the thread whose loop runs on the pool. */
  _Alignas(KILN_CACHE_LINE) atomic_int busy;

  /* Sleeping workers, and whether the caller sleeps until they leave. */
  _Alignas(KILN_CACHE_LINE) atomic_int sleeping;
  atomic_int caller_sleeps;
};

static _Thread_local kiln_cpu_pool *thread_pool;

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Whether `done(pool, arg)` became true within kSpinNanoseconds. */
static int spin_until(kiln_cpu_pool *pool, int (*done)(kiln_cpu_pool *, uint64_t),
                      uint64_t arg) {
  int64_t deadline = 0;
  for (unsigned spins = 0;; ++spins) {
    if (done(pool, arg))
      return 1;
    KILN_CPU_RELAX();
    if ((spins & 63) == 63) {
      int64_t t = now_ns();
      if (!deadline)
        deadline = t + kSpinNanoseconds;
      else if (t >= deadline)
        return done(pool, arg);
    }
  }
}

/* Claims and runs chunks of the current job until none are left. */
static void run_chunks(kiln_cpu_pool *pool) {
  int64_t count = pool->count, chunk = pool->chunk;
  for (;;) {
    int64_t begin = atomic_fetch_add_explicit(&pool->next, chunk,
                                              memory_order_relaxed);
    if (begin >= count)
      return;
    int64_t end = count - begin > chunk ? begin + chunk : count;
    pool->body(pool->context, begin, end);
  }
}

/* A job after generation `seen`, or stop. */
static int has_news(kiln_cpu_pool *pool, uint64_t seen) {
  return KILN_STATE_GENERATION(atomic_load(&pool->state)) != (uint32_t)seen ||
         atomic_load(&pool->stop);
}

/* No worker inside the closed job. */
static int all_left(kiln_cpu_pool *pool, uint64_t unused) {
  (void)unused;
  return (atomic_load(&pool->state) & KILN_STATE_INSIDE) == 0;
}

static void *worker_main(void *arg) {
  kiln_cpu_pool *pool = (kiln_cpu_pool *)arg;
  uint32_t seen = 0;
  for (;;) {
    if (!spin_until(pool, has_news, seen)) {
      /* Counted as sleeping before the last check, so a caller that
         publishes a job after it either is seen here or sees the sleeper
         and signals under the mutex. */
      pthread_mutex_lock(&pool->mutex);
      atomic_fetch_add(&pool->sleeping, 1);
      while (!has_news(pool, seen))
        pthread_cond_wait(&pool->wake, &pool->mutex);
      atomic_fetch_sub(&pool->sleeping, 1);
      pthread_mutex_unlock(&pool->mutex);
    }
    if (atomic_load(&pool->stop))
      return NULL;
    /* Join the newest job while it is open; a closed one is over. */
    uint64_t s = atomic_load(&pool->state);
    seen = KILN_STATE_GENERATION(s);
    while (!(s & KILN_STATE_CLOSED) && KILN_STATE_GENERATION(s) == seen) {
      if (atomic_compare_exchange_weak(&pool->state, &s, s + 1)) {
        run_chunks(pool);
        uint64_t before = atomic_fetch_sub(&pool->state, 1);
        if ((before & KILN_STATE_INSIDE) == 1 &&
            atomic_load(&pool->caller_sleeps)) {
          pthread_mutex_lock(&pool->mutex);
          pthread_cond_signal(&pool->finished);
          pthread_mutex_unlock(&pool->mutex);
        }
        break;
      }
    }
  }
}

kiln_cpu_pool *kiln_cpu_pool_create(int num_threads) {
  if (num_threads < 1 || num_threads > 1024)
    return NULL;
  size_t size = (sizeof(kiln_cpu_pool) + KILN_CACHE_LINE - 1) /
                KILN_CACHE_LINE * KILN_CACHE_LINE;
  kiln_cpu_pool *pool = (kiln_cpu_pool *)aligned_alloc(KILN_CACHE_LINE, size);
  if (!pool)
    return NULL;
  memset(pool, 0, size);
  pool->num_threads = num_threads;
  atomic_init(&pool->state, KILN_STATE_CLOSED);
  atomic_init(&pool->stop, 0);
  atomic_init(&pool->next, 0);
  atomic_init(&pool->busy, 0);
  atomic_init(&pool->sleeping, 0);
  atomic_init(&pool->caller_sleeps, 0);
  if (pthread_mutex_init(&pool->mutex, NULL) != 0) {
    free(pool);
    return NULL;
  }
  if (pthread_cond_init(&pool->wake, NULL) != 0) {
    pthread_mutex_destroy(&pool->mutex);
    free(pool);
    return NULL;
  }
  if (pthread_cond_init(&pool->finished, NULL) != 0) {
    pthread_cond_destroy(&pool->wake);
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
  pthread_cond_destroy(&pool->finished);
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
  int64_t parts = (int64_t)pool->num_threads * kChunksPerThread;
  pool->body = body;
  pool->context = context;
  pool->count = count;
  pool->chunk = count > parts ? count / parts : 1;
  atomic_store_explicit(&pool->next, 0, memory_order_relaxed);
  /* The previous job is closed with nobody inside: open the next one. */
  uint64_t s = atomic_load(&pool->state);
  atomic_store(&pool->state,
               (uint64_t)(KILN_STATE_GENERATION(s) + 1u) << 32);
  if (atomic_load(&pool->sleeping) != 0) {
    pthread_mutex_lock(&pool->mutex);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
  }
  run_chunks(pool);
  /* No chunk is left: close the job and wait for the workers inside. */
  atomic_fetch_or(&pool->state, KILN_STATE_CLOSED);
  if (!spin_until(pool, all_left, 0)) {
    pthread_mutex_lock(&pool->mutex);
    atomic_store(&pool->caller_sleeps, 1);
    while (!all_left(pool, 0))
      pthread_cond_wait(&pool->finished, &pool->mutex);
    atomic_store(&pool->caller_sleeps, 0);
    pthread_mutex_unlock(&pool->mutex);
  }
  atomic_store(&pool->busy, 0);
}
