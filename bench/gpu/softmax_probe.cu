// Row softmax schedules in CUDA C++, to find out what can move a softmax's
// bytes faster than one CTA per row (issue 17) before a TirX kernel is
// written for it. T threads per CTA, C 16-byte chunks per thread:
// - row_T_C: TirX's make_kernel (one row per CTA, two CTA reductions);
// - l2pf_T_C, bulk_T_C: the same with .L2::256B prefetching loads, or the
//   row brought into shared memory by one bulk copy (cp.async.bulk);
// - cluster_K_T_C: each row split over a cluster of K CTAs, each reducing
//   its part to a (max, sum) pair pushed into every peer's shared memory
//   (mapa + st.shared::cluster);
// - multi_R_T_C: R adjacent rows per CTA, a group of T / R threads each
//   (TirX's make_grouped_kernel);
// - inter_R_T_C: R rows per CTA, every thread C chunks of each row.
// - loop_T_C, pipe_T_C, stage_T_C: persistent CTAs (as many as fit) looping
//   over rows, the next row's bytes in flight during this row's reductions
//   (none, in registers, in shared memory by cp.async);
// - cs_T_C: row_T_C with streaming cache hints (ld/st.global.cs).
// Built with nvcc -cubin; bench/gpu/softmax_probe.py loads and times it.
#include <cstdint>

namespace {

constexpr float kLog2e = 1.4426950408889634f;

__device__ __forceinline__ float warpMax(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

__device__ __forceinline__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__device__ __forceinline__ float ex2(float v) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}

// The thread's max over its chunks.
template <int Chunks>
__device__ __forceinline__ float chunksMax(const float4 (&v)[Chunks]) {
  float top = -INFINITY;
#pragma unroll
  for (int r = 0; r < Chunks; ++r)
    top = fmaxf(fmaxf(top, fmaxf(v[r].x, v[r].y)), fmaxf(v[r].z, v[r].w));
  return top;
}

// v = 2^((v - top) log2 e) by one fma and ex2 each; the thread's sum.
template <int Chunks>
__device__ __forceinline__ float exponentiate(float4 (&v)[Chunks], float top) {
  float shift = -top * kLog2e, total = 0.f;
#pragma unroll
  for (int r = 0; r < Chunks; ++r) {
    v[r].x = ex2(fmaf(v[r].x, kLog2e, shift));
    v[r].y = ex2(fmaf(v[r].y, kLog2e, shift));
    v[r].z = ex2(fmaf(v[r].z, kLog2e, shift));
    v[r].w = ex2(fmaf(v[r].w, kLog2e, shift));
    total += (v[r].x + v[r].y) + (v[r].z + v[r].w);
  }
  return total;
}

__device__ __forceinline__ void scaleChunk(float4 &v, float scale) {
  v.x *= scale;
  v.y *= scale;
  v.z *= scale;
  v.w *= scale;
}

// Rows side by side: the CTA's warps form Rows groups of Threads / Rows / 32
// warps; every thread gets its group's value after one CTA barrier (with
// Rows = 1, the CTA's value).
template <int Threads, int Rows, bool IsMax>
__device__ __forceinline__ float groupReduce(float v, float *slots) {
  constexpr int kWarps = Threads / 32 / Rows;
  v = IsMax ? warpMax(v) : warpSum(v);
  if (kWarps == 1)
    return v;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    slots[warp] = v;
  __syncthreads();
  v = slots[Rows == 1 ? lane % kWarps : warp / kWarps * kWarps + lane % kWarps];
  for (int offset = kWarps / 2; offset > 0; offset /= 2)
    v = IsMax ? fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset))
              : v + __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// The row's max (from each thread's `top`, its chunks' max) and the sum of
// the exponentials that replace v, over the thread's group of Threads / Rows
// threads (one group per row).
struct Statistics {
  float top, total;
};

template <int Threads, int Rows, int Chunks>
__device__ __forceinline__ Statistics statistics(float4 (&v)[Chunks],
                                                 float top) {
  __shared__ float maxSlots[32], sumSlots[32];
  top = groupReduce<Threads, Rows, true>(top, maxSlots);
  float total =
      groupReduce<Threads, Rows, false>(exponentiate(v, top), sumSlots);
  return {top, total};
}

