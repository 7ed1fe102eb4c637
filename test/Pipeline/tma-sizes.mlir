// TMA boxes of runtime-sized tensors (docs/sizes.md, docs/hopper.md): one
// kernel, compiled once, copies the 128 x 64 bf16 box at (128 bx, 64 by) of
// an M x K tensor A into shared memory and stores it to B. The box spans
// 128 rows whose stride is the runtime K: such a region is accepted because
// its only users are tensor-map operands, which the hardware addresses with
// the tensor's real strides (the launcher encodes them from the tensors'
// shapes) and clips at the tensor's real extents. The coordinates are the
// regions' offsets (summed along a chain of regions), innermost first; the
// sizes stay ordinary .u64 parameters before the maps.
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// CHECK-LABEL: .visible .entry tma_sizes(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 tma_sizes_param_0,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 tma_sizes_param_1,
// CHECK-NEXT: .param .u64 tma_sizes_param_2,
// CHECK-NEXT: .param .u64 tma_sizes_param_3,
// CHECK-NEXT: .param .align 64 .b8 tma_sizes_param_4[128],
// CHECK-NEXT: .param .align 64 .b8 tma_sizes_param_5[128],
// CHECK-NEXT: .param .align 64 .b8 tma_sizes_param_6[128]
// CHECK-NEXT: )
// CHECK-DAG: mov.b64 [[PA:%rd[0-9]+]], tma_sizes_param_4;
// CHECK-DAG: mov.b64 [[PA64:%rd[0-9]+]], tma_sizes_param_5;
// CHECK-DAG: mov.b64 [[PB:%rd[0-9]+]], tma_sizes_param_6;
// CHECK-DAG: cvta.param.u64 [[MAPA:%rd[0-9]+]], [[PA]];
// CHECK-DAG: cvta.param.u64 [[MAPA64:%rd[0-9]+]], [[PA64]];
// CHECK-DAG: cvta.param.u64 [[MAPB:%rd[0-9]+]], [[PB]];
// CHECK-DAG: mov.u32 [[BX:%r[0-9]+]], %ctaid.x;
// CHECK-DAG: shl.b32 [[ROW:%r[0-9]+]], [[BX]], 7;
// CHECK-DAG: or.b32 [[ROW64:%r[0-9]+]], [[ROW]], 64;
// CHECK-DAG: mov.u32 [[BY:%r[0-9]+]], %ctaid.y;
// CHECK-DAG: shl.b32 [[COL:%r[0-9]+]], [[BY]], 6;
// CHECK-DAG: mov.b64 [[IMG:%rd[0-9]+]], tma_sizes_smem0;
// CHECK-DAG: mov.b64 [[BAR:%rd[0-9]+]], tma_sizes_smem1;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [[[IMG]]], [[[MAPA]], {[[COL]], [[ROW]]}], [[[BAR]]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [[[IMG]]], [[[MAPA64]], {[[COL]], [[ROW64]]}], [[[BAR]]];
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [[[MAPB]], {[[COL]], [[ROW]]}], [[[IMG]]];
!A = !tirx.tensor<?x?xbf16, global, sizes = [m, k], align = 16>
tirx.kernel @tma_sizes(%A: !A, %B: !A,
                       %m: index {tirx.size = "m"}, %k: index {tirx.size = "k"})
    launch(grid = [%m ceildiv 128, %k ceildiv 64], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<128x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %tx = tirx.thread_idx x
  %bx = tirx.block_idx x
  %by = tirx.block_idx y
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %bx, %c128 : index
  %col = arith.muli %by, %c64 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  scf.if %is0 {
    %box = tirx.region %A[%row, %col] [128, 64] : !A
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
        : !tirx.tensor<128x64xbf16, shared, align = 128>, !tirx.tensor<128x64xbf16, global, #tirx.layout<S[(128, 64) : (64, 1)]>, align = 2>, !tirx.tensor<1xi64, shared, align = 8>
    // A chain: the lower 64 rows of the box, a map of its own (box 64 x 64)
    // at the coordinates summed along the chain.
    %half = tirx.region %box[64, 0] [64, 64] : !tirx.tensor<128x64xbf16, global, #tirx.layout<S[(128, 64) : (64, 1)]>, align = 2>
    %img64 = tirx.region %img[0, 0] [64, 64] : !tirx.tensor<128x64xbf16, shared, align = 128>
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img64, %half, %bar)
        : !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (64, 1)]>, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (64, 1)] + 4096>, align = 2>, !tirx.tensor<1xi64, shared, align = 8>
    %out = tirx.region %B[%row, %col] [128, 64] : !A
    tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%out, %img)
        : !tirx.tensor<128x64xbf16, global, #tirx.layout<S[(128, 64) : (64, 1)]>, align = 2>, !tirx.tensor<128x64xbf16, shared, align = 128>
  }
  tirx.return
}
