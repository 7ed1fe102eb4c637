// Each kernel races: two threads may access one shared byte, one of them
// writing, with no CTA barrier between them (docs/races.md). The error names
// the byte, both threads and loop iterations, at the later access, with a
// note at the other one.
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels
// The interpreter, which skips the proof, sees each race happen (at the
// access its schedule meets second):
// RUN: not tirx-opt %s -split-input-file --tirx-interpret -o /dev/null 2>&1 | FileCheck %s --check-prefix=INTERP

// Read after write: a transpose through shared memory whose cta_sync was
// forgotten.
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!tile = !tirx.tensor<2x32x1xf32, shared>
!tileT = !tirx.tensor<2x32x1xf32, shared, #transposed>
tirx.kernel @read_after_write() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tile
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tileT
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 128 of the shared tensor
  // expected-note @+1 {{the other access: the write of byte 4 by thread 1 (warp 0, lane 1)}}
  tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tile, !regs
  // expected-error-re @+1 {{data race on byte 4 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, lane 1) at the op noted below can run with no CTA barrier between them}}
  tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tileT
  tirx.return
}

// -----

// Write after read: the buffer is written again in the next iteration
// while other threads may still read it (the classic missing second
// barrier).
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!tile = !tirx.tensor<2x32x1xf32, shared>
!tileT = !tirx.tensor<2x32x1xf32, shared, #transposed>
tirx.kernel @loop_back_edge() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tile
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tileT
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-note @+1 {{the write runs in the iteration of this loop after the read's, and no CTA barrier lies on the way from one to the other}}
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error-re @+1 {{data race on byte 128 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and the read by thread 16 (warp 0, lane 16) at the op noted below can run with no CTA barrier between them; here loop #0's index = 1, there loop #0's index = 0}}
    tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tile, !regs
    tirx.cta_sync
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: data race on byte 128 of the shared tensor
    // expected-note @+1 {{the other access: the read of byte 128 by thread 16 (warp 0, lane 16)}}
    tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tileT
  }
  tirx.return
}

// -----

// Write after write: every warp stores the same 32 words.
!regs = !tirx.tensor<32x1xf32, local>
!words = !tirx.tensor<32x1xf32, shared>
tirx.kernel @every_warp_writes() launch(grid = [1], block = [128]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(warp) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !words
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 0 of the shared tensor
  // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and its write by thread 0 (warp 0, lane 0) can run with no CTA barrier between them}}
  tile.apply "st.shared.f32" scope(warp) (%s, %r) : !words, !regs
  tirx.return
}

// -----

// Write after write by one op: at scope thread, every thread stores the
// whole tile.
!regs = !tirx.tensor<4x1xf32, local>
!words = !tirx.tensor<4x1xf32, shared>
tirx.kernel @every_thread_writes() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !words
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 0 of the shared tensor
  // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 1 (warp 0, lane 1) and its write by thread 0 (warp 0, lane 0) can run with no CTA barrier between them}}
  tile.apply "st.shared.f32" scope(thread) (%s, %r) : !words, !regs
  tirx.return
}

// -----

// A guard that lets two threads through.
!regs = !tirx.tensor<1xf32, local>
!words = !tirx.tensor<1xf32, shared>
tirx.kernel @guard_of_two() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !words
  %tx = tirx.thread_idx x
  %c2 = arith.constant 2 : index
  %few = arith.cmpi ult, %tx, %c2 : index
  scf.if %few {
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: data race on byte 0 of the shared tensor
    // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 1 (warp 0, lane 1) and its write by thread 0 (warp 0, lane 0) can run with no CTA barrier between them}}
    tile.apply "st.shared.f32" scope(thread) (%s, %r) : !words, !regs
  }
  tirx.return
}

// -----

// Thread-dependent regions that overlap: thread t writes word t / 2.
!regs = !tirx.tensor<1xf32, local>
tirx.kernel @overlapping_regions() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<32xf32, shared>
  %tx = tirx.thread_idx x
  %c2 = arith.constant 2 : index
  %word = arith.divui %tx, %c2 : index
  %mine = tirx.region %s[%word] [1] : !tirx.tensor<32xf32, shared>
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 0 of the shared tensor
  // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 1 (warp 0, lane 1) and its write by thread 0 (warp 0, lane 0) can run with no CTA barrier between them}}
  tile.apply "st.shared.f32" scope(thread) (%mine, %r) : !tirx.tensor<1xf32, shared, #tirx.layout<S[1 : 1]>>, !regs
  tirx.return
}

// -----

// The two branches of a thread-dependent condition: threads 32-63 read the
// words threads 0-31 write.
!regs = !tirx.tensor<1xf32, local>
!word = !tirx.tensor<1xf32, shared, #tirx.layout<S[1 : 1]>>
tirx.kernel @branches() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<32xf32, shared>
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %low = arith.cmpi ult, %tx, %c32 : index
  scf.if %low {
    %mine = tirx.region %s[%tx] [1] : !tirx.tensor<32xf32, shared>
    // expected-note @+1 {{the other access: the write of byte 0 by thread 0 (warp 0, lane 0)}}
    tile.apply "st.shared.f32" scope(thread) (%mine, %r) : !word, !regs
  } else {
    %other = arith.subi %tx, %c32 : index
    %theirs = tirx.region %s[%other] [1] : !tirx.tensor<32xf32, shared>
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: data race on byte 0 of the shared tensor
    // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 0 (warp 0, lane 0) at the op noted below can run with no CTA barrier between them}}
    tile.apply "ld.shared.f32" scope(thread) (%r, %theirs) : !regs, !word
  }
  tirx.return
}

// -----

// A barrier under a condition: the block's threads all take it or all skip
// it, but where they skip it (block 1) nothing orders the accesses.
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!tile = !tirx.tensor<2x32x1xf32, shared>
!tileT = !tirx.tensor<2x32x1xf32, shared, #transposed>
tirx.kernel @conditional_barrier() launch(grid = [2], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tile
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tileT
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 128 of the shared tensor
  // expected-note @+1 {{the other access: the write of byte 4 by thread 1 (warp 0, lane 1)}}
  tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tile, !regs
  %bx = tirx.block_idx x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %bx, %c0 : index
  scf.if %first {
    tirx.cta_sync
  }
  // expected-error-re @+1 {{data race on byte 4 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, lane 1) at the op noted below can run with no CTA barrier between them}}
  tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tileT
  tirx.return
}

// -----

// A barrier in a loop that may run no iteration (n = 0).
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!tile = !tirx.tensor<2x32x1xf32, shared>
!tileT = !tirx.tensor<2x32x1xf32, shared, #transposed>
tirx.kernel @barrier_loop_may_not_run(%n: index) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tile
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tileT
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 128 of the shared tensor
  // expected-note @+1 {{the other access: the write of byte 4 by thread 1 (warp 0, lane 1)}}
  tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tile, !regs
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    tirx.cta_sync
  }
  // expected-error-re @+1 {{data race on byte 4 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, lane 1) at the op noted below can run with no CTA barrier between them}}
  tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tileT
  tirx.return
}

// -----

// An atomic against a plain read of the same word.
!regs = !tirx.tensor<1xui32, local>
!word = !tirx.tensor<1xui32, shared>
tirx.kernel @atomic_against_read() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !word
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 0 of the shared tensor
  // expected-note @+1 {{the other access: the atomic access of byte 0 by thread 0 (warp 0, lane 0)}}
  tile.apply "red.shared.add.u32" scope(thread) (%s, 1 : i32) : !word
  // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the atomic access by thread 0 (warp 0, lane 0) at the op noted below can run with no CTA barrier between them}}
  tile.apply "ld.shared.u32" scope(thread) (%r, %s) : !regs, !word
  tirx.return
}

// -----

// A warp collective: warp 1's ldmatrix reads rows that warp 0 stores with
// no barrier between.
#ldm4w = #tirx.layout<S[(4, 4, 8, 4) : (1@warpid, 1, 4@laneid, 1@laneid)]>
!rows = !tirx.tensor<4x4x8x4xui32, shared, align = 16>
!vec = !tirx.tensor<32x4x4xui32, local, #tirx.layout<S[(32, 4, 4) : (1@laneid, 4, 1)]>>
tirx.kernel @collective_read(%G: !tirx.tensor<32x4x4xui32, global, align = 16>) launch(grid = [1], block = [128]) {
  %v = tirx.alloc_local : !vec
  tile.apply "ld.global.v4.b32" scope(warp) (%v, %G) : !vec, !tirx.tensor<32x4x4xui32, global, align = 16>
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<32x4x4xui32, shared, align = 16>
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %first = arith.cmpi ult, %tx, %c32 : index
  scf.if %first {
    // expected-note @+1 {{the other access: the write of byte 512 by thread 8 (warp 0, lane 8)}}
    tile.apply "st.shared.v4.b32" scope(warp) (%s, %v) : !tirx.tensor<32x4x4xui32, shared, align = 16>, !vec
  }
  %rows = tirx.reinterpret %s : !tirx.tensor<32x4x4xui32, shared, align = 16> -> !rows
  %r = tirx.alloc_local : !tirx.tensor<4x4x8x4xui32, local, #ldm4w>
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 512 of the shared tensor
  // expected-error-re @+1 {{data race on byte 512 of the shared tensor allocated at {{.*}}: this read by warp 1 and the write by thread 8 (warp 0, lane 8) at the op noted below can run with no CTA barrier between them}}
  tile.apply "ldmatrix.sync.aligned.m8n8.x4.shared.b16" scope(cta) (%r, %rows)
      : !tirx.tensor<4x4x8x4xui32, local, #ldm4w>, !rows
  tirx.return
}

// -----

// One buffer where two were meant: the next iteration's store overwrites
// what this iteration's loads still read.
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!buffers = !tirx.tensor<2x64xf32, shared>
!buffer = !tirx.tensor<1x64xf32, shared, #tirx.layout<S[(1, 64) : (64, 1)]>>
tirx.kernel @single_buffer(%n: index) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !buffers
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-note @+1 {{the write runs in the iteration of this loop after the read's, and no CTA barrier lies on the way from one to the other}}
  scf.for %i = %c0 to %c2 step %c1 {
    %stage = arith.muli %i, %c0 : index
    %buffer = tirx.region %s[%stage, 0] [1, 64] : !buffers
    %w = tirx.reinterpret %buffer : !buffer -> !tirx.tensor<2x32x1xf32, shared>
    %t = tirx.reinterpret %buffer : !buffer -> !tirx.tensor<2x32x1xf32, shared, #transposed>
    // expected-error-re @+1 {{data race on byte 128 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and the read by thread 16 (warp 0, lane 16) at the op noted below can run with no CTA barrier between them; here loop #0's index = 1, there loop #0's index = 0}}
    tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tirx.tensor<2x32x1xf32, shared>, !regs
    tirx.cta_sync
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: data race on byte 128 of the shared tensor
    // expected-note @+1 {{the other access: the read of byte 128 by thread 16 (warp 0, lane 16)}}
    tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tirx.tensor<2x32x1xf32, shared, #transposed>
  }
  tirx.return
}

// -----

// A loop without a barrier: thread i stores word 0 in iteration i, and
// nothing orders one iteration's store against a later one's.
!regs = !tirx.tensor<1xf32, local>
!word = !tirx.tensor<1xf32, shared>
tirx.kernel @iterations_without_barrier() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !word
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-note @+1 {{the op runs again in a later iteration of this loop, and no CTA barrier lies on the way from one to the other}}
  scf.for %i = %c0 to %c64 step %c1 {
    %turn = arith.cmpi eq, %tx, %i : index
    scf.if %turn {
      // INTERP: races-invalid.mlir:[[# @LINE + 2]]:7: error: data race on byte 0 of the shared tensor
      // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and its write by thread 0 (warp 0, lane 0) can run with no CTA barrier between them; here loop #0's index = 32, there loop #0's index = 0}}
      tile.apply "st.shared.f32" scope(thread) (%s, %r) : !word, !regs
    }
  }
  tirx.return
}

