"""What the GEMM benchmarks (gemm.py, gemm_hopper.py) share: the device
line, each TirX variant's first run (a failure is reported and counted, never
dropped), the check of each implementation's output before it is timed, and
one markdown table per shape (each implementation's time, TFLOP/s and ratios
to the first row, cuBLAS, and to Triton's, with the worst error over the bf16
bound)."""
import os
import traceback


def describe_device(triton_version):
    import torch
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    print("device: %s (%d SMs), torch %s, triton %s"
          % (props.name, props.multi_processor_count, torch.__version__, triton_version))


def gemm_inputs(M, N, K, reference):
    """A (M, K) and B (K, N), N(0, 1) bf16 with seed 0, an empty C (M, N),
    `reference(a, b)` and the shape's TFLOP (2 M N K / 1e12)."""
    import torch
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    return a, b, c, reference(a, b), 2 * M * N * K / 1e12


def cublas_ms(a, b, c, tflop):
    """torch.matmul(a, b, out=c) timed as stream.py times; prints the shape
    and cuBLAS's rate, returns the milliseconds."""
    import torch
    from stream import timed
    ms = timed(lambda: torch.matmul(a, b, out=c))
    print("%dx%dx%d cuBLAS: %.0f TFLOP/s" % (a.shape[0], b.shape[1], a.shape[1],
                                             tflop / ms * 1e3))
    return ms


def first_run(label, run, failures):
    """Runs a TirX variant once (it compiles there): None when it ran; else
    the line that says why not. A variant whose kernel builder (the example's
    make_kernel) asserts a precondition the shape breaks (blocks that do not
    divide it) does not fit: printed, not a failure. Any other exception is a
    failure: printed with its traceback and `label` recorded in `failures`."""
    try:
        run()
        return None
    except Exception as error:
        frame = traceback.extract_tb(error.__traceback__)[-1]
        if isinstance(error, AssertionError) and frame.name == "make_kernel":
            why = "%s: does not fit this shape (%s:%d: %s)" % (
                label, os.path.basename(frame.filename), frame.lineno, frame.line)
            print("skipped: " + why, flush=True)
            return "skipped: " + why
        traceback.print_exc()
        lines = str(error).strip().splitlines()
        why = "%s: %s%s" % (label, type(error).__name__, ": " + lines[0] if lines else "")
        print("FAIL: " + why, flush=True)
        failures.append(label)
        return "FAIL: " + why


def checked(label, run, output, error_of, failures):
    """Runs `run` into `output` poisoned with NaN; returns error_of(result)
    (the worst error over the bf16 bound), recording `label` in `failures`
    when it is over 1."""
    import torch
    output.fill_(float("nan"))
    result = run()
    torch.cuda.synchronize()
    ratio = error_of(result)
    if not ratio <= 1:
        print("FAIL: %s: error %.3g of the bf16 bound" % (label, ratio))
        failures.append(label)
    return ratio


def shape_table(title, measured, tflop, triton_ms):
    """Lines of the table titled `title` for `measured` [(label, ms, error
    ratio)], cuBLAS first; `tflop` the shape's TFLOP; `triton_ms` Triton's
    time or None."""
    cublas_ms = measured[0][1]
    lines = ["### " + title, "",
             "| implementation | ms | TFLOP/s | % of cuBLAS | % of Triton | error / bound |",
             "|---|---|---|---|---|---|"]
    for label, ms, ratio in measured:
        lines.append("| %s | %.4f | %.0f | %.1f | %s | %.3g |" % (
            label, ms, tflop / ms * 1e3, 100 * cublas_ms / ms,
            "%.1f" % (100 * triton_ms / ms) if triton_ms else "-", ratio))
    return lines + [""]


def publish(lines, results):
    """Prints the tables and writes them to `results` (a path) when given."""
    text = "\n".join(lines)
    print(text)
    if results:
        with open(results, "w") as out:
            out.write(text + "\n")


def measure(entries, output, error_of, failures, tflop, triton_best=None):
    """[(label, ms, error ratio)] of `entries` [(label, run)]: each checked
    (checked()) then timed (stream.timed); a Triton row's label gets
    `triton_best()`, its autotuned configuration."""
    from stream import timed
    measured = []
    for label, run in entries:
        ratio = checked(label, run, output, error_of, failures)
        ms = timed(run)
        if label.startswith("Triton") and triton_best:
            label += " (best: %s)" % triton_best()
        measured.append((label, ms, ratio))
        print("%s: %.4f ms, %.0f TFLOP/s" % (label, ms, tflop / ms * 1e3), flush=True)
    return measured
