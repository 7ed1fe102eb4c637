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
  // TirX's own variable first: it picks the toolkit for TirX alone, over
  // whatever the environment says for other CUDA software.
  for (const char *variable :
       {"TIRX_CUDA_PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *value = std::getenv(variable); value && *value)
      return value;
  if (llvm::sys::fs::exists("/usr/local/cuda/nvvm/libdevice"))
    return "/usr/local/cuda";
  return "";
}

std::string mlir::tirx::findCUDATool(llvm::StringRef toolkit,
                                     llvm::StringRef name) {
  // A program's name, not a path (the C API passes the caller's string).
  if (name.empty() || name.contains('/'))
    return "";
  if (!toolkit.empty()) {
    llvm::SmallString<256> path(toolkit);
    llvm::sys::path::append(path, "bin", name);
    if (llvm::sys::fs::is_regular_file(path) &&
        llvm::sys::fs::can_execute(path))
      return path.str().str();
  }
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(name))
    return *found;
  return "";
}

std::string mlir::tirx::findPtxas(llvm::StringRef toolkit) {
  return findCUDATool(toolkit, "ptxas");
}

std::string mlir::tirx::getLibdevicePath(llvm::StringRef toolkit) {
  llvm::SmallString<256> path(toolkit);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  return path.str().str();
}

std::string mlir::tirx::describeCUDAToolkit(llvm::StringRef toolkit) {
  // The variables in findCUDAToolkit's order: the first set one is used.
  for (const char *variable :
       {"TIRX_CUDA_PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *value = std::getenv(variable); value && *value)
      return toolkit == value ? std::string("$") + variable : "cuda-path";
  return toolkit == "/usr/local/cuda" ? "the default" : "cuda-path";
}