// -----

// The back edge of an outer loop whose barrier is in an inner loop that
// may run no iteration.
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!tile = !tirx.tensor<2x32x1xf32, shared>
!tileT = !tirx.tensor<2x32x1xf32, shared, #transposed>
tirx.kernel @outer_back_edge(%n: index) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tile
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tileT
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-note @+1 {{the write runs in the iteration of this loop after the read's, and no CTA barrier lies on the way from one to the other}}
  scf.for %i = %c0 to %c3 step %c1 {
    // expected-error-re @+1 {{data race on byte 128 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and the read by thread 16 (warp 0, lane 16) at the op noted below can run with no CTA barrier between them; here loop #0's index = 1, there loop #0's index = 0}}
    tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tile, !regs
    tirx.cta_sync
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: data race on byte 128 of the shared tensor
    // expected-note @+1 {{the other access: the read of byte 128 by thread 16 (warp 0, lane 16)}}
    tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tileT
    scf.for %j = %c0 to %n step %c1 {
      tirx.cta_sync
    }
  }
  tirx.return
}

// -----

// A narrower view of the same bytes: thread t reads the half-word t, which
// is in the word thread t / 2 stores.
!regs = !tirx.tensor<2x32x1xf32, local, #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>>
!halves = !tirx.tensor<2x32x1xf16, local, #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>>
tirx.kernel @narrower_view() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  %h = tirx.alloc_local : !halves
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<2x32x1xf32, shared>
  // expected-note @+1 {{the other access: the write of byte 64 by thread 16 (warp 0, lane 16)}}
  tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tirx.tensor<2x32x1xf32, shared>, !regs
  %v = tirx.view %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<128xf16, shared>
  %first = tirx.region %v[0] [64] : !tirx.tensor<128xf16, shared>
  %t = tirx.reinterpret %first : !tirx.tensor<64xf16, shared, #tirx.layout<S[64 : 1]>> -> !tirx.tensor<2x32x1xf16, shared>
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 64 of the shared tensor
  // expected-error-re @+1 {{data race on byte 64 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 16 (warp 0, lane 16) at the op noted below can run with no CTA barrier between them}}
  tile.apply "ld.shared.b16" scope(cta) (%h, %t) : !halves, !tirx.tensor<2x32x1xf16, shared>
  tirx.return
}

// -----

// Warps' windows that overlap: warp w stores words 16 w .. 16 w + 31.
!regs = !tirx.tensor<32x1xf32, local>
tirx.kernel @overlapping_warp_windows() launch(grid = [1], block = [128]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(warp) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<96x1xf32, shared>
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  %warp = arith.divui %tx, %c32 : index
  %first = arith.muli %warp, %c16 : index
  %window = tirx.region %s[%first, 0] [32, 1] : !tirx.tensor<96x1xf32, shared>
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 64 of the shared tensor
  // expected-error-re @+1 {{data race on byte 64 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and its write by thread 16 (warp 0, lane 16) can run with no CTA barrier between them}}
  tile.apply "st.shared.f32" scope(warp) (%window, %r) : !tirx.tensor<32x1xf32, shared, #tirx.layout<S[(32, 1) : (1, 1)]>>, !regs
  tirx.return
}

// -----

// A block of two dimensions: threads are named by (x, y, z).
!regs = !tirx.tensor<1xf32, local>
!word = !tirx.tensor<1xf32, shared, #tirx.layout<S[1 : 1]>>
tirx.kernel @two_dimensional_block() launch(grid = [1], block = [32, 2]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<32xf32, shared>
  %tx = tirx.thread_idx x
  %mine = tirx.region %s[%tx] [1] : !tirx.tensor<32xf32, shared>
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 0 of the shared tensor
  // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread (0, 1, 0) (warp 1, lane 0) and its write by thread (0, 0, 0) (warp 0, lane 0) can run with no CTA barrier between them}}
  tile.apply "st.shared.f32" scope(thread) (%mine, %r) : !word, !regs
  tirx.return
}

// -----

// A swizzled store (Swizzle[0, 1, 3]: bit 0 ^= bit 3) and a plain load of
// the same bytes without a barrier: thread 8 stores word 8 ^ 1 = 9, which
// thread 9 loads.
!regs = !tirx.tensor<2x32x1xf32, local, #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>>
!swz = !tirx.tensor<2x32x1xf32, shared, #tirx.layout<S[(2, 32, 1) : (32, 1, 1)] + Swizzle[0, 1, 3]>>
tirx.kernel @swizzled_store_plain_load(%A: !tirx.tensor<2x32x1xf32, global>) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "ld.global.f32" scope(cta) (%r, %A) : !regs, !tirx.tensor<2x32x1xf32, global>
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !swz
  // expected-note @+1 {{the other access: the write of byte 36 by thread 8 (warp 0, lane 8)}}
  tile.apply "st.shared.f32" scope(cta) (%w, %r) : !swz, !regs
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<2x32x1xf32, shared>
  // expected-error-re @+1 {{data race on byte 36 of the shared tensor allocated at {{.*}}: this read by thread 9 (warp 0, lane 9) and the write by thread 8 (warp 0, lane 8) at the op noted below can run with no CTA barrier between them}}
  tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tirx.tensor<2x32x1xf32, shared>
  tirx.return
}

// -----

// cp.async read before its wait: the copy is still in flight.
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<4x32x4xf32, shared, align = 16>
!T = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (4, 16, 1)]>, align = 16>
!regs = !tirx.tensor<4x32x4xf32, local, #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>>
tirx.kernel @cp_async_read_before_wait(%G: !G) launch(grid = [1], block = [128]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !S
  %r = tirx.alloc_local : !regs
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 512 of the shared tensor
  // expected-note @+1 {{the other access: the write of byte 16 by thread 1 (warp 0, lane 1)}}
  tile.apply "cp.async.cg.shared.global" scope(cta) (%s, %G, 16 : i32) : !S, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  %t = tirx.reinterpret %s : !S -> !T
  // expected-error-re @+1 {{data race on byte 16 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, lane 1) at the op noted below can run with no CTA barrier between them}}
  tile.apply "ld.shared.v4.b32" scope(cta) (%r, %t) : !regs, !T
  // expected-note @+1 {{the copy is still in flight at the read: its write is complete only after this wait}}
  tile.apply "cp.async.wait_group" scope(cta) (0 : i32)
  tirx.return
}

// -----

// A wait without a barrier after it: the copy is complete in its own
// thread, not yet for the others.
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<4x32x4xf32, shared, align = 16>
!T = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (4, 16, 1)]>, align = 16>
!regs = !tirx.tensor<4x32x4xf32, local, #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>>
tirx.kernel @cp_async_wait_without_barrier(%G: !G) launch(grid = [1], block = [128]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !S
  %r = tirx.alloc_local : !regs
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 512 of the shared tensor
  // expected-note @+1 {{the other access: the write of byte 16 by thread 1 (warp 0, lane 1)}}
  tile.apply "cp.async.cg.shared.global" scope(cta) (%s, %G, 16 : i32) : !S, !G
  // expected-note @+1 {{the copy's write is complete in its thread only after this wait, and no CTA barrier follows it before the read}}
  tile.apply "cp.async.wait_all" scope(cta) ()
  %t = tirx.reinterpret %s : !S -> !T
  // expected-error-re @+1 {{data race on byte 16 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, lane 1) at the op noted below can run with no CTA barrier between them}}
  tile.apply "ld.shared.v4.b32" scope(cta) (%r, %t) : !regs, !T
  tirx.return
}

// -----

