// SourceStream.cpp — lenient UTF-8 decoding into ANTLR's UTF-32 buffer with a code point → byte offset table.
#include "SourceStream.h"

#include <cassert>

namespace tcp {

namespace {

// Decodes one well-formed UTF-8 sequence at `p`; returns its length, or 0 when malformed.
unsigned decodeUtf8(const unsigned char *p, const unsigned char *end, uint32_t &cp) {
  unsigned char c = p[0];
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  unsigned len;
  uint32_t min;
  if ((c & 0xE0) == 0xC0) {
    len = 2, cp = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3, cp = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (end - p < static_cast<std::ptrdiff_t>(len)) return 0;
  for (unsigned k = 1; k < len; ++k) {
    if ((p[k] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[k] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

constexpr size_t kMaxRecordedInvalid = 8;

}  // namespace

SourceStream::SourceStream(llvm::SourceMgr &sm, unsigned bufferId) {
  const llvm::MemoryBuffer *buf = sm.getMemoryBuffer(bufferId);
  start_ = buf->getBufferStart();
  const auto *p = reinterpret_cast<const unsigned char *>(buf->getBufferStart());
  const auto *end = reinterpret_cast<const unsigned char *>(buf->getBufferEnd());
  _data.clear();
  _data.reserve(end - p);
  offsets_.reserve((end - p) + 1);
  const auto *base = p;
  while (p < end) {
    uint32_t cp = 0;
    unsigned len = decodeUtf8(p, end, cp);
    offsets_.push_back(static_cast<uint32_t>(p - base));
    if (len == 0) {
      if (invalid_.size() < kMaxRecordedInvalid) invalid_.push_back(p - base);
      ++invalidCount_;
      cp = 0xFFFD;
      len = 1;
    }
    _data.push_back(static_cast<char32_t>(cp));
    p += len;
  }
  offsets_.push_back(static_cast<uint32_t>(end - base));
  name = buf->getBufferIdentifier().str();
  reset();
}

llvm::SMLoc SourceStream::locOf(size_t index) const {
  if (index >= offsets_.size()) index = offsets_.size() - 1;
  return llvm::SMLoc::getFromPointer(start_ + offsets_[index]);
}

llvm::SMRange SourceStream::rangeOf(const antlr4::Token *tok) const { return rangeOf(tok, tok); }

llvm::SMRange SourceStream::rangeOf(const antlr4::Token *first, const antlr4::Token *last) const {
  assert(first && last && "token range needs tokens");
  size_t n = offsets_.size() - 1;  // code points
  if (first->getType() == antlr4::Token::EOF) return {locOf(n), locOf(n)};
  size_t begin = first->getStartIndex();
  size_t stop = last->getType() == antlr4::Token::EOF ? n : last->getStopIndex() + 1;
  if (begin > n) begin = n;
  if (stop > n) stop = n;
  if (stop < begin) stop = begin;  // an empty rule (e.g. a missing body) ends where it starts
  return {locOf(begin), locOf(stop)};
}

llvm::StringRef SourceStream::textOf(const antlr4::Token *tok) const {
  llvm::SMRange r = rangeOf(tok);
  return llvm::StringRef(r.Start.getPointer(), r.End.getPointer() - r.Start.getPointer());
}

}  // namespace tcp
