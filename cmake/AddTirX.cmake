# TirX libraries install into TirX's own export set (TirXTargets), not into
# MLIR's: each add_mlir_*library call passes DISABLE_INSTALL and is followed
# by tirx_install_library, the way CIRCT's add_circt_library does it.
function(tirx_install_library name)
  install(TARGETS ${name}
    EXPORT TirXTargets
    COMPONENT tirx-libraries
    LIBRARY DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    ARCHIVE DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    RUNTIME DESTINATION bin)
  set_property(GLOBAL APPEND PROPERTY TIRX_EXPORTS ${name})
endfunction()
