// RUN: tirx-opt %s --tirx-to-gpu | FileCheck %s

func.func private @id(%x: f32) -> f32 {
  return %x : f32
}

// CHECK-LABEL: module attributes {gpu.container_module}
// For embedders: a host function launching the kernel with its configuration.
// CHECK: func.func @k_launch(%[[HA:.+]]: !tirx.tensor<64x4xf32, global, align = 16>, %[[HS:.+]]: f32)
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK: gpu.launch_func @tirx_kernels::@k blocks in (%[[C8]], %[[C1]], %[[C1]]) threads in (%[[C64]], %[[C2]], %[[C1]]) args(%[[HA]] : !tirx.tensor<64x4xf32, global, align = 16>, %[[HS]] : f32)
// CHECK: gpu.module @tirx_kernels
// The ewise callee travels with the kernel.
// CHECK: func.func private @id
// CHECK: gpu.func @k(%[[A:.+]]: !tirx.tensor<64x4xf32, global, align = 16>, %{{.+}}: f32) kernel
// CHECK-SAME: known_block_size = array<i32: 64, 2, 1>
// CHECK-SAME: known_grid_size = array<i32: 8, 1, 1>
tirx.kernel @k(%A: !tirx.tensor<64x4xf32, global, align = 16>, %s: f32)
    launch(grid = [8], block = [64, 2]) {
  // CHECK: gpu.thread_id y
  %ty = tirx.thread_idx y
  // CHECK: gpu.block_id x
  %bx = tirx.block_idx x
  // CHECK: gpu.barrier
  tirx.cta_sync
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // CHECK: tile.ewise @id scope(thread)
  tile.ewise @id scope(thread) (%r, %r) : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, local>
  // CHECK: gpu.return
  tirx.return
}
