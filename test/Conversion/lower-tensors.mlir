// RUN: tirx-opt %s --tirx-to-gpu=chip=sm_90 --tile-dispatch --tirx-lower-tensors | FileCheck %s

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>

// Shared tiles become addr_space 3 globals of the GPU module.
// CHECK: llvm.mlir.global internal @blocks_smem0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<256 x f32>

// Global tensors become !llvm.ptr<1> arguments; element addresses a GEP by
// the layout offset 128 * warp + 4 * lane. The register tile, accessed only
// by constant slots, is kept as SSA values: the loaded words go straight to
// the store.
// CHECK-LABEL: gpu.func @copy
// CHECK-SAME: (%[[A:.+]]: !llvm.ptr<1>, %[[B:.+]]: !llvm.ptr<1>)
// CHECK-NOT: llvm.alloca
// CHECK: %[[LANE:.+]] = arith.remui
// CHECK: %[[WARP:.+]] = arith.divui
// CHECK: %[[W:.+]] = arith.muli %[[WARP]], %{{.+}} : index
// CHECK: %[[L:.+]] = arith.muli %[[LANE]], %{{.+}} : index
// CHECK: %[[OFF:.+]] = arith.addi %[[W]], %[[L]] : index
// CHECK: %[[OFF64:.+]] = arith.index_cast %[[OFF]] : index to i64
// CHECK: %[[P:.+]] = llvm.getelementptr %[[A]][%[[OFF64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: %[[I:.+]] = llvm.ptrtoint %[[P]] : !llvm.ptr<1> to i64
// CHECK: %[[V:.+]] = llvm.inline_asm has_side_effects "ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l" %[[I]]
// CHECK: %[[F0:.+]] = llvm.extractvalue %[[V]][0]
// CHECK: %[[F3:.+]] = llvm.extractvalue %[[V]][3]
// CHECK: %[[Q:.+]] = llvm.getelementptr %[[B]]
// CHECK: %[[J:.+]] = llvm.ptrtoint %[[Q]] : !llvm.ptr<1> to i64
// CHECK: llvm.inline_asm has_side_effects "st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f" %[[J]], %[[F0]], %{{.+}}, %{{.+}}, %[[F3]]
// CHECK-NOT: tirx.
tirx.kernel @copy(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                  %B: !tirx.tensor<2x32x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A)
      : !tirx.tensor<2x32x4xf32, local, #reg>, !tirx.tensor<2x32x4xf32, global, align = 16>
  tile.apply "st.global.v4.b32" scope(cta) (%B, %r)
      : !tirx.tensor<2x32x4xf32, global, align = 16>, !tirx.tensor<2x32x4xf32, local, #reg>
  tirx.return
}

// A block-indexed region moves the base by %bx * 256 elements.
// CHECK-LABEL: gpu.func @blocks
// CHECK: %[[BX:.+]] = gpu.block_id x
// CHECK: %[[STEP:.+]] = arith.muli %[[BX]], %{{.+}} : index
// CHECK: %[[STEP64:.+]] = arith.index_cast %[[STEP]] : index to i64
// CHECK: llvm.getelementptr %{{.+}}[%[[STEP64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: llvm.mlir.addressof @blocks_smem0 : !llvm.ptr<3>
tirx.kernel @blocks(%A: !tirx.tensor<1024x2x32x4xf32, global, align = 16>)
    launch(grid = [1024], block = [64]) {
  %bx = tirx.block_idx x
  %tile = tirx.region %A[%bx, 0, 0, 0] [1, 2, 32, 4] : !tirx.tensor<1024x2x32x4xf32, global, align = 16>
  %flat = tirx.view %tile : !tirx.tensor<1x2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
                         -> !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
  %smem = tirx.alloc_shared : !tirx.tensor<2x32x4xf32, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %flat)
      : !tirx.tensor<2x32x4xf32, local, #reg>,
        !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
  tile.apply "st.shared.v4.b32" scope(cta) (%smem, %r)
      : !tirx.tensor<2x32x4xf32, shared, align = 16>, !tirx.tensor<2x32x4xf32, local, #reg>
  tirx.return
}