// Write after read: the next iteration's copy overwrites the buffer while
// other threads may still read it.
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<4x32x4xf32, shared, align = 16>
!T = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (4, 16, 1)]>, align = 16>
!regs = !tirx.tensor<4x32x4xf32, local, #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>>
tirx.kernel @cp_async_overwrites_a_read_buffer(%G: !G) launch(grid = [1], block = [128]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !S
  %r = tirx.alloc_local : !regs
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-note @+1 {{the write runs in the iteration of this loop after the read's, and no CTA barrier lies on the way from one to the other}}
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-error-re @+1 {{data race on byte 512 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and the read by thread 8 (warp 0, lane 8) at the op noted below can run with no CTA barrier between them; here loop #0's index = 1, there loop #0's index = 0}}
    tile.apply "cp.async.cg.shared.global" scope(cta) (%s, %G, 16 : i32) : !S, !G
    tile.apply "cp.async.wait_all" scope(cta) ()
    tirx.cta_sync
    %t = tirx.reinterpret %s : !S -> !T
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: data race on byte 1536 of the shared tensor
    // expected-note @+1 {{the other access: the read of byte 512 by thread 8 (warp 0, lane 8)}}
    tile.apply "ld.shared.v4.b32" scope(cta) (%r, %t) : !regs, !T
  }
  tirx.return
}

// -----

// stmatrix (a warp collective) stores rows that another warp reads with no
// barrier between. (Its registers are never written: the interpreter stops
// at that first.)
#ldm4w = #tirx.layout<S[(4, 4, 8, 4) : (1@warpid, 1, 4@laneid, 1@laneid)]>
!rows = !tirx.tensor<4x4x8x4xui32, shared, align = 16>
!regs = !tirx.tensor<4x32x1x4xui32, local, #tirx.layout<S[(4, 32, 1, 4) : (1@warpid, 1@laneid, 4, 1)]>>
!view = !tirx.tensor<4x32x1x4xui32, shared, #tirx.layout<S[(4, 32, 1, 4) : (4, 16, 4, 1)]>, align = 16>
tirx.kernel @collective_write(%G: !tirx.tensor<4x4x8x4xui32, global, align = 16>) launch(grid = [1], block = [128]) {
  %f = tirx.alloc_local : !tirx.tensor<4x4x8x4xui32, local, #ldm4w>
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !rows
  // expected-note @+1 {{the other access: the write of byte 16 by warp 0}}
  tile.apply "stmatrix.sync.aligned.m8n8.x4.shared.b16" scope(cta) (%s, %f) : !rows, !tirx.tensor<4x4x8x4xui32, local, #ldm4w>
  %r = tirx.alloc_local : !regs
  %v = tirx.reinterpret %s : !rows -> !view
  // expected-error-re @+1 {{data race on byte 16 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by warp 0 at the op noted below can run with no CTA barrier between them}}
  tile.apply "ld.shared.v4.b32" scope(cta) (%r, %v) : !regs, !view
  tirx.return
}

// -----

// A switch on the thread's warp: warp 0 stores what warp 1 loads in
// another case of the same switch.
!regs = !tirx.tensor<32x1xf32, local>
!words = !tirx.tensor<32x1xf32, shared>
tirx.kernel @switch_cases() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(warp) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !words
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %warp = arith.divui %tx, %c32 : index
  scf.index_switch %warp
  case 0 {
    // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 0 (warp 0, lane 0) and the read by thread 32 (warp 1, lane 0) at the op noted below can run with no CTA barrier between them}}
    tile.apply "st.shared.f32" scope(warp) (%s, %r) : !words, !regs
    scf.yield
  }
  default {
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: data race on byte 0 of the shared tensor
    // expected-note @+1 {{the other access: the read of byte 0 by thread 32 (warp 1, lane 0)}}
    tile.apply "ld.shared.f32" scope(warp) (%r, %s) : !regs, !words
    scf.yield
  }
  tirx.return
}

// -----

// Warpgroups each store one slice; warpgroup 1 reads warpgroup 0's.
!regs = !tirx.tensor<4x32x1xf32, local, #tirx.layout<S[(4, 32, 1) : (1@wid_in_wg, 1@laneid, 1)]>>
!slice = !tirx.tensor<4x32x1xf32, shared>
tirx.kernel @warpgroup_slices() launch(grid = [1], block = [256]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(warpgroup) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<2x128xf32, shared>
  %tx = tirx.thread_idx x
  %c128 = arith.constant 128 : index
  %c1 = arith.constant 1 : index
  %wg = arith.divui %tx, %c128 : index
  %mine = tirx.region %s[%wg, 0] [1, 128] : !tirx.tensor<2x128xf32, shared>
  %w = tirx.reinterpret %mine : !tirx.tensor<1x128xf32, shared, #tirx.layout<S[(1, 128) : (128, 1)]>> -> !slice
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 512 of the shared tensor
  // expected-note @+1 {{the other access: the write of byte 0 by thread 0 (warp 0, lane 0)}}
  tile.apply "st.shared.f32" scope(warpgroup) (%w, %r) : !slice, !regs
  %other = arith.subi %c1, %wg : index
  %theirs = tirx.region %s[%other, 0] [1, 128] : !tirx.tensor<2x128xf32, shared>
  %t = tirx.reinterpret %theirs : !tirx.tensor<1x128xf32, shared, #tirx.layout<S[(1, 128) : (128, 1)]>> -> !slice
  // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this read by thread 128 (warp 4, lane 0) and the write by thread 0 (warp 0, lane 0) at the op noted below can run with no CTA barrier between them}}
  tile.apply "ld.shared.f32" scope(warpgroup) (%r, %t) : !regs, !slice
  tirx.return
}

// -----

// A do-while loop (scf.while) whose body stores and loads one buffer with
// one barrier: the next iteration's store meets this iteration's load.
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!tile = !tirx.tensor<2x32x1xf32, shared>
!tileT = !tirx.tensor<2x32x1xf32, shared, #transposed>
tirx.kernel @while_back_edge() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tile
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tileT
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{the write runs in the iteration of this loop after the read's, and no CTA barrier lies on the way from one to the other}}
  %end = scf.while (%i = %c0) : (index) -> index {
    // expected-error-re @+1 {{data race on byte 128 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and the read by thread 16 (warp 0, lane 16) at the op noted below can run with no CTA barrier between them}}
    tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tile, !regs
    tirx.cta_sync
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: data race on byte 128 of the shared tensor
    // expected-note @+1 {{the other access: the read of byte 128 by thread 16 (warp 0, lane 16)}}
    tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tileT
    %next = arith.addi %i, %c1 : index
    %c3 = arith.constant 3 : index
    %more = arith.cmpi ult, %next, %c3 : index
    scf.condition(%more) %next : index
  } do {
  ^bb0(%j: index):
    scf.yield %j : index
  }
  tirx.return
}

// -----

// A pipeline that reads the stage of step i + 1, whose copies are still in
// flight (they complete at step i + 1's wait).
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<3x4x32x4xf32, shared, align = 16>
!ST = !tirx.tensor<3x4x32x4xf32, shared, #tirx.layout<S[(3, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!stage = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 128, 4, 1)]>, align = 16>
!stageT = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!regs = !tirx.tensor<4x32x4xf32, local, #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>>
!dst = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (128, 4, 1)]>, align = 16>
!src = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (4, 16, 1)]>, align = 16>
tirx.kernel @cp_async_pipeline_reads_ahead(%G: !G) launch(grid = [1], block = [128]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !S
  %t = tirx.reinterpret %s : !S -> !ST
  %r = tirx.alloc_local : !regs
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %p0s = tirx.region %s[%c0, 0, 0, 0] [1, 4, 32, 4] : !S
  %p0 = tirx.view %p0s : !stage -> !dst
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p0, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  %p1s = tirx.region %s[%c1, 0, 0, 0] [1, 4, 32, 4] : !S
  %p1 = tirx.view %p1s : !stage -> !dst
  // expected-note @+1 {{the other access: the write of byte 2064 by thread 1 (warp 0, lane 1)}}
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p1, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  scf.for %i = %c0 to %c6 step %c1 {
    %ahead = arith.addi %i, %c2 : index
    %load = arith.remui %ahead, %c3 : index
    %dsts = tirx.region %s[%load, 0, 0, 0] [1, 4, 32, 4] : !S
    %dst = tirx.view %dsts : !stage -> !dst
    tile.apply "cp.async.cg.shared.global" scope(cta) (%dst, %G, 16 : i32) : !dst, !G
    tile.apply "cp.async.commit_group" scope(cta) ()
    // expected-note @+1 {{the copy is still in flight at the read: its write is complete only after this wait, in the loop's iteration #1 (counting from 0)}}
    tile.apply "cp.async.wait_group" scope(cta) (2 : i32)
    tirx.cta_sync
    %next = arith.addi %i, %c1 : index
    %read = arith.remui %next, %c3 : index
    %srcs = tirx.region %t[%read, 0, 0, 0] [1, 4, 32, 4] : !ST
    %src = tirx.view %srcs : !stageT -> !src
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: reads byte 2096 of the shared tensor
    // expected-error-re @+1 {{data race on byte 2064 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, lane 1) at the op noted below can run with no CTA barrier between them; here loop #0's index = 0}}
    tile.apply "ld.shared.v4.b32" scope(cta) (%r, %src) : !regs, !src
    tirx.cta_sync
  }
  tile.apply "cp.async.wait_all" scope(cta) ()
  tirx.return
}

// -----

// A pipeline without the barrier after the reads: the copies of step i + 3,
// issued in step i + 1, overwrite step i's stage while other threads may
// still read it.
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<3x4x32x4xf32, shared, align = 16>
!ST = !tirx.tensor<3x4x32x4xf32, shared, #tirx.layout<S[(3, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!stage = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 128, 4, 1)]>, align = 16>
!stageT = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!regs = !tirx.tensor<4x32x4xf32, local, #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>>
!dst = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (128, 4, 1)]>, align = 16>
!src = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (4, 16, 1)]>, align = 16>
tirx.kernel @cp_async_pipeline_without_release(%G: !G) launch(grid = [1], block = [128]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !S
  %t = tirx.reinterpret %s : !S -> !ST
  %r = tirx.alloc_local : !regs
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %p0s = tirx.region %s[%c0, 0, 0, 0] [1, 4, 32, 4] : !S
  %p0 = tirx.view %p0s : !stage -> !dst
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p0, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  %p1s = tirx.region %s[%c1, 0, 0, 0] [1, 4, 32, 4] : !S
  %p1 = tirx.view %p1s : !stage -> !dst
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p1, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  // expected-note @+1 {{the write runs in the iteration of this loop after the read's, and no CTA barrier lies on the way from one to the other}}
  scf.for %i = %c0 to %c6 step %c1 {
    %ahead = arith.addi %i, %c2 : index
    %load = arith.remui %ahead, %c3 : index
    %dsts = tirx.region %s[%load, 0, 0, 0] [1, 4, 32, 4] : !S
    %dst = tirx.view %dsts : !stage -> !dst
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: data race on byte 48 of the shared tensor
    // expected-error-re @+1 {{data race on byte 512 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and the read by thread 8 (warp 0, lane 8) at the op noted below can run with no CTA barrier between them; here loop #0's index = 1, there loop #0's index = 0}}
    tile.apply "cp.async.cg.shared.global" scope(cta) (%dst, %G, 16 : i32) : !dst, !G
    tile.apply "cp.async.commit_group" scope(cta) ()
    tile.apply "cp.async.wait_group" scope(cta) (2 : i32)
    tirx.cta_sync
    %read = arith.remui %i, %c3 : index
    %srcs = tirx.region %t[%read, 0, 0, 0] [1, 4, 32, 4] : !ST
    %src = tirx.view %srcs : !stageT -> !src
    // expected-note @+1 {{the other access: the read of byte 512 by thread 8 (warp 0, lane 8)}}
    tile.apply "ld.shared.v4.b32" scope(cta) (%r, %src) : !regs, !src
  }
  tile.apply "cp.async.wait_all" scope(cta) ()
  tirx.return
}

// -----

// A pipeline whose wait has no barrier after it: step i's copies are
// complete in the threads that issued them, not yet in the others.
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<3x4x32x4xf32, shared, align = 16>
!ST = !tirx.tensor<3x4x32x4xf32, shared, #tirx.layout<S[(3, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!stage = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 128, 4, 1)]>, align = 16>
!stageT = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!regs = !tirx.tensor<4x32x4xf32, local, #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>>
!dst = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (128, 4, 1)]>, align = 16>
!src = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (4, 16, 1)]>, align = 16>
tirx.kernel @cp_async_pipeline_without_handover(%G: !G) launch(grid = [1], block = [128]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !S
  %t = tirx.reinterpret %s : !S -> !ST
  %r = tirx.alloc_local : !regs
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %p0s = tirx.region %s[%c0, 0, 0, 0] [1, 4, 32, 4] : !S
  %p0 = tirx.view %p0s : !stage -> !dst
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 512 of the shared tensor
  // expected-note @+1 {{the other access: the write of byte 16 by thread 1 (warp 0, lane 1)}}
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p0, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  %p1s = tirx.region %s[%c1, 0, 0, 0] [1, 4, 32, 4] : !S
  %p1 = tirx.view %p1s : !stage -> !dst
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p1, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  scf.for %i = %c0 to %c6 step %c1 {
    %ahead = arith.addi %i, %c2 : index
    %load = arith.remui %ahead, %c3 : index
    %dsts = tirx.region %s[%load, 0, 0, 0] [1, 4, 32, 4] : !S
    %dst = tirx.view %dsts : !stage -> !dst
    tile.apply "cp.async.cg.shared.global" scope(cta) (%dst, %G, 16 : i32) : !dst, !G
    tile.apply "cp.async.commit_group" scope(cta) ()
    // expected-note @+1 {{the copy's write is complete in its thread only after this wait, in the loop's iteration #0 (counting from 0), and no CTA barrier follows it before the read}}
    tile.apply "cp.async.wait_group" scope(cta) (2 : i32)
    %read = arith.remui %i, %c3 : index
    %srcs = tirx.region %t[%read, 0, 0, 0] [1, 4, 32, 4] : !ST
    %src = tirx.view %srcs : !stageT -> !src
    // expected-error-re @+1 {{data race on byte 16 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, lane 1) at the op noted below can run with no CTA barrier between them; here loop #0's index = 0}}
    tile.apply "ld.shared.v4.b32" scope(cta) (%r, %src) : !regs, !src
    tirx.cta_sync
  }
  tile.apply "cp.async.wait_all" scope(cta) ()
  tirx.return
}

