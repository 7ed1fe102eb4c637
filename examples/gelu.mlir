// GELU, tanh form, as a scalar function applied with tile.ewise:
//   gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
// (torch.nn.functional.gelu(x, approximate="tanh")). Same structure as
// silu.mlir: 64 threads, four inlined calls per thread. The inner sum is an
// explicit fma, as nvcc contracts it in torch's kernel: where 1 + tanh(..)
// cancels (x < -5), a separately rounded product and sum would change the
// tiny result by thousands of ulp.

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>

func.func private @gelu(%x: f32) -> f32 {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.7978845608028654 : f32
  %k1 = arith.constant 0.044715 : f32
  %x2 = arith.mulf %x, %x : f32
  %x3 = arith.mulf %x2, %x : f32
  %inner = math.fma %k1, %x3, %x : f32
  %scaled = arith.mulf %k0, %inner : f32
  %tanh = math.tanh %scaled : f32
  %onePlus = arith.addf %one, %tanh : f32
  %halfX = arith.mulf %half, %x : f32
  %result = arith.mulf %halfX, %onePlus : f32
  return %result : f32
}

tirx.kernel @gelu_kernel(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                         %B: !tirx.tensor<2x32x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %regs = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%regs, %A)
      : !tirx.tensor<2x32x4xf32, local, #reg>,
        !tirx.tensor<2x32x4xf32, global, align = 16>
  tile.ewise @gelu scope(cta) (%regs, %regs)
      : !tirx.tensor<2x32x4xf32, local, #reg>,
        !tirx.tensor<2x32x4xf32, local, #reg>
  tile.apply "st.global.v4.b32" scope(cta) (%B, %regs)
      : !tirx.tensor<2x32x4xf32, global, align = 16>,
        !tirx.tensor<2x32x4xf32, local, #reg>
  tirx.return
}
