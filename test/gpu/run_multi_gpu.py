"""Two GPUs (issue #20): TirX kernels on the device that holds the tensors,
and inside a torch.distributed (NCCL) job.

Written 2026-12-01, not yet run on a 2-GPU machine: every path that needs
two GPUs is untested. What ran where it was written (no GPU, no PyTorch):
`python3 -m py_compile`, pyflakes, the skip path (all five checks skipped,
exit 0, also with a stand-in torch reporting 1 GPU or no CUDA), every
example kernel compiled for sm_90, the compile-cache hand-over of check 4
(a second process gets both kernels from disk, same keys), and the Launcher
behaviour checks 2 and 3 assert (the exact message, nothing loaded by a
refused call, 1000 alternating calls: 2 modules, 2 general-path calls, each
launch on its device's stream) against test/python/test_launch.py's fake
runtime and fake tensors.

The five checks, each printing "ok: ...", "FAIL: ..." or "skipped: ...":
1. cuda:1's tensors while cuda:0 is current: every kernel of the seed's
   examples (affine_relu.py, silu.py, to_float16.py, affine_relu_large.py)
   and of the loop/size examples (column_sums.py at 3 row counts, the
   persistent and the one-pass affine-ReLU of affine_relu_persistent.py at
   sizes with and without a tail) is compiled once, loaded on cuda:1 only
   and exact there (silu: close to torch's, and bit for bit what the same
   kernel gives on cuda:0). The launch goes on cuda:1's current stream: with
   a non-default stream made current on cuda:1 and a long
   `torch.cuda._sleep` queued on it, the output is still untouched (read
   from another stream) while that stream is busy, and right once it is
   synchronized; cuda:0's stream stays idle and cuda:0 stays current (fast
   path and general path).
2. Tensors on two devices in one call: the launcher's ValueError, word for
   word, both orders, for a kernel never loaded and one loaded on both
   devices; nothing loaded by the call, the output untouched.
3. One compiled kernel called alternately on cuda:0 and cuda:1, 1000 times
   (n = 4099, a tail): every call's row exact, no write past n; the
   Launcher holds exactly two modules (one per device, never reloaded) and
   only the first call on each device took the general path.
4. A two-process NCCL job (this file re-run as `--rank R`, one GPU per
   rank, NCCL_NVLS_ENABLE=0, MASTER_ADDR=127.0.0.1, a free port): rank r
   runs the one-pass affine-ReLU on its shard of a vector and column_sums
   on its rows of a matrix, then all_reduce; both results equal the
   single-GPU reference bit for bit. The ranks share a fresh
   TIRX_CACHE_DIR: rank 0 compiles (Compiled.cache == "compiled"), a
   barrier, then rank 1 loads the same entries (Compiled.cache == "disk").
5. CUDA-graph capture on cuda:1 (the capture stream on cuda:1): the
   captured launch does not run at capture, each replay is exact (the seed's
   kernel and the one-pass kernel with its size variable).

With fewer than 2 GPUs (or without PyTorch, or without CUDA) every check
prints "skipped: ...: needs 2 GPUs (found N)", then the counts line, then a
last line with the reason, and the exit status is 77 (SKIP_STATUS: run.sh
counts it as skipped, not passed). Otherwise the last line is "multi-gpu
checks: N passed, N failed, N skipped"; the exit status is 1 on any failure.
Usage (bundle): PYTHONPATH=python TIRX_LIBRARY=lib python3 run_multi_gpu.py EXAMPLES_DIR"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback

CHECKS = (
    "1. cuda:1's tensors while cuda:0 is current: every example kernel, cuda:1's current stream",
    "2. tensors on two devices in one call: ValueError, nothing launched",
    "3. one compiled kernel alternately on cuda:0 and cuda:1, 1000 calls",
    "4. torch.distributed NCCL job, 2 ranks: TirX on each shard, all_reduce, shared disk cache",
    "5. CUDA-graph capture and replay of a TirX launch on cuda:1",
)
NAN = float("nan")
SLEEP_MS = 400          # the work queued ahead of a launch in check 1
NCCL_TIMEOUT_S = 300    # the whole two-process job of check 4
PERSISTENT_SIZES = (1, 3, 257, 2 ** 20, 2 ** 20 + 3, 2 ** 24 + 5)
DEVICE_ERROR = ("parameter 'A' is on cuda:%d, but parameter 'B' is on cuda:%d; "
                "the tensors of a call must be on one device")  # runtime.Launcher._device_error

torch = tirx = None  # imported by main() once two GPUs are known to be there
counts = {"passed": 0, "failed": 0, "skipped": 0}
SKIP_STATUS = 77  # test/gpu/tally.sh: every check skipped


def gpu_count():
    """(number of CUDA devices PyTorch sees, why it is 0)."""
    global torch
    try:
        import torch as imported
    except ImportError as error:
        return 0, "; PyTorch is not installed (%s)" % error
    torch = imported
    if not torch.cuda.is_available():
        return 0, "; torch.cuda.is_available() is False (torch %s)" % torch.__version__
    return torch.cuda.device_count(), ""


def run_check(name, fn):
    try:
        note = fn()
        counts["passed"] += 1
        print("ok: %s%s" % (name, ": " + note if note else ""), flush=True)
    except Exception:
        counts["failed"] += 1
        print("FAIL: %s" % name, flush=True)
        traceback.print_exc()
        sys.stderr.flush()
    for device in (0, 1):
        try:
            torch.cuda.synchronize(device)
        except Exception:  # a sticky error: the next checks report it
            traceback.print_exc()


def info(text):
    print("  " + text, flush=True)


#===------------------------------------------------------------------------===#
# Inputs, references, comparisons
#===------------------------------------------------------------------------===#

def randn(shape, device, seed):
    generator = torch.Generator(device=device).manual_seed(seed)
    return torch.randn(shape, device=device, generator=generator) * 4


def affine_relu_reference(a):
    # 2a is exact, so (2a) + 1 rounds once, as fma.rn.f32(a, 2, 1) does.
    return torch.clamp_min(a * 2 + 1, 0)


def sequential_column_sums(a):
    """float32 column sums of `a`, row 0 first, on the host: what
    column_sums.py's kernel computes, bit for bit."""
    a = a.cpu()
    acc = a.new_zeros((a.shape[1],))
    for row in a:
        acc += row  # one float32 rounding per add, as add.rn.f32
    return acc


