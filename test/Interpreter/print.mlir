// tirx.print: the interpreter prints each executing lane's line at once; the
// GPU lowering calls vprintf with each value as its conversion reads it (a
// float as f64, an integer as 32 or, with l/ll, 64 bits).
// RUN: tirx-opt %s --tirx-interpret -o /dev/null | FileCheck %s --check-prefix=OUT
// RUN: tirx-opt %s --tirx-to-ptx="chip=sm_90 ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// OUT: block 0 thread 32: n=0 0.50 1.5 x=-1 100%
// OUT-NEXT: block 1 thread 32: n=0 0.50 1.5 x=-1 100%
// OUT-NOT: thread
// PTX-LABEL: .entry hello(
// PTX: call.uni (retval0), vprintf, (param0, param1);
tirx.kernel @hello(%n: i64) launch(grid = [2], block = [64]) {
  %tx = tirx.thread_idx x
  %bx = tirx.block_idx x
  %c32 = arith.constant 32 : index
  %one = arith.cmpi eq, %tx, %c32 : index
  %half = arith.constant 0.5 : f32
  %h = arith.constant 1.5 : f16
  %m = arith.constant -1 : i8
  scf.if %one {
    tirx.print "block %ld thread %lu: n=%lld %.2f %g x=%d 100%%\n" (%bx, %tx, %n, %half, %h, %m) : index, index, i64, f32, f16, i8
  }
  tirx.return
}
