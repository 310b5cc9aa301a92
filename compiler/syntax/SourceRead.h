// SourceRead.h — reads a source file ("-": standard input) bounded before it happens: at most one byte past the limit.
#pragma once

#include <cstdint>
#include <string>

namespace tcp {

constexpr uint64_t kMaxSourceBytes = 64ull << 20;  // 64 MiB

// Reads `path` into `text`, stopping one byte past `kMaxSourceBytes` (so /dev/zero or an endless pipe
// is refused instead of filling memory). Returns an error message, empty on success; a text longer
// than the limit is an error too.
std::string readSourceBounded(const std::string &path, std::string &text);

}  // namespace tcp