def bits(t):
    return t.view({4: torch.int32, 2: torch.int16}[t.element_size()])


def assert_exact(got, want, what):
    want = want.to(got.device)
    if torch.equal(got, want):
        return
    wrong = (got != want) & ~(torch.isnan(got) & torch.isnan(want))
    count = int(wrong.sum().item())
    first = int(wrong.flatten().nonzero()[0].item()) if count else -1
    raise AssertionError("%s: %d of %d elements differ; first at flat index %d: got %r, want %r"
                         % (what, count, got.numel(), first,
                            got.flatten()[first].item() if count else None,
                            want.flatten()[first].item() if count else None))


class Spec:
    """A kernel of the examples, the input shapes it is run at, and how its
    output is checked."""

    def __init__(self, label, function, shapes, out_shape, out_dtype, reference, exact=True):
        self.label, self.function, self.shapes = label, function, shapes
        self.out_shape, self.out_dtype = out_shape, out_dtype
        self.reference, self.exact = reference, exact

    def inputs(self, shape, device, seed):
        a = randn(shape, device, seed)
        b = torch.full(self.out_shape(shape), NAN, device=device, dtype=self.out_dtype)
        return a, b

    def check(self, a, b, what):
        want = self.reference(a)
        if self.exact:
            assert_exact(b, want, what)
        else:  # the example's own tolerance (torch.testing's float32 default)
            torch.testing.assert_close(b, want.to(b.device), msg=lambda m: "%s: %s" % (what, m))


def example_specs(num_sms):
    from affine_relu import affine_relu
    from silu import affine_relu as silu_kernel  # silu.py's kernel is named affine_relu too
    from to_float16 import to_float16
    from affine_relu_large import affine_relu_large, N_CTAS
    from column_sums import column_sums, COLUMNS
    from affine_relu_persistent import make_kernel, make_one_pass_kernel
    f32 = torch.float32
    same = lambda shape: shape  # noqa: E731
    sizes = [(n,) for n in PERSISTENT_SIZES]
    return [
        Spec("affine_relu.py", affine_relu, [(2, 32, 4)], same, f32, affine_relu_reference),
        Spec("silu.py", silu_kernel, [(2, 32, 4)], same, f32, torch.nn.functional.silu,
             exact=False),
        Spec("to_float16.py", to_float16, [(2, 32, 4)], same, torch.float16,
             lambda a: a.to(torch.float16)),
        Spec("affine_relu_large.py", affine_relu_large, [(N_CTAS, 8, 32, 4, 4)], same, f32,
             affine_relu_reference),
        Spec("column_sums.py", column_sums, [(4, COLUMNS), (1000, COLUMNS), (4096, COLUMNS)],
             lambda shape: (COLUMNS,), f32, sequential_column_sums),
        Spec("affine_relu_persistent.py (persistent, %d SMs)" % num_sms, make_kernel(num_sms),
             sizes, same, f32, affine_relu_reference),
        Spec("affine_relu_persistent.py (one pass)", make_one_pass_kernel(), sizes, same, f32,
             affine_relu_reference),
    ]


