//===- PTXMatcher.cpp - Matching a PTX spelling against the table ---------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Places a spelling's tokens into the slots of each entry of its family,
// runs the entry's rule, builds the `Instruction` (canonical spelling,
// operands with their element classes and atoms, state space, floors) of
// every entry that accepts, and merges the best failures into one message
// when none does (PTXMatcher.h).
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/PTX/PTXMatcher.h"
#include "TirX/Dialect/Tile/PTX/PTXRules.h"
#include "TirX/Dialect/Tile/PTX/PTXTable.h"
#include "TirX/Dialect/Tile/PTX/PTXTypes.h"
#include "TirX/Layout/LayoutAlgebra.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <map>
#include <mutex>
#include <string>
#include <tuple>

using namespace llvm;

namespace mlir::tirx::ptx {

/// How a slot is named in messages.
static std::string describeSlot(const SlotSpec &slot) {
  if (slot.tokens.size() == 1 && !slot.isOrdered)
    return dot(slot.tokens.front().text);
  StringRef phrase = getSlotPhrase(slot.id);
  if (!phrase.empty())
    return phrase.str();
  return "'" + slot.name.str() + "' modifier";
}

/// What follows "missing required <description>": the slot's tokens, unless
/// the description is the token itself (".satfinite").
static std::string listAlternatives(StringRef description,
                                    ArrayRef<StringRef> tokens) {
  if (description.starts_with("."))
    return "";
  if (tokens.size() == 1)
    return " (" + dot(tokens.front()) + ")";
  std::string text = " (one of ";
  for (auto [i, token] : llvm::enumerate(tokens))
    text += (i ? ", ." : ".") + token.str();
  return text + ")";
}

namespace {

/// The outcome of matching a spelling against one entry.
struct Attempt {
  /// How far matching got; a later stage explains a failure better.
  enum Stage : unsigned { BadToken, MissingSlot, OperandCount, Rule, Accepted };
  Stage stage = BadToken;
  /// Tokens placed before a BadToken failure.
  unsigned placed = 0;
  /// BadToken detail: 0 unknown to the family, 1 not valid for this entry,
  /// 2 conflicting/out of order (the entry clearly is the intended one).
  unsigned tokenDetail = 0;
  unsigned missingCount = 0;
  std::string reason;
  /// MissingSlot: the slot, for merging the alternatives of several entries.
  std::string missingDescription;
  Slot missingSlot{};
  SmallVector<StringRef, 16> missingTokens;
  /// OperandCount: what this entry expects.
  unsigned expectedOperands = 0;
  /// Per slot, the index of the spelled token filling it, or -1.
  SmallVector<int, 12> assignment;
  Floor floor;

