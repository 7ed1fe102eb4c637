"""Compiled.as_torch_op without PyTorch: its argument checks, the custom
operator it registers (against a fake torch.library that records it), and
the fake implementation's metadata checks (runtime.check_metadata). The GPU
check test/gpu/run_torch.py runs the real one under torch.compile and CUDA
graphs."""
import ctypes
import inspect
import re
import sys
import types

import pytest

import tirx
from tirx import _torch, runtime
from affine_relu import affine_relu
from test_launch import FakeLibrary, fake_torch_module

TARGET = {"kind": "cuda", "arch": "sm_90"}


def raises(exception, message):
    return pytest.raises(exception, match=re.escape(message))


@pytest.fixture
def compiled():
    # A Compiled of its own per test (the registry is per Compiled).
    return tirx._compile.Compiled(*_parts())


def _parts():
    shared = tirx.compile(affine_relu, target=TARGET)
    return (shared.function, types.SimpleNamespace(params=shared.params, launch=shared.launch),
            shared.ptx, shared.source_ir, {}, {}, shared.arch)


class FakeOp:
    def __init__(self, name, fn, mutates_args):
        self.name, self.fn, self.mutates_args, self.fake = name, fn, mutates_args, None

    def register_fake(self, fn):
        self.fake = fn

    def __call__(self, *args):
        return self.fn(*args)


@pytest.fixture
def torch(monkeypatch):
    module = fake_torch_module()
    module.library = types.SimpleNamespace(custom_op=FakeOp)
    monkeypatch.setitem(sys.modules, "torch", module)
    monkeypatch.setattr(_torch, "_registered", {})
    return module


def test_arguments_are_checked_before_torch_is_imported(monkeypatch, compiled):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails
    with raises(ValueError, "mutates_args names 'C', which is not a tensor parameter of "
                            "affine_relu (its tensor parameters: A, B)"):
        compiled.as_torch_op(mutates_args=("B", "C"))
    with raises(ValueError, "a torch op name is 'namespace::name' or 'name' (identifiers), "
                            "got 'my op'"):
        compiled.as_torch_op(name="my op")
    with raises(ImportError, "Compiled.as_torch_op needs PyTorch (import torch failed)"):
        compiled.as_torch_op(mutates_args="B")


def test_registered_op(monkeypatch, torch, compiled):
    op = compiled.as_torch_op(mutates_args="B")
    assert op.name == "tirx::affine_relu" and op.mutates_args == ("B",)
    signature = inspect.signature(op.fn)
    assert [(p.name, p.annotation) for p in signature.parameters.values()] == [
        ("A", torch.Tensor), ("B", torch.Tensor)]
    assert signature.return_annotation is None
    assert compiled.as_torch_op(mutates_args=("B",)) is op  # registered once
    # Another kernel (or other mutates_args) of the same name gets its own.
    other = tirx._compile.Compiled(*_parts())
    assert other.as_torch_op().name == "tirx::affine_relu_2"
    assert compiled.as_torch_op(name="mine::relu").name == "mine::relu"
    assert compiled.as_torch_op(name="relu2").name == "tirx::relu2"
    with raises(ValueError, "the torch op tirx::affine_relu is already registered for "
                            "another kernel or other mutates_args; pass another name="):
        other.as_torch_op(name="tirx::affine_relu")
    # Calling the op launches through compiled(...), keywords too.
    library = FakeLibrary([ctypes.c_void_p] * 2)
    monkeypatch.setattr(runtime._library, "_lib", library)
    a, b = torch.Tensor((2, 32, 4), pointer=0x20000), torch.Tensor((2, 32, 4), pointer=0x30000)
    op(a, b)
    op.fn(a, B=b)
    assert [x["args"] for x in library.launches] == [[0x20000, 0x30000]] * 2


def test_fake_implementation_checks_metadata(torch, compiled):
    op = compiled.as_torch_op(mutates_args="B")
    good = torch.Tensor((2, 32, 4))
    assert op.fake(good, good) is None
    assert op.fake(good, B=good) is None
    with raises(TypeError, "affine_relu() takes 2 argument(s) (A, B), got 1"):
        op.fake(good)
    with raises(TypeError, "parameter 'A' needs a CUDA tensor (an object with "
                           "__cuda_array_interface__ or __dlpack__), got Tensor on cpu"):
        op.fake(torch.Tensor((2, 32, 4), device=None), good)
    with raises(TypeError, "parameter 'A' needs a CUDA tensor"):
        op.fake(3, good)
    with raises(ValueError, "parameter 'B' has shape (2, 32, 8), expected (2, 32, 4)"):
        op.fake(good, torch.Tensor((2, 32, 8)))
    with raises(TypeError, "parameter 'B' has element type <f8, expected <f4 (float32)"):
        op.fake(good, torch.Tensor((2, 32, 4), "float64"))


def test_tirx_torch_custom_op(monkeypatch, torch, compiled):
    import tirx.torch
    op = tirx.torch.custom_op("mylib::affine_relu", compiled, mutates_args=("B",))
    assert op.name == "mylib::affine_relu" and op.mutates_args == ("B",)
    assert tirx.torch.custom_op("mylib::affine_relu", compiled, mutates_args=("B",)) is op
    with raises(TypeError, "tirx.torch.custom_op needs a tirx.compile result, got function"):
        tirx.torch.custom_op("mylib::x", affine_relu.fn, mutates_args=("B",))
