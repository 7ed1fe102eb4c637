"""The Python launch path on a GPU with PyTorch (the CPU suite,
test/python/test_launch.py and test_torch_op.py, uses fakes): the fast path,
streams, DLPack-only objects (from PyTorch, CuPy and JAX when installed),
Compiled.as_torch_op under torch.compile(fullgraph=True) with no graph
break, CUDA-graph capture and replay (of the op and of compiled(...)),
torch.compile(mode="reduce-overhead"), and with two GPUs the launch on the
tensors' device. Prints "ok: ..." or "FAIL: ..." per check; exit status 1
on any failure.
Usage (bundle): PYTHONPATH=python TIRX_LIBRARY=lib python3 run_torch.py EXAMPLES_DIR"""
import os
import sys
import traceback
import warnings

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # JAX, if present

import torch  # noqa: E402

import tirx  # noqa: E402

sys.path.insert(0, sys.argv[1])
from affine_relu import affine_relu  # noqa: E402

failures = 0


def check(name):
    """Runs the decorated function as one check."""
    def run(fn):
        global failures
        try:
            note = fn()
            print("ok: %s%s" % (name, ": " + note if note else ""), flush=True)
        except Exception:
            failures += 1
            print("FAIL: %s" % name, flush=True)
            traceback.print_exc()
        torch.cuda.synchronize()
        return fn
    return run


def reference(a):
    return torch.clamp_min(a * 2 + 1, 0)


def inputs(seed=0):
    generator = torch.Generator(device="cuda").manual_seed(seed)
    return torch.randn(2, 32, 4, device="cuda", generator=generator) * 4


compiled = tirx.compile(affine_relu, target="cuda")


@check("compiled(a, b), first (general) and later (fast) calls")
def _():
    for seed in range(3):
        a = inputs(seed)
        b = torch.full_like(a, float("nan"))
        compiled(a, b)
        torch.testing.assert_close(b, reference(a), rtol=0, atol=0)
    assert compiled._launcher._owner is not None


@check("compiled(a, b) on a side stream (torch.cuda.stream)")
def _():
    a, side = inputs(1), torch.cuda.Stream()
    b = torch.full_like(a, float("nan"))
    torch.cuda.synchronize()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        torch.cuda._sleep(1_000_000)  # the kernel must queue behind this
        compiled(a, b)
    side.synchronize()
    torch.testing.assert_close(b, reference(a), rtol=0, atol=0)


