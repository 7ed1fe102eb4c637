#!/usr/bin/python3
"""Compile-time and PTX-size benchmark: TirX (tirx-opt --tirx-to-ptx) vs nvcc -ptx.

Default mode, for each seed kernel (examples/*.mlir vs bench/cuda/*.cu):
  * whole-process wall time of `tirx-opt K.mlir --tirx-to-ptx` and of
    `nvcc -arch=sm_90 -ptx K.cu`, the two ALTERNATED in one loop, N runs each
    (after one untimed warm-up of each); median of each and ratio tirx/nvcc
    (target <= 0.10);
  * PTX instruction counts of both outputs (instruction lines inside function
    bodies; directives, labels, braces, comments and blank lines excluded),
    for the whole file and for the kernel entry only (target: TirX <= nvcc).

--scaling: generates an affine-ReLU TirX kernel whose 64 threads each own R
floats (R in --repeats), checks the PTX has R/4 ld.global.v4, R fma, R max and
R/4 st.global.v4 per thread, and reports the median compile time per R, the
growth exponent between consecutive sizes (1.0 = linear) and whether the
largest R compiles in < 1 s. R stays within the verifier's register budget
(docs/registers.md: 239 registers per thread for 64 threads), so the default
sizes end at 224.

--in-process: the Python path users take, `tirx.compile` with the cache
off (TIRX_CACHE=0), for the seed's affine-ReLU, the row softmax (8192 x
16384's kernel), RMSNorm (8192 columns) and the Hopper GEMM (4096^3) of
examples/python: per kernel, interleaved, N runs each, the median of
  * TirX total: trace, compile, one ptxas run (report and cubin);
  * TirX without ptxas: the same trace and compile with ptxas off;
  * ptxas alone on the same PTX (`ptxas -arch=sm_90a -v`, as TirX runs it);
and the ratio total / ptxas (goal <= 1.25) and the time outside ptxas
(goals: <= 10 ms for the seed kernel, <= 0.3 s for the GEMM). Needs the
Python package's library: $TIRX_LIBRARY, else build-static/lib, else
build/lib.

Markdown tables go to stdout. Standard library only.
"""
import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = ["affine_relu", "to_float16", "silu"]
INTERESTING = ["ld.global", "st.global", "fma", "max", "cvt", "ex2", "div", "rcp"]


def run_timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n"
                 f"{proc.stderr.decode(errors='replace')}")
    return elapsed


def tirx_cmd(tirx_opt, mlir, ptx, extra=""):
    options = f"ptx-output={ptx} {extra}".strip()
    return [tirx_opt, mlir, f"--tirx-to-ptx={options}", "-o", os.devnull]


def nvcc_cmd(nvcc, cu, ptx):
    return [nvcc, "-arch=sm_90", "-ptx", cu, "-o", ptx]


def ptx_functions(text):
    """Yield (name, is_entry, [mnemonic, ...]) for each function body in PTX."""
    name, is_entry, depth, body = None, False, 0, []
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        header = re.match(r"(?:\.visible\s+|\.weak\s+)?\.(entry|func)\b.*?(\w+)\s*\(",
                          line)
        if header and depth == 0:
            name, is_entry, body = header.group(2), header.group(1) == "entry", []
            continue
        if line == "{":
            depth += 1
            continue
        if line == "}":
            depth -= 1
            if depth == 0 and name is not None:
                yield name, is_entry, body
                name = None
            continue
        if depth == 0:
            continue
        line = line.strip("{} \t")  # nvcc wraps inline asm as "{ cvt...;}"
        if not line or line.startswith(".") or line.endswith(":"):
            continue
        tokens = line.split()
        if tokens[0].startswith("@"):  # predicate guard
            tokens = tokens[1:]
        body.append(tokens[0].rstrip(";"))


def count_instructions(ptx_path):
    """Return (counts over the whole file, counts over entry kernels only)."""
    with open(ptx_path) as f:
        text = f.read()
    whole, entry = {}, {}
    for _, is_entry, body in ptx_functions(text):
        for counts in (whole, entry) if is_entry else (whole,):
            for mnemonic in body:
                counts["total"] = counts.get("total", 0) + 1
                for family in INTERESTING:
                    if mnemonic == family or mnemonic.startswith(family + "."):
                        counts[family] = counts.get(family, 0) + 1
    return whole, entry


