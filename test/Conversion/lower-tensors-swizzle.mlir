// RUN: tirx-opt %s --tirx-to-gpu=chip=sm_90 --tile-dispatch --tirx-lower-tensors | FileCheck %s
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// tirx.element_ptr of a swizzled shared tile (docs/layouts.md): the affine
// offset, then the XOR of the 128B swizzle of f16 (Swizzle[3, 3, 3]: bits
// [3, 6) ^= bits [6, 9) of the element offset).
//
// Each of 64 threads writes element (r, c) = (tid % 8, tid / 8) and reads
// (c, r) back. Affine 64r + c (c < 8) lands at 64r + 8r + c: row r's first
// 16-byte chunk moves to chunk r. Element (1, 2) is the constant 74.

#sw = #tirx.layout<S[(8, 64) : (64, 1)] + Swizzle[3, 3, 3]>

// CHECK-LABEL: gpu.func @transpose_tile
// CHECK:      %[[SMEM:.+]] = llvm.mlir.addressof @transpose_tile_smem0 : !llvm.ptr<3>
// CHECK:      llvm.load %{{.+}} : !llvm.ptr<1> -> f16
// CHECK:      %[[AFFINE:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK-NEXT: %[[C56:.+]] = arith.constant 56 : index
// CHECK-NEXT: %[[C3:.+]] = arith.constant 3 : index
// CHECK-NEXT: %[[HIGH:.+]] = arith.shrui %[[AFFINE]], %[[C3]] : index
// CHECK-NEXT: %[[GROUP:.+]] = arith.andi %[[HIGH]], %[[C56]] : index
// CHECK-NEXT: %[[SWIZZLED:.+]] = arith.xori %[[AFFINE]], %[[GROUP]] : index
// CHECK-NEXT: %[[OFFSET:.+]] = arith.index_cast %[[SWIZZLED]] : index to i64
// CHECK-NEXT: llvm.getelementptr %[[SMEM]][%[[OFFSET]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK-NEXT: llvm.store
// CHECK:      %[[C74:.+]] = arith.constant 74 : i64
// CHECK-NEXT: llvm.getelementptr %[[SMEM]][%[[C74]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16

// The byte address of (r, c) is 128r + 2c + 16r; of (c, r), 128c + 16c + 2r.
// PTX-LABEL: .entry transpose_tile(
// PTX:      .shared .align 1024 .b8 transpose_tile_smem0[1024];
// PTX:      mov.u32 %[[TID:r[0-9]+]], %tid.x;
// PTX:      mov.b64 %[[BASE:rd[0-9]+]], transpose_tile_smem0;
// PTX-NEXT: add.s64 %[[ROWCOL:rd[0-9]+]], %[[BASE]], %{{rd[0-9]+}};
// PTX-NEXT: mul.wide.u32 %[[T16:rd[0-9]+]], %[[TID]], 16;
// PTX-NEXT: and.b64 %[[CHUNK:rd[0-9]+]], %[[T16]], 112;
// PTX-NEXT: add.s64 %[[ST:rd[0-9]+]], %[[ROWCOL]], %[[CHUNK]];
// PTX-NEXT: st.shared.b16 [%[[ST]]], %{{rs[0-9]+}};
// PTX-NEXT: bar.sync 0;
// PTX-NEXT: and.b64 %[[C8:rd[0-9]+]], %{{rd[0-9]+}}, 56;
// PTX-NEXT: shl.b64 %[[C128:rd[0-9]+]], %{{rd[0-9]+}}, 7;
// PTX-NEXT: add.s64 %[[A:rd[0-9]+]], %[[BASE]], %[[C128]];
// PTX-NEXT: shl.b64 %[[C16:rd[0-9]+]], %[[C8]], 1;
// PTX-NEXT: add.s64 %[[B:rd[0-9]+]], %[[A]], %[[C16]];
// PTX-NEXT: shl.b64 %[[R2:rd[0-9]+]], %{{rd[0-9]+}}, 1;
// PTX-NEXT: add.s64 %[[LD:rd[0-9]+]], %[[B]], %[[R2]];
// PTX-NEXT: ld.shared.b16 %{{rs[0-9]+}}, [%[[LD]]];
// PTX-NEXT: ld.shared.b16 %{{rs[0-9]+}}, [transpose_tile_smem0+148];
tirx.kernel @transpose_tile(%A: !tirx.tensor<8x64xf16, global, align = 2>, %B: !tirx.tensor<8x64xf16, global, align = 2>) launch(grid = [1], block = [64]) {
  %smem = tirx.alloc_shared : !tirx.tensor<8x64xf16, shared, #sw, align = 1024>
  %tx = tirx.thread_idx x
  %c8 = arith.constant 8 : index
  %row = arith.remui %tx, %c8 : index
  %col = arith.divui %tx, %c8 : index
  %g = tirx.element_ptr %A[%row, %col] : !tirx.tensor<8x64xf16, global, align = 2> -> !llvm.ptr<1>
  %x = llvm.load %g : !llvm.ptr<1> -> f16
  %p = tirx.element_ptr %smem[%row, %col] : !tirx.tensor<8x64xf16, shared, #sw, align = 1024> -> !llvm.ptr<3>
  llvm.store %x, %p : f16, !llvm.ptr<3>
  tirx.cta_sync
  %q = tirx.element_ptr %smem[%col, %row] : !tirx.tensor<8x64xf16, shared, #sw, align = 1024> -> !llvm.ptr<3>
  %y = llvm.load %q : !llvm.ptr<3> -> f16
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k = tirx.element_ptr %smem[%c1, %c2] : !tirx.tensor<8x64xf16, shared, #sw, align = 1024> -> !llvm.ptr<3>
  %z = llvm.load %k : !llvm.ptr<3> -> f16
  %sum = llvm.fadd %y, %z : f16
  %h = tirx.element_ptr %B[%row, %col] : !tirx.tensor<8x64xf16, global, align = 2> -> !llvm.ptr<1>
  llvm.store %sum, %h : f16, !llvm.ptr<1>
  tirx.return
}
