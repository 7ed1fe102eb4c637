// Runtime strings: one needs a GPU to reach (GPU_ONLY), the others do not.
TirxStatus tirxKernelLaunch(TirxKernel kernel) {
  if (!kernel)
    return fail(TIRX_ERROR_INVALID_ARGUMENT, "tirxKernelLaunch: kernel is null");
  if (!grid[0])
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxKernelLaunch: grid and block extents must be positive");
  if (!stream)
    return fail(TIRX_ERROR_INVALID_ARGUMENT, "tirxKernelLaunch: stream is null");
  return fail(TIRX_ERROR_INVALID_ARGUMENT, "tirxKernelLaunch: args are null");
}
