#!/usr/bin/env bash
# Builds the documentation site: docs/*.md plus the reference generated from
# ODS (ninja tirx-doc) into BUILD/docs-site/html, with Sphinx + MyST from
# Debian. Warnings — broken links between pages or to headings included —
# fail the build.   Usage: scripts/build-docs.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?build directory}" && pwd)
staging=$build/docs-site/src
rm -rf "$build/docs-site"
mkdir -p "$staging/reference"
cp "$root"/docs/*.md "$root/docs/conf.py" "$staging/"
cp -r "$build"/docs/. "$staging/reference/"
# mlir-tblgen's pass lists start at ###: give them a title and a level between.
for passes in TirXTransformPasses:"TirX transform passes" TirXConversionPasses:"TirX conversion passes"; do
  file=$staging/reference/${passes%%:*}.md
  { printf '# %s\n\n## Passes\n\n' "${passes#*:}"; cat "$file"; } > "$file.new"
  mv "$file.new" "$file"
done
/usr/bin/python3 -m sphinx -W --keep-going -n -q -b html "$staging" "$build/docs-site/html"
echo "docs: $build/docs-site/html/index.html"
