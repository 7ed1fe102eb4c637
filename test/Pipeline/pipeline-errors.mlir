// RUN: tirx-opt %s --tirx-to-ptx="chip=sm_80 features=+ptx80" -split-input-file -verify-diagnostics

// bf16 arithmetic needs sm_90: compiling for sm_80 is a located error.
tirx.kernel @bf16_on_sm80() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xbf16, local>
  // expected-error @+1 {{'add.rn.bf16' requires sm_90 but the target is sm_80}}
  tile.apply "add.rn.bf16" scope(thread) (%r, %r, %r) : !tirx.tensor<1xbf16, local>, !tirx.tensor<1xbf16, local>, !tirx.tensor<1xbf16, local>
  tirx.return
}

// -----

// expected-error @+1 {{the module is marked tirx.chip = "sm_90" but the pipeline compiles for sm_80}}
module attributes {tirx.chip = "sm_90"} {
  tirx.kernel @marked() launch(grid = [1], block = [32]) {
    tirx.return
  }
}

// -----

// The module was verified for PTX 8.1 but the pipeline emits PTX 8.0.
module attributes {tirx.ptx = 81 : i32} {
  tirx.kernel @ptx_too_old() launch(grid = [1], block = [32]) {
    %d = tirx.alloc_local : !tirx.tensor<1xui32, local>
    %a = tirx.alloc_local : !tirx.tensor<1xf32, local>
    // expected-error @+1 {{'cvt.rna.satfinite.tf32.f32' requires PTX ISA 8.1 but the target is PTX 8.0}}
    tile.apply "cvt.rna.satfinite.tf32.f32" scope(thread) (%d, %a) : !tirx.tensor<1xui32, local>, !tirx.tensor<1xf32, local>
    tirx.return
  }
}
