//===- JoinAccumulatorChains.cpp - One inline PTX per accumulator chain ---===//
//
// Part of the TirX project.
//
// tile-dispatch emits one inline-PTX statement per instruction; a wgmma's
// 128 accumulator registers go in through tied inputs (slot loads) and come
// out through slot stores. Two wgmmas on one accumulator, one after the
// other, are joined into one statement holding both instructions: the
// slot traffic between them is gone before every later pass and LLVM's
// code generation see it (most of a Hopper GEMM's IR otherwise).
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/Passes.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::tirx {
#define GEN_PASS_DEF_TILEJOINACCUMULATORCHAINS
#include "TirX/Conversion/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;
using namespace mlir::tirx;

namespace {
/// An inline-PTX statement every output of which is tied to an input (the
/// accumulator's current value): its constraints, split.
struct TiedStatement {
  LLVM::InlineAsmOp op;
  unsigned numOutputs = 0;
  /// Per input: its constraint.
  SmallVector<StringRef> inputConstraints;
  /// Per output: the input tied to it.
  SmallVector<unsigned> tiedInput;

  /// The statement's parts, when every output is tied to exactly one input.
  static std::optional<TiedStatement> match(LLVM::InlineAsmOp op) {
    if (op.getNumResults() != 1 || op.getIsAlignStack() || op.getOperandAttrs())
      return std::nullopt;
    TiedStatement statement;
    statement.op = op;
    SmallVector<StringRef> constraints;
    StringRef(op.getConstraints()).split(constraints, ',');
    for (StringRef constraint : constraints) {
      if (!constraint.starts_with("="))
        break;
      ++statement.numOutputs;
    }
    ArrayRef<StringRef> inputs =
        ArrayRef(constraints).drop_front(statement.numOutputs);
    if (statement.numOutputs == 0 || inputs.size() != op.getNumOperands())
      return std::nullopt;
    statement.inputConstraints.assign(inputs.begin(), inputs.end());
    statement.tiedInput.assign(statement.numOutputs, ~0u);
    for (auto [input, constraint] : llvm::enumerate(inputs)) {
      unsigned output;
      if (constraint.getAsInteger(10, output))
        continue;
      if (output >= statement.numOutputs || statement.tiedInput[output] != ~0u)
        return std::nullopt;
      statement.tiedInput[output] = input;
    }
    if (llvm::is_contained(statement.tiedInput, ~0u))
      return std::nullopt;
    return statement;
  }

  bool isTied(unsigned input) const {
    return llvm::is_contained(tiedInput, input);
  }

  /// Output `index` as a value (the result, or its struct field).
  Value getOutput(unsigned index, Operation *&extract) {
    Value result = op->getResult(0);
    extract = nullptr;
    if (numOutputs == 1)
      return result;
    for (Operation *user : result.getUsers()) {
      auto field = dyn_cast<LLVM::ExtractValueOp>(user);
      if (field && field.getPosition() == ArrayRef<int64_t>{int64_t(index)}) {
        extract = field;
        return field.getResult();
      }
    }
    return nullptr;
  }
};

/// Rewrites `text`'s operand references `$N` through `renumber`; false when
/// it references an operand `renumber` cannot place.
static bool renumberOperands(StringRef text,
                             llvm::function_ref<int64_t(unsigned)> renumber,
                             std::string &out) {
  for (size_t at = 0; at < text.size();) {
    char c = text[at];
    if (c != '$') {
      out += c;
      ++at;
      continue;
    }
    if (at + 1 < text.size() && text[at + 1] == '$') {
      out += "$$"; // an escaped '$'
      at += 2;
      continue;
    }
    size_t end = at + 1;
    while (end < text.size() && llvm::isDigit(text[end]))
      ++end;
    unsigned index;
    if (end == at + 1 || text.slice(at + 1, end).getAsInteger(10, index))
      return false; // a modifier form (${0:...}): not emitted by TirX
    int64_t renumbered = renumber(index);
    if (renumbered < 0)
      return false;
    out += "$" + std::to_string(renumbered);
    at = end;
  }
  return true;
}

/// second ⇐ (first; second) when second's tied inputs read, in order, the
/// slots first's outputs were stored to, and nothing between the two
/// touches memory or issues inline PTX.
struct JoinAccumulatorChain : public OpRewritePattern<LLVM::InlineAsmOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LLVM::InlineAsmOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<TiedStatement> second = TiedStatement::match(op);
    if (!second)
      return failure();
    // The slot each output's tied input reads.
    SmallVector<SlotLoadOp> loads;
    for (unsigned input : second->tiedInput) {
      auto load = op.getOperand(input).getDefiningOp<SlotLoadOp>();
      if (!load || !load->hasOneUse() || load->getBlock() != op->getBlock())
        return failure();
      loads.push_back(load);
    }
    // Back to the previous inline PTX over loads of those slots, pure ops
    // and slot stores (checked to be the previous statement's below).
    llvm::SmallPtrSet<Operation *, 8> tiedLoads;
    for (SlotLoadOp load : loads)
      tiedLoads.insert(load);
    SmallVector<SlotStoreOp> storesBetween;
    SmallVector<SlotLoadOp> loadsBetween;
    LLVM::InlineAsmOp previous;
    for (Operation *at = op->getPrevNode(); at; at = at->getPrevNode()) {
      if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(at)) {
        previous = asmOp;
        break;
      }
      if (tiedLoads.erase(at))
        continue;
      if (auto store = dyn_cast<SlotStoreOp>(at)) {
        storesBetween.push_back(store);
        continue;
      }
      if (auto load = dyn_cast<SlotLoadOp>(at)) {
        loadsBetween.push_back(load); // another operand's (wgmma's A)
        continue;
      }
      if (at->getNumRegions() != 0 || !isMemoryEffectFree(at))
        return failure();
    }
    // Every tied load reads after the previous statement's stores.
    if (!previous || !tiedLoads.empty())
      return failure();
    std::optional<TiedStatement> first = TiedStatement::match(previous);
    if (!first || first->numOutputs != second->numOutputs ||
        previous.getResultTypes() != op.getResultTypes() ||
        previous.getAsmDialectAttr() != op.getAsmDialectAttr() ||
        previous.getTailCallKind() != op.getTailCallKind())
      return failure();
    // Each output of the first statement is stored, and only stored, to the
    // slot the second one's tied input of that output reads.
    SmallVector<Operation *> firstUses;
    for (unsigned index = 0; index < first->numOutputs; ++index) {
      Operation *extract;
      Value output = first->getOutput(index, extract);
      if (!output || !output.hasOneUse())
        return failure();
      auto store = dyn_cast<SlotStoreOp>(*output.getUsers().begin());
      if (!store || store->getBlock() != op->getBlock() ||
          store.getTile() != loads[index].getTile() ||
          store.getSlot() != loads[index].getSlot())
        return failure();
      firstUses.push_back(store);
      if (extract)
        firstUses.push_back(extract);
    }
    if (first->numOutputs > 1 &&
        !llvm::hasNItems(previous.getResult(0).getUsers(), first->numOutputs))
      return failure();
    // Exactly the first's stores lie between: another store there could be
    // of a slot read later, and one of the first's after the second would
    // be read by it.
    llvm::SmallPtrSet<Operation *, 8> between(storesBetween.begin(),
                                              storesBetween.end());
    if (storesBetween.size() != first->numOutputs ||
        llvm::any_of(firstUses, [&](Operation *use) {
          return isa<SlotStoreOp>(use) && !between.contains(use);
        }))
      return failure();
    // A load between of a slot the first stores would read the stored value,
    // which the joined statement keeps in registers only.
    for (SlotLoadOp load : loadsBetween)
      if (llvm::any_of(storesBetween, [&](SlotStoreOp store) {
            return store.getTile() == load.getTile() &&
                   store.getSlot() == load.getSlot();
          }))
        return failure();

    // Operands of the joined statement: the first's untied inputs, the
    // second's, then the first's tied inputs (the accumulator before both).
    unsigned numOutputs = first->numOutputs;
    SmallVector<Value> operands;
    // The outputs keep the second's constraints ("=f", "=r").
    std::string constraints;
    {
      SmallVector<StringRef> all;
      StringRef(op.getConstraints()).split(all, ',');
      for (unsigned index = 0; index < numOutputs; ++index)
        constraints += (index ? "," : "") + all[index].str();
    }
    auto untied = [&](const TiedStatement &statement,
                      SmallVector<int64_t> &position) {
      position.assign(statement.inputConstraints.size(), -1);
      for (auto [input, constraint] :
           llvm::enumerate(statement.inputConstraints)) {
        if (statement.isTied(input))
          continue;
        position[input] = numOutputs + operands.size();
        operands.push_back(statement.op->getOperand(input));
        constraints += "," + constraint.str();
      }
    };
    SmallVector<int64_t> firstPosition, secondPosition;
    untied(*first, firstPosition);
    untied(*second, secondPosition);
    for (unsigned index = 0; index < numOutputs; ++index) {
      operands.push_back(previous.getOperand(first->tiedInput[index]));
      constraints += "," + std::to_string(index);
    }

    auto renumberer = [&](ArrayRef<int64_t> position) {
      return [=](unsigned index) -> int64_t {
        if (index < numOutputs)
          return index;
        index -= numOutputs;
        return index < position.size() ? position[index] : -1;
      };
    };
    std::string text;
    if (!renumberOperands(previous.getAsmString(), renumberer(firstPosition),
                          text))
      return failure();
    text += "\n\t";
    if (!renumberOperands(op.getAsmString(), renumberer(secondPosition), text))
      return failure();

    rewriter.setInsertionPoint(op);
    auto joined = LLVM::InlineAsmOp::create(
        rewriter, rewriter.getFusedLoc({previous.getLoc(), op.getLoc()}),
        op.getResultTypes(), operands, text, constraints,
        previous.getHasSideEffects() || op.getHasSideEffects(),
        /*is_align_stack=*/false, op.getTailCallKind(), op.getAsmDialectAttr(),
        ArrayAttr());
    rewriter.replaceOp(op, joined);
    for (SlotLoadOp load : loads)
      rewriter.eraseOp(load);
    for (Operation *use : firstUses)
      rewriter.eraseOp(use);
    rewriter.eraseOp(previous);
    return success();
  }
};

struct TileJoinAccumulatorChainsPass
    : public tirx::impl::TileJoinAccumulatorChainsBase<
          TileJoinAccumulatorChainsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateJoinAccumulatorChainPatterns(patterns);
    // One walk: each statement is joined to the (possibly already joined)
    // statement before it.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

void mlir::tirx::populateJoinAccumulatorChainPatterns(
    RewritePatternSet &patterns) {
  patterns.add<JoinAccumulatorChain>(patterns.getContext());
}
