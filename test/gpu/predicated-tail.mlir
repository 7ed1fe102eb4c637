// A predicated tile.apply on the GPU: pred(%p) with %p = (thread < 40) of 64
// threads, so warp 0 runs everything, warp 1 only lanes 0-7 (a tail inside a
// warp). Load, fma, max and store are all predicated; thread t owns elements
// 4t..4t+3. Every element is checked bit for bit: the 160 of threads 0-39
// against max(2x + 1, 0) (64 of them clamp), the 96 of threads 40-63 must
// keep the poison B started with.
// REQUIRES: cuda-gpu, tirx-runner
// RUN: tirx-opt %s --tirx-to-llvm-host | tirx-runner --e main --entry-point-result=void | FileCheck %s

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>

tirx.kernel @tail_affine_relu(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                              %B: !tirx.tensor<2x32x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %t = tirx.thread_idx x
  %tail = arith.constant 40 : index
  %p = arith.cmpi ult, %t, %tail : index
  %regs = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%regs, %A) pred(%p)
      : !tirx.tensor<2x32x4xf32, local, #reg>, !tirx.tensor<2x32x4xf32, global, align = 16>
  %scalars = tirx.view %regs : !tirx.tensor<2x32x4xf32, local, #reg> -> !tirx.tensor<2x32x4x1xf32, local, #reg>
  tile.apply "fma.rn.f32" scope(cta) (%scalars, %scalars, 2.0 : f32, 1.0 : f32) pred(%p)
      : !tirx.tensor<2x32x4x1xf32, local, #reg>, !tirx.tensor<2x32x4x1xf32, local, #reg>
  tile.apply "max.f32" scope(cta) (%scalars, %scalars, 0.0 : f32) pred(%p)
      : !tirx.tensor<2x32x4x1xf32, local, #reg>, !tirx.tensor<2x32x4x1xf32, local, #reg>
  tile.apply "st.global.v4.b32" scope(cta) (%B, %regs) pred(%p)
      : !tirx.tensor<2x32x4xf32, global, align = 16>, !tirx.tensor<2x32x4xf32, local, #reg>
  tirx.return
}

func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

// counts[k] += flag
func.func private @bump(%counts: memref<4xi32>, %k: index, %flag: i1) {
  %old = memref.load %counts[%k] : memref<4xi32>
  %add = arith.extui %flag : i1 to i32
  %new = arith.addi %old, %add : i32
  memref.store %new, %counts[%k] : memref<4xi32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %written = arith.constant 160 : index  // elements of threads 0-39
  %c128 = arith.constant 128.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %fzero = arith.constant 0.0 : f32
  %zero = arith.constant 0 : i32
  %poison_bits = arith.constant 2143346349 : i32  // 0x7FC0DEAD, a NaN
  %poison = arith.bitcast %poison_bits : i32 to f32
  // A[i] = i / 128 - 1: negative for i < 128.
  %host = memref.alloc() : memref<256xf32>
  %poisoned = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %scaled = arith.divf %f, %c128 : f32
    %v = arith.subf %scaled, %one : f32
    memref.store %v, %host[%i] : memref<256xf32>
    memref.store %poison, %poisoned[%i] : memref<256xf32>
  }
  %a = gpu.alloc () : memref<256xf32>
  %b = gpu.alloc () : memref<256xf32>
  gpu.memcpy %a, %host : memref<256xf32>, memref<256xf32>
  gpu.memcpy %b, %poisoned : memref<256xf32>, memref<256xf32>
  tirx.launch @tail_affine_relu(%a, %b) : memref<256xf32>, memref<256xf32>
  %result = memref.alloc() : memref<256xf32>
  gpu.memcpy %result, %b : memref<256xf32>, memref<256xf32>
  // [mismatches among the written, changed among the untouched,
  //  elements no longer poison, zeros (clamped)]
  %counts = memref.alloc() : memref<4xi32>
  scf.for %k = %c0 to %c4 step %c1 {
    memref.store %zero, %counts[%k] : memref<4xi32>
  }
  %true = arith.constant true
  scf.for %i = %c0 to %c256 step %c1 {
    %x = memref.load %host[%i] : memref<256xf32>
    %got = memref.load %result[%i] : memref<256xf32>
    %x2 = arith.mulf %x, %two : f32
    %y = arith.addf %x2, %one : f32
    %relu = arith.maximumf %y, %fzero : f32
    %active = arith.cmpi ult, %i, %written : index
    %inactive = arith.xori %active, %true : i1
    %want = arith.select %active, %relu, %poison : f32
    %got_bits = arith.bitcast %got : f32 to i32
    %want_bits = arith.bitcast %want : f32 to i32
    %bad = arith.cmpi ne, %got_bits, %want_bits : i32
    %bad_active = arith.andi %bad, %active : i1
    %bad_inactive = arith.andi %bad, %inactive : i1
    %changed = arith.cmpi ne, %got_bits, %poison_bits : i32
    %is_zero = arith.cmpi eq, %got_bits, %zero : i32
    func.call @bump(%counts, %c0, %bad_active) : (memref<4xi32>, index, i1) -> ()
    func.call @bump(%counts, %c1, %bad_inactive) : (memref<4xi32>, index, i1) -> ()
    func.call @bump(%counts, %c2, %changed) : (memref<4xi32>, index, i1) -> ()
    func.call @bump(%counts, %c3, %is_zero) : (memref<4xi32>, index, i1) -> ()
  }
  %ucounts = memref.cast %counts : memref<4xi32> to memref<*xi32>
  // CHECK: rank = 1 offset = 0 sizes = [4] strides = [1] data =
  // CHECK-NEXT: [0, 0, 160, 65]
  call @printMemrefI32(%ucounts) : (memref<*xi32>) -> ()
  gpu.dealloc %a : memref<256xf32>
  gpu.dealloc %b : memref<256xf32>
  memref.dealloc %host : memref<256xf32>
  memref.dealloc %poisoned : memref<256xf32>
  memref.dealloc %result : memref<256xf32>
  memref.dealloc %counts : memref<4xi32>
  return
}
