// The proxy check (docs/races.md, "Proxies"): after a thread's generic write
// of shared memory that the async proxy reads (a TMA store's image, wgmma's
// A and B), the thread executes fence.proxy.async before anything that may
// hand the bytes over (a barrier, an mbarrier arrival, its own async read).
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels
// The interpreter meets each missing fence as it runs:
// RUN: not tirx-opt %s -split-input-file --tirx-interpret -o /dev/null 2>&1 | FileCheck %s --check-prefix=INTERP

// Accepted (and proven race-free): every thread stores its element, fences,
// and the barrier hands the image to thread 0's TMA store, which reads it
// until its bulk wait_group.
!img = !tirx.tensor<32x4xf32, shared, align = 128>
!box = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (256, 1)] + 32>, align = 16>
!elem = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (4, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @fenced_store(%A: !tirx.tensor<32x256xf32, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !img
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %row = arith.remui %tx, %c32 : index
  %col = arith.divui %tx, %c32 : index
  %x = tirx.region %img[%row, %col] [1, 1] : !img
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 1.0 : f32) : !reg
  tile.apply "st.shared.b32" scope(thread) (%x, %r) : !elem, !reg
  tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  tirx.cta_sync
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %box = tirx.region %A[0, 32] [32, 4] : !tirx.tensor<32x256xf32, global, align = 16>
    tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %img) : !box, !img
    tile.apply "cp.async.bulk.commit_group" scope(thread) ()
    tile.apply "cp.async.bulk.wait_group.read" scope(thread) (0 : i32)
  }
  tirx.return
}

// -----

// No fence: thread 0's TMA store may read the image before the other
// threads' stores reach the async proxy.
!img = !tirx.tensor<32x4xf32, shared, align = 128>
!box = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (256, 1)] + 32>, align = 16>
!elem = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (4, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @unfenced_store(%A: !tirx.tensor<32x256xf32, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !img
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %row = arith.remui %tx, %c32 : index
  %col = arith.divui %tx, %c32 : index
  %x = tirx.region %img[%row, %col] [1, 1] : !img
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 1.0 : f32) : !reg
  // expected-error @+1 {{writes shared memory that the async proxy reads (the op noted below), but no fence.proxy.async follows the write in its thread before the op noted after it, which may hand the bytes over: a generic-proxy write is visible to the async proxy (TMA, wgmma) only after the writing thread's fence.proxy.async}}
  tile.apply "st.shared.b32" scope(thread) (%x, %r) : !elem, !reg
  // expected-note @+1 {{the bytes may be handed over here, unfenced}}
  tirx.cta_sync
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %box = tirx.region %A[0, 32] [32, 4] : !tirx.tensor<32x256xf32, global, align = 16>
    // INTERP: proxy-fences.mlir:[[# @LINE + 2]]:5: error: the async proxy reads byte 0 of the shared tensor
    // expected-note @+1 {{the async proxy reads the shared tensor here}}
    tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %img) : !box, !img
    tile.apply "cp.async.bulk.commit_group" scope(thread) ()
    tile.apply "cp.async.bulk.wait_group.read" scope(thread) (0 : i32)
  }
  tirx.return
}

// -----

// A fence of global memory only does not order shared memory.
!img = !tirx.tensor<32x4xf32, shared, align = 128>
!box = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (256, 1)] + 32>, align = 16>
!elem = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (4, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @global_fence_only(%A: !tirx.tensor<32x256xf32, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !img
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %row = arith.remui %tx, %c32 : index
  %col = arith.divui %tx, %c32 : index
  %x = tirx.region %img[%row, %col] [1, 1] : !img
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 1.0 : f32) : !reg
  // expected-error @+1 {{writes shared memory that the async proxy reads (the op noted below), but no fence.proxy.async follows the write in its thread before the op noted after it, which may hand the bytes over: a generic-proxy write is visible to the async proxy (TMA, wgmma) only after the writing thread's fence.proxy.async}}
  tile.apply "st.shared.b32" scope(thread) (%x, %r) : !elem, !reg
  tile.apply "fence.proxy.async.global" scope(thread) ()
  // expected-note @+1 {{the bytes may be handed over here, unfenced}}
  tirx.cta_sync
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %box = tirx.region %A[0, 32] [32, 4] : !tirx.tensor<32x256xf32, global, align = 16>
    // INTERP: proxy-fences.mlir:[[# @LINE + 2]]:5: error: the async proxy reads byte 0 of the shared tensor
    // expected-note @+1 {{the async proxy reads the shared tensor here}}
    tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %img) : !box, !img
    tile.apply "cp.async.bulk.commit_group" scope(thread) ()
    tile.apply "cp.async.bulk.wait_group.read" scope(thread) (0 : i32)
  }
  tirx.return
}

