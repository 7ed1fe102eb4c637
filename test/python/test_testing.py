"""tirx.testing.do_bench on the CPU: a fake torch whose CUDA events read a
simulated GPU clock, advanced by each call of the benchmarked function and by
the L2 flush, so the logic — the estimate, the numbers of warm-up and timed
calls, a flush before each timed call and outside its events, grad_to_none,
the statistics — is checked against the times the fake GPU took."""
import math
import statistics
import sys

import pytest

from tirx import testing
from tirx.testing import do_bench


class FakeTorch:
    """What do_bench uses of torch: torch.cuda.{is_available, Event,
    synchronize, _sleep}, torch.empty(..., dtype=torch.int, device="cuda")
    and the tensor's zero_(). `log` records what ran, in order."""
    int = "torch.int32"

    def __init__(self, available=True, flush_ms=0.25):
        self.now = 0.0  # the GPU clock, in ms
        self.log = []
        self.flush_ms = flush_ms
        self.buffers = []
        fake = self

        class Event:
            def __init__(self, enable_timing=False):
                assert enable_timing
                self.time = None

            def record(self):
                self.time = fake.now
                fake.log.append("record")

            def elapsed_time(self, end):
                return end.time - self.time

        class Cuda:
            @staticmethod
            def is_available():
                return available

            @staticmethod
            def synchronize():
                fake.log.append("sync")

            @staticmethod
            def _sleep(cycles):
                fake.log.append("sleep %d" % cycles)

        Cuda.Event = Event
        self.cuda = Cuda

    def empty(self, count, dtype=None, device=None):
        self.buffers.append((count, dtype, device))
        fake = self

        class Buffer:
            def zero_(self):
                fake.now += fake.flush_ms
                fake.log.append("flush")
        return Buffer()

    def function(self, durations):
        """A benchmarked function whose k-th call takes durations[k % n] ms."""
        calls = []

        def fn():
            duration = durations[len(calls) % len(durations)]
            calls.append(duration)
            self.now += duration
            self.log.append("call")
        return fn, calls


@pytest.fixture
def fake(monkeypatch):
    torch = FakeTorch()
    monkeypatch.setitem(sys.modules, "torch", torch)
    return torch


def phases(log):
    """The log split at its synchronizes: [first call], [estimate], [warm-up
    and timed calls]."""
    parts, current = [], []
    for entry in log:
        if entry == "sync":
            parts.append(current)
            current = []
        else:
            current.append(entry)
    assert current == []
    return parts