// -----

// wait_group 3 leaves three groups in flight: step i's copies are not yet
// complete when step i is read.
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<3x4x32x4xf32, shared, align = 16>
!ST = !tirx.tensor<3x4x32x4xf32, shared, #tirx.layout<S[(3, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!stage = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 128, 4, 1)]>, align = 16>
!stageT = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!regs = !tirx.tensor<4x32x4xf32, local, #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>>
!dst = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (128, 4, 1)]>, align = 16>
!src = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (4, 16, 1)]>, align = 16>
tirx.kernel @cp_async_pipeline_waits_too_little(%G: !G) launch(grid = [1], block = [128]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !S
  %t = tirx.reinterpret %s : !S -> !ST
  %r = tirx.alloc_local : !regs
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %p0s = tirx.region %s[%c0, 0, 0, 0] [1, 4, 32, 4] : !S
  %p0 = tirx.view %p0s : !stage -> !dst
  // expected-note @+1 {{the other access: the write of byte 16 by thread 1 (warp 0, lane 1)}}
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p0, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  %p1s = tirx.region %s[%c1, 0, 0, 0] [1, 4, 32, 4] : !S
  %p1 = tirx.view %p1s : !stage -> !dst
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p1, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  scf.for %i = %c0 to %c6 step %c1 {
    %ahead = arith.addi %i, %c2 : index
    %load = arith.remui %ahead, %c3 : index
    %dsts = tirx.region %s[%load, 0, 0, 0] [1, 4, 32, 4] : !S
    %dst = tirx.view %dsts : !stage -> !dst
    tile.apply "cp.async.cg.shared.global" scope(cta) (%dst, %G, 16 : i32) : !dst, !G
    tile.apply "cp.async.commit_group" scope(cta) ()
    // expected-note @+1 {{the copy is still in flight at the read: its write is complete only after this wait, in the loop's iteration #1 (counting from 0)}}
    tile.apply "cp.async.wait_group" scope(cta) (3 : i32)
    tirx.cta_sync
    %read = arith.remui %i, %c3 : index
    %srcs = tirx.region %t[%read, 0, 0, 0] [1, 4, 32, 4] : !ST
    %src = tirx.view %srcs : !stageT -> !src
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: reads byte 48 of the shared tensor
    // expected-error-re @+1 {{data race on byte 16 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, lane 1) at the op noted below can run with no CTA barrier between them; here loop #0's index = 0}}
    tile.apply "ld.shared.v4.b32" scope(cta) (%r, %src) : !regs, !src
    tirx.cta_sync
  }
  tile.apply "cp.async.wait_all" scope(cta) ()
  tirx.return
}

// -----

// The epilogue reads the last stage loaded without wait_all first.
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<3x4x32x4xf32, shared, align = 16>
!ST = !tirx.tensor<3x4x32x4xf32, shared, #tirx.layout<S[(3, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!stage = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 128, 4, 1)]>, align = 16>
!stageT = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!regs = !tirx.tensor<4x32x4xf32, local, #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>>
!dst = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (128, 4, 1)]>, align = 16>
!src = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (4, 16, 1)]>, align = 16>
tirx.kernel @cp_async_pipeline_skips_drain(%G: !G) launch(grid = [1], block = [128]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !S
  %t = tirx.reinterpret %s : !S -> !ST
  %r = tirx.alloc_local : !regs
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %p0s = tirx.region %s[%c0, 0, 0, 0] [1, 4, 32, 4] : !S
  %p0 = tirx.view %p0s : !stage -> !dst
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p0, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  %p1s = tirx.region %s[%c1, 0, 0, 0] [1, 4, 32, 4] : !S
  %p1 = tirx.view %p1s : !stage -> !dst
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p1, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  scf.for %i = %c0 to %c6 step %c1 {
    %ahead = arith.addi %i, %c2 : index
    %load = arith.remui %ahead, %c3 : index
    %dsts = tirx.region %s[%load, 0, 0, 0] [1, 4, 32, 4] : !S
    %dst = tirx.view %dsts : !stage -> !dst
    // expected-note @+1 {{the other access: the write of byte 16 by thread 1 (warp 0, lane 1)}}
    tile.apply "cp.async.cg.shared.global" scope(cta) (%dst, %G, 16 : i32) : !dst, !G
    tile.apply "cp.async.commit_group" scope(cta) ()
    tile.apply "cp.async.wait_group" scope(cta) (2 : i32)
    tirx.cta_sync
    %read = arith.remui %i, %c3 : index
    %srcs = tirx.region %t[%read, 0, 0, 0] [1, 4, 32, 4] : !ST
    %src = tirx.view %srcs : !stageT -> !src
    tile.apply "ld.shared.v4.b32" scope(cta) (%r, %src) : !regs, !src
    tirx.cta_sync
  }
  tirx.cta_sync
  %lasts = tirx.region %t[%c0, 0, 0, 0] [1, 4, 32, 4] : !ST
  %last = tirx.view %lasts : !stageT -> !src
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 1536 of the shared tensor
  // expected-error-re @+1 {{data race on byte 16 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, lane 1) at the op noted below can run with no CTA barrier between them; there loop #0's index = 4}}
  tile.apply "ld.shared.v4.b32" scope(cta) (%r, %last) : !regs, !src
  // expected-note @+1 {{the copy is still in flight at the read: its write is complete only after this wait, after the loop (the copy runs in one of its last 2 iterations)}}
  tile.apply "cp.async.wait_all" scope(cta) ()
  tirx.return
}

// -----

// A pipeline that waits at the top of each step: step i + 1's copies,
// issued at the end of step i, complete at step i + 1's wait. The epilogue
// reads the stage the last step loaded before the drain.
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<3x4x32x4xf32, shared, align = 16>
!ST = !tirx.tensor<3x4x32x4xf32, shared, #tirx.layout<S[(3, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!stage = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 128, 4, 1)]>, align = 16>
!stageT = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!regs = !tirx.tensor<4x32x4xf32, local, #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>>
!dst = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (128, 4, 1)]>, align = 16>
!src = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (4, 16, 1)]>, align = 16>
tirx.kernel @cp_async_pipeline_reads_last_stage_early(%G: !G) launch(grid = [1], block = [128]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !S
  %t = tirx.reinterpret %s : !S -> !ST
  %r = tirx.alloc_local : !regs
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %p0s = tirx.region %s[%c0, 0, 0, 0] [1, 4, 32, 4] : !S
  %p0 = tirx.view %p0s : !stage -> !dst
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p0, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  scf.for %i = %c0 to %c6 step %c1 {
    tile.apply "cp.async.wait_group" scope(cta) (0 : i32)
    tirx.cta_sync
    %read = arith.remui %i, %c3 : index
    %srcs = tirx.region %t[%read, 0, 0, 0] [1, 4, 32, 4] : !ST
    %src = tirx.view %srcs : !stageT -> !src
    tile.apply "ld.shared.v4.b32" scope(cta) (%r, %src) : !regs, !src
    tirx.cta_sync
    %ahead = arith.addi %i, %c1 : index
    %load = arith.remui %ahead, %c3 : index
    %dsts = tirx.region %s[%load, 0, 0, 0] [1, 4, 32, 4] : !S
    %dst = tirx.view %dsts : !stage -> !dst
    // expected-note @+1 {{the other access: the write of byte 16 by thread 1 (warp 0, lane 1)}}
    tile.apply "cp.async.cg.shared.global" scope(cta) (%dst, %G, 16 : i32) : !dst, !G
    tile.apply "cp.async.commit_group" scope(cta) ()
  }
  tirx.cta_sync
  %lasts = tirx.region %t[%c0, 0, 0, 0] [1, 4, 32, 4] : !ST
  %last = tirx.view %lasts : !stageT -> !src
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 1536 of the shared tensor
  // expected-error-re @+1 {{data race on byte 16 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, lane 1) at the op noted below can run with no CTA barrier between them; there loop #0's index = 5}}
  tile.apply "ld.shared.v4.b32" scope(cta) (%r, %last) : !regs, !src
  // expected-note @+1 {{the copy is still in flight at the read: its write is complete only after this wait, after the loop (the copy runs in its last iteration)}}
  tile.apply "cp.async.wait_all" scope(cta) ()
  tirx.return
}

// -----

// A TMA pipeline's consumer that reads a stage without waiting for its
// `full` mbarrier: the TMA load may still be writing it.
!A = !tirx.tensor<32x256xf32, global, align = 16>
!img = !tirx.tensor<2x32x32xf32, shared, align = 128>
!ring = !tirx.tensor<2xi64, shared, align = 8>
!bar = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar0 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar1 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1] + 1>, align = 8>
!stage = !tirx.tensor<1x32x32xf32, shared, #tirx.layout<S[(1, 32, 32) : (1024, 32, 1)]>, align = 128>
!elem = !tirx.tensor<1x1x1xf32, shared, #tirx.layout<S[(1, 1, 1) : (1024, 32, 1)]>, align = 4>
!box = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (256, 1)]>, align = 16>
!reg = !tirx.tensor<1x1x1xf32, local>
tirx.kernel @tma_nowait(%A: !A) launch(grid = [1], block = [160]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %img = tirx.alloc_shared : !img
  %full = tirx.alloc_shared : !ring
  %empty = tirx.alloc_shared : !ring
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %f0 = tirx.region %full[0] [1] : !ring
    %f1 = tirx.region %full[1] [1] : !ring
    %e0 = tirx.region %empty[0] [1] : !ring
    %e1 = tirx.region %empty[1] [1] : !ring
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f0, 1 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f1, 1 : i32) : !bar1
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e0, 128 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e1, 128 : i32) : !bar1
    tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  }
  tirx.cta_sync
  %consumer = arith.cmpi ult, %tx, %c128 : index
  scf.if %consumer {
    %r = tirx.alloc_local : !reg
    %row = arith.remui %tx, %c32 : index
    %col = arith.divui %tx, %c32 : index
    scf.for %kb = %c0 to %c8 step %c1 {
      %s = arith.remsi %kb, %c2 : index
      %fb = tirx.region %full[%s] [1] : !ring
      %eb = tirx.region %empty[%s] [1] : !ring
      %x = tirx.region %img[%s, %row, %col] [1, 1, 1] : !img
      // expected-note @+1 {{the other access: the read of byte 0 by thread 0 (warp 0, lane 0)}}
      tile.apply "ld.shared.b32" scope(thread) (%r, %x) : !reg, !elem
      tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%eb) : !bar
    }
  } else {
    %producer = arith.cmpi eq, %tx, %c128 : index
    scf.if %producer {
      scf.for %kb = %c0 to %c8 step %c1 {
        %s = arith.remsi %kb, %c2 : index
        %eb = tirx.region %empty[%s] [1] : !ring
        %q = arith.divsi %kb, %c2 : index
        %p = arith.remsi %q, %c2 : index
        %np = arith.subi %c1, %p : index
        %np32 = arith.index_cast %np : index to i32
        // expected-note-re @+1 {{this wait is for phase -1 (the one before the first: it returns at once) of mbarrier #0 of the allocation at {{.*}}; the arrival after the read at {{.*}} is in its later phase 0}}
        tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%eb, %np32) : !bar, i32
        %fb = tirx.region %full[%s] [1] : !ring
        tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%fb, 4096 : i32) : !bar
        %dst = tirx.region %img[%s, 0, 0] [1, 32, 32] : !img
        %k = arith.muli %kb, %c32 : index
        %box = tirx.region %A[0, %k] [32, 32] align 16 : !A
        // INTERP: races-invalid.mlir:[[# @LINE + 2]]:9: error: data race on byte 0 of the shared tensor
        // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 128 (warp 4, lane 0) and the read by thread 0 (warp 0, lane 0) at the op noted below can run with no CTA barrier between them and no mbarrier phase orders them; here loop #0's index = 0, there loop #0's index = 0}}
        tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%dst, %box, %fb) : !stage, !box, !bar
      }
    }
  }
  tirx.return
}

