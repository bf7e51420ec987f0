//===- TFExecutorOps.cpp - tf_executor syntax and verifiers -----*- C++ -*-===//
//
// TensorFlow's custom syntax for executor nodes (a short form `: T` when the
// types follow the node's usual pattern, the functional form otherwise) and
// the verifiers of the executor's structural rules.
//
//===----------------------------------------------------------------------===//

#include "dialects/TFExecutor/IR/TFExecutor.h"

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace kiln::tf_executor;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

namespace {

using UnresolvedOperands = SmallVector<OpAsmParser::UnresolvedOperand, 4>;

bool isControl(Type type) { return isa<ControlType>(type); }

/// Strips what TensorFlow's executor ignores when it forwards a value: the
/// reference-ness of a TF1 ref type (`!tf_type.f32ref` → f32) and the
/// subtypes of resources and variants.
Type canonicalElementType(Type type) {
  if (Type referee = kiln::tf_type::getRefElementType(type))
    type = referee;
  if (isa<kiln::tf_type::ResourceType>(type))
    return kiln::tf_type::ResourceType::get(type.getContext());
  if (isa<kiln::tf_type::VariantType>(type))
    return kiln::tf_type::VariantType::get(type.getContext());
  return type;
}

/// True if a value of type `from` may flow where `to` is expected through an
/// executor node: equal types, or tensors whose element types agree (see
/// canonicalElementType) and whose shapes are compatible (`?` and `*` match
/// any size and rank).
bool areForwardCompatible(Type from, Type to) {
  if (from == to)
    return true;
  auto fromTensor = dyn_cast<TensorType>(from);
  auto toTensor = dyn_cast<TensorType>(to);
  if (!fromTensor || !toTensor)
    return false;
  if (canonicalElementType(fromTensor.getElementType()) !=
      canonicalElementType(toTensor.getElementType()))
    return false;
  return succeeded(verifyCompatibleShape(fromTensor, toTensor));
}

/// Verifies that no data operand follows a control operand, and that the
/// first `numData` operands (if given) are data.
LogicalResult verifyControlOperandsLast(Operation *op,
                                        std::optional<unsigned> numData = {}) {
  bool seenControl = false;
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    bool control = isControl(operand.getType());
    if (numData && index < *numData && control)
      return op->emitOpError("expects operand #")
             << index << " to be data, got a !tf_executor.control value";
    if (seenControl && !control)
      return op->emitOpError("expects control operands after data operands, "
                             "but operand #")
             << index << " of type " << operand.getType()
             << " follows a control operand";
    seenControl |= control;
  }
  return success();
}

/// Verifies that `type` is a boolean scalar (tensor<i1> or tensor<*xi1>).
LogicalResult verifyBoolScalar(Operation *op, Type type, StringRef what) {
  auto tensor = dyn_cast<TensorType>(type);
  if (tensor && tensor.getElementType().isInteger(1) &&
      (!tensor.hasRank() || tensor.getRank() == 0))
    return success();
  return op->emitOpError("expects ")
         << what << " to be a boolean scalar (tensor<i1>), got " << type;
}

/// Parses the type signature of a node: either `: T`, which `expandShortForm`
/// turns into operand and result types, or `: (inputs) -> (results)`. Then
/// resolves the operands and parses the trailing attribute dictionary.
ParseResult
parseNodeSignature(OpAsmParser &parser, OperationState &result,
                   ArrayRef<OpAsmParser::UnresolvedOperand> operands,
                   function_ref<ParseResult(Type, SmallVectorImpl<Type> &,
                                            SmallVectorImpl<Type> &)>
                       expandShortForm) {
  Type type;
  SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseColonType(type))
    return failure();
  SmallVector<Type, 4> operandTypes;
  if (auto fnType = dyn_cast<FunctionType>(type)) {
    llvm::append_range(operandTypes, fnType.getInputs());
    llvm::append_range(result.types, fnType.getResults());
  } else if (expandShortForm(type, operandTypes, result.types)) {
    return failure();
  }
  if (operandTypes.size() != operands.size())
    return parser.emitError(typeLoc, "expects ")
           << operandTypes.size() << " operand types, but " << operands.size()
           << " operands were given";
  if (parser.resolveOperands(operands, operandTypes, typeLoc,
                             result.operands) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  return success();
}

