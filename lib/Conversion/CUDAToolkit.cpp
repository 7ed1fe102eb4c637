//===- CUDAToolkit.cpp - Where the CUDA toolkit and ptxas are -------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/CUDAToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

std::string mlir::tirx::findCUDAToolkit(llvm::StringRef option) {
  if (!option.empty())
    return option.str();
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *value = std::getenv(variable); value && *value)
      return value;
  if (llvm::sys::fs::exists("/usr/local/cuda/nvvm/libdevice"))
    return "/usr/local/cuda";
  return "";
}

std::string mlir::tirx::findPtxas(llvm::StringRef toolkit) {
  if (!toolkit.empty()) {
    llvm::SmallString<256> path(toolkit);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return path.str().str();
  }
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return "";
}
