// RUN: tirx-opt %s | FileCheck %s
// RUN: tirx-opt %s | tirx-opt | FileCheck %s
// RUN: tirx-opt %s --mlir-print-op-generic | tirx-opt | FileCheck %s

// CHECK-DAG: #[[$REG:.+]] = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
// CHECK-DAG: #[[$HALF:.+]] = #tirx.layout<S[(2, 32, 4, 2) : (1@warpid, 1@laneid, 2, 1)]>
// CHECK-DAG: #[[$DOUBLE:.+]] = #tirx.layout<S[(2, 32, 2) : (1@warpid, 1@laneid, 1)]>
// CHECK-DAG: #[[$TILE:.+]] = #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>
// CHECK-DAG: #[[$ROW:.+]] = #tirx.layout<S[(1, 4) : (4, 1)] + 12>

// CHECK-LABEL: tirx.kernel @structure
// CHECK-SAME: (%[[A:.+]]: !tirx.tensor<2x32x4xf32, global, align = 16>, %[[N:.+]]: i32, %[[S:.+]]: f32)
// CHECK-SAME: launch(grid = [4, 2], block = [64])
// CHECK-SAME: attributes {note = "kept"}
tirx.kernel @structure(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                       %n: i32, %s: f32)
    launch(grid = [4, 2], block = [64]) attributes {note = "kept"} {
  // CHECK: %[[R:.+]] = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #[[$REG]]>
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
  // CHECK: tirx.alloc_shared : !tirx.tensor<64x4xf32, shared, align = 16>
  %smem = tirx.alloc_shared : !tirx.tensor<64x4xf32, shared, align = 16>
  // CHECK: tirx.alloc_local : !tirx.tensor<4xf32, local>
  %private = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // CHECK: tirx.thread_idx x
  %tx = tirx.thread_idx x
  // CHECK: tirx.block_idx y
  %by = tirx.block_idx y
  // CHECK: tirx.cta_sync
  tirx.cta_sync
  // CHECK: tirx.return
  tirx.return
}

// CHECK-LABEL: tirx.kernel @views
tirx.kernel @views(%A: !tirx.tensor<2x32x4xf16, global, align = 8>)
    launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
  // A shape view keeps the layout.
  // CHECK: tirx.view %{{.*}} : !tirx.tensor<2x32x4xf32, local, #[[$REG]]> -> !tirx.tensor<2x32x4x1xf32, local, #[[$REG]]>
  %s = tirx.view %r : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
                   -> !tirx.tensor<2x32x4x1xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
  // The layout may be written for the view's own shape: equal placements
  // are equal layouts (here with the unit axis).
  // CHECK: tirx.view %{{.*}} -> !tirx.tensor<2x32x4x1xf32, local, #{{.+}}>
  %u = tirx.view %r : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
                   -> !tirx.tensor<2x32x4x1xf32, local, #tirx.layout<S[(2, 32, 4, 1) : (1@warpid, 1@laneid, 1, 1)]>>
  // A same-width dtype view keeps shape and layout.
  // CHECK: tirx.view %{{.*}} : !tirx.tensor<2x32x4xf16, global, align = 8> -> !tirx.tensor<2x32x4xui16, global, align = 8>
  %w = tirx.view %A : !tirx.tensor<2x32x4xf16, global, align = 8>
                   -> !tirx.tensor<2x32x4xui16, global, align = 8>
  // Narrower elements unpack the layout: strides x2, then (2 : 1) innermost.
  // CHECK: tirx.view %{{.*}} -> !tirx.tensor<2x32x8xf16, local, #[[$HALF]]>
  %h = tirx.view %r : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
                   -> !tirx.tensor<2x32x8xf16, local, #tirx.layout<S[(2, 32, 4, 2) : (1@warpid, 1@laneid, 2, 1)]>>
  // Wider elements pack it back.
  // CHECK: tirx.view %{{.*}} -> !tirx.tensor<2x32x2xf64, local, #[[$DOUBLE]]>
  %d = tirx.view %r : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
                   -> !tirx.tensor<2x32x2xf64, local, #tirx.layout<S[(2, 32, 2) : (1@warpid, 1@laneid, 1)]>>
  tirx.return
}

// CHECK-LABEL: tirx.kernel @regions
tirx.kernel @regions(%A: !tirx.tensor<1024x2x32x4xf32, global, align = 16>,
                     %X: !tirx.tensor<64x4xf32, global, align = 16>)
    launch(grid = [1024], block = [64]) {
  %bx = tirx.block_idx x
  // A block-indexed tile: the dynamic offset moves the base by %bx * 256
  // elements (1 KiB), so the 16-byte alignment survives.
  // CHECK: %[[T:.+]] = tirx.region %{{.*}} [%{{.*}}, 0, 0, 0] [1, 2, 32, 4] : !tirx.tensor<1024x2x32x4xf32, global, align = 16>
  %tile = tirx.region %A[%bx, 0, 0, 0] [1, 2, 32, 4] : !tirx.tensor<1024x2x32x4xf32, global, align = 16>
  // The inferred type carries the restricted layout.
  // CHECK: tirx.view %[[T]] : !tirx.tensor<1x2x32x4xf32, global, #[[$TILE]], align = 16>
  %flat = tirx.view %tile : !tirx.tensor<1x2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
                         -> !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
  // Static offsets fold into the layout's offset on m.
  // CHECK: tirx.region %{{.*}} [3, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  %row = tirx.region %X[3, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  // CHECK: tirx.view %{{.*}} : !tirx.tensor<1x4xf32, global, #[[$ROW]], align = 16>
  %row_flat = tirx.view %row : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)] + 12>, align = 16>
                              -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)] + 12>, align = 16>
  // A thread-indexed row of 4 floats: 16-byte rows keep 16-byte alignment.
  %tx = tirx.thread_idx x
  // CHECK: tirx.region %{{.*}} [%{{.*}}, 0] [1, 4]
  %mine = tirx.region %X[%tx, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  tirx.return
}