/// Prints ` : T` when `shortType` is set, the functional type otherwise, and
/// then the attributes other than `elided`.
void printNodeSignature(OpAsmPrinter &p, Operation *op, Type shortType,
                        ArrayRef<StringRef> elided = {}) {
  p << " : ";
  if (shortType)
    p << shortType;
  else
    p.printFunctionalType(op);
  p.printOptionalAttrDict(op->getAttrs(), elided);
}

/// Appends `count` control types to `types`.
void appendControls(MLIRContext *ctx, SmallVectorImpl<Type> &types,
                    size_t count) {
  types.append(count, ControlType::get(ctx));
}

/// The type of a scalar int32 tensor, which Merge and _SwitchN use.
Type scalarI32(MLIRContext *ctx) {
  return RankedTensorType::get({}, IntegerType::get(ctx, 32));
}

/// The type of a scalar boolean tensor, which Switch and LoopCond use.
Type scalarI1(MLIRContext *ctx) {
  return RankedTensorType::get({}, IntegerType::get(ctx, 1));
}

} // namespace

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

FetchOp GraphOp::getFetch() {
  return dyn_cast<FetchOp>(getBlock().getTerminator());
}

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  Region &body = *result.addRegion();
  if (parser.parseRegion(body))
    return failure();
  GraphOp::ensureTerminator(body, parser.getBuilder(), result.location);
  // The graph's results are the fetch's data operands.
  Operation &fetch = body.front().back();
  for (Type type : fetch.getOperandTypes())
    if (!isControl(type))
      result.types.push_back(type);
  return parser.parseOptionalAttrDict(result.attributes);
}

void GraphOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
  p.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult GraphOp::verify() {
  Block &block = getBlock();
  for (Operation &op : block) {
    if (!isa<TFExecutorDialect>(op.getDialect()))
      return op.emitOpError("is not allowed directly inside a "
                            "tf_executor.graph: wrap it in a "
                            "tf_executor.island");
  }
  FetchOp fetch = getFetch();
  if (!fetch)
    return emitOpError("expects its body to end in tf_executor.fetch");
  // Checked here too: the result types below assume the ordering.
  if (failed(verifyControlOperandsLast(fetch)))
    return failure();
  unsigned numResults = getNumResults();
  if (fetch.getNumOperands() < numResults)
    return fetch.emitOpError("fetches ")
           << fetch.getNumOperands() << " values but the graph has "
           << numResults << " results";
  for (auto [index, operand] : llvm::enumerate(fetch.getOperands())) {
    Type type = operand.getType();
    if (index >= numResults) {
      if (!isControl(type))
        return fetch.emitOpError("operand #")
               << index << " of type " << type
               << " has no graph result; only control values may follow "
                  "the graph's "
               << numResults << " results";
      continue;
    }
    if (type != getResult(index).getType())
      return fetch.emitOpError("operand #")
             << index << " has type " << type << " but graph result #" << index
             << " has type " << getResult(index).getType();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// FetchOp
//===----------------------------------------------------------------------===//

LogicalResult FetchOp::verify() { return verifyControlOperandsLast(*this); }

//===----------------------------------------------------------------------===//
// IslandOp
//===----------------------------------------------------------------------===//

YieldOp IslandOp::getYield() {
  return dyn_cast<YieldOp>(getBlock().getTerminator());
}

bool IslandOp::wrapsSingleOp() {
  Block &block = getBlock();
  if (!llvm::hasSingleElement(block.without_terminator()))
    return false;
  Operation &wrapped = block.front();
  YieldOp yield = getYield();
  return yield && wrapped.getNumResults() == yield.getNumOperands() &&
         llvm::equal(wrapped.getResults(), yield.getOperands());
}

ParseResult IslandOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  UnresolvedOperands controls;
  if (succeeded(parser.parseOptionalLParen())) {
    if (parser.parseOperandList(controls) || parser.parseRParen())
      return failure();
  }
  if (parser.resolveOperands(controls, ControlType::get(ctx), result.operands))
    return failure();

  Region &body = *result.addRegion();
  if (succeeded(parser.parseOptionalKeyword("wraps"))) {
    // The short form: one operation in generic form, whose results are
    // yielded, all at the operation's location.
    Block *block = new Block();
    body.push_back(block);
    Operation *wrapped = parser.parseGenericOperation(block, block->end());
    if (!wrapped)
      return failure();
    // The region has no parent operation yet, so the builder cannot take
    // its context from the block.
    OpBuilder builder(ctx);
    builder.setInsertionPointToEnd(block);
    YieldOp::create(builder, wrapped->getLoc(), wrapped->getResults());
    result.location = wrapped->getLoc();
  } else {
    if (parser.parseRegion(body))
      return failure();
    IslandOp::ensureTerminator(body, parser.getBuilder(), result.location);
    if (parser.parseOptionalAttrDict(result.attributes))
      return failure();
  }
  Operation &yield = body.front().back();
  llvm::append_range(result.types, yield.getOperandTypes());
  result.types.push_back(ControlType::get(ctx));
  return success();
}

void IslandOp::print(OpAsmPrinter &p) {
  if (!getControlInputs().empty()) {
    p << '(';
    p.printOperands(getControlInputs());
    p << ')';
  }
  // `wraps` encodes one location for the island, the operation and the
  // yield: use it only when that loses nothing.
  if ((*this)->getAttrs().empty() && wrapsSingleOp()) {
    Operation &wrapped = getBlock().front();
    if (wrapped.getLoc() == getLoc() && getYield().getLoc() == getLoc()) {
      p << " wraps ";
      p.printGenericOp(&wrapped);
      return;
    }
  }
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
  p.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult IslandOp::verify() {
  YieldOp yield = getYield();
  if (!yield)
    return emitOpError("expects its body to end in tf_executor.yield");
  if (yield.getNumOperands() != getOutputs().size())
    return yield.emitOpError("yields ")
           << yield.getNumOperands() << " values but the island has "
           << getOutputs().size() << " data results";
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(yield.getOperandTypes(), getOutputs().getTypes()))) {
    auto [yielded, declared] = pair;
    if (yielded != declared)
      return yield.emitOpError("operand #")
             << index << " has type " << yielded << " but island result #"
             << index << " has type " << declared;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  for (auto [index, type] : llvm::enumerate(getOperandTypes()))
    if (isControl(type))
      return emitOpError("operand #")
             << index
             << " is a !tf_executor.control value; an island's control "
                "result is implicit";
  return success();
}

//===----------------------------------------------------------------------===//
// SwitchOp
//===----------------------------------------------------------------------===//

ParseResult SwitchOp::parse(OpAsmParser &parser, OperationState &result) {
  UnresolvedOperands operands;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands))
    return failure();
  if (operands.size() < 2)
    return parser.emitError(loc, "expects a data operand and a predicate");
  MLIRContext *ctx = parser.getContext();
  return parseNodeSignature(
      parser, result, operands,
      [&](Type type, SmallVectorImpl<Type> &ins, SmallVectorImpl<Type> &outs) {
        ins.append({type, scalarI1(ctx)});
        appendControls(ctx, ins, operands.size() - 2);
        outs.append({type, type, ControlType::get(ctx)});
        return success();
      });
}

void SwitchOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperands(getOperands());
  Type type = getData().getType();
  bool isShort = getFalseOutput().getType() == type &&
                 getTrueOutput().getType() == type &&
                 getPredicate().getType() == scalarI1(getContext());
  printNodeSignature(p, *this, isShort ? type : Type());
}

LogicalResult SwitchOp::verify() {
  if (failed(verifyControlOperandsLast(*this, /*numData=*/2)) ||
      failed(
          verifyBoolScalar(*this, getPredicate().getType(), "the predicate")))
    return failure();
  Type data = getData().getType();
  for (auto [name, output] :
       {std::pair<StringRef, Value>{"false", getFalseOutput()},
        {"true", getTrueOutput()}})
    if (!areForwardCompatible(data, output.getType()))
      return emitOpError("expects the ")
             << name << " output type " << output.getType()
             << " to be compatible with the data type " << data;
  return success();
}

//===----------------------------------------------------------------------===//
// SwitchNOp
//===----------------------------------------------------------------------===//

