/* Steps the accumulator of accumulator-entries.mlir through its C API: two
   steps from the initial state, a reset, two more steps; then sets the state
   through the variable and steps once. Prints each output. */
#include <stdio.h>

int main(void) {
  float x[2] = {0.5f, 1.0f};
  acc_step_tensor feeds[1] = {{x, NULL, {2}}};
  for (int t = 0; t < 5; ++t) {
    if (t == 2) {
      acc_reset_tensor done[ACC_RESET_NUM_FETCHES];
      if (acc_reset_run(NULL, done))
        return 1;
      acc_reset_free_fetches(done);
    }
    acc_step_tensor y[ACC_STEP_NUM_FETCHES];
    int status = acc_step_run(feeds, y);
    if (status) {
      fprintf(stderr, "%s\n", acc_step_error_message(status));
      return 1;
    }
    const float *v = (const float *)y[0].data;
    printf("step %d: %g %g\n", t, v[0], v[1]);
    acc_step_free_fetches(y);
  }
  acc_var_total[0] = 100.0f;
  acc_step_tensor y[ACC_STEP_NUM_FETCHES];
  if (acc_step_run(feeds, y))
    return 1;
  printf("set: %g %g\n", ((const float *)y[0].data)[0],
         ((const float *)y[0].data)[1]);
  acc_step_free_fetches(y);
  return 0;
}