// The thread's Chunks 16-byte chunks of its row, with Rows adjacent rows
// per CTA and Threads / Rows threads per row; cols = Threads / Rows x 4 x
// Chunks exactly.
template <int Threads, int Rows, int Chunks> struct RowSlice {
  static constexpr int kPerRow = Threads / Rows;
  static constexpr int kCols = kPerRow * 4 * Chunks;
  const float4 *in;
  float4 *out;

  __device__ RowSlice(const float *x, float *y)
      : in(reinterpret_cast<const float4 *>(x + threadIdx.x / kPerRow * kCols) +
           threadIdx.x % kPerRow),
        out(reinterpret_cast<float4 *>(y + threadIdx.x / kPerRow * kCols) +
            threadIdx.x % kPerRow) {}

  __device__ void load(float4 (&v)[Chunks]) const {
#pragma unroll
    for (int r = 0; r < Chunks; ++r)
      v[r] = in[r * kPerRow];
  }

  __device__ void store(float4 (&v)[Chunks], float scale) const {
#pragma unroll
    for (int r = 0; r < Chunks; ++r) {
      scaleChunk(v[r], scale);
      out[r * kPerRow] = v[r];
    }
  }
};

template <int Threads, int Rows, int Chunks>
__device__ __forceinline__ void softmaxRows(const float *x, float *y) {
  RowSlice<Threads, Rows, Chunks> slice(x, y);
  float4 v[Chunks];
  slice.load(v);
  slice.store(v, __frcp_rn(statistics<Threads, Rows>(v, chunksMax(v)).total));
}

__device__ __forceinline__ uint32_t clusterRank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

__device__ __forceinline__ void storeRemote(float *local, uint32_t rank,
                                            float value) {
  uint32_t address = static_cast<uint32_t>(__cvta_generic_to_shared(local));
  asm volatile("{\n\t.reg .b32 r;\n\tmapa.shared::cluster.u32 r, %0, %1;\n\t"
               "st.shared::cluster.f32 [r], %2;\n\t}" ::"r"(address),
               "r"(rank), "f"(value)
               : "memory");
}

// One row part of Threads x 4 x Chunks columns at `x`, `cols` of them
// present (a multiple of Threads x 4). Returns nothing; writes `y`.
enum class Load { Plain, L2Prefetch256, Bulk };

__device__ __forceinline__ float4 loadPrefetch256(const float *address) {
  float4 v;
  asm volatile("ld.global.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(address));
  return v;
}

// The whole part, `bytes` of it, into `image` by one bulk copy (TMA's
// non-tensor form) that completes on `barrier`; every thread waits.
__device__ __forceinline__ void bulkLoad(float *image, const float *x,
                                         unsigned bytes, uint64_t *barrier) {
  uint32_t bar = static_cast<uint32_t>(__cvta_generic_to_shared(barrier));
  uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(image));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
        "r"(bytes)
        : "memory");
    for (unsigned offset = 0; offset < bytes; offset += 16384) {
      unsigned size = bytes - offset < 16384 ? bytes - offset : 16384;
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
          "bytes [%0], [%1], %2, [%3];" ::"r"(dst + offset),
          "l"(reinterpret_cast<const char *>(x) + offset), "r"(size), "r"(bar)
          : "memory");
    }
  }
  asm volatile("{\n\t.reg .pred p;\nwait:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t"
               "@!p bra wait;\n\t}" ::"r"(bar)
               : "memory");
}

