//===- PTXTable.cpp - Loading PTXTable.def into entries -------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Turns the PTX_FORM records of PTXTable.def into the slot and operand
// descriptors of PTXTable.h, once, on first use. Every record is checked as
// it loads (slot syntax, slot names against PTX_SLOT, operand roles, type
// references that resolve to an element class, atom slots that are `.vN`);
// a malformed record is a fatal error naming the entry, so the matcher can
// trust what it reads.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/PTX/PTXTable.h"
#include "TirX/Dialect/Tile/PTX/PTXTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace mlir::tirx::ptx {

namespace {

const RawForm rawForms[] = {
#define PTX_FORM(FAMILY, NAME, EXEC, SLOTS, OPERANDS, MIN_SM, MIN_PTX, CHECK,  \
                 MODULE)                                                       \
  {FAMILY,  NAME,          EXEC,                                               \
   SLOTS,   OPERANDS,      MIN_SM,                                             \
   MIN_PTX, &rules::CHECK, FamilyModuleId::MODULE},
#include "TirX/Dialect/Tile/PTX/PTXTable.def"
};

const FragmentInfo fragments[] = {
#define PTX_FRAGMENT(NAME, SHAPE, LAYOUT) {#NAME, SHAPE, LAYOUT},
#include "TirX/Dialect/Tile/PTX/PTXTable.def"
};

} // namespace

[[noreturn]] static void tableError(const RawForm &raw, const Twine &message) {
  report_fatal_error("PTXTable.def entry '" + Twine(raw.name) +
                     "': " + message);
}

/// Parses "@SM/PTX" at the front of `text`.
static Floor parseFloor(const RawForm &raw, StringRef &text) {
  Floor floor;
  if (!text.consume_front("@"))
    return floor;
  if (text.consumeInteger(10, floor.sm) || !text.consume_front("/") ||
      text.consumeInteger(10, floor.ptx))
    tableError(raw, "malformed floor");
  return floor;
}

static SlotSpec parseSlot(const RawForm &raw, StringRef text) {
  SlotSpec slot;
  auto [head, tokens] = text.split('=');
  size_t nameEnd = head.find_first_of("?@");
  slot.name = head.take_front(nameEnd);
  head = head.drop_front(slot.name.size());
  if (head.consume_front("?"))
    slot.mandatory = false;
  slot.floor = parseFloor(raw, head);
  if (!head.empty() || slot.name.empty())
    tableError(raw, "malformed slot '" + text + "'");
  std::optional<Slot> id = getSlotByName(slot.name);
  if (!id)
    tableError(raw, "slot '" + slot.name + "' is not listed by PTX_SLOT");
  slot.id = *id;
  slot.isOrdered = slot.id == Slot::type || slot.id == Slot::dtype ||
                   slot.id == Slot::atype || slot.id == Slot::btype ||
                   slot.id == Slot::ctype || slot.id == Slot::alayout ||
                   slot.id == Slot::blayout || slot.id == Slot::sspace;
  if (!text.contains('=')) {
    slot.tokens.push_back({slot.name, Floor()});
    return slot;
  }
  SmallVector<StringRef, 16> parts;
  tokens.split(parts, '|');
  for (StringRef part : parts) {
    TokenSpec token;
    token.text = part.take_until([](char c) { return c == '@'; });
    part = part.drop_front(token.text.size());
    token.floor = parseFloor(raw, part);
    if (token.text.empty() || !part.empty())
      tableError(raw, "malformed token in slot '" + slot.name + "'");
    slot.tokens.push_back(token);
  }
  return slot;
}

/// The index of the slot `form` spells `name`, or -1 (a literal type).
static int findSlot(const Form &form, StringRef name) {
  std::optional<Slot> id = getSlotByName(name);
  return id ? form.findSlot(*id) : -1;
}

