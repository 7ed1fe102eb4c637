// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown axis 'lane'; expected one of laneid}}
func.func private @unknown_axis() attributes {l = #tirx.layout<S[32 : 1@lane]>}

// -----

// expected-error @+1 {{invalid layout: shard iter 1 has extent 0; extents must be positive}}
func.func private @zero_extent() attributes {l = #tirx.layout<S[(4, 0) : (1, 1)]>}

// -----

// expected-error @+1 {{invalid layout: shard iter 0 has extent -4; extents must be positive}}
func.func private @negative_extent() attributes {l = #tirx.layout<S[-4]>}

// -----

// expected-error @+1 {{invalid layout: shard term S[...] has 2 extents but 1 strides; give one stride per extent}}
func.func private @stride_count() attributes {l = #tirx.layout<S[(4, 8) : (1)]>}

// -----

// expected-error @+1 {{invalid layout: layout size overflows int64 (product of the shard extents)}}
func.func private @size_overflow() attributes {l = #tirx.layout<S[(4611686018427387904, 4)]>}

// -----

// expected-error @+1 {{invalid layout: span on axis m overflows int64}}
func.func private @span_overflow() attributes {l = #tirx.layout<S[(4, 4) : (4611686018427387904, 1)]>}

// -----

// expected-error @+1 {{invalid layout: shard iter 0 has stride -1; strides must be non-negative}}
func.func private @negative_stride() attributes {l = #tirx.layout<S[4 : -1]>}

// -----

// expected-error @+1 {{a layout has at most one R[...] term}}
func.func private @two_replicas() attributes {l = #tirx.layout<S[4] + R[2 : 1@warpid] + R[2 : 2@warpid]>}

// -----

// expected-error @+1 {{expected 'S'}}
func.func private @no_shard() attributes {l = #tirx.layout<R[2 : 1@warpid]>}

// -----

// expected-error @+1 {{unbalanced '[' character in pretty dialect name}}
func.func private @unclosed() attributes {l = #tirx.layout<S[(4, 8) : (8, 1)>}

// -----

// expected-error @+1 {{integer value too large}}
func.func private @huge_integer() attributes {l = #tirx.layout<S[99999999999999999999999]>}

// -----

// expected-error @+1 {{grid extent x = 0 is out of range [1, 2147483647]}}
func.func private @bad_launch() attributes {l = #tirx.launch<grid = [0], block = [64]>}

// -----

// expected-error @+1 {{block has 2048 threads; at most 1024 are allowed}}
func.func private @too_many_threads() attributes {l = #tirx.launch<grid = [1], block = [1024, 2]>}

// -----

// expected-error @+1 {{block must have 1 to 3 extents, got 4}}
func.func private @too_many_dims() attributes {l = #tirx.launch<grid = [1], block = [1, 1, 1, 1]>}

// -----

// expected-error @+1 {{block extent z = 65 is out of range [1, 64]}}
func.func private @block_z() attributes {l = #tirx.launch<grid = [1], block = [1, 1, 65]>}
