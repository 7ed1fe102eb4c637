// The interpreter's thread-block clusters (docs/interpreter.md): remote
// mbarrier arrivals (mapa) and multicast TMA loads that name CTAs outside
// the cluster, or mbarriers a peer has not initialized yet. The Python
// tests (test/python/test_interpreter.py) run test/gpu/run_cluster.py's
// kernels and their seeded bugs.
// RUN: tirx-opt %s --split-input-file --tirx-interpret --verify-diagnostics -o /dev/null

!bar = !tirx.tensor<1xui64, shared, align = 8>
!bar1 = !tirx.tensor<1xui64, shared, #tirx.layout<S[1 : 1]>, align = 8>
// Each CTA's thread 0 arrives on the mbarrier of CTA 4 bx: CTA 1 names a
// CTA outside its cluster of 2.
tirx.kernel @rank_outside() launch(grid = [2], block = [32], cluster = [2]) {
  %bar = tirx.alloc_shared : !bar
  %tx = tirx.thread_idx x
  %bx = tirx.block_idx x
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %b = tirx.region %bar[0] [1] : !bar
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%b, 1 : i32) : !bar1
  }
  tile.apply "barrier.cluster.arrive.aligned" scope(cta) ()
  tile.apply "barrier.cluster.wait.aligned" scope(cta) ()
  scf.if %first {
    %b = tirx.region %bar[0] [1] : !bar
    %rank = arith.muli %bx, %c4 : index
    %rank64 = arith.index_cast %rank : index to i64
    %rank32 = arith.trunci %rank64 : i64 to i32
    // expected-error @+1 {{arrives on the mbarrier of CTA 4 of a cluster of 2 CTAs (block (1, 0, 0) thread 0 (warp 0, lane 0))}}
    tile.apply "mbarrier.arrive.release.cluster.shared::cluster.b64" scope(thread) (%b, %rank32) : !bar1, i32
  }
  tirx.return
}

// -----

!bar = !tirx.tensor<1xui64, shared, align = 8>
!bar1 = !tirx.tensor<1xui64, shared, #tirx.layout<S[1 : 1]>, align = 8>
// No cluster barrier between the init and the remote arrival: CTA 0
// arrives on CTA 1's mbarrier before CTA 1 has initialized it.
tirx.kernel @peer_not_initialized() launch(grid = [2], block = [32], cluster = [2]) {
  %bar = tirx.alloc_shared : !bar
  %tx = tirx.thread_idx x
  %bx = tirx.block_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %b = tirx.region %bar[0] [1] : !bar
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%b, 1 : i32) : !bar1
    %other = arith.subi %c1, %bx : index
    %other64 = arith.index_cast %other : index to i64
    %other32 = arith.trunci %other64 : i64 to i32
    // expected-error-re @+1 {{arrives on an mbarrier CTA 1 has not initialized (block (0, 0, 0) thread 0 (warp 0, lane 0), byte 0 of the shared tensor allocated at loc({{.*}}clusters.mlir":{{[0-9]+}}:10))}}
    tile.apply "mbarrier.arrive.release.cluster.shared::cluster.b64" scope(thread) (%b, %other32) : !bar1, i32
  }
  tile.apply "barrier.cluster.arrive.aligned" scope(cta) ()
  tile.apply "barrier.cluster.wait.aligned" scope(cta) ()
  tirx.return
}

// -----

!bar = !tirx.tensor<1xui64, shared, align = 8>
!bar1 = !tirx.tensor<1xui64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!A = !tirx.tensor<16x64xbf16, global, align = 16>
!img = !tirx.tensor<16x64xbf16, shared, align = 128>
// A multicast whose ctaMask (bit r: the CTA of rank r) names a third CTA
// in a cluster of 2, computed at run time (an immediate is refused by the
// verifier).
tirx.kernel @mask_outside(%A: !A) launch(grid = [2], block = [32], cluster = [2]) {
  %img = tirx.alloc_shared : !img
  %bar = tirx.alloc_shared : !bar
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %b = tirx.region %bar[0] [1] : !bar
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%b, 1 : i32) : !bar1
  }
  tile.apply "barrier.cluster.arrive.aligned" scope(cta) ()
  tile.apply "barrier.cluster.wait.aligned" scope(cta) ()
  scf.if %first {
    %box = tirx.region %A[0, 0] [16, 64] : !A
    %mask = arith.constant 7 : i16
    // expected-error @+1 {{the ctaMask 0x7 names CTAs beyond the cluster of 2 (block (1, 0, 0) thread 0 (warp 0, lane 0))}}
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" scope(thread) (%img, %box, %bar, %mask) : !img, !tirx.tensor<16x64xbf16, global, #tirx.layout<S[(16, 64) : (64, 1)]>, align = 16>, !bar, i16
  }
  tirx.return
}