static OperandSpec parseOperand(const RawForm &raw, const Form &form,
                                StringRef text) {
  SmallVector<StringRef, 6> fields;
  text.split(fields, ':');
  if (fields.size() < 3)
    tableError(raw, "malformed operand '" + text + "'");
  OperandSpec op;
  op.name = fields[0];
  std::optional<Role> role = StringSwitch<std::optional<Role>>(fields[1])
                                 .Case("w", Role::RegisterDst)
                                 .Case("r", Role::RegisterSrc)
                                 .Case("mw", Role::MemoryDst)
                                 .Case("mr", Role::MemorySrc)
                                 .Default(std::nullopt);
  if (!role)
    tableError(raw, "unknown operand role in '" + text + "'");
  op.role = *role;
  StringRef typeRef = fields[2];
  op.doubled = typeRef.consume_back("*2");
  SmallVector<StringRef, 2> refs;
  typeRef.split(refs, '|');
  for (StringRef ref : refs) {
    int slot = findSlot(form, ref);
    if (slot < 0 && !getTokenClass(ref))
      tableError(raw,
                 "operand type '" + ref + "' is neither a slot nor a type");
    op.typeRefs.push_back({slot, ref});
  }
  // The last reference must always resolve: a literal or a mandatory slot.
  auto [lastSlot, lastText] = op.typeRefs.back();
  if (lastSlot >= 0 && !form.slots[lastSlot].mandatory)
    tableError(raw, "operand '" + op.name + "' may have no type");
  for (StringRef attr : ArrayRef(fields).drop_front(3)) {
    if (attr == "imm") {
      op.allowsImmediate = true;
    } else if (attr == "join") {
      op.joinsPrevious = true;
    } else if (attr == "vec") {
      op.alwaysVector = true;
    } else if (attr == "tmap") {
      op.bulkRole = BulkTensorRole::TensorMap;
    } else if (attr == "box") {
      op.bulkRole = BulkTensorRole::BoxImage;
    } else if (attr.consume_front("space=")) {
      op.spaceSlot = findSlot(form, attr);
      if (op.spaceSlot < 0)
        tableError(raw, "unknown slot in 'space=" + attr + "'");
    } else if (attr.consume_front("remote=")) {
      // Resolved to an operand index once every operand is known.
      op.remoteName = attr;
    } else if (attr.consume_front("bytes=")) {
      // Resolved to an operand index once every operand is known.
      op.chunkName = attr;
      op.atom = 0;
    } else if (attr == "rw") {
      op.isReadWrite = true;
    } else if (attr.consume_front("desc=")) {
      op.descriptor = StringSwitch<DescriptorMatrix>(attr)
                          .Case("a", DescriptorMatrix::A)
                          .Case("b", DescriptorMatrix::B)
                          .Default(DescriptorMatrix::None);
      if (op.descriptor == DescriptorMatrix::None ||
          form.findSlot(Slot::shape) < 0)
        tableError(raw, "'desc=" + attr + "' needs a or b and a shape slot");
    } else if (attr.consume_front("tile=")) {
      op.fragmentTileSlot = findSlot(form, attr);
      if (op.fragmentTileSlot < 0)
        tableError(raw, "unknown slot in 'tile=" + attr + "'");
    } else if (attr.consume_front("frag=")) {
      const FragmentInfo *fragment =
          llvm::find_if(fragments, [&](const FragmentInfo &candidate) {
            return candidate.name == attr;
          });
      if (fragment == std::end(fragments))
        tableError(raw, "unknown fragment '" + attr + "'");
      op.fragment = fragment - std::begin(fragments);
      op.atomShape = fragment->getShape();
      if (op.atomShape.empty())
        tableError(raw, "fragment '" + attr + "' has a malformed shape");
      op.atom = fragment->getAtom();
    } else if (attr.consume_front("if=")) {
      op.presentSlot = findSlot(form, attr);
      if (op.presentSlot < 0)
        tableError(raw, "unknown slot in 'if=" + attr + "'");
    } else if (attr.consume_front("x")) {
      if (!attr.getAsInteger(10, op.atom))
        continue;
      op.atomSlot = findSlot(form, attr);
      if (op.atomSlot < 0)
        tableError(raw, "unknown atom slot '" + attr + "'");
      for (const TokenSpec &token : form.slots[op.atomSlot].tokens) {
        unsigned lanes;
        if (!token.text.starts_with("v") ||
            token.text.drop_front().getAsInteger(10, lanes))
          tableError(raw, "atom slot token '" + token.text + "' is not .vN");
      }
    } else if (!attr.empty() && llvm::all_of(attr, llvm::isAlnum) &&
               llvm::isLower(attr.front())) {
      // An operand kind: its family module says what it means (checked
      // when the modules load: Families/FamilyModule.cpp).
      if (!op.kind.empty())
        tableError(raw, "operand '" + op.name + "' has two kinds, '" + op.kind +
                            "' and '" + attr + "'");
      op.kind = attr;
    } else {
      tableError(raw, "unknown operand attribute '" + attr + "'");
    }
  }
  bool isMemory = op.role == Role::MemoryDst || op.role == Role::MemorySrc;
  if (!isMemory && (op.spaceSlot >= 0 || !op.chunkName.empty()))
    tableError(raw, "operand '" + op.name +
                        "': only memory operands have a space or a byte atom");
  if (!isMemory && op.bulkRole != BulkTensorRole::None)
    tableError(raw, "operand '" + op.name +
                        "': only memory operands are TMA boxes or maps");
  if (isMemory && op.allowsImmediate)
    tableError(raw, "a memory operand cannot take an immediate");
  if (op.role == Role::RegisterDst && op.allowsImmediate)
    tableError(raw, "a destination cannot take an immediate");
  if (op.isReadWrite && op.role != Role::RegisterDst)
    tableError(raw, "only a register destination can be read-write");
  if (op.descriptor != DescriptorMatrix::None && op.role != Role::MemorySrc)
    tableError(raw, "only a memory source can be a matrix descriptor");
  return op;
}

