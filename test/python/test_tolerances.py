"""The examples' and benchmarks' accuracy checks reject broken kernels
(issue 32): for each, the most plausible bugs of its kernel (a thread's
partial dropped from a reduction, a wrong lane map, an off-by-one chunk, a
dropped K tile, ...) are simulated in numpy on the inputs the example uses
(its `inputs`), and the example's own check function must reject every one
of them while accepting the correct result (float64, rounded as the kernel
rounds; for RMSNorm also a float32 emulation of the kernel, step by step).
The benchmarks check TirX's kernels with these functions (bench/gpu/
rmsnorm.py: rmsnorm.check; softmax.py: softmax.RTOL; gemm*.py: the GEMM
checks). No GPU."""

import numpy as np
import pytest

import column_sums
import gemm
import gemm_hopper
import rmsnorm
import softmax
from tirx._reduce import _halving as halving  # the butterfly offsets


def f32(values):
    return np.asarray(values, dtype=np.float32)


#===------------------------------------------------------------------------===#
# RMSNorm (examples/python/rmsnorm.py, bench/gpu/rmsnorm.py)
#===------------------------------------------------------------------------===#

def rmsnorm_kernel(x, weight, bug=None, rsqrt_error=0.0):
    """The output of make_kernel(*config_for(cols)) on x, weight (float32
    holding bfloat16 values), emulated in float32 operation by operation
    (rsqrt.approx with a relative error of `rsqrt_error`), as float64, with
    `bug`: None, ("drop thread", w, l) (that thread's partial sum is lost
    before cta_reduce), "warp 0" (every lane of cta_reduce's second stage
    reads warp 0's slot), "no last chunk" (the last loaded chunk's predicate
    false: not in the sum, not stored, so left NaN), "chunk twice" (chunk 1
    loads chunk 0's columns), "no offset 1" (the butterflies skip offset 1).
    An unwritten output element is NaN (the poisoned output)."""
    rows, cols = x.shape
    threads, chunks = rmsnorm.config_for(cols)[:2]
    warps, chunk = threads // 32, threads * 8
    padded = np.zeros((rows, chunks * chunk), np.float32)
    padded[:, :cols] = x
    present = [r * chunk < cols for r in range(chunks)]
    if bug == "no last chunk":
        present[sum(present) - 1] = False
    # Warp w, lane l, chunk r, element j: column r * chunk + 256 w + 8 l + j.
    v = padded.reshape(rows, chunks, warps, 32, 8).transpose(0, 2, 3, 1, 4).copy()
    if bug == "chunk twice" and chunks > 1:
        v[..., 1, :] = v[..., 0, :]
    for r in range(chunks):
        if not present[r]:
            v[..., r, :] = 0
    partial = v[..., 0, :] * v[..., 0, :]  # exact
    for r in range(1, chunks):  # fma: one rounding
        partial = f32(v[..., r, :].astype(np.float64) ** 2 + partial)
    partial[..., :4] += partial[..., 4:]
    partial[..., :2] += partial[..., 2:4]
    total = partial[..., 0] + partial[..., 1]  # (rows, warps, 32)
    if isinstance(bug, tuple):
        total[:, bug[1], bug[2]] = 0
    lanes = np.arange(32)
    for offset in [o for o in halving(32) if not (bug == "no offset 1" and o == 1)]:
        total = total + total[:, :, lanes ^ offset]
    if warps > 1:
        reads = total[:, (np.zeros(32, int) if bug == "warp 0" else lanes % warps), 0]
        for offset in [o for o in halving(warps) if not (bug == "no offset 1" and o == 1)]:
            reads = reads + reads[:, lanes ^ offset]
        # Every lane of every warp: lane l's value, in warp w (all warps alike).
        total = np.broadcast_to(reads[:, None, :], total.shape)
    mean = f32(total / np.float32(cols))
    scale = f32(mean + np.float32(rmsnorm.EPS))
    scale = f32(scale.astype(np.float64) ** -0.5 * (1 + rsqrt_error))
    w = np.zeros(chunks * chunk, np.float32)
    w[:cols] = weight
    w = w.reshape(chunks, warps, 32, 8).transpose(1, 2, 0, 3)
    y = f32(f32(v * scale[..., None, None]) * w)
    y = rmsnorm.round_to_bfloat16(y.astype(np.float64))
    for r in range(chunks):
        if not present[r]:
            y[..., r, :] = np.nan
    y = y.transpose(0, 3, 1, 2, 4).reshape(rows, chunks * chunk)
    return y[:, :cols]


