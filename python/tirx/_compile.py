"""tirx.compile: trace, compile through the C API, launch through the
runtime library."""
import ctypes
import os
import re
import warnings

from . import _cache, _capi, _interpret
from ._dsl import CompileError, DSLError
from ._function import Function, Module


_TARGET_KEYS = ("kind", "arch", "backend_config", "fast_math", "max_registers",
                "strict_races", "race_proof")
_NVRTC_FLAGS = ("--use_fast_math",)
# sm_NN, sm_NNa, sm_NNf; whether LLVM knows the chip is the compiler's
# check (the pipeline picks the chip's PTX ISA).
_CHIP = re.compile(r"sm_(\d+)[af]?")


def _target_options(target):
    if isinstance(target, dict):
        unknown = [key for key in target if key not in _TARGET_KEYS]
        if unknown:
            raise ValueError("unknown target key(s) %s (known: %s)" % (
                ", ".join(map(repr, unknown)), ", ".join(_TARGET_KEYS)))
        if target.get("kind", "cuda") != "cuda":
            raise ValueError("the target kind must be 'cuda' or 'interpret', got %r"
                             % target.get("kind"))
        arch = target.get("arch")
        fast = bool(target.get("fast_math", False))
        config = target.get("backend_config", {})
        cuda = config.get("cuda", {}) if isinstance(config, dict) else None
        flags = cuda.get("nvrtc", []) if isinstance(cuda, dict) else None
        if not isinstance(flags, (list, tuple)) or set(config) - {"cuda"} or \
                set(cuda) - {"nvrtc"}:
            raise ValueError("backend_config must look like {'cuda': {'nvrtc': "
                             "['--use_fast_math']}}, got %r" % (config,))
        for flag in flags:
            if flag not in _NVRTC_FLAGS:
                raise ValueError("unsupported nvrtc flag %r in backend_config (supported: %s)"
                                 % (flag, ", ".join(_NVRTC_FLAGS)))
        fast = fast or "--use_fast_math" in flags
        max_registers = target.get("max_registers", 0)
        if type(max_registers) is not int or not 0 <= max_registers <= 255:
            raise ValueError("target max_registers must be an int from 1 to 255 (0 or "
                             "absent: ptxas's choice), got %r" % (max_registers,))
        strict = target.get("strict_races", False)
        if type(strict) is not bool:
            raise ValueError("target strict_races must be True or False, got %r" % (strict,))
        proof = target.get("race_proof", True)
        if type(proof) is not bool:
            raise ValueError("target race_proof must be True or False, got %r" % (proof,))
        if strict and not proof:
            raise ValueError("target strict_races=True needs the race proof: race_proof=False "
                             "skips it")
        races = " strict-races=1" if strict else "" if proof else " race-proof=0"
    elif target in (None, "cuda"):
        arch, fast, max_registers, races = None, False, 0, ""
    else:
        raise ValueError("target must be 'cuda', 'interpret' or {'kind': 'cuda', 'arch': "
                         "'sm_90'}, got %r" % (target,))
    if arch is None:
        from . import runtime
        arch = "sm_%d" % runtime.compute_capability()
    match = _CHIP.fullmatch(arch) if isinstance(arch, str) else None
    if not match:
        raise ValueError("target arch must be a chip name such as 'sm_90' or 'sm_90a', got %r"
                         % (arch,))
    return arch, fast, max_registers, races


# Diagnostics the parser reports inside the generated IR text (type errors
# are found while parsing) are mapped back to the loc() of that line; on the
# kernel's header line, to the parameter or launch configuration at that
# column; elsewhere, to the function around the line.
_IR_BUFFER = "<tirx-generated-ir>"
_LOC = re.compile(r'loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)\s*$')


def _unescape(text):
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text)


def _user_location(ir, diagnostic, header_line=None, spans=()):
    severity, file, line, column, message = diagnostic
    if file != _IR_BUFFER:
        return diagnostic
    lines = ir.splitlines()
    if not 0 < line <= len(lines):
        return diagnostic
    if line == header_line:
        for first, last, position, prefix in spans:
            if first <= column - 1 < last:
                return (severity, position[0], position[1],
                        position[2] if len(position) > 2 else 1, prefix + message)
    text = lines[line - 1]
    if text.startswith(("  tirx.kernel ", "  func.func ")):
        # A function's header: its definition, on the line that closes it.
        text = next((t for t in lines[line:] if t.startswith("  } loc(")), text)
    match = _LOC.search(text)
    if match:
        return (severity, _unescape(match.group(1)), int(match.group(2)),
                int(match.group(3)), message)
    return diagnostic


