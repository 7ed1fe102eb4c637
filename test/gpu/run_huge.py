"""More than 2^32 elements per tensor: affine-ReLU over 2^33 + 2^16 floats
(32 GiB per tensor), so element and byte offsets pass 2^32 and addresses
need 64-bit math end to end (block index x chunk stride is formed with
mul.wide.u32 into a 64-bit register). Needs 70 GiB of GPU memory; on
smaller GPUs it exits 77 (SKIP_STATUS: run.sh counts it as skipped), its
last line the reason. Checked slice by slice against torch, bit for bit.
Usage (bundle): PYTHONPATH=python TIRX_LIBRARY=lib python3 run_huge.py"""
import sys

import torch

SKIP_STATUS = 77  # test/gpu/tally.sh
NEEDED = 70 << 30
# Before importing tirx: the skip depends on the GPU alone.
total = torch.cuda.get_device_properties(0).total_memory
if total < NEEDED:
    print("affine_relu_huge: skipped: needs %d GiB of GPU memory, this GPU has %.1f GiB"
          % (NEEDED >> 30, total / 2**30))
    sys.exit(SKIP_STATUS)

from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid
import tirx

N_CTAS = (1 << 21) + 16
chunk = TileLayout(S[(N_CTAS, 8, 32, 4, 4) : (4096, 128, 4, 1024, 1)])
registers_layout = TileLayout(S[(8, 32, 16) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def affine_relu_huge(
    A: T.Tensor((N_CTAS, 8, 32, 4, 4), "float32", align=16, layout=chunk),
    B: T.Tensor((N_CTAS, 8, 32, 4, 4), "float32", align=16, layout=chunk),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=N_CTAS, block=256))
    bx = T.cuda.block_idx("x")
    a = A.sub[bx, :, :, :, :]
    b = B.sub[bx, :, :, :, :]
    registers = T.alloc_local((8, 32, 4, 4), "float32", layout=registers_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, a, scope="cta")
    scalars = registers.view(8, 32, 16, 1)
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], scalars, scalars, T.float32(2), T.float32(1),
                      scope="cta")
    T.cuda.tile.apply(T.ptx["max.f32"], scalars, scalars, T.float32(0), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], b, registers, scope="cta")


compiled = tirx.compile(affine_relu_huge, target="cuda")
elements = N_CTAS * 4096
a = torch.empty(N_CTAS, 8, 32, 4, 4, device="cuda")
a.view(-1).uniform_(-4, 4)
b = torch.full_like(a, float("nan"))
compiled(a, b)
torch.cuda.synchronize()
flat_a, flat_b = a.view(-1), b.view(-1)
step = 1 << 28
mismatches = 0
for start in range(0, elements, step):
    reference = torch.clamp_min(flat_a[start:start + step] * 2 + 1, 0)
    mismatches += int((flat_b[start:start + step] != reference).sum())
print("affine_relu_huge (%d floats, %.1f GiB per tensor, last byte offset %d): "
      "%d mismatches" % (elements, elements * 4 / 2**30, elements * 4 - 1, mismatches))
sys.exit(1 if mismatches else 0)
