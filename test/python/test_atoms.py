"""tirx.atoms.instruction: what the PTX table knows of an instruction, read
through the C API (tirxInstructionParse), so that nothing of an atom is
retyped in Python (issue 35, item 3)."""
import pytest

from tirx.atoms import instruction
from tirx.cuda.axis import laneid, wid_in_wg
from tirx.layout import S, TileLayout


def test_wgmma_accumulator_fragment_for_every_n():
    for n in (8, 64, 256):
        wgmma = instruction("wgmma.mma_async.sync.aligned.m64n%dk16.f32.bf16.bf16" % n)
        assert wgmma.exec == "warpgroup" and wgmma.form.startswith("wgmma.mma_async")
        assert (wgmma.min_sm, wgmma.min_ptx, wgmma.arch_specific) == (90, 80, True)
        d = wgmma.operand("d")
        assert d.is_destination and not d.is_memory and d.element == "f32"
        assert d.atom_shape == (64, n) and d.atom == 64 * n
        # The fragment examples/python/gemm_hopper.py used to type by hand
        # (the table's m64n8 atom repeated n / 8 times: equal as layouts).
        assert d.fragment.canonicalize() == TileLayout(
            S[(4, 2, 8, n // 8, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)]
        ).canonicalize()
        a, b = wgmma.operand("a"), wgmma.operand("b")
        assert (d.bits, a.bits, b.bits, wgmma.operand("scale-d").bits) == (32, 16, 16, 1)
        assert a.is_memory and a.atom_shape == (64, 16) and a.fragment is None
        assert b.is_memory and b.atom_shape == (n, 16)
    assert [o.name for o in wgmma.operands] == ["d", "a", "b", "scale-d", "imm-scale-a",
                                               "imm-scale-b", "imm-trans-a", "imm-trans-b"]


def test_mma_sync_fragments():
    mma = instruction("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
    assert mma.exec == "warp" and mma.min_sm == 80 and not mma.arch_specific
    shapes = {o.name: o.atom_shape for o in mma.operands}
    assert shapes == {"d": (16, 8), "a": (16, 8), "b": (8, 8), "c": (16, 8)}
    d = mma.operand("d")
    assert d.fragment == TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
    assert d.fragment.size() == 128 and d.fragment.span() == 4  # 4 registers per lane
    assert not mma.operand("c").is_destination


def test_per_thread_and_memory_forms():
    load = instruction("ld.global.v4.b32")
    assert (load.exec, load.space, load.spelling) == ("thread", "global", "ld.global.v4.b32")
    d, addr = load.operands
    assert d.is_destination and not d.is_memory and d.atom_shape == (4,)
    assert addr.is_memory and not addr.is_destination and addr.fragment is None
    assert instruction("fma.rn.f32").space == ""
    assert [o.bits for o in instruction("cvt.rn.bf16x2.f32").operands] == [32, 32, 32]
    copy = instruction("cp.async.cg.shared.global", 3)
    assert [(o.name, o.bits) for o in copy.operands] == [("dst", 0), ("src", 0),
                                                         ("size", 32)]
    # The operand count picks between forms of one spelling.
    assert len(instruction("max.f32", 3).operands) == 3
    assert len(instruction("max.f32", 4).operands) == 4
    assert instruction("ld.global.v4.b32") is instruction("ld.global.v4.b32")  # cached


def test_unknown_spellings_and_operands_are_errors():
    with pytest.raises(ValueError, match=r"'ld.global.v5.b32': unknown modifier .v5"):
        instruction("ld.global.v5.b32")
    with pytest.raises(ValueError, match=r"'add.rn.f32' expects 3 operands, got 4"):
        instruction("add.rn.f32", 4)
    with pytest.raises(ValueError, match=r"num_operands must be a non-negative int, got -1"):
        instruction("add.rn.f32", -1)
    with pytest.raises(TypeError, match=r"instruction\(\) takes a PTX spelling \(str\), got int"):
        instruction(3)
    with pytest.raises(ValueError) as info:
        instruction("ld\0")
    assert str(info.value) == "invalid PTX spelling 'ld\\x00': it contains a NUL character"
    with pytest.raises(KeyError, match=r"'fma.rn.f32' has no operand 'e' \(its operands: d, a, "
                                       r"b, c\)"):
        instruction("fma.rn.f32").operand("e")
