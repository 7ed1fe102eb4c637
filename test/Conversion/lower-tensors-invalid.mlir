// RUN: tirx-opt %s --tirx-to-gpu --tirx-lower-tensors -verify-diagnostics

// Without tile-dispatch, tile ops would be left with dangling operands.
tirx.kernel @undispatched(%A: !tirx.tensor<32x4xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  // expected-error @+1 {{'tile.apply' op must be dispatched to per-thread code before tirx-lower-tensors: run tile-dispatch first}}
  tile.apply "ld.global.v4.b32" scope(warp) (%r, %A) : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>, !tirx.tensor<32x4xf32, global, align = 16>
  tirx.return
}