// -----

// A TMA pipeline's producer that loads a stage without waiting for its
// `empty` mbarrier: it overwrites a stage the consumers may still read.
// The interpreter meets the producer's next arrival on a phase that has
// none left.
!A = !tirx.tensor<32x256xf32, global, align = 16>
!img = !tirx.tensor<2x32x32xf32, shared, align = 128>
!ring = !tirx.tensor<2xi64, shared, align = 8>
!bar = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar0 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar1 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1] + 1>, align = 8>
!stage = !tirx.tensor<1x32x32xf32, shared, #tirx.layout<S[(1, 32, 32) : (1024, 32, 1)]>, align = 128>
!elem = !tirx.tensor<1x1x1xf32, shared, #tirx.layout<S[(1, 1, 1) : (1024, 32, 1)]>, align = 4>
!box = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (256, 1)]>, align = 16>
!reg = !tirx.tensor<1x1x1xf32, local>
tirx.kernel @tma_noempty(%A: !A) launch(grid = [1], block = [160]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %img = tirx.alloc_shared : !img
  %full = tirx.alloc_shared : !ring
  %empty = tirx.alloc_shared : !ring
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %f0 = tirx.region %full[0] [1] : !ring
    %f1 = tirx.region %full[1] [1] : !ring
    %e0 = tirx.region %empty[0] [1] : !ring
    %e1 = tirx.region %empty[1] [1] : !ring
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f0, 1 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f1, 1 : i32) : !bar1
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e0, 128 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e1, 128 : i32) : !bar1
    tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  }
  tirx.cta_sync
  %consumer = arith.cmpi ult, %tx, %c128 : index
  scf.if %consumer {
    %r = tirx.alloc_local : !reg
    %row = arith.remui %tx, %c32 : index
    %col = arith.divui %tx, %c32 : index
    scf.for %kb = %c0 to %c8 step %c1 {
      %s = arith.remsi %kb, %c2 : index
      %fb = tirx.region %full[%s] [1] : !ring
      %eb = tirx.region %empty[%s] [1] : !ring
      %q = arith.divsi %kb, %c2 : index
      %p = arith.remsi %q, %c2 : index
      %p32 = arith.index_cast %p : index to i32
      // expected-note-re @+1 {{this wait is for phase 0 of mbarrier #0 of the allocation at {{.*}}; the TMA load's completion at {{.*}} is in its later phase 1}}
      tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%fb, %p32) : !bar, i32
      %x = tirx.region %img[%s, %row, %col] [1, 1, 1] : !img
      // expected-note @+1 {{the other access: the read of byte 0 by thread 0 (warp 0, lane 0)}}
      tile.apply "ld.shared.b32" scope(thread) (%r, %x) : !reg, !elem
      tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%eb) : !bar
    }
  } else {
    %producer = arith.cmpi eq, %tx, %c128 : index
    scf.if %producer {
      scf.for %kb = %c0 to %c8 step %c1 {
        %s = arith.remsi %kb, %c2 : index
        %eb = tirx.region %empty[%s] [1] : !ring
        %fb = tirx.region %full[%s] [1] : !ring
        // INTERP: races-invalid.mlir:[[# @LINE + 1]]:9: error: arrives 1 time(s) on an mbarrier whose phase 0 expects only 0 more arrival(s) of 1 (block (0, 0, 0) thread 128 (warp 4, lane 0))
        tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%fb, 4096 : i32) : !bar
        %dst = tirx.region %img[%s, 0, 0] [1, 32, 32] : !img
        %k = arith.muli %kb, %c32 : index
        %box = tirx.region %A[0, %k] [32, 32] align 16 : !A
        // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 128 (warp 4, lane 0) and the read by thread 0 (warp 0, lane 0) at the op noted below can run with no CTA barrier between them and no mbarrier phase orders them; here loop #0's index = 2, there loop #0's index = 0}}
        tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%dst, %box, %fb) : !stage, !box, !bar
      }
    }
  }
  tirx.return
}

// -----

// A consumer that releases its stage before it reads it: the producer may
// load the next step into it meanwhile.
!A = !tirx.tensor<32x256xf32, global, align = 16>
!img = !tirx.tensor<2x32x32xf32, shared, align = 128>
!ring = !tirx.tensor<2xi64, shared, align = 8>
!bar = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar0 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar1 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1] + 1>, align = 8>
!stage = !tirx.tensor<1x32x32xf32, shared, #tirx.layout<S[(1, 32, 32) : (1024, 32, 1)]>, align = 128>
!elem = !tirx.tensor<1x1x1xf32, shared, #tirx.layout<S[(1, 1, 1) : (1024, 32, 1)]>, align = 4>
!box = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (256, 1)]>, align = 16>
!reg = !tirx.tensor<1x1x1xf32, local>
tirx.kernel @tma_releasefirst(%A: !A) launch(grid = [1], block = [160]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %img = tirx.alloc_shared : !img
  %full = tirx.alloc_shared : !ring
  %empty = tirx.alloc_shared : !ring
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %f0 = tirx.region %full[0] [1] : !ring
    %f1 = tirx.region %full[1] [1] : !ring
    %e0 = tirx.region %empty[0] [1] : !ring
    %e1 = tirx.region %empty[1] [1] : !ring
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f0, 1 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f1, 1 : i32) : !bar1
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e0, 128 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e1, 128 : i32) : !bar1
    tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  }
  tirx.cta_sync
  %consumer = arith.cmpi ult, %tx, %c128 : index
  scf.if %consumer {
    %r = tirx.alloc_local : !reg
    %row = arith.remui %tx, %c32 : index
    %col = arith.divui %tx, %c32 : index
    scf.for %kb = %c0 to %c8 step %c1 {
      %s = arith.remsi %kb, %c2 : index
      %fb = tirx.region %full[%s] [1] : !ring
      %eb = tirx.region %empty[%s] [1] : !ring
      %q = arith.divsi %kb, %c2 : index
      %p = arith.remsi %q, %c2 : index
      %p32 = arith.index_cast %p : index to i32
      // expected-note-re @+1 {{this wait is for phase 0 of mbarrier #0 of the allocation at {{.*}}; the TMA load's completion at {{.*}} is in its later phase 1}}
      tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%fb, %p32) : !bar, i32
      tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%eb) : !bar
      %x = tirx.region %img[%s, %row, %col] [1, 1, 1] : !img
      // expected-note @+1 {{the other access: the read of byte 0 by thread 0 (warp 0, lane 0)}}
      tile.apply "ld.shared.b32" scope(thread) (%r, %x) : !reg, !elem
    }
  } else {
    %producer = arith.cmpi eq, %tx, %c128 : index
    scf.if %producer {
      scf.for %kb = %c0 to %c8 step %c1 {
        %s = arith.remsi %kb, %c2 : index
        %eb = tirx.region %empty[%s] [1] : !ring
        %q = arith.divsi %kb, %c2 : index
        %p = arith.remsi %q, %c2 : index
        %np = arith.subi %c1, %p : index
        %np32 = arith.index_cast %np : index to i32
        tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%eb, %np32) : !bar, i32
        %fb = tirx.region %full[%s] [1] : !ring
        tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%fb, 4096 : i32) : !bar
        %dst = tirx.region %img[%s, 0, 0] [1, 32, 32] : !img
        %k = arith.muli %kb, %c32 : index
        %box = tirx.region %A[0, %k] [32, 32] align 16 : !A
        // INTERP: races-invalid.mlir:[[# @LINE + 2]]:9: error: data race on byte 0 of the shared tensor
        // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 128 (warp 4, lane 0) and the read by thread 0 (warp 0, lane 0) at the op noted below can run with no CTA barrier between them and no mbarrier phase orders them; here loop #0's index = 2, there loop #0's index = 0}}
        tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%dst, %box, %fb) : !stage, !box, !bar
      }
    }
  }
  tirx.return
}

// -----

// Lane 0 of each consumer warp releases the stage for its warp, but the
// reads are each thread's own (ld.shared): an arrival orders only its own
// thread's accesses (a warp collective's, its warp's). The interpreter,
// whose lanes run in lockstep, does not meet this one.
!A = !tirx.tensor<32x256xf32, global, align = 16>
!img = !tirx.tensor<2x32x32xf32, shared, align = 128>
!ring = !tirx.tensor<2xi64, shared, align = 8>
!bar = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar0 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar1 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1] + 1>, align = 8>
!stage = !tirx.tensor<1x32x32xf32, shared, #tirx.layout<S[(1, 32, 32) : (1024, 32, 1)]>, align = 128>
!elem = !tirx.tensor<1x1x1xf32, shared, #tirx.layout<S[(1, 1, 1) : (1024, 32, 1)]>, align = 4>
!box = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (256, 1)]>, align = 16>
!reg = !tirx.tensor<1x1x1xf32, local>
tirx.kernel @tma_warprelease(%A: !A) launch(grid = [1], block = [160]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %img = tirx.alloc_shared : !img
  %full = tirx.alloc_shared : !ring
  %empty = tirx.alloc_shared : !ring
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %f0 = tirx.region %full[0] [1] : !ring
    %f1 = tirx.region %full[1] [1] : !ring
    %e0 = tirx.region %empty[0] [1] : !ring
    %e1 = tirx.region %empty[1] [1] : !ring
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f0, 1 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f1, 1 : i32) : !bar1
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e0, 4 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e1, 4 : i32) : !bar1
    tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  }
  tirx.cta_sync
  %consumer = arith.cmpi ult, %tx, %c128 : index
  scf.if %consumer {
    %r = tirx.alloc_local : !reg
    %row = arith.remui %tx, %c32 : index
    %col = arith.divui %tx, %c32 : index
    scf.for %kb = %c0 to %c8 step %c1 {
      %s = arith.remsi %kb, %c2 : index
      %fb = tirx.region %full[%s] [1] : !ring
      %eb = tirx.region %empty[%s] [1] : !ring
      %q = arith.divsi %kb, %c2 : index
      %p = arith.remsi %q, %c2 : index
      %p32 = arith.index_cast %p : index to i32
      // expected-note-re @+1 {{this wait is for phase 0 of mbarrier #0 of the allocation at {{.*}}; the TMA load's completion at {{.*}} is in its later phase 1}}
      tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%fb, %p32) : !bar, i32
      %x = tirx.region %img[%s, %row, %col] [1, 1, 1] : !img
      // expected-note @+1 {{the other access: the read of byte 128 by thread 1 (warp 0, lane 1)}}
      tile.apply "ld.shared.b32" scope(thread) (%r, %x) : !reg, !elem
      %lane = arith.remui %tx, %c32 : index
      %lead = arith.cmpi eq, %lane, %c0 : index
      scf.if %lead {
        tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%eb) : !bar
      }
    }
  } else {
    %producer = arith.cmpi eq, %tx, %c128 : index
    scf.if %producer {
      scf.for %kb = %c0 to %c8 step %c1 {
        %s = arith.remsi %kb, %c2 : index
        %eb = tirx.region %empty[%s] [1] : !ring
        %q = arith.divsi %kb, %c2 : index
        %p = arith.remsi %q, %c2 : index
        %np = arith.subi %c1, %p : index
        %np32 = arith.index_cast %np : index to i32
        // expected-note-re @+1 {{this wait is for phase 0 of mbarrier #0 of the allocation at {{.*}}; the arrival after the read at {{.*}} is not run by thread 1 (it is under a condition)}}
        tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%eb, %np32) : !bar, i32
        %fb = tirx.region %full[%s] [1] : !ring
        tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%fb, 4096 : i32) : !bar
        %dst = tirx.region %img[%s, 0, 0] [1, 32, 32] : !img
        %k = arith.muli %kb, %c32 : index
        %box = tirx.region %A[0, %k] [32, 32] align 16 : !A
        // expected-error-re @+1 {{data race on byte 128 of the shared tensor allocated at {{.*}}: this write by thread 128 (warp 4, lane 0) and the read by thread 1 (warp 0, lane 1) at the op noted below can run with no CTA barrier between them and no mbarrier phase orders them; here loop #0's index = 2, there loop #0's index = 0}}
        tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%dst, %box, %fb) : !stage, !box, !bar
      }
    }
  }
  tirx.return
}

