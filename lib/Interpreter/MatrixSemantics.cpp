//===- MatrixSemantics.cpp - mma.sync, ldmatrix, stmatrix -----------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The warp's operands arrive as each lane's registers; the table's fragments
// (PTXTable.def, PTX_FRAGMENT) say which element of the matrix each lane's
// register holds, so the matrices are assembled from them and the results
// distributed back the same way: the interpreter reads the same fragment
// data the verifier proves layouts against.
//
// mma.sync and wgmma compute D as the sm_90 tensor core does, bit for bit
// (TensorCoreArithmetic.h: truncated block sums for f16, bf16 and tf32, one
// rounding for fp8); tf32 inputs keep only their top 19 bits, as the
// hardware reads them.
//
//===----------------------------------------------------------------------===//

#include "CollectiveSemantics.h"
#include "TensorCoreArithmetic.h"

#include "TirX/Dialect/Tile/IR/TileOperands.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::interp;
using llvm::APFloat;
using llvm::APInt;

static LogicalResult unsupported(WarpExecutor &executor, Operation *op,
                                 const ptx::Instruction &instruction) {
  // check-diagnostics: internal, every form of the PTX table is modelled
  emitRunError(op, executor.cta)
      << "the interpreter does not model '" << instruction.spelling << "' yet";
  return failure();
}

/// `value`'s low `bits` bits as a float of `semantics`.
static APFloat decode(const llvm::fltSemantics &semantics, uint64_t value) {
  unsigned bits = APFloat::getSizeInBits(semantics);
  return APFloat(semantics, APInt(bits, value & ((uint64_t(1) << bits) - 1)));
}

static uint64_t encode(const APFloat &value) {
  return value.bitcastToAPInt().getZExtValue();
}

namespace {
/// A fragment operand: for each atom element (row-major over the atom's
/// shape), the lane holding it and which of the lane's registers.
struct FragmentOperand {
  const tile::Fragment &fragment;
  unsigned position;
  MutableArrayRef<SmallVector<OperandAtom, 4>> laneAtoms;

  uint64_t &word(int64_t element) {
    return laneAtoms[fragment.lane[element] % kWarpSize][position]
        .elements[fragment.registerIndex[element]];
  }
};
} // namespace

static LogicalResult
executeMma(WarpExecutor &executor, Operation *op,
           const ptx::Instruction &instruction,
           MutableArrayRef<SmallVector<OperandAtom, 4>> laneAtoms) {
  if (instruction.getModifier(ptx::Slot::alayout) != "row" ||
      instruction.getModifier(ptx::Slot::blayout) != "col")
    return unsupported(executor, op, instruction);
  StringRef shape = instruction.getModifier(ptx::Slot::shape);
  int64_t m = 0, n = 0, k = 0;
  if (sscanf(shape.str().c_str(), "m%ldn%ldk%ld", &m, &n, &k) != 3)
    return unsupported(executor, op, instruction);
  // A and B may differ (fp8: e4m3 x e5m2), in format but not in width.
  StringRef atype = instruction.getModifier(ptx::Slot::atype);
  std::optional<TensorCoreFormat> format =
      getTensorCoreFormat(atype, instruction.getModifier(ptx::Slot::btype),
                          instruction.getModifier(ptx::Slot::ctype));
  if (!format)
    return unsupported(executor, op, instruction);
  auto operand = [&](unsigned position) {
    return FragmentOperand{
        tile::getFragment(instruction.operands[position].fragment), position,
        laneAtoms};
  };
  FragmentOperand d = operand(0), a = operand(1), b = operand(2),
                  c = operand(3);
  unsigned inputBits = APFloat::getSizeInBits(*format->inputA);
  unsigned perWord = 32 / inputBits;
  // tf32: the hardware reads the top 19 bits of each word.
  uint64_t tf32Mask = atype == "tf32" ? ~uint64_t(0x1fff) : ~uint64_t(0);
  auto value = [&](FragmentOperand &from, const llvm::fltSemantics &semantics,
                   int64_t element, unsigned part) {
    return decode(semantics,
                  (from.word(element) & tf32Mask) >> (part * inputBits));
  };
  // A: m x (k / perWord) words, row-major (kept as rows); B: n x (k /
  // perWord) words (kept as columns).
  int64_t words = k / perWord;
  SmallVector<APFloat> rowsOfA, columnsOfB;
  for (int64_t row = 0; row < m; ++row)
    for (int64_t word = 0; word < words; ++word)
      for (unsigned part = 0; part < perWord; ++part)
        rowsOfA.push_back(value(a, *format->inputA, row * words + word, part));
  for (int64_t col = 0; col < n; ++col)
    for (int64_t word = 0; word < words; ++word)
      for (unsigned part = 0; part < perWord; ++part)
        columnsOfB.push_back(
            value(b, *format->inputB, col * words + word, part));
  // C and D: m x n elements, or m x n / 2 words of two halves.
  unsigned accumulatorBits = APFloat::getSizeInBits(*format->accumulator);
  unsigned perAccumulatorWord = 32 / accumulatorBits;
  uint64_t accumulatorMask = accumulatorBits == 32
                                 ? 0xffffffffu
                                 : (uint64_t(1) << accumulatorBits) - 1;
  for (int64_t row = 0; row < m; ++row)
    for (int64_t col = 0; col < n; ++col) {
      int64_t element = (row * n + col) / perAccumulatorWord;
      unsigned shift = (col % perAccumulatorWord) * accumulatorBits;
      APFloat sum =
          tensorCoreDot(*format, ArrayRef(rowsOfA).slice(row * k, k),
                        ArrayRef(columnsOfB).slice(col * k, k),
                        decode(*format->accumulator, c.word(element) >> shift));
      uint64_t &out = d.word(element);
      out = (out & ~(accumulatorMask << shift)) | (encode(sum) << shift);
    }
  return success();
}

