// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// Rejections of atom and red (docs/atomics.md): ptxas's types per operation,
// the orderings and operations each family has, operand roles, element
// types (a signless scalar fits either signedness of its width; a tensor's
// element type is exact), state spaces, floors.

!C = !tirx.tensor<1xi32, global, align = 4>
!r = !tirx.tensor<1xi32, local>
tirx.kernel @inc_signed(%C: !C) launch(grid = [1], block = [32]) {
  %old = tirx.alloc_local : !r
  // expected-error @+1 {{'atom.global.inc.s32': .inc takes .u32, got .s32}}
  tile.apply "atom.global.inc.s32" scope(thread) (%old, %C, 1 : i32) : !r, !C
  tirx.return
}

// -----

!C = !tirx.tensor<1xui32, global, align = 4>
!r = !tirx.tensor<1xui32, local>
tirx.kernel @exch_unsigned(%C: !C) launch(grid = [1], block = [32]) {
  %old = tirx.alloc_local : !r
  // expected-error @+1 {{'atom.global.exch.u32': .exch takes .b32 or .b64, got .u32}}
  tile.apply "atom.global.exch.u32" scope(thread) (%old, %C, 1 : i32) : !r, !C
  tirx.return
}

// -----

!C = !tirx.tensor<1xi64, global, align = 8>
!r = !tirx.tensor<1xi64, local>
tirx.kernel @add_s64(%C: !C) launch(grid = [1], block = [32]) {
  %old = tirx.alloc_local : !r
  // expected-error @+1 {{'atom.global.add.s64': .add takes .u32, .s32, .u64, .f32 or .f64, got .s64}}
  tile.apply "atom.global.add.s64" scope(thread) (%old, %C, 1 : i64) : !r, !C
  tirx.return
}

// -----

!C = !tirx.tensor<1xui32, global, align = 4>
tirx.kernel @red_acquire(%C: !C) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'red.acquire.gpu.global.add.u32': unknown modifier .acquire}}
  tile.apply "red.acquire.gpu.global.add.u32" scope(thread) (%C, 1 : i32) : !C
  tirx.return
}

// -----

!C = !tirx.tensor<1xui32, global, align = 4>
!r = !tirx.tensor<1xui32, local>
tirx.kernel @red_has_no_destination(%C: !C) launch(grid = [1], block = [32]) {
  %old = tirx.alloc_local : !r
  // expected-error @+1 {{'red.global.add.u32' expects 2 operands, got 3}}
  tile.apply "red.global.add.u32" scope(thread) (%old, %C, 1 : i32) : !r, !C
  tirx.return
}

// -----

!C = !tirx.tensor<1xui32, global, align = 4>
!r = !tirx.tensor<1xi32, local>
tirx.kernel @signed_destination(%C: !C) launch(grid = [1], block = [32]) {
  %old = tirx.alloc_local : !r
  // expected-error @+1 {{operand #0 (d) of 'atom.global.add.u32': needs u32, got 'i32'}}
  tile.apply "atom.global.add.u32" scope(thread) (%old, %C, 1 : i32) : !r, !C
  tirx.return
}

// -----

!C = !tirx.tensor<1xui32, global, align = 4>
!r = !tirx.tensor<1xui32, local>
tirx.kernel @wide_scalar(%C: !C, %v: i64) launch(grid = [1], block = [32]) {
  %old = tirx.alloc_local : !r
  // expected-error @+1 {{operand #2 (b) of 'atom.global.add.u32': needs u32, got 'i64'}}
  tile.apply "atom.global.add.u32" scope(thread) (%old, %C, %v) : !r, !C, i64
  tirx.return
}

// -----

!S = !tirx.tensor<1xui32, shared, align = 4>
!r = !tirx.tensor<1xui32, local>
tirx.kernel @global_form_on_shared() launch(grid = [1], block = [32]) {
  %old = tirx.alloc_local : !r
  %s = tirx.alloc_shared : !S
  // expected-error @+1 {{operand #1 (addr) of 'atom.global.add.u32': accesses global memory, but the tensor is shared}}
  tile.apply "atom.global.add.u32" scope(thread) (%old, %s, 1 : i32) : !r, !S
  tirx.return
}

// -----

!C = !tirx.tensor<1xui32, global, align = 4>
!r = !tirx.tensor<1xui32, local>
tirx.kernel @immediate_destination(%C: !C) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{operand #0 (d) of 'atom.global.add.u32': is written, so it must be a tensor, got an immediate}}
  tile.apply "atom.global.add.u32" scope(thread) (1 : i32, %C, 1 : i32) : !C
  tirx.return
}

// -----

!C = !tirx.tensor<2xui32, global, align = 8>
!r = !tirx.tensor<2xui32, local>
tirx.kernel @two_elements(%C: !C) launch(grid = [1], block = [32]) {
  %old = tirx.alloc_local : !r
  // An atom is one element: two are two repeats of a (2, 1) view.
  // expected-error @+1 {{operand #0 (d): the innermost dimension must be the instruction's atom of 1 element(s), but the shape is (2); view it as (2, 1)}}
  tile.apply "atom.global.add.u32" scope(thread) (%old, %C, 1 : i32) : !r, !C
  tirx.return
}

// -----

!C = !tirx.tensor<1xui32, global, align = 4>
!r = !tirx.tensor<1xui32, local>
tirx.kernel @cas_needs_two_values(%C: !C) launch(grid = [1], block = [32]) {
  %old = tirx.alloc_local : !r
  // expected-error @+1 {{'tile.apply' op 'atom.global.cas.b32' expects 4 operands, got 3}}
  tile.apply "atom.global.cas.b32" scope(thread) (%old, %C, 1 : i32) : !r, !C
  tirx.return
}

// -----

!S = !tirx.tensor<1xui32, shared, align = 4>
!r = !tirx.tensor<1xui32, local>
module attributes {tirx.chip = "sm_80"} {
tirx.kernel @cluster_scope_on_sm80() launch(grid = [1], block = [32]) {
  %old = tirx.alloc_local : !r
  %s = tirx.alloc_shared : !S
  // expected-error @+1 {{'atom.cluster.shared.add.u32' requires sm_90 but the target is sm_80}}
  tile.apply "atom.cluster.shared.add.u32" scope(thread) (%old, %s, 1 : i32) : !r, !S
  tirx.return
}
}
