# The seed's numeric conversion, verbatim but for the imports.
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def to_float16(
    A: T.Tensor((2, 32, 4), "float32", align=16),
    B: T.Tensor((2, 32, 4), "float16", align=8),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    registers = T.alloc_local((2, 32, 4), "float32", layout=register_layout)
    converted = T.alloc_local((2, 32, 4), "float16", layout=register_layout)
    words = converted.view("uint16")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A, scope="cta")
    T.cuda.tile.apply(
        T.ptx["cvt.rn.f16.f32"],
        words.view(2, 32, 4, 1), registers.view(2, 32, 4, 1), scope="cta",
    )
    T.cuda.tile.apply(T.ptx["st.global.v4.b16"], B.view("uint16"), words, scope="cta")


if __name__ == "__main__":
    import torch
    import tirx

    a = torch.linspace(-4, 4, 256, device="cuda").reshape(2, 32, 4)
    half_result = torch.empty_like(a, dtype=torch.float16)
    tirx.compile(to_float16, target="cuda")(a, half_result)
    torch.testing.assert_close(half_result, a.to(torch.float16))
    print("to_float16: OK")
