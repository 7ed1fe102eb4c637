// Predicated tile.apply down to PTX: every instruction sits in its own
// `{ .reg .pred %tirx_p; setp.ne.b32 %tirx_p, <pred>, 0; @%tirx_p ... }`
// block, the predicate register is the kernel's own comparison, and a
// register destination is tied to its previous value, so a thread whose
// predicate is false keeps it.
//
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --enable-var-scope < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
!scalars = !tirx.tensor<2x32x4x1xf32, local, #reg>
!global = !tirx.tensor<2x32x4xf32, global, align = 16>

// A tail: threads tid < n load, scale and store their four floats; the
// others touch nothing. Each fma writes the register it reads (its
// destination is tied to the loaded value).
// CHECK-LABEL: .entry tail(
// CHECK-NOT: .local
// CHECK: mov.u32 [[TID:%r[0-9]+]], %tid.x;
// CHECK: ld.param.b32 [[N:%r[0-9]+]], [tail_param_2];
// CHECK: setp.lt.u32 [[P:%p[0-9]+]], [[TID]], [[N]];
// CHECK: selp.b32 [[PW:%r[0-9]+]], 1, 0, [[P]];
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_p;
// CHECK-NEXT: setp.ne.b32 %tirx_p, [[PW]], 0;
// CHECK-NEXT: @%tirx_p ld.global.v4.b32 {[[X0:%r[0-9]+]], [[X1:%r[0-9]+]], [[X2:%r[0-9]+]], [[X3:%r[0-9]+]]}, {{\[}}[[SRC:%rd[0-9]+]]{{\]}};
// CHECK-NEXT: }
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_p;
// CHECK-NEXT: setp.ne.b32 %tirx_p, [[PW]], 0;
// CHECK-NEXT: @%tirx_p fma.rn.f32 [[X0]], [[X0]], 0f40000000, 0f3F800000;
// CHECK-NEXT: }
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_p;
// CHECK-NEXT: setp.ne.b32 %tirx_p, [[PW]], 0;
// CHECK-NEXT: @%tirx_p fma.rn.f32 [[X1]], [[X1]], 0f40000000, 0f3F800000;
// CHECK-NEXT: }
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_p;
// CHECK-NEXT: setp.ne.b32 %tirx_p, [[PW]], 0;
// CHECK-NEXT: @%tirx_p fma.rn.f32 [[X2]], [[X2]], 0f40000000, 0f3F800000;
// CHECK-NEXT: }
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_p;
// CHECK-NEXT: setp.ne.b32 %tirx_p, [[PW]], 0;
// CHECK-NEXT: @%tirx_p fma.rn.f32 [[X3]], [[X3]], 0f40000000, 0f3F800000;
// CHECK-NEXT: }
// CHECK: add.s64 [[DST:%rd[0-9]+]], {{%rd[0-9]+}}, {{%rd[0-9]+}};
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_p;
// CHECK-NEXT: setp.ne.b32 %tirx_p, [[PW]], 0;
// CHECK-NEXT: @%tirx_p st.global.v4.b32 {{\[}}[[DST]]{{\]}}, {[[X0]], [[X1]], [[X2]], [[X3]]};
// CHECK-NEXT: }
// CHECK-NOT: {{ld|st|fma}}.
// CHECK: ret;
tirx.kernel @tail(%A: !global, %B: !global, %n: i32)
    launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %t = arith.index_cast %tx : index to i32
  %p = arith.cmpi ult, %t, %n : i32
  %r = tirx.alloc_local : !regs
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A) pred(%p) : !regs, !global
  %s = tirx.view %r : !regs -> !scalars
  tile.apply "fma.rn.f32" scope(cta) (%s, %s, 2.0 : f32, 1.0 : f32) pred(%p)
      : !scalars, !scalars
  tile.apply "st.global.v4.b32" scope(cta) (%B, %r) pred(%p) : !global, !regs
  tirx.return
}

