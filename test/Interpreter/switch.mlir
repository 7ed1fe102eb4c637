// scf.index_switch in the interpreter (docs/interpreter.md): each case runs
// for the lanes whose selector equals its value, the default for the rest,
// and each lane's yielded value is its own case's.
// RUN: tirx-opt %s --tirx-interpret="print=1" -o /dev/null | FileCheck %s

!out = !tirx.tensor<32x1xi32, global>
!regs = !tirx.tensor<32x1xi32, local, #tirx.layout<S[(32, 1) : (1@laneid, 1)]>>
// CHECK-LABEL: @switch_by_lane argument #0:
// CHECK-SAME: [10, 21, 22, 10, 24, 10, 10, 10, 10, 10,
tirx.kernel @switch_by_lane(%A: !out) launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %value = scf.index_switch %tx -> index
  case 1 {
    %c = arith.constant 21 : index
    scf.yield %c : index
  }
  case 2 {
    %c = arith.constant 22 : index
    scf.yield %c : index
  }
  case 4 {
    %c = arith.constant 24 : index
    scf.yield %c : index
  }
  default {
    %c = arith.constant 10 : index
    scf.yield %c : index
  }
  %word = arith.index_cast %value : index to i32
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(warp) (%r, %word) : !regs, i32
  tile.apply "st.global.b32" scope(warp) (%A, %r) : !out, !regs
  tirx.return
}
