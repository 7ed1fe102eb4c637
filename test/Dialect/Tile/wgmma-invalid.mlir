// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// Rejections of wgmma.mma_async (docs/wgmma.md): scope and warpgroups, the
// accumulator and register-A fragments, the canonical shared layouts the
// matrix descriptors are built from, immediates, types and the sm_90a target.

// Scope warp: a warp cannot execute it.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k0() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16' is a warpgroup-collective instruction: the 4 warps of a warpgroup execute it together, so it needs scope warpgroup or cta, not warp}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warp)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// Scope thread.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k1() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{is a warpgroup-collective instruction: the 4 warps of a warpgroup execute it together, so it needs scope warpgroup or cta, not thread}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(thread)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// Scope cta with a block that is not whole warpgroups (96 threads).
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k2() launch(grid = [1], block = [96]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{is a warpgroup-collective instruction: the 4 warps of a warpgroup execute it together, but the block's 96 threads are not whole warpgroups (a multiple of 128)}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(cta)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// Scope warpgroup with a block of 64 threads.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k3() launch(grid = [1], block = [64]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{but the block's 64 threads are not whole warpgroups (a multiple of 128)}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// A and B of different types.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k4() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.f16': A and B must have one type, got .bf16 and .f16}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.f16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// N not a multiple of 8.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k5() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{'wgmma.mma_async.sync.aligned.m64n12k16.f32.bf16.bf16': unknown modifier .m64n12k16}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n12k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// N above 256.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k6() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{unknown modifier .m64n264k16}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n264k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// An f16 accumulator is not registered (f32 only).
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k7() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{'wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16': repeated modifier .f16}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// Without .sync.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k8() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{'wgmma.mma_async.aligned.m64n8k16.f32.bf16.bf16': missing required .sync}}
  tile.apply "wgmma.mma_async.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// sm_90 is not sm_90a: wgmma exists on the arch-specific target only.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
module attributes {tirx.chip = "sm_90"} {
tirx.kernel @k9() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16' is an arch-specific sm_90a instruction, but the target is sm_90 (compile with chip=sm_90a)}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}
}

// -----

// Nor is sm_100a.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
module attributes {tirx.chip = "sm_100a"} {
tirx.kernel @k10() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{is an arch-specific sm_90a instruction, but the target is sm_100a (compile with chip=sm_90a)}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}
}

// -----

// The accumulator laid out with its row halves and column pairs swapped.
#dbad = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 1, 4@laneid, 4, 1@laneid, 2)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k11() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #dbad>
  // expected-error @+1 {{operand #0 (d): atom element 1 is held by laneid=0 wid_in_wg=0 in register 2, but the instruction's fragment S[(4, 2, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 1@laneid, 1)] puts it in thread 0 of the warpgroup, register 1}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #dbad>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// An f16 accumulator tile.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#d8h = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
tirx.kernel @k12() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf16, local, #d8h>
  // expected-error @+1 {{operand #0 (d) of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': needs f32, got 'f16'}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf16, local, #d8h>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// scale-d is a predicate: an i32 immediate is refused.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k13() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #3 (scale-d) of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': needs pred, got 'i32'}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, 1 : i32, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// imm-scale-a scales by 1 or -1.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k14() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #4 (imm-scale-a) of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': scales by 1 or -1, got 2}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 2 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// imm-trans-b is 0 or 1.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k15() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #7 (imm-trans-b) of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': is 0 or 1 (transpose or not), got 2}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 2 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// imm-scale-b must be an immediate: PTX encodes it.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k16() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  %s = arith.constant 1 : i32
  // expected-error @+1 {{operand #5 (imm-scale-b) of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': must be an immediate (1 or -1 : i32): PTX encodes it in the instruction}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, %s, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>, i32
  tirx.return
}

// -----

// imm-trans-a likewise.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k17() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  %t = arith.constant 0 : i32
  // expected-error @+1 {{operand #6 (imm-trans-a) of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': must be an immediate (0 or 1 : i32)}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, %t, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>, i32
  tirx.return
}

