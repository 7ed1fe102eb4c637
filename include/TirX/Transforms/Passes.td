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

#endif // TIRX_TRANSFORMS_PASSES_TD
