#!/usr/bin/env python3
"""Generates the synchronization suite (issue #19 item 2): the Hopper
synchronization forms tile.apply accepts, in kernels whose data can only
come out right if the synchronization works, as TirX modules and as CUDA
C++ reference kernels issuing the same instructions through inline asm:

    mbarrier.init / inval, arrive (state, sink `_`, count with either,
    .release.cta),
    arrive.expect_tx (state, sink), expect_tx, try_wait.parity (the retry
    loop, single tries), test_wait.parity, with six phases (parity 0 1 0 1
    0 1), fence.mbarrier_init
    elect.sync d|p and _|p
    setmaxnreg.dec/.inc (sm_90a), wgmma.fence / commit_group / wait_group
    (sm_90a), fence.proxy.async{,.shared::cta,.shared::cluster,.global},
    fence.proxy.tensormap::generic.release.{cta,gpu},
    cp.async.bulk.commit_group / wait_group / wait_group.read

    gen.py OUT_DIR     writes CASE.mlir (one module per case, one kernel),
                       reference.cu (every reference kernel) and cases.json

Every module is compiled with chip=sm_90a, features=+ptx83 and
max-registers=128 (ptxas honours setmaxnreg only with a known register
count at entry), the references with nvcc -arch=sm_90a (warpgroups is
__maxnreg__(128)).
Kernels take (O, I) (u32 words); run.py poisons O, launches both, compares
O bit for bit between TirX and nvcc and against the expected words
(run.py's docstring).

The cases (one CTA each):
- mbarrier_phases (128 threads): thread 0 initializes the barrier for 256
  arrivals. Phase p (0-5): each thread stores I[p][t] to shared buffer p % 2
  at word t, arrives twice (p = 0 with a state twice, 1 a sink with
  .release.cta and a sink, 2 once with count 2, 3 thread 0's expect_tx 0,
  then arrive.expect_tx's sink with 0 bytes and a sink, 4 arrive.expect_tx
  with a state and an arrival with a state, 5 the sink with count 2: the phase
  completes only after every thread's last arrival), waits for parity p % 2 (the
  retry loop; .acquire.cta on odd phases), reads word 4 (t % 32) + t / 32
  of the buffer (another warp's store) into O[p][t][0], and records four
  single tries: test_wait(p % 2) (1: the phase completed),
  test_wait((p + 1) % 2) (0: the next phase needs this thread's arrival),
  try_wait(p % 2) (1), try_wait((p + 1) % 2) (0) in O[p][t][1..4]. Two
  buffers: a store of phase p + 2 happens after every thread's arrival of
  phase p + 1, which follows its read of phase p. Finally thread 0
  invalidates the barrier.
- elect (128 threads): per warp, elect.sync d|p and _|p with membermask
  -1; O[t] = (d, p, p'). Expected: d the same in the 32 lanes of a warp,
  p and p' true in lane d only.
- warpgroups (256 threads, two warpgroups): warpgroup 0 lowers its
  registers to 64 (setmaxnreg.dec), warpgroup 1 raises them to 192 (.inc:
  the 128 x 64 registers warpgroup 0 released), wgmma's fence /
  commit_group / wait_group 0 (empty groups), the proxy fences, the bulk
  async-group fences (empty groups), and O[t] = 3 I[t] + 1.
"""
import json
import os
import sys

MODULE = ('module attributes {tirx.chip = "sm_90a", tirx.ptx = 83 : i32} {\n%s\n}\n')

PER_THREAD = "#tirx.layout<S[(4, 32, 1) : (1@warpid, 1@laneid, 1)]>"
# Word 4 (t % 32) + t / 32: thread (w, l) reads what thread 4 l + w stored.
TRANSPOSED = "#tirx.layout<S[(4, 32, 1) : (1, 4, 1)]>"

PHASES = 6
BARS = ("!tirx.tensor<4x32x1xui64, shared, #tirx.layout<S[(4, 32, 1) : (0, 0, 1)]>, "
        "align = 8>")
# Column k of a (4, 32, C) u32 global tile: what tirx.region infers.
def offset(k):
    return " + %d" % k if k else ""


