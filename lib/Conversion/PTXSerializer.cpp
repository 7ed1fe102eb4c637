//===- PTXSerializer.cpp - gpu.module to PTX, libdevice on demand ---------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "PTXSerializer.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/IR/Module.h"

using namespace mlir;

namespace {
/// Upstream's NVVM serialization to PTX, with libdevice loaded only for a
/// module that declares one of its `__nv_` functions.
class PTXSerializer : public NVVM::SerializeGPUModuleBase {
public:
  using SerializeGPUModuleBase::SerializeGPUModuleBase;

protected:
  std::optional<SmallVector<std::unique_ptr<llvm::Module>>>
  loadBitcodeFiles(llvm::Module &module) override {
    bool callsLibdevice = llvm::any_of(module, [](llvm::Function &function) {
      return function.isDeclaration() &&
             function.getName().starts_with("__nv_");
    });
    if (!callsLibdevice)
      return SmallVector<std::unique_ptr<llvm::Module>>();
    return SerializeGPUModuleBase::loadBitcodeFiles(module);
  }

  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &llvmModule) override {
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine))
      // check-diagnostics: internal, the NVPTX target is linked in
      return getOperation().emitError("no LLVM target machine for ")
             << triple << " " << chip;
    FailureOr<SmallString<0>> ptx = translateModuleToISA(
        llvmModule, **machine, [&] { return getOperation().emitError(); });
    if (failed(ptx))
      return failure();
    if (isaCallback)
      isaCallback(*ptx);
    return SmallVector<char, 0>(ptx->begin(), ptx->end());
  }
};
} // namespace

LogicalResult
mlir::tirx::serializeGPUModulesToPTX(ModuleOp top,
                                     const gpu::TargetOptions &options) {
  PTXSerializer::init();
  for (auto module :
       llvm::make_early_inc_range(top.getOps<gpu::GPUModuleOp>())) {
    SmallVector<Attribute> objects;
    for (Attribute attr : module.getTargetsAttr()
                              ? module.getTargetsAttr().getValue()
                              : ArrayRef<Attribute>()) {
      auto target = dyn_cast<gpu::TargetAttrInterface>(attr);
      if (!target)
        // check-diagnostics: internal, gpu.module verifies its targets
        return module.emitError("target attribute is not a GPU target: ")
               << attr;
      std::optional<SmallVector<char, 0>> object;
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr))
        object = PTXSerializer(*module, nvvm, options).run();
      else
        object = target.serializeToObject(module, options);
      if (!object)
        return module.emitError("could not serialize the GPU module for ")
               << attr;
      Attribute objectAttr = target.createObject(module, *object, options);
      if (!objectAttr)
        // check-diagnostics: internal, the NVVM target always creates one
        return module.emitError("could not create the object for ") << attr;
      objects.push_back(objectAttr);
    }
    OpBuilder builder(module);
    builder.setInsertionPointAfter(module);
    gpu::BinaryOp::create(builder, module.getLoc(), module.getName(),
                          module.getOffloadingHandlerAttr(),
                          builder.getArrayAttr(objects));
    module->erase();
  }
  return success();
}