// -----

// A consumer that waits for the phase before its step's (1 - parity): the
// load of its step may still be in flight.
!A = !tirx.tensor<32x256xf32, global, align = 16>
!img = !tirx.tensor<2x32x32xf32, shared, align = 128>
!ring = !tirx.tensor<2xi64, shared, align = 8>
!bar = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar0 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar1 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1] + 1>, align = 8>
!stage = !tirx.tensor<1x32x32xf32, shared, #tirx.layout<S[(1, 32, 32) : (1024, 32, 1)]>, align = 128>
!elem = !tirx.tensor<1x1x1xf32, shared, #tirx.layout<S[(1, 1, 1) : (1024, 32, 1)]>, align = 4>
!box = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (256, 1)]>, align = 16>
!reg = !tirx.tensor<1x1x1xf32, local>
tirx.kernel @tma_parity(%A: !A) launch(grid = [1], block = [160]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %img = tirx.alloc_shared : !img
  %full = tirx.alloc_shared : !ring
  %empty = tirx.alloc_shared : !ring
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %f0 = tirx.region %full[0] [1] : !ring
    %f1 = tirx.region %full[1] [1] : !ring
    %e0 = tirx.region %empty[0] [1] : !ring
    %e1 = tirx.region %empty[1] [1] : !ring
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f0, 1 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f1, 1 : i32) : !bar1
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e0, 128 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e1, 128 : i32) : !bar1
    tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  }
  tirx.cta_sync
  %consumer = arith.cmpi ult, %tx, %c128 : index
  scf.if %consumer {
    %r = tirx.alloc_local : !reg
    %row = arith.remui %tx, %c32 : index
    %col = arith.divui %tx, %c32 : index
    scf.for %kb = %c0 to %c8 step %c1 {
      %s = arith.remsi %kb, %c2 : index
      %fb = tirx.region %full[%s] [1] : !ring
      %eb = tirx.region %empty[%s] [1] : !ring
      %q = arith.divsi %kb, %c2 : index
      %p = arith.remsi %q, %c2 : index
      %pb = arith.subi %c1, %p : index
      %p32 = arith.index_cast %pb : index to i32
      // expected-note-re @+1 {{this wait is for phase -1 (the one before the first: it returns at once) of mbarrier #0 of the allocation at {{.*}}; the TMA load's completion at {{.*}} is in its later phase 0}}
      tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%fb, %p32) : !bar, i32
      %x = tirx.region %img[%s, %row, %col] [1, 1, 1] : !img
      // expected-note @+1 {{the other access: the read of byte 0 by thread 0 (warp 0, lane 0)}}
      tile.apply "ld.shared.b32" scope(thread) (%r, %x) : !reg, !elem
      tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%eb) : !bar
    }
  } else {
    %producer = arith.cmpi eq, %tx, %c128 : index
    scf.if %producer {
      scf.for %kb = %c0 to %c8 step %c1 {
        %s = arith.remsi %kb, %c2 : index
        %eb = tirx.region %empty[%s] [1] : !ring
        %q = arith.divsi %kb, %c2 : index
        %p = arith.remsi %q, %c2 : index
        %np = arith.subi %c1, %p : index
        %np32 = arith.index_cast %np : index to i32
        // expected-note-re @+1 {{this wait is for phase -1 (the one before the first: it returns at once) of mbarrier #0 of the allocation at {{.*}}; the arrival after the read at {{.*}} is in its later phase 0}}
        tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%eb, %np32) : !bar, i32
        %fb = tirx.region %full[%s] [1] : !ring
        tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%fb, 4096 : i32) : !bar
        %dst = tirx.region %img[%s, 0, 0] [1, 32, 32] : !img
        %k = arith.muli %kb, %c32 : index
        %box = tirx.region %A[0, %k] [32, 32] align 16 : !A
        // INTERP: races-invalid.mlir:[[# @LINE + 2]]:9: error: data race on byte 0 of the shared tensor
        // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 128 (warp 4, lane 0) and the read by thread 0 (warp 0, lane 0) at the op noted below can run with no CTA barrier between them and no mbarrier phase orders them; here loop #0's index = 0, there loop #0's index = 0}}
        tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%dst, %box, %fb) : !stage, !box, !bar
      }
    }
  }
  tirx.return
}

// -----

// One TMA load outside loops; thread 0 waits for its mbarrier, but the
// other threads read without a CTA barrier after that wait.
!A = !tirx.tensor<32x256xf32, global, align = 16>
!img = !tirx.tensor<32x32xf32, shared, align = 128>
!bar = !tirx.tensor<1xi64, shared, align = 8>
!box = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (256, 1)] + 32>, align = 16>
!elem = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (32, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @tma_once_one_no_barrier(%A: !A) launch(grid = [1], block = [128]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %img = tirx.alloc_shared : !img
  %bar = tirx.alloc_shared : !bar
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 1 : i32) pred(%first) : !bar
  tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  tirx.cta_sync
  scf.if %first {
    tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%bar, 4096 : i32) : !bar
    %box = tirx.region %A[0, 32] [32, 32] : !A
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: data race on byte 12 of the shared tensor
    // expected-note @+1 {{the other access: the write of byte 4 by thread 0 (warp 0, lane 0)}}
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar) : !img, !box, !bar
  }
  scf.if %first {
    tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%bar, 0 : i32) : !bar
  }
  %row = arith.remui %tx, %c32 : index
  %col = arith.divui %tx, %c32 : index
  %x = tirx.region %img[%row, %col] [1, 1] : !img
  %r = tirx.alloc_local : !reg
  // expected-error-re @+1 {{data race on byte 4 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 0 (warp 0, lane 0) at the op noted below can run unordered (a TMA load's write is complete only at its mbarrier's phase, whatever CTA barriers follow it)}}
  tile.apply "ld.shared.b32" scope(thread) (%r, %x) : !reg, !elem
  tirx.return
}

// -----

// A CTA barrier after a TMA load does not complete it: only a wait for its
// mbarrier's phase does. (The interpreter meets the read of bytes the load
// has not written yet.)
!A = !tirx.tensor<32x256xf32, global, align = 16>
!img = !tirx.tensor<32x32xf32, shared, align = 128>
!bar = !tirx.tensor<1xi64, shared, align = 8>
!box = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (256, 1)] + 32>, align = 16>
!elem = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (32, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @tma_barrier_is_no_wait(%A: !A) launch(grid = [1], block = [128]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %img = tirx.alloc_shared : !img
  %bar = tirx.alloc_shared : !bar
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 1 : i32) pred(%first) : !bar
  tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  tirx.cta_sync
  scf.if %first {
    tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%bar, 4096 : i32) : !bar
    %box = tirx.region %A[0, 32] [32, 32] : !A
    // expected-note @+1 {{the other access: the write of byte 4 by thread 0 (warp 0, lane 0)}}
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar) : !img, !box, !bar
  }
  tirx.cta_sync
  %row = arith.remui %tx, %c32 : index
  %col = arith.divui %tx, %c32 : index
  %x = tirx.region %img[%row, %col] [1, 1] : !img
  %r = tirx.alloc_local : !reg
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: reads byte 8 of the shared tensor
  // expected-error-re @+1 {{data race on byte 4 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 0 (warp 0, lane 0) at the op noted below can run unordered (a TMA load's write is complete only at its mbarrier's phase, whatever CTA barriers follow it)}}
  tile.apply "ld.shared.b32" scope(thread) (%r, %x) : !reg, !elem
  tirx.return
}

// -----

