"""tirx.compile: trace, compile through the C API, launch through the
runtime library."""
import ctypes
import os
import re

from . import _capi
from ._dsl import CompileError, DSLError
from ._function import Function, Module


def _target_options(target):
    if isinstance(target, dict):
        if target.get("kind", "cuda") != "cuda":
            raise ValueError("only the 'cuda' target is supported, got %r" % target.get("kind"))
        arch = target.get("arch")
        flags = (target.get("backend_config", {}).get("cuda", {}).get("nvrtc", []))
        fast = "--use_fast_math" in flags or target.get("fast_math", False)
    elif target in (None, "cuda"):
        arch, fast = None, False
    else:
        raise ValueError("target must be 'cuda' or {'kind': 'cuda', 'arch': 'sm_90'}, got %r"
                         % (target,))
    if arch is None:
        from . import runtime
        arch = "sm_%d" % runtime.compute_capability()
    return arch, fast


# Diagnostics the parser reports inside the generated IR text (type errors
# are found while parsing) are mapped back to the loc() of that line.
_IR_BUFFER = "<tirx-generated-ir>"
_LOC = re.compile(r'loc\("([^"]*)":(\d+):(\d+)\)\s*$')


def _user_location(ir, diagnostic):
    severity, file, line, column, message = diagnostic
    if file == _IR_BUFFER:
        lines = ir.splitlines()
        match = _LOC.search(lines[line - 1]) if 0 < line <= len(lines) else None
        if match:
            return (severity, match.group(1), int(match.group(2)),
                    int(match.group(3)), message)
    return diagnostic


def compile(f, target=None, pipeline="default"):
    """Compiles a @T.function kernel; the result is callable on tensors."""
    if not isinstance(f, Function) or f.private:
        raise TypeError("tirx.compile needs a @T.function kernel")
    arch, fast = _target_options(target)
    module = Module()
    kernel_text = f.trace_kernel(module)
    body = [t for t in module.scalar_functions.values() if t] + [kernel_text]
    ir = 'module attributes {tirx.chip = "%s"} {\n%s\n}\n' % (arch, "\n".join(body))
    options = "chip=%s%s" % (arch, " fast-math=1" if fast else "")
    data = ir.encode()
    result = _capi.lib.tirxCompile(data, len(data), _IR_BUFFER.encode(),
                                   options.encode(), 1)
    try:
        diagnostics = []
        for i in range(_capi.lib.tirxCompileResultGetNumDiagnostics(result)):
            severity, line, column = ctypes.c_int(), ctypes.c_uint(), ctypes.c_uint()
            file, message = ctypes.c_char_p(), ctypes.c_char_p()
            _capi.lib.tirxCompileResultGetDiagnostic(
                result, i, ctypes.byref(severity), ctypes.byref(file), ctypes.byref(line),
                ctypes.byref(column), ctypes.byref(message))
            diagnostics.append(_user_location(
                ir, (severity.value, file.value.decode(), line.value, column.value,
                     message.value.decode())))
        stages = {}
        times = {}
        for i in range(_capi.lib.tirxCompileResultGetNumStages(result)):
            name = _capi.lib.tirxCompileResultGetStageName(result, i).decode()
            stages[name] = _capi.lib.tirxCompileResultGetStageIR(result, i).decode()
            times[name] = times.get(name, 0.0) + \
                _capi.lib.tirxCompileResultGetStageSeconds(result, i)
        if not _capi.lib.tirxCompileResultSucceeded(result):
            kinds = {0: "error", 1: "warning", 2: "note", 3: "remark"}
            lines = ["%s:%d: %s: %s" % (file or "<unknown>", line, kinds[sev], message)
                     for sev, file, line, column, message in diagnostics]
            raise CompileError("\n".join(lines) or "compilation failed", diagnostics)
        size = ctypes.c_size_t()
        output = _capi.lib.tirxCompileResultGetOutput(result, ctypes.byref(size))
        ptx = ctypes.string_at(output, size.value).decode()
    finally:
        _capi.lib.tirxCompileResultDestroy(result)
    return Compiled(f, ptx, ir, stages, times, arch)


class Compiled:
    """A compiled kernel: .ptx, .mlir (the IR of each stage), .stage_times,
    and callable on objects with __cuda_array_interface__ (PyTorch, CuPy)."""

    def __init__(self, function, ptx, ir, stages, times, arch):
        self.function = function
        self.name = function.name
        self.ptx = ptx
        self.source_ir = ir
        self.mlir = stages
        self.stage_times = times
        self.arch = arch
        self.params = function.params
        self.launch = function.launch
        self._kernel = None

    def __call__(self, *args):
        from . import runtime
        if len(args) != len(self.params):
            raise TypeError("%s() takes %d argument(s) (%s), got %d" % (
                self.name, len(self.params), ", ".join(n for n, _ in self.params), len(args)))
        values = [runtime.check_argument(name, kind, arg)
                  for (name, kind), arg in zip(self.params, args)]
        if self._kernel is None:
            self._kernel = runtime.load(self.ptx, self.name)
        runtime.launch(self._kernel, self.launch.grid, self.launch.block, values,
                       runtime.current_stream(args))
