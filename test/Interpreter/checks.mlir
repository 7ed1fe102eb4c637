// The interpreter's run-time checks (docs/interpreter.md): each failure is a
// located error that names the threads, with a note at the other access.
// RUN: tirx-opt %s --split-input-file --tirx-interpret --verify-diagnostics -o /dev/null

// A transpose through shared memory whose cta_sync was forgotten: warp 0
// reads what warp 1 writes with nothing ordering them.
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!row = !tirx.tensor<2x32x1xf32, global>
tirx.kernel @missing_barrier(%A: !row, %B: !row) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "ld.global.f32" scope(cta) (%r, %A) : !regs, !row
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<2x32x1xf32, shared>
  // expected-error-re @+1 {{data race on byte 128 of the shared tensor allocated at {{.*}}: this write by block (0, 0, 0) thread 32 (warp 1, lane 0) and an earlier read by block (0, 0, 0) thread 16 (warp 0, lane 16) are not ordered by any synchronization}}
  tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tirx.tensor<2x32x1xf32, shared>, !regs
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<2x32x1xf32, shared, #transposed>
  // expected-note @+1 {{the earlier access}}
  tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tirx.tensor<2x32x1xf32, shared, #transposed>
  tile.apply "st.global.f32" scope(cta) (%B, %r) : !row, !regs
  tirx.return
}

// -----

// The same transpose with its barrier: no report.
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!row = !tirx.tensor<2x32x1xf32, global>
tirx.kernel @with_barrier(%A: !row, %B: !row) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "ld.global.f32" scope(cta) (%r, %A) : !regs, !row
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<2x32x1xf32, shared>
  tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tirx.tensor<2x32x1xf32, shared>, !regs
  tirx.cta_sync
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<2x32x1xf32, shared, #transposed>
  tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tirx.tensor<2x32x1xf32, shared, #transposed>
  tile.apply "st.global.f32" scope(cta) (%B, %r) : !row, !regs
  tirx.return
}

// -----

// The write-after-read hazard of a reused buffer: the second round's
// writes need a barrier after the first round's reads too.
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!row = !tirx.tensor<2x32x1xf32, global>
tirx.kernel @reused_buffer(%A: !row, %B: !row) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "ld.global.f32" scope(cta) (%r, %A) : !regs, !row
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<2x32x1xf32, shared>
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<2x32x1xf32, shared, #transposed>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-note @+1 {{the earlier access}}
    tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tirx.tensor<2x32x1xf32, shared>, !regs
    tirx.cta_sync
    // expected-error @+1 {{data race on byte 128 of the shared tensor allocated at}}
    tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tirx.tensor<2x32x1xf32, shared, #transposed>
  }
  tile.apply "st.global.f32" scope(cta) (%B, %r) : !row, !regs
  tirx.return
}

// -----

// A barrier under a thread-dependent condition.
tirx.kernel @divergent_barrier() launch(grid = [1], block = [64]) {
  %tid = tirx.thread_idx x
  %c16 = arith.constant 16 : index
  %low = arith.cmpi ult, %tid, %c16 : index
  scf.if %low {
    // expected-error @+1 {{cta_sync is reached by only part of warp 0: block (0, 0, 0) thread 16 (warp 0, lane 16) skips it (a barrier under a thread-dependent condition)}}
    tirx.cta_sync
  }
  tirx.return
}

// -----

// A barrier some warps never reach: warp 1 finishes while warp 0 waits.
// expected-note @+1 {{warp 1 has finished the kernel}}
tirx.kernel @skipped_barrier() launch(grid = [1], block = [64]) {
  %tid = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %first = arith.cmpi ult, %tid, %c32 : index
  scf.if %first {
    // expected-error @+2 {{deadlock in block (0, 0, 0): every warp still running waits for another}}
    // expected-note @+1 {{warp 0 waits here}}
    tirx.cta_sync
  }
  tirx.return
}

// -----

// A named barrier whose thread count differs between its arrivals.
tirx.kernel @barrier_counts() launch(grid = [1], block = [128]) {
  %tid = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %warp = arith.divui %tid, %c32 : index
  %c2 = arith.constant 2 : index
  %first = arith.cmpi ult, %warp, %c2 : index
  scf.if %first {
    // expected-note @+1 {{that arrival}}
    tile.apply "bar.sync" scope(cta) (1 : i32, 128 : i32)
  } else {
    // expected-error @+1 {{barrier 1 is expected with 64 threads here, but with 128 by warp 0}}
    tile.apply "bar.sync" scope(cta) (1 : i32, 64 : i32)
  }
  tirx.return
}

// -----

// Registers read before anything wrote them.
#own = #tirx.layout<S[(32, 1) : (1@laneid, 1)]>
tirx.kernel @uninitialized_registers(%B: !tirx.tensor<32x1xf32, global>) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x1xf32, local, #own>
  // expected-error @+1 {{reads byte 0 of the register tensor allocated at}}
  tile.apply "st.global.f32" scope(warp) (%B, %r) : !tirx.tensor<32x1xf32, global>, !tirx.tensor<32x1xf32, local, #own>
  tirx.return
}

// -----

// Shared memory no thread writes.
#own = #tirx.layout<S[(32, 1) : (1@laneid, 1)]>
tirx.kernel @uninitialized_shared(%B: !tirx.tensor<32x1xf32, global>) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x1xf32, local, #own>
  %s = tirx.alloc_shared : !tirx.tensor<32x1xf32, shared>
  // expected-error @+1 {{reads byte 0 of the shared tensor allocated at}}
  tile.apply "ld.shared.f32" scope(warp) (%r, %s) : !tirx.tensor<32x1xf32, local, #own>, !tirx.tensor<32x1xf32, shared>
  tile.apply "st.global.f32" scope(warp) (%B, %r) : !tirx.tensor<32x1xf32, global>, !tirx.tensor<32x1xf32, local, #own>
  tirx.return
}

// -----

// An access outside its tensor (the bounds proof, which tirx-verify-kernels
// runs, rejects this kernel before any run; the interpreter checks anyway).
#own = #tirx.layout<S[(32, 1) : (1@laneid, 1)]>
tirx.kernel @out_of_bounds(%A: !tirx.tensor<64xf32, global>) launch(grid = [1], block = [32]) {
  %tid = tirx.thread_idx x
  %c40 = arith.constant 40 : index
  %i = arith.addi %tid, %c40 : index
  %one = tirx.region %A[%i] [1] : !tirx.tensor<64xf32, global>
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{read of 4 bytes at byte offset 256 of argument #0 (256 bytes) is out of bounds, by block (0, 0, 0) thread 24 (warp 0, lane 24)}}
  tile.apply "ld.global.f32" scope(thread) (%r, %one) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>>
  tirx.return
}