template <int Threads, int Chunks, int Cluster, Load Mode = Load::Plain>
__device__ __forceinline__ void softmaxPart(const float *x, float *y,
                                            int cols) {
  constexpr int kChunk = Threads * 4;
  __shared__ float peerMax[Cluster > 1 ? Cluster : 1],
      peerSum[Cluster > 1 ? Cluster : 1];
  if (Cluster > 1) // every peer has started before anyone stores into it
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  float4 v[Chunks];
  if (Mode == Load::Bulk) {
    extern __shared__ float4 image[];
    __shared__ uint64_t barrier;
    bulkLoad(reinterpret_cast<float *>(image), x, cols * 4u, &barrier);
#pragma unroll
    for (int r = 0; r < Chunks; ++r)
      v[r] = r * kChunk < cols
                 ? image[r * Threads + threadIdx.x]
                 : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
  } else {
#pragma unroll
    for (int r = 0; r < Chunks; ++r) {
      v[r] = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
      if (r * kChunk < cols)
        v[r] =
            Mode == Load::L2Prefetch256
                ? loadPrefetch256(x + r * kChunk + 4 * threadIdx.x)
                : reinterpret_cast<const float4 *>(x + r * kChunk)[threadIdx.x];
    }
  }
  auto [top, total] = statistics<Threads, 1>(v, chunksMax(v));
  float scale;
  if (Cluster > 1) {
    // Thread k < Cluster pushes this CTA's pair into peer k's slots.
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    uint32_t rank = clusterRank();
    if (threadIdx.x < Cluster) {
      storeRemote(&peerMax[rank], threadIdx.x, top);
      storeRemote(&peerSum[rank], threadIdx.x, total);
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
                 "barrier.cluster.wait.acquire.aligned;" ::
                     : "memory");
    float rowMax = peerMax[0];
#pragma unroll
    for (int k = 1; k < Cluster; ++k)
      rowMax = fmaxf(rowMax, peerMax[k]);
    float rowSum = 0.f;
#pragma unroll
    for (int k = 0; k < Cluster; ++k)
      rowSum += peerSum[k] * ex2((peerMax[k] - rowMax) * kLog2e);
    scale = ex2((top - rowMax) * kLog2e) * __frcp_rn(rowSum);
  } else {
    scale = __frcp_rn(total);
  }
#pragma unroll
  for (int r = 0; r < Chunks; ++r) {
    scaleChunk(v[r], scale);
    if (r * kChunk < cols)
      reinterpret_cast<float4 *>(y + r * kChunk)[threadIdx.x] = v[r];
  }
}

} // namespace

#define ROW(T, C)                                                              \
  extern "C" __global__ void __launch_bounds__(T)                              \
      row_##T##_##C(const float *x, float *y, int cols) {                      \
    size_t row = blockIdx.x;                                                   \
    softmaxPart<T, C, 1>(x + row * cols, y + row * cols, cols);                \
  }

// Cluster K: CTA k of the cluster holds columns [k cols/K, (k+1) cols/K).
#define CLUSTER(K, T, C)                                                       \
  extern "C" __global__ void __cluster_dims__(K, 1, 1) __launch_bounds__(T)    \
      cluster_##K##_##T##_##C(const float *x, float *y, int cols) {            \
    size_t row = blockIdx.x / K;                                               \
    int part = cols / K;                                                       \
    size_t first = row * cols + (blockIdx.x % K) * part;                       \
    softmaxPart<T, C, K>(x + first, y + first, part);                          \
  }

#define ROW_MODE(T, C, NAME, MODE)                                             \
  extern "C" __global__ void __launch_bounds__(T)                              \
      NAME##_##T##_##C(const float *x, float *y, int cols) {                   \
    size_t row = blockIdx.x;                                                   \
    softmaxPart<T, C, 1, Load::MODE>(x + row * cols, y + row * cols, cols);    \
  }

ROW_MODE(512, 2, l2pf, L2Prefetch256)
ROW_MODE(1024, 4, l2pf, L2Prefetch256)
ROW_MODE(128, 8, bulk, Bulk)
ROW_MODE(256, 4, bulk, Bulk)
ROW_MODE(512, 2, bulk, Bulk)
ROW_MODE(256, 16, bulk, Bulk)
ROW_MODE(512, 8, bulk, Bulk)
ROW_MODE(1024, 4, bulk, Bulk)
// TirX's layout for Rows rows per CTA: every thread holds Chunks chunks of
// each row (chunk r of row g at g cols + r Threads 4 + 4 t); the Rows values
// are reduced together, with one barrier per reduction.
template <int Threads, int Rows, bool IsMax>
__device__ __forceinline__ void ctaReduceN(float (&v)[Rows], float *slots) {
  constexpr int kWarps = Threads / 32;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int g = 0; g < Rows; ++g)
    v[g] = IsMax ? warpMax(v[g]) : warpSum(v[g]);
  if (lane == 0)
#pragma unroll
    for (int g = 0; g < Rows; ++g)
      slots[warp * Rows + g] = v[g];
  __syncthreads();
#pragma unroll
  for (int g = 0; g < Rows; ++g)
    v[g] = slots[(lane % kWarps) * Rows + g];
  for (int offset = kWarps / 2; offset > 0; offset /= 2)
#pragma unroll
    for (int g = 0; g < Rows; ++g)
      v[g] = IsMax ? fmaxf(v[g], __shfl_xor_sync(0xffffffffu, v[g], offset))
                   : v[g] + __shfl_xor_sync(0xffffffffu, v[g], offset);
}

