/* runtime-check-driver.c - a compiled model's errors reach a C caller.
 *
 *   cc -include model.h runtime-check-driver.c model.o -o driver
 *
 * Calls model_run (Inputs/space-to-batch-dynamic.mlir: SpaceToBatchND with
 * 2x2 blocks on a [1, ?, ?, 2] image) with wrong arguments and with an image
 * of odd height, which fails the model's run-time check; each call must
 * return its error code and message and leave the fetches alone. Then the
 * same process runs a good image and checks the result.
 */

#include <stdio.h>

static int failures = 0;

static void expect(int got, int want, const char *what) {
  printf("%s: %d: %s\n", what, got, model_error_message(got));
  if (got != want) {
    printf("FAIL: %s returned %d, want %d\n", what, got, want);
    ++failures;
  }
}

int main(void) {
  float image[1 * 4 * 6 * 2];
  for (int i = 0; i < 48; ++i)
    image[i] = (float)i;
  model_tensor feed = {image, NULL, {1, 3, 6, 2}};
  model_tensor fetch = {NULL, NULL, {0}};

  /* Height 3 is not a multiple of the block size: the run-time check. */
  expect(model_run(&feed, &fetch), MODEL_ERROR_RUNTIME_CHECK + 0, "odd height");
  if (fetch.data || fetch.allocation) {
    printf("FAIL: a failed run wrote the fetch\n");
    ++failures;
  }
  /* Rejected before the model runs. */
  feed.shape[0] = 2;
  expect(model_run(&feed, &fetch), MODEL_ERROR_FEED_SHAPE + 0, "batch 2");
  feed.shape[0] = 1;
  feed.shape[1] = -4;
  expect(model_run(&feed, &fetch), MODEL_ERROR_FEED_SHAPE + 0, "negative");
  feed.shape[1] = 4;
  feed.data = NULL;
  expect(model_run(&feed, &fetch), MODEL_ERROR_FEED_NULL + 0, "null data");
  feed.data = image;
  expect(model_run(NULL, &fetch), MODEL_ERROR_NULL_ARGUMENT, "null feeds");
  expect(model_run(&feed, NULL), MODEL_ERROR_NULL_ARGUMENT, "null fetches");
  printf("unknown: %s\n", model_error_message(1000));

  /* The process goes on: a 4x6 image runs. Block (i, j) of the output
     holds image[2y + i][2x + j] * 2. */
  expect(model_run(&feed, &fetch), 0, "good image");
  if (fetch.shape[0] != 4 || fetch.shape[1] != 2 || fetch.shape[2] != 3 ||
      fetch.shape[3] != 2) {
    printf("FAIL: fetch shape %lld %lld %lld %lld\n",
           (long long)fetch.shape[0], (long long)fetch.shape[1],
           (long long)fetch.shape[2], (long long)fetch.shape[3]);
    ++failures;
  } else {
    const float *out = (const float *)fetch.data;
    for (int b = 0; b < 4; ++b)
      for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 3; ++x)
          for (int c = 0; c < 2; ++c) {
            int row = 2 * y + b / 2, col = 2 * x + b % 2;
            float want = 2 * image[(row * 6 + col) * 2 + c];
            float got = out[((b * 2 + y) * 3 + x) * 2 + c];
            if (got != want) {
              printf("FAIL: block %d (%d, %d, %d): %g, want %g\n", b, y, x, c,
                     got, want);
              ++failures;
            }
          }
  }
  model_free_fetches(&fetch);
  printf("%s\n", failures ? "FAILED" : "all passed");
  return failures != 0;
}