// The wgmma pipeline of races.mlir with wait_group 2 in its loop: the
// release of the previous step's stage no longer follows the completion of
// the wgmma that reads it, so the producer's next load may overwrite the
// operand the tensor cores still read.
#layout = #tirx.layout<S[(2, 64, 64) : (4096, 64, 1)] + Swizzle[3, 3, 3]>
#layout1 = #tirx.layout<S[(2, 8, 64) : (512, 64, 1)] + Swizzle[3, 3, 3]>
#layout2 = #tirx.layout<S[1 : 1]>
#layout3 = #tirx.layout<S[1 : 1] + 1>
#layout4 = #tirx.layout<S[(4, 2, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 1@laneid, 1)]>
#layout5 = #tirx.layout<S[(1, 64, 64) : (4096, 64, 1)] + Swizzle[3, 3, 3]>
#layout6 = #tirx.layout<S[(64, 16) : (64, 1)] + Swizzle[3, 3, 3]>
#layout7 = #tirx.layout<S[(1, 8, 64) : (512, 64, 1)] + Swizzle[3, 3, 3]>
#layout8 = #tirx.layout<S[(8, 16) : (64, 1)] + Swizzle[3, 3, 3]>
#layout9 = #tirx.layout<S[(64, 16) : (64, 1)] + 16 + Swizzle[3, 3, 3]>
#layout10 = #tirx.layout<S[(8, 16) : (64, 1)] + 16 + Swizzle[3, 3, 3]>
#layout11 = #tirx.layout<S[(64, 16) : (64, 1)] + 32 + Swizzle[3, 3, 3]>
#layout12 = #tirx.layout<S[(8, 16) : (64, 1)] + 32 + Swizzle[3, 3, 3]>
#layout13 = #tirx.layout<S[(64, 16) : (64, 1)] + 48 + Swizzle[3, 3, 3]>
#layout14 = #tirx.layout<S[(8, 16) : (64, 1)] + 48 + Swizzle[3, 3, 3]>
#layout15 = #tirx.layout<S[(64, 64) : (256, 1)]>
#layout16 = #tirx.layout<S[(8, 64) : (256, 1)]>
#loop_unroll = #llvm.loop_unroll<disable = true>
#loop_annotation = #llvm.loop_annotation<unroll = #loop_unroll>
module attributes {tirx.chip = "sm_90a"} {
  tirx.kernel @wgmma_ring(%arg0: !tirx.tensor<64x256xbf16, global, align = 16>, %arg1: !tirx.tensor<8x256xbf16, global, align = 16>, %arg2: !tirx.tensor<64x8xf32, global, align = 16>) launch(grid = [1], block = [256]) {
    // expected-note @+1 {{the shared tensor is allocated here}}
    %smem = tirx.alloc_shared : !tirx.tensor<2x64x64xbf16, shared, #layout, align = 1024>
    %smem_0 = tirx.alloc_shared : !tirx.tensor<2x8x64xbf16, shared, #layout1, align = 1024>
    %smem_1 = tirx.alloc_shared : !tirx.tensor<2xui64, shared, align = 8>
    %smem_2 = tirx.alloc_shared : !tirx.tensor<2xui64, shared, align = 8>
    %tx = tirx.thread_idx x
    %c128 = arith.constant 128 : index
    %0 = arith.divsi %tx, %c128 : index
    %c0 = arith.constant 0 : index
    %1 = arith.cmpi eq, %tx, %c0 : index
    scf.if %1 {
      %3 = tirx.region %smem_1 [0] [1] : !tirx.tensor<2xui64, shared, align = 8>
      tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%3, 1 : i32) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
      %4 = tirx.region %smem_2 [0] [1] : !tirx.tensor<2xui64, shared, align = 8>
      tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%4, 4 : i32) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
      %5 = tirx.region %smem_1 [1] [1] : !tirx.tensor<2xui64, shared, align = 8>
      tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%5, 1 : i32) : !tirx.tensor<1xui64, shared, #layout3, align = 8>
      %6 = tirx.region %smem_2 [1] [1] : !tirx.tensor<2xui64, shared, align = 8>
      tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%6, 4 : i32) : !tirx.tensor<1xui64, shared, #layout3, align = 8>
      tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
    }
    tirx.cta_sync
    %c1 = arith.constant 1 : index
    %2 = arith.cmpi sge, %0, %c1 : index
    scf.if %2 {
      tile.apply "setmaxnreg.inc.sync.aligned.u32" scope(warpgroup) (232 : i32)
      %regs = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #layout4>
      %c2 = arith.constant 2 : index
      %3 = arith.remsi %c0, %c2 : index
      %4 = tirx.region %smem_1 [%3] [1] : !tirx.tensor<2xui64, shared, align = 8>
      // expected-note-re @+1 {{this wait is for phase 0 of mbarrier #0 of the allocation at {{.*}}; the TMA load's completion at {{.*}} is in its later phase 1}}
      tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%4, 0 : i32) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
      %5 = tirx.region %smem [%3, 0, 0] [1, 64, 64] : !tirx.tensor<2x64x64xbf16, shared, #layout, align = 1024>
      %6 = tirx.region %smem_0 [%3, 0, 0] [1, 8, 64] : !tirx.tensor<2x8x64xbf16, shared, #layout1, align = 1024>
      tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
      %7 = tirx.reinterpret %5 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout6, align = 1024>
      %8 = tirx.reinterpret %6 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout8, align = 1024>
      // expected-note @+1 {{the other access: the read of byte 0 by warp 4}}
      tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %7, %8, false, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout6, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout8, align = 1024>
      %9 = tirx.reinterpret %5 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout9, align = 1024>
      %10 = tirx.reinterpret %6 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout10, align = 1024>
      tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %9, %10, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout9, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout10, align = 1024>
      %11 = tirx.reinterpret %5 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout11, align = 1024>
      %12 = tirx.reinterpret %6 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout12, align = 1024>
      tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %11, %12, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout11, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout12, align = 1024>
      %13 = tirx.reinterpret %5 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout13, align = 1024>
      %14 = tirx.reinterpret %6 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout14, align = 1024>
      tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %13, %14, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout13, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout14, align = 1024>
      tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
      %c4 = arith.constant 4 : index
      scf.for %arg3 = %c1 to %c4 step %c1 {
        %17 = arith.remsi %arg3, %c2 : index
        %18 = tirx.region %smem_1 [%17] [1] : !tirx.tensor<2xui64, shared, align = 8>
        %19 = arith.divsi %arg3, %c2 : index
        %20 = arith.remsi %19, %c2 : index
        %21 = arith.index_cast %20 : index to i64
        %22 = arith.trunci %21 : i64 to i32
        tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%18, %22) : !tirx.tensor<1xui64, shared, #layout2, align = 8>, i32
        %23 = tirx.region %smem [%17, 0, 0] [1, 64, 64] : !tirx.tensor<2x64x64xbf16, shared, #layout, align = 1024>
        %24 = tirx.region %smem_0 [%17, 0, 0] [1, 8, 64] : !tirx.tensor<2x8x64xbf16, shared, #layout1, align = 1024>
        tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
        %25 = tirx.reinterpret %23 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout6, align = 1024>
        %26 = tirx.reinterpret %24 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout8, align = 1024>
        tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %25, %26, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout6, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout8, align = 1024>
        %27 = tirx.reinterpret %23 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout9, align = 1024>
        %28 = tirx.reinterpret %24 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout10, align = 1024>
        tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %27, %28, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout9, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout10, align = 1024>
        %29 = tirx.reinterpret %23 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout11, align = 1024>
        %30 = tirx.reinterpret %24 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout12, align = 1024>
        tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %29, %30, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout11, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout12, align = 1024>
        %31 = tirx.reinterpret %23 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout13, align = 1024>
        %32 = tirx.reinterpret %24 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout14, align = 1024>
        tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %31, %32, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout13, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout14, align = 1024>
        tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
        tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (2 : i32)
        %33 = arith.subi %arg3, %c1 : index
        %c32_3 = arith.constant 32 : index
        %34 = arith.remsi %tx, %c32_3 : index
        %35 = arith.cmpi eq, %34, %c0 : index
        scf.if %35 {
          %36 = arith.remsi %33, %c2 : index
          %37 = tirx.region %smem_2 [%36] [1] : !tirx.tensor<2xui64, shared, align = 8>
          tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%37) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
        }
      } {loop_annotation = #loop_annotation}
      tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)
      %c32 = arith.constant 32 : index
      %15 = arith.remsi %tx, %c32 : index
      %16 = arith.cmpi eq, %15, %c0 : index
      scf.if %16 {
        %c3 = arith.constant 3 : index
        %17 = arith.remsi %c3, %c2 : index
        %18 = tirx.region %smem_2 [%17] [1] : !tirx.tensor<2xui64, shared, align = 8>
        tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%18) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
      }
    } else {
      tile.apply "setmaxnreg.dec.sync.aligned.u32" scope(warpgroup) (40 : i32)
      scf.if %1 {
        %c4 = arith.constant 4 : index
        scf.for %arg3 = %c0 to %c4 step %c1 {
          %c2 = arith.constant 2 : index
          %3 = arith.remsi %arg3, %c2 : index
          %4 = tirx.region %smem_2 [%3] [1] : !tirx.tensor<2xui64, shared, align = 8>
          %5 = arith.divsi %arg3, %c2 : index
          %6 = arith.remsi %5, %c2 : index
          %7 = arith.subi %c1, %6 : index
          %8 = arith.index_cast %7 : index to i64
          %9 = arith.trunci %8 : i64 to i32
          // expected-note-re @+1 {{this wait is for phase 0 of mbarrier #0 of the allocation at {{.*}}; the arrival after the read at {{.*}} is on mbarrier #1}}
          tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%4, %9) : !tirx.tensor<1xui64, shared, #layout2, align = 8>, i32
          %10 = tirx.region %smem_1 [%3] [1] : !tirx.tensor<2xui64, shared, align = 8>
          tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%10, 9216 : i32) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
          %11 = tirx.region %smem [%3, 0, 0] [1, 64, 64] : !tirx.tensor<2x64x64xbf16, shared, #layout, align = 1024>
          %c64 = arith.constant 64 : index
          %12 = arith.muli %arg3, %c64 : index
          %13 = tirx.region %arg0 [0, %12] [64, 64] align 16 : !tirx.tensor<64x256xbf16, global, align = 16>
          // INTERP: races-invalid.mlir:[[# @LINE + 2]]:11: error: overwrites byte 0 of the shared tensor
          // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 0 (warp 0, lane 0) and the read by warp 4 at the op noted below can run with no CTA barrier between them and no mbarrier phase orders them; here loop #0's index = 2}}
          tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%11, %13, %10) : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024>, !tirx.tensor<64x64xbf16, global, #layout15, align = 16>, !tirx.tensor<1xui64, shared, #layout2, align = 8>
          %14 = tirx.region %smem_0 [%3, 0, 0] [1, 8, 64] : !tirx.tensor<2x8x64xbf16, shared, #layout1, align = 1024>
          %15 = tirx.region %arg1 [0, %12] [8, 64] align 16 : !tirx.tensor<8x256xbf16, global, align = 16>
          tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%14, %15, %10) : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024>, !tirx.tensor<8x64xbf16, global, #layout16, align = 16>, !tirx.tensor<1xui64, shared, #layout2, align = 8>
        } {loop_annotation = #loop_annotation}
      }
    }
    tirx.return
  }
}

// -----