template <int Threads, int Rows, int Chunks>
__device__ __forceinline__ void softmaxInter(const float *x, float *y,
                                             int cols) {
  constexpr int kChunk = Threads * 4;
  __shared__ float maxSlots[32 * Rows], sumSlots[32 * Rows];
  float4 v[Rows][Chunks];
#pragma unroll
  for (int g = 0; g < Rows; ++g)
#pragma unroll
    for (int r = 0; r < Chunks; ++r)
      v[g][r] = reinterpret_cast<const float4 *>(x + g * cols +
                                                 r * kChunk)[threadIdx.x];
  float top[Rows], total[Rows];
#pragma unroll
  for (int g = 0; g < Rows; ++g) {
    top[g] = -INFINITY;
#pragma unroll
    for (int r = 0; r < Chunks; ++r)
      top[g] = fmaxf(fmaxf(top[g], fmaxf(v[g][r].x, v[g][r].y)),
                     fmaxf(v[g][r].z, v[g][r].w));
  }
  ctaReduceN<Threads, Rows, true>(top, maxSlots);
#pragma unroll
  for (int g = 0; g < Rows; ++g) {
    float shift = -top[g] * kLog2e;
    total[g] = 0.f;
#pragma unroll
    for (int r = 0; r < Chunks; ++r) {
      v[g][r].x = ex2(fmaf(v[g][r].x, kLog2e, shift));
      v[g][r].y = ex2(fmaf(v[g][r].y, kLog2e, shift));
      v[g][r].z = ex2(fmaf(v[g][r].z, kLog2e, shift));
      v[g][r].w = ex2(fmaf(v[g][r].w, kLog2e, shift));
      total[g] += (v[g][r].x + v[g][r].y) + (v[g][r].z + v[g][r].w);
    }
  }
  ctaReduceN<Threads, Rows, false>(total, sumSlots);
#pragma unroll
  for (int g = 0; g < Rows; ++g) {
    float scale = __frcp_rn(total[g]);
#pragma unroll
    for (int r = 0; r < Chunks; ++r) {
      float4 o = make_float4(v[g][r].x * scale, v[g][r].y * scale,
                             v[g][r].z * scale, v[g][r].w * scale);
      reinterpret_cast<float4 *>(y + g * cols + r * kChunk)[threadIdx.x] = o;
    }
  }
}

#define INTER(R, T, C)                                                         \
  extern "C" __global__ void __launch_bounds__(T)                              \
      inter_##R##_##T##_##C(const float *x, float *y, int cols) {              \
    size_t first = static_cast<size_t>(blockIdx.x) * R * cols;                 \
    softmaxInter<T, R, C>(x + first, y + first, cols);                         \
  }

INTER(2, 1024, 1)
INTER(1, 1024, 1)
INTER(2, 512, 2)
INTER(4, 1024, 1)

// R adjacent rows of `cols` (= T / R x 4 x C) columns per CTA, by FUNCTION.
#define ROWS(FAMILY, FUNCTION, R, T, C)                                        \
  extern "C" __global__ void __launch_bounds__(T)                              \
      FAMILY##_##R##_##T##_##C(const float *x, float *y, int cols) {           \
    size_t first = static_cast<size_t>(blockIdx.x) * R * cols;                 \
    FUNCTION<T, R, C>(x + first, y + first);                                   \
  }
#define MULTI(R, T, C) ROWS(multi, softmaxRows, R, T, C)

MULTI(2, 1024, 2)
MULTI(4, 1024, 4)
MULTI(2, 512, 4)
MULTI(4, 512, 8)
MULTI(1, 512, 2)
MULTI(2, 1024, 8)
MULTI(2, 512, 16)
MULTI(1, 1024, 4)
ROW(512, 2)
ROW(256, 4)
ROW(1024, 4)
ROW(512, 8)
CLUSTER(2, 256, 2)
CLUSTER(2, 512, 1)
CLUSTER(4, 128, 2)
CLUSTER(4, 256, 1)
CLUSTER(8, 128, 1)
CLUSTER(2, 512, 4)
CLUSTER(2, 1024, 2)
CLUSTER(4, 512, 2)
CLUSTER(4, 256, 4)
CLUSTER(8, 512, 1)
CLUSTER(8, 256, 2)

