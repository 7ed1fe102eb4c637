"""GPU truth of thread-block clusters (docs/hopper.md), through the Python
package and its launcher: a kernel launched in clusters of CLUSTER CTAs
(LaunchConfig(cluster=)) initializes its mbarrier, publishes it to the
cluster (fence.mbarrier_init.release.cluster), meets the cluster
(barrier.cluster.arrive/wait), then thread 0 of each CTA loads its share of
the cluster's rows with one TMA load multicast to every CTA of the cluster
(.multicast::cluster, ctaMask all ones). Every CTA's image and mbarrier receive every share, so
each CTA then holds all the cluster's rows; it stores them to its own slice
of C (a TMA store), and the cluster meets again before any CTA exits (a peer
may still be writing into its shared memory). C is compared with the host
model bit for bit: C[b] = A[rows of b's cluster]. Then remote arrivals:
each CTA arrives on every other CTA's mbarrier (mbarrier.arrive on
.shared::cluster, the address mapped with mapa) and waits on its own.
Prints PASS:/FAIL: per case; exit 1 on any failure.
Usage: run_cluster.py (torch, CUDA GPU with sm_90). The kernels also run
on the CPU interpreter (test/python/test_interpreter.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
import tirx  # noqa: E402
from tirx.script import tirx as T  # noqa: E402

LOAD = ("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
        "mbarrier::complete_tx::bytes.multicast::cluster")
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
SHARE, COLS = 16, 64  # rows each CTA loads, bf16 columns (128-byte rows)


def init_barrier(bar, arrivals, tx):
    """Thread 0 (tx == 0) initializes the CTA's mbarrier and publishes it
    to the cluster; the cluster then meets, so no CTA signals a peer's
    barrier before it is initialized."""
    with T.If(tx == 0):
        with T.Then():
            T.ptx.mbarrier.init(bar.data, arrivals)
            T.ptx.fence.mbarrier_init.release.cluster()
    T.cuda.tile.apply(T.ptx["barrier.cluster.arrive.aligned"], scope="cta")
    T.cuda.tile.apply(T.ptx["barrier.cluster.wait.aligned"], scope="cta")


def leave_cluster():
    """No CTA leaves while a peer may still write its shared memory."""
    T.cuda.tile.apply(T.ptx["barrier.cluster.arrive.relaxed.aligned"], scope="cta")
    T.cuda.tile.apply(T.ptx["barrier.cluster.wait.aligned"], scope="cta")


def kernel(cluster, clusters):
    grid = cluster * clusters
    rows = SHARE * cluster  # a cluster's rows
    nbytes = rows * COLS * 2

    @T.function
    def multicast(A: T.Tensor((rows * clusters, COLS), "bfloat16", align=16),
                  C: T.Tensor((rows * grid, COLS), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=128, cluster=cluster))
        img = T.alloc_shared((rows, COLS), "bfloat16", align=128)
        bar = T.alloc_shared((1,), "uint64", align=8)
        tx = T.cuda.thread_idx("x")
        bx = T.cuda.block_idx("x")
        init_barrier(bar, 1, tx)
        with T.If(tx == 0):
            with T.Then():
                first = bx // cluster * rows
                share = bx % cluster * SHARE  # this CTA's rank's rows
                T.ptx.mbarrier.arrive.expect_tx(bar.data, nbytes)
                mask = T.int16((1 << cluster) - 1)
                T.cuda.tile.apply(T.ptx[LOAD], img[share:share + SHARE, :],
                                  A[first + share:first + share + SHARE, :], bar, mask,
                                  scope="thread")
                T.ptx.mbarrier.try_wait(bar.data, 0)
                T.cuda.tile.apply(T.ptx[STORE], C[bx * rows:bx * rows + rows, :], img,
                                  scope="thread")
                T.cuda.tile.apply(T.ptx["cp.async.bulk.commit_group"], scope="thread")
                T.cuda.tile.apply(T.ptx["cp.async.bulk.wait_group.read"], T.int32(0),
                                  scope="thread")
        leave_cluster()
    return multicast


def remote_arrive_kernel(cluster, clusters):
    """Every CTA's thread 0 arrives on the barrier of every other CTA of its
    cluster (mbarrier.arrive...shared::cluster through mapa), then waits on
    its own, which expects cluster - 1 arrivals, and writes its block index
    to out[bx]: a lost arrival hangs the kernel (the caller times out)."""
    grid = cluster * clusters

    @T.function
    def remote_arrive(out: T.Tensor((grid,), "int32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=32, cluster=cluster))
        bar = T.alloc_shared((1,), "uint64", align=8)
        tx = T.cuda.thread_idx("x")
        bx = T.cuda.block_idx("x")
        init_barrier(bar, cluster - 1, tx)
        with T.If(tx == 0):
            with T.Then():
                for k in range(1, cluster):
                    T.ptx.mbarrier.arrive.release.cluster.shared__cluster.b64(
                        bar.data, T.int32((bx % cluster + k) % cluster))
                T.ptx.mbarrier.try_wait.parity.acquire.cluster.shared__cta.b64(bar.data, 0)
                word = T.alloc_local((1,), "int32")
                T.cuda.tile.apply(T.ptx["mov.s32"], word, T.int32(bx), scope="thread")
                T.cuda.tile.apply(T.ptx["st.global.b32"], out[bx:bx + 1], word, scope="thread")
        leave_cluster()
    return remote_arrive


def main():
    import torch

    passed = failed = 0

    def report(ok, name):
        nonlocal passed, failed
        print("%s: %s" % ("PASS" if ok else "FAIL", name))
        passed += bool(ok)
        failed += not ok

    gen = torch.Generator(device="cpu").manual_seed(0)
    for cluster, clusters in ((2, 4), (2, 66), (4, 8), (8, 3)):
        name = "%d clusters of %d CTAs, multicast loads" % (clusters, cluster)
        try:
            compiled = tirx.compile(kernel(cluster, clusters), target="cuda")
            rows = SHARE * cluster
            a = torch.randn(rows * clusters, COLS, generator=gen).to(torch.bfloat16)
            A = a.cuda()
            C = torch.full((rows * cluster * clusters, COLS), float("nan"), dtype=torch.bfloat16,
                           device="cuda")
            compiled(A, C)
            torch.cuda.synchronize()
            want = a.view(clusters, 1, rows, COLS).expand(clusters, cluster, rows, COLS)
            ok = torch.equal(C.cpu().view(torch.int16),
                             want.reshape(-1, COLS).contiguous().view(torch.int16))
            report(ok, name)
        except Exception as error:  # a launch failure is a failed case, not a crash
            report(False, "%s: %s: %s" % (name, type(error).__name__, error))

    for cluster, clusters in ((2, 66), (4, 8), (8, 3)):
        name = "%d clusters of %d CTAs, arrivals on every other CTA's mbarrier (mapa)" % (
            clusters, cluster)
        try:
            compiled = tirx.compile(remote_arrive_kernel(cluster, clusters), target="cuda")
            out = torch.zeros(cluster * clusters, dtype=torch.int32, device="cuda")
            compiled(out)
            torch.cuda.synchronize()
            report(torch.equal(out.cpu(), torch.arange(cluster * clusters, dtype=torch.int32)),
                   name)
        except Exception as error:
            report(False, "%s: %s: %s" % (name, type(error).__name__, error))

    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
