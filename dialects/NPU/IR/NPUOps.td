//===- NPUOps.td - npu operations --------------------------*- tablegen -*-===//
//
// Tensor-level operations of NPU-v1.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUOPS_TD
#define KILN_DIALECTS_NPU_IR_NPUOPS_TD

include "dialects/NPU/IR/NPUDialect.td"    // NPU_Op
include "dialects/NPU/IR/NPUAttrs.td"      // NPU_TargetAttr
include "dialects/NPU/IR/NPUInterfaces.td" // NPU_CostOpInterface
include "mlir/IR/CommonAttrConstraints.td" // DenseI64ArrayAttr, AnyAttrOf
include "mlir/IR/CommonTypeConstraints.td" // AnyStaticShapeTensor
include "mlir/Interfaces/SideEffectInterfaces.td" // Pure

//===----------------------------------------------------------------------===//
// Common pieces
//===----------------------------------------------------------------------===//

/// A clamp bound: a stored int8 value (i64) for int8 ops, a float (f32) for
/// fp16 ops.
def NPU_ClampBoundAttr : AnyAttrOf<[I64Attr, F32Attr]>;

/// A tensor-level operation: Pure, verified, with a cost estimate.
class NPU_TensorOp<string mnemonic, list<Trait> traits = []>
    : NPU_Op<mnemonic, !listconcat(traits, [
        Pure, DeclareOpInterfaceMethods<NPU_CostOpInterface>])> {
  let hasVerifier = 1;
}

/// The conventions every npu op follows, appended to each description.
defvar npuConventions = [{

    Conventions of the npu dialect: activations are NHWC (a batch dimension
    N >= 1 is allowed: the lowering loops over it); int8 tensors have a
    per-tensor `!quant.uniform<i8:f32, scale:zp>` element type, fp16 tensors
    `f16`. The verifier checks the operation against its target (the
    closest `npu.target` attribute, else the `"default"` preset): 8-bit
    window fields, int8 zero points and clamp bounds in [−128, 127] (the
    quant dialect accepts any zero point), the requantisation multipliers
    the VEC engine can represent, and that the smallest tile fits the
    target's LMEM regions. The lowering tiles over the batch, output rows
    and channel blocks but never within a row, so one output row of one
    channel block, the input rows it reads and one weight block set must
    fit; each error names the region, the bytes needed and the
    configuration key that sets the size.
}];

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

