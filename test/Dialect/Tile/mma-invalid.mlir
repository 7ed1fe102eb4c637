// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// Rejections of mma.sync (docs/collectives.md): operands must be laid out as
// the instruction's fragments, shaped as its atoms, typed as spelled.

#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>

// A laid out as the accumulator: its word (0, 1) is in lane 0, register 1.
tirx.kernel @a_as_accumulator() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<16x8xui32, local, #acc>
  %b = tirx.alloc_local : !tirx.tensor<8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
  // expected-error @+1 {{operand #1 (a): atom element 1 is held by laneid=0 in register 1, but the instruction's fragment S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)] puts it in lane 1, register 0}}
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x8xui32, local, #acc>,
        !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf32, local, #acc>
  tirx.return
}

// -----

#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#b = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>
#a_t = #tirx.layout<S[(2, 4, 8, 2) : (2, 1@laneid, 4@laneid, 1)]>
tirx.kernel @a_transposed() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<8x16xui32, local, #a_t>
  %b = tirx.alloc_local : !tirx.tensor<8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
  // expected-error @+1 {{operand #1 (a): the innermost dimensions must be the instruction's atom (16, 8), but the shape is (8, 16)}}
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<8x16xui32, local, #a_t>,
        !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf32, local, #acc>
  tirx.return
}

// -----

#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
// B's words in the order of A's (k first): word (0, 1) in lane 4.
#b_wrong = #tirx.layout<S[(8, 2, 4) : (1@laneid, 1, 8@laneid)]>
tirx.kernel @b_wrong_fragment() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<8x8xui32, local, #b_wrong>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
  // expected-error @+1 {{operand #2 (b): atom element 1 is held by laneid=8 in register 0, but the instruction's fragment S[(8, 2, 4) : (4@laneid, 1, 1@laneid)] puts it in lane 1, register 0}}
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x8xui32, local, #a>,
        !tirx.tensor<8x8xui32, local, #b_wrong>, !tirx.tensor<16x8xf32, local, #acc>
  tirx.return
}

// -----

#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>
tirx.kernel @mixed_types() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
  // expected-error @+1 {{'mma.sync.aligned.m16n8k16.row.col.f32.f16.bf16.f32': A and B must have one type, got .f16 and .bf16}}
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.f16.bf16.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x8xui32, local, #a>,
        !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf32, local, #acc>
  tirx.return
}

// -----

#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>
tirx.kernel @col_row() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
  // expected-error @+1 {{m16n8k16 takes A row-major and B column-major (.row.col), got .col.row}}
  tile.apply "mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x8xui32, local, #a>,
        !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf32, local, #acc>
  tirx.return
}

// -----

#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>
tirx.kernel @thread_scope() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
  // expected-error @+1 {{'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32' is a warp-collective instruction: the 32 lanes of a warp execute it together, so it needs scope warp, warpgroup or cta, not thread}}
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(thread) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x8xui32, local, #a>,
        !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf32, local, #acc>
  tirx.return
}

// -----

#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>
tirx.kernel @f16_accumulator_tile() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf16, local, #acc>
  // expected-error @+1 {{operand #0 (d) of 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32': needs f32, got 'f16'}}
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf16, local, #acc>, !tirx.tensor<16x8xui32, local, #a>,
        !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf16, local, #acc>
  tirx.return
}

// -----

#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>
module attributes {tirx.chip = "sm_75"} {
tirx.kernel @floor() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
  // expected-error @+1 {{'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32' requires sm_80 but the target is sm_75}}
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x8xui32, local, #a>,
        !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf32, local, #acc>
  tirx.return
}
}

// -----

#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>
// fp8 mma needs sm_89.
module attributes {tirx.chip = "sm_80", tirx.ptx = 84 : i32} {
  tirx.kernel @fp8_on_sm80() launch(grid = [1], block = [32]) {
    %a = tirx.alloc_local : !tirx.tensor<16x8xui32, local, #a>
    %b = tirx.alloc_local : !tirx.tensor<8x8xui32, local, #b>
    %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
    // expected-error @+1 {{'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32' requires sm_89 but the target is sm_80}}
    tile.apply "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32" scope(warp) (%c, %a, %b, %c)
        : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x8xui32, local, #a>,
          !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf32, local, #acc>
    tirx.return
  }
}

// -----

