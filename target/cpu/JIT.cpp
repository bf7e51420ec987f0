//===- JIT.cpp - JIT-compile a lowered module and call its entry ----------===//
//
// JITModule wraps MLIR's ExecutionEngine: a target machine from
// ObjectEmitter (so the JIT and kiln-compile generate code alike), LLVM's
// optimisation pipeline at the chosen level, extra libraries and symbols,
// and the packed wrapper of the entry's C interface.
//
//===----------------------------------------------------------------------===//

#include "target/cpu/JIT.h"

#include "target/cpu/ObjectEmitter.h"

#include "runtime/cpu/threads/ThreadPool.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;

namespace kiln::cpu {

//===----------------------------------------------------------------------===//
// ResultDescriptors
//===----------------------------------------------------------------------===//

ResultDescriptors::ResultDescriptors(llvm::ArrayRef<size_t> ranks)
    : ranks(ranks.begin(), ranks.end()) {
  size_t total = 0;
  for (size_t rank : ranks) {
    offsets.push_back(total);
    total += descriptorWords(rank);
  }
  words.assign(total, 0);
}

ResultArray ResultDescriptors::read(size_t index, size_t elementBytes) const {
  const int64_t *desc = words.data() + offsets[index];
  size_t rank = ranks[index];
  ResultArray array;
  array.shape.assign(desc + 3, desc + 3 + rank);
  const int64_t *strides = desc + 3 + rank;
  int64_t count = 1;
  for (int64_t size : array.shape)
    count *= size;
  array.data.resize(count * elementBytes);
  const auto *base = reinterpret_cast<const uint8_t *>(desc[1]);
  std::vector<int64_t> position(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t offset = desc[2];
    for (size_t d = 0; d < rank; ++d)
      offset += position[d] * strides[d];
    std::memcpy(array.data.data() + i * elementBytes,
                base + offset * static_cast<int64_t>(elementBytes),
                elementBytes);
    for (size_t d = rank; d-- > 0;) {
      if (++position[d] < array.shape[d])
        break;
      position[d] = 0;
    }
  }
  return array;
}

void ResultDescriptors::free(llvm::ArrayRef<const void *> keep) {
  llvm::SmallPtrSet<const void *, 8> skip(keep.begin(), keep.end());
  skip.insert(reinterpret_cast<const void *>(intptr_t(0xdeadbeef)));
  for (size_t offset : offsets) {
    auto *allocated = reinterpret_cast<void *>(words[offset]);
    if (allocated && skip.insert(allocated).second)
      std::free(allocated);
  }
  std::fill(words.begin(), words.end(), 0);
}

//===----------------------------------------------------------------------===//
// JITModule
//===----------------------------------------------------------------------===//

JITModule::~JITModule() = default;

llvm::Expected<std::unique_ptr<JITModule>>
JITModule::create(ModuleOp module, llvm::StringRef entry,
                  const JITOptions &options) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  if (options.optLevel > 3)
    return fail("the optimisation level must be 0, 1, 2 or 3");
  // The messages of the entry's run-time checks (kiln-cpu-runtime-checks).
  std::vector<std::string> checkMessages;
  if (auto all = module->getAttrOfType<DictionaryAttr>("kiln.runtime_checks"))
    if (auto messages = all.getAs<ArrayAttr>(entry))
      for (auto message : messages.getAsRange<StringAttr>())
        checkMessages.push_back(message.str());
  initializeLLVMTargets();

  std::vector<std::string> libraries = options.sharedLibs;
#ifdef KILN_MLIR_C_RUNNER_UTILS
  if (options.loadRunnerUtils && llvm::sys::fs::exists(KILN_MLIR_C_RUNNER_UTILS))
    libraries.push_back(KILN_MLIR_C_RUNNER_UTILS);
#endif
  for (const std::string &library : libraries)
    if (!llvm::sys::fs::exists(library))
      return fail("shared library " + library + ": no such file");
  llvm::SmallVector<llvm::StringRef> libraryRefs(libraries.begin(),
                                                 libraries.end());

  TargetOptions target;
  target.cpu = options.cpu;
  target.features = options.features;
  target.optLevel = options.optLevel;
  auto machine = createTargetMachine(target);
  if (!machine)
    return machine.takeError();
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = [tm = machine->get(),
                                level = options.optLevel,
                                limit = options.unrollLimit](llvm::Module *m) {
    return optimizeLLVMModule(*m, tm, level, limit);
  };
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(options.optLevel);
  engineOptions.sharedLibPaths = libraryRefs;
  auto engine = ExecutionEngine::create(module, engineOptions,
                                        std::move(*machine));
  if (!engine)
    return fail("cannot JIT-compile the module: " +
                llvm::toString(engine.takeError()));

