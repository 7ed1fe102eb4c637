# The seed's SiLU as a scalar function, applied with ewise to the affine-ReLU
# kernel's registers ("replace the two arithmetic calls"), verbatim but for
# the imports.
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function(private=True)
def silu(value: T.float32) -> T.float32:
    return value / (T.float32(1) + T.exp(-value))

@T.function
def affine_relu(
    A: T.Tensor((2, 32, 4), "float32", align=16),
    B: T.Tensor((2, 32, 4), "float32", align=16),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    registers = T.alloc_local((2, 32, 4), "float32", layout=register_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A, scope="cta")
    T.cuda.tile.ewise(silu, registers, registers, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, registers, scope="cta")


if __name__ == "__main__":
    import torch
    import tirx

    a = torch.linspace(-4, 4, 256, device="cuda").reshape(2, 32, 4)
    b = torch.empty_like(a)
    tirx.compile(affine_relu, target="cuda")(a, b)
    torch.testing.assert_close(b, torch.nn.functional.silu(a))
    print("silu: OK")