def tile(stride, k):
    """A (4, 32, 1) u32 global tile, rows `stride` words apart, at word k."""
    return ("!tirx.tensor<4x32x1xui32, global, #tirx.layout<S[(4, 32, 1) : (%d, 1, 1)]%s>, "
            "align = 4>" % (stride, offset(k)))


def phase_out(p):
    return ("!tirx.tensor<4x32x5xui32, global, #tirx.layout<S[(4, 32, 5) : (160, 5, 1)]%s>, "
            "align = 4>" % offset(640 * p))


def column(k, words):
    return ("!tirx.tensor<4x32x1xui32, global, #tirx.layout<S[(4, 32, 1) : (%d, %d, 1)]%s>, "
            "align = 4>" % (32 * words, words, " + %d" % k if k else ""))


def mbarrier_phases():
    reg = "!tirx.tensor<4x32x1xui32, local, %s>" % PER_THREAD
    flag = "!tirx.tensor<4x32x1xi1, local, %s>" % PER_THREAD
    buf = "!tirx.tensor<4x32x1xui32, shared, align = 4>"
    bufT = "!tirx.tensor<4x32x1xui32, shared, %s, align = 4>" % TRANSPOSED
    bar = "!tirx.tensor<1xui64, shared, align = 8>"
    state = "!tirx.tensor<1xui64, local>"
    gin = "!tirx.tensor<%dx4x32x1xui32, global, align = 4>" % PHASES
    gout = "!tirx.tensor<%dx4x32x5xui32, global, align = 4>" % PHASES
    lines = [
        "tirx.kernel @mbarrier_phases(%%O: %s, %%I: %s) launch(grid = [1], block = [128]) {"
        % (gout, gin),
        "  %tx = tirx.thread_idx x",
        "  %t = arith.index_cast %tx : index to i32",
        "  %c0 = arith.constant 0 : i32",
        "  %is0 = arith.cmpi eq, %t, %c0 : i32",
        "  %%bar = tirx.alloc_shared : %s" % bar,
        "  %%buf0 = tirx.alloc_shared : %s" % buf,
        "  %%buf1 = tirx.alloc_shared : %s" % buf,
        "  // Every thread's single tries read the one barrier (stride 0).",
        "  %%bars = tirx.reinterpret %%bar : %s -> %s" % (bar, BARS),
        "  %%st = tirx.alloc_local : %s" % state,
        "  %%v = tirx.alloc_local : %s" % reg,
        "  %%f = tirx.alloc_local : %s" % flag,
        "  %%w = tirx.alloc_local : %s" % reg,
        '  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%%bar, 256 : i32) pred(%%is0) : %s'
        % bar,
        '  tile.apply "fence.mbarrier_init.release.cluster" scope(thread) ()',
        "  tirx.cta_sync",
    ]
    for p in range(PHASES):
        par, other = p % 2, (p + 1) % 2
        b = "%%buf%d" % par
        lines += [
            "  // phase %d" % p,
            "  %%in%d = tirx.region %%I[%d, 0, 0, 0] [1, 4, 32, 1] : %s" % (p, p, gin),
            "  %%iv%d = tirx.view %%in%d : !tirx.tensor<1x4x32x1xui32, global, "
            "#tirx.layout<S[(1, 4, 32, 1) : (128, 32, 1, 1)]%s>, align = 4> -> %s"
            % (p, p, offset(128 * p), tile(32, 128 * p)),
            '  tile.apply "ld.global.b32" scope(cta) (%%v, %%iv%d) : %s, %s'
            % (p, reg, tile(32, 128 * p)),
            '  tile.apply "st.shared.b32" scope(cta) (%s, %%v) : %s, %s' % (b, buf, reg),
        ]
        # Two arrivals a thread (one of count 2 in phase 2): the phase
        # completes only after every thread's second one.
        arrive_state = ('  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) '
                        "(%%st, %%bar) : %s, %s" % (state, bar))
        arrive_sink = ('  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) '
                       "(%%bar) : %s" % bar)
        if p == 0:
            lines += [arrive_state, arrive_state]
        elif p == 1:
            lines.append('  tile.apply "mbarrier.arrive.release.cta.shared::cta.b64" '
                         "scope(thread) (%%bar) : %s" % bar)
            lines.append(arrive_sink)
        elif p == 2:
            lines.append('  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) '
                         "(%%st, %%bar, 2 : i32) : %s, %s" % (state, bar))
        elif p == 3:
            lines.append('  tile.apply "mbarrier.expect_tx.relaxed.cta.shared::cta.b64" '
                         "scope(thread) (%%bar, 0 : i32) pred(%%is0) : %s" % bar)
            lines.append('  tile.apply "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64" '
                         "scope(thread) (%%bar, 0 : i32) : %s" % bar)
            lines.append(arrive_sink)
        elif p == 4:
            lines.append('  tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" '
                         "scope(thread) (%%st, %%bar, 0 : i32) : %s, %s" % (state, bar))
            lines.append(arrive_state)
        else:
            lines.append('  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) '
                         "(%%bar, 2 : i32) : %s" % bar)
        wait = ("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64" if par else
                "mbarrier.try_wait.parity.shared::cta.b64")
        lines += [
            '  tile.apply "%s" scope(thread) (%%bar, %d : i32) : %s' % (wait, par, bar),
            "  %%rd%d = tirx.reinterpret %s : %s -> %s" % (p, b, buf, bufT),
            '  tile.apply "ld.shared.b32" scope(cta) (%%v, %%rd%d) : %s, %s' % (p, reg, bufT),
            "  %%out%d = tirx.region %%O[%d, 0, 0, 0] [1, 4, 32, 5] : %s" % (p, p, gout),
            "  %%ov%d = tirx.view %%out%d : !tirx.tensor<1x4x32x5xui32, global, "
            "#tirx.layout<S[(1, 4, 32, 5) : (640, 160, 5, 1)]%s>, align = 4> -> "
            "!tirx.tensor<4x32x5xui32, global, #tirx.layout<S[(4, 32, 5) : (160, 5, 1)]%s>, "
            "align = 4>" % (p, p, offset(640 * p), offset(640 * p)),
        ]
        for k, (form, parity) in enumerate([("test_wait", par), ("test_wait", other),
                                             ("try_wait", par), ("try_wait", other)]):
            lines += [
                '  tile.apply "mbarrier.%s.parity.shared::cta.b64" scope(cta) '
                "(%%f, %%bars, %d : i32) : %s, %s" % (form, parity, flag, BARS),
                '  tile.apply "selp.b32" scope(cta) (%%w, 1 : i32, 0 : i32, %%f) : %s, %s'
                % (reg, flag),
                "  %%o%d_%d = tirx.region %%ov%d[0, 0, %d] [4, 32, 1] : %s"
                % (p, k + 1, p, k + 1, phase_out(p)),
                '  tile.apply "st.global.b32" scope(cta) (%%o%d_%d, %%w) : %s, %s'
                % (p, k + 1, column(640 * p + k + 1, 5), reg),
            ]
        lines += [
            "  %%o%d_0 = tirx.region %%ov%d[0, 0, 0] [4, 32, 1] : %s" % (p, p, phase_out(p)),
            '  tile.apply "st.global.b32" scope(cta) (%%o%d_0, %%v) : %s, %s'
            % (p, column(640 * p, 5), reg),
        ]
    lines += [
        "  tirx.cta_sync",
        '  tile.apply "mbarrier.inval.shared::cta.b64" scope(thread) (%%bar) pred(%%is0) : %s' % bar,
        "  tirx.return",
        "}",
    ]
    return "\n".join(lines)


