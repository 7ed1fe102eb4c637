// Runtime sizes that the verifiers reject (docs/sizes.md): malformed types,
// size variables, grids and regions; accesses refuted with a witness over
// the size variables; align claims that need a divisor the size variable
// does not declare.
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels

// expected-error @+1 {{tensor has 1 runtime extents ('?') but 0 size names; write one name per '?' (sizes = [n, ...])}}
func.func private @f(!tirx.tensor<?xf32, global>)

// -----

// expected-error @+1 {{a shared tensor needs constant extents; only global tensors (kernel parameters) have runtime sizes}}
func.func private @f(!tirx.tensor<?xf32, shared, sizes = [n]>)

// -----

// expected-error @+1 {{a tensor with runtime extents is dense row-major and takes no layout}}
func.func private @f(!tirx.tensor<?xf32, global, #tirx.layout<S[4 : 1]>, sizes = [n]>)

// -----

// expected-error @+1 {{size variable 'n' names two extents of one tensor}}
func.func private @f(!tirx.tensor<?x?xf32, global, sizes = [n, n]>)

// -----

// expected-error @+1 {{'tirx.kernel' op argument #0 has an extent named 'n', but no argument declares size variable 'n' (an index argument with {tirx.size = "n"})}}
tirx.kernel @k(%A: !tirx.tensor<?xf32, global, sizes = [n]>) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op size variable 'm' is no extent of any tensor argument, so a launch cannot know its value}}
tirx.kernel @k(%m: index {tirx.size = "m"}) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op size variable 'n' (argument #0) must have type index, got 'i32'}}
tirx.kernel @k(%n: i32 {tirx.size = "n"}, %A: !tirx.tensor<?xf32, global, sizes = [n]>) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op argument #0: 'tirx.size' must be the size variable's name, got 4 : i64}}
tirx.kernel @k(%n: index {tirx.size = 4}) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op size variable 'n': 'tirx.multiple_of' must be an integer in [1, 2^30], got 0 : i64}}
tirx.kernel @k(%n: index {tirx.size = "n", tirx.multiple_of = 0 : i64}, %A: !tirx.tensor<?xf32, global, sizes = [n]>) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op argument #0 has 'tirx.multiple_of' but is not a size variable (no 'tirx.size')}}
tirx.kernel @k(%n: index {tirx.multiple_of = 4 : i64}) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op size variable 'n' is declared twice (arguments #0 and #1)}}
tirx.kernel @k(%n: index {tirx.size = "n"}, %m: index {tirx.size = "n"}, %A: !tirx.tensor<?xf32, global, sizes = [n]>) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op a grid extent may use only size variables, but it uses argument #0}}
tirx.kernel @k(%s: index, %n: index {tirx.size = "n"}, %A: !tirx.tensor<?xf32, global, sizes = [n]>) launch(grid = [%s ceildiv 4], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{grid extent uses '%q', which is not an argument of the kernel}}
tirx.kernel @k(%n: index {tirx.size = "n"}, %A: !tirx.tensor<?xf32, global, sizes = [n]>) launch(grid = [%q ceildiv 4], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{grid_sizes must have no dimensions and one result per '?' grid extent (1), got affine_map<()[s0] -> (s0, s0)>}}
func.func private @f() attributes {launch = #tirx.launch<grid = [-9223372036854775808], block = [32], grid_sizes = ()[s0] -> (s0, s0)>}

// -----

// expected-error @+1 {{a '?' grid extent needs grid_sizes}}
func.func private @f() attributes {launch = #tirx.launch<grid = [-9223372036854775808], block = [32]>}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
tirx.kernel @direct(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-error @+1 {{'tile.apply' op operand #1 has runtime extents ('!tirx.tensor<?xf32, global, sizes = [n], align = 16>'); select a tile of static size with tirx.region}}
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %A) : !tirx.tensor<4xf32, local>, !N
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
tirx.kernel @view(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.view' op cannot view a tensor with runtime extents; select a tile of static size with tirx.region first}}
  %v = tirx.view %A : !N -> !tirx.tensor<?xi32, global, sizes = [n], align = 16>
  tirx.return
}

// -----

// Two rows of a tensor whose row stride is the runtime `cols`: a load may
// read them (docs/sizes.md, "Tiles of runtime-sized tensors"), but a
// 16-byte vector needs every row's start aligned, which cols does not show.
!RC = !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
tirx.kernel @two_rows(%A: !RC, %rows: index {tirx.size = "rows"}, %cols: index {tirx.size = "cols"}) launch(grid = [1], block = [32]) {
  // expected-note @+1 {{the region is here}}
  %t = tirx.region %A[0, 0] [2, 4] : !RC
  %r = tirx.alloc_local : !tirx.tensor<2x4xf32, local>
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) accesses a tile of a runtime-sized tensor whose rows are a runtime stride apart, 16 bytes at a time, but dimension 0's stride is the runtime product 4 bytes · cols, known to be a multiple of only 4 bytes; declare cols a multiple of 4 (tirx.multiple_of = 4; in Python T.dynamic("cols", multiple_of=4))}}
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %t) : !tirx.tensor<2x4xf32, local>, !tirx.tensor<2x4xf32, global, #tirx.layout<S[(2, 4) : (4, 1)]>, align = 16>
  tirx.return
}

// -----

// An access may not span two of those rows: the second half would be
// `cols` elements on, not next.
!RC = !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
tirx.kernel @access_spans_rows(%A: !RC, %rows: index {tirx.size = "rows"}, %cols: index {tirx.size = "cols", tirx.multiple_of = 4 : i64}) launch(grid = [1], block = [32]) {
  // expected-note @+1 {{the region is here}}
  %t = tirx.region %A[0, 0] [2, 2] : !RC
  %v = tirx.view %t : !tirx.tensor<2x2xf32, global, #tirx.layout<S[(2, 2) : (2, 1)]>, align = 16> -> !tirx.tensor<1x4xf32, global, #tirx.layout<S[(2, 2) : (2, 1)]>, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<1x4xf32, local>
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) accesses a tile of a runtime-sized tensor whose rows are a runtime stride apart, 4 of its elements at a time, but the tile's innermost size 2 is not a multiple of 4: an access would span two rows}}
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %v) : !tirx.tensor<1x4xf32, local>, !tirx.tensor<1x4xf32, global, #tirx.layout<S[(2, 2) : (2, 1)]>, align = 16>
  tirx.return
}

// -----

// Through a chain of regions and a view (not a TMA box, and a further
// region of such a tile may only be a box).
!RC = !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
tirx.kernel @two_rows_viewed(%A: !RC, %rows: index {tirx.size = "rows"}, %cols: index {tirx.size = "cols"}) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.region' op spans 4 indices of dimension 0 of a runtime-sized tensor, whose stride there is the runtime product of the extents inside it: such a region can only be a TMA box (the tensor map of a cp.async.bulk.tensor copy or a prefetch.tensormap) or a memory operand of a thread-level tile.apply (directly or through tirx.views), but it is used by operand #0 of 'tirx.view'; select one index there, as in A[i, j:j + n]}}
  %t = tirx.region %A[0, 0] [4, 4] : !RC
  %u = tirx.region %t[0, 0] [2, 4] : !tirx.tensor<4x4xf32, global, #tirx.layout<S[(4, 4) : (4, 1)]>, align = 16>
  // expected-note @+1 {{the use is here}}
  %v = tirx.view %u : !tirx.tensor<2x4xf32, global, #tirx.layout<S[(2, 4) : (4, 1)]>, align = 16> -> !tirx.tensor<8xf32, global, align = 16>
  tirx.return
}