// The registers start at -1.0; a predicated load replaces them only where
// tid < n, and the unpredicated store writes -1.0 elsewhere: the load's four
// destinations all hold 0xBF800000 before it.
// CHECK-LABEL: .entry keep(
// CHECK-NOT: .local
// CHECK: setp.lt.u32 [[P:%p[0-9]+]], {{%r[0-9]+}}, {{%r[0-9]+}};
// CHECK: mov.b32 [[X0:%r[0-9]+]], 0xBF800000;
// CHECK: selp.b32 [[PW:%r[0-9]+]], 1, 0, [[P]];
// CHECK-DAG: mov.b32 [[X1:%r[0-9]+]], [[X0]];
// CHECK-DAG: mov.b32 [[X2:%r[0-9]+]], [[X0]];
// CHECK-DAG: mov.b32 [[X3:%r[0-9]+]], [[X0]];
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_p;
// CHECK-NEXT: setp.ne.b32 %tirx_p, [[PW]], 0;
// CHECK-NEXT: @%tirx_p ld.global.v4.b32 {[[X0]], [[X1]], [[X2]], [[X3]]}, {{\[}}{{%rd[0-9]+}}{{\]}};
// CHECK-NEXT: }
// CHECK: // begin inline asm
// CHECK-NEXT: st.global.v4.b32 {{\[}}{{%rd[0-9]+}}{{\]}}, {[[X0]], [[X1]], [[X2]], [[X3]]};
// CHECK-NOT: {{ld|st}}.global
// CHECK: ret;
tirx.kernel @keep(%A: !global, %B: !global, %n: i32)
    launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %t = arith.index_cast %tx : index to i32
  %p = arith.cmpi ult, %t, %n : i32
  %r = tirx.alloc_local : !regs
  %s = tirx.view %r : !regs -> !scalars
  tile.apply "mov.b32" scope(cta) (%s, -1.0 : f32) : !scalars
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A) pred(%p) : !regs, !global
  tile.apply "st.global.v4.b32" scope(cta) (%B, %r) : !global, !regs
  tirx.return
}

// A 16-bit destination (an `h` register) under a kernel-argument predicate:
// each repeat's conversion writes the register that held 1.0 (0x3C00).
// CHECK-LABEL: .entry half(
// CHECK-NOT: .local
// CHECK: ld.global.b32 [[A0:%r[0-9]+]], {{\[}}[[SRC:%rd[0-9]+]]{{\]}};
// CHECK: ld.global.b32 [[A1:%r[0-9]+]], {{\[}}[[SRC]]+4{{\]}};
// CHECK: mov.b16 [[ONE:%rs[0-9]+]], 15360;
// CHECK: mov.b16 [[H1:%rs[0-9]+]], [[ONE]];
// CHECK: ld.param.b8 [[ARG:%r[0-9]+]], [half_param_2];
// CHECK: and.b32 [[PW:%r[0-9]+]], [[ARG]], 1;
// CHECK: mov.b16 [[H0:%rs[0-9]+]], [[H1]];
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_p;
// CHECK-NEXT: setp.ne.b32 %tirx_p, [[PW]], 0;
// CHECK-NEXT: @%tirx_p cvt.rn.f16.f32 [[H0]], [[A0]];
// CHECK-NEXT: }
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_p;
// CHECK-NEXT: setp.ne.b32 %tirx_p, [[PW]], 0;
// CHECK-NEXT: @%tirx_p cvt.rn.f16.f32 [[H1]], [[A1]];
// CHECK-NEXT: }
// CHECK: st.global.b16 {{\[}}[[DST:%rd[0-9]+]]{{\]}}, [[H0]];
// CHECK: st.global.b16 {{\[}}[[DST]]+2{{\]}}, [[H1]];
// CHECK: ret;
tirx.kernel @half(%A: !tirx.tensor<2x1xf32, global>,
                  %B: !tirx.tensor<2x1xui16, global>, %p: i1)
    launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<2x1xf32, local>
  tile.apply "ld.global.b32" scope(thread) (%a, %A)
      : !tirx.tensor<2x1xf32, local>, !tirx.tensor<2x1xf32, global>
  %h = tirx.alloc_local : !tirx.tensor<2x1xui16, local>
  tile.apply "mov.b16" scope(thread) (%h, 15360 : ui16)
      : !tirx.tensor<2x1xui16, local>
  tile.apply "cvt.rn.f16.f32" scope(thread) (%h, %a) pred(%p)
      : !tirx.tensor<2x1xui16, local>, !tirx.tensor<2x1xf32, local>
  tile.apply "st.global.b16" scope(thread) (%B, %h)
      : !tirx.tensor<2x1xui16, global>, !tirx.tensor<2x1xui16, local>
  tirx.return
}
