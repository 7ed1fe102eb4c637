// atom and red through tile.apply (docs/atomics.md), and a loop whose bound
// and offsets come from an atom's result (docs/sizes.md, "Dynamic
// scheduling"): exact PTX, assembled by ptxas at sm_90.
// RUN: tirx-opt %s --tirx-to-ptx="chip=sm_90 ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --enable-var-scope < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

!C = !tirx.tensor<2xui32, global, align = 4>
!C1 = !tirx.tensor<1xui32, global, #tirx.layout<S[1 : 1]>, align = 4>
!C2 = !tirx.tensor<1xui32, global, #tirx.layout<S[1 : 1] + 1>, align = 4>
!D = !tirx.tensor<1xui64, global, align = 8>
!F = !tirx.tensor<1xf32, global, align = 4>
!S = !tirx.tensor<1xui32, shared, align = 4>
!r = !tirx.tensor<1xui32, local>
!w = !tirx.tensor<1xui64, local>
!x = !tirx.tensor<1xf32, local>

// CHECK-LABEL: .entry forms(
// Two identical atoms, the first one's result unused: both stay (side
// effects: never merged or removed).
// CHECK: atom.global.add.u32 %r{{[0-9]+}}, {{\[}}[[C:%rd[0-9]+]]{{\]}}, 0x00000001;
// CHECK: atom.global.add.u32 %r{{[0-9]+}}, {{\[}}[[C]]{{\]}}, 0x00000001;
// CHECK: @%tirx_p atom.acq_rel.gpu.global.inc.u32 %r{{[0-9]+}}, {{\[}}[[C1:%rd[0-9]+]]{{\]}}, [[LIMIT:%r[0-9]+]];
// CHECK: atom.relaxed.sys.global.add.u64 %rd{{[0-9]+}}, {{\[}}%rd{{[0-9]+}}{{\]}}, 0x0000000000000003;
// CHECK: atom.global.add.f32 %r{{[0-9]+}}, {{\[}}%rd{{[0-9]+}}{{\]}}, 0f3F800000;
// CHECK: atom.global.cas.b32 %r{{[0-9]+}}, {{\[}}[[C]]{{\]}}, 0x00000000, 0x00000001;
// CHECK: atom.shared.exch.b32 %r{{[0-9]+}}, {{\[}}[[S:%rd[0-9]+]]{{\]}}, [[LIMIT]];
// CHECK: atom.acquire.cta.shared::cta.max.u32 %r{{[0-9]+}}, {{\[}}[[S]]{{\]}}, 0x00000005;
// CHECK: red.release.gpu.global.add.u32 {{\[}}[[C]]{{\]}}, %r{{[0-9]+}};
// CHECK: red.shared.min.u32 {{\[}}[[S]]{{\]}}, 0x00000002;
tirx.kernel @forms(%C: !C, %D: !D, %F: !F) launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  %old = tirx.alloc_local : !r
  %wide = tirx.alloc_local : !w
  %f = tirx.alloc_local : !x
  %s = tirx.alloc_shared : !S
  %c_0 = tirx.region %C[0] [1] : !C
  %c_1 = tirx.region %C[1] [1] : !C
  %limit = arith.constant 7 : i32
  tile.apply "atom.global.add.u32" scope(thread) (%old, %c_0, 1 : ui32) : !r, !C1
  tile.apply "atom.global.add.u32" scope(thread) (%old, %c_0, 1 : ui32) : !r, !C1
  tile.apply "atom.acq_rel.gpu.global.inc.u32" scope(thread) (%old, %c_1, %limit) pred(%is0) : !r, !C2, i32
  tile.apply "atom.relaxed.sys.global.add.u64" scope(thread) (%wide, %D, 3 : ui64) : !w, !D
  tile.apply "atom.global.add.f32" scope(thread) (%f, %F, 1.0 : f32) : !x, !F
  tile.apply "atom.global.cas.b32" scope(thread) (%old, %c_0, 0 : i32, 1 : i32) : !r, !C1
  tile.apply "atom.shared.exch.b32" scope(thread) (%old, %s, %limit) : !r, !S, i32
  tile.apply "atom.acquire.cta.shared::cta.max.u32" scope(thread) (%old, %s, 5 : i32) : !r, !S
  tile.apply "red.release.gpu.global.add.u32" scope(thread) (%c_0, %old) : !C1, !r
  tile.apply "red.shared.min.u32" scope(thread) (%s, 2 : i32) : !S
  tile.apply "st.global.u64" scope(thread) (%D, %wide) : !D, !w
  tile.apply "st.global.f32" scope(thread) (%F, %f) : !F, !x
  tirx.return
}

// Work items from a counter: thread 0 takes the next item (atom.inc, which
// wraps), hands it to the CTA through shared memory, and every thread walks
// the item's 4 floats in a loop whose bounds are the item times 4 — proven
// in bounds under `item < items`, for every value the atom may return.
!A = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!A1 = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!W = !tirx.tensor<1xui32, global, align = 4>

// CHECK-LABEL: .entry grab(
// CHECK: [[LOOP:\$L__BB[0-9_]+]]:
// CHECK: @%tirx_p atom.global.inc.u32 [[GOT:%r[0-9]+]], {{\[}}%rd{{[0-9]+}}{{\]}}, %r{{[0-9]+}};
// CHECK: @%tirx_p st.shared.u32 {{\[}}[[H:%rd[0-9]+]]{{\]}}, [[GOT]];
// CHECK: bar.sync 0;
// CHECK: ld.shared.u32 [[ITEM:%r[0-9]+]], {{\[}}[[H]]{{\]}};
// CHECK: bar.sync 0;
// CHECK: cvt.u64.u32 [[ITEM64:%rd[0-9]+]], [[ITEM]];
// CHECK: setp.le.s64 %p{{[0-9]+}}, %rd{{[0-9]+}}, [[ITEM64]];
// CHECK: shl.b64 %rd{{[0-9]+}}, [[ITEM64]], 4;
// CHECK: .pragma "nounroll";
// CHECK: ld.global.b32
// CHECK: st.global.b32
// CHECK: @%p{{[0-9]+}} bra [[LOOP]];
tirx.kernel @grab(%A: !A, %W: !W, %n: index {tirx.size = "n"})
    launch(grid = [8], block = [64]) {
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  %items = arith.floordivsi %n, %c4 : index
  %limit = arith.constant 1000 : i32
  %got = tirx.alloc_local : !r
  %item = tirx.alloc_local : !r
  %handed = tirx.alloc_shared : !S
  %x = tirx.alloc_local : !x
  scf.while : () -> () {
    tile.apply "atom.global.inc.u32" scope(thread) (%got, %W, %limit) pred(%is0) : !r, !W, i32
    tile.apply "st.shared.u32" scope(thread) (%handed, %got) pred(%is0) : !S, !r
    tirx.cta_sync
    tile.apply "ld.shared.u32" scope(thread) (%item, %handed) : !r, !S
    tirx.cta_sync
    %raw = tirx.slot_load %item[0] : !r -> i32
    %i = arith.index_castui %raw : i32 to index
    %more = arith.cmpi slt, %i, %items : index
    scf.if %more {
      %lo = arith.muli %i, %c4 : index
      %hi = arith.addi %lo, %c4 : index
      scf.for %j = %lo to %hi step %c1 {
        %a = tirx.region %A[%j] [1] : !A
        tile.apply "ld.global.b32" scope(thread) (%x, %a) : !x, !A1
        tile.apply "st.global.b32" scope(thread) (%a, %x) : !A1, !x
      } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
    }
    scf.condition(%more)
  } do {
    scf.yield
  }
  tirx.return
}
