// SourceStream.h — decodes a source buffer for ANTLR (UTF-8 → UTF-32) and maps token positions back to SMLocs.
#pragma once

#include <antlr4-runtime.h>
#include <llvm/Support/SMLoc.h>
#include <llvm/Support/SourceMgr.h>

#include <cstdint>
#include <vector>

namespace tcp {

// An ANTLR character stream over one SourceMgr buffer. Invalid UTF-8 bytes decode to U+FFFD, one
// code point per byte, so every code point keeps a byte offset and positions stay exact.
class SourceStream : public antlr4::ANTLRInputStream {
 public:
  SourceStream(llvm::SourceMgr &sm, unsigned bufferId);

  // Byte offsets (into the buffer) of the first invalid UTF-8 bytes, at most a few.
  const std::vector<size_t> &invalidBytes() const { return invalid_; }
  size_t invalidByteCount() const { return invalidCount_; }

  // Source location of code point `index` (index == size() is the end of the buffer).
  llvm::SMLoc locOf(size_t index) const;
  llvm::SMLoc locOfByte(size_t byteOffset) const { return llvm::SMLoc::getFromPointer(start_ + byteOffset); }
  // Range covering a token; EOF tokens get an empty range at the end of the buffer.
  llvm::SMRange rangeOf(const antlr4::Token *tok) const;
  // Range from the start of `first` to the end of `last`.
  llvm::SMRange rangeOf(const antlr4::Token *first, const antlr4::Token *last) const;
  // The exact source bytes of a token (not re-encoded).
  llvm::StringRef textOf(const antlr4::Token *tok) const;
  const char *bufferStart() const { return start_; }

 private:
  const char *start_;
  std::vector<uint32_t> offsets_;  // code point index → byte offset; one extra entry for the end
  std::vector<size_t> invalid_;
  size_t invalidCount_ = 0;
};

}  // namespace tcp
