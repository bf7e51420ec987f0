//===- ObjectEmitter.cpp - LLVM dialect to a CPU object file ----*- C++ -*-===//
//
// See ObjectEmitter.h.
//
//===----------------------------------------------------------------------===//

#include "target/cpu/ObjectEmitter.h"

#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

using namespace mlir;

namespace kiln::cpu {

void initializeLLVMTargets() {
  static bool once = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)once;
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const TargetOptions &options) {
  initializeLLVMTargets();
  llvm::Triple triple(options.triple.empty() ? llvm::sys::getProcessTriple()
                                             : options.triple);
  std::string message;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, message);
  if (!target)
    return llvm::createStringError("no LLVM target for triple '%s': %s",
                                   triple.str().c_str(), message.c_str());

  std::string cpu = options.cpu;
  std::string features = options.features;
  if (cpu.empty() || cpu == "host") {
    cpu = llvm::sys::getHostCPUName().str();
    if (features.empty()) {
      llvm::SubtargetFeatures hostFeatures;
      for (const auto &feature : llvm::sys::getHostCPUFeatures())
        hostFeatures.AddFeature(feature.getKey(), feature.getValue());
      features = hostFeatures.getString();
    }
  }
  if (options.optLevel > 3)
    return llvm::createStringError("optimization level %u is not 0 to 3",
                                   options.optLevel);

  llvm::TargetOptions targetOptions;
  auto level = static_cast<llvm::CodeGenOptLevel>(options.optLevel);
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, cpu, features, targetOptions,
                                  llvm::Reloc::PIC_, std::nullopt, level));
  if (!machine)
    return llvm::createStringError(
        "cannot create a target machine for '%s' (cpu '%s')",
        triple.str().c_str(), cpu.c_str());
  // An unknown CPU name is only a warning inside LLVM; make it an error.
  if (!machine->getMCSubtargetInfo()->isCPUStringValid(cpu))
    return llvm::createStringError("unknown CPU '%s' for '%s'", cpu.c_str(),
                                   triple.str().c_str());
  return machine;
}

int64_t f32VectorLanes(const llvm::TargetMachine &machine) {
  const llvm::MCSubtargetInfo *subtarget = machine.getMCSubtargetInfo();
  if (!machine.getTargetTriple().isX86())
    return 4;
  if (subtarget->checkFeatures("+avx512f"))
    return 16;
  return subtarget->checkFeatures("+avx") ? 8 : 4;
}

uint64_t moduleInstructionCount(const llvm::Module &module) {
  uint64_t count = 0;
  for (const llvm::Function &function : module)
    count += function.getInstructionCount();
  return count;
}

llvm::Error optimizeLLVMModule(llvm::Module &module,
                               llvm::TargetMachine *targetMachine,
                               unsigned optLevel, uint64_t unrollLimit) {
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  if (optLevel > 3)
    return llvm::createStringError("optimization level %u is not 0 to 3",
                                   optLevel);
  // The tuning MLIR's makeOptimizingTransformer uses, except that loop
  // unrolling is off for modules above the limit.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  tuning.LoopUnrolling = moduleInstructionCount(module) <= unrollLimit;

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(targetMachine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes =
      optLevel == 0 ? builder.buildO0DefaultPipeline(levels[0])
                    : builder.buildPerModuleDefaultPipeline(levels[optLevel]);
  passes.run(module, modules);
  return llvm::Error::success();
}

std::unique_ptr<llvm::Module>
translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                  llvm::TargetMachine &targetMachine, unsigned optLevel,
                  uint64_t unrollLimit) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "kiln");
  if (!llvmModule) {
    module.emitError("translation to LLVM IR failed");
    return nullptr;
  }
  llvmModule->setTargetTriple(targetMachine.getTargetTriple());
  llvmModule->setDataLayout(targetMachine.createDataLayout());
  if (llvm::Error error = optimizeLLVMModule(*llvmModule, &targetMachine,
                                             optLevel, unrollLimit)) {
    module.emitError("LLVM optimization failed: ")
        << llvm::toString(std::move(error));
    return nullptr;
  }
  return llvmModule;
}

llvm::Error emitCode(llvm::Module &module, llvm::TargetMachine &targetMachine,
                     CodeKind kind, llvm::raw_pwrite_stream &os) {
  llvm::legacy::PassManager passes;
  auto fileType = kind == CodeKind::Object
                      ? llvm::CodeGenFileType::ObjectFile
                      : llvm::CodeGenFileType::AssemblyFile;
  if (targetMachine.addPassesToEmitFile(passes, os, nullptr, fileType))
    return llvm::createStringError("the target cannot emit this file type");
  passes.run(module);
  return llvm::Error::success();
}

} // namespace kiln::cpu
