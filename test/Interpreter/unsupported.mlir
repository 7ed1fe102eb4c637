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

// TMA reductions are not modelled yet.
!C = !tirx.tensor<64x32xf32, global, align = 16>
!cbox = !tirx.tensor<64x32xf32, global, #tirx.layout<S[(64, 32) : (32, 1)]>, align = 16>
!img = !tirx.tensor<64x32xf32, shared, align = 128>
tirx.kernel @tma_reduce(%C: !C) launch(grid = [1], block = [32]) {
  %img = tirx.alloc_shared : !img
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  scf.if %is0 {
    %cbox = tirx.region %C[0, 0] [64, 32] : !C
    // expected-error @+1 {{the interpreter does not model 'cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group' (form cp.reduce.async.bulk.tensor) yet}}
    tile.apply "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group" scope(thread) (%cbox, %img)
        : !cbox, !img
  }
  tirx.return
}

// -----

// Cluster barriers are not modelled yet.
tirx.kernel @cluster_barrier() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{the interpreter does not model 'barrier.cluster.arrive.aligned' (form barrier.cluster.arrive.aligned) yet}}
  tile.apply "barrier.cluster.arrive.aligned" scope(warp) ()
  tirx.return
}
