"""Loops over runtime-sized data (docs/library.md, "Streams"): the loop
shapes that a kernel over `n` elements or rows known only at launch writes
around its named instructions.

    from tirx.stream import steps

    def add_rows(first, masked):    # rows first .. first + 3
        ...
    steps(rows, 4, add_rows)        # whole groups of 4 in a T.serial loop,
                                    # then the rows % 4 rest, masked
"""
from ._dsl import _error, is_int

__all__ = ["steps"]


def _script():
    from .script import tirx as T
    return T


def steps(stop, step, body):
    """body(first, masked=False) for first = 0, step, ... below the last
    whole step of `stop` (a size or index value) in a T.serial loop (kept
    on the GPU), then body(whole, masked=True) once for the stop % step
    items that remain (whole = stop // step * step): a body that reads them
    through masked regions (X.masked, docs/sizes.md) reads none past
    `stop`."""
    if not is_int(step) or step < 1:
        raise _error("steps: step must be a positive int, got %r" % (step,))
    T = _script()
    whole = stop // step * step  # the items of whole steps
    for first in T.serial(0, whole, step):
        body(first, masked=False)
    body(whole, masked=True)
