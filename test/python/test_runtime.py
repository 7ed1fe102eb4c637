"""Calling compiled kernels: argument checks before launch, and one clear
error without a GPU."""
import re

import pytest

import tirx
from tirx import runtime
from affine_relu import affine_relu

TARGET = {"kind": "cuda", "arch": "sm_90"}


class FakeCuda:
    """A stand-in for a CUDA tensor: just __cuda_array_interface__."""

    def __init__(self, shape, typestr="<f4", pointer=0x10000, strides=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr,
                                         "data": (pointer, False), "strides": strides,
                                         "version": 3}


@pytest.fixture(scope="module")
def compiled():
    return tirx.compile(affine_relu, target=TARGET)


def test_argument_count(compiled):
    with pytest.raises(TypeError, match=r"takes 2 argument\(s\) \(A, B\), got 1"):
        compiled(FakeCuda((2, 32, 4)))


def test_cpu_tensor(compiled):
    class CpuTensor:
        device = "cpu"
    with pytest.raises(TypeError, match="parameter 'A' needs a CUDA tensor .* on cpu"):
        compiled(CpuTensor(), FakeCuda((2, 32, 4)))


def test_rank_shape_dtype_alignment_contiguity(compiled):
    good = FakeCuda((2, 32, 4))
    with pytest.raises(ValueError, match="parameter 'A' has rank 2, expected 3"):
        compiled(FakeCuda((64, 4)), good)
    with pytest.raises(ValueError, match=r"parameter 'B' has shape \(2, 32, 8\)"):
        compiled(good, FakeCuda((2, 32, 8)))
    with pytest.raises(TypeError, match="parameter 'A' has element type <f2, expected <f4"):
        compiled(FakeCuda((2, 32, 4), "<f2"), good)
    with pytest.raises(ValueError, match="not aligned to the declared 16 bytes"):
        compiled(FakeCuda((2, 32, 4), pointer=0x10004), good)
    with pytest.raises(ValueError, match="parameter 'A' is not contiguous"):
        compiled(FakeCuda((2, 32, 4), strides=(512, 16, 8)), good)


def test_no_gpu_is_one_clear_error(compiled):
    try:
        runtime._runtime()
    except tirx.LibraryNotFoundError:
        pytest.skip("libTirXRuntime.so was not built (no CUDA toolkit)")
    try:
        runtime.compute_capability()
    except runtime.GPUError:
        pass
    else:
        pytest.skip("a GPU is present")
    with pytest.raises(tirx.GPUError, match="no usable GPU"):
        compiled(FakeCuda((2, 32, 4)), FakeCuda((2, 32, 4)))
    with pytest.raises(tirx.GPUError, match="no usable GPU"):
        tirx.compile(affine_relu, target="cuda")
    # Tensors that say their device (DLPack): loading the kernel there fails,
    # and the consumed DLPack tensors are still deleted.
    from test_launch import Producer
    a, b = Producer((2, 32, 4)), Producer((2, 32, 4))
    with pytest.raises(tirx.GPUError, match="tirxModuleLoadDataOnDevice: no usable GPU"):
        compiled(a, b)
    assert a.deleted == b.deleted == 1


def test_import_without_library_says_how_to_build(tmp_path):
    """A copy of the package away from any build tree, with TIRX_LIBRARY
    pointing nowhere: importing it is one clear error."""
    import os
    import shutil
    import subprocess
    import sys
    package = os.path.dirname(tirx.__file__)
    shutil.copytree(package, tmp_path / "tirx",
                    ignore=shutil.ignore_patterns("__pycache__", "lib"))
    env = dict(os.environ, TIRX_LIBRARY=str(tmp_path / "nowhere"),
               PYTHONPATH=str(tmp_path))
    process = subprocess.run([sys.executable, "-c", "import tirx"], env=env,
                             capture_output=True, text=True)
    assert process.returncode != 0
    last = process.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"tirx\._capi\.LibraryNotFoundError: libTirXCAPI\.so was not found "
                        r"\(looked in: .*\)\. Build TirX first: run `make` in the TirX "
                        r"repository \(it builds build/lib/libTirXCAPI\.so\), or point "
                        r"TIRX_LIBRARY at the library\.", last), last
