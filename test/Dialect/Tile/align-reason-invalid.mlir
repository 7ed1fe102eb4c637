// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// A vector access to a region of a tensor whose declared alignment
// suffices, but whose base the region moves by an amount not known to keep
// it: the message names what is short (a size variable's multiple_of, or
// the offset) and the fix, not the declared alignment (docs/sizes.md).

tirx.kernel @stride_without_multiple(
    %X: !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>,
    %rows: index {tirx.size = "rows"}, %cols: index {tirx.size = "cols"})
    launch(grid = [%rows], block = [1]) {
  %b = tirx.block_idx x
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %row = tirx.region %X[%b, 0] [1, 4] : !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
  %v = tirx.view %row : !tirx.tensor<1x4xf32, global, #tirx.layout<S[4 : 1]>, align = 4> -> !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  // expected-error @+1 {{operand #1 (addr): each access is a 16-byte vector, but this region of a tensor declared align = 16 is only known to be 4-byte aligned: its offset in dimension 0 moves it by strides of cols elements of 4 bytes, and cols is not declared a multiple of 4; declare cols a multiple of 4: T.dynamic("cols", multiple_of=4) in Python, tirx.multiple_of = 4 on its size argument in the IR}}
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %v)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  tirx.return
}

// -----

// A multiple that is too small: named with the one that suffices.
tirx.kernel @stride_multiple_too_small(
    %X: !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>,
    %rows: index {tirx.size = "rows"},
    %cols: index {tirx.size = "cols", tirx.multiple_of = 6 : i64})
    launch(grid = [%rows], block = [1]) {
  %b = tirx.block_idx x
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %row = tirx.region %X[%b, 0] [1, 4] align 8 : !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
  %v = tirx.view %row : !tirx.tensor<1x4xf32, global, #tirx.layout<S[4 : 1]>, align = 8> -> !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 8>
  // expected-error @+1 {{is only known to be 8-byte aligned: its offset in dimension 0 moves it by strides of cols elements of 4 bytes, and cols is declared a multiple of 6 only; declare cols a multiple of 12: T.dynamic("cols", multiple_of=12) in Python, tirx.multiple_of = 12 on its size argument in the IR}}
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %v)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 8>
  tirx.return
}

// -----

// A stride of two size variables: their product must be a multiple of 4;
// the innermost is named.
tirx.kernel @stride_of_two_sizes(
    %X: !tirx.tensor<?x?x?xf32, global, sizes = [n, h, w], align = 16>,
    %n: index {tirx.size = "n"}, %h: index {tirx.size = "h"}, %w: index {tirx.size = "w"})
    launch(grid = [%n], block = [1]) {
  %b = tirx.block_idx x
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %row = tirx.region %X[%b, 0, 0] [1, 1, 4] : !tirx.tensor<?x?x?xf32, global, sizes = [n, h, w], align = 16>
  %v = tirx.view %row : !tirx.tensor<1x1x4xf32, global, #tirx.layout<S[4 : 1]>, align = 4> -> !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  // expected-error @+1 {{operand #1 (addr): each access is a 16-byte vector, but this region of a tensor declared align = 16 is only known to be 4-byte aligned: its offset in dimension 0 moves it by strides of h x w elements of 4 bytes, and their product is not known to be a multiple of 4; declare w a multiple of 4: T.dynamic("w", multiple_of=4) in Python, tirx.multiple_of = 4 on its size argument in the IR}}
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %v)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  tirx.return
}

// -----

// The stride keeps 16 bytes (cols a multiple of 4); the constant offset 1
// of the columns does not.
tirx.kernel @static_offset(
    %X: !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>,
    %rows: index {tirx.size = "rows"},
    %cols: index {tirx.size = "cols", tirx.multiple_of = 4 : i64})
    launch(grid = [%rows], block = [1]) {
  %b = tirx.block_idx x
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %row = tirx.region %X[%b, 1] [1, 4] align 4 : !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
  %v = tirx.view %row : !tirx.tensor<1x4xf32, global, #tirx.layout<S[4 : 1]>, align = 4> -> !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  // expected-error @+1 {{is only known to be 4-byte aligned: its offset 1 in dimension 1 moves it by 1 x 4 bytes, not a multiple of 16; start the region at a multiple of 4 in that dimension}}
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %v)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  tirx.return
}

