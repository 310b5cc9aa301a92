// LspProtocol.cpp — Content-Length framing of JSON-RPC messages (llvm::json) and UTF-16 positions.
#include "LspProtocol.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FormatVariadic.h>

namespace tcp::lsp {

std::optional<llvm::json::Value> readMessage(std::istream &in, std::string *error) {
  std::string line;
  std::optional<size_t> length;
  bool any = false;
  while (std::getline(in, line)) {
    any = true;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      if (length) break;
      continue;  // stray blank line between messages
    }
    llvm::StringRef l(line);
    if (l.consume_front_insensitive("content-length:")) {
      size_t n = 0;
      if (l.trim().getAsInteger(10, n)) {
        *error = "bad Content-Length header `" + line + "`";
        return llvm::json::Value(nullptr);
      }
      length = n;
    }
  }
  if (!any || !length) return std::nullopt;
  std::string body(*length, '\0');
  in.read(body.data(), std::streamsize(*length));
  if (size_t(in.gcount()) != *length) return std::nullopt;
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(body);
  if (!v) {
    *error = llvm::toString(v.takeError());
    return llvm::json::Value(nullptr);
  }
  return std::move(*v);
}

void writeMessage(std::ostream &out, const llvm::json::Value &message) {
  std::string body = llvm::formatv("{0}", message).str();
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

llvm::json::Value toJson(const Position &p) { return llvm::json::Object{{"line", p.line}, {"character", p.character}}; }

llvm::json::Value rangeJson(const Position &start, const Position &end) {
  return llvm::json::Object{{"start", toJson(start)}, {"end", toJson(end)}};
}

std::optional<Position> positionFromJson(const llvm::json::Value *v) {
  const llvm::json::Object *o = v ? v->getAsObject() : nullptr;
  if (!o) return std::nullopt;
  auto line = o->getInteger("line"), character = o->getInteger("character");
  if (!line || !character || *line < 0 || *character < 0) return std::nullopt;
  return Position{unsigned(*line), unsigned(*character)};
}

namespace {
// Bytes of the UTF-8 sequence starting with `c`, and its UTF-16 length.
size_t utf8Length(unsigned char c) { return c < 0x80 ? 1 : c >> 5 == 6 ? 2 : c >> 4 == 14 ? 3 : c >> 3 == 30 ? 4 : 1; }
}  // namespace

size_t offsetOf(const std::string &text, const Position &p) {
  size_t at = 0;
  for (unsigned l = 0; l < p.line; ++l) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) return text.size();
    at = nl + 1;
  }
  unsigned units = 0;
  while (at < text.size() && text[at] != '\n' && units < p.character) {
    size_t n = utf8Length(static_cast<unsigned char>(text[at]));
    units += n == 4 ? 2 : 1;
    at += n;
  }
  return std::min(at, text.size());
}

Position positionOf(const std::string &text, size_t offset) { return positionOnLine(text, 0, 0, offset); }

Position positionOnLine(const std::string &text, unsigned line, size_t lineStart, size_t offset) {
  Position p{line, 0};
  offset = std::min(offset, text.size());
  for (size_t at = lineStart; at < offset;) {
    if (text[at] == '\n') {
      ++p.line;
      p.character = 0;
      ++at;
      continue;
    }
    size_t n = utf8Length(static_cast<unsigned char>(text[at]));
    p.character += n == 4 ? 2 : 1;
    at += n;
  }
  return p;
}

std::string pathOfUri(const std::string &uri) {
  llvm::StringRef u(uri);
  if (!u.consume_front("file://")) return uri;
  std::string path;
  for (size_t k = 0; k < u.size(); ++k) {
    unsigned v = 0;
    if (u[k] == '%' && k + 2 < u.size() && !u.substr(k + 1, 2).getAsInteger(16, v)) {
      path += char(v);
      k += 2;
    } else {
      path += u[k];
    }
  }
  return path;
}

}  // namespace tcp::lsp