// -----

!M = !tirx.tensor<?x4xf32, global, sizes = [rows], align = 16>
tirx.kernel @static_past(%A: !M, %rows: index {tirx.size = "rows"}) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{invalid region: dimension 1 selects [2, 6) of extent 4}}
  %t = tirx.region %A[0, 2] [1, 4] : !M
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 8>
tirx.kernel @claim_too_large(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{align 16 must be a power of two no larger than the source's alignment (8 bytes)}}
  %t = tirx.region %A[0] [4] align 16 : !N
  tirx.return
}

// -----

tirx.kernel @local_claim() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<8xf32, local>
  // expected-error @+1 {{a local tensor's region takes no align claim}}
  %t = tirx.region %r[0] [4] align 4 : !tirx.tensor<8xf32, local>
  tirx.return
}

// -----

// The grid covers n rounded up to 512, so the last block's tile may pass n
// when nothing guards it.
!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!V4 = !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 16>
tirx.kernel @unguarded_tail(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [%n ceildiv 512], block = [128]) {
  %bx = tirx.block_idx x
  %tx = tirx.thread_idx x
  %c512 = arith.constant 512 : index
  %c4 = arith.constant 4 : index
  %base = arith.muli %bx, %c512 : index
  %t4 = arith.muli %tx, %c4 : index
  %off = arith.addi %base, %t4 : index
  // expected-note @+1 {{the region is here}}
  %a = tirx.region %A[%off] [4] align 16 : !N
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.v4.b32' may read index 1020 of dimension 0 of kernel argument #1 (extent n): with n = 513, block_idx.x = 1, thread_idx.x = 127}}
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %a) : !tirx.tensor<4xf32, local>, !V4
  tirx.return
}