class NPU_ConvLikeOp<string mnemonic> : NPU_TensorOp<mnemonic> {
  let arguments = (ins AnyStaticShapeTensor:$input,
                       AnyStaticShapeTensor:$weight,
                       Optional<AnyStaticShapeTensor>:$bias,
                       DenseI64ArrayAttr:$stride,
                       DenseI64ArrayAttr:$dilation,
                       DenseI64ArrayAttr:$pad,
                       OptionalAttr<NPU_ClampBoundAttr>:$clamp_min,
                       OptionalAttr<NPU_ClampBoundAttr>:$clamp_max);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

def NPU_Conv2DOp : NPU_ConvLikeOp<"conv2d"> {
  let summary = "2-D convolution (MAC_CONV), groups of 1";
  let description = !strconcat([{
    `output[n, oy, ox, co] = clamp(requant(bias[co] + Σ (input[n, iy, ix, ci]
    − in_zp) · weight[ky, kx, ci, co]))` with `iy = oy·sy − pt + ky·dy` and
    `ix = ox·sx − pl + kx·dx`; positions in the padding read the input zero
    point. `stride = [sy, sx]`, `dilation = [dy, dx]`, `pad = [pt, pb, pl,
    pr]`. The output is `[N, OH, OW, Cout]` with `OH = ⌊(H + pt + pb −
    dy·(kh−1) − 1)/sy⌋ + 1` (the same for OW).

    The weight is HWIO, `[kh][kw][Cin][Cout]`. int8: the weight is
    `!quant.uniform<i8:f32:3, {...}>` (one scale per output channel, zero
    point 0) or a per-tensor type with zero point 0; the optional bias is
    `tensor<Cout x i32>` with scale `input scale · weight scale` (TFLite's
    convention); the output type carries the output scale and zero point,
    and `clamp_min`/`clamp_max` (stored int8 values, i64) are the fused
    activation. fp16: input, weight and output `f16`, bias `f16` or `f32`,
    clamp bounds `f32`.

    fp16 semantics, bit for bit (what `convert-npu-to-npuhw` emits and the
    simulator computes):

    ```
    acc = bias ? f32(bias[co]) : +0.0          (f16 -> f32 is exact)
    for ky < kh, for kx < kw, for ci < Cin:    (this order, sequentially)
      x = (iy, ix) in the padding ? +0.0 : f32(input[n, iy, ix, ci])
      acc = f32_add(acc, f32_mul(x, f32(weight[ky, kx, ci, co])))
    y = f16(acc)
    output[n, oy, ox, co] = clamp(y, f16(clamp_min), f16(clamp_max))
    ```

    Every product and every sum is one IEEE binary32 operation rounded to
    nearest even, with denormals kept: the bias enters the sum first, and
    the only rounding to fp16 is the last step. `f16(v)` rounds to nearest
    even, gives fp16 denormals below the normal range and ±inf from a
    magnitude of 65520, and turns every NaN into 0x7E00. The clamp bounds
    are rounded the same way (an absent bound is ∓inf), and the clamp is
    `if y < lo: y = lo; if y > hi: y = hi` on the fp16 values, so a NaN
    passes through. A bias of -0.0 differs from no bias: when every
    product is -0.0, the output is -0.0 with that bias and +0.0 without
    one. (Lowering: per group of output channel blocks, a DMA preloads the
    f32 accumulators with the bias, MAC_CONV accumulates onto them at half the int8 rate, VEC_UNARY
    CONVERT rounds to f16 and VEC_UNARY CLAMP clamps; the padding lanes of
    the last input channel block contribute products of -0.0, which change
    no sum.)

    ```mlir
    %y = npu.conv2d %x, %w, %b {stride = array<i64: 2, 2>,
        dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>,
        clamp_min = -3 : i64, clamp_max = 127 : i64}
      : (tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5:-3>>,
         tensor<3x3x8x32x!quant.uniform<i8:f32:3, {0.01, ...}>>,
         tensor<32xi32>) -> tensor<1x8x8x32x!quant.uniform<i8:f32, 0.25:-3>>
    ```
  }], npuConventions);
}

def NPU_DepthwiseConv2DOp : NPU_ConvLikeOp<"depthwise_conv2d"> {
  let summary = "Depthwise 2-D convolution (MAC_DWCONV), multiplier 1";
  let description = !strconcat([{
    Each channel convolved with its own kernel: `output[n, oy, ox, c] =
    clamp(requant(bias[c] + Σ (input[n, iy, ix, c] − in_zp) · weight[ky, kx,
    c]))`, with windows, padding, output shape, bias, quantisation and
    clamp as for `npu.conv2d`. The weight is `[kh][kw][C]` or TensorFlow's
    `[kh][kw][C][1]`; int8 per-axis weights are quantised along axis 2.
    fp16 is computed as for `npu.conv2d` (bias first, f32 products and sums
    in order, one rounding to f16, clamp with fp16 bounds), the sum running
    over `ky < kh, kx < kw` of the channel's own products (MAC_DWCONV).

    ```mlir
    %y = npu.depthwise_conv2d %x, %w {stride = array<i64: 1, 1>,
        dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x8x16xf16>, tensor<3x3x16xf16>) -> tensor<1x8x8x16xf16>
    ```
  }], npuConventions);
}

def NPU_FullyConnectedOp : NPU_TensorOp<"fully_connected"> {
  let summary = "Fully connected layer / matrix product (a 1x1 MAC_CONV)";
  let description = !strconcat([{
    `output[m, n] = clamp(requant(bias[n] + Σ_k (input[m, k] − in_zp) ·
    weight[k, n]))`: `[M][K] × [K][N] → [M][N]`, run as a 1×1 convolution
    of a 1×M×K view. int8 per-axis weights are quantised along axis 1 (N);
    bias, quantisation and clamp as for `npu.conv2d`. fp16 is computed as
    for `npu.conv2d` with the sum over `k < K` in order:
    `output[m, n] = clamp(f16(bias[n] + Σ_k input[m, k] · weight[k, n]))`
    with every operation in f32.

    ```mlir
    %y = npu.fully_connected %x, %w, %b
      : (tensor<4x64x!quant.uniform<i8:f32, 0.5:1>>,
         tensor<64x10x!quant.uniform<i8:f32:1, {0.01, ...}>>,
         tensor<10xi32>) -> tensor<4x10x!quant.uniform<i8:f32, 0.1:-128>>
    ```
  }], npuConventions);
  let arguments = (ins AnyStaticShapeTensor:$input,
                       AnyStaticShapeTensor:$weight,
                       Optional<AnyStaticShapeTensor>:$bias,
                       OptionalAttr<NPU_ClampBoundAttr>:$clamp_min,
                       OptionalAttr<NPU_ClampBoundAttr>:$clamp_max);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Element-wise binary operations
//===----------------------------------------------------------------------===//

class NPU_EltwiseOp<string mnemonic, string what, string arith>
    : NPU_TensorOp<mnemonic> {
  let summary = "Element-wise " # what # " (VEC_ELTWISE) with broadcast";
  let description = !strconcat([{
    `output = clamp(}], arith, [{)`. `lhs` has any rank from 1 to 4, its
    last dimension being the channels. `rhs` is either a tensor of `lhs`'s
    shape (TENSOR), a per-channel vector `[1, ..., 1, C]` or `[C]` (CHANNEL,
    broadcast over space) or a scalar (a tensor of one element, SCALAR).
    The output has `lhs`'s shape. All three are int8 with per-tensor
    quantisation, or all `f16`.

    int8 add and sub rescale as TFLite's integer kernels do (left shift 20,
    each input to twice the larger input scale, then to the output scale),
    mul rescales the product by `lhs scale · rhs scale / output scale`; each
    multiplier must be representable with a shift in [−31, 30]. minimum and
    maximum compare stored values, so their three types must be equal.
    `clamp_min`/`clamp_max` (stored int8 values) are int8 only: VEC_ELTWISE
    does not clamp fp16 (use `npu.clamp`).

    ```mlir
    %y = npu.}], mnemonic, [{ %a, %b : (tensor<1x8x8x32xf16>, tensor<32xf16>)
      -> tensor<1x8x8x32xf16>
    ```
  }], npuConventions);
  let arguments = (ins AnyStaticShapeTensor:$lhs,
                       AnyStaticShapeTensor:$rhs,
                       OptionalAttr<I64Attr>:$clamp_min,
                       OptionalAttr<I64Attr>:$clamp_max);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def NPU_AddOp : NPU_EltwiseOp<"add", "addition", "lhs + rhs">;
def NPU_SubOp : NPU_EltwiseOp<"sub", "subtraction", "lhs − rhs">;
def NPU_MulOp : NPU_EltwiseOp<"mul", "multiplication", "lhs · rhs">;
def NPU_MinimumOp : NPU_EltwiseOp<"minimum", "minimum", "min(lhs, rhs)">;
def NPU_MaximumOp : NPU_EltwiseOp<"maximum", "maximum", "max(lhs, rhs)">;

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

class NPU_Pool2DOp<string mnemonic, string what, string types>
    : NPU_TensorOp<mnemonic> {
  let summary = what # " pooling (VEC_POOL)";
  let description = !strconcat([{
    }], what, [{ over `kernel = [kh, kw]` windows with `stride = [sy, sx]` and
    `pad = [pt, pb, pl, pr]`, no dilation; padded positions are not part of
    the window. The output is `[N, OH, OW, C]`, sized as for
    `npu.conv2d`. }], types, [{

    ```mlir
    %y = npu.}], mnemonic, [{ %x {kernel = array<i64: 2, 2>,
        stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x8x16xf16>) -> tensor<1x4x4x16xf16>
    ```
  }], npuConventions);
  let arguments = (ins AnyStaticShapeTensor:$input,
                       DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$stride,
                       DenseI64ArrayAttr:$pad,
                       OptionalAttr<I64Attr>:$clamp_min,
                       OptionalAttr<I64Attr>:$clamp_max);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
}

def NPU_MaxPool2DOp : NPU_Pool2DOp<"max_pool2d", "Max", [{
    The output type equals the input type; int8 may clamp
    (`clamp_min`/`clamp_max`, stored values).}]>;
def NPU_AvgPool2DOp : NPU_Pool2DOp<"avg_pool2d", "Average", [{
    The output type equals the input type (int8 rounds as TFLite does, half
    away from zero, over the valid positions); int8 may clamp.}]>;
def NPU_SumPool2DOp : NPU_Pool2DOp<"sum_pool2d", "Sum", [{
    The sum of the stored values: int8 input gives `i32` output, `f16`
    gives `f32`; no clamp.}]>;

//===----------------------------------------------------------------------===//
// Unary operations
//===----------------------------------------------------------------------===//

def NPU_RescaleOp : NPU_TensorOp<"rescale"> {
  let summary = "Requantisation to int8 (VEC_UNARY RESCALE / VEC_REQUANT)";
  let description = !strconcat([{
    `output = clamp(apply_scale_32(input − in_zp) + out_zp)` with the
    multiplier `input scale / output scale`, which must be representable
    with a shift in [2, 62]. The input is a per-tensor quantised int8 or
    int32 type (an int32 input has zero point 0), the output a per-tensor
    int8 type of the same shape. `clamp_min`/`clamp_max` are stored values.

    ```mlir
    %y = npu.rescale %x {clamp_min = 0 : i64}
      : (tensor<1x4x4x16x!quant.uniform<i32:f32, 0.001>>)
      -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.1:-128>>
    ```
  }], npuConventions);
  let arguments = (ins AnyStaticShapeTensor:$input,
                       OptionalAttr<I64Attr>:$clamp_min,
                       OptionalAttr<I64Attr>:$clamp_max);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
}

def NPU_TableOp : NPU_TensorOp<"table"> {
  let summary = "Table lookup of int8 values (VEC_UNARY LUT)";
  let description = !strconcat([{
    `output = table[input + 128]` on stored int8 values: 256 entries, entry
    `v + 128` the image of `v`. The input and output are per-tensor int8
    types of the same shape, whose quantisation the table encodes. The
    builder taking a `kiln::npu::Activation` computes the table of ReLU,
    ReLU6, Sigmoid, Tanh or HardSwish from the two types as TFLite's LUT
    kernels do: each entry is the float function of the dequantised input,
    quantised to the output with round-to-nearest and saturation.

    ```mlir
    %y = npu.table %x {table = array<i8: -128, ..., 127>}
      : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.1>>)
      -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.00390625:-128>>
    ```
  }], npuConventions);
  let arguments = (ins AnyStaticShapeTensor:$input, DenseI8ArrayAttr:$table);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$input,
                   "::kiln::npu::Activation":$activation)>,
  ];
}

