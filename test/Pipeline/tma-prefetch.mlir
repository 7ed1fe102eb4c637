// prefetch.tensormap (docs/hopper.md): the operand is a box, as a TMA copy's,
// and the lowering prefetches the hidden tensor-map parameter(s) the copies
// of that box read, by generic address: the register the copies use. The
// same box copied into a plain and a 128B-swizzled image has two maps (a
// prefetch reads both); a box no copy uses gets a map of its own, after the
// copies' ones.
// RUN: tirx-opt %s --tirx-to-ptx="chip=sm_90a ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o /dev/null %}

// CHECK-LABEL: .visible .entry tma_prefetch(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 tma_prefetch_param_0,
// CHECK-NEXT: .param .align 64 .b8 tma_prefetch_param_1[128],
// CHECK-NEXT: .param .align 64 .b8 tma_prefetch_param_2[128],
// CHECK-NEXT: .param .align 64 .b8 tma_prefetch_param_3[128]
// CHECK-NEXT: )
// CHECK-DAG: mov.b64 [[P1:%rd[0-9]+]], tma_prefetch_param_1;
// CHECK-DAG: mov.b64 [[P2:%rd[0-9]+]], tma_prefetch_param_2;
// CHECK-DAG: cvta.param.u64 [[MAP2:%rd[0-9]+]], [[P2]];
// CHECK: cvta.param.u64 [[MAP1:%rd[0-9]+]], [[P1]];
// Thread 0: the box's two maps, then the map of the box no copy uses.
// CHECK: mov.b64 [[P3:%rd[0-9]+]], tma_prefetch_param_3;
// CHECK-NEXT: cvta.param.u64 [[MAP3:%rd[0-9]+]], [[P3]];
// CHECK: prefetch.tensormap [[[MAP1]]];
// CHECK-NEXT: prefetch.tensormap [[[MAP2]]];
// CHECK: prefetch.tensormap [[[MAP3]]];
// The guarded prefetch, once, after both paths join: inline PTX is
// convergent, so LLVM does not duplicate it into the branches (it did
// before tirx-module-to-binary marked inline asm convergent).
// CHECK: setp.ne.b32 %tirx_p, %r{{[0-9]+}}, 0;
// CHECK-NEXT: @%tirx_p prefetch.tensormap [[[MAP1]]];
// CHECK-NEXT: @%tirx_p prefetch.tensormap [[[MAP2]]];
// CHECK-NEXT: }
// CHECK-NOT: prefetch.tensormap
// The copies read the same parameters.
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [[[MAP1]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [[[MAP2]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
!A = !tirx.tensor<256x512xbf16, global, align = 16>
!box = !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 16>
!box2 = !tirx.tensor<32x64xbf16, global, #tirx.layout<S[(32, 64) : (512, 1)]>, align = 16>
!img = !tirx.tensor<64x64xbf16, shared, align = 128>
!sw = !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (64, 1)] + Swizzle[3, 3, 3]>, align = 1024>
!bar = !tirx.tensor<1xi64, shared, align = 8>
tirx.kernel @tma_prefetch(%A: !A) launch(grid = [4], block = [128]) {
  %img = tirx.alloc_shared : !img
  %sw = tirx.alloc_shared : !sw
  %bar = tirx.alloc_shared : !bar
  %tx = tirx.thread_idx x
  %bx = tirx.block_idx x
  %c64 = arith.constant 64 : index
  %row = arith.muli %bx, %c64 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  %is1 = arith.cmpi eq, %tx, %c1 : index
  scf.if %is0 {
    %first = tirx.region %A[0, 0] [64, 64] : !A
    tile.apply "prefetch.tensormap" scope(thread) (%first) : !box
    %other = tirx.region %A[0, 0] [32, 64] : !A
    tile.apply "prefetch.tensormap" scope(thread) (%other) : !box2
  }
  // Guarded: both maps under the one predicate.
  %again = tirx.region %A[%row, 0] [64, 64] : !A
  tile.apply "prefetch.tensormap" scope(thread) (%again) pred(%is1) : !box
  scf.if %is0 {
    %box = tirx.region %A[%row, 0] [64, 64] : !A
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
        : !img, !box, !bar
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%sw, %box, %bar)
        : !sw, !box, !bar
  }
  tirx.return
}
