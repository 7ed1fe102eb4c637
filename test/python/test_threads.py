"""Compiling from several threads at once (docs/python.md, "Threads"): the
tracer's state is per thread, the C API's compile is re-entrant, and the
compile cache stays consistent."""
import os
import sys
import threading

import pytest

import tirx
from tirx import _cache
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

import affine_relu
import silu
import to_float16

TARGET = {"kind": "cuda", "arch": "sm_90"}
KERNELS = [affine_relu.affine_relu, silu.affine_relu, to_float16.to_float16]
layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


def test_two_traces_interleaved():
    """Thread A enters its kernel, B enters another, A goes on and
    finishes, then B: with one process-wide tracer state, A's ops went to
    B's builder ("@kernel_a never calls T.device_entry"), and B's after A
    had left to none ("this must be called inside a @T.function being
    compiled")."""
    b_entered, a_done = threading.Event(), threading.Event()

    def body(A, B):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 4), "float32", layout=layout)
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A, scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, r, scope="cta")

    @T.function
    def kernel_a(A: T.Tensor((2, 32, 4), "float32", align=16),
                 B: T.Tensor((2, 32, 4), "float32", align=16)):
        assert b_entered.wait(10)
        body(A, B)

    @T.function
    def kernel_b(A: T.Tensor((2, 32, 4), "float32", align=16),
                 B: T.Tensor((2, 32, 4), "float32", align=16)):
        b_entered.set()
        assert a_done.wait(10)
        body(A, B)

    results = {}

    def run(name, kernel, done=None):
        try:
            results[name] = tirx.compile(kernel, target=TARGET).ptx
        except Exception as error:  # reported below
            results[name] = error
        finally:
            if done:
                done.set()

    threads = [threading.Thread(target=run, args=("a", kernel_a, a_done)),
               threading.Thread(target=run, args=("b", kernel_b))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert isinstance(results["a"], str), results["a"]
    assert isinstance(results["b"], str), results["b"]
    assert results["a"].replace("kernel_a", "kernel_b") == results["b"]


@pytest.mark.parametrize("cache", ["1", "0"])
def test_16_threads_3_kernels(tmp_path, monkeypatch, cache):
    monkeypatch.setenv("TIRX_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("TIRX_CACHE", "0")
    serial = [tirx.compile(kernel, target=TARGET).ptx for kernel in KERNELS]
    monkeypatch.setenv("TIRX_CACHE", cache)
    for kernel in KERNELS:
        kernel.compiled.clear()
    # Switch threads as often as possible, all starting together.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    barrier = threading.Barrier(16)
    results, errors = {}, []

    def work(index):
        try:
            barrier.wait(30)
            order = KERNELS[index % 3:] + KERNELS[:index % 3]
            for kernel in order:
                results[index, KERNELS.index(kernel)] = tirx.compile(kernel, target=TARGET)
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors
    for (index, k), compiled in results.items():
        assert compiled.ptx == serial[k]
    assert len(results) == 48
    if cache == "1":
        # One Compiled per kernel, and one valid entry each, nothing else.
        for k in range(3):
            assert len({id(results[i, k]) for i in range(16)}) == 1
        files = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
        assert files == sorted(results[0, k].cache_key + ".tirx" for k in range(3))
        for k in range(3):
            key = results[0, k].cache_key
            entry = _cache.load(key)
            assert entry["ptx"] == serial[k]
    else:
        assert not any(tmp_path.iterdir())
