// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels | FileCheck %s

// wgmma.fence before wgmma.mma_async (docs/wgmma.md): along every path from
// the kernel's start, the last access of the accumulator's (or register A's)
// storage by an instruction other than a wgmma.mma_async must be followed by
// a wgmma.fence.sync.aligned. Accepted kernels print (CHECK-LABEL); rejected
// ones name the operand, the access (a note there) and the fence.

!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>

// The common sequence: zero-fill D, fence, several wgmma (no fence between
// them), commit, wait, then read D.
// CHECK-LABEL: tirx.kernel @fill_fence_mma_read
tirx.kernel @fill_fence_mma_read() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !sa
  %sb = tirx.alloc_shared : !sb
  %d = tirx.alloc_local : !d
  %w = tirx.alloc_local : !w
  %dl = tirx.reinterpret %d : !d -> !dl
  tile.apply "mov.b32" scope(warpgroup) (%dl, 0.0 : f32) : !dl
  // (The race proof: a wait_group completes the wgmma's reads.)
  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
  tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
  tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)
  tile.apply "cvt.rzi.s32.f32" scope(warpgroup) (%w, %dl) : !w, !dl
  tirx.return
}

// -----

// A fresh accumulator whose first access is the wgmma (scale-d 0): no
// register access to order, so no fence is needed.
// CHECK-LABEL: tirx.kernel @fresh
!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
tirx.kernel @fresh() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !sa
  %sb = tirx.alloc_shared : !sb
  %d = tirx.alloc_local : !d
  %w = tirx.alloc_local : !w
  %dl = tirx.reinterpret %d : !d -> !dl
  // (The race proof: a wait_group completes the wgmma's reads.)
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, false, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
  tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
  tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)
  tile.apply "cvt.rzi.s32.f32" scope(warpgroup) (%w, %dl) : !w, !dl
  tirx.return
}

// -----

// A K loop (examples/python/gemm_hopper.py): D zero-filled before the loop
// and read after it; each iteration fences before its wgmma. The read after
// the loop never reaches a wgmma again.
// CHECK-LABEL: tirx.kernel @k_loop
!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
tirx.kernel @k_loop() launch(grid = [1], block = [128]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %sa = tirx.alloc_shared : !sa
  %sb = tirx.alloc_shared : !sb
  %d = tirx.alloc_local : !d
  %w = tirx.alloc_local : !w
  %dl = tirx.reinterpret %d : !d -> !dl
  tile.apply "mov.b32" scope(warpgroup) (%dl, 0.0 : f32) : !dl
  scf.for %k = %c0 to %c4 step %c1 {
    // (The race proof: a wait_group completes the wgmma's reads.)
    tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
    tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
        (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
    tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
        (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
    tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
    tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)
  }
  tile.apply "cvt.rzi.s32.f32" scope(warpgroup) (%w, %dl) : !w, !dl
  tirx.return
}

// -----

// A persistent kernel: an outer loop over tiles reads D after the K loop,
// and the next tile's K loop fences again before its first wgmma. A fence
// before the loop covers a loop whose body never touches D otherwise.
// CHECK-LABEL: tirx.kernel @tile_loop
!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
tirx.kernel @tile_loop(%p: i1) launch(grid = [1], block = [128]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %sa = tirx.alloc_shared : !sa
  %sb = tirx.alloc_shared : !sb
  %d = tirx.alloc_local : !d
  %w = tirx.alloc_local : !w
  %dl = tirx.reinterpret %d : !d -> !dl
  scf.for %t = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      // expected-warning @+13 {{the kernel's shared memory is not proven free of data races: 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': no wait on the way after it is sure to complete its group}}
      tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
      tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
          (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
      tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
      tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (1 : i32)
    }
    tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)
    tile.apply "cvt.rzi.s32.f32" scope(warpgroup) (%w, %dl) : !w, !dl
  }
  tile.apply "mov.b32" scope(warpgroup) (%dl, 0.0 : f32) : !dl
  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  scf.for %k = %c0 to %c4 step %c1 {
    tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
        (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
  }
  // Fenced on both branches.
  scf.if %p {
    tile.apply "mov.b32" scope(warpgroup) (%dl, 0.0 : f32) : !dl
    tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  } else {
    tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  }
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
  tirx.return
}

