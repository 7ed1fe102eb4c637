"""What the examples' public functions decide for a shape (issue: they take
every shape torch's own op takes): softmax.config_for and
rmsnorm.config_for keep the measured kernels for the shapes they always
took (whole chunks of 1024 / 2048 columns) and size the same kinds of
kernel for any other row length, with the widest access the length's
alignment allows; every kernel they pick compiles for sm_90 without spills,
its row tiles masked. Rows of whole chunks (and, several to a CTA, whole
CTAs of rows) take the kernels whose chunks are predicated whole, whose PTX
is the PTX of the kernels before any shape was taken (3461584^, where git
has it). The GPU bundle runs the examples on these shapes against float64
references (examples/python/*.py __main__)."""
import importlib.util
import os
import re
import subprocess
import sys

import pytest

import tirx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = {"kind": "cuda", "arch": "sm_90"}
sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
import rmsnorm  # noqa: E402
import softmax  # noqa: E402

# The shapes softmax(x) always took (the kernels measured for them,
# bench/RESULTS.md, and two row counts no multiple of a CTA's rows), as the
# previous config_for chose them (with vector 4, whole chunks): (threads,
# chunks, rows per CTA, online, vector, whole).
SOFTMAX_MEASURED = {
    (1, 1024): (256, 1, 1, False, 4, True), (3, 4096): (256, 4, 1, False, 4, True),
    (64, 3072): (256, 4, 1, False, 4, True), (64, 6144): (256, 8, 1, False, 4, True),
    (5, 16384): (1024, 4, 1, False, 4, True), (4, 8192): (1024, 2, 1, True, 4, True),
    (2, 2048): (1024, 1, 2, False, 4, True), (6, 4096): (1024, 2, 2, False, 4, True),
    (64, 2048): (1024, 2, 4, False, 4, True), (40, 1024): (1024, 2, 8, False, 4, True),
    (24, 1024): (1024, 2, 8, False, 4, True), (32768, 4096): (1024, 2, 2, False, 4, True),
    (8192, 16384): (1024, 4, 1, False, 4, True), (3, 32768): (1024, 8, 1, False, 4, True),
    (41, 1024): (256, 1, 1, False, 4, True), (9, 2048): (256, 2, 1, False, 4, True),
}
# Shapes it refused before: tails, odd lengths, row counts that are no
# multiple of a CTA's rows (masked, whole False); whole chunks of a
# grouped kernel's smaller chunks (512 columns, 8 rows to a CTA).
SOFTMAX_NEW = {
    (1, 1): (256, 1, 1, False, 1, False), (3, 3000): (1024, 2, 2, False, 4, False),
    (5, 1000): (1024, 1, 4, False, 4, False), (7, 7): (1024, 1, 4, False, 1, False),
    (2, 2): (1024, 1, 2, False, 2, False), (1, 4095): (256, 4, 1, False, 1, False),
    (9, 5000): (256, 8, 1, False, 4, False), (4, 12345): (1024, 4, 1, False, 1, False),
    (3, 20002): (1024, 8, 1, False, 2, False), (3, 32000): (1024, 8, 1, False, 4, False),
    (16, 512): (1024, 1, 8, False, 4, True), (9, 512): (1024, 1, 8, False, 4, False),
}
RMSNORM_MEASURED = {2048: (256, 1, 8, True), 4096: (256, 2, 8, True), 6144: (256, 4, 8, True),
                    8192: (512, 2, 8, True)}
RMSNORM_NEW = {3000: (256, 2, 8, False), 5004: (256, 4, 4, False), 1026: (256, 1, 2, False),
               777: (256, 1, 1, False), 1: (256, 1, 1, False), 8190: (256, 4, 2, False),
               8191: (256, 4, 1, False)}


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


@pytest.mark.parametrize("config", sorted({c[:5] + (False,) for c in SOFTMAX_NEW.values()} |
                                          {SOFTMAX_MEASURED[(4, 8192)][:5] + (False,),
                                           SOFTMAX_MEASURED[(64, 2048)][:5] + (False,)}))
