// Masked regions that are refused (docs/sizes.md, "Masked regions").
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels

// Only global tensors are masked: shared tiles are the kernel's own.
!S = !tirx.tensor<256xf32, shared>
tirx.kernel @masked_shared(%i: index) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !S
  // expected-error @+1 {{'tirx.region' op is masked, which needs a global tensor, got '!tirx.tensor<256xf32, shared>'}}
  %r = tirx.region %s[%i] [4] masked : !S
  tirx.return
}

// -----

// An element pointer would read past the tensor with no predicate.
!N = !tirx.tensor<?xf32, global, sizes = [n]>
tirx.kernel @masked_element_ptr(%n: index {tirx.size = "n"}, %X: !N)
    launch(grid = [%n ceildiv 4], block = [1]) {
  %bx = tirx.block_idx x
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %off = arith.muli %bx, %c4 : index
  // expected-error @+1 {{'tirx.region' op is masked (it may overhang its tensor), so it can only be a memory operand of a thread-level tile.apply, directly or through tirx.views, which skips the accesses outside the tensor; but it is used by operand #0 of 'tirx.element_ptr'}}
  %x = tirx.region %X[%off] [4] masked : !N
  // expected-note @+1 {{the use is here}}
  %p = tirx.element_ptr %x[%c0] : !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>> -> !llvm.ptr<1>
  tirx.return
}

// -----

// A reinterpret gives the storage other owners: the mask could not follow.
!N = !tirx.tensor<?xf32, global, sizes = [n]>
tirx.kernel @masked_reinterpret(%n: index {tirx.size = "n"}, %X: !N)
    launch(grid = [%n ceildiv 4], block = [1]) {
  %bx = tirx.block_idx x
  %c4 = arith.constant 4 : index
  %off = arith.muli %bx, %c4 : index
  // expected-error @+1 {{but it is used by operand #0 of 'tirx.reinterpret'}}
  %x = tirx.region %X[%off] [4] masked : !N
  // expected-note @+1 {{the use is here}}
  %h = tirx.reinterpret %x : !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>> -> !tirx.tensor<2x2xf32, global, #tirx.layout<S[(2, 2) : (1, 2)]>>
  tirx.return
}

// -----

// A vector access must be wholly inside or wholly outside: with n not
// known to be a multiple of 4, the last vector could straddle the end (its
// base is aligned: the offsets are multiples of 8).
!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!v8 = !tirx.tensor<8xf32, global, #tirx.layout<S[8 : 1]>, align = 16>
!v = !tirx.tensor<2x4xf32, global, #tirx.layout<S[8 : 1]>, align = 16>
!r = !tirx.tensor<2x4xf32, local>
tirx.kernel @masked_vector_straddles(%n: index {tirx.size = "n"}, %X: !N)
    launch(grid = [%n ceildiv 8], block = [1]) {
  %bx = tirx.block_idx x
  %c8 = arith.constant 8 : index
  %off = arith.muli %bx, %c8 : index
  %t = tirx.alloc_local : !r
  // expected-note @+1 {{the region is here}}
  %x = tirx.region %X[%off] [8] masked align 16 : !N
  %xv = tirx.view %x : !v8 -> !v
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) accesses a masked region 4 of its elements at a time, so the tensor's innermost extent must be a multiple of 4 for no access to straddle its end; declare n a multiple of 4 (tirx.multiple_of = 4; in Python T.dynamic("n", multiple_of=4)), or access it one element at a time}}
  tile.apply "ld.global.v4.b32" scope(thread) (%t, %xv) : !r, !v
  tirx.return
}

// -----

