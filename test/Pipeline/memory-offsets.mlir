// RUN: tirx-opt %s --tirx-to-ptx=ptx-output=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// The repeats of a memory instruction share one address register; each
// carries its constant distance from the first as the address's immediate
// offset, in the order of the repeats (here a permuting layout:
// S[(2, 4) : (1, 2)] puts the 8 elements at floats 0, 2, 4, 6, 1, 3, 5, 7).
// CHECK-LABEL: .visible .entry strided(
// CHECK: ld.global.b32 %r{{[0-9]+}}, [%rd[[A:[0-9]+]]];
// CHECK: ld.global.b32 %r{{[0-9]+}}, [%rd[[A]]+8];
// CHECK: ld.global.b32 %r{{[0-9]+}}, [%rd[[A]]+16];
// CHECK: ld.global.b32 %r{{[0-9]+}}, [%rd[[A]]+24];
// CHECK: ld.global.b32 %r{{[0-9]+}}, [%rd[[A]]+4];
// CHECK: ld.global.b32 %r{{[0-9]+}}, [%rd[[A]]+12];
// CHECK: ld.global.b32 %r{{[0-9]+}}, [%rd[[A]]+20];
// CHECK: ld.global.b32 %r{{[0-9]+}}, [%rd[[A]]+28];
tirx.kernel @strided(%A: !tirx.tensor<4x2x1xf32, global, #tirx.layout<S[(2, 4) : (1, 2)]>>) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4x2x1xf32, local>
  tile.apply "ld.global.b32" scope(thread) (%r, %A) : !tirx.tensor<4x2x1xf32, local>, !tirx.tensor<4x2x1xf32, global, #tirx.layout<S[(2, 4) : (1, 2)]>>
  tirx.return
}

// At warp scope the thread's part of the address is computed once; the
// repeats of warp w, lane l sit 512 bytes apart.
// CHECK-LABEL: .visible .entry repeats(
// CHECK: ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd[[B:[0-9]+]]];
// CHECK: ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd[[B]]+512];
// CHECK: ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd[[B]]+1024];
// CHECK: ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd[[B]]+1536];
// CHECK: st.global.v4.b32 [%rd[[C:[0-9]+]]], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: st.global.v4.b32 [%rd[[C]]+512],
// CHECK: st.global.v4.b32 [%rd[[C]]+1024],
// CHECK: st.global.v4.b32 [%rd[[C]]+1536],
#chunk = #tirx.layout<S[(32, 4, 4) : (4, 128, 1)]>
#reg = #tirx.layout<S[(32, 4, 4) : (1@laneid, 4, 1)]>
tirx.kernel @repeats(%A: !tirx.tensor<32x4x4xf32, global, #chunk, align = 16>,
                     %B: !tirx.tensor<32x4x4xf32, global, #chunk, align = 16>) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x4x4xf32, local, #reg>
  tile.apply "ld.global.v4.b32" scope(warp) (%r, %A) : !tirx.tensor<32x4x4xf32, local, #reg>, !tirx.tensor<32x4x4xf32, global, #chunk, align = 16>
  tile.apply "st.global.v4.b32" scope(warp) (%B, %r) : !tirx.tensor<32x4x4xf32, global, #chunk, align = 16>, !tirx.tensor<32x4x4xf32, local, #reg>
  tirx.return
}
