// tile-dispatch lowers only against a named target chip (the instruction
// floors are checked against it, never against an assumed default).
// RUN: tirx-opt %s --tirx-to-gpu --tile-dispatch -verify-diagnostics

tirx.kernel @untargeted() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1x1xf32, local>
  // expected-error @+1 {{'tile.apply' op has no target chip to check 'abs.f32' against: name one with tirx-to-gpu{chip=sm_90} (as --tirx-to-ptx does) or a 'tirx.chip' attribute on the module}}
  tile.apply "abs.f32" scope(thread) (%r, %r) : !tirx.tensor<1x1xf32, local>, !tirx.tensor<1x1xf32, local>
  tirx.return
}
