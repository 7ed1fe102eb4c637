// lop3 and prmt through tile.apply (docs/ptx-instructions.md, "lop3 /
// prmt"): the truth table written into the instruction, immediates and
// modes as PTX spells them: exact PTX, assembled by ptxas at sm_90.
// RUN: tirx-opt %s --tirx-to-ptx="chip=sm_90 ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --enable-var-scope < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

!G = !tirx.tensor<64xui32, global, align = 4>
!g = !tirx.tensor<1xui32, global, #tirx.layout<S[1 : 1]>, align = 4>
!r = !tirx.tensor<1xui32, local>

// CHECK-LABEL: .entry bit_ops(
// CHECK: ld.global.b32 [[A:%r[0-9]+]], {{\[}}%rd{{[0-9]+}}{{\]}};
// CHECK: ld.global.b32 [[B:%r[0-9]+]], {{\[}}%rd{{[0-9]+}}{{\]}};
// c ? a : b, bitwise: the truth table 0xE4 of (a, b, c) = (0xF0, 0xCC, 0xAA).
// CHECK: lop3.b32 [[L:%r[0-9]+]], [[A]], [[B]], 0x0000FF00, 228;
// CHECK: prmt.b32 [[P:%r[0-9]+]], [[L]], [[B]], 0x00003210;
// CHECK: prmt.b32.rc8 [[Q:%r[0-9]+]], [[P]], 0x00000000, 0x00000001;
// CHECK: st.global.b32 {{\[}}%rd{{[0-9]+}}{{\]}}, [[Q]];
tirx.kernel @bit_ops(%X: !G) launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %second = arith.addi %tx, %c32 : index
  %a_in = tirx.region %X[%tx] [1] : !G
  %b_in = tirx.region %X[%second] [1] : !G
  %a = tirx.alloc_local : !r
  %b = tirx.alloc_local : !r
  tile.apply "ld.global.b32" scope(thread) (%a, %a_in) : !r, !g
  tile.apply "ld.global.b32" scope(thread) (%b, %b_in) : !r, !g
  tile.apply "lop3.b32" scope(thread) (%a, %a, %b, 65280 : i32, 228 : i32) : !r, !r, !r
  tile.apply "prmt.b32" scope(thread) (%a, %a, %b, 12816 : i32) : !r, !r, !r
  tile.apply "prmt.b32.rc8" scope(thread) (%a, %a, 0 : i32, 1 : i32) : !r, !r
  tile.apply "st.global.b32" scope(thread) (%a_in, %a) : !g, !r
  tirx.return
}
