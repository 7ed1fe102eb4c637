// Runtime sizes through tirx-runner (docs/sizes.md): one kernel launched by
// tirx.launch on memrefs of two runtime lengths; the size comes from the
// memref, the grid from the size, the tail is predicated. Every element is
// compared with max(2x + 1, 0) computed on the host; B starts as NaN, so an
// element the kernel does not write is a mismatch.
// REQUIRES: cuda-gpu, tirx-runner
// RUN: tirx-opt %s --tirx-to-llvm-host | tirx-runner --e main --entry-point-result=void | FileCheck %s

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!V4 = !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 16>
!S1 = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
tirx.kernel @affine_relu_n(%n: index {tirx.size = "n"}, %A: !N, %B: !N)
    launch(grid = [%n ceildiv 512], block = [128]) {
  %bx = tirx.block_idx x
  %tx = tirx.thread_idx x
  %c512 = arith.constant 512 : index
  %c4 = arith.constant 4 : index
  %base = arith.muli %bx, %c512 : index
  %t4 = arith.muli %tx, %c4 : index
  %off = arith.addi %base, %t4 : index
  %end = arith.addi %off, %c4 : index
  %full = arith.cmpi sle, %end, %n : index
  scf.if %full {
    %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
    %a = tirx.region %A[%off] [4] align 16 : !N
    %b = tirx.region %B[%off] [4] align 16 : !N
    tile.apply "ld.global.v4.b32" scope(thread) (%r, %a) : !tirx.tensor<4xf32, local>, !V4
    %s = tirx.view %r : !tirx.tensor<4xf32, local> -> !tirx.tensor<4x1xf32, local>
    tile.apply "fma.rn.f32" scope(thread) (%s, %s, 2.0 : f32, 1.0 : f32) : !tirx.tensor<4x1xf32, local>, !tirx.tensor<4x1xf32, local>
    tile.apply "max.f32" scope(thread) (%s, %s, 0.0 : f32) : !tirx.tensor<4x1xf32, local>, !tirx.tensor<4x1xf32, local>
    tile.apply "st.global.v4.b32" scope(thread) (%b, %r) : !V4, !tirx.tensor<4xf32, local>
  } else {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %j = %c0 to %c4 step %c1 {
      %i = arith.addi %off, %j : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %x = tirx.alloc_local : !tirx.tensor<1xf32, local>
        %a = tirx.region %A[%i] [1] : !N
        %b = tirx.region %B[%i] [1] : !N
        tile.apply "ld.global.b32" scope(thread) (%x, %a) : !tirx.tensor<1xf32, local>, !S1
        %s = tirx.view %x : !tirx.tensor<1xf32, local> -> !tirx.tensor<1x1xf32, local>
        tile.apply "fma.rn.f32" scope(thread) (%s, %s, 2.0 : f32, 1.0 : f32) : !tirx.tensor<1x1xf32, local>, !tirx.tensor<1x1xf32, local>
        tile.apply "max.f32" scope(thread) (%s, %s, 0.0 : f32) : !tirx.tensor<1x1xf32, local>, !tirx.tensor<1x1xf32, local>
        tile.apply "st.global.b32" scope(thread) (%b, %x) : !S1, !tirx.tensor<1xf32, local>
      }
    }
  }
  tirx.return
}

func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

// Runs the kernel on n floats; returns the number of mismatches.
func.func @run(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %nan_bits = arith.constant 2143346349 : i32
  %nan = arith.bitcast %nan_bits : i32 to f32
  %host = memref.alloc(%n) : memref<?xf32>
  %poison = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %scaled = arith.divf %f, %c128 : f32
    %v = arith.subf %scaled, %one : f32
    memref.store %v, %host[%i] : memref<?xf32>
    memref.store %nan, %poison[%i] : memref<?xf32>
  }
  %a = gpu.alloc (%n) : memref<?xf32>
  %b = gpu.alloc (%n) : memref<?xf32>
  gpu.memcpy %a, %host : memref<?xf32>, memref<?xf32>
  gpu.memcpy %b, %poison : memref<?xf32>, memref<?xf32>
  tirx.launch @affine_relu_n(%a, %b) : memref<?xf32>, memref<?xf32>
  %result = memref.alloc(%n) : memref<?xf32>
  gpu.memcpy %result, %b : memref<?xf32>, memref<?xf32>
  %c0i = arith.constant 0 : i32
  %c1i = arith.constant 1 : i32
  %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0i) -> (i32) {
    %x = memref.load %host[%i] : memref<?xf32>
    %y = memref.load %result[%i] : memref<?xf32>
    %t = arith.mulf %x, %two : f32
    %u = arith.addf %t, %one : f32
    %want = arith.maxnumf %u, %zero : f32
    %same = arith.cmpf oeq, %y, %want : f32
    %add = arith.select %same, %c0i, %c1i : i32
    %next = arith.addi %count, %add : i32
    scf.yield %next : i32
  }
  gpu.dealloc %a : memref<?xf32>
  gpu.dealloc %b : memref<?xf32>
  memref.dealloc %host : memref<?xf32>
  memref.dealloc %poison : memref<?xf32>
  memref.dealloc %result : memref<?xf32>
  return %bad : i32
}

func.func @main() {
  %n1 = arith.constant 1003 : index
  %n2 = arith.constant 1048578 : index
  %bad1 = call @run(%n1) : (index) -> i32
  %bad2 = call @run(%n2) : (index) -> i32
  %counts = memref.alloc() : memref<2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %bad1, %counts[%c0] : memref<2xi32>
  memref.store %bad2, %counts[%c1] : memref<2xi32>
  %unranked = memref.cast %counts : memref<2xi32> to memref<*xi32>
  // Mismatches for n = 1003 and n = 1048578: none.
  // CHECK: rank = 1 offset = 0 sizes = [2] strides = [1] data =
  // CHECK-NEXT: [0, 0]
  call @printMemrefI32(%unranked) : (memref<*xi32>) -> ()
  memref.dealloc %counts : memref<2xi32>
  return
}
