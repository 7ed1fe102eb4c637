//===- RunnerUtils.cpp - Printing memrefs from JIT-compiled host code -----===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// `printMemrefF32`/`printMemrefI32` with MLIR's C interface
// (`_mlir_ciface_*`), in the format of MLIR's runner utilities, so host code
// run by tirx-runner can print results where only libTirXRuntime.so is
// available (Debian's libmlir_runner_utils needs the whole of libLLVM).
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <iostream>
#include <sstream>

#define TIRX_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

template <typename T> struct RankedDescriptor {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1]; // sizes[rank], then strides[rank]
};

template <typename T>
void printElements(std::ostream &os, const T *base, const int64_t *sizes,
                   const int64_t *strides, int64_t rank, int64_t dim,
                   int indent) {
  os << '[';
  for (int64_t i = 0; i < sizes[dim]; ++i) {
    if (i) {
      os << ", ";
      if (dim + 1 < rank)
        os << '\n' << std::string(indent + 1, ' ');
    }
    const T *element = base + i * strides[dim];
    if (dim + 1 == rank)
      os << +*element;
    else
      printElements(os, element, sizes, strides, rank, dim + 1, indent + 1);
  }
  os << ']';
}

template <typename T> void printMemref(UnrankedMemRef *memref) {
  auto *descriptor = static_cast<RankedDescriptor<T> *>(memref->descriptor);
  int64_t rank = memref->rank;
  const int64_t *sizes = descriptor->sizesAndStrides;
  const int64_t *strides = sizes + rank;
  std::ostringstream os;
  os << "Unranked Memref base@ = " << static_cast<void *>(descriptor->aligned)
     << " rank = " << rank << " offset = " << descriptor->offset
     << " sizes = [";
  for (int64_t dim = 0; dim < rank; ++dim)
    os << (dim ? ", " : "") << sizes[dim];
  os << "] strides = [";
  for (int64_t dim = 0; dim < rank; ++dim)
    os << (dim ? ", " : "") << strides[dim];
  os << "] data = \n";
  const T *base = descriptor->aligned + descriptor->offset;
  if (rank == 0)
    os << '[' << +*base << ']';
  else
    printElements(os, base, sizes, strides, rank, 0, 0);
  os << '\n';
  std::cout << os.str() << std::flush;
}
} // namespace

TIRX_EXPORT void _mlir_ciface_printMemrefF32(UnrankedMemRef *memref) {
  printMemref<float>(memref);
}

TIRX_EXPORT void _mlir_ciface_printMemrefI32(UnrankedMemRef *memref) {
  printMemref<int32_t>(memref);
}
