def check(width):
    if width < 1:
        raise ValueError("width must be at least one bit, got %d" % width)
    raise TypeError(f"parameter '{width}' has no annotation")
