// Kernels the race proof accepts (docs/races.md): every two accesses of one
// shared byte by different threads, one of them writing, have a CTA barrier
// between them.
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels

// A transpose through shared memory, with a barrier after the stores and
// one after the loads (before the next iteration stores again).
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!tile = !tirx.tensor<2x32x1xf32, shared>
!tileT = !tirx.tensor<2x32x1xf32, shared, #transposed>
tirx.kernel @transpose_loop(%n: index) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tile
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tileT
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tile, !regs
    tirx.cta_sync
    tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tileT
    tile.apply "bar.sync" scope(cta) (1 : i32, 64 : i32)
  }
  tirx.return
}

// -----

// Double buffering: iteration i stores buffer i mod 2 and reads it after
// the barrier; the next iteration stores the other buffer, so one barrier
// per iteration is enough.
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!buffers = !tirx.tensor<2x64xf32, shared>
tirx.kernel @double_buffer(%n: index) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  %s = tirx.alloc_shared : !buffers
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %n step %c1 {
    %stage = arith.remui %i, %c2 : index
    %buffer = tirx.region %s[%stage, 0] [1, 64] : !buffers
    %w = tirx.reinterpret %buffer : !tirx.tensor<1x64xf32, shared, #tirx.layout<S[(1, 64) : (64, 1)]>> -> !tirx.tensor<2x32x1xf32, shared>
    %t = tirx.reinterpret %buffer : !tirx.tensor<1x64xf32, shared, #tirx.layout<S[(1, 64) : (64, 1)]>> -> !tirx.tensor<2x32x1xf32, shared, #transposed>
    tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tirx.tensor<2x32x1xf32, shared>, !regs
    tirx.cta_sync
    tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tirx.tensor<2x32x1xf32, shared, #transposed>
  }
  tirx.return
}

// -----

// One thread writes, every thread reads after the barrier; each thread's
// own word needs no barrier at all; atomics of one word do not race.
!one = !tirx.tensor<1xui32, local>
!word = !tirx.tensor<1xui32, shared, #tirx.layout<S[1 : 1]>>
tirx.kernel @owners_and_atomics() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !one
  tile.apply "mov.b32" scope(thread) (%r, 0 : i32) : !one
  %flag = tirx.alloc_shared : !tirx.tensor<1xui32, shared>
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %leader = arith.cmpi eq, %tx, %c0 : index
  scf.if %leader {
    tile.apply "st.shared.u32" scope(thread) (%flag, %r) : !tirx.tensor<1xui32, shared>, !one
  }
  tirx.cta_sync
  tile.apply "ld.shared.u32" scope(thread) (%r, %flag) : !one, !tirx.tensor<1xui32, shared>
  %words = tirx.alloc_shared : !tirx.tensor<64xui32, shared>
  %mine = tirx.region %words[%tx] [1] : !tirx.tensor<64xui32, shared>
  tile.apply "st.shared.u32" scope(thread) (%mine, %r) : !word, !one
  tile.apply "ld.shared.u32" scope(thread) (%r, %mine) : !one, !word
  %count = tirx.alloc_shared : !tirx.tensor<1xui32, shared>
  tile.apply "red.shared.add.u32" scope(thread) (%count, 1 : i32) : !tirx.tensor<1xui32, shared>
  tile.apply "atom.shared.exch.b32" scope(thread) (%r, %count, 5 : i32) : !one, !tirx.tensor<1xui32, shared>
  tirx.return
}

// -----

// Warps that each own a slice: a warp's lanes exchange words within it
// after the barrier, warps never meet.
#lanes = #tirx.layout<S[(4, 32, 1) : (1@warpid, 1@laneid, 1)]>
#interleaved = #tirx.layout<S[(4, 2, 16, 1) : (32, 1, 2, 1)]>
!regs = !tirx.tensor<4x32x1xf32, local, #lanes>
tirx.kernel @warp_slices() launch(grid = [1], block = [128]) {
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  %s = tirx.alloc_shared : !tirx.tensor<4x32x1xf32, shared>
  tile.apply "st.shared.f32" scope(cta) (%s, %r) : !tirx.tensor<4x32x1xf32, shared>, !regs
  tirx.cta_sync
  %t = tirx.reinterpret %s : !tirx.tensor<4x32x1xf32, shared> -> !tirx.tensor<4x32x1xf32, shared, #interleaved>
  tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tirx.tensor<4x32x1xf32, shared, #interleaved>
  tirx.return
}

// -----