def median_times(cmds, runs):
    """Alternate the commands in one loop; return the median wall time of each."""
    for cmd in cmds:  # warm-up: page cache, dynamic loader
        run_timed(cmd)
    samples = [[] for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            samples[i].append(run_timed(cmd))
    return [statistics.median(s) for s in samples]


def pipeline_time(cmd, runs):
    """Median in-process pass-pipeline time reported by --mlir-timing."""
    totals = []
    for _ in range(runs):
        out = subprocess.run(cmd + ["--mlir-timing"], capture_output=True, text=True).stderr
        totals.append(float(re.search(r"Total Execution Time: ([0-9.]+)", out).group(1)))
    return statistics.median(totals)


def seed_benchmark(args, tmp):
    time_rows, count_rows = [], []
    for kernel in KERNELS:
        mlir = os.path.join(ROOT, "examples", kernel + ".mlir")
        cu = os.path.join(ROOT, "bench", "cuda", kernel + ".cu")
        tirx_ptx = os.path.join(tmp, kernel + ".tirx.ptx")
        nvcc_ptx = os.path.join(tmp, kernel + ".nvcc.ptx")
        tirx_t, nvcc_t = median_times(
            [tirx_cmd(args.tirx_opt, mlir, tirx_ptx), nvcc_cmd(args.nvcc, cu, nvcc_ptx)],
            args.runs)
        ratio = tirx_t / nvcc_t
        in_process = pipeline_time(tirx_cmd(args.tirx_opt, mlir, tirx_ptx), args.runs)
        time_rows.append(f"| {kernel} | {tirx_t * 1e3:.1f} | {in_process * 1e3:.1f} | "
                         f"{nvcc_t * 1e3:.1f} | "
                         f"{ratio:.3f} | {'yes' if ratio <= 0.10 else 'NO'} |")
        (tw, te), (nw, ne) = count_instructions(tirx_ptx), count_instructions(nvcc_ptx)
        for label, counts in (("TirX (file)", tw), ("TirX (entry)", te),
                              ("nvcc (file)", nw), ("nvcc (entry)", ne)):
            cells = " | ".join(str(counts.get(f, 0)) for f in INTERESTING + ["total"])
            count_rows.append(f"| {kernel} | {label} | {cells} |")

    print(f"### Compile time (whole process, median of {args.runs} alternating runs)\n")
    print("| kernel | tirx-opt (ms) | of which pass pipeline (ms) | nvcc -ptx (ms) "
          "| tirx/nvcc | <= 0.10 |")
    print("|---|---:|---:|---:|---:|:---:|")
    print("\n".join(time_rows))
    (startup,) = median_times([[args.tirx_opt, "--version"]], args.runs)
    print(f"\nProcess-startup floor, `tirx-opt --version`: {startup * 1e3:.1f} ms "
          "(median). Pass pipeline: `--mlir-timing` total, median of separate runs.")
    print("\n### PTX instruction counts\n")
    print("| kernel | output | " + " | ".join(f + "*" for f in INTERESTING) + " | total |")
    print("|---|---|" + "---:|" * (len(INTERESTING) + 1))
    print("\n".join(count_rows))


SCALING_IR = """\
// affine-ReLU over a (2, 32, {r}) f32 tile: 64 threads x {r} consecutive floats.
#reg = #tirx.layout<S[(2, 32, {r}) : (1@warpid, 1@laneid, 1)]>

tirx.kernel @affine_relu_r{r}(%A: !tirx.tensor<2x32x{r}xf32, global, align = 16>,
                         %B: !tirx.tensor<2x32x{r}xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {{
  %regs = tirx.alloc_local : !tirx.tensor<2x32x{r}xf32, local, #reg>
  %vregs = tirx.view %regs : !tirx.tensor<2x32x{r}xf32, local, #reg>
                          -> !tirx.tensor<2x32x{q}x4xf32, local, #reg>
  %vA = tirx.view %A : !tirx.tensor<2x32x{r}xf32, global, align = 16>
                    -> !tirx.tensor<2x32x{q}x4xf32, global, align = 16>
  %vB = tirx.view %B : !tirx.tensor<2x32x{r}xf32, global, align = 16>
                    -> !tirx.tensor<2x32x{q}x4xf32, global, align = 16>
  tile.apply "ld.global.v4.b32" scope(cta) (%vregs, %vA)
      : !tirx.tensor<2x32x{q}x4xf32, local, #reg>,
        !tirx.tensor<2x32x{q}x4xf32, global, align = 16>
  %s = tirx.view %regs : !tirx.tensor<2x32x{r}xf32, local, #reg>
                      -> !tirx.tensor<2x32x{r}x1xf32, local, #reg>
  tile.apply "fma.rn.f32" scope(cta) (%s, %s, 2.0 : f32, 1.0 : f32)
      : !tirx.tensor<2x32x{r}x1xf32, local, #reg>,
        !tirx.tensor<2x32x{r}x1xf32, local, #reg>
  tile.apply "max.f32" scope(cta) (%s, %s, 0.0 : f32)
      : !tirx.tensor<2x32x{r}x1xf32, local, #reg>,
        !tirx.tensor<2x32x{r}x1xf32, local, #reg>
  tile.apply "st.global.v4.b32" scope(cta) (%vB, %vregs)
      : !tirx.tensor<2x32x{q}x4xf32, global, align = 16>,
        !tirx.tensor<2x32x{q}x4xf32, local, #reg>
  tirx.return
}}
"""


def scaling_benchmark(args, tmp):
    rows, previous = [], None
    for r in args.repeats:
        assert r % 4 == 0, "repeats must be a multiple of 4"
        mlir = os.path.join(tmp, f"scale_{r}.mlir")
        ptx = os.path.join(tmp, f"scale_{r}.ptx")
        with open(mlir, "w") as f:
            f.write(SCALING_IR.format(r=r, q=r // 4))
        (t,) = median_times([tirx_cmd(args.tirx_opt, mlir, ptx, args.pipeline_options)],
                            args.runs)
        _, counts = count_instructions(ptx)
        expected = {"ld.global": r // 4, "fma": r, "max": r, "st.global": r // 4}
        ok = all(counts.get(k, 0) == v for k, v in expected.items())
        growth = "" if previous is None else \
            f"{math.log(t / previous[1]) / math.log(r / previous[0]):.2f}"
        rows.append(f"| {r} | {64 * r} | {counts.get('total', 0)} | "
                    f"{'yes' if ok else 'NO'} | {t * 1e3:.1f} | "
                    f"{t / r * 1e6:.1f} | {growth} |")
        previous = (r, t)
    largest = args.repeats[-1]
    options = f", pipeline options `{args.pipeline_options}`" if args.pipeline_options else ""
    print(f"### Scaling: affine-ReLU, 64 threads x R floats "
          f"(median of {args.runs} runs{options})\n")
    print("| R (repeats/thread) | tile elements | PTX instrs | counts as expected | "
          "tirx-opt (ms) | us per repeat | growth exponent vs previous R |")
    print("|---:|---:|---:|:---:|---:|---:|---:|")
    print("\n".join(rows))
    print(f"\nR = {largest} under 1 s: {'yes' if previous[1] < 1.0 else 'NO'} "
          f"({previous[1]:.2f} s). Growth exponent 1.0 = linear.")


def in_process_benchmark(args, tmp):
    """The rows of --in-process (see the module's docstring)."""
    for lib in (os.environ.get("TIRX_LIBRARY"), os.path.join(ROOT, "build-static", "lib"),
                os.path.join(ROOT, "build", "lib")):
        if lib and os.path.exists(os.path.join(lib, "libTirXCAPI.so")):
            os.environ["TIRX_LIBRARY"] = lib
            break
    os.environ["TIRX_CACHE"] = "0"
    sys.path[:0] = [os.path.join(ROOT, "python"), os.path.join(ROOT, "examples", "python")]
    import tirx
    from tirx import _capi
    from tirx._function import Module
    import affine_relu
    import gemm_hopper
    import rmsnorm
    import softmax
    arch = "sm_90a"
    target = {"kind": "cuda", "arch": arch}
    ptxas = _capi.cuda_tool("ptxas")
    if not ptxas:
        sys.exit("--in-process needs ptxas (a CUDA toolkit)")
    threads, chunks, vector, whole = rmsnorm.config_for(8192)
    kernels = [("seed affine-ReLU", affine_relu.affine_relu),
               ("softmax 8192 x 16384", softmax.kernel_for(*softmax.config_for(8192, 16384))),
               ("RMSNorm, 8192 columns",
                rmsnorm.make_kernel(threads, chunks, rmsnorm.EPS, vector, whole)),
               ("Hopper GEMM 4096^3", gemm_hopper.make_kernel(4096, 4096, 4096, num_sms=132))]

    def without_ptxas(kernel):
        def run():
            module = Module(kernel.name)
            trace = kernel.trace_kernel(module)
            body = [t for t in module.scalar_functions.values() if t] + [trace.text]
            data = ('module attributes {tirx.chip = "%s"} {\n%s\n}\n'
                    % (arch, "\n".join(body))).encode()
            result = _capi.lib.tirxCompile(data, len(data), b"<bench>",
                                           ("chip=%s" % arch).encode(), 0)
            ok = _capi.lib.tirxCompileResultSucceeded(result)
            _capi.lib.tirxCompileResultDestroy(result)
            assert ok, kernel.name
        return run

    def timed(fn):
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start

    rows = []
    for label, kernel in kernels:
        compiled = tirx.compile(kernel, target=target)
        assert compiled.cubin, "no cubin: ptxas did not run"
        ptx = os.path.join(tmp, kernel.name + ".ptx")
        with open(ptx, "w") as f:
            f.write(compiled.ptx)
        ptxas_cmd = [ptxas, "-arch=" + arch, "--opt-level=3", "-v", ptx, "-o",
                     os.path.join(tmp, kernel.name + ".cubin")]
        runs = [lambda kernel=kernel: tirx.compile(kernel, target=target),
                without_ptxas(kernel),
                lambda cmd=ptxas_cmd: subprocess.run(cmd, capture_output=True, check=True)]
        for run in runs:  # warm-up
            run()
        samples = [[], [], []]
        for _ in range(args.runs):
            for run, sample in zip(runs, samples):
                sample.append(timed(run))
        # Median and fastest run: on a shared VM the fastest is the cost
        # with the least interference.
        total, alone, assembler = (statistics.median(x) for x in samples)
        fastest = [min(x) for x in samples]
        rows.append(f"| {label} | {total * 1e3:.1f} ({fastest[0] * 1e3:.1f}) | "
                    f"{alone * 1e3:.1f} ({fastest[1] * 1e3:.1f}) | "
                    f"{assembler * 1e3:.1f} ({fastest[2] * 1e3:.1f}) | "
                    f"{total / assembler:.2f} ({fastest[0] / fastest[2]:.2f}) | "
                    f"{(total - assembler) * 1e3:.1f} | {compiled.registers} |")
    print(f"### In-process compile (`tirx.compile`, TIRX_CACHE=0, {arch}, "
          f"median (fastest) of {args.runs} interleaved runs, "
          f"{os.environ['TIRX_LIBRARY']})\n")
    print("| kernel | TirX total (ms) | TirX without ptxas (ms) | ptxas alone (ms) | "
          "total / ptxas | total - ptxas (ms) | registers |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tirx-opt", default=os.environ.get(
        "TIRX_OPT", os.path.join(ROOT, "build", "bin", "tirx-opt")))
    parser.add_argument("--nvcc", default=os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc"))
    parser.add_argument("-n", "--runs", type=int, default=7)
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--in-process", action="store_true",
                        help="tirx.compile of the examples' kernels against ptxas alone")
    parser.add_argument("--repeats", type=int, nargs="+", default=[16, 32, 64, 128, 224])
    parser.add_argument("--pipeline-options", default="",
                        help="extra --tirx-to-ptx options for --scaling, e.g. opt-level=0")
    parser.add_argument("--keep", metavar="DIR",
                        help="write generated IR/PTX to DIR instead of a temporary directory")
    args = parser.parse_args()
    if args.runs < 5:
        parser.error("--runs must be >= 5")
    with tempfile.TemporaryDirectory(prefix="tirx-bench-") as tmp:
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            tmp = args.keep
        load_before = os.getloadavg()[0]
        if args.in_process:
            in_process_benchmark(args, tmp)
        else:
            (scaling_benchmark if args.scaling else seed_benchmark)(args, tmp)
        print(f"\n1-minute load average before/after: {load_before:.2f} / "
              f"{os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
