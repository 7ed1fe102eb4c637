// Kernels whose synchronization is beyond the race proof's model
// (docs/races.md): a warning names the construct, never a silent
// acceptance; with strict-races the kernel is refused.
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels
// RUN: not tirx-opt %s -split-input-file --tirx-verify-kernels=strict-races=true 2>&1 | FileCheck %s --check-prefix=STRICT

// A cp.async pipeline with no wait after its loop: the copies of its last
// iteration are never completed.
// STRICT: races-beyond-model.mlir:[[# @LINE + 13]]:5: error: the kernel's shared memory is not proven free of data races: 'cp.async.ca.shared.global': no wait on the way after it is sure to complete its group (the race proof looks in the copy's iteration, in later iterations of the innermost loop around it or of a loop after it, an scf.for that commits and waits at its body's top level, and for a pipeline's last copies after that loop)
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
    // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'cp.async.ca.shared.global': no wait on the way after it is sure to complete its group (the race proof looks in the copy's iteration, in later iterations of the innermost loop around it or of a loop after it, an scf.for that commits and waits at its body's top level, and for a pipeline's last copies after that loop)}}
    tile.apply "cp.async.ca.shared.global" scope(cta) (%dst, %G, 16 : i32) : !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (128, 4, 1)]>, align = 16>, !G
    tile.apply "cp.async.commit_group" scope(cta) ()
    tile.apply "cp.async.wait_group" scope(cta) (1 : i32)
    tirx.cta_sync
  }
  tirx.return
}

// -----

tirx.kernel @mbarrier() launch(grid = [1], block = [128]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'mbarrier.init.shared::cta.b64': mbarrier arrivals and phase waits order threads in ways the race proof does not model yet}}
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 1 : i32) pred(%first) : !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @tma(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 64] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': TMA copies complete on an mbarrier transaction, which the race proof does not model yet}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar) pred(%first)
      : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

// A named barrier of half the block.
tirx.kernel @partial_named_barrier() launch(grid = [1], block = [128]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %warp = arith.divui %tx, %c32 : index
  %low = arith.cmpi ult, %warp, %c2 : index
  scf.if %low {
    // expected-warning @+1 {{the kernel's shared memory is not proven free of data races: 'bar.sync': named barriers of part of the block, bar.arrive, bar.warp.sync and cluster barriers order threads in ways the race proof does not model yet}}
    tile.apply "bar.sync" scope(cta) (1 : i32, 64 : i32)
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