// A TMA prefetch touches no shared memory: the kernel stays within the
// model, and its transpose is proven.
#own = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#transposed = #tirx.layout<S[(2, 32, 1) : (1, 2, 1)]>
!regs = !tirx.tensor<2x32x1xf32, local, #own>
!tile = !tirx.tensor<2x32x1xf32, shared>
!tileT = !tirx.tensor<2x32x1xf32, shared, #transposed>
!A = !tirx.tensor<256x64xbf16, global, align = 16>
tirx.kernel @prefetch_and_transpose(%A: !A) launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %box = tirx.region %A[0, 0] [64, 64] : !A
    tile.apply "cp.async.bulk.prefetch.tensor.2d.L2.global.tile" scope(thread) (%box) : !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (64, 1)]>, align = 16>
  }
  %r = tirx.alloc_local : !regs
  tile.apply "mov.b32" scope(cta) (%r, 0.0 : f32) : !regs
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tile
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tileT
  tile.apply "st.shared.f32" scope(cta) (%w, %r) : !tile, !regs
  tirx.cta_sync
  tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tileT
  tirx.return
}

// -----

// A 128-byte swizzled image (Swizzle[2, 3, 3] on f32: TMA's and wgmma's
// layout) written and read back by the same threads through it: the
// swizzle is a bijection, so no two threads meet.
!regs = !tirx.tensor<4x32x4x4xf32, local, #tirx.layout<S[(4, 32, 4, 4) : (1@warpid, 1@laneid, 4, 1)]>>
!swz = !tirx.tensor<4x32x4x4xf32, shared, #tirx.layout<S[(4, 32, 4, 4) : (512, 16, 4, 1)] + Swizzle[2, 3, 3]>, align = 1024>
tirx.kernel @swizzled_round_trip(%A: !tirx.tensor<4x32x4x4xf32, global, align = 16>) launch(grid = [1], block = [128]) {
  %r = tirx.alloc_local : !regs
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A) : !regs, !tirx.tensor<4x32x4x4xf32, global, align = 16>
  %s = tirx.alloc_shared : !tirx.tensor<2048xf32, shared, align = 1024>
  %w = tirx.reinterpret %s : !tirx.tensor<2048xf32, shared, align = 1024> -> !swz
  tile.apply "st.shared.v4.b32" scope(cta) (%w, %r) : !swz, !regs
  tile.apply "ld.shared.v4.b32" scope(cta) (%r, %w) : !regs, !swz
  tirx.return
}

// -----

// A swizzled store and a plain load of the same bytes, ordered by a barrier.
!regs = !tirx.tensor<2x32x1xf32, local, #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>>
!swz = !tirx.tensor<2x32x1xf32, shared, #tirx.layout<S[(2, 32, 1) : (32, 1, 1)] + Swizzle[0, 1, 3]>>
tirx.kernel @swizzled_then_plain(%A: !tirx.tensor<2x32x1xf32, global>) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  tile.apply "ld.global.f32" scope(cta) (%r, %A) : !regs, !tirx.tensor<2x32x1xf32, global>
  %s = tirx.alloc_shared : !tirx.tensor<64xf32, shared>
  %w = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !swz
  tile.apply "st.shared.f32" scope(cta) (%w, %r) : !swz, !regs
  tirx.cta_sync
  %t = tirx.reinterpret %s : !tirx.tensor<64xf32, shared> -> !tirx.tensor<2x32x1xf32, shared>
  tile.apply "ld.shared.f32" scope(cta) (%r, %t) : !regs, !tirx.tensor<2x32x1xf32, shared>
  tirx.return
}

// -----

// cp.async copies complete at the wait that retires their group; a barrier
// after it hands the bytes to the other threads.
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<4x32x4xf32, shared, align = 16>
!T = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (4, 16, 1)]>, align = 16>
!regs = !tirx.tensor<4x32x4xf32, local, #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>>
tirx.kernel @cp_async_then_barrier(%G: !G) launch(grid = [1], block = [128]) {
  %s = tirx.alloc_shared : !S
  %r = tirx.alloc_local : !regs
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    tile.apply "cp.async.cg.shared.global" scope(cta) (%s, %G, 16 : i32) : !S, !G
    tile.apply "cp.async.commit_group" scope(cta) ()
    tile.apply "cp.async.wait_group" scope(cta) (0 : i32)
    tirx.cta_sync
    %t = tirx.reinterpret %s : !S -> !T
    tile.apply "ld.shared.v4.b32" scope(cta) (%r, %t) : !regs, !T
    tirx.cta_sync
  }
  %u = tirx.alloc_shared : !S
  tile.apply "cp.async.ca.shared.global" scope(cta) (%u, %G, 16 : i32) : !S, !G
  tile.apply "cp.async.wait_all" scope(cta) ()
  tirx.cta_sync
  %v = tirx.reinterpret %u : !S -> !T
  tile.apply "ld.shared.v4.b32" scope(cta) (%r, %v) : !regs, !T
  tirx.return
}

// -----

