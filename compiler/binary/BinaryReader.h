// BinaryReader.h — decodes and validates a .tcpb file back into a LoweredProgram (tcpc --disassemble).
#pragma once

#include "EngineRecord.h"
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
// string or flag, an engine field outside its legal range, trailing bytes) yields an error naming
// `name` (and the engine and field at fault); nothing is allocated beyond what the input's own size
// and the format's list limits bound. With `layout`, lists where every engine field lies.
BinaryReadResult decodeBinary(std::string_view bytes, const std::string &name, std::vector<FieldLocation> *layout = nullptr);

// Reads `path` ("-" for stdin) and decodes it. Only regular files are read; files larger than the
// format's limit are refused before they are read (stdin: once the limit is passed).
BinaryReadResult readBinaryFile(const std::string &path);

}  // namespace tcp