#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a8 = #tirx.layout<S[(2, 8, 4) : (1, 4@laneid, 1@laneid)]>
#b8 = #tirx.layout<S[(8, 4) : (4@laneid, 1@laneid)]>
// tf32's m16n8k8 A is 16 x 8 words (one tf32 each), not f16's 16 x 4.
tirx.kernel @tf32_with_f16_fragments() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<16x4xui32, local, #a8>
  %b = tirx.alloc_local : !tirx.tensor<8x4xui32, local, #b8>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
  // expected-error @+1 {{operand #1 (a): the innermost dimensions must be the instruction's atom (16, 8), but the shape is (16, 4)}}
  tile.apply "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x4xui32, local, #a8>,
        !tirx.tensor<8x4xui32, local, #b8>, !tirx.tensor<16x8xf32, local, #acc>
  tirx.return
}

// -----

// (M, N, K)-structured repeats: D (2, 3) gives M = 2, N = 3; A (2, 4) gives
// K = 4; B must then be (N, K) = (3, 4).
#acc = #tirx.layout<S[(2, 3, 2, 8, 4, 2) : (12, 4, 2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 4, 2, 8, 2, 4) : (16, 4, 1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(4, 3, 8, 2, 4) : (6, 2, 4@laneid, 1, 1@laneid)]>
tirx.kernel @mnk_b_transposed() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<2x4x16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<4x3x8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<2x3x16x8xf32, local, #acc>
  // expected-error @+1 {{operand #2 (b): mma's repeats are (batch..., N_repeat, K_repeat) = (3, 4) (M_repeat 2 and N_repeat 3 from D, K_repeat 4 from A), but its repeat shape is (4, 3)}}
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<2x3x16x8xf32, local, #acc>, !tirx.tensor<2x4x16x8xui32, local, #a>,
        !tirx.tensor<4x3x8x8xui32, local, #b>, !tirx.tensor<2x3x16x8xf32, local, #acc>
  tirx.return
}

// -----

// A's M_repeat must be D's.
#acc = #tirx.layout<S[(2, 3, 2, 8, 4, 2) : (12, 4, 2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(3, 1, 2, 8, 2, 4) : (4, 4, 1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(3, 1, 8, 2, 4) : (2, 2, 4@laneid, 1, 1@laneid)]>
tirx.kernel @mnk_a_rows() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<3x1x16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<3x1x8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<2x3x16x8xf32, local, #acc>
  // expected-error @+1 {{operand #1 (a): mma's repeats are (batch..., M_repeat, K_repeat) = (2, 1) (M_repeat 2 and N_repeat 3 from D, K_repeat 1 from A), but its repeat shape is (3, 1)}}
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<2x3x16x8xf32, local, #acc>, !tirx.tensor<3x1x16x8xui32, local, #a>,
        !tirx.tensor<3x1x8x8xui32, local, #b>, !tirx.tensor<2x3x16x8xf32, local, #acc>
  tirx.return
}

// -----

// C is D's shape: (M, N), not A's (M, K).
#acc = #tirx.layout<S[(2, 3, 2, 8, 4, 2) : (12, 4, 2, 4@laneid, 1@laneid, 1)]>
#acc2 = #tirx.layout<S[(2, 2, 2, 8, 4, 2) : (8, 4, 2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 2, 2, 8, 2, 4) : (8, 4, 1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(3, 2, 8, 2, 4) : (4, 2, 4@laneid, 1, 1@laneid)]>
tirx.kernel @mnk_c_shape() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<2x2x16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<3x2x8x8xui32, local, #b>
  %d = tirx.alloc_local : !tirx.tensor<2x3x16x8xf32, local, #acc>
  %c = tirx.alloc_local : !tirx.tensor<2x2x16x8xf32, local, #acc2>
  // expected-error @+1 {{operand #3 (c): mma's repeats are D's (batch..., M_repeat, N_repeat) = (2, 3) (M_repeat 2 and N_repeat 3 from D, K_repeat 2 from A), but its repeat shape is (2, 2)}}
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(warp) (%d, %a, %b, %c)
      : !tirx.tensor<2x3x16x8xf32, local, #acc>, !tirx.tensor<2x2x16x8xui32, local, #a>,
        !tirx.tensor<3x2x8x8xui32, local, #b>, !tirx.tensor<2x2x16x8xf32, local, #acc2>
  tirx.return
}
