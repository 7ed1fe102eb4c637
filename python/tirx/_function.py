"""@T.function: kernels and private scalar functions, traced to TirX IR."""
import inspect

from . import _dsl
from ._dsl import (Builder, Constant, DType, ScalarValue, Tensor, TensorValue,
                   TensorType, _error, _location, as_dtype, builder)


class LaunchConfig:
    def __init__(self, *, grid, block, **unsupported):
        if unsupported:
            raise _error("LaunchConfig options not supported yet: %s" % ", ".join(unsupported))
        self.grid = tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)
        self.block = tuple(block) if isinstance(block, (tuple, list)) else (block,)


class Function:
    """A @T.function: a kernel, or with private=True a scalar function."""

    def __init__(self, fn, private):
        self.fn, self.private = fn, private
        self.name = fn.__name__
        self.signature = inspect.signature(fn)
        self.source_file = inspect.getsourcefile(fn) or "<tirx>"

    def __call__(self, *args):
        if not self.private:
            raise _error("call a kernel through tirx.compile(%s)(...)" % self.name)
        # A call inside another scalar function: func.call (inlined later).
        b = builder()
        module = b.module
        module.add_scalar_function(self)
        params = [as_dtype(p.annotation) for p in self.signature.parameters.values()]
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
            result, self.name, ", ".join(v.ssa for v in values),
            ", ".join(p.mlir for p in params), ret.mlir))
        return ScalarValue(result, ret)

    # Tracing ------------------------------------------------------------
    def trace_scalar(self, module):
        params = list(self.signature.parameters.values())
        for p in params:
            if not isinstance(p.annotation, (DType, str)):
                raise _error("parameter '%s' of @%s needs a scalar type annotation "
                             "such as T.float32" % (p.name, self.name))
        dtypes = [as_dtype(p.annotation) for p in params]
        ret = as_dtype(self.signature.return_annotation) \
            if self.signature.return_annotation is not inspect.Signature.empty else None
        if ret is None:
            raise _error("@%s needs a return type annotation such as -> T.float32" % self.name)
        b = Builder()
        b.module = module
        with b:
            args = [ScalarValue("%%%s" % p.name, d) for p, d in zip(params, dtypes)]
            result = self.fn(*args)
            if not isinstance(result, ScalarValue):
                result = ScalarValue("", ret)._coerce(result)
            if result.mlir != ret.mlir:
                raise _error("@%s returns %s but is declared -> %s" % (self.name, result.mlir, ret.mlir))
            b.emit("func.return %s : %s" % (result.ssa, ret.mlir))
        header = "  func.func private @%s(%s) -> %s {" % (
            self.name, ", ".join("%%%s: %s" % (p.name, d.mlir) for p, d in zip(params, dtypes)),
            ret.mlir)
        return "\n".join([header] + b.lines + ["  } " + _function_location(self.fn)])

    def trace_kernel(self, module):
        b = Builder()
        b.module = module
        b.launch = None
        params = []
        for p in self.signature.parameters.values():
            annotation = p.annotation
            if isinstance(annotation, Tensor):
                params.append((p.name, annotation.type))
            elif isinstance(annotation, (DType, str)):
                params.append((p.name, as_dtype(annotation)))
            else:
                raise _error("parameter '%s' of @%s needs an annotation: T.Tensor(...) "
                             "or a scalar type" % (p.name, self.name))
        with b:
            args = []
            for name, kind in params:
                if isinstance(kind, TensorType):
                    args.append(TensorValue("%" + name, kind))
                else:
                    args.append(ScalarValue("%" + name, kind))
            self.fn(*args)
        if b.launch is None:
            raise _error("@%s never calls T.device_entry(launch=T.cuda.LaunchConfig(...))"
                         % self.name)
        signature = ", ".join("%%%s: %s" % (name, kind if isinstance(kind, TensorType)
                                             else kind.mlir) for name, kind in params)
        header = "  tirx.kernel @%s(%s) launch(grid = [%s], block = [%s]) {" % (
            self.name, signature, ", ".join(map(str, b.launch.grid)),
            ", ".join(map(str, b.launch.block)))
        self.params = params
        self.launch = b.launch
        return "\n".join([header] + b.lines + ["    tirx.return", "  } " + _function_location(self.fn)])


def _function_location(fn):
    code = fn.__code__
    return 'loc("%s":%d:1)' % (code.co_filename, code.co_firstlineno)


class Module:
    """The IR of one compilation: scalar functions and one kernel."""

    def __init__(self):
        self.scalar_functions = {}

    def add_scalar_function(self, function):
        if function.name not in self.scalar_functions:
            self.scalar_functions[function.name] = None  # mark (recursion guard)
            self.scalar_functions[function.name] = function.trace_scalar(self)


def function(fn=None, *, private=False):
    """@T.function or @T.function(private=True)."""
    if fn is None:
        return lambda f: Function(f, private)
    return Function(fn, private)


def device_entry(*launch_values, launch=None, **unsupported):
    b = builder()
    if launch is None:
        raise _error("T.device_entry needs launch=T.cuda.LaunchConfig(grid=..., block=...)")
    b.launch = launch


def _alloc(op, shape, dtype, layout, align, space):
    b = builder()
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


class PTXSpelling(str):
    """T.ptx["fma.rn.f32"] or T.ptx.fma.rn.f32."""

    def __getattr__(self, token):
        if token.startswith("__"):
            raise AttributeError(token)
        return PTXSpelling("%s.%s" % (self, token) if self else token)


class _PTX:
    def __getitem__(self, spelling):
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


def apply(instruction, *operands, scope="thread", pred=None, **parameters):
    if parameters:
        raise _error("tile.apply parameters not supported: %s" % ", ".join(parameters))
    if scope not in _SCOPES:
        raise _error("scope must be one of %s, got %r" % (", ".join(_SCOPES), scope))
    texts, types = _operands(operands)
    text = 'tile.apply "%s" scope(%s) (%s)' % (str(instruction), scope, ", ".join(texts))
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
    b.module.add_scalar_function(fn)
    texts, types = _operands((dst,) + inputs)
    b.emit('tile.ewise @%s scope(%s) (%s) : %s' % (fn.name, scope, ", ".join(texts),
                                                     ", ".join(types)))