// -----

// One block per row, with a grid of rows + 1 blocks: the last block reads
// row `rows`.
!M = !tirx.tensor<?x8x32x4xf32, global, sizes = [rows], align = 16>
!Row = !tirx.tensor<1x8x32x4xf32, global, #tirx.layout<S[(8, 32, 4) : (128, 4, 1)]>, align = 16>
!Tile = !tirx.tensor<8x32x4xf32, global, #tirx.layout<S[(8, 32, 4) : (128, 4, 1)]>, align = 16>
!Regs = !tirx.tensor<8x32x4xf32, local, #tirx.layout<S[(8, 32, 4) : (1@warpid, 1@laneid, 1)]>>
tirx.kernel @one_row_too_many(%A: !M, %rows: index {tirx.size = "rows"}) launch(grid = [%rows + 1], block = [256]) {
  %bx = tirx.block_idx x
  // expected-note @+1 {{the region is here}}
  %row = tirx.region %A[%bx, 0, 0, 0] [1, 8, 32, 4] : !M
  %tile = tirx.view %row : !Row -> !Tile
  %r = tirx.alloc_local : !Regs
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.v4.b32' may read index 2 of dimension 0 of kernel argument #0 (extent rows): with rows = 2, block_idx.x = 2}}
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %tile) : !Regs, !Tile
  tirx.return
}

// -----

// A vector load from a row of a (rows, cols) tensor is 16-byte aligned only
// when cols is a multiple of 4: the divisor is needed and missing.
!RC = !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
tirx.kernel @divisor_missing(%A: !RC, %rows: index {tirx.size = "rows"}, %cols: index {tirx.size = "cols"}) launch(grid = [%rows], block = [1]) {
  %bx = tirx.block_idx x
  // expected-error @+1 {{'tirx.region' op cannot prove align 16: dimension 0's stride is the runtime product 4 bytes · cols, known to be a multiple of only 4 bytes; declare cols a larger multiple (tirx.multiple_of, or multiple_of= in T.dynamic)}}
  %t = tirx.region %A[%bx, 0] [1, 4] align 16 : !RC
  tirx.return
}

// -----

// A multiple of 2 is not enough for 16 bytes of floats either.
!RC = !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
tirx.kernel @divisor_too_small(%A: !RC, %rows: index {tirx.size = "rows"}, %cols: index {tirx.size = "cols", tirx.multiple_of = 2 : i64}) launch(grid = [%rows], block = [1]) {
  %bx = tirx.block_idx x
  // expected-error @+1 {{'tirx.region' op cannot prove align 16: dimension 0's stride is the runtime product 4 bytes · cols, known to be a multiple of only 8 bytes; declare cols a larger multiple (tirx.multiple_of, or multiple_of= in T.dynamic)}}
  %t = tirx.region %A[%bx, 0] [1, 4] align 16 : !RC
  tirx.return
}

// -----

// Offsets of 2 floats do not keep 16 bytes.
!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
tirx.kernel @claim_refuted(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %c2 = arith.constant 2 : index
  %off = arith.muli %tx, %c2 : index
  // expected-error @+1 {{'tirx.region' op cannot prove align 16: the base may move by 248 bytes, not a multiple of 16: with thread_idx.x = 31}}
  %t = tirx.region %A[%off] [2] align 16 : !N
  tirx.return
}

