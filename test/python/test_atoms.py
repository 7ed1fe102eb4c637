"""tirx.atoms.instruction: what the PTX table knows of an instruction, read
through the C API (tirxInstructionParse), so that nothing of an atom is
retyped in Python (issue 35, item 3)."""
import pytest

from tirx.atoms import instruction
from tirx.cuda.axis import laneid, wgid, wid_in_wg
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


def test_atom_tiles_are_the_hand_written_layouts():
    """Atom.tile gives the block layouts examples/python/gemm.py typed by hand
    before: the table's fragments, repeated after their registers and over
    the warps (the layout algebra's logical product)."""
    from tirx.atoms import Atom
    from tirx.cuda.axis import warpid
    mma = Atom("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
    ldm = Atom("ldmatrix.sync.aligned.m8n8.x4.shared.b16")
    warps, MI, NI = 4, 2, 8
    acc, shape = mma.tile("d", (MI, NI), units=warps)
    assert shape == (warps, MI, NI, 16, 8)
    assert acc == TileLayout(S[(warps, MI, NI, 2, 8, 4, 2) :
                               (1 @ warpid, 4 * NI, 4, 2, 4 @ laneid, 1 @ laneid, 1)])
    assert mma.tile("a", MI, units=warps)[0] == TileLayout(
        S[(warps, MI, 2, 8, 2, 4) : (1 @ warpid, 4, 1, 4 @ laneid, 2, 1 @ laneid)])
    assert mma.tile("b", NI, units=warps)[0] == TileLayout(
        S[(warps, NI, 8, 2, 4) : (1 @ warpid, 2, 4 @ laneid, 1, 1 @ laneid)])
    assert ldm.tile("d", MI, units=warps) == (
        TileLayout(S[(warps, MI, 4, 8, 4) : (1 @ warpid, 4, 1, 4 @ laneid, 1 @ laneid)]),
        (warps, MI, 4, 8, 4))
    # Without repeats or units: the fragment itself, over the atom.
    wgmma = Atom("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16")
    assert wgmma.tile("d") == (wgmma.fragment("d"), (64, 128))
    # Over two warpgroups, given as an arrangement on wgid.
    two, shape = wgmma.tile("d", units=S[2 : 1 @ wgid])
    assert shape == (2, 64, 128) and str(two).startswith("S[(2, 4, 2, 8, 16, 4, 2) : (1@wgid, ")


def test_atom_misuse_is_located():
    from tirx import CompileError
    from tirx.atoms import Atom
    from tirx.cuda.axis import warpid
    here = r"test_atoms.py:[0-9]+: "
    wgmma = Atom("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16")
    with pytest.raises(CompileError, match=here + "wgmma.mma_async.sync.aligned.m64n128k16.f32."
                       "bf16.bf16 is executed by a warpgroup: tile its fragment over "
                       "warpgroups \\(wgid\\), not over warpid"):
        wgmma.tile("d", units=S[2 : 1 @ warpid])
    with pytest.raises(CompileError, match=here + "operand 'a' of wgmma.* is in memory: it has "
                       "no fragment"):
        wgmma.tile("a")
    with pytest.raises(CompileError, match=here + "operand 'size' of cp.async.ca.shared.global "
                       "is per-thread: it has no fragment"):
        Atom("cp.async.ca.shared.global").fragment("size")
    mma = Atom("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
    with pytest.raises(CompileError, match=here + "repeats must be positive ints, got \\(0,\\)"):
        mma.tile("d", 0)
    with pytest.raises(CompileError, match=here + "units must be a positive int, got 0"):
        mma.tile("d", units=0)
    shfl_atom = Atom("shfl.sync.bfly.b32")
    assert shfl_atom.tile("d", units=2)[1] == (2, 32)
    st = Atom("st.global.b32")
    with pytest.raises(CompileError, match=here + "operand 'addr' of st.global.b32 is in memory"):
        st.tile("addr", units=2)
