// RUN: tirx-opt %s -verify-diagnostics
// RUN: tirx-opt %s --pass 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: tirx-opt %s --other-pass | FileCheck %s

// expected-error @+1 {{'foo.op' op width must be positive, got 0}}
// CHECK-NOT: width must be at least one bit
// A test of part of a message does not count:
// CHECK: exceeds the maximum of 64 bits
// An expectation of another kind does not count: a Python raise is not
// tested by a CHECK line, a diagnostic not by a CHECK of stdout, an error
// not by an expected-warning.
// CHECK: width three is reserved
// CHECK: 'bar.op' op depth must be odd
// expected-warning @+1 {{'bar.op' op bar is never valid}}
// A CHECK of stderr tests a diagnostic:
// ERR: 'bar.op' op depth exceeds nine
// A FileCheck prefix that no RUN line checks expects nothing:
// UNUSED: 'bar.op' op wide tiles are slow
// CHECK: tirxKernelLaunch: kernel is null
// An expectation that is only quoted names (and regex blocks) states no
// reason: an error of its own. A short one that says something is fine.
// expected-error @+1 {{'foo.op' op}}
// expected-error @+1 {{'foo.op' op {{.*}}}}
// expected-note @+1 {{'foo.op' op the width}}
