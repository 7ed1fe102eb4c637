// The math functions of T (docs/math.md): what convert-gpu-to-nvvm lowers
// other than CUDA does, or not at all, goes through tirx-precise-math in
// every compile; tirx-fast-math gives the approximations of CUDA's
// --use_fast_math for f32 (here: __exp10f, __powf, __log10f, __tanf).
//
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.precise.ptx" -o /dev/null \
// RUN:   --mlir-print-ir-after=tirx-precise-math 2>&1 | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=PRECISE < %t.precise.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.precise.ptx -o /dev/null %}
// RUN: tirx-opt %s --tirx-to-ptx="fast-math=1 ptx-output=%t.fast.ptx" -o /dev/null \
// RUN:   --mlir-print-ir-after=tirx-precise-math 2>&1 | FileCheck %s --check-prefix=FAST-IR
// RUN: FileCheck %s --check-prefix=FAST < %t.fast.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.fast.ptx -o /dev/null %}

// T.exp10(x) is pow(10, x); T.hypot(x, y) the marked sqrt(x·x + y·y); a
// marked square root of another shape is a (correctly rounded) square root.
func.func private @functions(%x: f32, %y: f32) -> f32 {
  %ten = arith.constant 10.0 : f32
  %e10 = math.powf %ten, %x : f32
  %p = math.powf %e10, %y : f32
  %l10 = math.log10 %p : f32
  %t = math.tan %l10 : f32
  %xx = arith.mulf %t, %t : f32
  %yy = arith.mulf %y, %y : f32
  %s = arith.addf %xx, %yy : f32
  %h = math.sqrt %s {tirx.math = "hypot"} : f32
  %not_hypot = math.sqrt %h {tirx.math = "hypot"} : f32
  %tr = math.trunc %not_hypot : f32
  %i = arith.fptosi %tr : f32 to i32
  %z = math.ctlz %i : i32
  %c = math.ctpop %z : i32
  %f = arith.sitofp %c : i32 to f32
  %half = arith.truncf %f : f32 to f16
  %hs = math.sqrt %half : f16
  %ht = math.trunc %hs : f16
  %back = arith.extf %ht : f16 to f32
  return %back : f32
}

// IR-LABEL: IR Dump After TirXPreciseMath
// IR-DAG: llvm.func @__nv_exp10f(f32) -> f32
// IR-DAG: llvm.func @__nv_hypotf(f32, f32) -> f32
// IR: %[[E10:.*]] = llvm.call @__nv_exp10f(%{{.*}}) : (f32) -> f32
// IR: math.powf %[[E10]], %arg1 : f32
// IR: math.log10
// IR: math.tan
// IR: %[[H:.*]] = llvm.call @__nv_hypotf(%{{.*}}, %arg1) : (f32, f32) -> f32
// IR: %[[S:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%[[H]]) : (f32) -> f32
// IR: llvm.intr.trunc(%[[S]]) : (f32) -> f32
// IR: "llvm.intr.ctlz"(%{{.*}}) <{is_zero_poison = false}> : (i32) -> i32
// IR: llvm.intr.ctpop
// IR: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// IR: %[[R:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%[[W]]) : (f32) -> f32
// IR: %[[N:.*]] = arith.truncf %[[R]] : f32 to f16
// IR: llvm.intr.trunc(%[[N]]) : (f16) -> f16
// IR-NOT: math.

// libdevice is linked (no call remains); the exact instructions end it.
// PRECISE-NOT: {{\.extern|\.func|call}}
// PRECISE-LABEL: .entry math_functions(
// PRECISE-NOT: {{call|sqrt\.approx\.ftz|div\.approx}}
// PRECISE: sqrt.rn.f32 [[S:%r[0-9]+]], [[H:%r[0-9]+]];
// PRECISE-NEXT: cvt.rzi.f32.f32 [[T:%r[0-9]+]], [[S]];
// PRECISE-NEXT: cvt.rzi.s32.f32 [[I:%r[0-9]+]], [[T]];
// PRECISE-NEXT: clz.b32 [[Z:%r[0-9]+]], [[I]];
// PRECISE-NEXT: popc.b32 [[C:%r[0-9]+]], [[Z]];
// PRECISE-NEXT: cvt.rn.f32.u32 [[F:%r[0-9]+]], [[C]];
// PRECISE-NEXT: sqrt.rn.f32 [[R:%r[0-9]+]], [[F]];
// PRECISE-NEXT: cvt.rn.f16.f32 [[HR:%rs[0-9]+]], [[R]];
// PRECISE-NEXT: cvt.rzi.f16.f16 [[HT:%rs[0-9]+]], [[HR]];
// PRECISE-NEXT: cvt.f32.f16 {{%r[0-9]+}}, [[HT]];
// PRECISE-NOT: {{\.extern|\.func|call}}

