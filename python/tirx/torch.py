"""`tirx.torch`: compiled kernels as PyTorch operators (docs/python.md).

    op = tirx.torch.custom_op("mylib::affine_relu", compiled, mutates_args=("B",))

is `compiled.as_torch_op(name, mutates_args)`, spelled like
`torch.library.custom_op`."""
from ._torch import as_torch_op as _as_torch_op

__all__ = ["custom_op"]


def custom_op(name, compiled, mutates_args=None):
    """Registers `compiled` (a tirx.compile result) as the custom operator
    `name` ("namespace::name"); `mutates_args` names the tensor parameters it
    writes (default: every tensor parameter). Returns the operator."""
    from ._compile import Compiled
    if not isinstance(compiled, Compiled):
        raise TypeError("tirx.torch.custom_op needs a tirx.compile result, got %s"
                        % type(compiled).__name__)
    return _as_torch_op(compiled, name, mutates_args)