def compile(f, target=None, pipeline="default"):
    """Compiles a @T.function kernel; the result is callable on tensors.
    Results are cached in memory and on disk (docs/python.md)."""
    if not isinstance(f, Function) or f.private:
        raise TypeError("tirx.compile needs a @T.function kernel, got %s" % (
            "a private scalar function" if isinstance(f, Function) else repr(f)))
    if pipeline != "default":
        raise ValueError("pipeline must be 'default', got %r" % (pipeline,))
    if _interpret.requested(target):
        return _interpret.compile_interpreted(f, target)
    arch, fast, max_registers, races = _target_options(target)
    caching = _cache.enabled()
    memory_key = (arch, fast, max_registers, races, _cache.environment())
    if caching:
        hit = f.compiled.get(memory_key)
        if hit is not None:
            return hit
    trace, ir = trace_module(f, arch)
    # keep-cubin: ptxas -v runs on the PTX when a toolkit is found, for
    # .registers and .spill_bytes (docs/registers.md), and its cubin is what
    # the launcher loads (no JIT at the first launch).
    # strict-races: a kernel beyond the race proof's model is an error, not
    # a ProofWarning; race-proof=0 skips the proof (docs/races.md).
    options = "chip=%s%s keep-cubin=1%s%s" % (
        arch, " fast-math=1" if fast else "",
        " max-registers=%d" % max_registers if max_registers else "", races)
    disk_key = _cache.key(ir, options) if caching else None
    entry = _cache.load(disk_key) if caching else None
    source = "disk"
    if entry is None:
        entry = _compile_ir(f, trace, ir, options)
        source = "compiled"
        if caching:
            _cache.store(disk_key, entry)
    if entry["stages"] is None:
        # The IR of each stage is printed only when .mlir is asked for (or
        # with TIRX_KEEP_STAGES=1): compiling the IR again makes it.
        entry["stages"] = lambda: _compile_ir(f, trace, ir, options, keep_stages=True)["stages"]
    # Warnings of a successful compile at their lines: ptxas's spills (at the
    # kernel's), and what the verifier could not prove (at the construct's).
    for file, line, message in entry["warnings"]:
        category = SpillWarning if message.startswith("ptxas spills") else ProofWarning
        warnings.warn_explicit(message, category, file or "<unknown>", line)
    compiled = Compiled(f, trace, entry["ptx"], ir, entry["stages"], entry["times"], arch,
                        entry["report"], source, disk_key, entry.get("shared_bytes", 0),
                        entry.get("tensor_maps", []), entry.get("cubin"))
    if not caching:
        return compiled
    # Threads compiling the same kernel at once all get the first one stored.
    with _cache.lock:
        return f.compiled.setdefault(memory_key, compiled)


def _keep_stages():
    """TIRX_KEEP_STAGES=1: every compile keeps the IR of each stage, as if
    .mlir were read (docs/python.md)."""
    return os.environ.get("TIRX_KEEP_STAGES", "0") not in ("", "0")


def trace_module(f, arch):
    """(trace, IR text): the kernel `f` traced into a module for chip `arch`,
    with the scalar functions it calls."""
    module = Module(f.name)
    trace = f.trace_kernel(module)
    body = [t for t in module.scalar_functions.values() if t] + [trace.text]
    return trace, 'module attributes {tirx.chip = "%s"} {\n%s\n}\n' % (arch, "\n".join(body))


def result_diagnostics(result):
    """The diagnostics of a C API result as it reports them, each (severity,
    file, line, column, message) in the IR it was given."""
    diagnostics = []
    for i in range(_capi.lib.tirxCompileResultGetNumDiagnostics(result)):
        severity, line, column = ctypes.c_int(), ctypes.c_uint(), ctypes.c_uint()
        file, message = ctypes.c_char_p(), ctypes.c_char_p()
        _capi.lib.tirxCompileResultGetDiagnostic(
            result, i, ctypes.byref(severity), ctypes.byref(file), ctypes.byref(line),
            ctypes.byref(column), ctypes.byref(message))
        diagnostics.append((severity.value, file.value.decode(), line.value, column.value,
                            message.value.decode()))
    return diagnostics


