//===- LaunchOperands.cpp - A tirx.launch's operands, sizes included ------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "LaunchOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tirx;

SmallVector<Value> mlir::tirx::buildLaunchOperands(
    OpBuilder &builder, LaunchOp launch, FunctionOpInterface kernel,
    function_ref<Value(Value, tirx::TensorType)> convertTensor) {
  Location loc = launch.getLoc();
  SmallVector<Value> operands;
  auto args = launch.getArgs().begin();
  llvm::StringMap<Value> sizeValues;
  std::string kernelName = launch.getKernel().str();
  auto assertTrue = [&](Value condition, const Twine &message) {
    cf::AssertOp::create(builder, loc, condition,
                         ("tirx.launch @" + kernelName + ": " + message).str());
  };
  for (auto [index, param] : llvm::enumerate(kernel.getArgumentTypes())) {
    if (kernel.getArgAttr(index, TirXDialect::kSizeAttrName)) {
      operands.push_back(Value()); // filled in below
      continue;
    }
    Value value = *args++;
    if (auto tensor = dyn_cast<tirx::TensorType>(param)) {
      if (isa<MemRefType>(value.getType())) {
        for (unsigned dim = 0, rank = tensor.getShape().size(); dim < rank;
             ++dim)
          if (StringAttr name = tensor.getSizeName(dim)) {
            Value extent = memref::DimOp::create(builder, loc, value, dim);
            std::string where = "argument #" + std::to_string(index) +
                                " dimension " + std::to_string(dim);
            auto [it, first] = sizeValues.try_emplace(name.getValue(), extent);
            if (!first) {
              assertTrue(
                  arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        extent, it->second),
                  where + " disagrees with size variable " + name.getValue());
              continue;
            }
            Value one = arith::ConstantIndexOp::create(builder, loc, 1);
            assertTrue(arith::CmpIOp::create(builder, loc,
                                             arith::CmpIPredicate::sge, extent,
                                             one),
                       "size variable " + name.getValue() + " (" + where +
                           ") must be at least 1");
            BlockArgument sizeArg = getSizeArgument(kernel, name);
            int64_t multiple =
                sizeArg ? getSizeMultiple(kernel, sizeArg.getArgNumber()) : 1;
            if (multiple > 1) {
              Value divisor =
                  arith::ConstantIndexOp::create(builder, loc, multiple);
              Value rest =
                  arith::RemSIOp::create(builder, loc, extent, divisor);
              Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
              assertTrue(
                  arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        rest, zero),
                  "size variable " + name.getValue() + " (" + where +
                      ") must be a multiple of " + std::to_string(multiple));
            }
            if (int64_t atMost =
                    sizeArg ? getSizeAtMost(kernel, sizeArg.getArgNumber())
                            : 0) {
              Value most = arith::ConstantIndexOp::create(builder, loc, atMost);
              assertTrue(arith::CmpIOp::create(builder, loc,
                                               arith::CmpIPredicate::sle,
                                               extent, most),
                         "size variable " + name.getValue() + " (" + where +
                             ") must be at most " + std::to_string(atMost));
            }
          }
      }
      value = convertTensor(value, tensor);
    }
    operands.push_back(value);
  }
  for (auto [index, operand] : llvm::enumerate(operands))
    if (!operand)
      operand = sizeValues.lookup(
          cast<StringAttr>(kernel.getArgAttr(index, TirXDialect::kSizeAttrName))
              .getValue());
  return operands;
}
