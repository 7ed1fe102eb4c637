"""Thread-block clusters from Python (docs/hopper.md): LaunchConfig(cluster=)
puts .reqnctapercluster in the PTX (a plain launch then runs the grid in
clusters), and a cluster the launch cannot have is a located CompileError.
No GPU needed (the launcher's runtime-grid check is in test_launch.py)."""
import re

import pytest

import helpers

import tirx
from tirx.script import tirx as T

TARGET = {"kind": "cuda", "arch": "sm_90"}


def kernel(grid, cluster):
    @T.function
    def clustered(A: T.Tensor((64,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=32, cluster=cluster))  # LC
        bx = T.cuda.block_idx("x")
        x = T.alloc_local((1,), "float32")
        i = bx % 64
        T.cuda.tile.apply(T.ptx["ld.global.b32"], x, A[i:i + 1], scope="thread")
        T.cuda.tile.apply(T.ptx["st.global.b32"], A[i:i + 1], x, scope="thread")
    return clustered


def test_cluster_reaches_the_ptx():
    ptx = tirx.compile(kernel(8, 2), target=TARGET).ptx
    assert re.search(r"\.explicitcluster\s+\.reqnctapercluster 2, 1, 1", ptx)
    ptx = tirx.compile(kernel((4, 2), (2, 2)), target=TARGET).ptx
    assert ".reqnctapercluster 2, 2, 1" in ptx


def test_no_cluster_no_directive():
    ptx = tirx.compile(kernel(8, None), target=TARGET).ptx
    assert "reqnctapercluster" not in ptx and "explicitcluster" not in ptx


@pytest.mark.parametrize("grid, cluster, message", [
    (6, 4, "cluster extent x = 4 does not divide grid extent 6"),
    (16, 16, "cluster extent x = 16 is out of range [1, 8]"),
    ((4, 4), 2, "cluster must have one extent per grid extent (2), got 1"),
])
def test_bad_cluster_is_located(grid, cluster, message):
    with pytest.raises(tirx.CompileError, match=re.escape(message)) as error:
        tirx.compile(kernel(grid, cluster), target=TARGET)
    assert helpers.line_of(__file__, "# LC") in str(error.value)


def test_cluster_needs_sm_90():
    with pytest.raises(tirx.CompileError, match=re.escape(
            "runs in thread-block clusters, which need sm_90 or later, but the target is "
            "sm_80")):
        tirx.compile(kernel(8, 2), target={"kind": "cuda", "arch": "sm_80"})


def test_cluster_extents_are_ints():
    with pytest.raises(tirx.CompileError, match=re.escape("LaunchConfig cluster= needs an int "
                                                          "or 1 to 3 ints (x first)")):
        tirx.compile(kernel(8, "two"), target=TARGET)
