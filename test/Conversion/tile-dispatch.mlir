// RUN: tirx-opt %s --tirx-to-gpu=chip=sm_90 --tile-dispatch | FileCheck %s

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>

// Group coordinates come from the thread id: warp = tid / 32, lane = tid % 32.
// CHECK-LABEL: gpu.func @load
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[TID:.+]] = gpu.thread_id x
// CHECK: %[[LANE:.+]] = arith.remui %[[TID]], %[[C32]]
// CHECK: %[[WARP:.+]] = arith.divui %[[TID]], %[[C32]]
// CHECK: %[[P:.+]] = tirx.element_ptr %{{.+}}[%[[WARP]], %[[LANE]], %[[C0]]]
// One 16-byte vector load as inline PTX (a memory access: side effects),
// then 4 slot stores.
// CHECK: %[[I:.+]] = llvm.ptrtoint %[[P]] : !llvm.ptr<1> to i64
// CHECK: %[[V:.+]] = llvm.inline_asm has_side_effects "ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l" %[[I]] : (i64) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-4: tirx.slot_store
// CHECK-NOT: tile.apply
tirx.kernel @load(%A: !tirx.tensor<2x32x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A)
      : !tirx.tensor<2x32x4xf32, local, #reg>, !tirx.tensor<2x32x4xf32, global, align = 16>
  tirx.return
}

// One inline-PTX instruction per repeat, in row-major order, on constant
// slots; immediates are inlined as PTX literals.
// CHECK-LABEL: gpu.func @fma
// CHECK: %[[X0:.+]] = tirx.slot_load %{{.+}}[0]
// CHECK-NEXT: %[[Y0:.+]] = llvm.inline_asm "fma.rn.f32 $0, $1, 0f40000000, 0f3F800000;", "=f,f" %[[X0]] : (f32) -> f32
// CHECK-NEXT: tirx.slot_store %[[Y0]], %{{.+}}[0]
// CHECK: tirx.slot_load %{{.+}}[1]
// CHECK: tirx.slot_load %{{.+}}[2]
// CHECK: tirx.slot_load %{{.+}}[3]
// CHECK-NEXT: llvm.inline_asm "fma.rn.f32
// CHECK-NEXT: tirx.slot_store %{{.+}}, %{{.+}}[3]
// CHECK-NOT: inline_asm
// CHECK: gpu.return
tirx.kernel @fma() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4x1xf32, local, #reg>
  tile.apply "fma.rn.f32" scope(cta) (%r, %r, 2.0 : f32, 1.0 : f32)
      : !tirx.tensor<2x32x4x1xf32, local, #reg>, !tirx.tensor<2x32x4x1xf32, local, #reg>
  tirx.return
}

// Gapped slots (spec §1.8): S[(4, 1) : (2, 1)] uses slots 0, 2, 4, 6.
// CHECK-LABEL: gpu.func @gapped
// CHECK: llvm.inline_asm "mov.b32 $0, 0x3F800000;", "=f"
// CHECK-NEXT: tirx.slot_store %{{.+}}, %{{.+}}[0]
// CHECK: tirx.slot_store %{{.+}}, %{{.+}}[2]
// CHECK: tirx.slot_store %{{.+}}, %{{.+}}[4]
// CHECK: tirx.slot_store %{{.+}}, %{{.+}}[6]
tirx.kernel @gapped() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4x1xf32, local, #tirx.layout<S[(4, 1) : (2, 1)]>>
  tile.apply "mov.b32" scope(thread) (%r, 1.0 : f32) : !tirx.tensor<4x1xf32, local, #tirx.layout<S[(4, 1) : (2, 1)]>>
  tirx.return
}

// A predicate gates the instruction inside a scoped PTX block; the
// destination is tied ("0") to its slot's current value, which it keeps when
// the predicate is false.
// CHECK-LABEL: gpu.func @predicated
// CHECK: %[[P:.+]] = llvm.zext %{{.+}} : i1 to i32
// CHECK: %[[SRC:.+]] = tirx.slot_load %[[R:.+]][0]
// CHECK: %[[OLD:.+]] = tirx.slot_load %[[R]][0]
// CHECK: %[[NEW:.+]] = llvm.inline_asm "{\0A\09.reg .pred %tirx_p;\0A\09setp.ne.b32 %tirx_p, $1, 0;\0A\09@%tirx_p abs.f32 $0, $2;\0A\09}", "=f,r,f,0" %[[P]], %[[SRC]], %[[OLD]] : (i32, f32, f32) -> f32
// CHECK: tirx.slot_store %[[NEW]], %[[R]][0]
tirx.kernel @predicated(%p: i1) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  tile.apply "abs.f32" scope(thread) (%r, %r) pred(%p) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// Packed conversion: the high-half source comes first; 16-bit results and
// carriers use integer registers.
// CHECK-LABEL: gpu.func @packed
// CHECK: llvm.inline_asm "cvt.rn.f16x2.f32 $0, $1, $2;", "=r,f,f"
tirx.kernel @packed() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<2xf32, local>
  %d = tirx.alloc_local : !tirx.tensor<1xui32, local>
  %hi = tirx.region %a[1] [1] : !tirx.tensor<2xf32, local>
  %lo = tirx.region %a[0] [1] : !tirx.tensor<2xf32, local>
  tile.apply "cvt.rn.f16x2.f32" scope(thread) (%d, %hi, %lo)
      : !tirx.tensor<1xui32, local>,
        !tirx.tensor<1xf32, local, #tirx.layout<S[1 : 1] + 1>>,
        !tirx.tensor<1xf32, local, #tirx.layout<S[1 : 1]>>
  tirx.return
}

// ewise: the scalar body is cloned once per element of the thread.
func.func private @affine(%x: f32, %s: f32) -> f32 {
  %y = arith.mulf %x, %s : f32
  %c = arith.constant 1.0 : f32
  %z = arith.addf %y, %c : f32
  return %z : f32
}
// CHECK-LABEL: gpu.func @ewise
// CHECK-COUNT-4: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK-NOT: tile.ewise
tirx.kernel @ewise() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  tile.ewise @affine scope(cta) (%r, %r, 3.0 : f32) : !tirx.tensor<2x32x4xf32, local, #reg>, !tirx.tensor<2x32x4xf32, local, #reg>
  tirx.return
}
