// Hand-written CUDA equivalent of examples/silu.mlir:
// B = A / (1 + exp(-A)) over a (2, 32, 4) f32 tensor; launch <<<1, 64>>>,
// each thread loads, transforms and stores its 4 consecutive floats.
__device__ __forceinline__ float silu(float x) { return x / (1.f + expf(-x)); }

extern "C" __global__ void silu_kernel(const float4 *__restrict__ A,
                                       float4 *__restrict__ B) {
  unsigned t = threadIdx.x;
  float4 v = A[t];
  v.x = silu(v.x);
  v.y = silu(v.y);
  v.z = silu(v.z);
  v.w = silu(v.w);
  B[t] = v;
}
