// The seed's SiLU (precise math: libdevice expf) on the GPU.
// REQUIRES: cuda-gpu, tirx-runner
// RUN: tirx-opt %s --tirx-to-llvm-host | tirx-runner --e main --entry-point-result=void | FileCheck %s

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>

func.func private @silu(%value: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %negated = arith.negf %value : f32
  %exp = math.exp %negated : f32
  %denominator = arith.addf %one, %exp : f32
  %result = arith.divf %value, %denominator : f32
  return %result : f32
}

tirx.kernel @silu_kernel(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                         %B: !tirx.tensor<2x32x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %regs = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%regs, %A)
      : !tirx.tensor<2x32x4xf32, local, #reg>,
        !tirx.tensor<2x32x4xf32, global, align = 16>
  tile.ewise @silu scope(cta) (%regs, %regs)
      : !tirx.tensor<2x32x4xf32, local, #reg>,
        !tirx.tensor<2x32x4xf32, local, #reg>
  tile.apply "st.global.v4.b32" scope(cta) (%B, %regs)
      : !tirx.tensor<2x32x4xf32, global, align = 16>,
        !tirx.tensor<2x32x4xf32, local, #reg>
  tirx.return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 256 : index
  %c128 = arith.constant 128.0 : f32
  %scale = arith.constant 1.0 : f32
  %one = arith.constant 1.0 : f32
  // x[i] = scale * (i / 128 - 1)
  %host = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %cn step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %scaled = arith.divf %f, %c128 : f32
    %v0 = arith.subf %scaled, %one : f32
    %v = arith.mulf %v0, %scale : f32
    memref.store %v, %host[%i] : memref<256xf32>
  }
  %a = gpu.alloc () : memref<256xf32>
  %b = gpu.alloc () : memref<256xf32>
  gpu.memcpy %a, %host : memref<256xf32>, memref<256xf32>
  tirx.launch @silu_kernel(%a, %b) : memref<256xf32>, memref<256xf32>
  %result = memref.alloc() : memref<256xf32>
  gpu.memcpy %result, %b : memref<256xf32>, memref<256xf32>
  %copy = memref.alloc() : memref<8xf32>
  %c8 = arith.constant 8 : index
  %cfirst = arith.constant 126 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %j = arith.addi %i, %cfirst : index
    %v = memref.load %result[%j] : memref<256xf32>
    memref.store %v, %copy[%i] : memref<8xf32>
  }
  %unranked = memref.cast %copy : memref<8xf32> to memref<*xf32>
  // silu(i/128 - 1) for i = 126..133 (float64 reference rounded to float32).
  // CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
  // CHECK-NEXT: [-0.00775147, -0.00389099, 0, 0.00392151, 0.00787353, 0.0118561, 0.0158691, 0.0199127]
  call @printMemrefF32(%unranked) : (memref<*xf32>) -> ()
  gpu.dealloc %a : memref<256xf32>
  gpu.dealloc %b : memref<256xf32>
  memref.dealloc %host : memref<256xf32>
  memref.dealloc %result : memref<256xf32>
  memref.dealloc %copy : memref<8xf32>
  return
}
