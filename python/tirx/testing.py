"""`tirx.testing`: timing GPU work the way `triton.testing.do_bench` does,
and checking results against float64 references.

    from tirx.testing import do_bench
    ms = do_bench(lambda: kernel(x, y))                      # mean, in ms
    p50, p20, p80 = do_bench(fn, quantiles=[0.5, 0.2, 0.8])

do_bench needs PyTorch with CUDA (imported when called, not with `tirx`):
the calls are timed with CUDA events on the current stream (docs/python.md
"Benchmarking"). The checks (as_float64, round_to_bfloat16,
bfloat16_mismatches, max_relative_error) take numpy arrays or torch
tensors alike (docs/python.md, "Checking results")."""
import math
import statistics

__all__ = ["do_bench", "as_float64", "round_to_bfloat16", "bfloat16_mismatches",
           "max_relative_error"]

# What Triton writes between calls to flush the L2 cache: 256 MB, more than
# any GPU's L2 (50 MB on H100, 60 MB on H200).
FLUSH_BYTES = 256 * 1024 * 1024
# Calls that estimate the time of one (each after a flush, as Triton does).
ESTIMATE_CALLS = 5
RETURN_MODES = ("min", "max", "mean", "median", "all")


def _torch():
    """The torch module, with CUDA, or a RuntimeError saying what is
    missing."""
    try:
        import torch
    except ImportError as error:
        raise RuntimeError("tirx.testing.do_bench needs PyTorch with CUDA (it times with "
                           "torch.cuda.Event): %s" % error) from None
    if not torch.cuda.is_available():
        raise RuntimeError("tirx.testing.do_bench needs a CUDA GPU: "
                           "torch.cuda.is_available() is False")
    return torch


def _quantiles(times, quantiles):
    """Each quantile q of `times`, interpolated linearly between the two
    nearest ranks (as torch.quantile and Triton's do_bench do)."""
    ordered = sorted(times)
    last = len(ordered) - 1
    result = []
    for q in quantiles:
        position = q * last
        lower, upper = math.floor(position), math.ceil(position)
        weight = position - lower
        result.append((1 - weight) * ordered[lower] + weight * ordered[upper])
    return result


def _summarize(times, quantiles, return_mode):
    if quantiles is not None:
        values = _quantiles(times, quantiles)
        return values[0] if len(values) == 1 else values
    if return_mode == "all":
        return list(times)
    return {"min": min, "max": max, "mean": statistics.mean,
            "median": statistics.median}[return_mode](times)


