"""Launching compiled kernels through libTirXRuntime.so (ctypes).

Every argument check of a call is here. A `Launcher` (one per compiled
kernel) has two paths:

- the fast path, a function generated for the kernel's parameters: PyTorch
  tensors that are right (exact `torch.Tensor`s on one CUDA device, with the
  declared dtype, shape, contiguity and alignment) and plain Python scalars
  in range are checked through their attributes, their values stored into
  preallocated ctypes slots, and the kernel launched with one ctypes call
  (`tirxLaunchPrepared`) on the tensors' device and its current PyTorch
  stream;
- the general path, taken by anything the fast path does not accept: it
  checks every argument again, one by one (PyTorch tensors,
  `__cuda_array_interface__`, DLPack), raises the error that names the
  parameter, or launches with freshly allocated ctypes values.

Nothing reaches the GPU before every argument is checked. The fast path's
slots belong to the first thread that launches the kernel; other threads
take the general path, so concurrent calls never share a buffer.
"""
import ctypes
import importlib.util
import math
import numbers
import os
import sys
import threading
import warnings

from . import _capi
from ._dsl import DTYPES, DType

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
    """tirx._fastlaunch (lib/Python/FastLaunch.c: the launcher's fast path
    in C, beside libTirXRuntime.so), or None when it was not built, Python
    is older than its 3.11 limited API or free-threaded, TIRX_FAST_LAUNCH=0,
    or the file does not load (a RuntimeWarning)."""
    global _fast_launch
    if _fast_launch is False:
        _fast_launch = None
        import sysconfig  # (only here: tirx's import stays light)
        # The limited API's ABI (abi3) is not the free-threaded build's.
        usable = sys.version_info >= (3, 11) and not sysconfig.get_config_var("Py_GIL_DISABLED")
        if os.environ.get("TIRX_FAST_LAUNCH", "1") != "0" and usable:
            for path in _capi.library_candidates("_fastlaunch.abi3.so"):
                if not os.path.exists(path):
                    continue
                try:
                    spec = importlib.util.spec_from_file_location("tirx._fastlaunch", path)
                    module = importlib.util.module_from_spec(spec)
                    spec.loader.exec_module(module)
                except ImportError as error:
                    warnings.warn("tirx: the launcher's C fast path %s does not load (%s); "
                                  "launches take the Python fast path" % (path, error),
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


#===------------------------------------------------------------------------===#
# Scalars
#===------------------------------------------------------------------------===#

_CTYPES = {"f32": ctypes.c_float, "f64": ctypes.c_double, "i32": ctypes.c_int32,
           "ui32": ctypes.c_uint32, "i64": ctypes.c_int64, "ui64": ctypes.c_uint64,
           "i16": ctypes.c_int16, "ui16": ctypes.c_uint16, "i8": ctypes.c_int8,
           "ui8": ctypes.c_uint8, "i1": ctypes.c_bool}
_F32_MAX = 3.4028234663852886e38
_F64_MAX = 1.7976931348623157e308


def _fast_scalar_range(kind):
    """The values a scalar parameter's fast paths (C and Python) accept:
    (low, high), or None when a scalar of its type always takes the general
    path. Floats: finite within the type's range (ints too); integers: the
    type's range."""
    if kind.mlir in ("f32", "f64"):
        limit = _F32_MAX if kind.mlir == "f32" else _F64_MAX
        return -limit, limit
    if kind.mlir in _CTYPES and kind.mlir != "i1":
        low = 0 if kind.kind in "ub" else -(1 << (kind.bits - 1))
        return low, low + (1 << kind.bits) - 1
    return None


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
        limit = _F32_MAX if kind.bits == 32 else float("inf")
        fits = not math.isfinite(value) or abs(value) <= limit
    else:
        value = int(arg)
        low = 0 if kind.kind in "ub" else -(1 << (kind.bits - 1))
        fits = low <= value < low + (1 << kind.bits)
    if not fits:
        raise ValueError("parameter '%s' = %r is out of range for %s" % (name, arg, kind.name))
    return _CTYPES[kind.mlir](value)


#===------------------------------------------------------------------------===#
# Tensors: shapes and size variables, element types, strides, pointers
#===------------------------------------------------------------------------===#

def _is_static(extent):
    return isinstance(extent, int) and not isinstance(extent, bool)


def _shape_text(shape):
    """A declared shape, size variables by name: (n, 4), (n,)."""
    items = [str(d) if _is_static(d) else d.name for d in shape]
    return "(%s%s)" % (", ".join(items), "," if len(items) == 1 else "")


def _check_shape(name, kind, shape, sizes, bound):
    """Checks `shape` (a tuple of ints) against the declared one; binds the
    size variables it is the first to use (into `sizes`, with where they
    were bound in `bound`) and checks those bound before."""
    declared = kind.shape
    if len(shape) != len(declared):
        raise ValueError("parameter '%s' has rank %d, expected %d (shape %s)" % (
            name, len(shape), len(declared), _shape_text(declared)))
    for dim, (extent, want) in enumerate(zip(shape, declared)):
        if _is_static(want):
            if extent != want:
                raise ValueError("parameter '%s' has shape %s, expected %s" % (
                    name, _shape_text(shape), _shape_text(declared)))
            continue
        var = want.name
        if var in sizes:
            if extent != sizes[var]:
                first, first_dim = bound[var]
                raise ValueError(
                    "parameter '%s' has shape %s, but %s = %d from parameter '%s' (its "
                    "dimension %d; dimension %d of '%s' is %s too)" % (
                        name, _shape_text(shape), var, sizes[var], first, first_dim, dim,
                        name, var))
            continue
        if extent < 1:
            raise ValueError("parameter '%s' has shape %s: dimension %d is the size variable "
                             "%s, and a size must be at least 1" % (
                                 name, _shape_text(shape), dim, var))
        if extent % want.multiple_of:
            raise ValueError("parameter '%s': %s = %d is not a multiple of %d, as the size "
                             "variable %s declares" % (name, var, extent, want.multiple_of,
                                                       var))
        if want.at_most is not None and extent > want.at_most:
            raise ValueError("parameter '%s': %s = %d is more than %d, the most the size "
                             "variable %s declares" % (name, var, extent, want.at_most, var))
        sizes[var] = extent
        bound[var] = (name, dim)


def _check_strides(name, shape, strides, itemsize):
    """`strides` in bytes (None: compact) must be row-major compact; a
    dimension of extent 1 may have any stride."""
    if strides is None:
        return
    strides = tuple(strides)
    step, compact = itemsize, []
    for extent in reversed(shape):
        compact.insert(0, step)
        step *= extent
    if len(strides) != len(shape) or \
            any(s != c for s, c, e in zip(strides, compact, shape) if e > 1):
        raise ValueError("parameter '%s' is not contiguous (strides %s bytes, "
                         "expected %s)" % (name, strides, tuple(compact)))


def _check_pointer(name, kind, pointer):
    if not isinstance(pointer, int) or pointer <= 0:
        raise ValueError("parameter '%s' has no device memory (data pointer %r)"
                         % (name, pointer))
    align = kind.alignment_or_default
    if pointer % align:
        raise ValueError("parameter '%s' is at address 0x%x, not aligned to the declared "
                         "%d bytes" % (name, pointer, align))
    return pointer


def _dtype_error(name, got, kind):
    return TypeError("parameter '%s' has element type %s, expected %s (%s)" % (
        name, got, kind.dtype.typestr, kind.dtype.name))


def _needs_cuda(name, arg, where=None):
    if where is None and hasattr(arg, "device"):
        where = arg.device
    return TypeError("parameter '%s' needs a CUDA tensor (an object with "
                     "__cuda_array_interface__ or __dlpack__), got %s%s" % (
                         name, type(arg).__name__, "" if where is None else " on %s" % where))


def _check_interface(name, kind, arg, sizes, bound):
    """A `__cuda_array_interface__` object: its data pointer, checked."""
    interface = arg.__cuda_array_interface__
    data = interface.get("data") if isinstance(interface, dict) else None
    shape = interface.get("shape") if isinstance(interface, dict) else None
    if not isinstance(data, (tuple, list)) or not data or not isinstance(shape, (tuple, list)) \
            or not isinstance(interface.get("typestr"), str):
        raise TypeError("parameter '%s' has a malformed __cuda_array_interface__ (it needs "
                        "shape, typestr and data)" % name)
    shape = tuple(shape)
    _check_shape(name, kind, shape, sizes, bound)
    typestr = interface["typestr"]
    if typestr != kind.dtype.typestr and \
            not (kind.dtype.name == "bfloat16" and typestr in ("<V2", "<f2")):
        raise _dtype_error(name, typestr, kind)
    if interface.get("mask") is not None:
        raise ValueError("parameter '%s' is a masked array; pass the data without a mask" % name)
    _check_strides(name, shape, interface.get("strides"), kind.dtype.bits // 8)
    return _check_pointer(name, kind, data[0])


# Predicate ("bool") tensors live in registers only: no tensor argument.
_TORCH_TYPESTR = {"torch." + d.name: d.typestr for d in DTYPES.values() if d.kind != "b"}


def _check_torch(name, kind, arg, sizes, bound):
    """A PyTorch tensor: its data pointer, checked through its attributes."""
    if not arg.is_cuda:
        raise _needs_cuda(name, arg)
    shape = tuple(arg.shape)
    _check_shape(name, kind, shape, sizes, bound)
    expected = getattr(sys.modules["torch"], kind.dtype.name, None)
    if arg.dtype != expected:
        raise _dtype_error(name, _TORCH_TYPESTR.get(str(arg.dtype), str(arg.dtype)), kind)
    itemsize = arg.element_size()
    _check_strides(name, shape, [s * itemsize for s in arg.stride()], itemsize)
    return _check_pointer(name, kind, arg.data_ptr())


#===------------------------------------------------------------------------===#
# DLPack (the array API standard's __dlpack__ / __dlpack_device__)
#===------------------------------------------------------------------------===#

_KDLCUDA = 2
_DLPACK_DEVICES = {1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan",
                   8: "metal", 9: "vpi", 10: "rocm", 11: "rocm_host", 13: "cuda_managed",
                   14: "oneapi"}
# DLPack's (type code, bits) of each element type (kDLInt 0, kDLUInt 1,
# kDLFloat 2, kDLBfloat 4), one lane.
_DLPACK_CODES = {"i": 0, "u": 1, "f": 2}


def _dlpack_dtype(dtype):
    return (4 if dtype.name == "bfloat16" else _DLPACK_CODES[dtype.kind], dtype.bits, 1)


_DLPACK_NAMES = {_dlpack_dtype(d): d.typestr for d in DTYPES.values()
                 if d.kind != "b"}  # predicates live in registers only


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


class _DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
# PyCapsule_SetName keeps the pointer it is given: the names live as long
# as the module.
_USED_NAMES = {b"dltensor": ctypes.create_string_buffer(b"used_dltensor"),
               b"dltensor_versioned": ctypes.create_string_buffer(b"used_dltensor_versioned")}
_capsule_api = None


def _capsules():
    global _capsule_api
    if _capsule_api is None:
        api = ctypes.PyDLL(None)
        api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
        api.PyCapsule_IsValid.restype = ctypes.c_int
        api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        api.PyCapsule_GetPointer.restype = ctypes.c_void_p
        api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_void_p]
        api.PyCapsule_SetName.restype = ctypes.c_int
        _capsule_api = api
    return _capsule_api


def _dlpack_where(device_type):
    return "DLPack device " + _DLPACK_DEVICES.get(device_type, "type %d" % device_type)


def _dlpack_device(arg):
    """(device type, device id) from __dlpack_device__, or None."""
    method = getattr(arg, "__dlpack_device__", None)
    if method is None:
        return None
    device_type, device_id = method()
    return int(device_type), int(device_id)


def _consume_dlpack(name, arg, stream, releases):
    """Takes the DLPack tensor of `arg` (exported for `stream`, a CUDA
    stream handle), as the protocol says: the capsule is renamed
    used_dltensor[_versioned], which makes this call its owner, and its
    deleter is appended to `releases` (called once the launch is queued).
    Returns the DLTensor."""
    # The array API's CUDA streams: 1 is the legacy default stream (a
    # handle of 0), and 0 is not allowed.
    stream = stream or 1
    try:
        capsule = arg.__dlpack__(stream=stream, max_version=(1, 0))
    except TypeError:  # a producer from before DLPack 1.0: no max_version
        capsule = arg.__dlpack__(stream=stream)
    api = _capsules()
    for capsule_name, struct in ((b"dltensor_versioned", _DLManagedTensorVersioned),
                                 (b"dltensor", _DLManagedTensor)):
        if api.PyCapsule_IsValid(capsule, capsule_name):
            break
    else:
        raise TypeError("parameter '%s': __dlpack__() returned %s, not an unused DLPack "
                        "capsule (named 'dltensor' or 'dltensor_versioned')" % (
                            name, type(capsule).__name__))
    address = api.PyCapsule_GetPointer(capsule, capsule_name)
    # From here the tensor is ours: the capsule's destructor no longer
    # calls the deleter, we do.
    api.PyCapsule_SetName(capsule, ctypes.addressof(_USED_NAMES[capsule_name]))
    managed = struct.from_address(address)
    if managed.deleter:
        deleter = _DELETER(managed.deleter)
        releases.append(lambda: deleter(address))
    if struct is _DLManagedTensorVersioned and managed.major != 1:
        raise ValueError("parameter '%s': its DLPack tensor has version %d.%d; TirX reads "
                         "version 1" % (name, managed.major, managed.minor))
    return managed.dl_tensor


def _check_dlpack(name, kind, arg, tensor, sizes, bound):
    """A consumed DLTensor: its data pointer, checked."""
    if tensor.device_type != _KDLCUDA:
        raise _needs_cuda(name, arg, _dlpack_where(tensor.device_type))
    if tensor.ndim < 0 or (tensor.ndim and not tensor.shape):
        raise TypeError("parameter '%s' has a malformed DLPack tensor (ndim %d, shape %s)" % (
            name, tensor.ndim, "NULL" if not tensor.shape else "set"))
    shape = tuple(tensor.shape[i] for i in range(tensor.ndim))
    _check_shape(name, kind, shape, sizes, bound)
    dtype = (tensor.code, tensor.bits, tensor.lanes)
    if dtype != _dlpack_dtype(kind.dtype):
        raise _dtype_error(name, _DLPACK_NAMES.get(
            dtype, "DLPack (code %d, bits %d, lanes %d)" % dtype), kind)
    itemsize = kind.dtype.bits // 8
    strides = None
    if tensor.strides:
        strides = [tensor.strides[i] * itemsize for i in range(tensor.ndim)]
    _check_strides(name, shape, strides, itemsize)
    return _check_pointer(name, kind, (tensor.data or 0) + tensor.byte_offset)


#===------------------------------------------------------------------------===#
# One argument, for tests and tools (a call checks all of them)
#===------------------------------------------------------------------------===#

def check_argument(name, kind, arg):
    """The ctypes value to pass for parameter `name` (of a static shape),
    after checking it."""
    if isinstance(kind, DType):
        return _check_scalar(name, kind, arg)
    sizes, bound, releases = {}, {}, []
    try:
        return ctypes.c_void_p(_check_tensor(name, kind, arg, sizes, bound, 0, releases))
    finally:
        for release in releases:
            release()


def _check_tensor(name, kind, arg, sizes, bound, stream, releases):
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(arg, torch.Tensor):
        return _check_torch(name, kind, arg, sizes, bound)
    if getattr(arg, "requires_grad", False) and hasattr(arg, "detach"):
        arg = arg.detach()  # a tensor-like that refuses the interface otherwise
    if getattr(arg, "__cuda_array_interface__", None) is not None:
        return _check_interface(name, kind, arg, sizes, bound)
    if hasattr(arg, "__dlpack__"):
        device = _dlpack_device(arg)
        if device is not None and device[0] != _KDLCUDA:
            raise _needs_cuda(name, arg, _dlpack_where(device[0]))
        return _check_dlpack(name, kind, arg, _consume_dlpack(name, arg, stream, releases),
                             sizes, bound)
    raise _needs_cuda(name, arg)


#===------------------------------------------------------------------------===#
# Devices and streams
#===------------------------------------------------------------------------===#

def _dlpack_only(arg, tensor_type):
    """Whether `arg` is read through DLPack (no PyTorch tensor, no
    __cuda_array_interface__)."""
    if tensor_type is not None and isinstance(arg, tensor_type):
        return False
    return getattr(arg, "__cuda_array_interface__", None) is None and \
        hasattr(arg, "__dlpack__")


def _device_of(arg, tensor_type):
    """The CUDA device of a tensor argument when it says so without a GPU
    call (PyTorch, DLPack), else None (a CPU tensor, or one only its data
    pointer can place: asked after every check)."""
    if tensor_type is not None and isinstance(arg, tensor_type):
        return arg.get_device() if arg.is_cuda else None
    try:
        device = _dlpack_device(arg)
    except Exception:  # a producer that cannot say: the checks will
        return None
    return device[1] if device is not None and device[0] == _KDLCUDA else None


def _stream_source(args):
    """Whose current stream a launch uses: "torch" when an argument is a
    PyTorch tensor, else "cupy" for a CuPy array, else None (the default
    stream)."""
    source = None
    for arg in args:
        module = type(arg).__module__
        if module.startswith("torch"):
            return "torch"
        if source is None and module.startswith("cupy"):
            source = "cupy"
    return source


def _stream(source, device):
    if source == "torch":
        return _torch_stream()(device)
    if source == "cupy":
        import cupy
        try:
            return cupy.cuda.get_current_stream(device).ptr
        except TypeError:  # CuPy before 13: no device argument
            with cupy.cuda.Device(device):
                return cupy.cuda.get_current_stream().ptr
    return 0


def _torch_stream():
    """PyTorch's current raw stream of a device, as a function of the device."""
    torch = sys.modules["torch"]
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw
    return lambda device: torch.cuda.current_stream(device).cuda_stream


def current_stream(args):
    """The caller's current stream for `args`: PyTorch's or CuPy's on the
    device of the first argument that says where it is, else the default."""
    torch = sys.modules.get("torch")
    source = _stream_source(args)
    for arg in args:
        device = _device_of(arg, torch.Tensor if torch is not None else None)
        if device is not None:
            return ctypes.c_void_p(_stream(source, device))
    return ctypes.c_void_p(0)


#===------------------------------------------------------------------------===#
# The launcher
#===------------------------------------------------------------------------===#

def _count_error(name, params, args):
    return TypeError("%s() takes %d argument(s) (%s), got %d" % (
        name, len(params), ", ".join(n for n, _ in params), len(args)))


def check_metadata(compiled, args):
    """The checks of a call that read no data: the argument count, and for
    each tensor parameter a CUDA PyTorch tensor (real or fake) of the
    declared rank, shape (size variables bound and checked) and dtype. The
    fake implementation of Compiled.as_torch_op (torch.compile traces with
    fake tensors); scalars, strides and pointers are checked at the launch."""
    if len(args) != len(compiled.params):
        raise _count_error(compiled.name, compiled.params, args)
    torch = sys.modules["torch"]
    sizes, bound = {}, {}
    for (name, kind), arg in zip(compiled.params, args):
        if isinstance(kind, DType):
            continue
        if not isinstance(arg, torch.Tensor) or arg.device.type != "cuda":
            raise _needs_cuda(name, arg)
        _check_shape(name, kind, tuple(arg.shape), sizes, bound)
        if arg.dtype != getattr(torch, kind.dtype.name, None):
            raise _dtype_error(name, _TORCH_TYPESTR.get(str(arg.dtype), str(arg.dtype)), kind)


_GRID_LIMITS = (("x", 2 ** 31 - 1), ("y", 65535), ("z", 65535))
_GRID_CACHE_SIZE = 4096


class _TensorMap:
    """One TMA tensor map a launch passes after the parameters (a 128-byte
    CUtensorMap, 64-byte aligned, encoded by libTirXRuntime from the
    tensor argument `param`, the kernel's box and swizzle). `address` is
    the args entry: a pointer to the map's bytes. update() re-encodes only
    when the tensor's address or shape changed."""

    def __init__(self, name, param, itemsize, box, swizzle, element=""):
        self.name, self.param, self.box, self.swizzle = name, param, tuple(box), swizzle
        self.itemsize = itemsize
        # The element type the map declares ("": bits; a TMA reduction's
        # operation type otherwise).
        self.element = element
        self._buffer = (ctypes.c_ubyte * 192)()
        base = ctypes.addressof(self._buffer)
        self.address = base + (-base) % 64
        self._box = (ctypes.c_uint * len(box))(*box)
        self._key = None

    def strides(self, shape):
        """The dense row-major strides in bytes of a tensor of `shape` (its
        real extents, runtime ones included), outermost first, without the
        innermost (an element)."""
        strides, step = [], self.itemsize
        for extent in reversed(shape[1:]):
            step *= extent
            strides.append(step)
        return strides[::-1]

    def update(self, pointer, shape):
        key = (pointer, tuple(shape))
        if key == self._key:
            return
        rank = len(shape)
        strides = self.strides(shape)
        # A copy's coordinates are 32-bit (PTX .s32): a box anywhere in an
        # extent past 2^31 would wrap (docs/sizes.md).
        for dim, extent in enumerate(shape):
            if extent > 2 ** 31:
                self._key = None
                raise ValueError(
                    "parameter '%s': its TMA tensor map (box %s) addresses boxes by 32-bit "
                    "coordinates, but dimension %d has %d elements (more than 2^31)"
                    % (self.name, "x".join(map(str, self.box)), dim, extent))
        # A runtime extent makes a stride that the verifier could not check:
        # TMA needs multiples of 16 bytes (docs/hopper.md).
        for dim, stride in enumerate(strides):
            if stride % 16:
                self._key = None
                raise ValueError(
                    "parameter '%s': its TMA tensor map (box %s) needs the stride of dimension %d "
                    "to be a multiple of 16 bytes, got %d bytes * %s = %d bytes (the extents "
                    "inside it must multiply to a multiple of %d)"
                    % (self.name, "x".join(map(str, self.box)), dim, self.itemsize,
                       " * ".join(map(str, shape[dim + 1:])), stride,
                       16 // math.gcd(16, self.itemsize)))
        status = _runtime().tirxTensorMapEncodeTyped(
            self.address, pointer, self.itemsize, self.element.encode(), rank,
            (ctypes.c_ulonglong * rank)(*shape),
            (ctypes.c_ulonglong * max(rank - 1, 1))(*strides),
            self._box, self.swizzle)
        if status:
            self._key = None
            # check-diagnostics: internal, the verifier, the argument checks and the stride check above
            # cover the limits but for a runtime extent past 2^32 (the encoder names it)
            raise ValueError("parameter '%s': its TMA tensor map (box %s) cannot be encoded: %s"
                             % (self.name, "x".join(map(str, self.box)),
                                _runtime().tirxGetLastErrorMessage().decode()))
        self._key = key

    def copy(self):
        return _TensorMap(self.name, self.param, self.itemsize, self.box, self.swizzle,
                          self.element)


class _NoTorch:
    """Stands for torch.Tensor until PyTorch is imported (nothing is one)."""


class Launcher:
    """The launch path of one compiled kernel. What does not change between
    calls is prepared once: the checks, the block, the grid (or how to
    evaluate it from the size variables), the argument slots, and per
    device the loaded kernel. `launcher(args)` checks `args` (a tuple) and
    launches on the tensors' device."""

    def __init__(self, name, ptx, params, grid, block, size_vars=(), shared_bytes=0,
                 tensor_maps=(), cluster=(), native=None, cubin=None, arch=None):
        self._name, self._ptx = name, ptx
        # ptxas's cubin of the PTX (None without ptxas): loaded as is, so
        # the first launch compiles nothing; the PTX is the fallback.
        self._cubin, self._arch = cubin, arch
        # Thread-block cluster extents (the PTX requires them; a runtime grid
        # extent must be a multiple of them, checked per grid).
        self._cluster = tuple(cluster) + (1,) * (3 - len(tuple(cluster)))
        # Dynamic shared memory each launch passes (a kernel past CUDA's
        # 48 KiB static limit; docs/lowering.md).
        self._shared_bytes = shared_bytes
        self._params = list(params)
        self._size_vars = list(size_vars)
        grid = tuple(grid)
        self._grid = grid + (1,) * (3 - len(grid))
        self._block = tuple(block) + (1,) * (3 - len(tuple(block)))
        self._dynamic_grid = not all(_is_static(g) for g in self._grid)
        used = {d.name for _, kind in self._params if not isinstance(kind, DType)
                for d in kind.shape if not _is_static(d)}
        for var in self._size_vars:
            if var.name not in used:
                raise TypeError("%s: the size variable %s is in no tensor parameter's shape, "
                                "so no call can give it a value" % (name, var.name))
        self._slot_types = [_CTYPES.get(kind.mlir, ctypes.c_int64) if isinstance(kind, DType)
                            else ctypes.c_void_p for _, kind in self._params]
        self._slot_types += [ctypes.c_int64] * len(self._size_vars)
        self._lock = threading.Lock()
        self._modules = {}   # device -> (module, kernel): what is loaded there
        self._prepared = {}  # device -> _PreparedLaunch of the fast path
        self._grids = {}     # sizes -> (c_uint * 3) of a dynamic grid
        # The fast path's argument slots (the owner thread's).
        self._slots = [t() for t in self._slot_types]
        # TMA tensor maps (docs/hopper.md): passed after every parameter.
        # Entries (parameter, box, swizzle[, element type]).
        self._maps = [_TensorMap(self._params[entry[0]][0], entry[0],
                                 self._params[entry[0]][1].dtype.bits // 8, entry[1], entry[2],
                                 entry[3] if len(entry) > 3 else "")
                      for entry in tensor_maps]
        self._pointers = (ctypes.c_void_p * max(len(self._slots) + len(self._maps), 1))(
            *([ctypes.addressof(s) for s in self._slots] + [m.address for m in self._maps]))
        self.launch = self._generate()
        # The fast path in C (native=None: when it was built; True: required,
        # False: never). TMA kernels re-encode maps per call in Python.
        self._native = None
        module = _fast_launch_module() if native is not False else None
        if native and module is None:
            raise RuntimeError("the launcher's C fast path (_fastlaunch.abi3.so) was not found")
        tensors = any(not isinstance(kind, DType) for _, kind in self._params)
        if module is not None and tensors and not self._maps:
            self._native = self._make_native(module)
            self.launch = self._native

    def __call__(self, args):
        return self.launch(args)

    # The general path -------------------------------------------------------

    def _count_error(self, args):
        return _count_error(self._name, self._params, args)

    def _bind_torch(self):
        """Lets the fast path see PyTorch once it is imported."""
        torch = sys.modules.get("torch")
        if torch is None or self._globals["_Tensor"] is not _NoTorch:
            return torch
        for i, (name, kind) in enumerate(self._params):
            if not isinstance(kind, DType):
                self._globals["_dt%d" % i] = getattr(torch, kind.dtype.name, None)
        self._globals["_raw_stream"] = _torch_stream()
        self._globals["_Tensor"] = torch.Tensor
        if self._native is not None:
            self._native.bind(torch.Tensor, self._globals["_raw_stream"], tuple(
                self._globals.get("_dt%d" % i) for i in range(len(self._params))))
        return torch

    def _general(self, args):
        """Checks every argument, raising the error that names the first
        wrong one; then launches with fresh ctypes values."""
        if type(args) is not tuple:
            args = tuple(args)
        if len(args) != len(self._params):
            raise self._count_error(args)
        torch = self._bind_torch()
        tensor_type = torch.Tensor if torch is not None else None
        # Where the tensors are, from what they say without a GPU call.
        device, first = None, None
        for (name, kind), arg in zip(self._params, args):
            if isinstance(kind, DType):
                continue
            where = _device_of(arg, tensor_type)
            if where is None:
                continue
            if device is None:
                device, first = where, name
            elif where != device:
                raise self._device_error(first, device, name, where)
        source = _stream_source(args)
        stream = None
        values, unplaced, releases = [], [], []
        sizes, bound = {}, {}
        pointers = {}
        try:
            for (name, kind), arg in zip(self._params, args):
                if isinstance(kind, DType):
                    values.append(_check_scalar(name, kind, arg))
                    continue
                if stream is None and device is not None and _dlpack_only(arg, tensor_type):
                    stream = _stream(source, device)  # what __dlpack__ exports for
                pointer = _check_tensor(name, kind, arg, sizes, bound, stream or 0, releases)
                values.append(ctypes.c_void_p(pointer))
                pointers[len(values) - 1] = pointer
                if _device_of(arg, tensor_type) is None:
                    unplaced.append((name, pointer))
            grid = self._grid_for(tuple(sizes[v.name] for v in self._size_vars))
            values += [ctypes.c_int64(sizes[v.name]) for v in self._size_vars]
            # This call's own maps: the general path runs on any thread.
            maps = [m.copy() for m in self._maps]
            for m in maps:
                kind = self._params[m.param][1]
                m.update(pointers[m.param], [e if _is_static(e) else sizes[e.name]
                                             for e in kind.shape])
            # Every argument is right. Tensors that only a GPU call can place.
            for name, pointer in unplaced:
                where = ctypes.c_int()
                _check(_runtime().tirxPointerGetDevice(pointer, ctypes.byref(where)))
                if device is None:
                    device, first = where.value, name
                elif where.value != device:
                    raise self._device_error(first, device, name, where.value)
            if device is None:  # no tensor: the current device
                where = ctypes.c_int()
                _check(_runtime().tirxGetDevice(ctypes.byref(where)))
                device = where.value
            prepared = self._prepare(device)
            launch = _PreparedLaunch.from_buffer_copy(prepared)
            array = (ctypes.c_void_p * max(len(values) + len(maps), 1))(
                *([ctypes.addressof(v) for v in values] + [m.address for m in maps]))
            launch.args = array
            launch.grid[:] = grid
            launch.stream = _stream(source, device) if stream is None else stream
            _check(_runtime().tirxLaunchPrepared(ctypes.byref(launch)))
        finally:
            for release in releases:
                release()
        if self._globals["_owner"] is None:
            self._globals["_owner"] = threading.get_ident()
            if self._native is not None:
                self._native.set_owner(self._globals["_owner"])

    @staticmethod
    def _device_error(first, first_device, name, device):
        return ValueError("parameter '%s' is on cuda:%d, but parameter '%s' is on cuda:%d; "
                          "the tensors of a call must be on one device" % (
                              first, first_device, name, device))

    def _grid_for(self, key):
        """The grid (a c_uint * 3) for the sizes `key` (in size_vars order),
        checked, and cached."""
        grid = self._grids.get(key)
        if grid is not None:
            return grid
        sizes = dict(zip((v.name for v in self._size_vars), key))
        extents = []
        for (axis, limit), entry in zip(_GRID_LIMITS, self._grid):
            value = entry if _is_static(entry) else entry.evaluate(dict(sizes))
            if not isinstance(value, numbers.Integral) or isinstance(value, bool):
                raise TypeError("the grid's %s extent evaluated to %r (a %s), not an int" % (
                    axis, value, type(value).__name__))
            if not 1 <= value <= limit:
                raise ValueError("the grid's %s extent is %d for %s; it must be from 1 to %d"
                                 % (axis, value, ", ".join("%s = %d" % kv
                                                           for kv in sizes.items()), limit))
            cluster = self._cluster[len(extents)]
            if value % cluster:
                raise ValueError("the grid's %s extent is %d for %s; the kernel runs in clusters "
                                 "of %d CTAs along %s, which must divide it"
                                 % (axis, value, ", ".join("%s = %d" % kv for kv in sizes.items()),
                                    cluster, axis))
            extents.append(int(value))
        grid = (ctypes.c_uint * 3)(*extents)
        if len(self._grids) >= _GRID_CACHE_SIZE:
            self._grids.clear()
        self._grids[key] = grid
        return grid

    def _load(self, lib, device):
        """The module and kernel on `device`: the cubin when there is one,
        else the PTX (the driver's JIT). A cubin the driver refuses as an
        image (made for another chip than this device's) falls back to the
        PTX, with a warning."""
        module, kernel = ctypes.c_void_p(), ctypes.c_void_p()
        loaded = False
        if self._cubin:
            status = lib.tirxModuleLoadDataOnDevice(self._cubin, len(self._cubin), device,
                                                    ctypes.byref(module))
            if status == _INVALID_IMAGE:
                warnings.warn("tirx: kernel '%s': its cubin for %s does not load on device "
                              "%d (%s); the driver JIT-compiles its PTX instead"
                              % (self._name, self._arch, device,
                                 lib.tirxGetLastErrorMessage().decode()),
                              RuntimeWarning, stacklevel=4)
            else:
                _check(status)
                loaded = True
        if not loaded:
            data = self._ptx.encode()
            _check(lib.tirxModuleLoadDataOnDevice(data, len(data), device,
                                                  ctypes.byref(module)))
        _check(lib.tirxModuleGetKernel(module, self._name.encode(), ctypes.byref(kernel)))
        return module, kernel

    def _prepare(self, device):
        """The fast path's launch on `device`, the kernel loaded there first."""
        prepared = self._prepared.get(device)
        if prepared is not None:
            return prepared
        with self._lock:
            prepared = self._prepared.get(device)
            if prepared is not None:
                return prepared
            lib = _runtime()
            module, kernel = self._load(lib, device)
            prepared = _PreparedLaunch()
            _check(lib.tirxKernelPrepareLaunch(kernel, device,
                                               len(self._slots) + len(self._maps),
                                               ctypes.byref(prepared)))
            prepared.block[:] = self._block
            if self._shared_bytes:
                _check(lib.tirxPreparedLaunchSetSharedBytes(ctypes.byref(prepared),
                                                            self._shared_bytes))
            if not self._dynamic_grid:
                prepared.grid[:] = self._grid
            prepared.args = self._pointers
            self._globals["_launch"] = lib.tirxLaunchPrepared
            if self._native is not None:
                self._native.set_prepared(
                    device, ctypes.addressof(prepared),
                    ctypes.cast(lib.tirxLaunchPrepared, ctypes.c_void_p).value)
            self._modules[device] = (module, kernel)
            self._prepared[device] = prepared
            return prepared

    # The fast paths -----------------------------------------------------------

    def _make_native(self, module):
        """The C fast path (lib/Python/FastLaunch.c): the same checks as
        _generate's, described per parameter; its argument slots are the
        buffers of this launcher's ctypes slots."""
        size_index = {v.name: k for k, v in enumerate(self._size_vars)}
        specs = []
        for i, (_, kind) in enumerate(self._params):
            slot = ctypes.addressof(self._slots[i])
            if not isinstance(kind, DType):
                dims = tuple(e if _is_static(e) else -(size_index[e.name] + 1)
                             for e in kind.shape)
                specs.append(("tensor", slot, dims, kind.alignment_or_default))
            elif _fast_scalar_range(kind) is None:
                specs.append(("other", slot))
            elif kind.is_float:
                specs.append(("float", slot, kind.bits // 8, _fast_scalar_range(kind)[1]))
            else:
                specs.append(("int", slot, kind.bits // 8) + _fast_scalar_range(kind))
        n = len(self._params)
        sizes = tuple((ctypes.addressof(self._slots[n + k]), var.multiple_of, var.at_most or 0)
                      for k, var in enumerate(self._size_vars))
        g = self._globals
        return module.Launcher(lambda args: g["_general"](args), _raise_last_error,
                               tuple(specs), sizes,
                               self._grids if self._dynamic_grid else None,
                               self._grid_for)


    def _generate(self):
        """The fast path, as Python source specialized to the parameters (a
        loop over checks costs more than the checks). Anything it does not
        accept goes to the general path, which raises the right error."""
        g = {"_owner": None, "_ident": threading.get_ident, "_Tensor": _NoTorch,
             "_raw_stream": None, "_prepared": self._prepared, "_general": self._general,
             "_count_error": self._count_error, "_launch": None, "_grids": self._grids,
             "_grid_for": self._grid_for, "_raise_last_error": _raise_last_error}
        self._globals = g
        names = ["a%d" % i for i in range(len(self._params))]
        body = ["def launch(args):",
                "    if len(args) != %d:" % len(names),
                "        raise _count_error(args)"]
        if names:
            body.append("    %s, = args" % ", ".join(names))
        tensors = [i for i, (_, kind) in enumerate(self._params) if not isinstance(kind, DType)]
        if not tensors:  # no device to launch on but the current one
            body.append("    return _general(args)")
            return self._compile(body, g)
        fallback = "return _general(args)"
        body.append("    if _ident() != _owner: " + fallback)
        size_index = {v.name: k for k, v in enumerate(self._size_vars)}
        bound = set()
        for i, (name, kind) in enumerate(self._params):
            a = names[i]
            g["_v%d" % i] = self._slots[i]
            if isinstance(kind, DType):
                body += self._scalar_source(i, a, kind, fallback)
                continue
            g["_dt%d" % i] = None
            body.append("    if type(%s) is not _Tensor or not %s.is_cuda or %s.dtype is not "
                        "_dt%d or not %s.is_contiguous(): %s" % (a, a, a, i, a, fallback))
            if i == tensors[0]:
                body.append("    d = %s.get_device()" % a)
            else:
                body.append("    if %s.get_device() != d: %s" % (a, fallback))
            if all(_is_static(e) for e in kind.shape):
                g["_sh%d" % i] = tuple(kind.shape)
                body.append("    if %s.shape != _sh%d: %s" % (a, i, fallback))
            else:
                body.append("    s = %s.shape" % a)
                body.append("    if len(s) != %d: %s" % (len(kind.shape), fallback))
                for dim, extent in enumerate(kind.shape):
                    if _is_static(extent):
                        body.append("    if s[%d] != %d: %s" % (dim, extent, fallback))
                        continue
                    z = "z%d" % size_index[extent.name]
                    if extent.name in bound:
                        body.append("    if s[%d] != %s: %s" % (dim, z, fallback))
                        continue
                    bound.add(extent.name)
                    body.append("    %s = s[%d]" % (z, dim))
                    check = "%s < 1" % z
                    if extent.multiple_of > 1:
                        check += " or %s %% %d" % (z, extent.multiple_of)
                    if extent.at_most is not None:
                        check += " or %s > %d" % (z, extent.at_most)
                    body.append("    if %s: %s" % (check, fallback))
            align = kind.alignment_or_default
            body.append("    p%d = %s.data_ptr()" % (i, a))
            body.append("    if not p%d or p%d %% %d: %s" % (i, i, align, fallback))
        body.append("    launch = _prepared.get(d)")
        body.append("    if launch is None: " + fallback)
        for i, (name, kind) in enumerate(self._params):
            body.append("    _v%d.value = %s" % (i, "p%d" % i if i in tensors else names[i]))
        n = len(self._params)
        for k, var in enumerate(self._size_vars):
            g["_v%d" % (n + k)] = self._slots[n + k]
            body.append("    _v%d.value = z%d" % (n + k, k))
        for k, m in enumerate(self._maps):
            g["_m%d" % k] = m
            body.append("    _m%d.update(p%d, a%d.shape)" % (k, m.param, m.param))
        if self._dynamic_grid:
            key = "(%s)" % "".join("z%d, " % k for k in range(len(self._size_vars)))
            body.append("    grid = _grids.get(%s)" % key)
            body.append("    if grid is None: grid = _grid_for(%s)" % key)
            body.append("    launch.grid = grid")
        body.append("    launch.stream = _raw_stream(d)")
        body.append("    if _launch(launch):")
        body.append("        _raise_last_error()")
        return self._compile(body, g)

    @staticmethod
    def _scalar_source(i, a, kind, fallback):
        accepted = _fast_scalar_range(kind)
        if accepted is None:
            return ["    " + fallback]
        if kind.is_float:
            return ["    if (type(%s) is not float and type(%s) is not int) or not "
                    "%r <= %s <= %r: %s" % (a, a, accepted[0], a, accepted[1], fallback)]
        return ["    if type(%s) is not int or not %d <= %s <= %d: %s" % (
            a, accepted[0], a, accepted[1], fallback)]

    def _compile(self, body, g):
        source = "\n".join(body) + "\n"
        self.source = source  # for the curious: print(compiled._launcher.source)
        code = compile(source, "<tirx launcher of %s>" % self._name, "exec")
        exec(code, g)
        return g["launch"]
