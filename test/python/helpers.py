"""Helpers shared by the pytest files (not a test module)."""
import os


def line_of(path, marker):
    """'<file name>:N: ' for the line of the file `path` holding `marker`
    (a comment such as `# MARK-if`): the prefix of a located CompileError."""
    for number, text in enumerate(open(path), 1):
        if marker in text and "line_of(" not in text:
            return "%s:%d: " % (os.path.basename(path), number)
    raise AssertionError(marker)
