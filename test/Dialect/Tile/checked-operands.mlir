// RUN: tirx-opt %s -split-input-file -verify-diagnostics
// The register checks of a tile operand are remembered per context only
// when they pass (CheckedOperandCache.h): the same wrong operand in two
// kernels of one module is diagnosed at each, and a tile that passed in one
// execution domain is checked again in another.

!bad = !tirx.tensor<2x32x4x1xf32, local, #tirx.layout<S[(2, 32, 4) : (1@laneid, 2@laneid, 1)]>>
tirx.kernel @first() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !bad
  // expected-error @+1 {{operand #0 (d): element (0, 1, 0, 0) is owned by laneid=2 but scope cta executes it on thread 1 (warp 0, lane 1); the layout must map the group axes to the executing threads}}
  tile.apply "abs.f32" scope(cta) (%r, %r) : !bad, !bad
  tirx.return
}
tirx.kernel @second() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !bad
  // expected-error @+1 {{operand #0 (d): element (0, 1, 0, 0) is owned by laneid=2 but scope cta executes it on thread 1 (warp 0, lane 1); the layout must map the group axes to the executing threads}}
  tile.apply "abs.f32" scope(cta) (%r, %r) : !bad, !bad
  tirx.return
}

// -----

// The same tile at the same scope in blocks of 128 and 256 threads: owned by
// tx, it passes where warpgroup 0 is the whole block, and is checked again
// (the block is part of what the check read) where warpgroup 1 executes it.
!tx = !tirx.tensor<4x32x1xf32, local, #tirx.layout<S[(4, 32, 1) : (32@tx, 1@tx, 1)]>>
tirx.kernel @one_warpgroup() launch(grid = [1], block = [128]) {
  %r = tirx.alloc_local : !tx
  tile.apply "abs.f32" scope(warpgroup) (%r, %r) : !tx, !tx
  tirx.return
}
tirx.kernel @two_warpgroups() launch(grid = [1], block = [256]) {
  %r = tirx.alloc_local : !tx
  // expected-error @+1 {{operand #0 (d): element (0, 0, 0) is owned by tx=0 but scope warpgroup executes it on thread 128 (warp 4, lane 0); the layout must map the group axes to the executing threads}}
  tile.apply "abs.f32" scope(warpgroup) (%r, %r) : !tx, !tx
  tirx.return
}
