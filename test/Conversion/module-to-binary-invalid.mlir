// tirx-module-to-binary on a GPU module that was not lowered to the LLVM
// dialect: translation fails at the op, and the module says which target it
// could not serialize for.
// RUN: tirx-opt %s --tirx-module-to-binary -verify-diagnostics -o /dev/null

module attributes {gpu.container_module} {
  // expected-error @+2 {{Failed creating the llvm::Module.}}
  // expected-error @+1 {{could not serialize the GPU module for #nvvm.target<chip = "sm_90">}}
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{cannot be converted to LLVM IR}}
    func.func @not_lowered() {
      return
    }
  }
}