#===------------------------------------------------------------------------===#
# 1. cuda:1's tensors while cuda:0 is current
#===------------------------------------------------------------------------===#

def sleep_cycles(ms):
    """torch.cuda._sleep's cycle count for about `ms` ms on cuda:1 (measured:
    no clock rate in the code)."""
    with torch.cuda.device(1):
        torch.cuda._sleep(1000)
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        torch.cuda._sleep(10 ** 7)
        end.record()
        end.synchronize()
        ms_per_cycle = start.elapsed_time(end) / 10 ** 7
    return int(min(max(ms / max(ms_per_cycle, 1e-9), 10 ** 6), 10 ** 11))


def count_general(compiled):
    """Wraps the launcher's general path (as run_torch.py does); returns the
    list its calls are appended to and the function that unwraps it."""
    g = compiled._launcher._globals
    general, calls = g["_general"], []
    g["_general"] = lambda args: calls.append(args) or general(args)

    def restore():
        g["_general"] = general
    return calls, restore


def check_queued_launch(spec, compiled, a, b, cycles, path):
    """Makes a new stream cuda:1's current one (cuda:0 stays current), queues
    a sleep of `cycles` on it, launches (`path`: "fast" through compiled(),
    "general" through the launcher's general path), and checks that the
    kernel waited for the sleep: `b` read from another stream is still NaN
    while the queued stream is busy, and right after it is synchronized."""
    torch.cuda.synchronize(0)
    torch.cuda.synchronize(1)
    with torch.cuda.device(1):
        previous = torch.cuda.current_stream()
        queued = torch.cuda.Stream()
        torch.cuda.set_stream(queued)
    try:
        assert torch.cuda.current_device() == 0, \
            "setting cuda:1's stream made cuda:%d current" % torch.cuda.current_device()
        assert torch.cuda.current_stream(1) == queued
        b.fill_(NAN)  # on `queued`: b's device's current stream
        queued.synchronize()
        with torch.cuda.device(1):
            torch.cuda._sleep(cycles)
        if path == "fast":
            calls, restore = count_general(compiled)
            try:
                compiled(a, b)
            finally:
                restore()
            assert not calls, "the call took the general path"
        else:
            compiled._launcher._general((a, b))
        assert torch.cuda.current_device() == 0, \
            "after the launch cuda:%d is current" % torch.cuda.current_device()
        watcher = torch.cuda.Stream(device=1)  # does not wait for `queued`
        with torch.cuda.device(1), torch.cuda.stream(watcher):
            flat = b.view(-1)  # its ends: a large output takes long to copy
            snapshot = torch.cat([flat[:1 << 16], flat[-(1 << 16):]]).cpu()
        busy = not queued.query()
        idle0 = torch.cuda.current_stream(0).query()
        assert busy, ("inconclusive: the %d-cycle sleep (~%d ms) ended before the output "
                      "was read; raise SLEEP_MS" % (cycles, SLEEP_MS))
        assert torch.isnan(snapshot.float()).all().item(), (
            "the kernel wrote the output while cuda:1's current stream was still busy with "
            "the work queued before it: it was not launched on that stream")
        assert idle0, "cuda:0's current stream has work"
        queued.synchronize()
        spec.check(a, b, "%s, %s path, after the queued sleep" % (spec.label, path))
    finally:
        with torch.cuda.device(1):
            torch.cuda.set_stream(previous)
        torch.cuda.synchronize(1)


