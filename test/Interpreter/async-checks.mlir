// The interpreter's checks of the asynchronous families (docs/interpreter.md):
// mbarrier misuse, a wrong phase parity, TMA completing on an uninitialized
// mbarrier, accumulators read before their wgmma completes.
// RUN: tirx-opt %s --split-input-file --tirx-interpret --verify-diagnostics -o /dev/null

!bar = !tirx.tensor<1xui64, shared, align = 8>
!state = !tirx.tensor<1xui64, local>
// One thread arrives twice at once on a barrier initialized for one arrival
// per phase.
tirx.kernel @too_many_arrivals() launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  %bar = tirx.alloc_shared : !bar
  // expected-note @+1 {{the mbarrier was initialized here}}
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 1 : i32) pred(%is0) : !bar
  tirx.cta_sync
  %st = tirx.alloc_local : !state
  // expected-error @+1 {{arrives 2 time(s) on an mbarrier whose phase 0 expects only 1 more arrival(s) of 1 (block (0, 0, 0) thread 0 (warp 0, lane 0))}}
  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%st, %bar, 2 : i32) pred(%is0) : !state, !bar
  tirx.return
}

// -----

!bar = !tirx.tensor<1xui64, shared, align = 8>
!state = !tirx.tensor<1xui64, local>
// An arrival on an mbarrier nobody initialized.
tirx.kernel @uninitialized_mbarrier() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !bar
  %st = tirx.alloc_local : !state
  // expected-error-re @+1 {{'mbarrier.arrive.shared::cta.b64' on an mbarrier no thread has initialized (block (0, 0, 0) thread 0 (warp 0, lane 0), byte 0 of the shared tensor allocated at {{.*}})}}
  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%st, %bar) : !state, !bar
  tirx.return
}

// -----

!bar = !tirx.tensor<1xui64, shared, align = 8>
!state = !tirx.tensor<1xui64, local>
// The wrong phase parity: every warp arrives, then waits on parity 1. For the
// warp that runs first, the phase of parity 1 is the one before the current
// phase 0: complete, it goes on and finishes. The other warp's arrivals
// complete phase 0; it then waits for phase 1, which needs arrivals that
// never come.
// expected-note @+1 {{warp 1 has finished the kernel}}
tirx.kernel @wrong_parity() launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  %bar = tirx.alloc_shared : !bar
  // expected-note @+1 {{the mbarrier initialized here is in phase 1, which still waits for 64 arrival(s) of 64}}
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 64 : i32) pred(%is0) : !bar
  tirx.cta_sync
  %st = tirx.alloc_local : !state
  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%st, %bar) : !state, !bar
  // expected-error @+2 {{deadlock in block (0, 0, 0): every warp still running waits for another}}
  // expected-note @+1 {{warp 0 waits here}}
  tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%bar, 1 : i32) : !bar
  tirx.return
}

// -----

!bar = !tirx.tensor<1xui64, shared, align = 8>
!flag = !tirx.tensor<1xi1, local>
// A poll loop on a phase nothing completes.
tirx.kernel @spinning() launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  %bar = tirx.alloc_shared : !bar
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 1 : i32) pred(%is0) : !bar
  tirx.cta_sync
  %done = tirx.alloc_local : !flag
  %true = arith.constant true
  scf.while (%again = %true) : (i1) -> () {
    scf.condition(%again)
  } do {
    // expected-error @+1 {{deadlock: warp 0 polls an mbarrier phase (parity 0) that nothing completes any more}}
    tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%done, %bar, 0 : i32) : !flag, !bar
    %ok = tirx.slot_load %done[0] : !flag -> i1
    %not = arith.xori %ok, %true : i1
    scf.yield %not : i1
  }
  tirx.return
}

// -----

// A TMA load whose mbarrier was never initialized.
tirx.kernel @tma_without_mbarrier(%A: !tirx.tensor<64x64xbf16, global, align = 16>)
    launch(grid = [1], block = [32]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  scf.if %is0 {
    %box = tirx.region %A[0, 0] [64, 64] : !tirx.tensor<64x64xbf16, global, align = 16>
    // expected-error @+1 {{a TMA load completes on an mbarrier no thread has initialized (block (0, 0, 0) thread 0 (warp 0, lane 0))}}
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
        : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (64, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  }
  tirx.return
}

// -----

// An expect_tx announcing more bytes than the TMA load brings: the phase
// never completes.
tirx.kernel @too_many_bytes(%A: !tirx.tensor<64x64xbf16, global, align = 16>)
    launch(grid = [1], block = [32]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  // expected-note @+1 {{the mbarrier initialized here is in phase 0, which still waits for 0 arrival(s) of 1 and 8192 transaction byte(s)}}
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 1 : i32) pred(%is0) : !tirx.tensor<1xui64, shared, align = 8>
  scf.if %is0 {
    tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%bar, 16384 : i32) : !tirx.tensor<1xui64, shared, align = 8>
    %box = tirx.region %A[0, 0] [64, 64] : !tirx.tensor<64x64xbf16, global, align = 16>
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
        : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (64, 1)]>, align = 16>, !tirx.tensor<1xui64, shared, align = 8>
  }
  // expected-error @+2 {{deadlock in block (0, 0, 0): every warp still running waits for another}}
  // expected-note @+1 {{warp 0 waits here}}
  tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%bar, 0 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

// A TMA reduction reads its image: one no thread has written is reported.
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
    // expected-error-re @+1 {{reads byte 0 of the shared tensor allocated at loc({{.*}}async-checks.mlir":{{[0-9]+}}:10), which no thread has written (block (0, 0, 0) thread 0 (warp 0, lane 0))}}
    tile.apply "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group" scope(thread) (%cbox, %img)
        : !cbox, !img
  }
  tirx.return
}