def test_estimate_then_warmup_and_reps_in_milliseconds(fake):
    fn, calls = fake.function([0.5])
    result = do_bench(fn)
    first, estimate, timed = phases(fake.log)
    assert first == ["call"]
    # 5 calls, each after a flush, inside one pair of events: 0.75 ms each.
    assert estimate == ["record"] + ["flush", "call"] * 5 + ["record"]
    n_warmup, n_repeat = int(25 / 0.75), int(100 / 0.75)
    assert (n_warmup, n_repeat) == (33, 133)
    # Warm-up calls without flush, then each timed call flushed outside its
    # events.
    assert timed == ["call"] * n_warmup + ["flush", "record", "call", "record"] * n_repeat
    assert len(calls) == 1 + 5 + n_warmup + n_repeat
    # Triton's flush: a 256 MB buffer of ints on the GPU.
    assert fake.buffers == [(256 * 1024 * 1024 // 4, FakeTorch.int, "cuda")]
    assert result == pytest.approx(0.5)


def test_warmup_and_rep_scale_with_the_estimate(fake):
    fn, calls = fake.function([2.0])
    do_bench(fn, warmup=10, rep=45, flush_l2=False)
    first, estimate, timed = phases(fake.log)
    assert estimate == ["record"] + ["call"] * 5 + ["record"]
    # No flush: the estimate is 2 ms, 5 warm-up calls and 22 timed ones.
    assert timed == ["call"] * 5 + ["record", "call", "record"] * 22
    assert fake.buffers == []


def test_at_least_one_warmup_and_one_rep(fake):
    fn, calls = fake.function([500.0])
    do_bench(fn, warmup=25, rep=100)
    timed = phases(fake.log)[2]
    assert timed == ["call", "flush", "record", "call", "record"]


def test_statistics_of_the_timed_calls(fake):
    durations = [0.3, 0.1, 0.4, 0.15, 0.9, 0.26]
    # Exact counts: no estimate, and the times are the durations in order.
    for mode, expected in [("mean", statistics.mean(durations)),
                           ("median", statistics.median(durations)),
                           ("min", 0.1), ("max", 0.9)]:
        fake.log.clear()
        fn, calls = fake.function(durations[-1:] + durations)
        assert do_bench(fn, return_mode=mode, n_warmup=0, n_repeat=6) == \
            pytest.approx(expected), mode
        assert len(calls) == 7
    fn, _ = fake.function(durations[-1:] + durations)
    assert do_bench(fn, return_mode="all", n_warmup=0, n_repeat=6) == \
        pytest.approx(durations)


def test_quantiles_interpolate_linearly(fake):
    durations = [4.0, 1.0, 3.0, 2.0]
    fn, _ = fake.function(durations[-1:] + durations)
    # Sorted 1, 2, 3, 4: q = 0.5 is halfway between ranks 1 and 2, q = 0.2 at
    # rank 0.6, q = 0.8 at rank 2.4 (torch.quantile's "linear").
    p50, p20, p80 = do_bench(fn, quantiles=[0.5, 0.2, 0.8], n_warmup=0, n_repeat=4)
    assert (p50, p20, p80) == pytest.approx((2.5, 1.6, 3.4))
    fn, _ = fake.function(durations[-1:] + durations)
    # One quantile is a number; quantiles win over return_mode.
    assert do_bench(fn, quantiles=[1.0], return_mode="min", n_warmup=0,
                    n_repeat=4) == pytest.approx(4.0)
    numpy = pytest.importorskip("numpy")
    values = [0.37, 0.11, 0.52, 0.29, 0.8, 0.64, 0.05]
    qs = [0.0, 0.1, 0.33, 0.5, 0.9, 1.0]
    assert testing._quantiles(values, qs) == pytest.approx(
        list(numpy.quantile(values, qs, method="linear")))


def test_grad_to_none_before_each_timed_call(fake):
    class Tensor:
        grad = "stale"
    tensors = [Tensor(), Tensor()]
    seen = []

    def fn():
        seen.append(tuple(t.grad for t in tensors))
        for t in tensors:
            t.grad = "computed"
        fake.now += 0.5
    do_bench(fn, grad_to_none=tensors, n_warmup=2, n_repeat=3)
    # The first call and the warm-ups see what was left; every timed call
    # sees None.
    assert seen[:3] == [("stale", "stale"), ("computed", "computed"),
                        ("computed", "computed")]
    assert seen[3:] == [(None, None)] * 3


def test_sleep_before_each_timed_call(fake):
    fn, _ = fake.function([0.2])
    do_bench(fn, flush_l2=False, sleep_cycles=1000, n_warmup=1, n_repeat=2)
    assert phases(fake.log)[1] == ["call"] + ["sleep 1000", "record", "call", "record"] * 2


def test_argument_errors(fake):
    fn, _ = fake.function([1.0])
    cases = [
        (dict(return_mode="average"), ValueError,
         "do_bench: return_mode must be one of min, max, mean, median, all, got 'average'"),
        (dict(quantiles=[0.5, 1.5]), ValueError,
         "do_bench: quantiles are numbers in [0, 1], got [0.5, 1.5]"),
        (dict(quantiles=[]), ValueError, "do_bench: quantiles are numbers in [0, 1], got []"),
        (dict(warmup=-1), ValueError,
         "do_bench: warmup is a time in milliseconds (>= 0), got -1"),
        (dict(rep="100"), ValueError,
         "do_bench: rep is a time in milliseconds (>= 0), got '100'"),
        (dict(n_repeat=0), ValueError,
         "do_bench: n_repeat is a number of calls (>= 1), got 0"),
        (dict(n_warmup=1.5), ValueError,
         "do_bench: n_warmup is a number of calls (>= 0), got 1.5"),
    ]
    for kwargs, kind, message in cases:
        with pytest.raises(kind, match="^" + __import__("re").escape(message) + "$"):
            do_bench(fn, **kwargs)
    with pytest.raises(TypeError, match="do_bench needs a callable, got 3"):
        do_bench(3)
    assert fake.log == []  # nothing ran


def test_without_torch_or_gpu(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails
    with pytest.raises(RuntimeError, match=r"tirx.testing.do_bench needs PyTorch with CUDA "
                       r"\(it times with torch.cuda.Event\): "):
        do_bench(lambda: None)
    monkeypatch.setitem(sys.modules, "torch", FakeTorch(available=False))
    with pytest.raises(RuntimeError, match=r"tirx.testing.do_bench needs a CUDA GPU: "
                       r"torch.cuda.is_available\(\) is False"):
        do_bench(lambda: None)


def test_import_does_not_import_torch():
    import subprocess
    code = ("import sys, tirx, tirx.testing; "
            "assert 'torch' not in sys.modules, 'tirx.testing imported torch'")
    env_path = [p for p in sys.path if p]
    subprocess.run([sys.executable, "-c", "import sys; sys.path[:0] = %r; %s"
                    % (env_path, code)], check=True)


def test_checks_against_float64_references():
    """tirx.testing's checks (docs/python.md, "Checking results")."""
    import numpy as np
    from tirx.testing import (as_float64, bfloat16_mismatches, max_relative_error,
                              round_to_bfloat16)
    assert as_float64([1, 2]).dtype == np.float64
    ulp = 2.0 ** -7  # bfloat16's spacing in [1, 2)
    values = np.array([1.0, 1 + ulp / 2, 1 + 1.5 * ulp, 1 + ulp / 4, -3.0000001, 0.0])
    # Ties to even: 1 + ulp/2 rounds to 1, 1 + 1.5 ulp to 1 + 2 ulp.
    assert list(round_to_bfloat16(values)) == [1.0, 1.0, 1 + 2 * ulp, 1.0, -3.0, 0.0]
    want = np.array([1.0, 1 + ulp / 2 + 1e-9, 1.25])
    # Near the boundary (1 + ulp / 2) either neighbour passes; elsewhere only
    # the rounding; NaN never.
    assert bfloat16_mismatches(np.array([1.0, 1 + ulp, 1.25]), want, 2.0 ** -20) == 0
    assert bfloat16_mismatches(np.array([1.0, 1.0, 1.25]), want, 2.0 ** -20) == 0
    assert bfloat16_mismatches(np.array([1 + ulp, 1.0, np.nan]), want, 2.0 ** -20) == 2
    assert max_relative_error(np.float32([1, 2, 0]), np.array([1.0, 2.5, 0.0])) == 0.2
    assert not max_relative_error(np.float32([np.nan]), np.array([1.0])) <= 1
