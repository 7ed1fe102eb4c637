"""The tracing DSL behind `tirx.script.tirx` (T): running a @T.function body
records TirX IR, with the user's file:line on every operation, so compiler
diagnostics point at the Python source."""
import ctypes
import functools
import inspect
import linecache
import math
import numbers
import os
import re
import struct
import threading

from . import _capi
from .layout import TileLayout

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class CompileError(Exception):
    """A program error; the message shows the user's file:line and reason."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class DSLError(CompileError):
    """A misuse of the DSL, reported at the user's line."""


@functools.lru_cache(maxsize=1024)
def _in_package(filename):
    return os.path.abspath(filename).startswith(_PACKAGE_DIR)


@functools.lru_cache(maxsize=1024)
def _code_positions(code):
    """(line, end line, column, end column) of each instruction of `code`."""
    return tuple(code.co_positions())


def _user_frame():
    frame = inspect.currentframe()
    while frame and _in_package(frame.f_code.co_filename):
        frame = frame.f_back
    return frame


def _user_position():
    """(file, line, column) of the user's code running now, or None."""
    frame = _user_frame()
    if frame is None:
        return None
    # What inspect.getframeinfo(frame, context=0) gives, without its
    # per-call file system checks (a trace makes hundreds of these).
    column = 1
    if frame.f_lasti >= 0 and hasattr(frame.f_code, "co_positions"):
        positions = _code_positions(frame.f_code)
        index = frame.f_lasti // 2
        if index < len(positions) and positions[index][2] is not None:
            column = positions[index][2] + 1
    return frame.f_code.co_filename, frame.f_lineno, column


def mlir_string(text):
    """`text` as an MLIR string literal (quotes, backslashes and control
    characters escaped as \\XX)."""
    return '"%s"' % _ESCAPED.sub(lambda m: "\\%02X" % ord(m.group()), text)


_ESCAPED = re.compile('["\\\\\x00-\x1f\x7f]')


def location_text(position):
    if position is None:
        return 'loc(unknown)'
    return 'loc(%s:%d:%d)' % (mlir_string(position[0]), position[1], position[2])


def _location():
    return location_text(_user_position())


def _error(message, position=None):
    """A DSLError at `position` (file, line, ...) or at the user's line."""
    if position is None:
        frame = _user_frame()
        position = (frame.f_code.co_filename, frame.f_lineno) if frame else None
    where = "%s:%d: " % (position[0], position[1]) if position else ""
    return DSLError(where + message)