static Table buildTable() {
  Table table;
  for (const RawForm &raw : rawForms) {
    Form form;
    form.raw = &raw;
    SmallVector<StringRef, 16> parts;
    StringRef(raw.slots).split(parts, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef part : parts) {
      form.slots.push_back(parseSlot(raw, part));
      if (llvm::count_if(form.slots, [&](const SlotSpec &slot) {
            return slot.name == form.slots.back().name;
          }) > 1)
        tableError(raw, "duplicate slot '" + form.slots.back().name + "'");
    }
    parts.clear();
    StringRef(raw.operands).split(parts, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef part : parts) {
      if (part == "_" || part == "_loop") {
        if (!form.operands.empty() || form.hidden != HiddenDestination::None)
          tableError(raw, "'" + part + "' must be the first operand word");
        form.hidden = part == "_" ? HiddenDestination::Sink
                                  : HiddenDestination::RetryUntilTrue;
        continue;
      }
      form.operands.push_back(parseOperand(raw, form, part));
      Role role = form.operands.back().role;
      form.isMemory |= role == Role::MemoryDst || role == Role::MemorySrc;
    }
    form.spaceSlot = form.findSlot(Slot::space);
    // Two state spaces (cp.async's .shared.global: destination, source) are
    // ordered, so `.global.shared` is refused, never read as the reverse.
    if (form.spaceSlot >= 0 && form.findSlot(Slot::sspace) >= 0)
      form.slots[form.spaceSlot].isOrdered = true;
    for (OperandSpec &op : form.operands) {
      if (op.remoteName.empty())
        continue;
      auto *rank = llvm::find_if(form.operands, [&](const OperandSpec &other) {
        return other.name == op.remoteName;
      });
      if (rank == form.operands.end() ||
          (op.role != Role::MemoryDst && op.role != Role::MemorySrc))
        tableError(raw, "operand '" + op.name + "': 'remote=" + op.remoteName +
                            "' must name an operand of a memory operand");
      op.remoteOperand = rank - form.operands.begin();
    }
    for (OperandSpec &op : form.operands) {
      if (op.chunkName.empty())
        continue;
      auto *size = llvm::find_if(form.operands, [&](const OperandSpec &other) {
        return other.name == op.chunkName;
      });
      if (size == form.operands.end() || !size->allowsImmediate)
        tableError(raw, "operand '" + op.name + "': 'bytes=" + op.chunkName +
                            "' must name an operand that takes an immediate");
      op.chunkOperand = size - form.operands.begin();
      // Operand indices count present operands: none before it is optional.
      if (llvm::any_of(
              ArrayRef(form.operands).take_front(op.chunkOperand),
              [](const OperandSpec &other) { return other.presentSlot >= 0; }))
        tableError(raw, "an optional operand precedes '" + op.chunkName + "'");
    }
    auto [execName, execFlag] = StringRef(raw.exec).split('+');
    std::optional<ExecKind> exec = parseExecKind(execName);
    if (!exec || (!execFlag.empty() && execFlag != "volatile"))
      tableError(raw, "unknown execution kind '" + Twine(raw.exec) + "'");
    form.exec = *exec;
    form.isVolatile = *exec != ExecKind::Thread || execFlag == "volatile";
    if (!form.operands.empty() && form.operands.front().joinsPrevious &&
        form.hidden != HiddenDestination::Sink)
      tableError(raw, "the first operand cannot join a previous one");
    // A collective's register destinations say who holds what; a
    // per-thread form's operands are the thread's own.
    bool collective = form.exec != ExecKind::Thread;
    for (const OperandSpec &op : form.operands)
      if ((op.role == Role::RegisterDst && collective && op.fragment < 0) ||
          (!collective && op.fragment >= 0))
        tableError(raw, "operand '" + op.name +
                            "': a collective's register destinations, and "
                            "only a collective's operands, have a fragment");
    // A tiled fragment's atom divides the matrix of every token of its slot.
    for (const OperandSpec &op : form.operands) {
      if (op.fragmentTileSlot < 0)
        continue;
      if (op.fragment < 0 || op.atomShape.size() != 2)
        tableError(raw, "operand '" + op.name +
                            "': 'tile=' needs a two-dimensional 'frag='");
      for (const TokenSpec &token : form.slots[op.fragmentTileSlot].tokens) {
        std::optional<std::array<unsigned, 3>> mnk =
            parseMatrixShape(token.text);
        if (!mnk || (*mnk)[0] % op.atomShape[0] || (*mnk)[1] % op.atomShape[1])
          tableError(raw, "operand '" + op.name + "': token '" + token.text +
                              "' is no mMnNkK matrix its fragment divides");
      }
    }
    // Every token a type reference can produce must name an element class.
    for (const OperandSpec &op : form.operands)
      for (auto [slot, text] : op.typeRefs)
        if (slot >= 0)
          for (const TokenSpec &token : form.slots[slot].tokens)
            if (!getTokenClass(token.text))
              tableError(raw, "type token '" + token.text + "' has no class");

    StringRef family = raw.family;
    if (!table.formsByFamily.count(family))
      table.families.push_back(family);
    table.formsByFamily[family].push_back(table.forms.size());
    StringSet<> &known = table.familyTokens[family];
    FormInfo info;
    info.family = family;
    info.name = raw.name;
    info.exec = form.exec;
    info.minSM = raw.minSM;
    info.minPTX = raw.minPTX;
    for (const SlotSpec &slot : form.slots) {
      SlotInfo slotInfo;
      slotInfo.name = slot.name;
      slotInfo.mandatory = slot.mandatory;
      for (const TokenSpec &token : slot.tokens) {
        known.insert(token.text);
        slotInfo.tokens.push_back(token.text);
      }
      info.slots.push_back(std::move(slotInfo));
    }
    if (llvm::any_of(table.infos, [&](const FormInfo &other) {
          return other.name == info.name;
        }))
      tableError(raw, "duplicate entry name");
    table.infos.push_back(std::move(info));
    table.forms.push_back(std::move(form));
  }
  return table;
}

