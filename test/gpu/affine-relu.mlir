// The seed's affine-ReLU launched from host code and checked on the GPU:
// every element, bit for bit, against a host reference; a quarter of the
// inputs clamp to 0; the output starts as NaN poison.
// REQUIRES: cuda-gpu, tirx-runner
// RUN: tirx-opt %s --tirx-to-llvm-host | tirx-runner --e main --entry-point-result=void | FileCheck %s

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>

tirx.kernel @affine_relu(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                         %B: !tirx.tensor<2x32x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %regs = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%regs, %A)
      : !tirx.tensor<2x32x4xf32, local, #reg>, !tirx.tensor<2x32x4xf32, global, align = 16>
  %scalars = tirx.view %regs : !tirx.tensor<2x32x4xf32, local, #reg> -> !tirx.tensor<2x32x4x1xf32, local, #reg>
  tile.apply "fma.rn.f32" scope(cta) (%scalars, %scalars, 2.0 : f32, 1.0 : f32)
      : !tirx.tensor<2x32x4x1xf32, local, #reg>, !tirx.tensor<2x32x4x1xf32, local, #reg>
  tile.apply "max.f32" scope(cta) (%scalars, %scalars, 0.0 : f32)
      : !tirx.tensor<2x32x4x1xf32, local, #reg>, !tirx.tensor<2x32x4x1xf32, local, #reg>
  tile.apply "st.global.v4.b32" scope(cta) (%B, %regs)
      : !tirx.tensor<2x32x4xf32, global, align = 16>, !tirx.tensor<2x32x4xf32, local, #reg>
  tirx.return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c128 = arith.constant 128.0 : f32
  %one_f = arith.constant 1.0 : f32
  // A[i] = i / 128 - 1: from -1 to 0.992.
  %host = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %scaled = arith.divf %f, %c128 : f32
    %one = arith.constant 1.0 : f32
    %v = arith.subf %scaled, %one : f32
    memref.store %v, %host[%i] : memref<256xf32>
  }
  // B starts as poison (a NaN with a payload), so an element the kernel
  // never writes cannot pass for a result, 0 included.
  %poison_bits = arith.constant 2143346349 : i32  // 0x7FC0DEAD
  %poison = arith.bitcast %poison_bits : i32 to f32
  %poisoned = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    memref.store %poison, %poisoned[%i] : memref<256xf32>
  }
  %a = gpu.alloc () : memref<256xf32>
  %b = gpu.alloc () : memref<256xf32>
  gpu.memcpy %a, %host : memref<256xf32>, memref<256xf32>
  gpu.memcpy %b, %poisoned : memref<256xf32>, memref<256xf32>
  tirx.launch @affine_relu(%a, %b) : memref<256xf32>, memref<256xf32>
  %result = memref.alloc() : memref<256xf32>
  gpu.memcpy %result, %b : memref<256xf32>, memref<256xf32>
  %copy = memref.alloc() : memref<8xf32>
  %c8 = arith.constant 8 : index
  %c126 = arith.constant 126 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %j = arith.addi %i, %c126 : index
    %v = memref.load %result[%j] : memref<256xf32>
    memref.store %v, %copy[%i] : memref<8xf32>
  }
  %unranked = memref.cast %copy : memref<8xf32> to memref<*xf32>
  // max(2 * (i/128 - 1) + 1, 0) for i = 126..133.
  // CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
  // CHECK-NEXT: [0.96875, 0.984375, 1, 1.01562, 1.03125, 1.04688, 1.0625, 1.07812]
  call @printMemrefF32(%unranked) : (memref<*xf32>) -> ()
  // Every element against max(2x + 1, 0) computed on the host (2x is exact,
  // so one rounding either way), bit for bit: [mismatches, zeros]. The
  // inputs below -0.5 (i < 64) and -0.5 itself clamp to +0: 65 zeros.
  %counts = memref.alloc() : memref<2xi32>
  %zero = arith.constant 0 : i32
  %one_i = arith.constant 1 : i32
  %two = arith.constant 2.0 : f32
  %fzero = arith.constant 0.0 : f32
  memref.store %zero, %counts[%c0] : memref<2xi32>
  memref.store %zero, %counts[%c1] : memref<2xi32>
  scf.for %i = %c0 to %c256 step %c1 {
    %x = memref.load %host[%i] : memref<256xf32>
    %got = memref.load %result[%i] : memref<256xf32>
    %x2 = arith.mulf %x, %two : f32
    %y = arith.addf %x2, %one_f : f32
    %want = arith.maximumf %y, %fzero : f32
    %got_bits = arith.bitcast %got : f32 to i32
    %want_bits = arith.bitcast %want : f32 to i32
    %bad = arith.cmpi ne, %got_bits, %want_bits : i32
    %badi = arith.extui %bad : i1 to i32
    %old = memref.load %counts[%c0] : memref<2xi32>
    %new = arith.addi %old, %badi : i32
    memref.store %new, %counts[%c0] : memref<2xi32>
    %is_zero = arith.cmpi eq, %got_bits, %zero : i32
    %zeroi = arith.extui %is_zero : i1 to i32
    %oldz = memref.load %counts[%c1] : memref<2xi32>
    %newz = arith.addi %oldz, %zeroi : i32
    memref.store %newz, %counts[%c1] : memref<2xi32>
  }
  %ucounts = memref.cast %counts : memref<2xi32> to memref<*xi32>
  // CHECK: rank = 1 offset = 0 sizes = [2] strides = [1] data =
  // CHECK-NEXT: [0, 65]
  call @printMemrefI32(%ucounts) : (memref<*xi32>) -> ()
  gpu.dealloc %a : memref<256xf32>
  gpu.dealloc %b : memref<256xf32>
  memref.dealloc %host : memref<256xf32>
  memref.dealloc %result : memref<256xf32>
  memref.dealloc %copy : memref<8xf32>
  memref.dealloc %poisoned : memref<256xf32>
  memref.dealloc %counts : memref<2xi32>
  return
}
