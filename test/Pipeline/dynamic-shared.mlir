// Shared tensors past CUDA's 48 KiB static limit live in dynamic shared
// memory: one `.extern .shared` array per kernel, each tensor at its aligned
// offset in op order, and every launch (the embedders' host launcher, the
// Python launcher through the C API) passes the total. A kernel within the
// limit keeps static `.shared` arrays and launches with none.
// RUN: tirx-opt %s --tirx-to-gpu=chip=sm_90 | FileCheck %s --check-prefix=HOST
// RUN: tirx-opt %s --tirx-to-gpu=chip=sm_90 --tile-dispatch --tirx-lower-tensors | FileCheck %s --check-prefix=LOWER
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// 40 KiB of f32, then 16 KiB + 4 bytes of ui8 at 16-byte alignment: 57348.
// HOST-LABEL: func.func @big_launch
// HOST: %[[BYTES:.+]] = arith.constant 57348 : i32
// HOST: gpu.launch_func @tirx_kernels::@big {{.*}} dynamic_shared_memory_size %[[BYTES]]
// HOST-LABEL: func.func @small_launch
// HOST-NOT: dynamic_shared_memory_size
// HOST: gpu.launch_func @tirx_kernels::@small
// HOST-NOT: dynamic_shared_memory_size
// HOST: gpu.module @tirx_kernels

// LOWER-DAG: llvm.mlir.global external @big_dsmem() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<0 x i8>
// LOWER-DAG: llvm.mlir.global internal @small_smem0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<128 x f32>
// LOWER-LABEL: gpu.func @big
// LOWER-SAME: tirx.dynamic_shared_bytes = 57348 : i64
// LOWER: %[[BASE:.+]] = llvm.mlir.addressof @big_dsmem
// LOWER: llvm.getelementptr %[[BASE]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// LOWER: llvm.getelementptr %[[BASE]][40960] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// LOWER-LABEL: gpu.func @small
// LOWER-NOT: tirx.dynamic_shared_bytes

// CHECK: .extern .shared .align 128 .b8 big_dsmem[];
// CHECK-LABEL: .entry big(
// CHECK: mov.b64 [[BASE:%rd[0-9]+]], big_dsmem;
// CHECK: st.shared.v4.b32 [%rd{{[0-9]+}}], {{.*}};
// CHECK: add.s64 [[T:%rd[0-9]+]], [[BASE]], %rd{{[0-9]+}};
// CHECK: add.s64 [[T40960:%rd[0-9]+]], [[T]], 40960;
// CHECK: st.shared.b8 [[[T40960]]], {{.*}};
// CHECK-LABEL: .entry small(
// CHECK: .shared .align 16 .b8 small_smem0[512];
tirx.kernel @big(%A: !tirx.tensor<32x4xf32, global, align = 16>,
                 %B: !tirx.tensor<32x1xui8, global>)
    launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<10240xf32, shared, align = 16>
  %t = tirx.alloc_shared : !tirx.tensor<16388xui8, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  %q = tirx.alloc_local : !tirx.tensor<32x1xui8, local, #tirx.layout<S[(32, 1) : (1@laneid, 1)]>>
  tile.apply "ld.global.v4.b32" scope(warp) (%r, %A)
      : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>, !tirx.tensor<32x4xf32, global, align = 16>
  %sv = tirx.reinterpret %s : !tirx.tensor<10240xf32, shared, align = 16> -> !tirx.tensor<32x4xf32, shared, align = 16>
  tile.apply "st.shared.v4.b32" scope(warp) (%sv, %r)
      : !tirx.tensor<32x4xf32, shared, align = 16>, !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  tile.apply "ld.global.b8" scope(warp) (%q, %B)
      : !tirx.tensor<32x1xui8, local, #tirx.layout<S[(32, 1) : (1@laneid, 1)]>>, !tirx.tensor<32x1xui8, global>
  %tv = tirx.reinterpret %t : !tirx.tensor<16388xui8, shared, align = 16> -> !tirx.tensor<32x1xui8, shared, align = 16>
  tile.apply "st.shared.b8" scope(warp) (%tv, %q)
      : !tirx.tensor<32x1xui8, shared, align = 16>, !tirx.tensor<32x1xui8, local, #tirx.layout<S[(32, 1) : (1@laneid, 1)]>>
  tirx.return
}

tirx.kernel @small(%A: !tirx.tensor<32x4xf32, global, align = 16>)
    launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<32x4xf32, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  tile.apply "ld.global.v4.b32" scope(warp) (%r, %A)
      : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>, !tirx.tensor<32x4xf32, global, align = 16>
  tile.apply "st.shared.v4.b32" scope(warp) (%s, %r)
      : !tirx.tensor<32x4xf32, shared, align = 16>, !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  tirx.return
}
