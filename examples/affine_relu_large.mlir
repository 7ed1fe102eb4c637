// Affine-ReLU streamed over 2^26 floats (256 MiB): B = max(2*A + 1, 0).
//
// 16384 CTAs of 256 threads; each CTA handles 4096 consecutive floats as
// (8 warps, 32 lanes) x 4 repeats x a 4-float atom. Within a CTA's chunk,
// repeat r of warp w, lane l covers floats 1024r + 128w + 4l .. +3, so every
// repeat is one fully coalesced 16-byte access per thread. The global tensor
// is a row-major buffer described by a permuting layout; tirx.region picks
// the chunk of block %bx (base += 4096 * %bx elements, 16 KiB: the 16-byte
// alignment survives).

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
