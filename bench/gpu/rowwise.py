"""What bench/gpu/softmax.py and bench/gpu/rmsnorm.py share: every
implementation first runs into a NaN-poisoned output and is checked (the
device copy byte for byte, the others against a float64 reference within a
relative bound), then timed with stream.timed; one markdown table per shape,
with each time as a percentage of the device copy's (the first entry)."""
import torch

from stream import timed


def into(y, fn):
    """A run that calls fn() (which writes y) and returns y."""
    def run():
        fn()
        return y
    return run


def max_relative_error(run, y, reference):
    y.fill_(float("nan"))
    out = run()
    torch.cuda.synchronize()
    return ((out.double() - reference).abs() / reference.abs().clamp_min(1e-30)).max().item()


def measure_table(title, entries, x, y, reference, rtol, gbytes):
    """entries: (label, run), run() returning its output, the device copy
    first. Returns the table's lines and whether a check failed."""
    measured, failed = [], False
    for label, run in entries:
        if label.startswith("device copy"):
            error = 0.0
            y.fill_(float("nan"))
            ok = torch.equal(run(), x)
        else:
            error = max_relative_error(run, y, reference)
            ok = error <= rtol
        if not ok:
            print("FAIL: %s: max relative error %.3g > %.3g" % (label, error, rtol))
        failed |= not ok
        measured.append((label, timed(run), ok, error))
    copy_ms = measured[0][1]
    lines = ["### " + title, "", "| implementation | ms | GB/s | % of copy | max rel. error |",
             "|---|---|---|---|---|"]
    for label, ms, ok, error in measured:
        lines.append("| %s | %.4f | %.0f | %.1f | %s |"
                     % (label, ms, gbytes / ms * 1e3, 100 * copy_ms / ms,
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
