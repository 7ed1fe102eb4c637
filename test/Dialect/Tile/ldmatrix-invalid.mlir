// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// Rejections of ldmatrix / stmatrix (docs/matrix.md): the registers must be
// laid out as the instruction's fragment, and each shared row must be four
// contiguous words at a 16-byte-aligned address.

#ldm4 = #tirx.layout<S[(4, 8, 4) : (1, 4@laneid, 1@laneid)]>
#a = #tirx.layout<S[(4, 8, 4) : (1, 1@laneid, 8@laneid)]>
tirx.kernel @wrong_register_fragment() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<4x8x4xui32, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<4x8x4xui32, local, #a>
  // expected-error @+1 {{operand #0 (d): atom element 1 is held by laneid=8 in register 0, but the instruction's fragment S[(4, 8, 4) : (1, 4@laneid, 1@laneid)] puts it in lane 1, register 0}}
  tile.apply "ldmatrix.sync.aligned.m8n8.x4.shared.b16" scope(warp) (%r, %s)
      : !tirx.tensor<4x8x4xui32, local, #a>, !tirx.tensor<4x8x4xui32, shared, align = 16>
  tirx.return
}

// -----

#ldm1 = #tirx.layout<S[(1, 8, 4) : (1, 4@laneid, 1@laneid)]>
// Rows of 6 words: row 1 starts at byte 24.
#rows = #tirx.layout<S[(1, 8, 4) : (32, 6, 1)]>
tirx.kernel @misaligned_rows() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<64xui32, shared, align = 16>
  %v = tirx.reinterpret %s : !tirx.tensor<64xui32, shared, align = 16> -> !tirx.tensor<1x8x4xui32, shared, #rows, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<1x8x4xui32, local, #ldm1>
  // expected-error @+1 {{operand #1 (addr): element (0, 1, 0) (row of lane 1) starts at byte 24, which is not aligned to the 16-byte row}}
  tile.apply "ldmatrix.sync.aligned.m8n8.x1.shared.b16" scope(warp) (%r, %v)
      : !tirx.tensor<1x8x4xui32, local, #ldm1>, !tirx.tensor<1x8x4xui32, shared, #rows, align = 16>
  tirx.return
}

// -----

#ldm1 = #tirx.layout<S[(1, 8, 4) : (1, 4@laneid, 1@laneid)]>
// Words two apart: a row is not contiguous.
#rows = #tirx.layout<S[(1, 8, 4) : (64, 8, 2)]>
tirx.kernel @row_not_contiguous() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<64xui32, shared, align = 16>
  %v = tirx.reinterpret %s : !tirx.tensor<64xui32, shared, align = 16> -> !tirx.tensor<1x8x4xui32, shared, #rows, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<1x8x4xui32, local, #ldm1>
  // expected-error @+1 {{operand #1 (addr): element (0, 0, 1) (row of lane 0) is at element offset 2, but its row must be contiguous: expected 1}}
  tile.apply "ldmatrix.sync.aligned.m8n8.x1.shared.b16" scope(warp) (%r, %v)
      : !tirx.tensor<1x8x4xui32, local, #ldm1>, !tirx.tensor<1x8x4xui32, shared, #rows, align = 16>
  tirx.return
}

// -----

#ldm1 = #tirx.layout<S[(1, 8, 4) : (1, 4@laneid, 1@laneid)]>
tirx.kernel @under_aligned_tensor() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<1x8x4xui32, shared, align = 4>
  %r = tirx.alloc_local : !tirx.tensor<1x8x4xui32, local, #ldm1>
  // expected-error @+1 {{operand #1 (addr): the tensor is aligned to 4 byte(s) but each row address must be 16-byte aligned; declare align = 16 (or more) on the tensor}}
  tile.apply "ldmatrix.sync.aligned.m8n8.x1.shared.b16" scope(warp) (%r, %s)
      : !tirx.tensor<1x8x4xui32, local, #ldm1>, !tirx.tensor<1x8x4xui32, shared, align = 4>
  tirx.return
}

// -----

#ldm1 = #tirx.layout<S[(1, 8, 4) : (1, 4@laneid, 1@laneid)]>
tirx.kernel @trans_of_bytes() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<1x8x4xui32, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<1x8x4xui32, local, #ldm1>
  // expected-error @+1 {{'ldmatrix.sync.aligned.m8n8.x1.trans.shared.b8': .m8n8 moves 16-bit elements (.trans swaps them): the type must be .b16, got .b8}}
  tile.apply "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b8" scope(warp) (%r, %s)
      : !tirx.tensor<1x8x4xui32, local, #ldm1>, !tirx.tensor<1x8x4xui32, shared, align = 16>
  tirx.return
}

// -----

#ldm1 = #tirx.layout<S[(1, 8, 4) : (1, 4@laneid, 1@laneid)]>
tirx.kernel @halves_not_words() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<1x8x8xbf16, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<1x8x4xui32, local, #ldm1>
  // expected-error @+1 {{operand #1 (addr) of 'ldmatrix.sync.aligned.m8n8.x1.shared.b16': needs a 32-bit type, got 'bf16'}}
  tile.apply "ldmatrix.sync.aligned.m8n8.x1.shared.b16" scope(warp) (%r, %s)
      : !tirx.tensor<1x8x4xui32, local, #ldm1>, !tirx.tensor<1x8x8xbf16, shared, align = 16>
  tirx.return
}