def elect():
    lane = "#tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>"
    d = "!tirx.tensor<4x32xui32, local, %s>" % lane
    p = "!tirx.tensor<4x32xi1, local, %s>" % lane
    reg = "!tirx.tensor<4x32x1xui32, local, %s>" % PER_THREAD
    flag = "!tirx.tensor<4x32x1xi1, local, %s>" % PER_THREAD
    gout = "!tirx.tensor<4x32x3xui32, global, align = 4>"
    return "\n".join([
        "tirx.kernel @elect(%%O: %s, %%I: !tirx.tensor<1xui32, global, align = 4>) "
        "launch(grid = [1], block = [128]) {" % gout,
        "  %%d = tirx.alloc_local : %s" % d,
        "  %%p = tirx.alloc_local : %s" % p,
        "  %%q = tirx.alloc_local : %s" % p,
        '  tile.apply "elect.sync" scope(cta) (%%d, %%p, -1 : i32) : %s, %s' % (d, p),
        '  tile.apply "elect.sync" scope(cta) (%%q, -1 : i32) : %s' % p,
        "  %%dv = tirx.view %%d : %s -> %s" % (d, reg),
        "  %%pv = tirx.view %%p : %s -> %s" % (p, flag),
        "  %%qv = tirx.view %%q : %s -> %s" % (p, flag),
        "  %%w = tirx.alloc_local : %s" % reg,
        "  %%o0 = tirx.region %%O[0, 0, 0] [4, 32, 1] : %s" % gout,
        '  tile.apply "st.global.b32" scope(cta) (%%o0, %%dv) : %s, %s' % (column(0, 3), reg),
        '  tile.apply "selp.b32" scope(cta) (%%w, 1 : i32, 0 : i32, %%pv) : %s, %s' % (reg, flag),
        "  %%o1 = tirx.region %%O[0, 0, 1] [4, 32, 1] : %s" % gout,
        '  tile.apply "st.global.b32" scope(cta) (%%o1, %%w) : %s, %s' % (column(1, 3), reg),
        '  tile.apply "selp.b32" scope(cta) (%%w, 1 : i32, 0 : i32, %%qv) : %s, %s' % (reg, flag),
        "  %%o2 = tirx.region %%O[0, 0, 2] [4, 32, 1] : %s" % gout,
        '  tile.apply "st.global.b32" scope(cta) (%%o2, %%w) : %s, %s' % (column(2, 3), reg),
        "  tirx.return",
        "}",
    ])


