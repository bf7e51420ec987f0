// tfcompile's tutorial program for test_graph_tfmatmul, written against the
// generated class's documented API; only the include names Kiln's header.
#include "test_graph_tfmatmul.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

// Stands in for Eigen::ThreadPoolDevice: set_thread_pool takes a pointer
// and sizes Kiln's pool by numThreads().
struct ThreadPoolDevice {
  int numThreads() const { return 2; }
};

static int failures = 0;
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAILED: %s (line %d)\n", #cond, __LINE__);                  \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

int main() {
  ThreadPoolDevice device;
  foo::bar::MatMulComp matmul;
  matmul.set_thread_pool(&device);

  // Set up args and run the computation.
  const float args[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  std::copy(args + 0, args + 6, matmul.arg0_data());
  std::copy(args + 6, args + 12, matmul.arg1_data());
  EXPECT(matmul.Run());
  EXPECT(matmul.error_msg() == "");
  std::printf("result0(0, 0) = %g\n", matmul.result0(0, 0));
  EXPECT(matmul.result0(0, 0) == 58);
  EXPECT(matmul.result0(0, 1) == 64);
  EXPECT(matmul.result0(1, 0) == 139);
  EXPECT(matmul.result0(1, 1) == 154);
  EXPECT(matmul.result_x_y_prod(1, 1) == 154);
  EXPECT(matmul.result0_data() == matmul.result_data(0));
  EXPECT(matmul.result_x_y_prod_data() == matmul.result0_data());

  // The element accessors address the same buffers as the _data ones.
  EXPECT(&matmul.arg0(1, 2) == matmul.arg0_data() + 5);
  EXPECT(&matmul.arg_y_hold(2, 1) == matmul.arg1_data() + 5);
  EXPECT(matmul.arg0_data() == matmul.arg_data(0));
  matmul.arg0(0, 0) = 2; // x[0][0] = 2: result0(0, 0) = 58 + 7
  EXPECT(matmul.Run());
  EXPECT(matmul.result0(0, 0) == 65);

  // Counts and sizes.
  static_assert(foo::bar::MatMulComp::kNumArgs == 2, "kNumArgs");
  static_assert(foo::bar::MatMulComp::kNumResults == 1, "kNumResults");
  static_assert(foo::bar::MatMulComp::kNumVariables == 0, "kNumVariables");
  EXPECT(foo::bar::MatMulComp::ArgSize(0) == 24);
  EXPECT(matmul.arg_size(1) == 24);
  EXPECT(matmul.arg0_size() == 24 && matmul.arg0_count() == 6);
  EXPECT(matmul.result0_size() == 16 && matmul.result0_count() == 4);
  EXPECT(matmul.num_args() == 2 && matmul.num_results() == 1);

  // Names (--gen_name_to_index).
  EXPECT(matmul.HasNameIndices());
  EXPECT(matmul.LookupArgIndex("x_hold") == 0);
  EXPECT(matmul.LookupArgIndex("y_hold") == 1);
  EXPECT(matmul.LookupArgIndex("nope") == -1);
  EXPECT(matmul.LookupResultIndex("x_y_prod") == 0);

  // Caller-owned arguments: set_arg_data in RESULTS_PROFILES_AND_TEMPS_ONLY.
  foo::bar::MatMulComp own(
      foo::bar::MatMulComp::AllocMode::RESULTS_PROFILES_AND_TEMPS_ONLY);
  EXPECT(own.arg0_data() == nullptr);
  EXPECT(!own.Run());
  std::printf("error_msg: %s\n", own.error_msg().c_str());
  EXPECT(own.error_msg().find("x_hold") != std::string::npos);
  alignas(64) float x[6] = {1, 0, 0, 0, 1, 0};
  alignas(64) float y[6] = {1, 2, 3, 4, 5, 6};
  own.set_arg0_data(x);
  own.set_arg_data(1, y);
  EXPECT(own.arg0_data() == x);
  EXPECT(own.Run());
  EXPECT(own.error_msg().empty());
  EXPECT(own.result0(0, 0) == 1 && own.result0(0, 1) == 2);
  EXPECT(own.result0(1, 0) == 3 && own.result0(1, 1) == 4);

  std::printf("%s\n", failures ? "Failed" : "Success");
  return failures ? 1 : 0;
}
