//===- Options.cpp - kiln-compile: command-line options ---------*- C++ -*-===//
//
// kiln-compile's options and tfcompile's spellings of them (Options.h).
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-compile/Options.h"

#include "target/cpu/ObjectEmitter.h"

#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace kiln::compile {

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

cl::OptionCategory category("kiln-compile options");

cl::opt<std::string>
    inputPath(cl::Positional,
              cl::desc("<model: .pb, .pbtxt, model.json, .mlir, a SavedModel "
                       "directory or a MetaGraph .meta>"),
              cl::cat(category));
cl::opt<std::string>
    configPath("config",
               cl::desc("tfcompile config (tf2xla.Config, text or binary): "
                        "feeds, fetches and their names in the header"),
               cl::cat(category));
cl::opt<std::string> outputPath("o", cl::desc("Object file to write"),
                                cl::value_desc("file.o"), cl::cat(category));
cl::opt<std::string>
    headerPath("header",
               cl::desc("Header to write (default: the object's path with .h)"),
               cl::value_desc("file.h"), cl::cat(category));
cl::opt<std::string>
    cppClass("cpp-class",
             cl::desc("C++ class of the header, with namespaces (ns::Name); "
                      "default: Model"),
             cl::init("Model"), cl::cat(category));
cl::opt<std::string>
    symbol("symbol",
           cl::desc("Prefix of the model's C symbols: the entry is "
                    "_mlir_ciface_<symbol>, the C API <symbol>_run; give each "
                    "model linked into one program its own (default: the "
                    "class name in snake case)"),
           cl::cat(category));
cl::opt<std::string> entry("entry",
                           cl::desc("Function of an .mlir input to compile"),
                           cl::init("main"), cl::cat(category));
cl::list<std::string> entryList(
    "entries", cl::CommaSeparated,
    cl::desc("Several signatures (SavedModel, MetaGraph) or functions (.mlir) "
             "in one object sharing the model's variables, such as a stateful "
             "model's init and step: entry e is <symbol>_<e>_run and class "
             "<cpp-class>_<e>"),
    cl::cat(category));
cl::opt<std::string>
    inputShapes("input-shapes",
                cl::desc("Input shapes of a TF.js model, ':'-separated "
                         "(1,224,224,3:...); -1 or ? keeps a size dynamic"),
                cl::cat(category));
cl::opt<std::string>
    tags("tags",
         cl::desc("SavedModel: the MetaGraph's tag set, comma-separated "
                  "(default: serve)"),
         cl::init("serve"), cl::cat(category));
cl::opt<std::string> signatureKey(
    "signature",
    cl::desc("SavedModel or MetaGraph: the SignatureDef to compile (default: "
             "serving_default)"),
    cl::init("serving_default"), cl::cat(category));
cl::opt<std::string> checkpoint(
    "checkpoint",
    cl::desc("Checkpoint prefix of the variables (default: "
             "<dir>/variables/variables, or the .meta path without .meta)"),
    cl::cat(category));
cl::opt<std::string>
    metaGraphOutputs("outputs",
                     cl::desc("A MetaGraph's fetched tensors, node or node:k, "
                              "comma-separated (default: its signature, else "
                              "the nodes no node reads)"),
                     cl::cat(category));
cl::opt<bool> listSignatures(
    "list-signatures",
    cl::desc("Print a SavedModel's or MetaGraph's tag sets and signatures, "
             "then exit"),
    cl::cat(category));
cl::opt<std::string> cpu("cpu",
                         cl::desc("CPU to generate code for: host (default) "
                                  "or an LLVM CPU name such as x86-64-v3"),
                         cl::init("host"), cl::cat(category));
cl::opt<std::string> features("features",
                              cl::desc("LLVM target features (+avx2,+fma); "
                                       "default: the CPU's"),
                              cl::cat(category));
cl::opt<std::string> triple("target-triple",
                            cl::desc("Target triple (default: the host's)"),
                            cl::cat(category));
cl::opt<unsigned> optLevel("O", cl::desc("Optimization level 0-3"), cl::Prefix,
                           cl::init(3), cl::cat(category));
cl::opt<uint64_t> unrollLimit(
    "llvm-unroll-limit",
    cl::desc("LLVM unrolls loops only when the model has at most this many "
             "instructions (default 20000)"),
    cl::init(kiln::cpu::kDefaultUnrollLimit), cl::cat(category));
cl::opt<std::string>
    dumpDir("dump-dir",
            cl::desc("Write the input MLIR, the IR after each phase, LLVM IR, "
                     "the object's assembly, and on failure a reproducer "
                     "(kiln-opt --run-reproducer) into this directory"),
            cl::cat(category));

cl::opt<std::string>
    target("target",
           cl::desc("What runs the model: 'cpu' (default; the object needs "
                    "only the C library) or 'npu' (NPU-v1 segments as command "
                    "streams in the object, run by Kiln's NPU runtime, the "
                    "rest on the CPU)"),
           cl::init("cpu"), cl::cat(category));

cl::opt<bool> timing("timing",
                     cl::desc("Print the time of each phase and of the passes "
                              "in it when done (as --mlir-timing)"),
                     cl::cat(category));
cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every pass (default: once at the end of "
             "each phase; verifying a whole model after each of the llvm "
             "phase's passes took a third of that phase)"),
    cl::cat(category));
cl::opt<cl::boolOrDefault> progress(
    "progress",
    cl::desc("Print each phase with the model's op count as it starts "
             "(default: when stderr is a terminal)"),
    cl::cat(category));

//===----------------------------------------------------------------------===//
// tfcompile's spellings
//===----------------------------------------------------------------------===//