// One row per CTA whose Parts groups of warps each take a contiguous part of
// the row (part p: columns [p cols / Parts, (p + 1) cols / Parts)), every
// thread Chunks chunks of its part; one CTA reduction per statistic.
template <int Threads, int Parts, int Chunks>
__device__ __forceinline__ void softmaxParts(const float *x, float *y,
                                             int cols) {
  constexpr int kPerPart = Threads / Parts;
  int part = threadIdx.x / kPerPart, t = threadIdx.x % kPerPart;
  const float4 *in =
      reinterpret_cast<const float4 *>(x + part * (cols / Parts)) + t;
  float4 *out = reinterpret_cast<float4 *>(y + part * (cols / Parts)) + t;
  float4 v[Chunks];
#pragma unroll
  for (int r = 0; r < Chunks; ++r)
    v[r] = in[r * kPerPart];
  float scale = __frcp_rn(statistics<Threads, 1>(v, chunksMax(v)).total);
#pragma unroll
  for (int r = 0; r < Chunks; ++r) {
    scaleChunk(v[r], scale);
    out[r * kPerPart] = v[r];
  }
}

#define PARTS(P, T, C)                                                         \
  extern "C" __global__ void __launch_bounds__(T)                              \
      parts_##P##_##T##_##C(const float *x, float *y, int cols) {              \
    size_t first = static_cast<size_t>(blockIdx.x) * cols;                     \
    softmaxParts<T, P, C>(x + first, y + first, cols);                         \
  }

PARTS(2, 1024, 4)
PARTS(4, 1024, 4)
PARTS(8, 1024, 4)
PARTS(32, 1024, 4)
PARTS(2, 512, 8)
PARTS(4, 512, 8)
PARTS(2, 512, 2)
PARTS(4, 512, 2)

// A row split over a cluster of two CTAs that exchange one (max, sum) pair:
// each CTA's exponentials use its own max, and the result is scaled by
// 2^((m - M) log2 e) / S at the end (M, S: the row's). Thread 0 stores the
// pair into the peer's shared memory and arrives on the peer's mbarrier
// (release.cluster); every thread waits on its own (acquire.cluster). The
// cluster meets once, at the start (arrive) and before the first remote
// access (wait), so that the peer's mbarrier is initialized; no CTA exits
// before the peer's pair has arrived, so none is written after its exit.
// Sync = false times the cluster launch alone (each CTA normalizes its half
// on its own: a wrong result, not checked).
template <int Threads, int Chunks, bool Sync>
__device__ __forceinline__ void softmaxPair(const float *x, float *y,
                                            int cols) {
  constexpr int kChunk = Threads * 4;
  __shared__ float peer[2];
  __shared__ uint64_t arrived;
  uint32_t bar = static_cast<uint32_t>(__cvta_generic_to_shared(&arrived));
  if (Sync) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  }
  float4 v[Chunks];
#pragma unroll
  for (int r = 0; r < Chunks; ++r)
    v[r] = reinterpret_cast<const float4 *>(x + r * kChunk)[threadIdx.x];
  auto [top, total] = statistics<Threads, 1>(v, chunksMax(v));
  float scale = __frcp_rn(total);
  if (Sync) {
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (threadIdx.x == 0) {
      uint32_t other = clusterRank() ^ 1;
      uint32_t slots = static_cast<uint32_t>(__cvta_generic_to_shared(peer));
      asm volatile(
          "{\n\t.reg .b32 s, b;\n\t"
          "mapa.shared::cluster.u32 s, %0, %1;\n\t"
          "mapa.shared::cluster.u32 b, %2, %1;\n\t"
          "st.shared::cluster.v2.f32 [s], {%3, %4};\n\t"
          "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [b];\n\t"
          "}" ::"r"(slots),
          "r"(other), "r"(bar), "f"(top), "f"(total)
          : "memory");
    }
    asm volatile("{\n\t.reg .pred p;\nwait:\n\t"
                 "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, "
                 "[%0], 0;\n\t@!p bra wait;\n\t}" ::"r"(bar)
                 : "memory");
    float rowMax = fmaxf(top, peer[0]);
    float rowSum = total * ex2((top - rowMax) * kLog2e) +
                   peer[1] * ex2((peer[0] - rowMax) * kLog2e);
    scale = ex2((top - rowMax) * kLog2e) * __frcp_rn(rowSum);
  }