def check_tensor_device():
    assert torch.cuda.current_device() == 0
    specs = example_specs(torch.cuda.get_device_properties(1).multi_processor_count)
    cycles = sleep_cycles(SLEEP_MS)
    info("a %d ms sleep on cuda:1 is %d cycles" % (SLEEP_MS, cycles))
    failures = []
    for spec in specs:
        try:
            compiled = tirx.compile(spec.function, target="cuda")
            first = None
            for k, shape in enumerate(spec.shapes):
                a, b = spec.inputs(shape, "cuda:1", seed=k)
                compiled(a, b)
                assert torch.cuda.current_device() == 0, \
                    "after the launch cuda:%d is current" % torch.cuda.current_device()
                torch.cuda.synchronize(1)
                spec.check(a, b, "%s, input shape %s on cuda:1" % (spec.label, shape))
                if first is None:
                    first = (a, b)
                else:
                    del a, b
            # Compiled once: the same object again, loaded on cuda:1 only.
            again = tirx.compile(spec.function, target="cuda")
            assert again is compiled, "a second tirx.compile returned another Compiled"
            loaded = sorted(compiled._launcher._modules)
            assert loaded == [1], "the kernel is loaded on devices %s, expected [1]" % loaded
            a, b = first
            for path in ("fast", "general"):
                check_queued_launch(spec, compiled, a, b, cycles, path)
            # The same kernel on cuda:0 gives the same bits (silu's exactness).
            a0 = a.to("cuda:0")
            b0 = torch.full_like(b, NAN, device="cuda:0")
            compiled(a0, b0)
            torch.cuda.synchronize(0)
            assert torch.equal(bits(b0).to("cuda:1"), bits(b)), \
                "%s: cuda:0 and cuda:1 give different bits" % spec.label
            info("%s: %d shape(s) exact on cuda:1, compiled once (%s), loaded on cuda:1 "
                 "only, launched behind a %d ms sleep on cuda:1's current stream (fast and "
                 "general path), cuda:0 idle and current, same bits as on cuda:0"
                 % (spec.label, len(spec.shapes), compiled.cache, SLEEP_MS))
            del a, b, a0, b0, first
        except Exception as error:
            failures.append("%s: %s: %s" % (spec.label, type(error).__name__, error))
            print("  FAIL %s" % spec.label, flush=True)
            traceback.print_exc()
        torch.cuda.synchronize(1)
        torch.cuda.empty_cache()
    assert not failures, "%d of %d kernels failed:\n  %s" % (
        len(failures), len(specs), "\n  ".join(failures))
    return "%d kernels, %d shapes" % (len(specs), sum(len(s.shapes) for s in specs))


#===------------------------------------------------------------------------===#
# 2. Tensors on two devices in one call
#===------------------------------------------------------------------------===#

def check_mixed_devices():
    from affine_relu import affine_relu
    from affine_relu_persistent import make_one_pass_kernel
    loaded = tirx.compile(affine_relu, target="cuda")
    # A Compiled of its own (a new @T.function), never launched before.
    fresh = tirx.compile(make_one_pass_kernel(), target="cuda")
    assert fresh._launcher is None
    # The seed's kernel loaded on both devices, so the fast path sees the call.
    for device in (0, 1):
        a = randn((2, 32, 4), "cuda:%d" % device, 50)
        b = torch.empty_like(a)
        loaded(a, b)
        loaded(a, b)
    assert sorted(loaded._launcher._modules) == [0, 1]
    cases = [(loaded, (2, 32, 4), 0, 1), (loaded, (2, 32, 4), 1, 0),
             (fresh, (4099,), 0, 1), (fresh, (4099,), 1, 0)]
    for compiled, shape, da, db in cases:
        a = randn(shape, "cuda:%d" % da, 51)
        kept = a.clone()
        b = torch.full(shape, NAN, device="cuda:%d" % db)
        torch.cuda.synchronize(0)
        torch.cuda.synchronize(1)
        try:
            compiled(a, b)
        except ValueError as error:
            expected = DEVICE_ERROR % (da, db)
            assert str(error) == expected, "the message is %r, expected %r" % (
                str(error), expected)
        else:
            raise AssertionError("%s: A on cuda:%d, B on cuda:%d was accepted" % (
                compiled.name, da, db))
        assert torch.cuda.current_device() == 0
        torch.cuda.synchronize(0)
        torch.cuda.synchronize(1)
        assert torch.isnan(b).all().item(), "%s: the output was written" % compiled.name
        assert torch.equal(a, kept), "%s: the input changed" % compiled.name
    assert fresh._launcher is not None and not fresh._launcher._modules and \
        not fresh._launcher._prepared, "the refused calls loaded the kernel on %s" % sorted(
            fresh._launcher._modules)
    return "4 calls refused with %r (and the reverse), outputs untouched, nothing loaded" % (
        DEVICE_ERROR % (0, 1))