/// ldmatrix / stmatrix of 8 x 8 matrices of b16: word (m, row, w) of the
/// registers is in lane 4 row + w, register m; of memory, it is read or
/// written by lane 8 m + row (its row address). `.trans` transposes each
/// matrix's 16-bit elements.
static LogicalResult
executeMatrixMove(WarpExecutor &executor, Operation *op,
                  const ptx::Instruction &instruction,
                  MutableArrayRef<SmallVector<OperandAtom, 4>> laneAtoms) {
  if (instruction.getModifier(ptx::Slot::shape) != "m8n8" ||
      instruction.getModifier(ptx::Slot::type) != "b16")
    return unsupported(executor, op, instruction);
  bool load = instruction.family == "ldmatrix";
  unsigned registersPosition = load ? 0 : 1, memoryPosition = load ? 1 : 0;
  FragmentOperand registers{
      tile::getFragment(instruction.operands[registersPosition].fragment),
      registersPosition, laneAtoms};
  const tile::Fragment &rows =
      tile::getFragment(instruction.operands[memoryPosition].fragment);
  auto memoryWord = [&](int64_t element) -> uint64_t & {
    return laneAtoms[rows.lane[element] % kWarpSize][memoryPosition]
        .elements[element];
  };
  bool transpose = instruction.hasModifier("trans");
  int64_t count = rows.lane.size() / 32;
  auto half = [](uint64_t word, unsigned index) {
    return (word >> (16 * index)) & 0xffff;
  };
  for (int64_t matrix = 0; matrix < count; ++matrix)
    for (int64_t row = 0; row < 8; ++row)
      for (int64_t word = 0; word < 4; ++word) {
        int64_t element = (matrix * 8 + row) * 4 + word;
        // The 16-bit elements (row, 2 word) and (row, 2 word + 1) of the
        // destination, from the source's (row, col) or, transposed, its
        // (col, row).
        auto source = [&](int64_t r, int64_t col) -> uint64_t {
          int64_t from = (matrix * 8 + r) * 4 + col / 2;
          return half(load ? memoryWord(from) : registers.word(from), col % 2);
        };
        uint64_t low =
            transpose ? source(2 * word, row) : source(row, 2 * word);
        uint64_t high =
            transpose ? source(2 * word + 1, row) : source(row, 2 * word + 1);
        (load ? registers.word(element) : memoryWord(element)) =
            low | (high << 16);
      }
  return success();
}

