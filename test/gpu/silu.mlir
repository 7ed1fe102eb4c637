// The seed's SiLU (precise math: libdevice expf) on the GPU: every element
// within 4 ulp of a float64 host reference, negative inputs included; the
// output starts as NaN poison.
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
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

// Distance in units of the last place between two float32 values (their
// bits mapped to integers ordered as the values).
func.func private @ulps(%x: f32, %y: f32) -> i32 {
  %c0 = arith.constant 0 : i32
  %mask = arith.constant 2147483647 : i32
  %xb = arith.bitcast %x : f32 to i32
  %yb = arith.bitcast %y : f32 to i32
  %xneg = arith.cmpi slt, %xb, %c0 : i32
  %yneg = arith.cmpi slt, %yb, %c0 : i32
  %xm = arith.andi %xb, %mask : i32
  %ym = arith.andi %yb, %mask : i32
  %xn = arith.subi %c0, %xm : i32
  %yn = arith.subi %c0, %ym : i32
  %xo = arith.select %xneg, %xn, %xb : i32
  %yo = arith.select %yneg, %yn, %yb : i32
  %d = arith.subi %xo, %yo : i32
  %nd = arith.subi %c0, %d : i32
  %dneg = arith.cmpi slt, %d, %c0 : i32
  %abs = arith.select %dneg, %nd, %d : i32
  return %abs : i32
}

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
  // B starts as poison (a NaN with a payload), so an element the kernel
  // never writes cannot pass for a result.
  %poison_bits = arith.constant 2143346349 : i32  // 0x7FC0DEAD
  %poison = arith.bitcast %poison_bits : i32 to f32
  %poisoned = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %cn step %c1 {
    memref.store %poison, %poisoned[%i] : memref<256xf32>
  }
  %a = gpu.alloc () : memref<256xf32>
  %b = gpu.alloc () : memref<256xf32>
  gpu.memcpy %a, %host : memref<256xf32>, memref<256xf32>
  gpu.memcpy %b, %poisoned : memref<256xf32>, memref<256xf32>
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
  // Every element against x / (1 + exp(-x)) computed on the host in float64
  // (the host's libm) and rounded to float32: [elements more than 4 ulp
  // away (NaN included), the largest distance in ulp, negative results].
  // Inputs below 0 (i < 128) give negative results: 128.
  %stats = memref.alloc() : memref<3xi32>
  %zero = arith.constant 0 : i32
  %four_ulp = arith.constant 4 : i32
  %one64 = arith.constant 1.0 : f64
  memref.store %zero, %stats[%c0] : memref<3xi32>
  memref.store %zero, %stats[%c1] : memref<3xi32>
  %c2 = arith.constant 2 : index
  memref.store %zero, %stats[%c2] : memref<3xi32>
  scf.for %i = %c0 to %cn step %c1 {
    %x = memref.load %host[%i] : memref<256xf32>
    %got = memref.load %result[%i] : memref<256xf32>
    %x64 = arith.extf %x : f32 to f64
    %neg64 = arith.negf %x64 : f64
    %exp64 = math.exp %neg64 : f64
    %den64 = arith.addf %one64, %exp64 : f64
    %want64 = arith.divf %x64, %den64 : f64
    %want = arith.truncf %want64 : f64 to f32
    %distance = func.call @ulps(%got, %want) : (f32, f32) -> i32
    %nan = arith.cmpf uno, %got, %got : f32
    %far = arith.cmpi ugt, %distance, %four_ulp : i32
    %bad = arith.ori %nan, %far : i1
    %badi = arith.extui %bad : i1 to i32
    %old = memref.load %stats[%c0] : memref<3xi32>
    %new = arith.addi %old, %badi : i32
    memref.store %new, %stats[%c0] : memref<3xi32>
    %worst = memref.load %stats[%c1] : memref<3xi32>
    %fine = arith.select %nan, %worst, %distance : i32
    %max = arith.maxui %worst, %fine : i32
    memref.store %max, %stats[%c1] : memref<3xi32>
    %fzero = arith.constant 0.0 : f32
    %negative = arith.cmpf olt, %got, %fzero : f32
    %negi = arith.extui %negative : i1 to i32
    %oldn = memref.load %stats[%c2] : memref<3xi32>
    %newn = arith.addi %oldn, %negi : i32
    memref.store %newn, %stats[%c2] : memref<3xi32>
  }
  %ustats = memref.cast %stats : memref<3xi32> to memref<*xi32>
  // CHECK: rank = 1 offset = 0 sizes = [3] strides = [1] data =
  // CHECK-NEXT: [0, {{[0-4]}}, 128]
  call @printMemrefI32(%ustats) : (memref<*xi32>) -> ()
  gpu.dealloc %a : memref<256xf32>
  gpu.dealloc %b : memref<256xf32>
  memref.dealloc %host : memref<256xf32>
  memref.dealloc %result : memref<256xf32>
  memref.dealloc %copy : memref<8xf32>
  memref.dealloc %poisoned : memref<256xf32>
  memref.dealloc %stats : memref<3xi32>
  return
}
