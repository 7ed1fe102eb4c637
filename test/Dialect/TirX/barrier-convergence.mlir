// CTA barriers every thread reaches: conditions and loops that are the same
// for every thread of the block are accepted without a diagnostic
// (docs/barriers.md).
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels

// A tree reduction: the work is guarded, the barrier is not.
tirx.kernel @guarded_work() launch(grid = [1], block = [128]) {
  %tx = tirx.thread_idx x
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c0 = arith.constant 0 : index
  scf.for %level = %c0 to %c7 step %c1 {
    %half = arith.shrui %c7, %level : index
    %active = arith.cmpi ult, %tx, %half : index
    scf.if %active {
      %unused = arith.muli %tx, %c2 : index
    }
    tirx.cta_sync
  }
  tirx.return
}

// -----

// Conditions on the thread index that every thread of this block decides
// alike.
tirx.kernel @thread_condition_constant() launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %c64 = arith.constant 64 : index
  %lt = arith.cmpi ult, %tx, %c64 : index
  scf.if %lt {
    tirx.cta_sync
  }
  %warp = arith.divui %tx, %c64 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.addi %warp, %c1 : index
  scf.for %i = %c0 to %n step %c1 {
    tirx.cta_sync
  }
  tirx.return
}

// -----

// The block index, sizes and loop indices are the same for every thread of
// a CTA.
!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>

tirx.kernel @uniform_conditions(%n: index {tirx.size = "n"}, %A: !N)
    launch(grid = [%n ceildiv 128], block = [128]) {
  %bx = tirx.block_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = arith.cmpi eq, %bx, %c0 : index
  scf.if %first {
    tirx.cta_sync
  }
  scf.for %i = %c0 to %n step %c1 {
    %odd = arith.andi %i, %c1 : index
    %isOdd = arith.cmpi ne, %odd, %c0 : index
    scf.if %isOdd {
      tile.apply "bar.sync" scope(cta) (0 : i32)
    }
  }
  tirx.return
}

// -----

// A named barrier of part of the block is not a CTA barrier: warps may take
// it under a condition.
// CHECK-LABEL: tirx.kernel @named_barrier_of_two_warps
tirx.kernel @named_barrier_of_two_warps() launch(grid = [1], block = [128]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %warp = arith.divui %tx, %c32 : index
  %lt = arith.cmpi ult, %warp, %c2 : index
  scf.if %lt {
    tile.apply "bar.sync" scope(cta) (1 : i32, 64 : i32)
  }
  tirx.return
}

// -----

// Two producer warps arrive (bar.arrive) and two consumer warps wait
// (bar.sync) on one named barrier of 128 threads; the block's other two
// warps take no part: together the two sides are its count.
// CHECK-LABEL: tirx.kernel @producer_consumer_handoff
tirx.kernel @producer_consumer_handoff() launch(grid = [1], block = [192]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %warp = arith.divui %tx, %c32 : index
  %consumer = arith.cmpi ult, %warp, %c2 : index
  %producer = arith.cmpi ult, %warp, %c4 : index
  scf.if %consumer {
    tile.apply "bar.sync" scope(cta) (1 : i32, 128 : i32)
  } else {
    scf.if %producer {
      // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'bar.arrive': bar.arrive, bar.warp.sync and cluster barriers order threads}}
      tile.apply "bar.arrive" scope(cta) (1 : i32, 128 : i32)
    }
  }
  tirx.return
}
