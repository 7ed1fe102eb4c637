// What the interpreter refuses to run, the run-time errors of ordinary
// operations and of the cluster barrier (docs/interpreter.md).
// RUN: tirx-opt %s --split-input-file --tirx-interpret --verify-diagnostics -o /dev/null

// An integer division by zero is undefined: the run stops there.
tirx.kernel @divide_by_zero() launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %zero = arith.constant 0 : index
  // expected-error @+1 {{the interpreter cannot evaluate this operation (an integer division by zero or a form it does not model)}}
  %q = arith.divui %tx, %zero : index
  tirx.return
}

// -----

// The cluster barrier (a launch without clusters is clusters of one CTA):
// a wait needs an arrival first, and an arrival a wait before the next.
tirx.kernel @cluster_wait_first() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{waits at the cluster barrier without having arrived (block (0, 0, 0) thread 0 (warp 0, lane 0))}}
  tile.apply "barrier.cluster.wait.aligned" scope(warp) ()
  tirx.return
}

// -----

tirx.kernel @cluster_arrive_twice() launch(grid = [2], block = [64], cluster = [2]) {
  tile.apply "barrier.cluster.arrive.aligned" scope(warp) ()
  // expected-error @+1 {{arrives at the cluster barrier again before waiting for the phase it arrived in (block (0, 0, 0) thread 0 (warp 0, lane 0))}}
  tile.apply "barrier.cluster.arrive.aligned" scope(warp) ()
  tile.apply "barrier.cluster.wait.aligned" scope(warp) ()
  tirx.return
}

// -----

// A CTA that never arrives: the rest of the cluster waits forever.
// expected-note @+2 {{warp 0 of block (1, 0, 0) has finished the kernel}}
// expected-note @+1 {{warp 1 of block (1, 0, 0) has finished the kernel}}
tirx.kernel @cluster_missing_arrival() launch(grid = [2], block = [64], cluster = [2]) {
  %bx = tirx.block_idx x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %bx, %c0 : index
  scf.if %first {
    tile.apply "barrier.cluster.arrive.aligned" scope(cta) ()
    // expected-error @+3 {{deadlock in the cluster of blocks (0, 0, 0) to (1, 0, 0): every warp still running waits for another}}
    // expected-note @+2 {{warp 0 of block (0, 0, 0) waits here}}
    // expected-note @+1 {{warp 1 of block (0, 0, 0) waits here}}
    tile.apply "barrier.cluster.wait.aligned" scope(cta) ()
  }
  tirx.return
}

// -----

// An operation the interpreter does not model is refused by name.
tirx.kernel @region() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{the interpreter does not model 'scf.execute_region'}}
  %r = scf.execute_region -> index {
    %c = arith.constant 5 : index
    scf.yield %c : index
  }
  tirx.return
}