// -----

// A row-major (32-byte rows): not core matrices of 16-byte rows.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k18() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a): the matrix at (0, 0) is not in a canonical wgmma layout: the 8 rows of a K-major core matrix are 16 bytes apart, but element (1, 0) is at byte 32 from element (0, 0), expected 16}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// A core-matrix row that is not contiguous (elements 4 bytes apart).
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#gap = #tirx.layout<S[(8, 8, 2, 8) : (256, 8, 128, 2)]>
tirx.kernel @k19() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #gap, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a): the matrix at (0, 0) is not in a canonical wgmma layout: a K-major core matrix row is 16 contiguous bytes along K, but element (0, 1) is at byte 4 from element (0, 0), expected 2}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #gap, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// LBO of 136 bytes: not a multiple of 16.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#lbo = #tirx.layout<S[(8, 8, 2, 8) : (256, 8, 68, 1)]>
tirx.kernel @k20() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #lbo, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{the leading byte offset (LBO) (between core matrices along K: element (0, 8) is at byte 136 from element (0, 0)) must be a non-negative multiple of 16 below 2^18}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #lbo, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// SBO of 200 bytes (B of 16 rows).
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#d16 = #tirx.layout<S[(4, 2, 8, 2, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#sbob = #tirx.layout<S[(2, 8, 2, 8) : (100, 8, 200, 1)]>
tirx.kernel @k21() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<16x16xbf16, shared, #sbob, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x16xf32, local, #d16>
  // expected-error @+1 {{operand #2 (b): the matrix at (0, 0) is not in a canonical wgmma layout: the stride byte offset (SBO) (between core matrices along M/N: element (8, 0) is at byte 200 from element (0, 0)) must be a non-negative multiple of 16 below 2^18}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x16xf32, local, #d16>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<16x16xbf16, shared, #sbob, align = 16>
  tirx.return
}

// -----

// 8-row groups at uneven distances: no single SBO.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#uneven = #tirx.layout<S[(2, 4, 8, 2, 8) : (1024, 128, 8, 64, 1)]>
tirx.kernel @k22() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #uneven, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a): the matrix at (0, 0) is not in a canonical wgmma layout: element (32, 0) is at byte 2048 from element (0, 0), but the canonical K-major layout without swizzle (LBO 128, SBO 256) puts it at byte 1024}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #uneven, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// A K-major layout read as MN-major (imm-trans-a 1).
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k23() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a): the matrix at (0, 0) is not in a canonical wgmma layout: a MN-major core matrix row is 16 contiguous bytes along M/N, but element (1, 0) is at byte 16 from element (0, 0), expected 2}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 1 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// A shared tensor aligned to 8 bytes.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k24() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 8>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a): the tensor is aligned to 8 byte(s) but a matrix descriptor addresses 16-byte units; declare align = 16 (or more) on the tensor}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 8>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// Two repeats whose second B starts at byte 264: not 16-byte aligned.
#d8r = #tirx.layout<S[(2, 4, 2, 8, 1, 4, 2) : (4, 1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#kr = #tirx.layout<S[(2, 8, 8, 2, 8) : (1024, 128, 8, 64, 1)]>
#k8r = #tirx.layout<S[(2, 1, 8, 2, 8) : (132, 128, 8, 64, 1)]>
tirx.kernel @k25() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<2x64x16xbf16, shared, #kr, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<2x8x16xbf16, shared, #k8r, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<2x64x8xf32, local, #d8r>
  // expected-error @+1 {{operand #2 (b): the matrix at (1, 0, 0) is not in a canonical wgmma layout: the matrix starts at byte 264 of the tensor, which is not 16-byte aligned (a descriptor holds the address in 16-byte units)}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<2x64x8xf32, local, #d8r>, !tirx.tensor<2x64x16xbf16, shared, #kr, align = 16>,
        !tirx.tensor<2x8x16xbf16, shared, #k8r, align = 16>
  tirx.return
}

// -----

