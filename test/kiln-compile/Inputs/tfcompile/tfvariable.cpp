// A tfcompile program for test_graph_tfvariable (result = [x, x += 42]),
// written against the generated class's documented API.
#include "test_graph_tfvariable.h"

#include <cstdio>

static int failures = 0;
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAILED: %s (line %d)\n", #cond, __LINE__);                  \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

int main() {
  static_assert(VariableComp::kNumVariables == 1, "kNumVariables");
  static_assert(VariableComp::kNumArgs == 1, "variables are arguments");
  static_assert(VariableComp::kNumResults == 1, "kNumResults");

  // A caller's buffer: used, not copied, and updated by each Run().
  VariableComp fn;
  float x = 23;
  fn.set_var_x_data(&x);
  EXPECT(fn.Run());
  std::printf("result0 = %g %g, x = %g\n", fn.result0(0, 0), fn.result0(1, 0),
              x);
  EXPECT(fn.result0(0, 0) == 23);
  EXPECT(fn.result0(1, 0) == 65);
  EXPECT(fn.var_x(0) == 65);
  EXPECT(fn.var_x_data() == &x);
  EXPECT(x == 65);
  EXPECT(fn.Run());
  EXPECT(fn.result0(0, 0) == 65);
  EXPECT(fn.result0(1, 0) == 107);
  EXPECT(x == 107);

  // Each instance has its own variable.
  VariableComp other;
  other.var_x(0) = 1000;
  EXPECT(other.Run());
  EXPECT(other.result0(0, 0) == 1000 && other.result0(1, 0) == 1042);
  EXPECT(fn.Run());
  EXPECT(fn.result0(0, 0) == 107 && x == 149);
  EXPECT(other.var_x(0) == 1042);

  // Without a buffer in RESULTS_PROFILES_AND_TEMPS_ONLY, Run() says so.
  VariableComp none(VariableComp::AllocMode::RESULTS_PROFILES_AND_TEMPS_ONLY);
  EXPECT(!none.Run());
  std::printf("error_msg: %s\n", none.error_msg().c_str());

  std::printf("%s\n", failures ? "Failed" : "Success");
  return failures ? 1 : 0;
}
