//===- SanitizerOptions.cpp - ASan defaults of the sanitized harnesses ----===//
//
// Linked into every harness of a sanitized build (KILN_SANITIZE or
// KILN_ENABLE_FUZZING). Kiln is compiled with ASan, Debian's libMLIR.so is
// not, and both allocate from the same BumpPtrAllocators (an MLIRContext's
// attribute and location storage). LLVM's Allocator.h poisons a new slab
// when it is compiled with ASan and unpoisons only what the instrumented
// copy hands out, so an attribute uniqued by Kiln's code followed by a
// location uniqued inside libMLIR.so wrote to "poisoned" memory: a false
// use-after-poison (docs/reliability.md, "Fuzzing runs and findings").
// Manual poisoning is therefore off; ASan's own checks of heap, stack and
// globals are unchanged. ASAN_OPTIONS given at run time still apply.
//
//===----------------------------------------------------------------------===//

/// The options ASan reads before ASAN_OPTIONS.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
