"""tirx.ops (docs/library.md, "Row-wise operators"): row_operands checks a
row-wise operator's tensors and says which is wrong, in the operator's
name, allocates `out` or takes it, and views any shape as (rows, cols);
Kernels compiles a configuration once; chunks_for. PyTorch is replaced by
a small fake (the tests run without a GPU)."""
import math
import sys
import types

import pytest

from tirx.ops import Kernels, chunks_for, row_operands
from tirx.script import tirx as T


class Tensor:
    def __init__(self, shape, dtype="float32", device="cuda:0", contiguous=True):
        self.shape, self.dtype, self.device = tuple(shape), dtype, device
        self.is_cuda = device.startswith("cuda")
        self.contiguous = contiguous

    def dim(self):
        return len(self.shape)

    def numel(self):
        return math.prod(self.shape)

    def is_contiguous(self):
        return self.contiguous


@pytest.fixture(autouse=True)
def torch(monkeypatch):
    fake = types.SimpleNamespace(
        float32="float32", bfloat16="bfloat16",
        empty=lambda shape, dtype, device: Tensor(shape, dtype, device))
    monkeypatch.setitem(sys.modules, "torch", fake)
    return fake


def test_out_and_shape():
    x = Tensor((3, 5, 7))
    out, rows, cols = row_operands("softmax", "float32", x)
    assert (out.shape, out.dtype, out.device, rows, cols) == ((3, 5, 7), "float32", "cuda:0",
                                                              15, 7)
    given = Tensor((3, 5, 7))
    assert row_operands("softmax", "float32", x, given)[0] is given
    assert row_operands("softmax", "float32", Tensor(()))[1:] == (1, 1)  # one element
    assert row_operands("softmax", "float32", Tensor((0, 7)))[1:] == (0, 7)  # no launch
    assert row_operands("rms_norm", "bfloat16", Tensor((2, 4), "bfloat16"),
                        weight=Tensor((4,), "bfloat16"))[1:] == (2, 4)


@pytest.mark.parametrize("call, error, message", [
    (lambda: row_operands("softmax", "float32", Tensor((2, 4), "float16")), TypeError,
     "softmax: x must be float32, got float16"),
    (lambda: row_operands("softmax", "float32", Tensor((2, 4), device="cpu")), ValueError,
     "softmax: x must be a CUDA tensor, got one on cpu"),
    (lambda: row_operands("softmax", "float32", Tensor((2, 4)), Tensor((2, 5))), ValueError,
     "softmax: out must be a contiguous float32 tensor of shape (2, 4) on cuda:0, got "
     "float32 (2, 5) on cuda:0"),
    (lambda: row_operands("softmax", "float32", Tensor((2, 4)),
                          Tensor((2, 4), contiguous=False)), ValueError,
     "got float32 (2, 4) (not contiguous) on cuda:0"),
    (lambda: row_operands("rms_norm", "bfloat16", Tensor((2, 4), "bfloat16"),
                          weight=Tensor((4,), "float32")), TypeError,
     "rms_norm: weight must be bfloat16, got float32"),
    (lambda: row_operands("rms_norm", "bfloat16", Tensor((2, 4), "bfloat16"),
                          weight=Tensor((4,), "bfloat16", device="cpu")), ValueError,
     "rms_norm: weight must be a CUDA tensor, got one on cpu"),
    (lambda: row_operands("rms_norm", "bfloat16", Tensor((2, 4), "bfloat16"),
                          weight=Tensor((5,), "bfloat16")), ValueError,
     "rms_norm: weight must have shape (4,), got (5,)"),
])
def test_errors_name_the_operator_and_the_tensor(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert message in str(raised.value)


def test_kernels_compile_each_configuration_once():
    made = []

    def make(threads):
        made.append(threads)

        @T.function
        def copy(A: T.Tensor((threads,), "float32"), B: T.Tensor((threads,), "float32")):
            T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=threads))
            x = T.alloc_local((1,), "float32")
            T.cuda.tile.apply(T.ptx["ld.global.b32"], x, A[0:1], scope="thread")
            T.cuda.tile.apply(T.ptx["st.global.b32"], B[0:1], x, scope="thread")
        return copy
    kernels = Kernels(make, target={"kind": "cuda", "arch": "sm_90"})
    first = kernels(32)
    assert kernels(32) is first and kernels(64) is not first and made == [32, 64]
    with pytest.raises(TypeError, match="Kernels needs a function making a kernel"):
        Kernels(None)


def test_chunks_for():
    assert [chunks_for(c, 1024) for c in (1, 1024, 1025, 2048, 3000, 4096, 4097)] == \
        [1, 1, 2, 2, 4, 4, 8]
