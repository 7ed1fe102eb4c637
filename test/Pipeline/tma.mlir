// TMA copies (cp.async.bulk.tensor, docs/hopper.md): one thread loads a
// 64 x 64 bf16 box of A into shared memory (completing on an mbarrier) and
// stores it to B. Each distinct (tensor, box, swizzle) is a hidden 128-byte
// grid-constant parameter after the kernel's own, addressed in parameter
// space (cvta.param); the coordinates are the regions' offsets, innermost
// first. Two boxes of A with the same shape share one map.
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// CHECK-LABEL: .visible .entry tma_load(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 tma_load_param_0,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 tma_load_param_1,
// CHECK-NEXT: .param .align 64 .b8 tma_load_param_2[128],
// CHECK-NEXT: .param .align 64 .b8 tma_load_param_3[128]
// CHECK-NEXT: )
// CHECK-DAG: mov.b64 [[PA:%rd[0-9]+]], tma_load_param_2;
// CHECK-DAG: mov.b64 [[PB:%rd[0-9]+]], tma_load_param_3;
// CHECK-DAG: cvta.param.u64 [[MAPA:%rd[0-9]+]], [[PA]];
// CHECK-DAG: cvta.param.u64 [[MAPB:%rd[0-9]+]], [[PB]];
// CHECK: mov.u32 [[BY:%r[0-9]+]], %ctaid.y;
// CHECK-NEXT: shl.b32 [[COL:%r[0-9]+]], [[BY]], 6;
// CHECK-NEXT: add.s32 [[COL2:%r[0-9]+]], [[COL]], 64;
// CHECK-NEXT: mov.u32 [[BX:%r[0-9]+]], %ctaid.x;
// CHECK-NEXT: shl.b32 [[ROW:%r[0-9]+]], [[BX]], 6;
// CHECK-NEXT: mov.b64 [[IMG:%rd[0-9]+]], tma_load_smem0;
// CHECK-NEXT: mov.b64 [[BAR:%rd[0-9]+]], tma_load_smem1;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [[[IMG]]], [[[MAPA]], {[[COL]], [[ROW]]}], [[[BAR]]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [[[IMG]]], [[[MAPA]], {[[COL2]], [[ROW]]}], [[[BAR]]];
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [[[MAPB]], {[[COL]], [[ROW]]}], [[[IMG]]];
tirx.kernel @tma_load(%A: !tirx.tensor<256x512xbf16, global, align = 16>,
                      %B: !tirx.tensor<256x512xbf16, global, align = 16>)
    launch(grid = [4, 8], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %tx = tirx.thread_idx x
  %bx = tirx.block_idx x
  %by = tirx.block_idx y
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %bx, %c64 : index
  %col = arith.muli %by, %c64 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  scf.if %is0 {
    %box = tirx.region %A[%row, %col] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
        : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 2>, !tirx.tensor<1xi64, shared, align = 8>
    // The next box: past the tensor's last column in the last block: TMA fills it with zeros (no
    // bounds proof needed).
    %col2 = arith.addi %col, %c64 : index
    %next = tirx.region %A[%row, %col2] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %next, %bar)
        : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 2>, !tirx.tensor<1xi64, shared, align = 8>
    %out = tirx.region %B[%row, %col] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
    tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%out, %img)
        : !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 2>, !tirx.tensor<64x64xbf16, shared, align = 128>
  }
  tirx.return
}
