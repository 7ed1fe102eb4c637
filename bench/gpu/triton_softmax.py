"""Triton's fused-softmax tutorial kernel (one program per row, BLOCK_SIZE =
the next power of two of the row), the anchor of bench/gpu/softmax.py and
bench/gpu/first_launch.py."""


def triton_softmax_factory():
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None, None

    @triton.jit
    def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols,
                       BLOCK_SIZE: tl.constexpr):
        row = tl.program_id(0)
        offsets = tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_cols
        x = tl.load(in_ptr + row * in_stride + offsets, mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        numerator = tl.exp(x)
        y = numerator / tl.sum(numerator, axis=0)
        tl.store(out_ptr + row * out_stride + offsets, y, mask=mask)

    def run(x, y, num_warps):
        rows, cols = x.shape
        softmax_kernel[(rows,)](y, x, x.stride(0), y.stride(0), cols,
                                BLOCK_SIZE=triton.next_power_of_2(cols), num_warps=num_warps)
    return run, triton.__version__
