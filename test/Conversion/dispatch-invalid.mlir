// RUN: tirx-opt %s --tirx-to-gpu=chip=sm_90 --tile-dispatch -split-input-file -verify-diagnostics

// A private (memory-only) tile at cta scope passes ownership, but thread t
// would need slot 4t: registers cannot be indexed by the thread id.
tirx.kernel @thread_dependent_slot() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x1xf32, local>
  // expected-error @+1 {{operand #0: the register slot of element (0, 1, 0) is 1 but the same repeat of group coordinate 0 uses slot 0; registers cannot be indexed by thread, so the layout must map the group dimensions to thread axes}}
  tile.apply "abs.f32" scope(cta) (%r, %r) : !tirx.tensor<2x32x1xf32, local>, !tirx.tensor<2x32x1xf32, local>
  tirx.return
}

// -----

func.func private @id(%x: f32) -> f32 {
  return %x : f32
}
tirx.kernel @ewise_thread_dependent_slot() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32xf32, local>
  // expected-error @+1 {{operand #0: the register slot of element (0, 1) is 1 but the same repeat of group coordinate 0 uses slot 0; registers cannot be indexed by thread}}
  tile.ewise @id scope(cta) (%r, %r) : !tirx.tensor<2x32xf32, local>, !tirx.tensor<2x32xf32, local>
  tirx.return
}
