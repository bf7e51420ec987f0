/* with-buffers-driver.c - model_run_with_buffers checks the caller's
 * buffers and computes what model_run does.
 *
 *   cc -include model.h with-buffers-driver.c model.o -o driver
 *
 * For Inputs/static-mlp.mlir (feed x[1][64]; fetches y[1][64], x_out[1][64]).
 */

#include <stdio.h>

static int failures = 0;

static void expect(int got, int want, const char *what) {
  printf("%s: %s\n", what, model_error_message(got));
  if (got != want) {
    printf("FAIL: %s returned %d, want %d\n", what, got, want);
    ++failures;
  }
}

static _Alignas(64) unsigned char arena[MODEL_ARENA_BYTES + 128];

int main(void) {
  float x[64], y[64], x_out[64];
  for (int i = 0; i < 64; ++i)
    x[i] = (float)(i % 5) * 0.25f;
  model_tensor feed = {x, NULL, {1, 64}};
  model_tensor fetches[2] = {{y, NULL, {1, 64}}, {x_out, NULL, {1, 64}}};

  fetches[0].shape[1] = 32;
  expect(model_run_with_buffers(&feed, fetches, arena, MODEL_ARENA_BYTES),
         MODEL_ERROR_FETCH_SHAPE + 0, "fetch 0 of 32");
  fetches[0].shape[1] = 64;
  fetches[1].data = NULL;
  expect(model_run_with_buffers(&feed, fetches, arena, MODEL_ARENA_BYTES),
         MODEL_ERROR_FETCH_NULL + 1, "fetch 1 NULL");
  fetches[1].data = x_out;
  expect(model_run_with_buffers(&feed, fetches, arena, MODEL_ARENA_BYTES - 1),
         MODEL_ERROR_ARENA, "arena too small");
  expect(model_run_with_buffers(&feed, fetches, NULL, MODEL_ARENA_BYTES),
         MODEL_ERROR_ARENA, "arena NULL");
  expect(model_run_with_buffers(&feed, fetches, arena + 8, MODEL_ARENA_BYTES),
         MODEL_ERROR_ARENA, "arena misaligned");
  expect(model_run_with_buffers(&feed, NULL, arena, MODEL_ARENA_BYTES),
         MODEL_ERROR_NULL_ARGUMENT, "fetches NULL");
  expect(model_run_with_buffers(&feed, fetches, arena, MODEL_ARENA_BYTES), 0,
         "good buffers");

  /* The allocating entry computes the same. */
  model_tensor allocated[2];
  expect(model_run(&feed, allocated), 0, "allocating");
  if (memcmp(allocated[0].data, y, sizeof y) != 0 ||
      memcmp(allocated[1].data, x, sizeof x) != 0 ||
      memcmp(x_out, x, sizeof x) != 0) {
    printf("FAIL: the two entries differ\n");
    ++failures;
  }
  model_free_fetches(allocated);
  printf("y[0] = %g\n", y[0]);
  printf("%s\n", failures ? "FAILED" : "all passed");
  return failures != 0;
}
