// The int8 options: a precision that is neither fp16 nor int8, int8
// without a calibration file, and a file that is not a calibration file.
// RUN: not kiln-opt %s --convert-tf-to-npu=precision=int4 2>&1 | FileCheck %s --check-prefix=PRECISION
// RUN: not kiln-opt %s --convert-tf-to-npu=precision=int8 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not kiln-opt %s --convert-tf-to-npu="precision=int8 calibration-file=%s" 2>&1 | FileCheck %s --check-prefix=NOTJSON
// RUN: echo '{"format": "kiln-npu-ranges", "version": 1, "ranges": {"a:0": {"min": 1, "max": 0}}}' > %t.json
// RUN: not kiln-opt %s --convert-tf-to-npu="precision=int8 calibration-file=%t.json" 2>&1 | FileCheck %s --check-prefix=BADRANGE

// PRECISION: convert-tf-to-npu: unknown precision 'int4' (expected fp16 or int8)
// NOFILE: convert-tf-to-npu: precision=int8 needs calibration-file
// NOTJSON: convert-tf-to-npu: '{{.*}}convert-tf-to-npu-int8-options.mlir': not JSON
// BADRANGE: range 'a:0' needs numbers "min" <= "max"
module {
}
