// Accesses through a value loaded at run time (a register tile element read
// by tirx.slot_load, e.g. a work item taken with an atom): the proof knows
// nothing of the value, so an access it does not guard is refuted, with the
// loaded value in the witness and a note where it was loaded
// (docs/bounds.md, docs/sizes.md "Dynamic scheduling").
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels

!A = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!C = !tirx.tensor<1xui32, global, align = 4>
!r = !tirx.tensor<1xui32, local>
!v = !tirx.tensor<4xf32, local>
!V = !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 16>

// No guard at all: an unsigned 32-bit chunk index reaches 2^32 - 1.
tirx.kernel @unguarded(%A: !A, %C: !C, %n: index {tirx.size = "n"})
    launch(grid = [4], block = [128]) {
  %got = tirx.alloc_local : !r
  tile.apply "atom.global.add.u32" scope(thread) (%got, %C, 1 : i32) : !r, !C
  // expected-note @+1 {{this value is loaded from memory and has no bounds of its own: the access is proven only under a guard that bounds it (an scf.if around the op, or its pred)}}
  %raw = tirx.slot_load %got[0] : !r -> i32
  %c = arith.index_castui %raw : i32 to index
  %c4 = arith.constant 4 : index
  %off = arith.muli %c, %c4 : index
  %x = tirx.alloc_local : !v
  // expected-note @+1 {{the region is here}}
  %a = tirx.region %A[%off] [4] align 16 : !A
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.v4.b32' may read index 8589934588 of dimension 0 of kernel argument #0 (extent n): with loaded value #0 = 2147483647, n = 1}}
  tile.apply "ld.global.v4.b32" scope(thread) (%x, %a) : !v, !V
  tirx.return
}

// -----

!A = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!r = !tirx.tensor<1xi32, local>
!v = !tirx.tensor<4xf32, local>
!V = !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 16>

// A guard that bounds the index from above only: read as signed (index_cast),
// the loaded value may be negative.
tirx.kernel @signed_below(%A: !A, %n: index {tirx.size = "n"})
    launch(grid = [1], block = [32]) {
  %got = tirx.alloc_local : !r
  // expected-note @+1 {{this value is loaded from memory and has no bounds of its own}}
  %raw = tirx.slot_load %got[0] : !r -> i32
  %c = arith.index_cast %raw : i32 to index
  %c4 = arith.constant 4 : index
  %off = arith.muli %c, %c4 : index
  %end = arith.addi %off, %c4 : index
  %ok = arith.cmpi sle, %end, %n : index
  %x = tirx.alloc_local : !v
  scf.if %ok {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%off] [4] align 16 : !A
    // expected-error @+1 {{may read index -8589934592 of dimension 0 of kernel argument #0 (extent n): with loaded value #0 = -2147483648, n = 1}}
    tile.apply "ld.global.v4.b32" scope(thread) (%x, %a) : !v, !V
  }
  tirx.return
}

// -----

!A = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!C = !tirx.tensor<1xui32, global, align = 4>
!r = !tirx.tensor<1xui32, local>
!f = !tirx.tensor<1xf32, local>
!F = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>

// The loaded index used in the branch where it is NOT below n (an else
// branch negates its condition exactly): past the end.
tirx.kernel @else_branch(%A: !A, %C: !C, %n: index {tirx.size = "n"})
    launch(grid = [1], block = [32]) {
  %got = tirx.alloc_local : !r
  tile.apply "atom.global.inc.u32" scope(thread) (%got, %C, 7 : i32) : !r, !C
  // expected-note @+1 {{this value is loaded from memory and has no bounds of its own}}
  %raw = tirx.slot_load %got[0] : !r -> i32
  %c = arith.index_castui %raw : i32 to index
  %in = arith.cmpi slt, %c, %n : index
  %x = tirx.alloc_local : !f
  scf.if %in {
  } else {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%c] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #0 (addr) of 'st.global.b32' may write index 2147483647 of dimension 0 of kernel argument #0 (extent n): with loaded value #0 = 2147483647, n = 1}}
    tile.apply "st.global.b32" scope(thread) (%a, %x) : !F, !f
  }
  tirx.return
}

// -----

!A = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!C = !tirx.tensor<1xui32, global, align = 4>
!r = !tirx.tensor<1xui32, local>
!f = !tirx.tensor<1xf32, local>
!F = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>

// Two loads of the same register are two unknowns: a guard on the first
// says nothing of the second (the register may have changed between them).
tirx.kernel @two_loads(%A: !A, %C: !C, %n: index {tirx.size = "n"})
    launch(grid = [1], block = [32]) {
  %got = tirx.alloc_local : !r
  tile.apply "atom.global.add.u32" scope(thread) (%got, %C, 1 : i32) : !r, !C
  // expected-note @+1 {{this value is loaded from memory and has no bounds of its own}}
  %raw = tirx.slot_load %got[0] : !r -> i32
  %c = arith.index_castui %raw : i32 to index
  %in = arith.cmpi slt, %c, %n : index
  %x = tirx.alloc_local : !f
  scf.if %in {
    // expected-note @+1 {{this value is loaded from memory and has no bounds of its own}}
    %again = tirx.slot_load %got[0] : !r -> i32
    %d = arith.index_castui %again : i32 to index
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%d] [1] : !A
    // expected-error @+1 {{may write index 2147483647 of dimension 0 of kernel argument #0 (extent n): with loaded value #0 = 2147483646, n = 2147483647, loaded value #1 = 2147483647}}
    tile.apply "st.global.b32" scope(thread) (%a, %x) : !F, !f
  }
  tirx.return
}

// -----

!A = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!r = !tirx.tensor<1xi32, local>
!f = !tirx.tensor<1xf32, local>
!F = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>

// One load read two ways, signed in the guard and unsigned in the offset,
// with the guard bounding it from above only: a negative value passes the
// guard and, read as unsigned, is 2^32 less than that past the start. (Its
// twin with `0 <= s` too is proven: bounds-loaded.mlir.)
tirx.kernel @signed_guard_unsigned_offset(%A: !A, %n: index {tirx.size = "n"})
    launch(grid = [1], block = [32]) {
  %got = tirx.alloc_local : !r
  // expected-note @+1 {{this value is loaded from memory and has no bounds of its own}}
  %raw = tirx.slot_load %got[0] : !r -> i32
  %s = arith.index_cast %raw : i32 to index
  // expected-note @+1 {{this 'arith.index_castui' reads the i32 value -1 as unsigned: 4294967295}}
  %u = arith.index_castui %raw : i32 to index
  %below = arith.cmpi slt, %s, %n : index
  %x = tirx.alloc_local : !f
  scf.if %below {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%u] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #0 (addr) of 'st.global.b32' may write index 4294967295 of dimension 0 of kernel argument #0 (extent n): with loaded value #0 = -1, n = 1}}
    tile.apply "st.global.b32" scope(thread) (%a, %x) : !F, !f
  }
  tirx.return
}
