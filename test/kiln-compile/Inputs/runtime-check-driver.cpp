// runtime-check-driver.cpp - the C++ class reports a failed run-time check.
//
//   c++ -include model.h runtime-check-driver.cpp model.o -o driver
//
// Run() on an image of odd height returns false with error_msg() naming the
// check; after set_feed_shape to an even height, Run() succeeds.

#include <cstdio>

int main() {
  Model model;
  const int64_t odd[] = {1, 3, 4, 2};
  if (!model.set_feed_shape(0, odd))
    return 1;
  bool ok = model.Run();
  std::printf("odd: %d, %d: %s\n", ok, model.status(), model.error_msg());
  const int64_t even[] = {1, 4, 4, 2};
  if (ok || !model.set_feed_shape(0, even))
    return 1;
  for (int i = 0; i < 32; ++i)
    model.feed_image_data()[i] = 1.0f;
  ok = model.Run();
  std::printf("even: %d, '%s', %lld values, first %g\n", ok, model.error_msg(),
              (long long)model.fetch_count(0), model.fetch_blocks_data()[0]);
  return ok ? 0 : 1;
}
