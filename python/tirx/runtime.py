"""Launching compiled kernels through libTirXRuntime.so (ctypes)."""
import ctypes
import math
import numbers
import sys

from . import _capi
from ._dsl import DTYPES, DType, TensorType

_lib = None


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
        _lib = lib
    return _lib


class GPUError(RuntimeError):
    """The GPU, its driver or a launch failed."""


def _check(status):
    if status != 0:
        raise GPUError(_runtime().tirxGetLastErrorMessage().decode())


def compute_capability():
    """The current GPU as major*10+minor (GPUError without one)."""
    value = ctypes.c_int()
    _check(_runtime().tirxGetComputeCapability(ctypes.byref(value)))
    return value.value


def load(ptx, name):
    module, kernel = ctypes.c_void_p(), ctypes.c_void_p()
    data = ptx.encode()
    _check(_runtime().tirxModuleLoadData(data, len(data), ctypes.byref(module)))
    _check(_runtime().tirxModuleGetKernel(module, name.encode(), ctypes.byref(kernel)))
    return kernel


_CTYPES = {"f32": ctypes.c_float, "f64": ctypes.c_double, "i32": ctypes.c_int32,
           "ui32": ctypes.c_uint32, "i64": ctypes.c_int64, "ui64": ctypes.c_uint64,
           "i16": ctypes.c_int16, "ui16": ctypes.c_uint16, "i8": ctypes.c_int8,
           "ui8": ctypes.c_uint8, "i1": ctypes.c_bool}


def _check_scalar(name, kind, arg):
    # Python's numeric tower: an int is a valid float, a float is not an int.
    expected = numbers.Real if kind.is_float else numbers.Integral
    if not isinstance(arg, expected):
        raise TypeError("parameter '%s' is a %s scalar, got %s" % (name, kind.name,
                                                                   type(arg).__name__))
    if kind.mlir not in _CTYPES:
        raise TypeError("parameter '%s': %s scalars cannot be passed yet" % (name, kind.name))
    if kind.is_float:
        value = float(arg)
        limit = 3.4028234663852886e38 if kind.bits == 32 else float("inf")
        fits = not math.isfinite(value) or abs(value) <= limit
    else:
        value = int(arg)
        low = 0 if kind.kind == "u" else -(1 << (kind.bits - 1))
        fits = low <= value < low + (1 << kind.bits)
    if not fits:
        raise ValueError("parameter '%s' = %r is out of range for %s" % (name, arg, kind.name))
    return _CTYPES[kind.mlir](value)


def check_argument(name, kind, arg):
    """The ctypes value to pass for parameter `name`, after checking it."""
    if isinstance(kind, DType):
        return _check_scalar(name, kind, arg)
    if getattr(arg, "requires_grad", False) and hasattr(arg, "detach"):
        arg = arg.detach()  # PyTorch refuses the interface otherwise
    interface = getattr(arg, "__cuda_array_interface__", None)
    if interface is None:
        where = ""
        if hasattr(arg, "device"):
            where = " on %s" % (arg.device,)
        raise TypeError("parameter '%s' needs a CUDA tensor (an object with "
                        "__cuda_array_interface__), got %s%s" % (name, type(arg).__name__, where))
    data = interface.get("data") if isinstance(interface, dict) else None
    shape = interface.get("shape") if isinstance(interface, dict) else None
    if not isinstance(data, (tuple, list)) or not data or not isinstance(shape, (tuple, list)) \
            or not isinstance(interface.get("typestr"), str):
        raise TypeError("parameter '%s' has a malformed __cuda_array_interface__ (it needs "
                        "shape, typestr and data)" % name)
    shape = tuple(shape)
    if len(shape) != len(kind.shape):
        raise ValueError("parameter '%s' has rank %d, expected %d (shape %s)" % (
            name, len(shape), len(kind.shape), kind.shape))
    if shape != kind.shape:
        raise ValueError("parameter '%s' has shape %s, expected %s" % (name, shape, kind.shape))
    typestr = interface["typestr"]
    expected = kind.dtype.typestr
    if typestr != expected and not (kind.dtype.name == "bfloat16" and typestr in ("<V2", "<f2")):
        raise TypeError("parameter '%s' has element type %s, expected %s (%s)" % (
            name, typestr, expected, kind.dtype.name))
    if interface.get("mask") is not None:
        raise ValueError("parameter '%s' is a masked array; pass the data without a mask" % name)
    strides = interface.get("strides")
    if strides is not None:
        itemsize = kind.dtype.bits // 8
        step, compact = itemsize, []
        for extent in reversed(shape):
            compact.insert(0, step)
            step *= extent
        # A dimension of extent 1 may have any stride.
        if any(s != c for s, c, e in zip(strides, compact, shape) if e > 1) or \
                len(strides) != len(shape):
            raise ValueError("parameter '%s' is not contiguous (strides %s bytes, "
                             "expected %s)" % (name, tuple(strides), tuple(compact)))
    pointer = data[0]
    if not isinstance(pointer, int) or pointer <= 0:
        raise ValueError("parameter '%s' has no device memory (data pointer %r)"
                         % (name, pointer))
    align = kind.alignment_or_default
    if pointer % align:
        raise ValueError("parameter '%s' is at address 0x%x, not aligned to the declared "
                         "%d bytes" % (name, pointer, align))
    return ctypes.c_void_p(pointer)


