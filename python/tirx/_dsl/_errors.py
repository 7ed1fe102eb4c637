"""Errors and where they point: CompileError, DSLError, the user's source
position of an operation, MLIR string and location text, shape checks."""
import functools
import inspect
import numbers
import os
import re


# The tirx package (this module is in tirx/_dsl/): its frames are not the user's.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
    ok = lambda d: (is_int(d) and 0 < d < 1 << 62) or (allow_sizes and isinstance(d, _sizes.SizeVar))
    if not dims or not all(ok(d) for d in dims):
        raise _error("%s needs a shape of positive ints%s, got %r" % (
            what, " or size variables (T.dynamic)" if allow_sizes else "", shape))
    names = [d.name for d in dims if isinstance(d, _sizes.SizeVar)]
    if len(set(names)) != len(names):
        raise _error("%s: a size variable names two extents of one tensor, got %r"
                     % (what, shape))
    return tuple(d if isinstance(d, _sizes.SizeVar) else int(d) for d in dims)


# Modules that import this one (used inside calls only): imported last.
from . import _sizes  # noqa: E402
