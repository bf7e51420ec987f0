// A tfcompile program for test_graph_tfadd (x_const + y_const, fed), written
// against the generated class's documented API.
#include "test_graph_tfadd.h"

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
  foo::bar::AddComp add;
  EXPECT(add.arg0_data() == add.arg_data(0));
  add.arg0(0) = 1;
  add.arg1(0) = 2;
  EXPECT(add.Run());
  EXPECT(add.error_msg() == "");
  std::printf("result0(0) = %d\n", add.result0(0));
  EXPECT(add.result0(0) == 3);
  EXPECT(add.result0_data()[0] == 3);
  EXPECT(add.result_x_y_sum(0) == 3);

  add.arg_x_const(0) = 100;
  *add.arg_y_const_data() = 20;
  EXPECT(add.Run());
  EXPECT(add.result0(0) == 120);

  // Without --gen_name_to_index the lookups know no names, as in tfcompile.
  EXPECT(!add.HasNameIndices());
  EXPECT(add.LookupArgIndex("x_const") == -1);
  static_assert(foo::bar::AddComp::kNumArgs == 2, "kNumArgs");
  static_assert(foo::bar::AddComp::kNumResults == 1, "kNumResults");

  std::printf("%s\n", failures ? "Failed" : "Success");
  return failures ? 1 : 0;
}