#pragma unroll
  for (int r = 0; r < Chunks; ++r) {
    scaleChunk(v[r], scale);
    reinterpret_cast<float4 *>(y + r * kChunk)[threadIdx.x] = v[r];
  }
}

#define PAIR(T, C)                                                             \
  extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(T)    \
      pair_2_##T##_##C(const float *x, float *y, int cols) {                   \
    size_t first = static_cast<size_t>(blockIdx.x / 2) * cols +                \
                   (blockIdx.x % 2) * (cols / 2);                              \
    softmaxPair<T, C, true>(x + first, y + first, cols);                       \
  }                                                                            \
  extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(T)    \
      nosync_2_##T##_##C(const float *x, float *y, int cols) {                 \
    size_t first = static_cast<size_t>(blockIdx.x / 2) * cols +                \
                   (blockIdx.x % 2) * (cols / 2);                              \
    softmaxPair<T, C, false>(x + first, y + first, cols);                      \
  }

PAIR(1024, 2)
PAIR(512, 4)
PAIR(512, 2)
PAIR(256, 4)
PAIR(256, 2)

namespace {

// Persistent CTAs (as many as fit at once; the launcher asks the occupancy
// API) taking rows blockIdx.x, blockIdx.x + gridDim.x, ...: the next row's
// bytes are in flight while this row is reduced and stored, which one CTA
// per row leaves to the other CTAs of its SM.
// - Stage::Registers: the next row into a second register array;
// - Stage::Shared: into shared memory by cp.async.cg, each thread copying
//   and later reading back its own 16-byte chunks (no barrier orders them;
//   the thread's max consumes the values read before the next copies that
//   overwrite them are issued);
// - Stage::None: no prefetch (the persistent loop alone).
enum class Stage { None, Registers, Shared };

template <int Chunks>
__device__ __forceinline__ void loadRow(float4 (&v)[Chunks], const float *x,
                                        int cols, int chunk) {
#pragma unroll
  for (int r = 0; r < Chunks; ++r) {
    v[r] = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    if (r * chunk < cols)
      v[r] = reinterpret_cast<const float4 *>(x + r * chunk)[threadIdx.x];
  }
}

template <int Threads, int Chunks>
__device__ __forceinline__ void copyRow(float4 *stage, const float *x,
                                        int cols) {
#pragma unroll
  for (int r = 0; r < Chunks; ++r)
    if (r * Threads * 4 < cols) {
      uint32_t dst = static_cast<uint32_t>(
          __cvta_generic_to_shared(stage + r * Threads + threadIdx.x));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst),
                   "l"(x + r * Threads * 4 + 4 * threadIdx.x)
                   : "memory");
    }
  asm volatile("cp.async.commit_group;" ::: "memory");
}

template <int Threads, int Chunks, Stage Mode>
__device__ __forceinline__ void softmaxPersistent(const float *x, float *y,
                                                  int rows, int cols) {
  constexpr int kChunk = Threads * 4;
  extern __shared__ float4 stage[];
  float4 v[Chunks], next[Chunks];
  int row = blockIdx.x;
  if (row >= rows)
    return;
  if (Mode == Stage::Shared)
    copyRow<Threads, Chunks>(stage, x + static_cast<size_t>(row) * cols, cols);
  else
    loadRow(v, x + static_cast<size_t>(row) * cols, cols, kChunk);
  for (; row < rows; row += gridDim.x) {
    int following = row + gridDim.x;
    const float *source = x + static_cast<size_t>(following) * cols;
    if (Mode == Stage::Shared) {
      asm volatile("cp.async.wait_group 0;" ::: "memory");
#pragma unroll
      for (int r = 0; r < Chunks; ++r)
        v[r] = r * kChunk < cols
                   ? stage[r * Threads + threadIdx.x]
                   : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    }
    float top = chunksMax(v);
    if (Mode == Stage::Shared && following < rows)
      copyRow<Threads, Chunks>(stage, source, cols);
    if (Mode == Stage::Registers && following < rows)
      loadRow(next, source, cols, kChunk);
    float scale = __frcp_rn(statistics<Threads, 1>(v, top).total);
    float *out = y + static_cast<size_t>(row) * cols;
#pragma unroll
    for (int r = 0; r < Chunks; ++r) {
      scaleChunk(v[r], scale);
      if (r * kChunk < cols)
        reinterpret_cast<float4 *>(out + r * kChunk)[threadIdx.x] = v[r];
    }
    if (Mode == Stage::Registers) {
#pragma unroll
      for (int r = 0; r < Chunks; ++r)
        v[r] = next[r];
    } else if (Mode == Stage::None && following < rows) {
      loadRow(v, source, cols, kChunk);
    }
  }
}