// A cp.async pipeline of three stages: steps i + 1 and i + 2 load while step
// i is read. wait_group 2 in step i, after step i + 2's commit, completes step
// i's copies (issued two iterations earlier, or before the loop), the barrier
// after it hands them to every thread, and the barrier after the reads frees
// the stage that step i + 3 loads into (in the next iteration).
!G = !tirx.tensor<4x32x4xf32, global, align = 16>
!S = !tirx.tensor<3x4x32x4xf32, shared, align = 16>
!ST = !tirx.tensor<3x4x32x4xf32, shared, #tirx.layout<S[(3, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!stage = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 128, 4, 1)]>, align = 16>
!stageT = !tirx.tensor<1x4x32x4xf32, shared, #tirx.layout<S[(1, 4, 32, 4) : (512, 4, 16, 1)]>, align = 16>
!regs = !tirx.tensor<4x32x4xf32, local, #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>>
!dst = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (128, 4, 1)]>, align = 16>
!src = !tirx.tensor<4x32x4xf32, shared, #tirx.layout<S[(4, 32, 4) : (4, 16, 1)]>, align = 16>
tirx.kernel @cp_async_pipeline(%G: !G) launch(grid = [1], block = [128]) {
  %s = tirx.alloc_shared : !S
  %t = tirx.reinterpret %s : !S -> !ST
  %r = tirx.alloc_local : !regs
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %p0s = tirx.region %s[%c0, 0, 0, 0] [1, 4, 32, 4] : !S
  %p0 = tirx.view %p0s : !stage -> !dst
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p0, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  %p1s = tirx.region %s[%c1, 0, 0, 0] [1, 4, 32, 4] : !S
  %p1 = tirx.view %p1s : !stage -> !dst
  tile.apply "cp.async.cg.shared.global" scope(cta) (%p1, %G, 16 : i32) : !dst, !G
  tile.apply "cp.async.commit_group" scope(cta) ()
  scf.for %i = %c0 to %c6 step %c1 {
    %ahead = arith.addi %i, %c2 : index
    %load = arith.remui %ahead, %c3 : index
    %dsts = tirx.region %s[%load, 0, 0, 0] [1, 4, 32, 4] : !S
    %dst = tirx.view %dsts : !stage -> !dst
    tile.apply "cp.async.cg.shared.global" scope(cta) (%dst, %G, 16 : i32) : !dst, !G
    tile.apply "cp.async.commit_group" scope(cta) ()
    tile.apply "cp.async.wait_group" scope(cta) (2 : i32)
    tirx.cta_sync
    %read = arith.remui %i, %c3 : index
    %srcs = tirx.region %t[%read, 0, 0, 0] [1, 4, 32, 4] : !ST
    %src = tirx.view %srcs : !stageT -> !src
    tile.apply "ld.shared.v4.b32" scope(cta) (%r, %src) : !regs, !src
    tirx.cta_sync
  }
  tile.apply "cp.async.wait_all" scope(cta) ()
  tirx.return
}

// -----

!A = !tirx.tensor<32x256xf32, global, align = 16>
!img = !tirx.tensor<2x32x32xf32, shared, align = 128>
!ring = !tirx.tensor<2xi64, shared, align = 8>
!bar = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar0 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar1 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1] + 1>, align = 8>
!stage = !tirx.tensor<1x32x32xf32, shared, #tirx.layout<S[(1, 32, 32) : (1024, 32, 1)]>, align = 128>
!elem = !tirx.tensor<1x1x1xf32, shared, #tirx.layout<S[(1, 1, 1) : (1024, 32, 1)]>, align = 4>
!box = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (256, 1)]>, align = 16>
!reg = !tirx.tensor<1x1x1xf32, local>
// A TMA pipeline (tirx.pipeline.TmaPipeline's protocol, two stages):
// thread 128 waits until its consumers released stage step % 2 (`empty`,
// parity 1 - step / 2 % 2: the phase before), arms `full` with the stage's
// bytes and loads it; the 128 consumer threads wait for `full` (parity
// step / 2 % 2), read, and each release the stage.
tirx.kernel @tma_ok(%A: !A) launch(grid = [1], block = [160]) {
  %img = tirx.alloc_shared : !img
  %full = tirx.alloc_shared : !ring
  %empty = tirx.alloc_shared : !ring
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %f0 = tirx.region %full[0] [1] : !ring
    %f1 = tirx.region %full[1] [1] : !ring
    %e0 = tirx.region %empty[0] [1] : !ring
    %e1 = tirx.region %empty[1] [1] : !ring
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f0, 1 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f1, 1 : i32) : !bar1
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e0, 128 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e1, 128 : i32) : !bar1
    tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  }
  tirx.cta_sync
  %consumer = arith.cmpi ult, %tx, %c128 : index
  scf.if %consumer {
    %r = tirx.alloc_local : !reg
    %row = arith.remui %tx, %c32 : index
    %col = arith.divui %tx, %c32 : index
    scf.for %kb = %c0 to %c8 step %c1 {
      %s = arith.remsi %kb, %c2 : index
      %fb = tirx.region %full[%s] [1] : !ring
      %eb = tirx.region %empty[%s] [1] : !ring
      %q = arith.divsi %kb, %c2 : index
      %p = arith.remsi %q, %c2 : index
      %p32 = arith.index_cast %p : index to i32
      tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%fb, %p32) : !bar, i32
      %x = tirx.region %img[%s, %row, %col] [1, 1, 1] : !img
      tile.apply "ld.shared.b32" scope(thread) (%r, %x) : !reg, !elem
      tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%eb) : !bar
    }
  } else {
    %producer = arith.cmpi eq, %tx, %c128 : index
    scf.if %producer {
      scf.for %kb = %c0 to %c8 step %c1 {
        %s = arith.remsi %kb, %c2 : index
        %eb = tirx.region %empty[%s] [1] : !ring
        %q = arith.divsi %kb, %c2 : index
        %p = arith.remsi %q, %c2 : index
        %np = arith.subi %c1, %p : index
        %np32 = arith.index_cast %np : index to i32
        tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%eb, %np32) : !bar, i32
        %fb = tirx.region %full[%s] [1] : !ring
        tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%fb, 4096 : i32) : !bar
        %dst = tirx.region %img[%s, 0, 0] [1, 32, 32] : !img
        %k = arith.muli %kb, %c32 : index
        %box = tirx.region %A[0, %k] [32, 32] align 16 : !A
        tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%dst, %box, %fb) : !stage, !box, !bar
      }
    }
  }
  tirx.return
}