const Table &getTable() {
  static const Table table = buildTable();
  return table;
}

ArrayRef<StringRef> getFamilyNames() { return getTable().families; }

ArrayRef<FormInfo> getForms() { return getTable().infos; }

ArrayRef<FragmentInfo> getFragments() { return fragments; }

std::optional<std::array<unsigned, 3>> parseMatrixShape(StringRef token) {
  std::array<unsigned, 3> mnk;
  if (!token.consume_front("m") || token.consumeInteger(10, mnk[0]) ||
      !token.consume_front("n") || token.consumeInteger(10, mnk[1]) ||
      !token.consume_front("k") || token.consumeInteger(10, mnk[2]) ||
      !token.empty() || !mnk[0] || !mnk[1] || !mnk[2])
    return std::nullopt;
  return mnk;
}

SmallVector<int64_t, 2> FragmentInfo::getShape() const {
  SmallVector<int64_t, 2> extents;
  SmallVector<StringRef, 2> parts;
  shape.split(parts, 'x');
  for (StringRef part : parts) {
    int64_t extent;
    if (part.getAsInteger(10, extent) || extent < 1)
      return {};
    extents.push_back(extent);
  }
  return extents;
}

unsigned FragmentInfo::getAtom() const {
  unsigned atom = 1;
  for (int64_t extent : getShape())
    atom *= extent;
  return atom;
}

} // namespace mlir::tirx::ptx