// -----

// A claim on a static tensor, refuted the same way.
!S = !tirx.tensor<1024xf32, global, align = 16>
tirx.kernel @claim_refuted_static(%A: !S) launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %c3 = arith.constant 3 : index
  %off = arith.muli %tx, %c3 : index
  // expected-error @+1 {{'tirx.region' op cannot prove align 8: the base may move by 372 bytes, not a multiple of 8: with thread_idx.x = 31}}
  %t = tirx.region %A[%off] [2] align 8 : !S
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
tirx.kernel @claim_not_affine(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %sq = arith.muli %tx, %tx : index
  // A value the proof does not follow is any integer to an align claim.
  // expected-error @+1 {{'tirx.region' op cannot prove align 8: the base may move by 4 bytes, not a multiple of 8: with thread_idx.x = 31, 'arith.muli' (not followed: any integer) = 1}}
  %t = tirx.region %A[%sq] [2] align 8 : !N
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
tirx.kernel @k(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  tirx.return
}
func.func @pointer_only(%p: !llvm.ptr<1>) {
  // expected-error @+1 {{'tirx.launch' op size variable 'n' of @k is an extent only of tensors passed as pointers; pass one of them as a memref}}
  tirx.launch @k(%p) : !llvm.ptr<1>
  return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
tirx.kernel @k(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  tirx.return
}
func.func @rank(%m: memref<?x?xf32>) {
  // expected-error @+1 {{'tirx.launch' op argument #1 of @k has rank 1, got 'memref<?x?xf32>'}}
  tirx.launch @k(%m) : memref<?x?xf32>
  return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
tirx.kernel @k(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  tirx.return
}
func.func @count(%m: memref<?xf32>, %i: index) {
  // expected-error @+1 {{'tirx.launch' op kernel @k takes 1 argument(s), got 2 (its size variables are not passed: they are the extents of the memrefs)}}
  tirx.launch @k(%m, %i) : memref<?xf32>, index
  return
}

// -----

// A grid of n·n blocks, or n / n: beyond affine bounds.
!N = !tirx.tensor<?xf32, global, sizes = [n]>
// expected-error @+1 {{'tirx.kernel' op a grid extent multiplies two size variables}}
tirx.kernel @grid_product(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [symbol(%n) * symbol(%n)], block = [32]) {
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n]>
// expected-error @+1 {{'tirx.kernel' op a grid extent divides by something other than a positive constant}}
tirx.kernel @grid_quotient(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [symbol(%n) floordiv symbol(%n)], block = [32]) {
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n]>
tirx.kernel @negative(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{invalid region: dimension 0 has offset -1}}
  %r = tirx.region %A[-1] [1] : !N
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n]>
tirx.kernel @empty(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{invalid region: dimension 0 has size 0; sizes must be positive}}
  %r = tirx.region %A[0] [0] : !N
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n]>
!L = !tirx.tensor<2x1xf32, global, #tirx.layout<S[2 : 1]>>
tirx.kernel @overflow(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  %t = tirx.region %A[9223372036854775807] [2] : !N
  %r = tirx.view %t : !tirx.tensor<2xf32, global, #tirx.layout<S[2 : 1]>> -> !L
  %l = tirx.alloc_local : !tirx.tensor<2x1xf32, local>
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32': cannot prove the access in bounds: the integer arithmetic overflows 64 bits}}
  tile.apply "ld.global.b32" scope(thread) (%l, %r) : !tirx.tensor<2x1xf32, local>, !L
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n]>
tirx.kernel @element(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tirx.element_ptr' op needs a tensor of static shape, got '!tirx.tensor<?xf32, global, sizes = [n]>'; take a tirx.region of it}}
  %p = tirx.element_ptr %A[%c0] : !N -> !llvm.ptr<1>
  tirx.return
}

// -----

// The generic form can pair a grid map with the wrong argument count.
// expected-error @+1 {{'tirx.kernel' op grid_sizes must have one symbol per argument (2), got 1}}
"tirx.kernel"() <{sym_name = "k", function_type = (index, !tirx.tensor<?xf32, global, sizes = [n]>) -> (),
    arg_attrs = [{tirx.size = "n"}, {}],
    launch = #tirx.launch<grid = [-9223372036854775808], block = [32], grid_sizes = ()[s0] -> (s0)>}> ({
^bb0(%n: index, %A: !tirx.tensor<?xf32, global, sizes = [n]>):
  "tirx.return"() : () -> ()
}) : () -> ()

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
tirx.kernel @claim_overflow(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.region' op cannot prove align 4: the offset of dimension 0 is not affine in the indices: the integer arithmetic overflows 64 bits}}
  %t = tirx.region %A[9223372036854775807] [1] align 4 : !N
  tirx.return
}

