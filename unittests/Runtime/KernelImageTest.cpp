//===- KernelImageTest.cpp - Parameter counts read from kernel images -----===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "KernelImage.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace tirx::runtime;

namespace {

size_t countOf(std::string_view image, std::string_view name) {
  KernelParamCount result = getKernelParamCount(image, name);
  EXPECT_EQ(result.kind, KernelParamCount::Found) << result.reason;
  return result.count;
}

const char *const kPTX = R"(
.version 8.0
.target sm_90
.address_size 64
// .visible .entry k(.param .u64 x) { ret; }
.visible .entry k2(.param .u64 a, .param .u64 b) { ret; }
.visible .entry k(.param .u64 .ptr .global .align 16 a, /* .param .u8 c, */
                  .param .u32 b) { ret; }
.entry empty ( ) { ret; }
.entry bare
{ ret; }
)";

TEST(KernelImagePTX, CountsTheParamsOfTheNamedEntryOnly) {
  EXPECT_EQ(countOf(kPTX, "k"), 2u);
  EXPECT_EQ(countOf(kPTX, "k2"), 2u);
  EXPECT_EQ(countOf(kPTX, "empty"), 0u);
  EXPECT_EQ(countOf(kPTX, "bare"), 0u);
}

TEST(KernelImagePTX, AcceptsTheTerminatingNul) {
  std::string text(kPTX);
  EXPECT_EQ(countOf(std::string_view(text.c_str(), text.size() + 1), "k"), 2u);
}

TEST(KernelImagePTX, NamesMustMatchWholly) {
  EXPECT_EQ(getKernelParamCount(kPTX, "k3").kind,
            KernelParamCount::NoSuchKernel);
  EXPECT_EQ(getKernelParamCount(kPTX, "").kind, KernelParamCount::NoSuchKernel);
  EXPECT_EQ(getKernelParamCount(kPTX, "emp").kind,
            KernelParamCount::NoSuchKernel);
}

TEST(KernelImagePTX, RejectsTextThatIsNotPTX) {
  KernelParamCount result = getKernelParamCount("hello", "k");
  EXPECT_EQ(result.kind, KernelParamCount::Unreadable);
  EXPECT_EQ(result.reason, "the image is neither PTX text (it has no .version "
                           "directive) nor an ELF cubin");
  result = getKernelParamCount(".version 8.0\n.entry k(.param .u32 a", "k");
  EXPECT_EQ(result.kind, KernelParamCount::Unreadable);
  EXPECT_EQ(result.reason, "the parameter list of .entry k is not closed");
}

/// A minimal ELF cubin: a null section, the section name table and one
/// `.nv.info.<kernel>` table per kernel with the given attribute records.
std::string
makeCubin(const std::vector<std::pair<std::string, std::string>> &kernels) {
  std::string names(1, '\0');
  std::vector<std::pair<size_t, std::string>> sections; // name offset, data
  size_t shstrtabName = names.size();
  names += std::string(".shstrtab") + '\0';
  for (const auto &[kernel, records] : kernels) {
    sections.push_back({names.size(), records});
    names += ".nv.info." + kernel + '\0';
  }
  sections.insert(sections.begin(), {shstrtabName, names});
  std::string data(sizeof(Elf64_Ehdr), '\0');
  std::vector<Elf64_Shdr> headers(1 + sections.size());
  std::memset(headers.data(), 0, headers.size() * sizeof(Elf64_Shdr));
  for (size_t i = 0; i < sections.size(); ++i) {
    headers[i + 1].sh_name = sections[i].first;
    headers[i + 1].sh_offset = data.size();
    headers[i + 1].sh_size = sections[i].second.size();
    data += sections[i].second;
  }
  Elf64_Ehdr header;
  std::memset(&header, 0, sizeof header);
  std::memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS64;
  header.e_shoff = data.size();
  header.e_shentsize = sizeof(Elf64_Shdr);
  header.e_shnum = headers.size();
  header.e_shstrndx = 1;
  std::memcpy(data.data(), &header, sizeof header);
  data.append(reinterpret_cast<const char *>(headers.data()),
              headers.size() * sizeof(Elf64_Shdr));
  return data;
}

/// One attribute record: {format, attribute, u16 value or size} + payload.
std::string record(uint8_t format, uint8_t attribute, std::string payload = {},
                   uint16_t value = 0) {
  if (format == 0x04)
    value = payload.size();
  std::string out{char(format), char(attribute), char(value & 0xff),
                  char(value >> 8)};
  return out + payload;
}

std::string kernelParam() { return record(0x04, 0x17, std::string(12, '\0')); }

TEST(KernelImageCubin, CountsKernelParamRecords) {
  std::string other = record(0x04, 0x37, std::string(4, '\x82')) +
                      record(0x03, 0x1b, {}, 0xff) + record(0x02, 0x4c, {}, 1);
  std::string cubin = makeCubin(
      {{"k3", other + kernelParam() + kernelParam() + kernelParam() + other},
       {"k0", other},
       {"k", kernelParam()}});
  EXPECT_EQ(countOf(cubin, "k3"), 3u);
  EXPECT_EQ(countOf(cubin, "k0"), 0u);
  EXPECT_EQ(countOf(cubin, "k"), 1u);
  EXPECT_EQ(getKernelParamCount(cubin, "k1").kind,
            KernelParamCount::NoSuchKernel);
}

TEST(KernelImageCubin, EveryTruncationIsUnreadableOrAnswered) {
  std::string cubin = makeCubin({{"k", kernelParam() + kernelParam()}});
  for (size_t size = 4; size < cubin.size(); ++size) {
    KernelParamCount result =
        getKernelParamCount(std::string_view(cubin).substr(0, size), "k");
    EXPECT_EQ(result.kind, KernelParamCount::Unreadable) << "size " << size;
    EXPECT_EQ(result.reason.rfind("the ELF cubin is malformed: ", 0), 0u);
  }
}

TEST(KernelImageCubin, TruncatedAttributeTableIsMalformed) {
  std::string records = kernelParam();
  records.resize(records.size() - 1);
  KernelParamCount result =
      getKernelParamCount(makeCubin({{"k", records}}), "k");
  EXPECT_EQ(result.kind, KernelParamCount::Unreadable);
  EXPECT_EQ(
      result.reason,
      "the ELF cubin is malformed: a kernel's attribute table is truncated");
}

TEST(KernelImageCubin, RejectsA32BitElf) {
  std::string cubin = makeCubin({{"k", kernelParam()}});
  cubin[EI_CLASS] = ELFCLASS32;
  KernelParamCount result = getKernelParamCount(cubin, "k");
  EXPECT_EQ(result.kind, KernelParamCount::Unreadable);
  EXPECT_EQ(result.reason, "the ELF cubin is malformed: not a 64-bit ELF file");
}

} // namespace
