// The seed's SiLU as a scalar function, applied with tile.ewise to the
// affine-ReLU register tile: B = A / (1 + exp(-A)). ewise sees the
// (2, 32, 4) tile as group (2, 32) x 4 repeats: four inlined calls per thread.

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
