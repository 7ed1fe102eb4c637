//===- InitAll.cpp - Register every TirX dialect and pass -----------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/InitAll.h"
#include "TirX/Conversion/Passes.h"
#include "TirX/Dialect/Tile/IR/TileDialect.h"
#include "TirX/Dialect/TirX/IR/TirXDialect.h"
#include "TirX/Pipelines/Pipelines.h"
#include "TirX/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"

void mlir::tirx::registerAllTirXDialects(DialectRegistry &registry) {
  registry
      .insert<TirXDialect, tile::TileDialect, func::FuncDialect,
              arith::ArithDialect, math::MathDialect, scf::SCFDialect,
              cf::ControlFlowDialect, ub::UBDialect, gpu::GPUDialect,
              LLVM::LLVMDialect, NVVM::NVVMDialect, memref::MemRefDialect>();
  // What the lowering to PTX needs: conversion interfaces used by
  // convert-gpu-to-nvvm, the NVVM target, and translation to LLVM IR.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  registerNVVMDialectTranslation(registry);
}

void mlir::tirx::registerAllTirXPasses() {
  registerTirXTransformsPasses();
  registerTirXConversionPasses();
  registerTirXPipelines();
  // The upstream GPU passes the pipeline is made of, for use one by one.
  registerGpuNVVMAttachTarget();
  registerGpuModuleToBinaryPass();
  registerPass([] { return createConvertGpuOpsToNVVMOps(); });
  registerPass([] { return createReconcileUnrealizedCastsPass(); });
  registerPass([] { return createSCFToControlFlowPass(); });
}
