// The TMA reduction and tensor prefetch (docs/hopper.md): one thread
// reduces a shared box into a box of a global tensor through a tensor map
// whose element type is the tensor's (the operation's type: f32 here, s32
// for a signless i32 tensor), and prefetches a box into L2 through a map
// of its own (no image, no swizzle). Each reduction and the store of the
// same box use different maps: a copy's map declares no type.
// RUN: tirx-opt %s --tirx-to-gpu | FileCheck %s --check-prefix=MAPS
// RUN: tirx-opt %s --tirx-to-ptx="chip=sm_90a ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o /dev/null %}

// MAPS-LABEL: gpu.func @tma_reduce
// MAPS-SAME: tirx.tensor_maps = [{arg = 0 : i64, box = array<i64: 64, 32>, swizzle = 0 : i64, type = "f32"}, {arg = 1 : i64, box = array<i64: 64, 32>, swizzle = 0 : i64, type = "s32"}, {arg = 0 : i64, box = array<i64: 64, 32>, swizzle = 0 : i64}, {arg = 2 : i64, box = array<i64: 64, 64>, swizzle = 0 : i64}]

// CHECK-LABEL: .visible .entry tma_reduce(
// CHECK: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// CHECK: cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// CHECK: cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}];
// CHECK: cp.async.bulk.commit_group;
!C = !tirx.tensor<256x128xf32, global, align = 16>
!I = !tirx.tensor<256x128xi32, global, align = 16>
!A = !tirx.tensor<256x512xbf16, global, align = 16>
!cbox = !tirx.tensor<64x32xf32, global, #tirx.layout<S[(64, 32) : (128, 1)]>, align = 16>
!ibox = !tirx.tensor<64x32xi32, global, #tirx.layout<S[(64, 32) : (128, 1)]>, align = 16>
!abox = !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 16>
!img = !tirx.tensor<64x32xf32, shared, align = 128>
!iimg = !tirx.tensor<64x32xi32, shared, align = 128>
tirx.kernel @tma_reduce(%C: !C, %I: !I, %A: !A) launch(grid = [4], block = [128]) {
  %img = tirx.alloc_shared : !img
  %iimg = tirx.alloc_shared : !iimg
  %tx = tirx.thread_idx x
  %bx = tirx.block_idx x
  %c64 = arith.constant 64 : index
  %row = arith.muli %bx, %c64 : index
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  scf.if %is0 {
    %cbox = tirx.region %C[%row, 0] [64, 32] : !C
    tile.apply "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group" scope(thread) (%cbox, %img)
        : !cbox, !img
    %ibox = tirx.region %I[%row, 0] [64, 32] : !I
    tile.apply "cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group" scope(thread) (%ibox, %iimg)
        : !ibox, !iimg
    tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%cbox, %img)
        : !cbox, !img
    %abox = tirx.region %A[%row, 0] [64, 64] : !A
    tile.apply "cp.async.bulk.prefetch.tensor.2d.L2.global.tile" scope(thread) (%abox) : !abox
    tile.apply "cp.async.bulk.commit_group" scope(thread) ()
  }
  tirx.return
}
