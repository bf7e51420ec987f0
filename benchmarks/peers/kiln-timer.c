/* kiln-timer.c - times a kiln-compile'd model linked into a plain C program.
 *
 * The way a user ships Kiln's output: the model's object file and header,
 * the C library and Kiln's CPU thread runtime. run.py builds it per model:
 *
 *   cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -include model.h \
 *      kiln-timer.c model.o libkiln-cpu-threads.a -lpthread -lm -o timer
 *   timer WARMUP REPEAT OUT_DIR in_0.bin:1,224,224,3 [in_1.bin:...]
 *
 * Each input is the raw C-order data of one feed (its element type is the
 * feed's) with its shape. The program runs the model WARMUP times, then
 * REPEAT timed times (kiln_model_run and kiln_model_free_fetches, since every
 * run returns new buffers the caller must free), prints one line
 * "times_ms t1 t2 ..." and, for every fetch of the last run, writes
 * OUT_DIR/output_<i>.bin (raw data) and prints "fetch <i> <type> d0,d1,...".
 * The header must have been generated with --symbol=kiln_model. With
 * KILN_TIMER_THREADS=N in the environment the runs use a pool of N threads.
 */
#include <stdio.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Parses "path:d0,d1,..." into `t` (reads the file into malloc'd data).
   Returns 0 on success. */
static int load_feed(int index, char *arg, kiln_model_tensor *t) {
  char *colon = strrchr(arg, ':');
  if (!colon) {
    fprintf(stderr, "feed %d: want PATH:SHAPE, got %s\n", index, arg);
    return 1;
  }
  *colon = '\0';
  int rank = 0;
  size_t count = 1;
  for (char *p = colon + 1; *p;) {
    char *end;
    long long size = strtoll(p, &end, 10);
    if (end == p || rank == KILN_MODEL_MAX_RANK) {
      fprintf(stderr, "feed %d: bad shape %s\n", index, colon + 1);
      return 1;
    }
    t->shape[rank++] = size;
    count *= (size_t)size;
    p = *end == ',' ? end + 1 : end;
  }
  if (rank != kiln_model_feed_rank(index)) {
    fprintf(stderr, "feed %d: rank %d, the model's is %d\n", index, rank,
            kiln_model_feed_rank(index));
    return 1;
  }
  size_t element = (size_t)kiln_model_feed_element_size(index);
  FILE *f = fopen(arg, "rb");
  if (!f) {
    fprintf(stderr, "feed %d: cannot open %s\n", index, arg);
    return 1;
  }
  t->data = malloc(count * element + 1);
  size_t got = fread(t->data, element, count, f);
  fclose(f);
  if (got != count) {
    fprintf(stderr, "feed %d: %s holds %zu elements, want %zu\n", index, arg,
            got, count);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4 + KILN_MODEL_NUM_FEEDS) {
    fprintf(stderr, "usage: %s WARMUP REPEAT OUT_DIR FEED:SHAPE... (%d feeds)\n",
            argv[0], KILN_MODEL_NUM_FEEDS);
    return 2;
  }
  int warmup = atoi(argv[1]);
  int repeat = atoi(argv[2]);
  if (warmup < 0 || repeat < 1) {
    fprintf(stderr, "WARMUP must be >= 0 and REPEAT >= 1\n");
    return 2;
  }
  kiln_model_tensor feeds[KILN_MODEL_NUM_FEEDS > 0 ? KILN_MODEL_NUM_FEEDS : 1];
  kiln_model_tensor fetches[KILN_MODEL_NUM_FETCHES > 0 ? KILN_MODEL_NUM_FETCHES : 1];
  memset(feeds, 0, sizeof feeds);
  memset(fetches, 0, sizeof fetches);
  for (int i = 0; i < KILN_MODEL_NUM_FEEDS; ++i)
    if (load_feed(i, argv[4 + i], &feeds[i]))
      return 1;

  /* KILN_TIMER_THREADS=N: the model's parallel loops on a pool of N
     threads (Kiln's CPU thread runtime, linked in); default one thread. */
  const char *threads_env = getenv("KILN_TIMER_THREADS");
  int threads = threads_env ? atoi(threads_env) : 1;
  kiln_cpu_pool *pool = NULL;
  if (threads > 1) {
    pool = kiln_cpu_pool_create(threads);
    if (!pool) {
      fprintf(stderr, "cannot start a pool of %d threads\n", threads);
      return 1;
    }
    kiln_cpu_set_thread_pool(pool);
  } else if (threads < 1) {
    fprintf(stderr, "KILN_TIMER_THREADS must be at least 1\n");
    return 2;
  }

  for (int i = 0; i < warmup; ++i) {
    int status = kiln_model_run(feeds, fetches);
    if (status != 0) {
      fprintf(stderr, "feed %d: shape does not match the model's\n", status - 1);
      return 1;
    }
    kiln_model_free_fetches(fetches);
  }
  double *times = malloc(sizeof(double) * (size_t)repeat);
  for (int i = 0; i < repeat; ++i) {
    double start = now_ms();
    int status = kiln_model_run(feeds, fetches);
    if (status != 0) {
      fprintf(stderr, "feed %d: shape does not match the model's\n", status - 1);
      return 1;
    }
    if (i + 1 < repeat)
      kiln_model_free_fetches(fetches);
    times[i] = now_ms() - start;
  }
  printf("times_ms");
  for (int i = 0; i < repeat; ++i)
    printf(" %.6f", times[i]);
  printf("\n");

  for (int i = 0; i < KILN_MODEL_NUM_FETCHES; ++i) {
    int rank = kiln_model_fetch_rank(i);
    size_t count = 1;
    printf("fetch %d %s ", i, kiln_model_fetch_type(i));
    for (int k = 0; k < rank; ++k) {
      count *= (size_t)fetches[i].shape[k];
      printf(k + 1 < rank ? "%lld," : "%lld", (long long)fetches[i].shape[k]);
    }
    printf("\n");
    char path[4096];
    snprintf(path, sizeof path, "%s/output_%d.bin", argv[3], i);
    FILE *f = fopen(path, "wb");
    size_t element = (size_t)kiln_model_fetch_element_size(i);
    if (!f || fwrite(fetches[i].data, element, count, f) != count ||
        fclose(f) != 0) {
      fprintf(stderr, "fetch %d: cannot write %s\n", i, path);
      return 1;
    }
  }
  kiln_model_free_fetches(fetches);
  for (int i = 0; i < KILN_MODEL_NUM_FEEDS; ++i)
    free(feeds[i].data);
  free(times);
  kiln_cpu_set_thread_pool(NULL);
  kiln_cpu_pool_destroy(pool);
  return 0;
}
