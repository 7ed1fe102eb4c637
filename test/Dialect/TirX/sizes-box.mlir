// Regions of runtime-sized tensors that the verifiers accept (docs/sizes.md):
// a box spanning rows whose stride is a runtime product, used as the tensor
// map of TMA copies and a prefetch, directly and through a region of it; and
// align claims proven through the divisor of a dynamic offset (a row index
// 128·bx moves the base by 128·2·k bytes, a multiple of 16 for any k).
// RUN: tirx-opt %s | tirx-opt | FileCheck %s

!A = !tirx.tensor<?x?xbf16, global, sizes = [m, k], align = 16>
!Box = !tirx.tensor<128x64xbf16, global, #tirx.layout<S[(128, 64) : (64, 1)]>, align = 2>
!Img = !tirx.tensor<128x64xbf16, shared, align = 128>
!Bar = !tirx.tensor<1xi64, shared, align = 8>

// CHECK-LABEL: tirx.kernel @box
// CHECK: tirx.region %{{.*}}[%{{.*}}, %{{.*}}] [128, 64] : !tirx.tensor<?x?xbf16, global, sizes = [m, k], align = 16>
// CHECK: tirx.region %{{.*}}[0, 0] [128, 64] align 16 : !tirx.tensor<?x?xbf16, global, sizes = [m, k], align = 16>
// CHECK: tirx.region %{{.*}}[%{{.*}}, %{{.*}}] [8, 64] align 16 : !tirx.tensor<?x?xbf16, global, sizes = [m, k], align = 16>
tirx.kernel @box(%A: !A, %m: index {tirx.size = "m"}, %k: index {tirx.size = "k"})
    launch(grid = [%m ceildiv 128, %k ceildiv 64], block = [128]) {
  %img = tirx.alloc_shared : !Img
  %bar = tirx.alloc_shared : !Bar
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
    tile.apply "prefetch.tensormap" scope(thread) (%box) : !Box
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
        : !Img, !Box, !Bar
    %first = tirx.region %A[0, 0] [128, 64] align 16 : !A
    %sub = tirx.region %first[%c64, 0] [64, 64] : !tirx.tensor<128x64xbf16, global, #tirx.layout<S[(128, 64) : (64, 1)]>, align = 16>
    %img64 = tirx.region %img[0, 0] [64, 64] : !Img
    tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%sub, %img64)
        : !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (64, 1)]>, align = 16>, !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (64, 1)]>, align = 128>
    // Rows at 128·bx + 8: the divisor of the offset is 8, and 8 rows of 2
    // bytes · k are a multiple of 16 bytes.
    %c8 = arith.constant 8 : index
    %row8 = arith.addi %row, %c8 : index
    %rows8 = tirx.region %A[%row8, %col] [8, 64] align 16 : !A
    %img8 = tirx.region %img[0, 0] [8, 64] : !Img
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img8, %rows8, %bar)
        : !tirx.tensor<8x64xbf16, shared, #tirx.layout<S[(8, 64) : (64, 1)]>, align = 128>, !tirx.tensor<8x64xbf16, global, #tirx.layout<S[(8, 64) : (64, 1)]>, align = 16>, !Bar
  }
  tirx.return
}
