"""A CUDA toolkit without libdevice (TIRX_CUDA_PATH naming a folder with
bin/ptxas but no nvvm/): precise math is refused at the user's line that
needs libdevice, naming the file looked for and where the toolkit came
from, not at the generated IR (test/Pipeline/libdevice-missing.test is the
tirx-opt side)."""
import inspect
import os

import pytest

import tirx
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid
from tirx.script import tirx as T

SM90 = {"kind": "cuda", "arch": "sm_90"}
REG = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


def exp_kernel(fast=False):
    @T.function(private=True)
    def exp_of(value: T.float32) -> T.float32:
        return T.exp(value)  # NEEDS-LIBDEVICE

    @T.function
    def exp_all(A: T.Tensor((2, 32, 4), "float32", align=16),
                B: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 4), "float32", layout=REG)
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A, scope="cta")
        T.cuda.tile.ewise(exp_of, r, r, scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, r, scope="cta")

    return exp_all


def exp_line():
    lines, first = inspect.getsourcelines(exp_kernel)
    return first + next(i for i, text in enumerate(lines) if "NEEDS-LIBDEVICE" in text)


@pytest.fixture
def no_libdevice(tmp_path, monkeypatch):
    """A toolkit folder with a bin/ptxas (that would succeed) and no nvvm/."""
    ptxas = tmp_path / "cuda" / "bin" / "ptxas"
    ptxas.parent.mkdir(parents=True)
    ptxas.write_text("#!/bin/sh\nexit 0\n")
    ptxas.chmod(0o755)
    monkeypatch.setenv("TIRX_CUDA_PATH", str(tmp_path / "cuda"))
    return tmp_path / "cuda"


def test_missing_libdevice_is_reported_at_the_math_call(no_libdevice):
    with pytest.raises(tirx.CompileError) as info:
        tirx.compile(exp_kernel(), target=SM90)
    message = str(info.value)
    libdevice = os.path.join(str(no_libdevice), "nvvm", "libdevice", "libdevice.10.bc")
    assert message.startswith("%s:%d: error: this math function calls libdevice's __nv_expf, "
                              "but libdevice is not there: looked for %s (in the CUDA toolkit "
                              "%s, from $TIRX_CUDA_PATH); point $TIRX_CUDA_PATH"
                              % (__file__, exp_line(), libdevice, no_libdevice)), message
    assert "<tirx-generated-ir>" not in message
    assert "Unresolved extern" not in message


def test_fast_math_needs_no_libdevice(no_libdevice):
    # ex2.approx: no libdevice call, so the same toolkit compiles.
    compiled = tirx.compile(exp_kernel(), target=dict(SM90, fast_math=True))
    assert "ex2.approx" in compiled.ptx and "__nv_" not in compiled.ptx
