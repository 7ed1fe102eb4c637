// RUN: tirx-opt %s --split-input-file --tirx-to-gpu -verify-diagnostics | FileCheck %s

// A kernel with TMA copies gets one hidden tensor-map parameter per distinct
// (tensor, box, swizzle), after its own, listed by tirx.tensor_maps; it has
// no embedders' launcher (gpu.launch_func cannot encode a map).
// CHECK-LABEL: gpu.func @tma(
// CHECK-SAME: %{{.*}}: !tirx.tensor<128x64xf32, global, align = 16>, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64}, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64})
// CHECK-SAME: tirx.tensor_maps = [{arg = 0 : i64, box = array<i64: 8, 32>, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 16, 32>, swizzle = 0 : i64}]
// CHECK-NOT: func.func @tma_launch
tirx.kernel @tma(%A: !tirx.tensor<128x64xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  %img = tirx.alloc_shared : !tirx.tensor<16x32xf32, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %small = tirx.region %img[0, 0] [8, 32] : !tirx.tensor<16x32xf32, shared, align = 128>
  %b1 = tirx.region %A[0, 0] [8, 32] : !tirx.tensor<128x64xf32, global, align = 16>
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%small, %b1, %bar)
      : !tirx.tensor<8x32xf32, shared, #tirx.layout<S[(8, 32) : (32, 1)]>, align = 128>, !tirx.tensor<8x32xf32, global, #tirx.layout<S[(8, 32) : (64, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  %b2 = tirx.region %A[8, 32] [8, 32] : !tirx.tensor<128x64xf32, global, align = 16>
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%small, %b2, %bar)
      : !tirx.tensor<8x32xf32, shared, #tirx.layout<S[(8, 32) : (32, 1)]>, align = 128>, !tirx.tensor<8x32xf32, global, #tirx.layout<S[(8, 32) : (64, 1)] + 544>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  %b3 = tirx.region %A[16, 0] [16, 32] : !tirx.tensor<128x64xf32, global, align = 16>
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %b3, %bar)
      : !tirx.tensor<16x32xf32, shared, align = 128>, !tirx.tensor<16x32xf32, global, #tirx.layout<S[(16, 32) : (64, 1)] + 1024>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @tma(%A: !tirx.tensor<128x64xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  %img = tirx.alloc_shared : !tirx.tensor<8x32xf32, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %b1 = tirx.region %A[0, 0] [8, 32] : !tirx.tensor<128x64xf32, global, align = 16>
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %b1, %bar)
      : !tirx.tensor<8x32xf32, shared, align = 128>, !tirx.tensor<8x32xf32, global, #tirx.layout<S[(8, 32) : (64, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}
func.func @host(%a: memref<128x64xf32>) {
  // expected-error @+1 {{'tirx.launch' op launches @tma, whose TMA copies read tensor maps that tirx.launch does not encode; launch it through the runtime (Python, the C API or libTirXRuntime), which encodes them}}
  tirx.launch @tma(%a) : memref<128x64xf32>
  return
}

// -----

// A 128B-swizzled image: the map records the swizzle.
// CHECK-LABEL: gpu.func @swizzled(
// CHECK-SAME: tirx.tensor_maps = [{arg = 0 : i64, box = array<i64: 64, 64>, swizzle = 128 : i64}]
tirx.kernel @swizzled(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [32]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (64, 1)] + Swizzle[3, 3, 3]>, align = 1024>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (64, 1)] + Swizzle[3, 3, 3]>, align = 1024>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}