LogicalResult interp::executeWgmma(
    WarpExecutor &executor, Operation *op, const ptx::Instruction &instruction,
    MutableArrayRef<SmallVector<OperandAtom, 4>> laneAtoms, unsigned reader) {
  StringRef shape = instruction.getModifier(ptx::Slot::shape);
  int64_t m = 0, n = 0, k = 0;
  std::optional<TensorCoreFormat> format =
      getTensorCoreFormat(instruction.getModifier(ptx::Slot::atype),
                          instruction.getModifier(ptx::Slot::btype),
                          instruction.getModifier(ptx::Slot::dtype));
  if (sscanf(shape.str().c_str(), "m%ldn%ldk%ld", &m, &n, &k) != 3 || !format)
    return unsupported(executor, op, instruction);
  auto scalar = [&](StringRef name, int64_t otherwise) -> int64_t {
    int index = findOperand(instruction, name);
    if (index < 0)
      return otherwise;
    return static_cast<int64_t>(laneAtoms[reader][index].elements[0]);
  };
  bool accumulate = scalar("scale-d", 1) & 1;
  // imm-scale-a/b -1 negate A or B: exact, so applied to the inputs.
  bool negateA = static_cast<int32_t>(scalar("imm-scale-a", 1)) < 0;
  bool negateB = static_cast<int32_t>(scalar("imm-scale-b", 1)) < 0;
  auto input = [](const llvm::fltSemantics &semantics, uint64_t bits,
                  bool negate) {
    APFloat value = decode(semantics, bits);
    if (negate)
      value.changeSign();
    return value;
  };
  // B is (n, k); A is (m, k) in shared memory, or registers (rs).
  SmallVector<APFloat> matrixA(m * k, APFloat::getZero(*format->inputA)),
      matrixB;
  for (int64_t index = 0; index < n * k; ++index)
    matrixB.push_back(
        input(*format->inputB, laneAtoms[reader][2].elements[index], negateB));
  unsigned warpInGroup = executor.warp.index % 4;
  const ptx::OperandInfo &a = instruction.operands[1];
  if (a.isMemory) {
    for (int64_t index = 0; index < m * k; ++index)
      matrixA[index] =
          input(*format->inputA, laneAtoms[reader][1].elements[index], negateA);
  } else {
    // Words (r, w) of two halves, each warp holding its 16 rows.
    const tile::Fragment &fragment = tile::getFragment(a.fragment);
    int64_t words = k / 2;
    for (int64_t element = 0; element < m * words; ++element) {
      int64_t thread = fragment.lane[element];
      if (thread / kWarpSize != warpInGroup)
        continue;
      uint64_t word = laneAtoms[thread % kWarpSize][1]
                          .elements[fragment.registerIndex[element]];
      int64_t row = element / words, column = element % words * 2;
      matrixA[row * k + column] = input(*format->inputA, word, negateA);
      matrixA[row * k + column + 1] =
          input(*format->inputA, word >> 16, negateA);
    }
  }
  const tile::Fragment &accumulators =
      tile::getFragment(instruction.operands[0].fragment);
  for (int64_t element = 0; element < m * n; ++element) {
    int64_t thread = accumulators.lane[element];
    if (thread / kWarpSize != warpInGroup)
      continue;
    int64_t row = element / n, column = element % n;
    uint64_t &out = laneAtoms[thread % kWarpSize][0]
                        .elements[accumulators.registerIndex[element]];
    APFloat c = accumulate ? decode(*format->accumulator, out)
                           : APFloat::getZero(*format->accumulator);
    out = encode(tensorCoreDot(*format, ArrayRef(matrixA).slice(row * k, k),
                               ArrayRef(matrixB).slice(column * k, k), c));
  }
  return success();
}

LogicalResult interp::executeMatrixInstruction(
    WarpExecutor &executor, Operation *op, const ptx::Instruction &instruction,
    MutableArrayRef<SmallVector<OperandAtom, 4>> laneAtoms, LaneMask active) {
  if (instruction.module == ptx::FamilyModuleId::mma)
    return executeMma(executor, op, instruction, laneAtoms);
  return executeMatrixMove(executor, op, instruction, laneAtoms);
}
