// Hand-written CUDA equivalent of examples/to_float16.mlir:
// B = half(A) (round to nearest even) over a (2, 32, 4) tensor; launch
// <<<1, 64>>>, each thread converts its 4 consecutive floats and stores the
// four halves with one 8-byte vector store.
#include <cuda_fp16.h>

struct __align__(8) half4 { __half x, y, z, w; };

extern "C" __global__ void to_float16(const float4 *__restrict__ A,
                                      half4 *__restrict__ B) {
  unsigned t = threadIdx.x;
  float4 v = A[t];
  half4 h;
  h.x = __float2half_rn(v.x);
  h.y = __float2half_rn(v.y);
  h.z = __float2half_rn(v.z);
  h.w = __float2half_rn(v.w);
  B[t] = h;
}
