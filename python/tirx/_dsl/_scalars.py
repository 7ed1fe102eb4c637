"""Scalars: the values of scalar expressions, comparisons, predicates."""
import linecache
import math
import re

from ._builder import _state, builder
from ._dtypes import Constant, DTYPES, DType, _literal
from ._errors import _error, _user_frame
from ._sizes import GridExpr, SizeVar
from ._tensors import TensorValue, _check_bound, _frames_now, _live_ssa

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


def to_index_constant(value):
    """An int as a traced index value (`arith.constant`): arithmetic on it
    is then traced rather than folded in Python."""
    b = builder()
    result = b.fresh("c")
    b.emit("%s = arith.constant %d : index" % (result, value))
    return ScalarValue(result, None, ((), int(value)))


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
    value = _math._math_operands("T." + name, (value,), "f")[0]
    return _math._math_emit("math." + name, (value,), value.dtype)


# Modules that import this one (used inside calls only): imported last.
from . import _math  # noqa: E402
