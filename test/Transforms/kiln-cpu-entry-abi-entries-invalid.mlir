// RUN: kiln-opt %s -verify-diagnostics --kiln-cpu-entry-abi="entries=init,step"

// Several entries are named <symbol>_<entry>: without a symbol there is no
// prefix for them and their shared variables.
// expected-error @below {{several entries need a symbol to prefix them with}}
module {
  func.func @init() { return }
  func.func @step() { return }
}
