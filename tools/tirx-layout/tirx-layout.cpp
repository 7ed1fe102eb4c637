//===- tirx-layout.cpp - Inspect a TileLayout from the command line -------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
//   tirx-layout '<layout>' [--shape=2,32,4]
//               [--view=tensor|thread|swizzle|both|none]
//               [--format=text|svg|html]
//               [--compose='<index layout>' | --product='<layout>' |
//                --divide='<tiler>' | --complement=N | --right-inverse |
//                --coalesce]
//
// With one of the layout-algebra options (LayoutAlgebra.h), the layout
// shown is the result of that operation on the given one, and the summary
// says which (`from: compose(A, B)`).
// Prints a summary (the layout as written, its canonical form, size, span
// per used axis, scope pair, and for a swizzled layout its swizzle) followed
// by the requested views (`both`: tensor and thread, and the swizzle view of
// a swizzled layout); with
// --format=svg, the picture of both views instead (LayoutPicture.h), and
// with --format=html, an HTML page that embeds it. Everything is
// checked before anything is printed: any error is one line
// `tirx-layout: error: <message>` on stderr and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/LayoutAlgebra.h"
#include "TirX/Layout/LayoutPicture.h"
#include "TirX/Layout/LayoutViews.h"
#include "TirX/Layout/TileLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>
#include <string>

using namespace mlir::tirx;

// --help shows these and the generic options only, not the hundreds of
// backend options every LLVM library registers.
static llvm::cl::OptionCategory layoutCategory("tirx-layout options");

static llvm::cl::opt<std::string>
    layoutText(llvm::cl::Positional, llvm::cl::Required,
               llvm::cl::desc("<layout, e.g. 'S[(2, 32, 4) : (1@warpid, "
                              "1@laneid, 1)]'>"),
               llvm::cl::cat(layoutCategory));

static llvm::cl::opt<std::string>
    shapeText("shape",
              llvm::cl::desc("Logical shape to view the layout over, e.g. "
                             "2,32,4 (default: the shard extents)"),
              llvm::cl::value_desc("d0,d1,..."), llvm::cl::cat(layoutCategory));

static llvm::cl::opt<std::string>
    viewText("view",
             llvm::cl::desc("Views to print: tensor, thread, swizzle (the XOR "
                            "pattern of a swizzled layout), both or none"),
             llvm::cl::value_desc("tensor|thread|swizzle|both|none"),
             llvm::cl::init("both"), llvm::cl::cat(layoutCategory));

static llvm::cl::opt<std::string>
    formatText("format",
               llvm::cl::desc("Output: text (summary and views), svg (a "
                              "picture of both views) or html (a page "
                              "embedding the picture)"),
               llvm::cl::value_desc("text|svg|html"), llvm::cl::init("text"),
               llvm::cl::cat(layoutCategory));

static llvm::cl::opt<std::string> composeText(
    "compose",
    llvm::cl::desc("Show layout(inner(i)) for this index layout (iters on m)"),
    llvm::cl::value_desc("inner layout"), llvm::cl::cat(layoutCategory));

static llvm::cl::opt<std::string> productText(
    "product",
    llvm::cl::desc("Show the logical product: the layout repeated at every "
                   "value of this one"),
    llvm::cl::value_desc("layout"), llvm::cl::cat(layoutCategory));

static llvm::cl::opt<std::string> divideText(
    "divide",
    llvm::cl::desc("Show the logical divide by this tiler (tile number, then "
                   "position in the tile)"),
    llvm::cl::value_desc("tiler"), llvm::cl::cat(layoutCategory));

static llvm::cl::opt<std::string> complementSize(
    "complement",
    llvm::cl::desc("Show the complement that covers [0, N) with the layout"),
    llvm::cl::value_desc("N"), llvm::cl::cat(layoutCategory));

static llvm::cl::opt<bool>
    rightInverseFlag("right-inverse",
                     llvm::cl::desc("Show the layout's right inverse"),
                     llvm::cl::cat(layoutCategory));