// -----

!A = !tirx.tensor<32x256xf32, global, align = 16>
!img = !tirx.tensor<2x32x32xf32, shared, align = 128>
!ring = !tirx.tensor<2xi64, shared, align = 8>
!bar = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar0 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1]>, align = 8>
!bar1 = !tirx.tensor<1xi64, shared, #tirx.layout<S[1 : 1] + 1>, align = 8>
!stage = !tirx.tensor<1x32x32xf32, shared, #tirx.layout<S[(1, 32, 32) : (1024, 32, 1)]>, align = 128>
!elem = !tirx.tensor<1x1x1xf32, shared, #tirx.layout<S[(1, 1, 1) : (1024, 32, 1)]>, align = 4>
!box = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (256, 1)]>, align = 16>
!reg = !tirx.tensor<1x1x1xf32, local>
// The same pipeline whose consumers read eight elements of the stage in a
// nested loop and release it after that loop: the arrival follows every
// iteration of the nested loop (test/gpu/run_race_proof.py's stream).
tirx.kernel @tma_nested_reads(%A: !A) launch(grid = [1], block = [160]) {
  %img = tirx.alloc_shared : !img
  %full = tirx.alloc_shared : !ring
  %empty = tirx.alloc_shared : !ring
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %f0 = tirx.region %full[0] [1] : !ring
    %f1 = tirx.region %full[1] [1] : !ring
    %e0 = tirx.region %empty[0] [1] : !ring
    %e1 = tirx.region %empty[1] [1] : !ring
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f0, 1 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%f1, 1 : i32) : !bar1
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e0, 128 : i32) : !bar0
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%e1, 128 : i32) : !bar1
    tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  }
  tirx.cta_sync
  %consumer = arith.cmpi ult, %tx, %c128 : index
  scf.if %consumer {
    %r = tirx.alloc_local : !reg
    %row = arith.remui %tx, %c32 : index
    %col = arith.divui %tx, %c32 : index
    scf.for %kb = %c0 to %c8 step %c1 {
      %s = arith.remsi %kb, %c2 : index
      %fb = tirx.region %full[%s] [1] : !ring
      %eb = tirx.region %empty[%s] [1] : !ring
      %q = arith.divsi %kb, %c2 : index
      %p = arith.remsi %q, %c2 : index
      %p32 = arith.index_cast %p : index to i32
      tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%fb, %p32) : !bar, i32
      scf.for %j = %c0 to %c8 step %c1 {
        %j4 = arith.muli %j, %c4 : index
        %c = arith.addi %col, %j4 : index
        %x = tirx.region %img[%s, %row, %c] [1, 1, 1] : !img
        tile.apply "ld.shared.b32" scope(thread) (%r, %x) : !reg, !elem
      }
      tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%eb) : !bar
    }
  } else {
    %producer = arith.cmpi eq, %tx, %c128 : index
    scf.if %producer {
      scf.for %kb = %c0 to %c8 step %c1 {
        %s = arith.remsi %kb, %c2 : index
        %eb = tirx.region %empty[%s] [1] : !ring
        %q = arith.divsi %kb, %c2 : index
        %p = arith.remsi %q, %c2 : index
        %np = arith.subi %c1, %p : index
        %np32 = arith.index_cast %np : index to i32
        tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%eb, %np32) : !bar, i32
        %fb = tirx.region %full[%s] [1] : !ring
        tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%fb, 4096 : i32) : !bar
        %dst = tirx.region %img[%s, 0, 0] [1, 32, 32] : !img
        %k = arith.muli %kb, %c32 : index
        %box = tirx.region %A[0, %k] [32, 32] align 16 : !A
        tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%dst, %box, %fb) : !stage, !box, !bar
      }
    }
  }
  tirx.return
}

