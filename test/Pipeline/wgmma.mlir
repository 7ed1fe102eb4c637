// wgmma.mma_async (docs/wgmma.md) end to end on sm_90a: the accumulator is a
// register tile laid out as the instruction's fragment, read and written in
// place (`+f`); shared A and B are tiles whose layouts the verifier proves
// canonical, and the lowering passes them as 64-bit matrix descriptors: the
// strides folded into a constant, the start address ((addr & 0x3FFFF) >> 4)
// added at run time.
// RUN: tirx-opt %s --tirx-to-ptx="chip=sm_90a ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o /dev/null %}

// A and B K-major without swizzle: 8 x 16-byte core matrices of 128 bytes,
// the two along K adjacent (LBO 128), the 8-row groups 256 bytes apart (SBO).
// CHECK-LABEL: .entry wgmma_ss(
// CHECK: mov.b64 [[SA:%rd[0-9]+]], wgmma_ss_smem0;
// CHECK: bfe.u64 [[FA:%rd[0-9]+]], [[SA]], 4, 14;
// CHECK: or.b64 [[DA:%rd[0-9]+]], [[FA]], 68720001024;
// CHECK: mov.b64 [[SB:%rd[0-9]+]], wgmma_ss_smem1;
// CHECK: bfe.u64 [[FB:%rd[0-9]+]], [[SB]], 4, 14;
// CHECK: or.b64 [[DB:%rd[0-9]+]], [[FB]], 68720001024;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {[[D0:%r[0-9]+]], {{((%r[0-9]+, ){30})}}[[D31:%r[0-9]+]]}, [[DA]], [[DB]], %p{{[0-9]+}}, 1, -1, 0, 0;
#d64 = #tirx.layout<S[(4, 2, 8, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#kmajor = #tirx.layout<S[(8, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @wgmma_ss() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x64xf32, local, #d64>
  tile.apply "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, -1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x64xf32, local, #d64>, !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>,
        !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  tirx.return
}

// A in registers (the m64k16 fragment, 4 words per thread), B (8 x 16 f16)
// MN-major (imm-trans-b 1: 8 n of each k contiguous; the two k-halves 128
// bytes apart, LBO), scale-d 0 (D = A.B): the accumulator's registers are
// still read-write operands.
// CHECK-LABEL: .entry wgmma_rs(
// CHECK: or.b64 [[DB:%rd[0-9]+]], {{%rd[0-9]+}}, 524288;
// CHECK: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [[DB]], %p{{[0-9]+}}, 1, 1, 1;
#d8 = #tirx.layout<S[(4, 2, 8, 1, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#areg = #tirx.layout<S[(4, 2, 8, 2, 4) : (1@wid_in_wg, 1, 4@laneid, 2, 1@laneid)]>
#bmn = #tirx.layout<S[(8, 2, 8) : (1, 64, 8)]>
tirx.kernel @wgmma_rs() launch(grid = [1], block = [128]) {
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xf16, shared, #bmn, align = 16>
  %a = tirx.alloc_local : !tirx.tensor<64x8xui32, local, #areg>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" scope(warpgroup)
      (%d, %a, %sb, false, 1 : i32, 1 : i32, 1 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x8xui32, local, #areg>,
        !tirx.tensor<8x16xf16, shared, #bmn, align = 16>
  tirx.return
}

// Two warpgroups at scope cta: the group axis is the warpgroup (wgid). Each
// has its own MN-major A (imm-trans-a 1; LBO 1024, SBO 128: 0x4000080 << 16);
// both read one B of 256 rows (stride 0 on the group axis), so D is
// 64 x 256: 128 registers per thread.
// CHECK-LABEL: .entry wgmma_cta(
// CHECK: or.b64 [[DA:%rd[0-9]+]], {{%rd[0-9]+}}, 34363932672;
// CHECK: or.b64 [[DB:%rd[0-9]+]], {{%rd[0-9]+}}, 68720001024;
// CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{{((%r[0-9]+, ){127})}}%r{{[0-9]+}}}, [[DA]], [[DB]], %p{{[0-9]+}}, 1, 1, 1, 0;
#d256 = #tirx.layout<S[(2, 4, 2, 8, 32, 4, 2) : (1@wgid, 1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
#amn2 = #tirx.layout<S[(2, 8, 8, 2, 8) : (1024, 64, 1, 512, 8)]>
#bk_shared = #tirx.layout<S[(2, 32, 8, 2, 8) : (0, 128, 8, 64, 1)]>
tirx.kernel @wgmma_cta() launch(grid = [1], block = [256]) {
  %sa = tirx.alloc_shared : !tirx.tensor<2x64x16xbf16, shared, #amn2, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<2x256x16xbf16, shared, #bk_shared, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<2x64x256xf32, local, #d256>
  tile.apply "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16" scope(cta)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 1 : i32, 0 : i32)
      : !tirx.tensor<2x64x256xf32, local, #d256>, !tirx.tensor<2x64x16xbf16, shared, #amn2, align = 16>,
        !tirx.tensor<2x256x16xbf16, shared, #bk_shared, align = 16>
  tirx.return
}

