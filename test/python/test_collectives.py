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


def example(name):
    """An example module of examples/python."""
    sys.path.insert(0, EXAMPLES)
    try:
        return __import__(name)
    finally:
        sys.path.remove(EXAMPLES)


def softmax_counts(compiled):
    """What a softmax kernel's PTX is made of."""
    ptx = compiled.ptx
    patterns = {"shuffles": r"shfl\.sync\.bfly\.b32", "barriers": r"bar\.sync\s+0;",
                "loads": r"@%tirx_p ld\.global\.v4\.b32",
                "stores": r"@%tirx_p st\.global\.v4\.b32", "exponentials": r"ex2\.approx\.ftz\.f32",
                "spills": r"\.local"}
    counts = {key: len(re.findall(pattern, ptx)) for key, pattern in patterns.items()}
    counts["sizes"] = [(v.name, v.multiple_of) for v in compiled.size_vars]
    return counts


def test_softmax_example_down_to_ptx():
    compiled = compile_kernel(example("softmax").make_kernel(threads=256, chunks=4))
    # Two block reductions: 5 butterfly steps in each warp, one barrier, 3
    # more over the 8 warps; 4 chunks of one 16-byte load and store per
    # thread, each predicated on its columns being inside the row (a masked
    # region: cols need only be a multiple of 4); 16 exponentials.
    assert softmax_counts(compiled) == {
        "shuffles": 16, "barriers": 2, "loads": 4, "stores": 4, "exponentials": 16,
        "spills": 0, "sizes": [("rows", 1), ("cols", 4)]}


def combine_depth(ptx, instruction, after=None):
    """The longest chain of dependent `instruction`s with which each thread
    combines its own values: those after the first line matching `after`
    (from the start if None) and before the next shuffle."""
    lines = ptx.splitlines()
    start = 0 if after is None else next(i for i, line in enumerate(lines)
                                         if re.search(after, line))
    depth = {}
    for line in lines[start:]:
        if "shfl.sync" in line:
            break
        match = re.match(r"\s*%s\s+(%%\w+),\s*(%%\w+),\s*(%%\w+);" % re.escape(instruction),
                         line)
        if match:
            result, *operands = match.groups()
            depth[result] = 1 + max(depth.get(operand, 0) for operand in operands)
    return max(depth.values())


def test_softmax_combines_each_threads_values_as_a_tree():
    """Each thread's max and sum of its n values take n / 8 - 1 + 3
    dependent steps (8 partial values, then a tree), not n - 1: latency
    on the path from the row's loads to its stores (bench/RESULTS.md)."""
    softmax = example("softmax")
    for threads, chunks, depth in ((256, 4, 4), (1024, 8, 6), (1024, 1, 2)):
        ptx = compile_kernel(softmax.make_kernel(threads=threads, chunks=chunks)).ptx
        assert combine_depth(ptx, "max.f32") == depth
        assert combine_depth(ptx, "add.rn.f32", after=r"ex2\.approx") == depth
    ptx = compile_kernel(softmax.make_grouped_kernel(threads=1024, chunks=2,
                                                     rows_per_cta=2)).ptx
    assert combine_depth(ptx, "max.f32") == 3


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
     "MARK-r3", "a reduction needs a (warps, 32, 1) tile (one value per thread) or a "
                "warp-scope (32, n) tile, got shape (4, 32)"),
    (lambda x: T.cuda.cta_reduce(x, "prod"),  # MARK-r4
     "MARK-r4", "unknown reduction 'prod'; expected one of sum, max, min"),
    (lambda x: T.cuda.cta_reduce(T.alloc_local((4, 32, 1), "float16", layout=LANES)),  # MARK-r5
     "MARK-r5", "sum reductions take float32, int32, uint32 tiles, got float16"),
    (lambda x: T.cuda.warp_reduce(x, "sum", width=3),  # MARK-r6
     "MARK-r6", "width must be 2, 4, 8, 16 or 32 lanes, got 3"),
    (lambda x: T.cuda.cta_reduce(T.alloc_local(  # MARK-r7
        (32, 1), "float32", layout=TileLayout(S[(32, 1) : (1 @ laneid, 1)]))),
     "MARK-r7", "cta_reduce needs a (warps, 32, 1) tile (one value per thread), got shape "
                "(32, 1); group_reduce takes warp-scope tiles"),
])
def test_reduction_misuse_is_located(make, marker, message):
    with raises(line_of(marker) + message):
        compile_kernel(warp_kernel(make))