def is_int(value):
    """A Python/NumPy integer, not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_shape(shape, what, allow_sizes=False):
    """`shape` as a tuple of positive ints (and, with `allow_sizes`, size
    variables), or a DSLError naming `what`."""
    dims = tuple(shape) if isinstance(shape, (tuple, list)) else None
    ok = lambda d: (is_int(d) and 0 < d < 1 << 62) or (allow_sizes and isinstance(d, SizeVar))
    if not dims or not all(ok(d) for d in dims):
        raise _error("%s needs a shape of positive ints%s, got %r" % (
            what, " or size variables (T.dynamic)" if allow_sizes else "", shape))
    names = [d.name for d in dims if isinstance(d, SizeVar)]
    if len(set(names)) != len(names):
        raise _error("%s: a size variable names two extents of one tensor, got %r"
                     % (what, shape))
    return tuple(d if isinstance(d, SizeVar) else int(d) for d in dims)


#===------------------------------------------------------------------------===#
# Size variables (docs/sizes.md)
#===------------------------------------------------------------------------===#

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class SizeVar:
    """`n = T.dynamic("n", multiple_of=4, at_most=4096)`: a tensor extent
    known at launch, taken from the tensors' shapes. Inside a kernel it is an
    index value."""

    def __init__(self, name, multiple_of=1, at_most=None):
        if not isinstance(name, str) or not _IDENTIFIER.match(name):
            raise _error("T.dynamic needs an identifier as the size variable's name, "
                         "got %r" % (name,))
        if not is_int(multiple_of) or not 1 <= multiple_of <= 1 << 30:
            raise _error("T.dynamic(%r): multiple_of must be an int in [1, 2^30], got %r"
                         % (name, multiple_of))
        if at_most is not None:
            if not is_int(at_most) or not 1 <= at_most <= 1 << 62:
                raise _error("T.dynamic(%r): at_most must be an int in [1, 2^62], got %r"
                             % (name, at_most))
            if at_most % multiple_of:
                raise _error("T.dynamic(%r): at_most = %d is not a multiple of multiple_of = %d"
                             % (name, at_most, multiple_of))
        self.name, self.multiple_of = name, int(multiple_of)
        self.at_most = None if at_most is None else int(at_most)

    def __repr__(self):
        return "T.dynamic(%r%s%s)" % (
            self.name, ", multiple_of=%d" % self.multiple_of if self.multiple_of > 1 else "",
            ", at_most=%d" % self.at_most if self.at_most is not None else "")

    def value(self):
        """The index value of this size in the kernel being traced."""
        b = current_builder()
        ssa = getattr(b, "sizes", {}).get(self.name) if b is not None else None
        if ssa is None:
            raise _error("size variable %s is not an extent of any tensor parameter of "
                         "the kernel being traced" % self.name)
        return ScalarValue(ssa, None)

    def evaluate(self, sizes):
        return sizes[self.name]

    def affine(self, ssa_of):
        return ssa_of(self.name)

    def __bool__(self):
        raise _error("a size variable has no value while tracing: `if %s` cannot be "
                     "decided in Python; use `with T.If(...)`" % self.name)

    def __index__(self):
        raise _error("size variable %s is a runtime value, not a Python int (use it in "
                     "T.serial, region offsets, comparisons or a grid expression)"
                     % self.name)


def _grid_operand(value):
    if isinstance(value, (SizeVar, GridExpr)):
        return value
    if is_int(value) and not isinstance(value, bool):
        return int(value)
    raise _error("a grid expression combines size variables with ints, got %r" % (value,))


class GridExpr:
    """An extent of the launch grid computed from size variables at launch:
    `T.ceildiv(n, 512)`, `n // 4 + 1`, `2 * n`."""

    _OPS = {"add": "+", "sub": "-", "mul": "*", "floordiv": "floordiv", "ceildiv": "ceildiv",
            "mod": "mod"}

    def __init__(self, op, lhs, rhs):
        self.op, self.lhs, self.rhs = op, _grid_operand(lhs), _grid_operand(rhs)
        if op in ("floordiv", "ceildiv", "mod") and (not isinstance(self.rhs, int) or
                                                     self.rhs <= 0):
            raise _error("a grid expression divides by a positive int, got %r" % (rhs,))
        if op == "sub" and not isinstance(self.rhs, int):
            raise _error("a grid expression subtracts an int, not another size")
        if op == "mul" and not (isinstance(self.lhs, int) or isinstance(self.rhs, int)):
            raise _error("a grid expression multiplies by an int, not by another size")

    def evaluate(self, sizes):
        value = lambda v: v if isinstance(v, int) else v.evaluate(sizes)
        a, c = value(self.lhs), value(self.rhs)
        return {"add": lambda: a + c, "sub": lambda: a - c, "mul": lambda: a * c,
                "floordiv": lambda: a // c, "mod": lambda: a % c,
                "ceildiv": lambda: -(-a // c)}[self.op]()

    def value(self):
        """The index value of this expression in the kernel being traced."""
        value = lambda v: v if isinstance(v, int) else v.value()
        a, c = value(self.lhs), value(self.rhs)
        if self.op == "ceildiv":
            return ceildiv(a, c)
        if isinstance(a, int):
            a, c = c, a  # ints are on the right of index arithmetic (+, * only)
        return {"add": lambda: a + c, "sub": lambda: a - c, "mul": lambda: a * c,
                "floordiv": lambda: a // c, "mod": lambda: a % c}[self.op]()

    def affine(self, ssa_of):
        text = lambda v: str(v) if isinstance(v, int) else v.affine(ssa_of)
        return "(%s %s %s)" % (text(self.lhs), self._OPS[self.op], text(self.rhs))

    def __repr__(self):
        return self.affine(lambda name: name)



# Arithmetic on size variables builds a grid expression (a launch grid may
# use it); inside a kernel it becomes index arithmetic where it is used as a
# value. With a traced index value it is index arithmetic at once.
def _size_op(op, reverse=False):
    method = "__%s%s__" % ("r" if reverse else "", op)

    def apply(self, other):
        if isinstance(other, ScalarValue):
            if isinstance(other, (SizeVar, GridExpr)):
                other = other.value()
            return getattr(self.value(), method)(other)
        return GridExpr(op, other, self) if reverse else GridExpr(op, self, other)
    return apply


for _cls in (SizeVar, GridExpr):
    for _op in ("add", "mul", "floordiv", "sub", "mod"):
        setattr(_cls, "__%s__" % _op, _size_op(_op))
        setattr(_cls, "__r%s__" % _op, _size_op(_op, True))
    for _cmp in ("lt", "le", "gt", "ge", "eq", "ne"):
        setattr(_cls, "__%s__" % _cmp,
                (lambda c: lambda self, other: getattr(self.value(), "__%s__" % c)(other))(_cmp))
    _cls.__hash__ = object.__hash__


def ceildiv(a, b):
    """⌈a / b⌉: a grid expression of a size variable, or index arithmetic on
    traced values (arith.ceildivsi), or ints."""
    if isinstance(a, (SizeVar, GridExpr)):
        return GridExpr("ceildiv", a, b)
    if isinstance(a, ScalarValue):
        other = a._coerce(b)
        bld = builder()
        result = bld.fresh("s")
        bld.emit("%s = arith.ceildivsi %s, %s : %s" % (result, a.ssa, other.ssa, a.mlir))
        return ScalarValue(result, a.dtype, None)
    if is_int(a) and is_int(b) and b:
        return -(-int(a) // int(b))
    raise _error("T.ceildiv needs ints, index values or size variables, got %r, %r" % (a, b))


def divisor_of(value):
    """A known divisor of an index value while tracing (its linear form over
    values of known divisors), 0 for the constant 0."""
    if isinstance(value, SizeVar):
        return value.multiple_of
    if not isinstance(value, ScalarValue):
        return abs(int(value)) if is_int(value) else 1  # checked where it is used
    if value.affine is None:
        return 1
    b = current_builder()
    divisors = getattr(b, "divisors", {}) if b is not None else {}
    terms, constant = value.affine
    result = abs(constant)
    for ssa, coefficient in terms:
        result = math.gcd(result, abs(coefficient) * divisors.get(ssa, 1))
    return result


def check_align(align, what):
    if not is_int(align) or align < 1 or align & (align - 1):
        raise _error("%s: align must be a positive power of two, got %r" % (what, align))
    return int(align)


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
        if isinstance(value, TensorValue):
            if self.kind == "u":
                raise _error("T.%s(...) of a tensor element: traced integers are signless; "
                             "read it as T.int%d(...) (same bits) or T.index(...) (an "
                             "unsigned tile's value, zero-extended)" % (self.name, self.bits))
            value, _ = load_element(value, "T.%s" % self.name)
            value.zext = False  # T.int32(...): the bits as a signed value
        if isinstance(value, ScalarValue):
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


#===------------------------------------------------------------------------===#
# The builder
#===------------------------------------------------------------------------===#

class _TracerState(threading.local):
    """The tracer's state, one per thread: tirx.compile may run in several
    threads at once, each tracing its own kernel."""
    builder = None


_state = _TracerState()


def current_builder():
    """The Builder of the function this thread is tracing, or None."""
    return _state.builder


class Builder:
    def __init__(self):
        self.lines = []
        self.counter = 0
        self.functions = {}  # name → scalar function IR text
        self.frames = []  # open T.serial / T.If / T.Then / T.Else frames (_control.py)
        self.sizes = {}  # size variable name → its SSA value in the kernel
        self.divisors = {}  # index SSA value → a known divisor of it (1 if absent)
        # Checks that need the whole trace (tirx.pipeline: a consumer that
        # never releases), run once the kernel's function returns.
        self.end_checks = []

    def fresh(self, hint="v"):
        self.counter += 1
        return "%%%s%d" % (hint, self.counter)

    def _indent(self):
        return "    " + "  " * sum(frame.kind != "T.If" for frame in self.frames)

    def emit(self, text):
        if self.frames:
            self.frames[-1].check_emit()
        self.lines.append("%s%s %s" % (self._indent(), text, _location()))

    def emit_open(self, text):
        """The first line of a region op (`scf.for ... {`); its location
        goes on the closing line."""
        self.lines.append(self._indent() + text)

    def emit_close(self, text):
        self.lines.append(self._indent() + text)

    def __enter__(self):
        self.previous, _state.builder = _state.builder, self
        return self

    def __exit__(self, *exc):
        _state.builder = self.previous


def builder():
    b = _state.builder
    if b is None:
        raise _error("this must be called inside a @T.function being compiled")
    return b


#===------------------------------------------------------------------------===#
# Tensors
#===------------------------------------------------------------------------===#

class TensorType:
    def __init__(self, shape, dtype, space, layout=None, align=None):
        self.shape = tuple(d if isinstance(d, SizeVar) else int(d) for d in shape)
        self.dtype, self.space = dtype, space
        self.layout = layout  # TileLayout or None
        self.align = align

    @property
    def size_vars(self):
        """The size variables of the runtime extents, in order."""
        return [d for d in self.shape if isinstance(d, SizeVar)]

    @property
    def alignment_or_default(self):
        """The declared alignment in bytes, else the element size (as
        TensorType::getAlignmentOrDefault in C++)."""
        return self.align or self.dtype.bits // 8

    def __str__(self):
        text = "x".join("?" if isinstance(d, SizeVar) else str(d) for d in self.shape) + \
            "x" + self.dtype.mlir + ", " + self.space
        if self.layout is not None:
            text += ", #tirx.layout<%s>" % self.layout
        if self.size_vars:
            text += ", sizes = [%s]" % ", ".join(v.name for v in self.size_vars)
        if self.align:
            text += ", align = %d" % self.align
        return "!tirx.tensor<%s>" % text

    @staticmethod
    def parse(text):
        """The type MLIR inferred (for regions), back into Python."""
        body = text[len("!tirx.tensor<"):-1]
        head, _, rest = body.partition(", ")
        dims = head.split("x")
        dtype = next(d for d in DTYPES.values() if d.mlir == dims[-1])
        space, _, rest = rest.partition(", ")
        layout = align = None
        if rest.startswith("#tirx.layout<"):
            depth, end = 0, 0
            for end, ch in enumerate(rest):
                depth += ch == "<"
                depth -= ch == ">"
                if depth == 0 and ch == ">":
                    break
            layout = TileLayout(rest[len("#tirx.layout<"):end])
            rest = rest[end + 1:].lstrip(", ")
        if rest.startswith("align = "):
            align = int(rest[len("align = "):])
        return TensorType([int(d) for d in dims[:-1]], dtype, space, layout, align)


class Tensor:
    """A parameter annotation: T.Tensor((2, 32, 4), "float32", align=16)."""

    def __init__(self, shape, dtype="float32", align=None, layout=None):
        shape = check_shape(shape, "T.Tensor", allow_sizes=True)
        if layout is not None and any(isinstance(d, SizeVar) for d in shape):
            raise _error("T.Tensor: a tensor with runtime extents is dense row-major and "
                         "takes no layout")
        if align is not None:
            align = check_align(align, "T.Tensor")
        self.type = TensorType(shape, as_dtype(dtype), "global",
                               _as_layout(layout), align)
        self.position = _user_position()  # where the annotation is written


def _as_layout(layout):
    if layout is None or layout == "default" or isinstance(layout, TileLayout):
        return None if layout == "default" else layout
    return TileLayout(layout)


def _check_bound(value):
    """A constant region index or slice bound: an int that fits in int64."""
    if not is_int(value):
        raise _error("a region index must be an int or an index value (e.g. "
                     "T.cuda.block_idx), got %r" % (value,))
    if not -(1 << 62) < value < 1 << 62:
        raise _error("region index %d is out of range" % value)
    return int(value)


def _frames_now():
    """The loop/branch frames open while a value is traced."""
    b = _state.builder
    return tuple(b.frames) if b is not None else ()


def _live_ssa(value):
    """The SSA name of `value`, or a DSLError when the loop or branch it was
    traced in has ended (its name is out of scope there)."""
    for frame in value._frames:
        if frame.closed:
            raise _error("a value traced inside the %s at line %d is used after it "
                         "ended; compute or allocate it before" % (frame.what, frame.position[1]))
    return value._ssa


class TensorValue:
    def __init__(self, ssa, type):
        self._ssa, self.type = ssa, type
        self._frames = _frames_now()

    ssa = property(_live_ssa)

    @property
    def shape(self):
        return self.type.shape

    @property
    def dtype(self):
        return self.type.dtype

    def _layout_or_default(self):
        if self.type.layout is not None:
            return self.type.layout
        dims = self.type.shape
        strides, step = [], 1
        for d in reversed(dims):
            strides.insert(0, step)
            step *= d
        inner = ", ".join(str(d) for d in dims)
        if len(dims) > 1:
            return TileLayout("S[(%s) : (%s)]" % (inner, ", ".join(map(str, strides))))
        return TileLayout("S[%s : 1]" % inner)

    def ptr_to(self, indices):
        """The element at `indices` as a one-element tile of this tensor
        (TIRx's `buf.ptr_to([i])`): a memory operand such as an mbarrier."""
        indices = list(indices)
        if len(indices) != len(self.shape):
            raise _error("ptr_to needs %d indices (one per dimension), got %d"
                         % (len(self.shape), len(indices)))
        return self._region(tuple(slice(i, i + 1) for i in indices), drop=False)

    @property
    def data(self):
        """TIRx's `buf.data`: the first element, as `ptr_to([0, ...])`."""
        return self.ptr_to([0] * len(self.shape))

    def view(self, *args, layout=None):
        """view(d0, d1, ...) reshapes (same element count, same layout);
        view("uint16") reinterprets the bits (spec §1.9);
        view(d0, d1, ..., layout=L) declares a tensor of that shape and
        layout over the same storage (tirx.reinterpret: TIRx's decl_tensor
        over a buffer), e.g. a shared row with lanes broadcast (stride 0)."""
        b = builder()
        if layout is not None:
            shape = tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
            shape = check_shape(shape, "view")
            layout = _as_layout(layout)
            # The layout is relative to this tensor's first element: a static
            # region (t[a:b]) starts at its offset in the storage.
            start = self._layout_or_default().apply(0)["m"]
            if start:
                layout = TileLayout("%s + %d" % (layout, start))
            new_type = TensorType(shape, self.type.dtype, self.type.space, layout,
                                  self.type.align)
            result = b.fresh("view")
            b.emit("%s = tirx.reinterpret %s : %s -> %s" % (result, self.ssa, self.type, new_type))
            return TensorValue(result, new_type)
        if len(args) == 1 and isinstance(args[0], (str, DType)):
            new_dtype = as_dtype(args[0])
            old = self.type
            if new_dtype.bits == old.dtype.bits:
                new_type = TensorType(old.shape, new_dtype, old.space, old.layout, old.align)
            elif old.layout is None and old.space != "local":
                # A row-major memory tensor stays row-major in the new
                # element (packing or unpacking its innermost dimension), so
                # its layout stays implicit and regions keep their alignment
                # claims (_alignment_claim).
                if new_dtype.bits < old.dtype.bits:
                    shape = old.shape[:-1] + (old.shape[-1] * (old.dtype.bits // new_dtype.bits),)
                else:
                    ratio = new_dtype.bits // old.dtype.bits
                    if not is_int(old.shape[-1]) or old.shape[-1] % ratio:
                        raise _error("cannot view %s as %s: the innermost extent %s is not "
                                     "divisible by %d" % (old.dtype.name, new_dtype.name,
                                                          old.shape[-1], ratio))
                    shape = old.shape[:-1] + (old.shape[-1] // ratio,)
                new_type = TensorType(shape, new_dtype, old.space, None, old.align)
            else:
                layout = self._layout_or_default()
                if new_dtype.bits < old.dtype.bits:
                    ratio = old.dtype.bits // new_dtype.bits
                    layout = layout.unpack(ratio)
                    shape = old.shape[:-1] + (old.shape[-1] * ratio,)
                else:
                    ratio = new_dtype.bits // old.dtype.bits
                    if old.shape[-1] % ratio:
                        raise _error("cannot view %s as %s: the innermost extent %d is not "
                                     "divisible by %d" % (old.dtype.name, new_dtype.name,
                                                          old.shape[-1], ratio))
                    layout = layout.pack(ratio)
                    shape = old.shape[:-1] + (old.shape[-1] // ratio,)
                new_type = TensorType(shape, new_dtype, old.space, layout, old.align)
        else:
            shape = tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
            if sum(1 for d in shape if is_int(d) and d == -1) == 1:
                known = 1
                for d in shape:
                    known *= d if is_int(d) and d > 0 else 1
                total = 1
                for d in self.type.shape:
                    total *= d
                shape = tuple(total // known if is_int(d) and d == -1 else d for d in shape)
            shape = check_shape(shape, "view")
            new_type = TensorType(shape, self.type.dtype, self.type.space,
                                  self.type.layout, self.type.align)
        result = b.fresh("view")
        b.emit("%s = tirx.view %s : %s -> %s" % (result, self.ssa, self.type, new_type))
        return TensorValue(result, new_type)

    def _region(self, key, drop, masked=False):
        b = builder()
        if masked and self.type.space != "global":
            raise _error("only a global tensor's regions can be masked (this tensor is in "
                         "%s memory)" % self.type.space)
        key = key if isinstance(key, tuple) else (key,)
        if len(key) > len(self.shape):
            raise _error("%d indices for a rank-%d tensor" % (len(key), len(self.shape)))
        if len(key) < len(self.shape):
            key = key + (slice(None),) * (len(self.shape) - len(key))
        offsets, sizes, dynamic, kept = [], [], [], []
        divisors = []  # per dimension: a known divisor of its offset
        as_value = lambda v: v.value() if isinstance(v, (SizeVar, GridExpr)) else v
        for dim, item in enumerate(key):
            extent = self.shape[dim]
            if isinstance(item, (SizeVar, GridExpr)):
                item = as_value(item)
            if isinstance(item, slice):
                if item.step not in (None, 1):
                    raise _error("stepped slices are not supported")
                if isinstance(extent, SizeVar) and (item.stop is None or item.start is None):
                    raise _error("dimension %d has the runtime extent %s: a slice of it needs "
                                 "both bounds and a static size, as in A[i*4:(i+1)*4]"
                                 % (dim, extent.name))
                start = 0 if item.start is None else as_value(item.start)
                stop = extent if item.stop is None else as_value(item.stop)
                divisors.append(divisor_of(start))
                if isinstance(start, ScalarValue) or isinstance(stop, ScalarValue):
                    # A[i*4:(i+1)*4]: a traced offset, a size known while tracing.
                    size = _static_difference(stop, start)
                    if size is None:
                        raise _error("a slice with a traced bound needs a static size: "
                                     "stop - start must be a constant, as in "
                                     "A[i*4:(i+1)*4]")
                    if isinstance(start, ScalarValue):
                        offsets.append(None)
                        dynamic.append(start._as_index())
                    else:
                        offsets.append(_check_bound(start))
                    sizes.append(size)
                    kept.append(size)
                    continue
                _check_bound(start)
                _check_bound(stop)
                offsets.append(int(start))
                sizes.append(int(stop) - int(start))
                kept.append(int(stop) - int(start))
            else:
                divisors.append(divisor_of(item))
                if isinstance(item, ScalarValue):
                    offsets.append(None)
                    dynamic.append(item._as_index())
                else:
                    offsets.append(_check_bound(item))
                sizes.append(1)
                if not drop:
                    kept.append(1)
        error = ctypes.c_void_p()
        text = _capi.lib.tirxInferRegionType(
            str(self.type).encode(),
            _capi.int64_array(-(1 << 63) if o is None else o for o in offsets),
            _capi.int64_array(sizes), len(sizes), ctypes.byref(error))
        if not text:
            message = _capi.take_string(error)
            raise _error(message if message.startswith("invalid region") else
                         "invalid region: %s" % message)
        region_type = TensorType.parse(_capi.take_string(text))
        claim = self._alignment_claim(offsets, divisors)
        if claim and claim > region_type.alignment_or_default:
            region_type.align = claim
        else:
            claim = None
        dyn = iter(dynamic)
        offset_text = ", ".join(next(dyn) if o is None else str(o) for o in offsets)
        result = b.fresh("region")
        b.emit("%s = tirx.region %s[%s] [%s]%s%s : %s" % (
            result, self.ssa, offset_text, ", ".join(map(str, sizes)),
            " masked" if masked else "", " align %d" % claim if claim else "", self.type))
        value = TensorValue(result, region_type)
        if drop and tuple(kept) != region_type.shape:
            value = value.view(*(kept or [1]))
        return value

    def _alignment_claim(self, offsets, divisors):
        """The base alignment a region of this row-major global/shared tensor
        keeps, from the divisors of its offsets known while tracing (the
        kernel's verifier proves it: docs/sizes.md), or None."""
        if self.type.space == "local" or self.type.layout is not None:
            return None
        if all(o is not None for o in offsets) and not self.type.size_vars:
            return None  # static offsets: the layout already says it
        moved = 0  # gcd of the bytes each offset may move the base by
        stride = self.type.dtype.bits // 8
        for dim in reversed(range(len(self.shape))):
            if offsets[dim] != 0:
                moved = math.gcd(moved, divisors[dim] * stride)
            extent = self.shape[dim]
            stride *= extent.multiple_of if isinstance(extent, SizeVar) else extent
        limit = self.type.alignment_or_default
        if moved == 0:
            return limit
        return min(limit, moved & -moved)

    def __getitem__(self, key):
        """t[a:b, ...]: a rank-keeping region (spec §1.9)."""
        return self._region(key, drop=False)

    @property
    def sub(self):
        """t.sub[i, a:b]: an integer index drops its dimension."""
        tensor = self

        class _Sub:
            def __getitem__(self, key):
                return tensor._region(key, drop=True)
        return _Sub()

    @property
    def masked(self):
        """t.masked[r:r + 32, c:c + 32] (rank-keeping) and t.masked.sub[i, a:b]
        (an integer index drops its dimension): a region that may overhang the
        tensor's end. Tile ops access only its elements inside the tensor: each
        repeat of the instruction is predicated on them, and a skipped load
        leaves its registers as they were (fill them first with the value the
        tail should count as). The bounds proof then checks only that the
        offsets are not negative (docs/sizes.md, "Masked regions")."""
        tensor = self

        class _Masked:
            def __getitem__(self, key):
                return tensor._region(key, drop=False, masked=True)

            @property
            def sub(self):
                class _MaskedSub:
                    def __getitem__(self, key):
                        return tensor._region(key, drop=True, masked=True)
                return _MaskedSub()
        return _Masked()


#===------------------------------------------------------------------------===#
# Scalars (indices and the bodies of scalar functions)
#===------------------------------------------------------------------------===#

_CMP = {"lt": ("olt", "slt", "ult"), "le": ("ole", "sle", "ule"),
        "gt": ("ogt", "sgt", "ugt"), "ge": ("oge", "sge", "uge"),
        "eq": ("oeq", "eq", "eq"), "ne": ("une", "ne", "ne")}
# The negation of each predicate: `~(x < y)` of floats is `x uge y` (true
# where either is NaN, as `not` is).
_INVERSE = {"slt": "sge", "sle": "sgt", "sgt": "sle", "sge": "slt",
            "ult": "uge", "ule": "ugt", "ugt": "ule", "uge": "ult",
            "eq": "ne", "ne": "eq",
            "olt": "uge", "ole": "ugt", "ogt": "ule", "oge": "ult",
            "oeq": "une", "une": "oeq"}


class ScalarValue:
    """A traced scalar: an index (thread/block ids) or a value of a dtype."""

    def __init__(self, ssa, dtype, affine=None):
        self._ssa, self.dtype = ssa, dtype  # dtype None means `index`
        self._frames = _frames_now()
        # For an index: (((ssa, coefficient), ...), constant), the value as a
        # linear form of opaque index values, so that a slice's size
        # (i+1)*4 - i*4 is known while tracing.
        if dtype is None and affine is None:
            affine = (((ssa, 1),), 0)
        self.affine = affine if dtype is None else None
        # The bits of an unsigned register or memory element (signless here):
        # T.index zero-extends them.
        self.zext = False

    ssa = property(_live_ssa)

    @property
    def mlir(self):
        return "index" if self.dtype is None else self.dtype.mlir

    def _as_index(self):
        if self.dtype is not None:
            raise _error("expected an index (e.g. T.cuda.block_idx), got a %s" % self.dtype.name)
        return self.ssa

    def _coerce(self, other):
        if isinstance(other, (SizeVar, GridExpr)) and self.dtype is None:
            other = other.value()
        if isinstance(other, ScalarValue):
            if other.mlir != self.mlir:
                raise _error("operands of different types (%s and %s); write the cast "
                             "explicitly" % (self.mlir, other.mlir))
            return other
        if isinstance(other, Constant):
            if other.dtype is not self.dtype:
                raise _error("constant of type %s combined with %s; write the cast "
                             "explicitly" % (other.dtype.name, self.mlir))
            other = other.value
        if isinstance(other, (int, float, bool)):
            b = builder()
            result = b.fresh("c")
            literal = str(int(other)) if self.dtype is None else _literal(other, self.dtype)
            b.emit("%s = arith.constant %s : %s" % (result, literal, self.mlir))
            return ScalarValue(result, self.dtype,
                               ((), int(other)) if self.dtype is None else None)
        raise _error("unsupported operand %r" % (other,))

    def _binary(self, other, op, reverse=False):
        other = self._coerce(other)
        lhs, rhs = (other, self) if reverse else (self, other)
        is_float = self.dtype is not None and self.dtype.is_float
        # An index is signed (64-bit): `i - 1 >= 0` is false for i = 0.
        unsigned = self.dtype is not None and self.dtype.kind == "u"
        name = {"add": "addf" if is_float else "addi", "sub": "subf" if is_float else "subi",
                "mul": "mulf" if is_float else "muli",
                "div": "divf" if is_float else ("divui" if unsigned else "divsi"),
                "mod": "remf" if is_float else ("remui" if unsigned else "remsi")}[op]
        b = builder()
        result = b.fresh("s")
        b.emit("%s = arith.%s %s, %s : %s" % (result, name, lhs.ssa, rhs.ssa, self.mlir))
        affine = None
        if self.dtype is None:
            affine = _affine_combine(op, lhs.affine, rhs.affine)
        return ScalarValue(result, self.dtype, affine)

    __add__ = lambda s, o: s._binary(o, "add")
    __radd__ = lambda s, o: s._binary(o, "add", True)
    __sub__ = lambda s, o: s._binary(o, "sub")
    __rsub__ = lambda s, o: s._binary(o, "sub", True)
    __mul__ = lambda s, o: s._binary(o, "mul")
    __rmul__ = lambda s, o: s._binary(o, "mul", True)
    __truediv__ = lambda s, o: s._binary(o, "div")
    __rtruediv__ = lambda s, o: s._binary(o, "div", True)
    __floordiv__ = lambda s, o: s._binary(o, "div")
    __mod__ = lambda s, o: s._binary(o, "mod")

    def __neg__(self):
        b = builder()
        result = b.fresh("s")
        if self.dtype is not None and self.dtype.is_float:
            b.emit("%s = arith.negf %s : %s" % (result, self.ssa, self.mlir))
            return ScalarValue(result, self.dtype)
        return self._binary(0, "sub", True)

    def _compare(self, other, predicate):
        other = self._coerce(other)
        b = builder()
        result = b.fresh("cmp")
        if self.dtype is not None and self.dtype.is_float:
            op, pred = "cmpf", _CMP[predicate][0]
        else:
            op = "cmpi"
            pred = _CMP[predicate][2 if (self.dtype is not None and self.dtype.kind == "u")
                                   else 1]
        b.emit("%s = arith.%s %s, %s, %s : %s" % (result, op, pred, self.ssa, other.ssa,
                                                  self.mlir))
        value = ScalarValue(result, _BOOL)
        # What `~` inverts (__invert__).
        value._comparison = (op, pred, self.ssa, other.ssa, self.mlir)
        return value

    __lt__ = lambda s, o: s._compare(o, "lt")
    __le__ = lambda s, o: s._compare(o, "le")
    __gt__ = lambda s, o: s._compare(o, "gt")
    __ge__ = lambda s, o: s._compare(o, "ge")
    # `i == 0` is a traced comparison, never Python's identity test (which
    # would fold `if i == 0:` to a constant branch).
    __eq__ = lambda s, o: s._compare(o, "eq")
    __ne__ = lambda s, o: s._compare(o, "ne")
    __hash__ = object.__hash__

    #===--------------------------------------------------------------------===#
    # &, |, ^, ~: conditions (i1) combine logically, integers bitwise
    #===--------------------------------------------------------------------===#

    def _logic(self, other, op, reverse=False):
        """`a & b`, `a | b`, `a ^ b`. On conditions (i1: comparisons and
        their combinations) a Python bool folds away; on integers (and
        indices) both sides have one type, ints are constants of it."""
        symbol = {"andi": "&", "ori": "|", "xori": "^"}[op]
        if self.dtype is not None and self.dtype.is_float:
            raise _error("`%s` needs conditions or integers, got a %s value"
                         % (symbol, self.dtype.name))
        is_bool = self.dtype is _BOOL
        if isinstance(other, ScalarValue) and (other.dtype is _BOOL) != is_bool:
            raise _error("`%s` of a condition and an integer; compare the integer "
                         "first (`x != 0`) or cast the condition (T.int32(cond))"
                         % symbol)
        if is_bool and isinstance(other, bool):
            # cond & True is cond, cond & False is false, cond ^ True is ~cond.
            if (op == "andi") == other:
                return self
            if op == "xori":
                return ~self
            return _bool_constant(other)
        if is_bool and not isinstance(other, ScalarValue):
            raise _error("`%s` combines a condition with a condition or a Python bool, "
                         "got %r" % (symbol, other))
        if not is_bool and isinstance(other, (bool, float)):
            raise _error("`%s` of an integer needs an integer, got %r" % (symbol, other))
        other = self._coerce(other)
        lhs, rhs = (other, self) if reverse else (self, other)
        b = builder()
        result = b.fresh("s")
        b.emit("%s = arith.%s %s, %s : %s" % (result, op, lhs.ssa, rhs.ssa, self.mlir))
        return ScalarValue(result, self.dtype)

    __and__ = lambda s, o: s._logic(o, "andi")
    __rand__ = lambda s, o: s._logic(o, "andi", True)
    __or__ = lambda s, o: s._logic(o, "ori")
    __ror__ = lambda s, o: s._logic(o, "ori", True)
    __xor__ = lambda s, o: s._logic(o, "xori")
    __rxor__ = lambda s, o: s._logic(o, "xori", True)

    def __invert__(self):
        """`~cond`: a comparison inverts its predicate (so the bounds proof
        still sees one comparison); another condition is xor-ed with true.
        `~x` of an integer flips its bits."""
        if self.dtype is not None and self.dtype.is_float:
            raise _error("`~` needs a condition or an integer, got a %s value"
                         % self.dtype.name)
        b = builder()
        result = b.fresh("not")
        comparison = getattr(self, "_comparison", None)
        if comparison is not None and self.ssa:  # self.ssa: still in scope
            op, predicate, lhs, rhs, mlir = comparison
            inverted = _INVERSE[predicate]
            b.emit("%s = arith.%s %s, %s, %s : %s" % (result, op, inverted, lhs, rhs, mlir))
            value = ScalarValue(result, _BOOL)
            value._comparison = (op, inverted, lhs, rhs, mlir)
            return value
        ones = _bool_constant(True) if self.dtype is _BOOL else self._coerce(-1)
        b.emit("%s = arith.xori %s, %s : %s" % (result, self.ssa, ones.ssa, self.mlir))
        return ScalarValue(result, self.dtype)

    def __bool__(self):
        b = _state.builder
        statement = _user_statement()
        # `and`, `or`, `not` and chained comparisons (`0 <= i < n`) all ask
        # for a truth value: name the operators that trace instead.
        combine = ""
        if _asks_truth_of_conditions(statement):
            combine = ("; combine conditions with `&`, `|`, `^` and `~` (not `and`, `or`, "
                       "`not`, or a chained comparison), parenthesizing each comparison: "
                       "`(r < M) & (c < N)`, since `&` binds tighter than `<`")
        if b is None or getattr(b, "launch", False) is False:
            # A scalar function's body: one value per element, no branches.
            raise _error("a traced value has no Python truth value; use T.if_then_else"
                         + combine)
        if statement.startswith("while"):
            raise _error("a Python `while` on a traced value cannot be decided while "
                         "tracing; loop with `for i in T.serial(start, stop, step)`, or "
                         "`with T.DoWhile() as loop:` ... `loop.repeat_if(cond)` when the "
                         "trip count is decided while the loop runs" + combine)
        if statement.startswith(("if", "elif")):
            raise _error("a Python `if` on a traced value cannot be decided while tracing; "
                         "branch with `with T.If(cond):` and `with T.Then():` / "
                         "`with T.Else():` blocks (or T.if_then_else for a value, pred= "
                         "for one instruction)" + combine)
        raise _error("a traced value has no Python truth value (bool(), and, or, not); "
                     "branch with `with T.If(cond):` and `with T.Then():` / "
                     "`with T.Else():` blocks, or use T.if_then_else for a value"
                     + (combine or "; combine conditions with `&`, `|`, `^` and `~`, "
                        "parenthesizing each comparison: `(r < M) & (c < N)`"))

    def __index__(self):
        raise _error("a traced value is not a Python int (range(), indexing a list); "
                     "loop over a traced count with `for i in T.serial(...)`")

    def _cast(self, dtype):
        b = builder()
        result = b.fresh("cast")
        src = self.dtype
        if src is dtype:
            return self
        if src is None:
            # An index (a thread/block index, loop index or size: never
            # negative) as a number: a signed conversion through i64.
            wide = b.fresh("cast")
            b.emit("%s = arith.index_cast %s : index to i64" % (wide, self.ssa))
            if dtype.is_float:
                b.emit("%s = arith.sitofp %s : i64 to %s" % (result, wide, dtype.mlir))
                return ScalarValue(result, dtype)
            return ScalarValue(wide, DTYPES["int64"])._cast(dtype)
        if src.is_float and dtype.is_float:
            op = "arith.extf" if dtype.bits > src.bits else "arith.truncf"
        elif src.is_float:
            op = "arith.fptoui" if dtype.kind == "u" else "arith.fptosi"
        elif dtype.is_float:  # a comparison (i1) converts as unsigned: true is 1
            op = "arith.uitofp" if src.kind in "ub" else "arith.sitofp"
        elif dtype.bits > src.bits:
            op = "arith.extui" if src.kind == "b" else "arith.extsi"
        else:
            op = "arith.trunci"
        b.emit("%s = %s %s : %s to %s" % (result, op, self.ssa, src.mlir, dtype.mlir))
        return ScalarValue(result, dtype)


def load_element(tile, what):
    """The executing thread's element of a one-element register tile
    (`regs[i]`), read by a `tirx.slot_load`: a traced scalar of the tile's
    bits (integers signless) and whether the tile's type is unsigned. The
    bounds proof knows nothing of its value (docs/bounds.md): an access
    through it is proven only under a guard that bounds it."""
    if tile.type.space != "local":
        raise _error("%s reads an element of a register tile (T.alloc_local), got a %s "
                     "tensor; load it into registers first (ld.%s)"
                     % (what, tile.type.space, tile.type.space))
    if any(isinstance(d, SizeVar) for d in tile.shape) or math.prod(tile.shape) != 1:
        raise _error("%s reads one element, such as regs[i], got a tile of shape (%s)"
                     % (what, ", ".join(map(str, tile.shape))))
    dtype = tile.dtype
    if dtype.is_float and dtype.bits < 32:
        raise _error("%s of a %s element is not supported; convert it in registers "
                     "(cvt) first" % (what, dtype.name))
    layout = tile._layout_or_default()
    threads = [axis for axis in layout._axes() if axis != "m"]
    if threads:
        raise _error("%s: the element lives in one thread (its layout is over %s); only "
                     "a tile whose layout is on m alone has it in every thread"
                     % (what, ", ".join(threads)))
    slot = layout.apply(0)["m"]
    signless = dtype if dtype.kind != "u" else DTYPES["int%d" % dtype.bits]
    b = builder()
    result = b.fresh("elem")
    b.emit("%s = tirx.slot_load %s[%d] : %s -> %s" % (result, tile.ssa, slot, tile.type,
                                                       signless.mlir))
    scalar = ScalarValue(result, signless)
    scalar.zext = dtype.kind == "u"
    return scalar, scalar.zext


def to_index(value):
    """`T.index(x)`: an index (loop bounds, region offsets, comparisons with
    sizes) from a traced integer, a register tile element (`regs[0]`,
    zero-extended when the tile is unsigned, as is the value
    T.cuda.atomic_add returns from an unsigned element) or a size expression
    (`T.ceildiv(n, 4096)`, computed where it is called)."""
    unsigned = False
    if isinstance(value, (SizeVar, GridExpr)):
        return value.value()
    if isinstance(value, TensorValue):
        value, unsigned = load_element(value, "T.index")
    if isinstance(value, ScalarValue) and value.dtype is None:
        return value
    if not isinstance(value, ScalarValue) or value.dtype.is_float or value.dtype is _BOOL \
            or value.dtype.kind == "u":
        raise _error("T.index needs a traced signless integer or a register tile element, "
                     "got %r" % (value,))
    unsigned = unsigned or value.zext
    b = builder()
    result = b.fresh("idx")
    b.emit("%s = arith.index_cast%s %s : %s to index"
           % (result, "ui" if unsigned else "", value.ssa, value.mlir))
    return ScalarValue(result, None)


def _asks_truth_of_conditions(statement):
    """Whether a line of Python combines values with `and`, `or`, `not` or a
    chained comparison (`a < b < c`), each of which asks for a truth value."""
    import ast
    text = re.sub(r"^elif\b", "if", statement)
    for candidate in (text, text + " pass"):
        try:
            tree = ast.parse(candidate)
        except SyntaxError:
            continue
        return any(isinstance(node, ast.BoolOp)
                   or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not))
                   or (isinstance(node, ast.Compare) and len(node.ops) > 1)
                   for node in ast.walk(tree))
    # A statement over several lines: its words.
    return re.search(r"\b(and|or|not)\b", statement) is not None


def _user_statement():
    """The source line running now in the user's code, stripped."""
    frame = _user_frame()
    if frame is None:
        return ""
    return linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()


def _affine_combine(op, lhs, rhs):
    """The linear form of `lhs op rhs`, or a fresh opaque one (None) when it
    is not linear."""
    if lhs is None or rhs is None:
        return None
    (lterms, lconst), (rterms, rconst) = lhs, rhs
    if op in ("add", "sub"):
        sign = 1 if op == "add" else -1
        terms = dict(lterms)
        for ssa, coefficient in rterms:
            terms[ssa] = terms.get(ssa, 0) + sign * coefficient
        return (tuple(sorted((k, v) for k, v in terms.items() if v)),
                lconst + sign * rconst)
    if op == "mul" and (not lterms or not rterms):
        (terms, const), factor = (rhs, lconst) if not lterms else (lhs, rconst)
        return (tuple((k, v * factor) for k, v in terms if v * factor), const * factor)
    return None


def _static_difference(stop, start):
    """`stop - start` when it is known while tracing (ints, or index values
    whose linear forms differ by a constant), else None."""
    def form(value):
        if isinstance(value, ScalarValue):
            if value.dtype is not None:
                raise _error("a slice bound must be an int or an index value, got a value "
                             "of type %s" % value.dtype.name)
            return value.affine or (((value.ssa, 1),), 0)
        return ((), _check_bound(value))
    (sterms, sconst), (tterms, tconst) = form(stop), form(start)
    return sconst - tconst if sterms == tterms else None


class _Bool(DType):
    pass


_BOOL = _Bool("bool", "i1", 1, "b", "|b1")
# A predicate register (.pred): local tiles of "bool" hold setp results,
# shfl's `|p`, and vote's inputs and outputs.
DTYPES["bool"] = _BOOL


def _bool_constant(value):
    """A traced condition that is always `value` (`cond & False`)."""
    b = builder()
    result = b.fresh("c")
    b.emit("%s = arith.constant %s" % (result, "true" if value else "false"))
    return ScalarValue(result, _BOOL)


def math_op(name, value):
    """`math.<name>` of a traced float: T.exp(x) is math_op("exp", x)."""
    value = _math_operands("T." + name, (value,), "f")[0]
    return _math_emit("math." + name, (value,), value.dtype)


#===------------------------------------------------------------------------===#
# Math functions: T.exp, T.pow, T.max, ... (docs/python.md "Math functions",
# docs/math.md for what each lowers to)
#===------------------------------------------------------------------------===#

_FLOAT_NAMES = "float16, bfloat16, float32 or float64"
_INFINITY = {"f16": "0x7C00", "bf16": "0x7F80", "f32": "0x7F800000",
             "f64": "0x7FF0000000000000"}


def _math_operands(what, args, kinds):
    """`args` as traced scalars of one type. At least one must be traced;
    Python numbers (and T.<dtype>(c) constants of its type) become constants
    of it. `kinds`: "f" floats only, "i" integers only, "fi" either (an index
    counts as an integer where "x" is in `kinds`)."""
    ref = next((a for a in args if isinstance(a, ScalarValue)), None)
    if ref is None:
        raise _error("%s needs a traced %s value (a parameter of the scalar function or "
                     "a value computed from one), got %s" % (
                         what, "float" if kinds == "f" else "integer" if kinds == "i"
                         else "number", ", ".join(map(_describe, args))))
    dtype = ref.dtype
    if dtype is None:
        ok, name = "x" in kinds, "index"
    else:
        ok = (dtype.is_float and "f" in kinds) or (dtype.kind in "iu" and "i" in kinds)
        name = dtype.name
    if not ok:
        expected = {"f": "a float (%s)" % _FLOAT_NAMES, "i": "an integer",
                    "fi": "a float or an integer", "fix": "a float, an integer or an index"}
        raise _error("%s needs %s, got a value of type %s" % (what, expected[kinds], name))
    return tuple(ref._coerce(a) for a in args)


def _describe(value):
    """`value` as the user wrote it: T.float32(1.0), 2."""
    if isinstance(value, Constant):
        return "T.%s(%r)" % (value.dtype.name, value.value)
    return repr(value)


def _math_emit(op, args, dtype, attributes="", result_dtype=None):
    """`op` of `args` (all of `dtype`), a scalar of `result_dtype` (default
    `dtype`)."""
    b = builder()
    result = b.fresh("m")
    b.emit("%s = %s %s%s : %s" % (result, op, ", ".join(a.ssa for a in args), attributes,
                                  dtype.mlir if dtype is not None else "index"))
    return ScalarValue(result, dtype if result_dtype is None else result_dtype)


def _math_signature(name, params):
    """A function `T.<name>(*params)` whose wrong arity is a located
    DSLError (not Python's TypeError, which names no line of the user's)."""
    def decorate(body):
        def function(*args, **kwargs):
            if kwargs:
                unknown = [k for k in kwargs if k not in params]
                if unknown:
                    raise _error("T.%s(%s) got an unexpected keyword argument %r" % (
                        name, ", ".join(params), unknown[0]))
                args = args + tuple(kwargs[p] for p in params[len(args):] if p in kwargs)
            if len(args) != len(params):
                raise _error("T.%s(%s) takes %d argument%s, got %d" % (
                    name, ", ".join(params), len(params), "" if len(params) == 1 else "s",
                    len(args)))
            return body(*args)
        function.__name__ = function.__qualname__ = name
        function.__doc__ = body.__doc__
        function.__signature__ = inspect.Signature(
            [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])
        return function
    return decorate


# T.<name>(x) of a float ⇒ math.<op> (docs/math.md lists each lowering).
_UNARY_FLOAT = {
    "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "log10": "log10",
    "log1p": "log1p", "expm1": "expm1", "sqrt": "sqrt", "rsqrt": "rsqrt", "cbrt": "cbrt",
    "sin": "sin", "cos": "cos", "tan": "tan", "asin": "asin", "acos": "acos",
    "atan": "atan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "asinh",
    "acosh": "acosh", "atanh": "atanh", "erf": "erf", "floor": "floor", "ceil": "ceil",
    "trunc": "trunc",
    # Half-way cases away from zero, as CUDA's roundf (TVM's T.round).
    "round": "round",
    # Half-way cases to even, as CUDA's rintf/nearbyintf (TVM's T.nearbyint).
    "nearbyint": "roundeven",
}
# T.<name>(first, second) of floats ⇒ <op> (TVM's parameter names).
_BINARY_FLOAT = {"pow": ("math.powf", ("x", "y")), "atan2": ("math.atan2", ("x1", "x2")),
                 "copysign": ("math.copysign", ("x1", "x2")),
                 "fmod": ("arith.remf", ("x", "y"))}


def _unary_float(name, op):
    @_math_signature(name, ("x",))
    def function(x):
        x, = _math_operands("T." + name, (x,), "f")
        return _math_emit("math." + op, (x,), x.dtype)
    function.__doc__ = "T.%s(x): math.%s of a float (docs/math.md)." % (name, op)
    return function


def _binary_float(name, op, params):
    @_math_signature(name, params)
    def function(x, y):
        x, y = _math_operands("T." + name, (x, y), "f")
        return _math_emit(op, (x, y), x.dtype)
    function.__doc__ = "T.%s(%s): %s of floats (docs/math.md)." % (name, ", ".join(params), op)
    return function


def math_functions():
    """The math functions of T, by name."""
    functions = {name: _unary_float(name, op) for name, op in _UNARY_FLOAT.items()}
    functions.update({name: _binary_float(name, op, params)
                      for name, (op, params) in _BINARY_FLOAT.items()})

    @_math_signature("exp10", ("x",))
    def exp10(x):
        """T.exp10(x): 10^x, traced as pow(10, x); lowered to libdevice's exp10
        (fast math: ex2.approx(x · log2 10), CUDA's __exp10f)."""
        x, = _math_operands("T.exp10", (x,), "f")
        return _math_emit("math.powf", (x._coerce(10.0), x), x.dtype)

    @_math_signature("sigmoid", ("x",))
    def sigmoid(x):
        """T.sigmoid(x): 1 / (1 + exp(-x)), as TVM defines it, computed as
        1 / (1 + e) for x >= 0 and e / (1 + e) for x < 0 with e = exp(-|x|),
        so that exp never overflows: sigmoid(-100) is the subnormal
        3.7e-44 in float32, not 1 / inf = 0. For float16 and bfloat16, e is
        their exp (libdevice's in float32, rounded; so also under fast math)
        and the rest is float32, rounded once."""
        x, = _math_operands("T.sigmoid", (x,), "f")
        positive = x >= x._coerce(0.0)  # false for NaN: e and the result are NaN
        e = math_op("exp", if_then_else(positive, -x, x))
        if x.dtype.bits < 32:
            e = e._cast(DTYPES["float32"])
        one = e._coerce(1.0)
        return if_then_else(positive, one / (one + e), e / (one + e))._cast(x.dtype)

    @_math_signature("hypot", ("x1", "x2"))
    def hypot(x, y):
        """T.hypot(x1, x2): sqrt(x1² + x2²) without overflow or underflow in the
        squares (libdevice's hypot, in every mode)."""
        x, y = _math_operands("T.hypot", (x, y), "f")
        # The marked square root becomes libdevice's hypot (tirx-precise-math).
        squares = _math_emit("arith.addf", (x * x, y * y), x.dtype)
        return _math_emit("math.sqrt", (squares,), x.dtype, ' {tirx.math = "hypot"}')

    @_math_signature("fma", ("x", "y", "z"))
    def fma(x, y, z):
        """T.fma(x, y, z): x·y + z rounded once (fma.rn)."""
        x, y, z = _math_operands("T.fma", (x, y, z), "f")
        return _math_emit("math.fma", (x, y, z), x.dtype)

    @_math_signature("abs", ("x",))
    def abs_(x):
        """T.abs(x): |x| of a float (abs) or a signed integer (abs.s; the most
        negative value stays itself); an unsigned integer is itself."""
        x, = _math_operands("T.abs", (x,), "fi")
        if x.dtype.is_float:
            return _math_emit("math.absf", (x,), x.dtype)
        return x if x.dtype.kind == "u" else _math_emit("math.absi", (x,), x.dtype)
    abs_.__name__ = abs_.__qualname__ = "abs"

    def extremum(name, float_op, int_op):
        @_math_signature(name, ("a", "b"))
        def function(x, y):
            x, y = _math_operands("T." + name, (x, y), "fix")
            if x.dtype is not None and x.dtype.is_float:
                op = float_op
            else:
                op = int_op % ("u" if x.dtype is not None and x.dtype.kind == "u" else "s")
            return _math_emit("arith." + op, (x, y), x.dtype)
        function.__doc__ = (
            "T.%s(a, b): of floats, %s.f32 (IEEE %sNum: a NaN operand gives the "
            "other one, as CUDA's f%sf); of integers and indices, signed or unsigned "
            "by the type." % (name, name, name, name))
        return function

    def classify(name, predicate, use_abs):
        @_math_signature(name, ("x",))
        def function(x):
            x, = _math_operands("T." + name, (x,), "f")
            value, other = x, x
            b = builder()
            if use_abs:
                value = _math_emit("math.absf", (x,), x.dtype)
                other = ScalarValue(b.fresh("c"), x.dtype)
                b.emit("%s = arith.constant %s : %s" % (other.ssa, _INFINITY[x.mlir], x.mlir))
            result = b.fresh("cmp")
            b.emit("%s = arith.cmpf %s, %s, %s : %s" % (result, predicate, value.ssa,
                                                       other.ssa, x.mlir))
            return ScalarValue(result, _BOOL)
        function.__doc__ = "T.%s(x): a condition (usable in T.if_then_else, T.If, pred=)." \
            % name
        return function

    @_math_signature("clz", ("x",))
    def clz(x):
        """T.clz(x): the number of leading zero bits of an integer (its width
        for 0), an int32 as TVM's."""
        x, = _math_operands("T.clz", (x,), "i")
        count = _math_emit("math.ctlz", (x,), x.dtype)
        return count._cast(DTYPES["int32"]) if x.dtype.bits != 32 else count

    @_math_signature("popcount", ("x",))
    def popcount(x):
        """T.popcount(x): the number of set bits of an integer, of its type."""
        x, = _math_operands("T.popcount", (x,), "i")
        return _math_emit("math.ctpop", (x,), x.dtype)

    functions.update(
        exp10=exp10, sigmoid=sigmoid, hypot=hypot, fma=fma, abs=abs_, fabs=abs_,
        max=extremum("max", "maxnumf", "max%si"), min=extremum("min", "minnumf", "min%si"),
        isnan=classify("isnan", "uno", False), isinf=classify("isinf", "oeq", True),
        isfinite=classify("isfinite", "one", True), clz=clz, popcount=popcount)
    return functions


def if_then_else(cond, then_value, else_value):
    if not isinstance(cond, ScalarValue) or cond.dtype is not _BOOL:
        raise _error("T.if_then_else needs a comparison as its condition")
    ref = then_value if isinstance(then_value, ScalarValue) else else_value
    if not isinstance(ref, ScalarValue):
        raise _error("T.if_then_else needs at least one traced value")
    then_value, else_value = ref._coerce(then_value), ref._coerce(else_value)
    b = builder()
    result = b.fresh("sel")
    b.emit("%s = arith.select %s, %s, %s : %s" % (result, cond.ssa, then_value.ssa,
                                                    else_value.ssa, ref.mlir))
    return ScalarValue(result, ref.dtype)
