// tirx.print's format and values (docs/python.md, "Printing").
// RUN: tirx-opt %s --split-input-file --verify-diagnostics

tirx.kernel @count(%x: i32) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.print' op the format has 2 conversion(s) but 1 value(s) are given}}
  tirx.print "%d %d\n" (%x) : i32
  tirx.return
}

// -----

tirx.kernel @kind(%x: i32) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.print' op value #0 is 'i32' but its conversion '%f' takes a float}}
  tirx.print "%f\n" (%x) : i32
  tirx.return
}

// -----

tirx.kernel @float_as_int(%x: f32) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.print' op value #0 is 'f32' but its conversion '%5d' takes an integer}}
  tirx.print "%5d\n" (%x) : f32
  tirx.return
}

// -----

tirx.kernel @string() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.print' op the conversion '%s' is not supported: tirx.print prints integers (d i u x X o c) and floats (f e g a)}}
  tirx.print "%s\n"
  tirx.return
}

// -----

tirx.kernel @unfinished(%x: i64) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.print' op the format ends inside the conversion '%l'}}
  tirx.print "value %l" (%x) : i64
  tirx.return
}