// -----

// One TMA load outside loops: every thread waits for its mbarrier's first
// phase before reading.
!A = !tirx.tensor<32x256xf32, global, align = 16>
!img = !tirx.tensor<32x32xf32, shared, align = 128>
!bar = !tirx.tensor<1xi64, shared, align = 8>
!box = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (256, 1)] + 32>, align = 16>
!elem = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (32, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @tma_once_each(%A: !A) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !img
  %bar = tirx.alloc_shared : !bar
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 1 : i32) pred(%first) : !bar
  tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  tirx.cta_sync
  scf.if %first {
    tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%bar, 4096 : i32) : !bar
    %box = tirx.region %A[0, 32] [32, 32] : !A
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar) : !img, !box, !bar
  }
  tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%bar, 0 : i32) : !bar
  %row = arith.remui %tx, %c32 : index
  %col = arith.divui %tx, %c32 : index
  %x = tirx.region %img[%row, %col] [1, 1] : !img
  %r = tirx.alloc_local : !reg
  tile.apply "ld.shared.b32" scope(thread) (%r, %x) : !reg, !elem
  tirx.return
}

// -----

// Thread 0 alone waits; a CTA barrier after its wait orders every thread's
// read after the load.
!A = !tirx.tensor<32x256xf32, global, align = 16>
!img = !tirx.tensor<32x32xf32, shared, align = 128>
!bar = !tirx.tensor<1xi64, shared, align = 8>
!box = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (256, 1)] + 32>, align = 16>
!elem = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (32, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @tma_once_one_then_barrier(%A: !A) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !img
  %bar = tirx.alloc_shared : !bar
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 1 : i32) pred(%first) : !bar
  tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  tirx.cta_sync
  scf.if %first {
    tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%bar, 4096 : i32) : !bar
    %box = tirx.region %A[0, 32] [32, 32] : !A
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar) : !img, !box, !bar
  }
  scf.if %first {
    tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%bar, 0 : i32) : !bar
  }
  tirx.cta_sync
  %row = arith.remui %tx, %c32 : index
  %col = arith.divui %tx, %c32 : index
  %x = tirx.region %img[%row, %col] [1, 1] : !img
  %r = tirx.alloc_local : !reg
  tile.apply "ld.shared.b32" scope(thread) (%r, %x) : !reg, !elem
  tirx.return
}

// -----

