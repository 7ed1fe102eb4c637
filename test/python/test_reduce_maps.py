"""The lane maps of the reduction helpers (python/tirx/_reduce.py,
docs/collectives.md), derived from their layouts and checked against their
definitions: test/gpu/run_reductions.py's kernels traced, then run by
ir_interpreter.py, which takes every owner thread, register slot and shared
word from TileLayout.apply on the operands' types.

- Which shared slot each warp writes (lane 0 of warp w: slot w for
  cta_reduce, w n .. w n + n - 1 for group_reduce and group_exchange), which
  warp's slot each lane of the second stage reads (lane l of warp w: warp
  l % warps, or (w / warps) warps + l % warps for groups), and which inputs
  reach each thread's result (every member of its group exactly once): a
  symbolic run, each input word its own tag.
- No shared word is touched by two threads between two barriers, one of
  them writing (the loop cases need the second barrier).
- The GPU script's numpy expectations hold for the traced kernels (every
  case, numeric run, bit for bit), and fail for kernels traced with a
  mutated _reduce.py (every lane reading warp 0's slot; butterflies without
  offset 1): a wrong lane map cannot pass on the GPU."""
import importlib.util
import os
import sys

import numpy as np
import pytest

import ir_interpreter
from tirx._function import Module
from tirx.script import tirx as T

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gpu"))
import run_reductions as gpu  # noqa: E402

REDUCE_PY = os.path.join(HERE, "..", "..", "python", "tirx", "_reduce.py")


def trace(case):
    return gpu.make_kernel(case).trace_kernel(Module("reduction"))


def one_cta(case):
    case.grid = 1
    return case


