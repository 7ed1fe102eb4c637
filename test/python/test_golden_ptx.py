"""The PTX of every example configuration, pinned byte for byte (issue 35:
the examples are to be rewritten on the library with their PTX unchanged).
Each case compiles one kernel an example builds for sm_90a (the
configurations its public function chooses for the shapes it was measured
on, and its __main__'s variants) and compares the PTX with
test/python/golden/<case>.ptx.xz. After a deliberate change of the code
the examples generate, `TIRX_UPDATE_GOLDEN=1 pytest test_golden_ptx.py`
rewrites the files; the commit then shows which kernels changed."""
import difflib
import lzma
import os
import sys

import pytest

import tirx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
TARGET = {"kind": "cuda", "arch": "sm_90a"}
sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
import affine_relu  # noqa: E402
import affine_relu_persistent  # noqa: E402
import column_sums  # noqa: E402
import gemm  # noqa: E402
import gemm_hopper  # noqa: E402
import rmsnorm  # noqa: E402
import softmax  # noqa: E402

SMS = 132  # the H200's SMs: the persistent kernels' grid

# Every configuration softmax(x) and rms_norm(x, w) choose for the shapes
# bench/RESULTS.md measured, and one tail shape each.
SOFTMAX_SHAPES = [(1, 1024), (3, 4096), (64, 6144), (5, 16384), (4, 8192), (2, 2048),
                  (6, 4096), (64, 2048), (40, 1024), (3, 3000), (3, 32768)]
RMSNORM_COLUMNS = [2048, 4096, 6144, 8192, 3000]

CASES = {
    "affine_relu": lambda: affine_relu.affine_relu,
    "column_sums": lambda: column_sums.column_sums,
    "affine_relu_persistent": lambda: affine_relu_persistent.make_kernel(SMS),
    "affine_relu_persistent_loads_first":
        lambda: affine_relu_persistent.make_kernel(SMS, loads_first=True),
    "affine_relu_persistent_pipelined":
        lambda: affine_relu_persistent.make_pipelined_kernel(SMS),
    "affine_relu_persistent_dynamic": lambda: affine_relu_persistent.make_dynamic_kernel(SMS),
    "affine_relu_one_pass": lambda: affine_relu_persistent.make_one_pass_kernel(),
    "gemm_4096": lambda: gemm.make_kernel(4096, 4096, 4096),
    "gemm_hopper_4096": lambda: gemm_hopper.make_kernel(4096, 4096, 4096, num_sms=SMS),
    "gemm_hopper_runtime_sized": lambda: gemm_hopper.runtime_sized(SMS),
}
# Each configuration's masked kernel (whole=False), and where the shape is
# whole chunks the whole-chunk kernel config_for picks for it (`_whole`: the
# PTX of the kernels before the examples took every shape,
# test_example_shapes.py). The rmsnorm cases without `_whole` pass the
# vector (8) where make_kernel takes eps, as they were pinned.
for rows, cols in SOFTMAX_SHAPES:
    config = softmax.config_for(rows, cols)
    name = "softmax_%d_%d_%d_%s_%d" % (config[0], config[1], config[2],
                                       "online" if config[3] else "two", config[4])
    CASES.setdefault(name, lambda config=config: softmax.kernel_for(*config[:5]))
    if config[5]:
        CASES.setdefault(name + "_whole", lambda config=config: softmax.kernel_for(*config))
for cols in RMSNORM_COLUMNS:
    config = rmsnorm.config_for(cols)
    name = "rmsnorm_%d_%d_%d" % config[:3]
    CASES.setdefault(name, lambda config=config: rmsnorm.make_kernel(*config[:3]))
    if config[3]:
        CASES.setdefault(name + "_whole", lambda config=config: rmsnorm.make_kernel(
            config[0], config[1], rmsnorm.EPS, config[2], True))


@pytest.mark.parametrize("case", sorted(CASES))
def test_example_ptx_is_unchanged(case):
    ptx = tirx.compile(CASES[case](), target=TARGET).ptx
    path = os.path.join(GOLDEN, case + ".ptx.xz")
    if os.environ.get("TIRX_UPDATE_GOLDEN") == "1":
        os.makedirs(GOLDEN, exist_ok=True)
        with lzma.open(path, "wt") as out:
            out.write(ptx)
    with lzma.open(path, "rt") as golden:
        want = golden.read()
    if ptx != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), ptx.splitlines(True),
                                                 "golden/" + case, "now", n=1))[:60])
        pytest.fail("the PTX of %s changed (TIRX_UPDATE_GOLDEN=1 rewrites the golden file "
                    "after a deliberate change):\n%s" % (case, diff))


def test_every_golden_file_has_a_case():
    files = {name[:-len(".ptx.xz")] for name in os.listdir(GOLDEN)}
    assert files == set(CASES)