def NPU_ClampOp : NPU_TensorOp<"clamp"> {
  let summary = "Clamp to a range (VEC_UNARY CLAMP)";
  let description = !strconcat([{
    `output = min(max(input, min), max)`. int8 (quantised, stored values,
    `i64` bounds in [−128, 127]) or `i32` (bounds in s16, the field's
    range), or `f16` (`f32` bounds, held as fp16 by the command); the output
    type equals the input type.

    ```mlir
    %y = npu.clamp %x {min = 0.0 : f32, max = 6.0 : f32}
      : (tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
    ```
  }], npuConventions);
  let arguments = (ins AnyStaticShapeTensor:$input,
                       NPU_ClampBoundAttr:$min, NPU_ClampBoundAttr:$max);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
}

def NPU_ConvertOp : NPU_TensorOp<"convert"> {
  let summary = "Convert between i8, i32, f16 and f32 (VEC_UNARY CONVERT)";
  let description = !strconcat([{
    Converts each element between two of `i8`, `i32`, `f16` and `f32` with
    the command's rounding: integers saturate, int → float rounds to
    nearest even (through fp32), float → int rounds to nearest even and
    saturates (NaN → 0). No scale is involved, so quantised types are
    rejected (use `npu.rescale`). The shapes are equal.

    ```mlir
    %y = npu.convert %x : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf16>
    ```
  }], npuConventions);
  let arguments = (ins AnyStaticShapeTensor:$input);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Up-sampling
//===----------------------------------------------------------------------===//

def NPU_ResizeNearestOp : NPU_TensorOp<"resize_nearest"> {
  let summary = "Nearest-neighbour up-sampling by integer factors (DMA only)";
  let description = !strconcat([{
    `output[n, y, x, c] = input[n, ⌊y/sy⌋, ⌊x/sx⌋, c]` with `scale = [sy,
    sx]`, both at least 1: the output is `[N, H·sy, W·sx, C]`. This is
    TensorFlow's `ResizeNearestNeighbor` for integer factors (without
    `align_corners`; half-pixel centres select the same pixels) and the
    TF Object Detection API's stack-and-reshape up-sampling. The output
    type equals the input's element type (int8 quantised per tensor, or
    f16); the values are copied, so no arithmetic is involved.

    The lowering moves the bytes with DMA alone: each band of input rows
    is loaded once and stored `sy` times, each store repeating every pixel
    `sx` times with a source stride of 0.

    ```mlir
    %y = npu.resize_nearest %x {scale = array<i64: 2, 2>}
      : (tensor<1x10x10x128xf16>) -> tensor<1x20x20x128xf16>
    ```
  }], npuConventions);
  let arguments = (ins AnyStaticShapeTensor:$input,
                       DenseI64ArrayAttr:$scale);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
}