def test_softmax_kernels_compile_masked(config):
    threads, chunks, per_cta, online, vector, whole = config
    ptx = tirx.compile(softmax.kernel_for(*config), target=TARGET).ptx
    assert ".local" not in ptx
    # Every load of the row masked: 4 / vector accesses per thread and chunk.
    assert load_count(ptx, vector * 4) == chunks * (4 // vector)
    assert "and.pred" in ptx  # a row's and a column's bound per access


@pytest.mark.parametrize("config", sorted({c[:3] + (False,) for c in RMSNORM_NEW.values()} |
                                          {c[:3] + (False,) for c in RMSNORM_MEASURED.values()}))
def test_rmsnorm_kernels_compile_masked(config):
    threads, chunks, vector, whole = config
    ptx = tirx.compile(rmsnorm.make_kernel(threads, chunks, rmsnorm.EPS, vector, whole),
                       target=TARGET).ptx
    assert ".local" not in ptx
    # x and w: 8 / vector accesses each per thread and chunk.
    assert load_count(ptx, vector * 2) == 2 * chunks * (8 // vector)


def chunk_predicates(ptx):
    """The comparisons of a kernel's row length with a constant (its chunk
    starts), as (register, constant) pairs."""
    return re.findall(r"setp\.gt\.s64\s+%p\d+, (%rd\d+), (\d+);", ptx)


WHOLE_SOFTMAX = sorted({c for c in {**SOFTMAX_MEASURED, **SOFTMAX_NEW}.values() if c[5]})
WHOLE_RMSNORM = sorted({c for c in {**RMSNORM_MEASURED, **RMSNORM_NEW}.values() if c[3]})


@pytest.mark.parametrize("config", WHOLE_SOFTMAX)
def test_softmax_whole_chunks_are_predicated_per_chunk(config):
    """Whole chunks: one predicate per chunk, `cols > r * chunk`, shared by
    its load and its store; no per-access (row and column) bounds."""
    threads, chunks, per_cta, online, vector, whole = config
    ptx = tirx.compile(softmax.kernel_for(*config), target=TARGET).ptx
    assert ".local" not in ptx and "and.pred" not in ptx
    chunk = threads * 4 // per_cta
    found = chunk_predicates(ptx)
    assert sorted(int(start) for _, start in found) == [r * chunk for r in range(chunks)]
    assert len({register for register, _ in found}) == 1  # all on `cols`
    assert load_count(ptx, 16) == chunks


@pytest.mark.parametrize("config", WHOLE_RMSNORM)
def test_rmsnorm_whole_chunks_are_predicated_per_chunk(config):
    threads, chunks, vector, whole = config
    ptx = tirx.compile(rmsnorm.make_kernel(threads, chunks, rmsnorm.EPS, vector, whole),
                       target=TARGET).ptx
    assert ".local" not in ptx and "and.pred" not in ptx
    found = chunk_predicates(ptx)
    # x's and w's chunk r on the same predicate.
    assert sorted(int(start) for _, start in found) == [r * threads * 8 for r in range(chunks)]
    assert load_count(ptx, 16) == 2 * chunks


OLD = "3461584^"  # the examples before they took every shape


def old_example(name):
    """examples/python/<name>.py as of OLD, imported, or a skip where this
    checkout's git does not have it (a source tree without history)."""
    try:
        source = subprocess.run(["git", "-C", ROOT, "show", "%s:examples/python/%s.py"
                                 % (OLD, name)], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        source = None
    if source is None or source.returncode:
        pytest.skip("git has no %s:examples/python/%s.py here" % (OLD, name))
    spec = importlib.util.spec_from_loader("old_" + name, loader=None)
    module = importlib.util.module_from_spec(spec)
    exec(compile(source.stdout, "%s:%s.py" % (OLD, name), "exec"), module.__dict__)
    return module


@pytest.mark.parametrize("shape", sorted(SOFTMAX_MEASURED))
def test_softmax_whole_chunk_kernels_are_the_old_kernels(shape):
    """On the shapes the old softmax(x) took, the kernel config_for picks has
    the old kernel's PTX, byte for byte (sm_90a, as the golden files)."""
    old = old_example("softmax")
    arch = {"kind": "cuda", "arch": "sm_90a"}
    want = tirx.compile(old.kernel_for(*old.config_for(*shape)), target=arch).ptx
    assert tirx.compile(softmax.kernel_for(*softmax.config_for(*shape)), target=arch).ptx == want


@pytest.mark.parametrize("cols", sorted(RMSNORM_MEASURED))
def test_rmsnorm_whole_chunk_kernels_are_the_old_kernels(cols):
    old = old_example("rmsnorm")
    arch = {"kind": "cuda", "arch": "sm_90a"}
    want = tirx.compile(old.make_kernel(*old.config_for(cols)), target=arch).ptx
    threads, chunks, vector, whole = rmsnorm.config_for(cols)
    got = tirx.compile(rmsnorm.make_kernel(threads, chunks, rmsnorm.EPS, vector, whole),
                       target=arch).ptx
    assert got == want


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
    assert launched == [((256, 4, rmsnorm.EPS, 4, False), [(7, 5004), (5004,), (7, 5004)])]
    launched.clear()
    # Whole chunks (and whole CTAs of rows): the whole-chunk kernels.
    softmax.softmax(Tensor((4, 2, 4096), "float32"))
    rmsnorm.rms_norm(Tensor((7, 4096), "bfloat16"), Tensor((4096,), "bfloat16"))
    assert launched == [((1024, 2, 2, False, 4, True), [(8, 4096), (8, 4096)]),
                        ((256, 2, rmsnorm.EPS, 8, True), [(7, 4096), (4096,), (7, 4096)])]
    launched.clear()
    assert softmax.softmax(Tensor((0, 40000), "float32")).shape == (0, 40000)  # no config
    assert launched == []
