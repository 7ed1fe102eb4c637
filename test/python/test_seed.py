"""The seed's three examples, written as in the seed but for the imports,
compile for sm_90 with no GPU and produce exactly the named instructions."""
import collections
import re

import pytest

import tirx

TARGET = {"kind": "cuda", "arch": "sm_90"}


def counts(ptx):
    return collections.Counter(re.findall(r"^\s+([a-z][\w.:]*)\s", ptx, re.M))


def test_affine_relu():
    from affine_relu import affine_relu
    compiled = tirx.compile(affine_relu, target=TARGET)
    c = counts(compiled.ptx)
    assert c["ld.global.v4.b32"] == 1
    assert c["fma.rn.f32"] == 4
    assert c["max.f32"] == 4
    assert c["st.global.v4.b32"] == 1
    assert ".local" not in compiled.ptx
    assert ".target sm_90" in compiled.ptx


def test_to_float16():
    from to_float16 import to_float16
    c = counts(tirx.compile(to_float16, target=TARGET).ptx)
    assert c["ld.global.v4.b32"] == 1
    assert c["cvt.rn.f16.f32"] == 4
    assert c["st.global.v4.b16"] == 1


def test_silu_ewise():
    from silu import affine_relu
    compiled = tirx.compile(affine_relu, target=TARGET)
    c = counts(compiled.ptx)
    assert c["ld.global.v4.b32"] == 1 and c["st.global.v4.b32"] == 1
    # Four inlined copies of the body: four divisions, four exponentials.
    assert c["div.rn.f32"] == 4 and c["ex2.approx.ftz.f32"] == 4
    assert "call" not in compiled.ptx and ".local" not in compiled.ptx
    # The scalar function is in the IR, inlined after tile-dispatch.
    assert "func.func private @silu" in compiled.mlir["input"]
    assert "tile.ewise @silu scope(cta)" in compiled.mlir["input"]


def test_silu_fast_math():
    from silu import affine_relu
    target = dict(TARGET, backend_config={"cuda": {"nvrtc": ["--use_fast_math"]}})
    c = counts(tirx.compile(affine_relu, target=target).ptx)
    assert c["ex2.approx.ftz.f32"] == 4 and c["div.approx.ftz.f32"] == 4


def test_multi_cta():
    from affine_relu_large import affine_relu_large
    compiled = tirx.compile(affine_relu_large, target=TARGET)
    c = counts(compiled.ptx)
    assert c["ld.global.v4.b32"] == 4 and c["st.global.v4.b32"] == 4
    assert c["fma.rn.f32"] == 16 and c["max.f32"] == 16
    assert "%ctaid.x" in compiled.ptx


def test_stages_and_times():
    from affine_relu import affine_relu
    compiled = tirx.compile(affine_relu, target=TARGET)
    stages = list(compiled.mlir)
    assert stages[:6] == ["input", "tirx-verify-kernels", "tirx-to-gpu", "tile-dispatch",
                          "tile-join-accumulator-chains", "tirx-lower-tensors"]
    assert "tile.apply" in compiled.mlir["input"]
    assert "tile.apply" not in compiled.mlir["tile-dispatch"]
    # One time per pass, PTX generation included; pipeline adaptors are not
    # stages, and nested passes are timed on their own.
    times = compiled.stage_times
    assert list(times) == stages[1:]  # "input" is no pass
    assert {"tirx-to-gpu", "tile-dispatch", "tirx-lower-tensors", "convert-gpu-to-nvvm",
            "tirx-module-to-binary"} <= set(times)
    assert not any("Adaptor" in name for name in times)
    assert all(t >= 0 for t in times.values())
    # PTX generation, and ptxas -v when found (docs/registers.md).
    assert times["tirx-module-to-binary"] > 0
    # Every op carries the user's Python source line.
    assert "affine_relu.py" in compiled.source_ir


def test_target_validation():
    from affine_relu import affine_relu
    with pytest.raises(ValueError, match="the target kind must be 'cuda' or 'interpret'"):
        tirx.compile(affine_relu, target={"kind": "rocm"})
    with pytest.raises(TypeError, match="needs a @T.function kernel"):
        tirx.compile(lambda: None, target=TARGET)


@pytest.mark.parametrize("arch, version", [("sm_90a", "8.0"), ("sm_100a", "8.6"),
                                           ("sm_120", "8.7")])
def test_newer_chips_get_their_ptx_isa(arch, version):
    from affine_relu import affine_relu
    compiled = tirx.compile(affine_relu, target={"kind": "cuda", "arch": arch})
    assert ".version %s\n" % version in compiled.ptx
    assert ".target %s\n" % arch in compiled.ptx


def test_chip_unknown_to_llvm_is_a_compile_error():
    from affine_relu import affine_relu
    with pytest.raises(tirx.CompileError,
                       match="chip 'sm_99' is not an NVIDIA GPU that LLVM knows"):
        tirx.compile(affine_relu, target={"kind": "cuda", "arch": "sm_99"})
