"""@T.function: kernels and private scalar functions, traced to TirX IR."""
import inspect
import keyword
import math

from . import _control, _dsl
from ._dsl import (DTYPES, Builder, Constant, DType, GridExpr, ScalarValue, SizeVar, Tensor,
                   TensorValue,
                   TensorType, _error, _user_position, as_dtype, builder,
                   check_align, check_shape, is_int, location_text)


class LaunchConfig:
    """grid and block extents (x first); cluster (sm_90+): the thread-block
    cluster's extents, one per grid extent, each dividing it (docs/hopper.md)."""

    def __init__(self, *, grid, block, cluster=None, **unsupported):
        if unsupported:
            raise _error("LaunchConfig options not supported yet: %s" % ", ".join(unsupported))
        self.grid = _extents("grid", grid, sizes=True)
        self.block = _extents("block", block)
        self.cluster = _extents("cluster", cluster) if cluster is not None else ()
        self.position = _user_position()  # the compiler's range errors point here


def _scalar_type(annotation):
    """The scalar type an annotation names (T.float32 or "float32"), or None."""
    if isinstance(annotation, DType) or (isinstance(annotation, str) and annotation in DTYPES):
        return as_dtype(annotation)
    return None


def _extents(name, value, sizes=False):
    extents = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    symbolic = lambda e: sizes and isinstance(e, (SizeVar, GridExpr))
    if not 1 <= len(extents) <= 3 or not all(is_int(e) or symbolic(e) for e in extents):
        raise _error("LaunchConfig %s= needs an int or 1 to 3 ints (x first)%s, got %r"
                     % (name, " or size expressions such as T.ceildiv(n, 256)"
                        if sizes else "", value))
    return tuple(e if symbolic(e) else int(e) for e in extents)


