"""The builder that records a kernel's IR while its body runs."""
import threading

from ._errors import _error, _location

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
