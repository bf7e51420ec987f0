/* aot-noalloc-driver.c - runs a kiln-compile'd model without allocating.
 *
 *   cc -include model.h -DKILN_MODEL=model -DKILN_MODEL_MACROS=MODEL \
 *      aot-noalloc-driver.c model.o -lm -o driver
 *   driver OUT_DIR input_0.npy [input_1.npy ...]
 *
 * Like aot-driver.c (whose .npy code it includes), but the model runs
 * through <model>_run_with_buffers on fetch buffers and an arena the driver
 * allocates first, and this program defines malloc, calloc, realloc, free,
 * aligned_alloc, posix_memalign and memalign, which replace the C library's
 * for the whole process: they serve every request from a static pool and
 * count those made during the run. It prints "allocations during the run:
 * N" and fails if N is not 0. With KILN_DRIVER_ALLOCATING=1 in the
 * environment it runs the allocating <model>_run instead and does not fail,
 * which shows that the counting sees the compiled code's allocations.
 */
/* The model's header comes first (-include model.h). */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Alignas(64) unsigned char pool[256u << 20];
static size_t pool_used;
static int in_run;
static int allocations_in_run;

/* `bytes` from the pool at `alignment`, with its size kept in the 16 bytes
   before it (for realloc); NULL when the pool is exhausted. */
static void *take(size_t alignment, size_t bytes) {
  if (in_run)
    ++allocations_in_run;
  if (alignment < 16)
    alignment = 16;
  size_t start = (pool_used + 16 + alignment - 1) / alignment * alignment;
  if (bytes > sizeof pool || start > sizeof pool - bytes)
    return NULL;
  pool_used = start + bytes;
  memcpy(pool + start - 16, &bytes, sizeof bytes);
  return pool + start;
}

void *malloc(size_t bytes) { return take(16, bytes); }

void *calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size)
    return NULL;
  void *p = take(16, count * size);
  if (p)
    memset(p, 0, count * size);
  return p;
}

void *realloc(void *old, size_t bytes) {
  void *p = take(16, bytes);
  unsigned char *o = (unsigned char *)old;
  if (p && o >= pool + 16 && o < pool + sizeof pool) {
    size_t old_bytes;
    memcpy(&old_bytes, o - 16, sizeof old_bytes);
    memcpy(p, o, old_bytes < bytes ? old_bytes : bytes);
  }
  return p;
}

void free(void *p) {
  if (in_run && p)
    ++allocations_in_run;
}

void *aligned_alloc(size_t alignment, size_t bytes) {
  return take(alignment, bytes);
}

void *memalign(size_t alignment, size_t bytes) {
  return take(alignment, bytes);
}

int posix_memalign(void **out, size_t alignment, size_t bytes) {
  void *p = take(alignment, bytes);
  if (!p)
    return 12; /* ENOMEM */
  *out = p;
  return 0;
}

#define KILN_DRIVER_MAIN driver_main
#define KILN_DRIVER_RUN run_without_allocating
static int run_without_allocating();
#include "aot-driver.c"

/* Caller buffers for every fetch (the model's static shapes) and the arena,
   then the run, during which nothing may be allocated or freed. */
static int run_without_allocating(const M(_tensor) * feeds,
                                  M(_tensor) * fetches) {
  const char *allocating = getenv("KILN_DRIVER_ALLOCATING");
  int use_run = allocating && strcmp(allocating, "1") == 0;
  for (int i = 0; i < U(_NUM_FETCHES); ++i) {
    size_t count = 1;
    for (int k = 0; k < M(_fetch_rank)(i); ++k) {
      fetches[i].shape[k] = M(_fetch_dim)(i, k);
      count *= (size_t)fetches[i].shape[k];
    }
    fetches[i].data = aligned_alloc(
        64, (count * (size_t)M(_fetch_element_size)(i) + 63) / 64 * 64 + 64);
  }
  void *arena = aligned_alloc(U(_ARENA_ALIGNMENT),
                              (U(_ARENA_BYTES) + 63) / 64 * 64 + 64);
  in_run = 1;
  int status = use_run ? M(_run)(feeds, fetches)
                       : M(_run_with_buffers)(feeds, fetches, arena,
                                              U(_ARENA_BYTES));
  in_run = 0;
  printf("allocations during the run: %d\n", allocations_in_run);
  if (allocations_in_run && !use_run) {
    fprintf(stderr, "FAIL: the model allocated or freed %d times\n",
            allocations_in_run);
    exit(1);
  }
  return status;
}

int main(int argc, char **argv) { return driver_main(argc, argv); }
