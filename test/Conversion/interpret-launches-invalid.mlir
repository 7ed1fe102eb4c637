// tirx-interpret-launches refuses the host operations it has no host form
// for, at the operation.
// RUN: tirx-opt %s --split-input-file --tirx-interpret-launches --verify-diagnostics -o /dev/null


func.func @async_alloc(%n: index) {
  // expected-error @+1 {{'gpu.alloc' op is asynchronous: the interpreter's host code takes the synchronous gpu.alloc, gpu.memcpy, gpu.dealloc and gpu.wait}}
  %buffer, %t = gpu.alloc async (%n) : memref<?xf32>
  return
}

// -----

func.func @shared_alloc() {
  // expected-error @+1 {{'gpu.alloc' op is host_shared: the interpreter's host code takes device allocations}}
  %buffer = gpu.alloc host_shared () : memref<4xf32>
  return
}

// -----

func.func @memset(%buffer: memref<4xf32>, %value: f32) {
  // expected-error @+1 {{'gpu.memset' op has no host form for the interpreter: host code run on it may use tirx.launch, gpu.alloc, gpu.memcpy, gpu.dealloc and gpu.wait}}
  gpu.memset %buffer, %value : memref<4xf32>, f32
  return
}
