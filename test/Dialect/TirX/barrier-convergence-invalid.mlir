// CTA barriers that only part of the block's threads reach, each refused
// with two threads that disagree, and the ones TirX cannot decide, each a
// warning naming what it depends on (docs/barriers.md).
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels

// The first warp only.
tirx.kernel @first_warp() launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %lt = arith.cmpi ult, %tx, %c32 : index
  // expected-note @+1 {{the condition that depends on the thread}}
  scf.if %lt {
    // expected-error @+1 {{tirx.cta_sync is reached by only part of the CTA's threads: the condition around it depends on the thread index, and thread 0 (warp 0, lane 0) enters it while thread 32 (warp 1, lane 0) does not; a barrier of every thread must be reached by every thread (hoist it out, or guard only the work around it)}}
    tirx.cta_sync
  }
  tirx.return
}

// -----

// The else branch: every thread but thread 0.
tirx.kernel @else_branch() launch(grid = [4], block = [128]) {
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  // expected-note @+1 {{the condition that depends on the thread}}
  scf.if %is0 {
  } else {
    // expected-error @+1 {{tirx.cta_sync is reached by only part of the CTA's threads: the condition around it depends on the thread index, and thread 0 (warp 0, lane 0) does not while thread 1 (warp 0, lane 1) enters it}}
    tirx.cta_sync
  }
  tirx.return
}

// -----

// A loop whose trip count is the thread's index.
tirx.kernel @thread_trip_count() launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{the loop that depends on the thread}}
  scf.for %i = %c0 to %tx step %c1 {
    // expected-error @+1 {{tirx.cta_sync is reached by only part of the CTA's threads: the loop around it depends on the thread index, and thread 0 (warp 0, lane 0) runs 0 times while thread 1 (warp 0, lane 1) runs 1 time}}
    tirx.cta_sync
  }
  tirx.return
}

// -----

// Warps share a trip count, but not with each other.
tirx.kernel @warp_trip_count() launch(grid = [1], block = [96]) {
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %warp = arith.divui %tx, %c32 : index
  %n = arith.addi %warp, %c1 : index
  // expected-note @+1 {{the loop that depends on the thread}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{thread 0 (warp 0, lane 0) runs 1 time while thread 32 (warp 1, lane 0) runs 2 times}}
    tirx.cta_sync
  }
  tirx.return
}

// -----

// A switch on the warp index.
tirx.kernel @switch_on_warp() launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %warp = arith.divui %tx, %c32 : index
  // expected-note @+1 {{the switch that depends on the thread}}
  scf.index_switch %warp
  case 0 {
    // expected-error @+1 {{tirx.cta_sync is reached by only part of the CTA's threads: the switch around it depends on the thread index, and thread 0 (warp 0, lane 0) enters it while thread 32 (warp 1, lane 0) does not}}
    tirx.cta_sync
    scf.yield
  }
  default {
  }
  tirx.return
}

// -----

// bar.sync 0 is the CTA's barrier: the warp-uniform condition (whole warps)
// still leaves the last warp out.
tirx.kernel @bar_sync_three_warps() launch(grid = [1], block = [128]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c3 = arith.constant 3 : index
  %warp = arith.divui %tx, %c32 : index
  %lt = arith.cmpi ult, %warp, %c3 : index
  // expected-note @+1 {{the condition that depends on the thread}}
  scf.if %lt {
    // expected-error @+1 {{'bar.sync' is reached by only part of the CTA's threads: the condition around it depends on the thread index, and thread 0 (warp 0, lane 0) enters it while thread 96 (warp 3, lane 0) does not}}
    tile.apply "bar.sync" scope(cta) (0 : i32)
  }
  tirx.return
}

// -----

// bar.sync with the block's thread count is the CTA's barrier too.
tirx.kernel @bar_sync_block_count() launch(grid = [1], block = [128]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %warp = arith.divui %tx, %c32 : index
  %lt = arith.cmpi uge, %warp, %c2 : index
  // expected-note @+1 {{the condition that depends on the thread}}
  scf.if %lt {
    // expected-error @+1 {{'bar.sync' is reached by only part of the CTA's threads: the condition around it depends on the thread index, and thread 0 (warp 0, lane 0) does not while thread 64 (warp 2, lane 0) enters it}}
    tile.apply "bar.sync" scope(cta) (1 : i32, 128 : i32)
  }
  tirx.return
}

// -----

// A 2-D block: threads are named by their three indices.
tirx.kernel @two_d_block() launch(grid = [1], block = [32, 4]) {
  %ty = tirx.thread_idx y
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %ty, %c0 : index
  // expected-note @+1 {{the condition that depends on the thread}}
  scf.if %is0 {
    // expected-error @+1 {{thread (0, 0, 0) (warp 0, lane 0) enters it while thread (0, 1, 0) (warp 1, lane 0) does not}}
    tirx.cta_sync
  }
  tirx.return
}

// -----

// The thread index against a size: decided only at run time.
!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>

tirx.kernel @thread_against_size(%n: index {tirx.size = "n"}, %A: !N)
    launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %lt = arith.cmpi ult, %tx, %n : index
  // expected-note @+1 {{the condition that depends on the thread}}
  scf.if %lt {
    // expected-warning @+1 {{tirx.cta_sync may be reached by only part of the CTA's threads: the condition around it depends on the thread index together with values that are not constants, and TirX does not prove it the same for every thread}}
    tirx.cta_sync
  }
  tirx.return
}

