"""What the launch benchmarks (launch.py, launch_breakdown.py) share: the
host time per call, and their CuPy anchor, the seed's 256-float
affine-ReLU as a CuPy RawKernel, launched as `kernel((1,), (64,), (a, b))`
(one float4 per thread)."""
import time

AFFINE_RELU = """
extern "C" __global__ void affine_relu(const float4 *a, float4 *b) {
  float4 v = a[threadIdx.x];
  v.x = fmaxf(fmaf(v.x, 2.f, 1.f), 0.f); v.y = fmaxf(fmaf(v.y, 2.f, 1.f), 0.f);
  v.z = fmaxf(fmaf(v.z, 2.f, 1.f), 0.f); v.w = fmaxf(fmaf(v.w, 2.f, 1.f), 0.f);
  b[threadIdx.x] = v;
}"""


def affine_relu_kernel():
    """The RawKernel (raises ImportError without CuPy)."""
    import cupy as cp
    return cp.RawModule(code=AFFINE_RELU).get_function("affine_relu")


def per_call_us(fn, calls):
    """Microseconds per call of `calls` calls of `fn` then one synchronize
    (PyTorch's), as benchmarking.md measures launch overhead."""
    import torch
    torch.cuda.synchronize()
    begin = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - begin) / calls * 1e6
