def check(width):
    if width < 1:
        raise ValueError("width must be at least one bit, got %d" % width)
    if width > 8:
        raise ValueError("width %d is not a byte multiple" % width)
    if width == 3:
        raise ValueError("width three is reserved")
    raise TypeError(f"parameter '{width}' has no annotation")


def shape(depth, gap):
    if depth & (depth - 1):
        raise ValueError("depth must be a power of two")
    if gap < 1:
        raise ValueError("gap must be positive")
