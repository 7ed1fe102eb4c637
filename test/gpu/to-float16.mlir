// The seed's to-float16: round-to-nearest-even conversion on the GPU; every
// element, bit for bit, against the host's conversion, negative inputs
// included; the output starts as NaN poison.
// REQUIRES: cuda-gpu, tirx-runner
// RUN: tirx-opt %s --tirx-to-llvm-host | tirx-runner --e main --entry-point-result=void | FileCheck %s

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>

tirx.kernel @to_float16(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                        %B: !tirx.tensor<2x32x4xf16, global, align = 8>)
    launch(grid = [1], block = [64]) {
  %regs = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  %converted = tirx.alloc_local : !tirx.tensor<2x32x4xf16, local, #reg>
  %words = tirx.view %converted : !tirx.tensor<2x32x4xf16, local, #reg>
                               -> !tirx.tensor<2x32x4xui16, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%regs, %A)
      : !tirx.tensor<2x32x4xf32, local, #reg>,
        !tirx.tensor<2x32x4xf32, global, align = 16>
  %word_scalars = tirx.view %words : !tirx.tensor<2x32x4xui16, local, #reg>
                                  -> !tirx.tensor<2x32x4x1xui16, local, #reg>
  %reg_scalars = tirx.view %regs : !tirx.tensor<2x32x4xf32, local, #reg>
                                -> !tirx.tensor<2x32x4x1xf32, local, #reg>
  tile.apply "cvt.rn.f16.f32" scope(cta) (%word_scalars, %reg_scalars)
      : !tirx.tensor<2x32x4x1xui16, local, #reg>,
        !tirx.tensor<2x32x4x1xf32, local, #reg>
  %B_words = tirx.view %B : !tirx.tensor<2x32x4xf16, global, align = 8>
                         -> !tirx.tensor<2x32x4xui16, global, align = 8>
  tile.apply "st.global.v4.b16" scope(cta) (%B_words, %words)
      : !tirx.tensor<2x32x4xui16, global, align = 8>,
        !tirx.tensor<2x32x4xui16, local, #reg>
  tirx.return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 256 : index
  %c128 = arith.constant 128.0 : f32
  %scale = arith.constant 3.3 : f32
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
  // B starts as poison (a float16 NaN with a payload), so an element the
  // kernel never writes cannot pass for a result.
  %poison_bits = arith.constant 32346 : i16  // 0x7E5A
  %poison = arith.bitcast %poison_bits : i16 to f16
  %poisoned = memref.alloc() : memref<256xf16>
  scf.for %i = %c0 to %cn step %c1 {
    memref.store %poison, %poisoned[%i] : memref<256xf16>
  }
  %a = gpu.alloc () : memref<256xf32>
  %b = gpu.alloc () : memref<256xf16>
  gpu.memcpy %a, %host : memref<256xf32>, memref<256xf32>
  gpu.memcpy %b, %poisoned : memref<256xf16>, memref<256xf16>
  tirx.launch @to_float16(%a, %b) : memref<256xf32>, memref<256xf16>
  %result = memref.alloc() : memref<256xf16>
  gpu.memcpy %result, %b : memref<256xf16>, memref<256xf16>
  %copy = memref.alloc() : memref<8xf32>
  %c8 = arith.constant 8 : index
  %cfirst = arith.constant 126 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %j = arith.addi %i, %cfirst : index
    %v = memref.load %result[%j] : memref<256xf16>
    %w = arith.extf %v : f16 to f32
    memref.store %w, %copy[%i] : memref<8xf32>
  }
  %unranked = memref.cast %copy : memref<8xf32> to memref<*xf32>
  // half(3.3 * (i/128 - 1)) for i = 126..133 (numpy reference).
  // CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
  // CHECK-NEXT: [-0.0515747, -0.0257874, 0, 0.0257874, 0.0515747, 0.0773315, 0.103149, 0.128906]
  call @printMemrefF32(%unranked) : (memref<*xf32>) -> ()
  // Every element against the host's round-to-nearest-even conversion
  // (arith.truncf), bit for bit: [mismatches, negative results]. Inputs
  // below 0 (i < 128) give negative halves: 128.
  %counts = memref.alloc() : memref<2xi32>
  %zero = arith.constant 0 : i32
  %sign = arith.constant 0 : i16
  memref.store %zero, %counts[%c0] : memref<2xi32>
  memref.store %zero, %counts[%c1] : memref<2xi32>
  scf.for %i = %c0 to %cn step %c1 {
    %x = memref.load %host[%i] : memref<256xf32>
    %got = memref.load %result[%i] : memref<256xf16>
    %want = arith.truncf %x : f32 to f16
    %got_bits = arith.bitcast %got : f16 to i16
    %want_bits = arith.bitcast %want : f16 to i16
    %bad = arith.cmpi ne, %got_bits, %want_bits : i16
    %badi = arith.extui %bad : i1 to i32
    %old = memref.load %counts[%c0] : memref<2xi32>
    %new = arith.addi %old, %badi : i32
    memref.store %new, %counts[%c0] : memref<2xi32>
    %negative = arith.cmpi slt, %got_bits, %sign : i16
    %negi = arith.extui %negative : i1 to i32
    %oldn = memref.load %counts[%c1] : memref<2xi32>
    %newn = arith.addi %oldn, %negi : i32
    memref.store %newn, %counts[%c1] : memref<2xi32>
  }
  %ucounts = memref.cast %counts : memref<2xi32> to memref<*xi32>
  // CHECK: rank = 1 offset = 0 sizes = [2] strides = [1] data =
  // CHECK-NEXT: [0, 128]
  call @printMemrefI32(%ucounts) : (memref<*xi32>) -> ()
  gpu.dealloc %a : memref<256xf32>
  gpu.dealloc %b : memref<256xf16>
  memref.dealloc %host : memref<256xf32>
  memref.dealloc %result : memref<256xf16>
  memref.dealloc %copy : memref<8xf32>
  memref.dealloc %poisoned : memref<256xf16>
  memref.dealloc %counts : memref<2xi32>
  return
}