class Function:
    """A @T.function: a kernel, or with private=True a scalar function."""

    def __init__(self, fn, private):
        if not inspect.isfunction(fn):
            raise _error("@T.function decorates a Python function, got %r" % (fn,))
        self.fn, self.private = fn, private
        self.name = fn.__name__
        self.signature = inspect.signature(fn)
        self.source_file = inspect.getsourcefile(fn) or "<tirx>"
        # tirx.compile's in-memory cache: (arch, fast math, max registers,
        # CUDA environment) -> Compiled (_cache.py).
        self.compiled = {}

    @property
    def position(self):
        """(file, line) of the definition."""
        return self.fn.__code__.co_filename, self.fn.__code__.co_firstlineno

    def __call__(self, *args):
        if not self.private:
            raise _error("call a kernel through tirx.compile(%s)(...)" % self.name)
        # A call inside another scalar function: func.call (inlined later).
        b = builder()
        module = b.module
        symbol = module.add_scalar_function(self)
        params = [_scalar_type(p.annotation) for p in self.signature.parameters.values()]
        if len(args) != len(params):
            raise _error("@%s takes %d argument(s), got %d" % (self.name, len(params), len(args)))
        values = []
        for arg, dtype in zip(args, params):
            if isinstance(arg, ScalarValue):
                values.append(arg)
            else:
                values.append(ScalarValue("", dtype)._coerce(arg))
        ret = as_dtype(self.signature.return_annotation)
        result = b.fresh("call")
        b.emit("%s = func.call @%s(%s) : (%s) -> %s" % (
            result, symbol, ", ".join(v.ssa for v in values),
            ", ".join(p.mlir for p in params), ret.mlir))
        return ScalarValue(result, ret)

    # Tracing ------------------------------------------------------------
    def trace_scalar(self, module, symbol):
        params = list(self.signature.parameters.values())
        dtypes = [_scalar_type(p.annotation) for p in params]
        for p, dtype in zip(params, dtypes):
            if dtype is None:
                got = "" if p.annotation is inspect.Parameter.empty else ", got %r" % (
                    p.annotation,)
                raise _error("parameter '%s' of @%s needs a scalar type annotation "
                             "such as T.float32%s" % (p.name, self.name, got), self.position)
        ret = _scalar_type(self.signature.return_annotation)
        if ret is None:
            raise _error("@%s needs a return type annotation such as -> T.float32"
                         % self.name, self.position)
        b = Builder()
        b.module = module
        with b:
            args = [ScalarValue("%%%s" % p.name, d) for p, d in zip(params, dtypes)]
            result = self.fn(*args)
            if not isinstance(result, (ScalarValue, Constant, int, float)):
                raise _error("@%s must return a scalar, got %r" % (self.name, result),
                             self.position)
            if not isinstance(result, ScalarValue):
                result = ScalarValue("", ret)._coerce(result)
            if result.mlir != ret.mlir:
                raise _error("@%s returns %s but is declared -> %s"
                             % (self.name, result.mlir, ret.mlir), self.position)
            b.emit("func.return %s : %s" % (result.ssa, ret.mlir))
        header = "  func.func private @%s(%s) -> %s {" % (
            symbol, ", ".join("%%%s: %s" % (p.name, d.mlir) for p, d in zip(params, dtypes)),
            ret.mlir)
        return "\n".join([header] + b.lines + ["  } " + _function_location(self.fn)])

    def trace_kernel(self, module):
        b = Builder()
        b.module = module
        b.launch = None
        params = []
        for p in self.signature.parameters.values():
            annotation, dtype = p.annotation, _scalar_type(p.annotation)
            if isinstance(annotation, Tensor):
                params.append((p.name, annotation.type))
            elif dtype is not None:
                params.append((p.name, dtype))
            elif annotation is inspect.Parameter.empty:
                raise _error("parameter '%s' of @%s needs an annotation: T.Tensor(...) "
                             "or a scalar type" % (p.name, self.name), self.position)
            else:
                hint = (" (a string annotation: TirX needs evaluated annotations; remove "
                        "`from __future__ import annotations`)"
                        if isinstance(annotation, str) else "")
                raise _error("parameter '%s' of @%s is annotated %r, not T.Tensor(...) or a "
                             "scalar type%s" % (p.name, self.name, annotation, hint),
                             self.position)
        # Size variables, in order of first appearance: trailing index
        # arguments (docs/sizes.md).
        size_vars, names = [], set(n for n, _ in params)
        for _, kind in params:
            for var in kind.size_vars if isinstance(kind, TensorType) else ():
                same = [v for v in size_vars if v.name == var.name]
                if same and same[0] is not var and same[0].multiple_of != var.multiple_of:
                    raise _error("two size variables named %s declare different multiples "
                                 "(%d and %d)" % (var.name, same[0].multiple_of,
                                                  var.multiple_of), self.position)
                if same and same[0] is not var and same[0].at_most != var.at_most:
                    raise _error("two size variables named %s declare different largest "
                                 "values (at_most %s and %s)" % (var.name, same[0].at_most,
                                                                 var.at_most), self.position)
                if not same:
                    size_vars.append(var)
        for var in size_vars:
            ssa = "%" + (var.name if var.name not in names else "size_" + var.name)
            b.sizes[var.name] = ssa
            b.divisors[ssa] = var.multiple_of
        with b:
            args = []
            for name, kind in params:
                if isinstance(kind, TensorType):
                    args.append(TensorValue("%" + name, kind))
                else:
                    args.append(ScalarValue("%" + name, kind))
            self.fn(*args)
            _control.check_closed(b)
            for check in b.end_checks:
                check()
        if b.launch is None:
            raise _error("@%s never calls T.device_entry(launch=T.cuda.LaunchConfig(...))"
                         % self.name, self.position)
        # Diagnostics on the header line (parameter types, the launch
        # configuration) are mapped back by column: `spans` holds the
        # (first, last) 0-based columns of each piece, its position and a
        # prefix for its messages.
        header = "  tirx.kernel @%s(" % self.name
        spans = []
        parameters = {p.name: p.annotation for p in self.signature.parameters.values()}
        for index, (name, kind) in enumerate(params):
            text = "%%%s: %s" % (name, kind if isinstance(kind, TensorType) else kind.mlir)
            if index:
                header += ", "
            position = getattr(parameters[name], "position", None) or self.position
            spans.append((len(header), len(header) + len(text), position,
                          "parameter '%s': " % name))
            header += text
        for var in size_vars:
            header += ", %s: index {tirx.size = \"%s\"%s%s}" % (
                b.sizes[var.name], var.name, ", tirx.multiple_of = %d : i64" % var.multiple_of
                if var.multiple_of > 1 else "",
                ", tirx.at_most = %d : i64" % var.at_most if var.at_most is not None else "")
        header += ") "
        grid_text = []
        for extent in b.launch.grid:
            if isinstance(extent, (SizeVar, GridExpr)):
                unknown = [v for v in _grid_vars(extent) if v.name not in b.sizes]
                if unknown:
                    raise _error("the grid uses size variable %s, which is no extent of a "
                                 "parameter of @%s" % (unknown[0].name, self.name),
                                 b.launch.position or self.position)
                extent = extent.affine(lambda name: b.sizes[name])
            grid_text.append(str(extent))
        cluster = b.launch.cluster
        text = "launch(grid = [%s], block = [%s]%s)" % (
            ", ".join(grid_text), ", ".join(map(str, b.launch.block)),
            ", cluster = [%s]" % ", ".join(map(str, cluster)) if cluster else "")
        spans.append((len(header), len(header) + len(text),
                       b.launch.position or self.position, ""))
        header += text + " {"
        text = "\n".join([header] + b.lines + ["    tirx.return",
                                                "  } " + _function_location(self.fn)])
        # Returned, not stored on the Function: threads may trace it at once.
        return KernelTrace(text, params, b.launch, spans, size_vars)


