// LineIndex.h — line and column of locations in one buffer in O(log n), the numbers llvm::SourceMgr::getLineAndColumn gives.
#pragma once

#include <llvm/Support/SMLoc.h>
#include <llvm/Support/SourceMgr.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace tcp {

// SourceMgr finds a column by scanning back to the previous line break, so printing every token or
// AST node of a megabyte line that way is quadratic (a 440 KB line took 28 s for --emit=tokens).
// Built once per buffer, in one pass; then each lookup is two binary searches.
class LineIndex {
 public:
  LineIndex(const llvm::SourceMgr &sm, unsigned bufferId);
  // {line, column}, both from 1: lines count '\n'; the column counts bytes from the last '\n' or '\r'.
  std::pair<unsigned, unsigned> lineAndColumn(llvm::SMLoc loc) const;

 private:
  const char *start_;
  std::vector<uint32_t> newlines_;  // offsets of '\n'
  std::vector<uint32_t> breaks_;    // offsets of '\n' and '\r'
};

}  // namespace tcp
