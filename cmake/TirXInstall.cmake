# `cmake --install build --prefix P`: headers, libraries, tools, the Python
# package (P/python_packages/tirx) and the CMake package lib/cmake/TirX
# (TirXConfig.cmake, its version file, the exported targets TirX::<library>
# and the umbrella TirX::TirX), laid out like MLIRConfig.cmake and
# CIRCTConfig.cmake. A downstream project writes
#   find_package(TirX REQUIRED CONFIG)
#   target_link_libraries(my-tool PRIVATE TirX::TirX)
# (test/embedding is one, built against an install by `make check`).

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/TirX ${PROJECT_SOURCE_DIR}/include/TirX-c
  DESTINATION include
  COMPONENT tirx-headers
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/TirX
  DESTINATION include
  COMPONENT tirx-headers
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# Installed tools and shared libraries find TirX's own libraries next to
# them and libMLIR.so/libLLVM.so where the LLVM/MLIR package put them: one
# RUNPATH for all, so nothing needs LD_LIBRARY_PATH.
# The static build's (make static, the wheel's) need nothing but the C
# library's: they get no RUNPATH at all (test/wheel/check-wheel.sh checks
# the wheel's). (A non-empty INSTALL_RPATH would
# also make CMake pad the build tree's RUNPATH with ':' to leave room for it
# at install time: empty entries, i.e. the current directory, in the very
# files make-wheel.sh and make-gpu-bundle.sh ship.)
if(TIRX_LINK_MLIR_DYLIB)
  set(TIRX_INSTALL_RPATH "\$ORIGIN/../lib${LLVM_LIBDIR_SUFFIX};${LLVM_LIBRARY_DIR}")
else()
  set(TIRX_INSTALL_RPATH "")
endif()
set(TIRX_INSTALLED_TOOLS tirx-opt tirx-layout tirx-lsp-server tirx-reduce)
set(TIRX_INSTALLED_SHARED_LIBRARIES TirXCAPI)
if(TIRX_ENABLE_RUNTIME)
  list(APPEND TIRX_INSTALLED_SHARED_LIBRARIES TirXRuntime)
endif()
set_target_properties(${TIRX_INSTALLED_TOOLS} ${TIRX_INSTALLED_SHARED_LIBRARIES}
  PROPERTIES INSTALL_RPATH "${TIRX_INSTALL_RPATH}")
if(NOT TIRX_LINK_MLIR_DYLIB)
  # Nor in the build tree: add_llvm_executable's build RPATH
  # ($ORIGIN/../lib, the LLVM library folder and an empty entry) is of no use
  # to a tool that links no shared library.
  set_target_properties(${TIRX_INSTALLED_TOOLS} ${TIRX_INSTALLED_SHARED_LIBRARIES}
    PROPERTIES SKIP_BUILD_RPATH ON)
  # The programs that load libTirXRuntime.so (make gpu-bundle ships them with
  # it in ../lib) find it there and nowhere else: no absolute build folder
  # (CMake's build RPATH adds the one of every linked shared library).
  foreach(_tirx_program tirx-runner tirx-runtime-check run-affine-relu)
    if(TARGET ${_tirx_program})
      set_target_properties(${_tirx_program} PROPERTIES
        INSTALL_RPATH "\$ORIGIN/../lib" BUILD_WITH_INSTALL_RPATH ON)
    endif()
  endforeach()
endif()
install(TARGETS ${TIRX_INSTALLED_TOOLS}
  RUNTIME DESTINATION bin COMPONENT tirx-tools)
install(TARGETS ${TIRX_INSTALLED_SHARED_LIBRARIES}
  LIBRARY DESTINATION lib${LLVM_LIBDIR_SUFFIX}
  COMPONENT tirx-libraries)
# The launcher's C fast path (lib/Python), beside the runtime library, where
# the package looks for it as for the libraries.
if(TARGET TirXFastLaunch)
  install(TARGETS TirXFastLaunch
    LIBRARY DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    COMPONENT tirx-python)
endif()

# The Python package, laid out as MLIR's (P/python_packages/<package>):
# with PYTHONPATH=P/python_packages, `import tirx` loads P/lib's
# libTirXCAPI.so and libTirXRuntime.so, found relative to the package
# (python/tirx/_capi.py). TIRX_PYTHON_PACKAGES_DIR must stay two levels
# below the prefix for that.
set(TIRX_PYTHON_PACKAGES_DIR python_packages)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/tirx
  DESTINATION ${TIRX_PYTHON_PACKAGES_DIR}
  COMPONENT tirx-python
  FILES_MATCHING PATTERN "*.py"
  PATTERN "__pycache__" EXCLUDE)

# The exported link interfaces name MLIR's targets; the statically linked
# build (make static) rewrites those to a build-local target, so only the
# shared-libMLIR build exports a package.
if(TIRX_LINK_MLIR_DYLIB)
  include(CMakePackageConfigHelpers)
  set(TIRX_INSTALL_PACKAGE_DIR lib${LLVM_LIBDIR_SUFFIX}/cmake/TirX)
  set(TIRX_PACKAGE_BUILD_DIR ${PROJECT_BINARY_DIR}/lib/cmake/TirX)
  get_property(TIRX_EXPORTS GLOBAL PROPERTY TIRX_EXPORTS)
  # Libraries of a sanitizer build (make check-sanitize) need its runtimes
  # in whatever links them.
  set(TIRX_SANITIZER_LINK_OPTIONS "")
  if(LLVM_USE_SANITIZER MATCHES "Address")
    list(APPEND TIRX_SANITIZER_LINK_OPTIONS "-fsanitize=address")
  endif()
  if(LLVM_USE_SANITIZER MATCHES "Undefined")
    list(APPEND TIRX_SANITIZER_LINK_OPTIONS "-fsanitize=undefined")
  endif()
  install(EXPORT TirXTargets
    NAMESPACE TirX::
    DESTINATION ${TIRX_INSTALL_PACKAGE_DIR}
    COMPONENT tirx-cmake-exports)
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TirXConfig.cmake.in
    ${TIRX_PACKAGE_BUILD_DIR}/TirXConfig.cmake
    INSTALL_DESTINATION ${TIRX_INSTALL_PACKAGE_DIR}
    PATH_VARS TIRX_INSTALL_PACKAGE_DIR)
  write_basic_package_version_file(${TIRX_PACKAGE_BUILD_DIR}/TirXConfigVersion.cmake
    VERSION ${PROJECT_VERSION}
    COMPATIBILITY SameMinorVersion)
  install(FILES ${TIRX_PACKAGE_BUILD_DIR}/TirXConfig.cmake
    ${TIRX_PACKAGE_BUILD_DIR}/TirXConfigVersion.cmake
    DESTINATION ${TIRX_INSTALL_PACKAGE_DIR}
    COMPONENT tirx-cmake-exports)
endif()
