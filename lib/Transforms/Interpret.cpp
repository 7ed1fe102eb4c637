//===- Interpret.cpp - Run kernels on the CPU interpreter -----------------===//
//
// Part of the TirX project.
//
// Runs each kernel with generated inputs, so that lit tests can pin the
// interpreter's checks (-verify-diagnostics) and small kernels' results
// (`print`) without a GPU.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/TirX/IR/TirXDialect.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"
#include "TirX/Interpreter/Interpreter.h"
#include "TirX/Transforms/Passes.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

namespace mlir::tirx {
#define GEN_PASS_DEF_TIRXINTERPRET
#include "TirX/Transforms/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;
using namespace mlir::tirx;

/// Element `k` of argument `argument`: a small exact value.
static int64_t getInputValue(int64_t k, unsigned argument) {
  return (7 * k + 3 * argument) % 19 - 9;
}

/// The bits of `value / 4` (floats) or `value` (integers) in `type`.
static uint64_t encodeInput(Type type, int64_t value) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    llvm::APFloat number(static_cast<double>(value) / 4);
    bool losesInfo = false;
    number.convert(floatType.getFloatSemantics(),
                   llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return number.bitcastToAPInt().getZExtValue();
  }
  return static_cast<uint64_t>(value);
}

static void printElement(llvm::raw_ostream &os, Type type, const uint8_t *data,
                         int64_t bytes) {
  uint64_t bits = 0;
  std::memcpy(&bits, data, bytes);
  if (auto floatType = dyn_cast<FloatType>(type)) {
    llvm::APFloat value(floatType.getFloatSemantics(),
                        llvm::APInt(floatType.getWidth(), bits));
    llvm::SmallString<16> text;
    value.toString(text);
    os << text;
    return;
  }
  unsigned width = type.getIntOrFloatBitWidth();
  llvm::APInt value(width, bits);
  if (type.isUnsignedInteger())
    os << value.getZExtValue();
  else
    os << value.getSExtValue();
}

namespace {
struct InterpretPass : public tirx::impl::TirXInterpretBase<InterpretPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::StringMap<int64_t> sizeValues;
    for (const std::string &entry : sizes) {
      auto [name, text] = StringRef(entry).split('=');
      int64_t value = 0;
      if (text.getAsInteger(10, value)) {
        getOperation().emitError("tirx-interpret: sizes entry '")
            << entry << "' is not name=integer";
        return signalPassFailure();
      }
      sizeValues[name] = value;
    }
    interp::InterpreterOptions options;
    options.checkRaces = checkRaces;
    options.checkUninitialized = checkUninitialized;
    bool failed = false, found = false;
    getOperation().walk([&](KernelOp kernel) {
      if (!kernelName.empty() && kernel.getSymName() != kernelName)
        return;
      found = true;
      failed |= mlir::failed(runOne(kernel, sizeValues, options));
    });
    if (!found && !kernelName.empty()) {
      getOperation().emitError("tirx-interpret: the module has no kernel "
                               "named '")
          << kernelName << "'";
      return signalPassFailure();
    }
    if (failed)
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  LogicalResult runOne(KernelOp kernel, const llvm::StringMap<int64_t> &sizes,
                       const interp::InterpreterOptions &options) {
    unsigned numArgs = kernel.getNumArguments();
    SmallVector<interp::KernelArgument> arguments(numArgs);
    for (unsigned index = 0; index < numArgs; ++index) {
      auto name = kernel.getArgAttrOfType<StringAttr>(
          index, TirXDialect::kSizeAttrName);
      if (!name)
        continue;
      auto found = sizes.find(name.getValue());
      if (found == sizes.end())
        return kernel.emitError("tirx-interpret needs a value for size "
                                "variable '")
               << name.getValue() << "' (sizes=" << name.getValue() << "=...)";
      arguments[index].scalarBits = static_cast<uint64_t>(found->second);
    }
    std::vector<std::vector<uint8_t>> buffers(numArgs);
    SmallVector<int64_t> elementCounts(numArgs, 0);
    for (unsigned index = 0; index < numArgs; ++index) {
      auto type = dyn_cast<tirx::TensorType>(kernel.getArgumentTypes()[index]);
      if (!type)
        continue;
      int64_t count = 1;
      if (type.hasStaticShape()) {
        count = type.getLayoutOrDefault().span(Axis::m);
      } else {
        for (auto [dim, extent] : llvm::enumerate(type.getShape())) {
          StringAttr size = type.getSizeName(dim);
          count *= size ? sizes.lookup(size.getValue()) : extent;
        }
      }
      int64_t bytes = type.getElementBytes();
      buffers[index].resize(count * bytes);
      for (int64_t k = 0; k < count; ++k) {
        uint64_t bits =
            encodeInput(type.getElementType(), getInputValue(k, index));
        std::memcpy(buffers[index].data() + k * bytes, &bits, bytes);
      }
      elementCounts[index] = count;
      arguments[index].data = buffers[index].data();
      arguments[index].bytes = buffers[index].size();
    }
    if (mlir::failed(interp::runKernel(kernel, arguments, options)))
      return failure();
    if (!print)
      return success();
    llvm::raw_ostream &os = llvm::outs();
    for (unsigned index = 0; index < numArgs; ++index) {
      auto type = dyn_cast<tirx::TensorType>(kernel.getArgumentTypes()[index]);
      if (!type)
        continue;
      os << "@" << kernel.getSymName() << " argument #" << index << ": [";
      int64_t bytes = type.getElementBytes();
      for (int64_t k = 0; k < elementCounts[index]; ++k) {
        if (k)
          os << ", ";
        printElement(os, type.getElementType(),
                     buffers[index].data() + k * bytes, bytes);
      }
      os << "]\n";
    }
    return success();
  }
};
} // namespace