def warpgroups():
    per = "#tirx.layout<S[(8, 32, 1) : (1@warpid, 1@laneid, 1)]>"
    reg = "!tirx.tensor<8x32x1xui32, local, %s>" % per
    g = "!tirx.tensor<8x32x1xui32, global, align = 4>"
    fences = ["fence.proxy.async", "fence.proxy.async.shared::cta",
              "fence.proxy.async.shared::cluster", "fence.proxy.async.global",
              "fence.proxy.tensormap::generic.release.cta",
              "fence.proxy.tensormap::generic.release.gpu"]
    return "\n".join([
        "tirx.kernel @warpgroups(%%O: %s, %%I: %s) launch(grid = [1], block = [256]) {" % (g, g),
        "  %tx = tirx.thread_idx x",
        "  %c128 = arith.constant 128 : index",
        "  %c0 = arith.constant 0 : index",
        "  // The warpgroup index: warp-uniform (tid / 128).",
        "  %wg = arith.divui %tx, %c128 : index",
        "  %wg0 = arith.cmpi eq, %wg, %c0 : index",
        "  %wg1 = arith.cmpi ne, %wg, %c0 : index",
        '  tile.apply "setmaxnreg.dec.sync.aligned.u32" scope(warpgroup) (64 : i32) pred(%wg0)',
        '  tile.apply "setmaxnreg.inc.sync.aligned.u32" scope(warpgroup) (192 : i32) pred(%wg1)',
        "  %%v = tirx.alloc_local : %s" % reg,
        '  tile.apply "ld.global.b32" scope(cta) (%%v, %%I) : %s, %s' % (reg, g),
    ] + ['  tile.apply "%s" scope(thread) ()' % f for f in fences] + [
        '  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()',
        '  tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()',
        '  tile.apply "wgmma.wait_group.sync.aligned" scope(cta) (0 : i32)',
        '  tile.apply "cp.async.bulk.commit_group" scope(thread) ()',
        '  tile.apply "cp.async.bulk.wait_group" scope(thread) (0 : i32)',
        '  tile.apply "cp.async.bulk.wait_group.read" scope(thread) (0 : i32)',
        '  tile.apply "mad.lo.u32" scope(cta) (%%v, %%v, 3 : ui32, 1 : ui32) : %s, %s' % (reg, reg),
        '  tile.apply "st.global.b32" scope(cta) (%%O, %%v) : %s, %s' % (g, reg),
        "  tirx.return",
        "}",
    ])


