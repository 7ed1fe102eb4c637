// tile.ewise results of a 16-bit float type that share a 32-bit word (read
// back as a ui32 view) are packed by one paired conversion: the f32 inputs
// of slots 2k and 2k+1 become one cvt.rn.{bf16x2|f16x2}.f32, whose first
// source is the UPPER half (slot 2k+1, the higher address) and second the
// lower (slot 2k). No per-element cvt + shl/or. A result alone in its word
// keeps the scalar conversion.
//
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --enable-var-scope < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
#words = #tirx.layout<S[(2, 32, 2) : (1@warpid, 1@laneid, 1)]>
#one = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)]>
#high = #tirx.layout<S[(2, 32, 1) : (1@warpid, 1@laneid, 1)] + 1>

func.func private @to_bf16(%value: f32) -> bf16 {
  %r = arith.truncf %value : f32 to bf16
  return %r : bf16
}

func.func private @to_f16(%value: f32) -> f16 {
  %r = arith.truncf %value : f32 to f16
  return %r : f16
}

// Four floats per thread ⇒ two words: (x1:x0) and (x3:x2).
// CHECK-LABEL: .entry bf16_pairs(
// CHECK-NOT:   {{cvt.rn.bf16.f32|shl.b32|or.b32|cvt.u32.u16}}
// CHECK:       ld.global.v4.b32 {[[X0:%r[0-9]+]], [[X1:%r[0-9]+]], [[X2:%r[0-9]+]], [[X3:%r[0-9]+]]}
// CHECK-NOT:   {{cvt.rn.bf16.f32|shl.b32|or.b32|cvt.u32.u16}}
// CHECK-DAG:   cvt.rn.bf16x2.f32 [[W0:%r[0-9]+]], [[X1]], [[X0]];
// CHECK-DAG:   cvt.rn.bf16x2.f32 [[W1:%r[0-9]+]], [[X3]], [[X2]];
// CHECK-NOT:   {{cvt.rn.bf16.f32|shl.b32|or.b32|cvt.u32.u16}}
// CHECK:       st.global.v2.b32 [%rd{{[0-9]+}}], {[[W0]], [[W1]]};
// CHECK-NEXT:  // end inline asm
// CHECK-NEXT:  ret;
tirx.kernel @bf16_pairs(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                        %B: !tirx.tensor<2x32x2xui32, global, align = 8>)
    launch(grid = [1], block = [64]) {
  %x = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  %y = tirx.alloc_local : !tirx.tensor<2x32x4xbf16, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%x, %A)
      : !tirx.tensor<2x32x4xf32, local, #reg>,
        !tirx.tensor<2x32x4xf32, global, align = 16>
  tile.ewise @to_bf16 scope(cta) (%y, %x)
      : !tirx.tensor<2x32x4xbf16, local, #reg>,
        !tirx.tensor<2x32x4xf32, local, #reg>
  %w = tirx.view %y : !tirx.tensor<2x32x4xbf16, local, #reg>
                   -> !tirx.tensor<2x32x2xui32, local, #words>
  tile.apply "st.global.v2.b32" scope(cta) (%B, %w)
      : !tirx.tensor<2x32x2xui32, global, align = 8>,
        !tirx.tensor<2x32x2xui32, local, #words>
  tirx.return
}

// CHECK-LABEL: .entry f16_pairs(
// CHECK-NOT:   {{cvt.rn.f16.f32|shl.b32|or.b32|cvt.u32.u16}}
// CHECK:       ld.global.v4.b32 {[[X0:%r[0-9]+]], [[X1:%r[0-9]+]], [[X2:%r[0-9]+]], [[X3:%r[0-9]+]]}
// CHECK-NOT:   {{cvt.rn.f16.f32|shl.b32|or.b32|cvt.u32.u16}}
// CHECK-DAG:   cvt.rn.f16x2.f32 [[W0:%r[0-9]+]], [[X1]], [[X0]];
// CHECK-DAG:   cvt.rn.f16x2.f32 [[W1:%r[0-9]+]], [[X3]], [[X2]];
// CHECK-NOT:   {{cvt.rn.f16.f32|shl.b32|or.b32|cvt.u32.u16}}
// CHECK:       st.global.v2.b32 [%rd{{[0-9]+}}], {[[W0]], [[W1]]};
// CHECK-NEXT:  // end inline asm
// CHECK-NEXT:  ret;
tirx.kernel @f16_pairs(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                       %B: !tirx.tensor<2x32x2xui32, global, align = 8>)
    launch(grid = [1], block = [64]) {
  %x = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  %y = tirx.alloc_local : !tirx.tensor<2x32x4xf16, local, #reg>
  tile.apply "ld.global.v4.b32" scope(cta) (%x, %A)
      : !tirx.tensor<2x32x4xf32, local, #reg>,
        !tirx.tensor<2x32x4xf32, global, align = 16>
  tile.ewise @to_f16 scope(cta) (%y, %x)
      : !tirx.tensor<2x32x4xf16, local, #reg>,
        !tirx.tensor<2x32x4xf32, local, #reg>
  %w = tirx.view %y : !tirx.tensor<2x32x4xf16, local, #reg>
                   -> !tirx.tensor<2x32x2xui32, local, #words>
  tile.apply "st.global.v2.b32" scope(cta) (%B, %w)
      : !tirx.tensor<2x32x2xui32, global, align = 8>,
        !tirx.tensor<2x32x2xui32, local, #words>
  tirx.return
}

