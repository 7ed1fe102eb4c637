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
  let summary = "Whole-kernel checks: register budget, bounds proof, barrier "
                "convergence, race proof, wgmma fences";
  let description = [{
    The checks that look at a whole kernel rather than at one op, run once
    (the first pass of `--tirx-to-ptx`) instead of inside op verifiers,
    which MLIR re-runs after every pass:

    - the register budget of every `tirx.kernel` (docs/registers.md);
    - the bounds proof: every global or shared tensor operand lies inside
      its tensor (docs/bounds.md), with a witness when it cannot be proven;
    - barrier convergence: every thread of the CTA reaches each CTA
      barrier (docs/barriers.md);
    - the race proof: no two threads access one shared memory byte, one of
      them writing, with no CTA barrier between them (docs/races.md); a
      kernel whose synchronization is beyond its model gets a warning
      naming the construct (an error with `strict-races`);
    - every `wgmma.mma_async` `tile.apply`: no access to its register
      operands since the last `wgmma.fence` (docs/hopper.md).

    Each failure is a located error on the op at fault, and the pass fails.
    The IR is unchanged. Run it alone to check a kernel without lowering:
    `tirx-opt kernel.mlir --tirx-verify-kernels`.
  }];
  let options = [
    Option<"strictRaces", "strict-races", "bool", /*default=*/"false",
           "Refuse a kernel whose synchronization the race proof does not "
           "model (cp.async pipelines, mbarriers, TMA, wgmma, partial named "
           "barriers) "
           "instead of warning">,
    Option<"raceProof", "race-proof", "bool", /*default=*/"true",
           "Run the race proof (off where the interpreter runs the kernel: "
           "it checks races as they happen, and referees the proof)">,
  ];
}

def TirXInterpret : Pass<"tirx-interpret", "::mlir::ModuleOp"> {
  let summary = "Run kernels on the CPU interpreter with generated inputs";
  let description = [{
    Runs every `tirx.kernel` of the module (or the one named by `kernel`)
    on the interpreter (docs/interpreter.md) over its whole grid, with
    deterministic inputs: element `k` of tensor argument `i` holds
    `((7k + 3i) mod 19 - 9) / 4` (a float) or `(7k + 3i) mod 19 - 9` (an
    integer), exact in every element type. Size variables take their value
    from `sizes` (`sizes=n=100,m=8`); other scalar arguments are 0. With
    `print`, every tensor argument is printed after the run, one line each.

    A check that fails (a data race, an uninitialized read, a barrier not
    every thread reaches, a deadlock, an access outside a tensor) is a
    located error and the pass fails. The IR is unchanged.
  }];
  let options = [
    Option<"kernelName", "kernel", "std::string", /*default=*/"\"\"",
           "The kernel to run (all when empty)">,
    ListOption<"sizes", "sizes", "std::string",
               "Size variable values, name=value">,
    Option<"print", "print", "bool", /*default=*/"false",
           "Print every tensor argument after the run">,
    Option<"checkRaces", "races", "bool", /*default=*/"true",
           "Report shared-memory data races">,
    Option<"checkUninitialized", "uninitialized", "bool", /*default=*/"true",
           "Report reads of memory never written">,
  ];
}

#endif // TIRX_TRANSFORMS_PASSES_TD
