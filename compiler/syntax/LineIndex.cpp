// LineIndex.cpp — the line-break tables of one buffer and lookups in them.
#include "LineIndex.h"

#include <algorithm>
#include <cassert>

namespace tcp {

LineIndex::LineIndex(const llvm::SourceMgr &sm, unsigned bufferId) {
  const llvm::MemoryBuffer *buf = sm.getMemoryBuffer(bufferId);
  start_ = buf->getBufferStart();
  size_t size = buf->getBufferSize();
  for (size_t i = 0; i < size; ++i) {
    char c = start_[i];
    if (c != '\n' && c != '\r') continue;
    breaks_.push_back(static_cast<uint32_t>(i));
    if (c == '\n') newlines_.push_back(static_cast<uint32_t>(i));
  }
}

std::pair<unsigned, unsigned> LineIndex::lineAndColumn(llvm::SMLoc loc) const {
  assert(loc.getPointer() >= start_ && "location outside the indexed buffer");
  size_t at = static_cast<size_t>(loc.getPointer() - start_);
  auto before = [at](const std::vector<uint32_t> &v) {
    return static_cast<size_t>(std::lower_bound(v.begin(), v.end(), at) - v.begin());
  };
  unsigned line = static_cast<unsigned>(before(newlines_) + 1);
  size_t b = before(breaks_);
  size_t lineStart = b == 0 ? 0 : breaks_[b - 1] + 1;
  return {line, static_cast<unsigned>(at - lineStart + 1)};
}

}  // namespace tcp
