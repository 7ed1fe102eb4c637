# The seed's affine transformation and ReLU, verbatim but for the imports.
# Run on a GPU: python3 affine_relu.py (needs torch).
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def affine_relu(
    A: T.Tensor((2, 32, 4), "float32", align=16),
    B: T.Tensor((2, 32, 4), "float32", align=16),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    registers = T.alloc_local((2, 32, 4), "float32", layout=register_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A, scope="cta")
    scalars = registers.view(2, 32, 4, 1)
    T.cuda.tile.apply(
        T.ptx["fma.rn.f32"], scalars, scalars, T.float32(2), T.float32(1), scope="cta"
    )
    T.cuda.tile.apply(T.ptx["max.f32"], scalars, scalars, T.float32(0), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, registers, scope="cta")


if __name__ == "__main__":
    import torch
    import tirx

    a = torch.linspace(-4, 4, 256, device="cuda").reshape(2, 32, 4)
    b = torch.empty_like(a)
    compiled = tirx.compile(affine_relu, target="cuda")
    compiled(a, b)
    torch.testing.assert_close(b, torch.clamp_min(a * 2 + 1, 0))
    print("affine_relu: OK")
