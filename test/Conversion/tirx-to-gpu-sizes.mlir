// Grids of size expressions (docs/sizes.md): the host launcher computes them
// with index arithmetic, affine mod as a floor remainder, and the kernel has
// no known_grid_size.
// RUN: tirx-opt %s --tirx-to-gpu | FileCheck %s

// CHECK-LABEL: func.func @k_launch(
// CHECK-SAME: %[[N:[a-z0-9]+]]: index,
// CHECK: %[[C3:.+]] = arith.constant 3 : index
// CHECK: %[[Q:.+]] = arith.floordivsi %[[X:.+]], %[[C3]] : index
// CHECK: %[[P:.+]] = arith.muli %[[Q]], %[[C3]] : index
// CHECK: %[[MOD:.+]] = arith.subi %[[X]], %[[P]] : index
// CHECK: %[[C7:.+]] = arith.constant 7 : index
// CHECK: %[[DIV:.+]] = arith.floordivsi %[[M:[a-z0-9]+]], %[[C7]] : index
// CHECK: %[[SUM:.+]] = arith.addi %[[MOD]], %[[DIV]] : index
// CHECK: gpu.launch_func @tirx_kernels::@k blocks in (%[[SUM]], %[[N]], %{{.+}})
// CHECK: gpu.func @k(
// CHECK-NOT: known_grid_size
// CHECK-SAME: kernel
!A = !tirx.tensor<?x?xf32, global, sizes = [n, m], align = 16>
tirx.kernel @k(%n: index {tirx.size = "n"}, %A: !A, %m: index {tirx.size = "m"})
    launch(grid = [(%n - 5) mod 3 + %m floordiv 7, %n], block = [32]) {
  tirx.return
}
