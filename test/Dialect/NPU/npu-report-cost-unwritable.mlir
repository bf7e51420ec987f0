// RUN: kiln-opt %s -npu-report-cost="table=markdown table-file=%t.missing-dir/table.md" -verify-diagnostics -o /dev/null

// expected-error @+1 {{npu-report-cost: cannot write}}
module {
}
