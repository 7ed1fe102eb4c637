"""libTirXRuntime.so through ctypes (its functions' signatures, its last
error as a GPUError), the kernel loader, and the launcher's C fast path
module (lib/Python/FastLaunch.c), looked for once."""
import ctypes
import importlib.util
import os
import sys
import warnings

from .. import _capi

_lib = None


class _PreparedLaunch(ctypes.Structure):
    """TirxPreparedLaunch (include/TirX/Runtime/TirXRuntime.h)."""
    _fields_ = [("name", ctypes.c_void_p), ("function", ctypes.c_void_p),
                ("context", ctypes.c_void_p), ("grid", ctypes.c_uint * 3),
                ("block", ctypes.c_uint * 3), ("sharedMemBytes", ctypes.c_uint),
                ("stream", ctypes.c_void_p), ("args", ctypes.POINTER(ctypes.c_void_p)),
                ("numArgs", ctypes.c_size_t)]


def _runtime():
    global _lib
    if _lib is None:
        lib = _capi.load_library("libTirXRuntime.so")
        lib.tirxGetLastErrorMessage.restype = ctypes.c_char_p
        lib.tirxGetComputeCapability.argtypes = [ctypes.POINTER(ctypes.c_int)]
        lib.tirxModuleLoadData.argtypes = [ctypes.c_char_p, ctypes.c_size_t,
                                           ctypes.POINTER(ctypes.c_void_p)]
        lib.tirxModuleGetKernel.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                            ctypes.POINTER(ctypes.c_void_p)]
        lib.tirxKernelLaunch.argtypes = [
            ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint),
            ctypes.c_uint, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
        lib.tirxGetDevice.argtypes = [ctypes.POINTER(ctypes.c_int)]
        lib.tirxPointerGetDevice.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
        lib.tirxModuleLoadDataOnDevice.argtypes = [
            ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
        lib.tirxKernelPrepareLaunch.argtypes = [
            ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t, ctypes.POINTER(_PreparedLaunch)]
        lib.tirxLaunchPrepared.argtypes = [ctypes.POINTER(_PreparedLaunch)]
        lib.tirxPreparedLaunchSetSharedBytes.argtypes = [ctypes.POINTER(_PreparedLaunch),
                                                         ctypes.c_uint]
        lib.tirxTensorMapEncode.argtypes = [
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint,
            ctypes.POINTER(ctypes.c_ulonglong), ctypes.POINTER(ctypes.c_ulonglong),
            ctypes.POINTER(ctypes.c_uint), ctypes.c_uint]
        lib.tirxTensorMapEncodeTyped.argtypes = [
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_char_p, ctypes.c_uint,
            ctypes.POINTER(ctypes.c_ulonglong), ctypes.POINTER(ctypes.c_ulonglong),
            ctypes.POINTER(ctypes.c_uint), ctypes.c_uint]
        _lib = lib
    return _lib


_fast_launch = False  # tirx._fastlaunch, once looked for


def _fast_launch_module():
    """tirx._fastlaunch (lib/Python/FastLaunch.c: the launch-argument
    checker and fast path in C, beside libTirXRuntime.so), or None when it
    was not built, Python is older than its 3.11 limited API or
    free-threaded, or the file does not load (a RuntimeWarning). Launching
    needs it (runtime/_plan.py says so)."""
    global _fast_launch
    if _fast_launch is False:
        _fast_launch = None
        import sysconfig  # (only here: tirx's import stays light)
        # The limited API's ABI (abi3) is not the free-threaded build's.
        usable = sys.version_info >= (3, 11) and not sysconfig.get_config_var("Py_GIL_DISABLED")
        if usable:
            for path in _capi.library_candidates("_fastlaunch.abi3.so"):
                if not os.path.exists(path):
                    continue
                try:
                    spec = importlib.util.spec_from_file_location("tirx._fastlaunch", path)
                    module = importlib.util.module_from_spec(spec)
                    spec.loader.exec_module(module)
                except ImportError as error:
                    warnings.warn("tirx: the launcher's C part %s does not load (%s); "
                                  "kernels cannot be launched" % (path, error),
                                  RuntimeWarning, stacklevel=2)
                else:
                    _fast_launch = module
                break
    return _fast_launch


class GPUError(RuntimeError):
    """The GPU, its driver or a launch failed."""


# TirxStatus's TIRX_ERROR_INVALID_IMAGE (TirXRuntime.h).
_INVALID_IMAGE = 2


def _raise_last_error():
    """Raises the runtime's last error as a GPUError."""
    raise GPUError(_runtime().tirxGetLastErrorMessage().decode())


def _check(status):
    if status != 0:
        _raise_last_error()


def compute_capability():
    """The current GPU as major*10+minor (GPUError without one)."""
    value = ctypes.c_int()
    _check(_runtime().tirxGetComputeCapability(ctypes.byref(value)))
    return value.value


def load(ptx, name):
    """The kernel `name` of `ptx`, loaded on the current device."""
    module, kernel = ctypes.c_void_p(), ctypes.c_void_p()
    data = ptx.encode()
    _check(_runtime().tirxModuleLoadData(data, len(data), ctypes.byref(module)))
    _check(_runtime().tirxModuleGetKernel(module, name.encode(), ctypes.byref(kernel)))
    return kernel

