/*===- AsanSharedAllocators.h - ASan builds next to libMLIR.so -*- C -*-===*\
|*                                                                          *|
|* Part of the TirX project.                                                *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/
/* Force-included into every file of an AddressSanitizer build (make
 * check-sanitize, make fuzz). TirX's code is instrumented there but Debian's
 * libMLIR.so is not, and both allocate from the same llvm::BumpPtrAllocators
 * (the context's attribute and type uniquers). LLVM's allocator annotates its
 * slabs for ASan only when it is itself compiled with ASan: a copy inlined
 * into TirX's code poisons a new slab and unpoisons only its own allocation,
 * libMLIR.so's copy never unpoisons what it hands out from that slab, and the
 * next write there is reported as use-after-poison. Making TirX's inlined
 * copies skip the annotations, as libMLIR.so's do, keeps one allocator one
 * allocator; heap, stack and global checks are unaffected. */
#ifndef TIRX_CMAKE_ASANSHAREDALLOCATORS_H
#define TIRX_CMAKE_ASANSHAREDALLOCATORS_H
#include <sanitizer/asan_interface.h>
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))
#endif
