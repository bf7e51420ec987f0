// Input of run.sh: @ok passes the contract, @bad does not.
llvm.func @ok() {
  llvm.return
}
llvm.func @bad() -> i32 {
  %0 = arith.constant 7 : i32
  llvm.return %0 : i32
}