// -----

#ldm1 = #tirx.layout<S[(1, 8, 4) : (1, 4@laneid, 1@laneid)]>
tirx.kernel @global_rows(%g: !tirx.tensor<1x8x4xui32, global, align = 16>) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1x8x4xui32, local, #ldm1>
  // expected-error @+1 {{operand #1 (addr) of 'ldmatrix.sync.aligned.m8n8.x1.shared.b16': accesses shared memory, but the tensor is global}}
  tile.apply "ldmatrix.sync.aligned.m8n8.x1.shared.b16" scope(warp) (%r, %g)
      : !tirx.tensor<1x8x4xui32, local, #ldm1>, !tirx.tensor<1x8x4xui32, global, align = 16>
  tirx.return
}

// -----

#ldm1 = #tirx.layout<S[(1, 8, 4) : (1, 4@laneid, 1@laneid)]>
tirx.kernel @thread_scope() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<1x8x4xui32, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<1x8x4xui32, local, #ldm1>
  // expected-error @+1 {{'ldmatrix.sync.aligned.m8n8.x1.shared.b16' is a warp-collective instruction: the 32 lanes of a warp execute it together, so it needs scope warp, warpgroup or cta, not thread}}
  tile.apply "ldmatrix.sync.aligned.m8n8.x1.shared.b16" scope(thread) (%r, %s)
      : !tirx.tensor<1x8x4xui32, local, #ldm1>, !tirx.tensor<1x8x4xui32, shared, align = 16>
  tirx.return
}

// -----

#ldm2 = #tirx.layout<S[(2, 8, 4) : (1, 4@laneid, 1@laneid)]>
// Both matrices at the same rows: stmatrix would store twice to each word.
#rows = #tirx.layout<S[(2, 8, 4) : (0, 4, 1)]>
tirx.kernel @stmatrix_overlap() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32xui32, shared, align = 16>
  %v = tirx.reinterpret %s : !tirx.tensor<32xui32, shared, align = 16> -> !tirx.tensor<2x8x4xui32, shared, #rows, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<2x8x4xui32, local, #ldm2>
  // expected-error @+1 {{operand #0 (addr): elements (0, 0, 0) and (1, 0, 0) are stored to the same element offset 0; destinations must be distinct}}
  tile.apply "stmatrix.sync.aligned.m8n8.x2.shared.b16" scope(warp) (%v, %r)
      : !tirx.tensor<2x8x4xui32, shared, #rows, align = 16>, !tirx.tensor<2x8x4xui32, local, #ldm2>
  tirx.return
}

// -----

#ldm1 = #tirx.layout<S[(1, 8, 4) : (1, 4@laneid, 1@laneid)]>
module attributes {tirx.chip = "sm_80"} {
  tirx.kernel @stmatrix_on_sm80() launch(grid = [1], block = [32]) {
    %s = tirx.alloc_shared : !tirx.tensor<1x8x4xui32, shared, align = 16>
    %r = tirx.alloc_local : !tirx.tensor<1x8x4xui32, local, #ldm1>
    // expected-error @+1 {{'stmatrix.sync.aligned.m8n8.x1.shared.b16' requires sm_90 but the target is sm_80}}
    tile.apply "stmatrix.sync.aligned.m8n8.x1.shared.b16" scope(warp) (%s, %r)
        : !tirx.tensor<1x8x4xui32, shared, align = 16>, !tirx.tensor<1x8x4xui32, local, #ldm1>
    tirx.return
  }
}

// -----

#ldm1 = #tirx.layout<S[(1, 8, 4) : (1, 4@laneid, 1@laneid)]>
tirx.kernel @sm100_shape() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<1x8x4xui32, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<1x8x4xui32, local, #ldm1>
  // expected-error @+1 {{'ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8': .m16n16 (8-bit matrices) is an sm_100a form, which TirX does not target; use .m8n8 with .b16}}
  tile.apply "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8" scope(warp) (%r, %s)
      : !tirx.tensor<1x8x4xui32, local, #ldm1>, !tirx.tensor<1x8x4xui32, shared, align = 16>
  tirx.return
}

// -----

#ldm4 = #tirx.layout<S[(4, 8, 4) : (1, 4@laneid, 1@laneid)]>
tirx.kernel @x2_atom_for_x4() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<4x8x4xui32, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<4x8x4xui32, local, #ldm4>
  // expected-error @+1 {{operand #0 (d): the innermost dimensions must be the instruction's atom (2, 8, 4), but the shape is (4, 8, 4)}}
  tile.apply "ldmatrix.sync.aligned.m8n8.x2.shared.b16" scope(warp) (%r, %s)
      : !tirx.tensor<4x8x4xui32, local, #ldm4>, !tirx.tensor<4x8x4xui32, shared, align = 16>
  tirx.return
}
