// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// tirx.launch passes exactly the kernel's arguments: too few and too many are
// errors that name the kernel and both counts.

tirx.kernel @k(%A: !tirx.tensor<4xf32, global>, %s: f32) launch(grid = [1], block = [32]) {
  tirx.return
}
func.func @host(%a: memref<4xf32>) {
  // expected-error @+1 {{'tirx.launch' op kernel @k takes 2 argument(s), got 1}}
  tirx.launch @k(%a) : memref<4xf32>
  return
}

// -----

tirx.kernel @k(%A: !tirx.tensor<4xf32, global>) launch(grid = [1], block = [32]) {
  tirx.return
}
func.func @host(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{'tirx.launch' op kernel @k takes 1 argument(s), got 2}}
  tirx.launch @k(%a, %b) : memref<4xf32>, memref<4xf32>
  return
}

// -----

tirx.kernel @none() launch(grid = [1], block = [32]) {
  tirx.return
}
func.func @host(%s: f32) {
  // expected-error @+1 {{'tirx.launch' op kernel @none takes 0 argument(s), got 1}}
  tirx.launch @none(%s) : f32
  return
}
