// RUN: kiln-opt %s --convert-tf-to-npu=target=fast -verify-diagnostics

// expected-error @+1 {{convert-tf-to-npu: target 'fast': unknown target configuration 'fast' (expected 'default' or 'realistic')}}
module {
}
