//===- Swizzle.cpp - XOR swizzle of a layout's memory axis ----------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/Swizzle.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir::tirx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<Swizzle> Swizzle::get(int64_t perElement, int64_t swizzleLen,
                                     int64_t atomLen, bool swizzleInner) {
  auto checkCount = [](int64_t value, const char *name) -> llvm::Error {
    if (value < 0)
      return makeError(llvm::Twine("swizzle ") + name + " is " +
                       llvm::Twine(value) + "; it must be non-negative");
    return llvm::Error::success();
  };
  if (llvm::Error err = checkCount(perElement, "per_element"))
    return std::move(err);
  if (llvm::Error err = checkCount(swizzleLen, "swizzle_len"))
    return std::move(err);
  if (llvm::Error err = checkCount(atomLen, "atom_len"))
    return std::move(err);
  if (atomLen < swizzleLen)
    return makeError("swizzle atom_len " + llvm::Twine(atomLen) +
                     " is less than swizzle_len " + llvm::Twine(swizzleLen) +
                     "; the two XOR groups would overlap");
  // Each count is at most kMaxBits here, so the sum cannot overflow.
  if (perElement > kMaxBits || atomLen > kMaxBits ||
      perElement + atomLen + swizzleLen > kMaxBits)
    return makeError("swizzle per_element + atom_len + swizzle_len must be at "
                     "most " +
                     llvm::Twine(kMaxBits) +
                     " (the period 2^(p+a+s) must fit "
                     "in int64), got " +
                     llvm::Twine(perElement) + " + " + llvm::Twine(atomLen) +
                     " + " + llvm::Twine(swizzleLen));
  return Swizzle(perElement, swizzleLen, atomLen, swizzleInner);
}

llvm::Expected<Swizzle> Swizzle::getHardware(int64_t modeBytes,
                                             int64_t elementBytes) {
  if (elementBytes <= 0 || elementBytes > 16 ||
      !llvm::isPowerOf2_64(elementBytes))
    return makeError("element size " + llvm::Twine(elementBytes) +
                     " bytes has no hardware swizzle; expected 1, 2, 4, 8 or "
                     "16 bytes");
  int64_t perElement = llvm::Log2_64(16 / elementBytes);
  switch (modeBytes) {
  case 0:
    return get(perElement, 0, 3);
  case 32:
    return get(perElement, 1, 3);
  case 64:
    return get(perElement, 2, 3);
  case 128:
    return get(perElement, 3, 3);
  default:
    return makeError("swizzle mode " + llvm::Twine(modeBytes) +
                     " bytes is not a hardware mode; expected 0, 32, 64 or "
                     "128");
  }
}

int64_t Swizzle::getInnerMask() const {
  return ((int64_t(1) << swizzleLen) - 1) << perElement;
}

int64_t Swizzle::getOuterMask() const { return getInnerMask() << atomLen; }

int64_t Swizzle::apply(int64_t offset) const {
  assert(offset >= 0 && "swizzled offsets are non-negative");
  if (swizzleInner)
    return offset ^ ((offset >> atomLen) & getInnerMask());
  return offset ^ ((offset & getInnerMask()) << atomLen);
}

std::optional<int64_t>
Swizzle::getHardwareModeBytes(int64_t elementBytes) const {
  if (isIdentity())
    return 0;
  if (elementBytes <= 0 || elementBytes > 16 ||
      !llvm::isPowerOf2_64(elementBytes) || !swizzleInner || atomLen != 3 ||
      swizzleLen > 3 || perElement != int64_t(llvm::Log2_64(16 / elementBytes)))
    return std::nullopt;
  return int64_t(16) << swizzleLen;
}

bool Swizzle::keepsRunContiguous(int64_t count, int64_t startMultiple) const {
  assert(count > 0 && startMultiple > 0 && "run and start must be positive");
  if (isIdentity())
    return true;
  // Starts are multiples of gcd(k, 2^p) inside a block; the last one leaves
  // exactly that many offsets before the block ends.
  int64_t block = int64_t(1) << perElement;
  int64_t startGranule = std::min(startMultiple & -startMultiple, block);
  return count <= startGranule;
}

std::optional<int64_t> Swizzle::getSpanBound(int64_t affineSpan) const {
  if (isIdentity())
    return affineSpan;
  // Offsets below the group the swizzle reads are left unchanged.
  int64_t readBit = perElement + (swizzleInner ? atomLen : 0);
  if (affineSpan <= (int64_t(1) << readBit))
    return affineSpan;
  int64_t topBit =
      perElement + swizzleLen + (swizzleInner ? 0 : atomLen); // <= kMaxBits
  int64_t unit = int64_t(1) << topBit;
  int64_t rounded;
  if (llvm::AddOverflow(affineSpan, unit - 1, rounded))
    return std::nullopt;
  return rounded / unit * unit;
}

llvm::Expected<Swizzle> Swizzle::scaleElements(int64_t factor,
                                               bool narrower) const {
  if (factor <= 0 || !llvm::isPowerOf2_64(factor))
    return makeError("cannot " + llvm::Twine(narrower ? "unpack" : "pack") +
                     " a swizzled layout by " + llvm::Twine(factor) +
                     ": the swizzle acts on bits, so the factor must be a "
                     "power of two");
  int64_t shift = llvm::Log2_64(factor);
  if (!narrower && shift > perElement)
    return makeError("cannot pack a swizzled layout by " + llvm::Twine(factor) +
                     ": a wide element would straddle the swizzle's " +
                     llvm::Twine(int64_t(1) << perElement) +
                     "-element blocks (per_element " + llvm::Twine(perElement) +
                     ")");
  return get(narrower ? perElement + shift : perElement - shift, swizzleLen,
             atomLen, swizzleInner);
}

void Swizzle::print(llvm::raw_ostream &os) const {
  os << "Swizzle[" << perElement << ", " << swizzleLen << ", " << atomLen;
  if (!swizzleInner)
    os << ", outer";
  os << ']';
}

llvm::hash_code mlir::tirx::hash_value(const Swizzle &swizzle) {
  return llvm::hash_combine(swizzle.getPerElement(), swizzle.getSwizzleLen(),
                            swizzle.getAtomLen(), swizzle.isSwizzleInner());
}
