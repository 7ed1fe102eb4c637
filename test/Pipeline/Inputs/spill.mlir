// 64 floats per thread (within the register budget): ptxas fits them in 72
// registers, and spills under max-registers=24 (ptxas-report.test).
// affine-ReLU over a (2, 32, 64) f32 tile: 64 threads x 64 consecutive floats.
#reg = #tirx.layout<S[(2, 32, 64) : (1@warpid, 1@laneid, 1)]>

tirx.kernel @affine_relu_r64(%A: !tirx.tensor<2x32x64xf32, global, align = 16>,
                         %B: !tirx.tensor<2x32x64xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %regs = tirx.alloc_local : !tirx.tensor<2x32x64xf32, local, #reg>
  %vregs = tirx.view %regs : !tirx.tensor<2x32x64xf32, local, #reg>
                          -> !tirx.tensor<2x32x16x4xf32, local, #reg>
  %vA = tirx.view %A : !tirx.tensor<2x32x64xf32, global, align = 16>
                    -> !tirx.tensor<2x32x16x4xf32, global, align = 16>
  %vB = tirx.view %B : !tirx.tensor<2x32x64xf32, global, align = 16>
                    -> !tirx.tensor<2x32x16x4xf32, global, align = 16>
  tile.apply "ld.global.v4.b32" scope(cta) (%vregs, %vA)
      : !tirx.tensor<2x32x16x4xf32, local, #reg>,
        !tirx.tensor<2x32x16x4xf32, global, align = 16>
  %s = tirx.view %regs : !tirx.tensor<2x32x64xf32, local, #reg>
                      -> !tirx.tensor<2x32x64x1xf32, local, #reg>
  tile.apply "fma.rn.f32" scope(cta) (%s, %s, 2.0 : f32, 1.0 : f32)
      : !tirx.tensor<2x32x64x1xf32, local, #reg>,
        !tirx.tensor<2x32x64x1xf32, local, #reg>
  tile.apply "max.f32" scope(cta) (%s, %s, 0.0 : f32)
      : !tirx.tensor<2x32x64x1xf32, local, #reg>,
        !tirx.tensor<2x32x64x1xf32, local, #reg>
  tile.apply "st.global.v4.b32" scope(cta) (%vB, %vregs)
      : !tirx.tensor<2x32x16x4xf32, global, align = 16>,
        !tirx.tensor<2x32x16x4xf32, local, #reg>
  tirx.return
}
