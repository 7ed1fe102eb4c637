// RUN: tirx-opt %s --tirx-to-gpu -verify-diagnostics

// A kernel in a nested module is an error, not silently left out of the PTX.
module {
  module @inner {
    // expected-error @+1 {{'tirx.kernel' op is inside a nested module; tirx-to-gpu converts the kernels of the module it runs on: move the kernel there or run the pipeline on the nested module}}
    tirx.kernel @k() launch(grid = [1], block = [32]) {
      tirx.return
    }
  }
}
