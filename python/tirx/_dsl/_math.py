"""Math functions: T.exp, T.pow, T.max, ... and T.if_then_else."""
import inspect

from ._builder import builder
from ._dtypes import Constant, DTYPES
from ._errors import _error
from ._scalars import ScalarValue, _BOOL, math_op

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