// -----

// The fence after the barrier comes too late: the barrier hands the
// bytes over.
!img = !tirx.tensor<32x4xf32, shared, align = 128>
!box = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (256, 1)] + 32>, align = 16>
!elem = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (4, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @fence_after_barrier(%A: !tirx.tensor<32x256xf32, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !img
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %row = arith.remui %tx, %c32 : index
  %col = arith.divui %tx, %c32 : index
  %x = tirx.region %img[%row, %col] [1, 1] : !img
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 1.0 : f32) : !reg
  // expected-error @+1 {{writes shared memory that the async proxy reads (the op noted below), but no fence.proxy.async follows the write in its thread before the op noted after it, which may hand the bytes over: a generic-proxy write is visible to the async proxy (TMA, wgmma) only after the writing thread's fence.proxy.async}}
  tile.apply "st.shared.b32" scope(thread) (%x, %r) : !elem, !reg
  // expected-note @+1 {{the bytes may be handed over here, unfenced}}
  tirx.cta_sync
  tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %box = tirx.region %A[0, 32] [32, 4] : !tirx.tensor<32x256xf32, global, align = 16>
    // INTERP: proxy-fences.mlir:[[# @LINE + 2]]:5: error: the async proxy reads byte 4 of the shared tensor
    // expected-note @+1 {{the async proxy reads the shared tensor here}}
    tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %img) : !box, !img
    tile.apply "cp.async.bulk.commit_group" scope(thread) ()
    tile.apply "cp.async.bulk.wait_group.read" scope(thread) (0 : i32)
  }
  tirx.return
}

// -----

// The stores at the end of a loop's body are handed over by the barrier at
// the start of its next iteration: they need their fence before the back
// edge.
!img = !tirx.tensor<32x4xf32, shared, align = 128>
!box = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (256, 1)] + 32>, align = 16>
!elem = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (4, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @unfenced_before_the_back_edge(%A: !tirx.tensor<32x256xf32, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !img
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %row = arith.remui %tx, %c32 : index
  %col = arith.divui %tx, %c32 : index
  %x = tirx.region %img[%row, %col] [1, 1] : !img
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 1.0 : f32) : !reg
  %first = arith.cmpi eq, %tx, %c0 : index
  tile.apply "st.shared.b32" scope(thread) (%x, %r) : !elem, !reg
  tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-note @+1 {{the bytes may be handed over here, unfenced}}
    tirx.cta_sync
    scf.if %first {
      %box = tirx.region %A[0, 32] [32, 4] : !tirx.tensor<32x256xf32, global, align = 16>
      // INTERP: proxy-fences.mlir:[[# @LINE + 2]]:7: error: the async proxy reads byte 0 of the shared tensor
      // expected-note @+1 {{the async proxy reads the shared tensor here}}
      tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %img) : !box, !img
      tile.apply "cp.async.bulk.commit_group" scope(thread) ()
      tile.apply "cp.async.bulk.wait_group.read" scope(thread) (0 : i32)
    }
    tirx.cta_sync
    // expected-error @+1 {{writes shared memory that the async proxy reads (the op noted below), but no fence.proxy.async follows the write in its thread before the op noted after it, which may hand the bytes over: a generic-proxy write is visible to the async proxy (TMA, wgmma) only after the writing thread's fence.proxy.async}}
    tile.apply "st.shared.b32" scope(thread) (%x, %r) : !elem, !reg
  }
  tirx.return
}
