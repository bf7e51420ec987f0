// RUN: kiln-opt %s -npu-report-cost=table=html -verify-diagnostics -o /dev/null

// expected-error @+1 {{npu-report-cost: unknown table format 'html' (expected none, markdown or csv)}}
module {
}
