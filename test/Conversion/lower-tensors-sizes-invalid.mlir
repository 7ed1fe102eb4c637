// A gpu.func written by hand whose runtime-sized tensor names a size
// variable no argument declares (tirx.kernel's verifier rules it out).
// RUN: tirx-opt %s --tirx-lower-tensors -verify-diagnostics
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%A: !tirx.tensor<?xf32, global, sizes = [n]>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'tirx.region' op no argument of the kernel declares size variable 'n'}}
      %r = tirx.region %A[%c0] [1] : !tirx.tensor<?xf32, global, sizes = [n]>
      gpu.return
    }
  }
}