// tfcompile's flags, each an alias of a kiln-compile option (or refused with
// the reason), listed in their own category of --help.
cl::OptionCategory tfcompileCategory(
    "tfcompile's flags (each the same as the kiln-compile option named; "
    "docs/from-tfcompile.md)");

cl::opt<std::string> tfGraph("graph",
                             cl::desc("= the model argument (a GraphDef)"),
                             cl::value_desc("file"),
                             cl::cat(tfcompileCategory));
cl::opt<std::string> tfCppClass("cpp_class", cl::desc("= --cpp-class"),
                                cl::value_desc("ns::Name"),
                                cl::cat(tfcompileCategory));
cl::opt<std::string> tfOutFunctionObject("out_function_object",
                                         cl::desc("= -o"),
                                         cl::value_desc("file.o"),
                                         cl::cat(tfcompileCategory));
cl::opt<std::string> tfOutHeader("out_header", cl::desc("= --header"),
                                 cl::value_desc("file.h"),
                                 cl::cat(tfcompileCategory));
cl::opt<std::string> tfOutMetadataObject(
    "out_metadata_object",
    cl::desc("refused: Kiln's header holds the name tables and shapes a "
             "metadata object would"),
    cl::value_desc("file.o"), cl::cat(tfcompileCategory));
cl::opt<std::string> tfTargetTriple("target_triple",
                                    cl::desc("= --target-triple"),
                                    cl::value_desc("triple"),
                                    cl::cat(tfcompileCategory));
cl::opt<std::string> tfTargetCpu("target_cpu", cl::desc("= --cpu"),
                                 cl::value_desc("cpu"),
                                 cl::cat(tfcompileCategory));
cl::opt<std::string> tfTargetFeatures("target_features",
                                      cl::desc("= --features"),
                                      cl::value_desc("+f,-g"),
                                      cl::cat(tfcompileCategory));
cl::opt<std::string>
    tfEntryPoint("entry_point",
                 cl::desc("= --symbol (the object's function name prefix)"),
                 cl::value_desc("name"), cl::cat(tfcompileCategory));
cl::opt<bool> genNameToIndex(
    "gen_name_to_index",
    cl::desc("LookupArgIndex, LookupResultIndex and LookupVariableIndex find "
             "names (tfcompile class)"),
    cl::cat(tfcompileCategory));
cl::opt<bool> genProgramShape(
    "gen_program_shape",
    cl::desc("refused: ProgramShape() returns an XLA protobuf; the header "
             "states each shape"),
    cl::cat(tfcompileCategory));

cl::opt<kiln::cpu::HeaderAPI> headerApi(
    "header-api", cl::desc("The header's C++ class"),
    cl::values(clEnumValN(kiln::cpu::HeaderAPI::Kiln, "kiln",
                          "Kiln's (feed_*, fetch_*); the default"),
               clEnumValN(kiln::cpu::HeaderAPI::Tfcompile, "tfcompile",
                          "tfcompile's (set_arg_data, arg<N>, result<N>, "
                          "var_<name>); the default when a tfcompile flag "
                          "is given")),
    cl::cat(category));

/// Folds tfcompile's spellings into kiln-compile's options: an alias given
/// together with its kiln-compile spelling, and the flags Kiln refuses, are
/// errors. Chooses the header's class. Returns false after printing why.
bool applyTfcompileFlags() {
  auto fail = [](const Twine &message) {
    llvm::errs() << "kiln-compile: " << message << "\n";
    return false;
  };
  bool anyGiven = false;
  auto alias = [&](cl::opt<std::string> &tf, cl::opt<std::string> &kiln,
                   StringRef kilnName) {
    if (!tf.getNumOccurrences())
      return true;
    anyGiven = true;
    if (kiln.getNumOccurrences())
      return fail("--" + tf.ArgStr + " and " + kilnName +
                  " are the same option; give one");
    kiln = tf.getValue();
    return true;
  };
  if (!alias(tfGraph, inputPath, "the model argument") ||
      !alias(tfCppClass, cppClass, "--cpp-class") ||
      !alias(tfOutFunctionObject, outputPath, "-o") ||
      !alias(tfOutHeader, headerPath, "--header") ||
      !alias(tfTargetTriple, triple, "--target-triple") ||
      !alias(tfTargetCpu, cpu, "--cpu") ||
      !alias(tfTargetFeatures, features, "--features") ||
      !alias(tfEntryPoint, symbol, "--symbol"))
    return false;
  if (tfOutMetadataObject.getNumOccurrences())
    return fail("--out_metadata_object: Kiln writes no metadata object; the "
                "name tables (--gen_name_to_index) and the shapes are in the "
                "header, so link --out_function_object alone");
  if (genProgramShape)
    return fail("--gen_program_shape: tfcompile's ProgramShape() returns an "
                "xla::ProgramShapeProto, an XLA protobuf a Kiln header does "
                "not depend on; the header comment, ArgSize/ResultSize and "
                "arg<N>_count() give the shapes");
  anyGiven |= genNameToIndex.getNumOccurrences() > 0;
  if (!headerApi.getNumOccurrences() && anyGiven)
    headerApi = kiln::cpu::HeaderAPI::Tfcompile;
  if (genNameToIndex && headerApi != kiln::cpu::HeaderAPI::Tfcompile)
    return fail("--gen_name_to_index applies to --header-api=tfcompile; "
                "Kiln's class has feed_index() and fetch_index()");
  if (cpu.empty())
    cpu = "host";
  if (inputPath.empty())
    return fail("no model: give it as the first argument or with --graph");
  return true;
}


} // namespace kiln::compile
