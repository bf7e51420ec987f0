/* run-models.c - one model compiled by the installed kiln-compile for the CPU
 * and for the NPU (kiln_add_compiled_model ... TARGET npu), linked into a C
 * program that names only the two model libraries. Both run on the same
 * input; the NPU's fp16 result must be within 1e-2 of the CPU's scale. */
#include "cpu_model.h"
#include "npu_model.h"

#include <math.h>
#include <stdio.h>

int main(void) {
  static float x[1 * 8 * 8 * 16];
  for (int i = 0; i < (int)(sizeof x / sizeof x[0]); ++i)
    x[i] = (float)((i * 37) % 101) / 101.0f;
  cpu_model_tensor cpu_feeds[1] = {{x, NULL, {1, 8, 8, 16}}};
  npu_model_tensor npu_feeds[1] = {{x, NULL, {1, 8, 8, 16}}};
  cpu_model_tensor cpu_fetches[1];
  npu_model_tensor npu_fetches[1];
  if (cpu_model_run(cpu_feeds, cpu_fetches) != 0) {
    fprintf(stderr, "FAIL: the CPU model did not run\n");
    return 1;
  }
  int status = npu_model_run(npu_feeds, npu_fetches);
  if (status != 0) {
    fprintf(stderr, "FAIL: the NPU model returned %d: %s\n", status,
            status == NPU_MODEL_NPU_FAILED ? npu_model_npu_error() : "");
    return 1;
  }
  const float *a = (const float *)cpu_fetches[0].data;
  const float *b = (const float *)npu_fetches[0].data;
  double scale = 0, error = 0;
  for (int i = 0; i < 8 * 8 * 16; ++i) {
    scale = fmax(scale, fabs(a[i]));
    error = fmax(error, fabs((double)a[i] - b[i]));
  }
  cpu_model_free_fetches(cpu_fetches);
  npu_model_free_fetches(npu_fetches);
  printf("npu vs cpu: max error %g of scale %g\n", error, scale);
  if (!(scale > 0) || !(error <= 1e-2 * scale)) {
    fprintf(stderr, "FAIL: the NPU result is not within 1e-2\n");
    return 1;
  }
  return 0;
}
