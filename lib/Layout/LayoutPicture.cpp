//===- LayoutPicture.cpp - A TileLayout drawn as an SVG picture -----------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/LayoutPicture.h"
#include "TirX/Layout/LayoutViews.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace mlir::tirx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error mlir::tirx::checkPictureDrawable(const TileLayout &layout,
                                             llvm::ArrayRef<int64_t> shape) {
  if (llvm::Error err = checkViewShape(layout, shape))
    return err;
  int64_t copies;
  if (llvm::MulOverflow(layout.size(), layout.getNumReplicas(), copies) ||
      copies > kMaxPictureEntries)
    return makeError("too many element copies to draw (" +
                     llvm::Twine(layout.size()) + " elements x " +
                     llvm::Twine(layout.getNumReplicas()) + " replicas > " +
                     llvm::Twine(kMaxPictureEntries) + ")");
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// What the picture shows
//===----------------------------------------------------------------------===//

namespace {

/// The owners of every element and the threads and slots they use.
struct PictureData {
  llvm::SmallVector<Axis> axes;
  /// owners[flat]: base owner first, then each replica (forEachOwner order).
  std::vector<llvm::SmallVector<PhysicalCoord, 1>> owners;
  /// Owning threads (their used-axis values) in thread-view order → row.
  std::map<std::vector<int64_t>, int64_t> threadRows;
  /// Slots in use, ascending → column of the thread view.
  std::map<int64_t, int64_t> slotColumns;
  /// (thread row, slot column) → the elements held there, ascending.
  std::map<std::pair<int64_t, int64_t>, llvm::SmallVector<int64_t, 1>> held;

  std::vector<int64_t> threadKey(const PhysicalCoord &coord) const {
    std::vector<int64_t> key;
    for (Axis axis : axes)
      key.push_back(at(coord, axis));
    return key;
  }
};

} // namespace

static PictureData collect(const TileLayout &layout) {
  PictureData data;
  data.axes = getViewThreadAxes(layout);
  data.owners.resize(layout.size());
  for (int64_t flat = 0, e = layout.size(); flat < e; ++flat)
    layout.forEachOwner(flat, [&](const PhysicalCoord &coord) {
      data.owners[flat].push_back(coord);
      data.threadRows[data.threadKey(coord)] = 0;
      data.slotColumns[at(coord, Axis::m)] = 0;
    });
  int64_t index = 0;
  for (auto &entry : data.threadRows)
    entry.second = index++;
  index = 0;
  for (auto &entry : data.slotColumns)
    entry.second = index++;
  for (int64_t flat = 0, e = layout.size(); flat < e; ++flat)
    for (const PhysicalCoord &coord : data.owners[flat]) {
      llvm::SmallVector<int64_t, 1> &cell =
          data.held[{data.threadRows[data.threadKey(coord)],
                     data.slotColumns[at(coord, Axis::m)]}];
      if (cell.empty() || cell.back() != flat)
        cell.push_back(flat);
    }
  return data;
}

static bool uses(llvm::ArrayRef<Axis> axes, std::initializer_list<Axis> any) {
  return llvm::any_of(any, [&](Axis a) { return llvm::is_contained(axes, a); });
}

static constexpr std::initializer_list<Axis> kBlockAxes = {Axis::bx, Axis::by,
                                                           Axis::bz};
static constexpr std::initializer_list<Axis> kThreadLevel = {
    Axis::laneid, Axis::tid_in_wg, Axis::tx};
static constexpr std::initializer_list<Axis> kWarpLevel = {Axis::warpid,
                                                           Axis::wid_in_wg};

/// The short name of the thread that `coord` names (see the header).
static std::string threadName(llvm::ArrayRef<Axis> axes,
                              const PhysicalCoord &coord) {
  std::string name;
  llvm::raw_string_ostream os(name);
  bool inCta = uses(axes, kThreadLevel) || uses(axes, kWarpLevel) ||
               uses(axes, {Axis::wgid});
  if (uses(axes, kBlockAxes)) {
    os << 'b';
    llvm::ListSeparator sep(",");
    for (Axis axis : kBlockAxes)
      if (llvm::is_contained(axes, axis))
        os << sep << at(coord, axis);
    if (inCta)
      os << ' ';
  }
  if (uses(axes, kThreadLevel))
    os << 'T' << getFlatThreadId(coord);
  else if (uses(axes, kWarpLevel))
    os << 'W'
       << at(coord, Axis::warpid) + at(coord, Axis::wid_in_wg) +
              4 * at(coord, Axis::wgid);
  else if (uses(axes, {Axis::wgid}))
    os << 'G' << at(coord, Axis::wgid);
  return name;
}

/// The legend line that says how a thread name is computed.
static std::string threadNameLegend(llvm::ArrayRef<Axis> axes) {
  auto formula = [&](char letter,
                     llvm::ArrayRef<std::pair<const char *, Axis>> terms) {
    std::string text = std::string(1, letter) + " = ";
    llvm::ListSeparator sep(" + ");
    for (auto [factor, axis] : terms)
      if (llvm::is_contained(axes, axis))
        text += (llvm::Twine(sep) + factor + getAxisName(axis)).str();
    return text;
  };
  std::string text;
  if (uses(axes, kBlockAxes)) {
    text = "b = ";
    llvm::ListSeparator sep(",");
    for (Axis axis : kBlockAxes)
      if (llvm::is_contained(axes, axis))
        text += (llvm::Twine(sep) + getAxisName(axis)).str();
    text += "; ";
  }
  if (uses(axes, kThreadLevel))
    text += formula('T', {{"128*", Axis::wgid},
                          {"32*", Axis::warpid},
                          {"32*", Axis::wid_in_wg},
                          {"", Axis::tid_in_wg},
                          {"", Axis::tx},
                          {"", Axis::laneid}});
  else if (uses(axes, kWarpLevel))
    text += formula(
        'W', {{"4*", Axis::wgid}, {"", Axis::warpid}, {"", Axis::wid_in_wg}});
  else if (uses(axes, {Axis::wgid}))
    text += "G = wgid";
  else if (axes.empty())
    text = "no thread axes: every thread holds the same elements";
  return text;
}

/// `warpid=1 laneid=5 slot 2`, as the text tensor view writes an owner.
static std::string ownerText(llvm::ArrayRef<Axis> axes,
                             const PhysicalCoord &coord) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (Axis axis : axes)
    os << getAxisName(axis) << '=' << at(coord, axis) << ' ';
  os << "slot " << at(coord, Axis::m);
  return text;
}

