# Static linking against Debian's LLVM/MLIR archives (TIRX_LINK_MLIR_DYLIB=OFF).
#
# Debian builds MLIR against the shared libLLVM, so every imported libMLIR*.a
# target names the shared `LLVM` in its interface, and LLVMSupport names an
# absolute libz3.so and the shared zlib/zstd. Here those interfaces are
# rewritten: `LLVM` becomes one group of all LLVM component archives (the
# linker keeps only what is used), z3 is dropped (only LLVM's unused SMT
# solver interface needs it), and zlib/zstd point at their static archives.
# The result is a binary (or shared library) that needs only libc/libm at run
# time.

find_library(TIRX_ZSTD_STATIC NAMES libzstd.a REQUIRED)
find_library(TIRX_ZLIB_STATIC NAMES libz.a REQUIRED)

# Components that must never be linked: they need archives Debian does not
# ship (Polly) or pull in things no TirX tool uses.
set(_tirx_excluded_components
  LLVM LLVMExtensions LLVMLTO LLVMDTLTO LLVMDebuginfod LLVMLineEditor
  LLVMOptDriver LLVMWindowsManifest LLVMInterpreter)

set(_tirx_llvm_archives)
foreach(component ${LLVM_AVAILABLE_LIBS})
  if(NOT component MATCHES "^LLVM" OR component IN_LIST _tirx_excluded_components
     OR component MATCHES "^LLVM(BOLT|Exegesis)" OR NOT TARGET ${component})
    continue()
  endif()
  get_target_property(_type ${component} TYPE)
  if(_type STREQUAL "STATIC_LIBRARY")
    list(APPEND _tirx_llvm_archives ${component})
  endif()
endforeach()

# Shared libraries (libTirXCAPI.so, what the wheel ships) take zlib/zstd
# from the archives too, so that they need nothing outside manylinux's
# system libraries. Debian compiles those archives as PIE, not PIC: their
# global symbols may only go into a shared library that makes them local,
# i.e. one linked with -Wl,--exclude-libs,ALL (lld refuses otherwise:
# "relocation R_X86_64_PC32 cannot be used against symbol ...").
set(_tirx_executable "$<NOT:$<STREQUAL:$<TARGET_PROPERTY:TYPE>,SHARED_LIBRARY>>")
add_library(TirXLLVMStatic INTERFACE)
target_link_libraries(TirXLLVMStatic INTERFACE
  -Wl,--start-group ${_tirx_llvm_archives} -Wl,--end-group
  ${TIRX_ZSTD_STATIC} ${TIRX_ZLIB_STATIC} pthread rt dl m)

get_directory_property(_tirx_imported IMPORTED_TARGETS)
foreach(target ${_tirx_imported})
  get_target_property(_libs ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT _libs)
    continue()
  endif()
  set(_rewritten)
  foreach(lib ${_libs})
    if(lib STREQUAL "LLVM")
      list(APPEND _rewritten TirXLLVMStatic)
    elseif(lib STREQUAL "MLIR")
      # Tool libraries (JitRunner, ExecutionEngine) name the MLIR dylib: the
      # static archives a tool links already provide it.
    elseif(lib MATCHES "libz3\\.so" OR lib IN_LIST _tirx_excluded_components
           OR lib MATCHES "^(LLVM)?Polly")
      # dropped: see above
    elseif(lib STREQUAL "zstd::libzstd_shared" OR lib STREQUAL "ZLIB::ZLIB")
      # provided by TirXLLVMStatic
    else()
      list(APPEND _rewritten ${lib})
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES
                        "${_rewritten}")
endforeach()

# Small, fast-starting binaries: drop unused sections, fold identical code,
# no PIE for executables, the C++ runtime linked in (also into the shared
# libraries: libTirXCAPI.so needs no libstdc++.so.6 / libgcc_s.so.1). Objects
# stay position independent so that libTirXCAPI.so can be made of the same
# archives. Targets add their own options with target_link_options: setting
# the LINK_OPTIONS property would drop these.
add_link_options(-Wl,--gc-sections -Wl,--icf=all -Wl,--as-needed
                 "$<${_tirx_executable}:-no-pie>"
                 -static-libstdc++ -static-libgcc)