static llvm::cl::opt<bool>
    coalesceFlag("coalesce",
                 llvm::cl::desc("Show the same function with the fewest iters"),
                 llvm::cl::cat(layoutCategory));

[[noreturn]] static void fail(const llvm::Twine &message) {
  llvm::errs() << "tirx-layout: error: " << message << '\n';
  llvm::errs().flush();
  std::exit(1);
}

static void failOn(llvm::Error err) {
  if (err)
    fail(llvm::toString(std::move(err)));
}

/// Parses `2,32,4` into positive dimensions.
static llvm::SmallVector<int64_t> parseShape(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',');
  llvm::SmallVector<int64_t> shape;
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      fail("invalid --shape '" + text + "': empty dimension");
    int64_t value;
    // getAsInteger fails on non-numbers and on int64 overflow alike.
    if (part.getAsInteger(10, value)) {
      if (llvm::all_of(part, llvm::isDigit))
        fail("invalid --shape '" + text + "': '" + part +
             "' does not fit in int64");
      fail("invalid --shape '" + text + "': '" + part +
           "' is not a positive integer");
    }
    if (value <= 0)
      fail("invalid --shape '" + text + "': '" + part +
           "' is not a positive integer");
    shape.push_back(value);
  }
  return shape;
}

/// The second layout of a binary operation's option.
static TileLayout parseOperand(llvm::StringRef option, llvm::StringRef text) {
  llvm::Expected<TileLayout> operand = TileLayout::parse(text);
  if (!operand)
    fail("invalid --" + option + " layout '" + text +
         "': " + llvm::toString(operand.takeError()));
  return *operand;
}

