"""The host side of operators on PyTorch tensors (docs/library.md, "Row-wise
operators"): what a function such as `softmax(x, out=None)` does around
its kernel launch — check its tensors, allocate or check `out`, view any
shape as (rows, cols), keep one compiled kernel per configuration.

    from tirx.ops import Kernels, row_operands

    kernels = Kernels(make_kernel)             # make_kernel(*config)

    def softmax(x, out=None):
        out, rows, cols = row_operands("softmax", "float32", x, out)
        if rows:                               # nothing to launch for an empty x
            kernels(*config_for(cols))(x.contiguous().view(rows, cols),
                                       out.view(rows, cols))
        return out

Errors are the operator's own, named after it: a TypeError for a wrong
dtype, a ValueError for a tensor off the GPU, an `out` of another shape,
dtype or device or not contiguous, or a row vector of the wrong length.
PyTorch is imported when these are called, not with tirx.
"""

__all__ = ["Kernels", "row_operands", "chunks_for"]


class Kernels:
    """Compiled kernels by configuration: kernels(*config) is
    tirx.compile(make(*config), target) the first time a configuration is
    asked for, and the same Compiled after (configurations are hashable)."""

    def __init__(self, make, target="cuda"):
        if not callable(make):
            raise TypeError("Kernels needs a function making a kernel from a configuration, "
                            "got %r" % (make,))
        self.make, self.target, self.compiled = make, target, {}

    def __call__(self, *config):
        if config not in self.compiled:
            from ._compile import compile as compile_kernel
            self.compiled[config] = compile_kernel(self.make(*config), target=self.target)
        return self.compiled[config]


def _check(op, name, value, dtype):
    import torch
    if value.dtype != getattr(torch, dtype):
        raise TypeError("%s: %s must be %s, got %s" % (op, name, dtype, value.dtype))
    if not value.is_cuda:
        raise ValueError("%s: %s must be a CUDA tensor, got one on %s" % (op, name, value.device))


def row_operands(op, dtype, x, out=None, **row_vectors):
    """The checks and output of a row-wise operator `op` on x, a CUDA tensor
    of `dtype` (a torch dtype's name) of any shape whose last dimension is
    the row (a 0-d x: one row of one element): `row_vectors` (name=tensor)
    are further operands of the same dtype and shape (cols,) (a weight, a
    bias). Returns (out, rows, cols): `out` as given — a contiguous CUDA
    tensor of x's shape and dtype on x's device — or a new one, and the
    rows and columns to view x and out as (rows = 0 for an empty x: nothing
    to launch)."""
    import torch
    _check(op, "x", x, dtype)
    for name, value in row_vectors.items():
        _check(op, name, value, dtype)
    cols = x.shape[-1] if x.dim() else 1
    for name, value in row_vectors.items():
        if tuple(value.shape) != (cols,):
            raise ValueError("%s: %s must have shape (%d,), got %s"
                             % (op, name, cols, tuple(value.shape)))
    if out is None:
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    elif out.shape != x.shape or out.dtype != x.dtype or not out.is_contiguous() \
            or out.device != x.device:
        raise ValueError("%s: out must be a contiguous %s tensor of shape %s on %s, got %s "
                         "%s%s on %s" % (op, dtype, tuple(x.shape), x.device, out.dtype,
                                         tuple(out.shape), "" if out.is_contiguous() else
                                         " (not contiguous)", out.device))
    return out, (x.numel() // cols if x.numel() else 0), cols


def chunks_for(columns, chunk):
    """The least power of two of chunks of `chunk` columns that holds
    `columns`: one kernel then serves every length up to its capacity, and
    a range of lengths shares it."""
    return 1 << max(0, (-(-columns // chunk) - 1).bit_length())
