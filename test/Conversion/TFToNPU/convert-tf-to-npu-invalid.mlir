// RUN: kiln-opt %s --convert-tf-to-npu=report=html -verify-diagnostics

// expected-error @+1 {{convert-tf-to-npu: unknown report format 'html' (expected none, markdown or csv)}}
module {
}
