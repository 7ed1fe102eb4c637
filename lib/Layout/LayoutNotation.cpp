//===- LayoutNotation.cpp - The S[...] + R[...] + k@axis notation ---------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Grammar (spec §1.2), whitespace allowed between any two tokens:
//
//   layout := term { "+" term }
//   term   := ("S" | "R") "[" dims [ ":" strides ] "]" | stride | swizzle
//   dims   := "(" int { "," int } ")" | int { "," int }
//   strides:= "(" stride { "," stride } ")" | stride { "," stride }
//   stride := int [ "@" axis_name ]
//   int    := [ "-" ] digit { digit }
//   swizzle:= "Swizzle" "[" int "," int "," int [ "," ("inner" | "outer") ] "]"
//
// Terms may come in any order; at most one S, one R and one Swizzle term are
// allowed and offset terms accumulate per axis.
//
// The swizzle term (Swizzle.h) takes TIRx's SwizzleLayout / ComposeLayout
// arguments in their order: per_element, swizzle_len, atom_len, then
// swizzle_inner as a word (default inner). TIRx writes the composition as a
// constructor, not in the S/R notation; a named bracket term keeps one
// notation for everything a `#tirx.layout` holds, reads like the
// constructor, and cannot be mistaken for S or R. Whatever its position, the
// swizzle applies last, to the sum of the other terms. Syntax errors carry the
// 1-based column of the offending token; checks on values (sign, overflow of
// the layout, a missing S term) are done by TileLayout::get and name the iter
// instead.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/TileLayout.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir::tirx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {

class NotationParser {
public:
  explicit NotationParser(llvm::StringRef text) : text(text) {}