#===------------------------------------------------------------------------===#
# 3. One compiled kernel alternately on both devices
#===------------------------------------------------------------------------===#

def check_alternating():
    from affine_relu_persistent import make_one_pass_kernel
    compiled = tirx.compile(make_one_pass_kernel(), target="cuda")  # a Compiled of its own
    calls, rows, n, pitch = 1000, 500, 4099, 4100  # rows 16-byte aligned; n has a tail
    A = [randn((rows, pitch), "cuda:%d" % d, 60 + d) for d in (0, 1)]
    B = [torch.full((rows, pitch), NAN, device="cuda:%d" % d) for d in (0, 1)]
    compiled._make_launcher()
    launcher = compiled._launcher
    general, restore = count_general(compiled)
    modules = None
    try:
        for i in range(calls):
            d, k = i % 2, i // 2
            compiled(A[d][k, :n], B[d][k, :n])
            if i == 1:
                modules = {dev: m[0].value for dev, m in launcher._modules.items()}
    finally:
        restore()
    assert torch.cuda.current_device() == 0
    for d in (0, 1):
        torch.cuda.synchronize(d)
        assert_exact(B[d][:, :n], affine_relu_reference(A[d][:, :n]),
                     "cuda:%d, rows 0..%d" % (d, rows - 1))
        assert torch.isnan(B[d][:, n:]).all().item(), "cuda:%d: a write past n" % d
    now = {dev: m[0].value for dev, m in launcher._modules.items()}
    assert len(launcher._modules) == 2 and sorted(now) == [0, 1], \
        "the Launcher holds modules for devices %s" % sorted(now)
    assert now == modules, "a module was loaded again: %s, then %s" % (modules, now)
    assert all(now.values()) and now[0] != now[1], "module handles %s" % now
    assert sorted(launcher._prepared) == [0, 1]
    assert len(general) == 2, ("%d of %d calls took the general path, expected 2 (the first "
                               "on each device)" % (len(general), calls))
    return "%d calls exact, 2 modules (one per device, loaded once), 2 general-path calls" % calls


#===------------------------------------------------------------------------===#
# 4. A two-process torch.distributed (NCCL) job
#===------------------------------------------------------------------------===#

VECTOR_N, VECTOR_CUT = 2 ** 21 + 3, 2 ** 20  # rank 1's shard has a tail
MATRIX_ROWS, MATRIX_CUT = 4100, 2048         # both row counts multiples of 4


