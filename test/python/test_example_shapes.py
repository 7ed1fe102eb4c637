"""What the examples' public functions decide for a shape (issue: they take
every shape torch's own op takes): softmax.config_for and
rmsnorm.config_for keep the measured kernels for the shapes they always
took (whole chunks of 1024 / 2048 columns) and size the same kinds of
kernel for any other row length, with the widest access the length's
alignment allows; every kernel they pick compiles for sm_90 without spills,
its row tiles masked. The GPU bundle runs the examples on these shapes
against float64 references (examples/python/*.py __main__)."""
import os
import re
import sys

import pytest

import tirx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = {"kind": "cuda", "arch": "sm_90"}
sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
import rmsnorm  # noqa: E402
import softmax  # noqa: E402

# The shapes softmax(x) always took and the kernels measured for them
# (bench/RESULTS.md), as the previous config_for chose them (with vector 4):
# (threads, chunks, rows per CTA, online, vector).
SOFTMAX_MEASURED = {
    (1, 1024): (256, 1, 1, False, 4), (3, 4096): (256, 4, 1, False, 4),
    (64, 3072): (256, 4, 1, False, 4), (64, 6144): (256, 8, 1, False, 4),
    (5, 16384): (1024, 4, 1, False, 4), (4, 8192): (1024, 2, 1, True, 4),
    (2, 2048): (1024, 1, 2, False, 4), (6, 4096): (1024, 2, 2, False, 4),
    (64, 2048): (1024, 2, 4, False, 4), (40, 1024): (1024, 2, 8, False, 4),
    (24, 1024): (1024, 2, 8, False, 4),
}
# Shapes it refused before: tails, odd lengths, row counts that are no
# multiple of a CTA's rows.
SOFTMAX_NEW = {
    (1, 1): (256, 1, 1, False, 1), (3, 3000): (1024, 2, 2, False, 4),
    (5, 1000): (1024, 1, 4, False, 4), (7, 7): (1024, 1, 4, False, 1),
    (2, 2): (1024, 1, 2, False, 2), (1, 4095): (256, 4, 1, False, 1),
    (9, 5000): (256, 8, 1, False, 4), (4, 12345): (1024, 4, 1, False, 1),
    (3, 20002): (1024, 8, 1, False, 2), (3, 32768): (1024, 8, 1, False, 4),
}
RMSNORM_MEASURED = {2048: (256, 1, 8), 4096: (256, 2, 8), 6144: (256, 4, 8),
                    8192: (512, 2, 8)}
RMSNORM_NEW = {3000: (256, 2, 8), 5004: (256, 4, 4), 1026: (256, 1, 2), 777: (256, 1, 1),
               1: (256, 1, 1), 8190: (256, 4, 2), 8191: (256, 4, 1)}


@pytest.mark.parametrize("shape", sorted({**SOFTMAX_MEASURED, **SOFTMAX_NEW}))
def test_softmax_config(shape):
    want = {**SOFTMAX_MEASURED, **SOFTMAX_NEW}[shape]
    assert softmax.config_for(*shape) == want


@pytest.mark.parametrize("cols", sorted({**RMSNORM_MEASURED, **RMSNORM_NEW}))
def test_rmsnorm_config(cols):
    assert rmsnorm.config_for(cols) == {**RMSNORM_MEASURED, **RMSNORM_NEW}[cols]


def test_too_long_rows_are_refused():
    with pytest.raises(ValueError, match=r"softmax: rows of 32769 columns are longer than "
                                         r"the 32768 this example's kernels hold in registers"):
        softmax.config_for(2, 32769)
    with pytest.raises(ValueError, match=r"rms_norm: rows of 8193 columns are longer than "
                                         r"the 8192 this example's kernels hold in registers"):
        rmsnorm.config_for(8193)


def load_count(ptx, vector_bytes):
    spelling = {16: r"ld\.global\.v4\.b32", 8: r"ld\.global\.v2\.b32", 4: r"ld\.global\.b32",
                2: r"ld\.global\.b16"}[vector_bytes]
    return len(re.findall(r"@%tirx_p " + spelling, ptx))


@pytest.mark.parametrize("config", sorted(set(SOFTMAX_NEW.values()) |
                                          {SOFTMAX_MEASURED[(4, 8192)],
                                           SOFTMAX_MEASURED[(64, 2048)]}))
def test_softmax_kernels_compile_masked(config):
    threads, chunks, per_cta, online, vector = config
    ptx = tirx.compile(softmax.kernel_for(*config), target=TARGET).ptx
    assert ".local" not in ptx
    # Every load of the row masked: 4 / vector accesses per thread and chunk.
    assert load_count(ptx, vector * 4) == chunks * (4 // vector)


@pytest.mark.parametrize("config", sorted(set(RMSNORM_NEW.values()) |
                                          set(RMSNORM_MEASURED.values())))
def test_rmsnorm_kernels_compile_masked(config):
    threads, chunks, vector = config
    ptx = tirx.compile(rmsnorm.make_kernel(threads, chunks, rmsnorm.EPS, vector),
                       target=TARGET).ptx
    assert ".local" not in ptx
    # x and w: 8 / vector accesses each per thread and chunk.
    assert load_count(ptx, vector * 2) == 2 * chunks * (8 // vector)


def test_public_functions_launch_the_chosen_kernel(monkeypatch):
    """softmax(x) and rms_norm(x, w) (tirx.ops.row_operands and Kernels):
    the kernel of config_for's choice, launched on (rows, cols) views; an
    empty x launches nothing. PyTorch and the kernels are fakes."""
    import math
    import types

    class Tensor:
        def __init__(self, shape, dtype):
            self.shape, self.dtype, self.device, self.is_cuda = tuple(shape), dtype, "cuda:0", True

        def dim(self):
            return len(self.shape)

        def numel(self):
            return math.prod(self.shape)

        def is_contiguous(self):
            return True

        def contiguous(self):
            return self

        def view(self, *shape):
            return Tensor(shape, self.dtype)
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(
        float32="float32", bfloat16="bfloat16",
        empty=lambda shape, dtype, device: Tensor(shape, dtype)))
    launched = []

    def kernels(*config):
        return lambda *args: launched.append((config, [a.shape for a in args]))
    monkeypatch.setattr(softmax, "kernels", kernels)
    monkeypatch.setattr(rmsnorm, "kernels", kernels)
    out = softmax.softmax(Tensor((3, 5, 3000), "float32"))
    assert out.shape == (3, 5, 3000)
    assert launched == [(softmax.config_for(15, 3000), [(15, 3000), (15, 3000)])]
    launched.clear()
    rmsnorm.rms_norm(Tensor((7, 5004), "bfloat16"), Tensor((5004,), "bfloat16"))
    assert launched == [((256, 4, rmsnorm.EPS, 4), [(7, 5004), (5004,), (7, 5004)])]
    launched.clear()
    assert softmax.softmax(Tensor((0, 40000), "float32")).shape == (0, 40000)  # no config
    assert launched == []