// -----

// A tile allocated inside the loop is fresh on every iteration: the read at
// the end of one iteration is not pending on the next one's registers.
// CHECK-LABEL: tirx.kernel @alloc_in_loop
!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
tirx.kernel @alloc_in_loop() launch(grid = [1], block = [128]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %sa = tirx.alloc_shared : !sa
  %sb = tirx.alloc_shared : !sb
  %w = tirx.alloc_local : !w
  scf.for %t = %c0 to %c4 step %c1 {
    %d = tirx.alloc_local : !d
    %dl = tirx.reinterpret %d : !d -> !dl
    // (The race proof: a wait_group completes the wgmma's reads.)
    tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
        (%d, %sa, %sb, false, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
    tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
    tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)
    tile.apply "cvt.rzi.s32.f32" scope(warpgroup) (%w, %dl) : !w, !dl
  }
  tirx.return
}

// -----

// No fence after the zero fill.
!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
tirx.kernel @fill_no_fence() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !sa
  %sb = tirx.alloc_shared : !sb
  %d = tirx.alloc_local : !d
  %dl = tirx.reinterpret %d : !d -> !dl
  // expected-note @+1 {{the access}}
  tile.apply "mov.b32" scope(warpgroup) (%dl, 0.0 : f32) : !dl
  // expected-warning @+2 {{the kernel's shared memory is not proven free of data races: 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': no wait on the way after it is sure to complete its group}}
  // expected-error @+1 {{'tile.apply' op operand #0 (d) of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': its registers were accessed by 'mov.b32' (see note) with no wgmma.fence.sync.aligned between that access and this wgmma (PTX: wgmma.fence orders register accesses before wgmma.mma_async)}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
  tirx.return
}

// -----

// The fence comes before the access, not after it.
!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
tirx.kernel @fence_before_fill() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !sa
  %sb = tirx.alloc_shared : !sb
  %d = tirx.alloc_local : !d
  %dl = tirx.reinterpret %d : !d -> !dl
  // expected-warning @+5 {{the kernel's shared memory is not proven free of data races: 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': no wait on the way after it is sure to complete its group}}
  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  // expected-note @+1 {{the access}}
  tile.apply "mov.b32" scope(warpgroup) (%dl, 0.0 : f32) : !dl
  // expected-error @+1 {{its registers were accessed by 'mov.b32' (see note) with no wgmma.fence.sync.aligned between that access and this wgmma}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
  tirx.return
}

// -----

// A fence before the loop, but D read inside the loop after the wgmma: the
// next iteration's wgmma follows that read with no fence.
!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
tirx.kernel @read_in_loop() launch(grid = [1], block = [128]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %sa = tirx.alloc_shared : !sa
  %sb = tirx.alloc_shared : !sb
  %d = tirx.alloc_local : !d
  %w = tirx.alloc_local : !w
  %dl = tirx.reinterpret %d : !d -> !dl
  tile.apply "mov.b32" scope(warpgroup) (%dl, 0.0 : f32) : !dl
  // (The race proof: a wait_group completes the wgmma's reads.)
  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  scf.for %k = %c0 to %c4 step %c1 {
    // expected-error @+1 {{operand #0 (d) of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': its registers were accessed by 'cvt.rzi.s32.f32' (see note) with no wgmma.fence.sync.aligned between that access and this wgmma}}
    tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
        (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
    tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
    tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)
    // expected-note @+1 {{the access, which reaches the wgmma through the back edge of a loop around both}}
    tile.apply "cvt.rzi.s32.f32" scope(warpgroup) (%w, %dl) : !w, !dl
  }
  tirx.return
}

// -----