  {
    // Parallel loops call Kiln's CPU thread runtime (linked into this
    // library), which runs them on the calling thread's pool, if any.
    std::vector<std::pair<std::string, void *>> symbols = options.symbols;
    symbols.emplace_back("kiln_cpu_parallel_for",
                         reinterpret_cast<void *>(&kiln_cpu_parallel_for));
    (*engine)->registerSymbols(
        [symbols](llvm::orc::MangleAndInterner interner) {
          llvm::orc::SymbolMap map;
          for (const auto &[name, address] : symbols)
            map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                   llvm::JITSymbolFlags::Exported};
          return map;
        });
  }

  (*engine)->initialize();

  std::unique_ptr<JITModule> jit(new JITModule());
  jit->engine = std::move(*engine);
  std::string symbol = ("_mlir_ciface_" + entry).str();
  auto packed = jit->engine->lookupPacked(symbol);
  if (!packed)
    return fail("the compiled module has no " + symbol + ": " +
                llvm::toString(packed.takeError()));
  jit->entry = *packed;
  if (!checkMessages.empty()) {
    auto check = jit->engine->lookupPacked(symbol + "_check");
    if (!check)
      return fail("the compiled module has no " + symbol + "_check for its " +
                  "run-time checks: " + llvm::toString(check.takeError()));
    jit->check = *check;
    jit->checkMessages = std::move(checkMessages);
  }
  return jit;
}

llvm::Expected<void *> JITModule::lookup(llvm::StringRef symbol) const {
  return engine->lookup(symbol);
}

llvm::Error JITModule::call(llvm::ArrayRef<InputView> inputs,
                            ResultDescriptors &results) {
  std::vector<std::vector<int64_t>> inputWords;
  for (const InputView &input : inputs) {
    size_t rank = input.shape.size();
    std::vector<int64_t> words(descriptorWords(rank));
    words[0] = words[1] = reinterpret_cast<intptr_t>(input.data);
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      words[3 + d] = input.shape[d];
      words[3 + rank + d] = stride;
      stride *= input.shape[d];
    }
    inputWords.push_back(std::move(words));
  }
  // The check takes one descriptor pointer per input and returns an i32;
  // its packed wrapper takes a pointer to each argument, then one to where
  // the result goes.
  if (check) {
    std::vector<void *> arguments;
    for (std::vector<int64_t> &words : inputWords)
      arguments.push_back(words.data());
    std::vector<void *> packed;
    for (void *&argument : arguments)
      packed.push_back(&argument);
    int32_t status = 0;
    packed.push_back(&status);
    check(packed.data());
    if (status != 0) {
      std::string message =
          status > 0 && size_t(status) <= checkMessages.size()
              ? checkMessages[status - 1]
              : "unknown check " + std::to_string(status);
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "run-time check failed: " + message);
    }
  }
  // The C interface takes a pointer to the results' struct (when there are
  // results), then one descriptor pointer per input; the packed wrapper
  // takes a pointer to each of those.
  std::vector<void *> pointers;
  if (results.size())
    pointers.push_back(results.data());
  for (std::vector<int64_t> &words : inputWords)
    pointers.push_back(words.data());
  std::vector<void *> packed;
  for (void *&pointer : pointers)
    packed.push_back(&pointer);
  entry(packed.data());
  return llvm::Error::success();
}

std::optional<DType> npyDType(mlir::Type type, bool isUnsigned) {
  if (type.isF32())
    return DType::Float32;
  if (type.isF64())
    return DType::Float64;
  auto integer = dyn_cast<mlir::IntegerType>(type);
  if (!integer)
    return std::nullopt;
  isUnsigned |= integer.isUnsigned();
  switch (integer.getWidth()) {
  case 1:
    return DType::Bool;
  case 8:
    return isUnsigned ? DType::UInt8 : DType::Int8;
  case 16:
    return isUnsigned ? DType::UInt16 : DType::Int16;
  case 32:
    return isUnsigned ? DType::UInt32 : DType::Int32;
  case 64:
    return isUnsigned ? DType::UInt64 : DType::Int64;
  default:
    return std::nullopt;
  }
}

} // namespace kiln::cpu