def _grid_vars(extent):
    if isinstance(extent, SizeVar):
        return [extent]
    if isinstance(extent, GridExpr):
        return _grid_vars(extent.lhs) + _grid_vars(extent.rhs)
    return []


class KernelTrace:
    """One trace of a kernel: its IR text, parameters (name, type), launch
    configuration, the header spans that map diagnostics back, and its size
    variables (trailing int64 kernel parameters, in order)."""

    def __init__(self, text, params, launch, spans, size_vars=()):
        self.text, self.params, self.launch, self.spans = text, params, launch, spans
        self.size_vars = list(size_vars)


def _function_location(fn):
    code = fn.__code__
    return location_text((code.co_filename, code.co_firstlineno, 1))


class Module:
    """The IR of one compilation: scalar functions and one kernel."""

    def __init__(self, kernel_name=None):
        self.scalar_functions = {}  # symbol -> IR text (None while tracing)
        self.symbols = {}  # Function -> symbol
        self.kernel_name = kernel_name

    def add_scalar_function(self, function):
        """The symbol of `function`, traced on first use. Distinct functions
        with one Python name (closures, a kernel's name) get distinct symbols."""
        symbol = self.symbols.get(function)
        if symbol is None:
            symbol, suffix = function.name, 0
            while symbol in self.scalar_functions or symbol == self.kernel_name:
                suffix += 1
                symbol = "%s_%d" % (function.name, suffix)
            self.symbols[function] = symbol
            self.scalar_functions[symbol] = None  # mark (recursion guard)
            self.scalar_functions[symbol] = function.trace_scalar(self, symbol)
        return symbol


def function(fn=None, *, private=False):
    """@T.function or @T.function(private=True)."""
    if fn is None:
        return lambda f: Function(f, private)
    return Function(fn, private)


def device_entry(*positional, launch=None, **unsupported):
    b = builder()
    if positional or unsupported:
        raise _error("T.device_entry takes only launch=T.cuda.LaunchConfig(...), got %s"
                     % ", ".join(["a positional %s" % type(v).__name__ for v in positional]
                                 + ["%s=" % k for k in unsupported]))
    if not isinstance(launch, LaunchConfig):
        raise _error("T.device_entry needs launch=T.cuda.LaunchConfig(grid=..., block=...), "
                     "got %r" % (launch,))
    if b.launch is not None:
        raise _error("T.device_entry is called twice; a kernel has one launch configuration")
    b.launch = launch


