/* aot-driver.c - runs a kiln-compile'd model from plain C.
 *
 * Built by the e2e model tests the way a C user builds a program: the
 * model's header, its object file, the C library and libm, nothing else
 * (with -DKILN_MODEL_NPU, for an object of kiln-compile --target=npu, also
 * Kiln's NPU runtime: pkg-config --libs kiln-npu-runtime).
 *
 *   cc -include model.h -DKILN_MODEL=model -DKILN_MODEL_MACROS=MODEL \
 *      aot-driver.c model.o -lm -o driver
 *   driver OUT_DIR input_0.npy [input_1.npy ...]
 *
 * reads each feed from a .npy file (version 1.0, C order, little-endian),
 * runs <model>_run and writes OUT_DIR/output_<i>.npy for every fetch. It uses
 * only what the generated header declares. With -DKILN_DRIVER_THREADS=N
 * (and libkiln-cpu-threads.a -lpthread) the run uses a pool of N threads. aot-noalloc-driver.c includes it
 * with KILN_DRIVER_MAIN and KILN_DRIVER_RUN set to run the model otherwise.
 * With -DKILN_MODEL_NPU, a run whose NPU segment failed (<MODEL>_NPU_FAILED)
 * is reported with <model>_npu_error() and the program goes on: it writes the
 * fetches (NaN where the failed segment's outputs flowed), frees them and
 * exits with 3.
 */
/* The model's header comes first (-include model.h). */

#include <stdio.h>

#define KILN_CAT2(a, b) a##b
#define KILN_CAT(a, b) KILN_CAT2(a, b)
/* <symbol>_name and <SYMBOL>_NAME. */
#define M(name) KILN_CAT(KILN_MODEL, name)
#define U(name) KILN_CAT(KILN_MODEL_MACROS, name)

/* The .npy dtype of a C element type named by the header. */
static const char *npy_descr(const char *c_type) {
  static const char *const table[][2] = {
      {"float", "<f4"},   {"double", "<f8"},  {"int32_t", "<i4"},
      {"int64_t", "<i8"}, {"int16_t", "<i2"}, {"uint16_t", "<u2"},
      {"int8_t", "|i1"},  {"uint8_t", "|u1"}, {"bool", "|b1"},
      {"uint32_t", "<u4"}, {"uint64_t", "<u8"}};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
    if (strcmp(table[i][0], c_type) == 0)
      return table[i][1];
  return NULL;
}

/* Reads `path` into `t` (data malloc'd); checks its dtype and rank against
   the feed's. Returns 0 on success. */
static int read_npy(const char *path, const char *descr, int rank,
                    size_t element_size, M(_tensor) * t) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: cannot open\n", path);
    return 1;
  }
  unsigned char prologue[10];
  if (fread(prologue, 1, 10, f) != 10 ||
      memcmp(prologue, "\x93NUMPY\x01\x00", 8) != 0) {
    fprintf(stderr, "%s: not a version 1.0 .npy file\n", path);
    fclose(f);
    return 1;
  }
  size_t length = (size_t)prologue[8] | (size_t)prologue[9] << 8;
  char header[65536];
  if (fread(header, 1, length, f) != length) {
    fprintf(stderr, "%s: truncated header\n", path);
    fclose(f);
    return 1;
  }
  header[length] = '\0';
  char want[64];
  snprintf(want, sizeof want, "'descr': '%s'", descr);
  if (!strstr(header, want) || !strstr(header, "'fortran_order': False")) {
    fprintf(stderr, "%s: want dtype %s in C order: %s\n", path, descr, header);
    fclose(f);
    return 1;
  }
  const char *p = strstr(header, "'shape': (");
  if (!p) {
    fprintf(stderr, "%s: no shape\n", path);
    fclose(f);
    return 1;
  }
  p += strlen("'shape': (");
  int found = 0;
  size_t count = 1;
  while (*p != ')') {
    char *end;
    long long size = strtoll(p, &end, 10);
    if (end == p || found == U(_MAX_RANK)) {
      fprintf(stderr, "%s: bad shape\n", path);
      fclose(f);
      return 1;
    }
    t->shape[found++] = size;
    count *= (size_t)size;
    p = end;
    while (*p == ',' || *p == ' ')
      ++p;
  }
  if (found != rank) {
    fprintf(stderr, "%s: rank %d, the feed's is %d\n", path, found, rank);
    fclose(f);
    return 1;
  }
  t->data = malloc(count * element_size + 1);
  if (fread(t->data, element_size, count, f) != count) {
    fprintf(stderr, "%s: want %zu elements\n", path, count);
    fclose(f);
    return 1;
  }
  fclose(f);
  return 0;
}

