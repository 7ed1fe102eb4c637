// Warp collectives end to end: tile-dispatch lowers them to the NVVM ops
// that yield exactly the named instruction (convergent intrinsics), or to
// inline PTX with side effects; the PTX lines are exact and ptxas
// assembles them.
// RUN: tirx-opt %s --tirx-to-gpu=chip=sm_90 --tile-dispatch | FileCheck %s --check-prefix=IR
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --enable-var-scope < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
#thr = #tirx.layout<S[(4, 32, 1) : (1@warpid, 1@laneid, 1)]>

// A warp's sum by butterfly shuffles, one shfl per step.
// IR-LABEL: gpu.func @warp_sum
// IR-COUNT-5: nvvm.shfl.sync bfly
// IR-NOT: llvm.inline_asm {{.*}}shfl
// CHECK-LABEL: .entry warp_sum(
// CHECK: ld.global.b32 [[X:%r[0-9]+]], [%rd{{[0-9]+}}];
// CHECK: shfl.sync.bfly.b32 [[S16:%r[0-9]+]], [[X]], 16, 31, -1;
// CHECK: add.rn.f32 [[A16:%r[0-9]+]], [[X]], [[S16]];
// CHECK: shfl.sync.bfly.b32 [[S8:%r[0-9]+]], [[A16]], 8, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1, 31, -1;
// CHECK: st.global.b32
tirx.kernel @warp_sum(%A: !tirx.tensor<4x32x1xf32, global, align = 4>,
                      %B: !tirx.tensor<4x32x1xf32, global, align = 4>)
    launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32x1xf32, local, #thr>
  %t = tirx.alloc_local : !tirx.tensor<4x32x1xf32, local, #thr>
  tile.apply "ld.global.b32" scope(cta) (%x, %A)
      : !tirx.tensor<4x32x1xf32, local, #thr>, !tirx.tensor<4x32x1xf32, global, align = 4>
  %xl = tirx.view %x : !tirx.tensor<4x32x1xf32, local, #thr> -> !tirx.tensor<4x32xf32, local, #thr>
  %tl = tirx.view %t : !tirx.tensor<4x32x1xf32, local, #thr> -> !tirx.tensor<4x32xf32, local, #thr>
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%tl, %xl, 16 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #thr>, !tirx.tensor<4x32xf32, local, #thr>
  tile.apply "add.rn.f32" scope(cta) (%x, %x, %t)
      : !tirx.tensor<4x32x1xf32, local, #thr>, !tirx.tensor<4x32x1xf32, local, #thr>, !tirx.tensor<4x32x1xf32, local, #thr>
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%tl, %xl, 8 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #thr>, !tirx.tensor<4x32xf32, local, #thr>
  tile.apply "add.rn.f32" scope(cta) (%x, %x, %t)
      : !tirx.tensor<4x32x1xf32, local, #thr>, !tirx.tensor<4x32x1xf32, local, #thr>, !tirx.tensor<4x32x1xf32, local, #thr>
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%tl, %xl, 4 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #thr>, !tirx.tensor<4x32xf32, local, #thr>
  tile.apply "add.rn.f32" scope(cta) (%x, %x, %t)
      : !tirx.tensor<4x32x1xf32, local, #thr>, !tirx.tensor<4x32x1xf32, local, #thr>, !tirx.tensor<4x32x1xf32, local, #thr>
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%tl, %xl, 2 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #thr>, !tirx.tensor<4x32xf32, local, #thr>
  tile.apply "add.rn.f32" scope(cta) (%x, %x, %t)
      : !tirx.tensor<4x32x1xf32, local, #thr>, !tirx.tensor<4x32x1xf32, local, #thr>, !tirx.tensor<4x32x1xf32, local, #thr>
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%tl, %xl, 1 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #thr>, !tirx.tensor<4x32xf32, local, #thr>
  tile.apply "add.rn.f32" scope(cta) (%x, %x, %t)
      : !tirx.tensor<4x32x1xf32, local, #thr>, !tirx.tensor<4x32x1xf32, local, #thr>, !tirx.tensor<4x32x1xf32, local, #thr>
  tile.apply "st.global.b32" scope(cta) (%B, %x)
      : !tirx.tensor<4x32x1xf32, global, align = 4>, !tirx.tensor<4x32x1xf32, local, #thr>
  tirx.return
}

