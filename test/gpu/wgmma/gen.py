#!/usr/bin/env python3
"""Generates the wgmma suite (issue 19, item 4; docs/wgmma.md): wgmma.mma_async
m64nNk16 with f32 accumulators, as TirX kernels and as CUDA C++ reference
kernels that issue the same instruction through inline asm, with descriptors
built by hand:

    wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16.bf16,f16.f16}
    N = 8, 64, 128, 256; A from shared memory (K-major) or registers;
    B from shared memory, K-major or MN-major (imm-trans-b 1); scale-d 0, 1;
    A and B K-major with the 128-byte swizzle

    gen.py OUT_DIR [--no-sync]

writes wgmma.mlir (every TirX kernel; compile with --tirx-to-ptx=
"chip=sm_90a"), reference.cu (nvcc -arch=sm_90a -cubin) and cases.json.

One CTA of one warpgroup (128 threads) per kernel. Kernel parameters, TirX
and reference alike: D, A, B, C, all 32-bit words in global memory:
- D, C: thread t's N / 2 accumulator registers at words t W .. t W + W - 1
  (W = N / 2), register j of the m64nNk16 fragment (docs/wgmma.md); C is
  D's initial value (scale-d 1 adds it, scale-d 0 ignores it).
- A from shared memory: the 64 x 16 matrix row-major, 8 words a row (word w
  holds columns 2w (low half) and 2w + 1). A from registers: thread t's 4
  fragment words at t 4 ...
- B K-major: the N x 16 matrix B^T row-major (row n: the 16 k of column n).
  B MN-major: the 16 x N matrix B row-major (word w of row k: columns 2w, 2w + 1).
Each kernel copies its shared operands word by word (thread t copies global
words t, t + 128, ...) into a canonical layout: without swizzle (K-major:
core matrices 8 rows x 16 bytes, LBO 128, SBO 256; MN-major: SBO 128,
LBO 16 N), or K-major with the 128-byte swizzle (128-byte rows of which the
k16 slice is the first 32 bytes, XOR-swizzled; SBO 1024), fences the generic proxy's writes for the async proxy
(fence.proxy.async.shared::cta), synchronizes the CTA, loads C into the
accumulator, then wgmma.fence, the wgmma, commit_group, wait_group 0 and
stores D. --no-sync leaves the fences and groups out (a check of the
compiler alone: such kernels are not correct on a GPU).
"""
import json
import os
import sys

THREADS = 128
DTYPES = {"bf16": "bf16", "f16": "f16"}


