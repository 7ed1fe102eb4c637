"""Reading a tensor argument through its protocol (PyTorch,
`__cuda_array_interface__`, DLPack) into what the checks need: its shape,
element type, strides, mask and data pointer. The checks themselves run in
C (lib/Python/FastLaunch.c), from the kernel's descriptor (_plan.py):
`checker.check_tensor(...)` raises the error that names the parameter."""
import ctypes
import sys

from .._dsl import DTYPES, DType
from ._plan import READ_DLPACK, READ_INTERFACE, READ_TORCH, Plan, size_vars_of

# Predicate ("bool") tensors live in registers only: no tensor argument.
_TORCH_TYPESTR = {"torch." + d.name: d.typestr for d in DTYPES.values() if d.kind != "b"}


def _not_cuda(checker, index, arg, where=None):
    if where is None and hasattr(arg, "device"):
        where = arg.device
    checker.not_cuda(index, arg, where)


def _torch_typestr(dtype):
    """A PyTorch dtype as the checks name element types (its typestr)."""
    return _TORCH_TYPESTR.get(str(dtype), str(dtype))


def _read_torch(checker, index, arg, sizes):
    """A PyTorch tensor, read through its attributes: (pointer, shape)."""
    if not arg.is_cuda:
        _not_cuda(checker, index, arg)
    shape = tuple(arg.shape)
    itemsize = arg.element_size()
    pointer = checker.check_tensor(index, sizes, shape, _torch_typestr(arg.dtype),
                                   tuple(s * itemsize for s in arg.stride()), arg.data_ptr(),
                                   False, READ_TORCH)
    return pointer, shape


def _read_interface(checker, index, name, arg, sizes):
    """A `__cuda_array_interface__` object: (pointer, shape)."""
    interface = arg.__cuda_array_interface__
    data = interface.get("data") if isinstance(interface, dict) else None
    shape = interface.get("shape") if isinstance(interface, dict) else None
    if not isinstance(data, (tuple, list)) or not data or not isinstance(shape, (tuple, list)) \
            or not isinstance(interface.get("typestr"), str):
        raise TypeError("parameter '%s' has a malformed __cuda_array_interface__ (it needs "
                        "shape, typestr and data)" % name)
    shape = tuple(shape)
    pointer = checker.check_tensor(index, sizes, shape, interface["typestr"],
                                   interface.get("strides"), data[0],
                                   interface.get("mask") is not None, READ_INTERFACE)
    return pointer, shape

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


def _read_dlpack(checker, index, name, arg, tensor, sizes):
    """A consumed DLTensor: (pointer, shape)."""
    if tensor.device_type != _KDLCUDA:
        _not_cuda(checker, index, arg, _dlpack_where(tensor.device_type))
    if tensor.ndim < 0 or (tensor.ndim and not tensor.shape):
        raise TypeError("parameter '%s' has a malformed DLPack tensor (ndim %d, shape %s)" % (
            name, tensor.ndim, "NULL" if not tensor.shape else "set"))
    shape = tuple(tensor.shape[i] for i in range(tensor.ndim))
    dtype = (tensor.code, tensor.bits, tensor.lanes)
    got = _DLPACK_NAMES.get(dtype, "DLPack (code %d, bits %d, lanes %d)" % dtype)
    itemsize = tensor.bits // 8
    strides = None
    if tensor.strides:
        strides = tuple(tensor.strides[i] * itemsize for i in range(tensor.ndim))
    pointer = checker.check_tensor(index, sizes, shape, got, strides,
                                   (tensor.data or 0) + tensor.byte_offset, False, READ_DLPACK)
    return pointer, shape


def read_tensor(checker, index, name, arg, sizes, stream, releases):
    """Reads and checks tensor argument `index` (named `name`): (data
    pointer, shape). `sizes` are the size variables the call bound so far
    (the checker's list), `stream` what a DLPack producer exports for, and
    `releases` gets the deleters of consumed DLPack tensors."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(arg, torch.Tensor):
        return _read_torch(checker, index, arg, sizes)
    if getattr(arg, "requires_grad", False) and hasattr(arg, "detach"):
        arg = arg.detach()  # a tensor-like that refuses the interface otherwise
    if getattr(arg, "__cuda_array_interface__", None) is not None:
        return _read_interface(checker, index, name, arg, sizes)
    if hasattr(arg, "__dlpack__"):
        device = _dlpack_device(arg)
        if device is not None and device[0] != _KDLCUDA:
            _not_cuda(checker, index, arg, _dlpack_where(device[0]))
        return _read_dlpack(checker, index, name, arg,
                            _consume_dlpack(name, arg, stream, releases), sizes)
    _not_cuda(checker, index, arg)


#===------------------------------------------------------------------------===#
# One argument, for tests and tools (a call checks all of them)
#===------------------------------------------------------------------------===#

def check_argument(name, kind, arg):
    """The ctypes value to pass for parameter `name` of type `kind`, after
    checking it (the checks of a launch, through the same checker)."""
    params = [(name, kind)]
    plan = Plan("check_argument", params, size_vars_of(params), fast=False)
    if isinstance(kind, DType):
        return plan.slot_types[0](plan.checker.check_scalar(0, arg))
    releases = []
    try:
        sizes = [None] * len(plan.size_vars)
        return ctypes.c_void_p(read_tensor(plan.checker, 0, name, arg, sizes, 0, releases)[0])
    finally:
        for release in releases:
            release()
