// line_index_test.cpp — LineIndex gives llvm::SourceMgr::getLineAndColumn's numbers at every offset, line breaks of every kind included.
#include "LineIndex.h"

#include <gtest/gtest.h>
#include <llvm/Support/MemoryBuffer.h>

#include <random>
#include <string>

namespace tcp {
namespace {

void expectSameAsSourceMgr(const std::string &text) {
  llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "t.tcp"), llvm::SMLoc());
  const char *start = sm.getMemoryBuffer(id)->getBufferStart();
  LineIndex index(sm, id);
  for (size_t at = 0; at <= text.size(); ++at) {  // the end-of-buffer location too
    llvm::SMLoc loc = llvm::SMLoc::getFromPointer(start + at);
    ASSERT_EQ(index.lineAndColumn(loc), sm.getLineAndColumn(loc, id)) << "offset " << at << " of " << text.size();
  }
}

TEST(LineIndex, MatchesSourceMgr) {
  expectSameAsSourceMgr("");
  expectSameAsSourceMgr("axes![A = 8];");
  expectSameAsSourceMgr("a\nbc\n\nd\n");
  expectSameAsSourceMgr("a\r\nb\rc\n\r\r\n");
}

TEST(LineIndex, MatchesSourceMgrOnRandomText) {
  std::mt19937 rng(7);
  const char alphabet[] = {'a', ' ', '\n', '\r', '{', '\t'};
  for (int round = 0; round < 50; ++round) {
    std::string text(rng() % 300, ' ');
    for (char &c : text) c = alphabet[rng() % sizeof alphabet];
    expectSameAsSourceMgr(text);
  }
}

}  // namespace
}  // namespace tcp