def refine(shape, digits):
    """TileLayout notation of `digits` (a mixed-radix map of the row-major
    index of `shape` to offsets, outer to inner) split at the shape's
    dimension boundaries."""
    digits = [d for d in digits if d[0] > 1]
    out = []
    for extent in shape:
        left = extent
        if extent == 1:
            out.append((1, 1))
            continue
        while left > 1:
            radix, stride = digits.pop(0)
            if radix <= left:
                assert left % radix == 0, (shape, digits)
                out.append((radix, stride))
                left //= radix
            else:
                assert radix % left == 0, (shape, digits)
                out.append((left, stride * (radix // left)))
                digits.insert(0, (radix // left, stride))
                left = 1
    assert not digits, (shape, digits)
    return "S[(%s) : (%s)]" % (", ".join(str(r) for r, _ in out),
                               ", ".join(str(s) for _, s in out))


def c_offset(digits, var):
    """C expression of the offset of flat index `var` under `digits`."""
    terms, inner = [], 1
    for radix, stride in reversed(digits):
        if stride:
            terms.append("((%s / %d) %% %d) * %d" % (var, inner, radix, stride))
        inner *= radix
    return " + ".join(terms) or "0"


# The shared layouts, by kind: "k" / "mn" without swizzle (K-major: LBO 128,
# SBO 256; MN-major: SBO 128, LBO 16 N), "k128" / "mn128" with the 128-byte
# swizzle (K-major: 128-byte rows, of which the k16 slice is the first 32
# bytes, SBO 1024, LBO unused (16); MN-major: 64 n a 128-byte row, SBO 1024
# between the 8-k groups, LBO 2048 between the 64-n groups; N >= 128).


def shared_words(kind, rows):
    return rows * 32 if kind == "k128" else rows * 8


def shared_digits(kind, rows):
    """Word offsets (before the swizzle) in shared memory of the global
    words (row-major) of a matrix: rows x 8 words (K-major kinds) or
    16 x rows / 2 words (MN-major kinds, rows = N)."""
    if kind == "k":
        # word (r, w): (r % 8) 4 + w % 4 + (w / 4) 32 + (r / 8) 64
        return [(rows // 8, 64), (8, 4), (2, 32), (4, 1)]
    if kind == "mn":
        # word (k, wn): wn % 4 + (k % 8) 4 + (wn / 4) 32 + (k / 8) 4 N
        return [(2, 4 * rows), (8, 4), (rows // 8, 32), (4, 1)]
    if kind == "k128":
        # word (r, w): 32 r + w
        return [(rows, 32), (8, 1)]
    # mn128, word (k, wn): wn % 32 + (k % 8) 32 + (k / 8) 256 + (wn / 32) 512
    return [(2, 256), (8, 32), (rows // 64, 512), (32, 1)]


def swizzled(kind):
    return kind.endswith("128")


def element_layout(kind, rows):
    """The operand's (rows, 16) element layout, 16-bit elements."""
    if kind == "k":
        return "S[(%d, 8, 2, 8) : (128, 8, 64, 1)]" % (rows // 8)
    if kind == "mn":
        return "S[(%d, 8, 2, 8) : (64, 1, %d, 8)]" % (rows // 8, 8 * rows)
    if kind == "k128":
        return "S[(%d, 16) : (64, 1)] + Swizzle[3, 3, 3]" % rows
    return "S[(%d, 64, 2, 8) : (1024, 1, 512, 64)] + Swizzle[3, 3, 3]" % (rows // 64)


def descriptor(kind, rows):
    """(LBO, SBO, layout type) the reference writes."""
    return {"k": (128, 256, 0), "mn": (16 * rows, 128, 0), "k128": (16, 1024, 1),
            "mn128": (2048, 1024, 1)}[kind]


def split_digits(digits, inner_total):
    """(outer, inner) digits of a mixed-radix map: inner spans the lowest
    `inner_total` indices (a digit across the boundary is split)."""
    outer, inner, left = list(digits), [], inner_total
    while left > 1:
        radix, stride = outer.pop()
        if radix <= left:
            inner.insert(0, (radix, stride))
            left //= radix
        else:
            inner.insert(0, (left, stride))
            outer.append((radix // left, stride * left))
            left = 1
    return outer, inner


def value_of(digits, index):
    total, inner = 0, 1
    for radix, stride in reversed(digits):
        total += ((index // inner) % radix) * stride
        inner *= radix
    return total


def copy_chunks(words, digits):
    """Per copy instruction j: the (4, 32, 1, 1) view's digits (thread t
    copies global word 128 j + t; t % words when words < 128: two threads
    load each word, the first stores it) and its offset. One instruction per
    chunk, without repeats: a swizzled tile's repeats must be whole periods
    apart, which these are not."""
    if words < THREADS:
        return [([(THREADS // words, 0)] + digits, 0)]
    outer, inner = split_digits(digits, THREADS)
    return [(inner, value_of(outer, j)) for j in range(words // THREADS)]


def cases():
    out = []
    for n in (8, 64, 128, 256):
        for dtype in ("bf16", "f16"):
            for a in ("smem", "reg"):
                out.append(dict(n=n, dtype=dtype, a=a, b="k", scale_d=1))
            out.append(dict(n=n, dtype=dtype, a="smem", b="mn", scale_d=1))
            out.append(dict(n=n, dtype=dtype, a="smem", b="k", scale_d=0))
            # The 128-byte swizzle, K-major A and B (as TMA stores tiles).
            # MN-major 128B B ("mn128") is not generated: its copy would
            # need 8-byte vectors to keep each thread's words in one
            # swizzle period (test/Pipeline/wgmma.mlir checks its PTX).
            out.append(dict(n=n, dtype=dtype, a="smem128", b="k128", scale_d=1))
    for case in out:
        case["name"] = "wgmma_n%d_%s_%s_%s_sd%d" % (
            case["n"], case["dtype"], case["a"], case["b"], case["scale_d"])
        case["words"] = {"d": case["n"] // 2, "a": 4 if case["a"] == "reg" else 512,
                         "b": case["n"] * 8}
        # The shared copies (word offsets of the global words) and the
        # descriptors' strides, for run.py --dry's descriptor model.
        def shared(kind, rows):
            lbo, sbo, layout_type = descriptor(kind, rows)
            return dict(kind=kind, digits=shared_digits(kind, rows), words=shared_words(kind, rows),
                        major="mn" if kind.startswith("mn") else "k", lbo=lbo, sbo=sbo,
                        layout_type=layout_type)
        case["shared"] = {"b": shared(case["b"], case["n"])}
        if case["a"] != "reg":
            case["shared"]["a"] = shared("k128" if case["a"] == "smem128" else "k", 64)
    return out


def tirx_kernel(case, sync):
    n, dt, w = case["n"], case["dtype"], case["n"] // 2
    spelling = "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s" % (n, dt, dt)
    bwords = n * 8
    lines = []
    emit = lines.append
    acc = "S[(4, 2, 8, %d, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]" % (n // 8)
    lane = lambda width: "S[(4, 32, %d, 1) : (1@wid_in_wg, 1@laneid, 1, 1)]" % width
    t_d = "!tirx.tensor<4x32x%dx1xf32, global, align = 4>" % w
    t_a = ("!tirx.tensor<512xui32, global, align = 16>" if case["a"] != "reg"
           else "!tirx.tensor<4x32x4x1xui32, global, align = 4>")
    t_b = "!tirx.tensor<%dxui32, global, align = 16>" % bwords
    emit("tirx.kernel @%s(%%D: %s, %%A: %s, %%B: %s, %%C: %s)" % (case["name"], t_d, t_a, t_b, t_d))
    emit("    launch(grid = [1], block = [128]) {")

    def copy(name, gname, gtype, words, kind, rows):
        """Global words into the canonical shared layout, one ld/st pair a
        chunk of 128 words; returns the operand's SSA name and type."""
        size, align = shared_words(kind, rows), 1024 if swizzled(kind) else 16
        shared_type = "!tirx.tensor<%dxui32, shared, align = %d>" % (size, align)
        emit("  %%%s_s = tirx.alloc_shared : %s" % (name, shared_type))
        view = "4x32x1x1xui32"
        reg_type = "!tirx.tensor<%s, local, #tirx.layout<%s>>" % (view, lane(1))
        emit("  %%%s_r = tirx.alloc_local : %s" % (name, reg_type))
        shared_chunks = copy_chunks(words, shared_digits(kind, rows))
        global_chunks = copy_chunks(words, [(words, 1)])
        for j, ((s_digits, s_off), (g_digits, g_off)) in enumerate(zip(shared_chunks, global_chunks)):
            # The 128-byte swizzle of 4-byte words: Swizzle[2, 3, 3].
            s_layout = refine((4, 32, 1, 1), s_digits) + (" + %d" % s_off if s_off else "") + (
                " + Swizzle[2, 3, 3]" if swizzled(kind) else "")
            g_layout = refine((4, 32, 1, 1), g_digits) + (" + %d" % g_off if g_off else "")
            s_view = "!tirx.tensor<%s, shared, #tirx.layout<%s>, align = %d>" % (view, s_layout, align)
            g_view = "!tirx.tensor<%s, global, #tirx.layout<%s>, align = 16>" % (view, g_layout)
            emit("  %%%s_g%d = tirx.reinterpret %s : %s -> %s" % (name, j, gname, gtype, g_view))
            emit("  %%%s_s%d = tirx.reinterpret %%%s_s : %s -> %s" % (name, j, name, shared_type, s_view))
            emit('  tile.apply "ld.global.b32" scope(cta) (%%%s_r, %%%s_g%d) : %s, %s'
                 % (name, name, j, reg_type, g_view))
            # Fewer words than threads (N = 8's B): threads t and t + words
            # load one word, only the first stores it (two stores of one
            # word, even of one value, are a data race).
            pred = ""
            if words < THREADS:
                emit("  %%%s_tx = tirx.thread_idx x" % name)
                emit("  %%%s_n = arith.constant %d : index" % (name, words))
                emit("  %%%s_first = arith.cmpi ult, %%%s_tx, %%%s_n : index" % (name, name, name))
                pred = " pred(%%%s_first)" % name
            emit('  tile.apply "st.shared.b32" scope(cta) (%%%s_s%d, %%%s_r)%s : %s, %s'
                 % (name, j, name, pred, s_view, reg_type))
        halves = "!tirx.tensor<%dx%s, shared, align = %d>" % (2 * size, dt, align)
        emit("  %%%s_h = tirx.view %%%s_s : %s -> %s" % (name, name, shared_type, halves))
        op_type = "!tirx.tensor<%dx16x%s, shared, #tirx.layout<%s>, align = %d>" % (
            rows, dt, element_layout(kind, rows), align)
        emit("  %%%s_op = tirx.reinterpret %%%s_h : %s -> %s" % (name, name, halves, op_type))
        return "%%%s_op" % name, op_type

    if case["a"] != "reg":
        a_ssa, a_type = copy("a", "%A", t_a, 512, case["shared"]["a"]["kind"], 64)
    b_ssa, b_type = copy("b", "%B", t_b, bwords, case["b"], n)
    if sync:
        emit('  tile.apply "fence.proxy.async.shared::cta" scope(thread) ()')
    emit("  tirx.cta_sync")
    if case["a"] == "reg":
        areg = "S[(4, 2, 8, 2, 4) : (1@wid_in_wg, 1, 4@laneid, 2, 1@laneid)]"
        a_type = "!tirx.tensor<64x8xui32, local, #tirx.layout<%s>>" % areg
        emit("  %%a_f = tirx.alloc_local : %s" % a_type)
        emit("  %%a_l = tirx.reinterpret %%a_f : %s -> !tirx.tensor<4x32x4x1xui32, local, "
             "#tirx.layout<%s>>" % (a_type, lane(4)))
        emit('  tile.apply "ld.global.b32" scope(warpgroup) (%%a_l, %%A) : !tirx.tensor<4x32x4x1xui32, '
             "local, #tirx.layout<%s>>, %s" % (lane(4), t_a))
        a_ssa = "%a_f"
    d_type = "!tirx.tensor<64x%dxf32, local, #tirx.layout<%s>>" % (n, acc)
    dl_type = "!tirx.tensor<4x32x%dx1xf32, local, #tirx.layout<%s>>" % (w, lane(w))
    emit("  %%d = tirx.alloc_local : %s" % d_type)
    emit("  %%dl = tirx.reinterpret %%d : %s -> %s" % (d_type, dl_type))
    emit('  tile.apply "ld.global.b32" scope(warpgroup) (%%dl, %%C) : %s, %s' % (dl_type, t_d))
    if sync:
        emit('  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()')
    imms = "%s, 1 : i32, 1 : i32, %s%d : i32" % (
        "true" if case["scale_d"] else "false",
        "0 : i32, " if case["a"] != "reg" else "", 1 if case["b"].startswith("mn") else 0)
    emit('  tile.apply "%s" scope(warpgroup) (%%d, %s, %s, %s)' % (spelling, a_ssa, b_ssa, imms))
    emit("      : %s, %s, %s" % (d_type, a_type, b_type))
    if sync:
        emit('  tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()')
        emit('  tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (0 : i32)')
    emit('  tile.apply "st.global.b32" scope(warpgroup) (%%D, %%dl) : %s, %s' % (t_d, dl_type))
    emit("  tirx.return")
    emit("}")
    return "\n".join(lines)


def reference_kernel(case):
    n, dt, w = case["n"], case["dtype"], case["n"] // 2
    bwords = n * 8
    out = []
    emit = out.append
    emit('extern "C" __global__ void __launch_bounds__(128) %s(float *D, const uint32_t *A, '
         "const uint32_t *B, const float *C) {" % case["name"])
    emit("  int t = threadIdx.x;")

    def fill(array, source, words, shared):
        size = shared["words"]
        emit("  __shared__ __align__(1024) uint32_t %s[%d];" % (array, size))
        offset = c_offset(shared["digits"], "g")
        if shared["layout_type"]:  # 128-byte swizzle on words: bits [2, 5) ^= [5, 8)
            offset = "swizzle128(%s)" % offset
        emit("  for (int g = t; g < %d; g += 128) %s[%s] = %s[g];" % (words, array, offset, source))

    def desc(name, array, shared):
        emit("  uint64_t %s = (((uint64_t)__cvta_generic_to_shared(%s) & 0x3FFFF) >> 4) | "
             "((uint64_t)(%d >> 4) << 16) | ((uint64_t)(%d >> 4) << 32) | ((uint64_t)%d << 62);"
             % (name, array, shared["lbo"], shared["sbo"], shared["layout_type"]))

    fill("sb", "B", bwords, case["shared"]["b"])
    if case["a"] != "reg":
        fill("sa", "A", 512, case["shared"]["a"])
    emit('  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");')
    emit("  __syncthreads();")
    emit("  float d[%d];" % w)
    emit("#pragma unroll")
    emit("  for (int j = 0; j < %d; ++j) d[j] = C[t * %d + j];" % (w, w))
    desc("db", "sb", case["shared"]["b"])
    if case["a"] != "reg":
        desc("da", "sa", case["shared"]["a"])
    else:
        emit("  uint32_t a[4];")
        emit("  for (int j = 0; j < 4; ++j) a[j] = A[t * 4 + j];")
    emit('  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");')
    regs = ", ".join("%%%d" % i for i in range(w))
    if case["a"] != "reg":
        a_text, a_in = "%%%d" % w, '"l"(da), '
        rest = w + 1
    else:
        a_text = "{%s}" % ", ".join("%%%d" % (w + i) for i in range(4))
        a_in = '"r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), '
        rest = w + 4
    imm = "1, 1, %s%d" % ("0, " if case["a"] != "reg" else "",
                          1 if case["b"].startswith("mn") else 0)
    emit('  asm volatile("{\\n.reg .pred p;\\nsetp.ne.b32 p, %%%d, 0;\\n'
         'wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {%s}, %s, %%%d, p, %s;\\n}\\n"'
         % (rest + 1, n, dt, dt, regs, a_text, rest, imm))
    emit("      : %s" % ", ".join('"+f"(d[%d])' % i for i in range(w)))
    emit('      : %s"l"(db), "r"(%d) : "memory");' % (a_in, case["scale_d"]))
    emit('  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");')
    emit('  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");')
    emit("#pragma unroll")
    emit("  for (int j = 0; j < %d; ++j) D[t * %d + j] = d[j];" % (w, w))
    emit("}")
    return "\n".join(out)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    sync = "--no-sync" not in argv
    if len(args) != 1:
        raise SystemExit("usage: gen.py OUT_DIR [--no-sync]")
    out_dir = args[0]
    os.makedirs(out_dir, exist_ok=True)
    all_cases = cases()
    with open(os.path.join(out_dir, "wgmma.mlir"), "w") as f:
        f.write("// Generated by test/gpu/wgmma/gen.py%s.\n" % ("" if sync else " --no-sync"))
        f.write("\n\n".join(tirx_kernel(c, sync) for c in all_cases) + "\n")
    with open(os.path.join(out_dir, "reference.cu"), "w") as f:
        f.write("// Generated by test/gpu/wgmma/gen.py: nvcc -arch=sm_90a -cubin.\n")
        f.write("#include <cstdint>\n\n")
        f.write("// The 128-byte swizzle of a word offset (byte bits [4, 7) ^= [7, 10)).\n"
                "__device__ __forceinline__ int swizzle128(int w) "
                "{ return w ^ (((w >> 5) & 7) << 2); }\n\n")
        f.write("\n\n".join(reference_kernel(c) for c in all_cases) + "\n")
    with open(os.path.join(out_dir, "cases.json"), "w") as f:
        json.dump({"threads": THREADS, "sync": sync, "kernels": all_cases}, f, indent=1)
    print("%d kernels" % len(all_cases))


if __name__ == "__main__":
    main(sys.argv)