def _alloc(op, shape, dtype, layout, align, space):
    b = builder()
    shape = check_shape(shape, "T." + op[len("tirx."):])
    if align is not None and align != -1:
        align = check_align(align, "T." + op[len("tirx."):])
    type_ = TensorType(shape, as_dtype(dtype), space, _dsl._as_layout(layout),
                       align if align and align > 0 else None)
    result = b.fresh("regs" if space == "local" else "smem")
    b.emit("%s = %s : %s" % (result, op, type_))
    return TensorValue(result, type_)


def alloc_local(shape, dtype, *, scope="local", align=-1, layout=None):
    return _alloc("tirx.alloc_local", shape, dtype, layout, align, "local")


def alloc_shared(shape, dtype, *, scope="shared", align=-1, layout=None):
    return _alloc("tirx.alloc_shared", shape, dtype, layout, align, "shared")


def _index_op(op, dim):
    if dim not in ("x", "y", "z"):
        raise _error("dimension must be 'x', 'y' or 'z', got %r" % (dim,))
    b = builder()
    result = b.fresh(op[0])
    b.emit("%s = tirx.%s %s" % (result, op, dim))
    return ScalarValue(result, None)


def thread_idx(dim="x"):
    return _index_op("thread_idx", dim)


def block_idx(dim="x"):
    return _index_op("block_idx", dim)


def cta_sync():
    builder().emit("tirx.cta_sync")


def print_(format, *values):
    """`T.print(format, *values)`: C printf from every thread that executes it
    (`tirx.print`): on the GPU through vprintf, on the interpreter at once
    (docs/python.md, "Printing"). Values are traced scalars (T.index values,
    integers, floats; a register tile element as T.int32(regs[0])) or
    constants (T.float32(2)); the format's conversions must match them, which
    the compiler checks."""
    if not isinstance(format, str):
        raise _error("T.print takes its format string first, got %r" % (format,))
    b = builder()
    names, types = [], []
    for index, value in enumerate(values):
        if isinstance(value, Constant):
            result = b.fresh("c")
            b.emit("%s = arith.constant %s" % (result, value.immediate()))
            value = ScalarValue(result, value.dtype)
        if isinstance(value, (SizeVar, GridExpr)):
            value = value.value()
        if not isinstance(value, ScalarValue):
            raise _error("T.print value #%d must be a traced scalar or a typed constant "
                         "(T.int32(5)), got %r; write a Python value into the format" %
                         (index, value))
        names.append(value.ssa)
        types.append(value.mlir)
    text = "tirx.print %s" % _mlir_string(format)
    if names:
        text += " (%s) : %s" % (", ".join(names), ", ".join(types))
    b.emit(text)


def _mlir_string(text):
    """`text` as an MLIR string literal."""
    escaped = "".join(c if 32 <= ord(c) < 127 and c not in '"\\' else "\\%02X" % ord(c)
                      for c in text)
    return '"%s"' % escaped


# T.cuda.atomic_add's element types and their atom.add type tokens.
_ATOMIC_ADD_TYPES = {"uint32": "u32", "int32": "s32", "uint64": "u64", "float32": "f32",
                     "float64": "f64"}


def atomic_add(res_addr, value):
    """TIRx's `T.cuda.atomic_add(res_addr, value)`: adds `value` to the
    element `res_addr` (one element of a global or shared tensor:
    `buf.ptr_to([i])`, `buf[i:i + 1]`) in one atomic step and returns the
    old value as a traced scalar (signless: a uint32 element reads as int32,
    and `T.index(...)` of it zero-extends). Each thread that runs it adds: guard
    it (`T.If(tx == 0)`) for one add per CTA. It is `atom{.global,.shared}
    .add.<type>` into a one-element register tile (docs/atomics.md)."""
    if not isinstance(res_addr, TensorValue) or res_addr.type.space not in ("global",
                                                                            "shared"):
        raise _error("T.cuda.atomic_add needs one element of a global or shared tensor, "
                     "such as buf.ptr_to([i]), got %r" % (res_addr,))
    if any(isinstance(d, SizeVar) for d in res_addr.shape) or \
            math.prod(res_addr.shape) != 1:
        raise _error("T.cuda.atomic_add adds to one element, such as buf.ptr_to([i]), got a "
                     "region of shape (%s)" % ", ".join(map(str, res_addr.shape)))
    token = _ATOMIC_ADD_TYPES.get(res_addr.dtype.name)
    if token is None:
        raise _error("T.cuda.atomic_add adds %s elements (atom.add), got %s"
                     % (", ".join(_ATOMIC_ADD_TYPES), res_addr.dtype.name))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = Constant(value, res_addr.dtype)
    old = alloc_local((1,), res_addr.dtype)
    apply("atom.%s.add.%s" % (res_addr.type.space, token), old, res_addr, value)
    return _dsl.load_element(old, "T.cuda.atomic_add")[0]


