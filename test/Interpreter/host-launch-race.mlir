// A host program whose kernel races, run without a GPU: the launch reports
// the race at the kernel's source lines (the kernels travel as IR text with
// their locations) and the program stops there with exit code 1; nothing
// after the launch runs.
// REQUIRES: tirx-runner
// RUN: tirx-opt %s --tirx-interpret-host | not tirx-runner --e main --entry-point-result=void 2>&1 | FileCheck %s
// With the race and uninitialized-read checks off (interpreter-options), the
// same program runs to its end.
// RUN: tirx-opt %s '--tirx-interpret-host=interpreter-options="races=0 uninitialized=0"' | tirx-runner --e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=UNCHECKED

#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!row = !tirx.tensor<2x32x1xf32, global>
tirx.kernel @missing_barrier(%A: !row, %B: !row) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "ld.global.f32" scope(cta) (%r, %A) : !regs, !row
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<2x32x1xf32, shared>
  // CHECK: host-launch-race.mlir:[[# @LINE + 1]]:3: error: data race on byte 128 of the shared tensor allocated at loc("{{.*}}host-launch-race.mlir":[[# @LINE - 2]]:8): this write by block (0, 0, 0) thread 32 (warp 1, lane 0) and an earlier read by block (0, 0, 0) thread 16 (warp 0, lane 16) are not ordered by any synchronization
  tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tirx.tensor<2x32x1xf32, shared>, !regs
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<2x32x1xf32, shared, #transposed>
  // CHECK: host-launch-race.mlir:[[# @LINE + 1]]:3: note: the earlier access
  tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tirx.tensor<2x32x1xf32, shared, #transposed>
  tile.apply "st.global.f32" scope(cta) (%B, %r) : !row, !regs
  tirx.return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %host = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %zero, %host[%i] : memref<64xf32>
  }
  %a = gpu.alloc () : memref<64xf32>
  %b = gpu.alloc () : memref<64xf32>
  gpu.memcpy %a, %host : memref<64xf32>, memref<64xf32>
  gpu.memcpy %b, %host : memref<64xf32>, memref<64xf32>
  tirx.launch @missing_barrier(%a, %b) : memref<64xf32>, memref<64xf32>
  gpu.memcpy %host, %b : memref<64xf32>, memref<64xf32>
  %cast = memref.cast %host : memref<64xf32> to memref<*xf32>
  call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
  gpu.dealloc %a : memref<64xf32>
  gpu.dealloc %b : memref<64xf32>
  memref.dealloc %host : memref<64xf32>
  return
}
// CHECK: tirx-runner: tirx.launch @missing_barrier stopped the program: the interpreter reported the errors above
// CHECK-NOT: Unranked Memref
// UNCHECKED-NOT: error
// UNCHECKED: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [64]
// An interpreter option that does not exist stops the program at the launch.
// RUN: tirx-opt %s '--tirx-interpret-host=interpreter-options=bogus=1' | not tirx-runner --e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: tirx-runner: invalid interpreter-options 'bogus=1': 'bogus=1' is not one of races=0|1, uninitialized=0|1, block=N, trace=0|1
