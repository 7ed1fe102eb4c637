# Sphinx configuration of the TirX documentation site (`make docs`).
# The pages are Markdown (MyST); the dialect and pass reference is generated
# from ODS at build time and staged under reference/ by scripts/build-docs.sh.
project = "TirX"
author = "The TirX developers"
copyright = "2026, The TirX developers"

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["CMakeLists.txt", "_build"]

# Links to headings (`file.md#a-heading`) resolve like on GitHub.
myst_heading_anchors = 4
# Unresolvable cross-references are errors (sphinx-build -W -n).
nitpicky = True

html_theme = "alabaster"
html_title = "TirX"
html_show_sourcelink = False

# No Pygments lexer for MLIR: show it as plain text rather than warn.
from pygments.lexers.special import TextLexer
from sphinx.highlighting import lexers

lexers["mlir"] = TextLexer()
