// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{dimension 1 has extent 0; extents must be positive}}
func.func private @zero_extent(!tirx.tensor<2x0xf32, global>)

// -----

// expected-error @+1 {{unknown memory space 'texture'; expected global, shared or local}}
func.func private @bad_space(!tirx.tensor<4xf32, texture>)

// -----

// expected-error @+1 {{element type 'vector<2xf32>' is not a scalar type}}
func.func private @bad_element(!tirx.tensor<4xvector<2xf32>, global>)

// -----

// expected-error @+1 {{an i1 (predicate) tensor lives in registers and must be local, not global}}
func.func private @bool_element(!tirx.tensor<4xi1, global>)

// -----

// expected-error @+1 {{an i1 (predicate) tensor lives in registers and must be local, not shared}}
func.func private @bool_shared(!tirx.tensor<4xi1, shared>)

// -----

// expected-error @+1 {{element type 'i2' is not a scalar type}}
func.func private @two_bit_element(!tirx.tensor<4xi2, local>)

// -----

// expected-error @+1 {{align = 12 is not a power of two}}
func.func private @bad_align(!tirx.tensor<4xf32, global, align = 12>)

// -----

// expected-error @+1 {{align must be positive}}
func.func private @zero_align(!tirx.tensor<4xf32, global, align = 0>)

// -----

// expected-error @+1 {{expected a #tirx.layout or 'align = N', got 5 : i64}}
func.func private @bad_trailing(!tirx.tensor<4xf32, global, 5>)

// -----

// expected-error @+1 {{tensor element count overflows int64}}
func.func private @overflow(!tirx.tensor<4294967296x4294967296xf32, global>)

// -----

// expected-error @+1 {{tensor byte size overflows int64}}
func.func private @byte_overflow(!tirx.tensor<2305843009213693952xf64, global>)

// -----

// expected-error @+1 {{has 16 elements but the shape has 8}}
func.func private @size_mismatch(!tirx.tensor<8xf32, local, #tirx.layout<S[(4, 4) : (1@laneid, 1)]>>)

// -----

// expected-error @+1 {{a global tensor's layout may use only the memory axis m}}
func.func private @thread_axis_in_global(!tirx.tensor<32x4xf32, global, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>)

// -----

// expected-error @+1 {{a shared tensor's layout may use only the memory axis m}}
func.func private @thread_axis_in_shared(!tirx.tensor<32xf32, shared, #tirx.layout<S[32 : 1@tx]>>)

// -----

// expected-error @+1 {{a local layout cannot replicate along the memory axis m}}
func.func private @replica_on_m(!tirx.tensor<4xf32, local, #tirx.layout<S[4 : 1] + R[2 : 4]>>)

// -----

// expected-error @+1 {{a local layout cannot distribute over block axis bx; registers belong to threads of one CTA}}
func.func private @block_axis(!tirx.tensor<4xf32, local, #tirx.layout<S[4 : 1@bx]>>)

// -----

// expected-error @+1 {{layout #tirx.layout<S[(32, 4) : (1@laneid, 1@wgid)]> is not well formed: disconnected scope chain: laneid (thread -> warp), wgid (warpgroup -> cta) do not form a single chain from thread outward}}
func.func private @disconnected(!tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1@wgid)]>>)

// -----

// expected-error @+1 {{layout #tirx.layout<S[(32, 32) : (1@laneid, 1@tid_in_wg)]> is not well formed: conflicting scopes: laneid maps thread to warp but tid_in_wg maps it to warpgroup}}
func.func private @conflicting(!tirx.tensor<32x32xf32, local, #tirx.layout<S[(32, 32) : (1@laneid, 1@tid_in_wg)]>>)

// -----

// expected-error @+1 {{tensor must have at least one dimension}}
func.func private @rank_zero(!tirx.tensor<f32, global>)

// -----

// expected-error @+1 {{element type 'index' is not a scalar type (f16, bf16, f32, f64, an integer of 8, 16, 32 or 64 bits, or i1 for predicates)}}
func.func private @f(!tirx.tensor<4xindex, global>)

// -----

// expected-error @+1 {{a global tensor's layout may use only the memory axis m, but #tirx.layout<S[32 : 1@laneid]> uses thread axes}}
func.func private @f(!tirx.tensor<32xf32, global, #tirx.layout<S[32 : 1@laneid]>>)

// -----

// expected-error @+1 {{a local layout cannot replicate along the memory axis m (one element, one slot)}}
func.func private @f(!tirx.tensor<4xf32, local, #tirx.layout<S[4 : 1] + R[2 : 4]>>)
