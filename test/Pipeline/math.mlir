// Precise math goes through libdevice (linked: no calls remain); fast math
// maps each f32 function to its approximate instruction (docs/math.md).
//
// RUN: tirx-opt %s --tirx-to-ptx="fast-math=1 ptx-output=%t.fast.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=FAST < %t.fast.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.fast.ptx -o /dev/null %}
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.precise.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PRECISE < %t.precise.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.precise.ptx -o /dev/null %}

func.func private @everything(%x: f32, %y: f32) -> f32 {
  %e = math.exp %x : f32
  %e2 = math.exp2 %e : f32
  %l = math.log %e2 : f32
  %l2 = math.log2 %l : f32
  %s = math.sqrt %l2 : f32
  %r = math.rsqrt %s : f32
  %t = math.tanh %r : f32
  %si = math.sin %t : f32
  %co = math.cos %si : f32
  %d = arith.divf %co, %y : f32
  return %d : f32
}

// FAST-NOT: {{\.extern|\.func|call}}
// FAST-LABEL: .entry fast_math(
// FAST-NOT: call
// FAST-DAG: mul.rn.f32 {{.*}}0f3FB8AA3B;
// FAST-DAG: ex2.approx.ftz.f32
// FAST-DAG: lg2.approx.ftz.f32
// FAST-DAG: mul.rn.f32 {{.*}}0f3F317218;
// FAST-DAG: sqrt.approx.ftz.f32
// FAST-DAG: rsqrt.approx.ftz.f32
// FAST-DAG: tanh.approx.f32
// FAST-DAG: sin.approx.ftz.f32
// FAST-DAG: cos.approx.ftz.f32
// FAST-DAG: div.approx.ftz.f32
// FAST: ret;

// PTX declares an unresolved function (`.extern .func __nv_expf`) before
// the kernel that calls it, so the precise run checks the whole file: no
// declaration before the entry, no call or approximation from it to `ret;`.
// PRECISE-NOT: {{\.extern|\.func|call}}
// PRECISE-LABEL: .entry fast_math(
// PRECISE-NOT: {{call|\.extern|tanh\.approx|div\.approx}}
// PRECISE: div.rn.f32
// PRECISE-NOT: {{call|\.extern|tanh\.approx|div\.approx}}
// PRECISE: ret;
// PRECISE-NOT: {{\.extern|\.func|call}}
tirx.kernel @fast_math(%A: !tirx.tensor<32x1xf32, global>, %y: f32)
    launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>
  tile.apply "ld.global.b32" scope(warp) (%r, %A)
      : !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>, !tirx.tensor<32x1xf32, global>
  %s = tirx.view %r : !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>
                   -> !tirx.tensor<32xf32, local, #tirx.layout<S[32 : 1@laneid]>>
  tile.ewise @everything scope(warp) (%s, %s, %y)
      : !tirx.tensor<32xf32, local, #tirx.layout<S[32 : 1@laneid]>>, !tirx.tensor<32xf32, local, #tirx.layout<S[32 : 1@laneid]>>, f32
  tile.apply "st.global.b32" scope(warp) (%A, %r)
      : !tirx.tensor<32x1xf32, global>, !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>
  tirx.return
}
