// Runtime sizes (docs/sizes.md): tensor types with named '?' extents, size
// variables, grid expressions, regions of runtime-sized tensors and align
// claims the verifier proves. Round trip: print, parse, print again.
// RUN: tirx-opt %s -split-input-file | FileCheck %s
// RUN: tirx-opt %s -split-input-file | tirx-opt -split-input-file | FileCheck %s

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!V4 = !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 16>

// A 1-D kernel over n elements, 4 per thread, its grid from n. The tail
// reads element by element under a guard; the full tiles are 16-byte
// aligned because the offset is a multiple of 4 floats.
// CHECK-LABEL: tirx.kernel @affine_relu_n
// CHECK-SAME: (%[[N:arg[0-9]+]]: index {tirx.size = "n"}, %{{.+}}: !tirx.tensor<?xf32, global, sizes = [n], align = 16>, %{{.+}}: !tirx.tensor<?xf32, global, sizes = [n], align = 16>)
// CHECK-SAME: launch(grid = [%[[N]] ceildiv 512], block = [128])
// CHECK: tirx.region %{{.+}} [%{{.+}}] [4] align 16 : !tirx.tensor<?xf32, global, sizes = [n], align = 16>
// CHECK: tirx.region %{{.+}} [%{{.+}}] [1] : !tirx.tensor<?xf32, global, sizes = [n], align = 16>
tirx.kernel @affine_relu_n(%n: index {tirx.size = "n"}, %A: !N, %B: !N)
    launch(grid = [%n ceildiv 512], block = [128]) {
  %bx = tirx.block_idx x
  %tx = tirx.thread_idx x
  %c512 = arith.constant 512 : index
  %c4 = arith.constant 4 : index
  %base = arith.muli %bx, %c512 : index
  %t4 = arith.muli %tx, %c4 : index
  %off = arith.addi %base, %t4 : index
  %end = arith.addi %off, %c4 : index
  %full = arith.cmpi sle, %end, %n : index
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  scf.if %full {
    %a = tirx.region %A[%off] [4] align 16 : !N
    %b = tirx.region %B[%off] [4] align 16 : !N
    tile.apply "ld.global.v4.b32" scope(thread) (%r, %a) : !tirx.tensor<4xf32, local>, !V4
    tile.apply "st.global.v4.b32" scope(thread) (%b, %r) : !V4, !tirx.tensor<4xf32, local>
  } else {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %j = %c0 to %c4 step %c1 {
      %i = arith.addi %off, %j : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %a = tirx.region %A[%i] [1] : !N
        %s = tirx.alloc_local : !tirx.tensor<1xf32, local>
        tile.apply "ld.global.b32" scope(thread) (%s, %a) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
      }
    }
  }
  tirx.return
}

// -----

// Rows at run time, 1024 columns: a row's tile has constant strides; a
// grid mixing constants and expressions; a divisor on the size variable.
!M = !tirx.tensor<?x8x32x4xf32, global, sizes = [rows], align = 16>
!Row = !tirx.tensor<1x8x32x4xf32, global, #tirx.layout<S[(8, 32, 4) : (128, 4, 1)]>, align = 16>
!Tile = !tirx.tensor<8x32x4xf32, global, #tirx.layout<S[(8, 32, 4) : (128, 4, 1)]>, align = 16>
!Regs = !tirx.tensor<8x32x4xf32, local, #tirx.layout<S[(8, 32, 4) : (1@warpid, 1@laneid, 1)]>>
// CHECK-LABEL: tirx.kernel @rows
// CHECK-SAME: %[[R:arg[0-9]+]]: index {tirx.multiple_of = 2 : i64, tirx.size = "rows"}
// CHECK-SAME: launch(grid = [8, (%[[R]] + 1) floordiv 2], block = [256])
// CHECK: tirx.region %{{.+}} [%{{.+}}, 0, 0, 0] [1, 8, 32, 4] : !tirx.tensor<?x8x32x4xf32, global, sizes = [rows], align = 16>
tirx.kernel @rows(%A: !M, %rows: index {tirx.size = "rows", tirx.multiple_of = 2 : i64})
    launch(grid = [8, (%rows + 1) floordiv 2], block = [256]) {
  %by = tirx.block_idx y
  %c2 = arith.constant 2 : index
  %row = arith.muli %by, %c2 : index
  %c1 = arith.constant 1 : index
  %second = arith.addi %row, %c1 : index
  %r = tirx.alloc_local : !Regs
  %row0 = tirx.region %A[%row, 0, 0, 0] [1, 8, 32, 4] : !M
  %tile0 = tirx.view %row0 : !Row -> !Tile
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %tile0) : !Regs, !Tile
  %row1 = tirx.region %A[%second, 0, 0, 0] [1, 8, 32, 4] : !M
  %tile1 = tirx.view %row1 : !Row -> !Tile
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %tile1) : !Regs, !Tile
  tirx.return
}

