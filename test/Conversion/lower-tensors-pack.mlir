// RUN: tirx-opt %s --tirx-to-gpu=chip=sm_90 --tile-dispatch --tirx-lower-tensors | FileCheck %s --enable-var-scope

// 16-bit slots read back as one 32-bit word stay SSA values: the word is
// the slots as a vector (slot 2k is element 0, the low half), bitcast, so
// LLVM can pair their conversions (cvt.rn.bf16x2.f32, test/Pipeline/
// ewise-pack.mlir); no alloca, whose reload LLVM would assemble by shl/or.

func.func private @to_bf16(%value: f32) -> bf16 {
  %r = arith.truncf %value : f32 to bf16
  return %r : bf16
}

// CHECK-LABEL: gpu.func @pair
// CHECK-NOT:   llvm.alloca
// CHECK:       %[[LO:.+]] = arith.truncf %{{.+}} : f32 to bf16
// CHECK:       %[[HI:.+]] = arith.truncf %{{.+}} : f32 to bf16
// CHECK:       %[[POISON:.+]] = llvm.mlir.poison : vector<2xbf16>
// CHECK:       %[[C0:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:       %[[V0:.+]] = llvm.insertelement %[[LO]], %[[POISON]][%[[C0]] : i32] : vector<2xbf16>
// CHECK:       %[[C1:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:       %[[V1:.+]] = llvm.insertelement %[[HI]], %[[V0]][%[[C1]] : i32] : vector<2xbf16>
// CHECK:       %[[W:.+]] = llvm.bitcast %[[V1]] : vector<2xbf16> to i32
// CHECK:       llvm.inline_asm has_side_effects "st.global.b32 [$0], $1;", "l,r" %{{.+}}, %[[W]]
tirx.kernel @pair(%A: !tirx.tensor<2xf32, global, align = 8>,
                  %B: !tirx.tensor<1xui32, global, align = 4>)
    launch(grid = [1], block = [1]) {
  %x = tirx.alloc_local : !tirx.tensor<2xf32, local>
  %y = tirx.alloc_local : !tirx.tensor<2xbf16, local>
  tile.apply "ld.global.v2.b32" scope(thread) (%x, %A)
      : !tirx.tensor<2xf32, local>, !tirx.tensor<2xf32, global, align = 8>
  tile.ewise @to_bf16 scope(thread) (%y, %x)
      : !tirx.tensor<2xbf16, local>, !tirx.tensor<2xf32, local>
  %w = tirx.view %y : !tirx.tensor<2xbf16, local> -> !tirx.tensor<1xui32, local>
  tile.apply "st.global.b32" scope(thread) (%B, %w)
      : !tirx.tensor<1xui32, global, align = 4>, !tirx.tensor<1xui32, local>
  tirx.return
}

// A word of which only the high half was written: the low half is poison
// (an unwritten slot is undefined, as before).
// CHECK-LABEL: gpu.func @high_half
// CHECK-NOT:   llvm.alloca
// CHECK:       %[[HI:.+]] = arith.truncf %{{.+}} : f32 to bf16
// CHECK:       %[[POISON:.+]] = llvm.mlir.poison : vector<2xbf16>
// CHECK:       %[[C1:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:       %[[V:.+]] = llvm.insertelement %[[HI]], %[[POISON]][%[[C1]] : i32] : vector<2xbf16>
// CHECK-NOT:   llvm.insertelement
// CHECK:       llvm.bitcast %[[V]] : vector<2xbf16> to i32
tirx.kernel @high_half(%A: !tirx.tensor<1xf32, global, align = 4>,
                       %B: !tirx.tensor<1xui32, global, align = 4>)
    launch(grid = [1], block = [1]) {
  %x = tirx.alloc_local : !tirx.tensor<1xf32, local>
  %y = tirx.alloc_local : !tirx.tensor<2xbf16, local>
  tile.apply "ld.global.b32" scope(thread) (%x, %A)
      : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, global, align = 4>
  %hi = tirx.region %y [1] [1] : !tirx.tensor<2xbf16, local>
  tile.ewise @to_bf16 scope(thread) (%hi, %x)
      : !tirx.tensor<1xbf16, local, #tirx.layout<S[1 : 1] + 1>>, !tirx.tensor<1xf32, local>
  %w = tirx.view %y : !tirx.tensor<2xbf16, local> -> !tirx.tensor<1xui32, local>
  tile.apply "st.global.b32" scope(thread) (%B, %w)
      : !tirx.tensor<1xui32, global, align = 4>, !tirx.tensor<1xui32, local>
  tirx.return
}