  auto rank() const {
    return std::make_tuple(unsigned(stage), placed, tokenDetail,
                           -int(missingCount));
  }
};

} // namespace

static unsigned countOperands(const Form &form, ArrayRef<int> assignment) {
  return llvm::count_if(form.operands, [&](const OperandSpec &op) {
    return op.presentSlot < 0 || assignment[op.presentSlot] >= 0;
  });
}

static Attempt matchForm(const Form &form, ArrayRef<StringRef> tokens,
                         const StringSet<> &familyTokens,
                         std::optional<unsigned> numOperands) {
  Attempt attempt;
  attempt.assignment.assign(form.slots.size(), -1);
  auto filledLaterTypeSlot = [&](size_t slotIndex) -> int {
    for (size_t later = slotIndex + 1; later < form.slots.size(); ++later)
      if (form.slots[later].isOrdered && attempt.assignment[later] >= 0)
        return later;
    return -1;
  };

  // Each token takes the first still-open slot that lists it (spec §3.0).
  for (auto [tokenIndex, token] : llvm::enumerate(tokens)) {
    int conflicting = -1, outOfOrder = -1;
    bool placed = false;
    for (auto [slotIndex, slot] : llvm::enumerate(form.slots)) {
      if (!slot.find(token))
        continue;
      if (attempt.assignment[slotIndex] >= 0) {
        conflicting = slotIndex;
        continue;
      }
      if (slot.isOrdered) {
        if (int later = filledLaterTypeSlot(slotIndex); later >= 0) {
          outOfOrder = later;
          continue;
        }
      }
      attempt.assignment[slotIndex] = tokenIndex;
      placed = true;
      break;
    }
    if (placed)
      continue;
    attempt.placed = tokenIndex;
    if (outOfOrder >= 0) {
      attempt.tokenDetail = 2;
      const SlotSpec &later = form.slots[outOfOrder];
      // The slot the token would have taken: the first open type slot
      // listing it.
      const SlotSpec *wanted =
          llvm::find_if(form.slots, [text = token](const SlotSpec &slot) {
            return slot.isOrdered && slot.find(text);
          });
      attempt.reason = dot(token) + " (" + describeSlot(*wanted) +
                       ") must come before " +
                       dot(tokens[attempt.assignment[outOfOrder]]) + " (" +
                       describeSlot(later) + ")";
    } else if (conflicting >= 0) {
      attempt.tokenDetail = 2;
      StringRef previous = tokens[attempt.assignment[conflicting]];
      attempt.reason = previous == token
                           ? "repeated modifier " + dot(token)
                           : "conflicting " +
                                 describeSlot(form.slots[conflicting]) + ": " +
                                 dot(previous) + " and " + dot(token);
    } else if (familyTokens.contains(token)) {
      attempt.tokenDetail = 1;
      SmallVector<std::string, 8> open;
      for (auto [slotIndex, slot] : llvm::enumerate(form.slots))
        if (attempt.assignment[slotIndex] < 0)
          open.push_back(describeSlot(slot));
      attempt.reason =
          dot(token) + " is not valid here (" +
          (open.empty() ? std::string("all modifier slots are filled")
                        : "open slots: " + join(open, ", ")) +
          ")";
    } else {
      attempt.reason = "unknown modifier " + dot(token);
    }
    return attempt;
  }
  attempt.placed = tokens.size();

  for (auto [slotIndex, slot] : llvm::enumerate(form.slots)) {
    if (!slot.mandatory || attempt.assignment[slotIndex] >= 0)
      continue;
    if (attempt.missingCount++ == 0) {
      attempt.missingDescription = describeSlot(slot);
      attempt.missingSlot = slot.id;
      for (const TokenSpec &token : slot.tokens)
        attempt.missingTokens.push_back(token.text);
    }
  }
  if (attempt.missingCount) {
    attempt.stage = Attempt::MissingSlot;
    attempt.reason =
        "missing required " + attempt.missingDescription +
        listAlternatives(attempt.missingDescription, attempt.missingTokens);
    return attempt;
  }

  attempt.floor.raise(form.raw->minSM, form.raw->minPTX);
  Mods mods;
  for (auto [slotIndex, slot] : llvm::enumerate(form.slots)) {
    int tokenIndex = attempt.assignment[slotIndex];
    if (tokenIndex < 0)
      continue;
    const TokenSpec *token = slot.find(tokens[tokenIndex]);
    attempt.floor.raise(slot.floor.sm, slot.floor.ptx);
    attempt.floor.raise(token->floor.sm, token->floor.ptx);
    mods.set(slot.id, token->text);
  }
  attempt.reason = form.raw->check(mods, attempt.floor);
  if (!attempt.reason.empty()) {
    attempt.stage = Attempt::Rule;
    return attempt;
  }

  attempt.expectedOperands = countOperands(form, attempt.assignment);
  if (numOperands && *numOperands != attempt.expectedOperands) {
    attempt.stage = Attempt::OperandCount;
    return attempt;
  }
  attempt.stage = Attempt::Accepted;
  return attempt;
}

/// Builds the descriptor of an accepted attempt.
/// Fragment `index` (an atom of shape (am, an)) repeated over an m x n
/// matrix: the blocked product with the repeats (m / am, n / an) in the
/// following registers. Computed once per (fragment, m, n).
static Expected<std::string> getTiledFragment(int index, unsigned m,
                                              unsigned n) {
  static std::mutex mutex;
  static std::map<std::tuple<int, unsigned, unsigned>, std::string> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = cache.try_emplace({index, m, n});
  if (!inserted)
    return it->second;
  const FragmentInfo &fragment = getFragments()[index];
  SmallVector<int64_t, 2> atomShape = fragment.getShape();
  Expected<TileLayout> atom = TileLayout::parse(fragment.layout);
  SmallVector<int64_t, 2> repeats = {m / atomShape[0], n / atomShape[1]};
  Expected<TileLayout> arrangement = TileLayout::getRowMajor(repeats);
  if (!atom || !arrangement) {
    cache.erase(it);
    consumeError(atom.takeError());
    consumeError(arrangement.takeError());
    // check-diagnostics: internal, the table's fragments parse (PTXTableTest)
    return createStringError(inconvertibleErrorCode(),
                             "fragment '" + fragment.name + "' is malformed");
  }
  Expected<ShapedLayout> tiled =
      blockedProduct(*atom, atomShape, *arrangement, repeats);
  if (!tiled) {
    cache.erase(it);
    return tiled.takeError();
  }
  return it->second = tiled->layout.toString();
}

static Expected<Instruction> buildInstruction(const Form &form,
                                              ArrayRef<StringRef> tokens,
                                              const Attempt &attempt) {
  Instruction inst;
  inst.family = form.raw->family;
  inst.module = form.raw->module;
  inst.spelling = inst.family;
  auto slotToken = [&](int slotIndex) -> StringRef {
    int tokenIndex = attempt.assignment[slotIndex];
    return tokenIndex < 0
               ? StringRef()
               : form.slots[slotIndex].find(tokens[tokenIndex])->text;
  };
  for (size_t slotIndex = 0; slotIndex < form.slots.size(); ++slotIndex) {
    StringRef token = slotToken(slotIndex);
    if (token.empty())
      continue;
    inst.modifiers.push_back(token.str());
    inst.modifierSlots.push_back(form.slots[slotIndex].id);
    inst.spelling += "." + token.str();
  }
  // The table is checked when it loads (every operand type resolves), and
  // only accepted attempts get here: a guard against future table edits.
  // check-diagnostics: internal, no spelling reaches it (see above)
  auto internalError = [&](const Twine &message) {
    return createStringError(inconvertibleErrorCode(),
                             "'" + inst.spelling +
                                 "': internal table error: " + message);
  };

  for (const OperandSpec &spec : form.operands) {
    if (spec.presentSlot >= 0 && attempt.assignment[spec.presentSlot] < 0)
      continue;
    OperandInfo op;
    op.name = spec.name.str();
    op.isDestination =
        spec.role == Role::RegisterDst || spec.role == Role::MemoryDst;
    op.isMemory = spec.role == Role::MemoryDst || spec.role == Role::MemorySrc;
    op.allowsImmediate = spec.allowsImmediate;
    StringRef type;
    for (auto [slot, literal] : spec.typeRefs) {
      type = slot >= 0 ? slotToken(slot) : literal;
      if (!type.empty())
        break;
    }
    if (spec.doubled)
      type = getDoubledType(type);
    std::optional<ElementClass> element = getTokenClass(type);
    if (!element)
      // check-diagnostics: internal, see internalError
      return internalError("operand '" + spec.name + "' has no type");
    op.element = *element;
    op.atom = spec.atom;
    if (spec.atomSlot >= 0)
      (void)slotToken(spec.atomSlot).drop_front().getAsInteger(10, op.atom);
    if (spec.fragment >= 0)
      op.fragment = getFragments()[spec.fragment].layout.str();
    op.atomShape = spec.atomShape;
    if (spec.fragmentTileSlot >= 0) {
      // The loader proved the token is a matrix the fragment divides.
      std::optional<std::array<unsigned, 3>> mnk =
          parseMatrixShape(slotToken(spec.fragmentTileSlot));
      Expected<std::string> tiled =
          mnk ? getTiledFragment(spec.fragment, (*mnk)[0], (*mnk)[1])
              // check-diagnostics: internal, see internalError
              : internalError("a tiled fragment's shape is not mMnNkK");
      if (!tiled)
        return tiled.takeError();
      op.fragment = std::move(*tiled);
      op.atomShape = {(*mnk)[0], (*mnk)[1]};
      op.atom = (*mnk)[0] * (*mnk)[1];
    }
    op.isReadWrite = spec.isReadWrite;
    op.descriptor = spec.descriptor;
    if (spec.descriptor != DescriptorMatrix::None) {
      // The shape token `mMnNkK` names the matrices: A is (M, K), B (N, K).
      std::optional<std::array<unsigned, 3>> mnk =
          parseMatrixShape(slotToken(form.findSlot(Slot::shape)));
      if (!mnk)
        // check-diagnostics: internal, see internalError
        return internalError("a descriptor's shape is not mMnNkK");
      auto [m, n, k] = *mnk;
      op.atomShape = {spec.descriptor == DescriptorMatrix::A ? m : n, k};
      op.atom = op.atomShape[0] * k;
    }
    // A chunk operand's atom is known once its element type is (atom 0).
    if (op.atomShape.empty() && op.atom)
      op.atomShape.push_back(op.atom);
    op.joinsPrevious = spec.joinsPrevious;
    op.alwaysVector = spec.alwaysVector;
    op.bulkRole = spec.bulkRole;
    op.kind = spec.kind;
    op.chunkOperand = spec.chunkOperand;
    op.remoteOperand = spec.remoteOperand;
    inst.operands.push_back(std::move(op));
  }

  auto spaceOf = [&](int slot) {
    StringRef space = slot >= 0 ? slotToken(slot) : "";
    return StringSwitch<MemorySpace>(space)
        .Case("global", MemorySpace::Global)
        .Cases({"shared", "shared::cta"}, MemorySpace::Shared)
        .Case("shared::cluster", MemorySpace::SharedCluster)
        .Case("local", MemorySpace::Local)
        .Default(MemorySpace::Generic);
  };
  unsigned next = 0;
  for (const OperandSpec &spec : form.operands) {
    if (spec.presentSlot >= 0 && attempt.assignment[spec.presentSlot] < 0)
      continue;
    OperandInfo &op = inst.operands[next++];
    if (!op.isMemory)
      continue;
    op.space = spaceOf(spec.spaceSlot >= 0 ? spec.spaceSlot : form.spaceSlot);
    // Matrix descriptors address shared memory only.
    if (op.descriptor != DescriptorMatrix::None)
      op.space = MemorySpace::Shared;
    if (inst.space == MemorySpace::None) {
      inst.space = op.space;
      // A descriptor's matrix is read whole, not as vectors.
      if (op.descriptor == DescriptorMatrix::None)
        inst.vectorBytes = op.atom * op.element.bitWidth / 8;
    }
  }
  inst.minSM = attempt.floor.sm;
  inst.minPTX = attempt.floor.ptx;
  inst.archSpecific = attempt.floor.archSpecific;
  inst.hidden = form.hidden;
  inst.exec = form.exec;
  inst.isVolatile = form.isVolatile;
  inst.formName = form.raw->name;
  return inst;
}

/// Merges the best failures into one message (without the quoted spelling).
static std::string explainFailure(StringRef family,
                                  ArrayRef<const Attempt *> best,
                                  std::optional<unsigned> numOperands,
                                  StringRef spelling) {
  const Attempt &first = *best.front();
  if (first.stage == Attempt::OperandCount) {
    SmallVector<unsigned, 2> counts;
    for (const Attempt *attempt : best)
      if (!llvm::is_contained(counts, attempt->expectedOperands))
        counts.push_back(attempt->expectedOperands);
    llvm::sort(counts);
    std::string expected;
    for (auto [i, count] : llvm::enumerate(counts))
      expected += (i == 0                   ? ""
                   : i + 1 == counts.size() ? " or "
                                            : ", ") +
                  std::to_string(count);
    bool plural = counts.size() > 1 || counts.front() != 1;
    return "'" + spelling.str() + "' expects " + expected +
           (plural ? " operands" : " operand") + ", got " +
           std::to_string(*numOperands);
  }
  std::string prefix = "'" + spelling.str() + "': ";
  // Entries that each miss the same slot (cp.async's .ca and .cg lines,
  // ldmatrix's .x1/.x2/.x4 lines) miss one modifier with their tokens as
  // the alternatives.
  bool sameMissingSlot = llvm::all_of(best, [&](const Attempt *attempt) {
    return attempt->stage == Attempt::MissingSlot &&
           attempt->missingSlot == first.missingSlot;
  });
  if (sameMissingSlot && best.size() > 1) {
    SmallVector<StringRef, 16> tokens;
    for (const Attempt *attempt : best)
      for (StringRef token : attempt->missingTokens)
        if (!llvm::is_contained(tokens, token))
          tokens.push_back(token);
    std::string description = first.missingDescription;
    StringRef phrase = getSlotPhrase(first.missingSlot);
    if (tokens.size() > 1 && !phrase.empty())
      description = phrase.str();
    return prefix + "missing required " + description +
           listAlternatives(description, tokens);
  }
  SmallVector<std::string, 4> reasons;
  for (const Attempt *attempt : best)
    if (!llvm::is_contained(reasons, attempt->reason))
      reasons.push_back(attempt->reason);
  if (reasons.size() == 1)
    return prefix + reasons.front();
  return prefix + "no form of '" + family.str() +
         "' accepts it: " + join(reasons, "; ");
}

Expected<SmallVector<Instruction, 1>>
matchInstruction(StringRef family, ArrayRef<StringRef> tokens,
                 std::optional<unsigned> numOperands, StringRef spelling) {
  const Table &table = getTable();
  auto it = table.formsByFamily.find(family);
  assert(it != table.formsByFamily.end() && "not a family of the table");
  const StringSet<> &familyTokens = table.familyTokens.find(family)->second;

  SmallVector<Attempt, 4> attempts;
  SmallVector<unsigned, 4> accepted;
  for (unsigned formIndex : it->second) {
    attempts.push_back(
        matchForm(table.forms[formIndex], tokens, familyTokens, numOperands));
    if (attempts.back().stage == Attempt::Accepted)
      accepted.push_back(attempts.size() - 1);
  }
  if (!accepted.empty()) {
    SmallVector<Instruction, 1> result;
    for (unsigned index : accepted) {
      Expected<Instruction> inst = buildInstruction(
          table.forms[it->second[index]], tokens, attempts[index]);
      if (!inst)
        return inst.takeError();
      result.push_back(std::move(*inst));
    }
    return result;
  }

  auto bestRank =
      llvm::max_element(attempts, [](const Attempt &lhs, const Attempt &rhs) {
        return lhs.rank() < rhs.rank();
      })->rank();
  SmallVector<const Attempt *, 4> best;
  for (const Attempt &attempt : attempts)
    if (attempt.rank() == bestRank)
      best.push_back(&attempt);
  return createStringError(inconvertibleErrorCode(),
                           explainFailure(family, best, numOperands, spelling));
}

} // namespace mlir::tirx::ptx