class DLPackOnly:
    """An array API object: only __dlpack__ and __dlpack_device__."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


@check("DLPack-only objects wrapping PyTorch tensors")
def _():
    a = inputs(2)
    b = torch.full_like(a, float("nan"))
    compiled(DLPackOnly(a), DLPackOnly(b))
    torch.cuda.synchronize()
    torch.testing.assert_close(b, reference(a), rtol=0, atol=0)


@check("CuPy arrays (__cuda_array_interface__) and DLPack-only CuPy arrays")
def _():
    try:
        import cupy as cp
    except ImportError:
        return "skipped: no CuPy"
    a = inputs(3)
    ca = cp.asarray(a)
    for wrap in (lambda x: x, DLPackOnly):
        cb = cp.full((2, 32, 4), cp.nan, dtype=cp.float32)
        compiled(wrap(ca), wrap(cb))
        cp.cuda.get_current_stream().synchronize()
        torch.testing.assert_close(torch.as_tensor(cb, device="cuda"), reference(a),
                                   rtol=0, atol=0)


@check("a JAX array as a DLPack-only input, a PyTorch output")
def _():
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return "skipped: no JAX"
    if not any(d.platform == "gpu" for d in jax.devices()):
        return "skipped: JAX has no GPU"
    a = inputs(4)
    ja = jax.device_put(jnp.asarray(a.cpu().numpy()), jax.devices("gpu")[0])
    b = torch.full_like(a, float("nan"))
    compiled(DLPackOnly(ja), b)
    torch.testing.assert_close(b, reference(a), rtol=0, atol=0)
    return "jax %s" % jax.__version__


op = compiled.as_torch_op(mutates_args=("B",))


@check("as_torch_op: eager call, torch.ops.tirx name")
def _():
    a = inputs(5)
    b = torch.full_like(a, float("nan"))
    op(a, b)
    torch.testing.assert_close(b, reference(a), rtol=0, atol=0)
    b.fill_(float("nan"))
    torch.ops.tirx.affine_relu(a, b)
    torch.testing.assert_close(b, reference(a), rtol=0, atol=0)
    return str(op)


@check("torch.compile(fullgraph=True) around the op: no graph break, right result")
def _():
    import torch._dynamo
    from torch._dynamo.utils import counters
    torch._dynamo.reset()
    counters.clear()

    def step(a):
        b = torch.empty_like(a)
        op(a * 1.0, b)
        return b + 1

    compiled_step = torch.compile(step, fullgraph=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for seed in range(3):
            a = inputs(6 + seed)
            torch.testing.assert_close(compiled_step(a), reference(a) + 1, rtol=0, atol=0)
    breaks = dict(counters["graph_break"])
    assert not breaks, "graph breaks: %s" % breaks
    noisy = [str(w.message) for w in caught if "graph break" in str(w.message).lower()]
    assert not noisy, "Dynamo warnings: %s" % noisy
    explained = torch._dynamo.explain(step)(inputs(9))
    assert explained.graph_break_count == 0 and explained.graph_count == 1, explained
    return "1 graph, 0 graph breaks"


@check("CUDA graph capture and replay of the op and of compiled(...)")
def _():
    for name, call in (("op", op), ("compiled", compiled)):
        a, b = inputs(10), torch.empty(2, 32, 4, device="cuda")
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # warm-up, as PyTorch asks before capture
            call(a, b)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            call(a, b)
        for seed in (11, 12):
            a.copy_(inputs(seed))
            b.fill_(float("nan"))
            graph.replay()
            torch.cuda.synchronize()
            torch.testing.assert_close(b, reference(a), rtol=0, atol=0, msg=name)


@check("torch.compile(mode='reduce-overhead', fullgraph=True) around the op")
def _():
    import torch._dynamo
    torch._dynamo.reset()

    def step(a):
        b = torch.empty_like(a)
        op(a, b)
        return b * 2

    compiled_step = torch.compile(step, mode="reduce-overhead", fullgraph=True)
    for seed in range(5):
        a = inputs(20 + seed)
        out = compiled_step(a).clone()
        torch.testing.assert_close(out, reference(a) * 2, rtol=0, atol=0)


@check("two GPUs: the launch runs on the tensors' device, not the current one")
def _():
    if torch.cuda.device_count() < 2:
        return "skipped: %d GPU" % torch.cuda.device_count()
    with torch.cuda.device(0):
        a = inputs(30).to("cuda:1")
        b = torch.full_like(a, float("nan"))
        compiled(a, b)
        compiled(a, b)  # the fast path too
        assert torch.cuda.current_device() == 0
    torch.cuda.synchronize(1)
    torch.testing.assert_close(b, reference(a), rtol=0, atol=0)
    try:
        compiled(inputs(31), b)
    except ValueError as error:
        assert "parameter 'A' is on cuda:0, but parameter 'B' is on cuda:1" in str(error)
    else:
        raise AssertionError("mixed devices were accepted")


@check("fast path: repeated calls take no general path")
def _():
    a = inputs(40)
    b = torch.empty_like(a)
    compiled(a, b)
    general = compiled._launcher._globals["_general"]
    calls = []
    compiled._launcher._globals["_general"] = lambda args: calls.append(args) or general(args)
    try:
        for _ in range(100):
            compiled(a, b)
    finally:
        compiled._launcher._globals["_general"] = general
    assert not calls, "%d of 100 calls took the general path" % len(calls)


print("torch checks: %d failed (torch %s, %s)" % (failures, torch.__version__,
                                                  torch.cuda.get_device_name()))
sys.exit(1 if failures else 0)
