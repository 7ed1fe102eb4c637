# Multi-CTA affine-ReLU over 2^26 floats: each of 16384 CTAs of 256 threads
# loads its own 4096-float chunk, selected by the block index.
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

N_CTAS = 16384
# The row-major buffer seen as (cta, warp, lane, repeat, word): repeat r of
# warp w, lane l holds floats 1024 r + 128 w + 4 l .. +3 of the chunk.
chunk = TileLayout(S[(N_CTAS, 8, 32, 4, 4) : (4096, 128, 4, 1024, 1)])
registers_layout = TileLayout(S[(8, 32, 16) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def affine_relu_large(
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


if __name__ == "__main__":
    import torch
    import tirx

    a = torch.randn(N_CTAS, 8, 32, 4, 4, device="cuda")
    b = torch.full_like(a, float("nan"))  # an element never written stays NaN
    tirx.compile(affine_relu_large, target="cuda")(a, b)
    torch.testing.assert_close(b, torch.clamp_min(a * 2 + 1, 0), rtol=0, atol=0)
    print("affine_relu_large (2^26 floats): OK")
