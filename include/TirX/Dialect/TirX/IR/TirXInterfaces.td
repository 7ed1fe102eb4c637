//===- TirXInterfaces.td - tirx op interfaces --------------*- tablegen -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_TIRXINTERFACES_TD
#define TIRX_DIALECT_TIRX_IR_TIRXINTERFACES_TD

include "mlir/IR/OpBase.td"

def TirX_TensorAccessOpInterface : OpInterface<"TensorAccessOpInterface"> {
  let cppNamespace = "::mlir::tirx";
  let description = [{
    An op that reads or writes global or shared tensors given as operands
    (which of them, and how, it says through `MemoryEffectOpInterface`).
    The kernel's bounds proof (docs/bounds.md) proves every element of each
    such operand inside its tensor wherever the op's guard holds.
  }];
  let methods = [
    InterfaceMethod<
      "The i1 value under which the op executes (null: always).",
      "::mlir::Value", "getAccessGuard">,
    InterfaceMethod<
      "How diagnostics name the operand with this index, e.g. "
      "\"operand #1 (addr) of 'ld.global.v4.b32'\".",
      "std::string", "describeAccessOperand", (ins "unsigned":$operandIndex)>,
    InterfaceMethod<
      "Whether the hardware itself confines the accesses through the "
      "operand with this index to its tensor, so that no proof is needed "
      "(a TMA box: the tensor map clips it to the tensor's extents).",
      "bool", "isAccessClipped", (ins "unsigned":$operandIndex), [{}],
      [{ return false; }]>,
    InterfaceMethod<
      "Whether the op can skip, per access, the elements of the operand "
      "with this index that a masked tirx.region places outside its tensor "
      "(a thread-level tile.apply predicates each repeat).",
      "bool", "canMaskAccess", (ins "unsigned":$operandIndex), [{}],
      [{ return false; }]>,
  ];
}

def TirX_RegisterLimitOpInterface : OpInterface<"RegisterLimitOpInterface"> {
  let cppNamespace = "::mlir::tirx";
  let description = [{
    An op that may change how many registers per thread the threads
    executing it hold from then on (`setmaxnreg` of a warpgroup): the
    register budget (docs/registers.md) bounds the tiles allocated after it,
    in its block and the blocks nested there, by the new limit.
  }];
  let methods = [
    InterfaceMethod<
      "The registers per thread after the op, or nullopt when it leaves "
      "them as they are.",
      "::std::optional<int64_t>", "getRegisterLimitAfter">,
  ];
}

#endif // TIRX_DIALECT_TIRX_IR_TIRXINTERFACES_TD
