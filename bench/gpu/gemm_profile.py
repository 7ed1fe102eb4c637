"""One launch of examples/python/gemm.py's kernel for a profiler: compiles
and runs it once (warm-up), then once more, so that `ncu --launch-skip 1
--launch-count 1 -k regex:gemm` sees a warm launch.
Usage: gemm_profile.py EXAMPLES_DIR [M N K [BM BN BK WARPS_M WARPS_N STAGES]]"""
import sys

import torch

sys.path.insert(0, sys.argv[1])
import gemm as tirx_gemm  # noqa: E402

M, N, K = (int(x) for x in sys.argv[2:5]) if len(sys.argv) > 4 else (8192, 8192, 8192)
names = ("BM", "BN", "BK", "WARPS_M", "WARPS_N", "STAGES")
config = dict(zip(names, (int(x) for x in sys.argv[5:11]))) if len(sys.argv) > 10 else \
    dict(BM=128, BN=256, BK=32, WARPS_M=2, WARPS_N=4, STAGES=4)
a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
for _ in range(2):
    tirx_gemm.gemm(a, b, c, **config)
torch.cuda.synchronize()
print("max error / bound: %.3f (%s, %dx%dx%d)" % (tirx_gemm.check(a, b, c), config, M, N, K))
