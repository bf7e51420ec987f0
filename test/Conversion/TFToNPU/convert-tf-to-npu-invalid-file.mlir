// RUN: kiln-opt %s --convert-tf-to-npu="report=csv report-file=%t.missing/report.csv" -verify-diagnostics

// expected-error-re @+1 {{convert-tf-to-npu: cannot write '{{.*}}report.csv': {{.+}}}}
module {
}
