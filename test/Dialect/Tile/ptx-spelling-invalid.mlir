// RUN: tirx-opt %s -split-input-file -verify-diagnostics
// The PTX table's reasons reach the user as diagnostics on the op.

tirx.kernel @relu_on_float() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{'max.relu.f32': .relu is only allowed on s16x2 and s32}}
  tile.apply "max.relu.f32" scope(thread) (%r, %r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @max_five_operands() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{'max.f32' expects 3 or 4 operands, got 5}}
  tile.apply "max.f32" scope(thread) (%r, %r, %r, %r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @unknown_modifier() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{'add.rn.f33': unknown modifier .f33}}
  tile.apply "add.rn.f33" scope(thread) (%r, %r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @type_order() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{'cvt.rn.f32.f16x2': .f16x2 (destination type) must come before .f32 (source type)}}
  tile.apply "cvt.rn.f32.f16x2" scope(thread) (%r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @cvt_needs_rounding() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{'cvt.f16.f32': .f32 to .f16 loses precision: requires a rounding modifier (one of .rn, .rz, .rm, .rp)}}
  tile.apply "cvt.f16.f32" scope(thread) (%r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @relaxed_needs_scope(%A: !tirx.tensor<1xf32, global>) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{'ld.relaxed.global.b32': .relaxed requires a scope (one of .cta, .cluster, .gpu, .sys)}}
  tile.apply "ld.relaxed.global.b32" scope(thread) (%r, %A) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, global>
  tirx.return
}

// -----

tirx.kernel @conflicting_rounding() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{'add.rn.rz.f32': conflicting rounding modifier: .rn and .rz}}
  tile.apply "add.rn.rz.f32" scope(thread) (%r, %r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @ex2_bf16_needs_ftz() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xbf16, local>
  // expected-error @+1 {{'ex2.approx.bf16': .bf16 requires .ftz}}
  tile.apply "ex2.approx.bf16" scope(thread) (%r, %r) : !tirx.tensor<1xbf16, local>, !tirx.tensor<1xbf16, local>
  tirx.return
}

// -----

tirx.kernel @rcp_f64_spelling() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf64, local>
  // expected-error @+1 {{'rcp.approx.f64': the f64 approximation must be spelled rcp.approx.ftz.f64}}
  tile.apply "rcp.approx.f64" scope(thread) (%r, %r) : !tirx.tensor<1xf64, local>, !tirx.tensor<1xf64, local>
  tirx.return
}

// -----

tirx.kernel @cache_hint_on_local() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{'ld.local.L2::cache_hint.b32': .L2::cache_hint requires .global or generic addressing}}
  tile.apply "ld.local.L2::cache_hint.b32" scope(thread) (%r, %r, 0 : ui64) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @empty_modifier() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{'add..f32': empty modifier (stray '.')}}
  tile.apply "add..f32" scope(thread) (%r, %r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @empty_spelling() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{'': empty instruction spelling}}
  tile.apply "" scope(thread) (%r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}