  llvm::Expected<LayoutNotation> parse() {
    LayoutNotation notation;
    skipSpace();
    if (atEnd())
      return error("empty layout; expected 'S[...]'");
    while (true) {
      if (llvm::Error err = parseTerm(notation))
        return std::move(err);
      skipSpace();
      if (atEnd())
        return notation;
      if (peek() != '+')
        return error("expected '+' or end of layout, found " + describe());
      ++pos;
      skipSpace();
    }
  }

private:
  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }

  void skipSpace() {
    while (!atEnd() && llvm::isSpace(text[pos]))
      ++pos;
  }

  /// An error at the current position (or at `at`).
  llvm::Error error(const llvm::Twine &reason) { return errorAt(pos, reason); }
  llvm::Error errorAt(size_t at, const llvm::Twine &reason) {
    return makeError("column " + llvm::Twine(at + 1) + ": " + reason);
  }

  /// The token at the current position, quoted, for error messages.
  std::string describe() const {
    if (atEnd())
      return "end of layout";
    size_t end = pos + 1;
    if (isIdentChar(text[pos]))
      while (end < text.size() && isIdentChar(text[end]))
        ++end;
    return ("'" + text.slice(pos, end) + "'").str();
  }

  static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

  llvm::StringRef lexIdentifier() {
    size_t start = pos;
    while (!atEnd() && isIdentChar(text[pos]))
      ++pos;
    return text.slice(start, pos);
  }

  bool startsInteger() const {
    return !atEnd() && (llvm::isDigit(text[pos]) || text[pos] == '-');
  }

  /// Consumes `c` (after whitespace) or reports what was expected.
  llvm::Error expect(char c, llvm::StringRef what) {
    skipSpace();
    if (peek() != c)
      return error("expected " + what + ", found " + describe());
    ++pos;
    return llvm::Error::success();
  }

  llvm::Expected<int64_t> parseInteger(llvm::StringRef what) {
    skipSpace();
    size_t start = pos;
    bool negative = false;
    if (peek() == '-') {
      negative = true;
      ++pos;
      skipSpace();
    }
    if (atEnd() || !llvm::isDigit(text[pos])) {
      pos = start;
      return error("expected " + what + ", found " + describe());
    }
    size_t digitsStart = pos;
    // Accumulate negatively so that INT64_MIN is representable.
    int64_t value = 0;
    bool overflow = false;
    while (!atEnd() && llvm::isDigit(text[pos])) {
      if (llvm::MulOverflow(value, int64_t(10), value) ||
          llvm::SubOverflow(value, int64_t(text[pos] - '0'), value))
        overflow = true;
      ++pos;
    }
    if (!overflow && !negative && llvm::SubOverflow(int64_t(0), value, value))
      overflow = true;
    if (overflow)
      return errorAt(start, llvm::Twine("integer '") + (negative ? "-" : "") +
                                text.slice(digitsStart, pos) +
                                "' does not fit in int64");
    if (!atEnd() && isIdentChar(text[pos]))
      return error("unexpected " + describe() + " after integer");
    return value;
  }

  /// stride := int [ "@" axis_name ]
  llvm::Expected<NotationStride> parseStride(llvm::StringRef what) {
    llvm::Expected<int64_t> value = parseInteger(what);
    if (!value)
      return value.takeError();
    skipSpace();
    if (peek() != '@')
      return NotationStride{*value, Axis::m};
    ++pos;
    skipSpace();
    size_t nameStart = pos;
    llvm::StringRef name = lexIdentifier();
    if (name.empty())
      return error("expected an axis name after '@', found " + describe());
    std::optional<Axis> axis = parseAxisName(name);
    if (!axis) {
      std::string names;
      llvm::raw_string_ostream os(names);
      llvm::ListSeparator sep;
      for (unsigned a = 0; a < kNumAxes; ++a)
        os << sep << getAxisName(static_cast<Axis>(a));
      return errorAt(nameStart,
                     "unknown axis '" + name + "'; expected one of " + names);
    }
    return NotationStride{*value, *axis};
  }

  /// A list in parentheses, or a bare list that ends before `:` or `]`.
  template <typename T, typename ParseOne>
  llvm::Error parseList(llvm::SmallVectorImpl<T> &out, ParseOne parseOne) {
    skipSpace();
    bool parens = peek() == '(';
    if (parens)
      ++pos;
    while (true) {
      auto item = parseOne();
      if (!item)
        return item.takeError();
      out.push_back(*item);
      skipSpace();
      if (peek() != ',')
        break;
      ++pos;
    }
    if (parens)
      return expect(')', "',' or ')'");
    return llvm::Error::success();
  }

  /// ("S" | "R") "[" dims [ ":" strides ] "]", after the letter.
  llvm::Error parseBracketTerm(NotationTerm &term) {
    if (llvm::Error err = expect('[', "'['"))
      return err;
    if (llvm::Error err =
            parseList(term.extents, [&]() -> llvm::Expected<int64_t> {
              llvm::Expected<int64_t> extent = parseInteger("an extent");
              if (extent) {
                skipSpace();
                if (peek() == '@')
                  return error("extents take no axis; write strides like "
                               "'4@laneid' after ':'");
              }
              return extent;
            }))
      return err;
    skipSpace();
    if (peek() == ':') {
      ++pos;
      if (llvm::Error err =
              parseList(term.strides, [&] { return parseStride("a stride"); }))
        return err;
    }
    return expect(']', term.strides.empty() ? "',', ':' or ']'" : "',' or ']'");
  }

  /// "[" p "," s "," a [ "," ("inner" | "outer") ] "]", after the word.
  llvm::Error parseSwizzleTerm(NotationSwizzle &swizzle) {
    if (llvm::Error err = expect('[', "'['"))
      return err;
    int64_t *counts[] = {&swizzle.perElement, &swizzle.swizzleLen,
                         &swizzle.atomLen};
    const char *names[] = {"per_element", "swizzle_len", "atom_len"};
    for (unsigned i = 0; i < 3; ++i) {
      if (i > 0)
        if (llvm::Error err = expect(',', "','"))
          return err;
      std::string what = std::string("the swizzle's ") + names[i];
      llvm::Expected<int64_t> value = parseInteger(what);
      if (!value)
        return value.takeError();
      *counts[i] = *value;
    }
    skipSpace();
    if (peek() == ',') {
      ++pos;
      skipSpace();
      size_t wordStart = pos;
      llvm::StringRef side = lexIdentifier();
      if (side != "inner" && side != "outer") {
        pos = wordStart;
        return error("expected 'inner' or 'outer', found " + describe());
      }
      swizzle.swizzleInner = side == "inner";
    }
    return expect(']', "',' or ']'");
  }

  llvm::Error parseTerm(LayoutNotation &notation) {
    size_t start = pos;
    if (startsInteger()) {
      llvm::Expected<NotationStride> offset = parseStride("an offset");
      if (!offset)
        return offset.takeError();
      notation.offsets.push_back(*offset);
      return llvm::Error::success();
    }
    llvm::StringRef word = lexIdentifier();
    if (word == "Swizzle") {
      if (notation.swizzle)
        return errorAt(start, "second swizzle term; a layout has at most one "
                              "Swizzle[...]");
      return parseSwizzleTerm(notation.swizzle.emplace());
    }
    if (word == "S" || word == "R") {
      std::optional<NotationTerm> &slot =
          word == "S" ? notation.shard : notation.replica;
      if (slot)
        return errorAt(start, word == "S"
                                  ? "second shard term; a layout has exactly "
                                    "one S[...]"
                                  : "second replica term; a layout has at "
                                    "most one R[...]");
      NotationTerm term;
      if (llvm::Error err = parseBracketTerm(term))
        return err;
      slot = std::move(term);
      return llvm::Error::success();
    }
    pos = start;
    return error(
        "expected 'S[', 'R[', 'Swizzle[' or an integer offset, found " +
        describe());
  }

  llvm::StringRef text;
  size_t pos = 0;
};

} // namespace

