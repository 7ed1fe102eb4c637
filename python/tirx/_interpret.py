"""Kernels on the CPU interpreter (docs/interpreter.md):
`tirx.compile(f, target="interpret")`, and `TIRX_INTERPRET=1`, which makes
`target="cuda"` scripts run unchanged on CPU tensors."""
import ctypes
import os

from . import _capi
from ._dsl import CompileError, DType

_DEFAULT_ARCH = "sm_90a"


class InterpreterError(RuntimeError):
    """A check of the interpreter failed while the kernel ran (a data race, an
    uninitialized read, a barrier not every thread reaches, a deadlock, an
    access outside a tensor): the message shows the user's file:line."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


def requested(target):
    """Whether `target` (or TIRX_INTERPRET=1) asks for the interpreter."""
    if os.environ.get("TIRX_INTERPRET", "0") not in ("", "0"):
        return True
    if isinstance(target, dict):
        return target.get("kind") == "interpret"
    return target == "interpret"


def compile_interpreted(f, target):
    """The kernel `f`, traced and ready to run on the interpreter."""
    arch = target.get("arch") if isinstance(target, dict) else None
    arch = arch or _DEFAULT_ARCH
    key = ("interpret", arch)
    hit = f.compiled.get(key)
    if hit is not None:
        return hit
    from ._compile import trace_module
    trace, ir = trace_module(f, arch)
    return f.compiled.setdefault(key, Interpreted(f, trace, ir))


# Element types as NumPy's __array_interface__ names them, per DType; a
# bfloat16 parameter takes its bits (NumPy has no bfloat16).
def _typestrs(dtype):
    if dtype.name == "bfloat16":
        return ("<V2", "<u2", "<i2")
    return (dtype.typestr,)


_TORCH_TYPESTR = {"torch.float16": "<f2", "torch.bfloat16": "<V2", "torch.float32": "<f4",
                  "torch.float64": "<f8", "torch.int8": "|i1", "torch.uint8": "|u1",
                  "torch.int16": "<i2", "torch.uint16": "<u2", "torch.int32": "<i4",
                  "torch.uint32": "<u4", "torch.int64": "<i8", "torch.uint64": "<u8"}


def _read_array(name, arg):
    """(address, shape, typestr, bytes) of a CPU array argument."""
    if hasattr(arg, "__cuda_array_interface__") or getattr(arg, "is_cuda", False):
        raise TypeError("parameter '%s' is in GPU memory, but the interpreter runs on host "
                        "memory: pass a CPU tensor (.cpu()) or a NumPy array" % name)
    if hasattr(arg, "data_ptr") and hasattr(arg, "is_contiguous"):  # a PyTorch tensor
        if not arg.is_contiguous():
            raise ValueError("parameter '%s' must be contiguous (row-major)" % name)
        return (arg.data_ptr(), tuple(arg.shape), _TORCH_TYPESTR.get(str(arg.dtype), str(arg.dtype)),
                arg.numel() * arg.element_size())
    interface = getattr(arg, "__array_interface__", None)
    if not isinstance(interface, dict) and hasattr(arg, "__dlpack__"):
        return _read_dlpack(name, arg)
    if not isinstance(interface, dict):
        raise TypeError("parameter '%s' expects a NumPy array, a CPU tensor or a DLPack CPU "
                        "array, got %s" % (name, type(arg).__name__))
    shape = tuple(interface["shape"])
    typestr = interface["typestr"]
    itemsize = int(typestr[2:])
    expected, stride = [], itemsize
    for extent in reversed(shape):
        expected.insert(0, stride)
        stride *= extent
    strides = interface.get("strides")
    if strides is not None and tuple(strides) != tuple(expected):
        raise ValueError("parameter '%s' must be contiguous (row-major)" % name)
    address, readonly = interface["data"]
    if readonly:
        raise ValueError("parameter '%s' is read-only; the kernel may write it" % name)
    count = 1
    for extent in shape:
        count *= extent
    return address, shape, typestr, count * itemsize


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_DL_CPU, _DL_CUDA_HOST = 1, 3
# DLPack's type codes (dlpack.h: kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLBool)
# as __array_interface__ typestrs.
_DL_KIND = {0: "i", 1: "u", 2: "f", 4: "V", 6: "b"}


def _read_dlpack(name, arg):
    """(address, shape, typestr, bytes) of a DLPack producer's CPU array
    (the DLTensor of its `__dlpack__()` capsule; the capsule, kept on the
    object until the call returns, frees it)."""
    device = arg.__dlpack_device__() if hasattr(arg, "__dlpack_device__") else (_DL_CPU, 0)
    if int(device[0]) not in (_DL_CPU, _DL_CUDA_HOST):
        raise TypeError("parameter '%s' is on DLPack device type %d, but the interpreter "
                        "runs on host memory: pass a CPU array" % (name, int(device[0])))
    capsule = arg.__dlpack__()
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    # DLManagedTensor starts with its DLTensor.
    tensor = _DLTensor.from_address(get_pointer(capsule, b"dltensor"))
    _KEEP_ALIVE.append(capsule)
    dtype = tensor.dtype
    if dtype.lanes != 1 or dtype.code not in _DL_KIND or dtype.bits % 8:
        raise TypeError("parameter '%s': DLPack element type (code %d, %d bits, %d lanes) has "
                        "no TirX type" % (name, dtype.code, dtype.bits, dtype.lanes))
    itemsize = dtype.bits // 8
    typestr = ("|" if itemsize == 1 else "<") + _DL_KIND[dtype.code] + str(itemsize)
    shape = tuple(tensor.shape[i] for i in range(tensor.ndim))
    count, stride = 1, 1
    for axis in reversed(range(tensor.ndim)):
        if tensor.strides and shape[axis] > 1 and tensor.strides[axis] != stride:
            raise ValueError("parameter '%s' must be contiguous (row-major)" % name)
        stride *= shape[axis]
    for extent in shape:
        count *= extent
    return tensor.data + tensor.byte_offset, shape, typestr, count * itemsize


# The DLPack capsules read by the call running (their arrays stay alive until
# it returns; Interpreted.__call__ clears the list).
_KEEP_ALIVE = []


def _float_bits(dtype, value):
    """The bits of float `value` in `dtype` (OverflowError past its range)."""
    import struct
    if dtype.bits == 64:
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if dtype.bits == 32:
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if dtype.name == "float16":
        return struct.unpack("<H", struct.pack("<e", value))[0]
    # bfloat16: the upper half of the f32, rounded to nearest even.
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def _scalar_bits(name, dtype, value):
    """The bits of a scalar argument of `dtype`."""
    if dtype.is_float:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise TypeError("parameter '%s' expects a float, got %r" % (name, value))
        try:
            return _float_bits(dtype, float(value))
        except OverflowError:
            raise ValueError("parameter '%s' (%s) cannot hold %r" % (name, dtype.name, value)) \
                from None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("parameter '%s' expects an int, got %r" % (name, value))
    low = -(1 << (dtype.bits - 1)) if dtype.kind == "i" else 0
    high = (1 << (dtype.bits - (1 if dtype.kind == "i" else 0))) - 1
    if not low <= value <= high:
        raise ValueError("parameter '%s' (%s) cannot hold %d" % (name, dtype.name, value))
    return value & ((1 << dtype.bits) - 1)


class Interpreted:
    """A kernel that runs on the CPU interpreter: callable on NumPy arrays and
    CPU tensors (written in place), with .mlir["input"] its IR. Keywords of a
    call: races / uninitialized (False turns the check off), trace (every
    operation to stderr), block (run only that CTA)."""

    def __init__(self, function, trace, ir):
        self.function = function
        self.name = function.name
        self.source_ir = ir
        self.params = trace.params
        self.size_vars = list(getattr(trace, "size_vars", ()))
        self.launch = trace.launch
        self._trace = trace
        self.ptx = None
        self.mlir = {"input": ir}

    def __call__(self, *args, races=True, uninitialized=True, trace=False, block=None):
        try:
            return self._run(args, races, uninitialized, trace, block)
        finally:
            _KEEP_ALIVE.clear()

    def _run(self, args, races, uninitialized, trace, block):
        if len(args) != len(self.params):
            raise TypeError("kernel '%s' takes %d arguments, got %d"
                            % (self.name, len(self.params), len(args)))
        arguments = (_capi.InterpretArgument * max(len(self.params) + len(self.size_vars), 1))()
        sizes = {}
        for index, ((name, kind), arg) in enumerate(zip(self.params, args)):
            if isinstance(kind, DType):
                arguments[index].scalar = _scalar_bits(name, kind, arg)
                continue
            address, shape, typestr, size = _read_array(name, arg)
            if typestr not in _typestrs(kind.dtype):
                raise TypeError("parameter '%s' expects %s elements, got %s"
                                % (name, kind.dtype.name, typestr))
            if len(shape) != len(kind.shape):
                raise ValueError("parameter '%s' expects a tensor of rank %d, got shape %s"
                                 % (name, len(kind.shape), shape))
            for extent, declared in zip(shape, kind.shape):
                if isinstance(declared, int):
                    if extent != declared:
                        raise ValueError("parameter '%s' expects shape %s, got %s" % (
                            name, tuple(d if isinstance(d, int) else d.name
                                        for d in kind.shape), shape))
                    continue
                seen = sizes.setdefault(declared.name, extent)
                if seen != extent:
                    raise ValueError("parameter '%s': size variable '%s' is %d here but %d "
                                     "in an earlier parameter" % (name, declared.name, extent,
                                                                  seen))
            arguments[index].data = address
            arguments[index].bytes = size
        for k, var in enumerate(self.size_vars):
            value = sizes[var.name]
            if value < 1 or value % var.multiple_of or (var.at_most and value > var.at_most):
                raise ValueError("size variable '%s' is %d, which its declaration does not "
                                 "allow" % (var.name, value))
            arguments[len(self.params) + k].scalar = value
        options = "races=%d uninitialized=%d trace=%d" % (races, uninitialized, trace)
        if block is not None:
            options += " block=%d" % block
        options = options.encode()
        data = self.source_ir.encode()
        from ._compile import _IR_BUFFER, format_diagnostics, read_diagnostics
        result = _capi.lib.tirxInterpret(data, len(data), _IR_BUFFER.encode(),
                                         self.name.encode(), arguments,
                                         len(self.params) + len(self.size_vars), options)
        try:
            if _capi.lib.tirxCompileResultSucceeded(result):
                return
            diagnostics = read_diagnostics(result, self.source_ir, self._trace)
            ran = _capi.lib.tirxCompileResultGetNumStages(result) > 0
        finally:
            _capi.lib.tirxCompileResultDestroy(result)
        # check-diagnostics: internal, every failure of tirxInterpret has a diagnostic
        text = format_diagnostics(diagnostics) or "the interpreter failed"
        if ran:
            raise InterpreterError(text, diagnostics)
        raise CompileError(text, diagnostics)
