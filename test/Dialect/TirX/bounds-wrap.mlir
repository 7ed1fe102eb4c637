// Integer arithmetic that provably cannot wrap stays proven: the twins of
// bounds-wrap-invalid.mlir (docs/bounds.md, "Integers as the hardware
// computes them").
// RUN: tirx-opt %s -split-input-file | FileCheck %s

!A = !tirx.tensor<4096xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>

// The guard n + 1 <= 4096 computed in index, where n (an i32) cannot wrap.
// CHECK-LABEL: tirx.kernel @add_guard_in_index
tirx.kernel @add_guard_in_index(%A: !A, %n: i32) launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %i = arith.index_cast %n : i32 to index
  %next = arith.addi %i, %c1 : index
  %nonneg = arith.cmpi sge, %i, %c0 : index
  %fits = arith.cmpi sle, %next, %c4096 : index
  %ok = arith.andi %nonneg, %fits : i1
  %x = tirx.alloc_local : !f
  scf.if %ok {
    %a = tirx.region %A[%i] [1] : !A
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}

// -----

!A = !tirx.tensor<4096xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>

// bx * 4 + 3 in i32 with bx < 1024: at most 4095, no wrap.
// CHECK-LABEL: tirx.kernel @block_times_four_plus_three
tirx.kernel @block_times_four_plus_three(%A: !A) launch(grid = [1024], block = [1]) {
  %bx = tirx.block_idx x
  %b = arith.index_cast %bx : index to i32
  %c4 = arith.constant 4 : i32
  %c3 = arith.constant 3 : i32
  %p = arith.muli %b, %c4 : i32
  %s = arith.addi %p, %c3 : i32
  %i = arith.index_cast %s : i32 to index
  %x = tirx.alloc_local : !f
  %a = tirx.region %A[%i] [1] : !A
  tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  tirx.return
}

// -----

!A = !tirx.tensor<512xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>

// bx * 2^22 and bx << 22 in i32 with bx < 512: below 2^31, shifted back to bx.
// CHECK-LABEL: tirx.kernel @block_product_fits
tirx.kernel @block_product_fits(%A: !A) launch(grid = [512], block = [1]) {
  %bx = tirx.block_idx x
  %b = arith.index_cast %bx : index to i32
  %m = arith.constant 4194304 : i32
  %c22 = arith.constant 22 : i32
  %p = arith.muli %b, %m : i32
  %q = arith.shrsi %p, %c22 : i32
  %s = arith.shli %b, %c22 : i32
  %r = arith.shrui %s, %c22 : i32
  %i = arith.index_cast %q : i32 to index
  %j = arith.index_castui %r : i32 to index
  %x = tirx.alloc_local : !f
  %a = tirx.region %A[%i] [1] : !A
  tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  %b2 = tirx.region %A[%j] [1] : !A
  tile.apply "ld.global.b32" scope(thread) (%x, %b2) : !f, !T
  tirx.return
}

// -----

!A = !tirx.tensor<4096xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>

// An unsigned comparison of an i32: k <u 4096 bounds k on both sides, and a
// signed guard 0 <= k bounds its unsigned reading.
// CHECK-LABEL: tirx.kernel @unsigned_guards
tirx.kernel @unsigned_guards(%A: !A, %k: i32, %l: i32) launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : i32
  %c4096 = arith.constant 4096 : i32
  %ok = arith.cmpi ult, %k, %c4096 : i32
  %i = arith.index_cast %k : i32 to index
  %nonneg = arith.cmpi sge, %l, %c0 : i32
  %below = arith.cmpi slt, %l, %c4096 : i32
  %lok = arith.andi %nonneg, %below : i1
  %c2 = arith.constant 2 : i32
  %half = arith.divui %l, %c2 : i32
  %j = arith.index_castui %half : i32 to index
  %x = tirx.alloc_local : !f
  scf.if %ok {
    %a = tirx.region %A[%i] [1] : !A
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  scf.if %lok {
    %b = tirx.region %A[%j] [1] : !A
    tile.apply "ld.global.b32" scope(thread) (%x, %b) : !f, !T
  }
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>

// index -> i32 -> index of a global index below n <= 2^31 - 1.
// CHECK-LABEL: tirx.kernel @round_trip_at_most
tirx.kernel @round_trip_at_most(%A: !N, %n: index {tirx.size = "n", tirx.at_most = 2147483647 : i64})
    launch(grid = [%n ceildiv 1024], block = [1024]) {
  %bx = tirx.block_idx x
  %tx = tirx.thread_idx x
  %c1024 = arith.constant 1024 : index
  %base = arith.muli %bx, %c1024 : index
  %g = arith.addi %base, %tx : index
  %in = arith.cmpi slt, %g, %n : index
  %narrow = arith.index_cast %g : index to i32
  %i = arith.index_cast %narrow : i32 to index
  %x = tirx.alloc_local : !f
  scf.if %in {
    %a = tirx.region %A[%i] [1] : !N
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}

// -----

!A = !tirx.tensor<32768xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>

// trunci to i16 of block indices below 2^15, and bytes read as unsigned
// under an unsigned guard.
// CHECK-LABEL: tirx.kernel @narrow_values_that_fit
tirx.kernel @narrow_values_that_fit(%A: !A, %c: i8) launch(grid = [32768], block = [1]) {
  %bx = tirx.block_idx x
  %b = arith.index_cast %bx : index to i32
  %t = arith.trunci %b : i32 to i16
  %s = arith.extsi %t : i16 to i32
  %i = arith.index_cast %s : i32 to index
  %u = arith.extui %c : i8 to i32
  %j = arith.index_cast %u : i32 to index
  %x = tirx.alloc_local : !f
  %a = tirx.region %A[%i] [1] : !A
  tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  %b2 = tirx.region %A[%j] [1] : !A
  tile.apply "ld.global.b32" scope(thread) (%x, %b2) : !f, !T
  tirx.return
}

// -----

!A = !tirx.tensor<4096xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>

// An i32 loop up to 2^31 - 1 with step 1: its last index plus the step is
// 2^31 - 1, no wrap.
// CHECK-LABEL: tirx.kernel @loop_to_the_largest_i32
tirx.kernel @loop_to_the_largest_i32(%A: !A) launch(grid = [1], block = [1]) {
  %lb = arith.constant 0 : i32
  %ub = arith.constant 2147483647 : i32
  %step = arith.constant 1 : i32
  %x = tirx.alloc_local : !f
  scf.for %iv = %lb to %ub step %step : i32 {
    %c19 = arith.constant 19 : i32
    %k = arith.shrsi %iv, %c19 : i32
    %i = arith.index_cast %k : i32 to index
    %a = tirx.region %A[%i] [1] : !A
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>

// An alignment claim through i32 arithmetic that may wrap: bx * 4 wraps by
// multiples of 2^32 elements, which keep the base a multiple of 16 bytes.
// CHECK-LABEL: tirx.kernel @align_through_a_wrapping_product
tirx.kernel @align_through_a_wrapping_product(%A: !N, %n: index {tirx.size = "n"})
    launch(grid = [%n], block = [1]) {
  %bx = tirx.block_idx x
  %b = arith.index_cast %bx : index to i32
  %c4 = arith.constant 4 : i32
  %p = arith.muli %b, %c4 : i32
  %off = arith.index_cast %p : i32 to index
  %a = tirx.region %A[%off] [4] align 16 : !N
  tirx.return
}
