// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// Rejections of cp.async and its completion (docs/async-copies.md): the copy
// size is an immediate the atoms match on both sides, naturally aligned;
// the destination is shared memory, the source global.

tirx.kernel @chunk_not_immediate(%g: !tirx.tensor<32x4xf32, global, align = 16>, %n: i32) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x4xf32, shared, align = 16>
  // expected-error @+1 {{operand #2 (size) of 'cp.async.ca.shared.global': the copy size must be an immediate (4, 8 or 16 : i32)}}
  tile.apply "cp.async.ca.shared.global" scope(warp) (%s, %g, %n)
      : !tirx.tensor<32x4xf32, shared, align = 16>, !tirx.tensor<32x4xf32, global, align = 16>, i32
  tirx.return
}

// -----

tirx.kernel @chunk_of_12(%g: !tirx.tensor<32x3xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x3xf32, shared, align = 16>
  // expected-error @+1 {{operand #2 (size) of 'cp.async.ca.shared.global': cp.async copies 4, 8 or 16 bytes, got 12}}
  tile.apply "cp.async.ca.shared.global" scope(warp) (%s, %g, 12 : i32)
      : !tirx.tensor<32x3xf32, shared, align = 16>, !tirx.tensor<32x3xf32, global, align = 16>
  tirx.return
}

// -----

tirx.kernel @cg_of_8(%g: !tirx.tensor<32x2xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x2xf32, shared, align = 16>
  // expected-error @+1 {{operand #2 (size) of 'cp.async.cg.shared.global': a .cg copy caches in L2 only and moves 16 bytes; got 8 (use .ca for 4 or 8 bytes)}}
  tile.apply "cp.async.cg.shared.global" scope(warp) (%s, %g, 8 : i32)
      : !tirx.tensor<32x2xf32, shared, align = 16>, !tirx.tensor<32x2xf32, global, align = 16>
  tirx.return
}

// -----

// 16 bytes are 8 halves: an innermost dimension of 4 halves is not the chunk.
tirx.kernel @atom_not_chunk(%g: !tirx.tensor<32x4xf16, global, align = 16>) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x4xf16, shared, align = 16>
  // expected-error @+1 {{operand #0 (dst): the innermost dimension must be the instruction's atom of 8 element(s), but the shape is (32, 4)}}
  tile.apply "cp.async.cg.shared.global" scope(warp) (%s, %g, 16 : i32)
      : !tirx.tensor<32x4xf16, shared, align = 16>, !tirx.tensor<32x4xf16, global, align = 16>
  tirx.return
}

// -----

tirx.kernel @chunk_smaller_than_element(%g: !tirx.tensor<32x1xf64, global, align = 16>) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x1xf64, shared, align = 16>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.ca.shared.global': a 4-byte chunk is not a whole number of 'f64' elements}}
  tile.apply "cp.async.ca.shared.global" scope(warp) (%s, %g, 4 : i32)
      : !tirx.tensor<32x1xf64, shared, align = 16>, !tirx.tensor<32x1xf64, global, align = 16>
  tirx.return
}

// -----

// Rows of 5 floats: lane 1's 16-byte chunk starts at byte 20.
tirx.kernel @not_naturally_aligned(%g: !tirx.tensor<32x4xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x5xf32, shared, align = 16>
  %r = tirx.region %s[0, 0] [32, 4] : !tirx.tensor<32x5xf32, shared, align = 16>
  // expected-error @+1 {{operand #0 (dst): the atom at (1, 0) starts at element offset 5 (byte 20), which is not aligned to the 16-byte vector}}
  tile.apply "cp.async.cg.shared.global" scope(warp) (%r, %g, 16 : i32)
      : !tirx.tensor<32x4xf32, shared, #tirx.layout<S[(32, 4) : (5, 1)]>, align = 16>, !tirx.tensor<32x4xf32, global, align = 16>
  tirx.return
}

// -----

tirx.kernel @source_under_aligned(%g: !tirx.tensor<32x4xf32, global, align = 4>) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x4xf32, shared, align = 16>
  // expected-error @+1 {{operand #1 (src): the tensor is aligned to 4 byte(s) but each access is a 16-byte vector; declare align = 16 (or more) on the tensor}}
  tile.apply "cp.async.cg.shared.global" scope(warp) (%s, %g, 16 : i32)
      : !tirx.tensor<32x4xf32, shared, align = 16>, !tirx.tensor<32x4xf32, global, align = 4>
  tirx.return
}