def read_diagnostics(result, ir, trace):
    """The diagnostics of a C API result, each (severity, file, line, column,
    message) at the user's location."""
    header_line = ir.splitlines().index(trace.text.splitlines()[0]) + 1
    return [_user_location(ir, diagnostic, header_line, trace.spans)
            for diagnostic in result_diagnostics(result)]


def format_diagnostics(diagnostics):
    """`file:line: severity: message` lines."""
    kinds = {0: "error", 1: "warning", 2: "note", 3: "remark"}
    return "\n".join("%s:%d: %s: %s" % (file or "<unknown>", line, kinds[sev], message)
                     for sev, file, line, column, message in diagnostics)


def _compile_ir(f, trace, ir, options, keep_stages=None):
    """Compiles the IR through the C API: what a cache entry holds (the IR of
    each stage only with `keep_stages`, else None)."""
    if keep_stages is None:
        keep_stages = _keep_stages()
    data = ir.encode()
    result = _capi.lib.tirxCompile(data, len(data), _IR_BUFFER.encode(),
                                   options.encode(), 1 if keep_stages else 0)
    try:
        diagnostics = read_diagnostics(result, ir, trace)
        stages = {}
        times = {}
        for i in range(_capi.lib.tirxCompileResultGetNumStages(result)):
            name = _capi.lib.tirxCompileResultGetStageName(result, i).decode()
            stages[name] = _capi.lib.tirxCompileResultGetStageIR(result, i).decode()
            times[name] = times.get(name, 0.0) + \
                _capi.lib.tirxCompileResultGetStageSeconds(result, i)
        if not _capi.lib.tirxCompileResultSucceeded(result):
            # check-diagnostics: internal, every failure of tirxCompile has a diagnostic
            raise CompileError(format_diagnostics(diagnostics) or "compilation failed",
                               diagnostics)
        size = ctypes.c_size_t()
        output = _capi.lib.tirxCompileResultGetOutput(result, ctypes.byref(size))
        ptx = ctypes.string_at(output, size.value).decode()
        # The cubin of the report's ptxas run (none without ptxas).
        output = _capi.lib.tirxCompileResultGetCubin(result, ctypes.byref(size))
        cubin = ctypes.string_at(output, size.value) if size.value else None
        shared_bytes = 0
        tensor_maps = []
        for i in range(_capi.lib.tirxCompileResultGetNumKernels(result)):
            name, value = ctypes.c_char_p(), ctypes.c_int64()
            _capi.lib.tirxCompileResultGetKernel(result, i, ctypes.byref(name), None, None)
            if name.value.decode() != f.name:
                continue
            _capi.lib.tirxCompileResultGetKernelSharedBytes(result, i, ctypes.byref(value))
            shared_bytes = value.value
            count = ctypes.c_size_t()
            _capi.lib.tirxCompileResultGetKernelNumTensorMaps(result, i, ctypes.byref(count))
            for m in range(count.value):
                param, rank = ctypes.c_size_t(), ctypes.c_size_t()
                box, swizzle = (ctypes.c_int64 * 5)(), ctypes.c_int64()
                _capi.lib.tirxCompileResultGetKernelTensorMap(
                    result, i, m, ctypes.byref(param), ctypes.byref(rank), box,
                    ctypes.byref(swizzle))
                element = _capi.lib.tirxCompileResultGetKernelTensorMapType(result, i, m)
                tensor_maps.append([param.value, list(box[:rank.value]), swizzle.value,
                                    element.decode()])
        reports = {}
        for i in range(_capi.lib.tirxCompileResultGetNumKernelReports(result)):
            name = ctypes.c_char_p()
            fields = [ctypes.c_int64() for _ in range(4)]
            _capi.lib.tirxCompileResultGetKernelReport(
                result, i, ctypes.byref(name), *[ctypes.byref(x) for x in fields])
            reports[name.value.decode()] = dict(zip(
                ("registers", "spill_stores", "spill_loads", "stack_frame"),
                (x.value for x in fields)))
    finally:
        _capi.lib.tirxCompileResultDestroy(result)
    return {"ptx": ptx, "cubin": cubin, "stages": stages if keep_stages else None,
            "times": times, "report": reports.get(f.name),
            "shared_bytes": shared_bytes, "tensor_maps": tensor_maps,
            "warnings": [[file, line, message] for severity, file, line, column, message
                         in diagnostics if severity == 1]}


