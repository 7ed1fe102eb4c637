// expected-error @+1 {{'foo.op' op width must be positive, got 0}}
// CHECK: parameter 'w' has no annotation
// CHECK-NOT: width must be at least one bit
// A test of part of a message does not count:
// CHECK: exceeds the maximum of 64 bits
