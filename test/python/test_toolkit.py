"""The one CUDA toolkit search (lib/Conversion/CUDAToolkit.cpp, through the
C API; docs/lowering.md, "The CUDA toolkit"), which the compile, its cache
key, the lit suite (test/lit.cfg.py) and these tests share: the toolkit is
the first of TIRX_CUDA_PATH, CUDA_HOME, CUDA_PATH, CUDA_ROOT that is set,
else /usr/local/cuda with libdevice; a program is the toolkit's bin/<name>,
else on PATH. A fake ptxas in a fake toolkit is found, and tirx.compile
runs it."""
import os
import stat

import pytest

import tirx
from tirx import _capi
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

VARIABLES = ("TIRX_CUDA_PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT")


def fake_toolkit(folder, message="fake ptxas ran"):
    """A toolkit folder whose bin/ptxas prints `message` and fails."""
    os.makedirs(folder / "bin")
    ptxas = folder / "bin" / "ptxas"
    ptxas.write_text("#!/bin/sh\necho '%s' >&2\nexit 1\n" % message)
    ptxas.chmod(ptxas.stat().st_mode | stat.S_IXUSR)
    return str(folder)


@pytest.fixture
def clean(monkeypatch, tmp_path):
    """None of the variables set, and a PATH without ptxas."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("TIRX_CACHE_DIR", str(tmp_path / "cache"))
    return monkeypatch


@pytest.mark.parametrize("first", range(len(VARIABLES)))
def test_the_first_variable_set_is_the_toolkit(clean, tmp_path, first):
    # Every variable from `first` on names its own fake toolkit.
    for name in VARIABLES[first:]:
        clean.setenv(name, fake_toolkit(tmp_path / name))
    want = str(tmp_path / VARIABLES[first])
    assert _capi.cuda_toolkit() == want
    assert _capi.cuda_tool("ptxas") == os.path.join(want, "bin", "ptxas")
    assert _capi.cuda_tool("nvcc") == ""  # not in that toolkit, nor on PATH


def test_an_empty_variable_is_skipped(clean, tmp_path):
    clean.setenv("TIRX_CUDA_PATH", "")
    clean.setenv("CUDA_PATH", fake_toolkit(tmp_path / "cuda"))
    assert _capi.cuda_toolkit() == str(tmp_path / "cuda")


def test_a_toolkit_without_ptxas_falls_back_to_path(clean, tmp_path):
    clean.setenv("TIRX_CUDA_PATH", str(tmp_path / "no-such-toolkit"))
    assert _capi.cuda_toolkit() == str(tmp_path / "no-such-toolkit")
    assert _capi.cuda_tool("ptxas") == ""  # absent: none anywhere
    on_path = fake_toolkit(tmp_path / "elsewhere")
    clean.setenv("PATH", os.path.join(on_path, "bin"))
    assert _capi.cuda_tool("ptxas") == os.path.join(on_path, "bin", "ptxas")


def test_a_name_that_is_not_a_program_is_nothing(clean, tmp_path):
    clean.setenv("TIRX_CUDA_PATH", fake_toolkit(tmp_path / "cuda"))
    assert _capi.cuda_tool("") == ""  # not the toolkit's bin/ folder
    assert _capi.cuda_tool("bin/ptxas") == ""


def kernel():
    layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

    @T.function
    def relu(A: T.Tensor((2, 32, 4), "float32", align=16),
             B: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 4), "float32", layout=layout)
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A, scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, r, scope="cta")
    return relu


@pytest.mark.parametrize("variable", ["TIRX_CUDA_PATH", "CUDA_HOME"])
def test_compile_runs_the_ptxas_found(clean, tmp_path, variable):
    clean.setenv(variable, fake_toolkit(tmp_path / "cuda", "ptxas fatal   : fake toolkit"))
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(kernel(), target={"kind": "cuda", "arch": "sm_90"})
    assert "ptxas (%s) failed" % os.path.join(str(tmp_path), "cuda", "bin", "ptxas") \
        in str(error.value)
    assert "ptxas fatal   : fake toolkit" in str(error.value)


def test_compile_without_ptxas_has_no_report(clean, tmp_path):
    clean.setenv("TIRX_CUDA_PATH", str(tmp_path / "no-such-toolkit"))
    compiled = tirx.compile(kernel(), target={"kind": "cuda", "arch": "sm_90"})
    assert compiled.ptxas_report is None and "ld.global.v4.b32" in compiled.ptx
