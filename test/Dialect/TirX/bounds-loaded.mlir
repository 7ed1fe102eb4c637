// Accesses through values loaded at run time that the bounds proof proves
// (docs/bounds.md, "Values loaded at run time"): each is guarded by a
// comparison that bounds the value — the op's pred, an scf.if, the else
// branch of the opposite test — including a loop whose bounds come from it.
// RUN: tirx-opt %s -split-input-file | FileCheck %s

!A = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!r = !tirx.tensor<1xui32, local>
!f = !tirx.tensor<1xf32, local>
!F = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>

// The op's own guard: pred(i < n) bounds the loaded (unsigned) index.
// CHECK-LABEL: tirx.kernel @pred_guard
tirx.kernel @pred_guard(%A: !A, %n: index {tirx.size = "n"})
    launch(grid = [1], block = [32]) {
  %got = tirx.alloc_local : !r
  %raw = tirx.slot_load %got[0] : !r -> i32
  %i = arith.index_castui %raw : i32 to index
  %in = arith.cmpi slt, %i, %n : index
  %x = tirx.alloc_local : !f
  %a = tirx.region %A[%i] [1] : !A
  tile.apply "st.global.b32" scope(thread) (%a, %x) pred(%in) : !F, !f
  tirx.return
}

// -----

!A = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!r = !tirx.tensor<1xi32, local>
!f = !tirx.tensor<1xf32, local>
!F = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>

// A signed value: the else branch of `v < 0` and an scf.if `v < n` bound it
// on both sides; a loop from 4 v to 4 v + 4 stays inside n where 4 v + 4 <= n.
// CHECK-LABEL: tirx.kernel @signed_both_sides
tirx.kernel @signed_both_sides(%A: !A, %n: index {tirx.size = "n"})
    launch(grid = [1], block = [32]) {
  %got = tirx.alloc_local : !r
  %raw = tirx.slot_load %got[0] : !r -> i32
  %v = arith.index_cast %raw : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %neg = arith.cmpi slt, %v, %c0 : index
  %x = tirx.alloc_local : !f
  scf.if %neg {
  } else {
    %lo = arith.muli %v, %c4 : index
    %hi = arith.addi %lo, %c4 : index
    %fits = arith.cmpi sle, %hi, %n : index
    scf.if %fits {
      scf.for %j = %lo to %hi step %c1 {
        %a = tirx.region %A[%j] [1] : !A
        tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !F
      }
    }
  }
  tirx.return
}

// -----

!A = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!r = !tirx.tensor<1xi32, local>
!f = !tirx.tensor<1xf32, local>
!F = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>

// One load read two ways, signed in the guard (0 <= s < n) and unsigned in
// the offset: one value, so the unsigned reading is s itself. (Its twin
// without 0 <= s is refuted: bounds-loaded-invalid.mlir.)
// CHECK-LABEL: tirx.kernel @signed_guard_unsigned_offset
tirx.kernel @signed_guard_unsigned_offset(%A: !A, %n: index {tirx.size = "n"})
    launch(grid = [1], block = [32]) {
  %got = tirx.alloc_local : !r
  %raw = tirx.slot_load %got[0] : !r -> i32
  %s = arith.index_cast %raw : i32 to index
  %u = arith.index_castui %raw : i32 to index
  %c0 = arith.constant 0 : index
  %below = arith.cmpi slt, %s, %n : index
  %above = arith.cmpi sge, %s, %c0 : index
  %ok = arith.andi %below, %above : i1
  %x = tirx.alloc_local : !f
  scf.if %ok {
    %a = tirx.region %A[%u] [1] : !A
    tile.apply "st.global.b32" scope(thread) (%a, %x) : !F, !f
  }
  tirx.return
}
