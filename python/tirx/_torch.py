"""Compiled kernels as PyTorch custom operators (torch.library.custom_op),
so that torch.compile(fullgraph=True) traces through them and CUDA graphs
capture them. `Compiled.as_torch_op` is the entry point (docs/python.md)."""
import inspect
import re
import threading

from ._dsl import DType

_lock = threading.Lock()
_registered = {}  # "namespace::name" -> (compiled, mutates_args, op)
_NAME = re.compile(r"(?:([A-Za-z_]\w*)::)?([A-Za-z_]\w*)")


def as_torch_op(compiled, name=None, mutates_args=None):
    """Registers `compiled` as the custom operator `name` ("namespace::name",
    default "tirx::<kernel>", made unique in the process) and returns it.
    `mutates_args`: the tensor parameters the kernel writes (default: every
    tensor parameter); PyTorch needs them to order and functionalize the
    call. The operator launches through compiled(...) (all its checks, the
    tensors' device, PyTorch's current stream); under torch.compile its
    fake implementation checks shapes and dtypes and computes nothing."""
    params = compiled.params
    tensors = [n for n, kind in params if not isinstance(kind, DType)]
    if mutates_args is None:
        mutates = tuple(tensors)
    else:
        if isinstance(mutates_args, str):
            mutates_args = (mutates_args,)
        mutates = tuple(mutates_args)
        for arg in mutates:
            if arg not in tensors:
                raise ValueError("mutates_args names %r, which is not a tensor parameter of "
                                 "%s (its tensor parameters: %s)" % (
                                     arg, compiled.name, ", ".join(tensors) or "none"))
    match = _NAME.fullmatch(name) if isinstance(name, str) else None
    if name is not None and not match:
        raise ValueError("a torch op name is 'namespace::name' or 'name' (identifiers), "
                         "got %r" % (name,))
    try:
        import torch
    except ImportError:
        raise ImportError("Compiled.as_torch_op needs PyTorch (import torch failed)") from None
    with _lock:
        if name is None:
            base, qualified = "tirx::" + compiled.name, "tirx::" + compiled.name
            for suffix in range(2, 1 << 30):
                taken = _registered.get(qualified)
                if taken is None or (taken[0] is compiled and taken[1] == mutates):
                    break
                qualified = "%s_%d" % (base, suffix)
        else:
            qualified = "%s::%s" % (match.group(1) or "tirx", match.group(2))
        taken = _registered.get(qualified)
        if taken is not None:
            if taken[0] is compiled and taken[1] == mutates:
                return taken[2]
            raise ValueError("the torch op %s is already registered for another kernel or "
                             "other mutates_args; pass another name=" % qualified)
        op = _register(torch, compiled, qualified, mutates)
        _registered[qualified] = (compiled, mutates, op)
        return op


def _annotation(torch, kind):
    if not isinstance(kind, DType):
        return torch.Tensor
    return float if kind.is_float else int


def _register(torch, compiled, qualified, mutates):
    from . import runtime
    signature = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                           annotation=_annotation(torch, kind))
         for n, kind in compiled.params], return_annotation=None)

    def launch(*args, **kwargs):
        if kwargs:
            args = signature.bind(*args, **kwargs).args
        compiled(*args)
    launch.__signature__ = signature
    launch.__name__ = qualified.split("::")[1]
    op = torch.library.custom_op(qualified, launch, mutates_args=mutates)

    def fake(*args, **kwargs):
        if kwargs:
            args = signature.bind(*args, **kwargs).args
        runtime.check_metadata(compiled, args)
    fake.__signature__ = signature
    op.register_fake(fake)
    return op
