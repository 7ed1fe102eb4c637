"""The launch benchmarks' CuPy anchor (launch.py, launch_breakdown.py): the
seed's 256-float affine-ReLU as a CuPy RawKernel, launched as
`kernel((1,), (64,), (a, b))` (one float4 per thread)."""

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
