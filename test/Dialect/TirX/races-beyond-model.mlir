// Kernels whose synchronization is beyond the race proof's model
// (docs/races.md): a warning names the construct, never a silent
// acceptance; with strict-races the kernel is refused.
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels
// RUN: not tirx-opt %s -split-input-file --tirx-verify-kernels=strict-races=true 2>&1 | FileCheck %s --check-prefix=STRICT

// A cp.async pipeline with no wait after its loop: the copies of its last
// iteration are never completed.
// STRICT: races-beyond-model.mlir:[[# @LINE + 13]]:5: error: the kernel's shared memory is not proven free of data races: 'cp.async.ca.shared.global': no wait on the way after it is sure to complete its group (the race proof looks in its own iteration, in later iterations of the innermost loop around it or of a loop after it, an scf.for that commits and waits at its body's top level or in scf.ifs its thread surely takes, and for a pipeline's last accesses after that loop)
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<2x4x32x4xf32, shared, align = 16>
tirx.kernel @cp_async_pipeline(%G: !G) launch(grid = [1], block = [128]) {
  %s = tirx.alloc_shared : !S
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %stage = arith.remui %i, %c1 : index
    %stage_tile = tirx.region %s[%stage, 0, 0, 0] [1, 4, 32, 4] : !S
    %dst = tirx.view %stage_tile : !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 128, 4, 1)]>, align = 16> -> !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (128, 4, 1)]>, align = 16>
    // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'cp.async.ca.shared.global': no wait on the way after it is sure to complete its group (the race proof looks in its own iteration, in later iterations of the innermost loop around it or of a loop after it, an scf.for that commits and waits at its body's top level or in scf.ifs its thread surely takes, and for a pipeline's last accesses after that loop)}}
    tile.apply "cp.async.ca.shared.global" scope(cta) (%dst, %G, 16 : i32) : !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (128, 4, 1)]>, align = 16>, !G
    tile.apply "cp.async.commit_group" scope(cta) ()
    tile.apply "cp.async.wait_group" scope(cta) (1 : i32)
    tirx.cta_sync
  }
  tirx.return
}

// -----

// A single test of a phase: its retry loop is the kernel's own.
!bar = !tirx.tensor<1xi64, shared, align = 8>
tirx.kernel @single_try() launch(grid = [1], block = [128]) {
  %bar = tirx.alloc_shared : !bar
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 128 : i32) pred(%first) : !bar
  tirx.cta_sync
  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%bar) : !bar
  %done = tirx.alloc_local : !tirx.tensor<1xi1, local>
  // STRICT: races-beyond-model.mlir:[[# @LINE + 2]]:3: error: the kernel's shared memory is not proven free of data races: 'mbarrier.test_wait.parity.shared::cta.b64': a single test of a phase, whose retry loop the race proof does not follow (the retry form, `mbarrier.try_wait.parity` without a predicate, is modeled)
  // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'mbarrier.test_wait.parity.shared::cta.b64': a single test of a phase, whose retry loop the race proof does not follow (the retry form, `mbarrier.try_wait.parity` without a predicate, is modeled)}}
  tile.apply "mbarrier.test_wait.parity.shared::cta.b64" scope(thread) (%done, %bar, 0 : i32) : !tirx.tensor<1xi1, local>, !bar
  tirx.return
}

// -----

// One mbarrier in every iteration of a loop: its phases are not numbered
// by a step.
tirx.kernel @one_barrier_in_a_loop() launch(grid = [1], block = [128]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // STRICT: races-beyond-model.mlir:[[# @LINE + 2]]:5: error: the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': it uses one mbarrier in every iteration of a loop: the race proof models rings of mbarriers whose index is `step % stages` of a pipeline step
    // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': it uses one mbarrier in every iteration of a loop: the race proof models rings of mbarriers whose index is `step % stages` of a pipeline step}}
    tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%bar) : !tirx.tensor<1xi64, shared, align = 8>
  }
  tirx.return
}

// -----

// A ring whose step restarts in every iteration of the outer loop (each
// tile's K steps numbered from 0): its phases are not the steps'.
!ring = !tirx.tensor<2xi64, shared, align = 8>
tirx.kernel @step_restarts() launch(grid = [1], block = [128]) {
  %bars = tirx.alloc_shared : !ring
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %tile = %c0 to %c4 step %c1 {
    scf.for %kb = %c0 to %c4 step %c1 {
      %stage = arith.remsi %kb, %c2 : index
      %bar = tirx.region %bars[%stage] [1] : !ring
      // STRICT: races-beyond-model.mlir:[[# @LINE + 2]]:7: error: the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': its pipeline step does not grow from one iteration of the loop at loc({{.*}}races-beyond-model.mlir":{{.*}}:3) to the next, so its phase is not the step's (the race proof numbers a ring's phases by its steps)
      // expected-warning-re @+1 {{the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': its pipeline step does not grow from one iteration of the loop at loc({{.*}}races-beyond-model.mlir":{{[0-9]+}}:3) to the next, so its phase is not the step's (the race proof numbers a ring's phases by its steps)}}
      tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%bar) : !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
    }
  }
  tirx.return
}