// The read is in a nested branch of the outer loop; the fence in the inner
// loop comes after the wgmma, so the first iteration is unfenced.
!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
tirx.kernel @fence_after_mma(%p: i1) launch(grid = [1], block = [128]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %sa = tirx.alloc_shared : !sa
  %sb = tirx.alloc_shared : !sb
  %d = tirx.alloc_local : !d
  %w = tirx.alloc_local : !w
  %dl = tirx.reinterpret %d : !d -> !dl
  scf.for %t = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      // expected-warning @+2 {{the kernel's shared memory is not proven free of data races: 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': no wait on the way after it is sure to complete its group}}
      // expected-error @+1 {{its registers were accessed by 'cvt.rzi.s32.f32' (see note) with no wgmma.fence.sync.aligned between that access and this wgmma}}
      tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
          (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
      tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
    }
    scf.if %p {
      // expected-note @+1 {{the access, which reaches the wgmma through the back edge}}
      tile.apply "cvt.rzi.s32.f32" scope(warpgroup) (%w, %dl) : !w, !dl
    }
  }
  tirx.return
}

// -----

// Fenced on one branch only.
!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
tirx.kernel @one_branch(%p: i1) launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !sa
  %sb = tirx.alloc_shared : !sb
  %d = tirx.alloc_local : !d
  %dl = tirx.reinterpret %d : !d -> !dl
  // expected-note @+1 {{the access}}
  tile.apply "mov.b32" scope(warpgroup) (%dl, 0.0 : f32) : !dl
  scf.if %p {
    // expected-warning @+4 {{the kernel's shared memory is not proven free of data races: 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': no wait on the way after it is sure to complete its group}}
    tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  }
  // expected-error @+1 {{its registers were accessed by 'mov.b32' (see note) with no wgmma.fence.sync.aligned between that access and this wgmma}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
  tirx.return
}

// -----

// A in registers, loaded by ld.global with no fence: operand #1 (a). D is
// fresh.
!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!a = !tirx.tensor<64x8xui32, local, #tirx.layout<S[(4, 2, 8, 2, 4) : (1@wid_in_wg, 1, 4@laneid, 2, 1@laneid)]>>
!al = !tirx.tensor<4x32x4x1xui32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!ag = !tirx.tensor<4x32x4x1xui32, global, align = 4>
tirx.kernel @a_regs_no_fence(%A: !ag) launch(grid = [1], block = [128]) {
  %sb = tirx.alloc_shared : !sb
  %a = tirx.alloc_local : !a
  %al = tirx.reinterpret %a : !a -> !al
  // expected-note @+1 {{the access}}
  tile.apply "ld.global.b32" scope(warpgroup) (%al, %A) : !al, !ag
  %d = tirx.alloc_local : !d
  // expected-warning @+2 {{the kernel's shared memory is not proven free of data races: 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': no wait on the way after it is sure to complete its group}}
  // expected-error @+1 {{'tile.apply' op operand #1 (a) of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': its registers were accessed by 'ld.global.b32' (see note) with no wgmma.fence.sync.aligned}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %a, %sb, false, 1 : i32, 1 : i32, 0 : i32) : !d, !a, !sb
  tirx.return
}

// -----

// wgmma.commit_group is no fence.
!d = !tirx.tensor<64x8xf32, local, #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>>
!dl = !tirx.tensor<4x32x4x1xf32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!w = !tirx.tensor<4x32x4x1xsi32, local, #tirx.layout<S[(4, 32, 4, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]>>
!sa = !tirx.tensor<64x16xbf16, shared, #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
!sb = !tirx.tensor<8x16xbf16, shared, #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>, align = 16>
tirx.kernel @commit_is_no_fence() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !sa
  %sb = tirx.alloc_shared : !sb
  %d = tirx.alloc_local : !d
  %dl = tirx.reinterpret %d : !d -> !dl
  // expected-note @+1 {{the access}}
  tile.apply "mov.b32" scope(warpgroup) (%dl, 0.0 : f32) : !dl
  // expected-warning @+3 {{the kernel's shared memory is not proven free of data races: 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': no wait on the way after it is sure to complete its group}}
  tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
  // expected-error @+1 {{its registers were accessed by 'mov.b32' (see note) with no wgmma.fence.sync.aligned between that access and this wgmma}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !d, !sa, !sb
  tirx.return
}