// -----

// A static tensor: the runtime column offset is the culprit.
tirx.kernel @runtime_offset(%X: !tirx.tensor<64x64xf32, global, align = 16>)
    launch(grid = [1], block = [16]) {
  %t = tirx.thread_idx x
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %row = tirx.region %X[%t, %t] [1, 4] : !tirx.tensor<64x64xf32, global, align = 16>
  %v = tirx.view %row : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (64, 1)]>, align = 4> -> !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  // expected-error @+1 {{operand #1 (addr): each access is a 16-byte vector, but this region of a tensor declared align = 16 is only known to be 4-byte aligned: its runtime offset in dimension 1 is not known to be a multiple of 4 (each step moves the base by 4 bytes); compute it as a multiple of 4 (e.g. i * 4 in Python), or claim align 16 on the tirx.region where it is one}}
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %v)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  tirx.return
}

// -----

// The declared alignment itself is short: the message says to declare it.
tirx.kernel @declared_short(%X: !tirx.tensor<64x64xf32, global, align = 4>)
    launch(grid = [1], block = [16]) {
  %t = tirx.thread_idx x
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  %row = tirx.region %X[%t, 0] [1, 4] : !tirx.tensor<64x64xf32, global, align = 4>
  %v = tirx.view %row : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (64, 1)]>, align = 4> -> !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  // expected-error @+1 {{operand #1 (addr): the tensor is aligned to 4 byte(s) but each access is a 16-byte vector; declare align = 16 (or more) on the tensor}}
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %v)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  tirx.return
}

// -----

// ldmatrix's 16-byte rows, from a region whose runtime word offset is not
// known to be a multiple of 4.
#ldm1 = #tirx.layout<S[(1, 8, 4) : (1, 4@laneid, 1@laneid)]>
tirx.kernel @rows_runtime_offset() launch(grid = [1], block = [32]) {
  %t = tirx.thread_idx x
  %s = tirx.alloc_shared : !tirx.tensor<1x8x8xui32, shared, align = 16>
  // expected-note @+1 {{the region is here}}
  %v = tirx.region %s[0, 0, %t] [1, 8, 4] : !tirx.tensor<1x8x8xui32, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<1x8x4xui32, local, #ldm1>
  // expected-error @+1 {{operand #1 (addr): each row address must be 16-byte aligned, but this region of a tensor declared align = 16 is only known to be 4-byte aligned: its runtime offset in dimension 2 is not known to be a multiple of 4 (each step moves the base by 4 bytes)}}
  tile.apply "ldmatrix.sync.aligned.m8n8.x1.shared.b16" scope(warp) (%r, %v)
      : !tirx.tensor<1x8x4xui32, local, #ldm1>, !tirx.tensor<1x8x4xui32, shared, #tirx.layout<S[(1, 8, 4) : (1, 8, 1)]>, align = 4>
  tirx.return
}

// -----

// Stride and offset keep 16 bytes; the region's own claim is short.
tirx.kernel @claim_too_small(
    %X: !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>,
    %rows: index {tirx.size = "rows"},
    %cols: index {tirx.size = "cols", tirx.multiple_of = 4 : i64})
    launch(grid = [%rows], block = [1]) {
  %b = tirx.block_idx x
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %row = tirx.region %X[%b, 0] [1, 4] align 4 : !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
  %v = tirx.view %row : !tirx.tensor<1x4xf32, global, #tirx.layout<S[4 : 1]>, align = 4> -> !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  // expected-error @+1 {{is only known to be 4-byte aligned: the tirx.region claims align 4 only; claim 16 (the kernel's verifier proves it)}}
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %v)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 4>
  tirx.return
}