@pytest.mark.parametrize("rows, cols", rmsnorm.CASES)
def test_rmsnorm_check_accepts_the_kernel_and_the_rounded_result(rows, cols):
    x, weight = rmsnorm.inputs(rows, cols)
    want = rmsnorm.reference(x, weight)
    assert rmsnorm.check(rmsnorm.round_to_bfloat16(want), want) == 0
    # rsqrt.approx.f32's error at both ends of its bound (PTX ISA: 2^-22.9).
    for error in (0.0, 2.0 ** -22.9, -2.0 ** -22.9):
        assert rmsnorm.check(rmsnorm_kernel(x, weight, rsqrt_error=error), want) == 0


RMSNORM_BUGS = ["warp 0", "no last chunk", "chunk twice", "no offset 1"]


@pytest.mark.parametrize("rows, cols", rmsnorm.CASES)
def test_rmsnorm_check_rejects_a_dropped_thread(rows, cols):
    """Every thread's partial sum, dropped in turn: each is caught (thread
    t holds columns 8 t..8 t + 7 of each chunk: one past the row has
    nothing to lose)."""
    x, weight = rmsnorm.inputs(rows, cols)
    want = rmsnorm.reference(x, weight)
    threads = rmsnorm.config_for(cols)[0]
    missed = [t for t in range(min(threads, -(-cols // 8)))
              if not rmsnorm.check(rmsnorm_kernel(x, weight, ("drop thread",) + divmod(t, 32)),
                                   want)]
    assert missed == []


@pytest.mark.parametrize("bug", RMSNORM_BUGS)
def test_rmsnorm_check_rejects_a_broken_kernel(bug):
    """Each bug is caught in every case where it changes the kernel (one
    chunk has no second chunk to load twice; a row of at most 8 columns
    lies in lane 0 alone, which needs no butterfly)."""
    caught = []
    for rows, cols in rmsnorm.CASES:
        x, weight = rmsnorm.inputs(rows, cols)
        if bug == "chunk twice" and rmsnorm.config_for(cols)[1] == 1:
            continue
        if bug == "no offset 1" and cols <= 8:
            continue
        caught.append(rmsnorm.check(rmsnorm_kernel(x, weight, bug),
                                    rmsnorm.reference(x, weight)) > 0)
    assert caught and all(caught)


def test_round_to_bfloat16_is_round_to_nearest_even():
    """The bit trick against frexp: 8 significant bits, ties to even, on
    random magnitudes, exact ties and their neighbours, both signs."""
    rng = np.random.default_rng(1)
    values = rng.standard_normal(20000) * 10.0 ** rng.uniform(-30, 30, 20000)
    ties = np.ldexp(rng.integers(256, 512, 2000) + 0.5, rng.integers(-100, 100, 2000))
    values = np.concatenate([values, ties, np.nextafter(ties, 0), np.nextafter(ties, np.inf),
                             -ties, [0.0, -0.0]])
    mantissa, exponent = np.frexp(values)
    want = np.ldexp(np.rint(mantissa * 256), exponent - 8)
    assert np.array_equal(rmsnorm.round_to_bfloat16(values), want)


#===------------------------------------------------------------------------===#
# Softmax (examples/python/softmax.py; bench/gpu/softmax.py uses its RTOL)
#===------------------------------------------------------------------------===#

def softmax_bug(x, config, bug, thread=None):
    """The float64 softmax of x, rounded to float32, as a kernel of
    `config` (softmax.config_for) with `bug` computes it: "drop thread"
    (`thread`'s partial sum lost: the row sum misses its columns' terms),
    "warp 0" (the sum's cross-warp stage reads the row's first warp in every
    lane: warps x its partial), "no last chunk" (the last loaded chunk not
    loaded, nor stored: NaN), "chunk twice" (chunk 1 loads chunk 0's
    columns). A row's thread t holds columns with (c % chunk) // 4 == t.
    (A wrong max is invisible to any check of the result: softmax does not
    depend on the shift, only its rounding and range do.)"""
    threads, chunks, per_cta = config[:3]
    row_threads = threads // per_cta
    chunk = 4 * row_threads
    rows, cols = x.shape
    v = x.astype(np.float64)
    loaded = np.ones(cols, bool)
    column = np.arange(cols)
    if bug == "no last chunk":
        loaded[column >= (cols - 1) // chunk * chunk] = False
    if bug == "chunk twice" and cols > chunk:
        second = min(chunk, cols - chunk)  # chunk 1 may be a masked tail
        v[:, chunk:chunk + second] = v[:, :second]
    top = np.where(loaded, v, -np.inf).max(axis=-1, keepdims=True)
    e = np.where(loaded, np.exp(v - top), 0.0)
    terms = e
    if bug == "drop thread":
        terms = np.where((column % chunk) // 4 == thread, 0.0, e)
    total = terms.sum(axis=-1, keepdims=True)
    if bug == "warp 0":
        total = row_threads // 32 * np.where((column % chunk) // 128 == 0, e, 0.0).sum(
            axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = f32(e / total)
    y[:, ~loaded] = np.nan
    return y


def softmax_rejects(y, want):
    """__main__'s verdict: `not error <= RTOL` (NaN fails)."""
    return not softmax.max_relative_error(y, want) <= softmax.RTOL


def softmax_case(index):
    rows, cols, mask = softmax.CASES[index]
    x = softmax.inputs(rows, cols, mask, seed=index)
    return x, softmax.reference(x), softmax.config_for(rows, cols)


@pytest.mark.parametrize("index", range(len(softmax.CASES)),
                         ids=["%d x %d %s" % c for c in softmax.CASES])
def test_softmax_check_accepts_the_rounded_result(index):
    x, want, _ = softmax_case(index)
    assert not softmax_rejects(f32(want), want)


@pytest.mark.parametrize("index", range(len(softmax.CASES)),
                         ids=["%d x %d %s" % c for c in softmax.CASES])
def test_softmax_check_rejects_a_dropped_thread(index):
    """Every thread's partial, lost in turn, is caught in every case (where
    its columns are not all masked: then losing it changes nothing)."""
    x, want, config = softmax_case(index)
    row_threads = config[0] // config[2]
    chunk = 4 * row_threads
    owner = (np.arange(x.shape[1]) % chunk) // 4
    missed = [t for t in range(row_threads)
              if np.isfinite(x[:, owner == t]).any()
              and not softmax_rejects(softmax_bug(x, config, "drop thread", t), want)]
    assert missed == []


@pytest.mark.parametrize("bug", ["warp 0", "no last chunk", "chunk twice"])
def test_softmax_check_rejects_a_broken_kernel(bug):
    caught = []
    for index in range(len(softmax.CASES)):
        x, want, config = softmax_case(index)
        if bug == "chunk twice" and x.shape[1] <= 4 * config[0] // config[2]:
            continue  # one chunk: nothing to load twice
        caught.append(softmax_rejects(softmax_bug(x, config, bug), want))
    assert caught and all(caught)


#===------------------------------------------------------------------------===#
# GEMM (examples/python/gemm.py, gemm_hopper.py; bench/gpu/gemm*.py use
# their check)
#===------------------------------------------------------------------------===#

ROWS = 128  # the big shapes are checked on their first 128 rows (one row of tiles)


def gemm_bugs(a, b, want, k_step):
    """C as a kernel that multiplies a @ b (b: (K, N)) in K steps of
    `k_step` on k16 mma steps with m16n8 accumulator fragments would
    produce it with each plausible bug, in float64 (rounded by the caller)."""
    K = a.shape[1]

    def without(k0, k1):
        return want - a[:, k0:k1] @ b[k0:k1]
    bugs = {"first K step dropped": without(0, k_step),
            "last K step dropped": without(K - k_step, K),
            "last k16 step dropped": without(max(0, K - 16), K),
            # The accumulator fragment: lane l holds rows l/4 and l/4 + 8 of
            # each 16-row tile, columns 2 (l % 4) and + 1 of each 8.
            "fragment column pairs swapped": want[:, np.arange(want.shape[1]) ^ 1]}
    if want.shape[0] % 16 == 0:
        bugs["fragment rows r and r + 8 swapped"] = want[np.arange(want.shape[0]) ^ 8]
    if K >= 2 * k_step:  # the pipeline reads the stage of the step before
        bugs["K step 1 reads step 0's stage"] = without(k_step, 2 * k_step) + \
            a[:, :k_step] @ b[:k_step]
    unwritten = want.copy()
    unwritten[: min(64, want.shape[0]), : min(64, want.shape[1])] = np.nan
    bugs["a warp's (or consumer's) tile unwritten"] = unwritten
    return bugs


def gemm_cases():
    for M, N, K in gemm.CASES:
        a, b = gemm.inputs(M, N, K)
        yield "gemm %d x %d x %d" % (M, N, K), gemm, a[:ROWS], b, 32
    for M, N, K in gemm_hopper.CASES:
        a, w = gemm_hopper.inputs(M, N, K)
        yield "gemm_hopper %d x %d x %d" % (M, N, K), gemm_hopper, a[:ROWS], w, 64
    for M, N, K in gemm_hopper.DYNAMIC_CASES:
        a, w = gemm_hopper.inputs(M, N, K)
        yield ("gemm_hopper runtime-sized %d x %d x %d" % (M, N, K), gemm_hopper, a[:ROWS], w,
               64)


GEMM_CASES = list(gemm_cases())


@pytest.mark.parametrize("name, module, a, b, k_step", GEMM_CASES,
                         ids=[case[0] for case in GEMM_CASES])
def test_gemm_check_rejects_a_broken_kernel(name, module, a, b, k_step):
    expected = module.reference(a, b)
    want = expected[0]
    c = rmsnorm.round_to_bfloat16(want)
    assert module.check(a, b, c, expected) <= 1
    b_kn = b if module is gemm else b.T
    k_step = min(k_step, a.shape[1])
    passed = [bug for bug, value in gemm_bugs(a.astype(np.float64), b_kn.astype(np.float64),
                                              want, k_step).items()
              if module.check(a, b, rmsnorm.round_to_bfloat16(value), expected) <= 1]
    assert passed == []


#===------------------------------------------------------------------------===#
# Column sums (examples/python/column_sums.py): bit for bit
#===------------------------------------------------------------------------===#

def column_sum_bugs(a):
    """The kernel's output with each plausible bug: rows skipped by an
    off-by-one loop, a row of each group of 4 lost, a group's rows added in
    another order (the contract is the sequential order), the masked tail
    (rows % 4 rows) skipped or added first, a lane map that moves a thread's
    words or lanes, a warp's columns unwritten (NaN)."""
    sums = column_sums.sequential_column_sums
    column = np.arange(column_sums.COLUMNS)
    whole = a.shape[0] // 4 * 4
    groups = a[:whole].reshape(-1, 4, a.shape[1])
    tail = a[whole:]
    nan_warp = sums(a).copy()
    nan_warp[128:256] = np.nan
    bugs = {"first group skipped": sums(a[4:]),
            "a thread's words k and k ^ 1 swapped": sums(a)[column ^ 1],
            "lanes l and l ^ 1 swapped": sums(a)[column ^ 4],
            "warp 1's columns unwritten": nan_warp}
    if whole:
        bugs["last group of 4 rows skipped"] = sums(np.concatenate([a[:whole - 4], tail]))
        bugs["one row of each group lost"] = sums(np.concatenate(
            [groups[:, :3].reshape(-1, a.shape[1]), tail]))
        bugs["each group's rows added last first"] = sums(np.concatenate(
            [groups[:, ::-1].reshape(-1, a.shape[1]), tail]))
    if len(tail) and whole:
        bugs["the masked tail skipped"] = sums(a[:whole])
        bugs["the masked tail added first"] = sums(np.concatenate([tail, a[:whole]]))
    return bugs


@pytest.mark.parametrize("rows", column_sums.ROW_COUNTS)
def test_column_sums_check_rejects_a_broken_kernel(rows):
    a = column_sums.inputs(rows)
    assert column_sums.mismatches(column_sums.sequential_column_sums(a), a).size == 0
    passed = [bug for bug, got in column_sum_bugs(a).items()
              if column_sums.mismatches(f32(got), a).size == 0]
    assert passed == []


#===------------------------------------------------------------------------===#
# The seed's examples (affine_relu.py, silu.py, to_float16.py: verbatim, so
# their check stays torch.testing.assert_close with its default tolerances)
#===------------------------------------------------------------------------===#

# torch.testing.assert_close's defaults: |actual - expected| <= atol + rtol |expected|.
ASSERT_CLOSE = {np.float32: (1.3e-6, 1e-5), np.float16: (1e-3, 1e-5)}


def seed_outputs():
    """(name, output dtype, the correct result) on the seed's input,
    linspace(-4, 4, 256) as (2, 32, 4): warp w, lane l, word k."""
    a = np.linspace(-4, 4, 256, dtype=np.float32).reshape(2, 32, 4)
    a64 = a.astype(np.float64)
    yield "affine_relu", np.float32, f32(np.maximum(a64 * 2 + 1, 0))
    yield "silu", np.float32, f32(a64 / (1 + np.exp(-a64)))
    yield "to_float16", np.float16, a.astype(np.float16)


@pytest.mark.parametrize("name, dtype, want", list(seed_outputs()),
                         ids=[case[0] for case in seed_outputs()])
def test_seed_checks_reject_a_wrong_lane_map(name, dtype, want):
    """Each register layout mistake (a thread's words k and k ^ 1, lanes l
    and l ^ 1, the two warps) moves values 8/255 or more apart: far outside
    assert_close's default tolerances, which the correct result meets. (An
    element the kernel never writes keeps whatever torch.empty_like's memory
    held: run.sh's compute-sanitizer initcheck pass over these examples
    reports the read of it.)"""
    rtol, atol = ASSERT_CLOSE[dtype]

    def close(got):
        return bool(np.isclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=rtol, atol=atol).all())
    assert close(want)
    k, lane, warp = np.arange(4), np.arange(32), np.arange(2)
    bugs = {"words k and k ^ 1": want[:, :, k ^ 1], "lanes l and l ^ 1": want[:, lane ^ 1],
            "warps swapped": want[warp ^ 1]}
    assert [bug for bug, got in bugs.items() if close(got)] == []