// -----

tirx.kernel @global_destination(%g: !tirx.tensor<32x4xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x4xf32, shared, align = 16>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.cg.shared.global': accesses shared memory, but the tensor is global}}
  tile.apply "cp.async.cg.shared.global" scope(warp) (%g, %s, 16 : i32)
      : !tirx.tensor<32x4xf32, global, align = 16>, !tirx.tensor<32x4xf32, shared, align = 16>
  tirx.return
}

// -----

// The spaces are ordered (destination, source): never read reversed.
tirx.kernel @reversed_spaces(%g: !tirx.tensor<32x4xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x4xf32, shared, align = 16>
  // expected-error @+1 {{'cp.async.cg.global.shared': .shared (state space) must come before .global (source state space)}}
  tile.apply "cp.async.cg.global.shared" scope(warp) (%g, %s, 16 : i32)
      : !tirx.tensor<32x4xf32, global, align = 16>, !tirx.tensor<32x4xf32, shared, align = 16>
  tirx.return
}

// -----

tirx.kernel @wait_too_many() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{operand #0 (n) of 'cp.async.wait_group': 64 pending groups is out of range: wait_group takes 0 to 63}}
  tile.apply "cp.async.wait_group" scope(thread) (64 : i32)
  tirx.return
}

// -----

tirx.kernel @wait_negative() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{operand #0 (n) of 'cp.async.wait_group': -1 pending groups is out of range: wait_group takes 0 to 63}}
  tile.apply "cp.async.wait_group" scope(thread) (-1 : i32)
  tirx.return
}

// -----

tirx.kernel @wait_runtime(%n: i32) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{operand #0 (n) of 'cp.async.wait_group': the number of pending groups must be an immediate}}
  tile.apply "cp.async.wait_group" scope(thread) (%n) : i32
  tirx.return
}

// -----

module attributes {tirx.chip = "sm_75"} {
  tirx.kernel @cp_async_on_sm75(%g: !tirx.tensor<32x4xf32, global, align = 16>) launch(grid = [1], block = [32]) {
    %s = tirx.alloc_shared : !tirx.tensor<32x4xf32, shared, align = 16>
    // expected-error @+1 {{'cp.async.cg.shared.global' requires sm_80 but the target is sm_75}}
    tile.apply "cp.async.cg.shared.global" scope(warp) (%s, %g, 16 : i32)
        : !tirx.tensor<32x4xf32, shared, align = 16>, !tirx.tensor<32x4xf32, global, align = 16>
    tirx.return
  }
}

// -----

tirx.kernel @predicate_tile() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x4xf32, shared, align = 16>
  %p = tirx.alloc_local : !tirx.tensor<32x4xi1, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  // expected-error @+1 {{operand #1 (src) of 'cp.async.cg.shared.global': needs a non-predicate type, got 'i1'}}
  tile.apply "cp.async.cg.shared.global" scope(warp) (%s, %p, 16 : i32)
      : !tirx.tensor<32x4xf32, shared, align = 16>, !tirx.tensor<32x4xi1, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  tirx.return
}

// -----

tirx.kernel @source_size_past_chunk(%g: !tirx.tensor<32x4xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x4xf32, shared, align = 16>
  // expected-error @+1 {{operand #3 (srcsize) of 'cp.async.cg.shared.global': the source size 20 must be 0 to the 16-byte chunk (the rest of the chunk is zero-filled)}}
  tile.apply "cp.async.cg.shared.global" scope(warp) (%s, %g, 16 : i32, 20 : i32)
      : !tirx.tensor<32x4xf32, shared, align = 16>, !tirx.tensor<32x4xf32, global, align = 16>
  tirx.return
}

// -----

tirx.kernel @negative_source_size(%g: !tirx.tensor<32x2xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x2xf32, shared, align = 16>
  // expected-error @+1 {{operand #3 (srcsize) of 'cp.async.ca.shared.global': the source size -3 must be 0 to the 8-byte chunk (the rest of the chunk is zero-filled)}}
  tile.apply "cp.async.ca.shared.global" scope(warp) (%s, %g, 8 : i32, -3 : i32)
      : !tirx.tensor<32x2xf32, shared, align = 16>, !tirx.tensor<32x2xf32, global, align = 16>
  tirx.return
}