def _check_arguments(fn, warmup, rep, quantiles, return_mode, n_warmup, n_repeat):
    if not callable(fn):
        raise TypeError("do_bench needs a callable, got %r" % (fn,))
    if return_mode not in RETURN_MODES:
        raise ValueError("do_bench: return_mode must be one of %s, got %r"
                         % (", ".join(RETURN_MODES), return_mode))
    for name, value in (("warmup", warmup), ("rep", rep)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not value >= 0:
            raise ValueError("do_bench: %s is a time in milliseconds (>= 0), got %r"
                             % (name, value))
    for name, value, least in (("n_warmup", n_warmup, 0), ("n_repeat", n_repeat, 1)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < least):
            raise ValueError("do_bench: %s is a number of calls (>= %d), got %r"
                             % (name, least, value))
    if quantiles is not None:
        quantiles = list(quantiles)
        if not quantiles or any(isinstance(q, bool) or not isinstance(q, (int, float))
                                or not 0 <= q <= 1 for q in quantiles):
            raise ValueError("do_bench: quantiles are numbers in [0, 1], got %r"
                             % (quantiles,))
    return quantiles


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None,
             return_mode="mean", *, flush_l2=True, sleep_cycles=0, n_warmup=None,
             n_repeat=None):
    """Times `fn()` on the GPU; milliseconds per call.

    As `triton.testing.do_bench`: `fn` runs once (compiling and loading
    whatever it needs), then `ESTIMATE_CALLS` times, each after an L2 flush,
    to estimate its time; `warmup` and `rep` are milliseconds, so it is
    called max(1, int(warmup / estimate)) times to warm up and timed
    max(1, int(rep / estimate)) times. Each timed call is between two CUDA
    events, after writing a 256 MB buffer (the L2 flush, outside the events)
    and setting `.grad = None` on every tensor of `grad_to_none`. The result
    is `return_mode` of the times ("mean", "median", "min", "max", or "all":
    the list), or with `quantiles` (a list of numbers in [0, 1]) those
    quantiles, one number for a list of one.

    Beyond Triton's arguments (keyword-only): `flush_l2=False` times calls
    with whatever the previous one left in L2; `sleep_cycles` queues each
    timed call behind `torch.cuda._sleep(sleep_cycles)`, so the events time
    the GPU's work and not the host's launch (a Python launcher's tens of
    microseconds would otherwise show on short kernels); `n_warmup` and
    `n_repeat` give the numbers of calls instead of times (no estimate)."""
    quantiles = _check_arguments(fn, warmup, rep, quantiles, return_mode, n_warmup,
                                 n_repeat)
    torch = _torch()
    cuda = torch.cuda
    fn()
    cuda.synchronize()
    flush = (torch.empty(FLUSH_BYTES // 4, dtype=torch.int, device="cuda")
             if flush_l2 else None)

    def clear():
        if flush is not None:
            flush.zero_()

    if n_warmup is None or n_repeat is None:
        start, end = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
        start.record()
        for _ in range(ESTIMATE_CALLS):
            clear()
            fn()
        end.record()
        cuda.synchronize()
        # Guarded: a fake clock, or a call too short for the events' 0.5 us
        # resolution, may measure 0.
        estimate = max(start.elapsed_time(end) / ESTIMATE_CALLS, 1e-6)
        if n_warmup is None:
            n_warmup = max(1, int(warmup / estimate))
        if n_repeat is None:
            n_repeat = max(1, int(rep / estimate))
    starts = [cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for start, end in zip(starts, ends):
        for tensor in grad_to_none or ():
            tensor.grad = None
        clear()
        if sleep_cycles:
            cuda._sleep(sleep_cycles)
        start.record()
        fn()
        end.record()
    cuda.synchronize()
    times = [start.elapsed_time(end) for start, end in zip(starts, ends)]
    return _summarize(times, quantiles, return_mode)


def as_float64(values):
    """A numpy array or torch tensor (or anything numpy converts) as
    float64, of the same kind."""
    if hasattr(values, "double"):
        return values.double()
    import numpy
    return numpy.asarray(values, dtype=numpy.float64)


def round_to_bfloat16(values):
    """float64 `values` (numpy or torch) rounded to the nearest bfloat16,
    ties to even, as float64: the low 45 of float64's 52 fraction bits
    rounded away. bfloat16's normal range (and 0); overflow rounds to inf
    as it should."""
    if hasattr(values, "double"):
        import torch
        bits = values.view(torch.int64)
    else:
        import numpy
        bits = values.view(numpy.int64)
    bits = (bits + ((1 << 44) - 1) + ((bits >> 45) & 1)) & -(1 << 45)
    return bits.view(values.dtype)


def bfloat16_mismatches(y, want, accuracy):
    """The number of elements of `y` (a kernel's bfloat16 output) that are
    not the bfloat16 rounding of `want` (a float64 reference) where want
    lies farther than accuracy |want| from a rounding boundary, or not one
    of the two neighbours where it lies closer: 0 passes for a kernel whose
    result before its last rounding is within `accuracy` (relative) of
    want. numpy or torch; NaN (an unwritten element of a poisoned output)
    never passes."""
    y = as_float64(y)
    low = round_to_bfloat16(want - abs(want) * accuracy)
    high = round_to_bfloat16(want + abs(want) * accuracy)
    return int(((y != low) & (y != high)).sum())


def max_relative_error(y, want):
    """max |y - want| / |want| over the elements, in float64 (numpy): a
    zero of want must be met exactly; NaN (an unwritten element of a
    poisoned output) gives NaN, which fails every `<= bound`."""
    import numpy
    error = numpy.abs(y.astype(numpy.float64) - want) / numpy.maximum(numpy.abs(want), 1e-30)
    return float(error.max())
