// LspProtocol.h — the Language Server Protocol's wire format: Content-Length framed JSON-RPC messages and positions in UTF-16 code units.
#pragma once

#include <llvm/Support/JSON.h>

#include <cstddef>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

namespace tcp::lsp {

// Reads one message (`Content-Length: N` header lines, an empty line, N bytes of JSON). nullopt at
// the end of the input; a message that is not JSON yields a JSON null with *error set.
std::optional<llvm::json::Value> readMessage(std::istream &in, std::string *error);
// Writes one message with its Content-Length header and flushes.
void writeMessage(std::ostream &out, const llvm::json::Value &message);

// An LSP position: zero-based line and character, characters counted in UTF-16 code units.
struct Position {
  unsigned line = 0, character = 0;
};
llvm::json::Value toJson(const Position &p);
llvm::json::Value rangeJson(const Position &start, const Position &end);
std::optional<Position> positionFromJson(const llvm::json::Value *v);

// The byte offset of a position in `text` (clamped to the end of its line, or of the text).
size_t offsetOf(const std::string &text, const Position &p);
// The position of a byte offset in `text`.
Position positionOf(const std::string &text, size_t offset);
// The same for an offset on the line `line` (from 0) that starts at `lineStart`: O(column), not O(offset).
Position positionOnLine(const std::string &text, unsigned line, size_t lineStart, size_t offset);

// `file:///a/b.tcp` ↔ `/a/b.tcp` (percent-escapes decoded; other URIs are kept as they are).
std::string pathOfUri(const std::string &uri);

}  // namespace tcp::lsp