# TIRx's short mbarrier intrinsics (T.ptx.mbarrier.init(bar.data, 1),
# T.ptx.mbarrier.try_wait(bar.data, phase)): a barrier in the CTA's shared
# memory; try_wait is the retry loop on a phase parity, arrive and
# arrive.expect_tx discard the state (`_`).
_TIRX_SHORTHANDS = {
    "mbarrier.init": "mbarrier.init.shared::cta.b64",
    "mbarrier.try_wait": "mbarrier.try_wait.parity.shared::cta.b64",
    "mbarrier.arrive": "mbarrier.arrive.shared::cta.b64",
    "mbarrier.arrive.expect_tx": "mbarrier.arrive.expect_tx.shared::cta.b64",
}


class PTXSpelling(str):
    """T.ptx["fma.rn.f32"] or T.ptx.fma.rn.f32; a token that is a Python
    keyword takes a trailing underscore (T.ptx.cp.async_.commit_group), and
    `__` inside a token stands for `::` (T.ptx.fence.proxy.async_.shared__cta).

    Called, a spelling is the raw per-thread instruction (TIRx's
    `T.ptx.cp.async_.wait_group(0)`, `T.ptx.mbarrier.init.shared.b64(
    bar.ptr_to([0]), T.uint32(1))`): tile.apply at scope thread, integers
    as i32 immediates."""

    def __getattr__(self, token):
        if token.startswith("__"):
            raise AttributeError(token)
        if token.endswith("_") and keyword.iskeyword(token[:-1]):
            token = token[:-1]
        token = token.replace("__", "::")
        return PTXSpelling("%s.%s" % (self, token) if self else token)

    def __call__(self, *operands):
        spelling = _TIRX_SHORTHANDS.get(str(self), str(self))
        apply(spelling, *(_int32(value, "an operand of T.ptx.%s(...)" % self)
                          for value in operands))


class _PTX:
    def __getitem__(self, spelling):
        if not isinstance(spelling, str):
            raise _error('T.ptx[...] needs a spelling string such as T.ptx["fma.rn.f32"], '
                         'got %r' % (spelling,))
        return PTXSpelling(spelling)

    def __getattr__(self, token):
        if token.startswith("__"):
            raise AttributeError(token)
        return PTXSpelling(token)


ptx = _PTX()

_SCOPES = ("thread", "warp", "warpgroup", "cta")


def _operands(operands):
    texts, types = [], []
    for operand in operands:
        if isinstance(operand, TensorValue):
            texts.append(operand.ssa)
            types.append(str(operand.type))
        elif isinstance(operand, ScalarValue):
            texts.append(operand.ssa)
            types.append(operand.mlir)
        elif isinstance(operand, Constant):
            texts.append(operand.immediate())
        elif isinstance(operand, (int, float)):
            raise _error("scalar operand %r needs a type: write e.g. T.float32(%r)"
                         % (operand, operand))
        else:
            raise _error("unsupported operand %r" % (operand,))
    return texts, types


def _int32(value, what):
    """A Python integer as an i32 immediate; other operands unchanged."""
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    if not -(1 << 31) <= value < (1 << 31):
        raise _error("%s: %d does not fit 32 bits" % (what, value))
    return Constant(value, DTYPES["int32"])


# Keyword parameters of T.cuda.tile.apply, appended in PTX operand order
# after the tensors: cp.async's cp-size (TIRx's chunk_bytes), its zero-fill
# source size, and an L2 cache policy (a .L2::cache_hint form's operand).
_PARAMETERS = ("chunk_bytes", "src_size", "cache_policy")


