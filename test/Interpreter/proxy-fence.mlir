// Shared memory written by st.shared (the generic proxy) and read by a TMA
// store (the async proxy) needs a fence.proxy.async by the writing thread
// between the two (PTX ISA, "Proxies"; docs/interpreter.md).
// RUN: tirx-opt %s --split-input-file --tirx-interpret --verify-diagnostics -o /dev/null

#own = #tirx.layout<S[(32, 4) : (1@laneid, 1)]>
!img = !tirx.tensor<32x4xf32, shared, align = 128>
!C = !tirx.tensor<32x4xf32, global, align = 16>
!box = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (4, 1)]>, align = 16>
tirx.kernel @missing_fence(%A: !C, %C: !C) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x4xf32, local, #own>
  tile.apply "ld.global.v4.b32" scope(warp) (%r, %A) : !tirx.tensor<32x4xf32, local, #own>, !C
  %img = tirx.alloc_shared : !img
  // expected-note @+1 {{the generic write}}
  tile.apply "st.shared.v4.b32" scope(warp) (%img, %r) : !img, !tirx.tensor<32x4xf32, local, #own>
  tirx.cta_sync
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  scf.if %is0 {
    %box = tirx.region %C[0, 0] [32, 4] : !C
    // expected-error-re @+1 {{the async proxy reads byte 0 of the shared tensor allocated at {{.*}}, which block (0, 0, 0) thread 0 (warp 0, lane 0) wrote through the generic proxy with no fence.proxy.async after the write}}
    tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %img) : !box, !img
  }
  tirx.return
}

// -----

// The same kernel with each writer's fence before the barrier: the store
// copies A to C.
#own = #tirx.layout<S[(32, 4) : (1@laneid, 1)]>
!img = !tirx.tensor<32x4xf32, shared, align = 128>
!C = !tirx.tensor<32x4xf32, global, align = 16>
!box = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (4, 1)]>, align = 16>
tirx.kernel @fenced(%A: !C, %C: !C) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x4xf32, local, #own>
  tile.apply "ld.global.v4.b32" scope(warp) (%r, %A) : !tirx.tensor<32x4xf32, local, #own>, !C
  %img = tirx.alloc_shared : !img
  tile.apply "st.shared.v4.b32" scope(warp) (%img, %r) : !img, !tirx.tensor<32x4xf32, local, #own>
  tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  tirx.cta_sync
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  scf.if %is0 {
    %box = tirx.region %C[0, 0] [32, 4] : !C
    tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %img) : !box, !img
  }
  tirx.return
}