static llvm::SmallVector<int64_t, 4> unflatten(int64_t flat,
                                               llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> coord(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coord[d] = flat % shape[d];
    flat /= shape[d];
  }
  return coord;
}

/// `[1, 5, 2]`.
static std::string elementText(int64_t flat, llvm::ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(unflatten(flat, shape), os);
  os << ']';
  return text;
}

//===----------------------------------------------------------------------===//
// Drawing
//===----------------------------------------------------------------------===//

// Geometry, in pixels: a monospace font of kFontSize is about 0.6 em wide.
static constexpr int64_t kFontSize = 11;
static constexpr double kCharWidth = 6.7;
static constexpr int64_t kRowHeight = 18;
static constexpr int64_t kMargin = 12;
static constexpr int64_t kPanelGap = 32;

static int64_t textWidth(size_t chars, int64_t minimum = 24) {
  return std::max<int64_t>(minimum, std::ceil(chars * kCharWidth) + 14);
}

static std::string escape(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// A light, deterministic colour per thread row: hues a golden angle apart,
/// so that neighbouring threads differ clearly.
static std::string threadColour(int64_t row) {
  double hue = std::fmod(row * 137.508, 360.0) / 60.0;
  double saturation = 0.65, lightness = 0.80;
  double chroma = (1 - std::fabs(2 * lightness - 1)) * saturation;
  double x = chroma * (1 - std::fabs(std::fmod(hue, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(hue)) {
  case 0:
    r = chroma, g = x;
    break;
  case 1:
    r = x, g = chroma;
    break;
  case 2:
    g = chroma, b = x;
    break;
  case 3:
    g = x, b = chroma;
    break;
  case 4:
    r = x, b = chroma;
    break;
  default:
    r = chroma, b = x;
    break;
  }
  double base = lightness - chroma / 2;
  std::string text;
  llvm::raw_string_ostream os(text);
  for (double channel : {r, g, b})
    os << llvm::format_hex_no_prefix(
        static_cast<unsigned>(std::lround((channel + base) * 255)), 2);
  return "#" + text;
}

namespace {
/// Writes SVG elements; coordinates are integers.
struct SvgWriter {
  llvm::raw_ostream &os;

  void text(int64_t x, int64_t y, llvm::StringRef content,
            llvm::StringRef extra = "") {
    os << "<text x=\"" << x << "\" y=\"" << y << '"' << extra << '>'
       << escape(content) << "</text>\n";
  }
  void line(int64_t x1, int64_t y1, int64_t x2, int64_t y2,
            int64_t weight = 2) {
    os << "<line class=\"sep\" x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\""
       << x2 << "\" y2=\"" << y2 << "\" stroke=\"#222\" stroke-width=\""
       << weight << "\"/>\n";
  }
  /// One cell: a <g> with a tooltip, the fill, the hatch when replicated and
  /// the centred label.
  void cell(llvm::StringRef kind, int64_t x, int64_t y, int64_t width,
            llvm::StringRef fill, bool replicated, llvm::StringRef title,
            llvm::StringRef label) {
    os << "<g class=\"" << kind << (replicated ? " replicated" : "")
       << "\"><title>" << escape(title) << "</title><rect x=\"" << x
       << "\" y=\"" << y << "\" width=\"" << width << "\" height=\""
       << kRowHeight << "\" fill=\"" << fill
       << "\" stroke=\"#fff\" stroke-width=\"1\"/>";
    if (replicated)
      os << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << width
         << "\" height=\"" << kRowHeight << "\" fill=\"url(#tirx-hatch)\"/>";
    os << "<text x=\"" << x + width / 2 << "\" y=\"" << y + kRowHeight - 5
       << "\" text-anchor=\"middle\""
       // A white halo keeps the label readable over the hatch.
       << (replicated ? " stroke=\"#fff\" stroke-width=\"3\" "
                        "stroke-opacity=\"0.85\" paint-order=\"stroke\""
                      : "")
       << '>' << escape(label) << "</text></g>\n";
  }
};
} // namespace

static void writeSvg(llvm::raw_ostream &os, const TileLayout &layout,
                     llvm::ArrayRef<int64_t> shape, bool standalone) {
  if (llvm::Error err = checkPictureDrawable(layout, shape)) {
    llvm::consumeError(std::move(err));
    return;
  }
  PictureData data = collect(layout);
  llvm::ArrayRef<Axis> axes = data.axes;
  auto rowOf = [&](const PhysicalCoord &coord) {
    return data.threadRows.at(data.threadKey(coord));
  };
  auto nameOf = [&](const PhysicalCoord &coord) {
    return threadName(axes, coord);
  };
  // A swizzled tile is coloured by the group of bits its swizzle writes (for
  // the inner hardware modes: which 16-byte chunk of its row an element lands
  // in), so that the XOR pattern shows; threads keep their colours when the
  // layout has thread axes.
  const std::optional<Swizzle> &swizzle = layout.getSwizzle();
  bool colourBySwizzle = swizzle && axes.empty();
  auto swizzleGroup = [&](const PhysicalCoord &coord) {
    int64_t shift = swizzle->getPerElement() +
                    (swizzle->isSwizzleInner() ? 0 : swizzle->getAtomLen());
    int64_t bits = swizzle->isSwizzleInner() ? swizzle->getAtomLen()
                                             : swizzle->getSwizzleLen();
    return (at(coord, Axis::m) >> shift) & ((int64_t(1) << bits) - 1);
  };
  auto elementColour = [&](const PhysicalCoord &coord) {
    return threadColour(colourBySwizzle ? swizzleGroup(coord) : rowOf(coord));
  };

  // The tensor grid: rows × columns, the shape folded CuTe-style.
  size_t rank = shape.size();
  int64_t columns = rank ? shape.back() : 1;
  int64_t rows = layout.size() / columns;
  int64_t blockRows = rank >= 3 ? shape[rank - 2] : rows;

  std::vector<std::string> elementLabels(layout.size());
  size_t labelChars = 1;
  int64_t numReplicated = 0;
  for (int64_t flat = 0, e = layout.size(); flat < e; ++flat) {
    const auto &owners = data.owners[flat];
    std::string label = nameOf(owners.front());
    if (!axes.empty())
      label += ':';
    label += std::to_string(at(owners.front(), Axis::m));
    if (owners.size() > 1) {
      label += " +" + std::to_string(owners.size() - 1);
      ++numReplicated;
    }
    labelChars = std::max(labelChars, label.size());
    elementLabels[flat] = std::move(label);
  }
  auto rowHeader = [&](int64_t row) {
    if (rank == 0)
      return std::string("[]");
    llvm::SmallVector<int64_t, 4> lead = unflatten(row, shape.drop_back());
    std::string text = "[";
    for (int64_t value : lead)
      text += std::to_string(value) + ", ";
    return text + ":]";
  };
  size_t rowHeaderChars = rowHeader(rows - 1).size();
  int64_t tensorCellWidth = textWidth(labelChars);
  int64_t tensorHeaderWidth = textWidth(rowHeaderChars);

  // The thread grid: threads × slots in use.
  int64_t numThreads = data.threadRows.size();
  int64_t numSlots = data.slotColumns.size();
  std::vector<std::string> threadHeaders(numThreads);
  std::vector<PhysicalCoord> threadCoords(numThreads);
  for (const auto &[key, row] : data.threadRows) {
    PhysicalCoord coord{};
    for (auto [axis, value] : llvm::zip(axes, key))
      at(coord, axis) = value;
    threadCoords[row] = coord;
    std::string header = threadName(axes, coord);
    if (axes.empty())
      header = "(all threads)";
    else {
      header += " (";
      llvm::ListSeparator sep(" ");
      for (auto [axis, value] : llvm::zip(axes, key))
        header +=
            (llvm::Twine(sep) + getAxisName(axis) + "=" + llvm::Twine(value))
                .str();
      header += ")";
    }
    threadHeaders[row] = std::move(header);
  }
  size_t slotChars = 1, threadHeaderChars = 1;
  for (const auto &[key, flats] : data.held) {
    size_t chars = 0;
    for (int64_t flat : flats)
      chars += elementText(flat, shape).size() + 1;
    slotChars = std::max(slotChars, chars - 1);
  }
  for (const std::string &header : threadHeaders)
    threadHeaderChars = std::max(threadHeaderChars, header.size());
  for (const auto &[slot, column] : data.slotColumns)
    slotChars = std::max(slotChars, ("slot " + std::to_string(slot)).size());
  int64_t slotCellWidth = textWidth(slotChars);
  int64_t threadHeaderWidth = textWidth(threadHeaderChars);

  // Text above and below the panels.
  std::string shapeText = "(";
  for (auto [index, extent] : llvm::enumerate(shape))
    shapeText += (index ? ", " : "") + std::to_string(extent);
  shapeText += ")";
  std::string layoutText;
  {
    llvm::raw_string_ostream text(layoutText);
    text << layout;
  }
  std::string title = layoutText + " over shape " + shapeText;
  std::string tensorHeading =
      "tensor view: " + std::to_string(layout.size()) +
      (axes.empty() ? " elements, offset" : " elements, owner:slot");
  // What a row of the thread view is: a thread, or a warp, ... (the header).
  const char *unit = uses(axes, kThreadLevel)   ? "thread"
                     : uses(axes, kWarpLevel)   ? "warp"
                     : uses(axes, {Axis::wgid}) ? "warpgroup"
                     : uses(axes, kBlockAxes)   ? "CTA"
                                                : "thread";
  std::string threadHeading = "thread view: " + std::to_string(numThreads) +
                              " " + unit + (numThreads == 1 ? " x " : "s x ") +
                              std::to_string(numSlots) +
                              (numSlots == 1 ? " slot" : " slots");
  std::vector<std::string> legend;
  legend.push_back(threadNameLegend(axes));
  if (colourBySwizzle) {
    std::string legendText;
    llvm::raw_string_ostream legendOs(legendText);
    int64_t low = swizzle->getPerElement() +
                  (swizzle->isSwizzleInner() ? 0 : swizzle->getAtomLen());
    int64_t bits = swizzle->isSwizzleInner() ? swizzle->getAtomLen()
                                             : swizzle->getSwizzleLen();
    legendOs << "colour: bits [" << low << ", " << low + bits
             << ") of the swizzled offset, the "
             << (swizzle->isSwizzleInner() ? "block of " : "row of ")
             << (int64_t(1) << swizzle->getPerElement())
             << " elements it lands in (" << *swizzle << ", period "
             << swizzle->getPeriod() << ")";
    legend.push_back(legendText);
  } else {
    legend.push_back("colour: the owning thread; hover a cell for its owners");
  }
  if (numReplicated)
    legend.push_back("replicated: " + std::to_string(numReplicated) + " of " +
                     std::to_string(layout.size()) +
                     " elements have several owners (label: first owner, "
                     "+N others)");

  // Geometry.
  int64_t headingY = kMargin + 36;
  int64_t gridY = headingY + 10 + kRowHeight;
  int64_t tensorX = kMargin;
  int64_t tensorGridX = tensorX + tensorHeaderWidth;
  int64_t tensorWidth = tensorHeaderWidth + columns * tensorCellWidth;
  int64_t threadX =
      tensorX +
      std::max<int64_t>(tensorWidth, textWidth(tensorHeading.size())) +
      kPanelGap;
  int64_t threadGridX = threadX + threadHeaderWidth;
  int64_t threadWidth = threadHeaderWidth + numSlots * slotCellWidth;
  int64_t gridBottom = gridY + std::max(rows, numThreads) * kRowHeight;
  int64_t legendY = gridBottom + 24;
  int64_t width = std::max<int64_t>(
      {threadX +
           std::max<int64_t>(threadWidth, textWidth(threadHeading.size())),
       kMargin + textWidth(title.size() + 2),
       kMargin + textWidth(legend.back().size() + 4) + 20});
  width += kMargin;
  int64_t height = legendY + legend.size() * kRowHeight + kMargin;

  if (standalone)
    os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << ' '
     << height
     << "\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, "
        "monospace\" font-size=\""
     << kFontSize << "\">\n";
  os << "<defs><pattern id=\"tirx-hatch\" width=\"6\" height=\"6\" "
        "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        "<rect width=\"2\" height=\"6\" fill=\"#000\" fill-opacity=\"0.25\"/>"
        "</pattern></defs>\n";
  os << "<rect width=\"" << width << "\" height=\"" << height
     << "\" fill=\"#fff\"/>\n";
  SvgWriter svg{os};
  svg.text(kMargin, kMargin + 14, title,
           " font-size=\"13\" font-weight=\"bold\"");

  // Tensor view.
  svg.text(tensorX, headingY, tensorHeading, " font-weight=\"bold\"");
  for (int64_t column = 0; column < columns; ++column)
    svg.text(tensorGridX + column * tensorCellWidth + tensorCellWidth / 2,
             gridY - 5, std::to_string(column),
             " text-anchor=\"middle\" fill=\"#555\"");
  for (int64_t row = 0; row < rows; ++row) {
    int64_t y = gridY + row * kRowHeight;
    svg.text(tensorGridX - 6, y + kRowHeight - 5, rowHeader(row),
             " text-anchor=\"end\" fill=\"#555\"");
    for (int64_t column = 0; column < columns; ++column) {
      int64_t flat = row * columns + column;
      const auto &owners = data.owners[flat];
      std::string tip = elementText(flat, shape) + ":";
      llvm::ListSeparator sep(" |");
      for (const PhysicalCoord &owner : owners)
        tip += (llvm::Twine(sep) + " " + ownerText(axes, owner)).str();
      if (colourBySwizzle)
        tip += " (block " +
               std::to_string(at(owners.front(), Axis::m) >>
                              swizzle->getPerElement()) +
               ")";
      svg.cell("elem", tensorGridX + column * tensorCellWidth, y,
               tensorCellWidth, elementColour(owners.front()),
               owners.size() > 1, tip, elementLabels[flat]);
    }
  }
  // Between blocks of the folded dimensions: one pixel heavier per
  // dimension that wraps at the boundary.
  for (int64_t row = blockRows; row < rows; row += blockRows) {
    int64_t weight = 2, block = blockRows;
    for (size_t d = rank - 2; d-- > 0 && row % (block *= shape[d]) == 0;)
      ++weight;
    svg.line(tensorGridX - 2, gridY + row * kRowHeight,
             tensorGridX + columns * tensorCellWidth + 2,
             gridY + row * kRowHeight, weight);
  }

  // Thread view.
  svg.text(threadX, headingY, threadHeading, " font-weight=\"bold\"");
  for (const auto &[slot, column] : data.slotColumns)
    svg.text(threadGridX + column * slotCellWidth + slotCellWidth / 2,
             gridY - 5, "slot " + std::to_string(slot),
             " text-anchor=\"middle\" fill=\"#555\"");
  for (int64_t row = 0; row < numThreads; ++row)
    svg.text(threadGridX - 6, gridY + row * kRowHeight + kRowHeight - 5,
             threadHeaders[row], " text-anchor=\"end\" fill=\"#555\"");
  for (const auto &[position, flats] : data.held) {
    auto [row, column] = position;
    std::string label, tip;
    bool replicated = false;
    for (int64_t flat : flats) {
      label += (label.empty() ? "" : " ") + elementText(flat, shape);
      replicated |= data.owners[flat].size() > 1;
    }
    tip = threadHeaders[row] + " slot " +
          std::to_string(std::next(data.slotColumns.begin(), column)->first) +
          ": " + label;
    if (replicated)
      tip += " (replicated)";
    svg.cell("slot", threadGridX + column * slotCellWidth,
             gridY + row * kRowHeight, slotCellWidth,
             colourBySwizzle ? elementColour(data.owners[flats.front()].front())
                             : threadColour(row),
             replicated, tip, label);
  }
  // A line where an outer thread axis changes (e.g. the next warp).
  if (axes.size() > 1) {
    auto key = [&](int64_t row) {
      std::vector<int64_t> values;
      for (Axis axis : axes.drop_back())
        values.push_back(at(threadCoords[row], axis));
      return values;
    };
    for (int64_t row = 1; row < numThreads; ++row)
      if (key(row) != key(row - 1))
        svg.line(threadGridX - 2, gridY + row * kRowHeight,
                 threadGridX + numSlots * slotCellWidth + 2,
                 gridY + row * kRowHeight);
  }

  // Legend.
  for (auto [index, line] : llvm::enumerate(legend)) {
    int64_t y = legendY + index * kRowHeight;
    bool swatch = llvm::StringRef(line).starts_with("replicated");
    if (swatch)
      os << "<rect class=\"legend-hatch\" x=\"" << kMargin << "\" y=\""
         << y - 12 << "\" width=\"16\" height=\"14\" fill=\"#ddd\"/><rect x=\""
         << kMargin << "\" y=\"" << y - 12
         << "\" width=\"16\" height=\"14\" fill=\"url(#tirx-hatch)\"/>\n";
    svg.text(kMargin + (swatch ? 22 : 0), y, line);
  }
  os << "</svg>\n";
}

void mlir::tirx::printLayoutSvg(llvm::raw_ostream &os, const TileLayout &layout,
                                llvm::ArrayRef<int64_t> shape) {
  writeSvg(os, layout, shape, /*standalone=*/true);
}

void mlir::tirx::printLayoutHtml(llvm::raw_ostream &os,
                                 const TileLayout &layout,
                                 llvm::ArrayRef<int64_t> shape) {
  if (llvm::Error err = checkPictureDrawable(layout, shape)) {
    llvm::consumeError(std::move(err));
    return;
  }
  std::string layoutText;
  llvm::raw_string_ostream text(layoutText);
  text << layout;
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n<title>"
     << escape(layoutText)
     << "</title>\n<style>body { margin: 16px; background: #fff; }</style>\n"
        "</head>\n<body>\n";
  writeSvg(os, layout, shape, /*standalone=*/false);
  os << "</body>\n</html>\n";
}
