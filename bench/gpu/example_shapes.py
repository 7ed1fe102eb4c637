#!/usr/bin/env python3
"""The examples' public functions on every shape (issue 33): softmax(x) of
examples/python/softmax.py and rms_norm(x, w) of examples/python/rmsnorm.py,
which since 3461584 take rows of any length and any row count, against a
device-to-device copy of the same bytes, the torch op and torch.compile of
it, in one process, timed as rowwise.py times (CUDA events, interleaved
rounds). Two kinds of shapes:

- the shapes the functions took before (whole chunks: softmax 32768 x 4096
  and 8192 x 16384, rms_norm 32768 x 4096 and 16384 x 8192), where a
  BASELINE folder holding the functions as they were (old_softmax.py,
  old_rmsnorm.py: `git show 3461584^:examples/python/softmax.py`, ...) adds
  their rows, measured in the same rounds: the A/B. On these shapes the
  functions launch their whole-chunk kernels (whole=True), whose PTX is the
  old kernels' byte for byte (test/python/test_example_shapes.py);
- shapes only the new functions take: rows that are no multiple of the
  chunk, row counts that are no multiple of a CTA's rows.

Every entry first runs into a NaN-poisoned output and is checked: softmax
within the example's RTOL of float64 torch.softmax, TirX's rms_norm by the
example's `check` (every element the correctly rounded bfloat16 value, up
to 2^-20 of a rounding boundary), torch's within one bfloat16 ulp.
Usage: example_shapes.py EXAMPLES_DIR [BASELINE_DIR] [RESULTS.md]"""
import os
import sys

import torch

from rowwise import finish, into, measure_table

sys.path.insert(0, sys.argv[1])
import rmsnorm as new_rmsnorm  # noqa: E402
import softmax as new_softmax  # noqa: E402

BASELINE = sys.argv[2] if len(sys.argv) > 2 and os.path.isdir(sys.argv[2]) else None
if BASELINE:
    sys.path.insert(0, BASELINE)
    import old_rmsnorm  # noqa: E402
    import old_softmax  # noqa: E402

# (rows, cols, taken before 3461584)
SOFTMAX_SHAPES = [(32768, 4096, True), (8192, 16384, True), (32768, 3000, False),
                  (8192, 15000, False), (32767, 4096, False), (65536, 1000, False),
                  (4096, 32768, False)]
RMSNORM_SHAPES = [(32768, 4096, True), (16384, 8192, True), (32768, 5120, False),
                  (32768, 3000, False), (16383, 8192, False), (65536, 1000, False)]
BF16_RTOL = 2.0 ** -7


def softmax_tables():
    compiled = torch.compile(lambda x: torch.softmax(x, dim=-1), dynamic=False)
    lines, failed = [], False
    for rows, cols, old in SOFTMAX_SHAPES:
        torch.manual_seed(0)
        x = torch.randn(rows, cols, device="cuda") * 4
        y = torch.empty_like(x)
        reference = torch.softmax(x.double(), dim=-1)
        entries = [("device copy (anchor)", lambda: y.copy_(x)),
                   ("torch.softmax (eager)", lambda: torch.softmax(x, dim=-1)),
                   ("torch.compile", lambda: compiled(x)),
                   ("TirX softmax(x), any shape", into(y, lambda: new_softmax.softmax(x, y)))]
        if BASELINE and old:
            entries.append(("TirX softmax(x) before (whole chunks)",
                            into(y, lambda: old_softmax.softmax(x, y))))
        table, bad = measure_table(
            "softmax f32 %d x %d, config %s" % (rows, cols, new_softmax.config_for(rows, cols)),
            entries, x, y, reference, new_softmax.RTOL, 2 * x.numel() * 4 / 1e9)
        lines += table
        failed |= bad
    return lines, failed


def rmsnorm_tables():
    rms = torch.nn.functional.rms_norm
    eps = new_rmsnorm.EPS
    compiled = torch.compile(lambda x, w: rms(x, (x.shape[-1],), w, eps), dynamic=False)
    lines, failed = [], False
    for rows, cols, old in RMSNORM_SHAPES:
        torch.manual_seed(0)
        x = torch.randn(rows, cols, device="cuda").to(torch.bfloat16)
        w = (torch.rand(cols, device="cuda") + 0.5).to(torch.bfloat16)
        y = torch.empty_like(x)
        reference = new_rmsnorm.reference(x, w)
        exact = lambda out: new_rmsnorm.check(out, reference)  # noqa: E731
        entries = [("device copy (anchor)", lambda: y.copy_(x)),
                   ("F.rms_norm (eager)", lambda: rms(x, (cols,), w, eps)),
                   ("torch.compile", lambda: compiled(x, w)),
                   ("TirX rms_norm(x, w), any shape",
                    into(y, lambda: new_rmsnorm.rms_norm(x, w, y)), exact)]
        if BASELINE and old:
            entries.append(("TirX rms_norm(x, w) before (whole chunks)",
                            into(y, lambda: old_rmsnorm.rms_norm(x, w, y)), exact))
        table, bad = measure_table(
            "RMSNorm bf16 %d x %d, config %s" % (rows, cols, new_rmsnorm.config_for(cols)),
            entries, x, y, reference, BF16_RTOL, 2 * x.numel() * 2 / 1e9)
        lines += table
        failed |= bad
    return lines, failed


def main(results=None):
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    print("device: %s (%d SMs), torch %s, baseline %s"
          % (props.name, props.multi_processor_count, torch.__version__, BASELINE))
    lines, failed = softmax_tables()
    more, bad = rmsnorm_tables()
    return finish(lines + more, results, failed or bad)


if __name__ == "__main__":
    rest = [a for a in sys.argv[2:] if not os.path.isdir(a)]
    sys.exit(main(rest[0] if rest else None))
