// lop3's truth table (an operand of kind `lut`, Families/Scalar.cpp): an
// immediate 0 to 255, which PTX encodes in the instruction.
// RUN: tirx-opt %s -split-input-file -verify-diagnostics

!words = !tirx.tensor<4xui32, local>
tirx.kernel @lut_out_of_range() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !words
  // expected-error @+1 {{operand #4 (immLut) of 'lop3.b32': a truth table of three inputs is 0 to 255 (one bit per combination of their bits), got 256}}
  tile.apply "lop3.b32" scope(thread) (%r, %r, %r, %r, 256 : i32) : !words, !words, !words, !words
  tirx.return
}

// -----

!words = !tirx.tensor<4xui32, local>
tirx.kernel @lut_not_immediate(%lut: i32) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !words
  // expected-error @+1 {{operand #4 (immLut) of 'lop3.b32': must be an immediate (0 to 255 : i32): PTX encodes the truth table in the instruction}}
  tile.apply "lop3.b32" scope(thread) (%r, %r, %r, %r, %lut) : !words, !words, !words, !words, i32
  tirx.return
}

// -----

!words = !tirx.tensor<4xui32, local>
tirx.kernel @prmt_unknown_mode() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !words
  // expected-error @+1 {{'prmt.b32.f8e': unknown modifier .f8e}}
  tile.apply "prmt.b32.f8e" scope(thread) (%r, %r, %r, %r) : !words, !words, !words, !words
  tirx.return
}
