// RUN: tirx-opt %s | tirx-opt | FileCheck %s
// RUN: tirx-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Warp-collective forms: the lane axis is the atom (fragment
// S[(32) : (1@laneid)]), the group prefix is the warps (docs/collectives.md).

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
#warp = #tirx.layout<S[(32) : (1@laneid)]>
#rep = #tirx.layout<S[(4, 2, 32) : (1@warpid, 1, 1@laneid)]>

// The instruction is a parsed attribute; the custom form prints its
// spelling as written.
// GENERIC: instruction = #tile.ptx<"shfl.sync.bfly.b32">
// CHECK-LABEL: tirx.kernel @shuffles
// CHECK: tile.apply "shfl.sync.bfly.b32" scope(cta) (%{{.+}}, %{{.+}}, 16 : i32, 31 : i32, -1 : i32)
// CHECK: tile.apply "shfl.sync.idx.b32" scope(cta) (%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, 31 : i32, -1 : i32)
// CHECK: tile.apply "shfl.sync.down.b32" scope(cta) (%{{.+}}, %{{.+}}, %{{.+}}, 31 : i32, -1 : i32)
// CHECK: tile.apply "shfl.sync.up.b32" scope(cta) (%{{.+}}, %{{.+}}, 1 : i32, 0 : i32, -1 : i32)
tirx.kernel @shuffles(%src: index) launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xf32, local, #lanes>
  %p = tirx.alloc_local : !tirx.tensor<4x32xi1, local, #lanes>
  %lane = tirx.alloc_local : !tirx.tensor<4x32xi32, local, #lanes>
  %c = arith.index_cast %src : index to i32
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%x, %x, 16 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #lanes>, !tirx.tensor<4x32xf32, local, #lanes>
  // d|p, a per-lane source lane.
  tile.apply "shfl.sync.idx.b32" scope(cta) (%x, %p, %x, %lane, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #lanes>, !tirx.tensor<4x32xi1, local, #lanes>,
        !tirx.tensor<4x32xf32, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>
  // A scalar offset.
  tile.apply "shfl.sync.down.b32" scope(cta) (%lane, %lane, %c, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xi32, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>, i32
  tile.apply "shfl.sync.up.b32" scope(cta) (%lane, %lane, 1 : i32, 0 : i32, -1 : i32)
      : !tirx.tensor<4x32xi32, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>
  tirx.return
}

// Scope warp: no group prefix, every warp runs it on its own registers;
// repeats are middle axes.
// CHECK-LABEL: tirx.kernel @warp_scope_and_repeats
// CHECK: tile.apply "shfl.sync.bfly.b32" scope(warp)
// CHECK: tile.apply "shfl.sync.bfly.b32" scope(cta)
tirx.kernel @warp_scope_and_repeats() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<32xf32, local, #warp>
  tile.apply "shfl.sync.bfly.b32" scope(warp) (%x, %x, 1 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<32xf32, local, #warp>, !tirx.tensor<32xf32, local, #warp>
  %y = tirx.alloc_local : !tirx.tensor<4x2x32xf32, local, #rep>
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%y, %y, 8 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x2x32xf32, local, #rep>, !tirx.tensor<4x2x32xf32, local, #rep>
  tirx.return
}

// CHECK-LABEL: tirx.kernel @votes_and_reductions
// CHECK: tile.apply "vote.sync.all.pred" scope(cta)
// CHECK: tile.apply "vote.sync.any.pred" scope(cta)
// CHECK: tile.apply "vote.sync.uni.pred" scope(cta)
// CHECK: tile.apply "vote.sync.ballot.b32" scope(cta)
// CHECK: tile.apply "redux.sync.add.s32" scope(cta)
// CHECK: tile.apply "redux.sync.max.u32" scope(cta)
// CHECK: tile.apply "redux.sync.xor.b32" scope(cta)
tirx.kernel @votes_and_reductions() launch(grid = [1], block = [128]) {
  %p = tirx.alloc_local : !tirx.tensor<4x32xi1, local, #lanes>
  %i = tirx.alloc_local : !tirx.tensor<4x32xi32, local, #lanes>
  %u = tirx.alloc_local : !tirx.tensor<4x32xui32, local, #lanes>
  tile.apply "vote.sync.all.pred" scope(cta) (%p, %p, -1 : i32)
      : !tirx.tensor<4x32xi1, local, #lanes>, !tirx.tensor<4x32xi1, local, #lanes>
  tile.apply "vote.sync.any.pred" scope(cta) (%p, %p, -1 : i32)
      : !tirx.tensor<4x32xi1, local, #lanes>, !tirx.tensor<4x32xi1, local, #lanes>
  tile.apply "vote.sync.uni.pred" scope(cta) (%p, %p, 4294967295 : ui32)
      : !tirx.tensor<4x32xi1, local, #lanes>, !tirx.tensor<4x32xi1, local, #lanes>
  tile.apply "vote.sync.ballot.b32" scope(cta) (%u, %p, -1 : i32)
      : !tirx.tensor<4x32xui32, local, #lanes>, !tirx.tensor<4x32xi1, local, #lanes>
  tile.apply "redux.sync.add.s32" scope(cta) (%i, %i, -1 : i32)
      : !tirx.tensor<4x32xi32, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>
  tile.apply "redux.sync.max.u32" scope(cta) (%u, %u, -1 : i32)
      : !tirx.tensor<4x32xui32, local, #lanes>, !tirx.tensor<4x32xui32, local, #lanes>
  tile.apply "redux.sync.xor.b32" scope(cta) (%i, %i, -1 : i32)
      : !tirx.tensor<4x32xi32, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>
  tirx.return
}

// Barriers have no tensor operand: one instruction per warp.
// A predicate computed from the warp index is warp-uniform.
// CHECK-LABEL: tirx.kernel @barriers
// CHECK: tile.apply "bar.warp.sync" scope(warp) (-1 : i32)
// CHECK: tile.apply "bar.sync" scope(cta) (0 : i32)
// CHECK: tile.apply "bar.sync" scope(cta) (1 : i32, 64 : i32) pred(%{{.+}})
// CHECK: tile.apply "bar.arrive" scope(cta) (1 : i32, 128 : i32)
// CHECK: tile.apply "activemask.b32" scope(thread)
tirx.kernel @barriers() launch(grid = [1], block = [128]) {
  tile.apply "bar.warp.sync" scope(warp) (-1 : i32)
  tile.apply "bar.sync" scope(cta) (0 : i32)
  %tid = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %warp = arith.divui %tid, %c32 : index
  %low = arith.cmpi ult, %warp, %c2 : index
  tile.apply "bar.sync" scope(cta) (1 : i32, 64 : i32) pred(%low)
  tile.apply "bar.arrive" scope(cta) (1 : i32, 128 : i32)
  %m = tirx.alloc_local : !tirx.tensor<1xi32, local>
  tile.apply "activemask.b32" scope(thread) (%m) : !tirx.tensor<1xi32, local>
  tirx.return
}

// Predicate tiles: setp writes one, selp reads one.
// CHECK-LABEL: tirx.kernel @predicates
// CHECK: tile.apply "setp.lt.s32" scope(thread)
// CHECK: tile.apply "setp.ltu.ftz.f32" scope(thread)
// CHECK: tile.apply "selp.f32" scope(thread)
tirx.kernel @predicates() launch(grid = [1], block = [32]) {
  %p = tirx.alloc_local : !tirx.tensor<4x1xi1, local>
  %i = tirx.alloc_local : !tirx.tensor<4x1xi32, local>
  %f = tirx.alloc_local : !tirx.tensor<4x1xf32, local>
  tile.apply "setp.lt.s32" scope(thread) (%p, %i, 7 : i32)
      : !tirx.tensor<4x1xi1, local>, !tirx.tensor<4x1xi32, local>
  tile.apply "setp.ltu.ftz.f32" scope(thread) (%p, %f, %f)
      : !tirx.tensor<4x1xi1, local>, !tirx.tensor<4x1xf32, local>, !tirx.tensor<4x1xf32, local>
  tile.apply "selp.f32" scope(thread) (%f, %f, 0.0 : f32, %p)
      : !tirx.tensor<4x1xf32, local>, !tirx.tensor<4x1xf32, local>, !tirx.tensor<4x1xi1, local>
  tirx.return
}

// mma.sync at scope cta: the warps are the group, (2) repeats, the atoms are
// the fragments' (16, 8) and (8, 8) trailing dimensions.
// CHECK-LABEL: tirx.kernel @mma_repeats
// CHECK: tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" scope(cta)
#acc4 = #tirx.layout<S[(4, 2, 2, 8, 4, 2) : (1@warpid, 4, 2, 4@laneid, 1@laneid, 1)]>
#a4 = #tirx.layout<S[(4, 2, 2, 8, 2, 4) : (1@warpid, 4, 1, 4@laneid, 2, 1@laneid)]>
#b4 = #tirx.layout<S[(4, 2, 8, 2, 4) : (1@warpid, 2, 4@laneid, 1, 1@laneid)]>
tirx.kernel @mma_repeats() launch(grid = [1], block = [128]) {
  %a = tirx.alloc_local : !tirx.tensor<4x2x16x8xui32, local, #a4>
  %b = tirx.alloc_local : !tirx.tensor<4x2x8x8xui32, local, #b4>
  %c = tirx.alloc_local : !tirx.tensor<4x2x16x8xf32, local, #acc4>
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" scope(cta) (%c, %a, %b, %c)
      : !tirx.tensor<4x2x16x8xf32, local, #acc4>, !tirx.tensor<4x2x16x8xui32, local, #a4>,
        !tirx.tensor<4x2x8x8xui32, local, #b4>, !tirx.tensor<4x2x16x8xf32, local, #acc4>
  tirx.return
}
