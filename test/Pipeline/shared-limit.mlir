// A kernel's shared tensors must fit the shared memory its chip gives one
// block (docs/lowering.md): 227 KiB (232448 bytes) on sm_90a, 163 KiB
// (166912) on sm_80. Past it the kernel would compile and fail at launch;
// tirx-lower-tensors refuses it on the first alloc_shared that crosses the
// limit, naming the total, the chip and its limit. A kernel at the limit
// exactly compiles.
// RUN: tirx-opt %s -split-input-file --tirx-to-ptx="chip=sm_90a ptx-output=%t.ptx" -verify-diagnostics -o /dev/null
// RUN: not tirx-opt %s -split-input-file --tirx-to-ptx="chip=sm_80 ptx-output=%t80.ptx" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80

// 160 KiB of f32, then 82000 bytes: 245840 in all; the second crosses.
// SM80: error: 'tirx.alloc_shared' op the kernel's shared tensors need 245840 bytes of shared memory, but sm_80 gives a block at most 166912 (163 KiB), and this allocation crosses it
// SM80: error: 'tirx.alloc_shared' op the kernel's shared tensors need 232448 bytes of shared memory, but sm_80 gives a block at most 166912 (163 KiB), and this allocation crosses it
!r = !tirx.tensor<32x1xui8, local, #tirx.layout<S[(32, 1) : (1@laneid, 1)]>>
!g = !tirx.tensor<32x1xui8, global>
!v = !tirx.tensor<32x1xui8, shared, align = 16>
// expected-note @+1 {{the kernel}}
tirx.kernel @too_big(%B: !g) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<163840xui8, shared, align = 16>
  // expected-error @+1 {{'tirx.alloc_shared' op the kernel's shared tensors need 245840 bytes of shared memory, but sm_90a gives a block at most 232448 (227 KiB), and this allocation crosses it}}
  %t = tirx.alloc_shared : !tirx.tensor<82000xui8, shared, align = 16>
  %q = tirx.alloc_local : !r
  tile.apply "ld.global.b8" scope(warp) (%q, %B) : !r, !g
  %sv = tirx.reinterpret %s : !tirx.tensor<163840xui8, shared, align = 16> -> !v
  tile.apply "st.shared.b8" scope(warp) (%sv, %q) : !v, !r
  %tv = tirx.reinterpret %t : !tirx.tensor<82000xui8, shared, align = 16> -> !v
  tile.apply "st.shared.b8" scope(warp) (%tv, %q) : !v, !r
  tirx.return
}

// -----

// 227 KiB exactly: fits sm_90a.
!r = !tirx.tensor<32x1xui8, local, #tirx.layout<S[(32, 1) : (1@laneid, 1)]>>
!g = !tirx.tensor<32x1xui8, global>
!v = !tirx.tensor<32x1xui8, shared, align = 16>
tirx.kernel @at_limit(%B: !g) launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<163840xui8, shared, align = 16>
  %t = tirx.alloc_shared : !tirx.tensor<68608xui8, shared, align = 16>
  %q = tirx.alloc_local : !r
  tile.apply "ld.global.b8" scope(warp) (%q, %B) : !r, !g
  %sv = tirx.reinterpret %s : !tirx.tensor<163840xui8, shared, align = 16> -> !v
  tile.apply "st.shared.b8" scope(warp) (%sv, %q) : !v, !r
  %tv = tirx.reinterpret %t : !tirx.tensor<68608xui8, shared, align = 16> -> !v
  tile.apply "st.shared.b8" scope(warp) (%tv, %q) : !v, !r
  tirx.return
}
