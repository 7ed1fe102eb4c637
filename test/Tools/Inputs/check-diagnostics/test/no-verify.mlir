// RUN: tirx-opt %s | FileCheck %s
// Without -verify-diagnostics an expected-error is not checked:
// expected-error @+1 {{'bar.op' op height must be even}}
// CHECK: bar.op