// -----

// A wait whose parity is not the phase of its step.
!ring = !tirx.tensor<2xi64, shared, align = 8>
tirx.kernel @parity_of_another_step() launch(grid = [1], block = [128]) {
  %bars = tirx.alloc_shared : !ring
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %kb = %c0 to %c8 step %c1 {
    %stage = arith.remsi %kb, %c2 : index
    %bar = tirx.region %bars[%stage] [1] : !ring
    %parity = arith.remsi %kb, %c2 : index
    %p = arith.index_cast %parity : index to i32
    // STRICT: races-beyond-model.mlir:[[# @LINE + 2]]:5: error: the kernel's shared memory is not proven free of data races: 'mbarrier.try_wait.parity.shared::cta.b64': its parity is not `step / 2 % 2` (or 1 minus it) of the step its mbarrier's index is taken from
    // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'mbarrier.try_wait.parity.shared::cta.b64': its parity is not `step / 2 % 2` (or 1 minus it) of the step its mbarrier's index is taken from}}
    tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%bar, %p) : !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>, i32
  }
  tirx.return
}

// -----

// A wait outside loops whose parity is not its phase's: the first wait on
// a barrier is for phase 0.
tirx.kernel @first_wait_at_parity_one() launch(grid = [1], block = [128]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  // STRICT: races-beyond-model.mlir:[[# @LINE + 2]]:3: error: the kernel's shared memory is not proven free of data races: 'mbarrier.try_wait.parity.shared::cta.b64': its parity is not that of phase 0, the waits on its mbarrier before it in program order (the race proof numbers the phases of an mbarrier used outside loops by its waits)
  // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'mbarrier.try_wait.parity.shared::cta.b64': its parity is not that of phase 0, the waits on its mbarrier before it in program order (the race proof numbers the phases of an mbarrier used outside loops by its waits)}}
  tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%bar, 1 : i32) : !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

// A barrier of a two-dimensional allocation.
tirx.kernel @two_dimensional_barriers() launch(grid = [1], block = [128]) {
  %bars = tirx.alloc_shared : !tirx.tensor<2x2xi64, shared, align = 8>
  %bar = tirx.region %bars[1, 0] [1, 1] : !tirx.tensor<2x2xi64, shared, align = 8>
  // STRICT: races-beyond-model.mlir:[[# @LINE + 2]]:3: error: the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': its mbarrier is not an element of a one-dimensional allocation of mbarriers
  // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': its mbarrier is not an element of a one-dimensional allocation of mbarriers}}
  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%bar) : !tirx.tensor<1x1xi64, shared, #tirx.layout<S[(1, 1) : (2, 1)] + 2>, align = 8>
  tirx.return
}

// -----

// A barrier of a view of the allocation.
tirx.kernel @viewed_barriers() launch(grid = [1], block = [128]) {
  %bars = tirx.alloc_shared : !tirx.tensor<2xi64, shared, align = 8>
  %view = tirx.view %bars : !tirx.tensor<2xi64, shared, align = 8> -> !tirx.tensor<2x1xi64, shared, align = 8>
  // STRICT: races-beyond-model.mlir:[[# @LINE + 2]]:3: error: the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': its mbarrier is not an element of a one-dimensional allocation of mbarriers (tirx.alloc_shared)
  // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': its mbarrier is not an element of a one-dimensional allocation of mbarriers (tirx.alloc_shared)}}
  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%view) : !tirx.tensor<2x1xi64, shared, align = 8>
  tirx.return
}

// -----

// A ring indexed by the step itself, not the step modulo its barriers.
tirx.kernel @index_not_modulo() launch(grid = [1], block = [128]) {
  %bars = tirx.alloc_shared : !tirx.tensor<4xi64, shared, align = 8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %kb = %c0 to %c4 step %c1 {
    %bar = tirx.region %bars[%kb] [1] : !tirx.tensor<4xi64, shared, align = 8>
    // STRICT: races-beyond-model.mlir:[[# @LINE + 2]]:5: error: the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': its mbarrier's index is not `step % 4` of a pipeline step (the race proof models rings of mbarriers used in turn)
    // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': its mbarrier's index is not `step % 4` of a pipeline step (the race proof models rings of mbarriers used in turn)}}
    tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%bar) : !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
  }
  tirx.return
}

// -----

