// The driver's own cost of one launch on this machine, from C with no
// Python: cuLaunchKernel of an empty kernel with two pointer arguments (the
// shape of TirX's prepared launch), host time per call, (a) 10,000 calls then
// one synchronize, as bench/gpu/launch.py measures, and (b) 400 calls queued
// behind a ~20 ms spin kernel, so the GPU cannot be what the host waits for;
// on the legacy default stream (PyTorch's default current stream) and on a
// non-blocking stream. The floor under any Python launcher (bench/RESULTS.md,
// issue 16). On the GPU machine:
//   nvcc -O2 -arch=sm_90a -o launch_floor launch_floor.cu -lcuda && ./launch_floor
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    auto status = (call);                                                      \
    if (status != 0) {                                                         \
      std::fprintf(stderr, "%s failed: %d\n", #call, (int)status);             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void empty(const float *, float *) {}

__global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

static double perCallUs(CUfunction function, CUstream stream, int calls,
                        bool behindSpin, void **args) {
  CHECK(cudaDeviceSynchronize());
  if (behindSpin)
    spin<<<1, 1, 0, (cudaStream_t)stream>>>(40000000LL); // ~20 ms
  auto begin = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i)
    CHECK(cuLaunchKernel(function, 1, 1, 1, 64, 1, 1, 0, stream, args, nullptr));
  auto end = std::chrono::steady_clock::now();
  CHECK(cudaDeviceSynchronize());
  if (!behindSpin)
    end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(end - begin).count() / calls;
}

int main() {
  CHECK(cudaFree(nullptr)); // the primary context
  cudaFunction_t runtimeFunction;
  CHECK(cudaGetFuncBySymbol(&runtimeFunction, (const void *)empty));
  CUfunction function = (CUfunction)runtimeFunction;
  float *a, *b;
  CHECK(cudaMalloc(&a, 1024));
  CHECK(cudaMalloc(&b, 1024));
  void *args[] = {&a, &b};
  CUstream side;
  CHECK(cuStreamCreate(&side, CU_STREAM_NON_BLOCKING));
  struct Case {
    const char *name;
    CUstream stream;
    int calls;
    bool behind;
    std::vector<double> times;
  } cases[] = {
      {"legacy default stream, 10,000 calls + sync", nullptr, 10000, false, {}},
      {"legacy default stream, 400 calls behind a spin kernel", nullptr, 400, true, {}},
      {"non-blocking stream, 10,000 calls + sync", side, 10000, false, {}},
      {"non-blocking stream, 400 calls behind a spin kernel", side, 400, true, {}},
  };
  for (int round = 0; round < 7; ++round)
    for (Case &c : cases)
      c.times.push_back(perCallUs(function, c.stream, c.calls, c.behind, args));
  std::printf("| cuLaunchKernel from C | µs per call, median (min–max) of 7 |\n|---|---:|\n");
  for (Case &c : cases) {
    std::sort(c.times.begin(), c.times.end());
    std::printf("| %s | %.2f (%.2f–%.2f) |\n", c.name, c.times[3], c.times[0],
                c.times[6]);
  }
  return 0;
}
