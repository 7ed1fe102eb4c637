"""GPU truth of the reduction helpers of python/tirx/_reduce.py
(docs/collectives.md): T.cuda.cta_reduce, T.cuda.warp_reduce (a (warps, 32,
1) tile at cta scope and a (32, n) tile at warp scope), T.cuda.group_reduce
and T.cuda.group_exchange, for every op (sum, max, min), dtype (float32,
int32, uint32), width and group configuration, against numpy.

Every case's inputs make a wrong lane map change the result: sums of full
32-bit integers (wrapping) or of nonzero integers in float32 (exact, so any
order gives the same bits), where every contributor is in the sum exactly
once; max and min of distinct values, the extreme put in another warp of
its group (for warp_reduce, another lane) in each CTA of the grid, and
unsigned values above 2^31 so that a signed comparison picks another one;
group_exchange of random words, lane l of warp w against lane 0 of warp
(w / warps) warps + l % warps. A few cases run the helper in a T.serial
loop (one call site, its shared slots reused every iteration: the second
barrier). test/python/test_reduce_maps.py runs these very kernels through
an interpreter of their IR on the CPU: the expectations here hold for the
helpers as written and fail under a wrong lane map (e.g. every lane reading
warp 0's slot).

Prints PASS:/FAIL: per case; exit 1 on any failure.
Usage: run_reductions.py [--only=TEXT...]   (cupy, numpy, a CUDA GPU)"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
from tirx.script import tirx as T  # noqa: E402
from tirx.layout import S, TileLayout  # noqa: E402
from tirx.cuda.axis import laneid, warpid  # noqa: E402

OPS = ("sum", "max", "min")
DTYPES = ("float32", "int32", "uint32")
NUMPY = {"float32": np.float32, "int32": np.int32, "uint32": np.uint32}


class Case:
    """One kernel: `helper` on a block of `warps` warps, n `values` per
    thread (warp-scope tiles; 1 for cta-scope ones), in a T.serial loop of
    `iters` iterations when iters > 1. A reduction group is `group_warps`
    consecutive warps times `group_lanes` consecutive lanes."""

    def __init__(self, helper, op, dtype, warps, group_warps=1, width=32, values=1, iters=1):
        self.helper, self.op, self.dtype = helper, op, dtype
        self.warps, self.values, self.iters = warps, values, iters
        self.group_warps, self.group_lanes = group_warps, width
        # Each CTA puts its extremes in another warp (lane) of every group.
        self.grid = group_warps if group_warps > 1 else width

    @property
    def name(self):
        what = {"cta_reduce": "cta_reduce(%s)" % self.op,
                "warp_reduce_cta": "warp_reduce(%s, width=%d), cta scope"
                                   % (self.op, self.group_lanes),
                "warp_reduce_warp": "warp_reduce(%s, width=%d), warp scope"
                                    % (self.op, self.group_lanes),
                "group_reduce": "group_reduce(%s, warps=%d)" % (self.op, self.group_warps),
                "group_exchange": "group_exchange(warps=%d)" % self.group_warps}[self.helper]
        return "%s %s, %d warps, %d value%s, %d CTAs%s" % (
            what, self.dtype, self.warps, self.values, "s" * (self.values > 1), self.grid,
            ", T.serial(%d)" % self.iters if self.iters > 1 else "")

    @property
    def shape(self):
        """The input's and output's shape: (grid, iters, warps, 32, values)."""
        return (self.grid, self.iters, self.warps, 32, self.values)


def cases():
    out = []
    for op in OPS:
        for dtype in DTYPES:
            for warps in (1, 2, 4, 8, 16, 32):
                out.append(Case("cta_reduce", op, dtype, warps, group_warps=warps))
            for width in (2, 4, 8, 16, 32):
                out.append(Case("warp_reduce_cta", op, dtype, 4, width=width))
                out.append(Case("warp_reduce_warp", op, dtype, 4, width=width, values=2))
            for warps, group, values in ((32, 1, 2), (32, 2, 2), (32, 4, 2), (32, 8, 2),
                                         (32, 16, 2), (32, 32, 2), (8, 2, 3), (8, 8, 1)):
                out.append(Case("group_reduce", op, dtype, warps, group_warps=group,
                                values=values))
    for dtype in DTYPES:
        for warps, group, values in ((32, 1, 2), (32, 2, 2), (32, 4, 2), (32, 8, 2),
                                     (32, 16, 2), (32, 32, 2), (8, 2, 3), (8, 8, 1)):
            out.append(Case("group_exchange", None, dtype, warps, group_warps=group,
                            values=values))
    # One call site serving every iteration of a loop kept on the GPU.
    out += [Case("cta_reduce", "sum", "int32", 8, group_warps=8, iters=8),
            Case("cta_reduce", "max", "float32", 32, group_warps=32, iters=8),
            Case("group_reduce", "sum", "uint32", 32, group_warps=4, values=2, iters=8),
            Case("group_exchange", None, "uint32", 32, group_warps=8, values=2, iters=8)]
    return out


def make_kernel(case):
    """The kernel of `case`: each CTA loads its (warps, 32, values) slice of
    A per iteration, runs the helper, stores the slice of B."""
    warps, values, dtype = case.warps, case.values, case.dtype
    cta_scope = case.helper in ("cta_reduce", "warp_reduce_cta")
    lanes = TileLayout(S[(warps, 32, 1) : (1 @ warpid, 1 @ laneid, 1)] if cta_scope
                       else S[(32, values) : (1 @ laneid, 1)])

    def helper(x):
        if case.helper == "cta_reduce":
            T.cuda.cta_reduce(x, case.op)
        elif case.helper in ("warp_reduce_cta", "warp_reduce_warp"):
            T.cuda.warp_reduce(x, case.op, width=case.group_lanes)
        elif case.helper == "group_reduce":
            T.cuda.group_reduce(x, case.op, warps=case.group_warps)
        else:
            T.cuda.group_exchange(x, warps=case.group_warps)

    @T.function
    def reduction(A: T.Tensor(case.shape, dtype, align=4),
                  B: T.Tensor(case.shape, dtype, align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=case.grid, block=32 * warps))
        block = T.cuda.block_idx("x")

        def step(i):
            if cta_scope:
                x = T.alloc_local((warps, 32, 1), dtype, layout=lanes)
                T.cuda.tile.apply(T.ptx["ld.global.b32"], x, A.sub[block, i, :, :, :],
                                  scope="cta")
                helper(x)
                T.cuda.tile.apply(T.ptx["st.global.b32"], B.sub[block, i, :, :, :], x,
                                  scope="cta")
            else:
                warp = T.cuda.thread_idx("x") // 32
                x = T.alloc_local((32, values), dtype, layout=lanes)
                T.cuda.tile.apply(T.ptx["ld.global.b32"], x.view(32, values, 1),
                                  A.sub[block, i, warp, :, :].view(32, values, 1),
                                  scope="warp")
                helper(x)
                T.cuda.tile.apply(T.ptx["st.global.b32"],
                                  B.sub[block, i, warp, :, :].view(32, values, 1),
                                  x.view(32, values, 1), scope="warp")
        if case.iters > 1:
            for i in T.serial(case.iters):
                step(i)
        else:
            step(0)
    return reduction


def inputs(case, seed):
    """A (case.shape, case.dtype) input whose reductions identify every
    contributor (see the module's docstring)."""
    rng = np.random.default_rng(seed)
    shape = case.shape
    if case.op == "sum" and case.dtype == "float32":
        # Nonzero integers below 2^13: a group's sum (at most 1024 of them)
        # is exact in float32, whatever the order.
        magnitude = rng.integers(1, 1 << 13, size=shape)
        return (magnitude * rng.choice([-1, 1], size=shape)).astype(np.float32)
    if case.op in ("sum", None):
        return rng.integers(0, 1 << 32, size=shape, dtype=np.uint64).astype(
            np.uint32).view(NUMPY[case.dtype])
    # max / min: distinct values, the extreme of each group in a chosen
    # member: warp c % group_warps (lane (7c + 3 + i) % group_lanes) in CTA c.
    count = int(np.prod(shape))
    if case.dtype == "float32":
        pool = np.unique(rng.standard_normal(2 * count).astype(np.float32) * 100)
    else:
        pool = np.unique(rng.integers(0, 1 << 32, size=2 * count, dtype=np.uint64)
                         .astype(np.uint32).view(NUMPY[case.dtype]))
    assert pool.size >= count
    data = rng.permutation(pool)[:count].reshape(shape)
    grouped = _grouped(case, data)  # a view: the swaps below write data
    for c in range(case.grid):
        for i in range(case.values):
            target = (c % case.group_warps, (7 * c + 3 + i) % case.group_lanes)
            for it in range(case.iters):
                for a in range(grouped.shape[2]):
                    for b in range(grouped.shape[4]):
                        members = grouped[c, it, a, :, b, :, i]  # (gw, gl), a view
                        pick = np.unravel_index(
                            np.argmax(members) if case.op == "max" else np.argmin(members),
                            members.shape)
                        members[pick], members[target] = members[target], members[pick]
    return data


def _grouped(case, data):
    """`data` seen as (grid, iters, warps / gw, gw, 32 / gl, gl, values):
    the reduction groups of gw warps by gl lanes on axes 3 and 5."""
    gw, gl = case.group_warps, case.group_lanes
    return data.reshape(case.grid, case.iters, case.warps // gw, gw, 32 // gl, gl,
                        case.values)


def expected(case, data):
    """What every thread holds after the helper, by numpy."""
    if case.helper == "group_exchange":
        g = case.group_warps
        w = np.arange(case.warps)[:, None]
        lane = np.arange(32)[None, :]
        source = w // g * g + lane % g  # (warps, 32): the warp whose lane 0 it gets
        return data[:, :, source, 0, :]
    grouped = _grouped(case, data)
    if case.op == "sum":
        if case.dtype == "float32":
            result = grouped.astype(np.float64).sum(axis=(3, 5), keepdims=True)
            result = result.astype(np.float32)
        else:
            words = grouped.view(np.uint32).astype(np.uint64)
            result = (words.sum(axis=(3, 5), keepdims=True) & 0xFFFFFFFF).astype(
                np.uint32).view(NUMPY[case.dtype])
    elif case.op == "max":
        result = grouped.max(axis=(3, 5), keepdims=True)
    else:
        result = grouped.min(axis=(3, 5), keepdims=True)
    return np.broadcast_to(result, grouped.shape).reshape(case.shape)


def mismatches(case, got, want):
    """The indices (c, iteration, warp, lane, value) where got's bits differ
    from want's."""
    return np.argwhere(got.view(np.uint32) != want.view(np.uint32))


def main():
    import cupy as cp
    import tirx
    only = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--only=")]
    device = cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(device.id)
    print("device: %s (sm_%d%d)" % (props["name"].decode(), props["major"], props["minor"]))
    failures = total = 0
    for index, case in enumerate(cases()):
        if only and not any(text in case.name for text in only):
            continue
        total += 1
        data = inputs(case, index)
        want = expected(case, data)
        try:
            kernel = tirx.compile(make_kernel(case), target="cuda")
            a = cp.asarray(data)
            b = cp.asarray(np.zeros_like(data))
            kernel(a, b)
            got = cp.asnumpy(b)
        except Exception as error:  # a compile or launch error fails the case
            failures += 1
            print("FAIL: %s: %s: %s" % (case.name, type(error).__name__, error))
            continue
        wrong = mismatches(case, got, want)
        if len(wrong):
            failures += 1
            first = tuple(int(v) for v in wrong[0])
            print("FAIL: %s: %d of %d values differ; first at (cta, iteration, warp, lane, "
                  "value) %s: got %r, want %r" % (case.name, len(wrong), want.size, first,
                                                 got[first], want[first]))
        else:
            print("PASS: %s: %d values" % (case.name, want.size))
    print("reductions: %d cases, %d failed" % (total, failures))
    return 1 if failures or not total else 0


if __name__ == "__main__":
    sys.exit(main())
