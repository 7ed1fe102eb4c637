//===- LaunchOperands.h - A tirx.launch's operands, sizes included -*- C++ -*-//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_CONVERSION_TIRXTOGPU_LAUNCHOPERANDS_H
#define TIRX_LIB_CONVERSION_TIRXTOGPU_LAUNCHOPERANDS_H

#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::tirx {

/// The operands of `launch`, one per parameter of `kernel` (the tirx.kernel,
/// or the gpu.func it became): its arguments, each tensor's converted by
/// `convertTensor` (the argument, a memref or !llvm.ptr<1>, and the
/// parameter's type), and each size variable, which tirx.launch does not
/// take, the extent of the first memref argument that names it (LaunchOp's
/// verifier checked there is one). Every extent that names a size is checked
/// by a cf.assert at run time: at least 1, a multiple of the size's divisor,
/// at most its bound, equal to the size's other extents.
SmallVector<Value>
buildLaunchOperands(OpBuilder &builder, LaunchOp launch,
                    FunctionOpInterface kernel,
                    function_ref<Value(Value, tirx::TensorType)> convertTensor);

} // namespace mlir::tirx

#endif // TIRX_LIB_CONVERSION_TIRXTOGPU_LAUNCHOPERANDS_H
