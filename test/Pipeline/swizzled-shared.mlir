// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// Per-thread ld/st on a swizzled shared tile (docs/layouts.md): two pipeline
// stages of 8 rows x 128 bytes, the 128B swizzle of 4-byte words
// (Swizzle[2, 3, 3], period 256 words = one stage). Lane t = 4 row + c
// stores its 16-byte chunk c of row `row` in both stages: the address is
// the affine word offset 32 row + 4 c XOR 4 row (chunk c lands in chunk
// c ^ row), and stage 1 is the same pattern 1024 bytes on, the address's
// immediate offset.
// CHECK-LABEL: .visible .entry stage_copy(
// CHECK:      .shared .align 1024 .b8 stage_copy_smem0[2048];
// CHECK:      mov.u32 %[[TID:r[0-9]+]], %tid.x;
// CHECK-NEXT: cvt.u64.u32 %[[TID64:rd[0-9]+]], %[[TID]];
// CHECK-NEXT: mul.wide.u32 %[[T8:rd[0-9]+]], %[[TID]], 8;
// CHECK:      mul.wide.u32 %[[T4:rd[0-9]+]], %[[TID]], 4;
// CHECK-NEXT: and.b64 %[[CHUNK:rd[0-9]+]], %[[T4]], 12;
// CHECK-NEXT: and.b64 %[[ROW:rd[0-9]+]], %[[T8]], 224;
// CHECK-NEXT: or.b64 %[[AFFINE:rd[0-9]+]], %[[CHUNK]], %[[ROW]];
// CHECK-NEXT: and.b64 %[[XOR:rd[0-9]+]], %[[TID64]], 28;
// CHECK-NEXT: xor.b64 %[[WORDS:rd[0-9]+]], %[[AFFINE]], %[[XOR]];
// CHECK-NEXT: shl.b64 %[[BYTES:rd[0-9]+]], %[[WORDS]], 2;
// CHECK-NEXT: mov.b64 %[[BASE:rd[0-9]+]], stage_copy_smem0;
// CHECK-NEXT: add.s64 %[[S:rd[0-9]+]], %[[BASE]], %[[BYTES]];
// CHECK:      st.shared.v4.b32 [%[[S]]], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK:      st.shared.v4.b32 [%[[S]]+1024], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK:      bar.sync 0;
// CHECK:      ld.shared.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%[[S]]];
// CHECK:      ld.shared.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%[[S]]+1024];
#buf = #tirx.layout<S[(2, 8, 32)] + Swizzle[2, 3, 3]>
// Shape (lane, stage, word): lane 4 row + c.
#view = #tirx.layout<S[(8, 4, 2, 4) : (32, 4, 256, 1)] + Swizzle[2, 3, 3]>
#reg = #tirx.layout<S[(8, 4, 2, 4) : (4@laneid, 1@laneid, 4, 1)]>
tirx.kernel @stage_copy(%A: !tirx.tensor<32x2x4xui32, global, align = 16>,
                        %B: !tirx.tensor<32x2x4xui32, global, align = 16>) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x2x4xui32, local, #reg>
  tile.apply "ld.global.v4.b32" scope(warp) (%r, %A) : !tirx.tensor<32x2x4xui32, local, #reg>, !tirx.tensor<32x2x4xui32, global, align = 16>
  %smem = tirx.alloc_shared : !tirx.tensor<2x8x32xui32, shared, #buf, align = 1024>
  %s = tirx.reinterpret %smem : !tirx.tensor<2x8x32xui32, shared, #buf, align = 1024> -> !tirx.tensor<32x2x4xui32, shared, #view, align = 1024>
  tile.apply "st.shared.v4.b32" scope(warp) (%s, %r) : !tirx.tensor<32x2x4xui32, shared, #view, align = 1024>, !tirx.tensor<32x2x4xui32, local, #reg>
  tirx.cta_sync
  %q = tirx.alloc_local : !tirx.tensor<32x2x4xui32, local, #reg>
  tile.apply "ld.shared.v4.b32" scope(warp) (%q, %s) : !tirx.tensor<32x2x4xui32, local, #reg>, !tirx.tensor<32x2x4xui32, shared, #view, align = 1024>
  tile.apply "st.global.v4.b32" scope(warp) (%B, %q) : !tirx.tensor<32x2x4xui32, global, align = 16>, !tirx.tensor<32x2x4xui32, local, #reg>
  tirx.return
}

