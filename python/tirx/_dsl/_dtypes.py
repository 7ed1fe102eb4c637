"""Element types (DType, DTYPES) and constants."""
import struct

from ._errors import _error

#===------------------------------------------------------------------------===#
# Scalar types
#===------------------------------------------------------------------------===#

class DType:
    def __init__(self, name, mlir, bits, kind, typestr):
        self.name, self.mlir, self.bits, self.kind = name, mlir, bits, kind
        self.typestr = typestr  # __cuda_array_interface__ element type

    def __repr__(self):
        return "T." + self.name

    @property
    def is_float(self):
        return self.kind == "f"

    def __call__(self, value):
        """`T.float32(2)`: a typed constant (or a cast of a traced scalar);
        `T.int32(regs[0])`: the executing thread's element of a register
        tile (load_element)."""
        if isinstance(value, _tensors.TensorValue):
            if self.kind == "u":
                raise _error("T.%s(...) of a tensor element: traced integers are signless; "
                             "read it as T.int%d(...) (same bits) or T.index(...) (an "
                             "unsigned tile's value, zero-extended)" % (self.name, self.bits))
            value, _ = _scalars.load_element(value, "T.%s" % self.name)
            value.zext = False  # T.int32(...): the bits as a signed value
        if isinstance(value, _scalars.ScalarValue):
            return value._cast(self)
        return Constant(value, self)


DTYPES = {d.name: d for d in [
    DType("float16", "f16", 16, "f", "<f2"), DType("bfloat16", "bf16", 16, "f", "<V2"),
    DType("float32", "f32", 32, "f", "<f4"), DType("float64", "f64", 64, "f", "<f8"),
    DType("int8", "i8", 8, "i", "|i1"), DType("uint8", "ui8", 8, "u", "|u1"),
    DType("int16", "i16", 16, "i", "<i2"), DType("uint16", "ui16", 16, "u", "<u2"),
    DType("int32", "i32", 32, "i", "<i4"), DType("uint32", "ui32", 32, "u", "<u4"),
    DType("int64", "i64", 64, "i", "<i8"), DType("uint64", "ui64", 64, "u", "<u8"),
]}


def as_dtype(value):
    if isinstance(value, DType):
        return value
    if isinstance(value, str) and value in DTYPES:
        return DTYPES[value]
    raise _error("unknown dtype %r; expected one of %s" % (value, ", ".join(DTYPES)))


def _literal(value, dtype):
    """An MLIR literal of `value` in `dtype` (floats as exact bit patterns)."""
    if dtype.is_float:
        if dtype.mlir == "f32":
            return "0x%08X" % struct.unpack("<I", struct.pack("<f", float(value)))[0]
        if dtype.mlir == "f64":
            return "0x%016X" % struct.unpack("<Q", struct.pack("<d", float(value)))[0]
        return repr(float(value))
    return str(int(value))


class Constant:
    """A typed constant written in the program (T.float32(2))."""

    def __init__(self, value, dtype):
        self.value, self.dtype = value, dtype

    def immediate(self):
        return "%s : %s" % (_literal(self.value, self.dtype), self.dtype.mlir)


# Modules that import this one (used inside calls only): imported last.
from . import _scalars, _tensors  # noqa: E402
