// RUN: tirx-opt %s -split-input-file -verify-diagnostics

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>

tirx.kernel @unknown_symbol() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  // expected-error @+1 {{callee @nothing does not name a func.func}}
  tile.ewise @nothing scope(cta) (%r, %r) : !regs, !regs
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
func.func private @vector_param(%x: vector<2xf32>) -> f32 {
  %c = arith.constant 0.0 : f32
  return %c : f32
}
tirx.kernel @non_scalar_param() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  // expected-error @+1 {{callee @vector_param must take scalars, but parameter #0 has type 'vector<2xf32>'}}
  tile.ewise @vector_param scope(cta) (%r, %r) : !regs, !regs
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
func.func private @two_results(%x: f32) -> (f32, f32) {
  return %x, %x : f32, f32
}
tirx.kernel @non_scalar_result() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  // expected-error @+1 {{callee @two_results must return exactly one scalar, but returns 'f32', 'f32'}}
  tile.ewise @two_results scope(cta) (%r, %r) : !regs, !regs
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
func.func private @declared(%x: f32) -> f32
tirx.kernel @no_body() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  // expected-error @+1 {{callee @declared has no body to inline}}
  tile.ewise @declared scope(cta) (%r, %r) : !regs, !regs
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
func.func private @id(%x: f32) -> f32 {
  return %x : f32
}
tirx.kernel @wrong_arity() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  // expected-error @+1 {{callee @id takes 1 argument(s), so the op needs 2 operands (destination first), got 3}}
  tile.ewise @id scope(cta) (%r, %r, %r) : !regs, !regs, !regs
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
func.func private @id(%x: f32) -> f32 {
  return %x : f32
}
tirx.kernel @input_type_mismatch() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  %h = tirx.alloc_local : !tirx.tensor<2x32x4xf16, local, #reg>
  // expected-error @+1 {{operand #1 has element type 'f16' but the callee's parameter is 'f32'; ewise performs no implicit casts}}
  tile.ewise @id scope(cta) (%r, %h) : !regs, !tirx.tensor<2x32x4xf16, local, #reg>
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
func.func private @id(%x: f32) -> f32 {
  return %x : f32
}
tirx.kernel @result_type_mismatch() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  %h = tirx.alloc_local : !tirx.tensor<2x32x4xf16, local, #reg>
  // expected-error @+1 {{operand #0 has element type 'f16' but the callee returns 'f32'; ewise performs no implicit casts}}
  tile.ewise @id scope(cta) (%h, %r) : !tirx.tensor<2x32x4xf16, local, #reg>, !regs
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
func.func private @add(%x: f32, %y: f32) -> f32 {
  %z = arith.addf %x, %y : f32
  return %z : f32
}
tirx.kernel @scalar_type_mismatch() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  // expected-error @+1 {{operand #2 has element type 'f64' but the callee's parameter is 'f32'}}
  tile.ewise @add scope(cta) (%r, %r, 1.0 : f64) : !regs, !regs
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
func.func private @add(%x: f32, %y: f32) -> f32 {
  %z = arith.addf %x, %y : f32
  return %z : f32
}
tirx.kernel @shape_mismatch() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  %s = tirx.alloc_local : !tirx.tensor<2x32x2xf32, local, #tirx.layout<S[(2, 32, 2) : (1@warpid, 1@laneid, 1)]>>
  // expected-error @+1 {{operand #2 (input #2): group x repeat shape (2, 32, 2) differs from (2, 32, 4) of operand #0 (destination)}}
  tile.ewise @add scope(cta) (%r, %r, %s) : !regs, !regs, !tirx.tensor<2x32x2xf32, local, #tirx.layout<S[(2, 32, 2) : (1@warpid, 1@laneid, 1)]>>
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
func.func private @id(%x: f32) -> f32 {
  return %x : f32
}
tirx.kernel @ownership_mismatch() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  %t = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (32@tx, 1@tx, 1)]>>
  %u = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@laneid, 2@laneid, 1)]>>
  // expected-error @+1 {{operand #1 (input #1): element (0, 1, 0) is owned by laneid=2 but scope cta executes it on thread 1}}
  tile.ewise @id scope(cta) (%t, %u) : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (32@tx, 1@tx, 1)]>>, !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@laneid, 2@laneid, 1)]>>
  tirx.return
}

// -----