// shfl d|p, vote, redux, barriers, setp/selp; a warp-uniform predicate
// becomes a branch around the NVVM op.
// IR-LABEL: gpu.func @families
// IR: nvvm.shfl.sync idx {{.+}} {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
// IR: nvvm.vote.sync ballot
// IR: nvvm.vote.sync all {{.+}} -> i1
// IR: nvvm.redux.sync umax
// IR: llvm.inline_asm has_side_effects "redux.sync.add.u32 $0, $1, 0xFFFFFFFF;", "=r,r"
// IR: scf.if
// IR-NEXT: nvvm.bar.warp.sync
// IR: nvvm.barrier id = {{.+}} number_of_threads = {{.+}}
// IR: llvm.inline_asm has_side_effects "bar.arrive 0x00000002, 0x00000040;", ""
// IR: llvm.inline_asm has_side_effects "activemask.b32 $0;", "=r"
// IR: llvm.inline_asm "setp.ne.s32 $0, $1, 0x00000000;", "=b,r"
// IR: llvm.inline_asm "selp.b32 $0, $1, 0x00000000, $2;", "=r,r,b"
// CHECK-LABEL: .entry families(
// CHECK: shfl.sync.idx.b32 [[D:%r[0-9]+]]|[[P:%p[0-9]+]], [[A:%r[0-9]+]], 5, 31, -1;
// CHECK: vote.sync.ballot.b32 {{%r[0-9]+}}, [[P]], -1;
// CHECK: vote.sync.all.pred {{%p[0-9]+}}, [[P]], -1;
// CHECK: redux.sync.max.u32 [[MAX:%r[0-9]+]], {{%r[0-9]+}}, {{%r[0-9]+}};
// CHECK: redux.sync.add.u32 {{%r[0-9]+}}, [[MAX]], 0xFFFFFFFF;
// CHECK: mov.u32 [[BID:%r[0-9]+]], %ctaid.x;
// CHECK-NEXT: setp.ne.b32 [[NOTFIRST:%p[0-9]+]], [[BID]], 0;
// CHECK-NEXT: @[[NOTFIRST]] bra [[SKIP:\$L__BB1_[0-9]+]];
// CHECK: bar.warp.sync -1;
// CHECK: [[SKIP]]:
// CHECK: bar.sync 1, 64;
// CHECK: bar.arrive 0x00000002, 0x00000040;
// CHECK: activemask.b32 {{%r[0-9]+}};
// CHECK: setp.ne.s32 {{%p[0-9]+}}, {{%r[0-9]+}}, 0x00000000;
// CHECK: selp.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0x00000000, {{%p[0-9]+}};
tirx.kernel @families(%A: !tirx.tensor<4x32x1xi32, global, align = 4>,
                      %B: !tirx.tensor<4x32x1xi32, global, align = 4>)
    launch(grid = [2], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32x1xi32, local, #thr>
  tile.apply "ld.global.b32" scope(cta) (%x, %A)
      : !tirx.tensor<4x32x1xi32, local, #thr>, !tirx.tensor<4x32x1xi32, global, align = 4>
  %xl = tirx.view %x : !tirx.tensor<4x32x1xi32, local, #thr> -> !tirx.tensor<4x32xi32, local, #thr>
  %p = tirx.alloc_local : !tirx.tensor<4x32xi1, local, #thr>
  tile.apply "shfl.sync.idx.b32" scope(cta) (%xl, %p, %xl, 5 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xi32, local, #thr>, !tirx.tensor<4x32xi1, local, #thr>, !tirx.tensor<4x32xi32, local, #thr>
  %b = tirx.alloc_local : !tirx.tensor<4x32xui32, local, #thr>
  tile.apply "vote.sync.ballot.b32" scope(cta) (%b, %p, -1 : i32)
      : !tirx.tensor<4x32xui32, local, #thr>, !tirx.tensor<4x32xi1, local, #thr>
  %q = tirx.alloc_local : !tirx.tensor<4x32xi1, local, #thr>
  tile.apply "vote.sync.all.pred" scope(cta) (%q, %p, -1 : i32)
      : !tirx.tensor<4x32xi1, local, #thr>, !tirx.tensor<4x32xi1, local, #thr>
  tile.apply "redux.sync.max.u32" scope(cta) (%b, %b, -1 : i32)
      : !tirx.tensor<4x32xui32, local, #thr>, !tirx.tensor<4x32xui32, local, #thr>
  tile.apply "redux.sync.add.u32" scope(cta) (%b, %b, -1 : i32)
      : !tirx.tensor<4x32xui32, local, #thr>, !tirx.tensor<4x32xui32, local, #thr>
  %bid = tirx.block_idx x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %bid, %c0 : index
  tile.apply "bar.warp.sync" scope(cta) (-1 : i32) pred(%first)
  // A named barrier of two warps, taken by those two (docs/barriers.md);
  // the other two arrive on another one, counted as the 64 threads they are.
  %tid = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %warp = arith.divui %tid, %c32 : index
  %pair = arith.cmpi ult, %warp, %c2 : index
  scf.if %pair {
    tile.apply "bar.sync" scope(cta) (1 : i32, 64 : i32)
  } else {
    tile.apply "bar.arrive" scope(cta) (2 : i32, 64 : i32)
  }
  %m = tirx.alloc_local : !tirx.tensor<4x32x1xi32, local, #thr>
  tile.apply "activemask.b32" scope(cta) (%m)
      : !tirx.tensor<4x32x1xi32, local, #thr>
  %bt = tirx.view %b : !tirx.tensor<4x32xui32, local, #thr> -> !tirx.tensor<4x32x1xui32, local, #thr>
  %qt = tirx.view %q : !tirx.tensor<4x32xi1, local, #thr> -> !tirx.tensor<4x32x1xi1, local, #thr>
  %s = tirx.alloc_local : !tirx.tensor<4x32x1xi1, local, #thr>
  tile.apply "setp.ne.s32" scope(cta) (%s, %m, 0 : i32)
      : !tirx.tensor<4x32x1xi1, local, #thr>, !tirx.tensor<4x32x1xi32, local, #thr>
  %y = tirx.alloc_local : !tirx.tensor<4x32x1xi32, local, #thr>
  tile.apply "selp.b32" scope(cta) (%y, %x, 0 : i32, %s)
      : !tirx.tensor<4x32x1xi32, local, #thr>, !tirx.tensor<4x32x1xi32, local, #thr>, !tirx.tensor<4x32x1xi1, local, #thr>
  %z = tirx.alloc_local : !tirx.tensor<4x32x1xui32, local, #thr>
  tile.apply "selp.b32" scope(cta) (%z, %bt, %bt, %s)
      : !tirx.tensor<4x32x1xui32, local, #thr>, !tirx.tensor<4x32x1xui32, local, #thr>, !tirx.tensor<4x32x1xui32, local, #thr>, !tirx.tensor<4x32x1xi1, local, #thr>
  tile.apply "st.global.b32" scope(cta) (%A, %z)
      : !tirx.tensor<4x32x1xi32, global, align = 4>, !tirx.tensor<4x32x1xui32, local, #thr>
  tile.apply "selp.b32" scope(cta) (%y, %y, 7 : i32, %qt)
      : !tirx.tensor<4x32x1xi32, local, #thr>, !tirx.tensor<4x32x1xi32, local, #thr>, !tirx.tensor<4x32x1xi1, local, #thr>
  tile.apply "st.global.b32" scope(cta) (%B, %y)
      : !tirx.tensor<4x32x1xi32, global, align = 4>, !tirx.tensor<4x32x1xi32, local, #thr>
  tirx.return
}

// .b32 operands take any 32-bit type: f32 tiles and immediates reach the
// NVVM ops (which take i32 masks, offsets and integer reductions) as bits.
// CHECK-LABEL: .entry float_bits(
// CHECK: shfl.sync.idx.b32 [[S:%r[0-9]+]], {{%r[0-9]+}}, {{%r[0-9]+}}, 1065353216, -1;
// CHECK: redux.sync.and.b32 {{%r[0-9]+}}, [[S]], {{%r[0-9]+}};
// CHECK: vote.sync.ballot.b32 {{%r[0-9]+}}, {{%p[0-9]+}}, -1;
#lanes2 = #tirx.layout<S[(4, 32, 1) : (1@warpid, 1@laneid, 1)]>
tirx.kernel @float_bits(%A: !tirx.tensor<4x32x1xf32, global, align = 4>,
                        %B: !tirx.tensor<4x32x1xf32, global, align = 4>)
    launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32x1xf32, local, #lanes2>
  tile.apply "ld.global.b32" scope(cta) (%x, %A)
      : !tirx.tensor<4x32x1xf32, local, #lanes2>, !tirx.tensor<4x32x1xf32, global, align = 4>
  %l = tirx.view %x : !tirx.tensor<4x32x1xf32, local, #lanes2> -> !tirx.tensor<4x32xf32, local, #lanes2>
  %p = tirx.alloc_local : !tirx.tensor<4x32xi1, local, #lanes2>
  %b = tirx.alloc_local : !tirx.tensor<4x32xf32, local, #lanes2>
  tile.apply "shfl.sync.idx.b32" scope(cta) (%l, %l, %l, 1.0 : f32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #lanes2>, !tirx.tensor<4x32xf32, local, #lanes2>, !tirx.tensor<4x32xf32, local, #lanes2>
  tile.apply "redux.sync.and.b32" scope(cta) (%l, %l, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #lanes2>, !tirx.tensor<4x32xf32, local, #lanes2>
  tile.apply "vote.sync.ballot.b32" scope(cta) (%b, %p, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #lanes2>, !tirx.tensor<4x32xi1, local, #lanes2>
  %bt = tirx.view %b : !tirx.tensor<4x32xf32, local, #lanes2> -> !tirx.tensor<4x32x1xf32, local, #lanes2>
  tile.apply "st.global.b32" scope(cta) (%B, %x)
      : !tirx.tensor<4x32x1xf32, global, align = 4>, !tirx.tensor<4x32x1xf32, local, #lanes2>
  tile.apply "st.global.b32" scope(cta) (%A, %bt)
      : !tirx.tensor<4x32x1xf32, global, align = 4>, !tirx.tensor<4x32x1xf32, local, #lanes2>
  tirx.return
}

// Predicates from a size and from the warp index stay provably uniform
// through the whole pipeline (tile.apply is verified again inside the
// gpu.func, where sizes are function arguments and indices gpu ops).
// CHECK-LABEL: .entry uniform_predicates(
// CHECK: setp.lt.u64 [[SMALL:%p[0-9]+]], {{%rd[0-9]+}}, 5;
// CHECK: @[[SMALL]] bra
// CHECK: bar.warp.sync -1;
// CHECK: bar.sync 1, 64;
tirx.kernel @uniform_predicates(%n: index {tirx.size = "n"},
                                %A: !tirx.tensor<?xf32, global, sizes = [n]>)
    launch(grid = [1], block = [128]) {
  %c4 = arith.constant 4 : index
  %big = arith.cmpi ugt, %n, %c4 : index
  tile.apply "bar.warp.sync" scope(cta) (-1 : i32) pred(%big)
  %tid = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %warp = arith.divui %tid, %c32 : index
  %low = arith.cmpi ult, %warp, %c2 : index
  tile.apply "bar.sync" scope(cta) (1 : i32, 64 : i32) pred(%low)
  tirx.return
}
