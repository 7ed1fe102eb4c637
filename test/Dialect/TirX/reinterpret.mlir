// RUN: tirx-opt %s | tirx-opt | FileCheck %s
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// tirx.reinterpret: one storage, seen with other owners.

#lanes = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#per_warp = #tirx.layout<S[(2, 32, 1) : (1, 0, 1)]>
#every_warp = #tirx.layout<S[(2, 32, 2) : (0, 0, 1)]>
#gathered = #tirx.layout<S[(2, 32, 2) : (1@warpid, 1@laneid, 1)]>
#private = #tirx.layout<S[(2, 32, 1) : (0, 0, 1)]>

// Each warp writes one value (lanes broadcast onto one shared element),
// every thread reads both back; a private register seen as a per-lane tile.
// CHECK-LABEL: tirx.kernel @exchange
// CHECK: tirx.reinterpret %{{.+}} : !tirx.tensor<2xf32, shared, align = 8> -> !tirx.tensor<2x32x1xf32, shared, #{{.+}}, align = 8>
// PTX-LABEL: .entry exchange(
// PTX: @%tirx_p st.shared.b32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX: bar.sync 0;
// PTX: ld.shared.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
tirx.kernel @exchange(%A: !tirx.tensor<2x32x1xf32, global, align = 4>,
                      %B: !tirx.tensor<2x32x2xf32, global, align = 8>)
    launch(grid = [1], block = [64]) {
  %x = tirx.alloc_local : !tirx.tensor<2x32x1xf32, local, #lanes>
  tile.apply "ld.global.b32" scope(cta) (%x, %A)
      : !tirx.tensor<2x32x1xf32, local, #lanes>, !tirx.tensor<2x32x1xf32, global, align = 4>
  %smem = tirx.alloc_shared : !tirx.tensor<2xf32, shared, align = 8>
  %w = tirx.reinterpret %smem : !tirx.tensor<2xf32, shared, align = 8>
      -> !tirx.tensor<2x32x1xf32, shared, #per_warp, align = 8>
  %tid = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  %lane = arith.remui %tid, %c32 : index
  %first = arith.cmpi eq, %lane, %c0 : index
  tile.apply "st.shared.b32" scope(cta) (%w, %x) pred(%first)
      : !tirx.tensor<2x32x1xf32, shared, #per_warp, align = 8>, !tirx.tensor<2x32x1xf32, local, #lanes>
  tirx.cta_sync
  %r = tirx.reinterpret %smem : !tirx.tensor<2xf32, shared, align = 8>
      -> !tirx.tensor<2x32x2xf32, shared, #every_warp, align = 8>
  %both = tirx.alloc_local : !tirx.tensor<2x32x2xf32, local, #gathered>
  tile.apply "ld.shared.v2.b32" scope(cta) (%both, %r)
      : !tirx.tensor<2x32x2xf32, local, #gathered>, !tirx.tensor<2x32x2xf32, shared, #every_warp, align = 8>
  tile.apply "st.global.v2.b32" scope(cta) (%B, %both)
      : !tirx.tensor<2x32x2xf32, global, align = 8>, !tirx.tensor<2x32x2xf32, local, #gathered>
  tirx.return
}

// CHECK-LABEL: tirx.kernel @private_as_lanes
// CHECK: tirx.reinterpret %{{.+}} : !tirx.tensor<1x1xf32, local> -> !tirx.tensor<2x32x1xf32, local, #{{.+}}>
tirx.kernel @private_as_lanes() launch(grid = [1], block = [64]) {
  %p = tirx.alloc_local : !tirx.tensor<1x1xf32, local>
  %v = tirx.reinterpret %p : !tirx.tensor<1x1xf32, local>
      -> !tirx.tensor<2x32x1xf32, local, #private>
  tile.apply "mov.b32" scope(cta) (%v, 1.0 : f32) : !tirx.tensor<2x32x1xf32, local, #private>
  tirx.return
}
