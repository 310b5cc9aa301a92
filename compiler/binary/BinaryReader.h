// BinaryReader.h — decodes and validates a .tcpb file back into a LoweredProgram (tcpc --disassemble).
#pragma once

#include "Lowering.h"

#include <optional>
#include <string>
#include <string_view>

namespace tcp {

struct BinaryReadResult {
  std::optional<LoweredProgram> program;  // set iff error is empty
  std::string producer;                   // the META section, e.g. "tcpc 0.1.0" (empty if absent)
  std::string error;                      // "'x.tcpb' is truncated: ...", "... bad magic ...", ...
  bool ok() const { return program.has_value(); }
};

// Decodes a complete file image. Every corrupt or truncated input (bad magic, another format
// version, a size or count that does not fit the remaining bytes, a checksum mismatch, a malformed
// string or flag, trailing bytes) yields an error naming `name`; nothing is allocated beyond what
// the input's own size bounds.
BinaryReadResult decodeBinary(std::string_view bytes, const std::string &name);

// Reads `path` ("-" for stdin) and decodes it. Only regular files are read; files larger than the
// format's limit are refused before they are read (stdin: once the limit is passed).
BinaryReadResult readBinaryFile(const std::string &path);

}  // namespace tcp