// Syntax: `%data, %index of N (%controls) : T`.
ParseResult SwitchNOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  UnresolvedOperands operands;
  int64_t numOuts;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands, 2) || parser.parseKeyword("of") ||
      parser.parseInteger(numOuts))
    return failure();
  if (numOuts < 1)
    return parser.emitError(loc, "expects at least one output, got ")
           << numOuts;
  // The results bound are the outputs and the control result; checking
  // first keeps a huge N from being allocated.
  if (numOuts > (int64_t(1) << 20) ||
      (parser.getNumResults() != 0 &&
       numOuts + 1 != static_cast<int64_t>(parser.getNumResults())))
    return parser.emitError(loc, "expects ")
           << numOuts << " data results and a control result, but "
           << parser.getNumResults() << " results are bound";
  if (succeeded(parser.parseOptionalLParen())) {
    if (parser.parseOperandList(operands) || parser.parseRParen())
      return failure();
  }
  result.addAttribute("num_outs",
                      parser.getBuilder().getI64IntegerAttr(numOuts));
  return parseNodeSignature(
      parser, result, operands,
      [&](Type type, SmallVectorImpl<Type> &ins, SmallVectorImpl<Type> &outs) {
        ins.append({type, scalarI32(ctx)});
        appendControls(ctx, ins, operands.size() - 2);
        outs.append(numOuts, type);
        outs.push_back(ControlType::get(ctx));
        return success();
      });
}

void SwitchNOp::print(OpAsmPrinter &p) {
  p << ' ' << getData() << ", " << getIndex() << " of " << getNumOuts();
  if (!getControlInputs().empty()) {
    p << " (";
    p.printOperands(getControlInputs());
    p << ')';
  }
  Type type = getData().getType();
  bool isShort =
      getIndex().getType() == scalarI32(getContext()) &&
      llvm::all_of(getOutputs().getTypes(), [&](Type t) { return t == type; });
  printNodeSignature(p, *this, isShort ? type : Type(), {"num_outs"});
}

LogicalResult SwitchNOp::verify() {
  if (failed(verifyControlOperandsLast(*this, /*numData=*/2)))
    return failure();
  if (getNumOuts() != static_cast<int64_t>(getOutputs().size()))
    return emitOpError("expects num_outs (")
           << getNumOuts() << ") to equal the number of data results ("
           << getOutputs().size() << ")";
  auto index = dyn_cast<TensorType>(getIndex().getType());
  if (!index || !index.getElementType().isInteger(32) ||
      (index.hasRank() && index.getRank() != 0))
    return emitOpError("expects the index to be an int32 scalar, got ")
           << getIndex().getType();
  Type data = getData().getType();
  for (auto [i, type] : llvm::enumerate(getOutputs().getTypes()))
    if (!areForwardCompatible(data, type))
      return emitOpError("expects output #")
             << i << " of type " << type
             << " to be compatible with the data type " << data;
  return success();
}

//===----------------------------------------------------------------------===//
// MergeOp
//===----------------------------------------------------------------------===//

OperandRange MergeOp::getDataInputs() {
  OperandRange all = getInputsAndControl();
  auto firstControl =
      llvm::find_if(all, [](Value v) { return isControl(v.getType()); });
  return all.take_front(std::distance(all.begin(), firstControl));
}

ParseResult MergeOp::parse(OpAsmParser &parser, OperationState &result) {
  UnresolvedOperands operands;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands))
    return failure();
  MLIRContext *ctx = parser.getContext();
  return parseNodeSignature(
      parser, result, operands,
      [&](Type type, SmallVectorImpl<Type> &ins,
          SmallVectorImpl<Type> &outs) -> ParseResult {
        // The short form always has exactly two data inputs.
        if (operands.size() < 2)
          return parser.emitError(
              loc, "the short form `: T` needs two data inputs; use the "
                   "functional type for other arities");
        ins.append({type, type});
        appendControls(ctx, ins, operands.size() - 2);
        outs.append({type, scalarI32(ctx), ControlType::get(ctx)});
        return success();
      });
}

void MergeOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperands(getOperands());
  Type type = getOutput().getType();
  OperandRange data = getDataInputs();
  bool isShort =
      data.size() == 2 &&
      llvm::all_of(data.getTypes(), [&](Type t) { return t == type; }) &&
      getValueIndex().getType() == scalarI32(getContext());
  printNodeSignature(p, *this, isShort ? type : Type());
}

LogicalResult MergeOp::verify() {
  if (failed(verifyControlOperandsLast(*this)))
    return failure();
  OperandRange data = getDataInputs();
  if (data.empty())
    return emitOpError("expects at least one data input");
  Type output = getOutput().getType();
  if (isControl(output))
    return emitOpError("expects a data output, got ") << output;
  for (auto [i, type] : llvm::enumerate(data.getTypes()))
    if (!areForwardCompatible(type, output))
      return emitOpError("expects data input #")
             << i << " of type " << type
             << " to be compatible with the output type " << output;
  auto index = dyn_cast<RankedTensorType>(getValueIndex().getType());
  if (!index || index.getRank() != 0 || !index.getElementType().isInteger(32))
    return emitOpError("expects value_index to be tensor<i32>, got ")
           << getValueIndex().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Single-data-input nodes: Enter, Exit, LoopCond
//===----------------------------------------------------------------------===//

namespace {

/// Parses `%data, %controls... <extra> : T` for a node with one data input,
/// one data output and a control output; `parseExtra` handles the keywords
/// between the operands and the type.
ParseResult parseForwardingNode(OpAsmParser &parser, OperationState &result,
                                function_ref<ParseResult()> parseExtra = {}) {
  UnresolvedOperands operands;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands))
    return failure();
  if (operands.empty())
    return parser.emitError(loc, "expects a data operand");
  if (parseExtra && parseExtra())
    return failure();
  MLIRContext *ctx = parser.getContext();
  return parseNodeSignature(
      parser, result, operands,
      [&](Type type, SmallVectorImpl<Type> &ins, SmallVectorImpl<Type> &outs) {
        ins.push_back(type);
        appendControls(ctx, ins, operands.size() - 1);
        outs.append({type, ControlType::get(ctx)});
        return success();
      });
}

/// Prints what parseForwardingNode parses (the operands and the signature;
/// `printExtra` prints the keywords between them).
void printForwardingNode(OpAsmPrinter &p, Operation *op,
                         function_ref<void()> printExtra = {},
                         ArrayRef<StringRef> elided = {}) {
  p << ' ';
  p.printOperands(op->getOperands());
  if (printExtra)
    printExtra();
  Type in = op->getOperand(0).getType();
  Type out = op->getResult(0).getType();
  printNodeSignature(p, op, in == out ? in : Type(), elided);
}

/// Verifies a node with one data input forwarded to its first result.
LogicalResult verifyForwardingNode(Operation *op) {
  if (failed(verifyControlOperandsLast(op, /*numData=*/1)))
    return failure();
  Type in = op->getOperand(0).getType();
  Type out = op->getResult(0).getType();
  if (!areForwardCompatible(in, out))
    return op->emitOpError("expects the output type ")
           << out << " to be compatible with the data type " << in;
  return success();
}

} // namespace

// Syntax: `%data, %controls frame "name" [parallel_iterations N] [constant]`.
ParseResult EnterOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  return parseForwardingNode(parser, result, [&]() -> ParseResult {
    std::string frame;
    if (parser.parseKeyword("frame") || parser.parseString(&frame))
      return failure();
    result.addAttribute("frame_name", b.getStringAttr(frame));
    if (succeeded(parser.parseOptionalKeyword("parallel_iterations"))) {
      int64_t n;
      if (parser.parseInteger(n))
        return failure();
      result.addAttribute("parallel_iterations", b.getI64IntegerAttr(n));
    }
    if (succeeded(parser.parseOptionalKeyword("constant")))
      result.addAttribute("is_constant", b.getBoolAttr(true));
    return success();
  });
}

void EnterOp::print(OpAsmPrinter &p) {
  printForwardingNode(p, *this,
                      [&]() {
                        p << " frame ";
                        p.printString(getFrameName());
                        if (getParallelIterations() != 10)
                          p << " parallel_iterations "
                            << getParallelIterations();
                        if (getIsConstant())
                          p << " constant";
                      },
                      {"frame_name", "parallel_iterations", "is_constant"});
}