// -----

// Both extents at run time: a row of a (rows, cols) tensor selects one
// index in the outer dimension; its base is 16-byte aligned because cols
// is declared a multiple of 4.
!RC = !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
// CHECK-LABEL: tirx.kernel @row_of_matrix
// CHECK: tirx.region %{{.+}} [%{{.+}}, %{{.+}}] [1, 4] align 16
tirx.kernel @row_of_matrix(%A: !RC, %rows: index {tirx.size = "rows"},
                           %cols: index {tirx.size = "cols", tirx.multiple_of = 4 : i64})
    launch(grid = [%rows], block = [32]) {
  %bx = tirx.block_idx x
  %tx = tirx.thread_idx x
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %start = arith.muli %tx, %c4 : index
  scf.for %col = %start to %cols step %c128 {
    %tile = tirx.region %A[%bx, %col] [1, 4] align 16 : !RC
    %r = tirx.alloc_local : !tirx.tensor<1x4xf32, local>
    tile.apply "ld.global.v4.b32" scope(thread) (%r, %tile) : !tirx.tensor<1x4xf32, local>, !tirx.tensor<1x4xf32, global, #tirx.layout<S[4 : 1]>, align = 16>
  }
  tirx.return
}

// -----

// A claim over a value the proof does not follow (a tile index divided by a
// runtime count, as the runtime-sized GEMM's tile order computes it): that
// value is any integer, and 4 of its multiples of 4 floats are 16 bytes.
!V = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
// CHECK-LABEL: tirx.kernel @claim_over_opaque_value
// CHECK: tirx.region %{{.+}} [%{{.+}}] [4] align 16
tirx.kernel @claim_over_opaque_value(%n: index {tirx.size = "n"}, %A: !V)
    launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %c4 = arith.constant 4 : index
  %q = arith.divsi %tx, %n : index
  %off = arith.muli %q, %c4 : index
  %t = tirx.region %A[%off] [4] align 16 : !V
  tirx.return
}

// -----

// A size variable's largest value (tirx.at_most): the loop over n reads a
// tensor of 64 elements, proven inside it only because n <= 64.
// CHECK-LABEL: tirx.kernel @at_most
// CHECK-SAME: %{{.+}}: index {tirx.at_most = 64 : i64, tirx.multiple_of = 4 : i64, tirx.size = "n"}
!S64 = !tirx.tensor<64xf32, global, align = 4>
tirx.kernel @at_most(%n: index {tirx.size = "n", tirx.multiple_of = 4 : i64, tirx.at_most = 64 : i64},
                     %A: !tirx.tensor<?xf32, global, sizes = [n], align = 4>, %T: !S64)
    launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = tirx.region %T[%i] [1] : !S64
    %s = tirx.alloc_local : !tirx.tensor<1xf32, local>
    tile.apply "ld.global.b32" scope(thread) (%s, %t) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
  }
  tirx.return
}
