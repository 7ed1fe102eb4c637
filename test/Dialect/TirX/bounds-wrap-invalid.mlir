// Integer wrap-around: what the bounds proof refutes, each with a witness
// that really wraps and really leaves the tensor (docs/bounds.md, "Integers
// as the hardware computes them"). The accepted twins: bounds-wrap.mlir.
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels

!A = !tirx.tensor<4096xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>

// add: the guard n + 1 <= 4096 is computed in i32; n = 2^31 - 1 wraps it
// to -2^31, passes, and reads far past the end (PTX: add.s32, then
// setp.le.s32). Its twin computes n + 1 in index: bounds-wrap.mlir.
tirx.kernel @add_guard(%A: !A, %n: i32) launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4096 = arith.constant 4096 : i32
  // expected-note @+1 {{this 'arith.addi' wraps around in i32: 2147483647 + 1 = -2147483648}}
  %next = arith.addi %n, %c1 : i32
  %nonneg = arith.cmpi sge, %n, %c0 : i32
  %fits = arith.cmpi sle, %next, %c4096 : i32
  %ok = arith.andi %nonneg, %fits : i1
  %i = arith.index_cast %n : i32 to index
  %x = tirx.alloc_local : !f
  scf.if %ok {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%i] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index 2147483647 of dimension 0 of kernel argument #0 (extent 4096): with argument #1 = 2147483647}}
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}
// -----
!A = !tirx.tensor<1024xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// add: block_idx cast to i32 plus a large i32 constant wraps for blocks
// 648 and up; widened and shifted back in index, the row is far below 0.
tirx.kernel @block_plus_constant(%A: !A) launch(grid = [1024], block = [1]) {
  %bx = tirx.block_idx x
  %b = arith.index_cast %bx : index to i32
  %big = arith.constant 2147483000 : i32
  // expected-note @+1 {{this 'arith.addi' wraps around in i32: 1023 + 2147483000 = -2147483273}}
  %s = arith.addi %b, %big : i32
  %wide = arith.index_cast %s : i32 to index
  %bigi = arith.constant 2147483000 : index
  %i = arith.subi %wide, %bigi : index
  %x = tirx.alloc_local : !f
  // expected-note @+1 {{the region is here}}
  %a = tirx.region %A[%i] [1] : !A
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index -4294966273 of dimension 0 of kernel argument #0 (extent 1024): with block_idx.x = 1023}}
  tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  tirx.return
}
// -----
!A = !tirx.tensor<1024xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// mul: bx * 2^22 in i32 wraps for bx >= 512; shifted back, the row is
// negative.
tirx.kernel @block_product(%A: !A) launch(grid = [1024], block = [1]) {
  %bx = tirx.block_idx x
  %b = arith.index_cast %bx : index to i32
  %m = arith.constant 4194304 : i32
  // expected-note @+1 {{this 'arith.muli' wraps around in i32: 1023 * 4194304 = -4194304}}
  %p = arith.muli %b, %m : i32
  %c22 = arith.constant 22 : i32
  %q = arith.shrsi %p, %c22 : i32
  %i = arith.index_cast %q : i32 to index
  %x = tirx.alloc_local : !f
  // expected-note @+1 {{the region is here}}
  %a = tirx.region %A[%i] [1] : !A
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index -1 of dimension 0 of kernel argument #0 (extent 1024): with block_idx.x = 1023}}
  tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  tirx.return
}
// -----
!A = !tirx.tensor<4096xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// sub: the guard 0 - n <= 0 ("n is not negative") holds for n = -2^31,
// whose negation wraps to itself.
tirx.kernel @negation_guard(%A: !A, %n: i32) launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : i32
  %c4096 = arith.constant 4096 : i32
  // expected-note @+1 {{this 'arith.subi' wraps around in i32: 0 - -2147483648 = -2147483648}}
  %neg = arith.subi %c0, %n : i32
  %nonneg = arith.cmpi sle, %neg, %c0 : i32
  %below = arith.cmpi slt, %n, %c4096 : i32
  %ok = arith.andi %nonneg, %below : i1
  %i = arith.index_cast %n : i32 to index
  %x = tirx.alloc_local : !f
  scf.if %ok {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%i] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index -2147483648 of dimension 0 of kernel argument #0 (extent 4096): with argument #1 = -2147483648}}
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}
// -----
!A = !tirx.tensor<1024xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// shl: the same as the product, as a shift.
tirx.kernel @block_shift(%A: !A) launch(grid = [1024], block = [1]) {
  %bx = tirx.block_idx x
  %b = arith.index_cast %bx : index to i32
  %c22 = arith.constant 22 : i32
  // expected-note @+1 {{this 'arith.shli' wraps around in i32: 1023 << 22 = -4194304}}
  %p = arith.shli %b, %c22 : i32
  %q = arith.shrsi %p, %c22 : i32
  %i = arith.index_cast %q : i32 to index
  %x = tirx.alloc_local : !f
  // expected-note @+1 {{the region is here}}
  %a = tirx.region %A[%i] [1] : !A
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index -1 of dimension 0 of kernel argument #0 (extent 1024): with block_idx.x = 1023}}
  tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  tirx.return
}
// -----
!N = !tirx.tensor<?xf32, global, sizes = [n], align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// index_cast index -> i32 -> index: a global index >= 2^31 comes back
// negative.
tirx.kernel @round_trip(%A: !N, %n: index {tirx.size = "n"}) launch(grid = [%n ceildiv 1024], block = [1024]) {
  %bx = tirx.block_idx x
  %tx = tirx.thread_idx x
  %c1024 = arith.constant 1024 : index
  %base = arith.muli %bx, %c1024 : index
  %g = arith.addi %base, %tx : index
  %in = arith.cmpi slt, %g, %n : index
  // expected-note @+1 {{this 'arith.index_cast' truncates 4293920767 to i32: -1046529}}
  %narrow = arith.index_cast %g : index to i32
  %i = arith.index_cast %narrow : i32 to index
  %x = tirx.alloc_local : !f
  scf.if %in {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%i] [1] : !N
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index -1046529 of dimension 0 of kernel argument #0 (extent n): with n = 4294968321, block_idx.x = 4193281, thread_idx.x = 1023}}
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}
// -----
!A = !tirx.tensor<256xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// extsi: the guard reads the byte as unsigned (< 200), the offset as
// signed: bytes 128..199 are negative offsets.
tirx.kernel @extsi_of_byte(%A: !A, %c: i8) launch(grid = [1], block = [1]) {
  // expected-note @+1 {{this 'arith.extui' reads the i8 value -57 as unsigned: 199}}
  %u = arith.extui %c : i8 to i32
  %c200 = arith.constant 200 : i32
  %ok = arith.cmpi slt, %u, %c200 : i32
  %s = arith.extsi %c : i8 to i32
  %i = arith.index_cast %s : i32 to index
  %x = tirx.alloc_local : !f
  scf.if %ok {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%i] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index -57 of dimension 0 of kernel argument #0 (extent 256): with argument #1 = -57}}
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}
// -----
!A = !tirx.tensor<64xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// extui: the guard reads the byte as signed (< 64), the offset as
// unsigned: -1 is 255.
tirx.kernel @extui_of_byte(%A: !A, %c: i8) launch(grid = [1], block = [1]) {
  %s = arith.extsi %c : i8 to i32
  %c64 = arith.constant 64 : i32
  %ok = arith.cmpi slt, %s, %c64 : i32
  // expected-note @+1 {{this 'arith.extui' reads the i8 value -1 as unsigned: 255}}
  %u = arith.extui %c : i8 to i32
  %i = arith.index_cast %u : i32 to index
  %x = tirx.alloc_local : !f
  scf.if %ok {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%i] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index 255 of dimension 0 of kernel argument #0 (extent 64): with argument #1 = -1}}
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}
// -----
!A = !tirx.tensor<65536xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// trunci: block indices of 32768 and up are negative in i16.
tirx.kernel @trunci_to_short(%A: !A) launch(grid = [65536], block = [1]) {
  %bx = tirx.block_idx x
  %b = arith.index_cast %bx : index to i32
  // expected-note @+1 {{this 'arith.trunci' truncates 65535 to i16: -1}}
  %t = arith.trunci %b : i32 to i16
  %s = arith.extsi %t : i16 to i32
  %i = arith.index_cast %s : i32 to index
  %x = tirx.alloc_local : !f
  // expected-note @+1 {{the region is here}}
  %a = tirx.region %A[%i] [1] : !A
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index -1 of dimension 0 of kernel argument #0 (extent 65536): with block_idx.x = 65535}}
  tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  tirx.return
}
// -----
!A = !tirx.tensor<128xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// index_castui i32 -> index: a negative argument that passes a signed
// guard is 2^32 - 1 read as unsigned.
tirx.kernel @index_castui_of_negative(%A: !A, %k: i32) launch(grid = [1], block = [1]) {
  %c128 = arith.constant 128 : i32
  %ok = arith.cmpi slt, %k, %c128 : i32
  // expected-note @+1 {{this 'arith.index_castui' reads the i32 value -1 as unsigned: 4294967295}}
  %i = arith.index_castui %k : i32 to index
  %x = tirx.alloc_local : !f
  scf.if %ok {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%i] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index 4294967295 of dimension 0 of kernel argument #0 (extent 128): with argument #1 = -1}}
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}
// -----
!A = !tirx.tensor<4096xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// index_castui index -> i32: the guard checks the truncated value, the
// access uses the wide one: 2^32 truncates to 0.
tirx.kernel @index_castui_narrowing(%A: !A, %m: index) launch(grid = [1], block = [1]) {
  // expected-note @+1 {{this 'arith.index_castui' truncates 4294971391 to i32: 4095}}
  %narrow = arith.index_castui %m : index to i32
  %c4096 = arith.constant 4096 : i32
  %c0 = arith.constant 0 : index
  %small = arith.cmpi ult, %narrow, %c4096 : i32
  %nonneg = arith.cmpi sge, %m, %c0 : index
  %ok = arith.andi %small, %nonneg : i1
  %x = tirx.alloc_local : !f
  scf.if %ok {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%m] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index 4294971391 of dimension 0 of kernel argument #0 (extent 4096): with argument #1 = 4294971391}}
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}
// -----
!A = !tirx.tensor<128xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// shrui: a logical shift of a negative value is a large positive one.
tirx.kernel @shrui_of_negative(%A: !A, %k: i32) launch(grid = [1], block = [1]) {
  %c128 = arith.constant 128 : i32
  %ok = arith.cmpi slt, %k, %c128 : i32
  %c1 = arith.constant 1 : i32
  // expected-note @+1 {{this 'arith.shrui' reads the i32 value -2147483648 as unsigned: 2147483648}}
  %h = arith.shrui %k, %c1 : i32
  %i = arith.index_cast %h : i32 to index
  %x = tirx.alloc_local : !f
  scf.if %ok {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%i] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index 1073741824 of dimension 0 of kernel argument #0 (extent 128): with argument #1 = -2147483648}}
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}
// -----
!A = !tirx.tensor<128xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// divui: an unsigned division of a negative value, too.
tirx.kernel @divui_of_negative(%A: !A, %k: i32) launch(grid = [1], block = [1]) {
  %c128 = arith.constant 128 : i32
  %ok = arith.cmpi slt, %k, %c128 : i32
  %c2 = arith.constant 2 : i32
  // expected-note @+1 {{this 'arith.divui' reads the i32 value -2147483648 as unsigned: 2147483648}}
  %h = arith.divui %k, %c2 : i32
  %i = arith.index_cast %h : i32 to index
  %x = tirx.alloc_local : !f
  scf.if %ok {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%i] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index 1073741824 of dimension 0 of kernel argument #0 (extent 128): with argument #1 = -2147483648}}
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}
// -----
!A = !tirx.tensor<4096xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// index (64-bit) arithmetic wraps too: n + 1 <= 4096 for n = 2^63 - 1.
tirx.kernel @index_add_guard(%A: !A, %n: index) launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  // expected-note @+1 {{this 'arith.addi' wraps around in index: 9223372036854775807 + 1 = -9223372036854775808}}
  %next = arith.addi %n, %c1 : index
  %nonneg = arith.cmpi sge, %n, %c0 : index
  %fits = arith.cmpi sle, %next, %c4096 : index
  %ok = arith.andi %nonneg, %fits : i1
  %x = tirx.alloc_local : !f
  scf.if %ok {
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%n] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index 9223372036854775807 of dimension 0 of kernel argument #0 (extent 4096): with argument #1 = 9223372036854775807}}
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}
// -----
!A = !tirx.tensor<4096xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>
// An i32 loop whose index would step past 2^31 - 1: the add wraps, the
// exit test (index < ub) still holds, the loop goes on with negative
// indices.
tirx.kernel @loop_wraps(%A: !A) launch(grid = [1], block = [1]) {
  %lb = arith.constant 0 : i32
  %ub = arith.constant 2147483647 : i32
  %step = arith.constant 1048576 : i32
  %x = tirx.alloc_local : !f
  scf.for %iv = %lb to %ub step %step : i32 {
    %c20 = arith.constant 20 : i32
    %k = arith.shrsi %iv, %c20 : i32
    %i = arith.index_cast %k : i32 to index
    // expected-note @+1 {{the region is here}}
    %a = tirx.region %A[%i] [1] : !A
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32': cannot prove the access in bounds: loop #0's index may wrap around in i32: its value 2146435072 plus the step 1048576 exceeds 2147483647}}
    tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  }
  tirx.return
}

