"""TMA tensor maps a launch passes after the kernel's parameters."""
import ctypes
import math

from ._library import _runtime

class _TensorMap:
    """One TMA tensor map a launch passes after the parameters (a 128-byte
    CUtensorMap, 64-byte aligned, encoded by libTirXRuntime from the
    tensor argument `param`, the kernel's box and swizzle). `address` is
    the args entry: a pointer to the map's bytes. update() re-encodes only
    when the tensor's address or shape changed."""

    def __init__(self, name, param, itemsize, box, swizzle, element=""):
        self.name, self.param, self.box, self.swizzle = name, param, tuple(box), swizzle
        self.itemsize = itemsize
        # The element type the map declares ("": bits; a TMA reduction's
        # operation type otherwise).
        self.element = element
        self._buffer = (ctypes.c_ubyte * 192)()
        base = ctypes.addressof(self._buffer)
        self.address = base + (-base) % 64
        self._box = (ctypes.c_uint * len(box))(*box)
        self._key = None

    def strides(self, shape):
        """The dense row-major strides in bytes of a tensor of `shape` (its
        real extents, runtime ones included), outermost first, without the
        innermost (an element)."""
        strides, step = [], self.itemsize
        for extent in reversed(shape[1:]):
            step *= extent
            strides.append(step)
        return strides[::-1]

    def update(self, pointer, shape):
        key = (pointer, tuple(shape))
        if key == self._key:
            return
        rank = len(shape)
        strides = self.strides(shape)
        # A copy's coordinates are 32-bit (PTX .s32): a box anywhere in an
        # extent past 2^31 would wrap (docs/sizes.md).
        for dim, extent in enumerate(shape):
            if extent > 2 ** 31:
                self._key = None
                raise ValueError(
                    "parameter '%s': its TMA tensor map (box %s) addresses boxes by 32-bit "
                    "coordinates, but dimension %d has %d elements (more than 2^31)"
                    % (self.name, "x".join(map(str, self.box)), dim, extent))
        # A runtime extent makes a stride that the verifier could not check:
        # TMA needs multiples of 16 bytes (docs/hopper.md).
        for dim, stride in enumerate(strides):
            if stride % 16:
                self._key = None
                raise ValueError(
                    "parameter '%s': its TMA tensor map (box %s) needs the stride of dimension %d "
                    "to be a multiple of 16 bytes, got %d bytes * %s = %d bytes (the extents "
                    "inside it must multiply to a multiple of %d)"
                    % (self.name, "x".join(map(str, self.box)), dim, self.itemsize,
                       " * ".join(map(str, shape[dim + 1:])), stride,
                       16 // math.gcd(16, self.itemsize)))
        status = _runtime().tirxTensorMapEncodeTyped(
            self.address, pointer, self.itemsize, self.element.encode(), rank,
            (ctypes.c_ulonglong * rank)(*shape),
            (ctypes.c_ulonglong * max(rank - 1, 1))(*strides),
            self._box, self.swizzle)
        if status:
            self._key = None
            # check-diagnostics: internal, the verifier, the argument checks and the stride check above
            # cover the limits but for a runtime extent past 2^32 (the encoder names it)
            raise ValueError("parameter '%s': its TMA tensor map (box %s) cannot be encoded: %s"
                             % (self.name, "x".join(map(str, self.box)),
                                _runtime().tirxGetLastErrorMessage().decode()))
        self._key = key

    def copy(self):
        return _TensorMap(self.name, self.param, self.itemsize, self.box, self.swizzle,
                          self.element)