// -----

!M = !tirx.tensor<?x4xf32, global, sizes = [rows]>
tirx.kernel @huge_static_offset(%A: !M, %rows: index {tirx.size = "rows"}) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{invalid region: dimension 1 selects [9223372036854775807, 9223372036854775807 + 4) of extent 4}}
  %t = tirx.region %A[0, 9223372036854775807] [1, 4] : !M
  tirx.return
}

// -----

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
tirx.kernel @reinterpret_runtime(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.reinterpret' op cannot reinterpret a tensor with runtime extents; select a tile of static size with tirx.region first}}
  %v = tirx.reinterpret %A : !N -> !tirx.tensor<4xf32, global, align = 16>
  tirx.return
}

// -----

// A row index 128·bx + 4 moves the base by a multiple of 4 rows of 2 bytes · k:
// 8 bytes, not the claimed 16.
!A = !tirx.tensor<?x?xbf16, global, sizes = [m, k], align = 16>
tirx.kernel @box_rows_off_grid(%A: !A, %m: index {tirx.size = "m"}, %k: index {tirx.size = "k"})
    launch(grid = [%m ceildiv 128], block = [32]) {
  %bx = tirx.block_idx x
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %bx, %c128 : index
  %row4 = arith.addi %row, %c4 : index
  // expected-error @+1 {{'tirx.region' op cannot prove align 16: dimension 0's stride is the runtime product 2 bytes · k, known to be a multiple of only 8 bytes; declare k a larger multiple (tirx.multiple_of, or multiple_of= in T.dynamic)}}
  %rows = tirx.region %A[%row4, 0] [8, 64] align 16 : !A
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op size variable 'n': 'tirx.at_most' must be an integer in [1, 2^62], got 0 : i64}}
tirx.kernel @k(%n: index {tirx.size = "n", tirx.at_most = 0 : i64}, %A: !tirx.tensor<?xf32, global, sizes = [n]>) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op size variable 'n': 'tirx.at_most' must be an integer in [1, 2^62], got "64"}}
tirx.kernel @k(%n: index {tirx.size = "n", tirx.at_most = "64"}, %A: !tirx.tensor<?xf32, global, sizes = [n]>) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op size variable 'n': 'tirx.at_most' = 66 is not a multiple of its 'tirx.multiple_of' = 4}}
tirx.kernel @k(%n: index {tirx.size = "n", tirx.multiple_of = 4 : i64, tirx.at_most = 66 : i64}, %A: !tirx.tensor<?xf32, global, sizes = [n]>) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op argument #0 has 'tirx.at_most' but is not a size variable (no 'tirx.size')}}
tirx.kernel @k(%n: index {tirx.at_most = 64 : i64}) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// The loop of sizes.mlir's @at_most with a largest value one step too
// large: refuted at n = 68, whose last step reads index 67 of 64.
!S64 = !tirx.tensor<64xf32, global, align = 4>
tirx.kernel @at_most_too_large(%n: index {tirx.size = "n", tirx.multiple_of = 4 : i64, tirx.at_most = 68 : i64},
                               %A: !tirx.tensor<?xf32, global, sizes = [n], align = 4>, %T: !S64)
    launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-note @+1 {{the region is here}}
    %t = tirx.region %T[%i] [1] : !S64
    %s = tirx.alloc_local : !tirx.tensor<1xf32, local>
    // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index 67 of dimension 0 of kernel argument #2 (extent 64): with n = 68, loop #0's index = 67}}
    tile.apply "ld.global.b32" scope(thread) (%s, %t) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
  }
  tirx.return
}