// -----

!A = !tirx.tensor<4096xf32, global, align = 4>
!T = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
!f = !tirx.tensor<1xf32, local>

// A shift by 32 of an i32 is poison: not an index the proof follows.
tirx.kernel @shift_by_the_width(%A: !A) launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %t = arith.index_cast %tx : index to i32
  %c32 = arith.constant 32 : i32
  %s = arith.shli %t, %c32 : i32
  %i = arith.index_cast %s : i32 to index
  %x = tirx.alloc_local : !f
  // expected-note @+1 {{the region is here}}
  %a = tirx.region %A[%i] [1] : !A
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32': cannot prove the access in bounds: the offset of dimension 0 into kernel argument #0 is not affine in the indices: 'arith.shli' by an amount that is not a constant in [0, 32)}}
  tile.apply "ld.global.b32" scope(thread) (%x, %a) : !f, !T
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>

// An alignment claim refuted by a wrap: (bx * 12) / 3 is 4 * bx in exact
// arithmetic (16-byte steps), but bx * 12 wraps in i32 for bx >= 357913942,
// and 2^32 is not a multiple of 3.
tirx.kernel @align_through_a_wrapping_division(%A: !N, %n: index {tirx.size = "n"})
    launch(grid = [%n], block = [1]) {
  %bx = tirx.block_idx x
  %b = arith.index_cast %bx : index to i32
  %c12 = arith.constant 12 : i32
  // expected-note @+1 {{this 'arith.muli' wraps around in i32: 1431655766 * 12 = 8}}
  %p = arith.muli %b, %c12 : i32
  %c3 = arith.constant 3 : i32
  %q = arith.divui %p, %c3 : i32
  %off = arith.index_castui %q : i32 to index
  // expected-error @+1 {{'tirx.region' op cannot prove align 16: the base may move by 8 bytes, not a multiple of 16: with n = 2147483648, block_idx.x = 1431655766}}
  %a = tirx.region %A[%off] [4] align 16 : !N
  tirx.return
}
