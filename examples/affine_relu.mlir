// The seed's affine transformation followed by ReLU: B = max(2*A + 1, 0).
// 64 threads (2 warps x 32 lanes) each hold 4 consecutive floats.
//
//   tirx-opt examples/affine_relu.mlir --tirx-print-layouts

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>

tirx.kernel @affine_relu(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                         %B: !tirx.tensor<2x32x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %regs = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  // group (2 warps, 32 lanes) x atom (4): one 16-byte load per thread.
  tile.apply "ld.global.v4.b32" scope(cta) (%regs, %A)
      : !tirx.tensor<2x32x4xf32, local, #reg>,
        !tirx.tensor<2x32x4xf32, global, align = 16>
  // The same registers as 4 repeats of a one-register atom.
  %scalars = tirx.view %regs : !tirx.tensor<2x32x4xf32, local, #reg>
                            -> !tirx.tensor<2x32x4x1xf32, local, #reg>
  tile.apply "fma.rn.f32" scope(cta) (%scalars, %scalars, 2.0 : f32, 1.0 : f32)
      : !tirx.tensor<2x32x4x1xf32, local, #reg>,
        !tirx.tensor<2x32x4x1xf32, local, #reg>
  tile.apply "max.f32" scope(cta) (%scalars, %scalars, 0.0 : f32)
      : !tirx.tensor<2x32x4x1xf32, local, #reg>,
        !tirx.tensor<2x32x4x1xf32, local, #reg>
  tile.apply "st.global.v4.b32" scope(cta) (%B, %regs)
      : !tirx.tensor<2x32x4xf32, global, align = 16>,
        !tirx.tensor<2x32x4xf32, local, #reg>
  tirx.return
}
