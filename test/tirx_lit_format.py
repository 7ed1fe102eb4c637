"""The lit test format of TirX's suites (test/lit.cfg.py), in a module of
its own so that lit's worker processes can unpickle it."""
import re

import lit.formats
import lit.Test


class TirXShTest(lit.formats.ShTest):
    """lit's ShTest, except that a test whose `%if ptxas` (or `%if nvcc`)
    lines did not run for want of the tool is reported UNSUPPORTED when it
    passes (it still fails when its other checks fail): never a pass that
    assembled nothing. `missing_tools` are the CUDA tools lit.cfg.py did not
    find."""

    def __init__(self, execute_external, missing_tools):
        super().__init__(execute_external)
        self.missing_tools = list(missing_tools)

    def execute(self, test, lit_config):
        result = super().execute(test, lit_config)
        if result.code != lit.Test.PASS or not self.missing_tools:
            return result
        with open(test.getSourcePath(), errors="replace") as source:
            runs = "\n".join(line for line in source if "RUN:" in line)
        unused = [tool for tool in self.missing_tools
                  if re.search(r"%%if\s+%s\b" % re.escape(tool), runs)]
        if not unused:
            return result
        return lit.Test.Result(
            lit.Test.UNSUPPORTED,
            "Test's %s lines did not run: %s not found\n%s"
            % (", ".join("`%%if %s`" % tool for tool in unused),
               ", ".join(unused), result.output))
