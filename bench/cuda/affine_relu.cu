// Hand-written CUDA equivalent of examples/affine_relu.mlir:
// B = max(2*A + 1, 0) over a (2, 32, 4) f32 tensor; launch <<<1, 64>>>,
// each thread loads, transforms and stores its 4 consecutive floats.
extern "C" __global__ void affine_relu(const float4 *__restrict__ A,
                                       float4 *__restrict__ B) {
  unsigned t = threadIdx.x;
  float4 v = A[t];
  v.x = fmaxf(fmaf(v.x, 2.f, 1.f), 0.f);
  v.y = fmaxf(fmaf(v.y, 2.f, 1.f), 0.f);
  v.z = fmaxf(fmaf(v.z, 2.f, 1.f), 0.f);
  v.w = fmaxf(fmaf(v.w, 2.f, 1.f), 0.f);
  B[t] = v;
}