// A warp-specialized wgmma pipeline (tirx.gemm.WarpgroupMMA.mainloop over a
// two-stage TmaPipeline, produced by tirx.gemm.produce_k_loop): the
// consumer warpgroup reads each stage through wgmma descriptors from its
// full wait until the wait_group 1 of the next step, then lane 0 of each
// warp releases it; after the loop, wait_group 0 and the last release.
#layout = #tirx.layout<S[(2, 64, 64) : (4096, 64, 1)] + Swizzle[3, 3, 3]>
#layout1 = #tirx.layout<S[(2, 8, 64) : (512, 64, 1)] + Swizzle[3, 3, 3]>
#layout2 = #tirx.layout<S[1 : 1]>
#layout3 = #tirx.layout<S[1 : 1] + 1>
#layout4 = #tirx.layout<S[(4, 2, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 1@laneid, 1)]>
#layout5 = #tirx.layout<S[(1, 64, 64) : (4096, 64, 1)] + Swizzle[3, 3, 3]>
#layout6 = #tirx.layout<S[(64, 16) : (64, 1)] + Swizzle[3, 3, 3]>
#layout7 = #tirx.layout<S[(1, 8, 64) : (512, 64, 1)] + Swizzle[3, 3, 3]>
#layout8 = #tirx.layout<S[(8, 16) : (64, 1)] + Swizzle[3, 3, 3]>
#layout9 = #tirx.layout<S[(64, 16) : (64, 1)] + 16 + Swizzle[3, 3, 3]>
#layout10 = #tirx.layout<S[(8, 16) : (64, 1)] + 16 + Swizzle[3, 3, 3]>
#layout11 = #tirx.layout<S[(64, 16) : (64, 1)] + 32 + Swizzle[3, 3, 3]>
#layout12 = #tirx.layout<S[(8, 16) : (64, 1)] + 32 + Swizzle[3, 3, 3]>
#layout13 = #tirx.layout<S[(64, 16) : (64, 1)] + 48 + Swizzle[3, 3, 3]>
#layout14 = #tirx.layout<S[(8, 16) : (64, 1)] + 48 + Swizzle[3, 3, 3]>
#layout15 = #tirx.layout<S[(64, 64) : (256, 1)]>
#layout16 = #tirx.layout<S[(8, 64) : (256, 1)]>
#loop_unroll = #llvm.loop_unroll<disable = true>
#loop_annotation = #llvm.loop_annotation<unroll = #loop_unroll>
module attributes {tirx.chip = "sm_90a"} {
  tirx.kernel @wgmma_ring(%arg0: !tirx.tensor<64x256xbf16, global, align = 16>, %arg1: !tirx.tensor<8x256xbf16, global, align = 16>, %arg2: !tirx.tensor<64x8xf32, global, align = 16>) launch(grid = [1], block = [256]) {
    %smem = tirx.alloc_shared : !tirx.tensor<2x64x64xbf16, shared, #layout, align = 1024>
    %smem_0 = tirx.alloc_shared : !tirx.tensor<2x8x64xbf16, shared, #layout1, align = 1024>
    %smem_1 = tirx.alloc_shared : !tirx.tensor<2xui64, shared, align = 8>
    %smem_2 = tirx.alloc_shared : !tirx.tensor<2xui64, shared, align = 8>
    %tx = tirx.thread_idx x
    %c128 = arith.constant 128 : index
    %0 = arith.divsi %tx, %c128 : index
    %c0 = arith.constant 0 : index
    %1 = arith.cmpi eq, %tx, %c0 : index
    scf.if %1 {
      %3 = tirx.region %smem_1 [0] [1] : !tirx.tensor<2xui64, shared, align = 8>
      tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%3, 1 : i32) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
      %4 = tirx.region %smem_2 [0] [1] : !tirx.tensor<2xui64, shared, align = 8>
      tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%4, 4 : i32) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
      %5 = tirx.region %smem_1 [1] [1] : !tirx.tensor<2xui64, shared, align = 8>
      tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%5, 1 : i32) : !tirx.tensor<1xui64, shared, #layout3, align = 8>
      %6 = tirx.region %smem_2 [1] [1] : !tirx.tensor<2xui64, shared, align = 8>
      tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%6, 4 : i32) : !tirx.tensor<1xui64, shared, #layout3, align = 8>
      tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
    }
    tirx.cta_sync
    %c1 = arith.constant 1 : index
    %2 = arith.cmpi sge, %0, %c1 : index
    scf.if %2 {
      tile.apply "setmaxnreg.inc.sync.aligned.u32" scope(warpgroup) (232 : i32)
      %regs = tirx.alloc_local : !tirx.tensor<64x8xf32, local, #layout4>
      %c2 = arith.constant 2 : index
      %3 = arith.remsi %c0, %c2 : index
      %4 = tirx.region %smem_1 [%3] [1] : !tirx.tensor<2xui64, shared, align = 8>
      tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%4, 0 : i32) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
      %5 = tirx.region %smem [%3, 0, 0] [1, 64, 64] : !tirx.tensor<2x64x64xbf16, shared, #layout, align = 1024>
      %6 = tirx.region %smem_0 [%3, 0, 0] [1, 8, 64] : !tirx.tensor<2x8x64xbf16, shared, #layout1, align = 1024>
      tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
      %7 = tirx.reinterpret %5 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout6, align = 1024>
      %8 = tirx.reinterpret %6 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout8, align = 1024>
      tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %7, %8, false, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout6, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout8, align = 1024>
      %9 = tirx.reinterpret %5 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout9, align = 1024>
      %10 = tirx.reinterpret %6 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout10, align = 1024>
      tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %9, %10, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout9, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout10, align = 1024>
      %11 = tirx.reinterpret %5 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout11, align = 1024>
      %12 = tirx.reinterpret %6 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout12, align = 1024>
      tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %11, %12, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout11, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout12, align = 1024>
      %13 = tirx.reinterpret %5 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout13, align = 1024>
      %14 = tirx.reinterpret %6 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout14, align = 1024>
      tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %13, %14, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout13, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout14, align = 1024>
      tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
      %c4 = arith.constant 4 : index
      scf.for %arg3 = %c1 to %c4 step %c1 {
        %17 = arith.remsi %arg3, %c2 : index
        %18 = tirx.region %smem_1 [%17] [1] : !tirx.tensor<2xui64, shared, align = 8>
        %19 = arith.divsi %arg3, %c2 : index
        %20 = arith.remsi %19, %c2 : index
        %21 = arith.index_cast %20 : index to i64
        %22 = arith.trunci %21 : i64 to i32
        tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%18, %22) : !tirx.tensor<1xui64, shared, #layout2, align = 8>, i32
        %23 = tirx.region %smem [%17, 0, 0] [1, 64, 64] : !tirx.tensor<2x64x64xbf16, shared, #layout, align = 1024>
        %24 = tirx.region %smem_0 [%17, 0, 0] [1, 8, 64] : !tirx.tensor<2x8x64xbf16, shared, #layout1, align = 1024>
        tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
        %25 = tirx.reinterpret %23 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout6, align = 1024>
        %26 = tirx.reinterpret %24 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout8, align = 1024>
        tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %25, %26, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout6, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout8, align = 1024>
        %27 = tirx.reinterpret %23 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout9, align = 1024>
        %28 = tirx.reinterpret %24 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout10, align = 1024>
        tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %27, %28, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout9, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout10, align = 1024>
        %29 = tirx.reinterpret %23 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout11, align = 1024>
        %30 = tirx.reinterpret %24 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout12, align = 1024>
        tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %29, %30, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout11, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout12, align = 1024>
        %31 = tirx.reinterpret %23 : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024> -> !tirx.tensor<64x16xbf16, shared, #layout13, align = 1024>
        %32 = tirx.reinterpret %24 : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024> -> !tirx.tensor<8x16xbf16, shared, #layout14, align = 1024>
        tile.apply "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" scope(warpgroup) (%regs, %31, %32, true, 1 : i32, 1 : i32, 0 : i32, 0 : i32) : !tirx.tensor<64x8xf32, local, #layout4>, !tirx.tensor<64x16xbf16, shared, #layout13, align = 1024>, !tirx.tensor<8x16xbf16, shared, #layout14, align = 1024>
        tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
        tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (1 : i32)
        %33 = arith.subi %arg3, %c1 : index
        %c32_3 = arith.constant 32 : index
        %34 = arith.remsi %tx, %c32_3 : index
        %35 = arith.cmpi eq, %34, %c0 : index
        scf.if %35 {
          %36 = arith.remsi %33, %c2 : index
          %37 = tirx.region %smem_2 [%36] [1] : !tirx.tensor<2xui64, shared, align = 8>
          tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%37) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
        }
      } {loop_annotation = #loop_annotation}
      tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)
      %c32 = arith.constant 32 : index
      %15 = arith.remsi %tx, %c32 : index
      %16 = arith.cmpi eq, %15, %c0 : index
      scf.if %16 {
        %c3 = arith.constant 3 : index
        %17 = arith.remsi %c3, %c2 : index
        %18 = tirx.region %smem_2 [%17] [1] : !tirx.tensor<2xui64, shared, align = 8>
        tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%18) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
      }
    } else {
      tile.apply "setmaxnreg.dec.sync.aligned.u32" scope(warpgroup) (40 : i32)
      scf.if %1 {
        %c4 = arith.constant 4 : index
        scf.for %arg3 = %c0 to %c4 step %c1 {
          %c2 = arith.constant 2 : index
          %3 = arith.remsi %arg3, %c2 : index
          %4 = tirx.region %smem_2 [%3] [1] : !tirx.tensor<2xui64, shared, align = 8>
          %5 = arith.divsi %arg3, %c2 : index
          %6 = arith.remsi %5, %c2 : index
          %7 = arith.subi %c1, %6 : index
          %8 = arith.index_cast %7 : index to i64
          %9 = arith.trunci %8 : i64 to i32
          tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%4, %9) : !tirx.tensor<1xui64, shared, #layout2, align = 8>, i32
          %10 = tirx.region %smem_1 [%3] [1] : !tirx.tensor<2xui64, shared, align = 8>
          tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%10, 9216 : i32) : !tirx.tensor<1xui64, shared, #layout2, align = 8>
          %11 = tirx.region %smem [%3, 0, 0] [1, 64, 64] : !tirx.tensor<2x64x64xbf16, shared, #layout, align = 1024>
          %c64 = arith.constant 64 : index
          %12 = arith.muli %arg3, %c64 : index
          %13 = tirx.region %arg0 [0, %12] [64, 64] align 16 : !tirx.tensor<64x256xbf16, global, align = 16>
          tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%11, %13, %10) : !tirx.tensor<1x64x64xbf16, shared, #layout5, align = 1024>, !tirx.tensor<64x64xbf16, global, #layout15, align = 16>, !tirx.tensor<1xui64, shared, #layout2, align = 8>
          %14 = tirx.region %smem_0 [%3, 0, 0] [1, 8, 64] : !tirx.tensor<2x8x64xbf16, shared, #layout1, align = 1024>
          %15 = tirx.region %arg1 [0, %12] [8, 64] align 16 : !tirx.tensor<8x256xbf16, global, align = 16>
          tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%14, %15, %10) : !tirx.tensor<1x8x64xbf16, shared, #layout7, align = 1024>, !tirx.tensor<8x64xbf16, global, #layout16, align = 16>, !tirx.tensor<1xui64, shared, #layout2, align = 8>
        } {loop_annotation = #loop_annotation}
      }
    }
    tirx.return
  }
}