// Each warpgroup writes its own row, passes its own named barrier (1 + its
// index) and reads the other warpgroup's row: the barriers order neither
// warpgroup against the other.
!buf = !tirx.tensor<2x128xf32, shared, align = 16>
!one = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (128, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @other_warpgroups_row() launch(grid = [1], block = [256]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %buf = tirx.alloc_shared : !buf
  %tx = tirx.thread_idx x
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %wg = arith.divui %tx, %c128 : index
  %lane = arith.remui %tx, %c128 : index
  %other = arith.subi %c1, %wg : index
  %id = arith.addi %wg, %c1 : index
  %id32 = arith.index_cast %id : index to i32
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !reg
  %mine = tirx.region %buf[%wg, %lane] [1, 1] : !buf
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 896 of the shared tensor
  // expected-note @+1 {{the other access: the write of byte 0 by thread 0 (warp 0, lane 0)}}
  tile.apply "st.shared.b32" scope(thread) (%mine, %r) : !one, !reg
  // expected-note @+1 {{this named barrier orders only threads that name the same barrier: the read's thread names barrier 2, the write's 1}}
  tile.apply "bar.sync" scope(warpgroup) (%id32, 128 : i32) : i32
  %theirs = tirx.region %buf[%other, %lane] [1, 1] : !buf
  // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this read by thread 128 (warp 4, lane 0) and the write by thread 0 (warp 0, lane 0) at the op noted below can run with no CTA barrier, nor a named barrier both threads pass, between them}}
  tile.apply "ld.shared.b32" scope(thread) (%r, %theirs) : !reg, !one
  tirx.return
}

// -----

// A warpgroup's exchange in a loop with one named barrier: the next
// iteration's write may overwrite what a thread of the warpgroup still
// reads (the missing second barrier, with named barriers).
!buf = !tirx.tensor<2x128xf32, shared, align = 16>
!one = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (128, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @warpgroup_loop_back_edge() launch(grid = [1], block = [256]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %buf = tirx.alloc_shared : !buf
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %wg = arith.divui %tx, %c128 : index
  %lane = arith.remui %tx, %c128 : index
  %next = arith.addi %lane, %c1 : index
  %wrapped = arith.remui %next, %c128 : index
  %id = arith.addi %wg, %c1 : index
  %id32 = arith.index_cast %id : index to i32
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !reg
  // expected-note @+1 {{the write runs in the iteration of this loop after the read's, and no CTA barrier lies on the way from one to the other}}
  scf.for %i = %c0 to %c4 step %c1 {
    %mine = tirx.region %buf[%wg, %lane] [1, 1] : !buf
    // INTERP: races-invalid.mlir:[[# @LINE + 2]]:5: error: data race on byte 0 of the shared tensor
    // expected-error-re @+1 {{data race on byte 128 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and the read by thread 31 (warp 0, lane 31) at the op noted below can run with no CTA barrier, nor a named barrier both threads pass, between them; here loop #0's index = 1, there loop #0's index = 0}}
    tile.apply "st.shared.b32" scope(thread) (%mine, %r) : !one, !reg
    tile.apply "bar.sync" scope(warpgroup) (%id32, 128 : i32) : i32
    %theirs = tirx.region %buf[%wg, %wrapped] [1, 1] : !buf
    // expected-note @+1 {{the other access: the read of byte 128 by thread 31 (warp 0, lane 31)}}
    tile.apply "ld.shared.b32" scope(thread) (%r, %theirs) : !reg, !one
  }
  tirx.return
}

// -----

// The Hopper epilogue's staging (races.mlir's warpgroup_tma_stores) with
// bulk wait_group.read 1: the previous tile's store may still read the slot
// while the warpgroup writes it again.
!C = !tirx.tensor<64x1024xf32, global, align = 16>
!buf = !tirx.tensor<2x32x4xf32, shared, align = 128>
!slot = !tirx.tensor<1x32x4xf32, shared, #tirx.layout<S[(1, 32, 4) : (128, 4, 1)]>, align = 128>
!box = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (1024, 1)]>, align = 16>
!elem = !tirx.tensor<1x1x1xf32, shared, #tirx.layout<S[(1, 1, 1) : (128, 4, 1)]>, align = 4>
!reg = !tirx.tensor<1x1x1xf32, local>
tirx.kernel @tma_store_waits_for_one_group_less(%C: !C) launch(grid = [1], block = [256]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %buf = tirx.alloc_shared : !buf
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %wg = arith.divui %tx, %c128 : index
  %lane = arith.remui %tx, %c128 : index
  %row = arith.remui %lane, %c32 : index
  %col = arith.divui %lane, %c32 : index
  %id = arith.addi %wg, %c1 : index
  %id32 = arith.index_cast %id : index to i32
  %leader = arith.cmpi eq, %lane, %c0 : index
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 1.0 : f32) : !reg
  scf.for %t = %c0 to %c8 step %c1 {
    scf.if %leader {
      // expected-note @+1 {{the copy is still in flight at the write: its read is complete only after this wait, 2 iterations of the loop after the copy's}}
      tile.apply "cp.async.bulk.wait_group.read" scope(thread) (1 : i32)
    }
    tile.apply "bar.sync" scope(warpgroup) (%id32, 128 : i32) : i32
    %x = tirx.region %buf[%wg, %row, %col] [1, 1, 1] : !buf
    // expected-error-re @+1 {{data race on byte 4 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and the read by thread 0 (warp 0, lane 0) at the op noted below can run with no CTA barrier, nor a named barrier both threads pass, between them; here loop #0's index = 1, there loop #0's index = 0}}
    tile.apply "st.shared.b32" scope(thread) (%x, %r) : !elem, !reg
    tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
    tile.apply "bar.sync" scope(warpgroup) (%id32, 128 : i32) : i32
    scf.if %leader {
      %y = arith.muli %wg, %c32 : index
      %t4 = arith.muli %t, %c4 : index
      %box = tirx.region %C[%y, %t4] [32, 4] align 16 : !C
      %s = tirx.region %buf[%wg, 0, 0] [1, 32, 4] : !buf
      // INTERP: races-invalid.mlir:[[# @LINE + 2]]:7: error: data race on byte 4 of the shared tensor
      // expected-note @+1 {{the other access: the read of byte 4 by thread 0 (warp 0, lane 0)}}
      tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %s) : !box, !slot
      tile.apply "cp.async.bulk.commit_group" scope(thread) ()
    }
  }
  scf.if %leader {
    tile.apply "cp.async.bulk.wait_group" scope(thread) (0 : i32)
  }
  tirx.return
}

// -----

// Without the named barrier after thread 0's bulk wait, the other threads
// of the warpgroup write the slot while the previous store may read it.
!C = !tirx.tensor<64x1024xf32, global, align = 16>
!buf = !tirx.tensor<2x32x4xf32, shared, align = 128>
!slot = !tirx.tensor<1x32x4xf32, shared, #tirx.layout<S[(1, 32, 4) : (128, 4, 1)]>, align = 128>
!box = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (1024, 1)]>, align = 16>
!elem = !tirx.tensor<1x1x1xf32, shared, #tirx.layout<S[(1, 1, 1) : (128, 4, 1)]>, align = 4>
!reg = !tirx.tensor<1x1x1xf32, local>
tirx.kernel @tma_store_wait_not_handed_on(%C: !C) launch(grid = [1], block = [256]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %buf = tirx.alloc_shared : !buf
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %wg = arith.divui %tx, %c128 : index
  %lane = arith.remui %tx, %c128 : index
  %row = arith.remui %lane, %c32 : index
  %col = arith.divui %lane, %c32 : index
  %id = arith.addi %wg, %c1 : index
  %id32 = arith.index_cast %id : index to i32
  %leader = arith.cmpi eq, %lane, %c0 : index
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 1.0 : f32) : !reg
  scf.for %t = %c0 to %c8 step %c1 {
    scf.if %leader {
      // expected-note @+1 {{the copy's read is complete in its thread only after this wait, 1 iteration of the loop after the copy's, and no CTA barrier follows it before the write}}
      tile.apply "cp.async.bulk.wait_group.read" scope(thread) (0 : i32)
    }
    %x = tirx.region %buf[%wg, %row, %col] [1, 1, 1] : !buf
    // expected-error-re @+1 {{data race on byte 4 of the shared tensor allocated at {{.*}}: this write by thread 32 (warp 1, lane 0) and the read by thread 0 (warp 0, lane 0) at the op noted below can run with no CTA barrier, nor a named barrier both threads pass, between them; here loop #0's index = 1, there loop #0's index = 0}}
    tile.apply "st.shared.b32" scope(thread) (%x, %r) : !elem, !reg
    tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
    tile.apply "bar.sync" scope(warpgroup) (%id32, 128 : i32) : i32
    scf.if %leader {
      %y = arith.muli %wg, %c32 : index
      %t4 = arith.muli %t, %c4 : index
      %box = tirx.region %C[%y, %t4] [32, 4] align 16 : !C
      %s = tirx.region %buf[%wg, 0, 0] [1, 32, 4] : !buf
      // INTERP: races-invalid.mlir:[[# @LINE + 2]]:7: error: data race on byte 12 of the shared tensor
      // expected-note @+1 {{the other access: the read of byte 4 by thread 0 (warp 0, lane 0)}}
      tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %s) : !box, !slot
      tile.apply "cp.async.bulk.commit_group" scope(thread) ()
    }
  }
  scf.if %leader {
    tile.apply "cp.async.bulk.wait_group" scope(thread) (0 : i32)
  }
  tirx.return
}

// -----

// Without the named barrier after the writes, thread 0's TMA store may read
// the slot before the warpgroup's other threads have written it.
!C = !tirx.tensor<64x1024xf32, global, align = 16>
!buf = !tirx.tensor<2x32x4xf32, shared, align = 128>
!slot = !tirx.tensor<1x32x4xf32, shared, #tirx.layout<S[(1, 32, 4) : (128, 4, 1)]>, align = 128>
!box = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (1024, 1)]>, align = 16>
!elem = !tirx.tensor<1x1x1xf32, shared, #tirx.layout<S[(1, 1, 1) : (128, 4, 1)]>, align = 4>
!reg = !tirx.tensor<1x1x1xf32, local>
tirx.kernel @tma_store_before_the_writes(%C: !C) launch(grid = [1], block = [256]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %buf = tirx.alloc_shared : !buf
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %wg = arith.divui %tx, %c128 : index
  %lane = arith.remui %tx, %c128 : index
  %row = arith.remui %lane, %c32 : index
  %col = arith.divui %lane, %c32 : index
  %id = arith.addi %wg, %c1 : index
  %id32 = arith.index_cast %id : index to i32
  %leader = arith.cmpi eq, %lane, %c0 : index
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 1.0 : f32) : !reg
  scf.for %t = %c0 to %c8 step %c1 {
    scf.if %leader {
      tile.apply "cp.async.bulk.wait_group.read" scope(thread) (0 : i32)
    }
    tile.apply "bar.sync" scope(warpgroup) (%id32, 128 : i32) : i32
    %x = tirx.region %buf[%wg, %row, %col] [1, 1, 1] : !buf
    // expected-note @+1 {{the other access: the write of byte 4 by thread 32 (warp 1, lane 0)}}
    tile.apply "st.shared.b32" scope(thread) (%x, %r) : !elem, !reg
    tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
    scf.if %leader {
      %y = arith.muli %wg, %c32 : index
      %t4 = arith.muli %t, %c4 : index
      %box = tirx.region %C[%y, %t4] [32, 4] align 16 : !C
      %s = tirx.region %buf[%wg, 0, 0] [1, 32, 4] : !buf
      // INTERP: races-invalid.mlir:[[# @LINE + 2]]:7: error: data race on byte
      // expected-error-re @+1 {{data race on byte 4 of the shared tensor allocated at {{.*}}: this read by thread 0 (warp 0, lane 0) and the write by thread 32 (warp 1, lane 0) at the op noted below can run with no CTA barrier, nor a named barrier both threads pass, between them; here loop #0's index = 0, there loop #0's index = 0}}
      tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %s) : !box, !slot
      tile.apply "cp.async.bulk.commit_group" scope(thread) ()
    }
  }
  scf.if %leader {
    tile.apply "cp.async.bulk.wait_group" scope(thread) (0 : i32)
  }
  tirx.return
}

// -----

// Both warpgroups write row 0 in one execution of the store: thread t and
// thread t + 128 write one word (enumerating the store's bytes per thread
// finds the two, and the proof gives the witness).
!buf = !tirx.tensor<2x128xf32, shared, align = 16>
!one = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (128, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @one_row_for_both_warpgroups() launch(grid = [1], block = [256]) {
  // expected-note @+1 {{the shared tensor is allocated here}}
  %buf = tirx.alloc_shared : !buf
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %lane = arith.remui %tx, %c128 : index
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !reg
  %mine = tirx.region %buf[%c0, %lane] [1, 1] : !buf
  // INTERP: races-invalid.mlir:[[# @LINE + 2]]:3: error: data race on byte 0 of the shared tensor
  // expected-error-re @+1 {{data race on byte 0 of the shared tensor allocated at {{.*}}: this write by thread 128 (warp 4, lane 0) and its write by thread 0 (warp 0, lane 0) can run with no CTA barrier between them}}
  tile.apply "st.shared.b32" scope(thread) (%mine, %r) : !one, !reg
  tirx.return
}
