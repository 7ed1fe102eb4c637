// Multi-CTA affine-ReLU over 2^26 floats: 16384 CTAs of 256 threads.
// REQUIRES: cuda-gpu, tirx-runner
// RUN: tirx-opt %s --tirx-to-llvm-host | tirx-runner --e main --entry-point-result=void | FileCheck %s

#chunk = #tirx.layout<S[(16384, 8, 32, 4, 4) : (4096, 128, 4, 1024, 1)]>
#reg = #tirx.layout<S[(8, 32, 16) : (1@warpid, 1@laneid, 1)]>

tirx.kernel @affine_relu_large(
    %A: !tirx.tensor<16384x8x32x4x4xf32, global, #chunk, align = 16>,
    %B: !tirx.tensor<16384x8x32x4x4xf32, global, #chunk, align = 16>)
    launch(grid = [16384], block = [256]) {
  %bx = tirx.block_idx x
  %a_chunk = tirx.region %A[%bx, 0, 0, 0, 0] [1, 8, 32, 4, 4]
      : !tirx.tensor<16384x8x32x4x4xf32, global, #chunk, align = 16>
  %b_chunk = tirx.region %B[%bx, 0, 0, 0, 0] [1, 8, 32, 4, 4]
      : !tirx.tensor<16384x8x32x4x4xf32, global, #chunk, align = 16>
  %a = tirx.view %a_chunk
      : !tirx.tensor<1x8x32x4x4xf32, global, #tirx.layout<S[(1, 8, 32, 4, 4) : (4096, 128, 4, 1024, 1)]>, align = 16>
     -> !tirx.tensor<8x32x4x4xf32, global, #tirx.layout<S[(1, 8, 32, 4, 4) : (4096, 128, 4, 1024, 1)]>, align = 16>
  %b = tirx.view %b_chunk
      : !tirx.tensor<1x8x32x4x4xf32, global, #tirx.layout<S[(1, 8, 32, 4, 4) : (4096, 128, 4, 1024, 1)]>, align = 16>
     -> !tirx.tensor<8x32x4x4xf32, global, #tirx.layout<S[(1, 8, 32, 4, 4) : (4096, 128, 4, 1024, 1)]>, align = 16>

  %regs = tirx.alloc_local : !tirx.tensor<8x32x4x4xf32, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%regs, %a)
      : !tirx.tensor<8x32x4x4xf32, local, #reg>,
        !tirx.tensor<8x32x4x4xf32, global, #tirx.layout<S[(1, 8, 32, 4, 4) : (4096, 128, 4, 1024, 1)]>, align = 16>
  %scalars = tirx.view %regs : !tirx.tensor<8x32x4x4xf32, local, #reg>
                            -> !tirx.tensor<8x32x16x1xf32, local, #reg>
  tile.apply "fma.rn.f32" scope(cta) (%scalars, %scalars, 2.0 : f32, 1.0 : f32)
      : !tirx.tensor<8x32x16x1xf32, local, #reg>,
        !tirx.tensor<8x32x16x1xf32, local, #reg>
  tile.apply "max.f32" scope(cta) (%scalars, %scalars, 0.0 : f32)
      : !tirx.tensor<8x32x16x1xf32, local, #reg>,
        !tirx.tensor<8x32x16x1xf32, local, #reg>
  tile.apply "st.global.v4.b32" scope(cta) (%b, %regs)
      : !tirx.tensor<8x32x4x4xf32, global, #tirx.layout<S[(1, 8, 32, 4, 4) : (4096, 128, 4, 1024, 1)]>, align = 16>,
        !tirx.tensor<8x32x4x4xf32, local, #reg>
  tirx.return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 67108864 : index
  %c128 = arith.constant 128.0 : f32
  %one = arith.constant 1.0 : f32
  // x[i] = i / 128 - 1
  %host = memref.alloc() : memref<67108864xf32>
  scf.for %i = %c0 to %cn step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %scaled = arith.divf %f, %c128 : f32
    %v = arith.subf %scaled, %one : f32
    memref.store %v, %host[%i] : memref<67108864xf32>
  }
  %a = gpu.alloc () : memref<67108864xf32>
  %b = gpu.alloc () : memref<67108864xf32>
  gpu.memcpy %a, %host : memref<67108864xf32>, memref<67108864xf32>
  tirx.launch @affine_relu_large(%a, %b) : memref<67108864xf32>, memref<67108864xf32>
  %result = memref.alloc() : memref<67108864xf32>
  gpu.memcpy %result, %b : memref<67108864xf32>, memref<67108864xf32>
  %copy = memref.alloc() : memref<8xf32>
  %c8 = arith.constant 8 : index
  %cfirst = arith.constant 4092 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %j = arith.addi %i, %cfirst : index
    %v = memref.load %result[%j] : memref<67108864xf32>
    memref.store %v, %copy[%i] : memref<8xf32>
  }
  %unranked = memref.cast %copy : memref<8xf32> to memref<*xf32>
  // max(2x + 1, 0) across the boundary of CTAs 0 and 1 (i = 4092..4099).
  // CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
  // CHECK-NEXT: [62.9375, 62.9531, 62.9688, 62.9844, 63, 63.0156, 63.0312, 63.0469]
  call @printMemrefF32(%unranked) : (memref<*xf32>) -> ()
  // Every element against max(2x + 1, 0) computed on the host (2x is exact,
  // so one rounding either way): no mismatch in any CTA.
  %count = memref.alloc() : memref<1xi32>
  %zero = arith.constant 0 : i32
  %two = arith.constant 2.0 : f32
  %fzero = arith.constant 0.0 : f32
  memref.store %zero, %count[%c0] : memref<1xi32>
  scf.for %i = %c0 to %cn step %c1 {
    %x = memref.load %host[%i] : memref<67108864xf32>
    %got = memref.load %result[%i] : memref<67108864xf32>
    %x2 = arith.mulf %x, %two : f32
    %y = arith.addf %x2, %one : f32
    %want = arith.maxnumf %y, %fzero : f32
    %bad = arith.cmpf une, %got, %want : f32
    %badi = arith.extui %bad : i1 to i32
    %old = memref.load %count[%c0] : memref<1xi32>
    %new = arith.addi %old, %badi : i32
    memref.store %new, %count[%c0] : memref<1xi32>
  }
  %ucount = memref.cast %count : memref<1xi32> to memref<*xi32>
  // CHECK: rank = 1 offset = 0 sizes = [1] strides = [1] data =
  // CHECK-NEXT: [0]
  call @printMemrefI32(%ucount) : (memref<*xi32>) -> ()
  gpu.dealloc %a : memref<67108864xf32>
  gpu.dealloc %b : memref<67108864xf32>
  memref.dealloc %host : memref<67108864xf32>
  memref.dealloc %result : memref<67108864xf32>
  memref.dealloc %copy : memref<8xf32>
  memref.dealloc %count : memref<1xi32>
  return
}