def rank_main(rank, examples, out_file):
    """One rank of check 4 (run as `run_multi_gpu.py --rank R EXAMPLES OUT`)."""
    global torch
    os.environ["NCCL_NVLS_ENABLE"] = "0"  # before init: NVLink multicast off
    from datetime import timedelta

    import torch as imported
    import torch.distributed as dist
    torch = imported  # for the helpers above
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method="env://", rank=rank, world_size=2,
                            timeout=timedelta(seconds=120))
    result = {"rank": rank, "device": torch.cuda.current_device()}
    try:
        import tirx
        from tirx import _cache
        sys.path.insert(0, examples)
        from affine_relu_persistent import make_one_pass_kernel
        from column_sums import column_sums, COLUMNS
        functions = {"one_pass": make_one_pass_kernel(), "column_sums": column_sums}
        compiled = {}
        if rank == 0:  # compiles and writes the entries
            compiled = {k: tirx.compile(f, target="cuda") for k, f in functions.items()}
        dist.barrier(device_ids=[rank])
        if rank == 1:  # finds them on disk
            compiled = {k: tirx.compile(f, target="cuda") for k, f in functions.items()}
        result["cache_dir"] = _cache.directory()
        result["cache"] = {k: c.cache for k, c in compiled.items()}
        result["keys"] = {k: c.cache_key for k, c in compiled.items()}
        result["entries"] = {k: os.path.isfile(_cache.path(c.cache_key)) for k, c
                             in compiled.items()}
        device = torch.device("cuda", rank)
        exact = {}
        # A vector: each rank writes its shard of a zero vector, then SUM.
        x = torch.randn(VECTOR_N, generator=torch.Generator().manual_seed(1234)) * 4
        xd = x.to(device)
        lo, hi = (0, VECTOR_CUT) if rank == 0 else (VECTOR_CUT, VECTOR_N)
        out = torch.zeros(VECTOR_N, device=device)
        compiled["one_pass"](xd[lo:hi], out[lo:hi])
        dist.all_reduce(out)
        whole = torch.full_like(xd, NAN)  # the single-GPU reference: one launch
        compiled["one_pass"](xd, whole)
        torch.cuda.synchronize(device)
        exact["vector == one launch over the whole vector on one GPU"] = torch.equal(out, whole)
        exact["vector == torch on the CPU"] = torch.equal(out.cpu(), affine_relu_reference(x))
        # A matrix: each rank sums its rows' columns, then SUM of the partials.
        m = torch.randn(MATRIX_ROWS, COLUMNS, generator=torch.Generator().manual_seed(5678))
        md = m.to(device)
        lo, hi = (0, MATRIX_CUT) if rank == 0 else (MATRIX_CUT, MATRIX_ROWS)
        part = torch.full((COLUMNS,), NAN, device=device)
        compiled["column_sums"](md[lo:hi], part)
        dist.all_reduce(part)
        halves = [torch.full((COLUMNS,), NAN, device=device) for _ in range(2)]
        compiled["column_sums"](md[:MATRIX_CUT], halves[0])  # single-GPU reference
        compiled["column_sums"](md[MATRIX_CUT:], halves[1])
        torch.cuda.synchronize(device)
        exact["column sums == both halves on one GPU, added"] = torch.equal(
            part, halves[0] + halves[1])
        exact["column sums == sequential sums on the CPU, added"] = torch.equal(
            part.cpu(), sequential_column_sums(m[:MATRIX_CUT]) +
            sequential_column_sums(m[MATRIX_CUT:]))
        result["exact"] = exact
        dist.barrier(device_ids=[rank])
    finally:
        dist.destroy_process_group()
        with open(out_file, "w") as file:
            json.dump(result, file)
    return 0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_nccl(examples):
    work = tempfile.mkdtemp(prefix="tirx-multi-gpu-")
    cache_dir = os.path.join(work, "cache")  # fresh: nothing compiled yet
    env = dict(os.environ, NCCL_NVLS_ENABLE="0", MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(free_port()), WORLD_SIZE="2", TIRX_CACHE="1",
               TIRX_CACHE_DIR=cache_dir)
    processes, logs = [], []
    try:
        for rank in (0, 1):
            log = os.path.join(work, "rank%d.log" % rank)
            logs.append(log)
            with open(log, "w") as file:
                processes.append(subprocess.Popen(
                    [sys.executable, os.path.abspath(__file__), "--rank", str(rank), examples,
                     os.path.join(work, "rank%d.json" % rank)],
                    env=dict(env, RANK=str(rank), LOCAL_RANK=str(rank)),
                    stdout=file, stderr=subprocess.STDOUT))
        deadline = time.monotonic() + NCCL_TIMEOUT_S
        try:
            for process in processes:
                process.wait(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            for process in processes:
                if process.poll() is None:
                    process.kill()
                    process.wait()
            raise AssertionError("the job did not finish in %d s\n%s" % (
                NCCL_TIMEOUT_S, tails(logs)))
        codes = [p.returncode for p in processes]
        assert codes == [0, 0], "exit statuses %s\n%s" % (codes, tails(logs))
        ranks = []
        for rank in (0, 1):
            with open(os.path.join(work, "rank%d.json" % rank)) as file:
                ranks.append(json.load(file))
        for rank, result in enumerate(ranks):
            assert result["device"] == rank, result
            assert result["cache_dir"] == cache_dir, result
            bad = [k for k, ok in result["exact"].items() if not ok]
            assert not bad, "rank %d: not exact: %s" % (rank, bad)
            assert all(result["entries"].values()), "rank %d: entries %s" % (
                rank, result["entries"])
        assert set(ranks[0]["cache"].values()) == {"compiled"}, \
            "rank 0 (a fresh cache folder): %s, expected all 'compiled'" % ranks[0]["cache"]
        assert set(ranks[1]["cache"].values()) == {"disk"}, \
            "rank 1 (after rank 0's compile): %s, expected all 'disk'" % ranks[1]["cache"]
        assert ranks[0]["keys"] == ranks[1]["keys"], (ranks[0]["keys"], ranks[1]["keys"])
        for name, ok in ranks[0]["exact"].items():
            info("both ranks: %s: %s" % (name, "exact" if ok else "WRONG"))
        return ("2 ranks; rank 0 compiled %s, rank 1 loaded them from disk; all_reduce results "
                "exact" % ", ".join(sorted(ranks[0]["cache"])))
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        shutil.rmtree(work, ignore_errors=True)


def tails(logs):
    text = []
    for log in logs:
        try:
            with open(log) as file:
                lines = file.read().splitlines()[-40:]
        except OSError:
            lines = ["(no log)"]
        text.append("--- %s\n%s" % (os.path.basename(log), "\n".join(lines)))
    return "\n".join(text)


#===------------------------------------------------------------------------===#
# 5. CUDA-graph capture on cuda:1
#===------------------------------------------------------------------------===#

def check_graph():
    from affine_relu import affine_relu
    from affine_relu_persistent import make_one_pass_kernel
    cases = [("affine_relu.py", tirx.compile(affine_relu, target="cuda"), (2, 32, 4)),
             ("one pass, n = 2^20 + 3", tirx.compile(make_one_pass_kernel(), target="cuda"),
              (2 ** 20 + 3,))]
    for label, compiled, shape in cases:
        a = randn(shape, "cuda:1", 70)
        b = torch.full(shape, NAN, device="cuda:1")
        capture = torch.cuda.Stream(device=1)
        with torch.cuda.device(1):
            capture.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(capture):  # warm-up (loads it), as PyTorch asks
                compiled(a, b)
            torch.cuda.current_stream().wait_stream(capture)
            torch.cuda.synchronize()
            b.fill_(NAN)
            torch.cuda.synchronize()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, stream=capture):
                compiled(a, b)
            torch.cuda.synchronize()
            assert torch.isnan(b).all().item(), \
                "%s: the launch ran during the capture instead of being captured" % label
            for seed in (71, 72, 73):
                a.copy_(randn(shape, "cuda:1", seed))
                b.fill_(NAN)
                graph.replay()
                torch.cuda.synchronize()
                assert_exact(b, affine_relu_reference(a), "%s, replay" % label)
        assert torch.cuda.current_device() == 0
        info("%s: captured on a cuda:1 stream, not run at capture, 3 replays exact" % label)
    return "%d kernels" % len(cases)