# wgmma.mma_async's operands after D, A and B (docs/wgmma.md), named after
# PTX's scale-d, imm-scale-a/b and imm-trans-a/b: scale_d (required: 0 gives
# D = A.B, 1 gives D = A.B + D; a constant or an i1 comparison), scale_a and
# scale_b (1 or -1, default 1), trans_a and trans_b (1: the shared matrix is
# MN-major; default 0; no trans_a when A is a register tile).
_WGMMA_PARAMETERS = ("scale_d", "scale_a", "scale_b", "trans_a", "trans_b")


def _wgmma_operands(operands, parameters):
    unknown = sorted(set(parameters) - set(_WGMMA_PARAMETERS))
    if unknown:
        raise _error("wgmma.mma_async has no parameter %s (it takes %s)"
                     % (", ".join(unknown), ", ".join(_WGMMA_PARAMETERS)))
    if "scale_d" not in parameters:
        raise _error("wgmma.mma_async needs scale_d= (0: D = A.B, "
                     "1: D = A.B + D)")
    scale_d = parameters["scale_d"]
    if isinstance(scale_d, (bool, int)):
        if scale_d not in (0, 1):
            raise _error("scale_d must be 0 or 1, got %r" % (scale_d,))
        scale_d = Constant(int(scale_d), DTYPES["bool"])
    registers_a = (len(operands) > 1 and isinstance(operands[1], TensorValue)
                   and operands[1].type.space == "local")
    if registers_a and "trans_a" in parameters:
        raise _error("trans_a: A in registers has no transpose (only a shared A does)")
    names = ("scale_a", "scale_b") + (() if registers_a else ("trans_a",)) + ("trans_b",)
    defaults = {"scale_a": 1, "scale_b": 1, "trans_a": 0, "trans_b": 0}
    return operands + (scale_d,) + tuple(
        _int32(parameters.get(name, defaults[name]), name) for name in names)


def apply(instruction, *operands, scope="thread", pred=None, **parameters):
    if isinstance(instruction, str) and instruction.startswith("wgmma.mma_async"):
        operands, parameters = _wgmma_operands(operands, parameters), {}
    unknown = sorted(set(parameters) - set(_PARAMETERS))
    if unknown:
        raise _error("tile.apply has no parameter %s (it takes %s)"
                     % (", ".join(unknown), ", ".join(_PARAMETERS)))
    if "chunk_bytes" in parameters and not (
            isinstance(parameters["chunk_bytes"], int)
            and not isinstance(parameters["chunk_bytes"], bool)):
        raise _error("chunk_bytes must be an integer constant (4, 8 or 16), got %r"
                     % (parameters["chunk_bytes"],))
    operands += tuple(parameters[name] if name == "cache_policy"
                      else _int32(parameters[name], name)
                      for name in _PARAMETERS if name in parameters)
    if not isinstance(instruction, str):
        raise _error('tile.apply needs an instruction such as T.ptx["fma.rn.f32"], got %r'
                     % (instruction,))
    if scope not in _SCOPES:
        raise _error("scope must be one of %s, got %r" % (", ".join(_SCOPES), scope))
    texts, types = _operands(operands)
    text = 'tile.apply %s scope(%s) (%s)' % (_dsl.mlir_string(str(instruction)), scope,
                                             ", ".join(texts))
    if pred is not None:
        if not isinstance(pred, ScalarValue) or pred.mlir != "i1":
            raise _error("pred= needs a comparison (an i1 value)")
        text += " pred(%s)" % pred.ssa
    if types:
        text += " : " + ", ".join(types)
    builder().emit(text)


def ewise(fn, dst, *inputs, scope="thread"):
    if not isinstance(fn, Function) or not fn.private:
        raise _error("tile.ewise needs a @T.function(private=True) scalar function")
    if scope not in _SCOPES:
        raise _error("scope must be one of %s, got %r" % (", ".join(_SCOPES), scope))
    b = builder()
    symbol = b.module.add_scalar_function(fn)
    texts, types = _operands((dst,) + inputs)
    b.emit('tile.ewise @%s scope(%s) (%s) : %s' % (symbol, scope, ", ".join(texts),
                                                     ", ".join(types)))
