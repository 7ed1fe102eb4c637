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