class SpillWarning(UserWarning):
    """ptxas spilled registers of a kernel to local memory."""


class ProofWarning(UserWarning):
    """The verifier could not prove a property of a kernel (a barrier that
    every thread reaches, docs/barriers.md); the message names the construct
    beyond what it models."""


class Compiled:
    """A compiled kernel: .ptx, .cubin (what ptxas made of it, None without
    ptxas), .mlir (the IR of each stage, made when first read), .stage_times,
    .registers and .spill_bytes (ptxas's report, None without ptxas),
    .cache ("compiled" or "disk": where it came from) and .cache_key, and
    callable on objects with __cuda_array_interface__ (PyTorch, CuPy)."""

    def __init__(self, function, trace, ptx, ir, stages, times, arch, report=None,
                 cache="compiled", cache_key=None, shared_bytes=0, tensor_maps=(),
                 cubin=None):
        self.function = function
        # The TMA tensor maps each launch encodes and passes after the
        # parameters: (parameter index, box, swizzle bytes) (docs/hopper.md),
        # and the element type each declares ("": bits, a copy's; the
        # tensor's type for a TMA reduction's). Entries of caches before the
        # types have three fields.
        self.tensor_maps = [(entry[0], tuple(entry[1]), entry[2]) for entry in tensor_maps]
        self.tensor_map_types = [entry[3] if len(entry) > 3 else "" for entry in tensor_maps]
        # Dynamic shared memory each launch passes: the kernel's shared
        # tensors past CUDA's 48 KiB static limit (0: static).
        self.shared_bytes = shared_bytes
        self.cache = cache
        self.cache_key = cache_key
        self.name = function.name
        self.ptx = ptx
        # The launcher loads the cubin; the PTX only without one (the
        # driver's JIT, with a warning) or where the cubin does not load.
        self.cubin = cubin
        self.source_ir = ir
        self._stages = stages  # a dict, or a function making it
        self.stage_times = times
        self.arch = arch
        # ptxas -v's report (docs/registers.md); None without ptxas.
        self.ptxas_report = report
        self.registers = report["registers"] if report else None
        self.spill_bytes = report["spill_stores"] if report else None
        self.params = trace.params
        self.launch = trace.launch
        # Runtime sizes (docs/sizes.md): int64 parameters after `params`.
        self.size_vars = list(getattr(trace, "size_vars", ()))
        self._launcher = None

    @property
    def mlir(self):
        """The IR after each stage, "input" first."""
        if callable(self._stages):
            self._stages = self._stages()
        return self._stages

    def __call__(self, *args):
        """Checks the arguments and launches (tirx/runtime/)."""
        launch = self._launch
        if launch is None:
            launch = self._make_launcher()
        launch(args)

    _launch = None  # the launcher's function, made by the first call

    def as_torch_op(self, name=None, mutates_args=None):
        """This kernel as a PyTorch custom operator (torch.library), for
        torch.compile(fullgraph=True) and CUDA graphs: `mutates_args` names
        the tensor parameters it writes (default: all). docs/python.md."""
        from . import _torch
        return _torch.as_torch_op(self, name, mutates_args)

    def _make_launcher(self):
        from . import runtime
        with _cache.lock:
            if self._launcher is None:
                if not self.cubin:
                    warnings.warn("tirx: kernel '%s': ptxas was not found when it was compiled, "
                                  "so it has no cubin and the driver JIT-compiles its PTX at "
                                  "the first launch (set TIRX_CUDA_PATH to a CUDA toolkit)"
                                  % self.name, RuntimeWarning, stacklevel=3)
                self._launcher = runtime.Launcher(
                    self.name, self.ptx, self.params, self.launch.grid, self.launch.block,
                    getattr(self, "size_vars", None) or (), self.shared_bytes,
                    [m + (t,) for m, t in zip(self.tensor_maps, self.tensor_map_types)],
                    self.launch.cluster, cubin=self.cubin,
                    arch=self.arch)
                self._launch = self._launcher.launch
        return self._launcher.launch