def NPU_ResizeBilinearOp : NPU_TensorOp<"resize_bilinear"> {
  let summary = "2x bilinear up-sampling with half-pixel centres (MAC_DWCONV)";
  let description = !strconcat([{
    TensorFlow's `ResizeBilinear` to twice the height and width with
    `half_pixel_centers = true` and `align_corners = false`: the output is
    `[N, 2H, 2W, C]` and, separably in height and width, output `2i` is
    `0.25·in[i−1] + 0.75·in[i]` and output `2i+1` is `0.75·in[i] +
    0.25·in[i+1]`, positions clamped to the image (the border repeats).

    Exact arithmetic. Output `(2i+a, 2j+b)` reads the 2x2 taps `(ky, kx)`
    at rows `clamp(i−1+a+ky)` and columns `clamp(j−1+b+kx)` with weights
    `wy[ky]·wx[kx]/16`, `wy = {1, 3}` for `a = 0` and `{3, 1}` for `a = 1`
    (likewise `wx`), so the weights are 1/16, 3/16 and 9/16.

    - fp16 (`f16` input and output): from `+0.0`, for `ky`, then `kx`, the
      fp32 product `x · weight` is added to the fp32 sum, each operation
      rounded to nearest even; the sum is rounded to fp16 once (nearest
      even), as MAC_DWCONV and VEC_UNARY CONVERT do.
    - int8 (input and output quantised per tensor): the int32 sum `acc =
      Σ 16·weight·(x − in_zp)` (weights 1, 3 and 9) is exact; the result is
      `clamp(apply_scale_32(acc, m, s) + out_zp, −128, 127)` with `(m, s)`
      the multiplier `input scale / (16 · output scale)` split as TFLite's
      `QuantizeMultiplier` does and a single rounding (round half up:
      with equal scales and zero points, `⌊(acc + 8)/16⌋ + zp`), as
      VEC_REQUANT computes it without DOUBLE_ROUND. The multiplier must be
      representable with a shift in [2, 62].

    The lowering copies each band of input rows into LMEM with its border
    rows and columns repeated, runs four MAC_DWCONV commands (one per
    output phase `(a, b)`, a 2x2 kernel of the weights above) whose outputs
    interleave in the accumulators, converts or requantises them with one
    VEC command and stores the band with one DMA.

    ```mlir
    %y = npu.resize_bilinear %x
      : (tensor<1x16x16x128xf16>) -> tensor<1x32x32x128xf16>
    ```
  }], npuConventions);
  let arguments = (ins AnyStaticShapeTensor:$input);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
}

#endif // KILN_DIALECTS_NPU_IR_NPUOPS_TD
