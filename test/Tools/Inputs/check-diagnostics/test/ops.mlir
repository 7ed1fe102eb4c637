// expected-error @+1 {{'foo.op' op width must be positive, got 0}}
// CHECK: parameter 'w' has no annotation
// CHECK-NOT: width must be at least one bit