def _tensor_check(name, kind):
    """check_argument for one tensor parameter, with a fast path for PyTorch
    tensors that are right (their attributes instead of building
    __cuda_array_interface__, which costs microseconds); anything else, and
    every error, goes through check_argument."""
    align = kind.alignment_or_default
    shape = tuple(kind.shape)

    def check(arg):
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(arg, torch.Tensor):
            if arg.is_cuda and arg.dtype == getattr(torch, kind.dtype.name, None) \
                    and arg.shape == shape and arg.is_contiguous():
                pointer = arg.data_ptr()
                if pointer and pointer % align == 0:
                    return ctypes.c_void_p(pointer)
        return check_argument(name, kind, arg)
    return check


def _argument_check(name, kind):
    if isinstance(kind, DType):
        return lambda arg: _check_scalar(name, kind, arg)
    return _tensor_check(name, kind)


def _dim3(extents):
    return (ctypes.c_uint * 3)(*(tuple(extents) + (1, 1, 1))[:3])


class Launcher:
    """The launch path of one compiled kernel, with what does not change
    between calls prepared once: a check per parameter, the grid and block,
    the loaded kernel. A call checks every argument (nothing reaches the GPU
    when one is wrong), then launches on the caller's current stream."""

    def __init__(self, name, ptx, params, grid, block):
        self._name, self._ptx = name, ptx
        self._checks = [_argument_check(n, k) for n, k in params]
        self._grid, self._block = _dim3(grid), _dim3(block)
        self._pointers = ctypes.c_void_p * max(len(params), 1)
        self._kernel = None

    def __call__(self, args):
        values = [check(arg) for check, arg in zip(self._checks, args)]
        if self._kernel is None:
            self._kernel = load(self._ptx, self._name)
        pointers = self._pointers(*[ctypes.addressof(value) for value in values])
        _check(_runtime().tirxKernelLaunch(self._kernel, self._grid, self._block, 0,
                                           current_stream(args), pointers, len(values)))


def current_stream(args):
    """The caller's current stream: PyTorch's or CuPy's, else the default."""
    for arg in args:
        module = type(arg).__module__
        if module.startswith("torch"):
            torch = sys.modules["torch"]
            raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
            if raw is not None and hasattr(arg, "get_device"):
                return ctypes.c_void_p(raw(arg.get_device()))
            return ctypes.c_void_p(torch.cuda.current_stream(arg.device).cuda_stream)
        if module.startswith("cupy"):
            import cupy
            return ctypes.c_void_p(cupy.cuda.get_current_stream().ptr)
    return ctypes.c_void_p(0)
