//===- KernelImage.cpp - What a kernel image says about its kernels -------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "KernelImage.h"

#include <elf.h>

#include <cstdint>
#include <cstring>

using namespace tirx::runtime;

static KernelParamCount found(size_t count) {
  return {KernelParamCount::Found, count, {}};
}
static KernelParamCount noSuchKernel() {
  return {KernelParamCount::NoSuchKernel, 0, {}};
}
static KernelParamCount unreadable(std::string reason) {
  return {KernelParamCount::Unreadable, 0, std::move(reason)};
}

//===----------------------------------------------------------------------===//
// PTX text
//===----------------------------------------------------------------------===//

/// `text` without its `//` and `/* */` comments (each replaced by a space).
static std::string stripComments(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
      if (i == std::string_view::npos)
        break;
    } else if (text.compare(i, 2, "/*") == 0) {
      size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 2;
      out += ' ';
    } else {
      out += text[i++];
    }
  }
  return out;
}

static bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '%';
}

static bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

/// Whether `directive` starts at `pos` of `text` as a whole token.
static bool isDirectiveAt(std::string_view text, size_t pos,
                          std::string_view directive) {
  if (text.compare(pos, directive.size(), directive) != 0)
    return false;
  bool startsToken = pos == 0 || !isIdentifierChar(text[pos - 1]);
  size_t end = pos + directive.size();
  return startsToken && (end == text.size() || !isIdentifierChar(text[end]));
}

static KernelParamCount getPTXParamCount(std::string_view image,
                                         std::string_view name) {
  std::string text = stripComments(image);
  std::string_view ptx(text);
  if (ptx.find(".version") == std::string_view::npos)
    return unreadable("the image is neither PTX text (it has no .version "
                      "directive) nor an ELF cubin");
  for (size_t pos = ptx.find(".entry"); pos != std::string_view::npos;
       pos = ptx.find(".entry", pos + 1)) {
    if (!isDirectiveAt(ptx, pos, ".entry"))
      continue;
    size_t i = pos + 6;
    while (i < ptx.size() && isSpace(ptx[i]))
      ++i;
    size_t nameStart = i;
    while (i < ptx.size() && isIdentifierChar(ptx[i]))
      ++i;
    if (ptx.substr(nameStart, i - nameStart) != name)
      continue;
    while (i < ptx.size() && isSpace(ptx[i]))
      ++i;
    // `.entry k` without a parameter list takes no parameters.
    if (i == ptx.size() || ptx[i] != '(')
      return found(0);
    size_t close = ptx.find(')', i);
    if (close == std::string_view::npos)
      return unreadable("the parameter list of .entry " + std::string(name) +
                        " is not closed");
    size_t count = 0;
    for (size_t param = ptx.find(".param", i); param < close;
         param = ptx.find(".param", param + 1))
      count += isDirectiveAt(ptx, param, ".param");
    return found(count);
  }
  return noSuchKernel();
}

//===----------------------------------------------------------------------===//
// ELF cubin
//===----------------------------------------------------------------------===//

/// A plain-old-data value read from `image` at `offset`, if it fits.
template <typename T>
static bool readAt(std::string_view image, uint64_t offset, T &value) {
  if (offset > image.size() || image.size() - offset < sizeof(T))
    return false;
  std::memcpy(&value, image.data() + offset, sizeof(T));
  return true;
}

// The `.nv.info.<kernel>` attribute records: {u8 format, u8 attribute,
// u16 value}; a record of format EIFMT_SVAL is followed by `value` bytes.
static constexpr uint8_t kFormatSizedValue = 0x04;     // EIFMT_SVAL
static constexpr uint8_t kAttributeKernelParam = 0x17; // EIATTR_KPARAM_INFO

static KernelParamCount getCubinParamCount(std::string_view image,
                                           std::string_view name) {
  auto malformed = [](const char *what) {
    return unreadable(std::string("the ELF cubin is malformed: ") + what);
  };
  Elf64_Ehdr header;
  if (!readAt(image, 0, header) || header.e_ident[EI_CLASS] != ELFCLASS64)
    return malformed("not a 64-bit ELF file");
  if (header.e_shentsize != sizeof(Elf64_Shdr) ||
      header.e_shstrndx >= header.e_shnum)
    return malformed("bad section header table");
  auto section = [&](unsigned index, Elf64_Shdr &out) {
    return readAt(image, header.e_shoff + uint64_t(index) * sizeof(Elf64_Shdr),
                  out);
  };
  Elf64_Shdr names;
  if (!section(header.e_shstrndx, names) || names.sh_offset > image.size() ||
      image.size() - names.sh_offset < names.sh_size)
    return malformed("bad section name table");
  std::string_view nameTable = image.substr(names.sh_offset, names.sh_size);
  std::string wanted = ".nv.info." + std::string(name);
  for (unsigned index = 0; index < header.e_shnum; ++index) {
    Elf64_Shdr info;
    if (!section(index, info) || info.sh_name >= nameTable.size())
      return malformed("bad section header");
    std::string_view sectionName = nameTable.substr(info.sh_name);
    sectionName = sectionName.substr(0, sectionName.find('\0'));
    if (sectionName != wanted)
      continue;
    if (info.sh_offset > image.size() ||
        image.size() - info.sh_offset < info.sh_size)
      return malformed("a kernel's attribute table lies outside the file");
    std::string_view records = image.substr(info.sh_offset, info.sh_size);
    size_t count = 0;
    for (size_t pos = 0; pos < records.size();) {
      uint8_t format, attribute;
      uint16_t value;
      if (!readAt(records, pos, format) ||
          !readAt(records, pos + 1, attribute) ||
          !readAt(records, pos + 2, value))
        return malformed("a kernel's attribute table is truncated");
      pos += 4;
      if (format == kFormatSizedValue) {
        if (records.size() - pos < value)
          return malformed("a kernel's attribute table is truncated");
        pos += value;
      }
      count += attribute == kAttributeKernelParam;
    }
    return found(count);
  }
  return noSuchKernel();
}

KernelParamCount tirx::runtime::getKernelParamCount(std::string_view image,
                                                    std::string_view name) {
  if (image.size() >= 4 && image.compare(0, 4,
                                         "\x7f"
                                         "ELF") == 0)
    return getCubinParamCount(image, name);
  // PTX text may come with its terminating NUL.
  if (!image.empty() && image.back() == '\0')
    image = image.substr(0, image.find('\0'));
  return getPTXParamCount(image, name);
}
