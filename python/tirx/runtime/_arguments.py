"""The checks of one argument against its parameter: scalars, PyTorch
tensors, `__cuda_array_interface__` objects and DLPack tensors (shapes and
size variables, element types, strides, pointers)."""
import ctypes
import math
import numbers
import sys

from .._dsl import DTYPES, DType

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
