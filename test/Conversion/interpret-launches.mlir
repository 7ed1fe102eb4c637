// tirx-interpret-launches: host code whose launches call the interpreter
// (tirxInterpretLaunch, which tirx-runner provides) with the kernels as IR
// text; GPU memory operations become host memory operations.
// RUN: tirx-opt %s --tirx-interpret-launches | FileCheck %s

// One record {pointer, bytes, scalar bits} per kernel parameter: the memref's
// aligned pointer and its bytes (extent x 4), the size variable n (taken
// from the memref's extent, checked as tirx-to-gpu checks it) as its bits;
// the kernel is gone from the host module and travels in the IR text.
// CHECK-LABEL: module
// CHECK-DAG: llvm.mlir.global internal constant @tirx_interpret_ir("{{.*}}tirx.kernel @scale(%arg0: !tirx.tensor<?xf32, global, sizes = [n]> loc(\22{{.*}}interpret-launches.mlir\22:{{.*}}\00")
// CHECK-DAG: llvm.mlir.global internal constant @tirx_interpret_kernel_scale("scale\00")
// CHECK-DAG: llvm.mlir.global internal constant @tirx_interpret_options("\00")
// CHECK-DAG: llvm.func @tirxInterpretLaunch(!llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> i32
// CHECK-NOT: tirx.kernel
// CHECK-LABEL: func.func @main(
// CHECK: %[[RECORDS:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x struct<(ptr, i64, i64)>>
// CHECK: %[[HOST:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: %[[BUFFER:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.copy %[[HOST]], %[[BUFFER]]
// CHECK: %[[N:.*]] = memref.dim %[[BUFFER]], %c0
// CHECK: cf.assert %{{.*}}, "tirx.launch @scale: size variable n (argument #0 dimension 0) must be at least 1"
// CHECK: memref.extract_aligned_pointer_as_index %[[BUFFER]]
// CHECK: llvm.getelementptr %[[RECORDS]][0, 0, 0]
// CHECK: llvm.getelementptr %[[RECORDS]][0, 0, 1]
// CHECK: llvm.getelementptr %[[RECORDS]][0, 1, 2]
// CHECK: %[[STATUS:.*]] = llvm.call @tirxInterpretLaunch(%{{.*}}, %{{.*}}, %{{.*}}, %[[RECORDS]], %{{.*}}, %{{.*}})
// CHECK: cf.assert %{{.*}}, "tirx.launch @scale: the interpreter reported errors"
// CHECK: memref.dealloc %[[BUFFER]]
// CHECK-NOT: gpu.
tirx.kernel @scale(%A: !tirx.tensor<?xf32, global, sizes = [n]>, %n: index {tirx.size = "n"})
    launch(grid = [1], block = [32]) {
  tirx.return
}
func.func @main(%n: index) {
  %host = memref.alloc(%n) : memref<?xf32>
  %buffer = gpu.alloc (%n) : memref<?xf32>
  gpu.memcpy %buffer, %host : memref<?xf32>, memref<?xf32>
  tirx.launch @scale(%buffer) : memref<?xf32>
  gpu.wait
  gpu.dealloc %buffer : memref<?xf32>
  return
}
