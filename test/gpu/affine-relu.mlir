// The seed's affine-ReLU launched from host code and checked on the GPU.
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

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c128 = arith.constant 128.0 : f32
  %c4 = arith.constant 4.0 : f32
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
  %a = gpu.alloc () : memref<256xf32>
  %b = gpu.alloc () : memref<256xf32>
  gpu.memcpy %a, %host : memref<256xf32>, memref<256xf32>
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
  gpu.dealloc %a : memref<256xf32>
  gpu.dealloc %b : memref<256xf32>
  memref.dealloc %host : memref<256xf32>
  memref.dealloc %result : memref<256xf32>
  memref.dealloc %copy : memref<8xf32>
  return
}
