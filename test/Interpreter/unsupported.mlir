// What the interpreter refuses to run, and the run-time errors of ordinary
// operations (docs/interpreter.md).
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

// Cluster barriers are not modelled yet.
tirx.kernel @cluster_barrier() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{the interpreter does not model 'barrier.cluster.arrive.aligned' (form barrier.cluster.arrive.aligned) yet}}
  tile.apply "barrier.cluster.arrive.aligned" scope(warp) ()
  tirx.return
}