def group_kernel(body, block=1024, values=2):
    """Each warp loads its (32, values) tile, calls body on it, stores it."""
    lanes = TileLayout(S[(32, values) : (1 @ laneid, 1)])

    @T.function
    def k(A: T.Tensor((32 * 32 * values,), "float32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=block))
        x = T.alloc_local((32, values), "float32", layout=lanes)
        first = T.cuda.thread_idx("x") // 32 * (32 * values)
        T.cuda.tile.apply(T.ptx["ld.global.b32"], x.view(32, values, 1),
                          A.sub[first:first + 32 * values].view(32, values, 1), scope="warp")
        body(x)
        T.cuda.tile.apply(T.ptx["st.global.b32"], A.sub[first:first + 32 * values].view(
            32, values, 1), x.view(32, values, 1), scope="warp")
    return k


@pytest.mark.parametrize("warps, shuffles", [(16, 2 * (5 + 4)), (4, 2 * (5 + 2)), (1, 2 * 5)])
def test_group_reduce(warps, shuffles):
    """T.cuda.group_reduce over groups of `warps` warps: 5 butterflies per
    value, one barrier (none for single-warp groups), log2(warps) more; lane
    0 of each warp writes its two values, every lane reads its group's."""
    ptx = compile_kernel(group_kernel(lambda x: T.cuda.group_reduce(x, "max", warps=warps))).ptx
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == shuffles
    assert len(re.findall(r"max\.f32", ptx)) == shuffles
    assert len(re.findall(r"bar\.sync\s+0;", ptx)) == (warps > 1)
    assert len(re.findall(r"@%tirx_p st\.shared\.b32", ptx)) == 2 * (warps > 1)
    assert len(re.findall(r"\tld\.shared\.b32", ptx)) == 2 * (warps > 1)
    assert ".local" not in ptx


@pytest.mark.parametrize("make, marker, message", [
    (lambda x: T.cuda.group_reduce(x, "max", warps=3),  # MARK-g1
     "MARK-g1", "group_reduce: warps must be a power of two in [1, 32], got 3"),
    (lambda x: T.cuda.group_reduce(x, "max", warps=64),  # MARK-g2
     "MARK-g2", "group_reduce: warps must be a power of two in [1, 32], got 64"),
    (lambda x: T.cuda.group_reduce(x.view(64, 1), "sum", warps=2),  # MARK-g3
     "MARK-g3", "group_reduce needs a (32, n) tile (n values per lane), got shape (64, 1)"),
    (lambda x: T.cuda.group_reduce(x, "prod", warps=2),  # MARK-g4
     "MARK-g4", "unknown reduction 'prod'; expected one of sum, max, min"),
    (lambda x: T.cuda.group_reduce(T.alloc_shared((32, 2), "float32"), warps=2),  # MARK-g5
     "MARK-g5", "group_reduce needs a local (32, n) tile of n values per lane"),
    (lambda x: T.cuda.group_reduce(T.alloc_local(  # MARK-g6
        (32, 1), "float16", layout=TileLayout(S[(32, 1) : (1 @ laneid, 1)])), warps=2),
     "MARK-g6", "sum reductions take float32, int32, uint32 tiles, got float16"),
])
def test_group_reduce_misuse_is_located(make, marker, message):
    with raises(line_of(marker) + message):
        compile_kernel(group_kernel(make))


@pytest.mark.parametrize("block, extents", [(256, "(256,)"), (1040, "(1040,)"),
                                            ((512, 2), "(512, 2)")])
def test_group_reduce_needs_groups_that_divide_the_block(block, extents):
    """Groups of 16 warps in 8 warps, in a partial warp, or in a 2-D block:
    the groups would read slots no warp wrote."""
    def body(x):
        T.cuda.group_reduce(x, "sum", warps=16)  # MARK-gb
    with raises(line_of("MARK-gb") + "group_reduce needs a one-dimensional block of whole "
                "warps that groups of 16 warps divide, got block " + extents):
        compile_kernel(group_kernel(body, block=block))


def test_warp_reduce_and_group_exchange_at_warp_scope():
    """T.cuda.warp_reduce on a warp-scope (32, 2) tile: 3 butterflies per
    value over 8 lanes; T.cuda.group_exchange over groups of 4 warps: lane 0
    of each warp writes its two values, one barrier, every lane reads two of
    its group's, no shuffle."""
    ptx = compile_kernel(group_kernel(lambda x: T.cuda.warp_reduce(x, "min", width=8))).ptx
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == 2 * 3
    assert len(re.findall(r"min\.f32", ptx)) == 2 * 3
    assert "bar.sync" not in ptx
    ptx = compile_kernel(group_kernel(lambda x: T.cuda.group_exchange(x, warps=4))).ptx
    assert "shfl.sync" not in ptx
    assert len(re.findall(r"bar\.sync\s+0;", ptx)) == 1
    assert len(re.findall(r"@%tirx_p st\.shared\.b32", ptx)) == 2
    assert len(re.findall(r"\tld\.shared\.b32", ptx)) == 2
    # Lane l of warp w reads slots (w / 4 * 4 + l % 4) * 2 + (0, 1): bytes
    # (w / 4) * 32 + (8 l mod 32) + (0, 4).
    assert re.search(r"and\.b64\s+%rd\d+, %rd\d+, 24;", ptx)
    assert re.search(r"and\.b64\s+%rd\d+, %rd\d+, 224;", ptx)


@pytest.mark.parametrize("make, marker, message", [
    (lambda x: T.cuda.group_exchange(x, warps=6),  # MARK-x1
     "MARK-x1", "group_exchange: warps must be a power of two in [1, 32], got 6"),
    (lambda x: T.cuda.group_exchange(T.alloc_shared((32, 2), "float32"), warps=2),  # MARK-x2
     "MARK-x2", "group_exchange needs a local (32, n) tile of n values per lane"),
    (lambda x: T.cuda.group_exchange(x.view(64, 1), warps=2),  # MARK-x3
     "MARK-x3", "group_exchange needs a (32, n) tile (n values per lane), got shape (64, 1)"),
])
def test_group_exchange_misuse_is_located(make, marker, message):
    with raises(line_of(marker) + message):
        compile_kernel(group_kernel(make))


def test_group_exchange_needs_groups_that_divide_the_block():
    def body(x):
        T.cuda.group_exchange(x, warps=16)  # MARK-xb
    with raises(line_of("MARK-xb") + "group_exchange needs a one-dimensional block of whole "
                "warps that groups of 16 warps divide, got block (256,)"):
        compile_kernel(group_kernel(body, block=256))


def test_reductions_in_a_loop_release_their_slots():
    """In a T.serial loop one call's shared slots serve every iteration: a
    second barrier after the reads keeps a fast warp's next writes from
    overtaking a slow warp's reads. A T.unroll loop traces one call, with
    its own slots, per iteration: one barrier each."""
    def serial_cta(x):
        for _ in T.serial(3):
            T.cuda.cta_reduce(x, "max")

    def unrolled_cta(x):
        for _ in T.unroll(2):
            T.cuda.cta_reduce(x, "max")

    def serial_group(x):
        for _ in T.serial(3):
            T.cuda.group_reduce(x, "sum", warps=4)
    barriers = lambda ptx: len(re.findall(r"bar\.sync\s+0;", ptx))
    ptx = compile_kernel(warp_kernel(serial_cta)).ptx
    assert barriers(ptx) == 2
    # The second barrier comes after the reads, inside the loop.
    lines = ptx.splitlines()
    read = next(i for i, line in enumerate(lines) if re.search(r"\tld\.shared\.b32", line))
    assert any(re.search(r"bar\.sync\s+0;", line) for line in lines[read:])
    assert barriers(compile_kernel(warp_kernel(unrolled_cta)).ptx) == 2
    assert len(re.findall(r"\.shared \.align \d+ \.b8 \w+\[", compile_kernel(
        warp_kernel(unrolled_cta)).ptx)) == 2
    assert barriers(compile_kernel(group_kernel(serial_group)).ptx) == 2


def test_group_reduce_before_the_launch_is_located():
    @T.function
    def k(A: T.Tensor((64,), "float32", align=4)):
        x = T.alloc_local((32, 1), "float32", layout=TileLayout(S[(32, 1) : (1 @ laneid, 1)]))
        T.cuda.group_reduce(x, "sum", warps=2)  # MARK-ge
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    with raises(line_of("MARK-ge") + "group_reduce comes after T.device_entry (it needs the "
                "block's warps)"):
        compile_kernel(k)


def test_cta_reduce_needs_a_power_of_two_of_warps():
    @T.function
    def k(A: T.Tensor((3, 32, 1), "int32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=96))
        x = T.alloc_local((3, 32, 1), "int32",
                          layout=TileLayout(S[(3, 32, 1) : (1 @ warpid, 1 @ laneid, 1)]))
        T.cuda.cta_reduce(x)  # MARK-pow2
    with raises(line_of("MARK-pow2") + "cta_reduce needs a power-of-two number of warps, got 3"):
        compile_kernel(k)


def test_grouped_softmax_example_down_to_ptx():
    """Two rows per CTA of 1024 threads (examples/python/softmax.py's
    make_grouped_kernel): warp-scope loads and stores whose regions start at
    the warp's row and columns, online statistics with one barrier."""
    compiled = compile_kernel(example("softmax").make_grouped_kernel(
        threads=1024, chunks=2, rows_per_cta=2))
    # 5 butterflies in the warp for its max and its sum, one exchange of the
    # (shift, sum) pairs, 4 over the group's 16 warps for each; 8
    # exponentials, and one per warp for the sum's weight and the scale.
    assert softmax_counts(compiled) == {
        "shuffles": 2 * (5 + 4), "barriers": 1, "loads": 2, "stores": 2, "exponentials": 8 + 2,
        "spills": 0, "sizes": [("rows", 1), ("cols", 4)]}
    ptx = compiled.ptx
    assert len(re.findall(r"@%tirx_p st\.shared\.b32", ptx)) == 2
    assert len(re.findall(r"min\.f32 %r\d+, %r\d+, 0f7F7FFFFF;", ptx)) == 1  # the cap
    assert len(re.findall(r"\tmin\.f32", ptx)) == 1 + 4
    # The grid is ceil(rows / 2) CTAs of 1024 threads (a last row past
    # `rows` is masked).
    assert re.search(r"\.(maxntid|reqntid) 1024, 1, 1", compiled.ptx)
    assert compiled.launch.grid[0].evaluate({"rows": 5, "cols": 8}) == 3


def test_softmax_picks_rows_per_cta():
    """softmax(x)'s choice for the shapes it was measured on (config_for,
    which softmax(x) compiles; test_example_shapes.py has the others)."""
    softmax = example("softmax")
    chosen = {shape: softmax.config_for(*shape)[:4] for shape in (
        (32768, 4096), (65536, 2048), (40, 1024), (3, 4096), (64, 3072),
        (16384, 8192), (8192, 16384), (2, 2048))}
    # (threads, chunks, rows per CTA, online statistics)
    assert chosen == {
        (32768, 4096): (1024, 2, 2, False), (65536, 2048): (1024, 2, 4, False),
        (40, 1024): (1024, 2, 8, False), (3, 4096): (256, 4, 1, False),
        (64, 3072): (256, 4, 1, False), (16384, 8192): (1024, 2, 1, True),
        (8192, 16384): (1024, 4, 1, False), (2, 2048): (1024, 1, 2, False)}


def test_rmsnorm_example_down_to_ptx():
    compiled = compile_kernel(example("rmsnorm").make_kernel(threads=256, chunks=2))
    ptx = compiled.ptx
    # x and w: 2 chunks of one 16-byte load per thread each; y: 2 stores.
    assert len(re.findall(r"@%tirx_p ld\.global\.v4\.b32", ptx)) == 4
    assert len(re.findall(r"@%tirx_p st\.global\.v4\.b32", ptx)) == 2
    assert len(re.findall(r"cvt\.f32\.bf16", ptx)) == 32
    assert len(re.findall(r"cvt\.rn\.bf16x2\.f32", ptx)) == 8
    assert len(re.findall(r"bar\.sync\s+0;", ptx)) == 1
    assert re.search(r"rsqrt\.approx\.f32", ptx)
    assert ".local" not in ptx
