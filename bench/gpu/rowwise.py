"""What bench/gpu/softmax.py and bench/gpu/rmsnorm.py share: every
implementation first runs into a NaN-poisoned output and is checked (the
device copy byte for byte, an entry with its own check by that, the others
against a float64 reference within a relative bound), then timed with
stream.timed in interleaved rounds; one markdown table per shape, with each
time as a percentage of the device copy's (the first entry)."""
import os
import statistics

import torch

from stream import timed

# Interleaved rounds per table (ROUNDS=n overrides).
ROUNDS = int(os.environ.get("ROUNDS", "5"))


def into(y, fn):
    """A run that calls fn() (which writes y) and returns y."""
    def run():
        fn()
        return y
    return run


def poisoned_run(run, y):
    """run()'s output, y filled with NaN before (an unwritten element stays NaN)."""
    y.fill_(float("nan"))
    out = run()
    torch.cuda.synchronize()
    return out


def max_relative_error(out, reference):
    return ((out.double() - reference).abs() / reference.abs().clamp_min(1e-30)).max().item()


def measure_table(title, entries, x, y, reference, rtol, gbytes, rounds=ROUNDS):
    """entries: (label, run) or (label, run, check), run() returning its
    output, the device copy first. Every entry is checked (check(output):
    the number of wrong elements, 0 passes; without one, the maximum
    relative error against `reference` at most `rtol`), then timed `rounds`
    times, interleaved (each round times every entry once, so a drift of
    the clocks touches them alike); the table has the median of the rounds
    and, as % of the copy, their lowest and highest. Returns the table's
    lines and whether a check failed."""
    checked, failed = [], False
    for label, run, *own in entries:
        if label.startswith("device copy"):
            error = 0.0
            ok = torch.equal(poisoned_run(run, y), x)
        else:
            out = poisoned_run(run, y)
            error = max_relative_error(out, reference)
            if own:
                wrong = own[0](out)
                ok = wrong == 0
                if not ok:
                    print("FAIL: %s: %d elements fail its check (max relative error %.3g)"
                          % (label, wrong, error))
            else:
                ok = error <= rtol
                if not ok:
                    print("FAIL: %s: max relative error %.3g > %.3g" % (label, error, rtol))
        failed |= not ok
        checked.append((label, run, ok, error))
    times = [[] for _ in checked]
    for _ in range(rounds):
        for (_, run, _, _), samples in zip(checked, times):
            samples.append(timed(run))
    copy_ms = statistics.median(times[0])
    lines = ["### " + title, "",
             "| implementation | ms | GB/s | % of copy | rounds, % of copy | max rel. error |",
             "|---|---|---|---|---|---|"]
    for (label, _, ok, error), samples in zip(checked, times):
        ms = statistics.median(samples)
        lines.append("| %s | %.4f | %.0f | %.1f | %.1f–%.1f | %s |"
                     % (label, ms, gbytes / ms * 1e3, 100 * copy_ms / ms,
                        100 * copy_ms / max(samples), 100 * copy_ms / min(samples),
                        ("%.2g" % error) if ok else "FAIL"))
    lines.append("")
    return lines, failed


def finish(lines, results, failed):
    """Prints the tables, writes them to `results` if given; the exit status."""
    text = "\n".join(lines)
    print(text)
    if results:
        with open(results, "w") as out:
            out.write(text + "\n")
    return 1 if failed else 0
