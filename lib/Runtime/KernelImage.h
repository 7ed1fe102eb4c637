//===- KernelImage.h - What a kernel image says about its kernels -*- C++
//-*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The parameter count of a kernel, read from the image it is loaded from: the
// `.entry` signature of PTX text, or the `.nv.info.<kernel>` attribute table
// of an ELF cubin (one EIATTR_KPARAM_INFO record per parameter). The driver
// has no query for the count that cannot fail (cuKernelGetParamInfo probed
// past the last parameter is a failing API call that compute-sanitizer
// reports), and the image is what the compiler wrote, so it is the source of
// truth. Pure C++: no CUDA, no GPU; unit-tested on its own.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_RUNTIME_KERNELIMAGE_H
#define TIRX_LIB_RUNTIME_KERNELIMAGE_H

#include <cstddef>
#include <string>
#include <string_view>

namespace tirx::runtime {

struct KernelParamCount {
  enum Kind {
    /// `count` holds the kernel's number of parameters.
    Found,
    /// The image is readable but has no kernel of that name.
    NoSuchKernel,
    /// The image is neither PTX text nor a well-formed ELF cubin; `reason`
    /// says what is wrong with it.
    Unreadable,
  };
  Kind kind = Unreadable;
  size_t count = 0;
  std::string reason;
};

/// The parameter count of the kernel (`.entry`) named `name` in `image`, a
/// PTX text (NUL-terminated or not) or an ELF cubin.
KernelParamCount getKernelParamCount(std::string_view image,
                                     std::string_view name);

} // namespace tirx::runtime

#endif // TIRX_LIB_RUNTIME_KERNELIMAGE_H