// ldmatrix from a swizzled tile: 4 rows of 128 bytes, the 64B swizzle of
// words (Swizzle[2, 2, 3], period 128 words = the tile). Lane l writes
// chunk l (row l / 8, chunk l % 8, at word 4 l XOR ((l / 2) & 12)), and
// ldmatrix.x4 reads matrix m from row m: lane l supplies the address of
// matrix l / 8's row l % 8, the same swizzled chunk.
// CHECK-LABEL: .visible .entry ldmatrix_swizzled(
// CHECK:      .shared .align 512 .b8 ldmatrix_swizzled_smem0[512];
// CHECK:      mov.u32 %[[TID:r[0-9]+]], %tid.x;
// CHECK-NEXT: shr.u32 %[[HALF:r[0-9]+]], %[[TID]], 1;
// CHECK-NEXT: mul.wide.u32 %[[T4:rd[0-9]+]], %[[TID]], 4;
// CHECK:      cvt.u64.u32 %[[HALF64:rd[0-9]+]], %[[HALF]];
// CHECK-NEXT: and.b64 %[[XOR:rd[0-9]+]], %[[HALF64]], 12;
// CHECK-NEXT: xor.b64 %[[WORDS:rd[0-9]+]], %[[XOR]], %[[T4]];
// CHECK-NEXT: shl.b64 %[[BYTES:rd[0-9]+]], %[[WORDS]], 2;
// CHECK-NEXT: mov.b64 %[[BASE:rd[0-9]+]], ldmatrix_swizzled_smem0;
// CHECK-NEXT: add.s64 %[[S:rd[0-9]+]], %[[BASE]], %[[BYTES]];
// CHECK:      st.shared.v4.b32 [%[[S]]], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK:      bar.sync 0;
// CHECK:      ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%[[S]]];
#buf4 = #tirx.layout<S[(4, 32)] + Swizzle[2, 2, 3]>
#fill4 = #tirx.layout<S[(32, 4) : (4, 1)] + Swizzle[2, 2, 3]>
#lane4 = #tirx.layout<S[(32, 4) : (1@laneid, 1)]>
#rows4 = #tirx.layout<S[(4, 8, 4) : (32, 4, 1)] + Swizzle[2, 2, 3]>
#ldm4 = #tirx.layout<S[(4, 8, 4) : (1, 4@laneid, 1@laneid)]>
tirx.kernel @ldmatrix_swizzled(%A: !tirx.tensor<32x4xui32, global, align = 16>,
                               %D: !tirx.tensor<32x4xui32, global, align = 16>)
    launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x4xui32, local, #lane4>
  tile.apply "ld.global.v4.b32" scope(warp) (%r, %A) : !tirx.tensor<32x4xui32, local, #lane4>, !tirx.tensor<32x4xui32, global, align = 16>
  %smem = tirx.alloc_shared : !tirx.tensor<4x32xui32, shared, #buf4, align = 512>
  %s = tirx.reinterpret %smem : !tirx.tensor<4x32xui32, shared, #buf4, align = 512> -> !tirx.tensor<32x4xui32, shared, #fill4, align = 512>
  tile.apply "st.shared.v4.b32" scope(warp) (%s, %r) : !tirx.tensor<32x4xui32, shared, #fill4, align = 512>, !tirx.tensor<32x4xui32, local, #lane4>
  tirx.cta_sync
  %v = tirx.reinterpret %smem : !tirx.tensor<4x32xui32, shared, #buf4, align = 512> -> !tirx.tensor<4x8x4xui32, shared, #rows4, align = 512>
  %a = tirx.alloc_local : !tirx.tensor<4x8x4xui32, local, #ldm4>
  tile.apply "ldmatrix.sync.aligned.m8n8.x4.shared.b16" scope(warp) (%a, %v)
      : !tirx.tensor<4x8x4xui32, local, #ldm4>, !tirx.tensor<4x8x4xui32, shared, #rows4, align = 512>
  %o = tirx.reinterpret %a : !tirx.tensor<4x8x4xui32, local, #ldm4> -> !tirx.tensor<32x4xui32, local, #lane4>
  tile.apply "st.global.v4.b32" scope(warp) (%D, %o) : !tirx.tensor<32x4xui32, global, align = 16>, !tirx.tensor<32x4xui32, local, #lane4>
  tirx.return
}