// A layout that does not group by the operand's shape (the 6-element iter
// straddles both dimensions of 6x4) is evaluated as `apply` defines it:
// flatten, then split. Element (i, j, 0) is at 4i + j, split as
// (flat / 6) * 6 + flat % 6.
// CHECK-LABEL: gpu.func @ungroupable
// CHECK: %[[FLAT:.+]] = arith.addi
// CHECK: arith.remui %[[FLAT]], %{{.+}} : index
// CHECK: arith.divui %[[FLAT]], %{{.+}} : index
// CHECK: llvm.getelementptr
tirx.kernel @ungroupable(%A: !tirx.tensor<6x4x1xf32, global, #tirx.layout<S[(4, 6) : (6, 1)]>>, %i: index) launch(grid = [1], block = [32]) {
  %c0 = arith.constant 0 : index
  %p = tirx.element_ptr %A[%i, %i, %c0] : !tirx.tensor<6x4x1xf32, global, #tirx.layout<S[(4, 6) : (6, 1)]>> -> !llvm.ptr<1>
  %x = llvm.load %p : !llvm.ptr<1> -> f32
  llvm.store %x, %p : f32, !llvm.ptr<1>
  tirx.return
}

// Overlapping accesses of different widths (f32 slots read back as f16
// halves) need real memory: the tile stays an alloca of span(m) slots.
// CHECK-LABEL: gpu.func @punned
// CHECK: %[[N:.+]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: llvm.alloca %[[N]] x f32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK: llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, f16
tirx.kernel @punned(%A: !tirx.tensor<2x1xf32, global>, %B: !tirx.tensor<4x1xf16, global>)
    launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<2x1xf32, local>
  tile.apply "ld.global.b32" scope(thread) (%r, %A) : !tirx.tensor<2x1xf32, local>, !tirx.tensor<2x1xf32, global>
  %h = tirx.view %r : !tirx.tensor<2x1xf32, local> -> !tirx.tensor<2x2xf16, local, #tirx.layout<S[(2, 1, 2) : (2, 2, 1)]>>
  %h1 = tirx.view %h : !tirx.tensor<2x2xf16, local, #tirx.layout<S[(2, 1, 2) : (2, 2, 1)]>> -> !tirx.tensor<4x1xf16, local, #tirx.layout<S[(2, 1, 2) : (2, 2, 1)]>>
  tile.apply "st.global.b16" scope(thread) (%B, %h1) : !tirx.tensor<4x1xf16, global>, !tirx.tensor<4x1xf16, local, #tirx.layout<S[(2, 1, 2) : (2, 2, 1)]>>
  tirx.return
}

// A tile that needs memory, allocated in a branch: its alloca is in the entry
// block (LLVM promotes only the entry block's static allocas to registers;
// one left in the branch stayed in local memory).
// CHECK-LABEL: gpu.func @punned_in_branch
// CHECK-NEXT: %[[N:.+]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: llvm.alloca %[[N]] x f32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK: scf.if
// CHECK-NOT: llvm.alloca
// CHECK: gpu.return
tirx.kernel @punned_in_branch(%A: !tirx.tensor<2x1xf32, global>, %B: !tirx.tensor<4x1xf16, global>)
    launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  scf.if %first {
    %r = tirx.alloc_local : !tirx.tensor<2x1xf32, local>
    tile.apply "ld.global.b32" scope(thread) (%r, %A) : !tirx.tensor<2x1xf32, local>, !tirx.tensor<2x1xf32, global>
    %h = tirx.view %r : !tirx.tensor<2x1xf32, local> -> !tirx.tensor<2x2xf16, local, #tirx.layout<S[(2, 1, 2) : (2, 2, 1)]>>
    %h1 = tirx.view %h : !tirx.tensor<2x2xf16, local, #tirx.layout<S[(2, 1, 2) : (2, 2, 1)]>> -> !tirx.tensor<4x1xf16, local, #tirx.layout<S[(2, 1, 2) : (2, 2, 1)]>>
    tile.apply "st.global.b16" scope(thread) (%B, %h1) : !tirx.tensor<4x1xf16, global>, !tirx.tensor<4x1xf16, local, #tirx.layout<S[(2, 1, 2) : (2, 2, 1)]>>
  }
  tirx.return
}
