//===- NPUActivations.cpp - lookup tables of named activations --*- C++ -*-===//
//
// The int8 tables npu.table uses for ReLU, ReLU6, Sigmoid, Tanh and
// HardSwish: the float function of each dequantised input value, quantised
// to the output type (round to nearest, saturating), as TFLite's LUT kernels
// compute them.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUOps.h"

#include <algorithm>
#include <cmath>

using namespace kiln::npu;

/// The float function of \p activation.
static double applyActivation(Activation activation, double x) {
  switch (activation) {
  case Activation::Relu:
    return std::max(0.0, x);
  case Activation::Relu6:
    return std::min(std::max(0.0, x), 6.0);
  case Activation::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  case Activation::Tanh:
    return std::tanh(x);
  case Activation::HardSwish:
    return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0;
  }
  return x;
}

std::array<int8_t, 256>
kiln::npu::computeActivationTable(Activation activation,
                                  mlir::quant::UniformQuantizedType input,
                                  mlir::quant::UniformQuantizedType output) {
  std::array<int8_t, 256> table{};
  for (int v = -128; v <= 127; ++v) {
    double x = (v - input.getZeroPoint()) * input.getScale();
    double y = applyActivation(activation, x);
    double q = std::round(y / output.getScale()) + output.getZeroPoint();
    table[v + 128] = static_cast<int8_t>(std::clamp(q, -128.0, 127.0));
  }
  return table;
}