// -----

// Two warpgroups exchange values through their own rows of a buffer, each
// synchronized by its own named barrier (1 + its index, 128 threads): a
// barrier orders the threads that name the same one. In a loop, a second
// barrier keeps the next iteration's writes after this one's reads.
!buf = !tirx.tensor<2x128xf32, shared, align = 16>
!one = !tirx.tensor<1x1xf32, shared, #tirx.layout<S[(1, 1) : (128, 1)]>, align = 4>
!reg = !tirx.tensor<1x1xf32, local>
tirx.kernel @warpgroup_named_barriers() launch(grid = [1], block = [256]) {
  %buf = tirx.alloc_shared : !buf
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %wg = arith.divui %tx, %c128 : index
  %lane = arith.remui %tx, %c128 : index
  %next = arith.addi %lane, %c1 : index
  %wrapped = arith.remui %next, %c128 : index
  %id = arith.addi %wg, %c1 : index
  %id32 = arith.index_cast %id : index to i32
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !reg
  scf.for %i = %c0 to %c4 step %c1 {
    %mine = tirx.region %buf[%wg, %lane] [1, 1] : !buf
    tile.apply "st.shared.b32" scope(thread) (%mine, %r) : !one, !reg
    tile.apply "bar.sync" scope(warpgroup) (%id32, 128 : i32) : i32
    %theirs = tirx.region %buf[%wg, %wrapped] [1, 1] : !buf
    tile.apply "ld.shared.b32" scope(thread) (%r, %theirs) : !reg, !one
    tile.apply "bar.sync" scope(warpgroup) (%id32, 128 : i32) : i32
  }
  tirx.return
}

