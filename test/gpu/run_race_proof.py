"""GPU cross-check of the race proof (docs/races.md): kernels it proves
through mbarrier rings, TMA loads and wgmma groups run on the GPU and are
compared with host references; test/gpu/run.sh runs this script under
compute-sanitizer racecheck and synccheck, which must report nothing.

- stream: a two-stage TmaPipeline over eight K steps; a producer thread
  loads each step's 32 x 32 box, 128 consumer threads copy their rows of the
  stage to global memory and each release it (release="thread");
- gemm_hopper (examples/python/gemm_hopper.py: TMA loads, two consumer
  warpgroups of wgmma) with both epilogues — through shared memory, each
  warpgroup's named barrier and TMA stores (the default), and registers
  stored to global memory (STORE="global") — 256 x 512 x 320, one CTA per
  tile and persistent over 3 CTAs.

--racy runs the twin the proof refuses instead (compiled with
race_proof=False): the stream whose consumers read a stage without waiting
for its load. Its result is not checked (it may be right by timing); what
the sanitizers say of it is the point (docs/races.md records it).
Prints PASS:/FAIL: per case; exit 1 on any failure. Needs torch and a
Hopper GPU (sm_90a)."""
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
sys.path.insert(0, os.path.join(here, "examples", "python"))
import tirx  # noqa: E402
from tirx.pipeline import TmaPipeline  # noqa: E402
from tirx.script import tirx as T  # noqa: E402

TARGET = {"kind": "cuda", "arch": "sm_90a"}
STEPS = 8


def stream(waits):
    """out[kb] = A[:, 32 kb : 32 kb + 32] through a two-stage TMA pipeline;
    without `waits`, the consumers read before the stage's load completes."""
    @T.function
    def kernel(A: T.Tensor((32, 32 * STEPS), "float32", align=16),
               out: T.Tensor((STEPS, 32, 32), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=160))
        staged = T.alloc_shared((2, 32, 32), "float32", align=128)
        pipe = TmaPipeline(2, buffers=(staged,), consumers=1, release="thread")
        tid = T.cuda.thread_idx("x")
        with T.If(tid == 0):
            with T.Then():
                pipe.init()
        T.cuda.cta_sync()
        with T.If(tid < 128):
            with T.Then():
                r = T.alloc_local((4,), "float32")
                row = tid % 32
                for kb in T.serial(0, STEPS):
                    s = pipe.consumer_wait(kb) if waits else kb % 2
                    for part in T.serial(0, 2):
                        col = tid // 32 * 8 + part * 4
                        T.cuda.tile.apply(T.ptx["ld.shared.v4.b32"], r,
                                          staged.sub[s, row, col:col + 4], scope="thread")
                        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], out.sub[kb, row, col:col + 4],
                                          r, scope="thread")
                    pipe.consumer_release(kb)
            with T.Else():
                with T.If(tid == 128):
                    with T.Then():
                        for kb in T.serial(0, STEPS):
                            with pipe.produce(kb) as stage:
                                stage.load(staged[stage.index],
                                           A[0:32, kb * 32:kb * 32 + 32])
    return kernel


def run_stream(waits):
    import torch
    target = TARGET if waits else dict(TARGET, race_proof=False)
    kernel = tirx.compile(stream(waits), target=target)
    a = torch.arange(32 * 32 * STEPS, dtype=torch.float32, device="cuda").reshape(32, -1)
    out = torch.full((STEPS, 32, 32), float("nan"), device="cuda")
    kernel(a, out)
    torch.cuda.synchronize()
    want = a.reshape(32, STEPS, 32).permute(1, 0, 2)
    return bool(torch.equal(out, want))


def run_gemm(num_sms, store):
    import gemm_hopper
    import torch
    M, N, K = 256, 512, 320
    a, w = (torch.from_numpy(v).cuda().to(torch.bfloat16) for v in gemm_hopper.inputs(M, N, K))
    kernel = tirx.compile(gemm_hopper.make_kernel(M, N, K, num_sms=num_sms, STORE=store),
                          target=dict(gemm_hopper.TARGET, strict_races=True))
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel(a, w, c)
    torch.cuda.synchronize()
    return gemm_hopper.check(a, w, c)


def main():
    failures = 0
    if "--racy" in sys.argv:
        same = run_stream(waits=False)
        print("PASS: stream without the consumers' wait ran (race_proof=False); its copy %s"
              % ("happened to be right" if same else "read stages before their loads"))
        return 0
    ok = run_stream(waits=True)
    print("%s: stream through a 2-stage TMA pipeline (proven)" % ("PASS" if ok else "FAIL"))
    failures += not ok
    for store in ("tma", "global"):
        for num_sms in (None, 3):
            ratio = run_gemm(num_sms, store)
            ok = ratio <= 1
            print("%s: gemm_hopper STORE=%s 256 x 512 x 320 over %s (proven): error %.3g "
                  "of the bound" % ("PASS" if ok else "FAIL", store,
                                    "3 CTAs" if num_sms else "one CTA per tile", ratio))
            failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