func.func private @id(%x: f32) -> f32 {
  return %x : f32
}
tirx.kernel @global_operand(%A: !tirx.tensor<2x32x4xf32, global>) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
  // expected-error @+1 {{operand #1 must be a local tensor, got a global tensor}}
  tile.ewise @id scope(cta) (%r, %A) : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>, !tirx.tensor<2x32x4xf32, global>
  tirx.return
}

// -----

tirx.kernel @global_destination(%A: !tirx.tensor<2x32x4xf32, global>) launch(grid = [1], block = [64]) {
  // expected-error @+1 {{destination (operand #0) must be a local tensor}}
  tile.ewise @id scope(cta) (%A, %A) : !tirx.tensor<2x32x4xf32, global>, !tirx.tensor<2x32x4xf32, global>
  tirx.return
}

// -----

func.func private @id(%x: f32) -> f32 {
  return %x : f32
}
tirx.kernel @aliased_destination() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 0)]>>
  // expected-error @+1 {{destination elements (0, 0) and (0, 1) share register slot 0 of one thread}}
  tile.ewise @id scope(warp) (%r, 1.0 : f32) : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 0)]>>
  tirx.return
}

// -----

func.func private @branchy(%x: f32) -> f32 {
  cf.br ^next
^next:
  return %x : f32
}
tirx.kernel @multi_block_callee() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-error @+1 {{callee @branchy must have a single block (use scf.if or arith.select for branches)}}
  tile.ewise @branchy scope(thread) (%r, %r) : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, local>
  tirx.return
}

// -----

func.func private @even(%x: f32) -> f32 {
  %y = func.call @odd(%x) : (f32) -> f32
  return %y : f32
}
func.func private @odd(%x: f32) -> f32 {
  %y = func.call @even(%x) : (f32) -> f32
  return %y : f32
}
tirx.kernel @recursion() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-error @+1 {{scalar functions cannot be recursive: @even -> @odd -> @even}}
  tile.ewise @even scope(thread) (%r, %r) : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, local>
  tirx.return
}

// -----

func.func private @loads(%x: f32) -> f32 {
  %t = gpu.thread_id x
  return %x : f32
}
tirx.kernel @memory_in_body() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-error @+1 {{callee @loads contains 'gpu.thread_id'; a scalar function may use only arith and math ops, scf.if and calls to other scalar functions}}
  tile.ewise @loads scope(thread) (%r, %r) : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, local>
  tirx.return
}

// -----

func.func private @vector_helper(%x: vector<2xf32>) -> f32 {
  %c = arith.constant 0.0 : f32
  return %c : f32
}
func.func private @calls_vector(%x: f32) -> f32 {
  %v = llvm.mlir.undef : vector<2xf32>
  %y = func.call @vector_helper(%v) : (vector<2xf32>) -> f32
  return %y : f32
}
tirx.kernel @bad_helper() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-error @+1 {{callee @calls_vector contains 'llvm.mlir.undef'; a scalar function may use only arith and math ops, scf.if and calls to other scalar functions}}
  tile.ewise @calls_vector scope(thread) (%r, %r) : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, local>
  tirx.return
}

// -----

func.func private @vector_helper(%x: vector<2xf32>) -> f32 {
  %c = arith.constant 0.0 : f32
  return %c : f32
}
func.func private @calls_helper(%x: f32) -> f32 {
  %y = func.call @vector_helper(%x) : (f32) -> f32
  return %y : f32
}
tirx.kernel @bad_helper_signature() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-error @+1 {{callee @vector_helper must take scalars, but parameter #0 has type 'vector<2xf32>'}}
  tile.ewise @calls_helper scope(thread) (%r, %r) : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, local>
  tirx.return
}

// -----

func.func private @id(%x: f32) -> f32 {
  return %x : f32
}
tirx.kernel @ewise_no_operands() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tile.ewise' op needs a destination tensor}}
  tile.ewise @id scope(thread) ()
  tirx.return
}

// -----

func.func private @id(%x: f32) -> f32 {
  return %x : f32
}
tirx.kernel @ewise_global_destination(%A: !tirx.tensor<4xf32, global>) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-error @+1 {{'tile.ewise' op destination (operand #0) must be a local tensor, got '!tirx.tensor<4xf32, global>'}}
  tile.ewise @id scope(thread) (%A, %r) : !tirx.tensor<4xf32, global>, !tirx.tensor<4xf32, local>
  tirx.return
}
