"""Triton's tiled matmul, the anchor of the GEMM benchmarks (gemm.py,
gemm_hopper.py): the tutorial's algorithm (grouped program order, tl.dot,
which Triton 3 lowers to wgmma on Hopper, or to mma.sync with
DISABLE_MMA_V3=1 in the environment), autotuned over its configurations;
the best configuration's description names the instruction its PTX has.
C = A @ B for any strides of A (M, K) and B (K, N)."""


_kernels = {}


def _matmul_kernel(autotune_configs=None):
    """The tutorial's kernel, jitted once per way of choosing its
    configuration: autotuned over `autotune_configs`, or (None) with the
    configuration given at each launch."""
    key = "autotuned" if autotune_configs else "fixed"
    if key in _kernels:
        return _kernels[key]
    import triton
    import triton.language as tl

    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                      stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
        pid = tl.program_id(0)
        tiles_m = tl.cdiv(M, BLOCK_M)
        tiles_n = tl.cdiv(N, BLOCK_N)
        in_group = GROUP_M * tiles_n
        first_m = (pid // in_group) * GROUP_M
        group_rows = min(tiles_m - first_m, GROUP_M)
        pid_m = first_m + (pid % in_group) % group_rows
        pid_n = (pid % in_group) // group_rows
        rows = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
        cols = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
        ks = tl.arange(0, BLOCK_K)
        a = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
        b = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            acc = tl.dot(tl.load(a), tl.load(b), acc)
            a += BLOCK_K * stride_ak
            b += BLOCK_K * stride_bk
        out_rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        out_cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        c = c_ptr + out_rows[:, None] * stride_cm + out_cols[None, :] * stride_cn
        tl.store(c, acc.to(tl.bfloat16), mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))

    kernel = triton.jit(matmul_kernel)
    if autotune_configs:
        kernel = triton.autotune(configs=list(autotune_configs), key=["M", "N", "K"])(kernel)
    _kernels[key] = kernel
    return kernel


def _launch(kernel, a, b, c, grid, **meta):
    M, K = a.shape
    N = b.shape[1]
    return kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), **meta)


def instruction_of(compiled):
    """The matrix instruction in a launched kernel's PTX (Triton picks
    wgmma on Hopper unless DISABLE_MMA_V3=1 makes it mma.sync)."""
    ptx = getattr(compiled, "asm", {}).get("ptx", "")
    return "wgmma" if "wgmma.mma_async" in ptx else "mma.sync" if "mma.sync" in ptx else "?"


def triton_matmul_fixed(bm, bn, bk, warps, stages, group_m=8):
    """run(a, b, c) of the same kernel at one configuration, and a dict
    whose "kernel" is the last launch's compiled kernel (registers, shared
    bytes, PTX)."""
    import triton
    kernel = _matmul_kernel()
    launched = {}

    def run(a, b, c):
        grid = (triton.cdiv(a.shape[0], bm) * triton.cdiv(b.shape[1], bn),)
        launched["kernel"] = _launch(kernel, a, b, c, grid, BLOCK_M=bm, BLOCK_N=bn,
                                     BLOCK_K=bk, GROUP_M=group_m, num_warps=warps,
                                     num_stages=stages)
        return c
    return run, launched


def triton_matmul_factory():
    try:
        import triton
    except ImportError:
        return None, None
    configs = []
    for bm, bn, bk, stages, warps in [(128, 256, 64, 3, 8), (64, 256, 32, 4, 4),
                                      (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
                                      (64, 128, 32, 4, 4), (128, 32, 32, 4, 4),
                                      (256, 128, 64, 3, 8), (128, 128, 64, 4, 4)]:
        configs.append(triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk,
                                      "GROUP_M": 8}, num_stages=stages, num_warps=warps))
    matmul_kernel = _matmul_kernel(configs)
    launched = {}

    def run(a, b, c):
        M, N = a.shape[0], b.shape[1]
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
        launched["kernel"] = _launch(matmul_kernel, a, b, c, grid)
        return c

    def best(M, N, K):
        config = matmul_kernel.best_config
        return "%dx%dx%d, %d warps, %d stages, %s" % (
            config.kwargs["BLOCK_M"], config.kwargs["BLOCK_N"], config.kwargs["BLOCK_K"],
            config.num_warps, config.num_stages, instruction_of(launched.get("kernel")))
    return (run, best), triton.__version__
