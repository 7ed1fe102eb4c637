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

LogicalResult BarOp::verify() {
  if (getHeight() % 2)
    return emitOpError("height must be even");
  if (getDepth() % 2 == 0)
    return emitOpError("depth must be odd");
  if (getDepth() > 9)
    return emitOpError("depth exceeds nine");
  if (getWide())
    return emitWarning("wide tiles are slow");
  return emitOpError("bar is never valid");
}
