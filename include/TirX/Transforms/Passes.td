//===- Passes.td - tirx/tile-level passes ------------------*- tablegen -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_TRANSFORMS_PASSES_TD
#define TIRX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TirXPrintLayouts : Pass<"tirx-print-layouts"> {
  let summary = "Print the tensor and thread views of every register tile";
  let description = [{
    For every `tirx.alloc_local` (and every local `tirx.view` with a
    different layout) prints, to stdout or the `output` file, the layout,
    then each element's owner threads and slot (tensor view) and each
    thread's elements by slot (thread view). The IR is unchanged.
  }];
  let options = [
    Option<"view", "view", "std::string", /*default=*/"\"both\"",
           "Which view to print: tensor, thread or both">,
  ];
}

def TirXVerifyKernels : Pass<"tirx-verify-kernels"> {
  let summary = "Whole-kernel checks: register budget, bounds proof, wgmma "
                "fences";
  let description = [{
    The checks that look at a whole kernel rather than at one op, run once
    (the first pass of `--tirx-to-ptx`) instead of inside op verifiers,
    which MLIR re-runs after every pass:

    - the register budget of every `tirx.kernel` (docs/registers.md);
    - the bounds proof: every global or shared tensor operand lies inside
      its tensor (docs/bounds.md), with a witness when it cannot be proven;
    - every `wgmma.mma_async` `tile.apply`: no access to its register
      operands since the last `wgmma.fence` (docs/hopper.md).

    Each failure is a located error on the op at fault, and the pass fails.
    The IR is unchanged. Run it alone to check a kernel without lowering:
    `tirx-opt kernel.mlir --tirx-verify-kernels`.
  }];
}

#endif // TIRX_TRANSFORMS_PASSES_TD
