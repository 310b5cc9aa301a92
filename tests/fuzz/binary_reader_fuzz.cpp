// binary_reader_fuzz.cpp — libFuzzer target: the .tcpb reader on arbitrary bytes, raw and with its size and checksum resealed.
//
// Every input must be refused with a message or decode into a program that prints, re-encodes and
// decodes again to the same configuration; anything else (a crash, a sanitizer report, a hang, a
// disagreement) is a defect. Seeds: binaries of the goldens (tests/fuzz/README.md).
#include "BinaryFormat.h"
#include "BinaryReader.h"
#include "BinaryWriter.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

std::string printed(const tcp::LoweredProgram &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  tcp::printConfig(p, os);
  os.flush();
  return s;
}

void check(const std::string &bytes) {
  tcp::BinaryReadResult r = tcp::decodeBinary(bytes, "fuzz.tcpb");
  if (!r.ok()) {
    if (r.error.empty()) std::abort();  // a refusal always says why
    return;
  }
  // A decoded program is a valid one: it prints, and its re-encoding decodes to the same text.
  std::string text = printed(*r.program);
  tcp::BinaryReadResult again = tcp::decodeBinary(tcp::encodeBinary(*r.program), "again.tcpb");
  if (!again.ok() || printed(*again.program) != text) std::abort();
}

// The fields before the checksum are checked on their own; with them rewritten (total size, CRC),
// mutations reach the sections, the function table and the engine records.
std::string resealed(std::string b) {
  using namespace tcp::binfmt;
  if (b.size() < kHeaderSize) return b;
  auto put = [&](size_t at, uint32_t v) {
    for (int k = 0; k < 4; ++k) b[at + k] = char(v >> (8 * k));
  };
  put(kTotalSizeOffset, uint32_t(b.size()));
  put(kChecksumOffset, crc32(reinterpret_cast<const uint8_t *>(b.data()) + kChecksummedFrom, b.size() - kChecksummedFrom));
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  check(bytes);
  check(resealed(bytes));
  return 0;
}