// FAST-IR-LABEL: IR Dump After TirXPreciseMath
// FAST-IR-NOT: @__nv_exp10f
// FAST-IR: llvm.func @__nv_hypotf(f32, f32) -> f32
// FAST-IR-NOT: @__nv_exp10f
// FAST-IR: llvm.call @__nv_hypotf(

// FAST-LABEL: .entry math_functions(
// FAST: ld.global.b32 [[X:%r[0-9]+]],
// exp10(x): ex2.approx(x · log2 10)
// FAST: mul.rn.f32 [[A:%r[0-9]+]], [[X]], 0f40549A78;
// FAST-NEXT: ex2.approx.ftz.f32 [[E10:%r[0-9]+]], [[A]];
// pow(e10, y): ex2.approx(y · lg2.approx(e10))
// FAST-NEXT: lg2.approx.ftz.f32 [[L:%r[0-9]+]], [[E10]];
// FAST-NEXT: mul.rn.f32 [[B:%r[0-9]+]], [[Y:%r[0-9]+]], [[L]];
// FAST-NEXT: ex2.approx.ftz.f32 [[P:%r[0-9]+]], [[B]];
// log10: lg2.approx · log10 2
// FAST-NEXT: lg2.approx.ftz.f32 [[L2:%r[0-9]+]], [[P]];
// FAST-NEXT: mul.rn.f32 [[L10:%r[0-9]+]], [[L2]], 0f3E9A209B;
// tan: sin.approx / cos.approx
// FAST-NEXT: sin.approx.ftz.f32 [[SIN:%r[0-9]+]], [[L10]];
// FAST-NEXT: cos.approx.ftz.f32 [[COS:%r[0-9]+]], [[L10]];
// FAST-NEXT: div.approx.ftz.f32 {{%r[0-9]+}}, [[SIN]], [[COS]];
// hypot stays libdevice's (its own sqrt.approx.f32, not .ftz); a marked
// square root is never approximated, so the one of another shape is sqrt.rn.
// FAST-NOT: {{call|sqrt\.approx\.ftz}}
// FAST: sqrt.rn.f32 [[S:%r[0-9]+]],
// FAST-NEXT: cvt.rzi.f32.f32 {{%r[0-9]+}}, [[S]];
// FAST: clz.b32
// FAST-NEXT: popc.b32
// the f16 square root is precise in both modes
// FAST: sqrt.rn.f32
// FAST-NEXT: cvt.rn.f16.f32
// FAST-NEXT: cvt.rzi.f16.f16
// FAST: ret;
tirx.kernel @math_functions(%A: !tirx.tensor<32x1xf32, global>, %y: f32)
    launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>
  tile.apply "ld.global.b32" scope(warp) (%r, %A)
      : !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>, !tirx.tensor<32x1xf32, global>
  %s = tirx.view %r : !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>
                   -> !tirx.tensor<32xf32, local, #tirx.layout<S[32 : 1@laneid]>>
  tile.ewise @functions scope(warp) (%s, %s, %y)
      : !tirx.tensor<32xf32, local, #tirx.layout<S[32 : 1@laneid]>>, !tirx.tensor<32xf32, local, #tirx.layout<S[32 : 1@laneid]>>, f32
  tile.apply "st.global.b32" scope(warp) (%A, %r)
      : !tirx.tensor<32x1xf32, global>, !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>
  tirx.return
}
