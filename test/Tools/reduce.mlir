// RUN: tirx-reduce %s -reduction-tree='traversal-mode=0 test=%S/Inputs/ptx-has-max-one.sh' 2> %t.log | FileCheck %s
// The reducer with the TirX dialects: it keeps what the test script is
// interested in (a max.f32 with 1.0 in the PTX) and drops what it can.

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
!scalars = !tirx.tensor<2x32x4x1xf32, local, #reg>
!global = !tirx.tensor<2x32x4xf32, global, align = 16>

// The kernel of no interest and the load whose value does not matter go;
// the max against 1.0 and the store that keeps it alive stay.
// CHECK-NOT:   @drop
// CHECK-LABEL: tirx.kernel @keep
// CHECK-NOT:   ld.global
// CHECK:       tile.apply "max.f32" scope(cta) (%{{.*}}, %{{.*}}, 1.000000e+00 : f32)
// CHECK-NEXT:  tile.apply "st.global.v4.b32"
// CHECK-NEXT:  tirx.return
tirx.kernel @drop() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !scalars
  tile.apply "max.f32" scope(cta) (%r, %r, 0.0 : f32) : !scalars, !scalars
  tirx.return
}

tirx.kernel @keep(%A: !global, %B: !global) launch(grid = [1], block = [64]) {
  %t = tirx.alloc_local : !regs
  tile.apply "ld.global.v4.b32" scope(cta) (%t, %A) : !regs, !global
  %r = tirx.view %t : !regs -> !scalars
  tile.apply "fma.rn.f32" scope(cta) (%r, %r, 2.0 : f32, 1.0 : f32) : !scalars, !scalars
  tile.apply "max.f32" scope(cta) (%r, %r, 0.0 : f32) : !scalars, !scalars
  tile.apply "max.f32" scope(cta) (%r, %r, 1.0 : f32) : !scalars, !scalars
  tile.apply "st.global.v4.b32" scope(cta) (%B, %t) : !global, !regs
  tirx.return
}
