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
// mma.sync model: every product of two inputs is exact in double precision
// (f16, bf16, tf32 and fp8 products all are); each D element is C plus the
// products summed in double in k order, rounded once to the accumulator
// type (round to nearest even). Tensor cores add with less precision
// (partial sums are truncated), so the last bits of f32 results can differ
// from the hardware's; tf32 inputs keep only their top 19 bits, as the
// hardware reads them.
//
//===----------------------------------------------------------------------===//

#include "CollectiveSemantics.h"

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

/// The semantics and width of an mma input type.
static std::pair<const llvm::fltSemantics *, unsigned>
getInputFormat(StringRef type) {
  if (type == "f16")
    return {&APFloat::IEEEhalf(), 16};
  if (type == "bf16")
    return {&APFloat::BFloat(), 16};
  if (type == "tf32")
    return {&APFloat::IEEEsingle(), 32};
  if (type == "e4m3")
    return {&APFloat::Float8E4M3FN(), 8};
  if (type == "e5m2")
    return {&APFloat::Float8E5M2(), 8};
  if (type == "f32")
    return {&APFloat::IEEEsingle(), 32};
  return {nullptr, 0};
}

static double decode(const llvm::fltSemantics &semantics, unsigned bits,
                     uint64_t value) {
  APFloat number(semantics, APInt(bits, value));
  bool losesInfo = false;
  number.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                 &losesInfo);
  return number.convertToDouble();
}

static uint64_t encode(const llvm::fltSemantics &semantics, double value) {
  APFloat number(value);
  bool losesInfo = false;
  number.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  return number.bitcastToAPInt().getZExtValue();
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
  const llvm::fltSemantics *inputA, *inputB, *accumulator;
  unsigned inputBits, inputBitsB, accumulatorBits;
  std::tie(inputA, inputBits) =
      getInputFormat(instruction.getModifier(ptx::Slot::atype));
  std::tie(inputB, inputBitsB) =
      getInputFormat(instruction.getModifier(ptx::Slot::btype));
  std::tie(accumulator, accumulatorBits) =
      getInputFormat(instruction.getModifier(ptx::Slot::ctype));
  if (!inputA || !inputB || !accumulator || inputBits != inputBitsB)
    return unsupported(executor, op, instruction);
  auto operand = [&](unsigned position) {
    return FragmentOperand{
        tile::getFragment(instruction.operands[position].fragment), position,
        laneAtoms};
  };
  FragmentOperand d = operand(0), a = operand(1), b = operand(2),
                  c = operand(3);
  unsigned perWord = 32 / inputBits;
  uint64_t inputMask = (uint64_t(1) << inputBits) - 1;
  // tf32: the hardware reads the top 19 bits of each word.
  uint64_t tf32Mask = instruction.getModifier(ptx::Slot::atype) == "tf32"
                          ? ~uint64_t(0x1fff)
                          : ~uint64_t(0);
  auto value = [&](FragmentOperand &from, int64_t element, unsigned part) {
    uint64_t bits = (from.word(element) & tf32Mask) >> (part * inputBits);
    return decode(&from == &a ? *inputA : *inputB, inputBits, bits & inputMask);
  };
  // A: m x (k / perWord) words, row-major; B: n x (k / perWord) words.
  int64_t words = k / perWord;
  std::vector<double> matrixA(m * k), matrixB(k * n);
  for (int64_t row = 0; row < m; ++row)
    for (int64_t word = 0; word < words; ++word)
      for (unsigned part = 0; part < perWord; ++part)
        matrixA[row * k + word * perWord + part] =
            value(a, row * words + word, part);
  for (int64_t col = 0; col < n; ++col)
    for (int64_t word = 0; word < words; ++word)
      for (unsigned part = 0; part < perWord; ++part)
        matrixB[(word * perWord + part) * n + col] =
            value(b, col * words + word, part);
  // C and D: m x n elements, or m x n / 2 words of two halves.
  unsigned perAccumulatorWord = 32 / accumulatorBits;
  uint64_t accumulatorMask = accumulatorBits == 32
                                 ? 0xffffffffu
                                 : (uint64_t(1) << accumulatorBits) - 1;
  for (int64_t row = 0; row < m; ++row)
    for (int64_t col = 0; col < n; ++col) {
      int64_t element = (row * n + col) / perAccumulatorWord;
      unsigned shift = (col % perAccumulatorWord) * accumulatorBits;
      double sum = 0;
      for (int64_t i = 0; i < k; ++i)
        sum += matrixA[row * k + i] * matrixB[i * n + col];
      sum += decode(*accumulator, accumulatorBits,
                    (c.word(element) >> shift) & accumulatorMask);
      uint64_t &out = d.word(element);
      out = (out & ~(accumulatorMask << shift)) |
            (encode(*accumulator, sum) << shift);
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
  const llvm::fltSemantics *input, *inputB;
  unsigned inputBits, inputBitsB;
  std::tie(input, inputBits) =
      getInputFormat(instruction.getModifier(ptx::Slot::atype));
  std::tie(inputB, inputBitsB) =
      getInputFormat(instruction.getModifier(ptx::Slot::btype));
  if (sscanf(shape.str().c_str(), "m%ldn%ldk%ld", &m, &n, &k) != 3 || !input ||
      !inputB || inputBits != inputBitsB)
    return unsupported(executor, op, instruction);
  auto scalar = [&](StringRef name, int64_t otherwise) -> int64_t {
    int index = findOperand(instruction, name);
    if (index < 0)
      return otherwise;
    return static_cast<int64_t>(laneAtoms[reader][index].elements[0]);
  };
  bool accumulate = scalar("scale-d", 1) & 1;
  double signA = static_cast<int32_t>(scalar("imm-scale-a", 1)) < 0 ? -1 : 1;
  double signB = static_cast<int32_t>(scalar("imm-scale-b", 1)) < 0 ? -1 : 1;
  uint64_t mask = (uint64_t(1) << inputBits) - 1;
  // B is (n, k); A is (m, k) in shared memory, or registers (rs).
  std::vector<double> matrixA(m * k), matrixB(n * k);
  for (int64_t index = 0; index < n * k; ++index)
    matrixB[index] =
        decode(*inputB, inputBits, laneAtoms[reader][2].elements[index] & mask);
  unsigned warpInGroup = executor.warp.index % 4;
  const ptx::OperandInfo &a = instruction.operands[1];
  if (a.isMemory) {
    for (int64_t index = 0; index < m * k; ++index)
      matrixA[index] = decode(*input, inputBits,
                              laneAtoms[reader][1].elements[index] & mask);
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
      matrixA[row * k + column] = decode(*input, inputBits, word & mask);
      matrixA[row * k + column + 1] =
          decode(*input, inputBits, (word >> 16) & mask);
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
    double sum = accumulate ? decode(APFloat::IEEEsingle(), 32, out) : 0.0;
    for (int64_t i = 0; i < k; ++i)
      sum += signA * matrixA[row * k + i] * signB * matrixB[column * k + i];
    out = encode(APFloat::IEEEsingle(), sum);
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
