// RUN: mkdir -p %t && touch %t/file
// RUN: tirx-opt %s --tirx-extract-ptx=output=%t/file/out.ptx -verify-diagnostics

// An output path that cannot be opened is a located error.
// expected-error @below {{tirx-extract-ptx: cannot open output file}}
module {
}