REFERENCE = r'''// The synchronization suite's references (test/gpu/sync/gen.py): the same
// instructions as the TirX kernels, through inline asm.
// nvcc -arch=sm_90a -cubin -o reference.cubin reference.cu
#include <cstdint>

__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ uint32_t test_wait(uint32_t bar, uint32_t parity) {
  uint32_t r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;"
               " selp.b32 %0, 1, 0, p; }" : "=r"(r) : "r"(bar), "r"(parity) : "memory");
  return r;
}

__device__ __forceinline__ uint32_t try_wait(uint32_t bar, uint32_t parity) {
  uint32_t r;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;"
               " selp.b32 %0, 1, 0, p; }" : "=r"(r) : "r"(bar), "r"(parity) : "memory");
  return r;
}

__device__ __forceinline__ void wait_loop(uint32_t bar, uint32_t parity, bool acquire) {
  if (acquire)
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%0], %1;"
                 " @!p bra W; }" :: "r"(bar), "r"(parity) : "memory");
  else
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;"
                 " @!p bra W; }" :: "r"(bar), "r"(parity) : "memory");
}

extern "C" __global__ void __launch_bounds__(128) mbarrier_phases(uint32_t *O, const uint32_t *I) {
  __shared__ __align__(8) uint64_t bar_storage;
  __shared__ uint32_t buf[2][128];
  const uint32_t t = threadIdx.x, bar = smem(&bar_storage);
  uint64_t state = 0;
  if (t == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 256;" :: "r"(bar) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncthreads();
  for (int p = 0; p < PHASES; ++p) {
    const uint32_t par = p % 2;
    buf[par][t] = I[p * 128 + t];
    switch (p) {
    case 0:
      asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
      asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
      break;
    case 1:
      asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
      break;
    case 2:
      asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], 2;" : "=l"(state) : "r"(bar) : "memory");
      break;
    case 3:
      if (t == 0)
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], 0;" :: "r"(bar) : "memory");
      asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], 0;" :: "r"(bar) : "memory");
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
      break;
    case 4:
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], 0;" : "=l"(state) : "r"(bar) : "memory");
      asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
      break;
    default:
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0], 2;" :: "r"(bar) : "memory");
    }
    wait_loop(bar, par, par == 1);
    uint32_t *o = O + (p * 128 + t) * 5;
    o[0] = buf[par][4 * (t % 32) + t / 32];
    o[1] = test_wait(bar, par);
    o[2] = test_wait(bar, 1 - par);
    o[3] = try_wait(bar, par);
    o[4] = try_wait(bar, 1 - par);
  }
  asm volatile("" :: "l"(state));
  __syncthreads();
  if (t == 0)
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(bar) : "memory");
}

extern "C" __global__ void __launch_bounds__(128) elect(uint32_t *O, const uint32_t *) {
  uint32_t d, p, q;
  asm volatile("{ .reg .pred e; elect.sync %0|e, -1; selp.b32 %1, 1, 0, e; }" : "=r"(d), "=r"(p));
  asm volatile("{ .reg .pred e; elect.sync _|e, -1; selp.b32 %0, 1, 0, e; }" : "=r"(q));
  const uint32_t t = threadIdx.x;
  O[t * 3 + 0] = d;
  O[t * 3 + 1] = p;
  O[t * 3 + 2] = q;
}

extern "C" __global__ void __maxnreg__(128) warpgroups(uint32_t *O, const uint32_t *I) {
  const uint32_t t = threadIdx.x;
  if (t < 128)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 64;" ::: "memory");
  else
    asm volatile("setmaxnreg.inc.sync.aligned.u32 192;" ::: "memory");
  uint32_t v = I[t];
  asm volatile("fence.proxy.async;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cluster;" ::: "memory");
  asm volatile("fence.proxy.async.global;" ::: "memory");
  asm volatile("fence.proxy.tensormap::generic.release.cta;" ::: "memory");
  asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  O[t] = v * 3 + 1;
}
'''