// The same with a static extent that is not a multiple of the vector.
!S = !tirx.tensor<1002xf32, global, align = 16>
!v = !tirx.tensor<2x4xf32, global, #tirx.layout<S[8 : 1]>, align = 16>
!v8 = !tirx.tensor<8xf32, global, #tirx.layout<S[8 : 1]>, align = 16>
!r = !tirx.tensor<2x4xf32, local>
tirx.kernel @masked_static_straddles(%X: !S) launch(grid = [126], block = [1]) {
  %bx = tirx.block_idx x
  %c8 = arith.constant 8 : index
  %off = arith.muli %bx, %c8 : index
  %t = tirx.alloc_local : !r
  // expected-note @+1 {{the region is here}}
  %x = tirx.region %X[%off] [8] masked align 16 : !S
  %xv = tirx.view %x : !v8 -> !v
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) accesses a masked region 4 of its elements at a time, so the tensor's innermost extent must be a multiple of 4 for no access to straddle its end; it is 1002; access it one element at a time}}
  tile.apply "ld.global.v4.b32" scope(thread) (%t, %xv) : !r, !v
  tirx.return
}

// -----

// An access spanning two rows of the region could be half inside.
!S = !tirx.tensor<64x2xf32, global, align = 16>
!t = !tirx.tensor<2x2xf32, global, #tirx.layout<S[(2, 2) : (2, 1)]>, align = 16>
!t4 = !tirx.tensor<1x4xf32, global, #tirx.layout<S[(2, 2) : (2, 1)]>, align = 16>
!r = !tirx.tensor<1x4xf32, local>
tirx.kernel @masked_spans_rows(%X: !S) launch(grid = [33], block = [1]) {
  %bx = tirx.block_idx x
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %off = arith.muli %bx, %c2 : index
  %t = tirx.alloc_local : !r
  // expected-note @+1 {{the region is here}}
  %x = tirx.region %X[%off, 0] [2, 2] masked align 16 : !S
  %xv = tirx.view %x : !t -> !t4
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) accesses a masked region 4 of its elements at a time, but the region's innermost size 2 is not a multiple of 4: an access would span two rows}}
  tile.apply "ld.global.v4.b32" scope(thread) (%t, %xv) : !r, !t4
  tirx.return
}

// -----

// The mask covers the end of the tensor, not its start: a negative offset
// is still refuted, with its witness.
!N = !tirx.tensor<?xf32, global, sizes = [n]>
!one = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>>
!r1 = !tirx.tensor<1xf32, local>
tirx.kernel @masked_negative_offset(%n: index {tirx.size = "n"}, %X: !N)
    launch(grid = [%n], block = [1]) {
  %bx = tirx.block_idx x
  %c1 = arith.constant 1 : index
  %prev = arith.subi %bx, %c1 : index
  %t = tirx.alloc_local : !r1
  // expected-note @+1 {{the region is here}}
  %x = tirx.region %X[%prev] [1] masked : !N
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index -1 of dimension 0 of kernel argument #1 (extent n): with n = 1, block_idx.x = 0}}
  tile.apply "ld.global.b32" scope(thread) (%t, %x) : !r1, !one
  tirx.return
}

// -----

// Through a view packing bf16 pairs into words, a 16-byte access covers 8
// of the region's elements: a multiple of 4 is not enough.
!B = !tirx.tensor<?xbf16, global, sizes = [n], align = 16>
!b8 = !tirx.tensor<8xbf16, global, #tirx.layout<S[8 : 1]>, align = 16>
!w4 = !tirx.tensor<4xui32, global, #tirx.layout<S[4 : 1]>, align = 16>
!r = !tirx.tensor<4xui32, local>
tirx.kernel @masked_packed_straddles(%n: index {tirx.size = "n", tirx.multiple_of = 4 : i64}, %X: !B)
    launch(grid = [%n ceildiv 8], block = [1]) {
  %bx = tirx.block_idx x
  %c8 = arith.constant 8 : index
  %off = arith.muli %bx, %c8 : index
  %t = tirx.alloc_local : !r
  // expected-note @+1 {{the region is here}}
  %x = tirx.region %X[%off] [8] masked align 16 : !B
  %w = tirx.view %x : !b8 -> !w4
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) accesses a masked region 8 of its elements at a time, so the tensor's innermost extent must be a multiple of 8 for no access to straddle its end; declare n a multiple of 8}}
  tile.apply "ld.global.v4.b32" scope(thread) (%t, %w) : !r, !w4
  tirx.return
}
