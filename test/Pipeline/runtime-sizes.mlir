// Runtime sizes through the whole pipeline (docs/sizes.md): the size
// variable is a 64-bit kernel parameter, every index is 64-bit, the full
// tiles are vector accesses and the tail is element by element; the host
// launcher computes the grid from the size, and tirx.launch takes the size
// from the memref and asserts it (at least 1, its multiple, its largest
// value).
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --enable-var-scope < %t.ptx
// RUN: FileCheck %s --check-prefix=LOCAL < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}
// RUN: tirx-opt %s --tirx-to-gpu | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: .visible .entry affine_relu_n(
// CHECK-NEXT: .param .u64 affine_relu_n_param_0,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 affine_relu_n_param_1,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 affine_relu_n_param_2
// CHECK: ld.param.b64 [[N:%rd[0-9]+]], [affine_relu_n_param_0];
// CHECK: mul.wide.u32 {{%rd[0-9]+}}, {{%r[0-9]+}}, 512;
// CHECK: setp.le.s64 {{%p[0-9]+}}, {{%rd[0-9]+}}, [[N]];
// CHECK: setp.{{lt|ge}}.s64 {{%p[0-9]+}}, {{%rd[0-9]+}}, [[N]];
// CHECK: ld.global.b32 {{%r[0-9]+}}, [{{%rd[0-9]+}}];
// CHECK: st.global.b32 [{{%rd[0-9]+}}], {{%r[0-9]+}};
// CHECK: ld.global.v4.b32 {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}, [{{%rd[0-9]+}}];
// CHECK: st.global.v4.b32 [{{%rd[0-9]+}}], {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}};
// LOCAL-NOT: .local

// HOST-LABEL: func.func @affine_relu_n_launch(
// HOST: %[[C512:.+]] = arith.constant 512 : index
// HOST: %[[GRID:.+]] = arith.ceildivsi %arg0, %[[C512]] : index
// HOST: gpu.launch_func @tirx_kernels::@affine_relu_n blocks in (%[[GRID]],
// HOST-LABEL: func.func @main(
// HOST: %[[DIM:.+]] = memref.dim %arg0, %{{.+}} : memref<?xf32>
// HOST: cf.assert %{{.+}}, "tirx.launch @affine_relu_n: size variable n (argument #1 dimension 0) must be at least 1"
// HOST: %[[REM:.+]] = arith.remsi %[[DIM]], %{{.+}} : index
// HOST: cf.assert %{{.+}}, "tirx.launch @affine_relu_n: size variable n (argument #1 dimension 0) must be a multiple of 2"
// HOST: %[[MOST:.+]] = arith.cmpi sle, %[[DIM]], %{{.+}} : index
// HOST: cf.assert %[[MOST]], "tirx.launch @affine_relu_n: size variable n (argument #1 dimension 0) must be at most 1073741824"
// HOST: %[[DIM2:.+]] = memref.dim %arg1, %{{.+}} : memref<?xf32>
// HOST: arith.cmpi eq, %[[DIM2]], %[[DIM]] : index
// HOST: cf.assert %{{.+}}, "tirx.launch @affine_relu_n: argument #2 dimension 0 disagrees with size variable n"
// HOST: %[[HGRID:.+]] = arith.ceildivsi %[[DIM]], %{{.+}} : index
// HOST: gpu.launch_func @tirx_kernels::@affine_relu_n blocks in (%[[HGRID]], {{.*}} args(%[[DIM]] : index,

!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
!V4 = !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1]>, align = 16>
!S1 = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>, align = 4>
tirx.kernel @affine_relu_n(%n: index {tirx.size = "n", tirx.multiple_of = 2 : i64, tirx.at_most = 1073741824 : i64}, %A: !N, %B: !N)
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
  scf.if %full {
    %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
    %a = tirx.region %A[%off] [4] align 16 : !N
    %b = tirx.region %B[%off] [4] align 16 : !N
    tile.apply "ld.global.v4.b32" scope(thread) (%r, %a) : !tirx.tensor<4xf32, local>, !V4
    %s = tirx.view %r : !tirx.tensor<4xf32, local> -> !tirx.tensor<4x1xf32, local>
    tile.apply "fma.rn.f32" scope(thread) (%s, %s, 2.0 : f32, 1.0 : f32) : !tirx.tensor<4x1xf32, local>, !tirx.tensor<4x1xf32, local>
    tile.apply "max.f32" scope(thread) (%s, %s, 0.0 : f32) : !tirx.tensor<4x1xf32, local>, !tirx.tensor<4x1xf32, local>
    tile.apply "st.global.v4.b32" scope(thread) (%b, %r) : !V4, !tirx.tensor<4xf32, local>
  } else {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %j = %c0 to %c4 step %c1 {
      %i = arith.addi %off, %j : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %x = tirx.alloc_local : !tirx.tensor<1xf32, local>
        %a = tirx.region %A[%i] [1] : !N
        %b = tirx.region %B[%i] [1] : !N
        tile.apply "ld.global.b32" scope(thread) (%x, %a) : !tirx.tensor<1xf32, local>, !S1
        %s = tirx.view %x : !tirx.tensor<1xf32, local> -> !tirx.tensor<1x1xf32, local>
        tile.apply "fma.rn.f32" scope(thread) (%s, %s, 2.0 : f32, 1.0 : f32) : !tirx.tensor<1x1xf32, local>, !tirx.tensor<1x1xf32, local>
        tile.apply "max.f32" scope(thread) (%s, %s, 0.0 : f32) : !tirx.tensor<1x1xf32, local>, !tirx.tensor<1x1xf32, local>
        tile.apply "st.global.b32" scope(thread) (%b, %x) : !S1, !tirx.tensor<1xf32, local>
      }
    }
  }
  tirx.return
}

func.func @main(%a: memref<?xf32>, %b: memref<?xf32>) {
  tirx.launch @affine_relu_n(%a, %b) : memref<?xf32>, memref<?xf32>
  return
}
