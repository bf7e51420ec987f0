// A tfcompile program for test_graph_tfvariable_readonly (result = x + 42,
// x readonly), written against the generated class's documented API.
#include "test_graph_tfvariable_readonly.h"

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
  static_assert(VariableReadonlyComp::kNumVariables == 1, "y is unused");

  // A readonly variable's setter takes a pointer to const: the buffer may be
  // constant storage, and Run() never writes it.
  static const float x = 23;
  VariableReadonlyComp fn;
  fn.set_var_x_data(&x);
  EXPECT(fn.var_x_data() == &x);
  EXPECT(fn.Run());
  std::printf("result0() = %g\n", fn.result0());
  EXPECT(fn.result0() == 65);
  EXPECT(fn.var_x() == 23);
  EXPECT(fn.Run());
  EXPECT(fn.result0() == 65);

  std::printf("%s\n", failures ? "Failed" : "Success");
  return failures ? 1 : 0;
}