// A predicate the same in every thread of a warpgroup (tid / 128): the
// instruction is guarded as a whole, never per thread; the accumulator's
// registers are tied once (they keep their values when it is off).
// CHECK-LABEL: .entry wgmma_pred(
// CHECK: setp.ne.b32 %tirx_p, %r{{[0-9]+}}, 0;
// CHECK-NEXT: @%tirx_p wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, 1, 0, 0;
#k8p = #tirx.layout<S[(1, 8, 2, 8) : (128, 8, 64, 1)]>
tirx.kernel @wgmma_pred() launch(grid = [2], block = [256]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8p, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  %tid = tirx.thread_idx x
  %c128 = arith.constant 128 : index
  %c0 = arith.constant 0 : index
  %wg = arith.divui %tid, %c128 : index
  %p = arith.cmpi eq, %wg, %c0 : index
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) pred(%p)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8p, align = 16>
  tirx.return
}

// 128-byte swizzle (the layout's Swizzle[3, 3, 3] on bf16: bits [4, 7) of
// the byte offset XOR bits [7, 10)): A and B are the four k16 slices of
// 64 x 64 tiles whose 128-byte rows are swizzled, as TMA stores them; one
// wgmma per slice (repeats). The descriptor: layout type 1 (bit 62), SBO
// 1024 (the 8-row groups), LBO 16 (unused by K-major swizzled modes); the
// slices start 32 bytes apart inside the pattern's first row.
// CHECK-LABEL: .entry wgmma_swizzle128(
// CHECK: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 4611686293305360384;
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{((%r[0-9]+, ){31})}}%r{{[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, 1, 0, 0;
#sw128 = #tirx.layout<S[(4, 64, 16) : (16, 64, 1)] + Swizzle[3, 3, 3]>
#d64r = #tirx.layout<S[(4, 4, 2, 8, 8, 4, 2) : (32, 1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]>
tirx.kernel @wgmma_swizzle128() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<4x64x16xbf16, shared, #sw128, align = 1024>
  %sb = tirx.alloc_shared : !tirx.tensor<4x64x16xbf16, shared, #sw128, align = 1024>
  %d = tirx.alloc_local : !tirx.tensor<4x64x64xf32, local, #d64r>
  tile.apply "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<4x64x64xf32, local, #d64r>, !tirx.tensor<4x64x16xbf16, shared, #sw128, align = 1024>,
        !tirx.tensor<4x64x16xbf16, shared, #sw128, align = 1024>
  tirx.return
}

// MN-major B with the 128-byte swizzle: each k row is 64 n (128 bytes), the
// two 8-k groups 1024 bytes apart (SBO); one swizzle row spans N, so LBO is 0.
// CHECK-LABEL: .entry wgmma_swizzle128_mn(
// CHECK: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 4611686293305294848;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{((%r[0-9]+, ){31})}}%r{{[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, 1, 0, 1;
#sw128a = #tirx.layout<S[(64, 16) : (64, 1)] + Swizzle[3, 3, 3]>
#sw128mn = #tirx.layout<S[(64, 2, 8) : (1, 512, 64)] + Swizzle[3, 3, 3]>
tirx.kernel @wgmma_swizzle128_mn() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #sw128a, align = 1024>
  %sb = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #sw128mn, align = 1024>
  %d = tirx.alloc_local : !tirx.tensor<64x64xf32, local, #d64>
  tile.apply "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 1 : i32)
      : !tirx.tensor<64x64xf32, local, #d64>, !tirx.tensor<64x16xbf16, shared, #sw128a, align = 1024>,
        !tirx.tensor<64x16xbf16, shared, #sw128mn, align = 1024>
  tirx.return
}

// The 64-byte swizzle (Swizzle[3, 2, 3] on bf16: 64-byte rows, SBO 512,
// layout type 2) for A and the 32-byte one (Swizzle[3, 1, 3]: 32-byte rows,
// one 8-row group, layout type 3) for B; the tensors aligned to the periods.
// CHECK-LABEL: .entry wgmma_swizzle64_32(
// CHECK: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, -9223371899415756800;
// CHECK: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, -4611686018427322368;
#sw64 = #tirx.layout<S[(64, 16) : (32, 1)] + Swizzle[3, 2, 3]>
#sw32 = #tirx.layout<S[(8, 16) : (16, 1)] + Swizzle[3, 1, 3]>
tirx.kernel @wgmma_swizzle64_32() launch(grid = [1], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #sw64, align = 512>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #sw32, align = 256>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #sw64, align = 512>,
        !tirx.tensor<8x16xbf16, shared, #sw32, align = 256>
  tirx.return
}

// scale-d from a value: an i1 computed at run time (here: block 0 starts
// from D = A.B, the others accumulate) is a predicate register operand.
// CHECK-LABEL: .entry wgmma_scale_d_value(
// CHECK: setp.{{.*}} [[SD:%p[0-9]+]],
// CHECK: wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[SD]], 1, 1, 0, 0;
tirx.kernel @wgmma_scale_d_value() launch(grid = [4], block = [128]) {
  %sa = tirx.alloc_shared : !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<8x16xbf16, shared, #k8p, align = 16>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  %bid = tirx.block_idx x
  %c0 = arith.constant 0 : index
  %accumulate = arith.cmpi ne, %bid, %c0 : index
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup)
      (%d, %sa, %sb, %accumulate, 1 : i32, 1 : i32, 0 : i32, 0 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x16xbf16, shared, #kmajor, align = 16>,
        !tirx.tensor<8x16xbf16, shared, #k8p, align = 16>, i1
  tirx.return
}

// Two wgmmas on one accumulator, one after the other (the k steps of a
// GEMM): one inline-PTX statement holds both, on the same registers
// (tile-join-accumulator-chains), so no slot traffic lies between them.
// CHECK-LABEL: .entry wgmma_chain(
// CHECK: wgmma.fence.sync.aligned;
// CHECK: mov.pred [[P1:%p[0-9]+]], -1;
// CHECK-NEXT: // begin inline asm
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {[[C0:%r[0-9]+]], [[C1:%r[0-9]+]], [[C2:%r[0-9]+]], [[C3:%r[0-9]+]]}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [[DB0:%rd[0-9]+]], [[P0:%p[0-9]+]], 1, 1, 1;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {[[C0]], [[C1]], [[C2]], [[C3]]}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [[DB1:%rd[0-9]+]], [[P1]], 1, 1, 1;
// CHECK-NEXT: // end inline asm
tirx.kernel @wgmma_chain() launch(grid = [1], block = [128]) {
  %sb0 = tirx.alloc_shared : !tirx.tensor<8x16xf16, shared, #bmn, align = 16>
  %sb1 = tirx.alloc_shared : !tirx.tensor<8x16xf16, shared, #bmn, align = 16>
  %a0 = tirx.alloc_local : !tirx.tensor<64x8xui32, local, #areg>
  %a1 = tirx.alloc_local : !tirx.tensor<64x8xui32, local, #areg>
  %d = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #d8>
  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" scope(warpgroup)
      (%d, %a0, %sb0, false, 1 : i32, 1 : i32, 1 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x8xui32, local, #areg>,
        !tirx.tensor<8x16xf16, shared, #bmn, align = 16>
  tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" scope(warpgroup)
      (%d, %a1, %sb1, true, 1 : i32, 1 : i32, 1 : i32)
      : !tirx.tensor<64x8xf32, local, #d8>, !tirx.tensor<64x8xui32, local, #areg>,
        !tirx.tensor<8x16xf16, shared, #bmn, align = 16>
  tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
  tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)
  tirx.return
}