// A in global memory.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k26(%A: !tirx.tensor<64x16xbf16, global, #k, align = 16>) launch(grid = [1], block = [128]) {
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a) of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': accesses shared memory, but the tensor is global}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %A, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, global, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// B's atom is (N, 16): (64, 16) is not n8's.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k27() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #2 (b): the innermost dimensions must be the instruction's atom (8, 16), but the shape is (64, 16)}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  tirx.return
}

// -----

// A register tile in the A-from-shared form (8 operands).
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#areg = #tirx.layout<S[(4, 2, 8, 2, 4) : (1@wid_in_wg, 1, 4@laneid, 2, 1@laneid)]>
tirx.kernel @k28() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  %a = tirx.alloc_local : !tirx.tensor<64x8xui32, local, #areg>
  // expected-error @+1 {{operand #1 (a) of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16': needs a 16-bit type, got 'ui32'}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %a, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x8xui32, local, #areg>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// A in registers laid out with its register order swapped.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#abad = #tirx.layout<S[(4, 2, 8, 2, 4) : (1@wid_in_wg, 2, 4@laneid, 1, 1@laneid)]>
tirx.kernel @k29() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  %a = tirx.alloc_local : !tirx.tensor<64x8xui32, local, #abad>
  // expected-error @+1 {{operand #1 (a): atom element 4 is held by laneid=0 wid_in_wg=0 in register 1, but the instruction's fragment S[(4, 2, 8, 2, 4) : (1@wid_in_wg, 1, 4@laneid, 2, 1@laneid)] puts it in thread 0 of the warpgroup, register 2}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %a, %sb, true, 1 : i32, 1 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x8xui32, local, #abad>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// A predicate computed from the warp index differs between the warps of a warpgroup.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k30() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  %tid = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  %w = arith.divui %tid, %c32 : index
  %p = arith.cmpi eq, %w, %c0 : index
  // expected-error @+1 {{is a warpgroup-collective instruction: its predicate must be the same in every thread of a warpgroup (computed from block indices, sizes, loop indices or the warpgroup index), but it may differ between threads}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) pred(%p)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// A branch on the warp index.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k31() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  %tid = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  %w = arith.divui %tid, %c32 : index
  // expected-note @+1 {{the condition is computed here}}
  %p = arith.cmpi eq, %w, %c0 : index
  scf.if %p {
  // expected-error @+1 {{it is inside a branch whose condition may differ between the threads of a warpgroup}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  }
  tirx.return
}

// -----

// A swizzle that is no wgmma mode (64-byte chunks kept whole).
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#bad = #tirx.layout<S[(64, 16) : (64, 1)] + Swizzle[5, 2, 3]>
tirx.kernel @k() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #bad, align = 1024>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a): the matrix at (0, 0) is not in a canonical wgmma layout: its swizzle Swizzle[5, 2, 3] is no wgmma mode (the 32, 64 or 128-byte swizzle of 2-byte elements)}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #bad, align = 1024>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// A 128-byte-swizzled tensor aligned to 16 bytes only.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#sw = #tirx.layout<S[(64, 16) : (64, 1)] + Swizzle[3, 3, 3]>
tirx.kernel @k() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #sw, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a): the tensor is aligned to 16 byte(s) but its swizzle repeats every 1024 bytes, which wgmma counts from an address aligned to them; declare align = 1024 on the tensor}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #sw, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// Rows 32 bytes apart under the 128-byte swizzle.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#sw = #tirx.layout<S[(64, 16) : (16, 1)] + Swizzle[3, 3, 3]>
tirx.kernel @k() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #sw, align = 1024>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a): the matrix at (0, 0) is not in a canonical wgmma layout: the 8 rows of a K-major 128-byte swizzle pattern are 128 bytes apart, but element (1, 0) is at byte 32 from element (0, 0) before the swizzle, expected 128}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #sw, align = 1024>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// 8-row groups at uneven distances under the 128-byte swizzle.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#sw = #tirx.layout<S[(2, 4, 8, 16) : (4096, 512, 64, 1)] + Swizzle[3, 3, 3]>
tirx.kernel @k() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #sw, align = 1024>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a): the matrix at (0, 0) is not in a canonical wgmma layout: element (32, 0) is at byte 8192 of the tensor, but the canonical K-major layout with the 128-byte swizzle (LBO 16, SBO 1024) puts it at byte 4096}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #sw, align = 1024>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// An MN-major B (imm-trans-b 1) under the 128-byte swizzle whose k rows are
// 64 bytes apart.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#swb = #tirx.layout<S[(8, 2, 8) : (1, 256, 32)] + Swizzle[3, 3, 3]>
tirx.kernel @k() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #swb, align = 1024>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #2 (b): the matrix at (0, 0) is not in a canonical wgmma layout: the 8 rows of a MN-major 128-byte swizzle pattern are 128 bytes apart, but element (0, 1) is at byte 64 from element (0, 0) before the swizzle, expected 128}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 1 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #swb, align = 1024>
  tirx.return
}

