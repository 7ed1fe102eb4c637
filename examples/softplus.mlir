// softplus(x) = log(1 + exp(x)), with torch's threshold: x itself above 20
// (torch.nn.functional.softplus(x)). The branch is an scf.if; the helper
// @log1p_exp is another scalar function, inlined transitively.

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>

func.func private @log1p_exp(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %r = math.log1p %e : f32
  return %r : f32
}

func.func private @softplus(%x: f32) -> f32 {
  %threshold = arith.constant 20.0 : f32
  %large = arith.cmpf ogt, %x, %threshold : f32
  %result = scf.if %large -> (f32) {
    scf.yield %x : f32
  } else {
    %soft = func.call @log1p_exp(%x) : (f32) -> f32
    scf.yield %soft : f32
  }
  return %result : f32
}

tirx.kernel @softplus_kernel(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                             %B: !tirx.tensor<2x32x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %regs = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%regs, %A)
      : !tirx.tensor<2x32x4xf32, local, #reg>,
        !tirx.tensor<2x32x4xf32, global, align = 16>
  tile.ewise @softplus scope(cta) (%regs, %regs)
      : !tirx.tensor<2x32x4xf32, local, #reg>,
        !tirx.tensor<2x32x4xf32, local, #reg>
  tile.apply "st.global.v4.b32" scope(cta) (%B, %regs)
      : !tirx.tensor<2x32x4xf32, global, align = 16>,
        !tirx.tensor<2x32x4xf32, local, #reg>
  tirx.return
}