/* Writes `t` to `path` as a version 1.0 .npy file. Returns 0 on success. */
static int write_npy(const char *path, const char *descr, int rank,
                     size_t element_size, const M(_tensor) * t) {
  char shape[512] = "";
  size_t count = 1;
  for (int k = 0; k < rank; ++k) {
    char dim[32];
    snprintf(dim, sizeof dim, k + 1 < rank || rank == 1 ? "%lld," : "%lld",
             (long long)t->shape[k]);
    if (k > 0)
      strcat(shape, " ");
    strcat(shape, dim);
    count *= (size_t)t->shape[k];
  }
  char header[1024];
  int n = snprintf(header, sizeof header,
                   "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }",
                   descr, shape);
  /* Pad with spaces and a newline so the data starts at a multiple of 64. */
  while ((10 + n + 1) % 64 != 0)
    header[n++] = ' ';
  header[n++] = '\n';
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "%s: cannot create\n", path);
    return 1;
  }
  unsigned char prologue[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                                (unsigned char)(n & 0xff),
                                (unsigned char)(n >> 8)};
  int ok = fwrite(prologue, 1, 10, f) == 10 &&
           fwrite(header, 1, (size_t)n, f) == (size_t)n &&
           fwrite(t->data, element_size, count, f) == count;
  return fclose(f) != 0 || !ok;
}

#ifndef KILN_DRIVER_MAIN
#define KILN_DRIVER_MAIN main
#endif
int KILN_DRIVER_MAIN(int argc, char **argv) {
  if (argc != 2 + U(_NUM_FEEDS)) {
    fprintf(stderr, "usage: %s OUT_DIR INPUT.npy... (%d inputs)\n", argv[0],
            U(_NUM_FEEDS));
    return 2;
  }
  M(_tensor) feeds[U(_NUM_FEEDS) > 0 ? U(_NUM_FEEDS) : 1];
  M(_tensor) fetches[U(_NUM_FETCHES) > 0 ? U(_NUM_FETCHES) : 1];
  memset(feeds, 0, sizeof feeds);
  memset(fetches, 0, sizeof fetches);
  for (int i = 0; i < U(_NUM_FEEDS); ++i) {
    const char *descr = npy_descr(M(_feed_type)(i));
    if (!descr) {
      fprintf(stderr, "feed %d: no .npy dtype for %s\n", i, M(_feed_type)(i));
      return 1;
    }
    if (read_npy(argv[2 + i], descr, M(_feed_rank)(i),
                 (size_t)M(_feed_element_size)(i), &feeds[i]))
      return 1;
  }
#ifdef KILN_DRIVER_THREADS
  /* The run's parallel loops on a pool of KILN_DRIVER_THREADS threads
     (Kiln's CPU thread runtime, linked with libkiln-cpu-threads.a). */
  kiln_cpu_pool *pool = kiln_cpu_pool_create(KILN_DRIVER_THREADS);
  if (!pool) {
    fprintf(stderr, "cannot start %d threads\n", KILN_DRIVER_THREADS);
    return 1;
  }
  kiln_cpu_set_thread_pool(pool);
#endif
#ifdef KILN_DRIVER_RUN
  int status = KILN_DRIVER_RUN(feeds, fetches);
#else
  int status = M(_run)(feeds, fetches);
#endif
#ifdef KILN_DRIVER_THREADS
  kiln_cpu_set_thread_pool(NULL);
  kiln_cpu_pool_destroy(pool);
#endif
#ifdef KILN_MODEL_NPU
  int npu_failed = status == U(_NPU_FAILED);
  if (npu_failed) {
    const char *why = M(_npu_error)();
    fprintf(stderr, "NPU failure: %s\n", why ? why : "(no message)");
    status = 0;
  }
#endif
  if (status != 0) {
    fprintf(stderr, "error %d: %s\n", status, M(_error_message)(status));
    return 1;
  }
  for (int i = 0; i < U(_NUM_FETCHES); ++i) {
    char path[4096];
    snprintf(path, sizeof path, "%s/output_%d.npy", argv[1], i);
    const char *descr = npy_descr(M(_fetch_type)(i));
    if (!descr || write_npy(path, descr, M(_fetch_rank)(i),
                            (size_t)M(_fetch_element_size)(i), &fetches[i])) {
      fprintf(stderr, "fetch %d: cannot write %s\n", i, path);
      return 1;
    }
  }
  M(_free_fetches)(fetches);
  for (int i = 0; i < U(_NUM_FEEDS); ++i)
    free(feeds[i].data);
  printf("ran %d feeds, %d fetches\n", U(_NUM_FEEDS), U(_NUM_FETCHES));
#ifdef KILN_MODEL_NPU
  if (npu_failed) {
    printf("the run had a failed NPU segment; its fetches are written\n");
    return 3;
  }
#endif
  return 0;
}