// -----

!r = !tirx.tensor<1xi32, local, #tirx.layout<S[1 : 1]>>

// A condition on a value read from registers.
tirx.kernel @loaded_condition() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !r
  // expected-note @+1 {{the result is made here}}
  %raw = tirx.slot_load %r[0] : !r -> i32
  %c0 = arith.constant 0 : i32
  %nonzero = arith.cmpi ne, %raw, %c0 : i32
  // expected-note @+1 {{the condition that depends on it}}
  scf.if %nonzero {
    // expected-warning @+1 {{tirx.cta_sync may be reached by only part of the CTA's threads: the condition around it depends on the result of 'tirx.slot_load', which TirX does not prove the same for every thread}}
    tirx.cta_sync
  }
  tirx.return
}

// -----

// An scf.while whose condition depends on the thread.
tirx.kernel @thread_while() launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-note @+1 {{the loop that depends on the thread}}
  %last = scf.while (%i = %tx) : (index) -> index {
    %more = arith.cmpi ult, %i, %c64 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    // expected-warning @+1 {{tirx.cta_sync may be reached by only part of the CTA's threads: the scf.while around it has a condition that depends on the thread index, and TirX does not decide how often each thread runs it}}
    tirx.cta_sync
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  tirx.return
}

// -----

// A named barrier whose thread count is not the number of threads that
// reach it: four warps take a barrier of 64 threads.
tirx.kernel @named_barrier_count_too_small() launch(grid = [1], block = [256]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c4 = arith.constant 4 : index
  %warp = arith.divui %tx, %c32 : index
  %lt = arith.cmpi ult, %warp, %c4 : index
  scf.if %lt {
    // expected-error @+1 {{'bar.sync' waits for 64 threads of barrier 1, but 128 threads of the CTA reach it: thread 64 (warp 2, lane 0) is one more than it waits for (the count must be the number of threads that take part)}}
    tile.apply "bar.sync" scope(cta) (1 : i32, 64 : i32)
  }
  tirx.return
}

// -----

// Two warps take a barrier of 128 threads, and nothing else arrives on it.
tirx.kernel @named_barrier_count_too_large() launch(grid = [1], block = [256]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %warp = arith.divui %tx, %c32 : index
  %lt = arith.cmpi ult, %warp, %c2 : index
  scf.if %lt {
    // expected-error @+1 {{'bar.sync' waits for 128 threads of barrier 2, but 64 threads of the CTA reach it, and no other instruction arrives on barrier 2: they wait for ever (thread 64 (warp 2, lane 0) does not reach it)}}
    tile.apply "bar.sync" scope(cta) (2 : i32, 128 : i32)
  }
  tirx.return
}

// -----

// Producers arrive (bar.arrive) and consumers wait (bar.sync) on one named
// barrier: together they must be its count, but the two warps of each side
// make 128 threads where it counts 96.
tirx.kernel @producer_consumer_count(%n: i32) launch(grid = [1], block = [128]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %warp = arith.divui %tx, %c32 : index
  %consumer = arith.cmpi ult, %warp, %c2 : index
  scf.if %consumer {
    // expected-error @+1 {{'bar.sync' and the other 1 instruction(s) on barrier 1 count 96 threads, but 128 threads of the CTA reach one of them: thread 96 (warp 3, lane 0) is one more than it waits for (the count must be the number of threads that take part)}}
    tile.apply "bar.sync" scope(cta) (1 : i32, 96 : i32)
  } else {
    // expected-note @+1 {{another instruction on barrier 1}}
    tile.apply "bar.arrive" scope(cta) (1 : i32, 96 : i32)
  }
  tirx.return
}

// -----

// Producers and consumers name one barrier with two counts.
tirx.kernel @producer_consumer_two_counts() launch(grid = [1], block = [192]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %warp = arith.divui %tx, %c32 : index
  %consumer = arith.cmpi ult, %warp, %c2 : index
  scf.if %consumer {
    // expected-note @+1 {{the other count}}
    tile.apply "bar.sync" scope(cta) (1 : i32, 128 : i32)
  } else {
    // expected-error @+1 {{'bar.arrive' counts 64 threads on barrier 1, but 'bar.sync' (noted) counts 128 on it: every instruction on one barrier counts the same threads (those that arrive and those that wait, together)}}
    tile.apply "bar.arrive" scope(cta) (1 : i32, 64 : i32)
  }
  tirx.return
}

// -----

// Only the consumers reach the barrier both sides name: the producers'
// bar.arrive is under a condition no thread takes.
tirx.kernel @producers_never_arrive() launch(grid = [1], block = [192]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %warp = arith.divui %tx, %c32 : index
  %consumer = arith.cmpi ult, %warp, %c2 : index
  %never = arith.cmpi ugt, %warp, %c10 : index
  scf.if %consumer {
    // expected-error @+1 {{'bar.sync' and the other 1 instruction(s) on barrier 1 count 128 threads, but 64 threads of the CTA reach one of them: they wait for ever (thread 64 (warp 2, lane 0) reaches none of them)}}
    tile.apply "bar.sync" scope(cta) (1 : i32, 128 : i32)
  }
  scf.if %never {
    // expected-note @+1 {{another instruction on barrier 1}}
    tile.apply "bar.arrive" scope(cta) (1 : i32, 128 : i32)
  }
  tirx.return
}