// -----

// Two slices, the second starting at row 1 of the 128-byte pattern: a
// descriptor cannot start there (its base offset would not be 0).
#d8r = #tirx.layout<S[(2, 4, 2, 8, 1, 4, 2) : (4, 1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#swr = #tirx.layout<S[(2, 64, 16) : (64, 64, 1)] + Swizzle[3, 3, 3]>
#k8r = #tirx.layout<S[(2, 1, 8, 2, 8) : (256, 128, 8, 64, 1)]>
tirx.kernel @k() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<2x64x16xbf16, shared, #swr, align = 1024>
  %sb = tirx.alloc_shared : !tirx.tensor<2x8x16xbf16, shared, #k8r, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<2x64x8xf32, local, #d8r>
  // expected-error @+1 {{operand #1 (a): the matrix at (1, 0, 0) is not in a canonical wgmma layout: the matrix starts at byte 128 before the 128-byte swizzle, which is not the start of a swizzle row of the pattern (a descriptor's base offset would not be 0)}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<2x64x8xf32, local, #d8r>, !tirx.tensor<2x64x16xbf16, shared, #swr, align = 1024>,
        !tirx.tensor<2x8x16xbf16, shared, #k8r, align = 16>
  tirx.return
}

// -----

// Under the 128-byte swizzle, K must be contiguous in each row (before the
// swizzle): here the elements of a row are 4 bytes apart.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#sw = #tirx.layout<S[(64, 16) : (64, 2)] + Swizzle[3, 3, 3]>
tirx.kernel @k() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #sw, align = 1024>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a): the matrix at (0, 0) is not in a canonical wgmma layout: a K-major 128-byte swizzle row is contiguous along K before the swizzle, but element (0, 1) is at byte 4 from element (0, 0), expected 2}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #sw, align = 1024>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// 8-row groups of a 128-byte-swizzled A 1032 bytes apart: SBO is not a
// multiple of 16.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
#sw = #tirx.layout<S[(8, 8, 16) : (516, 64, 1)] + Swizzle[3, 3, 3]>
tirx.kernel @k() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #sw, align = 1024>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  // expected-error @+1 {{operand #1 (a): the matrix at (0, 0) is not in a canonical wgmma layout: the stride byte offset (SBO) (between 8-row groups along M/N: 1032 bytes) must be a non-negative multiple of 16 below 2^18}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #sw, align = 1024>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  tirx.return
}

// -----

// scale-d computed from the thread index: one wgmma cannot both accumulate
// and not.
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#k = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
#k8 = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @k() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #k, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  %tid = tirx.thread_idx x
  %c64 = arith.constant 64 : index
  %p = arith.cmpi ult, %tid, %c64 : index
  // expected-error @+1 {{'wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16' is a warpgroup-collective instruction: operand #3 (scale-d) must be the same in every thread of a warpgroup (computed from block indices, sizes, loop indices or the warpgroup index), but it may differ between threads}}
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, %p, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #k, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8, align = 16>, i1
  tirx.return
}