/// The result of the layout-algebra option given, if any (`from` says what
/// it computed), or the operation's error.
static llvm::Expected<std::optional<TileLayout>>
applyAlgebra(const TileLayout &layout, std::string &from) {
  llvm::SmallVector<llvm::StringRef, 2> given;
  if (composeText.getNumOccurrences())
    given.push_back("--compose");
  if (productText.getNumOccurrences())
    given.push_back("--product");
  if (divideText.getNumOccurrences())
    given.push_back("--divide");
  if (complementSize.getNumOccurrences())
    given.push_back("--complement");
  if (rightInverseFlag)
    given.push_back("--right-inverse");
  if (coalesceFlag)
    given.push_back("--coalesce");
  if (given.empty())
    return std::optional<TileLayout>();
  if (given.size() > 1)
    fail("give one layout-algebra option, got " + given[0] + " and " +
         given[1]);
  std::string input = layout.toString();
  auto wrap = [](llvm::Expected<TileLayout> result)
      -> llvm::Expected<std::optional<TileLayout>> {
    if (!result)
      return result.takeError();
    return std::optional<TileLayout>(std::move(*result));
  };
  if (composeText.getNumOccurrences()) {
    TileLayout inner = parseOperand("compose", composeText);
    from = "compose(" + input + ", " + inner.toString() + ")";
    return wrap(compose(layout, inner));
  }
  if (productText.getNumOccurrences()) {
    TileLayout other = parseOperand("product", productText);
    from = "logical_product(" + input + ", " + other.toString() + ")";
    return wrap(logicalProduct(layout, other));
  }
  if (divideText.getNumOccurrences()) {
    TileLayout tiler = parseOperand("divide", divideText);
    from = "logical_divide(" + input + ", " + tiler.toString() + ")";
    return wrap(logicalDivide(layout, tiler));
  }
  if (complementSize.getNumOccurrences()) {
    int64_t target;
    if (llvm::StringRef(complementSize).trim().getAsInteger(10, target) ||
        target < 1)
      fail("invalid --complement '" + complementSize +
           "': expected a positive integer (the size to cover)");
    from = "complement(" + input + ", " + std::to_string(target) + ")";
    return wrap(complement(layout, target));
  }
  if (rightInverseFlag) {
    from = "right_inverse(" + input + ")";
    return wrap(rightInverse(layout));
  }
  from = "coalesce(" + input + ")";
  return std::optional<TileLayout>(coalesce(layout));
}

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(layoutCategory);
  // Collect llvm::cl diagnostics so that they, too, become one error line.
  std::string clErrors;
  llvm::raw_string_ostream clErrorStream(clErrors);
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv, "TirX tile layout inspector\n", &clErrorStream)) {
    // Keep the first line, without the program name and the "Try: <argv0>
    // --help" hint (argv0 varies), starting in lowercase like our errors.
    llvm::StringRef first = llvm::StringRef(clErrors).split('\n').first;
    first = first.split("  Try:").first.trim();
    first.consume_front((llvm::sys::path::filename(argv[0]) + ": ").str());
    std::string message = first.empty() ? "invalid command line" : first.str();
    message[0] = llvm::toLower(message[0]);
    fail(message);
  }

  llvm::StringRef view = viewText;
  if (view != "tensor" && view != "thread" && view != "swizzle" &&
      view != "both" && view != "none")
    fail("invalid --view '" + view +
         "'; expected tensor, thread, swizzle, both or none");

  llvm::StringRef format = formatText;
  if (format != "text" && format != "svg" && format != "html")
    fail("invalid --format '" + format + "'; expected text, svg or html");
  if (format != "text" && viewText.getNumOccurrences())
    fail("--view applies to --format=text only; a picture always shows "
         "both views");

  llvm::Expected<TileLayout> parsed = TileLayout::parse(layoutText);
  if (!parsed)
    fail(llvm::toString(parsed.takeError()));
  std::string from;
  if (llvm::Expected<std::optional<TileLayout>> result =
          applyAlgebra(*parsed, from);
      !result)
    fail(llvm::toString(result.takeError()));
  else if (*result)
    parsed = std::move(**result);
  const TileLayout &layout = *parsed;

  llvm::Expected<std::pair<ExecScope, ExecScope>> scope = layout.getScope();
  if (!scope)
    fail(llvm::toString(scope.takeError()));

  llvm::SmallVector<int64_t> shape;
  if (shapeText.getNumOccurrences())
    shape = parseShape(shapeText);
  else
    for (const Iter &iter : layout.getShard())
      shape.push_back(iter.extent);
  if (format != "text") {
    failOn(checkPictureDrawable(layout, shape));
    if (format == "svg")
      printLayoutSvg(llvm::outs(), layout, shape);
    else
      printLayoutHtml(llvm::outs(), layout, shape);
    return 0;
  }
  if (view == "swizzle" && !layout.isSwizzled())
    fail("--view=swizzle needs a swizzled layout (a Swizzle[...] term)");
  if (view == "none" || view == "swizzle")
    failOn(checkViewShape(layout, shape));
  else
    failOn(checkViewPrintable(layout, shape));

  llvm::raw_ostream &os = llvm::outs();
  if (!from.empty())
    os << "from: " << from << '\n';
  os << "layout: " << layout << '\n';
  os << "canonical: " << layout.canonicalize() << '\n';
  os << "size: " << layout.size() << '\n';
  os << "span:";
  for (Axis axis : getViewThreadAxes(layout))
    os << ' ' << getAxisName(axis) << '=' << layout.span(axis);
  os << " m=" << layout.span(Axis::m) << '\n';
  os << "scope: (" << getExecScopeName(scope->first) << ", "
     << getExecScopeName(scope->second) << ")\n";
  if (layout.isSwizzled())
    os << "swizzle: " << describeSwizzle(layout) << '\n';

  if (view == "swizzle" || view == "both")
    printSwizzleView(os, layout);
  if (view == "tensor" || view == "both")
    printTensorView(os, layout, shape);
  if (view == "thread" || view == "both")
    printThreadView(os, layout, shape);
  return 0;
}
