// The seed's numeric conversion: B = float16(A), with round-to-nearest-even.
// cvt.rn.f16.f32 writes 16-bit registers, exposed through a ui16 view of
// the float16 tile; the store writes four 16-bit words per thread.

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
