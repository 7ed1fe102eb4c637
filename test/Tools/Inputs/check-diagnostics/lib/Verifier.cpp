// A source tree for the checker's own test (test/Tools/check-diagnostics.test).
LogicalResult FooOp::verify() {
  if (getWidth() < 1)
    return emitOpError("width must be positive, got ") << getWidth();
  if (getWidth() > 64)
    return emitOpError("width ") << getWidth() << " exceeds the "
                                 << "maximum of 64 bits";
  // check-diagnostics: internal, the parser never builds it
  return emitOpError("unreachable by construction");
}