def members(case, w, lane, i):
    """The definition: the flat indices of the input words that output word
    (warp w, lane, value i) of CTA 0 must hold once each."""
    n, gw, gl = case.values, case.group_warps, case.group_lanes
    if case.helper == "group_exchange":
        return np.array([flat(case, w // gw * gw + lane % gw, 0, i)])
    warps = np.arange(w // gw * gw, w // gw * gw + gw)[:, None]
    lanes = np.arange(lane // gl * gl, lane // gl * gl + gl)[None, :]
    return np.sort(flat(case, warps, lanes, i).reshape(-1))


def flat(case, w, lane, i):
    return (w * 32 + lane) * case.values + i


SLOT_CASES = (
    [gpu.Case("cta_reduce", "sum", "uint32", w, group_warps=w) for w in (1, 2, 4, 8, 16, 32)]
    + [gpu.Case(helper, op, "uint32", warps, group_warps=group, values=values)
       for helper, op in (("group_reduce", "sum"), ("group_exchange", None))
       for warps, group, values in ((32, 1, 2), (32, 2, 2), (32, 4, 2), (32, 8, 2),
                                    (32, 16, 2), (32, 32, 2), (8, 2, 3), (8, 8, 1))]
    + [gpu.Case(helper, "max", "float32", 4, width=width, values=values)
       for helper, values in (("warp_reduce_cta", 1), ("warp_reduce_warp", 2))
       for width in (2, 4, 8, 16, 32)])


@pytest.mark.parametrize("case", [one_cta(c) for c in SLOT_CASES], ids=lambda c: c.name)
def test_lane_maps_follow_the_definitions(case):
    run = ir_interpreter.interpret(trace(case), {"A": True, "B": None}, symbolic=True)
    n, gw = case.values, case.group_warps
    # Shared slots: lane 0 of warp w writes w (cta_reduce) or w n + i, and
    # nothing else writes.
    writes = [e for e in run.events if e[0] == "write"]
    reads = [e for e in run.events if e[0] == "read"]
    cross_warp = case.helper == "group_exchange" or (
        case.helper in ("cta_reduce", "group_reduce") and gw > 1)
    assert bool(writes) == cross_warp and bool(reads) == cross_warp
    writer = {}
    for _, _, threads, words, _ in writes:
        for t, word in zip(threads.tolist(), words.tolist()):
            assert t % 32 == 0, "lane %d of warp %d writes a shared slot" % (t % 32, t // 32)
            assert word not in writer, "two writes to slot %d" % word
            writer[word] = t // 32
    if cross_warp:
        assert writer == {w * n + i: w for w in range(case.warps) for i in range(n)}
    # The second stage: lane l of warp w reads n slots, each of warp
    # l % warps of its group.
    read = {}
    for _, _, threads, words, _ in reads:
        for t, word in zip(threads.tolist(), words.tolist()):
            assert word in writer, "thread %d reads slot %d, which no warp wrote" % (t, word)
            read.setdefault(t, []).append(word)
    if cross_warp:
        for t in range(32 * case.warps):
            w, lane = divmod(t, 32)
            source = w // gw * gw + lane % gw
            assert sorted(read[t]) == [source * n + i for i in range(n)], \
                "lane %d of warp %d reads the slots of warps %s, not of warp %d" % (
                    lane, w, sorted({writer[word] for word in read[t]}), source)
    assert ir_interpreter.races(run) == []
    # What reaches each thread's result: its group's inputs, once each.
    counts = run.globals["B"]
    first = run.tags.index(("A", 0))
    for w in range(case.warps):
        for lane in range(32):
            for i in range(n):
                got = counts[flat(case, w, lane, i)]
                want = members(case, w, lane, i)
                reached = np.flatnonzero(got)
                if np.array_equal(reached, first + want) and np.all(got[reached] == 1):
                    continue
                held = [(divmod(run.tags[k][1] // n, 32) if k else "never written",
                         int(got[k])) for k in reached]
                pytest.fail("warp %d lane %d value %d holds ((warp, lane), count) %s..., not "
                            "its group's %d inputs once each" % (w, lane, i, held[:6],
                                                                 want.size))


@pytest.mark.parametrize("case", [one_cta(gpu.Case("cta_reduce", "sum", "int32", 8,
                                                   group_warps=8, iters=3)),
                                  one_cta(gpu.Case("group_reduce", "max", "float32", 32,
                                                   group_warps=4, values=2, iters=3)),
                                  one_cta(gpu.Case("group_exchange", None, "uint32", 32,
                                                   group_warps=8, values=2, iters=3))],
                         ids=lambda c: c.name)
def test_a_loop_reuses_the_slots_after_a_barrier(case):
    """In a T.serial loop one call site's slots serve every iteration: no
    warp may write them again before every warp has read them."""
    run = ir_interpreter.interpret(trace(case), {"A": gpu.inputs(case, 0), "B": None})
    assert ir_interpreter.races(run) == []


def interpret_case(index, case):
    data = gpu.inputs(case, index)
    run = ir_interpreter.interpret(trace(case), {"A": data, "B": None})
    return gpu.expected(case, data), run.globals["B"].view(data.dtype).reshape(case.shape), run


def test_gpu_expectations_hold_for_the_traced_helpers():
    """Every case of run_reductions.py, run on the CPU from the IR the GPU
    compiles: bit for bit its numpy expectation, with no shared-memory race."""
    failed = []
    for index, case in enumerate(gpu.cases()):
        want, got, run = interpret_case(index, case)
        if len(gpu.mismatches(case, got, want)) or ir_interpreter.races(run):
            failed.append(case.name)
    assert failed == []


# (what goes wrong, _reduce.py's text -> the mutated text, the cases it touches)
MUTATIONS = [
    ("cta_reduce: every lane reads warp 0's slot",
     [("S[(warps, 32 // warps, warps, 1) : (0, 0, 1, 1)]",
       "S[(warps, 32 // warps, warps, 1) : (0, 0, 0, 1)]")],
     lambda c: c.helper == "cta_reduce" and c.group_warps > 1),
    ("group_exchange: every lane reads its group's first warp's slots",
     [("S[(32 // warps, warps, values, 1) : (0, values, 1, 1)]",
       "S[(32 // warps, warps, values, 1) : (0, 0, 1, 1)]")],
     lambda c: c.helper in ("group_reduce", "group_exchange") and c.group_warps > 1),
    ("butterflies without offset 1",
     [("        offsets.append(width)\n",
       "        offsets.append(width) if width > 1 else None\n")],
     lambda c: c.helper != "group_exchange"),
]


def mutated_reduce(replacements):
    """python/tirx/_reduce.py with `replacements` made, as a module of the
    tirx package."""
    text = open(REDUCE_PY).read()
    for old, new in replacements:
        assert text.count(old) == 1, "the mutation's text is not in _reduce.py: %r" % old
        text = text.replace(old, new)
    spec = importlib.util.spec_from_loader("tirx._reduce_mutated", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "tirx"
    exec(compile(text, REDUCE_PY, "exec"), module.__dict__)
    return module


@pytest.mark.parametrize("what, replacements, touched", MUTATIONS,
                         ids=[m[0] for m in MUTATIONS])
def test_gpu_expectations_reject_a_wrong_lane_map(monkeypatch, what, replacements, touched):
    """Kernels traced with a mutated _reduce.py, run on the CPU, miss the
    GPU script's expectations in every case the mutation touches: the GPU
    check would fail."""
    module = mutated_reduce(replacements)
    for name in ("warp_reduce", "cta_reduce", "group_reduce", "group_exchange"):
        monkeypatch.setattr(T.cuda, name, getattr(module, name))
    passed, touched_cases = [], 0
    for index, case in enumerate(gpu.cases()):
        if not touched(case):
            continue
        touched_cases += 1
        want, got, _ = interpret_case(index, case)
        if not len(gpu.mismatches(case, got, want)):
            passed.append(case.name)
    assert touched_cases and passed == []
