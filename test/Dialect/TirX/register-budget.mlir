// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels

// The register budget (docs/registers.md): the register tiles live at each
// allocation, in 32-bit registers per thread, against min(255, 65536 /
// threads rounded to warps and to units of 8) less a margin of 16.

// Fits: the affine-ReLU tile is 4 registers per thread.
tirx.kernel @fits(%A: !tirx.tensor<2x32x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
  tirx.return
}

// -----

// Exactly at the limit: 255 - 16 = 239 registers, in one tile or two.
tirx.kernel @at_limit() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<239xf32, local>
  tirx.return
}
tirx.kernel @at_limit_two() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<200xf32, local>
  %s = tirx.alloc_local : !tirx.tensor<39xi32, local>
  tirx.return
}

// -----

// One register over the per-thread limit.
tirx.kernel @over_by_one() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.alloc_local' op register tiles need 240 32-bit registers per thread here (this tile 240), over the budget of 239: 255 registers per thread, less 16 kept for addresses and indices}}
  %r = tirx.alloc_local : !tirx.tensor<240xf32, local>
  tirx.return
}

// -----

// The error is at the allocation that crosses the limit.
tirx.kernel @second_crosses() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<200xf32, local>
  // expected-error @+1 {{register tiles need 240 32-bit registers per thread here (this tile 40), over the budget of 239}}
  %s = tirx.alloc_local : !tirx.tensor<40xf32, local>
  tirx.return
}

// -----

// The issue's case: 4096 registers per thread (ptxas spilled 24,932 bytes).
tirx.kernel @huge(%A: !tirx.tensor<32x4096xf32, global, align = 16>)
    launch(grid = [1], block = [32]) {
  // expected-error @+1 {{register tiles need 4096 32-bit registers per thread here (this tile 4096), over the budget of 239: 255 registers per thread}}
  %r = tirx.alloc_local : !tirx.tensor<32x4096xf32, local, #tirx.layout<S[(32, 4096) : (1@laneid, 1)]>>
  tirx.return
}

// -----

// The per-thread storage counts, not the tile: 64 x 32 x 4 over 32 lanes is
// 256 slots per thread.
tirx.kernel @per_thread() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{register tiles need 256 32-bit registers per thread here (this tile 256), over the budget of 239}}
  %r = tirx.alloc_local : !tirx.tensor<64x32x4xf32, local, #tirx.layout<S[(64, 32, 4) : (4, 1@laneid, 1)]>>
  tirx.return
}

// -----

// 64-bit elements take two registers; 16- and 8-bit ones one each.
tirx.kernel @f64() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{register tiles need 240 32-bit registers per thread here (this tile 240), over the budget of 239}}
  %r = tirx.alloc_local : !tirx.tensor<120xf64, local>
  tirx.return
}

// -----

tirx.kernel @f16_at_limit() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<239xf16, local>
  tirx.return
}
tirx.kernel @i8_at_limit() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<239xi8, local>
  tirx.return
}

// -----

tirx.kernel @f16_over() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{register tiles need 240 32-bit registers per thread here (this tile 240), over the budget of 239}}
  %r = tirx.alloc_local : !tirx.tensor<240xf16, local>
  tirx.return
}

// -----

// A block of 1024 threads leaves 65536 / 1024 = 64 registers per thread:
// 48 for tiles.
tirx.kernel @large_block_at_limit() launch(grid = [1], block = [1024]) {
  %r = tirx.alloc_local : !tirx.tensor<48xf32, local>
  tirx.return
}

// -----

tirx.kernel @large_block_over() launch(grid = [1], block = [32, 32]) {
  // expected-error @+1 {{'tirx.alloc_local' op register tiles need 49 32-bit registers per thread here (this tile 49), over the budget of 48: the register file's 65536 registers over a block of 1024 threads leave 64 per thread, less 16 kept for addresses and indices}}
  %r = tirx.alloc_local : !tirx.tensor<49xf32, local>
  tirx.return
}

// -----

// 320 threads = 10 warps: 204 registers per thread, 200 in units of 8; 184
// for tiles. 300 threads round up to the same 10 warps.
tirx.kernel @granularity_at_limit() launch(grid = [1], block = [300]) {
  %r = tirx.alloc_local : !tirx.tensor<184xf32, local>
  tirx.return
}

// -----

tirx.kernel @granularity_over() launch(grid = [1], block = [300]) {
  // expected-error @+1 {{register tiles need 185 32-bit registers per thread here (this tile 185), over the budget of 184: the register file's 65536 registers over a block of 300 threads leave 200 per thread}}
  %r = tirx.alloc_local : !tirx.tensor<185xf32, local>
  tirx.return
}

// -----

