// The H200's rate for mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// alone: each warp issues CHAINS independent accumulator chains from
// registers (no memory traffic in the loop), for WARPS warps per CTA and as
// many CTAs as the SMs hold. The ceiling an ldmatrix + mma.sync GEMM can
// approach (bench/RESULTS.md, issue 18). Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90a -o mma_sync_peak mma_sync_peak.cu -lcuda && ./mma_sync_peak
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t error = (call);                                                \
    if (error != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(error));      \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

template <int CHAINS>
__global__ void mmaLoop(int iterations, float *out) {
  unsigned a[4], b[2];
  for (int i = 0; i < 4; ++i)
    a[i] = 0x3f803f80u ^ (threadIdx.x * (i + 1)); // bf16 pairs near 1
  b[0] = 0x3f803f80u ^ threadIdx.x;
  b[1] = 0x3f803f80u;
  float acc[CHAINS][4] = {};
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]),
                     "+f"(acc[c][3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                     "r"(b[1]));
  }
  float sum = 0;
  for (int c = 0; c < CHAINS; ++c)
    sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  if (sum == 12345.f) // never true: keeps the chains alive
    out[threadIdx.x] = sum;
}

template <int CHAINS> void measure(int warps, int sms) {
  int perSM = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, mmaLoop<CHAINS>,
                                                      warps * 32, 0));
  if (perSM == 0) { // more registers than an SM has for one CTA
    std::printf("| %d | %d | 0 | – | does not fit |\n", warps, CHAINS);
    return;
  }
  int blocks = perSM * sms, iterations = 4096;
  float *out;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  mmaLoop<CHAINS><<<blocks, warps * 32>>>(iterations, out); // warm-up
  CHECK(cudaGetLastError());
  float best = 1e30f;
  for (int run = 0; run < 5; ++run) {
    CHECK(cudaEventRecord(start));
    mmaLoop<CHAINS><<<blocks, warps * 32>>>(iterations, out);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    best = ms < best ? ms : best;
  }
  double flops = 2.0 * 16 * 8 * 16 * CHAINS * (double)iterations * warps * blocks;
  std::printf("| %d | %d | %d | %d | %.0f |\n", warps, CHAINS, perSM,
              perSM * warps / 4, flops / (best * 1e-3) / 1e12);
  CHECK(cudaFree(out));
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs; mma.sync m16n8k16 bf16->f32 from registers, best of 5\n\n",
              prop.name, prop.multiProcessorCount);
  std::printf("| warps per CTA | chains per warp | CTAs per SM | warps per scheduler | TFLOP/s |\n");
  std::printf("|---:|---:|---:|---:|---:|\n");
  int sms = prop.multiProcessorCount;
  for (int warps : {4, 8, 16}) {
    measure<4>(warps, sms);
    measure<8>(warps, sms);
    measure<16>(warps, sms);
    measure<32>(warps, sms);
  }
  return 0;
}