// A swizzle pattern that differs between threads (docs/layouts.md): lane l
// stores row l of two 32-row halves, 8 chunks each, through the 128B
// swizzle, so lane l's chunk j lands in chunk j ^ (l % 8) and no single
// address plus constants reaches every lane's chunks. Repeats fall into one
// address class per chunk j (its XOR pattern); the halves are a constant
// 4096 bytes apart within a class: 8 address registers, each used by both
// halves with the distance as the immediate offset.
// CHECK-LABEL: .visible .entry rows_per_lane(
// CHECK:      mul.wide.u32 %[[L32:rd[0-9]+]], %[[TID:r[0-9]+]], 32;
// CHECK-NEXT: mul.wide.u32 %[[L4:rd[0-9]+]], %[[TID]], 4;
// CHECK-NEXT: and.b64 %[[XOR:rd[0-9]+]], %[[L4]], 28;
// CHECK:      mov.b64 %[[BASE:rd[0-9]+]], rows_per_lane_smem0;
// CHECK:      st.shared.v4.b32 [%[[C0:rd[0-9]+]]], {%r1, %r2, %r3, %r4};
// CHECK:      or.b64 %[[R1:rd[0-9]+]], %[[L32]], 4;
// CHECK-NEXT: xor.b64 %[[W1:rd[0-9]+]], %[[R1]], %[[XOR]];
// CHECK-NEXT: shl.b64 %[[B1:rd[0-9]+]], %[[W1]], 2;
// CHECK-NEXT: add.s64 %[[C1:rd[0-9]+]], %[[BASE]], %[[B1]];
// CHECK:      st.shared.v4.b32 [%[[C1]]], {%r5, %r6, %r7, %r8};
// CHECK:      or.b64 %[[R2:rd[0-9]+]], %[[L32]], 8;
// CHECK-NEXT: xor.b64 %[[W2:rd[0-9]+]], %[[R2]], %[[XOR]];
// CHECK-NEXT: shl.b64 %[[B2:rd[0-9]+]], %[[W2]], 2;
// CHECK-NEXT: add.s64 %[[C2:rd[0-9]+]], %[[BASE]], %[[B2]];
// CHECK:      st.shared.v4.b32 [%[[C2]]], {%r9, %r10, %r11, %r12};
// CHECK:      or.b64 %[[R3:rd[0-9]+]], %[[L32]], 12;
// CHECK-NEXT: xor.b64 %[[W3:rd[0-9]+]], %[[R3]], %[[XOR]];
// CHECK-NEXT: shl.b64 %[[B3:rd[0-9]+]], %[[W3]], 2;
// CHECK-NEXT: add.s64 %[[C3:rd[0-9]+]], %[[BASE]], %[[B3]];
// CHECK:      st.shared.v4.b32 [%[[C3]]], {%r13, %r14, %r15, %r16};
// CHECK:      or.b64 %[[R4:rd[0-9]+]], %[[L32]], 16;
// CHECK-NEXT: xor.b64 %[[W4:rd[0-9]+]], %[[R4]], %[[XOR]];
// CHECK-NEXT: shl.b64 %[[B4:rd[0-9]+]], %[[W4]], 2;
// CHECK-NEXT: add.s64 %[[C4:rd[0-9]+]], %[[BASE]], %[[B4]];
// CHECK:      st.shared.v4.b32 [%[[C4]]], {%r17, %r18, %r19, %r20};
// CHECK:      or.b64 %[[R5:rd[0-9]+]], %[[L32]], 20;
// CHECK-NEXT: xor.b64 %[[W5:rd[0-9]+]], %[[R5]], %[[XOR]];
// CHECK-NEXT: shl.b64 %[[B5:rd[0-9]+]], %[[W5]], 2;
// CHECK-NEXT: add.s64 %[[C5:rd[0-9]+]], %[[BASE]], %[[B5]];
// CHECK:      st.shared.v4.b32 [%[[C5]]], {%r21, %r22, %r23, %r24};
// CHECK:      or.b64 %[[R6:rd[0-9]+]], %[[L32]], 24;
// CHECK-NEXT: xor.b64 %[[W6:rd[0-9]+]], %[[R6]], %[[XOR]];
// CHECK-NEXT: shl.b64 %[[B6:rd[0-9]+]], %[[W6]], 2;
// CHECK-NEXT: add.s64 %[[C6:rd[0-9]+]], %[[BASE]], %[[B6]];
// CHECK:      st.shared.v4.b32 [%[[C6]]], {%r25, %r26, %r27, %r28};
// CHECK:      or.b64 %[[R7:rd[0-9]+]], %[[L32]], 28;
// CHECK-NEXT: xor.b64 %[[W7:rd[0-9]+]], %[[R7]], %[[XOR]];
// CHECK-NEXT: shl.b64 %[[B7:rd[0-9]+]], %[[W7]], 2;
// CHECK-NEXT: add.s64 %[[C7:rd[0-9]+]], %[[BASE]], %[[B7]];
// CHECK:      st.shared.v4.b32 [%[[C7]]], {%r29, %r30, %r31, %r32};
// CHECK:      st.shared.v4.b32 [%[[C0]]+4096], {%r33, %r34, %r35, %r36};
// CHECK:      st.shared.v4.b32 [%[[C1]]+4096], {%r37, %r38, %r39, %r40};
// CHECK:      st.shared.v4.b32 [%[[C2]]+4096], {%r41, %r42, %r43, %r44};
// CHECK:      st.shared.v4.b32 [%[[C3]]+4096], {%r45, %r46, %r47, %r48};
// CHECK:      st.shared.v4.b32 [%[[C4]]+4096], {%r49, %r50, %r51, %r52};
// CHECK:      st.shared.v4.b32 [%[[C5]]+4096], {%r53, %r54, %r55, %r56};
// CHECK:      st.shared.v4.b32 [%[[C6]]+4096], {%r57, %r58, %r59, %r60};
// CHECK:      st.shared.v4.b32 [%[[C7]]+4096], {%r61, %r62, %r63, %r64};
// CHECK-NOT:  st.shared
// CHECK:      ret;
#rows_buf = #tirx.layout<S[(64, 32)] + Swizzle[2, 3, 3]>
#rows_view = #tirx.layout<S[(32, 2, 8, 4) : (32, 1024, 4, 1)] + Swizzle[2, 3, 3]>
#rows_reg = #tirx.layout<S[(32, 2, 8, 4) : (1@laneid, 32, 4, 1)]>
tirx.kernel @rows_per_lane(%A: !tirx.tensor<32x2x8x4xui32, global, align = 16>) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x2x8x4xui32, local, #rows_reg>
  tile.apply "ld.global.v4.b32" scope(warp) (%r, %A) : !tirx.tensor<32x2x8x4xui32, local, #rows_reg>, !tirx.tensor<32x2x8x4xui32, global, align = 16>
  %smem = tirx.alloc_shared : !tirx.tensor<64x32xui32, shared, #rows_buf, align = 1024>
  %s = tirx.reinterpret %smem : !tirx.tensor<64x32xui32, shared, #rows_buf, align = 1024> -> !tirx.tensor<32x2x8x4xui32, shared, #rows_view, align = 1024>
  tile.apply "st.shared.v4.b32" scope(warp) (%s, %r) : !tirx.tensor<32x2x8x4xui32, shared, #rows_view, align = 1024>, !tirx.tensor<32x2x8x4xui32, local, #rows_reg>
  tirx.return
}