// Liveness: a tile lives until the end of its block, so the bodies of two
// sibling loops and the branches of an scf.if do not add up.
tirx.kernel @disjoint(%p: i1) launch(grid = [1], block = [32]) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = tirx.alloc_local : !tirx.tensor<39xf32, local>
  scf.for %i = %c0 to %c4 step %c1 {
    %s = tirx.alloc_local : !tirx.tensor<200xf32, local>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %s = tirx.alloc_local : !tirx.tensor<200xf32, local>
  }
  scf.if %p {
    %s = tirx.alloc_local : !tirx.tensor<200xf32, local>
  } else {
    %s = tirx.alloc_local : !tirx.tensor<200xf32, local>
  }
  tirx.return
}

// -----

// ... but a tile allocated before a loop is live inside it.
tirx.kernel @outer_live_in_loop() launch(grid = [1], block = [32]) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = tirx.alloc_local : !tirx.tensor<100xf32, local>
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @+1 {{register tiles need 240 32-bit registers per thread here (this tile 140), over the budget of 239}}
    %s = tirx.alloc_local : !tirx.tensor<140xf32, local>
  }
  tirx.return
}

// -----

// ... and so is one allocated in an enclosing scf.if branch.
tirx.kernel @nested(%p: i1) launch(grid = [1], block = [32]) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.if %p {
    %r = tirx.alloc_local : !tirx.tensor<120xf32, local>
    scf.for %i = %c0 to %c4 step %c1 {
      %s = tirx.alloc_local : !tirx.tensor<119xf32, local>
    }
    scf.for %i = %c0 to %c4 step %c1 {
      // expected-error @+1 {{register tiles need 240 32-bit registers per thread here (this tile 120), over the budget of 239}}
      %s = tirx.alloc_local : !tirx.tensor<120xf32, local>
    }
  }
  tirx.return
}

// -----

// setmaxnreg: after a warpgroup's setmaxnreg.inc 232, its tiles may take
// 232 - 16 registers, over the 168 - 16 of a 384-thread block; in the other
// branch, after setmaxnreg.dec 40, only 40 - 16.
module attributes {tirx.chip = "sm_90a", tirx.ptx = 83 : i32} {
tirx.kernel @setmaxnreg_fits() launch(grid = [1], block = [384]) {
  %tid = tirx.thread_idx x
  %c128 = arith.constant 128 : index
  %wg = arith.divui %tid, %c128 : index
  %c1 = arith.constant 1 : index
  %consumer = arith.cmpi uge, %wg, %c1 : index
  scf.if %consumer {
    tile.apply "setmaxnreg.inc.sync.aligned.u32" scope(warpgroup) (232 : i32)
    %acc = tirx.alloc_local : !tirx.tensor<200xf32, local>
    scf.for %i = %c1 to %c128 step %c1 {
      %more = tirx.alloc_local : !tirx.tensor<16xf32, local>
    }
  } else {
    tile.apply "setmaxnreg.dec.sync.aligned.u32" scope(warpgroup) (40 : i32)
    %few = tirx.alloc_local : !tirx.tensor<24xf32, local>
  }
  tirx.return
}
}

// -----

module attributes {tirx.chip = "sm_90a", tirx.ptx = 83 : i32} {
tirx.kernel @setmaxnreg_over() launch(grid = [1], block = [384]) {
  %tid = tirx.thread_idx x
  %c128 = arith.constant 128 : index
  %wg = arith.divui %tid, %c128 : index
  %c1 = arith.constant 1 : index
  %consumer = arith.cmpi uge, %wg, %c1 : index
  scf.if %consumer {
    // expected-note @+1 {{the setmaxnreg}}
    tile.apply "setmaxnreg.inc.sync.aligned.u32" scope(warpgroup) (232 : i32)
    %acc = tirx.alloc_local : !tirx.tensor<200xf32, local>
    // expected-error @+1 {{register tiles need 217 32-bit registers per thread here (this tile 17), over the budget of 216: setmaxnreg leaves 232 per thread, less 16 kept for addresses and indices}}
    %more = tirx.alloc_local : !tirx.tensor<17xf32, local>
  }
  tirx.return
}
}

// -----

module attributes {tirx.chip = "sm_90a", tirx.ptx = 83 : i32} {
tirx.kernel @setmaxnreg_dec_over() launch(grid = [1], block = [256]) {
  // expected-note @+1 {{the setmaxnreg}}
  tile.apply "setmaxnreg.dec.sync.aligned.u32" scope(warpgroup) (40 : i32)
  // expected-error @+1 {{register tiles need 25 32-bit registers per thread here (this tile 25), over the budget of 24: setmaxnreg leaves 40 per thread, less 16 kept for addresses and indices}}
  %few = tirx.alloc_local : !tirx.tensor<25xf32, local>
  tirx.return
}
}
