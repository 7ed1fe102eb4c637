// A wgmma's accumulators are in flight until a wgmma.wait_group retires its
// group: a read before that is reported (docs/interpreter.md). The shared
// operands are never written here, so the uninitialized check is off.
// RUN: tirx-opt %s --split-input-file --tirx-interpret=uninitialized=0 --verify-diagnostics -o /dev/null

#d64 = #tirx.layout<S[(4, 2, 8, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#kmajor = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @early_read() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x64xf32, local, #d64>
  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  // expected-note @+1 {{the wgmma}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, false, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x64xf32, local, #d64>, !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>,
        !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
  // expected-error @+1 {{reads registers a wgmma still accumulates into (block (0, 0, 0) thread 0 (warp 0, lane 0)): wait for its group with wgmma.wait_group first}}
  %x = tirx.slot_load %d[0] : !tirx.tensor<64x64xf32, local, #d64> -> f32
  tirx.return
}

// -----

// The same read after the wait: no report.
#d64 = #tirx.layout<S[(4, 2, 8, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#kmajor = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @waited_read() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x64xf32, local, #d64>
  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  tile.apply "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, false, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x64xf32, local, #d64>, !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>,
        !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
  tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)
  %x = tirx.slot_load %d[0] : !tirx.tensor<64x64xf32, local, #d64> -> f32
  tirx.return
}

// -----

// A shared operand overwritten before the wgmma's group completes: the wgmma
// may read it until then (reported at the retiring wait, for the write).
#d64 = #tirx.layout<S[(4, 2, 8, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#kmajor = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @operand_overwritten() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x64xf32, local, #d64>
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  // expected-note @+1 {{the wgmma}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, false, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x64xf32, local, #d64>, !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>,
        !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
  %first = tirx.region %sa[0, 0] [1, 1] : !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  %h = tirx.alloc_local : !tirx.tensor<1x1xbf16, local>
  // expected-error-re @+1 {{overwrites byte 0 of the shared tensor allocated at {{.*}} while a wgmma issued before it may still read it (block (0, 0, 0) thread 0 (warp 0, lane 0)): the wgmma's group must complete (wgmma.wait_group) before its operands are written}}
  tile.apply "st.shared.b16" scope(thread) (%first, %h) pred(%is0)
      : !tirx.tensor<1x1xbf16, shared, #tirx.layout<S[(1, 1) : (8, 1)]>, align = 16>, !tirx.tensor<1x1xbf16, local>
  tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)
  tirx.return
}
