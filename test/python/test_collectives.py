"""Warp collectives from Python (docs/collectives.md): shuffles, votes and
reductions through T.cuda.tile.apply, predicate ("bool") tiles, a storage
seen with other owners (view(..., layout=)), the softmax example down to
PTX, and each misuse as a located CompileError at the user's line."""
import math
import os
import re
import sys

import pytest

import helpers

import tirx
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

TARGET = {"kind": "cuda", "arch": "sm_90"}
LANES = TileLayout(S[(4, 32, 1) : (1 @ warpid, 1 @ laneid, 1)])  # one value per thread
EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python")


def raises(message):
    return pytest.raises(tirx.CompileError, match=re.escape(message))


def line_of(marker):
    return helpers.line_of(__file__, marker)


def compile_kernel(kernel):
    return tirx.compile(kernel, target=TARGET)


def warp_kernel(body, block=128):
    @T.function
    def k(A: T.Tensor((4, 32, 1), "int32", align=4), B: T.Tensor((4, 32, 1), "int32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=block))
        x = T.alloc_local((4, 32, 1), "int32", layout=LANES)
        T.cuda.tile.apply(T.ptx["ld.global.b32"], x, A, scope="cta")
        body(x)
        T.cuda.tile.apply(T.ptx["st.global.b32"], B, x, scope="cta")
    return k


def test_warp_sum_by_shuffles():
    def body(x):
        t = T.alloc_local((4, 32, 1), "int32", layout=LANES)
        for offset in (16, 8, 4, 2, 1):
            T.cuda.tile.apply(T.ptx["shfl.sync.bfly.b32"], t.view(4, 32), x.view(4, 32),
                              T.int32(offset), T.int32(31), T.int32(-1), scope="cta")
            T.cuda.tile.apply(T.ptx["add.s32"], x, x, t, scope="cta")
    ptx = compile_kernel(warp_kernel(body)).ptx
    offsets = re.findall(r"shfl\.sync\.bfly\.b32\s+%r\d+, %r\d+, (\d+), 31, -1;", ptx)
    assert offsets == ["16", "8", "4", "2", "1"]
    assert ".local" not in ptx


def test_votes_reductions_and_predicate_tiles():
    def body(x):
        p = T.alloc_local((4, 32, 1), "bool", layout=LANES)
        T.cuda.tile.apply(T.ptx["setp.gt.s32"], p, x, T.int32(0), scope="cta")
        ballot = T.alloc_local((4, 32, 1), "uint32", layout=LANES)
        T.cuda.tile.apply(T.ptx["vote.sync.ballot.b32"], ballot.view(4, 32), p.view(4, 32),
                          T.int32(-1), scope="cta")
        T.cuda.tile.apply(T.ptx["redux.sync.max.s32"], x.view(4, 32), x.view(4, 32),
                          T.int32(-1), scope="cta")
        T.cuda.tile.apply(T.ptx["selp.b32"], x, ballot, x, p, scope="cta")
    ptx = compile_kernel(warp_kernel(body)).ptx
    for line in (r"setp\.gt\.s32 %p\d+, %r\d+, 0x00000000;",
                 r"vote\.sync\.ballot\.b32\s+%r\d+, %p\d+, -1;",
                 r"redux\.sync\.max\.s32\s+%r\d+, %r\d+, %r\d+;",
                 r"selp\.b32 %r\d+, %r\d+, %r\d+, %p\d+;"):
        assert re.search(line, ptx), line


def test_shuffle_at_thread_scope_is_located():
    def body(x):
        T.cuda.tile.apply(T.ptx["shfl.sync.bfly.b32"], x.view(4, 32), x.view(4, 32),  # MARK-thread
                          T.int32(1), T.int32(31), T.int32(-1), scope="thread")
    with raises(line_of("MARK-thread") + "error: 'tile.apply' op 'shfl.sync.bfly.b32' is a "
                "warp-collective instruction: the 32 lanes of a warp execute it together, "
                "so it needs scope warp, warpgroup or cta, not thread"):
        compile_kernel(warp_kernel(body))


def test_lane_dependent_predicate_is_located():
    def body(x):
        lane_low = T.cuda.thread_idx("x") % 32 < 16
        T.cuda.tile.apply(T.ptx["shfl.sync.bfly.b32"], x.view(4, 32), x.view(4, 32),  # MARK-pred
                          T.int32(1), T.int32(31), T.int32(-1), scope="cta", pred=lane_low)
    with raises(line_of("MARK-pred") + "error: 'tile.apply' op 'shfl.sync.bfly.b32' is a "
                "warp-collective instruction: its predicate must be the same in every lane"):
        compile_kernel(warp_kernel(body))


def test_warp_index_predicate_is_uniform():
    def body(x):
        first_warps = T.cuda.thread_idx("x") // 32 < 2
        T.cuda.tile.apply(T.ptx["shfl.sync.bfly.b32"], x.view(4, 32), x.view(4, 32),
                          T.int32(1), T.int32(31), T.int32(-1), scope="cta", pred=first_warps)
    assert "shfl.sync.bfly.b32" in compile_kernel(warp_kernel(body)).ptx


def test_collective_in_a_lane_dependent_branch_is_located():
    def body(x):
        with T.If(T.cuda.thread_idx("x") % 2 == 0):
            with T.Then():
                T.cuda.tile.apply(T.ptx["redux.sync.add.s32"], x.view(4, 32),  # MARK-branch
                                  x.view(4, 32), T.int32(-1), scope="cta")
    with raises(line_of("MARK-branch") + "error: 'tile.apply' op 'redux.sync.add.s32' is a "
                "warp-collective instruction: it is inside a branch whose condition may "
                "differ between the lanes of a warp"):
        compile_kernel(warp_kernel(body))


def test_wrong_fragment_is_located():
    pairs = TileLayout(S[(4, 2, 16) : (1 @ warpid, 1, 1 @ laneid)])

    def body(x):
        y = T.alloc_local((4, 32), "int32", layout=pairs)
        T.cuda.tile.apply(T.ptx["redux.sync.add.s32"], y, y, T.int32(-1),  # MARK-frag
                          scope="cta")
    with raises(line_of("MARK-frag") + "error: 'tile.apply' op operand #0 (d): atom element 16 "
                "of group (0) is held by laneid=0 warpid=0 in register 1, but the "
                "instruction's fragment S[(32) : (1@laneid)] puts it in lane 16, register 0"):
        compile_kernel(warp_kernel(body))


def test_partial_membermask_is_located():
    def body(x):
        p = T.alloc_local((4, 32), "bool", layout=LANES)
        T.cuda.tile.apply(T.ptx["vote.sync.any.pred"], p, p, T.int32(0xFFFF),  # MARK-mask
                          scope="cta")
    with raises(line_of("MARK-mask") + "error: 'tile.apply' op operand #2 (membermask) of "
                "'vote.sync.any.pred': membermask 0x0000ffff leaves lanes out, but every lane "
                "of the warp executes a tile.apply; use -1 : i32 (0xffffffff)"):
        compile_kernel(warp_kernel(body))


def test_bool_tensor_parameter_is_refused():
    @T.function
    def k(A: T.Tensor((32,), "bool")):  # MARK-bool
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    with raises("an i1 (predicate) tensor lives in registers and must be local, not global"):
        compile_kernel(k)


def test_view_with_a_layout_beyond_the_storage_is_located():
    def body(x):
        s = T.alloc_shared((4,), "int32")
        s.view(4, 32, 2, layout=S[(4, 32, 2) : (1, 0, 1)])  # MARK-span
    with raises(line_of("MARK-span") + "error: 'tirx.reinterpret' op the result reaches 5 "
                "elements of storage but the source has only 4"):
        compile_kernel(warp_kernel(body))


def test_softmax_example_down_to_ptx():
    sys.path.insert(0, EXAMPLES)
    try:
        import softmax
    finally:
        sys.path.remove(EXAMPLES)
    compiled = compile_kernel(softmax.make_kernel(threads=256, chunks=4))
    ptx = compiled.ptx
    # Two block reductions: 5 butterfly steps in each warp, one barrier, 3
    # more over the 8 warps.
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == 16
    assert len(re.findall(r"bar\.sync\s+0;", ptx)) == 2
    # 4 chunks of one 16-byte load and store per thread, each predicated by
    # chunk < cols; 16 exponentials.
    assert len(re.findall(r"@%tirx_p ld\.global\.v4\.b32", ptx)) == 4
    assert len(re.findall(r"@%tirx_p st\.global\.v4\.b32", ptx)) == 4
    assert len(re.findall(r"ex2\.approx\.ftz\.f32", ptx)) == 16
    assert ".local" not in ptx
    assert [v.name for v in compiled.size_vars] == ["rows", "cols"]


def test_cta_reduce_and_warp_reduce():
    """T.cuda.cta_reduce: 5 butterflies per warp, one barrier, log2(warps)
    more; T.cuda.warp_reduce(width=8): 3 butterflies."""
    def body(x):
        T.cuda.cta_reduce(x, "max")
        T.cuda.warp_reduce(x, "sum", width=8)
    ptx = compile_kernel(warp_kernel(body)).ptx
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == 5 + 2 + 3
    assert len(re.findall(r"bar\.sync\s+0;", ptx)) == 1
    assert len(re.findall(r"max\.s32", ptx)) == 7
    assert len(re.findall(r"add\.s32", ptx)) == 3


@pytest.mark.parametrize("make, marker, message", [
    (lambda x: T.cuda.cta_reduce(T.alloc_shared((4, 32, 1), "int32")),  # MARK-r1
     "MARK-r1", "a reduction needs a local tile of one value per thread, got a shared tensor"),
    (lambda x: T.cuda.cta_reduce(T.int32(1)),  # MARK-r2
     "MARK-r2", "a reduction needs a local tile of one value per thread, got "),
    (lambda x: T.cuda.cta_reduce(x.view(4, 32)),  # MARK-r3
     "MARK-r3", "a reduction needs a (warps, 32, 1) tile (one value per thread), got shape "
                "(4, 32)"),
    (lambda x: T.cuda.cta_reduce(x, "prod"),  # MARK-r4
     "MARK-r4", "unknown reduction 'prod'; expected one of sum, max, min"),
    (lambda x: T.cuda.cta_reduce(T.alloc_local((4, 32, 1), "float16", layout=LANES)),  # MARK-r5
     "MARK-r5", "sum reductions take float32, int32, uint32 tiles, got float16"),
    (lambda x: T.cuda.warp_reduce(x, "sum", width=3),  # MARK-r6
     "MARK-r6", "width must be 2, 4, 8, 16 or 32 lanes, got 3"),
])
def test_reduction_misuse_is_located(make, marker, message):
    with raises(line_of(marker) + message):
        compile_kernel(warp_kernel(make))


def test_cta_reduce_needs_a_power_of_two_of_warps():
    @T.function
    def k(A: T.Tensor((3, 32, 1), "int32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=96))
        x = T.alloc_local((3, 32, 1), "int32",
                          layout=TileLayout(S[(3, 32, 1) : (1 @ warpid, 1 @ laneid, 1)]))
        T.cuda.cta_reduce(x)  # MARK-pow2
    with raises(line_of("MARK-pow2") + "cta_reduce needs a power-of-two number of warps, got 3"):
        compile_kernel(k)


def test_rmsnorm_example_down_to_ptx():
    sys.path.insert(0, EXAMPLES)
    try:
        import rmsnorm
    finally:
        sys.path.remove(EXAMPLES)
    compiled = compile_kernel(rmsnorm.make_kernel(threads=256, chunks=2))
    ptx = compiled.ptx
    # x and w: 2 chunks of one 16-byte load per thread each; y: 2 stores.
    assert len(re.findall(r"@%tirx_p ld\.global\.v4\.b32", ptx)) == 4
    assert len(re.findall(r"@%tirx_p st\.global\.v4\.b32", ptx)) == 2
    assert len(re.findall(r"cvt\.f32\.bf16", ptx)) == 32
    assert len(re.findall(r"cvt\.rn\.bf16x2\.f32", ptx)) == 8
    assert len(re.findall(r"bar\.sync\s+0;", ptx)) == 1
    assert re.search(r"rsqrt\.approx\.f32", ptx)
    assert ".local" not in ptx
