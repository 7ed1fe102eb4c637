"""Loops and branches in a kernel: `for i in T.serial(...)` (an scf.for kept
as a loop), `for i in T.unroll(...)` (unrolled while tracing) and
`with T.If(cond):` / `with T.Then():` / `with T.Else():` (an scf.if);
`with T.DoWhile() as loop:` ... `loop.repeat_if(cond)` (an scf.while).

A traced loop or branch is a *frame* on the builder: while it is open, the
operations the body traces go inside its region. The spellings are TIRx's
(`tvm_tirx.script.serial`, `unroll`, and the IR builder's `If`/`Then`/`Else`
frames, which is how TVMScript itself builds an `if` it does not decide in
Python)."""
import ast
import inspect
import math
import sys
import textwrap
import threading

from ._dsl import (GridExpr, ScalarValue, SizeVar, divisor_of, _BOOL, _error, _user_position, builder, is_int,
                   location_text)

# A T.serial loop stays a loop down to PTX: the backend must not unroll it
# (`.pragma "nounroll"`); unroll with T.unroll, or a T.unroll nested inside.
_KEEP_LOOP = "{loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}"


class _Frame:
    kind = "frame"
    closed = False  # its values are out of scope once it has ended

    def check_emit(self):
        pass


def _bounds(what, start, stop, step, hint, runtime=False):
    """(start, stop, step) as ints, or a DSLError at the user's line. With
    `runtime`, start and stop may be index values (traced, or size
    variables); the step stays a static int."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    for name, value in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(value, (SizeVar, GridExpr)):
            if runtime and name != "step":
                continue
            label = ("the size variable %s" % value.name if isinstance(value, SizeVar)
                     else "the size expression %r" % (value,))
            raise _error("%s needs static int bounds, got %s as its %s%s"
                         % (what, label, name, hint))
        if isinstance(value, ScalarValue):
            if runtime and name != "step" and value.dtype is None:
                continue
            raise _error("%s needs static int bounds, got a traced value as its %s%s"
                         % (what, name, hint))
        if not is_int(value):
            raise _error("%s needs int bounds, got %r as its %s" % (what, value, name))
        if not -(1 << 62) < value < 1 << 62:
            raise _error("%s: %s %d is out of range" % (what, name, value))
    if step <= 0:
        raise _error("%s needs a positive step, got %d" % (what, step))
    as_int = lambda v: v if isinstance(v, (ScalarValue, SizeVar, GridExpr)) else int(v)
    return as_int(start), as_int(stop), int(step)


def _no_options(what, options):
    if options:
        raise _error("%s options not supported yet: %s" % (what, ", ".join(sorted(options))))


class _SerialLoop(_Frame):
    """`for i in T.serial(...)`: the body is traced once, inside an scf.for
    whose induction variable `i` is an index value."""
    kind = "T.serial"
    what = "T.serial loop"

    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = start, stop, step
        self.position = _user_position()
        self.state = "new"

    def __iter__(self):
        if self.state != "new":
            raise _error("a T.serial(...) loop can be iterated once")
        return self

    def __next__(self):
        b = builder()
        if self.state == "new":
            self.state = "open"
            constants = []
            for value in (self.start, self.stop, self.step):
                if isinstance(value, (SizeVar, GridExpr)):
                    value = value.value()
                if isinstance(value, ScalarValue):
                    constants.append(value.ssa)
                    continue
                name = b.fresh("c")
                b.emit("%s = arith.constant %d : index" % (name, value))
                constants.append(name)
            index = b.fresh("i")
            b.emit_open("scf.for %s = %s to %s step %s {" % ((index,) + tuple(constants)))
            b.frames.append(self)
            self.builder = b
            # i = start + step·k: a multiple of gcd(start's divisor, step).
            b.divisors[index] = math.gcd(divisor_of(self.start), self.step)
            return ScalarValue(index, None)
        if self.state == "open":
            self.close()
        raise StopIteration

    def close(self):
        b = self.builder
        _check_top(b, self)
        b.frames.pop()
        self.state = "closed"
        self.closed = True
        b.emit_close("} %s %s" % (_KEEP_LOOP, location_text(self.position)))


def _kernel_builder(what):
    """The builder of the kernel being traced; a scalar function's body
    computes one value per element and has no loops or branches."""
    b = builder()
    if getattr(b, "launch", False) is False:
        raise _error("%s is for kernels; a scalar function computes one value (use "
                     "T.if_then_else, or a Python loop that unrolls)" % what)
    return b


def serial(start, stop=None, step=None, **options):
    """`for i in T.serial(n)`, `T.serial(start, stop)`, `T.serial(start, stop,
    step)` (or `step=`): a loop kept as a loop. Start and stop may be index
    values or size variables (runtime bounds); the step is a static int."""
    _kernel_builder("T.serial")
    _no_options("T.serial", options)
    start, stop, step = _bounds("T.serial", start, stop, step,
                                "; a runtime step is not supported", runtime=True)
    return _SerialLoop(start, stop, step)


def unroll(start, stop=None, step=None, **options):
    """`for i in T.unroll(n)`: the body is traced once per iteration, with
    `i` a Python int (static bounds only)."""
    builder()
    _no_options("T.unroll", options)
    start, stop, step = _bounds("T.unroll", start, stop, step,
                                "; use T.serial for a loop kept on the GPU")
    return iter(range(start, stop, step))


#===------------------------------------------------------------------------===#
# T.If / T.Then / T.Else
#===------------------------------------------------------------------------===#

class If(_Frame):
    """`with T.If(cond):` holding a `with T.Then():` block and optionally a
    `with T.Else():` block after it: an scf.if on a traced comparison."""
    kind = "T.If"
    what = "T.If block"

    def __init__(self, condition):
        b = _kernel_builder("T.If")
        if not isinstance(condition, ScalarValue) or condition.dtype is not _BOOL:
            raise _error("T.If needs a traced comparison (an i1 value) as its condition, "
                         "got %r; decide a Python value with a plain `if`" % (condition,))
        self.condition, self.builder = condition, b
        self.position = _user_position()
        self.state = "new"  # → "entered" → "then" → "then-done" → "else" → "else-done"

    def check_emit(self):
        raise _error("inside `with T.If(...)`, statements go in a `with T.Then():` or "
                     "`with T.Else():` block")

    def __enter__(self):
        check_no_early_exit(sys._getframe(1).f_code)
        if self.state != "new":
            raise _error("a T.If(...) frame can be entered once")
        self.state = "entered"
        self.builder.frames.append(self)
        return self

    def __exit__(self, kind, value, traceback):
        b = self.builder
        if kind is not None:
            return False  # the body's own error is the one to report
        _check_top(b, self)
        if self.state == "entered":
            raise _error("`with T.If(...)` needs a `with T.Then():` block inside it",
                         self.position)
        b.frames.pop()
        self.closed = True
        b.emit_close("} %s" % location_text(self.position))
        return False


class _Branch(_Frame):
    def __init__(self, kind):
        self.kind = kind
        self.what = kind + " block"
        self.builder = builder()
        self.position = _user_position()

    def __enter__(self):
        check_no_early_exit(sys._getframe(1).f_code)
        b = self.builder
        frame = b.frames[-1] if b.frames else None
        if not isinstance(frame, If):
            raise _error("`with %s():` must be directly inside `with T.If(...)`" % self.kind)
        if self.kind == "T.Then":
            if frame.state != "entered":
                raise _error("a T.If has one `with T.Then():` block, before its "
                             "`with T.Else():`")
            b.frames.pop()
            b.emit_open("scf.if %s {" % frame.condition.ssa)
            frame.state = "then"
        else:
            if frame.state != "then-done":
                raise _error("`with T.Else():` must follow the `with T.Then():` block "
                             "of its T.If, once")
            b.frames.pop()
            b.emit_close("} else {")
            frame.state = "else"
        b.frames.append(frame)
        b.frames.append(self)
        self.frame = frame
        return self

    def __exit__(self, kind, value, traceback):
        if kind is not None:
            return False
        b = self.builder
        _check_top(b, self)
        b.frames.pop()
        self.closed = True
        self.frame.state += "-done"
        return False


def Then():
    return _Branch("T.Then")


def Else():
    return _Branch("T.Else")


#===------------------------------------------------------------------------===#
# T.DoWhile
#===------------------------------------------------------------------------===#

class DoWhile(_Frame):
    """`with T.DoWhile() as loop:` ... `loop.repeat_if(cond)`: the body runs
    once, then again as long as `cond` (a comparison traced in the body, so
    evaluated at the end of each pass) holds: an scf.while whose `before`
    region is the body and whose `after` region is empty. For loops whose
    trip count is decided while they run (taking work items from an atomic
    counter, docs/sizes.md); a value the body computes is out of scope after
    it, and each thread decides for itself (collectives inside refuse a
    condition not proven warp-uniform)."""
    kind = "T.DoWhile"
    what = "T.DoWhile loop"

    def __init__(self):
        self.builder = _kernel_builder("T.DoWhile")
        self.position = _user_position()
        self.state = "new"  # → "open" → "closed"
        self.condition = None

    def __enter__(self):
        check_no_early_exit(sys._getframe(1).f_code)
        if self.state != "new":
            raise _error("a T.DoWhile() frame can be entered once")
        self.state = "open"
        self.builder.emit_open("scf.while : () -> () {")
        self.builder.frames.append(self)
        return self

    def repeat_if(self, condition):
        """Run the body again when `condition` holds (once per loop, in its
        body; the loop ends where it is false)."""
        if self.state != "open" or self.builder.frames[-1] is not self:
            raise _error("loop.repeat_if(...) belongs directly in its T.DoWhile body "
                         "(not inside a T.If or an inner loop)")
        if self.condition is not None:
            raise _error("a T.DoWhile loop has one repeat_if(...)")
        if not isinstance(condition, ScalarValue) or condition.dtype is not _BOOL:
            raise _error("repeat_if needs a traced comparison (an i1 value), got %r"
                         % (condition,))
        self.condition = condition.ssa

    def __exit__(self, kind, value, traceback):
        b = self.builder
        if kind is not None:
            return False
        _check_top(b, self)
        if self.condition is None:
            raise _error("a T.DoWhile body needs loop.repeat_if(cond): the condition "
                         "to run it again", self.position)
        b.emit("scf.condition(%s)" % self.condition)
        b.frames.pop()
        self.state = "closed"
        self.closed = True
        b.emit_close("} do {")
        b.lines.append(b._indent() + "  scf.yield")
        b.emit_close("} %s" % location_text(self.position))
        return False


def _left_early(loop):
    return _error("the T.serial loop was left early (break or return), but it runs every "
                  "iteration on the GPU; guard the body with T.If or pred= instead",
                  loop.position)


def _check_top(b, frame):
    """`frame` is the innermost open one. Only a T.serial loop can be left
    open inside it (by `break` or `return`); T.If/T.Then/T.Else are `with`
    blocks and always close."""
    if b.frames[-1] is not frame:
        raise _left_early(b.frames[-1])


_BRANCHES = {"If", "Then", "Else", "DoWhile"}


def _is_branch(node):
    """`with T.If(...)` / `T.Then()` / `T.Else()` / `T.DoWhile()` (any
    module alias)."""
    call = node if isinstance(node, ast.Call) else None
    func = call.func if call is not None else None
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return name in _BRANCHES


_exit_errors = {}  # code object -> (message, position) of its early exit, or None
_exits_lock = threading.Lock()


def check_no_early_exit(code):
    """A `return` inside a T.If/T.Then/T.Else block, or a `break`/`continue`
    there that leaves a loop around the block, would end the trace of the
    code after it for every thread, not only where the condition holds.
    Checked in the source of the function (`code`) that enters a branch,
    once per function (the finding is kept); a DSLError at the statement's
    line. (A T.serial loop left by break/return is caught while tracing.)"""
    with _exits_lock:
        known = code in _exit_errors
        found = _exit_errors.get(code)
    if not known:
        found = _find_early_exit(code)
        with _exits_lock:
            _exit_errors[code] = found
    if found:
        raise _error(*found)


def _find_early_exit(code):
    try:
        lines, first = inspect.getsourcelines(code)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None  # no source (exec'd code, a lambda's line): nothing to check

    def visit(node, stack, top):
        if not top and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                         ast.Lambda, ast.ClassDef)):
            return None
        kind = None
        if isinstance(node, ast.Return) and "branch" in stack:
            kind = "return"
        elif isinstance(node, (ast.Break, ast.Continue)) and "branch" in stack and \
                stack[::-1].index("branch") < (stack[::-1] + ["loop"]).index("loop"):
            kind = "break" if isinstance(node, ast.Break) else "continue"
        if kind:
            return ("`%s` inside a T.If/T.Then/T.Else block cannot be traced: it would "
                    "skip the rest of the %s for every thread, not only where the "
                    "condition holds; put that code in T.Else (or guard it with T.If)"
                    % (kind, "function" if kind == "return" else "loop"),
                    (code.co_filename, first + node.lineno - 1))
        children, inner = list(ast.iter_child_nodes(node)), stack
        if isinstance(node, (ast.With, ast.AsyncWith)) and \
                any(_is_branch(item.context_expr) for item in node.items):
            children, inner = node.body, stack + ["branch"]
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            for child in node.orelse:
                found = visit(child, stack, False)
                if found:
                    return found
            children, inner = node.body, stack + ["loop"]
        for child in children:
            found = visit(child, inner, False)
            if found:
                return found
        return None

    for node in tree.body:
        found = visit(node, [], True)
        if found:
            return found
    return None


def check_closed(b):
    """At the end of a kernel's trace, no T.serial loop is left open."""
    if b.frames:
        raise _left_early(b.frames[-1])