LogicalResult EnterOp::verify() {
  if (getFrameName().empty())
    return emitOpError("expects a non-empty frame name");
  // The attribute's getter is unsigned: -3 would read as 2^64 - 3.
  int64_t parallel = getParallelIterationsAttr().getInt();
  if (parallel < 1)
    return emitOpError("expects parallel_iterations to be positive, got ")
           << parallel;
  return verifyForwardingNode(*this);
}

ParseResult ExitOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseForwardingNode(parser, result);
}
void ExitOp::print(OpAsmPrinter &p) { printForwardingNode(p, *this); }
LogicalResult ExitOp::verify() { return verifyForwardingNode(*this); }

ParseResult LoopCondOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseForwardingNode(parser, result);
}
void LoopCondOp::print(OpAsmPrinter &p) { printForwardingNode(p, *this); }
LogicalResult LoopCondOp::verify() {
  if (failed(verifyBoolScalar(*this, getInput().getType(), "the input")))
    return failure();
  return verifyForwardingNode(*this);
}

//===----------------------------------------------------------------------===//
// NextIteration.Source / NextIteration.Sink
//===----------------------------------------------------------------------===//

NextIterationSinkOp NextIterationSourceOp::getSink() {
  for (Operation *user : getToken().getUsers())
    if (auto sink = dyn_cast<NextIterationSinkOp>(user))
      return sink;
  return nullptr;
}

ParseResult NextIterationSourceOp::parse(OpAsmParser &parser,
                                         OperationState &result) {
  Type type;
  if (parser.parseColonType(type) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  MLIRContext *ctx = parser.getContext();
  result.addTypes({type, TokenType::get(ctx), ControlType::get(ctx)});
  return success();
}

void NextIterationSourceOp::print(OpAsmPrinter &p) {
  p << " : " << getOutput().getType();
  p.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult NextIterationSourceOp::verify() {
  Value token = getToken();
  if (!token.hasOneUse() || !isa<NextIterationSinkOp>(*token.user_begin()))
    return emitOpError("expects its token to be used by exactly one "
                       "tf_executor.NextIteration.Sink");
  return success();
}

// Syntax: `[%token] %input, %controls : T`.
ParseResult NextIterationSinkOp::parse(OpAsmParser &parser,
                                       OperationState &result) {
  OpAsmParser::UnresolvedOperand token;
  UnresolvedOperands operands;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLSquare() || parser.parseOperand(token) ||
      parser.parseRSquare() || parser.parseOperandList(operands))
    return failure();
  if (operands.empty())
    return parser.emitError(loc, "expects a data operand after the token");
  operands.insert(operands.begin(), token);
  MLIRContext *ctx = parser.getContext();
  return parseNodeSignature(
      parser, result, operands,
      [&](Type type, SmallVectorImpl<Type> &ins, SmallVectorImpl<Type> &) {
        ins.append({TokenType::get(ctx), type});
        appendControls(ctx, ins, operands.size() - 2);
        return success();
      });
}

void NextIterationSinkOp::print(OpAsmPrinter &p) {
  p << " [" << getToken() << "] ";
  p.printOperands(getOperands().drop_front());
  printNodeSignature(p, *this, getInput().getType());
}

LogicalResult NextIterationSinkOp::verify() {
  if (isControl(getInput().getType()))
    return emitOpError("expects a data input, got a !tf_executor.control "
                       "value");
  if (failed(verifyControlOperandsLast(getOperation())))
    return failure();
  auto source = getToken().getDefiningOp<NextIterationSourceOp>();
  if (!source)
    return emitOpError("expects its token to come from a "
                       "tf_executor.NextIteration.Source");
  Type sourceType = source.getOutput().getType();
  if (!areForwardCompatible(getInput().getType(), sourceType))
    return emitOpError("input type ")
           << getInput().getType()
           << " is not compatible with the type of its source, " << sourceType;
  return success();
}

//===----------------------------------------------------------------------===//
// Generated definitions
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "dialects/TFExecutor/IR/TFExecutorOps.cpp.inc"