#===------------------------------------------------------------------------===#

def main(argv):
    global tirx
    if len(argv) == 5 and argv[1] == "--rank":
        return rank_main(int(argv[2]), argv[3], argv[4])
    if len(argv) != 2:
        print(__doc__.rsplit("\n", 1)[-1], file=sys.stderr)
        return 2
    examples = os.path.abspath(argv[1])
    found, why = gpu_count()
    if found < 2:
        for name in CHECKS:
            counts["skipped"] += 1
            print("skipped: %s: needs 2 GPUs (found %d)%s" % (name, found, why), flush=True)
    else:
        torch.cuda.set_device(0)
        sys.path.insert(0, examples)
        try:
            import tirx as imported
            tirx = imported
        except Exception:
            traceback.print_exc()
            for name in CHECKS:
                counts["failed"] += 1
                print("FAIL: %s: import tirx failed" % name, flush=True)
        else:
            try:
                nccl = ".".join(map(str, torch.cuda.nccl.version()))
            except Exception as error:
                nccl = "unknown (%s)" % error
            print("multi-gpu: torch %s, NCCL %s, %d GPUs: %s" % (
                torch.__version__, nccl, found,
                ", ".join("cuda:%d %s" % (d, torch.cuda.get_device_name(d))
                          for d in range(found))), flush=True)
            for name, fn in zip(CHECKS, (check_tensor_device, check_mixed_devices,
                                         check_alternating, lambda: check_nccl(examples),
                                         check_graph)):
                run_check(name, fn)
    print("multi-gpu checks: %d passed, %d failed, %d skipped" % (
        counts["passed"], counts["failed"], counts["skipped"]), flush=True)
    if counts["failed"]:
        return 1
    if not counts["passed"]:
        print("all %d checks skipped: needs 2 GPUs (found %d)%s" % (len(CHECKS), found, why),
              flush=True)
        return SKIP_STATUS
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