# Per case, the PTX each kernel must hold (regex, count): the loop is one
# try_wait per phase plus its backward branch; the single tries.
LOOP = r"tirx_retry:\s*mbarrier\.try_wait\.parity\.%sshared::cta\.b64 %%tirx_w, \[%%rd\d+\], 0x0000000%d;\s*@!%%tirx_w bra tirx_retry;"
CASES = [
    {"name": "mbarrier_phases", "threads": 128, "in_words": PHASES * 128,
     "out_words": PHASES * 128 * 5,
     "ptx": [[r"mbarrier\.init\.shared::cta\.b64 \[%rd\d+\], 0x00000100;", 1],
             [r"fence\.mbarrier_init\.release\.cluster;", 1],
             [LOOP % ("", 0), PHASES // 2],
             [LOOP % (r"acquire\.cta\.", 1), PHASES // 2],
             [r"mbarrier\.test_wait\.parity\.shared::cta\.b64 %p\d+", 2 * PHASES],
             [r"mbarrier\.try_wait\.parity\.shared::cta\.b64 %p\d+", 2 * PHASES],
             [r"mbarrier\.arrive\.shared::cta\.b64 %rd\d+, \[%rd\d+\];", 3],
             [r"mbarrier\.arrive\.shared::cta\.b64 %rd\d+, \[%rd\d+\], 0x00000002;", 1],
             [r"mbarrier\.arrive\.release\.cta\.shared::cta\.b64 _, \[%rd\d+\];", 1],
             [r"mbarrier\.arrive\.shared::cta\.b64 _, \[%rd\d+\];", 2],
             [r"mbarrier\.arrive\.shared::cta\.b64 _, \[%rd\d+\], 0x00000002;", 1],
             [r"mbarrier\.expect_tx\.relaxed\.cta\.shared::cta\.b64 \[%rd\d+\], 0x00000000;", 1],
             [r"mbarrier\.arrive\.expect_tx\.release\.cta\.shared::cta\.b64 _,", 1],
             [r"mbarrier\.arrive\.expect_tx\.shared::cta\.b64 %rd\d+,", 1],
             [r"mbarrier\.inval\.shared::cta\.b64 \[%rd\d+\];", 1]]},
    {"name": "elect", "threads": 128, "in_words": 1, "out_words": 128 * 3,
     "ptx": [[r"elect\.sync %r\d+\|%p\d+, 0xFFFFFFFF;", 1],
             [r"elect\.sync _\|%p\d+, 0xFFFFFFFF;", 1]]},
    {"name": "warpgroups", "threads": 256, "in_words": 256, "out_words": 256,
     "ptx": [[r"\n\.maxnreg 128\n", 1],
             [r"setmaxnreg\.dec\.sync\.aligned\.u32 0x00000040;", 1],
             [r"setmaxnreg\.inc\.sync\.aligned\.u32 0x000000C0;", 1],
             [r"fence\.proxy\.async[.;]", 4],
             [r"fence\.proxy\.tensormap::generic\.release\.(cta|gpu);", 2],
             [r"wgmma\.(fence|commit_group)\.sync\.aligned;", 2],
             [r"wgmma\.wait_group\.sync\.aligned 0x00000000;", 1],
             [r"cp\.async\.bulk\.(commit_group|wait_group)", 3]]},
]


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: gen.py OUT_DIR")
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    for name, text in (("mbarrier_phases", mbarrier_phases()), ("elect", elect()),
                       ("warpgroups", warpgroups())):
        with open(os.path.join(out, name.replace("_", "-") + ".mlir"), "w") as f:
            f.write(MODULE % text)
    with open(os.path.join(out, "reference.cu"), "w") as f:
        f.write(REFERENCE.replace("PHASES", str(PHASES)))
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump({"phases": PHASES, "cases": CASES}, f, indent=1)
    print("wrote %d cases to %s" % (len(CASES), out))


if __name__ == "__main__":
    main(sys.argv)
