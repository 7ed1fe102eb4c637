"""The GEMM benchmarks' handling of a TirX variant that fails (no GPU: torch,
Triton and the example are stand-ins): bench/gpu/gemm_report.first_run and
bench/gpu/gemm.py's main. A variant that fails to compile or launch is
reported by name with its reason, the others are still measured, and the
run exits 1; only the example's make_kernel precondition (blocks that do not
divide the shape) is a "does not fit", not a failure."""
import importlib.util
import os
import sys
import types

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "bench", "gpu")


def load(name, monkeypatch, as_name=None):
    """bench/gpu/NAME.py as module AS_NAME (default NAME) in sys.modules."""
    spec = importlib.util.spec_from_file_location(as_name or name,
                                                  os.path.join(BENCH, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, as_name or name, module)
    spec.loader.exec_module(module)
    return module


def make_kernel(M):
    assert M % 128 == 0, "M a multiple of BM"


def test_first_run_verdicts(monkeypatch, capsys):
    report = load("gemm_report", monkeypatch)
    failures = []
    assert report.first_run("fits", lambda: None, failures) is None

    why = report.first_run("too small", lambda: make_kernel(100), failures)
    assert why.startswith("skipped: too small: does not fit this shape (")
    assert "assert M % 128 == 0" in why
    assert failures == []

    def broken():
        raise RuntimeError("ptxas: too many registers\nmore detail")
    why = report.first_run("broken", broken, failures)
    assert why == "FAIL: broken: RuntimeError: ptxas: too many registers"
    assert failures == ["broken"]

    def asserts_elsewhere():
        assert False, "launch check"
    why = report.first_run("elsewhere", asserts_elsewhere, failures)
    assert why == "FAIL: elsewhere: AssertionError: launch check"
    assert failures == ["broken", "elsewhere"]
    out = capsys.readouterr()
    assert "FAIL: broken: RuntimeError" in out.out
    assert "Traceback" in out.err


def load_gemm_bench(monkeypatch, tmp_path, gemm):
    """bench/gpu/gemm.py with stand-ins for torch, Triton (not installed),
    the example (its gemm() is GEMM) and gemm_report's GPU parts: (the
    module, the labels measured per shape, the lines published)."""
    fake_torch = types.ModuleType("torch")
    fake_torch.matmul = lambda a, b, out=None: out
    monkeypatch.setitem(sys.modules, "torch", fake_torch)
    fake_triton = types.ModuleType("triton_matmul")
    fake_triton.triton_matmul_factory = lambda: (None, "not installed")
    monkeypatch.setitem(sys.modules, "triton_matmul", fake_triton)
    example = types.ModuleType("gemm")
    example.gemm = gemm
    example.reference = lambda a, b: None
    example.check = lambda a, b, out, expected=None: 0.0
    monkeypatch.setitem(sys.modules, "gemm", example)

    report = load("gemm_report", monkeypatch)
    measured_labels, published = [], []
    monkeypatch.setattr(report, "describe_device", lambda version: None)
    monkeypatch.setattr(report, "gemm_inputs", lambda M, N, K, ref: (None, None, "c", None, 1.0))

    def measure(entries, output, error_of, failures, tflop, triton_best=None):
        measured_labels.append([label for label, _ in entries])
        for _, run in entries:
            run()
        return [(label, 1.0, 0.0) for label, _ in entries]
    monkeypatch.setattr(report, "measure", measure)
    monkeypatch.setattr(report, "publish", lambda lines, results: published.extend(lines))
    monkeypatch.setattr(sys, "argv", ["gemm.py", str(tmp_path)])
    monkeypatch.setattr(sys, "path", list(sys.path))
    bench = load("gemm", monkeypatch, as_name="bench_gemm")
    assert bench.tirx_gemm is example
    return bench, measured_labels, published


def test_gemm_failed_variant_fails_the_run(monkeypatch, tmp_path, capsys):
    """bench/gpu/gemm.py: the 256 x 128 variant raises; the other three are
    measured at every shape, the failure is printed and published, exit 1."""
    def gemm(a, b, c, **variant):
        if variant["BM"] == 256:
            raise RuntimeError("launch failed: too many resources requested")
    bench, measured_labels, published = load_gemm_bench(monkeypatch, tmp_path, gemm)
    assert bench.main() == 1

    failed = bench.variant_name(bench.VARIANTS[1])
    others = [bench.variant_name(v) for v in bench.VARIANTS if v is not bench.VARIANTS[1]]
    assert len(measured_labels) == len(bench.SHAPES)
    for labels in measured_labels:
        assert labels == ["torch.matmul (cuBLAS)"] + others
    why = "FAIL: %s: RuntimeError: launch failed: too many resources requested" % failed
    assert capsys.readouterr().out.count(why) == len(bench.SHAPES)
    assert published.count("Not measured: " + why) == len(bench.SHAPES)


def test_gemm_all_variants_run_exits_0(monkeypatch, tmp_path):
    """The same stand-ins, no variant failing: every variant measured, exit 0
    (so the test above fails for the failure, not for the stand-ins)."""
    bench, measured_labels, published = load_gemm_bench(
        monkeypatch, tmp_path, lambda a, b, c, **variant: None)
    assert bench.main() == 0
    assert measured_labels == [["torch.matmul (cuBLAS)"] + [
        bench.variant_name(v) for v in bench.VARIANTS]] * len(bench.SHAPES)
    assert not [line for line in published if line.startswith("Not measured")]
