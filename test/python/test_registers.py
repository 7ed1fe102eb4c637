"""Registers (docs/registers.md): the verifier's register budget at the
user's T.alloc_local line, and ptxas's report on Compiled (.registers,
.spill_bytes) with a tirx.SpillWarning at the kernel's line when it spills."""
import os
import warnings

import pytest

import tirx
from tirx import _capi
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

TARGET = {"kind": "cuda", "arch": "sm_90"}


def line_of(marker):
    """The line of this file that contains `marker`."""
    for number, text in enumerate(open(__file__), 1):
        if marker in text and "line_of" not in text:
            return number
    raise AssertionError(marker)


@pytest.fixture
def toolkit(tmp_path, monkeypatch):
    """A toolkit folder holding only the suite's ptxas (the one the
    compile's own search finds, through the C API) and its toolkit's
    libdevice, found through CUDA_HOME (docs/lowering.md: TIRX_CUDA_PATH,
    which would come first, is unset)."""
    ptxas = _capi.cuda_tool("ptxas")
    if not ptxas:
        pytest.skip("ptxas not found")
    nvvm = next((os.path.join(d, "nvvm") for d in
                 (_capi.cuda_toolkit(), os.path.dirname(os.path.dirname(os.path.realpath(ptxas))))
                 if d and os.path.isdir(os.path.join(d, "nvvm", "libdevice"))), None)
    (tmp_path / "bin").mkdir()
    os.symlink(os.path.realpath(ptxas), tmp_path / "bin" / "ptxas")
    if nvvm:
        os.symlink(nvvm, tmp_path / "nvvm")
    monkeypatch.delenv("TIRX_CUDA_PATH", raising=False)
    monkeypatch.setenv("CUDA_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def no_toolkit(toolkit, monkeypatch):
    """No ptxas anywhere: the toolkit without bin/ptxas, an empty PATH."""
    os.remove(toolkit / "bin" / "ptxas")
    monkeypatch.setenv("PATH", str(toolkit / "bin"))


def streaming_kernel(per_thread):
    """affine-ReLU over 64 threads x `per_thread` floats, all loaded first."""
    shape = (2, 32, per_thread)
    layout = TileLayout(S[shape : (1 @ warpid, 1 @ laneid, 1)])

    @T.function  # MARK-kernel
    def stream(A: T.Tensor(shape, "float32", align=16),
               B: T.Tensor(shape, "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local(shape, "float32", layout=layout)  # MARK-alloc
        words = (2, 32, per_thread // 4, 4)
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r.view(*words), A.view(*words),
                          scope="cta")
        s = r.view(2, 32, per_thread, 1)
        T.cuda.tile.apply(T.ptx["fma.rn.f32"], s, s, T.float32(2), T.float32(1), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.view(*words), r.view(*words),
                          scope="cta")
    return stream


def test_report_of_a_kernel_that_fits(toolkit):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning at all
        compiled = tirx.compile(streaming_kernel(4), target=TARGET)
    assert isinstance(compiled.registers, int) and 0 < compiled.registers <= 255
    assert compiled.spill_bytes == 0
    assert compiled.ptxas_report["spill_loads"] == 0
    assert compiled.ptxas_report["stack_frame"] == 0
    assert ".maxnreg" not in compiled.ptx


def test_spill_warning_at_the_kernel_line(toolkit):
    # 64 floats per thread pass the budget (239) and fit ptxas's own choice...
    compiled = tirx.compile(streaming_kernel(64), target=TARGET)
    assert compiled.registers > 64 and compiled.spill_bytes == 0
    # ... but not 24 registers (max_registers puts .maxnreg 24 on the kernel).
    with pytest.warns(tirx.SpillWarning,
                      match=r"ptxas spills registers of kernel 'stream' to local memory: "
                            r"\d+ bytes of spill stores and \d+ bytes of spill loads per "
                            r"thread, with 24 registers") as record:
        compiled = tirx.compile(streaming_kernel(64),
                                target=dict(TARGET, max_registers=24))
    assert len(record) == 1
    assert os.path.basename(record[0].filename) == "test_registers.py"
    assert record[0].lineno == line_of("MARK-kernel")
    assert ".maxnreg 24" in compiled.ptx
    assert compiled.registers == 24
    assert compiled.spill_bytes > 0 and compiled.ptxas_report["spill_loads"] > 0


def test_without_ptxas_no_report_and_no_warning(no_toolkit):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled = tirx.compile(streaming_kernel(64), target=dict(TARGET, max_registers=24))
    assert compiled.registers is None
    assert compiled.spill_bytes is None
    assert compiled.ptxas_report is None
    assert ".maxnreg 24" in compiled.ptx
    # No cubin either: the first launch says the driver JIT-compiles the PTX.
    assert compiled.cubin is None
    with pytest.warns(RuntimeWarning, match="kernel 'stream': ptxas was not found when it was "
                                            "compiled, so it has no cubin and the driver "
                                            "JIT-compiles its PTX at the first launch"):
        compiled._make_launcher()


def test_budget_error_at_the_allocation_line():
    with pytest.raises(tirx.CompileError) as info:
        tirx.compile(streaming_kernel(256), target=TARGET)
    message = str(info.value)
    assert "test_registers.py:%d: error:" % line_of("MARK-alloc") in message
    assert ("register tiles need 256 32-bit registers per thread here (this tile 256), "
            "over the budget of 239: 255 registers per thread, less 16 kept for "
            "addresses and indices") in message


def test_budget_of_a_large_block():
    layout = TileLayout(S[(32, 32, 52) : (1 @ warpid, 1 @ laneid, 1)])

    @T.function
    def wide(A: T.Tensor((32, 32, 52), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1024))
        T.alloc_local((32, 32, 52), "float32", layout=layout)  # MARK-wide
    with pytest.raises(tirx.CompileError) as info:
        tirx.compile(wide, target=TARGET)
    message = str(info.value)
    assert "test_registers.py:%d: error:" % line_of("MARK-wide") in message
    assert ("over the budget of 48: the register file's 65536 registers over a block of "
            "1024 threads leave 64 per thread") in message