// One result per thread, stored as 16 bits: the scalar conversion.
// CHECK-LABEL: .entry bf16_single(
// CHECK-NOT:   {{bf16x2|shl.b32|or.b32}}
// CHECK:       ld.global.b32 [[X:%r[0-9]+]],
// CHECK:       cvt.rn.bf16.f32 [[H:%rs[0-9]+]], [[X]];
// CHECK:       st.global.b16 [%rd{{[0-9]+}}], [[H]];
// CHECK-NOT:   {{bf16x2|shl.b32|or.b32}}
// CHECK:       ret;
tirx.kernel @bf16_single(%A: !tirx.tensor<2x32x1xf32, global, align = 4>,
                         %B: !tirx.tensor<2x32x1xui16, global, align = 2>)
    launch(grid = [1], block = [64]) {
  %x = tirx.alloc_local : !tirx.tensor<2x32x1xf32, local, #one>
  %y = tirx.alloc_local : !tirx.tensor<2x32x1xbf16, local, #one>
  tile.apply "ld.global.b32" scope(cta) (%x, %A)
      : !tirx.tensor<2x32x1xf32, local, #one>,
        !tirx.tensor<2x32x1xf32, global, align = 4>
  tile.ewise @to_bf16 scope(cta) (%y, %x)
      : !tirx.tensor<2x32x1xbf16, local, #one>,
        !tirx.tensor<2x32x1xf32, local, #one>
  %h = tirx.view %y : !tirx.tensor<2x32x1xbf16, local, #one>
                   -> !tirx.tensor<2x32x1xui16, local, #one>
  tile.apply "st.global.b16" scope(cta) (%B, %h)
      : !tirx.tensor<2x32x1xui16, global, align = 2>,
        !tirx.tensor<2x32x1xui16, local, #one>
  tirx.return
}

// Only the low half of each word is an ewise result (the high half is a
// loaded bf16): the result keeps its scalar conversion, and the word is
// assembled from the two 16-bit registers (low half first), not by shl/or.
// CHECK-LABEL: .entry bf16_half_word(
// CHECK-NOT:   {{bf16x2|shl.b32|or.b32}}
// CHECK:       ld.global.b32 [[X:%r[0-9]+]],
// CHECK-DAG:   cvt.rn.bf16.f32 [[LO:%rs[0-9]+]], [[X]];
// CHECK-DAG:   ld.global.b16 [[HI:%rs[0-9]+]],
// CHECK:       mov.b32 [[W:%r[0-9]+]], {[[LO]], [[HI]]};
// CHECK:       st.global.b32 [%rd{{[0-9]+}}], [[W]];
// CHECK-NOT:   {{bf16x2|shl.b32|or.b32}}
// CHECK:       ret;
tirx.kernel @bf16_half_word(%A: !tirx.tensor<2x32x1xf32, global, align = 4>,
                            %H: !tirx.tensor<2x32x1xui16, global, align = 2>,
                            %B: !tirx.tensor<2x32x1xui32, global, align = 4>)
    launch(grid = [1], block = [64]) {
  %x = tirx.alloc_local : !tirx.tensor<2x32x1xf32, local, #one>
  %y = tirx.alloc_local : !tirx.tensor<2x32x2xbf16, local, #words>
  tile.apply "ld.global.b32" scope(cta) (%x, %A)
      : !tirx.tensor<2x32x1xf32, local, #one>,
        !tirx.tensor<2x32x1xf32, global, align = 4>
  %lo = tirx.region %y [0, 0, 0] [2, 32, 1]
      : !tirx.tensor<2x32x2xbf16, local, #words>
  tile.ewise @to_bf16 scope(cta) (%lo, %x)
      : !tirx.tensor<2x32x1xbf16, local, #one>,
        !tirx.tensor<2x32x1xf32, local, #one>
  %bits = tirx.view %y : !tirx.tensor<2x32x2xbf16, local, #words>
                      -> !tirx.tensor<2x32x2xui16, local, #words>
  %hi = tirx.region %bits [0, 0, 1] [2, 32, 1]
      : !tirx.tensor<2x32x2xui16, local, #words>
  tile.apply "ld.global.b16" scope(cta) (%hi, %H)
      : !tirx.tensor<2x32x1xui16, local, #high>,
        !tirx.tensor<2x32x1xui16, global, align = 2>
  %w = tirx.view %y : !tirx.tensor<2x32x2xbf16, local, #words>
                   -> !tirx.tensor<2x32x1xui32, local, #one>
  tile.apply "st.global.b32" scope(cta) (%B, %w)
      : !tirx.tensor<2x32x1xui32, global, align = 4>,
        !tirx.tensor<2x32x1xui32, local, #one>
  tirx.return
}