// A ring's last release named by a constant index (its step folded away):
// which phase it arrives in is unknown.
tirx.kernel @constant_on_a_ring() launch(grid = [1], block = [128]) {
  %bars = tirx.alloc_shared : !tirx.tensor<2xi64, shared, align = 8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %kb = %c0 to %c4 step %c1 {
    %stage = arith.remsi %kb, %c2 : index
    %bar = tirx.region %bars[%stage] [1] : !tirx.tensor<2xi64, shared, align = 8>
    tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%bar) : !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
  }
  %last = tirx.region %bars[1] [1] : !tirx.tensor<2xi64, shared, align = 8>
  // STRICT: races-beyond-model.mlir:[[# @LINE + 2]]:3: error: the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': its mbarrier is a constant element of a ring whose other ops name a pipeline step, so its step is unknown (the race proof needs its index as `step % stages` of an index value)
  // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'mbarrier.arrive.shared::cta.b64': its mbarrier is a constant element of a ring whose other ops name a pipeline step, so its step is unknown (the race proof needs its index as `step % stages` of an index value)}}
  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%last) : !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1] + 1>, align = 8>
  tirx.return
}

// -----

// A TMA store no bulk wait_group completes: how long it reads its image is
// unknown.
tirx.kernel @tma_store_never_waited(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %box = tirx.region %A[0, 64] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  // STRICT: races-beyond-model.mlir:[[# @LINE + 2]]:3: error: the kernel's shared memory is not proven free of data races: 'cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group': no wait on the way after it is sure to complete its group (the race proof looks in its own iteration, in later iterations of the innermost loop around it or of a loop after it, an scf.for that commits and waits at its body's top level or in scf.ifs its thread surely takes, and for a pipeline's last accesses after that loop)
  // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group': no wait on the way after it is sure to complete its group}}
  tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %img) pred(%first)
      : !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>, !tirx.tensor<64x64xbf16, shared, align = 128>
  tirx.return
}

// -----

// A named barrier that warp 0 arrives at (bar.arrive) and warp 1 waits at:
// an order from one to the other the proof does not model.
tirx.kernel @arrive_and_wait() launch(grid = [1], block = [128]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %warp = arith.divui %tx, %c32 : index
  %first = arith.cmpi eq, %warp, %c0 : index
  %second = arith.cmpi eq, %warp, %c1 : index
  scf.if %first {
    // STRICT: races-beyond-model.mlir:[[# @LINE + 2]]:5: error: the kernel's shared memory is not proven free of data races: 'bar.arrive': bar.arrive, bar.warp.sync and cluster barriers order threads in ways the race proof does not model yet
    // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'bar.arrive': bar.arrive, bar.warp.sync and cluster barriers order threads in ways the race proof does not model yet}}
    tile.apply "bar.arrive" scope(cta) (1 : i32, 64 : i32)
  } else {
    scf.if %second {
      tile.apply "bar.sync" scope(cta) (1 : i32, 64 : i32)
    }
  }
  tirx.return
}

// -----

// A barrier under a condition on a value read from memory: the proof does
// not relate that condition to the others, so what it finds is a warning.
// STRICT: races-beyond-model.mlir:[[# @LINE + 24]]:3: error: 'tile.apply' op data race on byte 0 of the shared tensor allocated at
!one = !tirx.tensor<1xui32, local>
!word = !tirx.tensor<1xui32, shared>
tirx.kernel @barrier_on_loaded_value(%G: !tirx.tensor<1xui32, global>) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !one
  tile.apply "ld.global.u32" scope(thread) (%r, %G) : !one, !tirx.tensor<1xui32, global>
  // expected-note @+1 {{the shared tensor is allocated here}}
  %s = tirx.alloc_shared : !word
  // expected-note @+1 {{the result is made here}}
  %loaded = tirx.slot_load %r[0] : !one -> i32
  %c0 = arith.constant 0 : i32
  %go = arith.cmpi ne, %loaded, %c0 : i32
  %tx = tirx.thread_idx x
  %c0i = arith.constant 0 : index
  %leader = arith.cmpi eq, %tx, %c0i : index
  // expected-note @+1 {{the other access: the write of byte 0 by thread 0 (warp 0, lane 0)}}
  tile.apply "st.shared.u32" scope(thread) (%s, %r) pred(%leader) : !word, !one
  // expected-note @+2 {{the condition that depends on it}}
  // expected-note @+1 {{a CTA barrier runs under this construct, which decides on a value read from memory: the race proof does not relate it to the kernel's other conditions, so the witness may not be a real execution}}
  scf.if %go {
    // expected-warning @+1 {{tirx.cta_sync may be reached by only part of the CTA's threads}}
    tirx.cta_sync
  }
  // expected-warning-re @+1 {{the kernel's shared memory is not proven free of data races: a possible data race on byte 0 of the shared tensor allocated at {{.*}}: this read by thread 32 (warp 1, lane 0) and the write by thread 0 (warp 0, lane 0) at the op noted below can run with no CTA barrier between them}}
  tile.apply "ld.shared.u32" scope(thread) (%r, %s) : !one, !word
  tirx.return
}
