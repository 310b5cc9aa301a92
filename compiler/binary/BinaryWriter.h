// BinaryWriter.h — encodes a LoweredProgram as a .tcpb file (tcpc -o; layout in docs/binary-format.md).
#pragma once

#include "Lowering.h"

#include <llvm/ADT/StringRef.h>

#include <string>

namespace tcp {

// The complete file: header, a META section (producer) and a PROG section (the function table).
std::string encodeBinary(const LoweredProgram &program);

// Writes encodeBinary(program) to `path` ("-" for stdout). On failure (a program too large for the format, an
// unwritable path) returns false with a message in `error`; a partial file is removed.
// Writes `bytes` to `path` through a temporary file renamed over it ("-": standard output).
bool writeFileAtomically(const std::string &path, llvm::StringRef bytes, std::string &error);
bool writeBinaryFile(const LoweredProgram &program, const std::string &path, std::string &error);

}  // namespace tcp
