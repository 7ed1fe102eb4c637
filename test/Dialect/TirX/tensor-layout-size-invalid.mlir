// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// A tensor's layout covers exactly its shape's elements; the error names the
// layout and both counts.

// expected-error @+1 {{layout #tirx.layout<S[16 : 1]> has 16 elements but the shape has 8}}
func.func private @too_many(!tirx.tensor<8xf32, global, #tirx.layout<S[16 : 1]>>)

// -----

// expected-error @+1 {{layout #tirx.layout<S[(2, 2) : (2, 1)]> has 4 elements but the shape has 8}}
func.func private @too_few(!tirx.tensor<2x4xf32, shared, #tirx.layout<S[(2, 2) : (2, 1)]>>)
