"""Helpers shared by the pytest files (not a test module)."""
import os


def line_of(path, marker):
    """'<file name>:N: ' for the line of the file `path` holding `marker`
    (a comment such as `# MARK-if`): the prefix of a located CompileError."""
    for number, text in enumerate(open(path), 1):
        if marker in text and "line_of(" not in text:
            return "%s:%d: " % (os.path.basename(path), number)
    raise AssertionError(marker)


def ptxas_report(compiled):
    """`compiled`'s ptxas report, for a test that checks it. It fails when
    ptxas is found (by the compile's own toolkit search: the C API's,
    docs/lowering.md) and the report is missing, and skips only when no
    ptxas is found."""
    import pytest
    from tirx import _capi
    ptxas = _capi.cuda_tool("ptxas")
    if not ptxas:
        pytest.skip("no ptxas: none in the CUDA toolkit's bin/ (TIRX_CUDA_PATH, "
                    "CUDA_HOME, CUDA_PATH, CUDA_ROOT, /usr/local/cuda) or on PATH")
    assert compiled.ptxas_report is not None, \
        "ptxas (%s) is found, but the compile has no ptxas report" % ptxas
    return compiled.ptxas_report


def interpret_ir(module, kernel, arrays, file_name="input.mlir", scalars=(), options=""):
    """Runs `kernel` of IR text `module` on the interpreter (the C API's
    tirxInterpret) over contiguous numpy arrays, one per kernel parameter,
    written in place; raises AssertionError with its diagnostics. scalars:
    the values of the scalar parameters that follow the tensors (their
    bits, low-aligned); options: tirxInterpret's (`races=0`, ...)."""
    from tirx import _capi

    arguments = (_capi.InterpretArgument * (len(arrays) + len(scalars)))()
    for argument, array in zip(arguments, arrays):
        argument.data = array.ctypes.data
        argument.bytes = array.nbytes
    for i, value in enumerate(scalars):
        arguments[len(arrays) + i].scalar = int(value) & 0xFFFFFFFFFFFFFFFF
    data = module.encode()
    result = _capi.lib.tirxInterpret(data, len(data), file_name.encode(), kernel.encode(),
                                     arguments, len(arguments), options.encode())
    try:
        if _capi.lib.tirxCompileResultSucceeded(result):
            return
        from tirx._compile import result_diagnostics
        messages = ["%d:%d: %s" % (line, column, message)
                    for _, _, line, column, message in result_diagnostics(result)]
        raise AssertionError("%s did not run on the interpreter:\n%s"
                             % (kernel, "\n".join(messages)))
    finally:
        _capi.lib.tirxCompileResultDestroy(result)


def split_kernels(text):
    """{kernel name: a module of that kernel alone} of generated IR text:
    the interpreter then parses one kernel a run. A `module attributes`
    module keeps its header (attribute aliases, the module's attributes);
    top-level kernels (each closed by a `}` of its own line) stand alone."""
    import re

    module = re.search(r"^module attributes.*$", text, flags=re.M)
    if module:
        header, body = text[:module.end()], text[module.end():]
        kernels = re.findall(r"^(  tirx\.kernel @(\w+)\(.*?^  \})$", body, flags=re.M | re.S)
        return {name: "%s\n%s\n}\n" % (header, kernel) for kernel, name in kernels}
    kernels = re.findall(r"^(tirx\.kernel @(\w+)\(.*?^\})$", text, flags=re.M | re.S)
    return {name: kernel + "\n" for kernel, name in kernels}


def load_gpu_script(path, name=None):
    """A script of test/gpu (`path` below it, e.g. "matrix/run.py") as a
    module: its kernels, cases and host models, for the interpreter's tests."""
    import importlib.util

    full = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gpu", path)
    name = name or path[:-3].replace(os.sep, "_").replace("/", "_")
    spec = importlib.util.spec_from_file_location(name, full)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

