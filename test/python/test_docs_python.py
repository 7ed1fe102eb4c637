"""The code blocks of docs/python.md's Conditions, Benchmarking and Recipes
sections run as written: each kernel block is executed and every kernel it
defines compiled to PTX (sm_90), with what the prose says of it checked; the
benchmarking block runs against the fake torch.cuda of test_testing.py."""
import os
import re
import sys

import pytest

import tirx
from tirx.cuda.axis import laneid, warpid
from tirx.layout import S, TileLayout
from tirx.script import tirx as T

from test_testing import FakeTorch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = {"kind": "cuda", "arch": "sm_90"}


def section_blocks(heading):
    """The ```python blocks between `heading` (a whole line) and the next
    heading of the same or a higher level."""
    text = open(os.path.join(ROOT, "docs", "python.md")).read()
    level = len(heading) - len(heading.lstrip("#"))
    start = text.index("\n" + heading + "\n")
    following = re.compile(r"\n#{1,%d} " % level)
    match = following.search(text, start + 1 + len(heading))
    body = text[start:match.start() if match else len(text)]
    return re.findall(r"```python\n(.*?)```", body, re.S)


def run_block(code):
    """Executes a block with the names the page's examples assume
    imported; returns its namespace."""
    namespace = {"T": T, "S": S, "TileLayout": TileLayout, "laneid": laneid,
                 "warpid": warpid, "tirx": tirx}
    exec(compile(code, "docs/python.md", "exec"), namespace)
    return namespace


def kernels(namespace):
    from tirx._function import Function
    return {name: value for name, value in namespace.items()
            if isinstance(value, Function) and not value.private}


def test_sections_have_blocks():
    assert len(section_blocks("### Conditions")) == 1
    assert len(section_blocks("## Benchmarking")) == 1
    assert len(section_blocks("## Recipes")) == 1


def test_conditions_block():
    (code,) = section_blocks("### Conditions")
    found = kernels(run_block(code))
    assert list(found) == ["copy_2d"]
    compiled = tirx.compile(found["copy_2d"], target=TARGET)
    ir = compiled.source_ir
    # `(r < M) & (c < N)` is an andi of two cmpi; `~(r >= M)` a cmpi slt.
    assert re.search(r"arith.andi %cmp\d+, %cmp\d+ : i1", ir)
    assert len(re.findall(r"%not\d+ = arith.cmpi slt", ir)) == 2
    assert "arith.xori" not in ir
    # Both accesses proven: the load predicated, the store in a branch.
    assert re.search(r"@%p\d+ ld.global.(f|b)32|@%tirx_p ld.global.b32", compiled.ptx)
    assert "st.global.b32" in compiled.ptx


def test_recipes_block():
    (code,) = section_blocks("## Recipes")
    found = kernels(run_block(code))
    assert list(found) == ["row_sums"]
    ptx = tirx.compile(found["row_sums"], target=TARGET).ptx
    # Per thread: 3 adds of its own values; cta_reduce: 5 + 3 butterflies;
    # one store, predicated on thread 0.
    assert ptx.count("shfl.sync.bfly.b32") == 8
    stores = [line.strip() for line in ptx.splitlines() if "st.global" in line]
    assert len(stores) == 1 and re.match(r"@%\w+ st.global.b32 ", stores[0]), stores
    assert ".local" not in ptx


def test_recipe_k_results_from_one_thread():
    # The prose's variant: k = 4 results per thread stored by thread 0 as one
    # vector store through S[(warps, 32, 4) : (0, 0, 1)].
    warps = 8
    lanes4 = TileLayout(S[(warps, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
    one4 = TileLayout(S[(warps, 32, 4) : (0, 0, 1)])

    @T.function
    def k(Out: T.Tensor((64, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=64, block=warps * 32))
        row = T.cuda.block_idx("x")
        t = T.alloc_local((warps, 32, 4), "float32", layout=lanes4)
        T.cuda.tile.apply(T.ptx["mov.b32"], t.view(warps, 32, 4, 1), T.float32(1), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"],
                          Out.sub[row, :].view(warps, 32, 4, layout=one4), t,
                          scope="cta", pred=T.cuda.thread_idx("x") == 0)
    ptx = tirx.compile(k, target=TARGET).ptx
    stores = [line.strip() for line in ptx.splitlines() if "st.global" in line]
    assert len(stores) == 1 and re.match(r"@%\w+ st.global.v4.b32 ", stores[0]), stores


def test_benchmarking_block(monkeypatch):
    (code,) = section_blocks("## Benchmarking")
    fake = FakeTorch()
    monkeypatch.setitem(sys.modules, "torch", fake)
    calls = []

    def affine_relu(a, b):
        calls.append((a, b))
        fake.now += 0.004  # 4 us per call on the fake GPU

    class Tensor:
        def numel(self):
            return 256

        def element_size(self):
            return 4
    a, b = Tensor(), Tensor()
    namespace = {"affine_relu": affine_relu, "a": a, "b": b}
    exec(compile(code, "docs/python.md", "exec"), namespace)
    assert namespace["ms"] == pytest.approx(0.004)
    assert namespace["median"] == pytest.approx(0.004)
    assert (namespace["p50"], namespace["p20"], namespace["p80"]) == \
        pytest.approx((0.004,) * 3)
    assert namespace["gbps"] == pytest.approx(2 * 256 * 4 / 4e-6 / 1e9)
    assert calls and all(call == (a, b) for call in calls)