// -----

// Two warpgroups each write their slot of a staging buffer and TMA-store it,
// tile after tile (the Hopper GEMM's epilogue): thread 0 of the warpgroup
// waits until its previous store has read the slot (bulk wait_group.read
// 0), the warpgroup's named barrier hands that on, every thread writes its
// word and fences it, the barrier again, and thread 0 stores the slot, which
// it reads until its next wait.
!C = !tirx.tensor<64x1024xf32, global, align = 16>
!buf = !tirx.tensor<2x32x4xf32, shared, align = 128>
!slot = !tirx.tensor<1x32x4xf32, shared, #tirx.layout<S[(1, 32, 4) : (128, 4, 1)]>, align = 128>
!box = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (1024, 1)]>, align = 16>
!elem = !tirx.tensor<1x1x1xf32, shared, #tirx.layout<S[(1, 1, 1) : (128, 4, 1)]>, align = 4>
!reg = !tirx.tensor<1x1x1xf32, local>
tirx.kernel @warpgroup_tma_stores(%C: !C) launch(grid = [1], block = [256]) {
  %buf = tirx.alloc_shared : !buf
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %wg = arith.divui %tx, %c128 : index
  %lane = arith.remui %tx, %c128 : index
  %row = arith.remui %lane, %c32 : index
  %col = arith.divui %lane, %c32 : index
  %id = arith.addi %wg, %c1 : index
  %id32 = arith.index_cast %id : index to i32
  %leader = arith.cmpi eq, %lane, %c0 : index
  %r = tirx.alloc_local : !reg
  tile.apply "mov.b32" scope(thread) (%r, 1.0 : f32) : !reg
  scf.for %t = %c0 to %c8 step %c1 {
    scf.if %leader {
      tile.apply "cp.async.bulk.wait_group.read" scope(thread) (0 : i32)
    }
    tile.apply "bar.sync" scope(warpgroup) (%id32, 128 : i32) : i32
    %x = tirx.region %buf[%wg, %row, %col] [1, 1, 1] : !buf
    tile.apply "st.shared.b32" scope(thread) (%x, %r) : !elem, !reg
    tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
    tile.apply "bar.sync" scope(warpgroup) (%id32, 128 : i32) : i32
    scf.if %leader {
      %y = arith.muli %wg, %c32 : index
      %t4 = arith.muli %t, %c4 : index
      %box = tirx.region %C[%y, %t4] [32, 4] align 16 : !C
      %s = tirx.region %buf[%wg, 0, 0] [1, 32, 4] : !buf
      tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %s) : !box, !slot
      tile.apply "cp.async.bulk.commit_group" scope(thread) ()
    }
  }
  scf.if %leader {
    tile.apply "cp.async.bulk.wait_group" scope(thread) (0 : i32)
  }
  tirx.return
}
