"""Size variables (T.dynamic) and the grid expressions made of them."""
import math
import re

from ._builder import builder, current_builder
from ._errors import _error, is_int

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
        return _scalars.ScalarValue(ssa, None)

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
        if isinstance(other, _scalars.ScalarValue):
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
    if isinstance(a, _scalars.ScalarValue):
        other = a._coerce(b)
        bld = builder()
        result = bld.fresh("s")
        bld.emit("%s = arith.ceildivsi %s, %s : %s" % (result, a.ssa, other.ssa, a.mlir))
        return _scalars.ScalarValue(result, a.dtype, None)
    if is_int(a) and is_int(b) and b:
        return -(-int(a) // int(b))
    raise _error("T.ceildiv needs ints, index values or size variables, got %r, %r" % (a, b))


def divisor_of(value):
    """A known divisor of an index value while tracing (its linear form over
    values of known divisors), 0 for the constant 0."""
    if isinstance(value, SizeVar):
        return value.multiple_of
    if not isinstance(value, _scalars.ScalarValue):
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


# Modules that import this one (used inside calls only): imported last.
from . import _scalars  # noqa: E402