// One row per CTA with streaming cache hints: ld.global.cs and st.global.cs
// (evict first: the bytes are read once and written once).
template <int Threads, int Chunks>
__device__ __forceinline__ void softmaxStreaming(const float *x, float *y,
                                                 int cols) {
  constexpr int kChunk = Threads * 4;
  float4 v[Chunks];
#pragma unroll
  for (int r = 0; r < Chunks; ++r) {
    v[r] = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    if (r * kChunk < cols)
      v[r] = __ldcs(reinterpret_cast<const float4 *>(x + r * kChunk) +
                    threadIdx.x);
  }
  float scale = __frcp_rn(statistics<Threads, 1>(v, chunksMax(v)).total);
#pragma unroll
  for (int r = 0; r < Chunks; ++r) {
    scaleChunk(v[r], scale);
    if (r * kChunk < cols)
      __stcs(reinterpret_cast<float4 *>(y + r * kChunk) + threadIdx.x, v[r]);
  }
}

} // namespace

// Persistent kernels take (x, y, cols, rows); the launcher sizes the grid.
#define PERSISTENT(NAME, MODE, T, C, MIN_BLOCKS)                               \
  extern "C" __global__ void __launch_bounds__(T, MIN_BLOCKS)                  \
      NAME##_##T##_##C(const float *x, float *y, int cols, int rows) {         \
    softmaxPersistent<T, C, Stage::MODE>(x, y, rows, cols);                    \
  }

PERSISTENT(loop, None, 1024, 4, 2)
PERSISTENT(pipe, Registers, 1024, 4, 1)
PERSISTENT(stage, Shared, 1024, 4, 2)
PERSISTENT(stage, Shared, 512, 8, 1)
PERSISTENT(loop, None, 512, 2, 4)
PERSISTENT(pipe, Registers, 512, 2, 2)
PERSISTENT(stage, Shared, 512, 2, 4)
PERSISTENT(stage, Shared, 1024, 1, 2)

#define STREAMING(T, C)                                                        \
  extern "C" __global__ void __launch_bounds__(T)                              \
      cs_##T##_##C(const float *x, float *y, int cols) {                       \
    size_t row = blockIdx.x;                                                   \
    softmaxStreaming<T, C>(x + row * cols, y + row * cols, cols);              \
  }

STREAMING(1024, 4)
STREAMING(512, 2)

namespace {

// Online statistics: each warp exponentiates with its own max (0 for a warp
// whose values are all -inf) before any barrier, and the warps exchange
// (max, sum) pairs once: the row's sum is sum_w S_w 2^((M_w - M) log2 e),
// and each warp scales by 2^((M_w - M) log2 e) / sum. One barrier instead
// of two, and no warp waits for the whole row's loads before its ex2 work.
template <int Threads, int Rows, int Chunks>
__device__ __forceinline__ void softmaxOnline(const float *x, float *y) {
  constexpr int kWarps = Threads / Rows / 32;
  __shared__ float2 pairs[32];
  RowSlice<Threads, Rows, Chunks> slice(x, y);
  float4 v[Chunks];
  slice.load(v);
  float top = warpMax(chunksMax(v));
  float total = warpSum(exponentiate(v, top == -INFINITY ? 0.f : top));
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    pairs[warp] = make_float2(top, total);
  __syncthreads();
  float2 pair = pairs[warp / kWarps * kWarps + lane % kWarps];
  float rowMax = pair.x;
  for (int offset = kWarps / 2; offset > 0; offset /= 2)
    rowMax = fmaxf(rowMax, __shfl_xor_sync(0xffffffffu, rowMax, offset));
  float rowSum = pair.y * ex2((pair.x - rowMax) * kLog2e);
  for (int offset = kWarps / 2; offset > 0; offset /= 2)
    rowSum += __shfl_xor_sync(0xffffffffu, rowSum, offset);
  slice.store(v, ex2((top - rowMax) * kLog2e) * __frcp_rn(rowSum));
}

} // namespace

#define ONLINE(R, T, C) ROWS(online, softmaxOnline, R, T, C)

ONLINE(1, 1024, 4)
ONLINE(2, 1024, 2)
ONLINE(1, 1024, 2)