llvm::Expected<LayoutNotation>
mlir::tirx::parseLayoutNotation(llvm::StringRef text) {
  return NotationParser(text).parse();
}

/// Turns one written term into iters; `kind` is "shard" or "replica".
static llvm::Error buildIters(const NotationTerm &term, llvm::StringRef kind,
                              llvm::SmallVectorImpl<Iter> &iters) {
  llvm::StringRef name =
      kind == "shard" ? "shard term S[...]" : "replica term R[...]";
  if (term.extents.empty())
    return makeError(name + " has no extents");
  if (!term.strides.empty() && term.strides.size() != term.extents.size())
    return makeError(name + " has " + llvm::Twine(term.extents.size()) +
                     " extents but " + llvm::Twine(term.strides.size()) +
                     " strides; give one stride per extent");
  // Extents are checked before the default strides multiply them.
  for (auto [index, extent] : llvm::enumerate(term.extents))
    if (extent <= 0)
      return makeError(kind + " iter " + llvm::Twine(index) + " has extent " +
                       llvm::Twine(extent) + "; extents must be positive");
  iters.resize(term.extents.size());
  if (!term.strides.empty()) {
    for (size_t i = 0; i < iters.size(); ++i)
      iters[i] =
          Iter{term.extents[i], term.strides[i].value, term.strides[i].axis};
    return llvm::Error::success();
  }
  // No strides: row-major contiguous on m.
  int64_t stride = 1;
  for (size_t i = iters.size(); i-- > 0;) {
    iters[i] = Iter{term.extents[i], stride, Axis::m};
    if (i > 0 && llvm::MulOverflow(stride, term.extents[i], stride))
      return makeError(kind == "shard"
                           ? "layout size overflows int64 (product of the "
                             "shard extents)"
                           : "replica count overflows int64 (product of the "
                             "replica extents)");
  }
  return llvm::Error::success();
}

llvm::Expected<TileLayout> TileLayout::get(const LayoutNotation &notation) {
  if (!notation.shard)
    return makeError("layout has no shard term; expected 'S[...]'");
  llvm::SmallVector<Iter, 4> shardIters;
  if (llvm::Error err = buildIters(*notation.shard, "shard", shardIters))
    return std::move(err);
  llvm::SmallVector<Iter, 2> replicaIters;
  if (notation.replica)
    if (llvm::Error err =
            buildIters(*notation.replica, "replica", replicaIters))
      return std::move(err);
  PhysicalCoord offset{};
  for (const NotationStride &term : notation.offsets) {
    if (static_cast<unsigned>(term.axis) >= kNumAxes)
      return makeError("offset has an invalid axis");
    if (llvm::AddOverflow(at(offset, term.axis), term.value,
                          at(offset, term.axis)))
      return makeError("offsets on " + getAxisName(term.axis) +
                       " overflow int64");
  }
  std::optional<Swizzle> swizzle;
  if (notation.swizzle) {
    llvm::Expected<Swizzle> checked =
        Swizzle::get(notation.swizzle->perElement, notation.swizzle->swizzleLen,
                     notation.swizzle->atomLen, notation.swizzle->swizzleInner);
    if (!checked)
      return checked.takeError();
    swizzle = *checked;
  }
  return get(shardIters, replicaIters, offset, swizzle);
}

llvm::Expected<TileLayout> TileLayout::parse(llvm::StringRef text) {
  llvm::Expected<LayoutNotation> notation = parseLayoutNotation(text);
  if (!notation)
    return notation.takeError();
  return get(*notation);
}
