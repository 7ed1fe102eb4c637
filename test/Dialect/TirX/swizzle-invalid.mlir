// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// Rejections of swizzled layouts (docs/layouts.md): shared tensors only,
// valid parameters, regions and reinterpretations at multiples of the
// period, and per-thread memory instructions only where every group sees the
// same swizzle pattern.

// expected-error @+1 {{a swizzled layout is for shared memory (the way TMA and wgmma store tiles), but #tirx.layout<S[64 : 1] + Swizzle[1, 2, 3]> is on a global tensor}}
func.func private @global(!tirx.tensor<64xf16, global, #tirx.layout<S[64] + Swizzle[1, 2, 3]>>)

// -----

// expected-error @+1 {{a swizzled layout is for shared memory (the way TMA and wgmma store tiles), but #tirx.layout<S[64 : 1] + Swizzle[1, 2, 3]> is on a local tensor}}
func.func private @local(!tirx.tensor<64xf16, local, #tirx.layout<S[64] + Swizzle[1, 2, 3]>>)

// -----

// expected-error @+1 {{invalid layout: swizzle atom_len 2 is less than swizzle_len 3; the two XOR groups would overlap}}
func.func private @overlap(!tirx.tensor<64xf16, shared, #tirx.layout<S[64] + Swizzle[0, 3, 2]>>)

// -----

// expected-error @+1 {{invalid layout: swizzle per_element is -1; it must be non-negative}}
func.func private @negative(!tirx.tensor<64xf16, shared, #tirx.layout<S[64] + Swizzle[-1, 3, 3]>>)

// -----

// expected-error @+1 {{a layout has at most one Swizzle[...] term}}
func.func private @twice(!tirx.tensor<64xf16, shared, #tirx.layout<S[64] + Swizzle[0, 1, 3] + Swizzle[0, 1, 3]>>)

// -----

// expected-error @+1 {{expected 'inner' or 'outer' after the swizzle's counts, found 'left'}}
func.func private @side(!tirx.tensor<64xf16, shared, #tirx.layout<S[64] + Swizzle[0, 1, 3, left]>>)

// -----

#sw = #tirx.layout<S[(64, 64)] + Swizzle[3, 3, 3]>
tirx.kernel @region_off_period() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<64x64xf16, shared, #sw, align = 1024>
  // expected-error @+1 {{a region of a swizzled tensor must start at a multiple of the swizzle period (512 elements), but it starts at element 256}}
  %r = tirx.region %s[4, 0] [4, 64] : !tirx.tensor<64x64xf16, shared, #sw, align = 1024>
  tirx.return
}

// -----

#sw = #tirx.layout<S[(64, 64)] + Swizzle[3, 3, 3]>
tirx.kernel @region_dynamic_row() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<64x64xf16, shared, #sw, align = 1024>
  %tx = tirx.thread_idx x
  // expected-error @+1 {{a region of a swizzled tensor must start at a multiple of the swizzle period (512 elements), but a dynamic offset moves it by multiples of 64 elements}}
  %r = tirx.region %s[%tx, 0] [1, 64] : !tirx.tensor<64x64xf16, shared, #sw, align = 1024>
  tirx.return
}

// -----

// The source starts at position 64 (a static region); a swizzled layout
// starting at 128 may place elements from 0 on (the swizzle permutes whole
// periods), before it.
tirx.kernel @reinterpret_off_period() launch(grid = [1], block = [32]) {
  %s = tirx.alloc_shared : !tirx.tensor<2048xf16, shared, align = 1024>
  %r = tirx.region %s[64] [1536] : !tirx.tensor<2048xf16, shared, align = 1024>
  // expected-error @+1 {{a swizzled result layout starting at storage position 128 may place elements from position 0 on (its swizzle permutes periods of 512 elements), but the source's storage starts at 64}}
  %v = tirx.reinterpret %r : !tirx.tensor<1536xf16, shared, #tirx.layout<S[1536 : 1] + 64>, align = 1024>
      -> !tirx.tensor<8x64xf16, shared, #tirx.layout<S[(8, 64)] + 128 + Swizzle[3, 3, 3]>, align = 1024>
  tirx.return
}

