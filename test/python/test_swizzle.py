"""Swizzled shared-memory layouts from Python (docs/layouts.md): TIRx's
ComposeLayout and SwizzleLayout, their properties and apply, checked against
a byte-level model of the TMA / wgmma swizzles, and a swizzled
T.alloc_shared down to the IR."""
import pickle
import re

import pytest

import tirx
from tirx.script import tirx as T
from tirx.layout import ComposeLayout, LayoutError, S, SwizzleLayout, TileLayout

TARGET = {"kind": "cuda", "arch": "sm_90"}


def hardware(byte_address, mode):
    """The TMA / wgmma swizzle of a shared byte address (PTX ISA): bits
    [4, 4+n) ^= bits [7, 7+n), n = 3, 2, 1 for 128B, 64B, 32B."""
    n = {128: 3, 64: 2, 32: 1}[mode]
    return byte_address ^ (((byte_address >> 7) & ((1 << n) - 1)) << 4)


def test_tirx_example_offset_ten_becomes_eleven():
    layout = ComposeLayout(0, 2, 3, TileLayout(S[8, 8]))
    assert layout.apply(1, 2, shape=(8, 8))["m"] == 11
    assert str(layout) == "S[(8, 8) : (8, 1)] + Swizzle[0, 2, 3]"
    assert (layout.per_element, layout.swizzle_len, layout.atom_len, layout.swizzle_inner) == \
        (0, 2, 3, True)
    assert (layout.inner_mask, layout.outer_mask) == (0b11, 0b11000)
    assert layout.tile_layout == TileLayout(S[8, 8])
    assert isinstance(layout, TileLayout)
    assert layout == TileLayout("S[8, 8] + Swizzle[0, 2, 3]")


@pytest.mark.parametrize("mode", [32, 64, 128])
@pytest.mark.parametrize("element_bytes", [1, 2, 4, 8])
def test_hardware_modes_match_the_byte_model(mode, element_bytes):
    per_element = {1: 4, 2: 3, 4: 2, 8: 1}[element_bytes]
    swizzle_len = {32: 1, 64: 2, 128: 3}[mode]
    columns = mode // element_bytes
    tile = ComposeLayout(per_element, swizzle_len, 3, TileLayout(S[16, columns]))
    swizzle = SwizzleLayout(per_element, swizzle_len, 3)
    assert swizzle.period * element_bytes == mode * 8
    for r in range(16):
        for c in range(columns):
            expected = hardware((r * columns + c) * element_bytes, mode)
            assert tile.apply(r, c, shape=(16, columns))["m"] * element_bytes == expected
            assert swizzle.apply(r * columns + c)["m"] * element_bytes == expected


def test_swizzle_layout_alone_and_composed():
    swizzle = SwizzleLayout(1, 2, 3, swizzle_inner=False)
    assert str(swizzle) == "Swizzle[1, 2, 3, outer]"
    assert swizzle.apply(2)["m"] == 18  # bits [1, 3) = 1 go to bits [4, 6)
    assert swizzle.apply(2 + 64 * 5)["m"] == 18 + 64 * 5  # periodic
    assert swizzle.apply(1, 0, shape=(4, 2))["m"] == 18
    assert (swizzle.inner_mask, swizzle.outer_mask, swizzle.period) == (0b110, 0b110000, 64)
    composed = ComposeLayout(swizzle, TileLayout(S[64]))
    assert str(composed) == "S[64 : 1] + Swizzle[1, 2, 3, outer]"
    assert composed.swizzle == swizzle
    assert TileLayout(S[64]).swizzle is None


def test_views_copies_and_canonical_forms_keep_the_swizzle():
    layout = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))
    assert str(layout.unpack(2).swizzle) == "Swizzle[4, 3, 3]"
    assert str(layout.pack(2).swizzle) == "Swizzle[2, 3, 3]"
    assert str(layout.canonicalize()) == "S[4096 : 1] + Swizzle[3, 3, 3]"
    copy = pickle.loads(pickle.dumps(layout))
    assert isinstance(copy, ComposeLayout) and copy == layout and copy.atom_len == 3
    # swizzle_len 0 disables the swizzle.
    assert str(ComposeLayout(3, 0, 3, TileLayout(S[64]))) == "S[64 : 1]"
    assert "slot 72" in ComposeLayout(3, 3, 3, TileLayout(S[2, 64])).tensor_view((2, 64))


def test_parameter_errors_name_the_reason():
    with pytest.raises(LayoutError, match="atom_len 2 is less than swizzle_len 3"):
        ComposeLayout(0, 3, 2, TileLayout(S[64]))
    with pytest.raises(LayoutError, match=re.escape(
            "invalid SwizzleLayout(-1, 2, 3, True): swizzle per_element is -1")):
        SwizzleLayout(-1, 2, 3)
    with pytest.raises(LayoutError, match="must be at most 62"):
        SwizzleLayout(40, 20, 20)
    with pytest.raises(LayoutError, match=re.escape(
            "tile_layout S[64 : 1] + Swizzle[0, 1, 3] is already swizzled")):
        ComposeLayout(0, 1, 3, ComposeLayout(0, 1, 3, TileLayout(S[64])))
    with pytest.raises(LayoutError, match=re.escape(
            "ComposeLayout(per_element, swizzle_len, atom_len, tile_layout, "
            "swizzle_inner=True) needs all four")):
        ComposeLayout(0, 1, 3)
    with pytest.raises(LayoutError, match=re.escape(
            "ComposeLayout(swizzle, tile_layout) takes two arguments")):
        ComposeLayout(SwizzleLayout(0, 1, 3), TileLayout(S[64]), 3)
    with pytest.raises(LayoutError, match=re.escape(
            "a swizzled offset must be non-negative, got -1")):
        SwizzleLayout(0, 1, 3).apply(-1)
    with pytest.raises(LayoutError, match="power of two"):
        ComposeLayout(1, 2, 3, TileLayout(S[16, 12])).pack(3)


def stages_kernel(body):
    sw = ComposeLayout(3, 3, 3, TileLayout(S[2, 64, 64]))

    @T.function
    def k(A: T.Tensor((128, 32), "int32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        smem = T.alloc_shared((2, 64, 64), "float16", layout=sw, align=1024)
        body(smem)
    return k


def test_alloc_shared_takes_a_swizzled_layout():
    compiled = tirx.compile(stages_kernel(lambda smem: smem[1]), target=TARGET)
    assert ("#tirx.layout<S[(2, 64, 64) : (4096, 64, 1)] + Swizzle[3, 3, 3]>, align = 1024"
            in compiled.source_ir)
    assert ".entry k(" in compiled.ptx


def test_swizzled_layouts_are_refused_where_unsupported():
    sw = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))

    @T.function
    def local(A: T.Tensor((64, 64), "float16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        T.alloc_local((64, 64), "float16", layout=sw)
    with pytest.raises(tirx.CompileError, match="a swizzled layout is for shared memory"):
        tirx.compile(local, target=TARGET)

    with pytest.raises(tirx.CompileError, match=re.escape(
            "a region of a swizzled tensor must start at a multiple of the swizzle period "
            "(512 elements), but it starts at element 4160")):
        tirx.compile(stages_kernel(lambda smem: smem[1, 1:9]), target=TARGET)
