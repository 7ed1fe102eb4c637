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


def interpret_ir(module, kernel, arrays, file_name="input.mlir"):
    """Runs `kernel` of IR text `module` on the interpreter (the C API's
    tirxInterpret) over contiguous numpy arrays, one per kernel parameter,
    written in place; raises AssertionError with its diagnostics."""
    import ctypes

    from tirx import _capi

    arguments = (_capi.InterpretArgument * len(arrays))()
    for argument, array in zip(arguments, arrays):
        argument.data = array.ctypes.data
        argument.bytes = array.nbytes
    data = module.encode()
    result = _capi.lib.tirxInterpret(data, len(data), file_name.encode(), kernel.encode(),
                                     arguments, len(arrays), b"")
    try:
        if _capi.lib.tirxCompileResultSucceeded(result):
            return
        messages = []
        for i in range(_capi.lib.tirxCompileResultGetNumDiagnostics(result)):
            severity, line, column = ctypes.c_int(), ctypes.c_uint(), ctypes.c_uint()
            file, message = ctypes.c_char_p(), ctypes.c_char_p()
            _capi.lib.tirxCompileResultGetDiagnostic(
                result, i, ctypes.byref(severity), ctypes.byref(file), ctypes.byref(line),
                ctypes.byref(column), ctypes.byref(message))
            messages.append("%d:%d: %s" % (line.value, column.value, message.value.decode()))
        raise AssertionError("%s did not run on the interpreter:\n%s"
                             % (kernel, "\n".join(messages)))
    finally:
        _capi.lib.tirxCompileResultDestroy(result)
